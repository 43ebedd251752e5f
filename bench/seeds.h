/*
 * bench/seeds.h: the kernels of the compile group (seeds.c): the six seed kernels and a
 * larger one, each with its inputs, a check of its output and the equivalent CUDA C++.
 */
#ifndef TJ_BENCH_SEEDS_H
#define TJ_BENCH_SEEDS_H

#include "bench.h"

#define BENCH_SEED_MAX_ARRAYS 8

typedef struct bench_seed {
    const char *name;          /* the example's name ("histogram") or "large" */
    const char *what;          /* the builtin it shows */
    uint32_t block_dim;
    /* Defines the kernel, named 'kname', with options 'o' (block_dim already set). */
    tj_kernel *(*define)(tj_context *ctx, const tj_kernel_options *o, const char *kname);
    /* Makes the arrays of one run on 'dev' in 'io' (BENCH_SEED_MAX_ARRAYS slots, NULL
     * filled); false when an allocation or copy failed (release what is there). */
    bool (*prepare)(tj_context *ctx, tj_device *dev, tj_array **io);
    tj_status (*launch)(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io);
    /* Checks the output of a launch against the seed's answer ('width1': CPU width-1). */
    bool (*verify)(tj_array *const *io, bool width1, char *why, size_t n);
    /* The same kernel in CUDA C++, its name the macro KNAME. */
    const char *cuda;
    /* The same kernel in Warp's Python syntax for tj_program_create, its name KNAME
     * (replaced in the text). */
    const char *source;
} bench_seed;

extern const bench_seed bench_seeds[];
extern const int bench_nseeds;

const bench_seed *bench_seed_find(const char *name);
/* Destroys the arrays of 'io' and sets them to NULL. */
void bench_seed_release(tj_array **io);

#endif /* TJ_BENCH_SEEDS_H */
