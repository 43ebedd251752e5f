/*
 * jit/lang/lower_expr.c: expressions to builder calls: constants (folded by the checker),
 * names, fields and components, subscripts (array loads, tile extract or view with the
 * front end's wrapping of negative constant indices, SPEC 4 tile_view), operators
 * (floor division and integer powers built from simpler operations), calls of user
 * functions and constructors of types and structs.
 */
#include <stdio.h>
#include <string.h>

#include "lower.h"

tj_val *
tjl_lower_const(tjl_lower *L, tjl_type type, int64_t ival, double fval)
{
    int dt = type.dtype;
    if (dt == TJ_DTYPE_BOOL)
        return tj_const_bool(L->k, ival != 0);
    if (tjl_dtype_is_float(dt))
        return tj_const_float(L->k, (tj_dtype)dt, fval);
    return tj_const_int(L->k, (tj_dtype)dt, ival);
}

tj_val *
tjl_lower_bool(tjl_lower *L, tj_val *v, tjl_type t)
{
    if (!v || tjl_is_bool(t))
        return v;
    tj_val *zero = tjl_lower_const(L, t, 0, 0.0);
    return tj_compare(L->k, TJ_CMP_NE, v, zero);
}

tj_val *
tjl_lower_index(tjl_lower *L, tjl_expr *e)
{
    tj_val *v = tjl_lower_expr(L, e);
    if (!v || e->type.dtype == TJ_DTYPE_I32)
        return v;
    v = tj_cast(L->k, v, tj_context_get_type(L->b->ctx, TJ_DTYPE_I32));
    return tjl_lower_ok(L, e->pos) ? v : NULL;
}

static int
ncomponents(tjl_type t)
{
    return t.kind == TJL_T_QUAT ? 4 : t.rows;
}

tj_val *
tjl_lower_extract_at(tjl_lower *L, tj_val *obj, tjl_type ot, tjl_expr *index)
{
    tj_kernel *k = L->k;
    int n = ncomponents(ot);
    if (index->is_const) {
        int64_t i = index->ival < 0 ? index->ival + n : index->ival;
        if (i < 0 || i >= n)
            return tjl_lower_fail(L, index->pos, "index %lld is out of range for %d %s",
                                  (long long)index->ival, n,
                                  ot.kind == TJL_T_MATRIX ? "rows" : "components");
        return tj_extract(k, obj, (int)i);
    }
    tj_val *iv = tjl_lower_index(L, index);
    if (!iv)
        return NULL;
    tj_val *r = tj_extract(k, obj, n - 1);
    for (int c = n - 2; c >= 0; c--)
        r = tj_select(k, tj_compare(k, TJ_CMP_EQ, iv, tj_const_int(k, TJ_DTYPE_I32, c)),
                      tj_extract(k, obj, c), r);
    return r;
}

/* ---- names, attributes, subscripts --------------------------------------------------------- */

static tj_val *
lower_name(tjl_lower *L, tjl_expr *e)
{
    if (e->refkind == TJL_R_LOCAL)
        return tjl_lower_local(L, e->ref, e->pos);
    if (e->refkind == TJL_R_CONST) {
        const tjl_const *c = L->p->consts[e->ref];
        return tjl_lower_const(L, c->type, c->ival, c->fval);
    }
    return tjl_lower_fail(L, e->pos, "'%s' is not a value", e->name);
}

static tj_val *
lower_attr(tjl_lower *L, tjl_expr *e)
{
    if (e->refkind != TJL_R_FIELD && e->refkind != TJL_R_COMPONENT)
        return tjl_lower_fail(L, e->pos, "'%s' is not a value here", e->name);
    tj_val *o = tjl_lower_expr(L, e->args[0]);
    if (!o)
        return NULL;
    return e->refkind == TJL_R_FIELD ? tj_get_field(L->k, o, e->name)
                                     : tj_extract(L->k, o, e->ref);
}

/* A tile subscript entry as a view entry; constant negative integers wrap once. */
static bool
view_entry(tjl_lower *L, tjl_expr *x, tj_val *t, int dim, tj_view_index *out)
{
    if (x->kind == TJL_E_SLICE) {
        int64_t v[3];
        for (int k = 0; k < 3; k++)
            v[k] = x->args[k] ? x->args[k]->ival : TJ_SLICE_NONE;
        *out = tj_view_slice(v[0], v[1], v[2]);
        return true;
    }
    tj_val *iv;
    if (x->is_const && x->ival < 0)
        iv = tj_const_int(L->k, TJ_DTYPE_I32, x->ival + tj_tile_get_shape(t, dim));
    else
        iv = tjl_lower_index(L, x);
    *out = tj_view_at(iv);
    return iv != NULL;
}

static tj_val *
lower_tile_index(tjl_lower *L, tjl_expr *e, tj_val *t)
{
    tj_view_index entries[TJL_MAX_DIMS];
    int n = e->nargs < TJL_MAX_DIMS ? e->nargs : TJL_MAX_DIMS;
    for (int i = 0; i < n; i++)
        if (!view_entry(L, e->args[i], t, i, &entries[i]))
            return NULL;
    if (e->type.kind == TJL_T_TILE)
        return tj_tile_view(L->k, t, entries, n, NULL, 0);
    tj_val *idx[TJL_MAX_DIMS];
    for (int i = 0; i < n; i++)
        idx[i] = entries[i].index;
    return tj_tile_extract(L->k, t, idx, n);
}

static tj_val *
lower_index(tjl_lower *L, tjl_expr *e)
{
    tjl_expr *obj = e->fn;
    tjl_type ot = obj->type;
    if (ot.kind == TJL_T_SHAPE) {
        tjl_expr *base = obj->args[0];
        tj_val *b = tjl_lower_expr(L, base);
        int d = (int)e->args[0]->ival;
        if (!b)
            return NULL;
        if (base->type.kind == TJL_T_ARRAY)
            return tj_shape(L->k, b, d);
        return tj_const_int(L->k, TJ_DTYPE_I32, tj_tile_get_shape(b, d));
    }
    tj_val *o = tjl_lower_expr(L, obj);
    if (!o)
        return NULL;
    if (ot.kind == TJL_T_ARRAY) {
        tj_val *idx[TJL_MAX_DIMS];
        for (int i = 0; i < e->nargs && i < TJL_MAX_DIMS; i++)
            if (!(idx[i] = tjl_lower_index(L, e->args[i])))
                return NULL;
        return tj_load(L->k, o, idx, e->nargs);
    }
    if (ot.kind == TJL_T_TILE)
        return lower_tile_index(L, e, o);
    tj_val *r = tjl_lower_extract_at(L, o, ot, e->args[0]);
    if (r && ot.kind == TJL_T_MATRIX && e->nargs == 2) {
        tjl_type rt = {.kind = TJL_T_VECTOR, .dtype = ot.dtype, .rows = ot.cols, .cols = 1};
        r = tjl_lower_extract_at(L, r, rt, e->args[1]);
    }
    return r;
}

/* ---- operators ----------------------------------------------------------------------------- */

static const int binops[TJL_NOPS] = {
    [TJL_OP_ADD] = TJ_BIN_ADD,       [TJL_OP_SUB] = TJ_BIN_SUB,     [TJL_OP_MUL] = TJ_BIN_MUL,
    [TJL_OP_DIV] = TJ_BIN_DIV,       [TJL_OP_MOD] = TJ_BIN_MOD,     [TJL_OP_POW] = TJ_BIN_POW,
    [TJL_OP_MATMUL] = TJ_BIN_MUL,    [TJL_OP_LSHIFT] = TJ_BIN_SHL,  [TJL_OP_RSHIFT] = TJ_BIN_SHR,
    [TJL_OP_BITAND] = TJ_BIN_BIT_AND, [TJL_OP_BITOR] = TJ_BIN_BIT_OR,
    [TJL_OP_BITXOR] = TJ_BIN_BIT_XOR,
};

static const int cmps[TJL_NOPS] = {
    [TJL_OP_EQ] = TJ_CMP_EQ, [TJL_OP_NE] = TJ_CMP_NE, [TJL_OP_LT] = TJ_CMP_LT,
    [TJL_OP_LE] = TJ_CMP_LE, [TJL_OP_GT] = TJ_CMP_GT, [TJL_OP_GE] = TJ_CMP_GE,
};

/* a // b: floor for floats; for signed integers the quotient rounded towards minus
 * infinity (q - 1 when the remainder is non-zero and the signs differ). */
static tj_val *
floordiv(tjl_lower *L, tj_val *a, tjl_type ta, tj_val *b, int pos)
{
    tj_kernel *k = L->k;
    tjl_type el = ta.kind == TJL_T_TILE ? tjl_elem(ta) : ta;
    tj_val *q = tj_binary(k, TJ_BIN_DIV, a, b);
    if (tjl_dtype_is_float(el.dtype))
        return tj_unary(k, TJ_UN_FLOOR, q);
    if (!tjl_dtype_is_signed(el.dtype))
        return q;
    if (ta.kind == TJL_T_TILE)
        return tjl_lower_fail(L, pos, "'//' on tiles of signed integers is not supported (use "
                                      "'/' or wp.tile_map)");
    tj_val *zero = tjl_lower_const(L, el, 0, 0), *one = tjl_lower_const(L, el, 1, 0);
    tj_val *r = tj_binary(k, TJ_BIN_MOD, a, b);
    tj_val *inexact = tj_compare(k, TJ_CMP_NE, r, zero);
    tj_val *signs = tj_compare(k, TJ_CMP_NE, tj_compare(k, TJ_CMP_LT, r, zero),
                               tj_compare(k, TJ_CMP_LT, b, zero));
    tj_val *adjust = tj_select(k, tj_binary(k, TJ_BIN_AND, inexact, signs), one, zero);
    return tj_binary(k, TJ_BIN_SUB, q, adjust);
}

/* a ** n for integers and a constant n in [0, 64]: square and multiply. */
static tj_val *
int_pow(tjl_lower *L, tj_val *a, tjl_type t, int64_t n)
{
    tj_val *r = tjl_lower_const(L, t, 1, 0), *sq = a;
    for (; n > 0 && r && sq; n >>= 1) {
        if (n & 1)
            r = tj_binary(L->k, TJ_BIN_MUL, r, sq);
        if (n > 1)
            sq = tj_binary(L->k, TJ_BIN_MUL, sq, sq);
    }
    return r;
}

tj_val *
tjl_lower_binop(tjl_lower *L, int op, tj_val *a, tjl_type ta, tj_val *b, tjl_type tb, int pos,
                const tjl_expr *bexpr)
{
    tj_kernel *k = L->k;
    tjl_type el = ta.kind == TJL_T_TILE ? tjl_elem(ta) : ta;
    if (!a || !b)
        return NULL;
    if (op >= TJL_OP_EQ && op <= TJL_OP_GE)
        return tj_compare(k, (tj_cmp)cmps[op], a, b);
    if (op == TJL_OP_FLOORDIV)
        return floordiv(L, a, ta, b, pos);
    if (op == TJL_OP_POW && tjl_dtype_is_int(el.dtype) && ta.kind != TJL_T_TILE)
        return bexpr && bexpr->is_const ? int_pow(L, a, ta, bexpr->ival)
                                        : tjl_lower_fail(L, pos, "an integer power needs a "
                                                                 "constant exponent");
    if (el.dtype == TJ_DTYPE_BOOL && el.kind == TJL_T_SCALAR) {
        if (op == TJL_OP_BITAND)
            return tj_binary(k, TJ_BIN_AND, a, b);
        if (op == TJL_OP_BITOR)
            return tj_binary(k, TJ_BIN_OR, a, b);
        if (op == TJL_OP_BITXOR)
            return tj_compare(k, TJ_CMP_NE, a, b);
    }
    (void)tb;
    return tj_binary(k, (tj_binop)binops[op], a, b);
}

static tj_val *
lower_unary(tjl_lower *L, tjl_expr *e)
{
    tj_val *a = tjl_lower_expr(L, e->args[0]);
    if (!a)
        return NULL;
    switch (e->op) {
    case TJL_OP_NEG:
        return tj_unary(L->k, TJ_UN_NEG, a);
    case TJL_OP_INVERT:
        return tj_unary(L->k, TJ_UN_BIT_NOT, a);
    case TJL_OP_NOT:
        return tj_unary(L->k, TJ_UN_NOT, tjl_lower_bool(L, a, e->args[0]->type));
    default:
        return a;
    }
}

static tj_val *
lower_logic(tjl_lower *L, tjl_expr *e)
{
    tj_val *a = tjl_lower_expr(L, e->args[0]);
    a = tjl_lower_bool(L, a, e->args[0]->type);
    tj_val *b = a ? tjl_lower_expr(L, e->args[1]) : NULL;
    b = tjl_lower_bool(L, b, e->args[1]->type);
    if (!a || !b)
        return NULL;
    return tj_binary(L->k, e->kind == TJL_E_AND ? TJ_BIN_AND : TJ_BIN_OR, a, b);
}

static tj_val *
lower_compare(tjl_lower *L, tjl_expr *e)
{
    tj_val *prev = tjl_lower_expr(L, e->args[0]), *result = NULL;
    for (int i = 1; prev && i < e->nargs; i++) {
        tj_val *next = tjl_lower_expr(L, e->args[i]);
        if (!next)
            return NULL;
        tj_val *r = tj_compare(L->k, (tj_cmp)cmps[e->cmpops[i - 1]], prev, next);
        result = result ? tj_binary(L->k, TJ_BIN_AND, result, r) : r;
        prev = next;
    }
    return result;
}

static tj_val *
lower_ifexp(tjl_lower *L, tjl_expr *e)
{
    tj_val *c = tjl_lower_expr(L, e->args[0]);
    c = tjl_lower_bool(L, c, e->args[0]->type);
    tj_val *a = c ? tjl_lower_expr(L, e->args[1]) : NULL;
    tj_val *b = a ? tjl_lower_expr(L, e->args[2]) : NULL;
    return b ? tj_select(L->k, c, a, b) : NULL;
}

/* ---- calls --------------------------------------------------------------------------------- */

static tj_val *
lower_user_call(tjl_lower *L, tjl_expr *e, int fi)
{
    tj_func *f = tjl_lower_func_of(L, fi);
    const tjl_func *g = L->p->funcs[fi];
    tj_val *args[TJL_MAX_ARGS];
    if (!f)
        return tjl_lower_fail(L, e->pos, "internal error: function '%s' was not made", g->name);
    for (int i = 0; i < g->nparams; i++)
        if (!(args[i] = tjl_lower_expr(L, e->bound[i])))
            return NULL;
    tj_val *r = tj_call(L->k, f, args, (size_t)g->nparams);
    if (r && g->ret.kind == TJL_T_NONE)
        return tjl_lower_ok(L, e->pos) ? tjl_void_val : NULL;
    return r;
}

static tj_val *
lower_construct(tjl_lower *L, tjl_expr *e, tjl_type t)
{
    tj_kernel *k = L->k;
    const tj_type *lt = tjl_lib_type(L->b, t);
    tj_val *vals[16];
    switch (e->op) {
    case TJL_CONS_ZERO:
        return tj_zero(k, lt);
    case TJL_CONS_CAST: {
        tj_val *v = tjl_lower_expr(L, e->args[0]);
        return v && !tjl_type_eq(e->args[0]->type, t) ? tj_cast(k, v, lt) : v;
    }
    case TJL_CONS_FILL:
    case TJL_CONS_COMPONENTS:
        for (int i = 0; i < e->nargs && i < 16; i++)
            if (!(vals[i] = tjl_lower_expr(L, e->args[i])))
                return NULL;
        return tj_compose(k, lt, vals, (size_t)e->nargs);
    case TJL_CONS_ROWS:
        for (int r = 0; r < e->nargs && r < 4; r++) {
            tj_val *row = tjl_lower_expr(L, e->args[r]);
            if (!row)
                return NULL;
            for (int c = 0; c < t.cols; c++)
                vals[r * t.cols + c] = tj_extract(k, row, c);
        }
        return tj_compose(k, lt, vals, (size_t)(t.rows * t.cols));
    default: { /* a struct: zero, then the fields given */
        const tjl_struct *st = L->p->structs[t.sid];
        tj_val *s = tj_zero(k, lt);
        for (int i = 0; s && i < st->nfields; i++) {
            if (!e->bound[i])
                continue;
            tj_val *v = tjl_lower_expr(L, e->bound[i]);
            s = v ? tj_set_field(k, s, st->fields[i].name, v) : NULL;
        }
        return s;
    }
    }
}

static tj_val *
lower_call(tjl_lower *L, tjl_expr *e)
{
    tjl_type ft = e->fn->type;
    if (ft.kind == TJL_T_FUNC && ft.sid >= 0)
        return tjl_lower_builtin(L, e, ft.sid);
    if (ft.kind == TJL_T_FUNC)
        return lower_user_call(L, e, -ft.sid - 1);
    if (ft.kind == TJL_T_TYPE)
        return lower_construct(L, e, tjl_elem(ft));
    return tjl_lower_fail(L, e->pos, "internal error: a call of something not callable");
}

static tj_val *
lower_node(tjl_lower *L, tjl_expr *e)
{
    if (e->is_const && e->type.kind == TJL_T_SCALAR)
        return tjl_lower_const(L, e->type, e->ival, e->fval);
    switch (e->kind) {
    case TJL_E_NAME:
        return lower_name(L, e);
    case TJL_E_ATTR:
        return lower_attr(L, e);
    case TJL_E_INDEX:
        return lower_index(L, e);
    case TJL_E_CALL:
        return lower_call(L, e);
    case TJL_E_UNARY:
        return lower_unary(L, e);
    case TJL_E_BINARY: {
        tj_val *a = tjl_lower_expr(L, e->args[0]);
        tj_val *b = a ? tjl_lower_expr(L, e->args[1]) : NULL;
        return tjl_lower_binop(L, e->op, a, e->args[0]->type, b, e->args[1]->type, e->pos,
                               e->args[1]);
    }
    case TJL_E_AND:
    case TJL_E_OR:
        return lower_logic(L, e);
    case TJL_E_COMPARE:
        return lower_compare(L, e);
    case TJL_E_IFEXP:
        return lower_ifexp(L, e);
    default:
        return tjl_lower_fail(L, e->pos, "this expression is not a value");
    }
}

tj_val *
tjl_lower_expr(tjl_lower *L, tjl_expr *e)
{
    if (L->p->err.set)
        return NULL;
    tj_val *v = lower_node(L, e);
    if (!tjl_lower_ok(L, e->pos))
        return NULL;
    if (!v)
        return tjl_lower_fail(L, e->pos, "internal error: no value for this expression");
    return v;
}
