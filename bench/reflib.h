/*
 * bench/reflib.h: libtjref.so (bench/reference/), the GPU references, loaded at run time.
 */
#ifndef TJ_BENCH_REFLIB_H
#define TJ_BENCH_REFLIB_H

#include "bench.h"
#include "reference/tjref.h"

typedef struct bench_reflib {
    void *lib;
    char path[4096];
    char gpu[300];                     /* the device's name, from tjref_init */
    tjref_describe_fn *describe;
    tjref_error_fn *error;
    tjref_init_fn *init;
    tjref_copy_fn *copy;
    tjref_reduce_sum_fn *reduce_sum;
    tjref_histogram_even_fn *histogram_even;
    tjref_histogram_shared_fn *histogram_shared;
    tjref_select_less_fn *select_less;
    tjref_launch_empty_fn *launch_empty;
    tjref_load_ptx_fn *load_ptx;
    tjref_device_slots_fn *device_slots;
} bench_reflib;

/* Loads libtjref.so from $TILEJIT_BENCH_REFLIB, beside 'self', or the loader's path, and
 * calls tjref_init. NULL with the reason in 'why'. */
bench_reflib *bench_reflib_open(const char *self, char *why, size_t n);
void bench_reflib_close(bench_reflib *r);

#endif /* TJ_BENCH_REFLIB_H */
