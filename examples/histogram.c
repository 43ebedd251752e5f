/*
 * examples/histogram.c: the seed of tile_scatter_add (seeds/tile_scatter_add.txt).
 *
 *   @wp.kernel
 *   def histogram(data: wp.array[float], bins_out: wp.array[float]):
 *       _block, i = wp.tid()
 *       bins = wp.tile_zeros(shape=4, dtype=float, storage="shared")
 *       b = int(data[i] / 2.0)        # bin values in [0, 8) into four bins of width 2
 *       wp.tile_scatter_add(bins, b, 1.0, True)
 *       wp.tile_store(bins_out, bins)
 *
 *   wp.launch_tiled(histogram, dim=1, inputs=[data], outputs=[bins_out], block_dim=8)
 *
 * Prints [1. 2. 3. 2.] on the GPU and with --cpu-blocks. In CPU width-1 mode the block has
 * one lane, i is 0, and only data[0] is counted: [1. 0. 0. 0.] (SPEC 1).
 */
#include "common/tj_example.h"

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv, "A 4-bin histogram of 8 values (seeds/tile_scatter_add.txt).");
    const tj_type *f32 = tj_context_get_type(x.ctx, TJ_DTYPE_F32);
    tj_kernel_options o = tjx_options(&x, 8);
    tj_kernel *k = tj_kernel_create(x.ctx, "histogram", &o);
    tj_val *data = tj_param_array(k, "data", f32, 1);
    tj_val *bins_out = tj_param_array(k, "bins_out", f32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    int four = 4;
    tj_val *bins = tj_tile_zeros(k, f32, 1, &four, TJ_STORAGE_SHARED);
    tj_val *d = tj_load(k, data, &tid[1], 1);
    tj_val *b = tj_cast(k, tj_binary(k, TJ_BIN_DIV, d, tj_const_float(k, TJ_DTYPE_F32, 2.0)),
                        tj_context_get_type(x.ctx, TJ_DTYPE_I32));
    tj_tile_scatter_add(k, bins, &b, 1, tj_const_float(k, TJ_DTYPE_F32, 1.0),
                        tj_const_bool(k, true), tj_const_bool(k, true));
    tj_tile_store(k, bins_out, bins, NULL);
    tj_module *m = tjx_build(&x, k);

    float in[8] = {0.5f, 2.0f, 3.0f, 4.0f, 4.5f, 5.5f, 6.0f, 7.0f}, res[4];
    int64_t eight = 8, n4 = 4, one = 1;
    tj_array *d_a = tjx_array(&x, TJ_DTYPE_F32, 1, &eight, in);
    tj_array *o_a = tjx_array(&x, TJ_DTYPE_F32, 1, &n4, NULL);
    tj_arg args[] = {tj_arg_array(d_a), tj_arg_array(o_a)};
    tjx_check(&x, tj_launch_tiled(x.dev, m, "histogram", 1, &one, 8, args, 2), "launch");
    tjx_read(&x, o_a, res);
    double v[4];
    for (int j = 0; j < 4; j++)
        v[j] = res[j];
    tjx_print_array(v, 1, 4, true, false);
    bool width1 = tj_kernel_get_block_dim(k) == 1;
    const float want[2][4] = {{1, 2, 3, 2}, {1, 0, 0, 0}};
    int bad = 0;
    for (int j = 0; j < 4; j++)
        bad += res[j] != want[width1][j];
    tj_context_destroy(x.ctx);
    if (bad)
        fprintf(stderr, "%s: %d wrong bins\n", argv[0], bad);
    return bad ? 1 : 0;
}
