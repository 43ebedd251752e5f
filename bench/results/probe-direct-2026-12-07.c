/* A probe of stores of computed tiles (bench/RESULTS.md, 2026-12-07): y = 2x + y over
 * (1, N) rows of (R, N) float32 arrays, one block a row, or with 'tiles' over (16, 16)
 * tiles, one block a tile (launch_tiled over [R / 16, N / 16]); width-1, one CPU thread,
 * against the C loop over the same memory. Each side runs 201 times on the same arrays (no
 * reset between runs: the arrays stay where the cache has them) and the 6th-fastest time is
 * printed. ./probe [N [tiles]] with N = 64, 256 (default) or 1024 (a multiple of 16 with
 * 'tiles'); ROWS=R (default 2048). */
#include "tilejit.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int cmp(const void *a, const void *b) {
    double x = *(double *)a, y = *(double *)b;
    return x < y ? -1 : x > y;
}
int main(int argc, char **argv) {
    int N = argc > 1 ? atoi(argv[1]) : 256, R = getenv("ROWS") ? atoi(getenv("ROWS")) : 2048;
    bool tiles = argc > 2 && strcmp(argv[2], "tiles") == 0;
    char src[512];
    if (tiles)
        snprintf(src, sizeof src,
                 "import warp as wp\n\n@wp.kernel\n"
                 "def saxpy(x: wp.array2d[float], y: wp.array2d[float]):\n"
                 "    i, j, _lane = wp.tid()\n"
                 "    a = wp.tile_load(x, shape=(16, 16), offset=(i * 16, j * 16))\n"
                 "    b = wp.tile_load(y, shape=(16, 16), offset=(i * 16, j * 16))\n"
                 "    wp.tile_store(y, a * 2.0 + b, offset=(i * 16, j * 16))\n");
    else
        snprintf(src, sizeof src,
                 "import warp as wp\n\n@wp.kernel\n"
                 "def saxpy(x: wp.array2d[float], y: wp.array2d[float]):\n"
                 "    i = wp.tid()\n"
                 "    a = wp.tile_load(x, shape=(1, %d), offset=(i, 0))\n"
                 "    b = wp.tile_load(y, shape=(1, %d), offset=(i, 0))\n"
                 "    wp.tile_store(y, a * 2.0 + b, offset=(i, 0))\n", N, N);
    tj_context *ctx;
    tj_device *dev;
    tj_program *p;
    tj_module *m;
    tj_context_create(&ctx);
    tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev);
    tj_device_set_cpu_threads(dev, 1);
    tj_kernel_options ko = {.target = TJ_TARGET_CPU};
    tj_build_options bo = {0};
    if (tj_program_create(ctx, src, "probe.py", &p) || tj_program_build(p, "saxpy", &ko, &bo, &m)) {
        fputs(tj_program_error(p), stderr);
        return 1;
    }
    size_t n = (size_t)R * N;
    float *hx = malloc(n * 4), *hy = malloc(n * 4), *cy = malloc(n * 4), *ty = malloc(n * 4);
    srand(1);
    for (size_t i = 0; i < n; i++) {
        hx[i] = (float)(rand() % 2000) / 1000.0f - 1;
        hy[i] = (float)(rand() % 2000) / 1000.0f - 1;
    }
    memcpy(cy, hy, n * 4);
    const tj_type *f = tj_context_get_type(ctx, TJ_DTYPE_F32);
    int64_t shape[2] = {R, N}, blocks[2] = {tiles ? R / 16 : R, N / 16};
    tj_array *ax, *ay;
    tj_array_create(dev, f, 2, shape, &ax);
    tj_array_create(dev, f, 2, shape, &ay);
    tj_array_copy_from_host(ax, hx, n * 4);
    tj_array_copy_from_host(ay, hy, n * 4);
    tj_arg args[2] = {tj_arg_array(ax), tj_arg_array(ay)};
    enum { RUNS = 201 };
    double tt[RUNS], tc[RUNS];
    for (int rep = 0; rep < RUNS; rep++) {
        double t0 = now();
        if (tj_launch_tiled(dev, m, "saxpy", tiles ? 2 : 1, blocks, 1, args, 2) ||
            tj_device_synchronize(dev)) {
            printf("launch: %s\n", tj_device_error(dev));
            return 1;
        }
        tt[rep] = now() - t0;
        t0 = now();
        for (size_t i = 0; i < n; i++)
            cy[i] = 2.0f * hx[i] + cy[i];
        tc[rep] = now() - t0;
    }
    tj_array_copy_to_host(ay, ty, n * 4);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += ty[i] != cy[i];
    qsort(tt, RUNS, sizeof *tt, cmp);
    qsort(tc, RUNS, sizeof *tc, cmp);
    printf("%s N %4d rows %6d  tilejit %.4f ms  C %.4f ms  ratio(C/tj) %.2f  %zu differ\n",
           tiles ? "(16, 16) tiles" : "(1, N) rows", N, R,
           tt[5], tc[5], tc[5] / tt[5], bad);
    return bad != 0;
}
