/* A probe of row kernels (bench/RESULTS.md, 2026-12-06, ninth session): softmax, row sums,
 * y = 2x + y over (1, 256) rows of a 2-d array (saxpy) and of a 1-d one (saxpy1), column
 * sums, each in width-1 mode (argv[2] = 1: cooperative, 64 lanes) on one CPU thread, beside
 * a C loop; median of 41 runs. ./probe [NAME [1]], ROWS=R for R rows (default 65536). */
#include "tilejit.h"
#include <math.h>
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
#define N 256
static int R = 65536;
static const char *src = "import warp as wp\n\n"
                         "@wp.func\n"
                         "def ex(x: float) -> float:\n"
                         "    return wp.exp(x)\n\n"
                         "@wp.kernel\n"
                         "def softmax(x: wp.array2d[float], y: wp.array2d[float]):\n"
                         "    i = wp.tid()\n"
                         "    t = wp.tile_load(x, shape=(1, 256), offset=(i, 0))\n"
                         "    m = wp.tile_max(t)[0]\n"
                         "    e = wp.tile_map(ex, t - m)\n"
                         "    s = wp.tile_sum(e)[0]\n"
                         "    wp.tile_store(y, e / s, offset=(i, 0))\n\n"
                         "@wp.kernel\n"
                         "def rowsum(x: wp.array2d[float], y: wp.array[float]):\n"
                         "    i = wp.tid()\n"
                         "    t = wp.tile_load(x, shape=(8, 256), offset=(i * 8, 0))\n"
                         "    wp.tile_store(y, wp.tile_sum(t, axis=1), offset=i * 8)\n\n"
                         "@wp.kernel\n"
                         "def saxpy(x: wp.array2d[float], y: wp.array2d[float]):\n"
                         "    i = wp.tid()\n"
                         "    a = wp.tile_load(x, shape=(1, 256), offset=(i, 0))\n"
                         "    b = wp.tile_load(y, shape=(1, 256), offset=(i, 0))\n"
                         "    wp.tile_store(y, a * 2.0 + b, offset=(i, 0))\n\n"
                         "@wp.kernel\n"
                         "def saxpy1(x: wp.array[float], y: wp.array[float]):\n"
                         "    i = wp.tid()\n"
                         "    a = wp.tile_load(x, shape=256, offset=i * 256)\n"
                         "    b = wp.tile_load(y, shape=256, offset=i * 256)\n"
                         "    wp.tile_store(y, a * 2.0 + b, offset=i * 256)\n\n"
                         "@wp.kernel\n"
                         "def colsum(x: wp.array2d[float], y: wp.array[float]):\n"
                         "    i = wp.tid()\n"
                         "    t = wp.tile_load(x, shape=(256, 8), offset=(0, i * 8))\n"
                         "    wp.tile_store(y, wp.tile_sum(t, axis=0), offset=i * 8)\n";
static void c_softmax(const float *x, float *y) {
    for (int r = 0; r < R; r++) {
        const float *a = x + (size_t)r * N;
        float *b = y + (size_t)r * N;
        float m = a[0];
        for (int j = 1; j < N; j++)
            m = fmaxf(m, a[j]);
        float s = 0;
        for (int j = 0; j < N; j++) {
            b[j] = expf(a[j] - m);
            s += b[j];
        }
        for (int j = 0; j < N; j++)
            b[j] /= s;
    }
}
static void c_rowsum(const float *x, float *y) {
    for (int r = 0; r < R; r++) {
        float s = 0;
        for (int j = 0; j < N; j++)
            s += x[(size_t)r * N + j];
        y[r] = s;
    }
}
static void c_saxpy(const float *x, float *y) {
    for (size_t i = 0; i < (size_t)R * N; i++)
        y[i] = 2.0f * x[i] + y[i];
}
static void c_colsum(const float *x, float *y) { /* x viewed as [256, R*N/256] */
    size_t C = (size_t)R * N / 256;
    for (size_t c = 0; c < C; c++)
        y[c] = 0;
    for (int r = 0; r < 256; r++)
        for (size_t c = 0; c < C; c++)
            y[c] += x[r * C + c];
}
int main(int argc, char **argv) {
    if (getenv("ROWS"))
        R = atoi(getenv("ROWS"));
    const char *only = argc > 1 ? argv[1] : NULL;
    int mode = argc > 2 ? atoi(argv[2]) : 0;
    tj_context *ctx;
    tj_context_create(&ctx);
    tj_device *dev;
    tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev);
    tj_device_set_cpu_threads(dev, 1);
    tj_program *p;
    if (tj_program_create(ctx, src, "probe.py", &p)) {
        fputs(tj_program_error(p), stderr);
        return 1;
    }
    size_t n = (size_t)R * N;
    float *hx = malloc(n * 4), *hy = malloc(n * 4), *cy = malloc(n * 4), *ty = malloc(n * 4);
    srand(1);
    for (size_t i = 0; i < n; i++) {
        hx[i] = (rand() % 2000) / 1000.0f - 1;
        hy[i] = (rand() % 2000) / 1000.0f - 1;
    }
    const char *names[] = {"softmax", "rowsum", "saxpy", "colsum", "saxpy1"};
    for (int q = 0; q < 5; q++) {
        if (only && strcmp(only, names[q]))
            continue;
        tj_kernel_options ko = {.target = TJ_TARGET_CPU,
                                .block_dim = mode ? 64 : 0,
                                .cpu_mode = mode ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
        tj_build_options bo = {0};
        tj_module *m;
        if (tj_program_build(p, names[q], &ko, &bo, &m)) {
            fputs(tj_program_error(p), stderr);
            return 1;
        }
        int64_t s2[2] = {R, N}, s1n = (int64_t)n, sc[2] = {256, (int64_t)n / 256};
        int64_t s1 = R, s1c = (int64_t)n / 256;
        tj_array *ax, *ay;
        const tj_type *f = tj_context_get_type(ctx, TJ_DTYPE_F32);
        tj_array_create(dev, f, q == 4 ? 1 : 2, q == 4 ? &s1n : q == 3 ? sc : s2, &ax);
        tj_array_copy_from_host(ax, hx, n * 4);
        int ydim = (q == 1 || q == 3 || q == 4) ? 1 : 2;
        int64_t *ys = q == 1 ? &s1 : q == 3 ? &s1c : q == 4 ? &s1n : s2;
        size_t yn = q == 1 ? R : q == 3 ? n / 256 : n;
        tj_array_create(dev, f, ydim, ys, &ay);
        int64_t blocks = q == 1 ? R / 8 : q == 3 ? (int64_t)(n / 256) / 8 : R;
        tj_arg args[2] = {tj_arg_array(ax), tj_arg_array(ay)};
        double tt[41], tc[41];
        for (int rep = 0; rep < 41; rep++) {
            tj_array_copy_from_host(ay, hy, yn * 4);
            memcpy(cy, hy, yn * 4);
            double t0 = now();
            if (tj_launch_tiled(dev, m, names[q], 1, &blocks, mode ? 64 : 1, args, 2)) {
                printf("launch: %s\n", tj_device_error(dev));
                return 1;
            }
            tj_device_synchronize(dev);
            tt[rep] = now() - t0;
            t0 = now();
            if (q == 0)
                c_softmax(hx, cy);
            else if (q == 1)
                c_rowsum(hx, cy);
            else if (q == 2 || q == 4)
                c_saxpy(hx, cy);
            else
                c_colsum(hx, cy);
            tc[rep] = now() - t0;
        }
        tj_array_copy_to_host(ay, ty, yn * 4);
        double maxerr = 0;
        for (size_t i = 0; i < yn; i++) {
            double e = fabs(ty[i] - cy[i]) / (fabs(cy[i]) + 1e-3);
            if (e > maxerr)
                maxerr = e;
        }
        qsort(tt, 41, 8, cmp);
        qsort(tc, 41, 8, cmp);
        printf("%-8s %s tilejit %.2f ms  C %.2f ms  ratio(C/tj) %.2f  maxrelerr %.2g\n", names[q],
               mode ? "coop64" : "w1", tt[20], tc[20], tc[20] / tt[20], maxerr);
        tj_array_destroy(ax);
        tj_array_destroy(ay);
        tj_module_destroy(m);
    }
    return 0;
}
