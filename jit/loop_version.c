/*
 * jit/loop_version.c: loop versioning on range checks (CPU) and on unit strides (CPU, GPU).
 *
 * A kernel's loop commonly guards each element with a comparison of an index that moves
 * with the loop variable against a bound fixed before the loop: 'i = base + j + lane;
 * has = i < n; x[select(has, i, 0)]'. Every block but the last has the whole range in
 * bounds, yet the test, the select and the branch on it stay in the loop: LLVM's O3 neither
 * versions such a loop (non-trivial unswitching wants an invariant condition, IRCE is not
 * in the pipeline and leaves the select) nor proves the test true.
 *
 * tj_for_end calls tji_version_loop, which finds those tests itself, on the builder's IR:
 * an integer comparison of at most 32 bits, one side an affine function c * j + I of the
 * loop variable j (adds, subtracts and multiplications by constants of values defined before
 * the loop), the other side defined before the loop. Over j's range [lo, hi] (from start,
 * stop and a constant step) the affine side goes from I + c * lo to I + c * hi, computed
 * exactly in 64 bits; where both ends fit the comparison's signedness (so the 32-bit
 * arithmetic did not wrap) and satisfy it, the test holds on every iteration. The loop is
 * then copied: the copy has those tests replaced with true, and the block before the loop
 * enters it when all the ends check out, the original loop otherwise. The copy also takes
 * the innermost stride of each array parameter it reads to be the element size (tested
 * too), and for a signed test on a signed counter rebuilds the index as 'add nsw (I, c * j)'
 * (tested: I and c * j fit the type, c is a constant of it). A while loop that indexes an
 * array gets the unit-stride copy alone.
 *
 * In a cooperative CPU kernel an index that holds tid()'s lane makes the test each lane's
 * own, and jit/lane_loops.c's loops over a block's lanes then carried both copies of the
 * loop, each access under a mask (the bench compaction's first trip a block: a gather and a
 * masked load an element). Under a tiled launch (tid()'s own test) the lane lies in [0,
 * block_dim), so the test is taken over all of them: I's ends with the lane at 0 and at
 * block_dim - 1. That test is the same in every lane; it carries the name TJI_RANGES_FLAG,
 * and lane_loops.c computes it before the lanes and splits its loops on it.
 *
 * Only where it pays and is safe to copy: a loop left only through its exit (no tj_return
 * inside), at most VERSION_MAX_INSTS instructions (VERSION_MAX_INSTS_GPU on the GPU). On
 * the GPU the copy is for unit strides alone, whose 64-bit multiplies it saves (the bench
 * histogram's loop of 4 elements a lane: 85 SASS instructions to 69, ptxas 11.8 for sm_90);
 * a range check's test is the lane's, and a branch on it would send a block's lanes to
 * different copies. There the copy also computes each sign-extended affine index in 64
 * bits, '(I + c * j) + K', when its values over the range fit its type (tested before the
 * loop, as the checks are): accesses at constant distances then share one address (the
 * same loop, 53 to 36 instructions; find_wides). And only a loop that calls nothing: a
 * function or a cooperative builtin's hook may hold barriers, votes or shuffles, which
 * LLVM's rules for convergent calls keep from being copied into two paths (the stride's
 * test is the same in every lane, but what is not copied costs no build time either: a
 * push in compact_values' loop took its builder -> PTX from 2.6 to 3.4 ms; 3.8 at
 * 4f5c712, whose bench compaction grew from 863 to 1486 SASS instructions).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    VERSION_MAX_INSTS = 2000, /* instructions in the loop, nested loops (and copies) included */
    VERSION_MAX_INSTS_GPU = 500, /* the same on the GPU, where a build's time is a bar (the
                                  * bench histogram's loop of 8 loads a lane: 145) */
    VERSION_MAX_CHECKS = 16,  /* range checks made constant */
    VERSION_MAX_WIDE = 16,    /* indices computed in 64 bits (GPU) */
    AFFINE_MAX_NODES = 32,    /* values in an index's tree (a shared one counts each time) */
    LANE_DEPTH = 6,           /* how deep in an index's adds a lane is looked for */
    OFFSET_MAX_NODES = 2 * AFFINE_MAX_NODES, /* the same, taken apart where it holds lanes */
};

/* ---- the loop's blocks -------------------------------------------------------------------- */

typedef struct loop {
    LLVMBasicBlockRef *blocks; /* from the head, in the order they were found */
    int nblocks;
    size_t ninsts;
    tji_vmap in;               /* each block (as a value) of the loop -> itself, for now */
} loop;

/* Collects the blocks reachable from 'head' without passing 'exit'. False when one leaves
 * the loop another way (tj_return) or the loop is too large. */
static bool
collect(loop *l, LLVMBasicBlockRef head, LLVMBasicBlockRef exit, int max_blocks, size_t max_insts)
{
    l->blocks[l->nblocks++] = head;
    tji_vmap_put(&l->in, LLVMBasicBlockAsValue(head), LLVMBasicBlockAsValue(head));
    for (int at = 0; at < l->nblocks; at++) {
        LLVMBasicBlockRef bb = l->blocks[at];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!term)
            return false;
        LLVMOpcode op = LLVMGetInstructionOpcode(term);
        if (op != LLVMBr && op != LLVMSwitch && op != LLVMUnreachable)
            return false;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            l->ninsts++;
        if (l->ninsts > max_insts)
            return false;
        for (unsigned s = 0, ns = LLVMGetNumSuccessors(term); s < ns; s++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, s);
            LLVMValueRef tv = LLVMBasicBlockAsValue(to);
            if (to == exit || tji_vmap_has(&l->in, tv))
                continue;
            if (l->nblocks == max_blocks)
                return false;
            l->blocks[l->nblocks++] = to;
            tji_vmap_put(&l->in, tv, tv);
        }
    }
    return true;
}

static bool
in_loop(const loop *l, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && tji_vmap_has(&l->in, LLVMBasicBlockAsValue(
                                                         LLVMGetInstructionParent(v)));
}

/* Defined before the loop: a constant, an argument, or an instruction outside it. */
static bool
invariant(const loop *l, LLVMValueRef v)
{
    if (LLVMIsAConstantInt(v) || LLVMIsAArgument(v))
        return true;
    return LLVMIsAInstruction(v) && !in_loop(l, v);
}

/* ---- affine indices ----------------------------------------------------------------------- */

enum { COEF_MAX = 1 << 20 };
#define MAG_MAX 0x1p60 /* bound on |I|: the 64-bit sums below cannot overflow */

/* A multiplication by a constant: the other operand in '*x' and the constant's value. */
static bool
split_mul(LLVMValueRef v, LLVMValueRef *x, int64_t *f)
{
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    if (!LLVMIsAConstantInt(b)) {
        LLVMValueRef t = a;
        a = b;
        b = t;
    }
    if (!LLVMIsAConstantInt(b))
        return false;
    *x = a;
    *f = LLVMConstIntGetSExtValue(b);
    return true;
}

/* Whether 'v' is c * j + I with j the loop variable 'ivar' and I made of values defined
 * before the loop, exactly modulo 2^w; '*c' gets c and '*mag' a bound on |I|. */
static bool
affine(const loop *l, LLVMValueRef ivar, LLVMValueRef v, int *budget, int64_t *c, double *mag)
{
    if (--*budget < 0)
        return false; /* emit_offset copies the tree: keep it small */
    if (v == ivar) {
        *c = 1;
        *mag = 0;
        return true;
    }
    if (invariant(l, v)) {
        *c = 0;
        *mag = 0x1p32;
        return true;
    }
    if (!LLVMIsABinaryOperator(v))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    int64_t c0, c1;
    double m0, m1;
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
        if (!affine(l, ivar, a, budget, &c0, &m0) || !affine(l, ivar, b, budget, &c1, &m1))
            return false;
        *c = op == LLVMAdd ? c0 + c1 : c0 - c1;
        *mag = m0 + m1;
        break;
    case LLVMMul: {
        int64_t f;
        if (!split_mul(v, &a, &f) || f < -COEF_MAX || f > COEF_MAX ||
            !affine(l, ivar, a, budget, &c0, &m0))
            return false;
        *c = c0 * f;
        *mag = m0 * (double)(f < 0 ? -f : f);
        break;
    }
    default:
        return false;
    }
    return *c >= -COEF_MAX && *c <= COEF_MAX && *mag <= MAG_MAX;
}

/* tid()'s lane in a cooperative CPU kernel, 'select(tiled, lane, general)' (arrays.c names
 * it TJI_LANE_NAME): under a tiled launch, a value in [0, block_dim). */
static bool
lane_leaf(LLVMValueRef v)
{
    size_t len, want = strlen(TJI_LANE_NAME);
    const char *name = LLVMGetValueName2(v, &len);
    return LLVMIsASelectInst(v) && len >= want && strncmp(name, TJI_LANE_NAME, want) == 0;
}

/* A lane leaf of the adds, subtracts and multiplications by constants of 'v' (values
 * before the loop included), at most 'depth' deep, or NULL. */
static LLVMValueRef
find_lane(LLVMValueRef ivar, LLVMValueRef v, int depth)
{
    if (lane_leaf(v))
        return v;
    if (v == ivar || depth <= 0 || !LLVMIsABinaryOperator(v))
        return NULL;
    LLVMValueRef a = LLVMGetOperand(v, 0), bo = LLVMGetOperand(v, 1);
    int64_t f;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMMul:
        return split_mul(v, &a, &f) ? find_lane(ivar, a, depth - 1) : NULL;
    case LLVMAdd:
    case LLVMSub: {
        LLVMValueRef x = find_lane(ivar, a, depth - 1);
        return x ? x : find_lane(ivar, bo, depth - 1);
    }
    default:
        return NULL;
    }
}

/* A bound on the values emit_offset(v, lane) adds up, as affine()'s '*mag' (with 'lane',
 * values before the loop that hold a lane are taken apart, and a multiplication there may
 * be by any constant); infinite past '*nodes' values, which bounds both walks (a value
 * used twice is walked twice: o = o + o + lane, repeated, doubles them at each level). */
static double
lanes_mag(const loop *l, LLVMValueRef ivar, LLVMValueRef v, int *nodes)
{
    if (--*nodes < 0)
        return INFINITY;
    if (v == ivar)
        return 0;
    if (lane_leaf(v) || (invariant(l, v) && !find_lane(ivar, v, LANE_DEPTH)))
        return 0x1p32;
    LLVMValueRef a = LLVMGetOperand(v, 0), bo = LLVMGetOperand(v, 1);
    int64_t f = 0;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
        return lanes_mag(l, ivar, a, nodes) + lanes_mag(l, ivar, bo, nodes);
    default: /* LLVMMul by a constant */
        split_mul(v, &a, &f);
        return lanes_mag(l, ivar, a, nodes) * fabs((double)f);
    }
}

/* I of an affine 'v' (affine() said yes), as an i64 emitted before the loop, with each lane
 * leaf taken to be 'lane' where that is not NULL. Any extension of the leaves is right
 * modulo 2^w; the comparison's own ('sg': signed) makes the sum the value it reads wherever
 * that can be. */
static LLVMValueRef
emit_offset(LLVMBuilderRef b, const loop *l, LLVMValueRef ivar, LLVMValueRef v,
            LLVMTypeRef i64, bool sg, LLVMValueRef lane)
{
    if (v == ivar)
        return LLVMConstInt(i64, 0, false);
    if (lane && lane_leaf(v))
        return lane;
    /* with 'lane', values before the loop that hold a lane leaf are taken apart too: the
     * sum is exact in 64 bits, and where the ends fit, so did the 32-bit sums */
    if (invariant(l, v) && !(lane && find_lane(ivar, v, LANE_DEPTH)))
        return sg ? LLVMBuildSExt(b, v, i64, "") : LLVMBuildZExt(b, v, i64, "");
    LLVMValueRef a = LLVMGetOperand(v, 0), bo = LLVMGetOperand(v, 1);
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
        return LLVMBuildAdd(b, emit_offset(b, l, ivar, a, i64, sg, lane),
                            emit_offset(b, l, ivar, bo, i64, sg, lane), "");
    case LLVMSub:
        return LLVMBuildSub(b, emit_offset(b, l, ivar, a, i64, sg, lane),
                            emit_offset(b, l, ivar, bo, i64, sg, lane), "");
    default: { /* LLVMMul by a constant */
        int64_t f = 0;
        split_mul(v, &a, &f);
        return LLVMBuildMul(b, emit_offset(b, l, ivar, a, i64, sg, lane),
                            LLVMConstInt(i64, (unsigned long long)f, true), "");
    }
    }
}

/* ---- the test before the loop ------------------------------------------------------------- */

typedef struct range {
    LLVMValueRef lo, hi; /* i64: the loop variable's first and last values bound */
    LLVMValueRef ivar;   /* the loop variable */
    bool sg;             /* whether it is signed */
} range;

static LLVMIntPredicate
swapped(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSLE: return LLVMIntSGE;
    case LLVMIntSGE: return LLVMIntSLE;
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntUGE: return LLVMIntULE;
    default: return p;
    }
}

/* A comparison the loop can be versioned on: 'x p n' with x affine in the loop variable
 * (coefficient c != 0) and n defined before the loop, at most 32 bits wide. */
typedef struct check {
    LLVMValueRef cmp, x, n;
    LLVMIntPredicate p;
    int64_t c;
} check;

static bool
range_check(const loop *l, LLVMValueRef ivar, LLVMValueRef cmp, check *out)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
    if (p == LLVMIntEQ || p == LLVMIntNE)
        return false;
    LLVMValueRef x = LLVMGetOperand(cmp, 0), n = LLVMGetOperand(cmp, 1);
    LLVMTypeRef t = LLVMTypeOf(x);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 32)
        return false;
    if (!invariant(l, n)) {
        LLVMValueRef s = x;
        x = n;
        n = s;
        p = swapped(p);
    }
    int64_t c;
    double mag;
    int budget = AFFINE_MAX_NODES;
    if (!invariant(l, n) || !affine(l, ivar, x, &budget, &c, &mag) || c == 0)
        return false;
    *out = (check){.cmp = cmp, .x = x, .n = n, .p = p, .c = c};
    return true;
}

/* Affine 'v' = I + c * j over the range, as i64s emitted before the loop: I, the least and
 * greatest c * j, and the least and greatest v. */
typedef struct ends {
    LLVMValueRef off, cj_lo, cj_hi, lo, hi;
} ends;

static ends
ends_of(LLVMBuilderRef b, const range *r, LLVMValueRef off, int64_t c, LLVMTypeRef i64)
{
    ends e = {.off = off};
    LLVMValueRef cv = LLVMConstInt(i64, (unsigned long long)c, true);
    LLVMValueRef at_lo = LLVMBuildMul(b, cv, r->lo, ""), at_hi = LLVMBuildMul(b, cv, r->hi, "");
    e.cj_lo = c >= 0 ? at_lo : at_hi;
    e.cj_hi = c >= 0 ? at_hi : at_lo;
    e.lo = LLVMBuildAdd(b, e.off, e.cj_lo, "");
    e.hi = LLVMBuildAdd(b, e.off, e.cj_hi, "");
    return e;
}

static ends
emit_ends(LLVMBuilderRef b, const loop *l, const range *r, LLVMValueRef v, int64_t c,
          bool sg, LLVMTypeRef i64, LLVMValueRef lane)
{
    return ends_of(b, r, emit_offset(b, l, r->ivar, v, i64, sg, lane), c, i64);
}

static LLVMValueRef
emit_min(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, y, x, ""), y, x, "");
}

static LLVMValueRef
emit_max(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, y, x, ""), y, x, "");
}

/* The ends of affine 'v' over the range and over every lane of a block of 'width' lanes,
 * 'v''s lane leaves taken to be 0 and width - 1: I is affine in them, so its least and
 * greatest values over the lanes are at those two. '.off' is not a value of I then (NULL);
 * '*off_lo' and '*off_hi' get its bounds. */
static ends
emit_lanes_ends(LLVMBuilderRef b, const loop *l, const range *r, LLVMValueRef v, int64_t c,
                bool sg, LLVMTypeRef i64, uint32_t width, LLVMValueRef *off_lo,
                LLVMValueRef *off_hi)
{
    ends a = emit_ends(b, l, r, v, c, sg, i64, LLVMConstInt(i64, 0, false));
    ends z = emit_ends(b, l, r, v, c, sg, i64, LLVMConstInt(i64, width - 1, false));
    *off_lo = emit_min(b, a.off, z.off);
    *off_hi = emit_max(b, a.off, z.off);
    return (ends){.cj_lo = a.cj_lo, .cj_hi = a.cj_hi, .lo = emit_min(b, a.lo, z.lo),
                  .hi = emit_max(b, a.hi, z.hi)};
}

/* The least and greatest value of the w-bit type read as signed ('sg') or unsigned. */
static void
type_bounds(unsigned w, bool sg, int64_t *min, int64_t *max)
{
    *min = sg ? -((int64_t)1 << (w - 1)) : 0;
    *max = sg ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
}

/* Whether [lo, hi] lies in the w-bit type read as signed ('sg') or unsigned. */
static LLVMValueRef
emit_fits(LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi, unsigned w, bool sg,
          LLVMTypeRef i64)
{
    int64_t tmin, tmax;
    type_bounds(w, sg, &tmin, &tmax);
    return LLVMBuildAnd(
        b, LLVMBuildICmp(b, LLVMIntSGE, lo, LLVMConstInt(i64, (unsigned long long)tmin, true), ""),
        LLVMBuildICmp(b, LLVMIntSLE, hi, LLVMConstInt(i64, (unsigned long long)tmax, true), ""),
        "");
}

/* An index the copy computes as 'inv + c * j' with no signed wrap. */
typedef struct rewrite {
    LLVMValueRef x, inv;
    int64_t c;
} rewrite;

/* An i1, emitted before the loop, true when 'ck' holds on every iteration of 'r'. For a
 * signed comparison on a signed loop variable it also tests that I and c * j fit the type,
 * and adds to 'rw' the index's rewrite: 'add nsw (I, c * j)' lets LLVM widen the index to
 * 64 bits with the loop variable, where the original's wrapping adds (and instcombine's
 * reassociation of them) leave an add and a sign extension on each iteration. */
/* Whether check 'ck' holds at both ends 'e' of its affine side, and, where 'off_lo' is not
 * NULL, that its I, within [off_lo, off_hi], and c * j fit the type for the rewrite. */
static LLVMValueRef
emit_holds_at(LLVMBuilderRef b, const check *ck, const ends *e, LLVMValueRef off_lo,
              LLVMValueRef off_hi, LLVMTypeRef i64)
{
    LLVMIntPredicate p = ck->p;
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(ck->x));
    bool sg = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
    LLVMValueRef lo = e->lo, hi = e->hi;
    /* No wrap: both ends are values of the w-bit type as the comparison reads it. */
    LLVMValueRef all = emit_fits(b, lo, hi, w, sg, i64);
    LLVMValueRef n = sg ? LLVMBuildSExt(b, ck->n, i64, "") : LLVMBuildZExt(b, ck->n, i64, "");
    LLVMValueRef holds;
    switch (p) {
    case LLVMIntSLT: case LLVMIntULT: holds = LLVMBuildICmp(b, LLVMIntSLT, hi, n, ""); break;
    case LLVMIntSLE: case LLVMIntULE: holds = LLVMBuildICmp(b, LLVMIntSLE, hi, n, ""); break;
    case LLVMIntSGT: case LLVMIntUGT: holds = LLVMBuildICmp(b, LLVMIntSGT, lo, n, ""); break;
    default: holds = LLVMBuildICmp(b, LLVMIntSGE, lo, n, ""); break;
    }
    all = LLVMBuildAnd(b, all, holds, "");
    if (!off_lo)
        return all;
    all = LLVMBuildAnd(b, all, emit_fits(b, off_lo, off_hi, w, true, i64), "");
    return LLVMBuildAnd(b, all, emit_fits(b, e->cj_lo, e->cj_hi, w, true, i64), "");
}

/* An i1, emitted before the loop, true when 'ck' holds on every iteration of 'r'. For a
 * signed comparison on a signed loop variable it also tests that I and c * j fit the type,
 * and adds to 'rw' the index's rewrite: 'add nsw (I, c * j)' lets LLVM widen the index to
 * 64 bits with the loop variable, where the original's wrapping adds (and instcombine's
 * reassociation of them) leave an add and a sign extension on each iteration.
 *
 * Where the index holds tid()'s lane (a cooperative CPU kernel, 'width' lanes), the test
 * is the lane's own, and lane_loops.c's loops over the lanes would run both copies of the
 * loop, each under a mask (the bench compaction's first trip: gathers). Under a tiled
 * launch the test is then taken over every lane of the block instead: the same in each
 * lane, which lane_loops.c computes before the lanes (TJI_RANGES_FLAG) and splits its
 * loops on. */
static LLVMValueRef
emit_holds(LLVMBuilderRef b, const loop *l, const range *r, const check *ck, LLVMTypeRef i64,
           uint32_t width, rewrite *rw, int *nrw)
{
    LLVMIntPredicate p = ck->p;
    LLVMTypeRef t = LLVMTypeOf(ck->x);
    unsigned w = LLVMGetIntTypeWidth(t);
    bool sg = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntSGT || p == LLVMIntSGE;
    ends e = emit_ends(b, l, r, ck->x, ck->c, sg, i64, NULL);
    /* The rewrite's multiplier is a w-bit constant: c must be one (2^(w-1) is not). */
    int64_t cmin, cmax;
    type_bounds(w, true, &cmin, &cmax);
    bool rewritten = sg && r->sg && ck->x != r->ivar && ck->c >= cmin && ck->c <= cmax;
    LLVMValueRef own = emit_holds_at(b, ck, &e, rewritten ? e.off : NULL, e.off, i64);
    if (rewritten)
        rw[(*nrw)++] = (rewrite){.x = ck->x, .inv = LLVMBuildTrunc(b, e.off, t, ""), .c = ck->c};
    LLVMValueRef lane = width > 1 ? find_lane(r->ivar, ck->x, LANE_DEPTH) : NULL;
    int nodes = OFFSET_MAX_NODES;
    if (!lane || lanes_mag(l, r->ivar, ck->x, &nodes) > MAG_MAX)
        return own;
    LLVMValueRef off_lo, off_hi;
    ends every = emit_lanes_ends(b, l, r, ck->x, ck->c, sg, i64, width, &off_lo, &off_hi);
    LLVMValueRef all = emit_holds_at(b, ck, &every, rewritten ? off_lo : NULL, off_hi, i64);
    return LLVMBuildSelect(b, LLVMGetOperand(lane, 0), all, own, "");
}

/* ---- 64-bit indices (GPU) ---------------------------------------------------------------- */

/* A sign extension to i64, in the loop, of an affine 'x' = I + K + c * j (I of values
 * defined before the loop, K a constant), which the copy computes exactly in 64 bits as
 * '(I + c * j) + K'. Tested before the loop: x's least and greatest values over the range
 * are values of its type, and then the extension of the wrapping 32-bit x is that sum.
 * The elements a lane reads at 'i + e * block_dim' then share one address and differ by
 * constant offsets, which the addressing mode takes (SeparateConstOffsetFromGEP splits
 * them off): the bench histogram's loop of 4 elements a lane, 53 SASS instructions to 36,
 * where each element had its own extension, shift and 64-bit add. */
typedef struct wide {
    LLVMValueRef ext; /* the extension; x is its operand */
    LLVMValueRef inv; /* i64 before the loop: I, or NULL for 0 */
    int64_t k, c;
} wide;

static LLVMValueRef
add_or_one(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return !x ? y : !y ? x : LLVMBuildAdd(b, x, y, "");
}

/* I of an affine 'v' (affine() said yes), as an i64 emitted before the loop (NULL for 0):
 * the leaves sign-extended, its constants left out and added, times 'f', to '*k'. */
static LLVMValueRef
emit_split(LLVMBuilderRef b, const loop *l, LLVMValueRef ivar, LLVMValueRef v, LLVMTypeRef i64,
           int64_t f, int64_t *k)
{
    if (v == ivar)
        return NULL;
    if (LLVMIsAConstantInt(v)) {
        *k += f * LLVMConstIntGetSExtValue(v);
        return NULL;
    }
    if (invariant(l, v))
        return LLVMBuildSExt(b, v, i64, "");
    LLVMValueRef a = LLVMGetOperand(v, 0), bo = LLVMGetOperand(v, 1);
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
        return add_or_one(b, emit_split(b, l, ivar, a, i64, f, k),
                          emit_split(b, l, ivar, bo, i64, f, k));
    case LLVMSub: {
        LLVMValueRef x = emit_split(b, l, ivar, a, i64, f, k);
        LLVMValueRef y = emit_split(b, l, ivar, bo, i64, -f, k);
        return !y ? x : !x ? LLVMBuildNeg(b, y, "") : LLVMBuildSub(b, x, y, "");
    }
    default: { /* LLVMMul by a constant */
        int64_t g = 0;
        split_mul(v, &a, &g);
        LLVMValueRef x = emit_split(b, l, ivar, a, i64, f * g, k);
        return x ? LLVMBuildMul(b, x, LLVMConstInt(i64, (unsigned long long)g, true), "") : NULL;
    }
    }
}

/* The sign extensions to i64 of affine values of the loop variable (not of the variable
 * itself), at most 'max'. */
static int
find_wides(const loop *l, LLVMValueRef ivar, wide *w, int max)
{
    int n = 0;
    for (int i = 0; i < l->nblocks && n < max; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(l->blocks[i]); in && n < max;
             in = LLVMGetNextInstruction(in)) {
            if (LLVMGetInstructionOpcode(in) != LLVMSExt ||
                LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMIntegerTypeKind || /* not a vector */
                LLVMGetIntTypeWidth(LLVMTypeOf(in)) != 64)
                continue;
            LLVMValueRef x = LLVMGetOperand(in, 0);
            int64_t c;
            double mag;
            int budget = AFFINE_MAX_NODES;
            if (x == ivar || LLVMGetIntTypeWidth(LLVMTypeOf(x)) > 32 ||
                !affine(l, ivar, x, &budget, &c, &mag) || c == 0)
                continue;
            w[n++] = (wide){.ext = in, .c = c};
        }
    return n;
}

/* Emits, before the loop, each index's I and K and the test that its values fit its type
 * over the range; returns the test. */
static LLVMValueRef
emit_wides(LLVMBuilderRef b, const loop *l, const range *r, wide *w, int n, LLVMTypeRef i64)
{
    LLVMValueRef all = NULL;
    for (int i = 0; i < n; i++) {
        LLVMValueRef x = LLVMGetOperand(w[i].ext, 0);
        w[i].k = 0;
        w[i].inv = emit_split(b, l, r->ivar, x, i64, 1, &w[i].k);
        LLVMValueRef k = LLVMConstInt(i64, (unsigned long long)w[i].k, true);
        LLVMValueRef off = w[i].inv ? LLVMBuildAdd(b, w[i].inv, k, "") : k;
        ends e = ends_of(b, r, off, w[i].c, i64);
        LLVMValueRef fits =
            emit_fits(b, e.lo, e.hi, LLVMGetIntTypeWidth(LLVMTypeOf(x)), true, i64);
        all = all ? LLVMBuildAnd(b, all, fits, "") : fits;
    }
    return all;
}

/* In the copy ('map'), each extension becomes '(I + c * j) + K' in 64 bits, with no signed
 * wrap (|I| <= 2^60 and |c * j| <= 2^52: affine()'s bounds). */
static void
rewrite_wides(LLVMBuilderRef b, const range *r, const wide *w, int n, tji_vmap *map)
{
    for (int i = 0; i < n; i++) {
        LLVMValueRef ce = tji_vmap_get(map, w[i].ext);
        LLVMTypeRef i64 = LLVMTypeOf(ce);
        LLVMPositionBuilderBefore(b, ce);
        LLVMValueRef j = tji_vmap_get(map, r->ivar);
        LLVMValueRef v = r->sg ? LLVMBuildSExt(b, j, i64, "") : LLVMBuildZExt(b, j, i64, "");
        if (w[i].c != 1)
            v = LLVMBuildNSWMul(b, v, LLVMConstInt(i64, (unsigned long long)w[i].c, true), "");
        if (w[i].inv)
            v = LLVMBuildNSWAdd(b, w[i].inv, v, "");
        if (w[i].k)
            v = LLVMBuildNSWAdd(b, v, LLVMConstInt(i64, (unsigned long long)w[i].k, true), "");
        LLVMReplaceAllUsesWith(ce, v);
        LLVMInstructionEraseFromParent(ce);
    }
}

/* ---- copying the loop --------------------------------------------------------------------- */

/* Copies the loop's blocks before 'exit' (the copy branches to 'exit' as the loop does);
 * 'map' takes each block and instruction of the loop to its copy. */
static void
copy_loop(tj_kernel *k, const loop *l, LLVMBasicBlockRef exit, tji_vmap *map)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(k->ctx->llctx);
    tji_copy_blocks(k->ctx, b, l->blocks, l->nblocks, exit, "loop.copy", map, false);
    LLVMDisposeBuilder(b);
}

/* The copy also takes the arrays the loop indexes to be contiguous: each array parameter's
 * last stride that the loop reads becomes the element size in the copy ('map'), and the test
 * 'all' requires it. An element stride known to be 1 leaves the address an index scaled by
 * the addressing mode, instead of a multiplication and its sign extension. */
static LLVMValueRef
unit_strides(tj_kernel *k, const loop *l, tji_vmap *map, LLVMValueRef all)
{
    for (int p = 0; p < k->nparams; p++) {
        const tj_val *v = k->params[p].val;
        if (!v || v->kind != TJ_VAL_ARRAY)
            continue;
        LLVMValueRef stride = v->u.arr.strides[v->u.arr.ndim - 1];
        if (!stride || !invariant(l, stride) || LLVMIsAConstant(stride) ||
            tji_vmap_has(map, stride))
            continue;
        bool used = false;
        for (LLVMUseRef u = LLVMGetFirstUse(stride); u && !used; u = LLVMGetNextUse(u))
            used = in_loop(l, LLVMGetUser(u));
        if (!used)
            continue;
        LLVMValueRef es = LLVMConstInt(LLVMTypeOf(stride), v->type->size, false);
        LLVMValueRef unit = LLVMBuildICmp(k->llb, LLVMIntEQ, stride, es, "");
        all = all ? LLVMBuildAnd(k->llb, all, unit, "") : unit;
        tji_vmap_put(map, stride, es);
    }
    return all;
}

/* Whether the loop may synchronise lanes: whether it calls anything but LLVM intrinsics
 * that are not convergent. The builtins' barriers, votes and shuffles are calls of the
 * target's hooks (tj.hook.*), defined only when the kernel is finished; a user function may
 * hold them too. */
static bool
may_synchronise(const loop *l)
{
    unsigned convergent = LLVMGetEnumAttributeKindForName("convergent", 10);
    for (int i = 0; i < l->nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(l->blocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsACallInst(in))
                continue;
            LLVMValueRef fn = LLVMGetCalledValue(in);
            if (!LLVMIsAFunction(fn) || !LLVMGetIntrinsicID(fn) ||
                LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, convergent) ||
                LLVMGetCallSiteEnumAttribute(in, LLVMAttributeFunctionIndex, convergent))
                return true;
        }
    return false;
}

/* The range checks of for loop 's' (not the loop's own tests in its head and latch). */
static int
find_checks(const loop *l, const tji_scope *s, check *checks)
{
    int n = 0;
    for (int i = 0; i < l->nblocks && n < VERSION_MAX_CHECKS; i++) {
        if (l->blocks[i] == s->other || l->blocks[i] == s->cont)
            continue;
        for (LLVMValueRef in = LLVMGetFirstInstruction(l->blocks[i]);
             in && n < VERSION_MAX_CHECKS; in = LLVMGetNextInstruction(in))
            if (LLVMIsAICmpInst(in) && range_check(l, s->ivar, in, &checks[n]))
                n++;
    }
    return n;
}

/* The loop variable's range for loop 's' of constant 'step', as i64s emitted before the loop.
 * step > 0: j in [start, last], last = start + (stop - 1 - start) / step * step, the last j
 * the loop takes (stop - 1 when step is 1); step < 0: j in [last, start], last = start -
 * (start - stop - 1) / -step * -step. With the exact end a lane's column of a block's last
 * tile (j stepping by block_dim) passes its checks. The 64-bit arithmetic on 32-bit
 * counters does not wrap; the divisor is a constant. A loop that runs no iteration leaves
 * either copy at its head's test: the ends of an empty range need no meaning. */
static range
emit_range(LLVMBuilderRef b, const tji_scope *s, int64_t step, LLVMTypeRef i64)
{
    bool sg = tji_dtype_is_signed(s->counter_type->dtype);
    LLVMValueRef start = sg ? LLVMBuildSExt(b, s->start, i64, "")
                            : LLVMBuildZExt(b, s->start, i64, "");
    LLVMValueRef stop = sg ? LLVMBuildSExt(b, s->stop, i64, "")
                           : LLVMBuildZExt(b, s->stop, i64, "");
    LLVMValueRef one = LLVMConstInt(i64, 1, false);
    LLVMValueRef near = step > 0 ? LLVMBuildSub(b, stop, one, "") : LLVMBuildAdd(b, stop, one, "");
    LLVMValueRef last = near;
    if (step > 1 || step < -1) {
        uint64_t m = (uint64_t)(step > 0 ? step : -step);
        LLVMValueRef mag = LLVMConstInt(i64, m, false);
        LLVMValueRef span = step > 0 ? LLVMBuildSub(b, near, start, "")
                                     : LLVMBuildSub(b, start, near, "");
        LLVMValueRef whole = LLVMBuildMul(b, LLVMBuildSDiv(b, span, mag, ""), mag, "");
        last = step > 0 ? LLVMBuildAdd(b, start, whole, "") : LLVMBuildSub(b, start, whole, "");
    }
    return step > 0 ? (range){start, last, s->ivar, sg} : (range){last, start, s->ivar, sg};
}

/* Whether for loop 's' is one find_checks can work on: a constant step and a counter of at
 * most 32 bits. An unsigned counter only counts up (tj_for_begin). */
static bool
countable(const tji_scope *s, int64_t *step)
{
    if (!s->start || !s->ivar || !LLVMIsAConstantInt(s->step) ||
        LLVMGetIntTypeWidth(s->counter_type->llreg) > 32)
        return false;
    *step = tji_dtype_is_signed(s->counter_type->dtype)
                ? LLVMConstIntGetSExtValue(s->step)
                : (int64_t)LLVMConstIntGetZExtValue(s->step);
    return *step != 0;
}

void
tji_version_loop(tj_kernel *k, const tji_scope *s)
{
    bool is_for = s->kind == TJI_SCOPE_FOR;
    /* On the GPU the copy is for unit strides alone (a range check's test is the lane's). */
    bool checks_too = k->opts.target == TJ_TARGET_CPU;
    int64_t step = 0;
    bool ranged = is_for && countable(s, &step);
    if (!s->enter || (checks_too && is_for && !ranged))
        return;
    LLVMBasicBlockRef head = is_for ? s->other : s->cont;
    enum { MAX_BLOCKS = 512 };
    loop l = {.blocks = malloc(MAX_BLOCKS * sizeof *l.blocks)};
    tji_vmap map = {0};
    size_t max_insts = checks_too ? VERSION_MAX_INSTS : VERSION_MAX_INSTS_GPU;
    if (!l.blocks || !tji_vmap_init(&l.in, MAX_BLOCKS) ||
        !collect(&l, head, s->merge, MAX_BLOCKS, max_insts) ||
        (!checks_too && may_synchronise(&l)) ||
        !tji_vmap_init(&map, l.ninsts + MAX_BLOCKS + (size_t)k->nparams))
        goto done;
    check checks[VERSION_MAX_CHECKS];
    int nchecks = is_for && checks_too ? find_checks(&l, s, checks) : 0;
    if (checks_too && is_for && !nchecks)
        goto done;
    wide wides[VERSION_MAX_WIDE];
    int nwides = !checks_too && ranged ? find_wides(&l, s->ivar, wides, VERSION_MAX_WIDE) : 0;

    /* Before the loop: whether each check holds throughout. */
    LLVMBuilderRef b = k->llb;
    LLVMBasicBlockRef pre = LLVMGetInstructionParent(s->enter);
    LLVMPositionBuilderBefore(b, s->enter);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(k->ctx->llctx);
    LLVMValueRef all = NULL;
    rewrite rw[VERSION_MAX_CHECKS];
    int nrw = 0;
    range r = {0};
    if (nchecks)
        r = emit_range(b, s, step, i64);
    for (int i = 0; i < nchecks; i++) {
        LLVMValueRef h = emit_holds(b, &l, &r, &checks[i], i64, k->block_dim, rw, &nrw);
        all = all ? LLVMBuildAnd(b, all, h, "") : h;
    }
    all = unit_strides(k, &l, &map, all);
    if (!all)
        goto done; /* no range check, and the loop indexes no array */
    if (nwides) {
        if (!nchecks)
            r = emit_range(b, s, step, i64);
        all = LLVMBuildAnd(b, all, emit_wides(b, &l, &r, wides, nwides, i64), "");
    }
    if (checks_too && nchecks && LLVMIsAInstruction(all))
        LLVMSetValueName2(all, TJI_RANGES_FLAG, strlen(TJI_RANGES_FLAG));
    copy_loop(k, &l, s->merge, &map);
    LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(k->ctx->llctx), 1, false);
    for (int i = 0; i < nchecks; i++) {
        LLVMValueRef c = tji_vmap_get(&map, checks[i].cmp);
        LLVMReplaceAllUsesWith(c, yes);
        LLVMInstructionEraseFromParent(c);
    }
    for (int i = 0; i < nrw; i++) {
        LLVMValueRef cx = tji_vmap_get(&map, rw[i].x);
        if (!LLVMGetFirstUse(cx))
            continue; /* rewritten for another check already */
        LLVMPositionBuilderBefore(b, cx);
        LLVMValueRef j = tji_vmap_get(&map, s->ivar), cj = j;
        if (rw[i].c != 1)
            cj = LLVMBuildNSWMul(b, j, LLVMConstInt(LLVMTypeOf(j), (unsigned long long)rw[i].c,
                                                    true), "");
        LLVMReplaceAllUsesWith(cx, LLVMBuildNSWAdd(b, rw[i].inv, cj, ""));
    }
    rewrite_wides(b, &r, wides, nwides, &map);
    LLVMInstructionEraseFromParent(s->enter);
    LLVMPositionBuilderAtEnd(b, pre);
    LLVMBuildCondBr(b, all, LLVMValueAsBasicBlock(tji_vmap_get(&map, LLVMBasicBlockAsValue(head))),
                    head);
done:
    tji_vmap_free(&map);
    tji_vmap_free(&l.in);
    free(l.blocks);
}
