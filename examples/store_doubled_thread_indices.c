/*
 * examples/store_doubled_thread_indices.c: the seed of tile() (seeds/tile.txt).
 *
 *   @wp.kernel
 *   def store_doubled_thread_indices(out: wp.array[int]):
 *       i = wp.tid()
 *       t = wp.tile(i * 2)
 *       wp.tile_store(out, t)
 *
 *   wp.launch(store_doubled_thread_indices, dim=16, outputs=[out], block_dim=16)
 *
 * Prints [ 0  2 ... 30] on the GPU and with --cpu-blocks. In CPU width-1 mode each thread
 * is a block of one lane, so every thread stores its one-element tile at out[0]: out[0]
 * holds some i * 2 and the rest stays 0 (SPEC 1).
 */
#include "common/tj_example.h"

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv,
             "Stores tile(i * 2) for 16 threads in one block of 16 (seeds/tile.txt).");
    tj_kernel_options o = tjx_options(&x, 16);
    tj_kernel *k = tj_kernel_create(x.ctx, "store_doubled_thread_indices", &o);
    tj_val *out = tj_param_array(k, "out", tj_context_get_type(x.ctx, TJ_DTYPE_I32), 1);
    tj_val *i;
    tj_tid(k, 1, &i);
    tj_val *t = tj_tile(k, tj_binary(k, TJ_BIN_MUL, i, tj_const_int(k, TJ_DTYPE_I32, 2)), false);
    tj_tile_store(k, out, t, NULL);
    tj_module *m = tjx_build(&x, k);

    int64_t n = 16;
    tj_array *out_a = tjx_array(&x, TJ_DTYPE_I32, 1, &n, NULL);
    tj_arg args[] = {tj_arg_array(out_a)};
    tjx_check(&x, tj_launch(x.dev, m, "store_doubled_thread_indices", 1, &n, 16, args, 1),
              "launch");
    int32_t h[16];
    tjx_read(&x, out_a, h);
    double v[16];
    for (int j = 0; j < 16; j++)
        v[j] = h[j];
    tjx_print_array(v, 1, 16, false, false);

    bool width1 = tj_kernel_get_block_dim(k) == 1;
    int bad = 0;
    for (int j = 0; j < 16; j++) {
        bool ok = width1 ? (j == 0 ? h[0] % 2 == 0 && h[0] >= 0 && h[0] <= 30 : h[j] == 0)
                         : h[j] == 2 * j;
        bad += !ok;
    }
    tj_context_destroy(x.ctx);
    if (bad)
        fprintf(stderr, "%s: %d wrong elements\n", argv[0], bad);
    return bad ? 1 : 0;
}
