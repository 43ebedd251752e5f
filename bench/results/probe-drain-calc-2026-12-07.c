/* A probe of the cooperative compaction's drain storing what a lane computes from the popped
 * value (bench/RESULTS.md, "2026-12-07 (ninth session)"): the bench's compaction
 * (bench/kernels.c: 4096 elements a block, x < 0.5 kept, one reservation a block) over 16 Mi
 * random floats, one CPU thread, whose drain stores at out[start + slot]:
 *   op 0: value; 1: value * 2; 2: value * 2 + 1; 3: value + float(lane); 4: value * scale.
 * Usage: probe OP [MODE] (MODE 1, the default: cooperative blocks of 256 lanes; 0: width-1);
 * IR=1 prints the module's IR on stderr. Prints the median and min of 21 launches after 2
 * untimed ones, the kept count and the sum of the kept outputs. Built as
 *   cc -O2 -Iinclude probe-drain-calc-2026-12-07.c -Lbuild -ltilejit
 * Not part of the build. */
#include <stdio.h>
#include <stdlib.h>
#include <tilejit.h>
#include <time.h>
static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int
cmp(const void *a, const void *b)
{
    double x = *(double *)a, y = *(double *)b;
    return x < y ? -1 : x > y;
}
static tj_val *
i32(tj_kernel *k, int v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}
int
main(int argc, char **argv)
{
    int op = argc > 1 ? atoi(argv[1]) : 0, mode = argc > 2 ? atoi(argv[2]) : 1;
    int items = 4096, B = mode ? 256 : 1;
    tj_context *ctx;
    tj_context_create(&ctx);
    tj_device *dev;
    tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev);
    tj_device_set_cpu_threads(dev, 1);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32),
                  *i32t = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU,
                           .block_dim = B,
                           .cpu_mode = mode ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
    tj_kernel *k = tj_kernel_create(ctx, "c", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1), *out = tj_param_array(k, "out", f32, 1),
           *count = tj_param_array(k, "count", i32t, 1);
    tj_val *scale = tj_param(k, "scale", f32);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *blk = tid[0], *lane = tid[1];
    tj_val *s = tj_tile_stack(k, items, f32);
    tj_val *base = tj_binary(k, TJ_BIN_MUL, blk, i32(k, items));
    tj_val *j = tj_for_begin(k, i32(k, 0), i32(k, items), tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, base, j), lane);
    tj_val *has = tj_compare(k, TJ_CMP_LT, i, tj_shape(k, x, 0));
    tj_val *safe = tj_select(k, has, i, i32(k, 0));
    tj_val *v = tj_load(k, x, &safe, 1);
    tj_tile_stack_push(
        k, s, v,
        tj_binary(k, TJ_BIN_AND, has,
                  tj_compare(k, TJ_CMP_LT, v, tj_const_float(k, TJ_DTYPE_F32, 0.5))));
    tj_for_end(k);
    int one = 1;
    tj_val *kept = tj_binary(k, TJ_BIN_MUL, tj_tile_ones(k, i32t, 1, &one, TJ_STORAGE_REGISTER),
                             tj_tile_stack_count(k, s));
    tj_val *prev = tj_tile_atomic_add(k, count, kept, NULL);
    tj_val *zero = i32(k, 0);
    tj_val *start = tj_tile_extract(k, prev, &zero, 1);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *p = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, start, slot);
    if (op == 1)
        p = tj_binary(k, TJ_BIN_MUL, p, tj_const_float(k, TJ_DTYPE_F32, 2.0));
    if (op == 2)
        p = tj_binary(k, TJ_BIN_ADD,
                      tj_binary(k, TJ_BIN_MUL, p, tj_const_float(k, TJ_DTYPE_F32, 2.0)),
                      tj_const_float(k, TJ_DTYPE_F32, 1.0));
    if (op == 4)
        p = tj_binary(k, TJ_BIN_MUL, p, scale);
    if (op == 3)
        p = tj_binary(k, TJ_BIN_ADD, p, tj_cast(k, lane, f32));
    tj_store(k, out, &at, 1, p);
    tj_if_end(k);
    tj_while_end(k);
    tj_module *m;
    tj_build_options bo = {.keep_ir = getenv("IR") != NULL};
    if (tj_kernel_build(k, &bo, &m)) {
        fprintf(stderr, "%s\n", tj_kernel_error(k));
        return 1;
    }
    if (getenv("IR"))
        fputs(tj_module_get_ir(m), stderr);
    int64_t n = 16 << 20;
    float *h = malloc(n * 4);
    srand(1);
    for (int64_t q = 0; q < n; q++)
        h[q] = rand() / (float)RAND_MAX;
    tj_array *ax, *ao, *ac;
    int64_t c1 = 1;
    tj_array_create(dev, f32, 1, &n, &ax);
    tj_array_create(dev, f32, 1, &n, &ao);
    tj_array_create(dev, i32t, 1, &c1, &ac);
    tj_array_copy_from_host(ax, h, n * 4);
    tj_arg a[4] = {tj_arg_array(ax), tj_arg_array(ao), tj_arg_array(ac), tj_arg_float(2.0)};
    int64_t nb = n / items;
    double t[21];
    for (int r = -2; r < 21; r++) {
        tj_array_zero(ac);
        double t0 = now();
        tj_launch_tiled(dev, m, "c", 1, &nb, B, a, 4);
        tj_device_synchronize(dev);
        if (r >= 0)
            t[r] = now() - t0;
    }
    int cnt;
    tj_array_copy_to_host(ac, &cnt, 4);
    {
        float *o = malloc(n * 4);
        tj_array_copy_to_host(ao, o, n * 4);
        double sum = 0;
        for (int q = 0; q < cnt; q++)
            sum += o[q];
        printf("sum %.6g ", sum);
        free(o);
    }
    qsort(t, 21, 8, cmp);
    printf("op %d mode %d: median %.3f ms min %.3f kept %d\n", op, mode, t[10], t[0], cnt);
    return 0;
}
