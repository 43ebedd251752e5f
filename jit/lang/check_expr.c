/*
 * jit/lang/check_expr.c: types of expressions as Warp infers them: int literals are int32,
 * float literals float32, no implicit conversions (int + float is an error), operators on
 * tiles apply element-wise. Also folds constant scalar expressions (ival, fval) and reads
 * type expressions (annotations, dtype= arguments). Names resolve to locals first, then to
 * the file's constants, functions and structs, then to types and builtins ("wp." optional).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const char *const op_texts[TJL_NOPS] = {
    [TJL_OP_ADD] = "+",  [TJL_OP_SUB] = "-",   [TJL_OP_MUL] = "*",     [TJL_OP_DIV] = "/",
    [TJL_OP_FLOORDIV] = "//", [TJL_OP_MOD] = "%", [TJL_OP_POW] = "**", [TJL_OP_MATMUL] = "@",
    [TJL_OP_LSHIFT] = "<<", [TJL_OP_RSHIFT] = ">>", [TJL_OP_BITAND] = "&", [TJL_OP_BITOR] = "|",
    [TJL_OP_BITXOR] = "^", [TJL_OP_NEG] = "-",  [TJL_OP_POS] = "+",   [TJL_OP_INVERT] = "~",
    [TJL_OP_NOT] = "not", [TJL_OP_EQ] = "==",  [TJL_OP_NE] = "!=",   [TJL_OP_LT] = "<",
    [TJL_OP_LE] = "<=",  [TJL_OP_GT] = ">",    [TJL_OP_GE] = ">=",
};

const char *
tjl_op_text(int op)
{
    return op >= 0 && op < TJL_NOPS ? op_texts[op] : "?";
}

#define TN(t, buf) tjl_type_name(c->p, (t), (buf), sizeof(buf))

/* ---- constant folding ------------------------------------------------------------------ */

/* Wraps an integer to 'dt's width and signedness (two's complement, as the hardware does). */
static int64_t
wrap_int(uint64_t v, int dt)
{
    int bits = tjl_dtype_bits(dt);
    if (dt == TJ_DTYPE_BOOL)
        return v != 0;
    if (bits >= 64)
        return (int64_t)v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (tjl_dtype_is_signed(dt) && (v >> (bits - 1)))
        v |= ~mask;
    return (int64_t)v;
}

static double
round_float(double v, int dt)
{
    return dt == TJ_DTYPE_F32 ? (double)(float)v : v;
}

static void
set_const_int(tjl_expr *e, int dt, uint64_t v)
{
    e->is_const = true;
    e->ival = wrap_int(v, dt);
}

static void
set_const_float(tjl_expr *e, int dt, double v)
{
    e->is_const = true;
    e->fval = round_float(v, dt);
}

void
tjl_const_convert(tjl_expr *e, int from, int to)
{
    bool ffrom = tjl_dtype_is_float(from), fto = tjl_dtype_is_float(to);
    if (fto) {
        double v = ffrom ? e->fval
                 : tjl_dtype_is_signed(from) ? (double)e->ival : (double)(uint64_t)e->ival;
        set_const_float(e, to, v);
    } else if (to == TJ_DTYPE_BOOL) {
        set_const_int(e, to, ffrom ? e->fval != 0 : e->ival != 0);
    } else if (ffrom) { /* truncate and saturate, like the runtime conversion */
        double v = isnan(e->fval) ? 0 : trunc(e->fval);
        int bits = tjl_dtype_bits(to);
        bool sg = tjl_dtype_is_signed(to);
        double limit = ldexp(1, sg ? bits - 1 : bits); /* exclusive, exact in a double */
        uint64_t max = sg ? (UINT64_C(1) << (bits - 1)) - 1
                          : bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        uint64_t r;
        if (v >= limit)
            r = max;
        else if (sg && v < -limit)
            r = (uint64_t)0 - max - 1;      /* the lowest value */
        else if (!sg && v < 0)
            r = 0;
        else
            r = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
        set_const_int(e, to, r);
    } else {
        set_const_int(e, to, (uint64_t)e->ival);
    }
}

static bool
fold_int(tjl_checker *c, tjl_expr *e, int op, tjl_type t, int64_t a, int64_t b)
{
    int dt = t.dtype;
    bool sg = tjl_dtype_is_signed(dt);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int bits = tjl_dtype_bits(dt);
    switch (op) {
    case TJL_OP_ADD: set_const_int(e, dt, ua + ub); return true;
    case TJL_OP_SUB: set_const_int(e, dt, ua - ub); return true;
    case TJL_OP_MUL: set_const_int(e, dt, ua * ub); return true;
    case TJL_OP_BITAND: set_const_int(e, dt, ua & ub); return true;
    case TJL_OP_BITOR: set_const_int(e, dt, ua | ub); return true;
    case TJL_OP_BITXOR: set_const_int(e, dt, ua ^ ub); return true;
    case TJL_OP_LSHIFT:
    case TJL_OP_RSHIFT:
        if (b < 0 || b >= bits)
            return tjl_fail(c->p, e->pos, "shift by %lld is out of range for %s", (long long)b,
                            tjl_dtype_name(dt));
        if (op == TJL_OP_LSHIFT)
            set_const_int(e, dt, ua << b);
        else
            set_const_int(e, dt, sg ? (uint64_t)(a >> b) : ua >> b);
        return true;
    default:
        break;
    }
    if (b == 0)
        return tjl_fail(c->p, e->pos, "division by zero in a constant expression");
    if (sg && a == INT64_MIN && b == -1) { /* the one overflowing quotient: wrap */
        set_const_int(e, dt, op == TJL_OP_MOD ? 0 : ua);
        return true;
    }
    int64_t q = sg ? a / b : (int64_t)(ua / ub), r = sg ? a % b : (int64_t)(ua % ub);
    if (op == TJL_OP_FLOORDIV && sg && r != 0 && ((r < 0) != (b < 0)))
        q -= 1;
    set_const_int(e, dt, (uint64_t)(op == TJL_OP_MOD ? r : q));
    return true;
}

static bool
fold_binary(tjl_checker *c, tjl_expr *e)
{
    tjl_expr *x = e->args[0], *y = e->args[1];
    if (!x->is_const || !y->is_const || x->type.kind != TJL_T_SCALAR ||
        !tjl_type_eq(x->type, y->type))
        return true;
    int dt = x->type.dtype, op = e->op;
    if (tjl_dtype_is_float(dt)) {
        double a = x->fval, b = y->fval, r;
        switch (op) {
        case TJL_OP_ADD: r = a + b; break;
        case TJL_OP_SUB: r = a - b; break;
        case TJL_OP_MUL: r = a * b; break;
        case TJL_OP_DIV: r = a / b; break;
        case TJL_OP_FLOORDIV: r = floor(a / b); break;
        case TJL_OP_MOD: r = fmod(a, b); break;
        case TJL_OP_POW: r = pow(a, b); break;
        default: return true;
        }
        set_const_float(e, dt, r);
        return true;
    }
    if (dt == TJ_DTYPE_BOOL) {
        if (op == TJL_OP_BITAND || op == TJL_OP_BITOR || op == TJL_OP_BITXOR)
            set_const_int(e, dt, op == TJL_OP_BITAND ? (x->ival & y->ival)
                               : op == TJL_OP_BITOR ? (x->ival | y->ival) : (x->ival ^ y->ival));
        return true;
    }
    if (op == TJL_OP_POW) {
        uint64_t r = 1, base = (uint64_t)x->ival;
        for (int64_t i = 0; i < y->ival && i < 64; i++)
            r *= base;
        set_const_int(e, dt, r);
        return true;
    }
    return fold_int(c, e, op, x->type, x->ival, y->ival);
}

static int
compare_consts(const tjl_expr *x, const tjl_expr *y, int op)
{
    int dt = x->type.dtype;
    double fa = x->fval, fb = y->fval;
    bool lt, eq;
    if (tjl_dtype_is_float(dt)) {
        lt = fa < fb;
        eq = fa == fb;
    } else if (tjl_dtype_is_signed(dt) || dt == TJ_DTYPE_BOOL) {
        lt = x->ival < y->ival;
        eq = x->ival == y->ival;
    } else {
        lt = (uint64_t)x->ival < (uint64_t)y->ival;
        eq = x->ival == y->ival;
    }
    bool unordered = tjl_dtype_is_float(dt) && (isnan(fa) || isnan(fb));
    switch (op) {
    case TJL_OP_EQ: return eq;
    case TJL_OP_NE: return !eq;
    case TJL_OP_LT: return lt;
    case TJL_OP_LE: return lt || eq;
    case TJL_OP_GT: return !unordered && !lt && !eq;
    default: return !unordered && !lt;
    }
}

/* ---- operator types ------------------------------------------------------------------------- */

static tjl_type
vec_of(int dt, int n)
{
    return (tjl_type){.kind = TJL_T_VECTOR, .dtype = (uint8_t)dt, .rows = (uint8_t)n, .cols = 1,
                      .sid = -1};
}

static tjl_type
mat_of(int dt, int r, int cc)
{
    return (tjl_type){.kind = TJL_T_MATRIX, .dtype = (uint8_t)dt, .rows = (uint8_t)r,
                      .cols = (uint8_t)cc, .sid = -1};
}

/* Matrix and vector products (mat @ vec, vec @ mat, mat @ mat), as tj_binary MUL does. */
static bool
product_type(tjl_type a, tjl_type b, tjl_type *out)
{
    if (a.dtype != b.dtype)
        return false;
    bool av = a.kind == TJL_T_VECTOR, bv = b.kind == TJL_T_VECTOR;
    bool am = a.kind == TJL_T_MATRIX, bm = b.kind == TJL_T_MATRIX;
    if (am && bv && a.cols == b.rows) {
        *out = a.rows == 1 ? tjl_scalar(a.dtype) : vec_of(a.dtype, a.rows);
        return true;
    }
    if (av && bm && a.rows == b.rows) {
        *out = b.cols == 1 ? tjl_scalar(a.dtype) : vec_of(a.dtype, b.cols);
        return true;
    }
    if (am && bm && a.cols == b.rows) {
        *out = a.rows == 1 && b.cols == 1 ? tjl_scalar(a.dtype) : mat_of(a.dtype, a.rows, b.cols);
        return true;
    }
    return false;
}

/* The type of 'a op b' for values; false (no message) when the operator does not apply. */
bool
tjl_value_binary(int op, tjl_type a, tjl_type b, tjl_type *out)
{
    bool same = tjl_type_eq(a, b) && tjl_is_value(a);
    bool scal = same && a.kind == TJL_T_SCALAR;
    bool num = same && tjl_is_numeric(a);
    bool integer = scal && tjl_dtype_is_int(a.dtype);
    *out = a;
    switch (op) {
    case TJL_OP_ADD:
    case TJL_OP_SUB:
        return num;
    case TJL_OP_MUL:
        if (scal && num)
            return true;
        if (same && (a.kind == TJL_T_QUAT || (a.kind == TJL_T_MATRIX && a.rows == a.cols)))
            return true;
        if (a.kind == TJL_T_SCALAR && tjl_is_composite(b) && a.dtype == b.dtype &&
            a.dtype != TJ_DTYPE_BOOL) {
            *out = b;
            return true;
        }
        if (b.kind == TJL_T_SCALAR && tjl_is_composite(a) && a.dtype == b.dtype &&
            a.dtype != TJ_DTYPE_BOOL)
            return true;
        return product_type(a, b, out);
    case TJL_OP_MATMUL:
        return product_type(a, b, out);
    case TJL_OP_DIV:
        if (scal && num)
            return true;
        return tjl_is_composite(a) && b.kind == TJL_T_SCALAR && a.dtype == b.dtype &&
               a.dtype != TJ_DTYPE_BOOL;
    case TJL_OP_FLOORDIV:
    case TJL_OP_MOD:
        return scal && num;
    case TJL_OP_POW:
        return scal && tjl_dtype_is_float(a.dtype);
    case TJL_OP_LSHIFT:
    case TJL_OP_RSHIFT:
        return integer;
    case TJL_OP_BITAND:
    case TJL_OP_BITOR:
    case TJL_OP_BITXOR:
        return integer || (scal && a.dtype == TJ_DTYPE_BOOL);
    case TJL_OP_LT:
    case TJL_OP_LE:
    case TJL_OP_GT:
    case TJL_OP_GE:
        *out = tjl_scalar(TJ_DTYPE_BOOL);
        return scal;
    case TJL_OP_EQ:
    case TJL_OP_NE:
        *out = tjl_scalar(TJ_DTYPE_BOOL);
        return same && a.kind != TJL_T_STRUCT;
    default:
        return false;
    }
}

static bool
fail_operands(tjl_checker *c, int op, tjl_type a, tjl_type b, int pos)
{
    char b1[96], b2[96];
    bool mixed = tjl_is_value(a) && tjl_is_value(b) && a.kind == TJL_T_SCALAR &&
                 b.kind == TJL_T_SCALAR && a.dtype != b.dtype;
    const char *hint = "";
    if (mixed)
        hint = " (types are not converted implicitly: use int(), float() or wp.float64())";
    else if (op == TJL_OP_MUL && tjl_type_eq(a, b) && a.kind == TJL_T_VECTOR)
        hint = " (use wp.cw_mul for a componentwise product or wp.dot)";
    else if (op == TJL_OP_POW && tjl_is_int(a))
        hint = " (an integer power needs a constant exponent from 0 to 64)";
    return tjl_fail(c->p, pos, "operator '%s' does not take %s and %s%s", tjl_op_text(op),
                    TN(a, b1), TN(b, b2), hint);
}

bool
tjl_binary_type(tjl_checker *c, int op, tjl_type a, tjl_type b, int pos, tjl_type *out)
{
    char b1[96], b2[96];
    bool ta = a.kind == TJL_T_TILE, tb = b.kind == TJL_T_TILE;
    if (!ta && !tb) {
        if (!tjl_is_value(a) || !tjl_is_value(b))
            return tjl_fail(c->p, pos, "operator '%s' does not take %s", tjl_op_text(op),
                            TN(tjl_is_value(a) ? b : a, b1));
        return tjl_value_binary(op, a, b, out) || fail_operands(c, op, a, b, pos);
    }
    if (ta && tb && a.ndim != b.ndim)
        return tjl_fail(c->p, pos, "operator '%s': the tiles have ranks %d and %d",
                        tjl_op_text(op), a.ndim, b.ndim);
    tjl_type ea = ta ? tjl_elem(a) : a, eb = tb ? tjl_elem(b) : b, r;
    if (!tjl_is_value(ea) || !tjl_is_value(eb))
        return tjl_fail(c->p, pos, "operator '%s' does not take %s", tjl_op_text(op),
                        TN(tjl_is_value(ea) ? b : a, b1));
    if (!tjl_value_binary(op, ea, eb, &r))
        return fail_operands(c, op, ea, eb, pos);
    tjl_type src = ta ? a : b;
    *out = tjl_container(TJL_T_TILE, r, src.ndim);
    memcpy(out->shape, src.shape, sizeof out->shape);
    if (ta && tb)
        for (int i = 0; i < a.ndim && i < TJL_MAX_DIMS; i++)
            if (a.shape[i] >= 0 && b.shape[i] >= 0 && a.shape[i] != b.shape[i])
                return tjl_fail(c->p, pos, "operator '%s': the tiles have different shapes: "
                                "%s and %s", tjl_op_text(op), TN(a, b1), TN(b, b2));
    return true;
}

static bool
value_unary(int op, tjl_type a, tjl_type *out)
{
    *out = a;
    switch (op) {
    case TJL_OP_NEG:
    case TJL_OP_POS:
        return tjl_is_numeric(a);
    case TJL_OP_INVERT:
        return tjl_is_int(a);
    case TJL_OP_NOT:
        *out = tjl_scalar(TJ_DTYPE_BOOL);
        return a.kind == TJL_T_SCALAR;
    default:
        return false;
    }
}

bool
tjl_unary_type(tjl_checker *c, int op, tjl_type a, int pos, tjl_type *out)
{
    char b1[96];
    tjl_type e = a.kind == TJL_T_TILE ? tjl_elem(a) : a, r;
    if (!tjl_is_value(e) || !value_unary(op, e, &r))
        return tjl_fail(c->p, pos, "operator '%s' does not take %s", tjl_op_text(op), TN(a, b1));
    if (a.kind != TJL_T_TILE) {
        *out = r;
        return true;
    }
    *out = tjl_container(TJL_T_TILE, r, a.ndim);
    memcpy(out->shape, a.shape, sizeof out->shape);
    return true;
}

/* ---- names and attributes ------------------------------------------------------------------ */

/* Resolves a global name (not a local): constants, functions, structs, the warp module, types,
 * builtins. 'warp_only' restricts it to what "wp.NAME" can name. */
static bool
resolve_global(tjl_checker *c, tjl_expr *e, const char *name, bool warp_only)
{
    tjl_program *p = c->p;
    if (!warp_only) {
        for (int i = 0; i < p->nconsts; i++)
            if (strcmp(p->consts[i]->name, name) == 0) {
                e->refkind = TJL_R_CONST;
                e->ref = (int16_t)i;
                e->type = p->consts[i]->type;
                e->is_const = true;
                e->ival = p->consts[i]->ival;
                e->fval = p->consts[i]->fval;
                return true;
            }
        for (int i = 0; i < p->nfuncs; i++)
            if (strcmp(p->funcs[i]->name, name) == 0) {
                e->refkind = TJL_R_FUNC;
                e->ref = (int16_t)i;
                e->type = tjl_simple(TJL_T_FUNC);
                e->type.sid = (int16_t)(-i - 1);
                return true;
            }
        for (int i = 0; i < p->nstructs; i++)
            if (strcmp(p->structs[i]->name, name) == 0) {
                e->refkind = TJL_R_STRUCT;
                e->ref = (int16_t)i;
                tjl_type st = {.kind = TJL_T_STRUCT, .sid = (int16_t)i};
                e->type = tjl_container(TJL_T_TYPE, st, 0);
                return true;
            }
        if (strcmp(name, "wp") == 0 || strcmp(name, "warp") == 0) {
            e->refkind = TJL_R_MODULE;
            e->type = tjl_simple(TJL_T_MODULE);
            return true;
        }
    }
    tjl_type t;
    if (tjl_type_by_name(name, &t)) {
        e->refkind = TJL_R_TYPE;
        e->type = tjl_container(TJL_T_TYPE, t, 0);
        return true;
    }
    int b = tjl_builtin_find(name);
    if (b >= 0 && (!warp_only || b != TJL_B_RANGE)) {
        e->refkind = TJL_R_BUILTIN;
        e->ref = (int16_t)b;
        e->type = tjl_simple(TJL_T_FUNC);
        e->type.sid = (int16_t)b;
        return true;
    }
    if (warp_only)
        return tjl_fail(c->p, e->pos, "module 'wp' has no attribute '%s' (expected a builtin "
                                      "or a type)", name);
    return tjl_fail(c->p, e->pos, "unknown name '%s' (expected a local variable, a parameter, "
                                  "a constant, a function, a type or a builtin)", name);
}

bool
tjl_check_name(tjl_checker *c, tjl_expr *e)
{
    int index;
    tjl_local *l = tjl_find_local(c, e->name, &index);
    if (!l)
        return resolve_global(c, e, e->name, false);
    if (!tjl_use_local(c, l, e->pos))
        return false;
    e->refkind = TJL_R_LOCAL;
    e->ref = (int16_t)index;
    e->type = l->type;
    return true;
}

static const char *const components = "xyzw";

bool
tjl_check_attr(tjl_checker *c, tjl_expr *e)
{
    char b1[96];
    tjl_expr *obj = e->args[0];
    if (!tjl_check_expr(c, obj))
        return false;
    tjl_type t = obj->type;
    if (t.kind == TJL_T_MODULE)
        return resolve_global(c, e, e->name, true);
    if (t.kind == TJL_T_STRUCT) {
        const tjl_struct *st = c->p->structs[t.sid];
        for (int i = 0; i < st->nfields; i++)
            if (strcmp(st->fields[i].name, e->name) == 0) {
                e->refkind = TJL_R_FIELD;
                e->ref = (int16_t)i;
                e->type = st->fields[i].type;
                return true;
            }
        return tjl_fail(c->p, e->pos, "struct '%s' has no field '%s'", st->name, e->name);
    }
    const char *comp = strlen(e->name) == 1 ? strchr(components, e->name[0]) : NULL;
    if ((t.kind == TJL_T_VECTOR || t.kind == TJL_T_QUAT) && comp &&
        comp - components < (t.kind == TJL_T_QUAT ? 4 : t.rows)) {
        e->refkind = TJL_R_COMPONENT;
        e->ref = (int16_t)(comp - components);
        e->type = tjl_scalar(t.dtype);
        return true;
    }
    if ((t.kind == TJL_T_ARRAY || t.kind == TJL_T_TILE) && strcmp(e->name, "shape") == 0) {
        e->refkind = TJL_R_SHAPE;
        e->type = tjl_simple(TJL_T_SHAPE);
        e->type.ndim = t.ndim;
        return true;
    }
    return tjl_fail(c->p, e->pos, "%s has no attribute '%s'", TN(t, b1), e->name);
}

/* ---- subscripts ---------------------------------------------------------------------------- */

static bool
want_index(tjl_checker *c, tjl_expr *e, const char *what)
{
    char b1[96];
    if (e->kind == TJL_E_SLICE)
        return tjl_fail(c->p, e->pos, "%s cannot be sliced", what);
    if (!tjl_check_expr(c, e))
        return false;
    if (!tjl_is_int(e->type))
        return tjl_fail(c->p, e->pos, "an index of %s must be an integer, got %s", what,
                        TN(e->type, b1));
    return true;
}

static bool
check_tile_index(tjl_checker *c, tjl_expr *e, tjl_type t)
{
    char b1[96];
    int rank = t.ndim, nint = 0, nslice = 0;
    if (e->nargs > rank)
        return tjl_fail(c->p, e->pos, "tile subscript: %d indices for a tile of %d "
                                      "dimension%s", e->nargs, rank, rank == 1 ? "" : "s");
    int32_t shape[TJL_MAX_DIMS];
    int out = 0;
    for (int i = 0; i < e->nargs; i++) {
        tjl_expr *x = e->args[i];
        int32_t dim = t.shape[i];
        if (x->kind != TJL_E_SLICE) {
            if (!tjl_check_expr(c, x))
                return false;
            if (x->type.kind == TJL_T_SLICE)
                return tjl_fail(c->p, x->pos, "tile subscript: index %d: write the slice as "
                                              "start:stop:step (slice() objects go in "
                                              "tile_view's offset)", i);
            if (!tjl_is_int(x->type))
                return tjl_fail(c->p, x->pos, "tile subscript: index %d must be an integer or "
                                              "a slice, got %s", i, TN(x->type, b1));
            nint++;
            continue;
        }
        int64_t v[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
        for (int k = 0; k < 3; k++)
            if (x->args[k] && !tjl_const_int_arg(c, x->args[k], "tile subscript", "slice bound",
                                                 &v[k]))
                return false;
        if (v[2] == 0)
            return tjl_fail(c->p, x->pos, "tile subscript: index %d: a slice step must not "
                                          "be zero", i);
        nslice++;
        shape[out++] = dim >= 0 ? tjl_slice_length(dim, v[0], v[1], v[2]) : TJL_DIM_UNKNOWN;
        if (dim >= 0 && shape[out - 1] == 0)
            return tjl_fail(c->p, x->pos, "tile subscript: index %d: the slice selects no "
                                          "elements of a dimension of extent %d", i, dim);
    }
    for (int i = e->nargs; i < rank; i++)
        shape[out++] = t.shape[i];
    if (nslice == 0 && nint == rank) {
        e->type = tjl_elem(t);
        return true;
    }
    e->type = tjl_container(TJL_T_TILE, tjl_elem(t), out);
    memcpy(e->type.shape, shape, (size_t)out * sizeof shape[0]);
    return true;
}

bool
tjl_check_index(tjl_checker *c, tjl_expr *e)
{
    char b1[96];
    tjl_expr *obj = e->fn;
    if (obj->kind == TJL_E_NAME || obj->kind == TJL_E_ATTR) {
        if (!tjl_check_expr(c, obj))
            return false;
    } else if (!tjl_check_expr(c, obj)) {
        return false;
    }
    tjl_type t = obj->type;
    if (t.kind == TJL_T_FUNC && t.sid >= TJL_B_ARRAY && t.sid <= TJL_B_ARRAY4D)
        return tjl_fail(c->p, e->pos, "array types are only allowed in annotations");
    if (t.kind == TJL_T_SHAPE) {
        int64_t d;
        if (e->nargs != 1 || !tjl_const_int_arg(c, e->args[0], "shape", "index", &d))
            return e->nargs == 1 ? false : tjl_fail(c->p, e->pos, "a shape takes one index");
        if (d < 0)
            d += t.ndim;
        if (d < 0 || d >= t.ndim)
            return tjl_fail(c->p, e->args[0]->pos, "shape index %lld is out of range for %d "
                                                   "dimensions", (long long)e->args[0]->ival,
                            t.ndim);
        e->args[0]->ival = d;
        e->type = tjl_scalar(TJ_DTYPE_I32);
        return true;
    }
    if (t.kind == TJL_T_ARRAY) {
        if (e->nargs != t.ndim)
            return tjl_fail(c->p, e->pos, "the array has %d dimension%s and takes as many "
                                          "indices, got %d", t.ndim, t.ndim == 1 ? "" : "s",
                            e->nargs);
        for (int i = 0; i < e->nargs; i++)
            if (!want_index(c, e->args[i], "an array"))
                return false;
        e->type = tjl_elem(t);
        return true;
    }
    if (t.kind == TJL_T_TILE)
        return check_tile_index(c, e, t);
    if (t.kind == TJL_T_VECTOR || t.kind == TJL_T_QUAT || t.kind == TJL_T_MATRIX) {
        int max = t.kind == TJL_T_MATRIX ? 2 : 1;
        if (e->nargs > max)
            return tjl_fail(c->p, e->pos, "%s takes at most %d ind%s", TN(t, b1), max,
                            max == 1 ? "ex" : "ices");
        for (int i = 0; i < e->nargs; i++)
            if (!want_index(c, e->args[i], TN(t, b1)))
                return false;
        e->type = t.kind == TJL_T_MATRIX && e->nargs == 1 ? vec_of(t.dtype, t.cols)
                                                          : tjl_scalar(t.dtype);
        return true;
    }
    return tjl_fail(c->p, e->pos, "%s cannot be subscripted", TN(t, b1));
}

/* ---- operators ------------------------------------------------------------------------------ */

bool
tjl_check_binary(tjl_checker *c, tjl_expr *e)
{
    tjl_expr *x = e->args[0], *y = e->args[1];
    if (!tjl_check_expr(c, x) || !tjl_check_expr(c, y))
        return false;
    if (e->op == TJL_OP_POW && tjl_is_int(x->type) && tjl_type_eq(x->type, y->type)) {
        if (!y->is_const || y->ival < 0 || y->ival > 64)
            return fail_operands(c, e->op, x->type, y->type, e->pos);
        e->type = x->type;
        return fold_binary(c, e);
    }
    if (!tjl_binary_type(c, e->op, x->type, y->type, e->pos, &e->type))
        return false;
    return fold_binary(c, e);
}

bool
tjl_check_unary(tjl_checker *c, tjl_expr *e)
{
    tjl_expr *x = e->args[0];
    if (!tjl_check_expr(c, x) || !tjl_unary_type(c, e->op, x->type, e->pos, &e->type))
        return false;
    if (!x->is_const || x->type.kind != TJL_T_SCALAR)
        return true;
    int dt = x->type.dtype;
    e->ival = x->ival;
    e->fval = x->fval;
    if (e->op == TJL_OP_NOT) {
        set_const_int(e, TJ_DTYPE_BOOL, tjl_dtype_is_float(dt) ? x->fval == 0 : x->ival == 0);
    } else if (e->op == TJL_OP_NEG) {
        if (tjl_dtype_is_float(dt))
            set_const_float(e, dt, -x->fval);
        else
            set_const_int(e, dt, 0 - (uint64_t)x->ival);
    } else if (e->op == TJL_OP_INVERT) {
        set_const_int(e, dt, ~(uint64_t)x->ival);
    } else {
        e->is_const = true;
    }
    return true;
}

bool
tjl_check_cond(tjl_checker *c, tjl_expr *e, const char *what)
{
    char b1[96];
    if (!tjl_check_expr(c, e))
        return false;
    if (e->type.kind != TJL_T_SCALAR)
        return tjl_fail(c->p, e->pos, "%s must be a bool (or a number compared with zero), got "
                                      "%s", what, TN(e->type, b1));
    return true;
}

bool
tjl_check_logic(tjl_checker *c, tjl_expr *e)
{
    const char *what = e->kind == TJL_E_AND ? "an operand of 'and'" : "an operand of 'or'";
    if (!tjl_check_cond(c, e->args[0], what) || !tjl_check_cond(c, e->args[1], what))
        return false;
    e->type = tjl_scalar(TJ_DTYPE_BOOL);
    tjl_expr *x = e->args[0], *y = e->args[1];
    if (x->is_const && y->is_const) {
        tjl_const_convert(x, x->type.dtype, TJ_DTYPE_BOOL);
        tjl_const_convert(y, y->type.dtype, TJ_DTYPE_BOOL);
        x->type = y->type = tjl_scalar(TJ_DTYPE_BOOL);
        set_const_int(e, TJ_DTYPE_BOOL, e->kind == TJL_E_AND ? (x->ival && y->ival)
                                                             : (x->ival || y->ival));
    }
    return true;
}

bool
tjl_check_compare(tjl_checker *c, tjl_expr *e)
{
    bool all_const = true, result = true;
    for (int i = 0; i < e->nargs; i++) {
        if (!tjl_check_expr(c, e->args[i]))
            return false;
        all_const = all_const && e->args[i]->is_const;
    }
    for (int i = 0; i + 1 < e->nargs; i++) {
        tjl_type r;
        if (!tjl_binary_type(c, e->cmpops[i], e->args[i]->type, e->args[i + 1]->type, e->pos, &r))
            return false;
        e->type = r;
        if (all_const && e->args[i]->type.kind == TJL_T_SCALAR)
            result = result && compare_consts(e->args[i], e->args[i + 1], e->cmpops[i]);
        else
            all_const = false;
    }
    if (e->nargs > 2 && e->type.kind == TJL_T_TILE)
        return tjl_fail(c->p, e->pos, "chained comparisons of tiles are not supported");
    if (all_const)
        set_const_int(e, TJ_DTYPE_BOOL, result);
    return true;
}

bool
tjl_check_ifexp(tjl_checker *c, tjl_expr *e)
{
    char b1[96], b2[96];
    if (!tjl_check_cond(c, e->args[0], "the condition") ||
        !tjl_check_value(c, e->args[1], "a conditional expression's value") ||
        !tjl_check_value(c, e->args[2], "a conditional expression's value"))
        return false;
    if (!tjl_type_eq(e->args[1]->type, e->args[2]->type))
        return tjl_fail(c->p, e->pos, "the two values of a conditional expression have "
                                      "different types: %s and %s",
                        TN(e->args[1]->type, b1), TN(e->args[2]->type, b2));
    e->type = e->args[1]->type;
    tjl_expr *k = e->args[0];
    if (k->is_const && e->args[1]->is_const && e->args[2]->is_const && k->type.dtype &&
        e->type.kind == TJL_T_SCALAR) {
        bool v = tjl_dtype_is_float(k->type.dtype) ? k->fval != 0 : k->ival != 0;
        e->ival = e->args[v ? 1 : 2]->ival;
        e->fval = e->args[v ? 1 : 2]->fval;
        e->is_const = true;
    }
    return true;
}

bool
tjl_check_value(tjl_checker *c, tjl_expr *e, const char *what)
{
    char b1[96];
    if (!tjl_check_expr(c, e))
        return false;
    if (!tjl_is_value(e->type))
        return tjl_fail(c->p, e->pos, "%s must be a value (a scalar, vector, matrix, quaternion "
                                      "or struct), got %s", what, TN(e->type, b1));
    return true;
}
