/*
 * jit/lang/check_call.c: the checker's entry for expressions (tjl_check_expr), calls of
 * user functions, casts and constructors of types and structs, literals (a literal passed
 * to a type converts exactly: wp.float64(0.1), wp.int64(10000000000)), and type
 * expressions (annotations and dtype= arguments).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define TN(t, buf) tjl_type_name(c->p, (t), (buf), sizeof(buf))

/* ---- literals ------------------------------------------------------------------------------ */

bool
tjl_is_literal(const tjl_expr *e)
{
    if (e->kind == TJL_E_UNARY && (e->op == TJL_OP_NEG || e->op == TJL_OP_POS))
        e = e->args[0];
    return e->kind == TJL_E_INT || e->kind == TJL_E_FLOAT;
}

/* A (possibly signed) literal typed directly as 'dt', without the int32 limit. */
bool
tjl_check_literal_as(tjl_checker *c, tjl_expr *e, int dt)
{
    tjl_expr *lit = e->kind == TJL_E_UNARY ? e->args[0] : e;
    bool neg = e->kind == TJL_E_UNARY && e->op == TJL_OP_NEG;
    /* Above INT64_MAX only wp.uint64 and the floats hold it, -2^63 only the signed types. */
    uint64_t mag = (uint64_t)lit->ival;
    int from = lit->kind == TJL_E_FLOAT ? TJ_DTYPE_F64
             : !neg && mag > (uint64_t)INT64_MAX ? TJ_DTYPE_U64 : TJ_DTYPE_I64;
    if (lit->kind == TJL_E_INT && mag > (uint64_t)INT64_MAX &&
        (neg ? mag != (uint64_t)INT64_MAX + 1 || !tjl_dtype_is_signed(dt)
             : dt != TJ_DTYPE_U64 && !tjl_dtype_is_float(dt)))
        return tjl_fail(c->p, lit->pos, "integer literal %s%llu does not fit in %s",
                        neg ? "-" : "", (unsigned long long)mag, tjl_dtype_name(dt));
    e->ival = neg ? (int64_t)(0 - mag) : lit->ival;
    e->fval = neg ? -lit->fval : lit->fval;
    if (e != lit) {
        lit->type = tjl_scalar((tj_dtype)from);
        lit->is_const = true;
    }
    tjl_const_convert(e, from, dt);
    e->type = tjl_scalar((tj_dtype)dt);
    return true;
}

bool
tjl_literal_fits(const tjl_expr *e, int dt, char *why, size_t n)
{
    const tjl_expr *lit = e->kind == TJL_E_UNARY ? e->args[0] : e;
    bool neg = e->kind == TJL_E_UNARY && e->op == TJL_OP_NEG;
    const char *sign = neg ? "-" : "";
    if (tjl_dtype_is_float(dt))
        return true;
    if (lit->kind == TJL_E_FLOAT) {
        char v[40]; /* as Python prints a float: the shortest that reads back, 1.0 not 1 */
        int len = 0;
        for (int prec = 1; prec <= 17; prec++) {
            len = snprintf(v, sizeof v, "%s%.*g", sign, prec, lit->fval);
            if (strtod(v + (neg ? 1 : 0), NULL) == lit->fval)
                break;
        }
        if (len > 0 && (size_t)len + 2 < sizeof v && !strpbrk(v, ".einIN"))
            memcpy(v + len, ".0", 3);
        snprintf(why, n, "the float literal %s (write wp.%s(%s) to convert)", v,
                 tjl_dtype_name(dt), v);
        return false;
    }
    uint64_t v = (uint64_t)lit->ival, max;
    if (dt == TJ_DTYPE_BOOL)
        max = 1;
    else if (tjl_dtype_is_signed(dt))
        max = (UINT64_C(1) << (tjl_dtype_bits(dt) - 1)) - 1 + (neg ? 1 : 0);
    else
        max = neg ? 0 : tjl_dtype_bits(dt) == 64 ? UINT64_MAX
                                                 : (UINT64_C(1) << tjl_dtype_bits(dt)) - 1;
    if (v <= max)
        return true;
    if (dt == TJ_DTYPE_BOOL)
        snprintf(why, n, "%s%llu (a bool is True, False, 1 or 0)", sign, (unsigned long long)v);
    else
        snprintf(why, n, "%s%llu, outside the range of %s", sign, (unsigned long long)v,
                 tjl_dtype_name(dt));
    return false;
}

static bool
check_literal(tjl_checker *c, tjl_expr *e)
{
    if (e->kind == TJL_E_FLOAT) {
        e->type = tjl_scalar(TJ_DTYPE_F32);
        e->fval = (double)(float)e->fval;
    } else if (e->kind == TJL_E_BOOL) {
        e->type = tjl_scalar(TJ_DTYPE_BOOL);
    } else {
        if ((uint64_t)e->ival > INT32_MAX)
            return tjl_fail(c->p, e->pos, "integer literal %llu does not fit in int32 (write "
                                          "wp.int64(%llu))", (unsigned long long)e->ival,
                            (unsigned long long)e->ival);
        e->type = tjl_scalar(TJ_DTYPE_I32);
    }
    e->is_const = true;
    return true;
}

/* ---- user functions ------------------------------------------------------------------------ */

/* Binds positional and keyword arguments to 'n' parameters named 'names'. */
static bool
bind_named(tjl_checker *c, tjl_expr *e, const char *fn, char *const *names, int n,
           tjl_expr **out)
{
    if (e->nargs > n)
        return tjl_fail(c->p, e->pos, "%s() takes %d argument%s, got %d", fn, n,
                        n == 1 ? "" : "s", e->nargs + e->nkw);
    for (int i = 0; i < n; i++)
        out[i] = i < e->nargs ? e->args[i] : NULL;
    for (int k = 0; k < e->nkw; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], e->kwnames[k]) != 0)
            i++;
        if (i == n)
            return tjl_fail(c->p, e->kwpos[k], "%s() got an unexpected keyword argument '%s'",
                            fn, e->kwnames[k]);
        if (out[i])
            return tjl_fail(c->p, e->kwpos[k], "%s() got multiple values for argument '%s'",
                            fn, e->kwnames[k]);
        out[i] = e->kwargs[k];
    }
    return true;
}

/* Checks argument 'a' against the expected type 't' (literals convert to scalar types). */
static bool
check_arg_as(tjl_checker *c, tjl_expr *a, tjl_type t, const char *fn, const char *name)
{
    char b1[96], b2[96];
    if (t.kind == TJL_T_SCALAR && tjl_is_literal(a)) {
        if (!tjl_literal_fits(a, t.dtype, b2, sizeof b2))
            return tjl_fail(c->p, a->pos, "argument '%s' of %s() must be %s, got %s", name, fn,
                            TN(t, b1), b2);
        return tjl_check_literal_as(c, a, t.dtype);
    }
    if (!tjl_check_expr(c, a))
        return false;
    if (!tjl_type_eq(a->type, t))
        return tjl_fail(c->p, a->pos, "argument '%s' of %s() must be %s, got %s", name, fn,
                        TN(t, b1), TN(a->type, b2));
    return true;
}

static bool
check_user_call(tjl_checker *c, tjl_expr *e, int fi)
{
    tjl_func *g = c->p->funcs[fi];
    if (g->is_kernel)
        return tjl_fail(c->p, e->pos, "kernel '%s' cannot be called (only @wp.func functions "
                                      "can)", g->name);
    char *names[TJL_MAX_ARGS];
    for (int i = 0; i < g->nparams; i++)
        names[i] = g->params[i].name;
    e->bound = tjl_alloc(&c->p->arena, (size_t)(g->nparams + 1) * sizeof *e->bound);
    if (!e->bound)
        return tjl_fail(c->p, e->pos, "out of memory");
    if (!bind_named(c, e, g->name, names, g->nparams, e->bound))
        return false;
    for (int i = 0; i < g->nparams; i++) {
        if (!e->bound[i])
            return tjl_fail(c->p, e->pos, "%s() is missing the argument '%s'", g->name,
                            names[i]);
        if (!check_arg_as(c, e->bound[i], g->params[i].type, g->name, names[i]))
            return false;
    }
    if (!tjl_need_return_type(c, fi, e->pos))
        return false;
    e->type = g->ret;
    return true;
}

/* ---- casts and constructors ---------------------------------------------------------------- */

static bool
construct_struct(tjl_checker *c, tjl_expr *e, tjl_type t)
{
    const tjl_struct *st = c->p->structs[t.sid];
    char *names[TJL_MAX_ARGS];
    for (int i = 0; i < st->nfields; i++)
        names[i] = st->fields[i].name;
    e->bound = tjl_alloc(&c->p->arena, (size_t)(st->nfields + 1) * sizeof *e->bound);
    if (!e->bound)
        return tjl_fail(c->p, e->pos, "out of memory");
    if (!bind_named(c, e, st->name, names, st->nfields, e->bound))
        return false;
    for (int i = 0; i < st->nfields; i++)
        if (e->bound[i] && !check_arg_as(c, e->bound[i], st->fields[i].type, st->name, names[i]))
            return false;
    e->op = TJL_CONS_STRUCT;
    e->type = t;
    return true;
}

static bool
construct_scalar(tjl_checker *c, tjl_expr *e, tjl_type t, const char *name)
{
    char b1[96];
    if (e->nargs == 0) {
        e->op = TJL_CONS_ZERO;
        e->type = t;
        e->is_const = true;
        return true;
    }
    tjl_expr *a = e->args[0];
    e->op = TJL_CONS_CAST;
    e->type = t;
    if (tjl_is_literal(a)) {
        if (!tjl_check_literal_as(c, a, t.dtype))
            return false;
    } else {
        if (!tjl_check_expr(c, a))
            return false;
        if (a->type.kind == TJL_T_TILE && tjl_elem(a->type).kind == TJL_T_SCALAR)
            return tjl_fail(c->p, e->pos, "%s() of a tile: use wp.tile_map or an element", name);
        if (a->type.kind != TJL_T_SCALAR)
            return tjl_fail(c->p, a->pos, "cannot convert %s to %s", TN(a->type, b1), name);
    }
    if (a->is_const) {
        e->ival = a->ival;
        e->fval = a->fval;
        tjl_const_convert(e, a->type.dtype, t.dtype);
    }
    return true;
}

/* One scalar component of type 'dt' (literals convert). */
static bool
want_component(tjl_checker *c, tjl_expr *a, int dt, const char *name)
{
    char b1[96];
    if (tjl_is_literal(a)) {
        if (!tjl_literal_fits(a, dt, b1, sizeof b1))
            return tjl_fail(c->p, a->pos, "%s takes %s components, got %s", name,
                            tjl_dtype_name(dt), b1);
        return tjl_check_literal_as(c, a, dt);
    }
    if (!tjl_check_expr(c, a))
        return false;
    if (a->type.kind != TJL_T_SCALAR || a->type.dtype != dt)
        return tjl_fail(c->p, a->pos, "%s takes %s components, got %s", name,
                        tjl_dtype_name(dt), TN(a->type, b1));
    return true;
}

static bool
construct_composite(tjl_checker *c, tjl_expr *e, tjl_type t, const char *name)
{
    char b1[96];
    int ncomp = t.kind == TJL_T_QUAT ? 4 : t.rows * t.cols;
    e->type = t;
    if (e->nargs == 0) {
        e->op = TJL_CONS_ZERO;
        return true;
    }
    if (e->nargs == 1) {
        tjl_expr *a = e->args[0];
        if (!tjl_is_literal(a) && !tjl_check_expr(c, a))
            return false;
        if (!tjl_is_literal(a) && a->type.kind == t.kind && a->type.rows == t.rows &&
            a->type.cols == t.cols) {
            e->op = TJL_CONS_CAST;
            return true;
        }
        if (t.kind == TJL_T_QUAT)
            return tjl_fail(c->p, a->pos, "%s takes 0, 1 (a quaternion) or 4 arguments", name);
        e->op = TJL_CONS_FILL;
        if (tjl_is_literal(a)) {
            if (!tjl_literal_fits(a, t.dtype, b1, sizeof b1))
                return tjl_fail(c->p, a->pos, "cannot make %s from %s", name, b1);
            return tjl_check_literal_as(c, a, t.dtype);
        }
        if (a->type.kind != TJL_T_SCALAR || a->type.dtype != t.dtype)
            return tjl_fail(c->p, a->pos, "cannot make %s from %s", name, TN(a->type, b1));
        return true;
    }
    if (e->nargs == ncomp) {
        e->op = TJL_CONS_COMPONENTS;
        for (int i = 0; i < e->nargs; i++)
            if (!want_component(c, e->args[i], t.dtype, name))
                return false;
        return true;
    }
    if (t.kind == TJL_T_MATRIX && e->nargs == t.rows) {
        e->op = TJL_CONS_ROWS;
        for (int i = 0; i < e->nargs; i++) {
            tjl_expr *a = e->args[i];
            if (!tjl_check_expr(c, a))
                return false;
            if (a->type.kind != TJL_T_VECTOR || a->type.rows != t.cols || a->type.dtype != t.dtype)
                return tjl_fail(c->p, a->pos, "row %d of %s must be a vector of %d %s, got %s", i,
                                name, t.cols, tjl_dtype_name(t.dtype), TN(a->type, b1));
        }
        return true;
    }
    return tjl_fail(c->p, e->pos, "%s takes 0, 1 or %d arguments%s, got %d", name, ncomp,
                    t.kind == TJL_T_MATRIX ? " (or one vector per row)" : "", e->nargs);
}

bool
tjl_check_construct(tjl_checker *c, tjl_expr *e, tjl_type t)
{
    char buf[96];
    const char *name = tjl_type_name(c->p, t, buf, sizeof buf);
    if (t.kind == TJL_T_STRUCT)
        return construct_struct(c, e, t);
    if (e->nkw > 0)
        return tjl_fail(c->p, e->kwpos[0], "%s() takes no keyword arguments", name);
    if (t.kind == TJL_T_SCALAR) {
        if (e->nargs > 1)
            return tjl_fail(c->p, e->pos, "%s() takes at most 1 argument, got %d", name,
                            e->nargs);
        return construct_scalar(c, e, t, name);
    }
    return construct_composite(c, e, t, name);
}

static bool
check_call(tjl_checker *c, tjl_expr *e)
{
    char b1[96];
    if (!tjl_check_expr(c, e->fn))
        return false;
    tjl_type ft = e->fn->type;
    if (ft.kind == TJL_T_FUNC && ft.sid >= 0)
        return tjl_check_builtin_call(c, e, ft.sid);
    if (ft.kind == TJL_T_FUNC)
        return check_user_call(c, e, -ft.sid - 1);
    if (ft.kind == TJL_T_TYPE)
        return tjl_check_construct(c, e, tjl_elem(ft));
    return tjl_fail(c->p, e->pos, "%s cannot be called", TN(ft, b1));
}

/* ---- the entry ----------------------------------------------------------------------------- */

bool
tjl_check_expr(tjl_checker *c, tjl_expr *e)
{
    switch (e->kind) {
    case TJL_E_INT:
    case TJL_E_FLOAT:
    case TJL_E_BOOL:
        return check_literal(c, e);
    case TJL_E_STR:
        e->type = tjl_simple(TJL_T_STR);
        return true;
    case TJL_E_NONE:
        e->type = tjl_none();
        return true;
    case TJL_E_NAME:
        return tjl_check_name(c, e);
    case TJL_E_ATTR:
        return tjl_check_attr(c, e);
    case TJL_E_INDEX:
        return tjl_check_index(c, e);
    case TJL_E_CALL:
        return check_call(c, e);
    case TJL_E_UNARY:
        return tjl_check_unary(c, e);
    case TJL_E_BINARY:
        return tjl_check_binary(c, e);
    case TJL_E_AND:
    case TJL_E_OR:
        return tjl_check_logic(c, e);
    case TJL_E_COMPARE:
        return tjl_check_compare(c, e);
    case TJL_E_IFEXP:
        return tjl_check_ifexp(c, e);
    case TJL_E_SLICE:
        return tjl_fail(c->p, e->pos, "a slice is only allowed in a tile subscript");
    case TJL_E_TUPLE:
        return tjl_fail(c->p, e->pos, "a tuple is only allowed as a shape or an offset "
                                      "(shape=(2, 3))");
    default:
        return tjl_fail(c->p, e->pos, "internal error: unknown expression");
    }
}

/* ---- type expressions ---------------------------------------------------------------------- */

static bool
array_type(tjl_checker *c, tjl_expr *dtype, int ndim, int pos, tjl_type *out)
{
    char b1[96];
    tjl_type elem;
    if (!tjl_check_type_expr(c, dtype, &elem))
        return false;
    if (!tjl_is_value(elem))
        return tjl_fail(c->p, dtype->pos, "array elements must be values or structs, not %s",
                        TN(elem, b1));
    if (ndim < 1 || ndim > TJL_MAX_DIMS)
        return tjl_fail(c->p, pos, "arrays have 1 to 4 dimensions, not %d", ndim);
    *out = tjl_container(TJL_T_ARRAY, elem, ndim);
    return true;
}

static int
array_builtin_ndim(const tjl_expr *fn)
{
    if (fn->type.kind != TJL_T_FUNC)
        return -1;
    switch (fn->type.sid) {
    case TJL_B_ARRAY:
    case TJL_B_ARRAY1D:
        return 1;
    case TJL_B_ARRAY2D:
        return 2;
    case TJL_B_ARRAY3D:
        return 3;
    case TJL_B_ARRAY4D:
        return 4;
    default:
        return -1;
    }
}

/* wp.tile or wp.tile_stack where a type is expected (a function's parameter or result, a
 * field, an array's elements): a build error that says why. */
static bool
not_a_container_type(tjl_checker *c, const tjl_expr *fn, int pos)
{
    if (fn->type.kind != TJL_T_FUNC ||
        (fn->type.sid != TJL_B_TILE && fn->type.sid != TJL_B_TILE_STACK))
        return true;
    return tjl_fail(c->p, pos, "expected a type, got wp.%s: tiles and tile stacks are not "
                               "types a function, a struct or an array can take; they stay in "
                               "the kernel that makes them",
                    fn->type.sid == TJL_B_TILE ? "tile" : "tile_stack");
}

bool
tjl_check_type_expr(tjl_checker *c, tjl_expr *e, tjl_type *out)
{
    char b1[96];
    if (e->kind == TJL_E_INDEX || e->kind == TJL_E_CALL) {
        if (!tjl_check_expr(c, e->fn) || !not_a_container_type(c, e->fn, e->pos))
            return false;
        int ndim = array_builtin_ndim(e->fn);
        if (ndim > 0 && e->kind == TJL_E_INDEX) {
            if (e->nargs != 1)
                return tjl_fail(c->p, e->pos, "wp.array[...] takes one element type");
            return array_type(c, e->args[0], ndim, e->pos, out);
        }
        if (ndim > 0) {
            tjl_expr *bound[2] = {NULL, NULL};
            static char *const names[] = {"dtype", "ndim"};
            if (!bind_named(c, e, "array", names, e->fn->type.sid == TJL_B_ARRAY ? 2 : 1,
                            bound))
                return false;
            if (!bound[0])
                return tjl_fail(c->p, e->pos, "array() needs a dtype");
            int64_t nd = ndim;
            if (e->fn->type.sid == TJL_B_ARRAY && bound[1] &&
                !tjl_const_int_arg(c, bound[1], "array", "ndim", &nd))
                return false;
            return array_type(c, bound[0], (int)(nd > 8 || nd < 0 ? 0 : nd), e->pos, out);
        }
    }
    if (e->kind == TJL_E_NONE)
        return tjl_fail(c->p, e->pos, "expected a type, got None");
    if (e->kind == TJL_E_STR)
        return tjl_fail(c->p, e->pos, "expected a type, got a string (forward references are "
                                      "not supported)");
    if (e->kind == TJL_E_INDEX)
        return tjl_fail(c->p, e->pos, "expected a type (wp.array[float], wp.array2d[int]...)");
    if (!tjl_check_expr(c, e))
        return false;
    if (e->type.kind == TJL_T_TYPE) {
        *out = tjl_elem(e->type);
        return true;
    }
    if (e->type.kind == TJL_T_FUNC && array_builtin_ndim(e) > 0)
        return tjl_fail(c->p, e->pos, "an array type needs its element type: wp.array[float] "
                                      "or wp.array(dtype=float)");
    if (!not_a_container_type(c, e, e->pos))
        return false;
    return tjl_fail(c->p, e->pos, "expected a type, got %s", TN(e->type, b1));
}
