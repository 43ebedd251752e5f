/*
 * bench/throughput_cpu.c: the CPU group. Sum, 256-bin histogram, 50% compaction and copy
 * (kernels.c) in both CPU modes, beside the C references of cpu_reference.c, on one thread
 * and on every count of --threads; and the CPU launch overhead. Both modes run on the same
 * input, beside the reference on it (RESULTS.md, 2026-12-05 (day): a smaller input for the
 * cooperative mode, chosen when fibers ran it, fitted in L3 and hid its loss). Inputs live
 * in tilejit CPU arrays that the references read in place. Each implementation runs once
 * and is checked against values computed here in plain C (double sums, exact counts,
 * order-free hashes) before --repeat timed runs, and its last timed run is checked again.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum {
    SUM_TILE = 4096,          /* elements per block */
    HIST_ITEMS = 131072,      /* elements per block: 256 global atomics each */
    COMPACT_ITEMS = 4096,     /* elements per block, the stack's capacity */
    COPY_TILE = 4096,
    COOP_BLOCK = 256,         /* block_dim of the cooperative builds, the GPU's */
    LAUNCHES_PER_RUN = 1000,
};
#define COMPACT_THRESHOLD 0.5f

typedef struct cpu_case {
    bench_env *e;
    tj_device *dev;
    int64_t n;
    tj_array *x, *out, *small;   /* input; output (compact, copy); out[0], hist or count */
    float *xh, *outh;
    void *smallh;
    double sum;                  /* the expected results */
    int32_t hist[256];
    int64_t kept;
    uint64_t kept_hash;
    float ref_sum;               /* the last reference run's result */
    int32_t ref_hist[256];
    int64_t ref_kept;
} cpu_case;

typedef struct cpu_op {
    const char *name;
    const char *what;
    float lo, hi;                /* the input's range */
    int items;                   /* elements per block */
    int moved_factor;            /* bytes moved per input byte */
    tj_kernel *(*make)(tj_context *ctx, const bench_kcfg *c, int items);
    void (*expect)(cpu_case *c);
    void (*reset)(cpu_case *c);
    int (*args)(cpu_case *c, tj_arg *args);
    void (*run_ref)(cpu_case *c, int threads);
    /* checks the tilejit result ('ref' false) or the reference's */
    bool (*check)(cpu_case *c, bool ref, char *why, size_t n);
} cpu_op;

/* ---- sum ---------------------------------------------------------------------------------- */

static tj_kernel *
make_sum(tj_context *ctx, const bench_kcfg *c, int items)
{
    return bench_kernel_sum(ctx, c, items);
}

static void
expect_sum(cpu_case *c)
{
    double s = 0;
    for (int64_t i = 0; i < c->n; i++)
        s += c->xh[i];
    c->sum = s;
}

static void
reset_small(cpu_case *c)
{
    memset(c->smallh, 0, tj_array_get_bytes(c->small));
}

static int
args_x_small(cpu_case *c, tj_arg *a)
{
    a[0] = tj_arg_array(c->x);
    a[1] = tj_arg_array(c->small);
    return 2;
}

static void
ref_sum(cpu_case *c, int threads)
{
    c->ref_sum = bench_ref_sum(c->xh, c->n, threads);
}

/* Float sums of n values in [0, 1): a relative error of 1e-3 allows for float32 partial
 * sums in any order (the typical error is near 1e-6). */
static bool
check_sum(cpu_case *c, bool ref, char *why, size_t n)
{
    double got = ref ? c->ref_sum : ((const float *)c->smallh)[0];
    if (fabs(got - c->sum) <= 1e-3 * fabs(c->sum))
        return true;
    snprintf(why, n, "sum %.9g, expected %.9g (relative error %.3g)", got, c->sum,
             fabs(got - c->sum) / fabs(c->sum));
    return false;
}

/* ---- histogram ------------------------------------------------------------------------------ */

static void
expect_histogram(cpu_case *c)
{
    memset(c->hist, 0, sizeof c->hist);
    for (int64_t i = 0; i < c->n; i++)
        c->hist[(int)c->xh[i]]++;
}

static void
ref_histogram(cpu_case *c, int threads)
{
    bench_ref_histogram(c->xh, c->n, c->ref_hist, threads);
}

static bool
check_histogram(cpu_case *c, bool ref, char *why, size_t n)
{
    const int32_t *got = ref ? c->ref_hist : c->smallh;
    for (int b = 0; b < 256; b++) {
        if (got[b] != c->hist[b]) {
            snprintf(why, n, "bin %d holds %d, expected %d", b, got[b], c->hist[b]);
            return false;
        }
    }
    return true;
}

/* ---- compaction ----------------------------------------------------------------------------- */

static tj_kernel *
make_compact(tj_context *ctx, const bench_kcfg *c, int items)
{
    return bench_kernel_compact(ctx, c, items, COMPACT_THRESHOLD);
}

static void
expect_compact(cpu_case *c)
{
    int64_t m = 0;
    float *kept = c->outh;   /* scratch: the reference and the kernels overwrite it */
    for (int64_t i = 0; i < c->n; i++)
        if (c->xh[i] < COMPACT_THRESHOLD)
            kept[m++] = c->xh[i];
    c->kept = m;
    c->kept_hash = bench_multiset_hash(kept, m);
}

static int
args_compact(cpu_case *c, tj_arg *a)
{
    a[0] = tj_arg_array(c->x);
    a[1] = tj_arg_array(c->out);
    a[2] = tj_arg_array(c->small);
    return 3;
}

static void
ref_compact(cpu_case *c, int threads)
{
    c->ref_kept = bench_ref_compact(c->xh, c->n, COMPACT_THRESHOLD, c->outh, COMPACT_ITEMS,
                                    threads);
}

/* The kept values in any order: their count and an order-free hash of their bits. */
static bool
check_compact(cpu_case *c, bool ref, char *why, size_t n)
{
    int64_t got = ref ? c->ref_kept : ((const int32_t *)c->smallh)[0];
    if (got != c->kept) {
        snprintf(why, n, "kept %lld values, expected %lld", (long long)got, (long long)c->kept);
        return false;
    }
    if (bench_multiset_hash(c->outh, got) != c->kept_hash) {
        snprintf(why, n, "the %lld kept values are not those of the input", (long long)got);
        return false;
    }
    return true;
}

/* ---- copy ----------------------------------------------------------------------------------- */

static tj_kernel *
make_copy(tj_context *ctx, const bench_kcfg *c, int items)
{
    return bench_kernel_copy(ctx, c, items);
}

static void
expect_copy(cpu_case *c)
{
    (void)c;
}

static void
reset_copy(cpu_case *c)
{
    (void)c; /* the checked runs poison the output first (run_checked) */
}

static int
args_copy(cpu_case *c, tj_arg *a)
{
    a[0] = tj_arg_array(c->x);
    a[1] = tj_arg_array(c->out);
    return 2;
}

static void
ref_copy(cpu_case *c, int threads)
{
    bench_ref_copy(c->outh, c->xh, c->n, threads);
}

static bool
check_copy(cpu_case *c, bool ref, char *why, size_t n)
{
    (void)ref;
    for (int64_t i = 0; i < c->n; i++) {
        if (memcmp(&c->outh[i], &c->xh[i], sizeof(float)) != 0) {
            snprintf(why, n, "element %lld is %g, expected %g", (long long)i, c->outh[i],
                     c->xh[i]);
            return false;
        }
    }
    return true;
}

static const cpu_op ops[] = {
    {"sum", "float32 sum: tile_load + tile_reduce + one atomic per block, vs C", 0.0f, 1.0f,
     SUM_TILE, 1, make_sum, expect_sum, reset_small, args_x_small, ref_sum, check_sum},
    {"histogram", "256-bin histogram: tile_scatter_add into a shared tile, vs C", 0.0f,
     256.0f, HIST_ITEMS, 1, bench_kernel_histogram, expect_histogram, reset_small,
     args_x_small, ref_histogram, check_histogram},
    {"compact", "keep x < 0.5 (50%): tile_stack + one reservation per block, vs C", 0.0f,
     1.0f, COMPACT_ITEMS, 1, make_compact, expect_compact, reset_small, args_compact,
     ref_compact, check_compact},
    {"copy", "copy through tile_view / tile_assign, vs memcpy", 0.0f, 1.0f, COPY_TILE, 2,
     make_copy, expect_copy, reset_copy, args_copy, ref_copy, check_copy},
};

/* ---- running -------------------------------------------------------------------------------- */

typedef struct impl {
    const char *label;
    tj_module *m;                 /* NULL: the C reference */
    char kname[64];
    uint32_t block_dim;
    double one_thread_median;     /* for the speed-up; NaN until measured */
    const char *pushes;           /* how its loops of stack pushes run, or NULL (none) */
} impl;

/* One run; its time in '*ms' when 'ms' is not NULL. */
static bool
run_once(cpu_case *c, const cpu_op *op, const impl *im, int threads, tj_device_timer *tm,
         double *ms, char *why, size_t n)
{
    if (!im->m) {
        double t0 = bench_now_ms();
        op->run_ref(c, threads);
        if (ms)
            *ms = bench_now_ms() - t0;
        return true;
    }
    tj_arg a[4];
    int na = op->args(c, a);
    int64_t nblocks = (c->n + op->items - 1) / op->items;
    tj_status st = tj_device_timer_start(tm);
    if (st == TJ_OK)
        st = tj_launch_tiled(c->dev, im->m, im->kname, 1, &nblocks, im->block_dim, a,
                             (size_t)na);
    if (st == TJ_OK)
        st = tj_device_timer_stop(tm);
    if (st == TJ_OK && ms)
        st = tj_device_timer_elapsed(tm, ms);
    if (st != TJ_OK)
        snprintf(why, n, "launch failed (%s): %s", tj_status_name(st),
                 bench_error(c->e, c->dev));
    return st == TJ_OK;
}

/* The timed runs of one implementation at one thread count. The C reference and tilejit
 * alternate run by run (run_pair), so that both see the same state of a shared machine and
 * their ratio is fair even when its speed drifts. */
typedef struct series {
    impl *im;
    int threads;
    double *ms;
    tj_device_timer *tm;
    bool ok;
    char why[512];
} series;

/* Starts a series with a checked, untimed run. */
static void
series_begin(cpu_case *c, const cpu_op *op, impl *im, int threads, series *sr)
{
    *sr = (series){.im = im, .threads = threads};
    sr->ms = calloc((size_t)c->e->o->repeat, sizeof *sr->ms);
    if (!sr->ms) {
        snprintf(sr->why, sizeof sr->why, "out of memory");
        return;
    }
    if (im->m && tj_device_timer_create(c->dev, &sr->tm) != TJ_OK) {
        snprintf(sr->why, sizeof sr->why, "tj_device_timer_create: %s",
                 bench_error(c->e, c->dev));
        return;
    }
    op->reset(c);
    memset(c->outh, 0xff, tj_array_get_bytes(c->out)); /* poison: NaNs */
    sr->ok = run_once(c, op, im, threads, sr->tm, NULL, sr->why, sizeof sr->why) &&
             op->check(c, !im->m, sr->why, sizeof sr->why);
}

/* Timed run i; the last one is checked again. */
static void
series_step(cpu_case *c, const cpu_op *op, series *sr, int i)
{
    if (!sr->ok)
        return;
    op->reset(c);
    sr->ok = run_once(c, op, sr->im, sr->threads, sr->tm, &sr->ms[i], sr->why, sizeof sr->why);
    if (sr->ok && i == c->e->o->repeat - 1 && !op->check(c, !sr->im->m, sr->why, sizeof sr->why)) {
        char last[480];
        snprintf(last, sizeof last, "last timed run: %.460s", sr->why);
        snprintf(sr->why, sizeof sr->why, "%s", last);
        sr->ok = false;
    }
}

/* Emits the series' row beside 'ref' (NULL: none) and frees it. Returns its median (NaN on
 * failure). */
static double
series_end(cpu_case *c, const cpu_op *op, series *sr, const bench_row *ref)
{
    char name[64];
    snprintf(name, sizeof name, "cpu/%s", op->name);
    impl *im = sr->im;
    tj_device_timer_destroy(sr->tm);
    if (!sr->ok) {
        bench_fail(name, im->label, "cpu", "%s, %d threads, %lld bytes: %s", im->label,
                   sr->threads, (long long)(c->n * (int64_t)sizeof(float)), sr->why);
        free(sr->ms);
        return NAN;
    }
    bench_row r = bench_row_new(name, im->label, "cpu");
    r.threads = sr->threads;
    r.size_bytes = c->n * (int64_t)sizeof(float);
    r.moved_bytes = r.size_bytes * op->moved_factor;
    bench_row_set_times(&r, sr->ms, c->e->o->repeat);
    free(sr->ms);
    if (ref && !isnan(ref->median))
        bench_row_set_ref(&r, ref);
    if (sr->threads == 1)
        im->one_thread_median = r.median;
    if (!isnan(im->one_thread_median))
        r.speedup = im->one_thread_median / r.median;
    if (im->m && im->block_dim > 1)
        snprintf(r.note, sizeof r.note, "block_dim %u, %d elements per block", im->block_dim,
                 op->items);
    else if (im->m)
        snprintf(r.note, sizeof r.note, "%d elements per block%s%s", op->items,
                 im->pushes ? "; push loop: " : "", im->pushes ? im->pushes : "");
    bench_emit(&r);
    return r.median;
}

static void close_case(cpu_case *c);

static bool
open_case(cpu_case *c, bench_env *e, const cpu_op *op, int64_t bytes)
{
    *c = (cpu_case){.e = e, .dev = e->cpu, .n = bytes / (int64_t)sizeof(float)};
    const tj_type *f32 = tj_context_get_type(e->ctx, TJ_DTYPE_F32);
    const tj_type *i32 = tj_context_get_type(e->ctx, TJ_DTYPE_I32);
    bool is_hist = strcmp(op->name, "histogram") == 0;
    int64_t nsmall = is_hist ? 256 : 1;
    tj_status st = tj_array_create(c->dev, f32, 1, &c->n, &c->x);
    if (st == TJ_OK)
        st = tj_array_create(c->dev, f32, 1, &c->n, &c->out);
    if (st == TJ_OK)
        st = tj_array_create(c->dev, strcmp(op->name, "sum") == 0 ? f32 : i32, 1, &nsmall,
                             &c->small);
    if (st != TJ_OK) {
        char name[64];
        snprintf(name, sizeof name, "cpu/%s", op->name);
        bench_fail(name, "inputs", "cpu", "cannot allocate %lld bytes: %s", (long long)bytes,
                   bench_error(e, c->dev));
        close_case(c);
        return false;
    }
    c->xh = (float *)(uintptr_t)tj_array_get_device_pointer(c->x);
    c->outh = (float *)(uintptr_t)tj_array_get_device_pointer(c->out);
    c->smallh = (void *)(uintptr_t)tj_array_get_device_pointer(c->small);
    bench_fill_uniform(c->xh, c->n, op->lo, op->hi, e->o->seed, bench_ncpu());
    op->expect(c);
    return true;
}

static void
close_case(cpu_case *c)
{
    tj_array_destroy(c->x);
    tj_array_destroy(c->out);
    tj_array_destroy(c->small);
}

/* How the width-1 push loop of a kernel's optimised IR runs (jit/compress_push.c's forms,
 * which TILEJIT_CPU_COMPRESS can lower), or NULL when it has no stack. */
static const char *
push_form(const char *ir)
{
    if (!ir || !strstr(ir, "tj.serial_push"))
        return NULL;
    return strstr(ir, "llvm.x86.avx512.mask.compress") ? "AVX-512 compress"
           : strstr(ir, "llvm.x86.avx2.permd")         ? "AVX2 permute"
                                                       : "scalar";
}

/* --ir: the module's optimised IR to DIR/cpu-OP-MODE.ll; a file that cannot be written is
 * said on stderr and leaves the figures alone. */
static void
write_ir(const bench_env *e, const cpu_op *op, const tj_module *m, tj_cpu_mode mode)
{
    const char *ir = m && e->o->ir_dir ? tj_module_get_ir(m) : NULL;
    if (!ir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/cpu-%s-%s.ll", e->o->ir_dir, op->name,
             mode == TJ_CPU_COOPERATIVE ? "cooperative" : "width1");
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(ir, f) >= 0;
    if ((f && fclose(f) != 0) || !ok)
        bench_say("--ir: cannot write %s: %s", path, strerror(errno));
}

static bool
build_impl(bench_env *e, const cpu_op *op, impl *im, tj_cpu_mode mode)
{
    bench_kcfg cfg = {.target = TJ_TARGET_CPU, .cpu_mode = mode,
                      .block_dim = mode == TJ_CPU_COOPERATIVE ? COOP_BLOCK : 1};
    char why[512];
    im->m = bench_build(e->ctx, op->make(e->ctx, &cfg, op->items), e->cpu, true, why,
                        sizeof why);
    im->pushes = im->m ? push_form(tj_module_get_ir(im->m)) : NULL;
    write_ir(e, op, im->m, mode);
    snprintf(im->kname, sizeof im->kname, "bench_%s", op->name);
    im->block_dim = cfg.block_dim;
    im->one_thread_median = NAN;
    if (!im->m) {
        char name[64];
        snprintf(name, sizeof name, "cpu/%s", op->name);
        bench_fail(name, im->label, "cpu", "%s", why);
    }
    return im->m != NULL;
}

/* The C reference and one tilejit build at each thread count, on 'bytes' of input. */
static void
run_pair(bench_env *e, const cpu_op *op, int64_t bytes, impl *tj)
{
    const bench_opts *o = e->o;
    cpu_case c;
    if (!open_case(&c, e, op, bytes))
        return;
    impl ref = {.label = "C -O3 -march=native", .one_thread_median = NAN};
    for (int t = 0; t < o->nthreads; t++) {
        int threads = o->threads[t];
        tj_status st = tj_device_set_cpu_threads(c.dev, threads);
        if (st != TJ_OK) {
            char name[64];
            snprintf(name, sizeof name, "cpu/%s", op->name);
            bench_fail(name, "threads", "cpu", "tj_device_set_cpu_threads(%d): %s", threads,
                       bench_error(e, c.dev));
            continue;
        }
        series sr, st_;
        series_begin(&c, op, &ref, threads, &sr);
        if (tj->m)
            series_begin(&c, op, tj, threads, &st_);
        for (int i = 0; i < o->repeat; i++) {
            series_step(&c, op, &sr, i); /* the last is checked before tilejit overwrites */
            if (tj->m)
                series_step(&c, op, &st_, i);
        }
        bench_row ref_row = bench_row_new("", ref.label, "cpu");
        ref_row.median = series_end(&c, op, &sr, NULL);
        if (tj->m)
            series_end(&c, op, &st_, &ref_row);
    }
    close_case(&c);
}

/* Width-1 and cooperative on 'bytes', each beside the C reference on the same input. */
static void
run_op(bench_env *e, const cpu_op *op, int64_t bytes)
{
    bench_say("cpu/%s: %s; %lld KiB", op->name, op->what, (long long)(bytes >> 10));
    impl w1 = {.label = "tilejit width-1"};
    impl coop = {.label = "tilejit cooperative"};
    build_impl(e, op, &w1, TJ_CPU_WIDTH1);
    build_impl(e, op, &coop, TJ_CPU_COOPERATIVE);
    run_pair(e, op, bytes, &w1);
    run_pair(e, op, bytes, &coop);
    tj_module_destroy(w1.m);
    tj_module_destroy(coop.m);
}

/* The time of one CPU launch of an empty one-block kernel. */
static void
run_launch(bench_env *e)
{
    const char *name = "cpu/launch", *label = "tilejit width-1, 1 block";
    bench_kcfg cfg = {.target = TJ_TARGET_CPU, .cpu_mode = TJ_CPU_WIDTH1, .block_dim = 1};
    char why[512];
    tj_module *m = bench_build(e->ctx, bench_kernel_empty(e->ctx, &cfg), e->cpu, false, why,
                               sizeof why);
    int64_t one = 1;
    tj_array *x = NULL;
    if (!m || tj_array_create(e->cpu, tj_context_get_type(e->ctx, TJ_DTYPE_F32), 1, &one, &x)
                  != TJ_OK) {
        bench_fail(name, label, "cpu", "%s", m ? bench_error(e, e->cpu) : why);
        tj_module_destroy(m);
        return;
    }
    tj_arg a = tj_arg_array(x);
    int reps = e->o->repeat;
    double *ms = calloc((size_t)reps, sizeof *ms);
    tj_status st = ms ? tj_launch_tiled(e->cpu, m, "bench_empty", 1, &one, 1, &a, 1) : TJ_ERR_NOMEM;
    for (int r = 0; st == TJ_OK && r < reps; r++) {
        double t0 = bench_now_ms();
        for (int i = 0; st == TJ_OK && i < LAUNCHES_PER_RUN; i++)
            st = tj_launch_tiled(e->cpu, m, "bench_empty", 1, &one, 1, &a, 1);
        ms[r] = (bench_now_ms() - t0) / LAUNCHES_PER_RUN;
    }
    if (st != TJ_OK) {
        bench_fail(name, label, "cpu", "tj_launch_tiled: %s", bench_error(e, e->cpu));
    } else {
        bench_row r = bench_row_new(name, label, "cpu");
        bench_row_set_times(&r, ms, reps);
        snprintf(r.note, sizeof r.note, "per launch, mean of %d back-to-back launches per run",
                 LAUNCHES_PER_RUN);
        bench_emit(&r);
    }
    free(ms);
    tj_array_destroy(x);
    tj_module_destroy(m);
}

/* A cooperative kernel whose block crosses 2 * 'iters' barriers: a loop of
 * tile_stack_clear, whose work besides its two barriers is one store by lane 0. */
static tj_kernel *
barrier_kernel(tj_context *ctx, int block_dim, int iters)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .cpu_mode = TJ_CPU_COOPERATIVE,
                           .block_dim = (uint32_t)block_dim};
    tj_kernel *k = tj_kernel_create(ctx, "bench_barrier", &o);
    tj_param_array(k, "x", tj_context_get_type(ctx, TJ_DTYPE_F32), 1);
    tj_val *s = tj_tile_stack(k, 1, tj_context_get_type(ctx, TJ_DTYPE_I32));
    tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0), tj_const_int(k, TJ_DTYPE_I32, iters),
                 tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_tile_stack_clear(k, s);
    tj_for_end(k);
    return k;
}

/* The cost of one barrier per lane in cooperative mode: one block on one thread. */
static void
run_barrier(bench_env *e, int block_dim)
{
    enum { ITERS = 2000 };
    const char *name = "cpu/barrier";
    char label[64];
    snprintf(label, sizeof label, "tilejit cooperative, block_dim %d", block_dim);
    char why[512];
    tj_module *m = bench_build(e->ctx, barrier_kernel(e->ctx, block_dim, ITERS), e->cpu,
                               false, why, sizeof why);
    int64_t one = 1;
    tj_array *x = NULL;
    if (!m || tj_array_create(e->cpu, tj_context_get_type(e->ctx, TJ_DTYPE_F32), 1, &one, &x)
                  != TJ_OK) {
        bench_fail(name, label, "cpu", "%s", m ? bench_error(e, e->cpu) : why);
        tj_module_destroy(m);
        return;
    }
    tj_device_set_cpu_threads(e->cpu, 1);
    tj_arg a = tj_arg_array(x);
    int reps = e->o->repeat;
    double *ns = calloc((size_t)reps, sizeof *ns);
    tj_status st = ns ? tj_launch_tiled(e->cpu, m, "bench_barrier", 1, &one, (uint32_t)block_dim,
                                        &a, 1)
                      : TJ_ERR_NOMEM;
    for (int r = 0; st == TJ_OK && r < reps; r++) {
        double t0 = bench_now_ms();
        st = tj_launch_tiled(e->cpu, m, "bench_barrier", 1, &one, (uint32_t)block_dim, &a, 1);
        /* ns per lane per barrier, reported in the time columns */
        ns[r] = (bench_now_ms() - t0) * 1e6 / (2.0 * ITERS * block_dim);
    }
    if (st != TJ_OK) {
        bench_fail(name, label, "cpu", "tj_launch_tiled: %s", bench_error(e, e->cpu));
    } else {
        bench_row r = bench_row_new(name, label, "cpu");
        bench_row_set_times(&r, ns, reps);
        r.threads = 1;
        snprintf(r.note, sizeof r.note, "NANOSECONDS per lane per barrier (not ms): %d "
                 "tile_stack_clear calls of 2 barriers each, one block, one thread; lane loops "
                 "(fibers with TILEJIT_CPU_LANES=fibers)", ITERS);
        bench_emit(&r);
    }
    free(ns);
    tj_array_destroy(x);
    tj_module_destroy(m);
}

void
bench_cpu_list(void (*put)(const char *name, const char *what))
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "cpu/%s", ops[i].name);
        put(name, ops[i].what);
    }
    put("cpu/launch", "launch overhead of an empty one-block kernel on the CPU pool");
    put("cpu/barrier", "cost of one barrier per lane in cooperative mode (ns), block_dim 32 "
                       "and 256");
}

void
bench_cpu_run(bench_env *e)
{
    const bench_opts *o = e->o;
    bool any = bench_wanted(o, "cpu/launch") || bench_wanted(o, "cpu/barrier");
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "cpu/%s", ops[i].name);
        any |= bench_wanted(o, name);
    }
    if (!any || !bench_cpu(e))
        return;
    int64_t def = BENCH_CPU_DEFAULT_BYTES;
    const int64_t *sizes = o->nsizes ? o->sizes : &def;
    int nsizes = o->nsizes ? o->nsizes : 1;
    for (int s = 0; s < nsizes; s++) {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            char name[64];
            snprintf(name, sizeof name, "cpu/%s", ops[i].name);
            if (bench_wanted(o, name))
                run_op(e, &ops[i], sizes[s] / 4 * 4);
        }
    }
    if (bench_wanted(o, "cpu/launch"))
        run_launch(e);
    if (bench_wanted(o, "cpu/barrier")) {
        run_barrier(e, 32);
        run_barrier(e, 256);
    }
    tj_device_set_cpu_threads(e->cpu, 0);
}
