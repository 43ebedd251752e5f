/* A probe of the compaction's drain (bench/RESULTS.md, "2026-12-07 (seventh session)"): the
 * bench's compaction (bench/kernels.c: 4096 elements a block, x < 0.5 kept, one reservation
 * a block, the drain into out[start + slot]) over 16 Mi random floats, one CPU thread, in
 * width-1 blocks and cooperative blocks of 256 lanes. Variant 1 drains into out[slot]
 * instead (start taken as 0): every block then writes the same 8 KiB, which the cache keeps,
 * so the difference is what the 32 MiB output stream costs. Each build runs 41 times; the
 * fastest is printed; three rounds. Built as
 *   cc -O2 -Iinclude probe-drain-2026-12-07.c -Lbuild -ltilejit -Wl,-rpath,build */
#include "tilejit.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static tj_val *
i32(tj_kernel *k, int64_t v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}

static tj_kernel *
kernel(tj_context *ctx, const char *name, int variant, tj_cpu_mode mode, uint32_t B)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32t = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = B, .cpu_mode = mode};
    tj_kernel *k = tj_kernel_create(ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *count = tj_param_array(k, "count", i32t, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    int items = 4096;
    tj_val *s = tj_tile_stack(k, items, f32);
    tj_val *base = tj_binary(k, TJ_BIN_MUL, tid[0], i32(k, items));
    tj_val *j = tj_for_begin(k, i32(k, 0), i32(k, items), tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, base, j), tid[1]);
    tj_val *has = tj_compare(k, TJ_CMP_LT, i, tj_shape(k, x, 0));
    tj_val *safe = tj_select(k, has, i, i32(k, 0));
    tj_val *v = tj_load(k, x, &safe, 1);
    tj_val *below = tj_compare(k, TJ_CMP_LT, v, tj_const_float(k, TJ_DTYPE_F32, 0.5));
    tj_tile_stack_push(k, s, v, tj_binary(k, TJ_BIN_AND, has, below));
    tj_for_end(k);
    int one = 1;
    tj_val *kept = tj_binary(k, TJ_BIN_MUL, tj_tile_ones(k, i32t, 1, &one, TJ_STORAGE_REGISTER),
                             tj_tile_stack_count(k, s));
    tj_val *zero = i32(k, 0);
    tj_val *start = tj_tile_extract(k, tj_tile_atomic_add(k, count, kept, NULL), &zero, 1);
    if (variant == 1)
        start = zero;
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, start, slot);
    tj_store(k, out, &at, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

int
main(void)
{
    int64_t n = 16 << 20, one = 1, nb = n / 4096;
    tj_context *ctx = NULL;
    tj_device *dev = NULL;
    if (tj_context_create(&ctx) != TJ_OK || tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev) != TJ_OK)
        return 1;
    tj_device_set_cpu_threads(dev, 1);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32t = tj_context_get_type(ctx, TJ_DTYPE_I32);
    float *h = malloc((size_t)n * 4);
    srand(1);
    for (int64_t e = 0; e < n; e++)
        h[e] = (float)rand() / (float)RAND_MAX;
    tj_array *x, *out, *cnt;
    tj_array_create(dev, f32, 1, &n, &x);
    tj_array_copy_from_host(x, h, (size_t)n * 4);
    tj_array_create(dev, f32, 1, &n, &out);
    tj_array_create(dev, i32t, 1, &one, &cnt);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(out), tj_arg_array(cnt)};
    for (int round = 0; round < 3; round++)
        for (int variant = 0; variant < 2; variant++)
            for (int coop = 0; coop < 2; coop++) {
                const char *name = variant ? "drain_here" : "drain";
                tj_kernel *k = kernel(ctx, name, variant,
                                      coop ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1, coop ? 256 : 1);
                tj_module *m = NULL;
                if (tj_kernel_build(k, NULL, &m) != TJ_OK) {
                    fprintf(stderr, "%s\n", tj_context_error(ctx));
                    return 1;
                }
                double best = 1e9;
                for (int r = 0; r < 41; r++) {
                    int z = 0;
                    tj_array_copy_from_host(cnt, &z, 4);
                    double t0 = now();
                    tj_launch_tiled(dev, m, name, 1, &nb, coop ? 256 : 1, args, 3);
                    tj_device_synchronize(dev);
                    double t = now() - t0;
                    best = t < best ? t : best;
                }
                printf("variant %d %s: min %.2f ms\n", variant, coop ? "cooperative" : "width-1",
                       best);
                tj_module_destroy(m);
                tj_kernel_destroy(k);
            }
    tj_array_destroy(x);
    tj_array_destroy(out);
    tj_array_destroy(cnt);
    free(h);
    tj_device_destroy(dev);
    tj_context_destroy(ctx);
    return 0;
}
