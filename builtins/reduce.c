/*
 * builtins/reduce.c: tile_reduce(op, a) and tile_reduce(op, a, axis) (SPEC 4).
 *
 * Whole tile: each lane folds the elements it owns (register layout), then the block
 * combines the lane partials (a tile of at most 32 elements, smaller than the block: through
 * shared scratch, small_combine): a butterfly of xor shuffles inside each warp of 32 lanes (no
 * barrier; a block of at most 32 lanes stops here), then every lane folds the warp
 * partials from shared scratch in the same order. Commutativity makes the butterfly give
 * every lane the same value, so the result (shape (1,)) is replicated in every lane.
 * Axis: the input goes to shared memory. With at least B outputs, or slices shorter than
 * 16 elements, each lane folds the slices of the outputs it owns; else a group of lanes (a
 * power of two, up to the whole block, each lane folding at least 8 elements) shares each
 * slice and combines like the whole-tile case through scratch.
 * Lanes that do not run (a partial block) contribute nothing: an element counts only when
 * its owner lane runs, shuffle partners and warp partials are checked against the running
 * lanes, and when a butterfly group has lanes that do not run (a partial block, or B not a
 * power of two) its lane 0, the only one sure to hold every value, is copied to the others.
 * In a partial block the axis form folds each slice in the lane owning its output (groups
 * would miss lanes). A slice left empty gives the operator's identity (a user operator: a
 * debug kernel error, else 0).
 * The GPU shuffles in hardware; the CPU emulates shuffles through the arena (emit.c), so
 * both run this same algorithm, but for the whole tile on the CPU: its lanes run one at a
 * time, so each adds its partial to one total in its turn (turn_combine), two barriers in
 * all. Every lane must reach the call.
 * A builtin operator other than float min and max has a neutral start value (-0.0 for a
 * float add, which leaves -0.0 alone where +0.0 would not): its accumulators start with it
 * and fold with selects instead of branches, and the butterfly exchanges no flags.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tilejit.h"
#include "builtins.h"

/* Builtin operators: name in messages and the scalar operator that combines. */
static const struct {
    const char *name;
    tj_binop bin;
} ops[] = {
    [TJ_REDUCE_ADD] = {"add", TJ_BIN_ADD},         [TJ_REDUCE_MUL] = {"mul", TJ_BIN_MUL},
    [TJ_REDUCE_MIN] = {"min", TJ_BIN_MIN},         [TJ_REDUCE_MAX] = {"max", TJ_BIN_MAX},
    [TJ_REDUCE_BIT_AND] = {"bit_and", TJ_BIN_BIT_AND},
    [TJ_REDUCE_BIT_OR] = {"bit_or", TJ_BIN_BIT_OR},
    [TJ_REDUCE_BIT_XOR] = {"bit_xor", TJ_BIN_BIT_XOR},
};

typedef struct reducer {
    tj_reduce_op op;
    tj_func *f;
    const tj_type *type;
} reducer;

static const char *fn = "tile_reduce";

static tj_val *
combine(tj_kernel *k, const reducer *r, tj_val *a, tj_val *b)
{
    if (r->op == TJ_REDUCE_FUNC) {
        tj_val *args[] = {a, b};
        return tj_call(k, r->f, args, 2);
    }
    tj_binop bin = ops[r->op].bin;
    if (bin == TJ_BIN_MUL && tji_type_is_composite(r->type))
        bin = TJ_BIN_CW_MUL;
    tj_val *res = tj_binary(k, bin, a, b);
    /* The order of combination is unspecified (SPEC 4), so float adds and multiplies may be
     * reassociated: the fold vectorises instead of forming one serial chain. */
    if (res && LLVMIsAInstruction(res->ll) && LLVMCanValueUseFastMathFlags(res->ll))
        LLVMSetFastMathFlags(res->ll, LLVMFastMathAllowReassoc);
    return res;
}

/* Validates the operator against the element type by combining two placeholders in a block
 * that is then deleted, so that the scalar operator's own checks speak. */
static bool
check_reducer(tj_kernel *k, const reducer *r)
{
    if ((unsigned)r->op > TJ_REDUCE_FUNC)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'op': %d is not an operator", fn,
                        (int)r->op);
    if (r->op == TJ_REDUCE_FUNC) {
        tj_func *f = r->f;
        bool ok = f && f->is_func && f->nparams == 2 && f->params[0].kind == TJ_VAL_SCALAR &&
                  f->params[1].kind == TJ_VAL_SCALAR && f->params[0].type == r->type &&
                  f->params[1].type == r->type && f->ret == r->type;
        if (!ok)
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument 'op': %s%s%s must take two %s and return %s", fn,
                            f ? "function '" : "a function", f ? f->name : "", f ? "'" : "",
                            r->type->name, r->type->name);
    }
    LLVMBasicBlockRef here = LLVMGetInsertBlock(k->llb);
    LLVMBasicBlockRef probe = LLVMAppendBasicBlockInContext(k->ctx->llctx, k->llfn, "probe");
    LLVMPositionBuilderAtEnd(k->llb, probe);
    tj_val *u = tji_scalar(k, r->type, LLVMGetUndef(r->type->llreg));
    tj_val *res = u ? combine(k, r, u, u) : NULL;
    LLVMDeleteBasicBlock(probe);
    LLVMPositionBuilderAtEnd(k->llb, here);
    if (!res && k->status != TJ_OK && strncmp(k->err, fn, strlen(fn)) != 0) {
        /* the operator's own message, named after this builtin and argument (SPEC 5) */
        char inner[sizeof k->err];
        snprintf(inner, sizeof inner, "%s", k->err);
        tj_status st = k->status;
        k->status = TJ_OK;
        return tji_fail(k, st, "%s: argument 'op': %s", fn, inner);
    }
    if (res && res->type != r->type)
        return tji_fail(k, TJ_ERR_INVALID, "%s: operator %s gives %s for %s elements", fn,
                        ops[r->op].name, res->type->name, r->type->name);
    return res != NULL;
}

/* The identity of a builtin operator, for empty slices; with 'neg_zero', -0.0 for a float
 * add (what adding leaves unchanged, as x + 0.0 is not for x = -0.0). */
static LLVMValueRef
identity_of(tj_kernel *k, const reducer *r, bool neg_zero)
{
    const tj_type *t = r->type;
    tj_dtype dt = t->dtype;
    LLVMTypeRef el = tji_dtype_llvm(k->ctx, dt);
    int bits = tji_dtype_bits(dt);
    bool fl = tji_dtype_is_float(dt), sg = tji_dtype_is_signed(dt);
    LLVMValueRef v;
    switch (r->op) {
    case TJ_REDUCE_MUL:
        v = fl ? LLVMConstReal(el, 1.0) : LLVMConstInt(el, 1, 0);
        break;
    case TJ_REDUCE_MIN:
        v = fl ? LLVMConstReal(el, INFINITY)
               : LLVMConstInt(el, sg ? (UINT64_MAX >> (65 - bits)) : UINT64_MAX, 0);
        break;
    case TJ_REDUCE_MAX:
        v = fl ? LLVMConstReal(el, -INFINITY)
               : sg ? LLVMConstInt(el, (uint64_t)1 << (bits - 1), 0) : LLVMConstInt(el, 0, 0);
        break;
    case TJ_REDUCE_BIT_AND:
        v = LLVMConstAllOnes(el);
        break;
    case TJ_REDUCE_ADD:
        if (fl && neg_zero) {
            v = LLVMConstReal(el, -0.0);
            break;
        }
        return LLVMConstNull(t->llreg);
    default:
        return LLVMConstNull(t->llreg);
    }
    if (tji_type_is_scalar(t))
        return v;
    LLVMValueRef comps[16];
    for (int i = 0; i < t->ncomp; i++)
        comps[i] = v;
    return LLVMConstVector(comps, (unsigned)t->ncomp);
}

static LLVMValueRef
identity(tj_kernel *k, const reducer *r)
{
    return identity_of(k, r, false);
}

/* A value n with op(n, x) == x exactly for every x, or NULL: none for a user operator, nor
 * for float min and max, where a fold of only NaNs gives NaN but min(+inf, NaN) is +inf. */
static LLVMValueRef
neutral(tj_kernel *k, const reducer *r)
{
    if (r->op == TJ_REDUCE_FUNC ||
        (tji_dtype_is_float(r->type->dtype) && (r->op == TJ_REDUCE_MIN || r->op == TJ_REDUCE_MAX)))
        return NULL;
    return identity_of(k, r, true);
}

/* ---- the accumulator ------------------------------------------------------------------- */

typedef struct acc {
    const reducer *r;
    LLVMValueRef value;        /* alloca of the element type */
    LLVMValueRef valid;        /* alloca of i1: whether 'value' holds anything yet */
    LLVMValueRef neutral;      /* neutral(): 'value' starts with it, or NULL. Then 'valid'
                                  is exact only for a lane folding elements; after a
                                  combine across lanes it may be set for a neutral value,
                                  which only a result never empty (whole tile, full-block
                                  groups) can see. */
} acc;

/* Makes 'a' empty. */
static void
acc_clear(tj_kernel *k, const acc *a)
{
    LLVMBuildStore(k->llb, LLVMConstInt(tji_i1(k->ctx), 0, 0), a->valid);
    if (a->neutral)
        LLVMBuildStore(k->llb, a->neutral, a->value);
}

static acc
acc_new(tj_kernel *k, const reducer *r)
{
    acc a = {.r = r, .value = tji_alloca(k, r->type->llreg, "acc"),
             .valid = tji_alloca(k, tji_i1(k->ctx), "acc.valid"), .neutral = neutral(k, r)};
    acc_clear(k, &a);
    return a;
}

/* acc = valid ? op(acc, x) : x, when 'include' (NULL: always). An accumulator that starts
 * with its operator's neutral value needs neither the test nor a branch: acc = op(acc, x),
 * or a select of it and acc. The builtin operators have no side effects, and x is a value
 * already loaded, so computing op for an element left out is harmless. */
static void
acc_add(tj_kernel *k, const acc *a, LLVMValueRef x, LLVMValueRef include)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (a->neutral) {
        const tj_type *t = a->r->type;
        LLVMValueRef cur = LLVMBuildLoad2(b, t->llreg, a->value, "");
        tj_val *res = combine(k, a->r, tji_scalar(k, t, cur), tji_scalar(k, t, x));
        if (!res)
            return;
        LLVMValueRef v = include ? LLVMBuildSelect(b, include, res->ll, cur, "") : res->ll;
        LLVMBuildStore(b, v, a->value);
        LLVMValueRef was = LLVMBuildLoad2(b, tji_i1(c), a->valid, "");
        LLVMBuildStore(b,
                       include ? LLVMBuildOr(b, was, include, "") : LLVMConstInt(tji_i1(c), 1, 0),
                       a->valid);
        return;
    }
    tji_cond cond;
    if (include)
        tji_emit_cond_begin(k, include, &cond);
    LLVMBasicBlockRef comb = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "acc.combine");
    LLVMBasicBlockRef first = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "acc.first");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "acc.join");
    LLVMBuildCondBr(b, LLVMBuildLoad2(b, tji_i1(c), a->valid, ""), comb, first);
    LLVMPositionBuilderAtEnd(b, comb);
    const tj_type *t = a->r->type;
    tj_val *cur = tji_scalar(k, t, LLVMBuildLoad2(b, t->llreg, a->value, ""));
    tj_val *res = combine(k, a->r, cur, tji_scalar(k, t, x));
    if (res)
        LLVMBuildStore(b, res->ll, a->value);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, first);
    LLVMBuildStore(b, x, a->value);
    LLVMBuildStore(b, LLVMConstInt(tji_i1(c), 1, 0), a->valid);
    LLVMBuildBr(b, join);
    LLVMPositionBuilderAtEnd(b, join);
    if (include)
        tji_emit_cond_end(k, &cond);
}

static int
pow2_floor(int64_t x)
{
    int p = 1;
    while ((int64_t)p * 2 <= x)
        p *= 2;
    return p;
}

/* How many lanes share each of 'nout' slices of length 'len' in a block of 'B': as many as
 * the block has per output, but no more than leave each lane 8 elements to fold. A group's
 * shuffles and barriers cost more than folding a short slice in one lane (and the group
 * code is as large again): the seed's 2 x 3 tile reduced along 3 elements is folded by two
 * lanes, not by two groups of 128. */
static int
lanes_per_output(uint32_t B, int64_t nout, int64_t len)
{
    if (nout >= B)
        return 1;
    int per_output = pow2_floor((int64_t)B / nout), by_length = pow2_floor(len / 8);
    return per_output < by_length ? per_output : by_length;
}

/* Butterfly over the lanes of each aligned group of 'width' lanes (a power of two, at most
 * 32): afterwards every lane of a group holds the group's combination. With 'all_valid'
 * every running lane is known to hold a value, so only the partner's lane is checked. */
static void
butterfly(tj_kernel *k, const acc *a, int width, LLVMValueRef emu, LLVMValueRef nactive,
          bool all_valid)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->r->type;
    LLVMValueRef lane = tji_lane(k);
    for (int off = width / 2; off >= 1; off /= 2) {
        LLVMValueRef mine = LLVMBuildLoad2(b, t->llreg, a->value, "");
        LLVMValueRef x = tji_emit_shfl_xor(k, t, mine, off, emu);
        LLVMValueRef src = LLVMBuildXor(b, lane, tji_const_i32(c, off), "");
        LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntULT, src, nactive, "");
        /* a lane with nothing holds the neutral value, which is as good as a value */
        if (!all_valid && !a->neutral) {
            LLVMValueRef v = LLVMBuildZExt(b, LLVMBuildLoad2(b, tji_i1(c), a->valid, ""),
                                           tji_i32(c), "");
            LLVMValueRef xv = tji_emit_shfl_xor32(k, v, off, emu);
            ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntNE, xv, tji_const_i32(c, 0), ""), "");
        }
        acc_add(k, a, x, ok);
    }
}

/* After a butterfly over 'width' lanes of which only a prefix runs (a partial block, or a
 * block narrower than 'width'), a lane whose partner did not run misses values, and only
 * lane 0 is sure to hold them all: copy lane 0's value up, doubling the lanes that hold it
 * at each step (the source, lane - off, always runs). The condition is uniform. */
static void
broadcast_first(tj_kernel *k, const acc *a, int width, LLVMValueRef emu, LLVMValueRef nactive)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->r->type;
    tji_cond some_idle;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntULT, nactive, tji_const_i32(c, width), ""),
                        &some_idle);
    LLVMValueRef rel = LLVMBuildAnd(b, tji_lane(k), tji_const_i32(c, width - 1), "");
    for (int off = 1; off < width; off *= 2) {
        LLVMValueRef mine = LLVMBuildLoad2(b, t->llreg, a->value, "");
        LLVMValueRef x = tji_emit_shfl_xor(k, t, mine, off, emu);
        LLVMValueRef take = LLVMBuildICmp(b, LLVMIntULT,
                                          LLVMBuildSub(b, rel, tji_const_i32(c, off), ""),
                                          tji_const_i32(c, off), "");
        if (a->neutral) { /* the whole-tile result, never empty: its flag is not read */
            LLVMBuildStore(b, LLVMBuildSelect(b, take, x, mine, ""), a->value);
            continue;
        }
        LLVMValueRef v = LLVMBuildLoad2(b, tji_i1(c), a->valid, "");
        LLVMValueRef xv = tji_emit_shfl_xor32(k, LLVMBuildZExt(b, v, tji_i32(c), ""), off, emu);
        tji_cond cond;
        tji_emit_cond_begin(k, take, &cond);
        LLVMBuildStore(b, x, a->value);
        LLVMBuildStore(b, LLVMBuildICmp(b, LLVMIntNE, xv, tji_const_i32(c, 0), ""), a->valid);
        tji_emit_cond_end(k, &cond);
    }
    tji_emit_cond_end(k, &some_idle);
}

/* Scratch for group partials: 'n' values then 'n' i32 flags, after the shuffle area. */
typedef struct partials {
    LLVMValueRef vals, flags;
} partials;

/* ... after 'sh' bytes of scratch (0: at its start). */
static partials
partials_after(tj_kernel *k, size_t sh, const tj_type *t, int64_t n, LLVMValueRef *emu)
{
    size_t vbytes = ((size_t)n * t->size + 15) & ~(size_t)15;
    LLVMValueRef base = tji_shared_scratch(k, sh + vbytes + (size_t)n * 4);
    tj_context *c = k->ctx;
    LLVMValueRef o1 = tji_const_i64(c, (int64_t)sh), o2 = tji_const_i64(c, (int64_t)(sh + vbytes));
    *emu = sh ? base : NULL;
    return (partials){.vals = LLVMBuildGEP2(k->llb, tji_i8(c), base, &o1, 1, ""),
                      .flags = LLVMBuildGEP2(k->llb, tji_i8(c), base, &o2, 1, "")};
}

static partials
partials_at(tj_kernel *k, const tj_type *t, int64_t n, LLVMValueRef *emu)
{
    return partials_after(k, tji_shuffle_scratch_bytes(k), t, n, emu);
}

static void
partial_store(tj_kernel *k, const partials *p, const acc *a, LLVMValueRef i)
{
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->r->type;
    tji_emit_store(k, t, LLVMBuildLoad2(b, t->llreg, a->value, ""),
                   LLVMBuildGEP2(b, t->llmem, p->vals, &i, 1, ""));
    LLVMValueRef v = LLVMBuildZExt(b, LLVMBuildLoad2(b, tji_i1(k->ctx), a->valid, ""),
                                   tji_i32(k->ctx), "");
    LLVMBuildStore(b, v, LLVMBuildGEP2(b, tji_i32(k->ctx), p->flags, &i, 1, ""));
}

/* Folds partials [first, first + n) into 'a' (which starts empty). Partial i was stored by
 * lane i * 'stride'; when that lane does not run (a partial block) its slot holds whatever
 * an earlier block or builtin left there, so it is skipped. */
static void
partial_fold(tj_kernel *k, const partials *p, const acc *a, LLVMValueRef first, int n,
             int stride, LLVMValueRef nactive)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->r->type;
    acc_clear(k, a);
    for (int w = 0; w < n; w++) {
        LLVMValueRef i = LLVMBuildAdd(b, first, tji_const_i32(c, w), "");
        LLVMValueRef x = tji_emit_load(k, t, LLVMBuildGEP2(b, t->llmem, p->vals, &i, 1, ""));
        LLVMValueRef f =
            LLVMBuildLoad2(b, tji_i32(c), LLVMBuildGEP2(b, tji_i32(c), p->flags, &i, 1, ""), "");
        LLVMValueRef ran = LLVMBuildICmp(b, LLVMIntULT,
                                         LLVMBuildMul(b, i, tji_const_i32(c, stride), ""),
                                         nactive, "");
        LLVMValueRef set = LLVMBuildICmp(b, LLVMIntNE, f, tji_const_i32(c, 0), "");
        acc_add(k, a, x, LLVMBuildAnd(b, ran, set, ""));
    }
}

/* ---- whole tile ------------------------------------------------------------------------- */

typedef struct fold {
    const tj_val *t;
    const acc *a;
} fold;

static void
fold_owned(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const fold *f = ud;
    acc_add(k, f->a, tji_tile_get(k, f->t, slot, e), NULL);
}

/* acc = op(acc, element), for an accumulator known to hold a value already. */
static void
fold_owned_valid(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const fold *f = ud;
    const tj_type *t = f->a->r->type;
    tj_val *cur = tji_scalar(k, t, LLVMBuildLoad2(k->llb, t->llreg, f->a->value, ""));
    tj_val *res = combine(k, f->a->r, cur, tji_scalar(k, t, tji_tile_get(k, f->t, slot, e)));
    if (res)
        LLVMBuildStore(k->llb, res->ll, f->a->value);
}

/* Each lane folds the elements it owns. When every lane owns some (a tile at least as large
 * as the block), the first slot starts the fold and the rest combine without checks. */
static void
fold_lane(tj_kernel *k, const tj_val *t, const acc *ac)
{
    fold f = {t, ac};
    if (t->u.tile.size < k->block_dim) {
        tji_foreach_owned(k, t->u.tile.size, fold_owned, &f);
        return;
    }
    LLVMValueRef zero = tji_const_i32(k->ctx, 0);
    LLVMBuildStore(k->llb, tji_tile_get(k, t, zero, tji_lane(k)), ac->value);
    LLVMBuildStore(k->llb, LLVMConstInt(tji_i1(k->ctx), 1, 0), ac->valid);
    tji_foreach_owned_from(k, t->u.tile.size, 1, fold_owned_valid, &f);
}

/* Combines the lanes' partials; 'all_valid': every running lane holds one. */
static void
block_combine(tj_kernel *k, const acc *a, bool all_valid)
{
    int B = (int)k->block_dim;
    if (B == 1)
        return;
    int nwarps = (B + 31) / 32;
    LLVMValueRef emu;
    partials p = partials_at(k, a->r->type, nwarps > 1 ? nwarps : 0, &emu);
    LLVMValueRef nactive = tji_emit_nactive(k);
    int width = B >= 32 ? 32 : pow2_floor(2 * B - 1);
    butterfly(k, a, width, emu, nactive, all_valid);
    if (nwarps == 1) {
        broadcast_first(k, a, width, emu, nactive);
        if (emu)
            tji_emit_barrier(k);
        return;
    }
    LLVMBuilderRef b = k->llb;
    LLVMValueRef lane = tji_lane(k);
    LLVMValueRef warp = LLVMBuildUDiv(b, lane, tji_const_i32(k->ctx, 32), "warp");
    LLVMValueRef leader =
        LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildURem(b, lane, tji_const_i32(k->ctx, 32), ""),
                      tji_const_i32(k->ctx, 0), "");
    tji_cond cond;
    tji_emit_cond_begin(k, leader, &cond);
    partial_store(k, &p, a, warp);
    tji_emit_cond_end(k, &cond);
    tji_emit_barrier(k);
    partial_fold(k, &p, a, tji_const_i32(k->ctx, 0), nwarps, 32, nactive);
    tji_emit_barrier(k); /* the scratch is free again */
}

/* A tile of at most this many elements, fewer than the block's lanes, is combined through
 * shared scratch (small_combine) instead of shuffles. */
#define SMALL_TILE 32

/* For a tile of 'n' elements (n < B, so element e is lane e's only one): the owners publish
 * their elements, and every lane folds them in order, skipping those whose owner does not
 * run (a partial block; lane 0 always runs, so the result is never empty). Two barriers in
 * all, against a butterfly of shuffles with validity flags and a warp-partials stage: the
 * seed's 4-element product. */
static void
small_combine(tj_kernel *k, const acc *a, int64_t n)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef emu;
    partials p = partials_at(k, a->r->type, n, &emu);
    LLVMValueRef lane = tji_lane(k);
    tji_cond owner;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntULT, lane, tji_const_i32(k->ctx, n), ""),
                        &owner);
    partial_store(k, &p, a, lane);
    tji_emit_cond_end(k, &owner);
    tji_emit_barrier(k);
    partial_fold(k, &p, a, tji_const_i32(k->ctx, 0), (int)n, 1, tji_emit_nactive(k));
    tji_emit_barrier(k); /* the scratch is free again */
}

/* The lanes of a CPU cooperative block run one at a time, in ascending order, between two
 * barriers (SPEC 1), on one host thread: then, after a barrier, each running lane folds its
 * partial into one total, lane 0 (which runs first) starting it, and after a second barrier
 * every lane reads it. Two barriers in all, against five for the butterfly's emulated
 * shuffles and two for the warps' partials; the partials combine in lane order.
 * The first barrier keeps lane 0's start of the total out of the phase that folds the
 * lanes' elements: in the same phase it made LLVM peel lane 0 off that phase's lane loop,
 * whose vector loads then all began 4 bytes past a cache line. The total lives in a slot of
 * owned shared memory (tji_shared_slot), not in the scratch, so that no third barrier is
 * needed before the scratch is free: lane 0 reads the total and may go on into a builtin
 * that writes the scratch before the other lanes have read it, while the slot's next writer
 * is lane 0 after a later call's first barrier, which every lane reaches after its read.
 * TILEJIT_CPU_REDUCE=butterfly keeps the GPU's algorithm on the CPU, so that tests run it
 * without a GPU. */
static bool
lanes_take_turns(const tj_kernel *k)
{
    return k->block_dim > 1 && !tji_lanes_run_concurrently(k) && !k->ctx->cpu_butterfly;
}

/* Marks the users of the lanes' partials ('mine', which 'sum' combines into the total) as
 * this fold's, where the reducer is one of the built-in associative and commutative
 * operations on a scalar: the partials are then used only as one total of them all, and
 * row_order.c may hand it other partials with the same total (jit/lane_loops.c). */
static void
mark_turn(tj_kernel *k, const reducer *r, LLVMValueRef mine, const tj_val *sum)
{
    /* a user function's body is not the operation (it could be inlined into one) */
    if (r->op != TJ_REDUCE_FUNC && sum && !tji_type_is_composite(sum->type) &&
        tji_reassociable(sum->ll))
        tji_mark_turn_fold(k->ctx, mine, LLVMGetInstructionOpcode(sum->ll));
}

static void
turn_combine(tj_kernel *k, const acc *a)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->r->type;
    /* the total: the value, then its flag, 4-aligned after it */
    size_t flag_off = (t->size + 3) & ~(size_t)3;
    LLVMValueRef flag_at = tji_const_i64(c, (int64_t)flag_off);
    LLVMValueRef slot = tji_shared_slot(k, flag_off + 4);
    partials p = {.vals = slot, .flags = LLVMBuildGEP2(b, tji_i8(c), slot, &flag_at, 1, "")};
    LLVMValueRef zero = tji_const_i32(c, 0), one = tji_const_i32(c, 1);
    tji_cond cond, inner;
    tji_emit_barrier(k); /* the partials are final; every lane has read the last total */
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntEQ, tji_lane(k), zero, ""), &cond);
    LLVMBuildStore(b, zero, p.flags);
    tji_emit_cond_end(k, &cond);
    tji_emit_cond_begin(k, LLVMBuildLoad2(b, tji_i1(c), a->valid, ""), &cond);
    LLVMValueRef mine = LLVMBuildLoad2(b, t->llreg, a->value, "");
    LLVMValueRef held = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLoad2(b, tji_i32(c), p.flags, ""),
                                      zero, "held");
    tji_emit_cond_begin(k, held, &inner);
    tj_val *sum = combine(k, a->r, tji_scalar(k, t, tji_emit_load(k, t, p.vals)),
                          tji_scalar(k, t, mine));
    if (sum)
        tji_emit_store(k, t, sum->ll, p.vals);
    tji_emit_cond_end(k, &inner);
    tji_emit_cond_begin(k, LLVMBuildNot(b, held, ""), &inner);
    tji_emit_store(k, t, mine, p.vals);
    LLVMBuildStore(b, one, p.flags);
    tji_emit_cond_end(k, &inner);
    tji_emit_cond_end(k, &cond);
    mark_turn(k, a->r, mine, sum);
    tji_emit_barrier(k);
    /* every lane reads the total; no lane writes it before a later call's first barrier */
    LLVMValueRef total = tji_emit_load(k, t, p.vals);
    LLVMValueRef held_total = LLVMBuildLoad2(b, tji_i32(c), p.flags, "");
    tji_mark_alike(c, total); /* jit/divergence.c */
    tji_mark_alike(c, held_total);
    LLVMBuildStore(b, total, a->value);
    LLVMBuildStore(b, LLVMBuildICmp(b, LLVMIntNE, held_total, zero, ""), a->valid);
}

static bool
check_input(tj_kernel *k, tj_val *a, reducer *r)
{
    if (!tji_check_tile(k, fn, "a", a))
        return false;
    r->type = a->type;
    return check_reducer(k, r);
}

tj_val *
tj_tile_reduce(tj_kernel *k, tj_reduce_op op, tj_func *f, tj_val *a)
{
    reducer r = {.op = op, .f = f};
    /* A user combine function may write arrays: then the call ends borrowed tiles. */
    if (!(f ? tji_enter(k, fn) : tji_enter_pure(k, fn)) || !check_input(k, a, &r))
        return NULL;
    acc ac = acc_new(k, &r);
    if (a->u.tile.replicated)
        acc_add(k, &ac, tji_tile_get(k, a, tji_const_i32(k->ctx, 0), tji_const_i32(k->ctx, 0)),
                NULL);
    else
        fold_lane(k, a, &ac);
    int64_t size = a->u.tile.size;
    if (!a->u.tile.replicated && lanes_take_turns(k))
        turn_combine(k, &ac);
    else if (!a->u.tile.replicated && size < k->block_dim && size <= SMALL_TILE)
        small_combine(k, &ac, size);
    else if (!a->u.tile.replicated)
        block_combine(k, &ac, size >= k->block_dim);
    int one = 1;
    tj_val *out = tji_tile_new(k, r.type, 1, &one, TJ_STORAGE_REGISTER);
    if (!out || k->status != TJ_OK)
        return NULL;
    out->u.tile.replicated = true;
    tji_tile_set(k, out, tji_const_i32(k->ctx, 0), NULL,
                 LLVMBuildLoad2(k->llb, r.type->llreg, ac.value, ""));
    tji_tile_mark(k, out);
    return out;
}

/* ---- along an axis ----------------------------------------------------------------------- */

typedef struct axis_job {
    const tj_val *in;
    const tj_val *out;
    const reducer *r;
    int axis;
    int lpo;                   /* lanes per output */
    LLVMValueRef nactive;
    partials p;
    LLVMValueRef emu;
    int site;
} axis_job;

/* Input coordinates of element 'i' along the axis of output element 'o'. */
static void
input_coords(tj_kernel *k, const axis_job *j, LLVMValueRef o, LLVMValueRef i, LLVMValueRef *in)
{
    LLVMValueRef oc[TJI_MAX_DIMS];
    tji_tile_coords(k, &j->out->u.tile, o, oc);
    int rank = j->in->u.tile.rank;
    for (int d = 0, od = 0; d < rank; d++)
        in[d] = d == j->axis ? i : rank == 1 ? NULL : oc[od++];
}

/* Adds element 'i' of output o's slice to 'a' when its owner lane runs. */
static void
fold_slice_elem(tj_kernel *k, const axis_job *j, const acc *a, LLVMValueRef o, LLVMValueRef i)
{
    LLVMBuilderRef b = k->llb;
    const tji_tile *in = &j->in->u.tile;
    LLVMValueRef c[TJI_MAX_DIMS];
    input_coords(k, j, o, i, c);
    LLVMValueRef e = tji_const_i32(k->ctx, 0);
    int64_t dense[TJI_MAX_DIMS];
    tji_dense_strides(in->rank, in->shape, dense);
    for (int d = 0; d < in->rank; d++)
        e = LLVMBuildAdd(b, e, LLVMBuildMul(b, c[d], tji_const_i32(k->ctx, dense[d]), ""), "");
    LLVMValueRef owner = LLVMBuildURem(b, e, tji_const_i32(k->ctx, k->block_dim), "");
    LLVMValueRef runs = LLVMBuildICmp(b, LLVMIntULT, owner, j->nactive, "");
    LLVMValueRef x = tji_emit_load(k, j->in->type, tji_tile_elem_ptr(k, j->in, c));
    acc_add(k, a, x, runs);
}

/* A slice of at most this many elements from a constant start is folded without a loop. */
enum { UNROLL_SLICE = 8 };

/* Folds elements i = first, first + step, ... < len of one slice. On the GPU they are
 * written out when 'first' is a constant and there are at most UNROLL_SLICE of them: the
 * code LLVM's full unrolling made of the loop, without the loop passes' work
 * (row_products' builder -> PTX 2.07 -> 1.90 ms, its SASS one instruction shorter,
 * bench/RESULTS.md). Else, and on the CPU, a loop: written out there, cooperative blocks'
 * lane loops came out 1-23% longer, so O3 unrolls it its own way. */
static void
fold_slice(tj_kernel *k, const axis_job *j, const acc *a, LLVMValueRef o, LLVMValueRef first,
           int step)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    int len = j->in->u.tile.shape[j->axis];
    if (k->opts.target != TJ_TARGET_CPU && LLVMIsAConstantInt(first)) {
        int64_t i0 = LLVMConstIntGetZExtValue(first);
        if ((len - i0 + step - 1) / step <= UNROLL_SLICE) {
            for (int64_t i = i0; i < len; i += step)
                fold_slice_elem(k, j, a, o, tji_const_i32(c, i));
            return;
        }
    }
    tji_count lp;
    LLVMValueRef i = tji_emit_count_begin(k, &lp, first, "i", "", "slice");
    tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, i, tji_const_i32(c, len), ""));
    fold_slice_elem(k, j, a, o, i);
    tji_emit_count_end(k, &lp, i, step, false);
}

/* The accumulated value, or the identity (error for user operators) when empty. */
static LLVMValueRef
acc_result(tj_kernel *k, const axis_job *j, const acc *a, LLVMValueRef o)
{
    LLVMBuilderRef b = k->llb;
    const tj_type *t = j->r->type;
    LLVMValueRef valid = LLVMBuildLoad2(b, tji_i1(k->ctx), a->valid, "");
    LLVMValueRef v = LLVMBuildLoad2(b, t->llreg, a->value, "");
    if (j->r->op == TJ_REDUCE_FUNC && j->site >= 0)
        tji_emit_report(k, LLVMBuildNot(b, valid, ""), j->site, o, o, o, -1);
    LLVMValueRef id = j->r->op == TJ_REDUCE_FUNC ? LLVMConstNull(t->llreg) : identity(k, j->r);
    return LLVMBuildSelect(b, valid, v, id, "");
}

/* One lane per output: fold the slices of the outputs this lane owns. */
static void
own_output(tj_kernel *k, LLVMValueRef slot, LLVMValueRef o, void *ud)
{
    const axis_job *j = ud;
    acc a = acc_new(k, j->r);
    fold_slice(k, j, &a, o, tji_const_i32(k->ctx, 0), 1);
    tji_tile_set(k, j->out, slot, o, acc_result(k, j, &a, o));
}

/* Groups: collect the combined partials of each output this lane owns. */
static void
group_output(tj_kernel *k, LLVMValueRef slot, LLVMValueRef o, void *ud)
{
    const axis_job *j = ud;
    int per = j->lpo > 32 ? j->lpo / 32 : 1;
    acc a = acc_new(k, j->r);
    LLVMValueRef first = LLVMBuildMul(k->llb, o, tji_const_i32(k->ctx, per), "");
    partial_fold(k, &j->p, &a, first, per, j->lpo < 32 ? j->lpo : 32, j->nactive);
    tji_tile_set(k, j->out, slot, o, acc_result(k, j, &a, o));
}

static void
reduce_groups(tj_kernel *k, axis_job *j, int64_t nout)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    int per = j->lpo > 32 ? j->lpo / 32 : 1;
    j->p = partials_at(k, j->r->type, nout * per, &j->emu);
    LLVMValueRef lane = tji_lane(k);
    LLVMValueRef o = LLVMBuildUDiv(b, lane, tji_const_i32(c, j->lpo), "group");
    LLVMValueRef m = LLVMBuildURem(b, lane, tji_const_i32(c, j->lpo), "member");
    LLVMValueRef in_range = LLVMBuildICmp(b, LLVMIntULT, o, tji_const_i32(c, nout), "");
    LLVMValueRef oc = LLVMBuildSelect(b, in_range, o, tji_const_i32(c, 0), "");
    acc a = acc_new(k, j->r);
    tji_cond cond;
    tji_emit_cond_begin(k, in_range, &cond);
    fold_slice(k, j, &a, oc, m, j->lpo);
    tji_emit_cond_end(k, &cond);
    /* every lane takes part in the shuffles, even those without an output */
    butterfly(k, &a, j->lpo < 32 ? j->lpo : 32, j->emu, j->nactive, false);
    LLVMValueRef leader = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildURem(b, m, tji_const_i32(c, 32), ""),
                                        tji_const_i32(c, 0), "");
    tji_emit_cond_begin(k, LLVMBuildAnd(b, leader, in_range, ""), &cond);
    LLVMValueRef idx = LLVMBuildAdd(b, LLVMBuildMul(b, oc, tji_const_i32(c, per), ""),
                                    LLVMBuildUDiv(b, m, tji_const_i32(c, 32), ""), "");
    partial_store(k, &j->p, &a, idx);
    tji_emit_cond_end(k, &cond);
    tji_emit_barrier(k);
    tji_foreach_owned(k, nout, group_output, j);
    tji_emit_barrier(k); /* the scratch is free again */
}

/* A group needs every one of its lanes to fold its slice. In a partial block (a uniform
 * condition) some groups have lanes that do not run, so each running lane folds the whole
 * slices of the outputs it owns instead. */
static void
reduce_groups_if_full(tj_kernel *k, axis_job *j, int64_t nout)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntEQ, j->nactive,
                                      tji_const_i32(k->ctx, k->block_dim), "full");
    tji_cond cond;
    tji_emit_cond_begin(k, full, &cond);
    reduce_groups(k, j, nout);
    tji_emit_cond_end(k, &cond);
    tji_emit_cond_begin(k, LLVMBuildNot(b, full, ""), &cond);
    tji_foreach_owned(k, nout, own_output, j);
    tji_emit_cond_end(k, &cond);
}

tj_val *
tj_tile_reduce_axis(tj_kernel *k, tj_reduce_op op, tj_func *f, tj_val *a, int axis)
{
    reducer r = {.op = op, .f = f};
    /* A user combine function may write arrays: then the call ends borrowed tiles. */
    if (!(f ? tji_enter(k, fn) : tji_enter_pure(k, fn)) || !check_input(k, a, &r))
        return NULL;
    const tji_tile *t = &a->u.tile;
    if (axis < 0 || axis >= t->rank) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'axis': %d is out of range for a rank-%d tile",
                 fn, axis, t->rank);
        return NULL;
    }
    if (!tji_type_is_scalar(a->type)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'a': reducing along an axis needs scalar "
                 "elements, not %s", fn, a->type->name);
        return NULL;
    }
    int oshape[TJI_MAX_DIMS], orank = 0;
    for (int d = 0; d < t->rank; d++)
        if (d != axis)
            oshape[orank++] = t->shape[d];
    if (orank == 0)
        oshape[orank++] = 1;
    tji_tile_promote(k, a);
    tj_val *out = tji_tile_new(k, a->type, orank, oshape, TJ_STORAGE_REGISTER);
    if (!out)
        return NULL;
    int64_t nout = out->u.tile.size;
    axis_job j = {.in = a, .out = out, .r = &r, .axis = axis, .nactive = tji_emit_nactive(k),
                  .site = k->opts.debug && op == TJ_REDUCE_FUNC
                              ? tji_kernel_add_site(k, "tile_reduce: slice %%lld has no value from "
                                                       "a running lane and a user operator has "
                                                       "no identity")
                              : -1};
    j.lpo = lanes_per_output(k->block_dim, nout, t->shape[axis]);
    if (j.lpo == 1)
        tji_foreach_owned(k, nout, own_output, &j);
    else
        reduce_groups_if_full(k, &j, nout);
    if (k->status != TJ_OK)
        return NULL;
    tji_tile_mark(k, out);
    return out;
}
