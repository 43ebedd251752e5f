/*
 * builtins/memory.c: tiles to and from arrays and constants (SPEC 4, helpers):
 * tile_zeros, tile_ones, tile_arange, tile_load, tile_store, tile_reshape, tile_assign,
 * tile_extract, tile_atomic_add.
 *
 * All are cooperative. Each lane handles the elements it owns in the register layout
 * (e = slot * B + lane), so loads and stores of consecutive elements by consecutive lanes
 * coalesce on the GPU. Array accesses outside the array, on either side, load zero and
 * drop stores (SPEC decision). Writes into shared memory are fenced by a barrier before
 * (other lanes may still read the old contents) and after (later readers see them).
 * tile_extract of a register tile goes through the kernel's shared scratch; in CPU width-1
 * mode the single lane owns every element and nothing is shared.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tilejit.h"
#include "builtins.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static tj_val *
finish(tj_kernel *k, tj_val *t)
{
    if (t && t->u.tile.storage == TJ_STORAGE_SHARED)
        tji_emit_barrier(k);
    if (t)
        tji_tile_mark(k, t);
    return t;
}

static bool
check_elem_type(tj_kernel *k, const char *fn, const tj_type *elem, bool numeric)
{
    if (!tji_check_type_ctx(k, fn, "dtype", elem))
        return false;
    bool ok = elem && elem->kind != TJ_TYPE_VOID &&
              (!numeric || tji_type_is_numeric(elem));
    if (!ok)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'dtype': %s is not %s", fn,
                        elem ? elem->name : "(null)",
                        numeric ? "a numeric type" : "an element type");
    return true;
}

static bool
check_storage(tj_kernel *k, const char *fn, tj_storage s)
{
    if (s != TJ_STORAGE_REGISTER && s != TJ_STORAGE_SHARED)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'storage': %d is not a storage", fn,
                        (int)s);
    return true;
}

typedef struct fill {
    const tj_val *t;
    LLVMValueRef value;        /* a constant, or NULL for arange */
    double start, step;
} fill;

static void
fill_elem(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const fill *f = ud;
    LLVMValueRef v = f->value;
    if (!v) { /* arange: start + e * step, computed in the element type */
        const tj_type *t = f->t->type;
        LLVMBuilderRef b = k->llb;
        if (tji_dtype_is_float(t->dtype)) {
            LLVMValueRef x = LLVMBuildUIToFP(b, e, t->llreg, "");
            v = LLVMBuildFAdd(b, LLVMBuildFMul(b, x, LLVMConstReal(t->llreg, f->step), ""),
                              LLVMConstReal(t->llreg, f->start), "");
        } else {
            LLVMValueRef x = LLVMBuildIntCast2(b, e, t->llreg, 0, "");
            v = LLVMBuildAdd(
                b, LLVMBuildMul(b, x, LLVMConstInt(t->llreg, (uint64_t)(int64_t)f->step, 1), ""),
                LLVMConstInt(t->llreg, (uint64_t)(int64_t)f->start, 1), "");
        }
    }
    tji_tile_set(k, f->t, slot, e, v);
}

/* In a partial CPU block, the shared tile's elements of the lanes that do not run: lane 0
 * clears the whole (dense, new) tile for zeros, one memset, and fills the other values
 * element by element (tji_foreach_unowned, which says why not on the GPU). */
static void
fill_unowned(tj_kernel *k, const fill *f)
{
    const tj_val *t = f->t;
    if (!f->value || !LLVMIsNull(f->value)) {
        tji_foreach_unowned(k, t->u.tile.size, fill_elem, (void *)f);
        return;
    }
    tji_cond cond;
    if (!tji_partial_lane0_begin(k, &cond))
        return;
    tj_context *c = k->ctx;
    LLVMBuildMemSet(k->llb, t->u.tile.base, LLVMConstInt(LLVMInt8TypeInContext(c->llctx), 0, 0),
                    tji_const_i64(c, t->u.tile.size * (int64_t)t->type->size),
                    (unsigned)t->type->size);
    tji_emit_cond_end(k, &cond);
}

static tj_val *
filled(tj_kernel *k, const char *fn, const tj_type *elem, int rank, const int *shape,
       tj_storage storage, fill *f)
{
    if (!tji_check_shape(k, fn, "shape", rank, shape) || !check_storage(k, fn, storage))
        return NULL;
    if (storage == TJ_STORAGE_SHARED)
        tji_shared_write_fence(k);
    tj_val *t = tji_tile_new(k, elem, rank, shape, storage);
    if (!t)
        return NULL;
    f->t = t;
    /* A shared tile's fill is made under a test, true for now: a tile_assign that writes
     * the whole tile before any call could read it makes it false (drop_fill), and LLVM
     * drops the fill (the bench's copy zeroes its shared tile, then assigns all of it). */
    LLVMValueRef needed = NULL;
    tji_cond guard;
    if (storage == TJ_STORAGE_SHARED) {
        needed = LLVMBuildFreeze(k->llb, LLVMConstInt(tji_i1(k->ctx), 1, 0), "fill.needed");
        tji_emit_cond_begin(k, needed, &guard);
    }
    tji_foreach_owned(k, t->u.tile.size, fill_elem, f);
    if (needed) /* the elements of lanes that do not run too: zeros are zeros everywhere */
        fill_unowned(k, f);
    if (needed) {
        tji_emit_cond_end(k, &guard);
        /* after the fill's own blocks, so that the code is laid out as without the test */
        LLVMMoveBasicBlockAfter(guard.done_bb, LLVMGetLastBasicBlock(k->llfn));
        k->fill_guard = needed;
        k->fill_tile = t;
    }
    t = finish(k, t);
    if (needed) { /* finish's barrier, the last instruction */
        LLVMValueRef last = LLVMGetLastInstruction(LLVMGetInsertBlock(k->llb));
        k->fill_barrier = last && LLVMIsACallInst(last) ? last : NULL;
    }
    return t;
}

bool
tji_fill_survives(const char *fn)
{
    static const tji_builtin keep[] = {TJI_B_TILE_VIEW, TJI_B_TILE_LOAD, TJI_B_TILE_ASSIGN,
                                       TJI_B_TILE_ZEROS, TJI_B_TILE_ONES, TJI_B_TILE_ARANGE};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        if (strcmp(fn, tji_builtin_name(keep[i])) == 0)
            return true;
    return false;
}

/* Whether 'a' and 'b' are the same address: 'a' may add zero offsets to 'b' (a view of a
 * whole tile). */
static bool
same_address(LLVMValueRef a, LLVMValueRef b)
{
    while (a != b && LLVMIsAGetElementPtrInst(a)) {
        for (int i = 1, n = LLVMGetNumOperands(a); i < n; i++) {
            LLVMValueRef idx = LLVMGetOperand(a, (unsigned)i);
            if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) != 0)
                return false;
        }
        a = LLVMGetOperand(a, 0);
    }
    return a == b;
}

/* tile_assign of 'src' into 'dst' at 'offset': when it writes every element of the shared
 * tile whose fill is still droppable (dst is that tile or a view of all of it, at offset 0,
 * src as large and not in shared memory, which could be that tile), the fill's test
 * becomes false and the function returns true. Either way the fill is no longer droppable
 * after this call.
 * Then the barrier after the fill and the assign's own barrier before it have nothing left
 * to order: no lane wrote the tile, and no lane can be reading it, as the tile is new
 * (tji_shared_alloc never reuses memory) and only calls that touch no shared memory but
 * their own tiles, each fenced by its own barriers, came between (tji_fill_survives). In a
 * loop or a function the barrier made with the tile (tji_shared_write_fence) still keeps the
 * writes after the reads of an earlier pass. So the fill's barrier goes too, and the copy
 * of the bench runs in one region per lane from the load to the shared tile. */
static bool
drop_fill(tj_kernel *k, const tj_val *dst, const tj_val *src, tj_val *const *offset)
{
    const tj_val *f = k->fill_tile;
    LLVMValueRef guard = k->fill_guard, barrier = k->fill_barrier;
    k->fill_guard = NULL;
    k->fill_barrier = NULL;
    if (!guard || !f || dst->u.tile.storage != TJ_STORAGE_SHARED ||
        src->u.tile.storage == TJ_STORAGE_SHARED || src->u.tile.replicated ||
        dst->type != f->type || dst->u.tile.rank != f->u.tile.rank ||
        src->u.tile.rank != f->u.tile.rank || !same_address(dst->u.tile.base, f->u.tile.base))
        return false;
    for (int d = 0; d < f->u.tile.rank; d++) {
        LLVMValueRef o = offset ? offset[d]->ll : NULL;
        if (dst->u.tile.shape[d] != f->u.tile.shape[d] ||
            src->u.tile.shape[d] != f->u.tile.shape[d] ||
            dst->u.tile.strides[d] != f->u.tile.strides[d] ||
            (o && (!LLVMIsAConstantInt(o) || LLVMConstIntGetZExtValue(o) != 0)))
            return false;
    }
    LLVMReplaceAllUsesWith(guard, LLVMConstInt(tji_i1(k->ctx), 0, 0));
    LLVMInstructionEraseFromParent(guard);
    if (barrier)
        LLVMInstructionEraseFromParent(barrier);
    return true;
}

static LLVMValueRef
one_of(const tj_type *t)
{
    LLVMTypeRef el = LLVMGetElementType(t->llreg);
    if (t->kind == TJ_TYPE_SCALAR)
        el = t->llreg;
    LLVMValueRef one =
        tji_dtype_is_float(t->dtype) ? LLVMConstReal(el, 1.0) : LLVMConstInt(el, 1, 0);
    if (t->kind == TJ_TYPE_SCALAR)
        return one;
    LLVMValueRef comps[16];
    for (int i = 0; i < t->ncomp; i++)
        comps[i] = one;
    return LLVMConstVector(comps, (unsigned)t->ncomp);
}

/* ---- zeros, ones, arange ------------------------------------------------------------------ */

tj_val *
tj_tile_zeros(tj_kernel *k, const tj_type *elem, int rank, const int *shape, tj_storage storage)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_ZEROS);
    if (!tji_enter_pure(k, fn) || !check_elem_type(k, fn, elem, false))
        return NULL;
    fill f = {.value = LLVMConstNull(elem->llreg)};
    return filled(k, fn, elem, rank, shape, storage, &f);
}

tj_val *
tj_tile_ones(tj_kernel *k, const tj_type *elem, int rank, const int *shape, tj_storage storage)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_ONES);
    if (!tji_enter_pure(k, fn) || !check_elem_type(k, fn, elem, true))
        return NULL;
    fill f = {.value = one_of(elem)};
    return filled(k, fn, elem, rank, shape, storage, &f);
}

tj_val *
tj_tile_arange(tj_kernel *k, double start, double stop, double step, const tj_type *elem,
               tj_storage storage)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_ARANGE);
    if (!tji_enter_pure(k, fn) || !tji_check_type_ctx(k, fn, "dtype", elem))
        return NULL;
    if (!elem || !tji_type_is_scalar(elem) || elem->dtype == TJ_DTYPE_BOOL) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'dtype': %s is not a numeric scalar type", fn,
                 elem ? elem->name : "(null)");
        return NULL;
    }
    if (!isfinite(start) || !isfinite(stop)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': %g is not finite", fn,
                 isfinite(start) ? "stop" : "start", isfinite(start) ? stop : start);
        return NULL;
    }
    if (step == 0 || !isfinite(step)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'step': %g is not a finite non-zero step", fn,
                 step);
        return NULL;
    }
    bool integral = start == floor(start) && stop == floor(stop) && step == floor(step);
    if (!tji_dtype_is_float(elem->dtype) && !integral) {
        tji_fail(k, TJ_ERR_INVALID, "%s: start, stop and step must be integers for %s", fn,
                 elem->name);
        return NULL;
    }
    double len = trunc((stop - start) / step); /* truncated, unlike NumPy (SPEC) */
    if (len < 1 || len > (double)TJI_MAX_TILE_ELEMS) {
        tji_fail(k, TJ_ERR_INVALID, "%s: arange(%g, %g, %g) has %g elements", fn, start, stop,
                 step, len < 0 ? 0 : len);
        return NULL;
    }
    int shape[1] = {(int)len};
    fill f = {.start = start, .step = step};
    return filled(k, fn, elem, 1, shape, storage, &f);
}

/* ---- load, store, atomic add ---------------------------------------------------------------- */

typedef struct access {
    const tj_val *t;          /* the tile (layout and values) */
    const tj_val *out;        /* load: the result; atomic: the old values */
    const tj_val *arr;
    LLVMValueRef offset[TJI_MAX_DIMS]; /* i64 */
    LLVMValueRef estride[TJI_MAX_DIMS]; /* i64, in elements */
    int kind;                 /* 0 load, 1 store, 2 atomic add */
    bool checked;             /* check each element against the array's bounds */
} access;

/* Address of the array element at tile coordinates 'coords' (i32), and (when checked)
 * whether it is inside the array. Element strides in units of the element let LLVM version
 * a loop on a unit stride and vectorise it. */
static LLVMValueRef
array_elem_at(tj_kernel *k, const access *a, const LLVMValueRef *coords, LLVMValueRef *inside)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tji_array_val *arr = &a->arr->u.arr;
    LLVMValueRef off = tji_const_i64(c, 0);
    *inside = NULL;
    for (int d = 0; d < arr->ndim; d++) {
        LLVMValueRef i = tji_emit_add(b, LLVMBuildZExt(b, coords[d], tji_i64(c), ""),
                                      a->offset[d], false);
        if (a->checked) {
            LLVMValueRef ext = LLVMBuildZExt(b, arr->shape[d], tji_i64(c), "");
            LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, i, ext, "");
            *inside = *inside ? LLVMBuildAnd(b, *inside, in, "") : in;
        }
        bool unit = !a->checked && d == arr->ndim - 1; /* the fast path knows it is 1 */
        off = tji_emit_add(b, off, unit ? i : tji_emit_mul(b, i, a->estride[d], false), false);
    }
    return LLVMBuildGEP2(b, a->arr->type->llmem, arr->data, &off, 1, "");
}

/* The access of tile element e (in 'slot' of its lane) at coordinates 'coords', or with
 * 'coords' NULL those that tji_tile_coords gives. */
static void
access_at(tj_kernel *k, const access *a, LLVMValueRef slot, LLVMValueRef e,
          const LLVMValueRef *coords)
{
    const tj_type *t = a->arr->type;
    LLVMValueRef own[TJI_MAX_DIMS];
    if (!coords) {
        tji_tile_coords(k, &a->t->u.tile, e, own);
        coords = own;
    }
    LLVMValueRef inside;
    LLVMValueRef p = array_elem_at(k, a, coords, &inside);
    LLVMValueRef v = a->kind != 0 ? tji_tile_get(k, a->t, slot, e) : NULL;
    tji_cond cond;
    if (inside)
        tji_emit_cond_begin(k, inside, &cond);
    LLVMValueRef r = NULL;
    if (a->kind == 0)
        r = tji_emit_load(k, t, p);
    else if (a->kind == 1)
        tji_emit_store(k, t, v, p);
    else
        r = tji_emit_atomic(k, TJI_ATOM_ADD, t, p, v);
    if (inside && r)
        r = tji_emit_cond_value(k, &cond, r);
    else if (inside)
        tji_emit_cond_end(k, &cond);
    if (r)
        tji_tile_set(k, a->out, slot, e, r);
}

static void
access_elem(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    access_at(k, ud, slot, e, NULL);
}

/* Whether the unchecked path goes row by row (access_rows): a width-1 tile (slot e holds
 * element e) of rank 2 or more, in registers, with more than one row. */
static bool
by_rows(const tj_kernel *k, const tji_tile *t)
{
    return k->block_dim == 1 && t->rank >= 2 && t->storage == TJ_STORAGE_REGISTER &&
           !t->replicated && t->size > t->shape[t->rank - 1];
}

/* The unchecked path of a by_rows tile: a loop over its rows (its dimensions but the last),
 * and in it one along the last dimension, whose addresses follow one another in the array
 * as in the registers. The loop over the elements took each one's row and column from a
 * shift and a mask (or a division), and LLVM's vectoriser left a (16, 16) tile's stores
 * into a wider array one element at a time. */
static void
access_rows(tj_kernel *k, const access *a)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tji_tile *t = &a->t->u.tile;
    int n = t->shape[t->rank - 1];
    tji_count rows, cols;
    LLVMValueRef r = tji_emit_count_begin(k, &rows, tji_const_i32(c, 0), "row", "r", "rows");
    tji_emit_count_test(k, &rows, LLVMBuildICmp(b, LLVMIntULT, r,
                                                tji_const_i32(c, t->size / n), ""));
    LLVMValueRef coords[TJI_MAX_DIMS], rest = r;
    for (int d = t->rank - 2; d > 0; d--) {
        LLVMValueRef ext = tji_const_i32(c, t->shape[d]);
        coords[d] = LLVMBuildURem(b, rest, ext, "");
        rest = LLVMBuildUDiv(b, rest, ext, "");
    }
    coords[0] = rest;
    LLVMValueRef first = tji_emit_mul(b, r, tji_const_i32(c, n), true);
    LLVMValueRef j = tji_emit_count_begin(k, &cols, tji_const_i32(c, 0), "col", "j", "cols");
    tji_emit_count_test(k, &cols, LLVMBuildICmp(b, LLVMIntULT, j, tji_const_i32(c, n), ""));
    coords[t->rank - 1] = j;
    LLVMValueRef e = tji_emit_add(b, first, j, true);
    access_at(k, a, e, e, coords);
    tji_emit_count_end(k, &cols, j, 1, true);
    tji_emit_count_end(k, &rows, r, 1, true);
}

static void foreach_stored(tj_kernel *k, const tj_val *t, tji_elem_fn fn, void *ud);

/* Whether the whole tile lies inside the array and the array's last dimension is dense (the
 * same in every lane): then every element's address is a constant distance from the
 * lane's first, and needs no check. Named (TJI_WHOLE_FLAG) for lane_loops.c, which gives a
 * cooperative CPU phase a copy for each answer when the test is uniform. */
static LLVMValueRef
tile_inside(tj_kernel *k, const access *a)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tji_array_val *arr = &a->arr->u.arr;
    LLVMValueRef in = LLVMBuildICmp(b, LLVMIntEQ, a->estride[arr->ndim - 1],
                                    tji_const_i64(c, 1), "");
    for (int d = 0; d < arr->ndim; d++) {
        LLVMValueRef ext = LLVMBuildZExt(b, arr->shape[d], tji_i64(c), "");
        LLVMValueRef end = LLVMBuildAdd(b, a->offset[d],
                                        tji_const_i64(c, a->t->u.tile.shape[d]), "");
        LLVMValueRef lo = LLVMBuildICmp(b, LLVMIntSGE, a->offset[d], tji_const_i64(c, 0), "");
        LLVMValueRef hi = LLVMBuildICmp(b, LLVMIntSLE, end, ext, "");
        in = LLVMBuildAnd(b, in, LLVMBuildAnd(b, lo, hi, ""), "");
    }
    if (LLVMIsAInstruction(in))
        LLVMSetValueName2(in, TJI_WHOLE_FLAG, strlen(TJI_WHOLE_FLAG));
    return in;
}

/* Whether a lane has enough elements for the unchecked path to pay: more than two. For each
 * element it saves a compare and an and per dimension and the multiply by the unit stride;
 * the test that picks it costs two compares and two ands per dimension and the stride's
 * compare. With one or two elements a lane both paths cost about the same to run, and the
 * two paths twice the code to compile (a small tile over many lanes, as in the seeds). */
static bool
worth_a_fast_path(const tj_kernel *k, const tji_tile *t)
{
    return (t->size + k->block_dim - 1) / k->block_dim > 2;
}

/* Runs the access over the lane's elements: unchecked when the whole tile is inside a dense
 * array (the usual case), element by element otherwise. */
static void
access_all(tj_kernel *k, access *a, void (*each)(tj_kernel *, const tj_val *, tji_elem_fn,
                                                   void *))
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (a->t->u.tile.replicated || !worth_a_fast_path(k, &a->t->u.tile)) {
        a->checked = true;
        each(k, a->t, access_elem, a);
        return;
    }
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.inside");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.edge");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.done");
    LLVMBuildCondBr(b, tile_inside(k, a), fast, slow);
    LLVMPositionBuilderAtEnd(b, fast);
    a->checked = false;
    if (by_rows(k, &a->t->u.tile))
        access_rows(k, a);
    else
        each(k, a->t, access_elem, a);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, slow);
    a->checked = true;
    each(k, a->t, access_elem, a);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
}

static bool
setup_access(tj_kernel *k, const char *fn, access *a, tj_val *arr, int rank,
             tj_val *const *offset)
{
    char d[64];
    if (!tji_use(k, arr, fn, "a"))
        return false;
    if (arr->kind != TJ_VAL_ARRAY)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'a': %s is not an array", fn,
                        tji_val_describe(arr, d, sizeof d));
    if (arr->u.arr.ndim != rank)
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: the array has %d dimension%s and the tile %d; they must match", fn,
                        arr->u.arr.ndim, arr->u.arr.ndim == 1 ? "" : "s", rank);
    if (!tji_check_offsets(k, fn, "offset", offset, rank))
        return false;
    a->arr = arr;
    LLVMValueRef esize = tji_const_i64(k->ctx, (int64_t)arr->type->size);
    for (int i = 0; i < rank; i++) {
        a->offset[i] = offset ? LLVMBuildIntCast2(k->llb, offset[i]->ll, tji_i64(k->ctx),
                                                  tji_dtype_is_signed(offset[i]->type->dtype), "")
                              : tji_const_i64(k->ctx, 0);
        a->estride[i] = LLVMBuildExactSDiv(k->llb, arr->u.arr.strides[i], esize, "");
    }
    return true;
}

/* Whether tile_load into 't' may read in place (tji_borrow): a register tile on the CPU
 * with one lane, whose elements have the same layout in registers and in arrays. With one
 * lane slot e holds element e of the row-major tile, so a tile whose elements lie in the
 * array in that order (rows_dense) can be read where it is, whatever its rank. */
static bool
borrowable(const tj_kernel *k, const tj_val *t)
{
    const tji_tile *tt = &t->u.tile;
    return k->opts.target == TJ_TARGET_CPU && k->block_dim == 1 &&
           tt->storage == TJ_STORAGE_REGISTER && !tt->replicated &&
           t->type->llreg == t->type->llmem;
}

/* Whether the tile's elements follow one another in the array in row-major order, given a
 * unit stride in its last dimension (which tile_inside tests): every other dimension of more
 * than one element steps by the elements of the dimensions after it. Rows of (1, N) tiles
 * always are, (M, N) tiles when the array's rows are N long. NULL: always (rank 1). */
static LLVMValueRef
rows_dense(tj_kernel *k, const access *a)
{
    const tji_tile *t = &a->t->u.tile;
    LLVMValueRef all = NULL;
    int64_t inner = t->shape[t->rank - 1];
    for (int d = t->rank - 2; d >= 0; d--) {
        if (t->shape[d] > 1) {
            LLVMValueRef eq = LLVMBuildICmp(k->llb, LLVMIntEQ, a->estride[d],
                                            tji_const_i64(k->ctx, inner), "");
            all = all ? LLVMBuildAnd(k->llb, all, eq, "") : eq;
        }
        inner *= t->shape[d];
    }
    return all;
}

/* The address of the tile's first element in the array, its last dimension's stride being
 * 1 (as where tile_inside holds). */
static LLVMValueRef
first_elem(tj_kernel *k, const access *a, const char *name)
{
    LLVMBuilderRef b = k->llb;
    int rank = a->t->u.tile.rank;
    LLVMValueRef at = a->offset[rank - 1];
    for (int d = 0; d < rank - 1; d++)
        at = tji_emit_add(b, at, tji_emit_mul(b, a->offset[d], a->estride[d], false), false);
    return LLVMBuildGEP2(b, a->arr->type->llmem, a->arr->u.arr.data, &at, 1, name);
}

/* The bytes from the first element of 'a''s tile to the end of its last: its size for a
 * dense tile, else (rank 2, rows 'rstride' elements apart in the array) the rows but the
 * last and one row. */
static LLVMValueRef
tile_span(tj_kernel *k, const access *a, LLVMValueRef rstride)
{
    tj_context *c = k->ctx;
    const tji_tile *t = &a->t->u.tile;
    int64_t esize = (int64_t)a->t->type->size, cols = t->shape[t->rank - 1];
    if (!rstride)
        return tji_const_i64(c, t->size * esize);
    LLVMValueRef rows = tji_emit_mul(k->llb, rstride, tji_const_i64(c, t->size / cols - 1), false);
    return LLVMBuildMul(k->llb, tji_emit_add(k->llb, rows, tji_const_i64(c, cols), false),
                        tji_const_i64(c, esize), "tile.span");
}

/* access_all for a borrowed load: the inside path copies nothing (yet), and the tile's
 * readers read 'ptr' (see tji_borrow). */
static void
load_borrowed(tj_kernel *k, access *a, tj_val *t)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    tji_borrow *bw = tji_arena_alloc(&k->arena, sizeof *bw);
    if (!bw) {
        access_all(k, a, foreach_stored);
        return;
    }
    LLVMValueRef src = first_elem(k, a, "");
    const tji_tile *tt = &t->u.tile;
    int64_t esize = (int64_t)t->type->size, cols = tt->shape[tt->rank - 1];
    /* rank 2, rows of a vector or more: read in place with the rows apart too, for the
     * loops over rows of fused element-wise builtins (none in debug builds) */
    bool rows = tt->rank == 2 && tji_row_loop_cols(tt) != 0 && !k->opts.debug &&
                !k->ctx->cpu_no_fusion;
    LLVMValueRef span = tile_span(k, a, rows ? a->estride[0] : NULL);
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.inside");
    LLVMBasicBlockRef apart = NULL, rows_bb = NULL, rows_done = NULL;
    if (rows) {
        apart = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.apart");
        rows_bb = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.rows");
        rows_done = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.rows.done");
    }
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.edge");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "tile.done");
    LLVMValueRef inside = tile_inside(k, a), in_place = inside, dense = rows_dense(k, a);
    if (dense)
        in_place = LLVMBuildAnd(b, in_place, dense, "");
    LLVMBuildCondBr(b, in_place, fast, rows ? apart : slow);
    LLVMPositionBuilderAtEnd(b, fast);
    LLVMValueRef fill_at = LLVMBuildBr(b, done), rows_at = NULL;
    if (rows) {
        LLVMPositionBuilderAtEnd(b, apart);
        LLVMBuildCondBr(b, inside, rows_bb, slow);
        LLVMPositionBuilderAtEnd(b, rows_bb);
        rows_at = LLVMBuildBr(b, rows_done); /* the row copies go before it when needed */
        LLVMPositionBuilderAtEnd(b, rows_done);
        LLVMBuildBr(b, done);
    }
    LLVMPositionBuilderAtEnd(b, slow);
    if (dense) { /* rows apart in the array, or at its edge */
        access_all(k, a, foreach_stored);
    } else {
        a->checked = true;
        foreach_stored(k, t, access_elem, a);
    }
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMValueRef ptr = LLVMBuildPhi(b, tji_ptr(c), "tile.at");
    LLVMValueRef vals[] = {src, t->u.tile.regs, src};
    LLVMBasicBlockRef bbs[] = {fast, slow_end, rows_done};
    LLVMAddIncoming(ptr, vals, bbs, rows ? 3 : 2);
    *bw = (tji_borrow){.ptr = ptr, .epoch = k->mem_epoch, .fill_at = fill_at, .src = src,
                       .arr_data = a->arr->u.arr.data, .span = span,
                       .bytes = (uint64_t)(tt->size * esize), .esize = (unsigned)esize};
    if (rows) {
        LLVMValueRef dense_rs = tji_const_i64(c, cols);
        bw->rstride = LLVMBuildPhi(b, tji_i64(c), "tile.rstride");
        LLVMValueRef rs[] = {dense_rs, dense_rs, a->estride[0]};
        LLVMAddIncoming(bw->rstride, rs, bbs, 3);
        bw->flat = LLVMBuildPhi(b, tji_ptr(c), "tile.flat");
        LLVMValueRef fl[] = {src, t->u.tile.regs, t->u.tile.regs};
        LLVMAddIncoming(bw->flat, fl, bbs, 3);
        bw->arr_rstride = a->estride[0];
        bw->rows_at = rows_at;
        bw->rows = tt->shape[0];
        bw->cols = (int)cols;
    }
    t->u.tile.borrow = bw;
}

tj_val *
tj_tile_load(tj_kernel *k, tj_val *arr, int rank, const int *shape, tj_val *const *offset,
             tj_storage storage)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_LOAD);
    access a = {.kind = 0};
    if (!tji_enter_pure(k, fn) || !tji_check_shape(k, fn, "shape", rank, shape) ||
        !check_storage(k, fn, storage) || !setup_access(k, fn, &a, arr, rank, offset))
        return NULL;
    if (storage == TJ_STORAGE_SHARED)
        tji_shared_write_fence(k);
    tj_val *t = tji_tile_new(k, arr->type, rank, shape, storage);
    if (!t)
        return NULL;
    a.t = a.out = t;
    if (borrowable(k, t)) {
        load_borrowed(k, &a, t);
    } else {
        access_all(k, &a, foreach_stored);
        if (storage == TJ_STORAGE_SHARED) { /* the elements of lanes that do not run too */
            a.checked = true;
            tji_foreach_unowned(k, t->u.tile.size, access_elem, &a);
        }
    }
    return finish(k, t);
}

static bool
check_same_elem(tj_kernel *k, const char *fn, const tj_val *arr, const tj_val *t)
{
    if (arr->type != t->type)
        return tji_fail(k, TJ_ERR_INVALID, "%s: the array holds %s and the tile %s", fn,
                        arr->type->name, t->type->name);
    return true;
}

/* Replicated tiles (reduction results) are handled by lane 0 alone. */
static void
foreach_stored(tj_kernel *k, const tj_val *t, tji_elem_fn fn, void *ud)
{
    if (!t->u.tile.replicated) {
        tji_foreach_owned(k, t->u.tile.size, fn, ud);
        return;
    }
    tji_cond cond;
    LLVMValueRef zero = tji_const_i32(k->ctx, 0);
    tji_emit_cond_begin(k, LLVMBuildICmp(k->llb, LLVMIntEQ, tji_lane(k), zero, ""), &cond);
    fn(k, zero, zero, ud);
    tji_emit_cond_end(k, &cond);
}

/* ---- stores in the loop that computes the tile ------------------------------------------ */

/* tile_store of the result of element-wise builtins that width-1 CPU code runs in one loop
 * (tji_foreach_fused, builtins/layout.c): the loop stores each element into the array as
 * it computes it, when the array's bytes allow it, instead of leaving the tile in its
 * registers for tile_store's copy after the loop. So y = 2x + y over a 1024-float row
 * reads x and y and writes y once, as C's loop does (a tile LLVM writes out in one block
 * gets the same from jit/direct_stores.c).
 *
 * The store goes in the step, after the element is computed; the test that allows it is
 * made before the loop, from values made there (only pure arithmetic was emitted since the
 * loop, and it moved in front: the array and the offsets were made before it). The tile is
 * whole inside the array, its elements consecutive there (rank 1, or every dimension but
 * the last of one element) or, for a tile of rank 2 whose loop goes over its rows, its rows
 * along the array's; and each borrowed tile the loop reads (array memory read in place) is
 * disjoint from the stored bytes or (fused_reads_allow) is the stored tile itself or, for a
 * flat tile, with elements of the same size, starts at or after the stored bytes: step i
 * reads element i of it, at or after element i of the stored bytes, which steps 0 to i - 1
 * wrote below. Else the loop stores nothing, and tile_store's usual path runs after it. A
 * tile read in place from the stored bytes themselves (y in y = f(x, y)) is stored through
 * its own pointer, the one its elements are read from, so that LLVM sees the load and the
 * store of element i at one address and vectorises the loop; the test of that is
 * invariant, and LLVM's unswitching gives each way a loop of its own.
 * Flat tiles of up to FUSED_STORE_MIN_BYTES keep the copy: LLVM unrolls their loops into
 * one block whose stores jit/direct_stores.c retargets, which ran faster than the loop with
 * its stores (y = 2x + y over rows of 64 and 256 floats: 0.75 and 0.82-0.87 of C against
 * 0.80 and 1.16; 512 floats: 0.93-1.00 against 0.85-0.87, 1024: 0.98-1.01 against
 * 0.83-0.86). */
enum { FUSED_STORE_MIN_BYTES = 1024 };

typedef struct fused_store {
    const tj_val *t;
    LLVMValueRef ok, dst;
    LLVMValueRef rs;                 /* i64: the array's row stride; NULL: a flat tile */
    LLVMValueRef same, own, own_rs;  /* same: store through 'own', rows 'own_rs' apart */
    LLVMValueRef noalias, noalias_own; /* rows: the stores' scoped no-alias lists, or NULL */
    LLVMValueRef set, keep;          /* the step's store into the tile's registers, now made */
} fused_store;                       /* only under 'keep' (NULL: as it is) */

/* The element of the step as an index from the tile's first element: 'e' for a flat
 * tile, row * rs + col for one of rows (the loop's, k->owned). */
static LLVMValueRef
step_index(tj_kernel *k, LLVMValueRef e, LLVMValueRef rs)
{
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef i64 = tji_i64(k->ctx);
    if (!rs)
        return LLVMBuildZExt(b, e, i64, "");
    LLVMValueRef r = LLVMBuildZExt(b, k->owned.row, i64, "");
    return LLVMBuildAdd(b, LLVMBuildMul(b, r, rs, ""), LLVMBuildZExt(b, k->owned.col, i64, ""),
                        "");
}

/* Stores 'v' at the step's element of the tile at 'base', rows 'rs' apart (NULL: flat),
 * with the no-alias list 'noalias' (or none). */
static void
store_step(tj_kernel *k, const fused_store *f, LLVMValueRef v, LLVMValueRef e, LLVMValueRef base,
           LLVMValueRef rs, LLVMValueRef noalias)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef i = step_index(k, e, rs);
    LLVMValueRef st = LLVMBuildStore(b, v, LLVMBuildGEP2(b, f->t->type->llmem, base, &i, 1, ""));
    if (noalias)
        LLVMSetMetadata(st, LLVMGetMDKindIDInContext(k->ctx->llctx, "noalias", 7), noalias);
}

static void
fused_store_elem(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const fused_store *f = ud;
    LLVMBuilderRef b = k->llb;
    tji_cond cond;
    LLVMValueRef v = f->set ? LLVMGetOperand(f->set, 0) : NULL;
    if (f->set) { /* the registers: only where 'keep' says a reader needs them */
        LLVMValueRef at = LLVMGetOperand(f->set, 1);
        unsigned align = LLVMGetAlignment(f->set);
        LLVMInstructionEraseFromParent(f->set);
        tji_emit_cond_begin(k, f->keep, &cond);
        LLVMSetAlignment(LLVMBuildStore(b, v, at), align);
        tji_emit_cond_end(k, &cond);
    }
    tji_emit_cond_begin(k, f->ok, &cond);
    if (!v)
        v = tji_tile_get(k, f->t, slot, e);
    if (f->same) {
        LLVMContextRef c = k->ctx->llctx;
        LLVMBasicBlockRef via_own = LLVMAppendBasicBlockInContext(c, k->llfn, "fused.own");
        LLVMBasicBlockRef via_dst = LLVMAppendBasicBlockInContext(c, k->llfn, "fused.dst");
        LLVMBasicBlockRef stored = LLVMAppendBasicBlockInContext(c, k->llfn, "fused.stored");
        LLVMBuildCondBr(b, f->same, via_own, via_dst);
        LLVMPositionBuilderAtEnd(b, via_own);
        store_step(k, f, v, e, f->own, f->own_rs, f->noalias_own);
        LLVMBuildBr(b, stored);
        LLVMPositionBuilderAtEnd(b, via_dst);
        store_step(k, f, v, e, f->dst, f->rs, f->noalias);
        LLVMBuildBr(b, stored);
        LLVMPositionBuilderAtEnd(b, stored);
    } else {
        store_step(k, f, v, e, f->dst, f->rs, f->noalias);
    }
    tji_emit_cond_end(k, &cond);
}

/* Tells LLVM that the stores of 'f' (rows: the SLP vectoriser, which adds no run-time test
 * of its own, vectorises a row only so) do not touch what the loop reads in place, which
 * fused_reads_allow's test makes true: a scope per tile read, on its loads (recorded by
 * tji_tile_get), and the stores' no-alias lists, of every scope, or of every scope but
 * that of 'own' for the stores through it. */
static void
fused_scopes(tj_kernel *k, fused_store *f, int own)
{
    LLVMContextRef c = k->ctx->llctx;
    char name[64];
    snprintf(name, sizeof name, "tilejit fused %" PRIu64, ++k->ctx->next_id);
    LLVMMetadataRef dname = LLVMMDStringInContext2(c, name, strlen(name));
    LLVMMetadataRef domain = LLVMMDNodeInContext2(c, &dname, 1);
    LLVMMetadataRef scopes[TJI_NELEMS(k->fuse.reads)], others[TJI_NELEMS(k->fuse.reads)];
    int n = k->fuse.nreads, nothers = 0;
    for (int i = 0; i < n; i++) {
        char sname[80];
        snprintf(sname, sizeof sname, "%s read %d", name, i);
        LLVMMetadataRef ops[] = {LLVMMDStringInContext2(c, sname, strlen(sname)), domain};
        scopes[i] = LLVMMDNodeInContext2(c, ops, 2);
        if (i != own)
            others[nothers++] = scopes[i];
    }
    unsigned scope_kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    unsigned noalias_kind = LLVMGetMDKindIDInContext(c, "noalias", 7);
    for (int i = 0; i < k->fuse.nloads; i++) {
        int r = k->fuse.load_read[i];
        LLVMSetMetadata(k->fuse.loads[i], scope_kind,
                        LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, &scopes[r], 1)));
        /* and the loads of one tile with those of another: both only read (so nothing
         * changes with the claim); without it LLVM's loop vectoriser puts their tiles in one
         * alias set with the stored one and tests each row against it at run time */
        LLVMMetadataRef rest[TJI_NELEMS(k->fuse.reads)];
        int nrest = 0;
        for (int j = 0; j < n; j++)
            if (j != r)
                rest[nrest++] = scopes[j];
        if (nrest)
            LLVMSetMetadata(k->fuse.loads[i], noalias_kind,
                            LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, rest,
                                                                        (size_t)nrest)));
    }
    f->noalias = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, scopes, (size_t)n));
    if (own >= 0)
        f->noalias_own = LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, others,
                                                                     (size_t)nothers));
}

/* Whether the loop's reads allow the stores of 'f' in its steps (above), the stored bytes
 * [dst, dst + span). Sets f->own and f->same where a tile read in place has the stored
 * tile's array, shape and layout (stores go through its pointer when it is the stored
 * tile). Each other tile read in place must be disjoint from the stored bytes or, for a
 * flat tile, with elements of the same size, start at or after dst (then step i reads at
 * or after the stored element i; LLVM's loop vectoriser tests the overlap itself). For a
 * tile of rows, disjoint, or 'own' where it is the stored tile: so the stores may carry
 * scoped no-alias metadata (fused_scopes). */
static LLVMValueRef
fused_reads_allow(tj_kernel *k, fused_store *f, LLVMValueRef span, const tj_val *arr)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef i64 = tji_i64(c);
    const tji_tile *t = &f->t->u.tile;
    unsigned esize = (unsigned)f->t->type->size;
    int own = -1;
    for (int i = 0; i < k->fuse.nreads && own < 0; i++) {
        const tji_borrow *bw = k->fuse.reads[i];
        bool layout = f->rs ? bw->rstride && bw->rows * bw->cols == t->size &&
                                  bw->cols == t->shape[t->rank - 1]
                            : !bw->rstride && bw->bytes == (uint64_t)t->size * esize;
        if (layout && bw->arr_data == arr->u.arr.data && bw->esize == esize)
            own = i;
    }
    if (own >= 0) {
        const tji_borrow *bw = k->fuse.reads[own];
        f->own = bw->ptr;
        f->own_rs = bw->rstride;
        f->same = LLVMBuildICmp(b, LLVMIntEQ, bw->ptr, f->dst, "fused.same");
        if (f->rs)
            f->same = LLVMBuildAnd(b, f->same, LLVMBuildICmp(b, LLVMIntEQ, bw->rstride, f->rs,
                                                             ""), "fused.same.rows");
    }
    LLVMValueRef lo = LLVMBuildPtrToInt(b, f->dst, i64, "");
    LLVMValueRef hi = LLVMBuildAdd(b, lo, span, "");
    LLVMValueRef all = LLVMConstInt(tji_i1(c), 1, 0);
    for (int i = 0; i < k->fuse.nreads; i++) {
        const tji_borrow *bw = k->fuse.reads[i];
        LLVMValueRef s = LLVMBuildPtrToInt(b, bw->src, i64, "");
        LLVMValueRef s_end = LLVMBuildAdd(b, s, bw->span, "");
        LLVMValueRef ok = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntULE, s_end, lo, ""),
                                      LLVMBuildICmp(b, LLVMIntUGE, s, hi, ""), "");
        if (f->rs && i == own)
            ok = LLVMBuildOr(b, ok, f->same, "");
        else if (!f->rs && bw->esize == esize)
            ok = LLVMBuildOr(b, ok, LLVMBuildICmp(b, LLVMIntUGE, s, lo, ""), "");
        all = LLVMBuildAnd(b, all, ok, "");
    }
    if (f->rs)
        fused_scopes(k, f, own);
    return all;
}

/* Sets up the stores of tile_store(arr, t, offset) in the loop that computes 't' and
 * returns the test under which they run (tile_store's usual path runs where it fails), or
 * NULL where they cannot be (tile_store then runs as usual). On success 'a' is set up, its
 * values made before the loop; on a failure of setup_access, *failed. */
static LLVMValueRef
fused_store_setup(tj_kernel *k, const char *fn, access *a, tj_val *arr, tj_val *t,
                  tj_val *const *offset, bool *failed, LLVMValueRef *keep)
{
    *failed = false;
    *keep = NULL;
    const tji_tile *tt = &t->u.tile;
    /* flat: every dimension but the last of one element; rows: rank 2 in the loop's rows */
    bool rows = tt->rank == 2 && k->fuse.at.cols && k->fuse.at.cols == tt->shape[1];
    if (!rows && tt->size * (int64_t)t->type->size <= FUSED_STORE_MIN_BYTES)
        return NULL;
    for (int d = 0; d < tt->rank - 1 && !rows; d++)
        if (tt->shape[d] != 1)
            return NULL;
    if (!tji_fused_result(k, t) || k->fuse.more || !arr || arr->kind != TJ_VAL_ARRAY ||
        arr->type != t->type || t->type->llreg != t->type->llmem || arr->u.arr.ndim != tt->rank)
        return NULL;
    LLVMBuilderRef b = k->llb;
    LLVMBasicBlockRef after = LLVMGetInsertBlock(b);
    LLVMPositionBuilderBefore(b, k->fuse.enter);
    if (!setup_access(k, fn, a, arr, tt->rank, offset)) {
        *failed = true;
        LLVMPositionBuilderAtEnd(b, after);
        return NULL;
    }
    a->t = t;
    fused_store f = {.t = t, .rs = rows ? a->estride[0] : NULL};
    f.dst = first_elem(k, a, "fused.dst");
    LLVMValueRef span = tile_span(k, a, f.rs);
    LLVMValueRef whole = tile_inside(k, a);
    LLVMSetValueName2(whole, "fused.whole", strlen("fused.whole"));
    LLVMValueRef reads = fused_reads_allow(k, &f, span, arr);
    f.ok = LLVMBuildAnd(b, whole, reads, "fused.ok");
    /* the registers of 't': filled by the step that made it; now only where the loop does
     * not store (tile_store's path after it reads them) or a reader needs them */
    if (k->fuse.nsets == 1 && LLVMIsAInstruction(f.ok) &&
        k->nunfilled < (int)TJI_NELEMS(k->unfilled) &&
        tji_pointer_base(LLVMGetOperand(k->fuse.set, 1)) == tt->regs) {
        f.set = k->fuse.set;
        f.keep = LLVMBuildNot(b, f.ok, "fused.keep");
    }
    LLVMPositionBuilderAtEnd(b, after);
    tji_fused_append(k, fused_store_elem, &f);
    *keep = f.keep;
    return f.ok;
}

bool
tj_tile_store(tj_kernel *k, tj_val *arr, tj_val *t, tj_val *const *offset)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STORE);
    access a = {.kind = 1};
    /* Each lane reads the elements of 't' it owns (foreach_stored): a barrier owed for its
     * own writes to them (tj_tile_assign) stays owed, as it does for a tile in registers,
     * which is no shared memory. */
    bool tile = t && t->kind == TJ_VAL_TILE;
    bool own = tile && tji_barrier_owed_for(k, t);
    bool defer = own || (tile && t->u.tile.storage == TJ_STORAGE_REGISTER);
    if (!(defer ? tji_enter_deferring(k, fn) : tji_enter(k, fn)) ||
        !tji_check_tile(k, fn, "t", t))
        return false;
    bool failed = false;
    LLVMValueRef keep = NULL;
    LLVMValueRef fused =
        own ? NULL : fused_store_setup(k, fn, &a, arr, t, offset, &failed, &keep);
    if (failed || (!fused && !setup_access(k, fn, &a, arr, t->u.tile.rank, offset)) ||
        !check_same_elem(k, fn, arr, t))
        return false;
    if (own)
        k->shared_calls++;
    /* where its own elements are still in registers, the lane reads them there */
    a.t = own ? tji_owner_values(k, t) : t;
    tji_cond rest;
    if (fused)
        tji_emit_cond_begin(k, LLVMBuildNot(k->llb, fused, ""), &rest);
    access_all(k, &a, foreach_stored);
    if (fused)
        tji_emit_cond_end(k, &rest);
    if (keep) /* from here on, a reader of the registers has them filled always */
        k->unfilled[k->nunfilled++] = (struct tji_unfilled){.regs = t->u.tile.regs,
                                                            .keep = keep};
    return true;
}

tj_val *
tj_tile_atomic_add(tj_kernel *k, tj_val *arr, tj_val *t, tj_val *const *offset)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_ATOMIC_ADD);
    access a = {.kind = 2};
    if (!tji_enter(k, fn) || !tji_check_tile(k, fn, "t", t) ||
        !setup_access(k, fn, &a, arr, t->u.tile.rank, offset) || !check_same_elem(k, fn, arr, t))
        return NULL;
    const tj_type *et = t->type;
    if (!tji_type_is_numeric(et) || (tji_dtype_bits(et->dtype) < 32 && et->dtype != TJ_DTYPE_F16)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: tiles of %s cannot be added atomically", fn, et->name);
        return NULL;
    }
    tj_val *old = tji_tile_new(k, et, t->u.tile.rank, t->u.tile.shape, TJ_STORAGE_REGISTER);
    if (!old)
        return NULL;
    old->u.tile.replicated = t->u.tile.replicated;
    a.t = t;
    a.out = old;
    access_all(k, &a, foreach_stored);
    return finish(k, old);
}

/* ---- reshape --------------------------------------------------------------------------------- */

static bool
resolve_shape(tj_kernel *k, const char *fn, const tj_val *t, int rank, const int *in, int *out)
{
    int wild = -1;
    int64_t known = 1;
    if (rank < 1 || rank > TJI_MAX_DIMS)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'shape': rank %d is not in [1, 4]", fn,
                        rank);
    if (!in)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'shape' is NULL", fn);
    for (int d = 0; d < rank; d++) {
        out[d] = in[d];
        if (in[d] == -1 && wild < 0) {
            wild = d;
            continue;
        }
        if (in[d] < 1)
            return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'shape': extent %d of dimension %d "
                            "is not positive (one extent may be -1)", fn, in[d], d);
        known *= in[d];
        if (known > TJI_MAX_TILE_ELEMS) /* before the product can overflow */
            return tji_fail(k, TJ_ERR_LIMIT, "%s: argument 'shape': more than %lld elements",
                            fn, (long long)TJI_MAX_TILE_ELEMS);
    }
    int64_t size = t->u.tile.size;
    if (wild >= 0 && size % known != 0)
        return tji_fail(k, TJ_ERR_INVALID, "%s: a tile of %lld elements cannot take a shape "
                        "whose other extents make %lld elements (one extent is -1)", fn,
                        (long long)size, (long long)known);
    if (wild >= 0)
        out[wild] = (int)(size / known);
    if (tji_shape_size(rank, out) != size)
        return tji_fail(k, TJ_ERR_INVALID, "%s: a tile of %lld elements cannot take a shape of "
                        "%lld elements", fn, (long long)size, (long long)tji_shape_size(rank, out));
    return true;
}

tj_val *
tj_tile_reshape(tj_kernel *k, tj_val *t, int rank, const int *shape)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_RESHAPE);
    int out[TJI_MAX_DIMS];
    if (!tji_enter_pure(k, fn) || !tji_check_tile(k, fn, "t", t) ||
        !resolve_shape(k, fn, t, rank, shape, out))
        return NULL;
    if (!tji_tile_is_dense(&t->u.tile)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 't': the tile is a non-dense view; only dense "
                 "tiles can be reshaped", fn);
        return NULL;
    }
    tj_val *r = tji_val_new(k, TJ_VAL_TILE, t->type, NULL);
    if (!r)
        return NULL;
    r->u.tile = t->u.tile;
    r->u.tile.rank = rank;
    memcpy(r->u.tile.shape, out, sizeof out);
    r->u.tile.owner = false;
    if (t->u.tile.storage == TJ_STORAGE_SHARED) {
        tji_dense_strides(rank, out, r->u.tile.strides);
    } else { /* same registers: join the alias ring, keep the source's birthplace */
        r->u.tile.alias = t->u.tile.alias;
        t->u.tile.alias = r;
    }
    return r;
}

/* ---- assign ---------------------------------------------------------------------------------- */

typedef struct assign {
    const tj_val *src, *tmp, *dst;
    LLVMValueRef offset[TJI_MAX_DIMS]; /* i32 */
} assign;

static void
read_src(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const assign *a = ud;
    tji_tile_set(k, a->tmp, slot, e, tji_tile_get(k, a->src, slot, e));
}

static void
write_dst(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const assign *a = ud;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef coords[TJI_MAX_DIMS], inside = NULL;
    tji_tile_coords(k, &a->src->u.tile, e, coords);
    for (int d = 0; d < a->dst->u.tile.rank; d++) {
        coords[d] = tji_emit_add(b, coords[d], a->offset[d], false);
        LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, coords[d],
                                        tji_const_i32(k->ctx, a->dst->u.tile.shape[d]), "");
        inside = inside ? LLVMBuildAnd(b, inside, in, "") : in;
    }
    LLVMValueRef v = tji_tile_get(k, a->tmp, slot, e);
    tji_cond cond;
    tji_emit_cond_begin(k, inside, &cond);
    tji_emit_store(k, a->dst->type, v, tji_tile_elem_ptr(k, a->dst, coords));
    tji_emit_cond_end(k, &cond);
}

/* Whether the assign writes every element of 'dst', each from the lane that owns it in
 * 'dst' (e = slot * B + lane): 'src' has its shape and the offset is zero. A lane that then
 * reads only its own elements of 'dst' (tj_tile_store) reads its own writes, and needs no
 * barrier; others do, so the barrier after the writes is owed, not emitted. */
static bool
owner_writes(const tj_val *dst, const tj_val *src, tj_val *const *offset)
{
    for (int d = 0; d < dst->u.tile.rank; d++) {
        if (dst->u.tile.shape[d] != src->u.tile.shape[d])
            return false;
        LLVMValueRef o = offset ? offset[d]->ll : NULL;
        if (o && !(LLVMIsAConstantInt(o) && LLVMConstIntGetZExtValue(o) == 0))
            return false;
    }
    return !dst->u.tile.replicated;
}

bool
tj_tile_assign(tj_kernel *k, tj_val *dst, tj_val *src, tj_val *const *offset)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_ASSIGN);
    if (!tji_enter_pure(k, fn) || !tji_check_tile(k, fn, "dst", dst) ||
        !tji_check_tile(k, fn, "src", src))
        return false;
    if (dst->type != src->type)
        return tji_fail(k, TJ_ERR_INVALID, "%s: 'dst' holds %s and 'src' %s", fn,
                        dst->type->name, src->type->name);
    if (dst->u.tile.rank != src->u.tile.rank)
        return tji_fail(k, TJ_ERR_INVALID, "%s: 'dst' has rank %d and 'src' %d; they must match",
                        fn, dst->u.tile.rank, src->u.tile.rank);
    if (!tji_check_offsets(k, fn, "offset", offset, dst->u.tile.rank))
        return false;
    tji_tile_promote(k, dst);
    bool fresh = drop_fill(k, dst, src, offset);
    assign a = {.src = src, .dst = dst};
    for (int d = 0; d < dst->u.tile.rank; d++)
        a.offset[d] = offset ? LLVMBuildIntCast2(k->llb, offset[d]->ll, tji_i32(k->ctx), 1, "")
                             : tji_const_i32(k->ctx, 0);
    /* Read all of 'src' first (it may overlap 'dst'), then write. */
    a.tmp = src;
    if (src->u.tile.storage == TJ_STORAGE_SHARED || src->u.tile.replicated) {
        tj_val *tmp = tji_tile_new(k, src->type, src->u.tile.rank, src->u.tile.shape,
                                   TJ_STORAGE_REGISTER);
        if (!tmp)
            return false;
        a.tmp = tmp;
        tji_foreach_owned(k, src->u.tile.size, read_src, &a);
    }
    if (!fresh)
        tji_emit_barrier(k);
    tji_foreach_owned(k, src->u.tile.size, write_dst, &a);
    /* registers that a later call may not change under it (a borrowed tile reads its array) */
    bool kept = !a.tmp->u.tile.replicated && !a.tmp->u.tile.borrow;
    if (owner_writes(dst, src, offset))
        tji_defer_barrier_for(k, dst, kept ? a.tmp : NULL);
    else
        tji_emit_barrier(k);
    return true;
}

/* ---- extract --------------------------------------------------------------------------------- */

static LLVMValueRef
linear_index(tj_kernel *k, const tj_val *t, tj_val *const *idx, int *site)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef lin = tji_const_i32(c, 0);
    for (int d = 0; d < t->u.tile.rank; d++) {
        /* Checked in 64 bits, so that no index wraps into the range (2^32 + 1 is not 1). */
        LLVMValueRef i = LLVMBuildIntCast2(b, idx[d]->ll, tji_i64(c),
                                           tji_dtype_is_signed(idx[d]->type->dtype), "");
        LLVMValueRef ext = tji_const_i64(c, t->u.tile.shape[d]);
        if (*site >= 0) {
            LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntUGE, i, ext, "");
            tji_emit_report(k, bad, *site, i, tji_const_i64(c, 0), ext, d);
        }
        /* Out-of-range indices are invalid; clamp so that they cannot reach other memory. */
        i = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, i, ext, ""), i,
                            tji_const_i64(c, 0), "");
        LLVMValueRef ext32 = tji_const_i32(c, t->u.tile.shape[d]);
        lin = LLVMBuildAdd(b, LLVMBuildMul(b, lin, ext32, ""),
                           LLVMBuildTrunc(b, i, tji_i32(c), ""), "");
    }
    return lin;
}

static bool
check_extract(tj_kernel *k, const char *fn, tj_val *t, tj_val *const *idx, int nidx)
{
    if (!tji_check_tile(k, fn, "t", t))
        return false;
    if (!idx)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'idx' is NULL", fn);
    if (nidx != t->u.tile.rank)
        return tji_fail(k, TJ_ERR_INVALID, "%s: the tile has %d dimensions, got %d indices", fn,
                        t->u.tile.rank, nidx);
    if (!tji_check_offsets(k, fn, "idx", idx, nidx))
        return false;
    for (int d = 0; d < nidx; d++) {
        int64_t c;
        if (tji_val_const_int(idx[d], &c) && (c < 0 || c >= t->u.tile.shape[d]))
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument 'idx': entry %d is %lld, outside dimension %d of "
                            "extent %d",
                            fn, d, (long long)c, d, t->u.tile.shape[d]);
    }
    return true;
}

/* Debug builds: lane 0 publishes its linear index 'e' at 'at' bytes into the scratch, and a
 * lane whose index differs reports it (a kernel error naming the lane); every lane then
 * reads lane 0's element. Returns lane 0's index. */
static LLVMValueRef
check_same_index(tj_kernel *k, LLVMValueRef e, LLVMValueRef scratch, size_t at)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef off = tji_const_i64(c, (long long)at);
    LLVMValueRef slot = LLVMBuildGEP2(b, tji_i8(c), scratch, &off, 1, "");
    tji_cond cond;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntEQ, tji_lane(k), tji_const_i32(c, 0), ""),
                        &cond);
    LLVMBuildStore(b, e, slot);
    tji_emit_cond_end(k, &cond);
    tji_emit_barrier(k);
    LLVMValueRef e0 = LLVMBuildLoad2(b, tji_i32(c), slot, "");
    tji_mark_alike(c, e0);
    int site = tji_kernel_add_site(k, "tile_extract of a register tile: this lane reads element %"
                                      "%lld, lane 0 another; the index must be the same in "
                                      "every lane (a shared tile reads each lane's own)");
    LLVMValueRef wide = LLVMBuildZExt(b, e, tji_i64(c), "");
    LLVMValueRef zero = tji_const_i64(c, 0);
    tji_emit_report(k, LLVMBuildICmp(b, LLVMIntNE, e, e0, ""), site, wide, zero, zero, -1);
    return e0;
}

tj_val *
tj_tile_extract(tj_kernel *k, tj_val *t, tj_val *const *idx, int nidx)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_EXTRACT);
    if (!tji_enter_pure(k, fn) || !check_extract(k, fn, t, idx, nidx))
        return NULL;
    int site = k->opts.debug ? tji_kernel_add_site(k, "tile_extract index") : -1;
    LLVMValueRef e = linear_index(k, t, idx, &site);
    LLVMBuilderRef b = k->llb;
    const tji_tile *tt = &t->u.tile;
    if (tt->storage == TJ_STORAGE_SHARED || tt->replicated || k->block_dim == 1)
        return tji_scalar(k, t->type, tji_tile_get(k, t, e, e)); /* slot == e when B == 1 */
    /* The owner lane publishes the element through the scratch; every lane reads it. So
     * the index must be the same in every lane (as in Warp): the element of one lane's
     * index is no other lane's to publish. A debug build checks it (below). */
    LLVMValueRef B = tji_const_i32(k->ctx, k->block_dim);
    size_t at_index = (t->type->size + 7) & ~(size_t)7;
    LLVMValueRef scratch = tji_shared_scratch(k, k->opts.debug ? at_index + 8 : t->type->size);
    if (k->opts.debug && !LLVMIsAConstant(e))
        e = check_same_index(k, e, scratch, at_index);
    LLVMValueRef owner = LLVMBuildURem(b, e, B, "");
    tji_cond cond;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntEQ, tji_lane(k), owner, ""), &cond);
    tji_emit_store(k, t->type, tji_tile_get(k, t, LLVMBuildUDiv(b, e, B, ""), e), scratch);
    tji_emit_cond_end(k, &cond);
    tji_emit_barrier(k);
    LLVMValueRef v = tji_emit_load(k, t->type, scratch);
    tji_mark_alike(k->ctx, v); /* every lane reads the element: jit/divergence.c */
    /* In a partial block the owner may not run: the element has no value, and reads as
     * zero (not what an earlier use of the scratch left there) */
    LLVMValueRef runs = LLVMBuildICmp(b, LLVMIntULT, owner, tji_emit_nactive(k), "");
    v = LLVMBuildSelect(b, runs, v, LLVMConstNull(LLVMTypeOf(v)), "");
    tji_mark_alike(k->ctx, v);
    tji_emit_barrier(k); /* the scratch is free again */
    return tji_scalar(k, t->type, v);
}
