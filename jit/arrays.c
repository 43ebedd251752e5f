/*
 * jit/arrays.c: thread coordinates (tid with the folding rule of SPEC 1, block_dim) and
 * array parameters: shapes, element reads and writes, atomics. Debug builds check every
 * index and skip the access that fails (SPEC 5): a load then gives zero.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The coordinates of the linear thread index 'lin' (i64): its quotient by 'fold' (NULL: none)
 * unravelled over dims[1..n-1], each division and remainder in 'ty' (i32 or i64). */
static void
unravel(tj_kernel *k, LLVMTypeRef ty, LLVMValueRef lin, LLVMValueRef fold,
        const LLVMValueRef *dims, int n, LLVMValueRef *coords)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef l = LLVMBuildIntCast2(b, lin, ty, false, "");
    if (fold)
        l = LLVMBuildUDiv(b, l, LLVMBuildIntCast2(b, fold, ty, false, ""), "");
    for (int d = n - 1; d >= 0; d--) {
        LLVMValueRef coord = l;
        if (d > 0) {
            LLVMValueRef dd = LLVMBuildIntCast2(b, dims[d], ty, false, "");
            LLVMValueRef q = LLVMBuildUDiv(b, l, dd, "");
            coord = LLVMBuildSub(b, l, LLVMBuildMul(b, q, dd, ""), "");
            l = q;
        }
        coords[d] = LLVMBuildIntCast2(b, coord, tji_i32(k->ctx), false, "");
    }
}

bool
tj_tid(tj_kernel *k, int ncoords, tj_val **out)
{
    if (!tji_enter_local(k, "tj_tid"))
        return false;
    if (ncoords < 1 || ncoords > TJI_MAX_DIMS)
        return tji_fail(k, TJ_ERR_INVALID, "tj_tid: argument 'ncoords': %d is not in [1, 4]",
                        ncoords);
    if (!out)
        return tji_fail(k, TJ_ERR_INVALID, "tj_tid: argument 'out' is NULL");
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (ncoords > k->max_tid)
        k->max_tid = ncoords;
    /* A width-1 CPU block is one thread, and its entry keeps the block's coordinates in the
     * launch as it goes from block to block (TJI_TS_COORD0, jit/target_host.c): by SPEC 1's
     * folding rule a tid() of n coordinates is the first n of them. Each block divided its
     * index by the launch's dimensions before, up to three dependent 32-bit divisions
     * (y = 2x + y over (16, 16) tiles, i, j, lane = tid(): 0.76 of C's loop; 0.88 with
     * divisions by constants: bench/RESULTS.md, 2026-12-07, third session). A tid() of
     * one coordinate keeps the test below, whose usual path is the block itself. */
    if (k->opts.target == TJ_TARGET_CPU && k->block_dim == 1 && !k->is_func && ncoords > 1) {
        for (int d = 0; d < ncoords; d++) {
            LLVMValueRef coord = tji_emit_ts_load(k, TJI_TS_COORD0 + d);
            LLVMSetValueName2(coord, "tid", 3);
            out[d] = tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), coord);
            if (!out[d])
                return false;
        }
        return true;
    }
    LLVMValueRef lin = tji_emit_linear_tid(k);
    LLVMValueRef dims[TJI_MAX_DIMS];
    for (int d = 0; d < TJI_MAX_DIMS; d++)
        dims[d] = LLVMBuildZExt(b, tji_emit_ts_load(k, TJI_TS_DIM0 + d), tji_i64(c), "");
    /* Fold the launch dimensions the kernel does not read (unused ones are 1): one division
     * by their product. */
    LLVMValueRef fold = NULL;
    if (ncoords < TJI_MAX_DIMS) {
        fold = dims[ncoords];
        for (int d = ncoords + 1; d < TJI_MAX_DIMS; d++)
            fold = LLVMBuildMul(b, fold, dims[d], "");
    }
    /* Under launch_tiled, whose last dimension is the block width, a tid() of one
     * coordinate is the block and one of two is (block, lane): tested once (the test is the
     * same for every lane), no division. Cooperative CPU blocks run their lanes one after
     * another in a loop (lane_loops.c), where two divisions a lane cost more than most of a
     * lane's work; the result is a select on the test there, so that lane_loops.c, where
     * the test is true, sees (block, lane) through it. On the GPU the divisions were about
     * 45 SASS instructions a thread before a block's work (a 32-bit division by a value
     * known only at run time is a reciprocal and its corrections): 4% of the bench
     * histogram's block of 32768 and 3% of the compaction's. */
    LLVMBasicBlockRef tiled = NULL;
    LLVMValueRef ct[2] = {NULL, NULL}, is_tiled = NULL;
    bool cpu = k->opts.target == TJ_TARGET_CPU;
    /* A width-1 CPU block is one thread, whose index is the block's: a tid() of one
     * coordinate where the launch has no other dimension to fold (a launch of one
     * dimension, or a tiled one, [n, 1]) is the block itself. The test is the same for every
     * block, so LLVM takes it out of the entry's loop over blocks (loop unswitching): a
     * kernel of one element a thread becomes a loop without a division a thread (not yet
     * vectorised: bench/RESULTS.md, 2026-12-06, ninth session). */
    bool whole = cpu && k->block_dim == 1 && ncoords == 1;
    if (whole) {
        is_tiled = LLVMBuildICmp(b, LLVMIntEQ, fold, tji_const_i64(c, 1), "tid.unfolded");
        ct[0] = LLVMBuildTrunc(b, lin, tji_i32(c), "");
    } else if ((!cpu || k->block_dim > 1) && ncoords <= 2) {
        LLVMValueRef width = tji_const_i64(c, k->block_dim);
        is_tiled =
            ncoords == 1
                ? LLVMBuildICmp(b, LLVMIntEQ, fold, width, "")
                : LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, fold, tji_const_i64(c, 1), ""),
                               LLVMBuildICmp(b, LLVMIntEQ, dims[1], width, ""), "");
        /* lane_loops.c finds it by its name (TJI_TILED_FLAG) */
        LLVMSetValueName2(is_tiled, TJI_TILED_FLAG, strlen(TJI_TILED_FLAG));
        ct[0] = LLVMBuildTrunc(b, tji_emit_ts_load(k, TJI_TS_BLOCK), tji_i32(c), "");
        ct[1] = tji_emit_ts_load(k, TJI_TS_LANE);
    }
    if (is_tiled) { /* the values in ct[] on one path, the divisions below on the other */
        tiled = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, whole ? "tid.block" : "tid.tiled");
        LLVMBasicBlockRef general = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tid.general");
        LLVMBuildCondBr(b, is_tiled, tiled, general);
        LLVMPositionBuilderAtEnd(b, general);
    }
    /* In 32 bits when the index and the fold fit (GPUs have no 64-bit divider, and x86's is
     * slower): each dimension does, and every quotient is at most the index. One test for
     * all the divisions, so that a tid() is two paths, not two per division. */
    LLVMValueRef wide_bits = fold ? LLVMBuildOr(b, lin, fold, "") : lin;
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntULT, wide_bits, tji_const_i64(c, 1LL << 32),
                                      "div.fits");
    LLVMBasicBlockRef narrow = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "div.narrow");
    LLVMBasicBlockRef wide = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "div.wide");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "div.done");
    LLVMBuildCondBr(b, fits, narrow, wide);
    LLVMValueRef cn[TJI_MAX_DIMS], cw[TJI_MAX_DIMS];
    LLVMPositionBuilderAtEnd(b, narrow);
    unravel(k, tji_i32(c), lin, fold, dims, ncoords, cn);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, wide);
    unravel(k, tji_i64(c), lin, fold, dims, ncoords, cw);
    LLVMBuildBr(b, done);
    if (tiled) {
        LLVMPositionBuilderAtEnd(b, tiled);
        LLVMBuildBr(b, done);
    }
    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef coords[TJI_MAX_DIMS];
    for (int d = 0; d < ncoords; d++) {
        coords[d] = tji_emit_phi2(b, cn[d], narrow, cw[d], wide);
        if (tiled)
            LLVMAddIncoming(coords[d], &ct[d], &tiled, 1);
    }
    for (int d = 0; d < ncoords; d++) {
        LLVMValueRef coord = tiled && cpu && !whole
                                 ? LLVMBuildSelect(b, is_tiled, ct[d], coords[d], "")
                                 : coords[d];
        /* loop_version.c knows the lane by its name: in [0, block_dim) when tiled */
        const char *name = tiled && cpu && d == 1 ? TJI_LANE_NAME : "tid";
        LLVMSetValueName2(coord, name, strlen(name));
        out[d] = tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), coord);
        if (!out[d])
            return false;
    }
    return true;
}

tj_val *
tj_block_dim(tj_kernel *k)
{
    if (!tji_enter_local(k, "tj_block_dim"))
        return NULL;
    return tji_scalar(k, tji_type_scalar(k->ctx, TJ_DTYPE_I32),
                      tji_const_i32(k->ctx, k->block_dim));
}

static bool
check_array(tj_kernel *k, const char *fn, tj_val *arr)
{
    char d[64];
    if (!tji_use(k, arr, fn, "arr"))
        return false;
    if (arr->kind != TJ_VAL_ARRAY)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'arr': %s is not an array", fn,
                        tji_val_describe(arr, d, sizeof d));
    return true;
}

tj_val *
tj_shape(tj_kernel *k, tj_val *arr, int dim)
{
    if (!tji_enter_local(k, "tj_shape") || !check_array(k, "tj_shape", arr))
        return NULL;
    if (dim < 0 || dim >= arr->u.arr.ndim) {
        tji_fail(k, TJ_ERR_INVALID, "tj_shape: argument 'dim': %d is out of range for a %d-dim "
                 "array", dim, arr->u.arr.ndim);
        return NULL;
    }
    return tji_scalar(k, tji_type_scalar(k->ctx, TJ_DTYPE_I32), arr->u.arr.shape[dim]);
}

/* Validates the indices of an element access. */
static bool
check_indices(tj_kernel *k, const char *fn, tj_val *arr, tj_val *const *idx, int nidx)
{
    char d[64];
    if (!check_array(k, fn, arr))
        return false;
    if (nidx > 0 && !idx)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'idx' is NULL", fn);
    if (nidx != arr->u.arr.ndim)
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: array '%s' has %d dimension%s, got %d ind%s", fn,
                        arr->u.arr.name ? arr->u.arr.name : "?", arr->u.arr.ndim,
                        arr->u.arr.ndim == 1 ? "" : "s", nidx, nidx == 1 ? "ex" : "ices");
    for (int i = 0; i < nidx; i++) {
        if (!tji_use(k, idx[i], fn, "idx"))
            return false;
        const tj_type *t = idx[i]->type;
        if (idx[i]->kind != TJ_VAL_SCALAR || !tji_type_is_scalar(t) ||
            !tji_dtype_is_int(t->dtype))
            return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'idx': index %d is %s, not an integer",
                            fn, i, tji_val_describe(idx[i], d, sizeof d));
    }
    return true;
}

/* The element address; in debug builds also the condition that every index is in range
 * (its failure reported), else NULL. */
static LLVMValueRef
elem_ptr(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, LLVMValueRef *ok)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tji_array_val *a = &arr->u.arr;
    LLVMValueRef off = tji_const_i64(c, 0);
    *ok = NULL;
    int site = -1;
    if (k->opts.debug)
        site = tji_kernel_add_site(k, "array '%s'", a->name ? a->name : "?");
    /* Element strides (arrays' byte strides are whole elements) let LLVM version a loop on
     * a unit stride and vectorise it. */
    LLVMValueRef esize = tji_const_i64(c, (int64_t)arr->type->size);
    for (int d = 0; d < nidx; d++) {
        const tj_type *t = idx[d]->type;
        LLVMValueRef i64 = LLVMBuildIntCast2(b, idx[d]->ll, tji_i64(c),
                                             tji_dtype_is_signed(t->dtype), "");
        LLVMValueRef es = LLVMBuildExactSDiv(b, a->strides[d], esize, "");
        off = tji_emit_add(b, off, tji_emit_mul(b, i64, es, false), false);
        if (site < 0)
            continue;
        LLVMValueRef hi = LLVMBuildZExt(b, a->shape[d], tji_i64(c), "");
        LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, i64, hi, "");
        tji_emit_report(k, LLVMBuildNot(b, in, ""), site, i64, tji_const_i64(c, 0), hi, d);
        *ok = *ok ? LLVMBuildAnd(b, *ok, in, "") : in;
    }
    return LLVMBuildGEP2(b, arr->type->llmem, a->data, &off, 1, "elem");
}

tj_val *
tj_load(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx)
{
    if (!tji_enter_local(k, "tj_load") || !check_indices(k, "tj_load", arr, idx, nidx))
        return NULL;
    LLVMValueRef ok;
    LLVMValueRef p = elem_ptr(k, arr, idx, nidx, &ok);
    const tj_type *t = arr->type;
    if (!ok)
        return tji_scalar(k, t, tji_emit_load(k, t, p));
    tji_cond cond;
    tji_emit_cond_begin(k, ok, &cond);
    LLVMValueRef v = tji_emit_load(k, t, p);
    return tji_scalar(k, t, tji_emit_cond_value(k, &cond, v));
}

static bool
check_value(tj_kernel *k, const char *fn, tj_val *arr, tj_val *value)
{
    char d[64];
    if (!tji_use(k, value, fn, "value"))
        return false;
    if (value->kind != TJ_VAL_SCALAR || value->type != arr->type)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'value': %s, the array holds %s", fn,
                        tji_val_describe(value, d, sizeof d), arr->type->name);
    return true;
}

bool
tj_store(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, tj_val *value)
{
    if (!tji_enter(k, "tj_store") || !check_indices(k, "tj_store", arr, idx, nidx) ||
        !check_value(k, "tj_store", arr, value))
        return false;
    LLVMValueRef ok;
    LLVMValueRef p = elem_ptr(k, arr, idx, nidx, &ok);
    tji_cond cond;
    if (ok)
        tji_emit_cond_begin(k, ok, &cond);
    tji_emit_store(k, arr->type, value->ll, p);
    if (ok)
        tji_emit_cond_end(k, &cond);
    return true;
}

/* ---- atomics --------------------------------------------------------------------------- */

static LLVMAtomicRMWBinOp
rmw_op(tji_atom_op op, tj_dtype dt)
{
    bool fl = tji_dtype_is_float(dt), sg = tji_dtype_is_signed(dt);
    switch (op) {
    case TJI_ATOM_ADD:
        return fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd;
    case TJI_ATOM_MIN:
        return fl ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
    default:
        return fl ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
    }
}

LLVMValueRef
tji_emit_atomic(tj_kernel *k, tji_atom_op op, const tj_type *t, LLVMValueRef p, LLVMValueRef v)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (tji_type_is_scalar(t)) {
        LLVMValueRef r = LLVMBuildAtomicRMW(b, rmw_op(op, t->dtype), p, v,
                                            LLVMAtomicOrderingMonotonic, 0);
        LLVMSetAlignment(r, (unsigned)t->align);
        return r;
    }
    LLVMTypeRef el = tji_dtype_llvm(c, t->dtype);
    LLVMValueRef old = LLVMGetUndef(t->llreg);
    for (int i = 0; i < t->ncomp; i++) {
        LLVMValueRef ci = tji_const_i32(c, i);
        LLVMValueRef ep = LLVMBuildGEP2(b, el, p, &ci, 1, "");
        LLVMValueRef r = LLVMBuildAtomicRMW(b, rmw_op(op, t->dtype), ep,
                                            LLVMBuildExtractElement(b, v, ci, ""),
                                            LLVMAtomicOrderingMonotonic, 0);
        LLVMSetAlignment(r, (unsigned)t->align);
        old = LLVMBuildInsertElement(b, old, r, ci, "");
    }
    return old;
}

static tj_val *
atomic_common(tj_kernel *k, const char *fn, tji_atom_op op, tj_val *arr, tj_val *const *idx,
              int nidx, tj_val *value)
{
    if (!tji_enter(k, fn) || !check_indices(k, fn, arr, idx, nidx) ||
        !check_value(k, fn, arr, value))
        return NULL;
    const tj_type *t = arr->type;
    bool ok_type = op == TJI_ATOM_ADD ? tji_type_is_numeric(t)
                                  : tji_type_is_scalar(t) && t->dtype != TJ_DTYPE_BOOL;
    int bits = tji_dtype_bits(t->dtype);
    if (!ok_type || (bits < 32 && !(t->dtype == TJ_DTYPE_F16 && op == TJI_ATOM_ADD))) {
        tji_fail(k, TJ_ERR_INVALID, "%s: arrays of %s are not supported%s", fn, t->name,
                 tji_type_is_scalar(t) && bits < 32
                     ? " (atomics need 32- or 64-bit elements, or float16 add)"
                     : "");
        return NULL;
    }
    LLVMValueRef ok;
    LLVMValueRef p = elem_ptr(k, arr, idx, nidx, &ok);
    if (!ok)
        return tji_scalar(k, t, tji_emit_atomic(k, op, t, p, value->ll));
    tji_cond cond;
    tji_emit_cond_begin(k, ok, &cond);
    LLVMValueRef r = tji_emit_atomic(k, op, t, p, value->ll);
    return tji_scalar(k, t, tji_emit_cond_value(k, &cond, r));
}

tj_val *
tj_atomic_add(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, tj_val *value)
{
    return atomic_common(k, "tj_atomic_add", TJI_ATOM_ADD, arr, idx, nidx, value);
}

tj_val *
tj_atomic_min(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, tj_val *value)
{
    return atomic_common(k, "tj_atomic_min", TJI_ATOM_MIN, arr, idx, nidx, value);
}

tj_val *
tj_atomic_max(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, tj_val *value)
{
    return atomic_common(k, "tj_atomic_max", TJI_ATOM_MAX, arr, idx, nidx, value);
}
