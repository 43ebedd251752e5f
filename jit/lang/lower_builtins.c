/*
 * jit/lang/lower_builtins.c: builtin calls to builder calls, one case per builtin. The
 * checker has bound the arguments (e->bound in parameter order, e->vargs) and required
 * constants where the builder needs them (shape, axis, capacity, atomic, preserve_type,
 * slice bounds), so this file reads those values from the AST. Explicit tile_view and
 * tile_extract indices are raw coordinates (no wrapping; SPEC 4).
 */
#include <stdio.h>
#include <string.h>

#include "lower.h"

#define K (L->k)

int
tjl_reduce_op(int id)
{
    switch (id) {
    case TJL_B_ADD: case TJL_B_TILE_SUM: return TJ_REDUCE_ADD;
    case TJL_B_MUL: return TJ_REDUCE_MUL;
    case TJL_B_MIN: case TJL_B_TILE_MIN: return TJ_REDUCE_MIN;
    case TJL_B_MAX: case TJL_B_TILE_MAX: return TJ_REDUCE_MAX;
    case TJL_B_BIT_AND: return TJ_REDUCE_BIT_AND;
    case TJL_B_BIT_OR: return TJ_REDUCE_BIT_OR;
    case TJL_B_BIT_XOR: return TJ_REDUCE_BIT_XOR;
    default: return -1;
    }
}

int
tjl_builtin_unop(int id)
{
    switch (id) {
    case TJL_B_ABS: return TJ_UN_ABS;
    case TJL_B_SQRT: return TJ_UN_SQRT;
    case TJL_B_FLOOR: return TJ_UN_FLOOR;
    case TJL_B_CEIL: return TJ_UN_CEIL;
    case TJL_B_ROUND: return TJ_UN_ROUND;
    case TJL_B_TRUNC: return TJ_UN_TRUNC;
    case TJL_B_EXP: return TJ_UN_EXP;
    case TJL_B_LOG: return TJ_UN_LOG;
    case TJL_B_SIN: return TJ_UN_SIN;
    case TJL_B_COS: return TJ_UN_COS;
    case TJL_B_TAN: return TJ_UN_TAN;
    case TJL_B_TANH: return TJ_UN_TANH;
    case TJL_B_NEG: return TJ_UN_NEG;
    case TJL_B_LENGTH: return TJ_UN_LENGTH;
    case TJL_B_NORMALIZE: return TJ_UN_NORMALIZE;
    case TJL_B_TRANSPOSE: return TJ_UN_TRANSPOSE;
    default: return -1;
    }
}

int
tjl_builtin_binop(int id, int dt)
{
    bool b = dt == TJ_DTYPE_BOOL;
    switch (id) {
    case TJL_B_MIN: return TJ_BIN_MIN;
    case TJL_B_MAX: return TJ_BIN_MAX;
    case TJL_B_ADD: return TJ_BIN_ADD;
    case TJL_B_SUB: return TJ_BIN_SUB;
    case TJL_B_MUL: return TJ_BIN_MUL;
    case TJL_B_DIV: return TJ_BIN_DIV;
    case TJL_B_MOD: return TJ_BIN_MOD;
    case TJL_B_POW: return TJ_BIN_POW;
    case TJL_B_ATAN2: return TJ_BIN_ATAN2;
    case TJL_B_DOT: return TJ_BIN_DOT;
    case TJL_B_CROSS: return TJ_BIN_CROSS;
    case TJL_B_CW_MUL: return TJ_BIN_CW_MUL;
    case TJL_B_CW_DIV: return TJ_BIN_CW_DIV;
    case TJL_B_BIT_AND: return b ? TJ_BIN_AND : TJ_BIN_BIT_AND;
    case TJL_B_BIT_OR: return b ? TJ_BIN_OR : TJ_BIN_BIT_OR;
    case TJL_B_BIT_XOR: return TJ_BIN_BIT_XOR;
    default: return -1;
    }
}

/* Applies a math builtin to lowered operands (values or tiles, element-wise). */
static tj_val *
apply_math(tjl_lower *L, int id, tj_val *const *v, const tjl_type *ts, int n, int pos)
{
    if (n == 1)
        return tj_unary(K, (tj_unop)tjl_builtin_unop(id), v[0]);
    tjl_type el = ts[0].kind == TJL_T_TILE ? tjl_elem(ts[0]) : ts[0];
    if (id == TJL_B_BIT_XOR && el.dtype == TJ_DTYPE_BOOL)
        return tj_compare(K, TJ_CMP_NE, v[0], v[1]);
    (void)pos;
    return tj_binary(K, (tj_binop)tjl_builtin_binop(id, el.dtype), v[0], v[1]);
}

static tj_val *
lower_math(tjl_lower *L, tjl_expr *e, int id, int n)
{
    tj_val *v[2];
    tjl_type ts[2];
    for (int i = 0; i < n; i++) {
        if (!(v[i] = tjl_lower_expr(L, e->bound[i])))
            return NULL;
        ts[i] = e->bound[i]->type;
    }
    return apply_math(L, id, v, ts, n, e->pos);
}

/* ---- helpers ------------------------------------------------------------------------------- */

static int
shape_of(const tjl_expr *e, int *shape)
{
    if (e->kind != TJL_E_TUPLE) {
        shape[0] = (int)e->ival;
        return 1;
    }
    for (int i = 0; i < e->nargs && i < TJL_MAX_DIMS; i++)
        shape[i] = (int)e->args[i]->ival;
    return e->nargs;
}

static tj_storage
storage_of(const tjl_expr *e)
{
    return e && strcmp(e->name, "shared") == 0 ? TJ_STORAGE_SHARED : TJ_STORAGE_REGISTER;
}

/* An offset argument: NULL when absent (zeros), else one int32 per dimension in 'out'. */
static bool
offset_of(tjl_lower *L, tjl_expr *e, tj_val **out, tj_val *const **res)
{
    *res = NULL;
    if (!e)
        return true;
    int n = e->kind == TJL_E_TUPLE ? e->nargs : 1;
    for (int i = 0; i < n && i < TJL_MAX_DIMS; i++)
        if (!(out[i] = tjl_lower_index(L, e->kind == TJL_E_TUPLE ? e->args[i] : e)))
            return false;
    *res = out;
    return true;
}

static bool
indices_of(tjl_lower *L, tjl_expr *e, tj_val **out)
{
    for (int i = 0; i < e->nvargs && i < TJL_MAX_DIMS; i++)
        if (!(out[i] = tjl_lower_index(L, e->vargs[i])))
            return false;
    return true;
}

static tj_val *
done(tjl_lower *L, bool ok)
{
    return ok ? tjl_void_val : NULL;
}

/* ---- tile builtins ------------------------------------------------------------------------- */

static tj_val *
lower_arange(tjl_lower *L, tjl_expr *e)
{
    double v[3] = {0, 0, 1};
    for (int i = 0; i < e->nvargs; i++) {
        const tjl_expr *a = e->vargs[i];
        int slot = e->nvargs == 1 ? 1 : i;
        v[slot] = tjl_is_int(a->type) ? (double)a->ival : a->fval;
    }
    return tj_tile_arange(K, v[0], v[1], v[2], tjl_lib_type(L->b, e->type),
                          storage_of(e->bound[1]));
}

static tj_val *
lower_memory(tjl_lower *L, tjl_expr *e, int id)
{
    tj_val *offs[TJL_MAX_DIMS], *const *off;
    int shape[TJL_MAX_DIMS], rank;
    tj_val *a = tjl_lower_expr(L, e->bound[0]);
    if (!a)
        return NULL;
    if (id == TJL_B_TILE_LOAD) {
        rank = shape_of(e->bound[1], shape);
        if (!offset_of(L, e->bound[2], offs, &off))
            return NULL;
        return tj_tile_load(K, a, rank, shape, off, storage_of(e->bound[3]));
    }
    if (id == TJL_B_TILE_RESHAPE) {
        rank = shape_of(e->bound[1], shape);
        return tj_tile_reshape(K, a, rank, shape);
    }
    tj_val *t = tjl_lower_expr(L, e->bound[1]);
    if (!t || !offset_of(L, e->bound[2], offs, &off))
        return NULL;
    switch (id) {
    case TJL_B_TILE_STORE:
        return done(L, tj_tile_store(K, a, t, off));
    case TJL_B_TILE_ASSIGN:
        return done(L, tj_tile_assign(K, a, t, off));
    default:
        return tj_tile_atomic_add(K, a, t, off);
    }
}

static tj_val *
lower_view(tjl_lower *L, tjl_expr *e)
{
    tj_val *t = tjl_lower_expr(L, e->bound[0]);
    if (!t)
        return NULL;
    tjl_expr *off = e->bound[1];
    tjl_expr *one[1] = {off};
    tjl_expr **items = off->kind == TJL_E_TUPLE ? off->args : one;
    int n = off->kind == TJL_E_TUPLE ? off->nargs : 1;
    tj_view_index entries[TJL_MAX_DIMS];
    for (int i = 0; i < n && i < TJL_MAX_DIMS; i++) {
        tjl_expr *x = items[i];
        if (x->type.kind == TJL_T_SLICE) {
            int64_t v[3] = {TJ_SLICE_NONE, TJ_SLICE_NONE, TJ_SLICE_NONE};
            for (int k = 0; k < x->nvargs; k++) {
                int slot = x->nvargs == 1 ? 1 : k;
                v[slot] = x->vargs[k]->kind == TJL_E_NONE ? TJ_SLICE_NONE : x->vargs[k]->ival;
            }
            entries[i] = tj_view_slice(v[0], v[1], v[2]);
        } else {
            tj_val *iv = tjl_lower_index(L, x);
            if (!iv)
                return NULL;
            entries[i] = tj_view_at(iv);
        }
    }
    int shape[TJL_MAX_DIMS], nshape = e->bound[2] ? shape_of(e->bound[2], shape) : 0;
    return tj_tile_view(K, t, entries, n, nshape ? shape : NULL, nshape);
}

static tj_val *
lower_map(tjl_lower *L, tjl_expr *e)
{
    tj_val *v[8];
    tjl_type ts[8];
    for (int i = 0; i < e->nvargs && i < 8; i++) {
        if (!(v[i] = tjl_lower_expr(L, e->vargs[i])))
            return NULL;
        ts[i] = e->vargs[i]->type;
    }
    int op = e->bound[0]->type.sid;
    if (op >= 0)
        return apply_math(L, op, v, ts, e->nvargs, e->pos);
    return tj_tile_map(K, tjl_lower_func_of(L, -op - 1), v, (size_t)e->nvargs);
}

static tj_val *
lower_reduce(tjl_lower *L, tjl_expr *e, int id)
{
    bool general = id == TJL_B_TILE_REDUCE;
    tjl_expr *ae = general ? e->bound[1] : e->bound[0];
    tjl_expr *axis = general ? e->bound[2] : e->bound[1];
    int opid = general ? e->bound[0]->type.sid : id;
    tj_func *f = opid < 0 ? tjl_lower_func_of(L, -opid - 1) : NULL;
    int op = opid < 0 ? TJ_REDUCE_FUNC : tjl_reduce_op(opid);
    tj_val *a = tjl_lower_expr(L, ae);
    if (!a)
        return NULL;
    if (axis)
        return tj_tile_reduce_axis(K, (tj_reduce_op)op, f, a, (int)axis->ival);
    return tj_tile_reduce(K, (tj_reduce_op)op, f, a);
}

static tj_val *
lower_scatter(tjl_lower *L, tjl_expr *e)
{
    tj_val *idx[TJL_MAX_DIMS];
    tj_val *a = tjl_lower_expr(L, e->bound[0]);
    if (!a || !indices_of(L, e, idx))
        return NULL;
    tj_val *v = tjl_lower_expr(L, e->bound[1]);
    tj_val *has = v ? tjl_lower_expr(L, e->bound[2]) : NULL;
    tj_val *atomic = e->bound[3] ? tj_const_bool(K, e->bound[3]->ival != 0) : NULL;
    if (!has)
        return NULL;
    return done(L, tj_tile_scatter_add(K, a, idx, e->nvargs, v, has, atomic));
}

static tj_val *
lower_stack(tjl_lower *L, tjl_expr *e, int id)
{
    if (id == TJL_B_TILE_STACK)
        return tj_tile_stack(K, e->bound[0]->ival, tjl_lib_type(L->b, e->type));
    tj_val *s = tjl_lower_expr(L, e->bound[0]);
    if (!s)
        return NULL;
    switch (id) {
    case TJL_B_TILE_STACK_PUSH: {
        tj_val *v = tjl_lower_expr(L, e->bound[1]);
        tj_val *has = v ? tjl_lower_expr(L, e->bound[2]) : NULL;
        return has ? tj_tile_stack_push(K, s, v, has) : NULL;
    }
    case TJL_B_TILE_STACK_COUNT:
        return tj_tile_stack_count(K, s);
    case TJL_B_TILE_STACK_CLEAR:
        return done(L, tj_tile_stack_clear(K, s));
    default:
        return tjl_lower_fail(L, e->pos, "tile_stack_pop() must be unpacked");
    }
}

static tj_val *
lower_atomic(tjl_lower *L, tjl_expr *e, int id)
{
    tj_val *idx[TJL_MAX_DIMS];
    tj_val *a = tjl_lower_expr(L, e->bound[0]);
    if (!a || !indices_of(L, e, idx))
        return NULL;
    tj_val *v = tjl_lower_expr(L, e->bound[1]);
    if (!v)
        return NULL;
    if (id == TJL_B_ATOMIC_ADD)
        return tj_atomic_add(K, a, idx, e->nvargs, v);
    if (id == TJL_B_ATOMIC_MIN)
        return tj_atomic_min(K, a, idx, e->nvargs, v);
    return tj_atomic_max(K, a, idx, e->nvargs, v);
}

static tj_val *
lower_tile(tjl_lower *L, tjl_expr *e, int id)
{
    tj_val *x = tjl_lower_expr(L, e->bound[0]);
    if (!x)
        return NULL;
    if (id == TJL_B_UNTILE)
        return tj_untile(K, x);
    return tj_tile(K, x, e->bound[1] && e->bound[1]->ival != 0);
}

tj_val *
tjl_lower_builtin(tjl_lower *L, tjl_expr *e, int id)
{
    if (tjl_builtin_unop(id) >= 0)
        return lower_math(L, e, id, 1);
    if (tjl_builtin_binop(id, 0) >= 0)
        return lower_math(L, e, id, 2);
    switch (id) {
    case TJL_B_TID: {
        tj_val *v = NULL;
        return tj_tid(K, 1, &v) ? v : NULL;
    }
    case TJL_B_BLOCK_DIM:
        return tj_block_dim(K);
    case TJL_B_SELECT:
    case TJL_B_WHERE: {
        tj_val *c = tjl_lower_expr(L, e->bound[0]);
        c = tjl_lower_bool(L, c, e->bound[0]->type);
        tj_val *a = c ? tjl_lower_expr(L, e->bound[1]) : NULL;
        tj_val *b = a ? tjl_lower_expr(L, e->bound[2]) : NULL;
        if (!b)
            return NULL;
        return id == TJL_B_WHERE ? tj_select(K, c, a, b) : tj_select(K, c, b, a);
    }
    case TJL_B_ATOMIC_ADD:
    case TJL_B_ATOMIC_MIN:
    case TJL_B_ATOMIC_MAX:
        return lower_atomic(L, e, id);
    case TJL_B_TILE_ZEROS:
    case TJL_B_TILE_ONES: {
        int shape[TJL_MAX_DIMS], rank = shape_of(e->bound[0], shape);
        const tj_type *t = tjl_lib_type(L->b, e->type);
        tj_storage st = storage_of(e->bound[2]);
        return id == TJL_B_TILE_ZEROS ? tj_tile_zeros(K, t, rank, shape, st)
                                      : tj_tile_ones(K, t, rank, shape, st);
    }
    case TJL_B_TILE_ARANGE:
        return lower_arange(L, e);
    case TJL_B_TILE_LOAD:
    case TJL_B_TILE_STORE:
    case TJL_B_TILE_RESHAPE:
    case TJL_B_TILE_ASSIGN:
    case TJL_B_TILE_ATOMIC_ADD:
        return lower_memory(L, e, id);
    case TJL_B_TILE_EXTRACT: {
        tj_val *idx[TJL_MAX_DIMS];
        tj_val *t = tjl_lower_expr(L, e->bound[0]);
        return t && indices_of(L, e, idx) ? tj_tile_extract(K, t, idx, e->nvargs) : NULL;
    }
    case TJL_B_TILE:
    case TJL_B_UNTILE:
        return lower_tile(L, e, id);
    case TJL_B_TILE_VIEW:
        return lower_view(L, e);
    case TJL_B_TILE_MAP:
        return lower_map(L, e);
    case TJL_B_TILE_REDUCE:
    case TJL_B_TILE_SUM:
    case TJL_B_TILE_MIN:
    case TJL_B_TILE_MAX:
        return lower_reduce(L, e, id);
    case TJL_B_TILE_SCATTER_ADD:
        return lower_scatter(L, e);
    case TJL_B_TILE_STACK:
    case TJL_B_TILE_STACK_PUSH:
    case TJL_B_TILE_STACK_POP:
    case TJL_B_TILE_STACK_COUNT:
    case TJL_B_TILE_STACK_CLEAR:
        return lower_stack(L, e, id);
    default:
        return tjl_lower_fail(L, e->pos, "%s() is not a value here", tjl_builtin_name(id));
    }
}
