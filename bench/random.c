/*
 * bench/random.c: random inputs (uniform floats from a counter-based generator, so any
 * thread count gives the same array) and an order-independent hash for checking
 * compactions, whose output order is unspecified.
 */
#include <pthread.h>
#include <unistd.h>

#include "bench.h"

/* SplitMix64 of a counter: independent streams per element index. */
static uint64_t
mix64(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

typedef struct fill_job {
    float *x;
    int64_t begin, end;
    float lo, span;
    uint64_t seed;
} fill_job;

static void *
fill_part(void *arg)
{
    const fill_job *j = arg;
    /* One 64-bit draw gives two 24-bit uniforms. */
    for (int64_t i = j->begin & ~(int64_t)1; i < j->end; i += 2) {
        uint64_t r = mix64(j->seed ^ (uint64_t)i * UINT64_C(0xd1342543de82ef95));
        float u0 = (float)(r >> 40) * 0x1p-24f, u1 = (float)((r >> 8) & 0xffffff) * 0x1p-24f;
        float v0 = j->lo + u0 * j->span, v1 = j->lo + u1 * j->span;
        /* [lo, hi): rounding can reach hi; fold it back to lo */
        if (v0 >= j->lo + j->span)
            v0 = j->lo;
        if (v1 >= j->lo + j->span)
            v1 = j->lo;
        if (i >= j->begin)
            j->x[i] = v0;
        if (i + 1 < j->end)
            j->x[i + 1] = v1;
    }
    return NULL;
}

void
bench_fill_uniform(float *x, int64_t n, float lo, float hi, uint64_t seed, int nthreads)
{
    enum { MAX = 64 };
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > MAX)
        nthreads = MAX;
    if (n < (int64_t)1 << 20)
        nthreads = 1;
    fill_job jobs[MAX];
    pthread_t th[MAX];
    bool started[MAX] = {false};
    for (int t = 0; t < nthreads; t++) {
        /* even boundaries, so that each 64-bit draw belongs to one job */
        int64_t b = (n * t / nthreads) & ~(int64_t)1, e = (n * (t + 1) / nthreads) & ~(int64_t)1;
        if (t == nthreads - 1)
            e = n;
        jobs[t] = (fill_job){.x = x, .begin = b, .end = e, .lo = lo, .span = hi - lo,
                             .seed = seed};
        if (t > 0)
            started[t] = pthread_create(&th[t], NULL, fill_part, &jobs[t]) == 0;
    }
    fill_part(&jobs[0]);
    for (int t = 1; t < nthreads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            fill_part(&jobs[t]);
    }
}

uint64_t
bench_hash_float(float f)
{
    union {
        float f;
        uint32_t u;
    } v = {.f = f};
    return mix64(v.u);
}

uint64_t
bench_multiset_hash(const float *x, int64_t n)
{
    uint64_t h = 0;
    for (int64_t i = 0; i < n; i++)
        h += bench_hash_float(x[i]);
    return h;
}

int
bench_ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}
