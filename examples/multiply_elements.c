/*
 * examples/multiply_elements.c: the seed of tile_reduce (seeds/tile_reduce.txt).
 *
 *   @wp.kernel
 *   def multiply_elements(x: wp.array[int], out: wp.array[int]):
 *       t = wp.tile_load(x, shape=4)
 *       wp.tile_store(out, wp.tile_reduce(wp.mul, t))
 *
 *   wp.launch_tiled(multiply_elements, dim=1, inputs=[x], outputs=[out], block_dim=2)
 *
 * Prints [756] on every device.
 */
#include "common/tj_example.h"

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv, "The product of a 4-element tile (seeds/tile_reduce.txt).");
    const tj_type *i32 = tj_context_get_type(x.ctx, TJ_DTYPE_I32);
    tj_kernel_options o = tjx_options(&x, 2);
    tj_kernel *k = tj_kernel_create(x.ctx, "multiply_elements", &o);
    tj_val *xv = tj_param_array(k, "x", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    int shape = 4;
    tj_val *t = tj_tile_load(k, xv, 1, &shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k, out, tj_tile_reduce(k, TJ_REDUCE_MUL, NULL, t), NULL);
    tj_module *m = tjx_build(&x, k);

    int32_t in[4] = {3, 7, 4, 9}, res = 0;
    int64_t four = 4, one = 1;
    tj_array *x_a = tjx_array(&x, TJ_DTYPE_I32, 1, &four, in);
    tj_array *out_a = tjx_array(&x, TJ_DTYPE_I32, 1, &one, NULL);
    tj_arg args[] = {tj_arg_array(x_a), tj_arg_array(out_a)};
    tjx_check(&x, tj_launch_tiled(x.dev, m, "multiply_elements", 1, &one, 2, args, 2), "launch");
    tjx_read(&x, out_a, &res);
    double v = res;
    tjx_print_array(&v, 1, 1, false, false);
    tj_context_destroy(x.ctx);
    if (res != 756)
        fprintf(stderr, "%s: expected 756\n", argv[0]);
    return res == 756 ? 0 : 1;
}
