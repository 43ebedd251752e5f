/*
 * bench/timing.c: the host clock and the statistics of a series of timed runs. GPU runs are
 * timed with tj_device_timer (CUDA events) by their groups; this file never touches a
 * device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"

double
bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void
bench_stats(double *ms, int n, double *median, double *min, double *max)
{
    if (n <= 0) {
        *median = *min = *max = NAN;
        return;
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    *median = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    *min = ms[0];
    *max = ms[n - 1];
}

void
bench_format_ms(char *buf, size_t n, double ms)
{
    if (isnan(ms))
        snprintf(buf, n, "-");
    else if (ms < 1e-3)
        snprintf(buf, n, "%.3g ns", ms * 1e6);
    else if (ms < 1.0)
        snprintf(buf, n, "%.3g us", ms * 1e3);
    else if (ms < 1e3)
        snprintf(buf, n, "%.3g ms", ms);
    else
        snprintf(buf, n, "%.3g s", ms * 1e-3);
}
