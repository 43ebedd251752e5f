/*
 * jit/lang/builtins_check.c: the type rules of each builtin, after its arguments are bound
 * (builtins.c). Mirrors the builder's rules (tilejit.h, SPEC 4) where they can be decided
 * without a build configuration; tile extents that depend on the block width are TJL_DIM_B
 * and the builder checks the rest when lowering. Compile-time arguments (shape, axis,
 * capacity, atomic, preserve_type, dtype, storage, slice bounds) must be constants here.
 */
#include <stdio.h>
#include <string.h>

#include "builtins_check.h"

#define P(c) tjl_checker_program(c)
#define TN(t, buf) tjl_type_name(P(c), (t), (buf), sizeof(buf))

static tjl_type
tile_of(tjl_type elem, int rank, const int32_t *shape)
{
    tjl_type t = tjl_container(TJL_T_TILE, elem, rank);
    for (int i = 0; i < rank && i < TJL_MAX_DIMS; i++)
        t.shape[i] = shape[i];
    return t;
}

/* ---- math ---------------------------------------------------------------------------------- */

static bool
unary_rule(int id, tjl_type t, tjl_type *r)
{
    bool fl = tjl_is_value(t) && t.kind != TJL_T_STRUCT && tjl_dtype_is_float(t.dtype);
    *r = t;
    switch (id) {
    case TJL_B_ABS:
    case TJL_B_NEG:
        return tjl_is_numeric(t);
    case TJL_B_LENGTH:
        *r = tjl_scalar(t.dtype);
        return fl && (t.kind == TJL_T_VECTOR || t.kind == TJL_T_QUAT);
    case TJL_B_NORMALIZE:
        return fl && (t.kind == TJL_T_VECTOR || t.kind == TJL_T_QUAT);
    case TJL_B_TRANSPOSE:
        r->rows = t.cols;
        r->cols = t.rows;
        return t.kind == TJL_T_MATRIX;
    default: /* sqrt ... tanh */
        return fl;
    }
}

/* The operator a builtin function applies (add -> +), or -1. */
static int
builtin_op(int id)
{
    switch (id) {
    case TJL_B_ADD: return TJL_OP_ADD;
    case TJL_B_SUB: return TJL_OP_SUB;
    case TJL_B_MUL: return TJL_OP_MUL;
    case TJL_B_DIV: return TJL_OP_DIV;
    case TJL_B_MOD: return TJL_OP_MOD;
    case TJL_B_BIT_AND: return TJL_OP_BITAND;
    case TJL_B_BIT_OR: return TJL_OP_BITOR;
    case TJL_B_BIT_XOR: return TJL_OP_BITXOR;
    default: return -1;
    }
}

static bool
binary_rule(int id, tjl_type a, tjl_type b, tjl_type *r)
{
    int op = builtin_op(id);
    if (op >= 0)
        return tjl_value_binary(op, a, b, r);
    bool same = tjl_type_eq(a, b) && tjl_is_value(a);
    bool fl_scalar = same && tjl_is_float(a);
    *r = a;
    switch (id) {
    case TJL_B_MIN:
    case TJL_B_MAX:
        return same && tjl_is_numeric(a);
    case TJL_B_POW:
    case TJL_B_ATAN2:
        return fl_scalar;
    case TJL_B_DOT:
        *r = tjl_scalar(a.dtype);
        return same && tjl_is_numeric(a) && (a.kind == TJL_T_VECTOR || a.kind == TJL_T_QUAT);
    case TJL_B_CROSS:
        return same && tjl_is_numeric(a) && a.kind == TJL_T_VECTOR && a.rows == 3;
    case TJL_B_CW_MUL:
    case TJL_B_CW_DIV:
        return same && tjl_is_composite(a) && tjl_is_numeric(a);
    default:
        return false;
    }
}

bool
tjl_is_unary_math(int id)
{
    return id >= TJL_B_ABS && id <= TJL_B_TRANSPOSE;
}

bool
tjl_is_binary_math(int id)
{
    return id >= TJL_B_MIN && id <= TJL_B_BIT_XOR;
}

/* Applies builtin 'id' to operand types (tiles element-wise); message at 'at'. */
static bool
math_type(tjl_checker *c, int id, const tjl_type *ts, int n, const tjl_expr *at, tjl_type *out)
{
    char b1[96], b2[96];
    const tjl_type *tile = NULL;
    tjl_type el[2];
    for (int i = 0; i < n; i++) {
        el[i] = ts[i].kind == TJL_T_TILE ? tjl_elem(ts[i]) : ts[i];
        if (ts[i].kind == TJL_T_TILE) {
            if (tile && tile->ndim != ts[i].ndim)
                return tjl_fail(P(c), at->pos, "%s: the tiles have ranks %d and %d",
                                tjl_builtin_name(id), tile->ndim, ts[i].ndim);
            tile = &ts[i];
        }
    }
    tjl_type r;
    bool ok = n == 1 ? unary_rule(id, el[0], &r) : binary_rule(id, el[0], el[1], &r);
    if (!ok || !tjl_is_value(el[0]) || (n == 2 && !tjl_is_value(el[1]))) {
        if (n == 1)
            return tjl_fail(P(c), at->pos, "%s() does not take %s", tjl_builtin_name(id),
                            TN(ts[0], b1));
        return tjl_fail(P(c), at->pos, "%s() does not take %s and %s%s", tjl_builtin_name(id),
                        TN(el[0], b1), TN(el[1], b2),
                        el[0].kind == TJL_T_SCALAR && el[1].kind == TJL_T_SCALAR &&
                                el[0].dtype != el[1].dtype
                            ? " (types are not converted implicitly)" : "");
    }
    *out = tile ? tile_of(r, tile->ndim, tile->shape) : r;
    return true;
}

static bool
check_math(tjl_checker *c, tjl_expr *e, int id, int n)
{
    tjl_type ts[2];
    for (int i = 0; i < n; i++) {
        if (!tjl_check_expr(c, e->bound[i]))
            return false;
        ts[i] = e->bound[i]->type;
    }
    return math_type(c, id, ts, n, e, &e->type);
}

static bool
check_select(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96], b2[96];
    if (!tjl_check_cond(c, e->bound[0], "the condition") ||
        !tjl_check_value(c, e->bound[1], "a value of select") ||
        !tjl_check_value(c, e->bound[2], "a value of select"))
        return false;
    if (!tjl_type_eq(e->bound[1]->type, e->bound[2]->type))
        return tjl_fail(P(c), e->pos, "%s(): the two values have different types: %s and %s",
                        tjl_builtin_name(id), TN(e->bound[1]->type, b1),
                        TN(e->bound[2]->type, b2));
    e->type = e->bound[1]->type;
    return true;
}

/* ---- arrays and threads ------------------------------------------------------------------- */

static bool
check_indices(tjl_checker *c, tjl_expr *e, int id, int want, const char *what)
{
    if (e->nvargs != want)
        return tjl_fail(P(c), e->pos, "%s: %s has %d dimension%s and takes as many indices, got "
                                      "%d", tjl_builtin_name(id), what, want,
                        want == 1 ? "" : "s", e->nvargs);
    for (int i = 0; i < e->nvargs; i++)
        if (!tjl_arg_int(c, e->vargs[i], id, "i"))
            return false;
    return true;
}

static bool
check_atomic(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    if (!tjl_arg_kind(c, e->bound[0], id, "arr", TJL_T_ARRAY, "an array"))
        return false;
    tjl_type at = e->bound[0]->type, el = tjl_elem(at);
    if (!check_indices(c, e, id, at.ndim, "the array") ||
        !tjl_arg_as(c, e->bound[1], id, "value", el))
        return false;
    bool ok = id == TJL_B_ATOMIC_ADD ? tjl_is_numeric(el) : tjl_is_numeric(el) &&
                                                             el.kind == TJL_T_SCALAR;
    if (!ok)
        return tjl_arg_fail(c, e->bound[0], id, "arr", "holds %s, which %s does not take",
                            TN(el, b1), tjl_builtin_name(id));
    e->type = el;
    return true;
}

static bool
check_tid(tjl_checker *c, tjl_expr *e)
{
    if (c->unpack == 0) {
        e->type = tjl_scalar(TJ_DTYPE_I32);
        return true;
    }
    if (c->unpack > TJL_MAX_DIMS)
        return tjl_fail(P(c), e->pos, "tid() gives 1 to 4 coordinates, not %d", c->unpack);
    e->type = tjl_container(TJL_T_TUPLE, tjl_scalar(TJ_DTYPE_I32), c->unpack);
    return true;
}

/* ---- operators passed to tile_reduce and tile_map ---------------------------------------- */

bool
tjl_func_signature(tjl_checker *c, tjl_expr *op, int *n, tjl_type *params, tjl_type *ret)
{
    int fi = -op->type.sid - 1;
    tjl_func *g = P(c)->funcs[fi];
    if (g->is_kernel)
        return tjl_fail(P(c), op->pos, "kernel '%s' cannot be used as an operator", g->name);
    if (!tjl_need_return_type(c, fi, op->pos))
        return false;
    *n = g->nparams;
    for (int i = 0; i < g->nparams; i++)
        params[i] = g->params[i].type;
    *ret = g->ret;
    return true;
}

static bool
reduce_op(tjl_checker *c, tjl_expr *e, int id, tjl_expr *op, tjl_type el)
{
    char b1[96];
    if (!tjl_check_expr(c, op))
        return false;
    if (op->type.kind != TJL_T_FUNC)
        return tjl_arg_fail(c, op, id, "op", "must be an operator such as wp.add or a @wp.func, "
                                             "got %s", TN(op->type, b1));
    if (op->type.sid >= 0) {
        int b = op->type.sid;
        int opc = b == TJL_B_ADD ? TJL_OP_ADD : b == TJL_B_MUL ? TJL_OP_MUL
                : b == TJL_B_BIT_AND ? TJL_OP_BITAND : b == TJL_B_BIT_OR ? TJL_OP_BITOR
                : b == TJL_B_BIT_XOR ? TJL_OP_BITXOR : -1;
        tjl_type r;
        bool ok = opc >= 0 ? tjl_value_binary(opc, el, el, &r)
                : (b == TJL_B_MIN || b == TJL_B_MAX) && tjl_is_numeric(el);
        if (opc < 0 && b != TJL_B_MIN && b != TJL_B_MAX)
            return tjl_arg_fail(c, op, id, "op", "must be wp.add, wp.mul, wp.min, wp.max, "
                                                 "wp.bit_and, wp.bit_or, wp.bit_xor or a "
                                                 "@wp.func, not wp.%s", tjl_builtin_name(b));
        if (!ok || (opc >= 0 && !tjl_type_eq(r, el)))
            return tjl_arg_fail(c, op, id, "op", "wp.%s does not combine %s elements",
                                tjl_builtin_name(b), TN(el, b1));
        return true;
    }
    int n;
    tjl_type ps[TJL_MAX_ARGS], ret;
    if (!tjl_func_signature(c, op, &n, ps, &ret))
        return false;
    if (n != 2 || !tjl_type_eq(ps[0], el) || !tjl_type_eq(ps[1], el) || !tjl_type_eq(ret, el))
        return tjl_arg_fail(c, op, id, "op", "function '%s' must take two %s and return %s",
                            P(c)->funcs[-op->type.sid - 1]->name, TN(el, b1), TN(el, b1));
    (void)e;
    return true;
}

static bool
check_reduce(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    tjl_expr *a = id == TJL_B_TILE_REDUCE ? e->bound[1] : e->bound[0];
    tjl_expr *axis = id == TJL_B_TILE_REDUCE ? e->bound[2] : e->bound[1];
    if (!tjl_arg_kind(c, a, id, "a", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = a->type, el = tjl_elem(t);
    if (id == TJL_B_TILE_REDUCE && !reduce_op(c, e, id, e->bound[0], el))
        return false;
    if (id != TJL_B_TILE_REDUCE && !tjl_is_numeric(el))
        return tjl_arg_fail(c, a, id, "a", "holds %s; it needs numbers", TN(el, b1));
    int32_t one = 1;
    if (!axis) {
        e->type = tile_of(el, 1, &one);
        return true;
    }
    int64_t ax;
    if (!tjl_const_int_arg(c, axis, tjl_builtin_name(id), "argument 'axis'", &ax))
        return false;
    if (ax < 0 || ax >= t.ndim)
        return tjl_arg_fail(c, axis, id, "axis", "is %lld, out of range for a rank-%d tile",
                            (long long)ax, t.ndim);
    if (el.kind != TJL_T_SCALAR)
        return tjl_arg_fail(c, a, id, "a", "holds %s; reducing along an axis needs scalars",
                            TN(el, b1));
    if (t.ndim == 1) {
        e->type = tile_of(el, 1, &one);
        return true;
    }
    int32_t shape[TJL_MAX_DIMS];
    for (int i = 0, j = 0; i < t.ndim; i++)
        if (i != ax)
            shape[j++] = t.shape[i];
    e->type = tile_of(el, t.ndim - 1, shape);
    return true;
}

static bool
check_map(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    tjl_expr *op = e->bound[0];
    if (!tjl_check_expr(c, op))
        return false;
    if (op->type.kind != TJL_T_FUNC)
        return tjl_arg_fail(c, op, id, "op", "must be a function, got %s", TN(op->type, b1));
    if (e->nvargs < 1 || e->nvargs > 8)
        return tjl_fail(P(c), e->pos, "tile_map() takes 1 to 8 tiles, got %d", e->nvargs);
    tjl_type ts[8], el[8];
    const tjl_type *tile = NULL;
    for (int i = 0; i < e->nvargs; i++) {
        if (!tjl_check_expr(c, e->vargs[i]))
            return false;
        ts[i] = e->vargs[i]->type;
        el[i] = ts[i].kind == TJL_T_TILE ? tjl_elem(ts[i]) : ts[i];
        if (ts[i].kind == TJL_T_TILE)
            tile = &ts[i];
        else if (!tjl_is_value(ts[i]))
            return tjl_arg_fail(c, e->vargs[i], id, "args", "must be tiles, got %s",
                                TN(ts[i], b1));
    }
    if (!tile)
        return tjl_fail(P(c), e->pos, "tile_map() needs at least one tile");
    int b = op->type.sid;
    if (b >= 0) {
        bool arity = (tjl_is_unary_math(b) && e->nvargs == 1) ||
                     (tjl_is_binary_math(b) && e->nvargs == 2);
        if (!arity)
            return tjl_arg_fail(c, op, id, "op", "wp.%s cannot be mapped over %d tile%s",
                                tjl_builtin_name(b), e->nvargs, e->nvargs == 1 ? "" : "s");
        return math_type(c, b, ts, e->nvargs, e, &e->type);
    }
    int n;
    tjl_type ps[TJL_MAX_ARGS], ret;
    if (!tjl_func_signature(c, op, &n, ps, &ret))
        return false;
    const char *fname = P(c)->funcs[-b - 1]->name;
    if (n != e->nvargs)
        return tjl_fail(P(c), e->pos, "tile_map: function '%s' takes %d argument%s, got %d tiles",
                        fname, n, n == 1 ? "" : "s", e->nvargs);
    for (int i = 0; i < n; i++)
        if (!tjl_type_eq(ps[i], el[i]))
            return tjl_arg_fail(c, e->vargs[i], id, "args", "holds %s, but '%s' takes %s",
                                TN(el[i], b1), fname, TN(ps[i], b1));
    if (!tjl_is_value(ret))
        return tjl_fail(P(c), e->pos, "tile_map: function '%s' returns nothing", fname);
    e->type = tile_of(ret, tile->ndim, tile->shape);
    return true;
}

/* ---- tile memory --------------------------------------------------------------------------- */

static bool
check_zeros(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    int rank;
    int32_t shape[TJL_MAX_DIMS];
    tjl_type el;
    if (!tjl_arg_shape(c, e->bound[0], id, "shape", &rank, shape) ||
        !tjl_arg_dtype(c, e->bound[1], id, "dtype", &el) || !tjl_arg_storage(c, e->bound[2], id))
        return false;
    if (id == TJL_B_TILE_ONES && !tjl_is_numeric(el))
        return tjl_arg_fail(c, e->bound[1], id, "dtype", "must be numeric, got %s", TN(el, b1));
    e->type = tile_of(el, rank, shape);
    return true;
}

static bool
check_arange(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    if (e->nvargs < 1 || e->nvargs > 3)
        return tjl_fail(P(c), e->pos, "tile_arange() takes 1 to 3 numbers (stop; start, stop; "
                                      "or start, stop, step), got %d", e->nvargs);
    bool all_int = true;
    double v[3] = {0, 0, 1};
    for (int i = 0; i < e->nvargs; i++) {
        tjl_expr *a = e->vargs[i];
        if (!tjl_check_expr(c, a))
            return false;
        if (!tjl_is_numeric(a->type) || a->type.kind != TJL_T_SCALAR)
            return tjl_arg_fail(c, a, id, "args", "must be numbers, got %s", TN(a->type, b1));
        if (!a->is_const)
            return tjl_arg_fail(c, a, id, "args", "must be compile-time constants");
        all_int = all_int && tjl_is_int(a->type);
        int slot = e->nvargs == 1 ? 1 : i;
        v[slot] = tjl_is_int(a->type) ? (double)a->ival : a->fval;
    }
    tjl_type el = tjl_scalar(all_int ? TJ_DTYPE_I32 : TJ_DTYPE_F32);
    if (e->bound[0] && !tjl_arg_dtype(c, e->bound[0], id, "dtype", &el))
        return false;
    if (!tjl_arg_storage(c, e->bound[1], id))
        return false;
    if (el.kind != TJL_T_SCALAR || !tjl_is_numeric(el))
        return tjl_arg_fail(c, e->bound[0], id, "dtype", "must be a numeric scalar type");
    double len = v[2] != 0 ? (v[1] - v[0]) / v[2] : 0;
    if (!(len >= 1) || len > 1e9)
        return tjl_fail(P(c), e->pos, "tile_arange(%g, %g, %g) has no elements", v[0], v[1],
                        v[2]);
    int32_t n = (int32_t)len;
    e->type = tile_of(el, 1, &n);
    return true;
}

/* tile_load, tile_store, tile_atomic_add: an array and a tile (or a shape) of its rank. */
static bool
check_load_store(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96], b2[96];
    if (!tjl_arg_kind(c, e->bound[0], id, "a", TJL_T_ARRAY, "an array"))
        return false;
    tjl_type at = e->bound[0]->type, el = tjl_elem(at);
    if (id == TJL_B_TILE_LOAD) {
        int rank;
        int32_t shape[TJL_MAX_DIMS];
        if (!tjl_arg_shape(c, e->bound[1], id, "shape", &rank, shape))
            return false;
        if (rank != at.ndim)
            return tjl_arg_fail(c, e->bound[1], id, "shape", "has %d dimension%s; the array has "
                                                             "%d", rank, rank == 1 ? "" : "s",
                                at.ndim);
        if (!tjl_arg_offset(c, e->bound[2], id, rank) || !tjl_arg_storage(c, e->bound[3], id))
            return false;
        e->type = tile_of(el, rank, shape);
        return true;
    }
    if (!tjl_arg_kind(c, e->bound[1], id, "t", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = e->bound[1]->type;
    if (!tjl_type_eq(tjl_elem(t), el))
        return tjl_fail(P(c), e->pos, "%s: the array holds %s and the tile %s",
                        tjl_builtin_name(id), TN(el, b1), TN(tjl_elem(t), b2));
    if (t.ndim != at.ndim)
        return tjl_fail(P(c), e->pos, "%s: the array has %d dimension%s and the tile %d; they "
                        "must match", tjl_builtin_name(id), at.ndim, at.ndim == 1 ? "" : "s",
                        t.ndim);
    if (!tjl_arg_offset(c, e->bound[2], id, t.ndim))
        return false;
    e->type = id == TJL_B_TILE_ATOMIC_ADD ? t : tjl_none();
    return true;
}

static bool
check_reshape(tjl_checker *c, tjl_expr *e, int id)
{
    if (!tjl_arg_kind(c, e->bound[0], id, "t", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = e->bound[0]->type;
    int rank, infer = -1;
    int32_t shape[TJL_MAX_DIMS];
    if (!tjl_const_shape_arg(c, e->bound[1], "tile_reshape", "argument 'shape'", &rank, shape))
        return false;
    int64_t size = 1, known = 1;
    for (int i = 0; i < t.ndim; i++) /* tile extents multiply to at most 2^24 */
        size = t.shape[i] > 0 && size > 0 && size <= TJL_MAX_TILE_ELEMS ? size * t.shape[i] : -1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] == -1) {
            if (infer >= 0)
                return tjl_arg_fail(c, e->bound[1], id, "shape", "may infer one extent (-1), "
                                                                 "not two");
            infer = i;
        } else if (shape[i] < 1) {
            return tjl_arg_fail(c, e->bound[1], id, "shape", "has the extent %d; extents must be "
                                "positive (one may be -1)", (int)shape[i]);
        } else {
            known *= shape[i];
            if (known > TJL_MAX_TILE_ELEMS)
                return tjl_arg_fail(c, e->bound[1], id, "shape", "has more than %d elements",
                                    TJL_MAX_TILE_ELEMS);
        }
    }
    if (infer >= 0)
        shape[infer] = size > 0 && size % known == 0 ? (int32_t)(size / known) : TJL_DIM_UNKNOWN;
    else if (size > 0 && size != known)
        return tjl_arg_fail(c, e->bound[1], id, "shape", "has %lld elements; the tile has %lld",
                            (long long)known, (long long)size);
    e->type = tile_of(tjl_elem(t), rank, shape);
    return true;
}

static bool
check_assign_tile(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96], b2[96];
    if (!tjl_arg_kind(c, e->bound[0], id, "dst", TJL_T_TILE, "a tile") ||
        !tjl_arg_kind(c, e->bound[1], id, "src", TJL_T_TILE, "a tile"))
        return false;
    tjl_type d = e->bound[0]->type, s = e->bound[1]->type;
    if (!tjl_type_eq(tjl_elem(d), tjl_elem(s)))
        return tjl_fail(P(c), e->pos, "tile_assign: 'dst' holds %s and 'src' %s",
                        TN(tjl_elem(d), b1), TN(tjl_elem(s), b2));
    if (d.ndim != s.ndim)
        return tjl_fail(P(c), e->pos, "tile_assign: 'dst' has rank %d and 'src' %d; they must "
                                      "match", d.ndim, s.ndim);
    return tjl_arg_offset(c, e->bound[2], id, d.ndim);
}

/* ---- tile, untile, view --------------------------------------------------------------------- */

static bool
check_tile(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    bool preserve = false;
    if (!tjl_check_value(c, e->bound[0], "tile: argument 'x'"))
        return false;
    if (e->bound[1] && !tjl_const_bool_arg(c, e->bound[1], id, "preserve_type", &preserve))
        return false;
    tjl_type x = e->bound[0]->type;
    int32_t shape[3];
    int rank = 0;
    if (preserve || x.kind == TJL_T_SCALAR) {
        shape[rank++] = TJL_DIM_B;
        e->type = tile_of(x, rank, shape);
        return true;
    }
    if (x.kind == TJL_T_STRUCT)
        return tjl_arg_fail(c, e->bound[0], id, "x", "is a struct (%s); it needs "
                                                     "preserve_type=True", TN(x, b1));
    if (x.kind == TJL_T_MATRIX)
        shape[rank++] = x.rows;
    shape[rank++] = x.kind == TJL_T_MATRIX ? x.cols : x.rows;
    shape[rank++] = TJL_DIM_B;
    e->type = tile_of(tjl_scalar(x.dtype), rank, shape);
    return true;
}

static bool
check_untile(tjl_checker *c, tjl_expr *e, int id)
{
    char b1[96];
    if (!tjl_arg_kind(c, e->bound[0], id, "a", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = e->bound[0]->type, el = tjl_elem(t);
    if (t.ndim == 1) {
        e->type = el;
        return true;
    }
    /* The builder's messages (builtins/tile.c), which the block width's check comes from. */
    tjl_program *p = P(c);
    const char *fn = tjl_builtin_name(id);
    int pos = e->bound[0]->pos;
    if (t.ndim > 3)
        return tjl_fail(p, pos, "%s: argument 'a': a tile of rank %d has no per-thread value "
                                "(rank 1 gives a scalar, 2 a vector, 3 a matrix)", fn, t.ndim);
    if (el.kind != TJL_T_SCALAR || !tjl_is_numeric(el))
        return tjl_fail(p, pos, "%s: argument 'a': a rank-%d tile needs numeric scalar "
                                "elements, not %s", fn, t.ndim, TN(el, b1));
    int r0 = t.shape[0], c0 = t.ndim == 3 ? t.shape[1] : 1;
    if (r0 < 1 || c0 < 1)
        return tjl_arg_fail(c, e->bound[0], id, "a", "%s: the leading extents must be known",
                            TN(t, b1));
    if (t.ndim == 2 ? r0 < 2 || r0 > 4 : r0 > 4 || c0 > 4 || r0 * c0 < 2)
        return tjl_fail(p, pos, "%s: argument 'a': a tile of shape (%d%s%.0d, %d) does not make "
                        "a %s", fn, r0, t.ndim == 3 ? ", " : "", t.ndim == 3 ? c0 : 0,
                        t.shape[t.ndim - 1], t.ndim == 2 ? "vector of 2 to 4 components"
                                                         : "matrix of at most 4x4");
    e->type = el;
    e->type.kind = t.ndim == 2 ? TJL_T_VECTOR : TJL_T_MATRIX;
    e->type.rows = (uint8_t)r0;
    e->type.cols = (uint8_t)c0;
    return true;
}

static bool
check_slice(tjl_checker *c, tjl_expr *e, int id)
{
    if (e->nvargs < 1 || e->nvargs > 3)
        return tjl_fail(P(c), e->pos, "slice() takes 1 to 3 arguments, got %d", e->nvargs);
    for (int i = 0; i < e->nvargs; i++) {
        int64_t v;
        if (e->vargs[i]->kind == TJL_E_NONE) {
            e->vargs[i]->type = tjl_none();
            continue;
        }
        if (!tjl_const_int_arg(c, e->vargs[i], "slice", "a bound", &v))
            return false;
        if (i == 2 && v == 0)
            return tjl_arg_fail(c, e->vargs[i], id, "step", "must not be zero");
    }
    e->type = tjl_simple(TJL_T_SLICE);
    return true;
}

/* slice(...) bounds as start, stop, step (INT64_MIN when omitted). */
static void
slice_bounds(const tjl_expr *s, int64_t *v)
{
    v[0] = v[1] = v[2] = INT64_MIN;
    int n = s->nvargs;
    for (int i = 0; i < n; i++) {
        int slot = n == 1 ? 1 : i;
        v[slot] = s->vargs[i]->kind == TJL_E_NONE ? INT64_MIN : s->vargs[i]->ival;
    }
}

static bool
check_view(tjl_checker *c, tjl_expr *e, int id)
{
    if (!tjl_arg_kind(c, e->bound[0], id, "t", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = e->bound[0]->type;
    tjl_expr *off = e->bound[1];
    tjl_expr *one[1] = {off};
    tjl_expr **items = off->kind == TJL_E_TUPLE ? off->args : one;
    int n = off->kind == TJL_E_TUPLE ? off->nargs : 1, nslice = 0, out = 0;
    if (n > t.ndim)
        return tjl_arg_fail(c, off, id, "offset", "has %d entries; the tile has %d dimension%s",
                            n, t.ndim, t.ndim == 1 ? "" : "s");
    int32_t shape[TJL_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        tjl_expr *x = items[i];
        if (!tjl_check_expr(c, x))
            return false;
        if (x->type.kind == TJL_T_SLICE) {
            int64_t v[3];
            slice_bounds(x, v);
            nslice++;
            shape[out++] = t.shape[i] > 0 ? tjl_slice_length(t.shape[i], v[0], v[1], v[2])
                                          : TJL_DIM_UNKNOWN;
            if (shape[out - 1] == 0)
                return tjl_arg_fail(c, x, id, "offset", "entry %d selects no elements", i);
        } else if (!tjl_is_int(x->type)) {
            return tjl_arg_fail(c, x, id, "offset", "entry %d must be an integer or a slice()",
                                i);
        }
    }
    if (e->bound[2]) {
        int rank;
        if (nslice)
            return tjl_arg_fail(c, e->bound[2], id, "shape", "cannot be given with slices");
        if (!tjl_arg_shape(c, e->bound[2], id, "shape", &rank, shape))
            return false;
        if (rank != t.ndim)
            return tjl_arg_fail(c, e->bound[2], id, "shape", "needs %d entries, one per "
                                                             "dimension of the tile", t.ndim);
        e->type = tile_of(tjl_elem(t), rank, shape);
        return true;
    }
    for (int i = n; i < t.ndim; i++)
        shape[out++] = t.shape[i];
    if (out == 0)
        return tjl_fail(P(c), e->pos, "tile_view: every dimension is selected by an integer; "
                                      "use tile_extract (or t[i, j]) for one element");
    e->type = tile_of(tjl_elem(t), out, shape);
    return true;
}

/* ---- scatter-add and stacks ----------------------------------------------------------------- */

static bool
check_scatter(tjl_checker *c, tjl_expr *e, int id)
{
    bool atomic = true;
    if (!tjl_arg_kind(c, e->bound[0], id, "a", TJL_T_TILE, "a tile"))
        return false;
    tjl_type t = e->bound[0]->type;
    /* Warp takes 'atomic' by position too (a, i..., value, has_value, atomic): binding put
     * the last two positional arguments in value and has_value, and the tile's rank now
     * says whether one more came before them. */
    if (!e->bound[3] && e->nvargs == t.ndim + 1) {
        e->bound[3] = e->bound[2];
        e->bound[2] = e->bound[1];
        e->bound[1] = e->vargs[--e->nvargs];
    }
    if (e->nvargs != t.ndim)
        return tjl_fail(P(c), e->pos, "%s: the tile has %d dimension%s and takes as many "
                                      "indices, then value, has_value and (optionally) atomic; "
                                      "got %d positional arguments after the tile",
                        tjl_builtin_name(id), t.ndim, t.ndim == 1 ? "" : "s", e->nargs - 1);
    if (!check_indices(c, e, id, t.ndim, "the tile") ||
        !tjl_arg_as(c, e->bound[1], id, "value", tjl_elem(t)) ||
        !tjl_arg_bool(c, e->bound[2], id, "has_value"))
        return false;
    if (e->bound[3] && !tjl_const_bool_arg(c, e->bound[3], id, "atomic", &atomic))
        return false;
    return true;
}

static bool
check_stack(tjl_checker *c, tjl_expr *e, int id)
{
    if (id == TJL_B_TILE_STACK) {
        int64_t cap;
        tjl_type el;
        if (!tjl_const_int_arg(c, e->bound[0], "tile_stack", "argument 'capacity'", &cap) ||
            !tjl_arg_dtype(c, e->bound[1], id, "dtype", &el))
            return false;
        if (cap < 1 || cap > INT32_MAX)
            return tjl_arg_fail(c, e->bound[0], id, "capacity", "is %lld; it must be positive",
                                (long long)cap);
        e->type = tjl_container(TJL_T_STACK, el, 0);
        e->type.shape[0] = (int32_t)cap;
        return true;
    }
    if (!tjl_arg_kind(c, e->bound[0], id, "s", TJL_T_STACK, "a tile stack"))
        return false;
    tjl_type el = tjl_elem(e->bound[0]->type);
    switch (id) {
    case TJL_B_TILE_STACK_PUSH:
        e->type = tjl_scalar(TJ_DTYPE_I32);
        return tjl_arg_as(c, e->bound[1], id, "value", el) &&
               tjl_arg_bool(c, e->bound[2], id, "has_value");
    case TJL_B_TILE_STACK_POP:
        if (c->unpack != 2)
            return tjl_fail(P(c), e->pos, "tile_stack_pop() returns (value, slot): unpack it "
                                          "with 'value, slot = wp.tile_stack_pop(s)'");
        e->type = tjl_container(TJL_T_TUPLE, el, 2);
        return true;
    case TJL_B_TILE_STACK_COUNT:
        e->type = tjl_scalar(TJ_DTYPE_I32);
        return true;
    default:
        return true;
    }
}

/* ---- types and constants ------------------------------------------------------------------ */

static bool
check_type_factory(tjl_checker *c, tjl_expr *e, int id)
{
    tjl_type el;
    if (!tjl_arg_dtype(c, e->bound[1], id, "dtype", &el))
        return false;
    if (el.kind != TJL_T_SCALAR || !tjl_is_numeric(el))
        return tjl_arg_fail(c, e->bound[1], id, "dtype", "must be a numeric scalar type");
    tjl_type t = el;
    if (id == TJL_B_VECTOR || id == TJL_B_VEC) {
        int64_t n;
        if (!tjl_const_int_arg(c, e->bound[0], tjl_builtin_name(id), "argument 'length'", &n))
            return false;
        if (n < 2 || n > 4)
            return tjl_arg_fail(c, e->bound[0], id, "length", "is %lld; vectors have 2 to 4 "
                                                              "components", (long long)n);
        t.kind = TJL_T_VECTOR;
        t.rows = (uint8_t)n;
    } else {
        int rank;
        int32_t shape[TJL_MAX_DIMS];
        if (!tjl_arg_shape(c, e->bound[0], id, "shape", &rank, shape))
            return false;
        if (rank != 2 || shape[0] > 4 || shape[1] > 4 || shape[0] * shape[1] < 2)
            return tjl_arg_fail(c, e->bound[0], id, "shape", "must be (rows, cols) of 1 to 4 "
                                                             "each, not both 1");
        t.kind = TJL_T_MATRIX;
        t.rows = (uint8_t)shape[0];
        t.cols = (uint8_t)shape[1];
    }
    e->type = tjl_container(TJL_T_TYPE, t, 0);
    return true;
}

static bool
check_constant(tjl_checker *c, tjl_expr *e)
{
    tjl_expr *x = e->bound[0];
    if (!tjl_check_expr(c, x))
        return false;
    if (!x->is_const || x->type.kind != TJL_T_SCALAR)
        return tjl_fail(P(c), x->pos, "constant() takes a compile-time scalar (literals, "
                                      "constants and operators on them)");
    e->type = x->type;
    e->is_const = true;
    e->ival = x->ival;
    e->fval = x->fval;
    return true;
}

bool
tjl_check_builtin(tjl_checker *c, tjl_expr *e, int id)
{
    if (tjl_is_unary_math(id))
        return check_math(c, e, id, 1);
    if (tjl_is_binary_math(id))
        return check_math(c, e, id, 2);
    switch (id) {
    case TJL_B_TID:
        return check_tid(c, e);
    case TJL_B_BLOCK_DIM:
        e->type = tjl_scalar(TJ_DTYPE_I32);
        return true;
    case TJL_B_SELECT:
    case TJL_B_WHERE:
        return check_select(c, e, id);
    case TJL_B_ATOMIC_ADD:
    case TJL_B_ATOMIC_MIN:
    case TJL_B_ATOMIC_MAX:
        return check_atomic(c, e, id);
    case TJL_B_TILE_ZEROS:
    case TJL_B_TILE_ONES:
        return check_zeros(c, e, id);
    case TJL_B_TILE_ARANGE:
        return check_arange(c, e, id);
    case TJL_B_TILE_LOAD:
    case TJL_B_TILE_STORE:
    case TJL_B_TILE_ATOMIC_ADD:
        return check_load_store(c, e, id);
    case TJL_B_TILE_RESHAPE:
        return check_reshape(c, e, id);
    case TJL_B_TILE_ASSIGN:
        return check_assign_tile(c, e, id);
    case TJL_B_TILE_EXTRACT:
        if (!tjl_arg_kind(c, e->bound[0], id, "a", TJL_T_TILE, "a tile") ||
            !check_indices(c, e, id, e->bound[0]->type.ndim, "the tile"))
            return false;
        e->type = tjl_elem(e->bound[0]->type);
        return true;
    case TJL_B_TILE:
        return check_tile(c, e, id);
    case TJL_B_UNTILE:
        return check_untile(c, e, id);
    case TJL_B_TILE_VIEW:
        return check_view(c, e, id);
    case TJL_B_TILE_MAP:
        return check_map(c, e, id);
    case TJL_B_TILE_REDUCE:
    case TJL_B_TILE_SUM:
    case TJL_B_TILE_MIN:
    case TJL_B_TILE_MAX:
        return check_reduce(c, e, id);
    case TJL_B_TILE_SCATTER_ADD:
        return check_scatter(c, e, id);
    case TJL_B_TILE_STACK:
    case TJL_B_TILE_STACK_PUSH:
    case TJL_B_TILE_STACK_POP:
    case TJL_B_TILE_STACK_COUNT:
    case TJL_B_TILE_STACK_CLEAR:
        return check_stack(c, e, id);
    case TJL_B_SLICE:
        return check_slice(c, e, id);
    case TJL_B_CONSTANT:
        return check_constant(c, e);
    case TJL_B_VECTOR:
    case TJL_B_VEC:
    case TJL_B_MATRIX:
    case TJL_B_MAT:
        return check_type_factory(c, e, id);
    case TJL_B_RANGE:
        return tjl_fail(P(c), e->pos, "range() is only allowed in 'for ... in range(...)'");
    case TJL_B_ARRAY:
    case TJL_B_ARRAY1D:
    case TJL_B_ARRAY2D:
    case TJL_B_ARRAY3D:
    case TJL_B_ARRAY4D:
        return tjl_fail(P(c), e->pos, "array types are only allowed in annotations");
    default:
        return tjl_fail(P(c), e->pos, "%s() is not supported by the kernel language",
                        tjl_builtin_name(id));
    }
}
