/*
 * examples/row_products.c: the axis form of tile_reduce (seeds/tile_reduce.txt).
 *
 *   @wp.kernel
 *   def row_products(x: wp.array2d[float], p: wp.array[float]):
 *       t = wp.tile_load(x, shape=(2, 3))
 *       wp.tile_store(p, wp.tile_reduce(wp.mul, t, axis=1))
 *
 *   wp.launch_tiled(row_products, dim=1, inputs=[x], outputs=[p], block_dim=4)
 *
 * Prints [   6. 6000.] on every device.
 */
#include "common/tj_example.h"

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv, "Products of the rows of a 2x3 tile (seeds/tile_reduce.txt).");
    const tj_type *f32 = tj_context_get_type(x.ctx, TJ_DTYPE_F32);
    tj_kernel_options o = tjx_options(&x, 4);
    tj_kernel *k = tj_kernel_create(x.ctx, "row_products", &o);
    tj_val *xv = tj_param_array(k, "x", f32, 2);
    tj_val *p = tj_param_array(k, "p", f32, 1);
    int shape[2] = {2, 3};
    tj_val *t = tj_tile_load(k, xv, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k, p, tj_tile_reduce_axis(k, TJ_REDUCE_MUL, NULL, t, 1), NULL);
    tj_module *m = tjx_build(&x, k);

    float in[6] = {1, 2, 3, 10, 20, 30}, res[2];
    int64_t dims[2] = {2, 3}, two = 2, one = 1;
    tj_array *x_a = tjx_array(&x, TJ_DTYPE_F32, 2, dims, in);
    tj_array *p_a = tjx_array(&x, TJ_DTYPE_F32, 1, &two, NULL);
    tj_arg args[] = {tj_arg_array(x_a), tj_arg_array(p_a)};
    tjx_check(&x, tj_launch_tiled(x.dev, m, "row_products", 1, &one, 4, args, 2), "launch");
    tjx_read(&x, p_a, res);
    double v[2] = {res[0], res[1]};
    tjx_print_array(v, 1, 2, true, false);
    tj_context_destroy(x.ctx);
    bool ok = res[0] == 6.0f && res[1] == 6000.0f;
    if (!ok)
        fprintf(stderr, "%s: expected [6, 6000]\n", argv[0]);
    return ok ? 0 : 1;
}
