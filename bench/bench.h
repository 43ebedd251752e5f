/*
 * bench/bench.h: what the files of tilejit-bench share: the options, the result rows that
 * main.c prints (TSV on stdout, --csv, --json), the open devices, random inputs, and the
 * entry point of each benchmark group. Benchmarks use only tilejit.h (STYLE 2.1); the GPU
 * references come from libtjref.so (bench/reference/), the CPU ones from cpu_reference.c.
 */
#ifndef TJ_BENCH_H
#define TJ_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tilejit.h"

#define BENCH_MAX_THREADS 8
#define BENCH_MAX_SIZES 16
#define BENCH_MAX_FILTERS 32
#define BENCH_DEFAULT_REPEAT 20
#define BENCH_CPU_DEFAULT_BYTES ((int64_t)64 << 20)
#define BENCH_GPU_DEFAULT_BYTES ((int64_t)2 << 30)

/* What a benchmark group needs: nothing but the compiler (PTX, NVRTC), the CPU device, or
 * a GPU. */
typedef enum bench_need {
    BENCH_NEED_HOST = 0,
    BENCH_NEED_CPU = 1,
    BENCH_NEED_CUDA = 2,
} bench_need;

typedef struct bench_opts {
    bool run_cpu, run_cuda;            /* from --device (both when it is not given) */
    int64_t sizes[BENCH_MAX_SIZES];    /* --size, bytes of input; none: each group's default */
    int nsizes;
    int repeat;                        /* timed runs per figure */
    int threads[BENCH_MAX_THREADS];    /* CPU thread counts, ascending */
    int nthreads;
    const char *filters[BENCH_MAX_FILTERS];
    int nfilters;
    bool require_gpu;                  /* TILEJIT_REQUIRE_GPU=1: no GPU is a failure */
    uint64_t seed;                     /* random inputs */
    const char *ir_dir;                /* --ir: where the CPU kernels' optimised IR goes */
    char self[4096];                   /* this executable, for the child processes */
} bench_opts;

/* One line of output. Times are milliseconds; NaN where a figure does not apply. 'ratio'
 * is the reference's median time over this row's (above 1: faster than the reference);
 * 'speedup' is the same implementation's 1-thread median over this row's. */
typedef struct bench_row {
    char name[64];         /* "cpu/sum", "compile/ptx/histogram" */
    char impl[64];         /* "tilejit width-1", "C -O3 -march=native", "CUB DeviceReduce::Sum" */
    char device[8];        /* "cpu", "cuda", "host" (compile only) */
    int threads;           /* CPU threads; 0 where it does not apply */
    int64_t size_bytes;    /* input bytes; 0 for compile and launch figures */
    int64_t moved_bytes;   /* bytes read + written per run, for GB/s; 0: none */
    int runs;
    double median, min, max;
    double gbps;
    char ref[64];          /* the reference's impl, "" when none */
    double ref_median;
    double ratio;
    double speedup;
    char status[12];       /* "ok", "skipped", "FAILED" */
    char note[200];
} bench_row;

/* The devices, opened when a group first needs one, and the shared context. */
typedef struct bench_env {
    const bench_opts *o;
    tj_context *ctx;
    tj_device *cpu;
    tj_device *gpu;
    bool gpu_tried;
    char gpu_why[512];     /* why there is no GPU */
} bench_env;

/* ---- main.c ------------------------------------------------------------------------------ */

/* A row with every figure NaN, status "ok". */
bench_row bench_row_new(const char *name, const char *impl, const char *device);
/* Fills median, min, max and runs from 'ms' (sorted in place) and GB/s from moved_bytes. */
void bench_row_set_times(bench_row *r, double *ms, int n);
/* Sets the reference figures of 'r' from the reference row 'ref'. */
void bench_row_set_ref(bench_row *r, const bench_row *ref);
/* Prints the row (TSV on stdout) and keeps it for --csv and --json. FAILED rows make the
 * exit status 1. */
void bench_emit(const bench_row *r);
/* A skipped row: status "skipped" and the reason, also said on stderr. */
void bench_skip(const char *name, const char *impl, const char *device, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A failed row: status "FAILED", the reason on stderr in capitals. */
void bench_fail(const char *name, const char *impl, const char *device, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Progress and notes on stderr. */
void bench_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether a row named 'name' passes the name filters. */
bool bench_wanted(const bench_opts *o, const char *name);
/* The CPU device, or NULL after a failure (said on stderr). */
tj_device *bench_cpu(bench_env *e);
/* The GPU, or NULL with the reason in e->gpu_why. */
tj_device *bench_gpu(bench_env *e);
/* The message of the last failure on 'dev' or the context. */
const char *bench_error(const bench_env *e, const tj_device *dev);

/* ---- timing.c ---------------------------------------------------------------------------- */

/* The monotonic clock in milliseconds. */
double bench_now_ms(void);
/* Sorts 'ms' and gives its median, minimum and maximum. */
void bench_stats(double *ms, int n, double *median, double *min, double *max);
/* "12.3 ms", "4.56 us" */
void bench_format_ms(char *buf, size_t n, double ms);

/* ---- random.c ---------------------------------------------------------------------------- */

/* Fills 'x' with 'n' floats uniform in [lo, hi) from 'seed' (never all equal, never all
 * zero), using up to 'nthreads' threads. */
void bench_fill_uniform(float *x, int64_t n, float lo, float hi, uint64_t seed, int nthreads);
/* An order-independent fingerprint of a multiset of floats: the sum of
 * bench_hash_float() of each. */
uint64_t bench_multiset_hash(const float *x, int64_t n);
/* SplitMix64's finaliser of the bits of 'f'. */
uint64_t bench_hash_float(float f);
/* Online core count. */
int bench_ncpu(void);

/* ---- kernels.c: the throughput kernels --------------------------------------------------- */

/* Where a throughput kernel runs. */
typedef struct bench_kcfg {
    tj_target target;
    tj_cpu_mode cpu_mode;
    uint32_t block_dim;
    int unroll; /* histogram, compact: elements each lane loads per step (0: 1), as the
                 * hand-written CUDA reference does to keep loads in flight; sum: tiles
                 * each block loads and adds up before its one reduce (0: 1) */
    bool full_apart; /* histogram, compact: blocks wholly inside the input take a loop
                      * without the per-element tests */
} bench_kcfg;

/* out[0] += sum of x, c->unroll tiles (0: 1) of 'tile' elements per block: tile_load (the
 * tiles added up elementwise), tile_reduce, one tile_atomic_add per block. Launch tiled
 * over ceil(n / (tile * tiles)) blocks. */
tj_kernel *bench_kernel_sum(tj_context *ctx, const bench_kcfg *c, int tile);
/* hist[int(x[i])] += 1 for x in [0, 256): 'items' elements per block, each lane loading
 * c->unroll per step (all loads first) and tile_scatter_add into a shared 256-bin tile, then
 * one tile_atomic_add of the tile into 'hist'. */
tj_kernel *bench_kernel_histogram(tj_context *ctx, const bench_kcfg *c, int items);
/* Keeps x[i] < threshold: 'items' elements per block (c->unroll loads per lane per step)
 * pushed on a tile_stack, one slot reservation per block (tile_atomic_add on count[0]), then
 * popped into out[start + slot]. */
tj_kernel *bench_kernel_compact(tj_context *ctx, const bench_kcfg *c, int items,
                                double threshold);
/* dst = src, one tile per block: tile_load, tile_assign into a tile_view of a shared tile,
 * tile_store of the view. */
tj_kernel *bench_kernel_copy(tj_context *ctx, const bench_kcfg *c, int tile);
/* A kernel with one array parameter that does nothing: the launch overhead. */
tj_kernel *bench_kernel_empty(tj_context *ctx, const bench_kcfg *c);
/* Builds 'k' (destroyed here) for 'dev' (NULL: the default architecture), keeping the
 * optimised IR (tj_module_get_ir) when 'keep_ir'. NULL on failure, with the message in
 * 'why'. */
tj_module *bench_build(tj_context *ctx, tj_kernel *k, const tj_device *dev, bool keep_ir,
                       char *why, size_t n);

/* ---- cpu_reference.c: C references, built at -O3 -march=native ---------------------------- */

/* Each splits [0, n) into 'nthreads' contiguous parts run on their own threads (the
 * caller's included). */
/* The float sum of x: 32 independent float accumulators per thread (what a tile reduction
 * may do: reassociate), so the compiler vectorises it without -ffast-math. */
float bench_ref_sum(const float *x, int64_t n, int nthreads);
/* hist[int(x[i])] += 1 for x in [0, 256): a private histogram per thread, merged. */
void bench_ref_histogram(const float *x, int64_t n, int32_t *hist, int nthreads);
/* Copies the x[i] < threshold to 'out' and returns how many: one thread, a branch-free
 * ordered loop; several, chunks of 'chunk' elements compacted into a local buffer with one
 * atomic reservation per chunk (the tile kernel's algorithm), order not kept. */
int64_t bench_ref_compact(const float *x, int64_t n, float threshold, float *out, int chunk,
                          int nthreads);
/* memcpy, one part per thread. */
void bench_ref_copy(float *dst, const float *src, int64_t n, int nthreads);

/* ---- nvrtc.c: NVRTC found at run time ------------------------------------------------------ */

typedef struct bench_nvrtc bench_nvrtc;

/* dlopens libnvrtc from $CUDA_HOME/lib64, /usr/local/cuda/lib64 or the loader's path.
 * NULL when absent, with the reason in 'why'. */
bench_nvrtc *bench_nvrtc_open(char *why, size_t n);
void bench_nvrtc_close(bench_nvrtc *nv);
/* "NVRTC 13.0 (/usr/local/cuda/lib64/libnvrtc.so.13)" */
const char *bench_nvrtc_describe(const bench_nvrtc *nv);
/* Compiles CUDA C++ 'src' for 'arch' ("compute_90") to PTX (free it). NULL on failure,
 * with the log in 'why'. */
char *bench_nvrtc_compile(const bench_nvrtc *nv, const char *src, const char *arch, char *why,
                          size_t n);

/* ---- plot.c ------------------------------------------------------------------------------- */

/* Writes a gnuplot script that charts the CSV at 'csv' (whose rows are 'rows'): GB/s
 * against input size per implementation, and the ratio to the reference per figure. */
bool bench_write_gnuplot(const char *path, const char *csv, const bench_row *rows, int nrows,
                         const char *title);

/* ---- the groups -------------------------------------------------------------------------- */

/* Names of the figures a group makes, for --list: "prefix/" + each name, NULL-ended. */
void bench_compile_list(void (*put)(const char *name, const char *what));
void bench_cpu_list(void (*put)(const char *name, const char *what));
void bench_gpu_list(void (*put)(const char *name, const char *what));

void bench_compile_run(bench_env *e);
void bench_cpu_run(bench_env *e);
void bench_gpu_run(bench_env *e);

/* The child processes of the compile group (tilejit-bench --child ...). Returns the exit
 * status. */
int bench_compile_child(int argc, char **argv);

#endif /* TJ_BENCH_H */
