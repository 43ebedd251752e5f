/*
 * builtins/scatter_add.c: tile_scatter_add(a, i[, j[, k[, l]]], value, has_value, atomic)
 * (SPEC 4). Cooperative: every lane reaches it; lanes with has_value add their value at
 * their index of 'a', which lives in shared memory (a register tile is promoted). Atomic
 * adds make collisions safe (float rounding order unspecified); atomic=false, a constant,
 * is a plain read-modify-write for callers whose indices never collide. One trailing
 * barrier makes the updates visible; there is no leading one (SPEC). Atomic adds into a
 * shared tile (any add on the CPU) only owe it (tji_defer_barrier): the next call that
 * may read shared memory or branch emits it, so a loop of them has one, after it. Struct
 * elements accumulate only fields of 32/64-bit integers, floats and composites of those.
 * Indices out of range are reported in debug builds and their update is dropped in every
 * build. On the CPU a block's lanes never run at once, so the adds are plain there.
 */
#include <stdio.h>

#include "tilejit.h"
#include "builtins.h"

static const char *fn = "tile_scatter_add";

static bool
adds(tj_dtype dt)
{
    return tji_dtype_is_float(dt) || (tji_dtype_is_int(dt) && tji_dtype_bits(dt) >= 32);
}

/* Whether any part of 't' accumulates. */
static bool
accumulates(const tj_type *t)
{
    if (t->kind != TJ_TYPE_STRUCT)
        return adds(t->dtype);
    for (size_t i = 0; i < t->nfields; i++)
        if (accumulates(t->fields[i].type))
            return true;
    return false;
}

static void
add_scalar(tj_kernel *k, tj_dtype dt, LLVMValueRef ptr, LLVMValueRef v, bool atomic)
{
    LLVMBuilderRef b = k->llb;
    const tj_type *st = tji_type_scalar(k->ctx, dt);
    if (atomic) {
        tji_emit_atomic(k, TJI_ATOM_ADD, st, ptr, v);
        return;
    }
    LLVMValueRef old = LLVMBuildLoad2(b, st->llmem, ptr, "");
    bool fl = tji_dtype_is_float(dt);
    LLVMBuildStore(b, fl ? LLVMBuildFAdd(b, old, v, "") : LLVMBuildAdd(b, old, v, ""), ptr);
}

/* Adds register value 'v' of type 't' into memory at 'ptr', part by part. */
static void
accumulate(tj_kernel *k, const tj_type *t, LLVMValueRef ptr, LLVMValueRef v, bool atomic)
{
    LLVMBuilderRef b = k->llb;
    if (t->kind == TJ_TYPE_STRUCT) {
        for (size_t i = 0; i < t->nfields; i++) {
            LLVMValueRef fp = LLVMBuildStructGEP2(b, t->llmem, ptr, (unsigned)i, "");
            accumulate(k, t->fields[i].type, fp, LLVMBuildExtractValue(b, v, (unsigned)i, ""),
                       atomic);
        }
        return;
    }
    if (!adds(t->dtype))
        return;
    if (t->kind == TJ_TYPE_SCALAR) {
        add_scalar(k, t->dtype, ptr, v, atomic);
        return;
    }
    LLVMTypeRef el = tji_dtype_llvm(k->ctx, t->dtype);
    for (int c = 0; c < t->ncomp; c++) {
        LLVMValueRef ci = tji_const_i32(k->ctx, c);
        add_scalar(k, t->dtype, LLVMBuildGEP2(b, el, ptr, &ci, 1, ""),
                   LLVMBuildExtractElement(b, v, ci, ""), atomic);
    }
}

/* An atomic add of an integer without a branch. On the GPU the branch around each atomic
 * cost more than the atomic: ptxas's convergence marks around it, and the shared window's
 * base computed again in each branch (the bench histogram's loop of 4 elements a lane: 69
 * SASS instructions with the branches, 53 without; ptxas 11.8 for sm_90). A constant
 * addend stays a constant, which ptxas's ATOMS.POPC.INC needs (one pass for a warp's lanes
 * that add 1 at one address, where ATOMS.ADD of a register takes one per lane: skewed
 * histograms), and a lane that adds nothing adds it to the kernel's sink word; any other
 * addend becomes 0 there, at index 0, which every tile has. Integers only: PTX does not
 * promise that a float atomic add of -0.0 leaves every value's bits as they were
 * (subnormals, NaN payloads); and a plain add at index 0 could lose another lane's update. */
static void
add_unbranched(tj_kernel *k, const tj_val *a, LLVMValueRef *coords, int nidx, LLVMValueRef ok,
               LLVMValueRef v)
{
    LLVMBuilderRef b = k->llb;
    if (LLVMIsAConstant(v)) {
        LLVMValueRef elem = tji_tile_elem_ptr(k, a, coords);
        add_scalar(k, a->type->dtype, LLVMBuildSelect(b, ok, elem, tji_shared_sink(k), ""), v,
                   true);
        return;
    }
    for (int d = 0; d < nidx; d++)
        coords[d] = LLVMBuildSelect(b, ok, coords[d], tji_const_i32(k->ctx, 0), "");
    add_scalar(k, a->type->dtype, tji_tile_elem_ptr(k, a, coords),
               LLVMBuildSelect(b, ok, v, LLVMConstNull(LLVMTypeOf(v)), ""), true);
}

static bool
is_bool(const tj_val *v)
{
    return v->kind == TJ_VAL_SCALAR && tji_type_is_scalar(v->type) &&
           v->type->dtype == TJ_DTYPE_BOOL;
}

static bool
check_args(tj_kernel *k, tj_val *a, tj_val *const *idx, int nidx, tj_val *value,
           tj_val *has_value, tj_val *atomic, bool *is_atomic)
{
    char d[64];
    if (!tji_check_tile(k, fn, "a", a))
        return false;
    if (!idx)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'idx' is NULL", fn);
    if (nidx != a->u.tile.rank)
        return tji_fail(k, TJ_ERR_INVALID, "%s: a rank-%d tile takes %d indices, got %d", fn,
                        a->u.tile.rank, a->u.tile.rank, nidx);
    if (!tji_check_offsets(k, fn, "idx", idx, nidx) || !tji_use(k, value, fn, "value") ||
        !tji_use(k, has_value, fn, "has_value"))
        return false;
    if (value->kind != TJ_VAL_SCALAR || value->type != a->type)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'value': %s, the tile holds %s", fn,
                        tji_val_describe(value, d, sizeof d), a->type->name);
    if (!accumulates(a->type))
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'a': %s elements cannot be added", fn,
                        a->type->name);
    if (!is_bool(has_value))
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'has_value': %s is not bool", fn,
                        tji_val_describe(has_value, d, sizeof d));
    *is_atomic = true;
    if (!atomic)
        return true;
    int64_t c;
    if (!tji_use(k, atomic, fn, "atomic"))
        return false;
    if (!is_bool(atomic) || !tji_val_const_int(atomic, &c))
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: argument 'atomic' must be a compile-time bool constant", fn);
    *is_atomic = c != 0;
    return true;
}

bool
tj_tile_scatter_add(tj_kernel *k, tj_val *a, tj_val *const *idx, int nidx, tj_val *value,
                    tj_val *has_value, tj_val *atomic)
{
    bool is_atomic = false;
    if (!tji_enter_deferring(k, fn) ||
        !check_args(k, a, idx, nidx, value, has_value, atomic, &is_atomic))
        return false;
    /* Into a shared tile, atomically (or on the CPU, whose lanes never run at once), the
     * adds commute with those of the previous call: its barrier may wait. */
    bool defer = a->u.tile.storage == TJ_STORAGE_SHARED &&
                 (is_atomic || !tji_lanes_run_concurrently(k));
    if (!defer)
        tji_flush_barrier(k);
    tji_tile_promote(k, a);
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    int site = k->opts.debug ? tji_kernel_add_site(k, "tile_scatter_add index") : -1;
    LLVMValueRef ok = has_value->ll, coords[TJI_MAX_DIMS];
    for (int d = 0; d < nidx; d++) {
        coords[d] = LLVMBuildIntCast2(b, idx[d]->ll, tji_i32(c),
                                      tji_dtype_is_signed(idx[d]->type->dtype), "");
        LLVMValueRef ext = tji_const_i32(c, a->u.tile.shape[d]);
        LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, coords[d], ext, "");
        if (site >= 0)
            tji_emit_report(k, LLVMBuildAnd(b, has_value->ll, LLVMBuildNot(b, in, ""), ""), site,
                            coords[d], tji_const_i32(c, 0), ext, d);
        ok = LLVMBuildAnd(b, ok, in, "");
    }
    bool atomic_rmw = is_atomic && tji_lanes_run_concurrently(k);
    if (atomic_rmw && a->type->kind == TJ_TYPE_SCALAR && adds(a->type->dtype) &&
        tji_dtype_is_int(a->type->dtype)) {
        add_unbranched(k, a, coords, nidx, ok, value->ll);
    } else {
        tji_cond cond;
        tji_emit_cond_begin(k, ok, &cond);
        accumulate(k, a->type, tji_tile_elem_ptr(k, a, coords), value->ll, atomic_rmw);
        tji_emit_cond_end(k, &cond);
    }
    if (defer) {
        tji_defer_barrier(k);
        k->shared_adds++;
    } else {
        tji_emit_barrier(k);
    }
    return true;
}
