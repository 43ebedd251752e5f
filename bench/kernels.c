/*
 * bench/kernels.c: the throughput kernels of the GPU and CPU groups, built with the
 * builder API. One definition serves the GPU and both CPU modes: loops step by
 * block_dim(), so every block width computes the same result.
 */
#include <stdio.h>

#include "bench.h"

static tj_kernel_options
kopts(const bench_kcfg *c)
{
    return (tj_kernel_options){.target = c->target, .block_dim = c->block_dim,
                               .cpu_mode = c->cpu_mode};
}

static tj_val *
i32(tj_kernel *k, int64_t v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}

/* (block, lane) of a tiled launch. */
static void
block_lane(tj_kernel *k, tj_val **blk, tj_val **lane)
{
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    *blk = tid[0];
    *lane = tid[1];
}

tj_kernel *
bench_kernel_sum(tj_context *ctx, const bench_kcfg *c, int tile)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_kernel_options o = kopts(c);
    tj_kernel *k = tj_kernel_create(ctx, "bench_sum", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *blk, *lane;
    block_lane(k, &blk, &lane);
    int tiles = c->unroll > 1 ? c->unroll : 1;
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, i32(k, tile * tiles));
    tj_val *t = tj_tile_load(k, x, 1, &tile, &off, TJ_STORAGE_REGISTER);
    if (tiles > 1) { /* the block's other tiles added into the first, then one reduce */
        tj_val *acc = tj_var_new(k, t);
        tj_val *j = tj_for_begin(k, i32(k, 1), i32(k, tiles), i32(k, 1));
        tj_val *at = tj_binary(k, TJ_BIN_ADD, off, tj_binary(k, TJ_BIN_MUL, j, i32(k, tile)));
        tj_val *next = tj_tile_load(k, x, 1, &tile, &at, TJ_STORAGE_REGISTER);
        tj_var_set(k, acc, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, acc), next));
        tj_for_end(k);
        t = tj_var_get(k, acc);
    }
    tj_val *s = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t);
    tj_tile_atomic_add(k, out, s, NULL);
    return k;
}

enum { MAX_UNROLL = 16 };

/* The elements per lane and step: c->unroll when the steps tile 'items' exactly (a step
 * past the block's items would reach into the next block's), else 1. */
static int
unroll_of(const bench_kcfg *c, int items)
{
    int u = c->unroll < 1 ? 1 : c->unroll > MAX_UNROLL ? MAX_UNROLL : c->unroll;
    int64_t step = (int64_t)u * (c->block_dim ? c->block_dim : 1);
    return items % step == 0 ? u : 1;
}

/* What a loop step does with its u elements: has[e] says whether element e is in the
 * array, v[e] is it (0 outside). */
typedef void (*step_fn)(tj_kernel *k, void *env, tj_val *const *has, tj_val *const *v, int u);

/* 'for j in range(0, items, u * block_dim())' over the block's elements base + j +
 * e * block_dim() + lane (e < u), whose u loads come before 'step' uses them. With u = 1,
 * the plain loop of one element per lane and step. 'checked' false: every element is in
 * the array (no test, no index select). */
static void
items_loop(tj_kernel *k, tj_val *x, tj_val *base, tj_val *lane, int items, int u, bool checked,
           step_fn step, void *env)
{
    tj_val *n = tj_shape(k, x, 0);
    tj_val *by = tj_block_dim(k);
    if (u > 1)
        by = tj_binary(k, TJ_BIN_MUL, by, i32(k, u));
    tj_val *j = tj_for_begin(k, i32(k, 0), i32(k, items), by);
    tj_val *first = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, base, j), lane);
    tj_val *has[MAX_UNROLL], *v[MAX_UNROLL];
    for (int e = 0; e < u; e++) {
        tj_val *i = first;
        if (e > 0)
            i = tj_binary(k, TJ_BIN_ADD, first,
                          tj_binary(k, TJ_BIN_MUL, tj_block_dim(k), i32(k, e)));
        if (!checked) {
            has[e] = tj_const_bool(k, true);
            v[e] = tj_load(k, x, &i, 1);
            continue;
        }
        has[e] = tj_compare(k, TJ_CMP_LT, i, n);
        tj_val *safe = tj_select(k, has[e], i, i32(k, 0));
        v[e] = tj_load(k, x, &safe, 1);
    }
    step(k, env, has, v, u);
    tj_for_end(k);
}

/* The block's 'items' elements through 'step'. With c->full_apart, a block whose elements
 * all lie in x takes a loop without the tests (as CUB's full tiles do), the last one the
 * tested loop; both reach the same cooperative calls, as the test is the block's. */
static void
for_items(tj_kernel *k, const bench_kcfg *c, tj_val *x, tj_val *blk, tj_val *lane, int items,
          step_fn step, void *env)
{
    int u = unroll_of(c, items);
    tj_val *base = tj_binary(k, TJ_BIN_MUL, blk, i32(k, items));
    if (!c->full_apart) {
        items_loop(k, x, base, lane, items, u, true, step, env);
        return;
    }
    tj_val *end = tj_binary(k, TJ_BIN_ADD, base, i32(k, items));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LE, end, tj_shape(k, x, 0)));
    items_loop(k, x, base, lane, items, u, false, step, env);
    tj_else_begin(k);
    items_loop(k, x, base, lane, items, u, true, step, env);
    tj_if_end(k);
}

typedef struct hist_env {
    tj_val *bins;
    const tj_type *i32t;
} hist_env;

static void
hist_step(tj_kernel *k, void *env, tj_val *const *has, tj_val *const *v, int u)
{
    hist_env *h = env;
    for (int e = 0; e < u; e++) {
        tj_val *bin = tj_cast(k, v[e], h->i32t);
        tj_tile_scatter_add(k, h->bins, &bin, 1, i32(k, 1), has[e], tj_const_bool(k, true));
    }
}

tj_kernel *
bench_kernel_histogram(tj_context *ctx, const bench_kcfg *c, int items)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32t = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_kernel_options o = kopts(c);
    tj_kernel *k = tj_kernel_create(ctx, "bench_histogram", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *hist = tj_param_array(k, "hist", i32t, 1);
    tj_val *blk, *lane;
    block_lane(k, &blk, &lane);
    int nbins = 256;
    hist_env h = {.bins = tj_tile_zeros(k, i32t, 1, &nbins, TJ_STORAGE_SHARED), .i32t = i32t};
    for_items(k, c, x, blk, lane, items, hist_step, &h);
    tj_tile_atomic_add(k, hist, h.bins, NULL);
    return k;
}

typedef struct compact_env {
    tj_val *s;
    double threshold;
} compact_env;

static void
compact_step(tj_kernel *k, void *env, tj_val *const *has, tj_val *const *v, int u)
{
    compact_env *ce = env;
    for (int e = 0; e < u; e++) {
        tj_val *below = tj_compare(k, TJ_CMP_LT, v[e],
                                   tj_const_float(k, TJ_DTYPE_F32, ce->threshold));
        tj_tile_stack_push(k, ce->s, v[e], tj_binary(k, TJ_BIN_AND, has[e], below));
    }
}

tj_kernel *
bench_kernel_compact(tj_context *ctx, const bench_kcfg *c, int items, double threshold)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32t = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_kernel_options o = kopts(c);
    tj_kernel *k = tj_kernel_create(ctx, "bench_compact", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *count = tj_param_array(k, "count", i32t, 1);
    tj_val *blk, *lane;
    block_lane(k, &blk, &lane);
    compact_env ce = {.s = tj_tile_stack(k, items, f32), .threshold = threshold};
    tj_val *s = ce.s;
    for_items(k, c, x, blk, lane, items, compact_step, &ce);
    /* One reservation per block: a (1,) tile holding the count, added at count[0]. */
    int one = 1;
    tj_val *kept = tj_binary(k, TJ_BIN_MUL, tj_tile_ones(k, i32t, 1, &one, TJ_STORAGE_REGISTER),
                             tj_tile_stack_count(k, s));
    tj_val *prev = tj_tile_atomic_add(k, count, kept, NULL);
    tj_val *zero = i32(k, 0);
    tj_val *start = tj_tile_extract(k, prev, &zero, 1);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, start, slot);
    tj_store(k, out, &at, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

tj_kernel *
bench_kernel_copy(tj_context *ctx, const bench_kcfg *c, int tile)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_kernel_options o = kopts(c);
    tj_kernel *k = tj_kernel_create(ctx, "bench_copy", &o);
    tj_val *src = tj_param_array(k, "src", f32, 1);
    tj_val *dst = tj_param_array(k, "dst", f32, 1);
    tj_val *blk, *lane;
    block_lane(k, &blk, &lane);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, i32(k, tile));
    tj_val *t = tj_tile_load(k, src, 1, &tile, &off, TJ_STORAGE_REGISTER);
    tj_val *buf = tj_tile_zeros(k, f32, 1, &tile, TJ_STORAGE_SHARED);
    tj_view_index all = tj_view_slice(TJ_SLICE_NONE, TJ_SLICE_NONE, TJ_SLICE_NONE);
    tj_val *view = tj_tile_view(k, buf, &all, 1, NULL, 0);
    tj_tile_assign(k, view, t, NULL);
    tj_tile_store(k, dst, view, &off);
    return k;
}

tj_kernel *
bench_kernel_empty(tj_context *ctx, const bench_kcfg *c)
{
    tj_kernel_options o = kopts(c);
    tj_kernel *k = tj_kernel_create(ctx, "bench_empty", &o);
    tj_param_array(k, "x", tj_context_get_type(ctx, TJ_DTYPE_F32), 1);
    return k;
}

tj_module *
bench_build(tj_context *ctx, tj_kernel *k, const tj_device *dev, bool keep_ir, char *why,
            size_t n)
{
    if (!k) {
        snprintf(why, n, "tj_kernel_create failed: %s",
                 tj_context_error(ctx) ? tj_context_error(ctx) : "out of memory");
        return NULL;
    }
    tj_build_options bo = {.device = dev, .keep_ir = keep_ir};
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, &bo, &m);
    if (st != TJ_OK)
        snprintf(why, n, "building kernel failed (%s): %s", tj_status_name(st),
                 tj_context_error(ctx) ? tj_context_error(ctx) : "no message");
    tj_kernel_destroy(k);
    return st == TJ_OK ? m : NULL;
}
