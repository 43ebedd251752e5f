/*
 * bench/cpu_reference.c: the C references of the CPU group, compiled with the system
 * compiler at -O3 -march=native (CMakeLists.txt sets it for this file only). Plain C11 and
 * pthreads; no tilejit calls here.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { MAX_PARTS = 256, SUM_LANES = 32 };

typedef struct part {
    void (*fn)(struct part *p);
    const float *x;
    float *out;
    int64_t begin, end;
    float threshold;
    int chunk;
    _Atomic int64_t *cursor;
    float fsum;
    int32_t hist[256];
} part;

static void *
run_part(void *arg)
{
    part *p = arg;
    p->fn(p);
    return NULL;
}

/* Runs fn over 'nthreads' contiguous parts of [0, n); 'proto' gives the shared fields.
 * Returns the parts (free them), whose count is max(1, min(nthreads, MAX_PARTS)). */
static part *
parallel(int nthreads, int64_t n, const part *proto, void (*fn)(part *))
{
    nthreads = nthreads < 1 ? 1 : nthreads > MAX_PARTS ? MAX_PARTS : nthreads;
    part *parts = malloc((size_t)nthreads * sizeof *parts);
    if (!parts)
        abort();
    pthread_t th[MAX_PARTS];
    bool started[MAX_PARTS] = {false};
    for (int t = 0; t < nthreads; t++) {
        parts[t] = *proto;
        parts[t].fn = fn;
        parts[t].begin = n * t / nthreads;
        parts[t].end = n * (t + 1) / nthreads;
        if (t > 0)
            started[t] = pthread_create(&th[t], NULL, run_part, &parts[t]) == 0;
    }
    fn(&parts[0]);
    for (int t = 1; t < nthreads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            fn(&parts[t]);
    }
    return parts;
}

static int
nparts(int nthreads)
{
    return nthreads < 1 ? 1 : nthreads > MAX_PARTS ? MAX_PARTS : nthreads;
}

/* ---- sum ---------------------------------------------------------------------------------- */

static void
sum_part(part *p)
{
    const float *x = p->x + p->begin;
    int64_t n = p->end - p->begin, i = 0;
    float acc[SUM_LANES] = {0};
    for (; i + SUM_LANES <= n; i += SUM_LANES)
        for (int j = 0; j < SUM_LANES; j++)
            acc[j] += x[i + j];
    float s = 0;
    for (; i < n; i++)
        s += x[i];
    for (int j = 0; j < SUM_LANES; j++)
        s += acc[j];
    p->fsum = s;
}

float
bench_ref_sum(const float *x, int64_t n, int nthreads)
{
    part *parts = parallel(nthreads, n, &(part){.x = x}, sum_part);
    float s = 0;
    for (int t = 0; t < nparts(nthreads); t++)
        s += parts[t].fsum;
    free(parts);
    return s;
}

/* ---- histogram ------------------------------------------------------------------------------ */

static void
histogram_part(part *p)
{
    memset(p->hist, 0, sizeof p->hist);
    for (int64_t i = p->begin; i < p->end; i++)
        p->hist[(int)p->x[i]]++;
}

void
bench_ref_histogram(const float *x, int64_t n, int32_t *hist, int nthreads)
{
    part *parts = parallel(nthreads, n, &(part){.x = x}, histogram_part);
    memset(hist, 0, 256 * sizeof *hist);
    for (int t = 0; t < nparts(nthreads); t++)
        for (int b = 0; b < 256; b++)
            hist[b] += parts[t].hist[b];
    free(parts);
}

/* ---- compaction ----------------------------------------------------------------------------- */

static void
compact_part(part *p)
{
    float local[16384];
    int chunk = p->chunk < 16384 ? p->chunk : 16384;
    for (int64_t c = p->begin; c < p->end; c += chunk) {
        int64_t e = c + chunk < p->end ? c + chunk : p->end;
        int m = 0;
        for (int64_t i = c; i < e; i++) {
            local[m] = p->x[i];
            m += p->x[i] < p->threshold;
        }
        int64_t at = atomic_fetch_add_explicit(p->cursor, m, memory_order_relaxed);
        memcpy(p->out + at, local, (size_t)m * sizeof *local);
    }
}

int64_t
bench_ref_compact(const float *x, int64_t n, float threshold, float *out, int chunk,
                  int nthreads)
{
    if (nthreads <= 1) {
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++) {
            out[m] = x[i];
            m += x[i] < threshold;
        }
        return m;
    }
    _Atomic int64_t cursor = 0;
    part *parts = parallel(nthreads, n,
                           &(part){.x = x, .out = out, .threshold = threshold, .chunk = chunk,
                                   .cursor = &cursor},
                           compact_part);
    free(parts);
    return atomic_load(&cursor);
}

/* ---- copy ----------------------------------------------------------------------------------- */

static void
copy_part(part *p)
{
    memcpy(p->out + p->begin, p->x + p->begin, (size_t)(p->end - p->begin) * sizeof(float));
}

void
bench_ref_copy(float *dst, const float *src, int64_t n, int nthreads)
{
    free(parallel(nthreads, n, &(part){.x = src, .out = dst}, copy_part));
}
