/*
 * bench/throughput_gpu.c: the GPU group. Sum, 256-bin histogram, 50% compaction and copy
 * (kernels.c, block_dim 256; each in its default shape, then the variants of gpu_shape) on
 * 2 GiB of random floats, beside the references of
 * libtjref.so (CUB, a hand-written shared-atomic histogram, cudaMemcpyAsync), and the
 * launch overhead beside a runtime-API launch. Kernels are timed with tj_device_timer
 * (CUDA events), references with CUDA events inside libtjref. Every result is checked
 * against values computed here on the host, after an untimed run and after the last timed
 * one. Without a GPU the kernels are still built to PTX, and the figures say why they were
 * skipped (or fail, under TILEJIT_REQUIRE_GPU=1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reflib.h"

enum {
    BLOCK = 256,
    SUM_TILE = 4096,          /* 16 elements per lane, like a Triton tl.load of 4096 */
    HIST_ITEMS = 32768,       /* 128 elements per lane: 256 global atomics per block */
    COMPACT_ITEMS = 4096,     /* the stack's capacity */
    COPY_TILE = 4096,
    LAUNCHES_PER_RUN = 1000,
};
#define COMPACT_THRESHOLD 0.5f

/*
 * The shapes of the tilejit kernels: each operation's default first (the row "tilejit",
 * whose ratio RESULTS.md holds to its bar), then variants timed beside it in the same run
 * (rows "tilejit, <what>"), so that one run on the GPU machine shows which shape to keep.
 * 'unroll' is bench_kcfg's: the elements each lane loads per loop step (histogram,
 * compaction), the tiles a block adds up (sum).
 */
typedef struct gpu_shape {
    int items;
    int unroll;
    bool full_apart;  /* full blocks take a loop without tests (bench_kcfg) */
    const char *what; /* NULL: the default */
} gpu_shape;

/* Measured on the H200 (bench/RESULTS.md, 2026-12-04 evening): a sum block adding up 4
 * tiles before its reduce, 1.01-1.03 of CUB against 0.93-0.96 with one; 4 loads per lane
 * and step, 0.89-0.91 of the shared-atomic histogram against 0.48-0.50 with one. */
static const gpu_shape sum_shapes[] = {{SUM_TILE, 4, false, NULL},
                                       {SUM_TILE, 0, false, "1 tile per block"},
                                       {SUM_TILE, 16, false, "16 tiles per block"}};
static const gpu_shape hist_shapes[] = {
    {HIST_ITEMS, 4, true, NULL},
    {HIST_ITEMS, 4, false, "4 loads per lane and step, every block tested"},
    {HIST_ITEMS, 8, true, "8 loads per lane and step"},
    /* fewer blocks, each zeroing and adding up its 256 bins once: the reference's grid-stride
     * loop runs one block per resident slot (1056 on the H200) */
    {HIST_ITEMS * 4, 4, true, "131072 elements per block"},
    {HIST_ITEMS * 16, 4, true, "524288 elements per block"},
    /* items 0: as many as fill the device once (one_wave_items), the reference's grid */
    {0, 4, true, "one block per resident slot"},
    {HIST_ITEMS, 1, false, "1 load per lane and step, every block tested"}};
static const gpu_shape compact_shapes[] = {
    {COMPACT_ITEMS, 4, true, NULL},
    {COMPACT_ITEMS, 4, false, "4 loads per lane and step, every block tested"},
    {COMPACT_ITEMS, 8, true, "8 loads per lane and step"},
    {2 * COMPACT_ITEMS, 4, true, "stack of 8192"},
    {COMPACT_ITEMS, 1, false, "1 load per lane and step, every block tested"}};
static const gpu_shape copy_shapes[] = {{COPY_TILE, 0, false, NULL}};
#define NSHAPES(a) (sizeof(a) / sizeof((a)[0]))

typedef struct gpu_case {
    bench_env *e;
    tj_device *dev;
    bench_reflib *ref;            /* NULL: no reference (ref_why) */
    const char *ref_why;
    int64_t n;
    tj_array *x, *out, *sum, *hist, *count, *count64;
    float *h;                     /* the input on the host */
    float *back;                  /* a host buffer for checks */
    double exp_sum;               /* the expected results */
    int32_t exp_hist[256];
    int64_t exp_kept;
    uint64_t exp_hash;
} gpu_case;

/* ---- checks ---------------------------------------------------------------------------------- */

typedef bool (*check_fn)(gpu_case *g, bool ref, char *why, size_t n);

static bool
read_array(gpu_case *g, const tj_array *a, void *dst, char *why, size_t n)
{
    if (tj_array_copy_to_host(a, dst, tj_array_get_bytes(a)) == TJ_OK)
        return true;
    snprintf(why, n, "copy to host failed: %s", bench_error(g->e, g->dev));
    return false;
}

static bool
check_sum(gpu_case *g, bool ref, char *why, size_t n)
{
    float got = 0;
    (void)ref;
    if (!read_array(g, g->sum, &got, why, n))
        return false;
    /* float32 partial sums in any order: see throughput_cpu.c */
    if (fabs(got - g->exp_sum) <= 1e-3 * fabs(g->exp_sum))
        return true;
    snprintf(why, n, "sum %.9g, expected %.9g", got, g->exp_sum);
    return false;
}

static bool
check_hist(gpu_case *g, bool ref, char *why, size_t n)
{
    int32_t got[256];
    (void)ref;
    if (!read_array(g, g->hist, got, why, n))
        return false;
    for (int b = 0; b < 256; b++) {
        if (got[b] != g->exp_hist[b]) {
            snprintf(why, n, "bin %d holds %d, expected %d", b, got[b], g->exp_hist[b]);
            return false;
        }
    }
    return true;
}

/* The kept values in any order (the stack does not keep the order; CUB does). */
static bool
check_compact(gpu_case *g, bool ref, char *why, size_t n)
{
    int64_t got = 0;
    int32_t got32 = 0;
    if (!(ref ? read_array(g, g->count64, &got, why, n) : read_array(g, g->count, &got32, why, n)))
        return false;
    if (!ref)
        got = got32;
    if (got != g->exp_kept) {
        snprintf(why, n, "kept %lld values, expected %lld", (long long)got, (long long)g->exp_kept);
        return false;
    }
    if (!read_array(g, g->out, g->back, why, n))
        return false;
    if (bench_multiset_hash(g->back, got) != g->exp_hash) {
        snprintf(why, n, "the %lld kept values are not those of the input", (long long)got);
        return false;
    }
    return true;
}

static bool
check_copy(gpu_case *g, bool ref, char *why, size_t n)
{
    (void)ref;
    if (!read_array(g, g->out, g->back, why, n))
        return false;
    if (memcmp(g->back, g->h, (size_t)g->n * sizeof(float)) == 0)
        return true;
    for (int64_t i = 0; i < g->n; i++) {
        if (memcmp(&g->back[i], &g->h[i], sizeof(float)) != 0) {
            snprintf(why, n, "element %lld is %g, expected %g", (long long)i, g->back[i], g->h[i]);
            break;
        }
    }
    return false;
}

/* ---- series ---------------------------------------------------------------------------------- */

typedef struct tj_op {
    const char *name;            /* "sum" */
    tj_module *m;
    const char *kname;
    int items;                   /* elements per block */
    tj_array *zero[2];           /* zeroed before each run */
    tj_arg args[3];
    int nargs;
    check_fn check;
} tj_op;

static bench_row
gpu_row(gpu_case *g, const char *op, const char *impl, int moved_factor)
{
    char name[64];
    snprintf(name, sizeof name, "gpu/%s", op);
    bench_row r = bench_row_new(name, impl, "cuda");
    r.size_bytes = g->n * (int64_t)sizeof(float);
    r.moved_bytes = r.size_bytes * moved_factor;
    return r;
}

static tj_status
tj_run(gpu_case *g, const tj_op *op, tj_device_timer *tm, double *ms)
{
    tj_status st = TJ_OK;
    for (int i = 0; st == TJ_OK && i < 2; i++)
        if (op->zero[i])
            st = tj_array_zero(op->zero[i]);
    int64_t nblocks = (g->n + op->items - 1) / op->items;
    if (st == TJ_OK)
        st = tj_device_timer_start(tm);
    if (st == TJ_OK)
        st = tj_launch_tiled(g->dev, op->m, op->kname, 1, &nblocks, BLOCK, op->args,
                             (size_t)op->nargs);
    if (st == TJ_OK)
        st = tj_device_timer_stop(tm);
    if (st == TJ_OK)
        st = tj_device_timer_elapsed(tm, ms);
    return st;
}

/* A checked untimed run, --repeat timed runs, a check of the last. */
static bool
tj_series(gpu_case *g, const tj_op *op, bench_row *r)
{
    int reps = g->e->o->repeat;
    double *ms = calloc((size_t)reps + 1, sizeof *ms);
    tj_device_timer *tm = NULL;
    char why[512] = "out of memory";
    tj_status st = ms ? tj_device_timer_create(g->dev, &tm) : TJ_ERR_NOMEM;
    if (st == TJ_OK)
        st = tj_array_zero(g->out);
    if (st == TJ_OK)
        st = tj_run(g, op, tm, &ms[reps]);
    bool ok = st == TJ_OK && op->check(g, false, why, sizeof why);
    for (int i = 0; ok && st == TJ_OK && i < reps; i++)
        st = tj_run(g, op, tm, &ms[i]);
    if (st != TJ_OK) {
        snprintf(why, sizeof why, "%s", bench_error(g->e, g->dev));
        ok = false;
    } else if (ok && !op->check(g, false, why, sizeof why)) {
        ok = false;
    }
    tj_device_timer_destroy(tm);
    if (ok)
        bench_row_set_times(r, ms, reps);
    else
        bench_fail(r->name, r->impl, "cuda", "%s", why);
    free(ms);
    return ok;
}

/* A reference: libtjref times its runs; the last run's output is checked. */
static bool
ref_series(gpu_case *g, bench_row *r, int rc, const float *fms, check_fn check)
{
    char why[512];
    if (rc != 0) {
        bench_fail(r->name, r->impl, "cuda", "%s", g->ref->error());
        return false;
    }
    if (!check(g, true, why, sizeof why)) {
        bench_fail(r->name, r->impl, "cuda", "%s", why);
        return false;
    }
    int reps = g->e->o->repeat;
    double *ms = calloc((size_t)reps, sizeof *ms);
    if (!ms)
        return false;
    for (int i = 0; i < reps; i++)
        ms[i] = fms[i];
    bench_row_set_times(r, ms, reps);
    free(ms);
    bench_emit(r);
    return true;
}

/* The implementation name of a tilejit row in 'shape': "tilejit", or "tilejit, <what>". */
static const char *
shape_impl(const gpu_shape *shape, char *buf, size_t n)
{
    snprintf(buf, n, "tilejit%s%s", shape->what ? ", " : "", shape->what ? shape->what : "");
    return buf;
}

/* Emits the tilejit row of 'op' in 'shape' against the reference row 'ref' (NULL: none). */
static void
tj_figure(gpu_case *g, const tj_op *op, const gpu_shape *shape, int moved_factor,
          const bench_row *ref, const char *note)
{
    char impl[96];
    bench_row r = gpu_row(g, op->name, shape_impl(shape, impl, sizeof impl), moved_factor);
    if (!op->m || !tj_series(g, op, &r))
        return;
    if (ref && !isnan(ref->median))
        bench_row_set_ref(&r, ref);
    snprintf(r.note, sizeof r.note, "%s", note);
    bench_emit(&r);
}

/* ---- the operations -------------------------------------------------------------------------- */

static tj_module *
build_op(gpu_case *g, const char *op, const gpu_shape *shape, tj_kernel *k)
{
    char why[512], name[64], impl[96];
    tj_module *m = bench_build(g->e->ctx, k, g->dev, false, why, sizeof why);
    snprintf(name, sizeof name, "gpu/%s", op);
    if (!m)
        bench_fail(name, shape_impl(shape, impl, sizeof impl), "cuda", "%s", why);
    return m;
}

/* The kernel configuration of 'shape'. */
static bench_kcfg
shape_cfg(const bench_kcfg *cfg, const gpu_shape *shape)
{
    bench_kcfg c = *cfg;
    c.unroll = shape->unroll;
    c.full_apart = shape->full_apart;
    return c;
}

static void
run_sum(gpu_case *g, const bench_kcfg *cfg)
{
    int reps = g->e->o->repeat;
    float *fms = calloc((size_t)reps, sizeof *fms);
    bench_row ref = gpu_row(g, "sum", "CUB DeviceReduce::Sum", 1);
    if (g->ref && fms)
        ref_series(g, &ref, g->ref->reduce_sum(tj_array_get_device_pointer(g->x), g->n,
                                               tj_array_get_device_pointer(g->sum), reps, fms),
                   fms, check_sum);
    else if (!g->ref)
        bench_skip(ref.name, ref.impl, "cuda", "%s", g->ref_why);
    free(fms);
    for (size_t i = 0; i < NSHAPES(sum_shapes); i++) {
        const gpu_shape *sh = &sum_shapes[i];
        bench_kcfg c = shape_cfg(cfg, sh);
        int tiles = sh->unroll > 1 ? sh->unroll : 1;
        tj_op op = {.name = "sum", .kname = "bench_sum", .items = sh->items * tiles,
                    .zero = {g->sum}, .args = {tj_arg_array(g->x), tj_arg_array(g->sum)},
                    .nargs = 2, .check = check_sum};
        op.m = build_op(g, "sum", sh, bench_kernel_sum(g->e->ctx, &c, sh->items));
        char note[160];
        snprintf(note, sizeof note, "%d tile_load of %d added up + tile_reduce + one atomic "
                 "per block, block_dim 256", tiles, sh->items);
        tj_figure(g, &op, sh, 1, &ref, note);
        tj_module_destroy(op.m);
    }
}

/* Elements per block for a launch that fills the device once, one block of BLOCK threads
 * per slot a multiprocessor has (as the shared-atomic reference's grid-stride loop runs:
 * no last, partial wave of blocks), in whole steps of 'unroll' elements a lane; a JIT can
 * build for the input's size. 0 without the reference library, which knows the device. */
static int
one_wave_items(const gpu_case *g, int unroll)
{
    int sms = 0, threads = 0;
    if (!g->ref || g->ref->device_slots(&sms, &threads) != 0 || sms < 1 || threads < BLOCK)
        return 0;
    int64_t slots = (int64_t)sms * (threads / BLOCK), step = (int64_t)BLOCK * unroll;
    int64_t per = (g->n + slots - 1) / slots;
    per = (per + step - 1) / step * step;
    return per > INT32_MAX ? 0 : (int)per; /* the kernel's items is an int */
}

static void
run_histogram(gpu_case *g, const bench_kcfg *cfg)
{
    int reps = g->e->o->repeat;
    float *fms = calloc((size_t)reps, sizeof *fms);
    bench_row shared = gpu_row(g, "histogram", "shared-atomic CUDA (hand-written)", 1);
    bench_row cub = gpu_row(g, "histogram", "CUB DeviceHistogram::HistogramEven", 1);
    uint64_t x = tj_array_get_device_pointer(g->x), h = tj_array_get_device_pointer(g->hist);
    if (g->ref && fms) {
        ref_series(g, &shared, g->ref->histogram_shared(x, g->n, h, reps, fms), fms, check_hist);
        ref_series(g, &cub, g->ref->histogram_even(x, g->n, h, reps, fms), fms, check_hist);
    } else if (!g->ref) {
        bench_skip(shared.name, shared.impl, "cuda", "%s", g->ref_why);
        bench_skip(cub.name, cub.impl, "cuda", "%s", g->ref_why);
    }
    free(fms);
    for (size_t i = 0; i < NSHAPES(hist_shapes); i++) {
        gpu_shape wave = hist_shapes[i];
        const gpu_shape *sh = &wave;
        char impl[96];
        if (!wave.items && !(wave.items = one_wave_items(g, wave.unroll))) {
            bench_skip("gpu/histogram", shape_impl(sh, impl, sizeof impl), "cuda",
                       "the device's slots are unknown: %s",
                       g->ref ? g->ref->error() : g->ref_why);
            continue;
        }
        bench_kcfg c = shape_cfg(cfg, sh);
        tj_op op = {.name = "histogram", .kname = "bench_histogram", .items = sh->items,
                    .zero = {g->hist}, .args = {tj_arg_array(g->x), tj_arg_array(g->hist)},
                    .nargs = 2, .check = check_hist};
        op.m = build_op(g, "histogram", sh, bench_kernel_histogram(g->e->ctx, &c, sh->items));
        char note[200];
        snprintf(note, sizeof note, "tile_scatter_add into a shared 256-bin tile, %d elements "
                 "per block, %d per lane and step%s", sh->items, sh->unroll ? sh->unroll : 1,
                 sh->full_apart ? ", full blocks untested" : "");
        if (!isnan(cub.median))
            snprintf(note + strlen(note), sizeof note - strlen(note), "; CUB median %.4g ms",
                     cub.median);
        tj_figure(g, &op, sh, 1, &shared, note);
        tj_module_destroy(op.m);
    }
}

static void
run_compact(gpu_case *g, const bench_kcfg *cfg)
{
    int reps = g->e->o->repeat;
    float *fms = calloc((size_t)reps, sizeof *fms);
    bench_row ref = gpu_row(g, "compact", "CUB DeviceSelect::If", 1);
    if (g->ref && fms && tj_array_zero(g->out) == TJ_OK)
        ref_series(g, &ref, g->ref->select_less(tj_array_get_device_pointer(g->x), g->n,
                                                COMPACT_THRESHOLD,
                                                tj_array_get_device_pointer(g->out),
                                                tj_array_get_device_pointer(g->count64), reps,
                                                fms),
                   fms, check_compact);
    else if (!g->ref)
        bench_skip(ref.name, ref.impl, "cuda", "%s", g->ref_why);
    free(fms);
    for (size_t i = 0; i < NSHAPES(compact_shapes); i++) {
        const gpu_shape *sh = &compact_shapes[i];
        bench_kcfg c = shape_cfg(cfg, sh);
        tj_op op = {.name = "compact", .kname = "bench_compact", .items = sh->items,
                    .zero = {g->count},
                    .args = {tj_arg_array(g->x), tj_arg_array(g->out), tj_arg_array(g->count)},
                    .nargs = 3, .check = check_compact};
        op.m = build_op(g, "compact", sh,
                        bench_kernel_compact(g->e->ctx, &c, sh->items, COMPACT_THRESHOLD));
        char note[160];
        snprintf(note, sizeof note, "keeps x < 0.5: tile_stack of %d, one reservation per "
                 "block, %d loads per lane and step%s", sh->items, sh->unroll ? sh->unroll : 1,
                 sh->full_apart ? ", full blocks untested" : "");
        tj_figure(g, &op, sh, 1, &ref, note);
        tj_module_destroy(op.m);
    }
}

static void
run_copy(gpu_case *g, const bench_kcfg *cfg)
{
    int reps = g->e->o->repeat;
    float *fms = calloc((size_t)reps, sizeof *fms);
    bench_row ref = gpu_row(g, "copy", "cudaMemcpyAsync device to device", 2);
    if (g->ref && fms && tj_array_zero(g->out) == TJ_OK)
        ref_series(g, &ref, g->ref->copy(tj_array_get_device_pointer(g->out),
                                         tj_array_get_device_pointer(g->x),
                                         (size_t)g->n * sizeof(float), reps, fms),
                   fms, check_copy);
    else if (!g->ref)
        bench_skip(ref.name, ref.impl, "cuda", "%s", g->ref_why);
    free(fms);
    for (size_t i = 0; i < NSHAPES(copy_shapes); i++) {
        const gpu_shape *sh = &copy_shapes[i];
        tj_op op = {.name = "copy", .kname = "bench_copy", .items = sh->items,
                    .args = {tj_arg_array(g->x), tj_arg_array(g->out)}, .nargs = 2,
                    .check = check_copy};
        op.m = build_op(g, "copy", sh, bench_kernel_copy(g->e->ctx, cfg, sh->items));
        char note[160];
        snprintf(note, sizeof note, "GB/s of bytes read + written; tile_assign into a "
                 "tile_view of a shared tile of %d", sh->items);
        tj_figure(g, &op, sh, 2, &ref, note);
        tj_module_destroy(op.m);
    }
}

/* ---- launch overhead ------------------------------------------------------------------------- */

/* The runtime API's launch of an empty kernel; its row is returned (median NaN when
 * there is none). */
static bench_row
ref_launch(bench_env *e, bench_reflib *ref, const char *ref_why, double *us)
{
    int reps = e->o->repeat;
    bench_row rr = bench_row_new("gpu/launch", "CUDA runtime <<<1, 256>>> launch", "cuda");
    if (ref && ref->launch_empty(LAUNCHES_PER_RUN, reps, us) == 0) {
        for (int i = 0; i < reps; i++)
            us[i] *= 1e-3;
        bench_row_set_times(&rr, us, reps);
        snprintf(rr.note, sizeof rr.note, "per launch, mean of %d back-to-back launches and a "
                 "synchronisation, host clock", LAUNCHES_PER_RUN);
        bench_emit(&rr);
    } else if (ref) {
        bench_fail(rr.name, rr.impl, "cuda", "%s", ref->error());
    } else {
        bench_skip(rr.name, rr.impl, "cuda", "%s", ref_why);
    }
    return rr;
}

/* Milliseconds per tj_launch_tiled of an empty kernel, --repeat times in 'ms'. */
static tj_status
tj_launches(bench_env *e, tj_device *dev, tj_module *m, double *ms)
{
    int64_t one = 1;
    tj_array *x = NULL;
    tj_status st = tj_array_create(dev, tj_context_get_type(e->ctx, TJ_DTYPE_F32), 1, &one, &x);
    tj_arg a = tj_arg_array(x);
    if (st == TJ_OK)
        st = tj_launch_tiled(dev, m, "bench_empty", 1, &one, BLOCK, &a, 1); /* loads it */
    for (int r = 0; st == TJ_OK && r < e->o->repeat; r++) {
        st = tj_device_synchronize(dev);
        double t0 = bench_now_ms();
        for (int i = 0; st == TJ_OK && i < LAUNCHES_PER_RUN; i++)
            st = tj_launch_tiled(dev, m, "bench_empty", 1, &one, BLOCK, &a, 1);
        if (st == TJ_OK)
            st = tj_device_synchronize(dev);
        ms[r] = (bench_now_ms() - t0) / LAUNCHES_PER_RUN;
    }
    tj_array_destroy(x);
    return st;
}

static void
run_launch(bench_env *e, tj_device *dev, bench_reflib *ref, const char *ref_why)
{
    double *ms = calloc((size_t)e->o->repeat, sizeof *ms);
    if (!ms)
        return;
    bench_row rr = ref_launch(e, ref, ref_why, ms);
    bench_kcfg cfg = {.target = TJ_TARGET_CUDA, .block_dim = BLOCK};
    char why[512];
    tj_module *m = bench_build(e->ctx, bench_kernel_empty(e->ctx, &cfg), dev, false, why,
                               sizeof why);
    bench_row r = bench_row_new("gpu/launch", "tilejit tj_launch_tiled", "cuda");
    tj_status st = m ? tj_launches(e, dev, m, ms) : TJ_ERR_INVALID;
    if (!m) {
        bench_fail(r.name, r.impl, "cuda", "%s", why);
    } else if (st != TJ_OK) {
        bench_fail(r.name, r.impl, "cuda", "%s", bench_error(e, dev));
    } else {
        bench_row_set_times(&r, ms, e->o->repeat);
        if (!isnan(rr.median))
            bench_row_set_ref(&r, &rr);
        snprintf(r.note, sizeof r.note, "per launch of an empty kernel <<<1, 256>>>, mean of "
                 "%d back-to-back launches and a synchronisation, host clock", LAUNCHES_PER_RUN);
        bench_emit(&r);
    }
    free(ms);
    tj_module_destroy(m);
}

/* ---- setup ----------------------------------------------------------------------------------- */

static void
expect(gpu_case *g)
{
    double s = 0;
    int64_t kept = 0;
    uint64_t hash = 0;
    for (int64_t i = 0; i < g->n; i++) {
        s += g->h[i];
        if (g->h[i] < COMPACT_THRESHOLD) {
            kept++;
            hash += bench_hash_float(g->h[i]);
        }
    }
    g->exp_sum = s;
    g->exp_kept = kept;
    g->exp_hash = hash;
}

static void
expect_hist(gpu_case *g)
{
    memset(g->exp_hist, 0, sizeof g->exp_hist);
    for (int64_t i = 0; i < g->n; i++)
        g->exp_hist[(int)g->h[i]]++;
}

static bool
open_case(gpu_case *g, int64_t bytes)
{
    tj_context *ctx = g->e->ctx;
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    const tj_type *i64 = tj_context_get_type(ctx, TJ_DTYPE_I64);
    int64_t one = 1, nbins = 256;
    g->n = bytes / (int64_t)sizeof(float);
    g->h = malloc((size_t)bytes);
    g->back = malloc((size_t)bytes);
    tj_status st = g->h && g->back ? TJ_OK : TJ_ERR_NOMEM;
    if (st == TJ_OK)
        st = tj_array_create(g->dev, f32, 1, &g->n, &g->x);
    if (st == TJ_OK)
        st = tj_array_create(g->dev, f32, 1, &g->n, &g->out);
    if (st == TJ_OK)
        st = tj_array_create(g->dev, f32, 1, &one, &g->sum);
    if (st == TJ_OK)
        st = tj_array_create(g->dev, i32, 1, &nbins, &g->hist);
    if (st == TJ_OK)
        st = tj_array_create(g->dev, i32, 1, &one, &g->count);
    if (st == TJ_OK)
        st = tj_array_create(g->dev, i64, 1, &one, &g->count64);
    if (st != TJ_OK) {
        bench_fail("gpu/", "inputs", "cuda", "cannot allocate 2 x %lld bytes: %s",
                   (long long)bytes, g->h && g->back ? bench_error(g->e, g->dev) : "host memory");
        return false;
    }
    return true;
}

static void
close_case(gpu_case *g)
{
    tj_array *arrays[] = {g->x, g->out, g->sum, g->hist, g->count, g->count64};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        tj_array_destroy(arrays[i]);
    free(g->h);
    free(g->back);
}

/* Fills the input with floats in [lo, hi) and copies it to the GPU. */
static bool
load_input(gpu_case *g, float lo, float hi)
{
    bench_fill_uniform(g->h, g->n, lo, hi, g->e->o->seed, bench_ncpu());
    if (tj_array_copy_from_host(g->x, g->h, (size_t)g->n * sizeof(float)) == TJ_OK)
        return true;
    bench_fail("gpu/", "inputs", "cuda", "copy to the GPU failed: %s", bench_error(g->e, g->dev));
    return false;
}

static const char *const op_names[] = {"gpu/sum", "gpu/histogram", "gpu/compact", "gpu/copy",
                                       "gpu/launch"};

void
bench_gpu_list(void (*put)(const char *name, const char *what))
{
    put("gpu/sum", "float32 sum (tile_load + tile_reduce + atomic) vs CUB DeviceReduce::Sum");
    put("gpu/histogram", "256-bin tile_scatter_add histogram vs shared atomics and CUB");
    put("gpu/compact", "50% compaction with tile_stack vs CUB DeviceSelect::If");
    put("gpu/copy", "copy through tile_view/tile_assign vs cudaMemcpyAsync");
    put("gpu/launch", "launch overhead of an empty kernel vs a runtime-API launch");
}

/* No GPU: build the kernels for sm_90 anyway (that much works here), then skip. */
static void
no_gpu(bench_env *e)
{
    bench_kcfg cfg = {.target = TJ_TARGET_CUDA, .block_dim = BLOCK};
    bench_kcfg sum = shape_cfg(&cfg, &sum_shapes[0]);
    bench_kcfg hist = shape_cfg(&cfg, &hist_shapes[0]);
    bench_kcfg compact = shape_cfg(&cfg, &compact_shapes[0]);
    tj_kernel *ks[] = {bench_kernel_sum(e->ctx, &sum, SUM_TILE),
                       bench_kernel_histogram(e->ctx, &hist, HIST_ITEMS),
                       bench_kernel_compact(e->ctx, &compact, COMPACT_ITEMS, COMPACT_THRESHOLD),
                       bench_kernel_copy(e->ctx, &cfg, COPY_TILE),
                       bench_kernel_empty(e->ctx, &cfg)};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        char why[512];
        tj_module *m = bench_build(e->ctx, ks[i], NULL, false, why, sizeof why);
        if (!bench_wanted(e->o, op_names[i])) {
            tj_module_destroy(m);
            continue;
        }
        if (!m)
            bench_fail(op_names[i], "tilejit", "cuda", "building for sm_90: %s", why);
        else if (e->o->require_gpu)
            bench_fail(op_names[i], "tilejit", "cuda", "TILEJIT_REQUIRE_GPU=1 and %s", e->gpu_why);
        else
            bench_skip(op_names[i], "tilejit", "cuda", "%s; the kernel built to %zu bytes of PTX",
                       e->gpu_why, strlen(tj_module_get_ptx(m)));
        tj_module_destroy(m);
    }
}

static void
run_size(bench_env *e, tj_device *dev, bench_reflib *ref, const char *ref_why, int64_t bytes)
{
    bench_kcfg cfg = {.target = TJ_TARGET_CUDA, .block_dim = BLOCK};
    gpu_case g = {.e = e, .dev = dev, .ref = ref, .ref_why = ref_why};
    bench_say("gpu: %lld MiB of float32 on %s", (long long)(bytes >> 20), tj_device_get_name(dev));
    if (open_case(&g, bytes) && load_input(&g, 0.0f, 1.0f)) {
        expect(&g);
        if (bench_wanted(e->o, "gpu/sum"))
            run_sum(&g, &cfg);
        if (bench_wanted(e->o, "gpu/compact"))
            run_compact(&g, &cfg);
        if (bench_wanted(e->o, "gpu/copy"))
            run_copy(&g, &cfg);
        if (bench_wanted(e->o, "gpu/histogram") && load_input(&g, 0.0f, 256.0f)) {
            expect_hist(&g);
            run_histogram(&g, &cfg);
        }
    }
    close_case(&g);
}

void
bench_gpu_run(bench_env *e)
{
    bool any = false;
    for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
        any |= bench_wanted(e->o, op_names[i]);
    if (!any)
        return;
    tj_device *dev = bench_gpu(e);
    if (!dev) {
        bench_say("gpu: %s", e->gpu_why);
        no_gpu(e);
        return;
    }
    char ref_why[2048] = "";
    bench_reflib *ref = bench_reflib_open(e->o->self, ref_why, sizeof ref_why);
    bench_say("gpu: references: %s", ref ? ref->describe() : ref_why);
    const bench_opts *o = e->o;
    int64_t def = BENCH_GPU_DEFAULT_BYTES;
    for (int s = 0; s < (o->nsizes ? o->nsizes : 1); s++) {
        int64_t bytes = (o->nsizes ? o->sizes[s] : def) / 4 * 4;
        if (bench_wanted(o, "gpu/sum") || bench_wanted(o, "gpu/histogram") ||
            bench_wanted(o, "gpu/compact") || bench_wanted(o, "gpu/copy"))
            run_size(e, dev, ref, ref_why, bytes);
    }
    if (bench_wanted(o, "gpu/launch"))
        run_launch(e, dev, ref, ref_why);
    bench_reflib_close(ref);
}
