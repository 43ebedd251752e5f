/*
 * builtins/tile.c: tile(x, preserve_type) and untile(t) (SPEC 4). Each lane contributes
 * its value as the last dimension: in the register layout component c of lane L is
 * element c * B + L, which is that lane's slot c, so neither needs any communication.
 * Every lane must reach both. B is the effective block width (1 in CPU width-1 mode).
 */
#include <stdio.h>

#include "tilejit.h"
#include "builtins.h"

tj_val *
tj_tile(tj_kernel *k, tj_val *x, bool preserve_type)
{
    const char *fn = tji_builtin_name(TJI_B_TILE);
    char d[64];
    if (!tji_enter_pure(k, fn) || !tji_use(k, x, fn, "x"))
        return NULL;
    if (x->kind != TJ_VAL_SCALAR) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'x': %s is not a per-thread value", fn,
                 tji_val_describe(x, d, sizeof d));
        return NULL;
    }
    const tj_type *t = x->type;
    int B = (int)k->block_dim;
    if (t->kind == TJ_TYPE_STRUCT && !preserve_type) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'x': a struct (%s) needs preserve_type", fn,
                 t->name);
        return NULL;
    }
    if (preserve_type || t->kind == TJ_TYPE_SCALAR || t->kind == TJ_TYPE_STRUCT) {
        tj_val *r = tji_tile_new(k, t, 1, &B, TJ_STORAGE_REGISTER);
        if (r)
            tji_tile_set(k, r, tji_const_i32(k->ctx, 0), NULL, x->ll);
        return r ? (tji_tile_mark(k, r), r) : NULL;
    }
    /* vector (N, B), quaternion (4, B), matrix (R, C, B) of the component type */
    int shape[3], rank = 0;
    if (t->kind == TJ_TYPE_MATRIX) {
        shape[rank++] = t->rows;
        shape[rank++] = t->cols;
    } else {
        shape[rank++] = t->ncomp;
    }
    shape[rank++] = B;
    tj_val *r = tji_tile_new(k, tji_type_scalar(k->ctx, t->dtype), rank, shape,
                             TJ_STORAGE_REGISTER);
    if (!r)
        return NULL;
    for (int c = 0; c < t->ncomp; c++) {
        LLVMValueRef ci = tji_const_i32(k->ctx, c);
        tji_tile_set(k, r, ci, NULL, LLVMBuildExtractElement(k->llb, x->ll, ci, ""));
    }
    tji_tile_mark(k, r);
    return r;
}

/* The composite type an untiled rank-2 or rank-3 tile gives. */
static const tj_type *
untiled_type(tj_kernel *k, const char *fn, const tj_val *t)
{
    const tji_tile *tt = &t->u.tile;
    if (tt->rank == 1)
        return t->type;
    if (!tji_type_is_scalar(t->type) || t->type->dtype == TJ_DTYPE_BOOL) {
        tji_fail(k, TJ_ERR_INVALID,
                 "%s: argument 'a': a rank-%d tile needs numeric scalar elements, not %s", fn,
                 tt->rank, t->type->name);
        return NULL;
    }
    int r0 = tt->shape[0], c0 = tt->rank == 3 ? tt->shape[1] : 1;
    bool ok = tt->rank == 2 ? r0 >= 2 && r0 <= 4 : r0 <= 4 && c0 <= 4 && r0 * c0 > 1;
    if (!ok) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'a': a tile of shape (%d%s%.0d, %d) does not "
                 "make a %s", fn, r0, tt->rank == 3 ? ", " : "", tt->rank == 3 ? c0 : 0,
                 tt->shape[tt->rank - 1], tt->rank == 2 ? "vector of 2 to 4 components"
                                                         : "matrix of at most 4x4");
        return NULL;
    }
    const tj_type *r = tt->rank == 2
                           ? tj_context_get_vector_type(k->ctx, t->type->dtype, r0)
                           : tj_context_get_matrix_type(k->ctx, t->type->dtype, r0, c0);
    return r;
}

tj_val *
tj_untile(tj_kernel *k, tj_val *t)
{
    const char *fn = tji_builtin_name(TJI_B_UNTILE);
    if (!tji_enter_pure(k, fn) || !tji_check_tile(k, fn, "a", t))
        return NULL;
    const tji_tile *tt = &t->u.tile;
    int B = (int)k->block_dim;
    if (tt->rank > 3) {
        tji_fail(k, TJ_ERR_INVALID,
                 "%s: argument 'a': a tile of rank %d has no per-thread value (rank 1 gives a "
                 "scalar, 2 a vector, 3 a matrix)",
                 fn, tt->rank);
        return NULL;
    }
    if (tt->shape[tt->rank - 1] != B) {
        tji_fail(k, TJ_ERR_INVALID,
                 "%s: argument 'a': the last dimension must equal the block width %d, "
                 "got a tile of rank %d whose last extent is %d",
                 fn, B, tt->rank, tt->shape[tt->rank - 1]);
        return NULL;
    }
    const tj_type *rt = untiled_type(k, fn, t);
    if (!rt)
        return NULL;
    LLVMValueRef lane = tji_lane(k);
    if (tt->rank == 1)
        return tji_scalar(k, rt, tji_tile_get(k, t, tji_const_i32(k->ctx, 0), lane));
    int n = (int)(tt->size / B);
    LLVMValueRef v = LLVMGetUndef(rt->llreg);
    for (int c = 0; c < n; c++) {
        LLVMValueRef ci = tji_const_i32(k->ctx, c);
        LLVMValueRef e = LLVMBuildAdd(k->llb, tji_const_i32(k->ctx, c * B), lane, "");
        v = LLVMBuildInsertElement(k->llb, v, tji_tile_get(k, t, ci, e), ci, "");
    }
    return tji_scalar(k, rt, v);
}
