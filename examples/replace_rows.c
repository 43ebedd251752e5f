/*
 * examples/replace_rows.c: the seed of tile_view (seeds/tile_view.txt).
 *
 *   @wp.kernel
 *   def replace_rows(a: wp.array2d[float], out: wp.array2d[float]):
 *       t = wp.tile_load(a, shape=(4, 4))
 *       rows = wp.tile_view(t, offset=(2, 0), shape=(2, 4))
 *       values = wp.tile_arange(100.0, 108.0, 1.0, dtype=float)
 *       wp.tile_assign(rows, wp.tile_reshape(values, shape=(2, 4)))
 *       wp.tile_store(out, t)
 *
 *   wp.launch_tiled(replace_rows, dim=1, inputs=[a], outputs=[out], block_dim=8)
 *
 * The view aliases t, so the assignment rewrites rows 2 and 3. The same on every device.
 */
#include "common/tj_example.h"

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv, "Writes rows 2-3 of a 4x4 tile through a view (seeds/tile_view.txt).");
    const tj_type *f32 = tj_context_get_type(x.ctx, TJ_DTYPE_F32);
    tj_kernel_options o = tjx_options(&x, 8);
    tj_kernel *k = tj_kernel_create(x.ctx, "replace_rows", &o);
    tj_val *a = tj_param_array(k, "a", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 2);
    int shape[2] = {4, 4}, rows_shape[2] = {2, 4};
    tj_val *t = tj_tile_load(k, a, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_view_index offset[2] = {tj_view_at(tj_const_int(k, TJ_DTYPE_I32, 2)),
                               tj_view_at(tj_const_int(k, TJ_DTYPE_I32, 0))};
    tj_val *rows = tj_tile_view(k, t, offset, 2, rows_shape, 2);
    tj_val *values = tj_tile_arange(k, 100.0, 108.0, 1.0, f32, TJ_STORAGE_REGISTER);
    tj_tile_assign(k, rows, tj_tile_reshape(k, values, 2, rows_shape), NULL);
    tj_tile_store(k, out, t, NULL);
    tj_module *m = tjx_build(&x, k);

    float h[16];
    for (int j = 0; j < 16; j++)
        h[j] = (float)j;
    int64_t dims[2] = {4, 4}, one = 1;
    tj_array *a_a = tjx_array(&x, TJ_DTYPE_F32, 2, dims, h);
    tj_array *out_a = tjx_array(&x, TJ_DTYPE_F32, 2, dims, NULL);
    tj_arg args[] = {tj_arg_array(a_a), tj_arg_array(out_a)};
    tjx_check(&x, tj_launch_tiled(x.dev, m, "replace_rows", 1, &one, 8, args, 2), "launch");
    tjx_read(&x, out_a, h);
    double v[16];
    int bad = 0;
    for (int j = 0; j < 16; j++) {
        v[j] = h[j];
        bad += h[j] != (j < 8 ? (float)j : 100.0f + (float)(j - 8));
    }
    tjx_print_array(v, 4, 4, true, true);
    tj_context_destroy(x.ctx);
    if (bad)
        fprintf(stderr, "%s: %d wrong elements\n", argv[0], bad);
    return bad ? 1 : 0;
}
