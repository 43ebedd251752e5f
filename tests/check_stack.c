/* tj-test: CUDA */
/*
 * tests/check_stack.c: tile_stack, push, pop, count, clear (SPEC 4).
 *
 * Most tests are scripts: a list of operations (push from the lanes selected by a pattern,
 * pop, pops in a loop, clear, count from lane 0) on one or two int32 stacks, built into a
 * kernel that records every lane's slot and value after each operation. Each record is
 * checked twice:
 *   invariants (every mode): a push of p values onto a stack holding c gives min(p, C - c)
 *     lanes the slots [c, c + that) once each and -1 to the rest, and the count saturates at
 *     the capacity C; a pop with n stored and a running lanes hands out exactly the slots
 *     [n - min(n, a), n), each with the value pushed there, and the zero value with slot -1
 *     to the others; clear empties; count is what these rules say. This implies the order
 *     rule: values of a later push leave before, or in the same pop as, earlier ones.
 *   exactly (CPU): lanes run in ascending order between barriers (SPEC 1), so the k-th
 *     pushing lane gets slot c + k, and the pop gives lane L slot n - 1 - L.
 * Scripts cover: all lanes push then drain, pushes with has_value on some lanes, overflow,
 * pop from an empty stack, more pops than values (also in a loop), clear then push, the
 * order across pushes, two stacks in one kernel, and push, pop (also in a loop), count (from
 * lane 0) and clear made inside user functions that take the stack as a parameter, among
 * them one function that pops through a call to another (passing its stack parameter on),
 * counts in every lane and clears, and functions on each of two stacks. Every script runs
 * with full blocks and with a partial last block (only the lanes of the launch run).
 * Separate tests cover vec3 and struct elements, the compaction seed, the build errors, the
 * barriers of GPU pushes and pops (ptx; a pop per warp under TILEJIT_GPU_POP=warp, which
 * CTest also runs the whole ptx and cuda cases with), and
 * (cpu1) loops of pushes over f32, i32, f64 and i64 against a C model, exactly: half kept,
 * all kept past the capacity (a shared tile after the stack must stay intact), none kept, a
 * trip count not a multiple of the vector width, a loop from 5, max(v, 300) + 1 pushed, and
 * the push's slot used; where the host has AVX-512 the optimised IR must show the
 * compressed push (jit/compress_push.c) in all but the last; and (coop) two pops in a row
 * in blocks of 33, 64 and 256 lanes over f32, i32, f64 and i64 stacks of 0 to 2 x block_dim
 * values, each lane's slot and value exactly (jit/serial_pops.c's vector steps, full and
 * partial, and its scalar loop), and the bench's compaction (a reservation per block) as a
 * multiset, whose drain on AVX-512 has no scatter of stride 1 (jit/lane_loops.c).
 *
 * Test cases: cpu1, coop (block widths 2, 31, 32, 33, 64, 256; partial blocks), ptx (the
 * same kernels through ptxas, grepped for atom.shared and bar.sync; a push and a pop for
 * every architecture), cuda, errors.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tj_tile_test.h" /* tt_get, tt_put */
#include "tj_where_test.h"

enum { TIMEOUT_S = 600 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const uint32_t widths[] = {2, 31, 32, 33, 64, 256};
enum { NWIDTHS = 6 };

/* ---- targets ------------------------------------------------------------------------------ */

/* Lanes run in ascending order between barriers on the CPU (SPEC 1): slots are exact. */
static bool
exact_slots(void)
{
    return g_where == ON_CPU1 || g_where == ON_COOP;
}

static void
put(tj_kernel *k, tj_val *arr, tj_val *i, tj_val *v)
{
    ck_assert(tj_store(k, arr, &i, 1, v));
}

/* ---- scripts ------------------------------------------------------------------------------- */

/* POP_COUNT_CLEAR: one user function pops (by calling another function, to which it passes
 * its stack parameter), reads the count in every lane and clears; it uses two record rows,
 * the pop's and the count's. */
typedef enum op_kind { PUSH, POP, POP_LOOP, CLEAR, COUNT, POP_COUNT_CLEAR } op_kind;

typedef struct sop {
    op_kind kind;
    int stack;      /* 0 or 1 */
    int every;      /* PUSH: lanes with lane % every == phase push (every 0 means 1) */
    int phase;
    int times;      /* POP_LOOP: iterations of a tj_for loop */
    bool in_func;   /* made by a user function that takes the stack as a parameter (POP_LOOP:
                     * the loop is in the kernel, each pop a call) */
} sop;

/* Capacity of a stack: cap_w * W + (half ? W / 2 : 0) + fixed, at least 1. */
typedef struct cap {
    int w, half, fixed;
} cap;

typedef struct script {
    const char *name;
    cap caps[2];
    int nstacks;
    sop ops[16];
    int nops;
} script;

#define P(e, ph) {.kind = PUSH, .every = (e), .phase = (ph)}
#define P1(e, ph) {.kind = PUSH, .stack = 1, .every = (e), .phase = (ph)}
#define PF(e, ph) {.kind = PUSH, .every = (e), .phase = (ph), .in_func = true}
#define POP0 {.kind = POP}
#define POP1 {.kind = POP, .stack = 1}
#define LOOP(n) {.kind = POP_LOOP, .times = (n)}
#define CLR {.kind = CLEAR}
#define CNT {.kind = COUNT}
#define CNT1 {.kind = COUNT, .stack = 1}
#define POPF(st) {.kind = POP, .stack = (st), .in_func = true}
#define LOOPF(st, n) {.kind = POP_LOOP, .stack = (st), .times = (n), .in_func = true}
#define CLRF(st) {.kind = CLEAR, .stack = (st), .in_func = true}
#define CNTF(st) {.kind = COUNT, .stack = (st), .in_func = true}
#define PCC(st) {.kind = POP_COUNT_CLEAR, .stack = (st), .in_func = true}

static const script scripts[] = {
    {"all lanes push, then drain", {{2, 0, 0}}, 1, {P(1, 0), CNT, POP0, CNT}, 4},
    {"some lanes push, then more pops than values", {{2, 0, 0}}, 1,
     {P(3, 0), CNT, POP0, POP0, CNT, P(2, 1), CNT, LOOP(3), CNT}, 9},
    {"overflow: count saturates at the capacity", {{1, 1, 0}}, 1,
     {P(1, 0), CNT, P(1, 0), CNT, P(1, 0), CNT, LOOP(3), CNT}, 8},
    {"overflow of a one-element stack", {{0, 0, 1}}, 1, {P(1, 0), P(2, 1), CNT, POP0, POP0, CNT},
     6},
    {"pop from an empty stack", {{1, 0, 0}}, 1,
     {POP0, CNT, P(2, 0), CNT, LOOP(2), POP0, CNT}, 7},
    {"clear, then push", {{2, 0, 0}}, 1, {P(1, 0), CNT, CLR, CNT, P(2, 1), CNT, LOOP(2), CNT}, 8},
    {"clear an empty stack, pop after clear", {{1, 0, 1}}, 1, {CLR, CNT, P(1, 0), CLR, POP0, CNT},
     6},
    {"later pushes come out first", {{3, 0, 0}}, 1,
     {P(1, 0), P(2, 0), P(3, 2), CNT, POP0, CNT, LOOP(3), CNT}, 8},
    {"two stacks in one kernel", {{1, 0, 0}, {2, 1, 0}}, 2,
     {P(1, 0), P1(2, 0), P1(1, 0), CNT, CNT1, P1(3, 1), CNT1, POP1, POP0, CNT, CNT1, POP1, CNT1},
     13},
    {"pushes inside a user function", {{2, 0, 0}}, 1,
     {PF(1, 0), CNT, PF(2, 1), CNT, POP0, LOOP(2), CNT}, 7},
    {"pop, count and clear inside user functions", {{2, 0, 0}}, 1,
     {P(1, 0), CNTF(0), POPF(0), CNTF(0), LOOPF(0, 2), CNT, CLRF(0), CNTF(0), PF(2, 1), CNTF(0),
      POPF(0), CNT, LOOPF(0, 2), CNTF(0)},
     14},
    {"user functions on an empty, a full and a cleared stack", {{1, 1, 0}}, 1,
     {POPF(0), CNTF(0), CLRF(0), CNTF(0), P(1, 0), PF(1, 0), CNTF(0), LOOPF(0, 3), CNTF(0),
      PF(3, 2), CLRF(0), POPF(0), CNTF(0)},
     13},
    {"one function pops (through another), counts and clears", {{1, 1, 0}}, 1,
     {P(1, 0), P(3, 0), PCC(0), CNT, PCC(0), CNT, P(2, 0), PF(2, 1), PCC(0), CNTF(0), POP0, CNT},
     12},
    {"two stacks through user functions", {{1, 0, 0}, {2, 1, 0}}, 2,
     {P(1, 0), P1(2, 0), P1(1, 0), POPF(1), CNTF(0), CNTF(1), CLRF(0), CNTF(0), PCC(1), CNTF(1),
      P1(3, 1), POPF(0), LOOPF(1, 2), CNTF(1), CNT},
     15},
};

static int
capacity_of(const cap *c, int64_t W)
{
    int64_t v = c->w * W + (c->half ? W / 2 : 0) + c->fixed;
    return v < 1 ? 1 : (int)v;
}

static bool
pushes(const sop *o, int64_t lane)
{
    int every = o->every ? o->every : 1;
    return lane % every == o->phase;
}

/* The value lane 'lane' of block 'blk' pushes in the p-th push of the script (p from 0):
 * it names the push, the block and the lane, and is never 0. */
static int32_t
pushed_value(int p, int64_t blk, int64_t lane)
{
    return (int32_t)((p + 1) * 1000 + blk * 10000 + lane + 1);
}

/* Number of record rows (one per lane each) that op i and the ones before it use. */
static int
records_of(const sop *o)
{
    if (o->kind == POP_LOOP)
        return o->times;
    return o->kind == CLEAR ? 0 : o->kind == POP_COUNT_CLEAR ? 2 : 1;
}

static int
total_records(const script *s)
{
    int n = 0;
    for (int i = 0; i < s->nops; i++)
        n += records_of(&s->ops[i]);
    return n;
}

/* The user functions of a script, per stack (their stack parameters have its capacity). */
enum { F_PUSH, F_POP, F_COUNT, F_CLEAR, F_POP_COUNT_CLEAR, NFUNCS };

typedef struct funcs {
    tj_func *f[NFUNCS][2];
} funcs;

static tj_func *
func_begin(const tj_kernel_options *o, const char *what, int stack, const tj_type *ret,
           int64_t capacity, tj_val **s)
{
    char name[32];
    snprintf(name, sizeof name, "%s_%d", what, stack);
    tj_func *f = tj_func_create(tjt.ctx, name, ret, o);
    *s = tj_param_stack(f, "s", tjt_type(TJ_DTYPE_I32), capacity);
    return f;
}

static tj_func *
func_end(tj_func *f)
{
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

/* int32 push_one(stack s, int32 v, bool has): the push, made in a function. */
static tj_func *
push_func(const tj_kernel_options *o, int stack, int64_t capacity)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_val *s;
    tj_func *f = func_begin(o, "push_one", stack, i32, capacity, &s);
    tj_val *v = tj_param(f, "v", i32);
    tj_val *has = tj_param(f, "has", tjt_type(TJ_DTYPE_BOOL));
    tj_return(f, tj_tile_stack_push(f, s, v, has));
    return func_end(f);
}

/* vec2i pop_one(stack s): the pop made in a function, as (value, slot). */
static tj_func *
pop_func(const tj_kernel_options *o, int stack, int64_t capacity)
{
    const tj_type *v2 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 2);
    tj_val *s, *parts[2];
    tj_func *f = func_begin(o, "pop_one", stack, v2, capacity, &s);
    parts[0] = tj_tile_stack_pop(f, s, &parts[1]);
    tj_return(f, tj_compose(f, v2, parts, 2));
    return func_end(f);
}

/* int32 count_of(stack s), called from lane 0 only (SPEC 4 allows one lane). */
static tj_func *
count_func(const tj_kernel_options *o, int stack, int64_t capacity)
{
    tj_val *s;
    tj_func *f = func_begin(o, "count_of", stack, tjt_type(TJ_DTYPE_I32), capacity, &s);
    tj_return(f, tj_tile_stack_count(f, s));
    return func_end(f);
}

/* void clear_it(stack s). */
static tj_func *
clear_func(const tj_kernel_options *o, int stack, int64_t capacity)
{
    tj_val *s;
    tj_func *f = func_begin(o, "clear_it", stack, NULL, capacity, &s);
    ck_assert(tj_tile_stack_clear(f, s));
    return func_end(f);
}

/* vec3i pop_count_clear(stack s): (value, slot) = pop_one(s), passing its stack parameter
 * on; then count(s) in every lane; then clear(s). Returns (value, slot, count). */
static tj_func *
pop_count_clear_func(const tj_kernel_options *o, int stack, int64_t capacity, tj_func *pop_one)
{
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 3);
    tj_val *s;
    tj_func *f = func_begin(o, "pop_count_clear", stack, v3, capacity, &s);
    tj_val *popped = tj_call(f, pop_one, &s, 1);
    tj_val *parts[3] = {tj_extract(f, popped, 0), tj_extract(f, popped, 1),
                        tj_tile_stack_count(f, s)};
    ck_assert(tj_tile_stack_clear(f, s));
    tj_return(f, tj_compose(f, v3, parts, 3));
    return func_end(f);
}

/* Makes the functions the script's in_func operations need. */
static void
make_funcs(const script *s, const tj_kernel_options *o, int64_t W, funcs *fs)
{
    memset(fs, 0, sizeof *fs);
    for (int i = 0; i < s->nops; i++) {
        const sop *op = &s->ops[i];
        int st = op->stack;
        int64_t cap = capacity_of(&s->caps[st], W);
        if (!op->in_func)
            continue;
        if (op->kind == PUSH && !fs->f[F_PUSH][st])
            fs->f[F_PUSH][st] = push_func(o, st, cap);
        if ((op->kind == POP || op->kind == POP_LOOP || op->kind == POP_COUNT_CLEAR) &&
            !fs->f[F_POP][st])
            fs->f[F_POP][st] = pop_func(o, st, cap);
        if (op->kind == COUNT && !fs->f[F_COUNT][st])
            fs->f[F_COUNT][st] = count_func(o, st, cap);
        if (op->kind == CLEAR && !fs->f[F_CLEAR][st])
            fs->f[F_CLEAR][st] = clear_func(o, st, cap);
        if (op->kind == POP_COUNT_CLEAR && !fs->f[F_POP_COUNT_CLEAR][st])
            fs->f[F_POP_COUNT_CLEAR][st] = pop_count_clear_func(o, st, cap, fs->f[F_POP][st]);
    }
}

static void
drop_funcs(funcs *fs)
{
    for (int i = 0; i < NFUNCS; i++)
        for (int st = 0; st < 2; st++)
            tj_func_destroy(fs->f[i][st]);
}

/* A pop, made directly or by a call to pop_one: the value, and the slot in '*slot'. */
static tj_val *
pop_in(tj_kernel *k, const funcs *fs, const sop *op, tj_val *st, tj_val **slot)
{
    if (!op->in_func)
        return tj_tile_stack_pop(k, st, slot);
    tj_val *r = tj_call(k, fs->f[F_POP][op->stack], &st, 1);
    *slot = tj_extract(k, r, 1);
    return tj_extract(k, r, 0);
}

/* The script as a kernel: rslot/rval[rec * T + g], T = 3 * W threads per record row. */
static tj_kernel *
script_kernel(const script *s, uint32_t B)
{
    tj_kernel_options o = opts_for(B, false);
    uint32_t W = width_of(B);
    int64_t T = 3 * (int64_t)W;
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    funcs fs;
    make_funcs(s, &o, W, &fs);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "script", &o);
    tj_val *rslot = tj_param_array(k, "rslot", i32, 1), *rval = tj_param_array(k, "rval", i32, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *stk[2];
    for (int i = 0; i < s->nstacks; i++)
        stk[i] = tj_tile_stack(k, capacity_of(&s->caps[i], W), i32);
    int rec = 0, npush = 0;
    for (int i = 0; i < s->nops; i++) {
        const sop *op = &s->ops[i];
        tj_val *st = stk[op->stack];
        tj_val *at = bin(k, TJ_BIN_ADD, ci(k, rec * T), g);
        switch (op->kind) {
        case PUSH: {
            tj_val *sel = bin(k, TJ_BIN_MOD, lane, ci(k, op->every ? op->every : 1));
            tj_val *has = tj_compare(k, TJ_CMP_EQ, sel, ci(k, op->phase));
            tj_val *v = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, ci(k, (npush + 1) * 1000 + 1), lane),
                            bin(k, TJ_BIN_MUL, blk, ci(k, 10000)));
            tj_val *args[] = {st, v, has};
            tj_val *slot = op->in_func ? tj_call(k, fs.f[F_PUSH][op->stack], args, 3)
                                       : tj_tile_stack_push(k, st, v, has);
            put(k, rslot, at, slot);
            put(k, rval, at, v);
            npush++;
            break;
        }
        case POP: {
            tj_val *slot;
            tj_val *v = pop_in(k, &fs, op, st, &slot);
            put(k, rslot, at, slot);
            put(k, rval, at, v);
            break;
        }
        case POP_LOOP: {
            tj_val *it = tj_for_begin(k, ci(k, 0), ci(k, op->times), ci(k, 1));
            tj_val *slot;
            tj_val *v = pop_in(k, &fs, op, st, &slot);
            tj_val *here = bin(k, TJ_BIN_ADD, at, bin(k, TJ_BIN_MUL, it, ci(k, T)));
            put(k, rslot, here, slot);
            put(k, rval, here, v);
            tj_for_end(k);
            break;
        }
        case CLEAR:
            if (op->in_func)
                ck_assert_ptr_nonnull(tj_call(k, fs.f[F_CLEAR][op->stack], &st, 1));
            else
                ck_assert(tj_tile_stack_clear(k, st));
            break;
        case COUNT:
            tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, ci(k, 0)));
            put(k, rslot, at,
                op->in_func ? tj_call(k, fs.f[F_COUNT][op->stack], &st, 1)
                            : tj_tile_stack_count(k, st));
            tj_if_end(k);
            break;
        case POP_COUNT_CLEAR: {
            /* row rec: the pop; row rec + 1: the count, lane 0 in rslot, every lane in rval */
            tj_val *r = tj_call(k, fs.f[F_POP_COUNT_CLEAR][op->stack], &st, 1);
            put(k, rslot, at, tj_extract(k, r, 1));
            put(k, rval, at, tj_extract(k, r, 0));
            tj_val *at1 = bin(k, TJ_BIN_ADD, at, ci(k, T));
            put(k, rval, at1, tj_extract(k, r, 2));
            tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, ci(k, 0)));
            put(k, rslot, at1, tj_extract(k, r, 2));
            tj_if_end(k);
            break;
        }
        }
        rec += records_of(op);
    }
    drop_funcs(&fs);
    return k;
}

enum { UNSET = -7 };

/* The state of one stack of one block while checking. */
typedef struct model {
    int cap, count;
    int32_t *data;
} model;

typedef struct check_ctx {
    const script *s;
    int64_t W, n, T, blk, active;
    const int32_t *rslot, *rval;
    bool exact;
} check_ctx;

static int32_t
slot_at(const check_ctx *c, int rec, int64_t lane)
{
    return c->rslot[rec * c->T + c->blk * c->W + lane];
}

static int32_t
val_at(const check_ctx *c, int rec, int64_t lane)
{
    return c->rval[rec * c->T + c->blk * c->W + lane];
}

/* Fails with the script, the launch, the block, the operation and 'buf'. */
#define FAIL_IF(cond)                                                                         \
    ck_assert_msg(!(cond), "%s, W = %lld, %lld threads, block %lld, op %d: %s", c->s->name,   \
                  (long long)c->W, (long long)c->n, (long long)c->blk, i, buf)

static void
check_push(const check_ctx *c, int i, int rec, int p, model *m)
{
    const sop *op = &c->s->ops[i];
    char buf[256];
    int npush = 0;
    for (int64_t l = 0; l < c->active; l++)
        npush += pushes(op, l);
    int succ = npush < m->cap - m->count ? npush : m->cap - m->count;
    int seen = 0, rank = 0;
    char *hit = calloc((size_t)m->cap + 1, 1);
    ck_assert_ptr_nonnull(hit);
    for (int64_t l = 0; l < c->active; l++) {
        int32_t slot = slot_at(c, rec, l), v = val_at(c, rec, l);
        snprintf(buf, sizeof buf, "push: lane %lld got slot %d", (long long)l, slot);
        ck_assert_msg(v == pushed_value(p, c->blk, l), "%s: value record %d", buf, v);
        if (!pushes(op, l)) {
            FAIL_IF(slot != -1);
            continue;
        }
        if (c->exact) {
            int want = m->count + rank < m->cap ? m->count + rank : -1;
            snprintf(buf, sizeof buf, "push: lane %lld (pushing lane %d) got slot %d, expected %d",
                     (long long)l, rank, slot, want);
            FAIL_IF(slot != want);
        }
        rank++;
        if (slot < 0)
            continue;
        snprintf(buf, sizeof buf, "push: lane %lld got slot %d, outside [%d, %d) or taken twice",
                 (long long)l, slot, m->count, m->count + succ);
        FAIL_IF(slot < m->count || slot >= m->count + succ || hit[slot]);
        hit[slot] = 1;
        m->data[slot] = v;
        seen++;
    }
    snprintf(buf, sizeof buf, "push: %d of %d values stored, expected %d", seen, npush, succ);
    FAIL_IF(seen != succ);
    m->count += succ;
    free(hit);
}

static void
check_pop(const check_ctx *c, int i, int rec, model *m)
{
    char buf[256];
    int n = m->count;
    int taken = n < c->active ? n : (int)c->active;
    int seen = 0;
    char *hit = calloc((size_t)m->cap + 1, 1);
    ck_assert_ptr_nonnull(hit);
    for (int64_t l = 0; l < c->active; l++) {
        int32_t slot = slot_at(c, rec, l), v = val_at(c, rec, l);
        if (c->exact) {
            int want = l < n ? n - 1 - (int)l : -1;
            snprintf(buf, sizeof buf, "pop: lane %lld got slot %d, expected %d", (long long)l,
                     slot, want);
            FAIL_IF(slot != want);
        }
        if (slot < 0) {
            snprintf(buf, sizeof buf, "pop: lane %lld got slot %d and value %d, expected -1 "
                     "and the zero value", (long long)l, slot, v);
            FAIL_IF(slot != -1 || v != 0);
            continue;
        }
        snprintf(buf, sizeof buf, "pop: lane %lld got slot %d, outside [%d, %d) or taken twice",
                 (long long)l, slot, n - taken, n);
        FAIL_IF(slot < n - taken || slot >= n || hit[slot]);
        hit[slot] = 1;
        snprintf(buf, sizeof buf, "pop: lane %lld got %d from slot %d, which holds %d",
                 (long long)l, v, slot, m->data[slot]);
        FAIL_IF(v != m->data[slot]);
        seen++;
    }
    snprintf(buf, sizeof buf, "pop: %d values handed out, expected %d", seen, taken);
    FAIL_IF(seen != taken);
    m->count = n - taken;
    free(hit);
}

/* The count record 'rec': lane 0 wrote the model's count, the other lanes nothing. */
static void
check_count(const check_ctx *c, int i, int rec, const model *m)
{
    char buf[256];
    snprintf(buf, sizeof buf, "count is %d, expected %d", slot_at(c, rec, 0), m->count);
    FAIL_IF(slot_at(c, rec, 0) != m->count);
    for (int64_t l = 1; l < c->active; l++) {
        snprintf(buf, sizeof buf, "lane %lld wrote a count record", (long long)l);
        FAIL_IF(slot_at(c, rec, l) != UNSET);
    }
}

/* Checks block c->blk of a run against the rules (and, on the CPU, the exact slots). */
static void
check_block(const check_ctx *c)
{
    const script *s = c->s;
    model m[2];
    for (int i = 0; i < s->nstacks; i++) {
        m[i].cap = capacity_of(&s->caps[i], c->W);
        m[i].count = 0;
        m[i].data = calloc((size_t)m[i].cap, sizeof(int32_t));
        ck_assert_ptr_nonnull(m[i].data);
    }
    int rec = 0, npush = 0;
    char buf[256];
    for (int i = 0; i < s->nops; i++) {
        const sop *op = &s->ops[i];
        model *mm = &m[op->stack];
        switch (op->kind) {
        case PUSH:
            check_push(c, i, rec, npush++, mm);
            break;
        case POP:
            check_pop(c, i, rec, mm);
            break;
        case POP_LOOP:
            for (int t = 0; t < op->times; t++)
                check_pop(c, i, rec + t, mm);
            break;
        case CLEAR:
            mm->count = 0;
            break;
        case COUNT:
            check_count(c, i, rec, mm);
            break;
        case POP_COUNT_CLEAR:
            check_pop(c, i, rec, mm);
            check_count(c, i, rec + 1, mm);
            for (int64_t l = 0; l < c->active; l++) {
                snprintf(buf, sizeof buf, "lane %lld read the count %d, expected %d",
                         (long long)l, val_at(c, rec + 1, l), mm->count);
                FAIL_IF(val_at(c, rec + 1, l) != mm->count);
            }
            mm->count = 0;
            break;
        }
        rec += records_of(op);
    }
    for (int i = 0; i < s->nstacks; i++)
        free(m[i].data);
}

static void
run_script(const script *s, tj_module *m, uint32_t B, int64_t n)
{
    uint32_t W = width_of(B);
    int64_t T = 3 * (int64_t)W, nrec = total_records(s);
    size_t bytes = (size_t)(nrec * T) * sizeof(int32_t);
    int32_t *slots = malloc(bytes), *vals = malloc(bytes);
    ck_assert(slots && vals);
    for (int64_t j = 0; j < nrec * T; j++)
        slots[j] = vals[j] = UNSET;
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_array *sa = tjt_array(device(), i32, nrec * T, slots);
    tj_array *va = tjt_array(device(), i32, nrec * T, vals);
    tj_arg args[] = {tj_arg_array(sa), tj_arg_array(va)};
    tjt_ok(device(), tj_launch(device(), m, "script", 1, &n, B, args, 2));
    tjt_ok(device(), tj_array_copy_to_host(sa, slots, bytes));
    tjt_ok(device(), tj_array_copy_to_host(va, vals, bytes));
    for (int64_t b = 0; b < 3; b++) {
        check_ctx c = {.s = s, .W = W, .n = n, .T = T, .blk = b, .active = active_in(n, W, b),
                       .rslot = slots, .rval = vals, .exact = exact_slots()};
        if (c.active > 0)
            check_block(&c);
    }
    /* threads past the end of the launch did nothing */
    for (int64_t r = 0; r < nrec; r++)
        for (int64_t g = n; g < T; g++)
            ck_assert_msg(slots[r * T + g] == UNSET && vals[r * T + g] == UNSET,
                          "%s: thread %lld is not in the launch but wrote record %lld", s->name,
                          (long long)g, (long long)r);
    free(slots);
    free(vals);
    tj_array_destroy(sa);
    tj_array_destroy(va);
}

START_TEST(test_stack_scripts_follow_the_push_and_pop_rules)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const script *s = &scripts[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    tj_kernel *k = script_kernel(s, B);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        ptx_has(m, "bar.sync", true);
        return;
    }
    uint32_t W = width_of(B);
    run_script(s, m, B, 3 * (int64_t)W);
    if (W > 1) {
        run_script(s, m, B, 2 * (int64_t)W + W / 3 + 1);
        run_script(s, m, B, W - 1); /* a single partial block */
    }
}
END_TEST

/* ---- vec3 and struct elements ---------------------------------------------------------------- */

typedef struct item_c {
    int32_t id;
    float w;
    bool flag;
    float pos[3];
    double mass;
} item_c;

static const tj_type *
item_type(void)
{
    const tj_field fields[] = {
        {"id", tjt_type(TJ_DTYPE_I32)},
        {"w", tjt_type(TJ_DTYPE_F32)},
        {"flag", tjt_type(TJ_DTYPE_BOOL)},
        {"pos", tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3)},
        {"mass", tjt_type(TJ_DTYPE_F64)},
    };
    return tjt_struct_type("item", fields, NROWS(fields), sizeof(item_c));
}

static item_c
item_of(int64_t g, int64_t lane)
{
    return (item_c){.id = (int32_t)g, .w = (float)lane * 0.5f, .flag = lane % 4 == 0,
                    .pos = {(float)lane, -(float)lane, 2}, .mass = (double)g + 0.25};
}

/* Lanes with even lane push an item and every lane a vec3; each pops twice (the second pop
 * of the item stack finds it empty); out_item/out_vec[pop * T + g], slots likewise. */
START_TEST(test_stack_of_vec3_and_struct_elements)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    uint32_t W = width_of(B);
    int64_t T = 2 * (int64_t)W;
    const tj_type *it = item_type(), *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32), *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "elems", &o);
    tj_val *oi = tj_param_array(k, "oi", it, 1), *ov = tj_param_array(k, "ov", v3, 1);
    tj_val *os = tj_param_array(k, "os", i32, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *si = tj_tile_stack(k, W, it), *sv = tj_tile_stack(k, 2 * W, v3);
    tj_val *lf = tj_cast(k, lane, f32);
    tj_val *pc[3] = {lf, tj_unary(k, TJ_UN_NEG, lf), tj_const_float(k, TJ_DTYPE_F32, 2)};
    tj_val *fields[5] = {
        g, bin(k, TJ_BIN_MUL, lf, tj_const_float(k, TJ_DTYPE_F32, 0.5)),
        tj_compare(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, lane, ci(k, 4)), ci(k, 0)),
        tj_compose(k, v3, pc, 3),
        bin(k, TJ_BIN_ADD, tj_cast(k, g, tjt_type(TJ_DTYPE_F64)),
            tj_const_float(k, TJ_DTYPE_F64, 0.25)),
    };
    tj_val *even = tj_compare(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, lane, ci(k, 2)), ci(k, 0));
    tj_tile_stack_push(k, si, tj_compose(k, it, fields, 5), even);
    tj_val *vc[3] = {lf, bin(k, TJ_BIN_MUL, lf, tj_const_float(k, TJ_DTYPE_F32, 2)),
                     tj_const_float(k, TJ_DTYPE_F32, -1)};
    tj_tile_stack_push(k, sv, tj_compose(k, v3, vc, 3), tj_const_bool(k, true));
    for (int p = 0; p < 2; p++) {
        tj_val *at = bin(k, TJ_BIN_ADD, ci(k, p * T), g);
        tj_val *slot_i, *slot_v;
        put(k, oi, at, tj_tile_stack_pop(k, si, &slot_i));
        put(k, ov, at, tj_tile_stack_pop(k, sv, &slot_v));
        put(k, os, bin(k, TJ_BIN_MUL, at, ci(k, 2)), slot_i);
        put(k, os, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, at, ci(k, 2)), ci(k, 1)), slot_v);
    }
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        return;
    }
    int64_t n = W > 1 ? 2 * (int64_t)W - 1 : 2;
    item_c *gi = calloc((size_t)(2 * T), sizeof *gi);
    float *gv = calloc((size_t)(2 * T * 3), sizeof *gv);
    int32_t *gs = calloc((size_t)(4 * T), sizeof *gs);
    ck_assert(gi && gv && gs);
    tj_array *ia = tjt_array(device(), it, 2 * T, NULL), *va = tjt_array(device(), v3, 2 * T, NULL);
    tj_array *sa = tjt_array(device(), i32, 4 * T, NULL);
    tj_arg args[] = {tj_arg_array(ia), tj_arg_array(va), tj_arg_array(sa)};
    tjt_ok(device(), tj_launch(device(), m, "elems", 1, &n, B, args, 3));
    tjt_ok(device(), tj_array_copy_to_host(ia, gi, (size_t)(2 * T) * sizeof *gi));
    tjt_ok(device(), tj_array_copy_to_host(va, gv, (size_t)(2 * T * 3) * sizeof *gv));
    tjt_ok(device(), tj_array_copy_to_host(sa, gs, (size_t)(4 * T) * sizeof *gs));
    for (int64_t b = 0; b < 2; b++) {
        int64_t act = active_in(n, W, b);
        int nitems = 0, nvecs = 0;
        bool *item_seen = calloc((size_t)W, 1), *vec_seen = calloc((size_t)W, 1);
        ck_assert(item_seen && vec_seen);
        for (int p = 0; p < 2; p++)
            for (int64_t l = 0; l < act; l++) {
                int64_t at = p * T + b * W + l;
                const item_c *x = &gi[at];
                const float *v = &gv[at * 3];
                int32_t si_ = gs[2 * at], sv_ = gs[2 * at + 1];
                if (si_ < 0) {
                    ck_assert_msg(si_ == -1 && x->id == 0 && x->w == 0 && !x->flag &&
                                      x->pos[0] == 0 && x->pos[1] == 0 && x->pos[2] == 0 &&
                                      x->mass == 0,
                                  "pop %d, block %lld lane %lld: no item, but not the zero value",
                                  p, (long long)b, (long long)l);
                } else {
                    int64_t src = x->id - b * W;
                    ck_assert_msg(src >= 0 && src < act && src % 2 == 0 && !item_seen[src],
                                  "pop %d, block %lld lane %lld: item id %d was not pushed once",
                                  p, (long long)b, (long long)l, x->id);
                    item_seen[src] = true;
                    item_c want = item_of(x->id, src);
                    ck_assert_msg(want.w == x->w && x->flag == want.flag &&
                                      x->pos[0] == want.pos[0] && x->pos[1] == want.pos[1] &&
                                      x->pos[2] == want.pos[2] && x->mass == want.mass,
                                  "item %d came back changed", x->id);
                    nitems++;
                }
                if (sv_ < 0) {
                    ck_assert_msg(sv_ == -1 && v[0] == 0 && v[1] == 0 && v[2] == 0,
                                  "pop %d: no vec3, but not the zero value", p);
                } else {
                    int64_t src = (int64_t)v[0];
                    ck_assert_msg(src >= 0 && src < act && !vec_seen[src] && v[1] == 2 * v[0] &&
                                      v[2] == -1,
                                  "pop %d, block %lld lane %lld: vec3 (%g, %g, %g) was not "
                                  "pushed once", p, (long long)b, (long long)l, (double)v[0],
                                  (double)v[1], (double)v[2]);
                    vec_seen[src] = true;
                    nvecs++;
                }
                if (exact_slots()) {
                    int items = (int)((act + 1) / 2);
                    int want_i = p == 0 && l < items ? items - 1 - (int)l : -1;
                    int want_v = p == 0 && l < act ? (int)(act - 1 - l) : -1;
                    ck_assert_int_eq(si_, want_i);
                    ck_assert_int_eq(sv_, want_v);
                }
            }
        ck_assert_int_eq(nitems, (act + 1) / 2);
        ck_assert_int_eq(nvecs, act);
        free(item_seen);
        free(vec_seen);
    }
    free(gi);
    free(gv);
    free(gs);
    tj_array_destroy(ia);
    tj_array_destroy(va);
    tj_array_destroy(sa);
}
END_TEST

/* ---- the seed ------------------------------------------------------------------------------ */

/* seeds/tile_stack.txt: the values above 5 of [1, 8, 3, 7, 2, 9, 4, 6], compacted through
 * a stack of 8, are [6, 7, 8, 9] in every mode and for any block size. */
START_TEST(test_stack_compaction_seed)
{
    g_where = _i / STRIDE;
    static const uint32_t seed_widths[] = {4, 2, 31, 32, 33, 64, 256};
    uint32_t B = seed_widths[_i % STRIDE];
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "compact_values", &o);
    tj_val *data = tj_param_array(k, "data", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *num = tj_param_array(k, "num", i32, 1);
    tj_val *zero = ci(k, 0), *nitems = ci(k, 8);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *lane = tid[1];
    tj_val *s = tj_tile_stack(k, 8, i32);
    tj_val *base = tj_for_begin(k, zero, nitems, tj_block_dim(k));
    tj_val *i = bin(k, TJ_BIN_ADD, base, lane);
    tj_val *value = tj_var_new(k, ci(k, -1));
    tj_val *keep = tj_var_new(k, tj_const_bool(k, false));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, nitems));
    tj_val *v = tj_load(k, data, &i, 1);
    tj_var_set(k, value, v);
    tj_var_set(k, keep, tj_compare(k, TJ_CMP_GT, v, ci(k, 5)));
    tj_if_end(k);
    tj_tile_stack_push(k, s, tj_var_get(k, value), tj_var_get(k, keep));
    tj_for_end(k);
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
    tj_store(k, num, &zero, 1, tj_tile_stack_count(k, s));
    tj_if_end(k);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, out, &slot, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        ptx_has(m, "bar.sync", true);
        return;
    }
    int32_t in[8] = {1, 8, 3, 7, 2, 9, 4, 6}, res[8], count = -1;
    tj_array *da = tjt_array(device(), i32, 8, in), *oa = tjt_array(device(), i32, 8, NULL);
    tj_array *na = tjt_array(device(), i32, 1, NULL);
    tj_arg args[] = {tj_arg_array(da), tj_arg_array(oa), tj_arg_array(na)};
    int64_t one = 1;
    tjt_ok(device(), tj_launch_tiled(device(), m, "compact_values", 1, &one, B, args, 3));
    tjt_ok(device(), tj_array_copy_to_host(oa, res, sizeof res));
    tjt_ok(device(), tj_array_copy_to_host(na, &count, sizeof count));
    ck_assert_int_eq(count, 4);
    bool seen[10] = {false};
    for (int j = 0; j < 4; j++) {
        ck_assert_msg(res[j] >= 6 && res[j] <= 9 && !seen[res[j]], "out[%d] = %d", j, res[j]);
        seen[res[j]] = true;
    }
    for (int j = 4; j < 8; j++)
        ck_assert_int_eq(res[j], 0);
    tj_array_destroy(da);
    tj_array_destroy(oa);
    tj_array_destroy(na);
}
END_TEST

/* ---- loops of pushes (jit/compress_push.c) -------------------------------------------------- */

/* A compaction per block, as the bench's: for j in range(0, items, block_dim), push x[i] if
 * i is in x and the value passes, then counts[blk] = count and the drain into
 * out[blk * cap + slot]; a shared guard tile of ones declared after the stack is stored to
 * guard[blk * 16 ..]. Width-1 pushes keep their order, so the outputs are exact. */
typedef enum push_case {
    P_HALF, P_OVERFLOW, P_NONE, P_ODD, P_FROM, P_MAPPED, P_SMALL, P_SLOT_USED, P_CHAIN
} push_case;

static const struct push_row {
    push_case what;
    int items, cap;      /* per block */
    int from;            /* the loop's first j */
    int64_t n;           /* elements of x */
    int threshold;       /* keeps values below it (values are 0..999) */
} push_rows[] = {
    {P_HALF, 4096, 4096, 0, 3 * 4096 + 1000, 500}, /* the bench's shape, a partial block */
    {P_OVERFLOW, 100, 40, 0, 300, 1000},           /* keeps all: 40 of 100 fit */
    {P_NONE, 256, 256, 0, 1024, -7},               /* keeps none */
    {P_ODD, 37, 37, 0, 37 * 5, 500},               /* not a multiple of the vector width */
    {P_FROM, 100, 100, 5, 700, 500},               /* range(5, 100): a loop not from 0 */
    {P_MAPPED, 512, 512, 0, 2048, 500},            /* pushes max(v, 300) + 1 */
    {P_SMALL, 64, 6, 0, 640, 500},                 /* 6 slots: vectorised where VF <= 6 */
    {P_OVERFLOW, 64, 63, 0, 64 * 4, 1000},         /* keeps all: a last full step would pass 63 */
    {P_SLOT_USED, 512, 512, 0, 1024 + 100, 500},   /* the push's slot is used: stays scalar */
    {P_CHAIN, 256, 256, 0, 1024, 500}, /* keep after 33 (* one + zero): scalar in width-1 */
};

static const tj_dtype push_dtypes[] = {TJ_DTYPE_F32, TJ_DTYPE_I32, TJ_DTYPE_F64, TJ_DTYPE_I64};

/* Each row runs with the host's widest form and with $TILEJIT_CPU_COMPRESS lowering it. */
typedef enum push_form { F_NONE, F_PERMUTE, F_AVX512 } push_form;
static const struct {
    const char *env;     /* TILEJIT_CPU_COMPRESS for the test's context (NULL: unset) */
    push_form cap;
} push_forms[] = {{NULL, F_AVX512}, {"avx2", F_PERMUTE}, {"off", F_NONE}};

/* In cooperative blocks (ON_COOP) each row runs at one of these widths: the lanes push in
 * turn, so in the order of x as width-1 does, and the phase between a push's barriers is a
 * loop of pushes over the lanes, vectorised as width-1's loop is. */
static const uint32_t push_widths[] = {33, 64, 256};

static tj_kernel *
push_loop_kernel(const struct push_row *r, const tj_type *t, uint32_t B)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32), *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "push_loop", &o);
    tj_val *x = tj_param_array(k, "x", t, 1);
    tj_val *out = tj_param_array(k, "out", t, 1);
    tj_val *counts = tj_param_array(k, "counts", i32, 1);
    tj_val *guard = tj_param_array(k, "guard", f32, 1);
    tj_val *slots = tj_param_array(k, "slots", i32, 1);
    tj_val *one = tj_param(k, "one", i32), *nil = tj_param(k, "zero", i32);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *blk = tid[0], *lane = tid[1], *zero = ci(k, 0);
    tj_val *s = tj_tile_stack(k, r->cap, t);
    int sixteen = 16;
    tj_val *ones = tj_tile_ones(k, f32, 1, &sixteen, TJ_STORAGE_SHARED);
    tj_val *base = bin(k, TJ_BIN_MUL, blk, ci(k, r->items));
    tj_val *n = tj_shape(k, x, 0);
    tj_val *j = tj_for_begin(k, ci(k, r->from), ci(k, r->items), tj_block_dim(k));
    tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, base, j), lane);
    tj_val *has = tj_compare(k, TJ_CMP_LT, i, n);
    if (B > 1) /* the lanes of the last step past the block's items have none */
        has = bin(k, TJ_BIN_AND, has,
                  tj_compare(k, TJ_CMP_LT, bin(k, TJ_BIN_ADD, j, lane), ci(k, r->items)));
    tj_val *safe = tj_select(k, has, i, zero);
    tj_val *v = tj_load(k, x, &safe, 1);
    tj_val *limit = tj_cast(k, ci(k, r->threshold), t);
    tj_val *w = v; /* P_CHAIN: 66 instructions that LLVM cannot fold, v again */
    for (int c = 0; r->what == P_CHAIN && c < 33; c++)
        w = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, w, tj_cast(k, one, t)), tj_cast(k, nil, t));
    tj_val *keep = bin(k, TJ_BIN_AND, has, tj_compare(k, TJ_CMP_LT, w, limit));
    tj_val *pushed = v;
    if (r->what == P_MAPPED)
        pushed = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MAX, v, tj_cast(k, ci(k, 300), t)),
                     tj_cast(k, ci(k, 1), t));
    tj_val *slot = tj_tile_stack_push(k, s, pushed, keep);
    if (r->what == P_SLOT_USED) {
        tj_if_begin(k, has);
        put(k, slots, i, slot);
        tj_if_end(k);
    }
    tj_for_end(k);
    put(k, counts, blk, tj_tile_stack_count(k, s));
    tj_val *start = bin(k, TJ_BIN_MUL, blk, ci(k, r->cap));
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *at;
    tj_val *popped = tj_tile_stack_pop(k, s, &at);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, at, zero));
    put(k, out, bin(k, TJ_BIN_ADD, start, at), popped);
    tj_if_end(k);
    tj_while_end(k);
    tj_val *goff = bin(k, TJ_BIN_MUL, blk, ci(k, 16));
    ck_assert(tj_tile_store(k, guard, ones, &goff));
    return k;
}

/* The number of masked scatters in optimised IR 'ir' whose addresses do not come from a
 * multiply (an array's stride, where the copy whose stride is 1 does not apply): where a
 * drain's pops give their lanes consecutive slots, the copy whose stride is 1 stores them
 * with a vector store, masked in the last pop (jit/lane_loops.c, STEP_DOWN_TO_NONE). */
static int
unit_stride_scatters(const char *ir)
{
    int n = 0;
    for (const char *at = strstr(ir, "call void @llvm.masked.scatter"); at;
         at = strstr(at + 1, "call void @llvm.masked.scatter")) {
        /* the pointers: '<N x ptr> %name' */
        const char *p = strstr(at, " x ptr> %");
        const char *eol = strchr(at, '\n');
        ck_assert(p && eol && p < eol);
        p += strlen(" x ptr> ");
        char name[64], def[96];
        size_t len = strcspn(p, ", \n");
        ck_assert(len < sizeof name);
        memcpy(name, p, len);
        name[len] = 0;
        snprintf(def, sizeof def, "\n  %s = ", name);
        const char *gep = strstr(ir, def);
        ck_assert_msg(gep, "no definition of %s", name);
        if (strncmp(gep + strlen(def), "getelementptr ", 14) != 0)
            continue; /* one address in every lane (a splat) */
        /* its last operand: the vector of indices */
        const char *gend = strchr(gep + 1, '\n');
        const char *idx = gend;
        while (idx > gep && *idx != '%')
            idx--;
        len = strcspn(idx, ", \n");
        ck_assert(len < sizeof name);
        memcpy(name, idx, len);
        name[len] = 0;
        snprintf(def, sizeof def, "\n  %s = ", name);
        const char *d = strstr(ir, def);
        if (!d || strncmp(d + strlen(def), "mul ", 4) != 0)
            n++;
    }
    return n;
}

START_TEST(test_stack_push_loops_keep_order_and_capacity)
{
    g_where = _i / STRIDE;
    int row = _i % STRIDE;
    const int nf = (int)NROWS(push_forms), nd = (int)NROWS(push_dtypes);
    const struct push_row *r = &push_rows[row / (nf * nd)];
    uint32_t B = g_where == ON_COOP ? push_widths[row / (nf * nd) % NROWS(push_widths)] : 1;
    tj_dtype dt = push_dtypes[row / nf % nd];
    const char *env = push_forms[row % nf].env;
    push_form host = __builtin_cpu_supports("avx512f") ? F_AVX512
                     : __builtin_cpu_supports("avx2")  ? F_PERMUTE
                                                       : F_NONE;
    push_form form = host < push_forms[row % nf].cap ? host : push_forms[row % nf].cap;
    if (env) { /* a context of its own, made with the variable set */
        tjt_teardown();
        ck_assert_int_eq(setenv("TILEJIT_CPU_COMPRESS", env, 1), 0);
        tjt_setup();
        unsetenv("TILEJIT_CPU_COMPRESS");
    }
    const tj_type *t = tjt_type(dt), *i32 = tjt_type(TJ_DTYPE_I32);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    size_t es = (size_t)tj_type_get_size(t);
    int64_t nb = (r->n + r->items - 1) / r->items, nout = nb * r->cap;
    void *hx = malloc((size_t)r->n * es), *hout = calloc((size_t)nout, es);
    void *want = calloc((size_t)nout, es);
    int32_t *hcounts = calloc((size_t)nb, 4), *wcounts = calloc((size_t)nb, 4);
    int32_t *hslots = calloc((size_t)r->n, 4), *wslots = calloc((size_t)r->n, 4);
    float *hguard = calloc((size_t)nb * 16, 4);
    ck_assert(hx && hout && want && hcounts && wcounts && hslots && wslots && hguard);
    uint32_t seed = 12345u + (uint32_t)row;
    for (int64_t i = 0; i < r->n; i++) {
        seed = seed * 1664525u + 1013904223u;
        tt_put(hx, dt, (size_t)i, (double)((seed >> 8) % 1000));
    }
    /* the model: in block order, each kept value at the next slot, until the capacity */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t i = b * r->items + r->from; i < (b + 1) * r->items && i < r->n; i++) {
            bool keep = tt_get(hx, dt, (size_t)i) < r->threshold, fits = wcounts[b] < r->cap;
            wslots[i] = keep && fits ? wcounts[b] : -1;
            int v = (int)tt_get(hx, dt, (size_t)i);
            if (keep && fits)
                tt_put(want, dt, (size_t)(b * r->cap + wcounts[b]++),
                       r->what == P_MAPPED ? (v > 300 ? v : 300) + 1 : v);
        }
    tj_kernel *k = push_loop_kernel(r, t, B);
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_build_options bo = {.keep_ir = true};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    /* the loop is vectorised in the form asked for, unless the slot is used or the stack
     * is smaller than a vector step */
    const char *ir = tj_module_get_ir(m);
    bool by_compress = strstr(ir, "llvm.x86.avx512.mask.compress") != NULL;
    bool by_permute = strstr(ir, "llvm.x86.avx2.permd") != NULL;
    int vf = (form == F_AVX512 ? 512 : 256) / (8 * (int)es);
    /* cooperative blocks vectorise the lanes' pushes in their lane loops' uniform copies:
     * not with fibers nor with the general loop alone (TILEJIT_CPU_LANES) */
    const char *lanes = getenv("TILEJIT_CPU_LANES");
    bool copies = g_where != ON_COOP || !lanes ||
                  (strcmp(lanes, "fibers") != 0 && strcmp(lanes, "switch") != 0);
    bool vector = form != F_NONE && r->what != P_SLOT_USED && r->what != P_CHAIN &&
                  r->cap >= vf && copies;
    /* P_CHAIN: in cooperative blocks the chain may come before the lanes' loop of pushes,
     * which then loads its result (vector or not: checked by value) */
    bool checked = r->what != P_CHAIN || g_where != ON_COOP;
    ck_assert_msg(!checked || (by_compress == (vector && form == F_AVX512) &&
                               by_permute == (vector && form == F_PERMUTE)),
                  "form %d (TILEJIT_CPU_COMPRESS=%s, host %d, block_dim %u): compress %d, "
                  "permute %d, expected %s", (int)form, env ? env : "(unset)", (int)host,
                  (unsigned)B, by_compress, by_permute, vector ? "one of them" : "neither");
    /* and the drain's pops in a cooperative block's lanes, whatever the form (jit/serial_pops.c) */
    bool pops = strstr(ir, "pop.vec.body") != NULL || strstr(ir, "drain.vec.body") != NULL;
    ck_assert_msg(pops == (g_where == ON_COOP && copies), "block_dim %u: the lanes' pops %s",
                  (unsigned)B, pops ? "are vectorised" : "are not vectorised");
    if (host != F_AVX512 && row == 0)
        printf("note: this host has %s: push loops in %s are checked by value only\n",
               host == F_PERMUTE ? "AVX2, no AVX-512" : "neither AVX2 nor AVX-512",
               host == F_PERMUTE ? "AVX-512 form" : "vector forms");
    tj_array *ax = tjt_array(device(), t, r->n, hx), *aout = tjt_array(device(), t, nout, NULL);
    tj_array *acounts = tjt_array(device(), i32, nb, NULL);
    tj_array *aguard = tjt_array(device(), f32, nb * 16, NULL);
    tj_array *aslots = tjt_array(device(), i32, r->n, NULL);
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(aout), tj_arg_array(acounts),
                     tj_arg_array(aguard), tj_arg_array(aslots), tj_arg_int(1), tj_arg_int(0)};
    tjt_ok(device(), tj_launch_tiled(device(), m, "push_loop", 1, &nb, B, args, 7));
    tjt_ok(device(), tj_array_copy_to_host(aout, hout, (size_t)nout * es));
    tjt_ok(device(), tj_array_copy_to_host(acounts, hcounts, (size_t)nb * 4));
    tjt_ok(device(), tj_array_copy_to_host(aguard, hguard, (size_t)nb * 64));
    tjt_ok(device(), tj_array_copy_to_host(aslots, hslots, (size_t)r->n * 4));
    for (int64_t b = 0; b < nb; b++) {
        ck_assert_msg(hcounts[b] == wcounts[b], "block %lld: count %d, expected %d",
                      (long long)b, hcounts[b], wcounts[b]);
        for (int g = 0; g < 16; g++)
            ck_assert_msg(hguard[b * 16 + g] == 1.0f, "block %lld: the tile after the stack "
                          "changed: guard[%d] = %g", (long long)b, g, (double)hguard[b * 16 + g]);
    }
    ck_assert_msg(memcmp(hout, want, (size_t)nout * es) == 0, "out differs from the model");
    if (r->what == P_SLOT_USED)
        for (int64_t i = 0; i < r->n; i++)
            ck_assert_msg(hslots[i] == wslots[i], "slot of x[%lld]: %d, expected %d",
                          (long long)i, hslots[i], wslots[i]);
    tj_array_destroy(ax);
    tj_array_destroy(aout);
    tj_array_destroy(acounts);
    tj_array_destroy(aguard);
    tj_array_destroy(aslots);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    free(hx), free(hout), free(want), free(hcounts), free(wcounts), free(hslots), free(wslots);
    free(hguard);
}
END_TEST

/* ---- a cooperative block's pops, lane by lane ------------------------------------------------ */

static const tj_dtype pop_dtypes[] = {TJ_DTYPE_F32, TJ_DTYPE_I32, TJ_DTYPE_F64, TJ_DTYPE_I64};
static const uint32_t pop_widths[] = {33, 64, 256};

/* Lanes below n[0] push 3 * lane + 1 (slots[lane] keeps the push's slot), then every lane
 * pops twice, and got[p * B + lane] and vals[p * B + lane] keep what pop p gave: the drain's
 * pops, with a count not a multiple of the vector width, one pop that empties the stack and
 * one on an empty stack (jit/serial_pops.c's full and partial steps, and its scalar loop). */
static tj_kernel *
pop_lanes_kernel(const tj_type *t, uint32_t B)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "pop_lanes", &o);
    tj_val *n = tj_param_array(k, "n", i32, 1);
    tj_val *slots = tj_param_array(k, "slots", i32, 1);
    tj_val *got = tj_param_array(k, "got", i32, 1);
    tj_val *vals = tj_param_array(k, "vals", t, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *lane = tid[1], *zero = ci(k, 0);
    tj_val *s = tj_tile_stack(k, 2 * (int64_t)B + 8, t);
    tj_val *v = tj_cast(k, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lane, ci(k, 3)), ci(k, 1)), t);
    tj_val *count = tj_load(k, n, &zero, 1);
    tj_val *first = tj_tile_stack_push(k, s, v, tj_compare(k, TJ_CMP_LT, lane, count));
    tj_val *more = bin(k, TJ_BIN_ADD, lane, tj_block_dim(k));
    tj_val *w = tj_cast(k, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, more, ci(k, 3)), ci(k, 1)), t);
    tj_val *second = tj_tile_stack_push(k, s, w, tj_compare(k, TJ_CMP_LT, more, count));
    put(k, slots, lane, first);
    put(k, slots, more, second);
    for (int p = 0; p < 2; p++) {
        tj_val *at = NULL;
        tj_val *value = tj_tile_stack_pop(k, s, &at);
        tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, ci(k, p), tj_block_dim(k)), lane);
        put(k, got, i, at);
        put(k, vals, i, value);
    }
    return k;
}

START_TEST(test_stack_cooperative_pops_give_each_lane_its_slot_and_value)
{
    g_where = ON_COOP;
    tj_dtype dt = pop_dtypes[_i / NROWS(pop_widths)];
    uint32_t B = pop_widths[_i % NROWS(pop_widths)];
    const tj_type *t = tjt_type(dt), *i32 = tjt_type(TJ_DTYPE_I32);
    size_t es = (size_t)tj_type_get_size(t);
    tj_kernel *k = pop_lanes_kernel(t, B);
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_build_options bo = {.keep_ir = true};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *lanes = getenv("TILEJIT_CPU_LANES");
    if (!lanes || (strcmp(lanes, "fibers") != 0 && strcmp(lanes, "switch") != 0))
        ck_assert_msg(strstr(tj_module_get_ir(m), "pop.vec.part") != NULL,
                      "block_dim %u: the pops have no partial vector step", (unsigned)B);
    const int ns[] = {0, 1, 7, 15, 16, 17, 40, (int)B - 1, (int)B, (int)B + 5, 2 * (int)B};
    int32_t *hslots = malloc(2 * B * 4), *hgot = malloc(2 * B * 4);
    void *hvals = malloc(2 * B * es);
    ck_assert(hslots && hgot && hvals);
    tj_array *an = tjt_array(device(), i32, 1, NULL);
    tj_array *aslots = tjt_array(device(), i32, 2 * B, NULL);
    tj_array *agot = tjt_array(device(), i32, 2 * B, NULL);
    tj_array *avals = tjt_array(device(), t, 2 * B, NULL);
    for (int r = 0; r < NROWS(ns); r++) {
        int32_t n = ns[r];
        if (n < 0 || n > 2 * (int)B)
            continue;
        tjt_ok(device(), tj_array_copy_from_host(an, &n, 4));
        int64_t one = 1;
        tj_arg args[] = {tj_arg_array(an), tj_arg_array(aslots), tj_arg_array(agot),
                         tj_arg_array(avals)};
        tjt_ok(device(), tj_launch_tiled(device(), m, "pop_lanes", 1, &one, B, args, 4));
        tjt_ok(device(), tj_array_copy_to_host(aslots, hslots, 2 * B * 4));
        tjt_ok(device(), tj_array_copy_to_host(agot, hgot, 2 * B * 4));
        tjt_ok(device(), tj_array_copy_to_host(avals, hvals, 2 * B * es));
        /* the pushes (lanes in turn): element e (lane e of the first push, lane e - B of the
         * second) at slot e, 3 * e + 1 */
        for (int e = 0; e < 2 * (int)B; e++)
            ck_assert_msg(hslots[e] == (e < n ? e : -1), "block_dim %u, n %d: push %d at slot "
                          "%d", (unsigned)B, n, e, hslots[e]);
        /* pop p: lane L takes slot c - 1 - L while c - 1 - L >= 0 (c the count before it),
         * with its value; the other lanes -1 and zero */
        for (int p = 0; p < 2; p++) {
            int c = n - p * (int)B < 0 ? 0 : n - p * (int)B;
            for (int l = 0; l < (int)B; l++) {
                int want = l < c ? c - 1 - l : -1;
                double wv = want >= 0 ? 3.0 * want + 1 : 0;
                size_t at = (size_t)p * B + (size_t)l;
                ck_assert_msg(hgot[at] == want && tt_get(hvals, dt, at) == wv,
                              "block_dim %u, dtype %d, n %d, pop %d, lane %d: slot %d value %g, "
                              "expected %d and %g", (unsigned)B, (int)dt, n, p, l, hgot[at],
                              tt_get(hvals, dt, at), want, wv);
            }
        }
    }
    tj_array_destroy(an);
    tj_array_destroy(aslots);
    tj_array_destroy(agot);
    tj_array_destroy(avals);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    free(hslots), free(hgot), free(hvals);
}
END_TEST

/* Drains in one phase (jit/sink_barriers.c, then jit/serial_pops.c's drain): each block of
 * B lanes pushes the elements of its 3 * B of x that are at least 0 (keep[b] of them: none,
 * one, a vector's worth and more, B - 1 to B + 1, all), then pops them into out at an
 * address form: 0 at blk * 3B + slot (contiguous: vector steps), 1 at blk * 6B + 2 * slot
 * and 2 at blk * 3B + 3B - 1 - slot (affine, not contiguous: the run-time test sends them to
 * the scalar loop), 3 as 0 but storing value + tile_stack_count(s), which reads shared
 * memory after the pop, so the pop keeps its barrier and every lane sees the count after
 * the whole block popped. Forms 4 to 7 store at form 0's address what the lane computes from
 * the value: 4 max(3 * value, 40) - 1, in the `if` (vector steps); 5 3 * value + 1 in a
 * 64-bit type, back to the stack's type, before the `if` (vector steps); 6 value + lane (a
 * lane's own value, which vector steps do not have: the pops keep their phase, with its
 * vector pops); 7 value / 2 (vector steps for floats; an integer division keeps the two
 * phases, as a vector step would divide in lanes without a value too). Form 8 stores the
 * value cast to 32 bits (float32, int32) at form 1's addresses, into an array of that type:
 * for 64-bit stacks the stored elements are half the stack's size, so their addresses, 8
 * bytes apart, are not contiguous (the run-time test goes by the stored type's size). Forms
 * 9 and 11 go through chains of `* one + zero`, where one and zero are scalar parameters
 * (1 and 0: LLVM folds none of them): 9 stores the value after 13 of them (26 instructions
 * deep: the barrier stays, two phases), 11 the value after 3 at the slot after 3 (one
 * phase). Forms 10 and 12 store trees of the value, 6 deep: 10 of 25 instructions, whose
 * barrier moves below the store, but the one vector loop takes 24 at most, so the pops stay
 * one at a time; 12 of 24 (one phase). Both add a tree T of 23 (12 products 2v .. 13v, max
 * by pairs, add by pairs, max of the first two, add the third: 40v; floats add where ints
 * take the max, which LLVM writes in two instructions for them: 90v) to 14v (10: 54v, 104v
 * for floats) or to v (12: 41v, 91v); which loops they take is checked for ints. Where
 * the drain is not one phase, the pops are (the IR's pop.vec). Checked exactly: the stack
 * holds the kept values in the order of their elements (lanes push in turn), the other
 * elements of out keep their sentinel. */
enum { DRAIN_FORMS = 13, DRAIN_NBLK = 8 };

/* The dtype of form 'form''s out array for a stack of 'dt'. */
static tj_dtype
drain_out_dtype(int form, tj_dtype dt)
{
    if (form != 8)
        return dt;
    return dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64 ? TJ_DTYPE_F32 : TJ_DTYPE_I32;
}

/* What form 'form' stores for 'value' of type 'dt', popped by lane 'lane'. */
static double
drain_stored(int form, tj_dtype dt, double value, int lane)
{
    bool ints = dt == TJ_DTYPE_I32 || dt == TJ_DTYPE_I64;
    switch (form) {
    case 4:
        return (3 * value > 40 ? 3 * value : 40) - 1;
    case 5:
        return 3 * value + 1;
    case 6:
        return value + lane;
    case 7:
        return ints ? trunc(value / 2) : value / 2;
    case 10:
        return (ints ? 54 : 104) * value;
    case 12:
        return (ints ? 41 : 91) * value;
    default:
        return value;
    }
}

static tj_kernel *
drain_form_kernel(const tj_type *t, uint32_t B, int form)
{
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "drain_form", &o);
    tj_val *x = tj_param_array(k, "x", t, 1);
    const tj_type *ot = tjt_type(drain_out_dtype(form, tj_type_get_dtype(t)));
    tj_val *out = tj_param_array(k, "out", ot, 1);
    tj_val *one = tj_param(k, "one", tjt_type(TJ_DTYPE_I32));
    tj_val *nil = tj_param(k, "zero", tjt_type(TJ_DTYPE_I32));
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *blk = tid[0], *lane = tid[1], *zero = ci(k, 0), *tzero = tj_cast(k, zero, t);
    int items = 3 * (int)B;
    tj_val *s = tj_tile_stack(k, items, t);
    int value_links = form == 9 ? 13 : form == 11 ? 3 : 0;
    int address_links = form == 11 ? 3 : 0;
    for (int step = 0; step < 3; step++) {
        tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, blk, ci(k, items)),
                        bin(k, TJ_BIN_ADD, ci(k, step * (int)B), lane));
        tj_val *v = tj_load(k, x, &i, 1);
        tj_tile_stack_push(k, s, v, tj_compare(k, TJ_CMP_GE, v, tzero));
    }
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *value = tj_tile_stack_pop(k, s, &slot);
    bool ints = tj_type_get_dtype(t) == TJ_DTYPE_I32 || tj_type_get_dtype(t) == TJ_DTYPE_I64;
    const tj_type *wide = tjt_type(ints ? TJ_DTYPE_I64 : TJ_DTYPE_F64);
    tj_val *early = NULL;
    if (form == 5) /* before the `if`, in a wider type */
        early = tj_cast(k, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, tj_cast(k, value, wide),
                                                  tj_cast(k, ci(k, 3), wide)),
                               tj_cast(k, ci(k, 1), wide)),
                        t);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    bool apart = form == 1 || form == 8; /* every other element */
    tj_val *base = bin(k, TJ_BIN_MUL, blk, ci(k, apart ? 2 * items : items));
    tj_val *at = apart       ? bin(k, TJ_BIN_ADD, base, bin(k, TJ_BIN_MUL, slot, ci(k, 2)))
                 : form == 2 ? bin(k, TJ_BIN_SUB, bin(k, TJ_BIN_ADD, base, ci(k, items - 1)),
                                   slot)
                             : bin(k, TJ_BIN_ADD, base, slot);
    if (form == 3)
        value = bin(k, TJ_BIN_ADD, value, tj_cast(k, tj_tile_stack_count(k, s), t));
    if (form == 4) {
        tj_val *triple = bin(k, TJ_BIN_MUL, value, tj_cast(k, ci(k, 3), t));
        value = bin(k, TJ_BIN_SUB, bin(k, TJ_BIN_MAX, triple, tj_cast(k, ci(k, 40), t)),
                    tj_cast(k, ci(k, 1), t));
    }
    if (form == 5)
        value = early;
    if (form == 6)
        value = bin(k, TJ_BIN_ADD, value, tj_cast(k, lane, t));
    if (form == 7)
        value = bin(k, TJ_BIN_DIV, value, tj_cast(k, ci(k, 2), t));
    if (form == 8)
        value = tj_cast(k, value, ot);
    if (form == 10 || form == 12) { /* T, then the add whose last operand is 14v or v */
        tj_binop max = ints ? TJ_BIN_MAX : TJ_BIN_ADD;
        tj_val *l[12];
        for (int j = 0; j < 12; j++)
            l[j] = bin(k, TJ_BIN_MUL, value, tj_cast(k, ci(k, j + 2), t));
        for (int j = 0; j < 6; j++)
            l[j] = bin(k, max, l[2 * j], l[2 * j + 1]);
        for (int j = 0; j < 3; j++)
            l[j] = bin(k, TJ_BIN_ADD, l[2 * j], l[2 * j + 1]);
        tj_val *tree = bin(k, TJ_BIN_ADD, bin(k, max, l[0], l[1]), l[2]);
        value = bin(k, TJ_BIN_ADD, tree,
                    form == 10 ? bin(k, TJ_BIN_MUL, value, tj_cast(k, ci(k, 14), t)) : value);
    }
    for (int j = 0; j < value_links; j++)
        value = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, value, tj_cast(k, one, t)),
                    tj_cast(k, nil, t));
    tj_val *link = slot;
    for (int j = 0; j < address_links; j++)
        link = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, link, one), nil);
    if (address_links)
        at = bin(k, TJ_BIN_ADD, base, link);
    tj_store(k, out, &at, 1, value);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

START_TEST(test_stack_cooperative_drain_in_one_phase)
{
    g_where = ON_COOP;
    int form = _i % DRAIN_FORMS;
    uint32_t B = pop_widths[_i / DRAIN_FORMS % NROWS(pop_widths)];
    tj_dtype dt = pop_dtypes[_i / DRAIN_FORMS / NROWS(pop_widths)];
    const tj_type *t = tjt_type(dt);
    size_t es = (size_t)tj_type_get_size(t);
    tj_dtype odt = drain_out_dtype(form, dt); /* out's */
    const tj_type *ot = tjt_type(odt);
    size_t oes = (size_t)tj_type_get_size(ot);
    tj_kernel *k = drain_form_kernel(t, B, form);
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_build_options bo = {.keep_ir = true};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *lanes = getenv("TILEJIT_CPU_LANES");
    bool copies = !lanes || (strcmp(lanes, "fibers") != 0 && strcmp(lanes, "switch") != 0);
    bool fused = strstr(tj_module_get_ir(m), "drain.vec.body") != NULL;
    bool ints = dt == TJ_DTYPE_I32 || dt == TJ_DTYPE_I64;
    bool vector = form != 3 && form != 6 && !(form == 7 && ints) && form != 9 && form != 10;
    /* forms 10 and 12 count instructions: for floats LLVM's SLP vectoriser pairs their
     * products (<2 x float>), which the one vector loop does not take */
    bool counted = ints || (form != 10 && form != 12);
    ck_assert_msg(!counted || fused == (copies && vector), "block_dim %u, form %d: the drain %s",
                  (unsigned)B, form, fused ? "is one vector loop" : "is not one vector loop");
    bool pops = strstr(tj_module_get_ir(m), "pop.vec.body") != NULL; /* two phases */
    /* form 10's barrier moves below its store, but the one vector loop would be too long: its
     * pops stay one at a time */
    ck_assert_msg(!counted || pops == (copies && !vector && form != 10),
                  "block_dim %u, form %d: the pops %s", (unsigned)B, form,
                  pops ? "are a phase of their own" : "are not a phase of their own");
    int items = 3 * (int)B;
    int keep[DRAIN_NBLK] = {0, 1, 15, 17, (int)B - 1, (int)B, (int)B + 1, items};
    bool apart = form == 1 || form == 8;
    size_t nx = (size_t)DRAIN_NBLK * (size_t)items, nout = apart ? 2 * nx : nx;
    void *hx = malloc(nx * es), *hout = malloc(nout * oes), *want = malloc(nout * oes);
    ck_assert(hx && hout && want);
    for (size_t e = 0; e < nout; e++)
        tt_put(want, odt, e, -5000);
    for (int b = 0; b < DRAIN_NBLK; b++) {
        int n = 0;
        for (int e = 0; e < items; e++) {
            size_t at = (size_t)b * (size_t)items + (size_t)e;
            bool kept = (e * 7) % items < keep[b];
            double v = kept ? 1 + (b * 131 + e * 7) % 1000 : -1 - e;
            tt_put(hx, dt, at, v);
            if (!kept)
                continue;
            /* slot n, at its form's address; form 3 adds the count after the block's pop,
             * form 6 the lane that popped it (c - 1 - n, c the count before that pop) */
            int popped_to = keep[b] - (int)B * ((keep[b] - 1 - n) / (int)B + 1);
            size_t o = apart       ? (size_t)b * 2 * (size_t)items + 2 * (size_t)n
                       : form == 2 ? (size_t)b * (size_t)items + (size_t)(items - 1 - n)
                                   : at - (size_t)e + (size_t)n;
            double stored = drain_stored(form, dt, v, popped_to + (int)B - 1 - n);
            tt_put(want, odt, o, stored + (form == 3 ? (popped_to < 0 ? 0 : popped_to) : 0));
            n++;
        }
        ck_assert_int_eq(n, keep[b]);
    }
    for (size_t e = 0; e < nout; e++)
        tt_put(hout, odt, e, -5000);
    tj_array *ax = tjt_array(device(), t, (int64_t)nx, hx);
    tj_array *aout = tjt_array(device(), ot, (int64_t)nout, hout);
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(aout), tj_arg_int(1), tj_arg_int(0)};
    int64_t nb = DRAIN_NBLK;
    tjt_ok(device(), tj_launch_tiled(device(), m, "drain_form", 1, &nb, B, args, 4));
    tjt_ok(device(), tj_array_copy_to_host(aout, hout, nout * oes));
    for (size_t e = 0; e < nout; e++)
        ck_assert_msg(tt_get(hout, odt, e) == tt_get(want, odt, e),
                      "block_dim %u, dtype %d, form %d: out[%zu] = %g, expected %g", (unsigned)B,
                      (int)dt, form, e, tt_get(hout, odt, e), tt_get(want, odt, e));
    tj_array_destroy(ax);
    tj_array_destroy(aout);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    free(hx), free(hout), free(want);
}
END_TEST

/* The bench's compaction (bench/kernels.c): blocks of 256 lanes push the elements of x below
 * 500 from 4096 each, reserve their output with one tile_atomic_add on count[0], and drain
 * into out[start + slot]. The kept values are checked as a multiset (the blocks' order is
 * the atomics'); on AVX-512 the drain's copy whose stride is 1 must store its lanes' values
 * with vector stores, masked in its last pop, not scatter them (unit_stride_scatters; with
 * AVX2 it stores them one at a time, which a value check covers). */
static int
cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

START_TEST(test_stack_cooperative_drain_reserved_per_block)
{
    g_where = ON_COOP;
    const uint32_t B = 256;
    const int items = 4096;
    const int64_t n = 3 * 4096 + 1000;
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "drain", &o);
    tj_val *x = tj_param_array(k, "x", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *count = tj_param_array(k, "count", i32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *blk = tid[0], *lane = tid[1], *zero = ci(k, 0);
    tj_val *s = tj_tile_stack(k, items, i32);
    tj_val *base = bin(k, TJ_BIN_MUL, blk, ci(k, items));
    tj_val *j = tj_for_begin(k, zero, ci(k, items), tj_block_dim(k));
    tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, base, j), lane);
    tj_val *has = tj_compare(k, TJ_CMP_LT, i, tj_shape(k, x, 0));
    tj_val *safe = tj_select(k, has, i, zero);
    tj_val *v = tj_load(k, x, &safe, 1);
    tj_val *below = tj_compare(k, TJ_CMP_LT, v, ci(k, 500));
    tj_tile_stack_push(k, s, v, bin(k, TJ_BIN_AND, has, below));
    tj_for_end(k);
    int one = 1;
    tj_val *kept = bin(k, TJ_BIN_MUL, tj_tile_ones(k, i32, 1, &one, TJ_STORAGE_REGISTER),
                       tj_tile_stack_count(k, s));
    tjt_drain(k, s, out, tj_tile_extract(k, tj_tile_atomic_add(k, count, kept, NULL), &zero, 1));
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_build_options bo = {.keep_ir = true};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *lanes = getenv("TILEJIT_CPU_LANES");
    if (__builtin_cpu_supports("avx512f") && !getenv("TILEJIT_CPU_COMPRESS") &&
        (!lanes || (strcmp(lanes, "fibers") != 0 && strcmp(lanes, "switch") != 0)))
        ck_assert_msg(unit_stride_scatters(tj_module_get_ir(m)) == 0,
                      "the drain scatters %d times where its stride is 1",
                      unit_stride_scatters(tj_module_get_ir(m)));
    int32_t *hx = malloc((size_t)n * 4), *hout = malloc((size_t)n * 4);
    int32_t *want = malloc((size_t)n * 4);
    ck_assert(hx && hout && want);
    uint32_t seed = 777u;
    int32_t nwant = 0;
    for (int64_t e = 0; e < n; e++) {
        seed = seed * 1664525u + 1013904223u;
        hx[e] = (int32_t)((seed >> 8) % 1000);
        if (hx[e] < 500)
            want[nwant++] = hx[e];
    }
    tj_array *ax = tjt_array(device(), i32, n, hx), *aout = tjt_array(device(), i32, n, NULL);
    tj_array *acount = tjt_array(device(), i32, 1, NULL);
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(aout), tj_arg_array(acount)};
    int64_t nb = (n + items - 1) / items;
    tjt_ok(device(), tj_launch_tiled(device(), m, "drain", 1, &nb, B, args, 3));
    int32_t got = -1;
    tjt_ok(device(), tj_array_copy_to_host(acount, &got, 4));
    tjt_ok(device(), tj_array_copy_to_host(aout, hout, (size_t)n * 4));
    ck_assert_int_eq(got, nwant);
    qsort(hout, (size_t)got, 4, cmp_i32);
    qsort(want, (size_t)nwant, 4, cmp_i32);
    ck_assert_msg(memcmp(hout, want, (size_t)nwant * 4) == 0, "the kept values differ");
    tj_array_destroy(ax);
    tj_array_destroy(aout);
    tj_array_destroy(acount);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    free(hx), free(hout), free(want);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

typedef enum err_kind {
    E_CAPACITY,
    E_NO_TYPE,
    E_PUSH_VALUE,
    E_PUSH_HAS,
    E_NOT_A_STACK_POP,
    E_NOT_A_STACK_COUNT,
    E_NOT_A_STACK_CLEAR,
    E_NOT_A_STACK_PUSH,
} err_kind;

static const struct err_row {
    err_kind kind;
    int64_t capacity;
    tj_dtype stack_dt;
    int value; /* E_PUSH_VALUE: 0 float32, 1 int64, 2 vec3f, 3 float64 */
    const char *msg;
} err_rows[] = {
    {E_CAPACITY, 0, TJ_DTYPE_I32, 0,
     "tile_stack: argument 'capacity': 0 is not a positive constant up to 16777216"},
    {E_CAPACITY, -1, TJ_DTYPE_I32, 0,
     "tile_stack: argument 'capacity': -1 is not a positive constant up to 16777216"},
    {E_CAPACITY, -300, TJ_DTYPE_F32, 0,
     "tile_stack: argument 'capacity': -300 is not a positive constant up to 16777216"},
    {E_CAPACITY, 16777217, TJ_DTYPE_I32, 0,
     "tile_stack: argument 'capacity': 16777217 is not a positive constant up to 16777216"},
    {E_NO_TYPE, 4, TJ_DTYPE_I32, 0, "tile_stack: argument 'dtype' is not a type"},
    {E_PUSH_VALUE, 4, TJ_DTYPE_I32, 0,
     "tile_stack_push: argument 'value': float32, the stack holds int32"},
    {E_PUSH_VALUE, 4, TJ_DTYPE_I32, 1,
     "tile_stack_push: argument 'value': int64, the stack holds int32"},
    {E_PUSH_VALUE, 4, TJ_DTYPE_F32, 2,
     "tile_stack_push: argument 'value': vec3f, the stack holds float32"},
    {E_PUSH_VALUE, 4, TJ_DTYPE_F32, 3,
     "tile_stack_push: argument 'value': float64, the stack holds float32"},
    {E_PUSH_HAS, 4, TJ_DTYPE_I32, 0, "tile_stack_push: argument 'has_value': int32 is not bool"},
    {E_NOT_A_STACK_POP, 4, TJ_DTYPE_F32, 0,
     "tile_stack_pop: argument 's': a tile of float32 (4,) is not a stack"},
    {E_NOT_A_STACK_COUNT, 4, TJ_DTYPE_I32, 0,
     "tile_stack_count: argument 's': int32 is not a stack"},
    {E_NOT_A_STACK_CLEAR, 4, TJ_DTYPE_I32, 0,
     "tile_stack_clear: argument 's': array of int32 (1 dim) is not a stack"},
    {E_NOT_A_STACK_PUSH, 4, TJ_DTYPE_I32, 0,
     "tile_stack_push: argument 's': a tile of float32 (4,) is not a stack"},
};

START_TEST(test_stack_build_errors_name_the_builtin_argument_and_reason)
{
    const struct err_row *e = &err_rows[_i];
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bad_stack", NULL);
    const tj_type *t = tjt_type(e->stack_dt);
    tj_val *arr = tj_param_array(k, "arr", tjt_type(TJ_DTYPE_I32), 1);
    int four = 4;
    tj_val *tile = tj_tile_zeros(k, tjt_type(TJ_DTYPE_F32), 1, &four, TJ_STORAGE_SHARED);
    tj_val *s = NULL, *slot = NULL;
    bool ok = true;
    switch (e->kind) {
    case E_CAPACITY:
    case E_NO_TYPE:
        s = tj_tile_stack(k, e->capacity, e->kind == E_NO_TYPE ? NULL : t);
        ck_assert_ptr_null(s);
        break;
    case E_PUSH_VALUE: {
        s = tj_tile_stack(k, e->capacity, t);
        tj_val *v = e->value == 0   ? tj_const_float(k, TJ_DTYPE_F32, 1)
                    : e->value == 1 ? tj_const_int(k, TJ_DTYPE_I64, 1)
                    : e->value == 2 ? tj_zero(k, tj_context_get_vector_type(tjt.ctx,
                                                                            TJ_DTYPE_F32, 3))
                                    : tj_const_float(k, TJ_DTYPE_F64, 1);
        ck_assert_ptr_null(tj_tile_stack_push(k, s, v, tj_const_bool(k, true)));
        break;
    }
    case E_PUSH_HAS:
        s = tj_tile_stack(k, e->capacity, t);
        ck_assert_ptr_null(tj_tile_stack_push(k, s, ci(k, 1), ci(k, 1)));
        break;
    case E_NOT_A_STACK_POP:
        ck_assert_ptr_null(tj_tile_stack_pop(k, tile, &slot));
        break;
    case E_NOT_A_STACK_COUNT:
        ck_assert_ptr_null(tj_tile_stack_count(k, ci(k, 3)));
        break;
    case E_NOT_A_STACK_CLEAR:
        ok = tj_tile_stack_clear(k, arr);
        break;
    case E_NOT_A_STACK_PUSH:
        ck_assert_ptr_null(tj_tile_stack_push(k, tile, ci(k, 1), tj_const_bool(k, true)));
        break;
    }
    ck_assert(!ok || e->kind != E_NOT_A_STACK_CLEAR);
    ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    /* Sticky: later calls do nothing and the first message stays. */
    ck_assert_ptr_null(tj_tile_stack(k, 8, tjt_type(TJ_DTYPE_I32)));
    ck_assert_ptr_null(ci(k, 0));
    ck_assert(!tj_tile_stack_clear(k, s));
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    char want[600];
    snprintf(want, sizeof want, "kernel 'bad_stack': %s", e->msg);
    ck_assert_str_eq(tj_context_error(tjt.ctx), want);
    tj_kernel_destroy(k);
}
END_TEST

/* Cooperative CPU lanes run one at a time, in order (SPEC 1), so each takes its slot and
 * lowers the counter in its turn: a pop synchronises twice (before, so that lanes still to
 * read the count do not see it change, and after), not three times as where lanes run
 * together. Counted as the indirect calls of the worker's barrier function in the IR (at
 * O1, which does not unswitch loops), against the same kernel without the pop. */
START_TEST(test_stack_cpu_pop_synchronises_twice)
{
    /* Fibers: lane loops have no barrier calls to count (TILEJIT_CPU_LANES=fibers). */
    ck_assert_int_eq(setenv("TILEJIT_CPU_LANES", "fibers", 1), 0);
    tj_context *ctx = NULL;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    unsetenv("TILEJIT_CPU_LANES");
    int calls[2];
    for (int with = 0; with < 2; with++) {
        tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = 32,
                               .cpu_mode = TJ_CPU_COOPERATIVE};
        tj_kernel *k = tj_kernel_create(ctx, with ? "pop" : "nopop", &o);
        const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
        tj_val *out = tj_param_array(k, "out", i32, 1);
        tj_val *tid;
        tj_tid(k, 1, &tid);
        tj_val *s = tj_tile_stack(k, 64, i32);
        tj_tile_stack_push(k, s, tid, tj_const_bool(k, true));
        tj_val *v = tid;
        if (with)
            v = tj_tile_stack_pop(k, s, NULL);
        tj_store(k, out, &tid, 1, v);
        ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
        tj_build_options bo = {.keep_ir = true, .opt_level = TJ_OPT_O1};
        tj_module *m = NULL;
        ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
        calls[with] = tjt_occurrences(tj_module_get_ir(m), "call void %");
        tj_kernel_destroy(k);
    }
    ck_assert_msg(calls[1] - calls[0] == 2, "a pop synchronises %d times, expected 2",
                  calls[1] - calls[0]);
    tj_context_destroy(ctx);
}
END_TEST

/* The PTX of a kernel whose lanes push 'pushes' values, each kept by a compare computed
 * just before its push (as the bench's compaction does), then store the count. */
static int
gpu_push_barriers(int pushes, bool *has_min)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 256};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "pushes", &o);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *tid;
    ck_assert(tj_tid(k, 1, &tid));
    tj_val *v = tj_load(k, x, &tid, 1);
    tj_val *s = tj_tile_stack(k, 1024, f32);
    for (int p = 0; p < pushes; p++) {
        tj_val *w = tj_binary(k, TJ_BIN_ADD, v, tj_const_float(k, TJ_DTYPE_F32, p));
        tj_val *keep = tj_compare(k, TJ_CMP_LT, w, tj_const_float(k, TJ_DTYPE_F32, 0.5));
        ck_assert_ptr_nonnull(tj_tile_stack_push(k, s, w, keep));
    }
    ck_assert(tj_store(k, out, &tid, 1, tj_tile_stack_count(k, s)));
    tj_module *m = tjt_build(k);
    int n = tjt_occurrences(tj_module_get_ptx(m), "bar.sync");
    *has_min = strstr(tj_module_get_ptx(m), "atom.shared.min.s32") != NULL;
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    return n;
}

/* On the GPU a run of pushes synchronises once a push (plus the stack's declaration): a
 * push's leading barrier meets the previous one's trailing barrier across the next value's
 * compare, and a warp that passes the capacity lowers the counter with an atomic min instead
 * of a clamp between two more barriers (3 barriers a push before). */
START_TEST(test_stack_gpu_pushes_in_a_run_synchronise_once_each)
{
    bool has_min = false;
    int one = gpu_push_barriers(1, &has_min), four = gpu_push_barriers(4, &has_min);
    ck_assert_msg(four - one == 3, "4 pushes have %d bar.sync, 1 push %d: %d a push more, "
                  "expected 1", four, one, (four - one) / 3);
    ck_assert_msg(has_min, "no atom.shared.min.s32 for a push past the capacity");
}
END_TEST

/* A context made with environment variable 'var' set to 'value' (NULL: unset), which is
 * then as it was (CTest runs this suite under TILEJIT_GPU_POP=warp too). */
static tj_context *
context_with(const char *var, const char *value)
{
    const char *was = getenv(var);
    char *saved = was ? strdup(was) : NULL;
    ck_assert(!was || saved);
    ck_assert_int_eq(value ? setenv(var, value, 1) : unsetenv(var), 0);
    tj_context *ctx = NULL;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    ck_assert_int_eq(saved ? setenv(var, saved, 1) : unsetenv(var), 0);
    free(saved);
    return ctx;
}

/* The PTX of GPU kernel 'k' of context 'ctx' (which owns the module), through ptxas where
 * there is one. */
static const char *
ptx_of(tj_context *ctx, tj_kernel *k)
{
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_module *m = NULL;
    ck_assert_msg(tj_kernel_build(k, NULL, &m) == TJ_OK, "%s", tj_context_error(ctx));
    const char *ptx = tj_module_get_ptx(m);
    tjt_check_ptx(ptx);
    return ptx;
}

/* The bar.sync of a GPU kernel that pushes its thread index then pops 'pops' times (0-2),
 * storing each popped value (with none, the index), in a context made under
 * TILEJIT_GPU_POP='pop' (NULL: unset); whether its PTX has an atom.shared.max.s32. */
static int
gpu_pop_barriers(const char *pop, int pops, bool *has_max)
{
    tj_context *ctx = context_with("TILEJIT_GPU_POP", pop);
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 256};
    tj_kernel *k = tj_kernel_create(ctx, "pops", &o);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *tid;
    ck_assert(tj_tid(k, 1, &tid));
    tj_val *s = tj_tile_stack(k, 512, i32);
    ck_assert_ptr_nonnull(tj_tile_stack_push(k, s, tid, tj_const_bool(k, true)));
    for (int p = 0; p < pops; p++)
        ck_assert(tj_store(k, out, &tid, 1, tj_tile_stack_pop(k, s, NULL)));
    if (pops == 0)
        ck_assert(tj_store(k, out, &tid, 1, tid));
    const char *ptx = ptx_of(ctx, k);
    int n = tjt_occurrences(ptx, "bar.sync");
    *has_max = strstr(ptx, "atom.shared.max.s32") != NULL;
    tj_kernel_destroy(k);
    tj_context_destroy(ctx);
    return n;
}

/* A GPU pop synchronises twice: after the lanes read the counter and their slots (lane 0
 * then lowers the counter) and after that; it needs no barrier before it, as whatever wrote
 * the stack last ended with one (stack.c). Under TILEJIT_GPU_POP=warp twice too, but one
 * is before it: each warp's leader takes its lanes' slots with an atomic subtraction (and
 * one that took the counter below 0 raises it with an atomic max), which lanes still
 * reading the counter must not see; right after a push that one is the push's own last
 * barrier (drop_repeated_barriers). So each of two pops after a push adds two bar.sync;
 * per warp the first adds one and the second, after a store, two. */
START_TEST(test_stack_gpu_pop_synchronises_twice)
{
    bool has_max = false;
    int base = gpu_pop_barriers(NULL, 0, &has_max);
    int one = gpu_pop_barriers(NULL, 1, &has_max), two = gpu_pop_barriers(NULL, 2, &has_max);
    ck_assert_msg(!has_max, "an atomic max in the default pop");
    ck_assert_msg(one - base == 2 && two - one == 2,
                  "the first pop adds %d bar.sync, the second %d, expected 2 and 2",
                  one - base, two - one);
    int wone = gpu_pop_barriers("warp", 1, &has_max);
    ck_assert_msg(has_max, "no atom.shared.max.s32 in the per-warp pop");
    int wtwo = gpu_pop_barriers("warp", 2, &has_max);
    ck_assert_msg(wone - base == 1 && wtwo - wone == 2,
                  "per warp the first pop adds %d bar.sync, the second %d, expected 1 and 2",
                  wone - base, wtwo - wone);
}
END_TEST

/* The bar.sync of a GPU kernel whose loop (a trip count from a parameter, so that it stays
 * a loop) loads a value from global memory and pushes it, after reading the count in the
 * loop when 'count_first'; built in a context made under TILEJIT_GPU_PUSH='push' (NULL:
 * unset). */
static int
gpu_loop_push_barriers(const char *push, bool count_first)
{
    tj_context *ctx = context_with("TILEJIT_GPU_PUSH", push);
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 256};
    tj_kernel *k = tj_kernel_create(ctx, "loop_pushes", &o);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *n = tj_param(k, "n", i32);
    tj_val *tid;
    ck_assert(tj_tid(k, 1, &tid));
    tj_val *s = tj_tile_stack(k, 1024, f32);
    tj_val *j = tj_for_begin(k, ci(k, 0), n, ci(k, 1));
    tj_val *at = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, j, ci(k, 256)), tid);
    tj_val *v = tj_load(k, x, &at, 1);
    tj_val *keep = tj_compare(k, TJ_CMP_LT, v, tj_const_float(k, TJ_DTYPE_F32, 0.5));
    if (count_first)
        keep = bin(k, TJ_BIN_AND, keep,
                   tj_compare(k, TJ_CMP_LT, tj_tile_stack_count(k, s), ci(k, 512)));
    ck_assert_ptr_nonnull(tj_tile_stack_push(k, s, v, keep));
    ck_assert(tj_for_end(k));
    ck_assert(tj_store(k, out, &tid, 1, tj_tile_stack_count(k, s)));
    const char *ptx = ptx_of(ctx, k);
    int nbar = tjt_occurrences(ptx, "bar.sync");
    ck_assert_msg(strstr(ptx, "tj.push.fence") == NULL, "a push fence is left in the PTX");
    tj_kernel_destroy(k);
    tj_context_destroy(ctx);
    return nbar;
}

/* Under TILEJIT_GPU_PUSH=fence a push's leading barrier is left out where the last barrier
 * on every path to it came after the last touch of shared memory: in a loop whose trips only
 * load from global memory and compute before pushing, the previous trip's push ended with
 * one (the stack's declaration before the first trip). The loop then has one barrier, not
 * two. A count read in the trip keeps it. By default the push keeps it (not yet timed). */
START_TEST(test_stack_gpu_push_fence_stands_in_for_a_barrier_after_global_loads)
{
    int plain = gpu_loop_push_barriers(NULL, false);
    int fence = gpu_loop_push_barriers("fence", false);
    int counted = gpu_loop_push_barriers("fence", true);
    ck_assert_msg(plain == 3 && fence == 2 && counted == 3,
                  "bar.sync: %d by default, %d with fences, %d with fences and a count read "
                  "before the push; expected 3, 2 and 3 (the stack's declaration, then the "
                  "loop's)", plain, fence, counted);
}
END_TEST

/* The architectures tj_build_options.arch accepts (LLVM 19's NVPTX list). */
static const char *const gpu_archs[] = {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61",
                                        "sm_62", "sm_70", "sm_72", "sm_75", "sm_80",
                                        "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

/* Whether there is a ptxas that assembles for 'arch' (CUDA 13's starts at sm_75). */
static bool
ptxas_targets(const char *arch)
{
    char ptx[128], log[1024];
    snprintf(ptx, sizeof ptx, ".version 7.8\n.target %s\n.address_size 64\n", arch);
    bool ran = false;
    return tj_test_ptxas(ptx, arch, &ran, log, sizeof log) && ran;
}

/* A push and a pop (ballots, shuffles: PTX 6.0's warp-synchronous instructions) build for
 * every architecture: LLVM 19 gives sm_50 to sm_62 an older PTX by default, and selecting
 * them then aborted the process (passes.c's tji_nvptx_features). The PTX is assembled for
 * its architecture where this toolkit's ptxas still targets it. */
START_TEST(test_stack_builds_for_every_gpu_architecture)
{
    const char *arch = gpu_archs[_i];
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 256};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "pushpop", &o);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *tid;
    ck_assert(tj_tid(k, 1, &tid));
    tj_val *s = tj_tile_stack(k, 512, i32);
    ck_assert_ptr_nonnull(tj_tile_stack_push(k, s, tid, tj_const_bool(k, true)));
    ck_assert(tj_store(k, out, &tid, 1, tj_tile_stack_pop(k, s, NULL)));
    tj_build_options bo = {.arch = arch};
    tj_module *m = NULL;
    ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s: %s", arch,
                  tj_context_error(tjt.ctx));
    const char *ptx = tj_module_get_ptx(m);
    char target[32];
    snprintf(target, sizeof target, "\n.target %s\n", arch);
    ck_assert_msg(strstr(ptx, target), "%s: no '.target %s'", arch, arch);
    int major = 0, minor = 0;
    const char *v = strstr(ptx, "\n.version ");
    ck_assert(v && sscanf(v, "\n.version %d.%d", &major, &minor) == 2);
    ck_assert_msg(major * 10 + minor >= 60, "%s: PTX %d.%d", arch, major, minor);
    ck_assert(strstr(ptx, "vote.sync.ballot.b32") && strstr(ptx, "shfl.sync.idx.b32"));
    if (ptxas_targets(arch)) {
        char log[4096];
        ck_assert_msg(tj_test_ptxas(ptx, arch, NULL, log, sizeof log), "%s:\n%s", arch, log);
    }
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* ---- suite ----------------------------------------------------------------------------------- */

static TCase *
new_case(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    if (strcmp(name, "cuda") == 0)
        tcase_set_tags(tc, "cuda");
    suite_add_tcase(s, tc);
    return tc;
}

static void
add_where(TCase *tc, int where)
{
#define ADD_ROWS(fn, n) tjt_add_loop_rows(tc, fn, where * STRIDE, (n))
    bool all = where == ON_COOP || where == ON_CUDA;
    ADD_ROWS(test_stack_scripts_follow_the_push_and_pop_rules,
             NROWS(scripts) * (all ? NWIDTHS : 1));
    ADD_ROWS(test_stack_of_vec3_and_struct_elements, all ? NWIDTHS : 1);
    ADD_ROWS(test_stack_compaction_seed, where == ON_CPU1 || where == ON_PTX ? 1 : 7);
    if (where == ON_COOP) {
        tcase_add_test(tc, test_stack_cpu_pop_synchronises_twice);
        tcase_add_loop_test(tc, test_stack_cooperative_pops_give_each_lane_its_slot_and_value, 0,
                            NROWS(pop_dtypes) * NROWS(pop_widths));
        tcase_add_test(tc, test_stack_cooperative_drain_reserved_per_block);
        tcase_add_loop_test(tc, test_stack_cooperative_drain_in_one_phase, 0,
                            DRAIN_FORMS * NROWS(pop_widths) * NROWS(pop_dtypes));
    }
    if (where == ON_PTX) {
        tcase_add_test(tc, test_stack_gpu_pushes_in_a_run_synchronise_once_each);
        tcase_add_test(tc, test_stack_gpu_pop_synchronises_twice);
        tcase_add_test(tc, test_stack_gpu_push_fence_stands_in_for_a_barrier_after_global_loads);
        tcase_add_loop_test(tc, test_stack_builds_for_every_gpu_architecture, 0,
                            NROWS(gpu_archs));
    }
    if (where == ON_CPU1 || where == ON_COOP)
        ADD_ROWS(test_stack_push_loops_keep_order_and_capacity,
                 NROWS(push_rows) * NROWS(push_dtypes) * NROWS(push_forms));
#undef ADD_ROWS
}

static Suite *
stack_suite(void)
{
    Suite *s = suite_create("stack");
    static const char *const names[NWHERE] = {
        [ON_CPU1] = "cpu1", [ON_COOP] = "coop", [ON_PTX] = "ptx", [ON_CUDA] = "cuda"};
    for (int where = 0; where < NWHERE; where++)
        add_where(new_case(s, names[where]), where);
    TCase *errors = new_case(s, "errors");
    tcase_add_loop_test(errors, test_stack_build_errors_name_the_builtin_argument_and_reason, 0,
                        NROWS(err_rows));
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, stack_suite());
}
