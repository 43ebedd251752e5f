/* C written as the (16, 16) tile kernel of probe-direct-2026-12-07.c is (bench/RESULTS.md,
 * 2026-12-07, third session): y = 2x + y over R = 2048 rows of N floats, one (16, 16) tile at
 * a time, the tiles along a band of 16 rows, then the next band; beside C's loop over the
 * rows (the probe's reference). One thread, 201 runs each on arrays left where the cache
 * has them, the 6th-fastest. ./a.out N (a multiple of 16). Built with gcc -O3 -march=native
 * -ffp-contract=off. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
enum { R = 2048, RUNS = 201 };
static int N;
__attribute__((noinline)) static void rows(const float *x, float *y) {
    for (long i = 0; i < (long)R * N; i++)
        y[i] = 2 * x[i] + y[i];
}
__attribute__((noinline)) static void tiles(const float *restrict x, float *restrict y) {
    for (int bi = 0; bi < R / 16; bi++)
        for (int bj = 0; bj < N / 16; bj++) {
            const float *xt = x + (long)bi * 16 * N + bj * 16;
            float *yt = y + (long)bi * 16 * N + bj * 16;
            for (int r = 0; r < 16; r++)
                for (int c = 0; c < 16; c++)
                    yt[(long)r * N + c] = 2 * xt[(long)r * N + c] + yt[(long)r * N + c];
        }
}
int main(int argc, char **argv) {
    N = argc > 1 ? atoi(argv[1]) : 256;
    long n = (long)R * N;
    float *x = aligned_alloc(64, n * 4), *y = aligned_alloc(64, n * 4);
    for (long i = 0; i < n; i++) {
        x[i] = (float)(i % 7);
        y[i] = (float)(i % 5);
    }
    double t[RUNS], u[RUNS];
    for (int k = 0; k < RUNS; k++) {
        double a = now();
        rows(x, y);
        t[k] = now() - a;
        a = now();
        tiles(x, y);
        u[k] = now() - a;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    qsort(u, RUNS, sizeof u[0], cmp);
    printf("N %4d: C rows %.4f ms, C (16, 16) tiles %.4f ms, ratio %.2f\n", N, t[5], u[5],
           t[5] / u[5]);
    return 0;
}
