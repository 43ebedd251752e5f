/*
 * builtins/view.c: tile_view(t, offset, shape) (SPEC 4). A view is a non-owning shared
 * tile: the parent (promoted to shared memory if needed) plus an element offset and
 * strides; it takes no shared memory and views compose. Three forms:
 *   integers only, no shape   integers select and remove leading dimensions;
 *   integers and a shape      a window of that extent at origin 'offset' (parent strides);
 *   any slice                 a slice keeps its dimension with Python's slice.indices
 *                             length and stride * step (negative steps walk backwards),
 *                             an integer removes its dimension.
 * Unnamed trailing dimensions are kept whole. Integers are raw coordinates. Constant
 * offsets are checked here; runtime ones in debug builds (and clamped into the parent
 * otherwise, so that an invalid offset cannot reach other memory).
 */
#include <stdio.h>

#include "tilejit.h"
#include "builtins.h"

tj_view_index
tj_view_at(tj_val *index)
{
    return (tj_view_index){.kind = TJ_VIEW_INDEX, .index = index, .start = TJ_SLICE_NONE,
                           .stop = TJ_SLICE_NONE, .step = TJ_SLICE_NONE};
}

tj_view_index
tj_view_slice(int64_t start, int64_t stop, int64_t step)
{
    return (tj_view_index){.kind = TJ_VIEW_SLICE, .start = start, .stop = stop, .step = step};
}

/* Python's PySlice_Unpack + PySlice_AdjustIndices: the first index and the length. */
static int64_t
slice_indices(int64_t len, int64_t start, int64_t stop, int64_t step, int64_t *first)
{
    bool has_start = start != TJ_SLICE_NONE, has_stop = stop != TJ_SLICE_NONE;
    if (!has_start)
        start = step < 0 ? INT64_MAX : 0;
    if (!has_stop)
        stop = step < 0 ? INT64_MIN : INT64_MAX;
    int64_t *ends[] = {&start, &stop};
    for (int i = 0; i < 2; i++) {
        int64_t *x = ends[i];
        if (*x < 0) {
            *x = *x < -len ? (step < 0 ? -1 : 0) : *x + len;
        } else if (*x >= len) {
            *x = step < 0 ? len - 1 : len;
        }
    }
    *first = start;
    if (step < 0)
        return stop < start ? (start - stop - 1) / -step + 1 : 0;
    return start < stop ? (stop - start - 1) / step + 1 : 0;
}

typedef struct view {
    tj_kernel *k;
    const tj_val *parent;
    int rank;
    int shape[TJI_MAX_DIMS];
    int64_t strides[TJI_MAX_DIMS];
    LLVMValueRef offset;      /* i64 elements from the parent's base */
    int site;                 /* debug check site, or -1 */
} view;

static const char *fn = "tile_view";

/* Adds a runtime or constant integer coordinate 'idx' along parent dimension 'd', valid in
 * [0, limit). */
static bool
add_index(view *v, int entry, int d, tj_val *idx, int64_t limit)
{
    tj_kernel *k = v->k;
    const tji_tile *p = &v->parent->u.tile;
    int64_t c;
    if (tji_val_const_int(idx, &c)) {
        if (c < 0 || c >= p->shape[d])
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument 'offset': entry %d is %lld, outside dimension %d of "
                            "extent %d",
                            fn, entry, (long long)c, d, p->shape[d]);
        if (c >= limit)
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument 'shape': offset %lld + extent %lld exceeds dimension "
                            "%d of extent %d",
                            fn, (long long)c, (long long)(p->shape[d] - limit + 1), d,
                            p->shape[d]);
        v->offset =
            tji_emit_add(k->llb, v->offset, tji_const_i64(k->ctx, c * p->strides[d]), false);
        return true;
    }
    LLVMBuilderRef b = k->llb;
    LLVMValueRef i = LLVMBuildIntCast2(b, idx->ll, tji_i64(k->ctx),
                                       tji_dtype_is_signed(idx->type->dtype), "");
    LLVMValueRef hi = tji_const_i64(k->ctx, limit);
    LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, i, hi, "");
    if (v->site >= 0)
        tji_emit_report(k, LLVMBuildNot(b, in, ""), v->site, i, tji_const_i64(k->ctx, 0), hi, d);
    i = LLVMBuildSelect(b, in, i, tji_const_i64(k->ctx, 0), "");
    v->offset = tji_emit_add(
        b, v->offset, tji_emit_mul(b, i, tji_const_i64(k->ctx, p->strides[d]), false), false);
    return true;
}

static bool
keep_dim(view *v, int extent, int64_t stride)
{
    v->shape[v->rank] = extent;
    v->strides[v->rank] = stride;
    v->rank++;
    return true;
}

/* integers + shape: a window with the parent's strides */
static bool
window(view *v, const tj_view_index *offset, int noffset, const int *shape, int nshape)
{
    const tji_tile *p = &v->parent->u.tile;
    if (nshape != p->rank)
        return tji_fail(v->k, TJ_ERR_INVALID,
                        "%s: argument 'shape': %d extents for a rank-%d tile (one per dimension)",
                        fn, nshape, p->rank);
    for (int d = 0; d < p->rank; d++) {
        if (shape[d] < 1 || shape[d] > p->shape[d])
            return tji_fail(v->k, TJ_ERR_INVALID,
                            "%s: argument 'shape': extent %d of dimension %d is not in [1, %d]",
                            fn, shape[d], d, p->shape[d]);
        if (d < noffset && !add_index(v, d, d, offset[d].index, p->shape[d] - shape[d] + 1))
            return false;
        keep_dim(v, shape[d], p->strides[d]);
    }
    return true;
}

/* integers and slices, no shape */
static bool
select_dims(view *v, const tj_view_index *offset, int noffset)
{
    const tji_tile *p = &v->parent->u.tile;
    for (int d = 0; d < p->rank; d++) {
        if (d >= noffset) {
            keep_dim(v, p->shape[d], p->strides[d]);
            continue;
        }
        const tj_view_index *o = &offset[d];
        if (o->kind == TJ_VIEW_INDEX) {
            if (!add_index(v, d, d, o->index, p->shape[d]))
                return false;
            continue;
        }
        int64_t step = o->step == TJ_SLICE_NONE ? 1 : o->step, first;
        if (step == 0)
            return tji_fail(v->k, TJ_ERR_INVALID, "%s: argument 'offset': entry %d is a slice "
                            "with step 0", fn, d);
        int64_t len = slice_indices(p->shape[d], o->start, o->stop, step, &first);
        if (len == 0)
            return tji_fail(v->k, TJ_ERR_INVALID, "%s: argument 'offset': entry %d selects no "
                            "element of dimension %d (extent %d); the view would be empty",
                            fn, d, d, p->shape[d]);
        v->offset = tji_emit_add(v->k->llb, v->offset,
                                 tji_const_i64(v->k->ctx, first * p->strides[d]), false);
        /* One element: the step is never applied (and a huge one would overflow). */
        keep_dim(v, (int)len, len == 1 ? p->strides[d] : p->strides[d] * step);
    }
    if (v->rank == 0)
        return tji_fail(v->k, TJ_ERR_INVALID, "%s: every dimension is selected by an integer, "
                        "so the view has rank 0; use tile_extract for one element", fn);
    return true;
}

static bool
check_entries(tj_kernel *k, const tji_tile *p, const tj_view_index *offset, int noffset,
              int nshape, bool *has_slice)
{
    char d[64];
    if (noffset < 0 || (noffset > 0 && !offset) || nshape < 0)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'offset' is missing", fn);
    if (noffset > p->rank)
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: argument 'offset': %d entries for a rank-%d tile", fn, noffset,
                        p->rank);
    *has_slice = false;
    for (int i = 0; i < noffset; i++) {
        const tj_view_index *o = &offset[i];
        if (o->kind == TJ_VIEW_SLICE) {
            *has_slice = true;
            continue;
        }
        if (o->kind != TJ_VIEW_INDEX)
            return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'offset': entry %d has kind %d", fn,
                            i, (int)o->kind);
        if (!tji_use(k, o->index, fn, "offset"))
            return false;
        const tj_type *t = o->index->type;
        if (o->index->kind != TJ_VAL_SCALAR || !tji_type_is_scalar(t) ||
            !tji_dtype_is_int(t->dtype))
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument 'offset': entry %d is %s, not an integer", fn, i,
                            tji_val_describe(o->index, d, sizeof d));
    }
    if (*has_slice && nshape > 0)
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: argument 'shape': a shape cannot be given with slices in 'offset'",
                        fn);
    return true;
}

tj_val *
tj_tile_view(tj_kernel *k, tj_val *t, const tj_view_index *offset, int noffset,
             const int *shape, int nshape)
{
    bool has_slice;
    if (!tji_enter_pure(k, fn) || !tji_check_tile(k, fn, "t", t) ||
        !check_entries(k, &t->u.tile, offset, noffset, nshape, &has_slice))
        return NULL;
    if (nshape > 0 && !shape) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'shape' is NULL", fn);
        return NULL;
    }
    tji_tile_promote(k, t);
    view v = {.k = k, .parent = t, .offset = tji_const_i64(k->ctx, 0),
              .site = k->opts.debug ? tji_kernel_add_site(k, "tile_view offset") : -1};
    bool ok = nshape > 0 ? window(&v, offset, noffset, shape, nshape)
                         : select_dims(&v, offset, noffset);
    if (!ok)
        return NULL;
    tj_val *r = tji_val_new(k, TJ_VAL_TILE, t->type, NULL);
    if (!r)
        return NULL;
    tji_tile *rt = &r->u.tile;
    *rt = (tji_tile){.rank = v.rank, .storage = TJ_STORAGE_SHARED, .owner = false};
    for (int d = 0; d < v.rank; d++) {
        rt->shape[d] = v.shape[d];
        rt->strides[d] = v.strides[d];
    }
    rt->size = tji_shape_size(v.rank, v.shape);
    rt->base = LLVMBuildGEP2(k->llb, t->type->llmem, t->u.tile.base, &v.offset, 1, "view");
    tji_tile_mark(k, r);
    return r;
}
