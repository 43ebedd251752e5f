/*
 * jit/arith.c: unary, binary and comparison operators, fma, select and casts on scalars
 * and composites (SPEC 2). Types are strict, as in Warp: both operands of a binary
 * operator have one type, except scalar * composite and the matrix products. Integer
 * division and remainder by zero give 0 (x86 would trap), shift amounts are taken modulo
 * the bit width, float-to-integer casts saturate (NaN gives 0).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Rows: operator, name in messages, accepted operands. */
enum {
    A_NUM = 1,      /* numeric scalars and composites */
    A_INT = 2,      /* integer scalars (and bool for the bitwise ones) */
    A_BOOL = 4,
    A_FLOAT = 8,    /* float scalars and float composites */
    A_VEC = 16,     /* float vectors and quaternions */
    A_MAT = 32,
};

static const struct {
    const char *name;
    int accepts;
} unops[] = {
    [TJ_UN_NEG] = {"neg", A_NUM},         [TJ_UN_NOT] = {"not", A_BOOL},
    [TJ_UN_BIT_NOT] = {"bit_not", A_INT}, [TJ_UN_ABS] = {"abs", A_NUM},
    [TJ_UN_SQRT] = {"sqrt", A_FLOAT},     [TJ_UN_FLOOR] = {"floor", A_FLOAT},
    [TJ_UN_CEIL] = {"ceil", A_FLOAT},     [TJ_UN_ROUND] = {"round", A_FLOAT},
    [TJ_UN_TRUNC] = {"trunc", A_FLOAT},   [TJ_UN_EXP] = {"exp", A_FLOAT},
    [TJ_UN_LOG] = {"log", A_FLOAT},       [TJ_UN_SIN] = {"sin", A_FLOAT},
    [TJ_UN_COS] = {"cos", A_FLOAT},       [TJ_UN_TAN] = {"tan", A_FLOAT},
    [TJ_UN_TANH] = {"tanh", A_FLOAT},     [TJ_UN_LENGTH] = {"length", A_VEC},
    [TJ_UN_NORMALIZE] = {"normalize", A_VEC}, [TJ_UN_TRANSPOSE] = {"transpose", A_MAT},
};

static const char *const binop_names[] = {
    [TJ_BIN_ADD] = "add",        [TJ_BIN_SUB] = "sub",         [TJ_BIN_MUL] = "mul",
    [TJ_BIN_DIV] = "div",        [TJ_BIN_MOD] = "mod",         [TJ_BIN_MIN] = "min",
    [TJ_BIN_MAX] = "max",        [TJ_BIN_AND] = "and",         [TJ_BIN_OR] = "or",
    [TJ_BIN_BIT_AND] = "bit_and", [TJ_BIN_BIT_OR] = "bit_or",  [TJ_BIN_BIT_XOR] = "bit_xor",
    [TJ_BIN_SHL] = "shl",        [TJ_BIN_SHR] = "shr",         [TJ_BIN_POW] = "pow",
    [TJ_BIN_ATAN2] = "atan2",    [TJ_BIN_DOT] = "dot",         [TJ_BIN_CROSS] = "cross",
    [TJ_BIN_CW_MUL] = "cw_mul",  [TJ_BIN_CW_DIV] = "cw_div",
};

static bool
is_float(const tj_type *t)
{
    return tji_dtype_is_float(t->dtype);
}

static bool
is_intlike(const tj_type *t)
{
    return tji_type_is_scalar(t) && !is_float(t);
}

static bool
accepts(int mask, const tj_type *t)
{
    if ((mask & A_NUM) && tji_type_is_numeric(t))
        return true;
    if ((mask & A_INT) && is_intlike(t))
        return true;
    if ((mask & A_BOOL) && tji_type_is_scalar(t) && t->dtype == TJ_DTYPE_BOOL)
        return true;
    if ((mask & A_FLOAT) && (tji_type_is_scalar(t) || tji_type_is_composite(t)) && is_float(t))
        return true;
    if ((mask & A_VEC) && (t->kind == TJ_TYPE_VECTOR || t->kind == TJ_TYPE_QUAT) && is_float(t))
        return true;
    return (mask & A_MAT) && t->kind == TJ_TYPE_MATRIX;
}

static bool
check_operand(tj_kernel *k, const char *fn, const char *arg, tj_val *v)
{
    char a[64];
    if (!tji_use(k, v, fn, arg))
        return false;
    if (v->kind != TJ_VAL_SCALAR || v->type->kind == TJ_TYPE_STRUCT)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': %s is not a scalar or composite",
                        fn, arg, tji_val_describe(v, a, sizeof a));
    return true;
}

static LLVMValueRef
splat(tj_kernel *k, LLVMValueRef s, const tj_type *like)
{
    LLVMValueRef v = LLVMGetUndef(like->llreg);
    for (int i = 0; i < like->ncomp; i++)
        v = LLVMBuildInsertElement(k->llb, v, s, tji_const_i32(k->ctx, i), "");
    return v;
}

/* ---- math through target hooks --------------------------------------------------------- */

/* Calls tj.math.<name>.f32/.f64 on a float scalar; float16 goes through float32. */
static LLVMValueRef
math_call_scalar(tj_kernel *k, const char *name, tj_dtype dt, LLVMValueRef *args, int nargs)
{
    tj_context *c = k->ctx;
    bool half = dt == TJ_DTYPE_F16;
    tj_dtype cdt = half ? TJ_DTYPE_F32 : dt;
    LLVMTypeRef cty = tji_dtype_llvm(c, cdt);
    LLVMValueRef xs[2];
    for (int i = 0; i < nargs; i++)
        xs[i] = half ? LLVMBuildFPExt(k->llb, args[i], cty, "") : args[i];
    char sym[64];
    snprintf(sym, sizeof sym, "tj.math.%s.%s", name, cdt == TJ_DTYPE_F64 ? "f64" : "f32");
    LLVMValueRef r = tji_emit_call_named(k, sym, cty, xs, (unsigned)nargs);
    return half ? LLVMBuildFPTrunc(k->llb, r, tji_dtype_llvm(c, dt), "") : r;
}

static LLVMValueRef
math_call(tj_kernel *k, const char *name, const tj_type *t, LLVMValueRef a, LLVMValueRef b)
{
    int nargs = b ? 2 : 1;
    if (tji_type_is_scalar(t)) {
        LLVMValueRef args[] = {a, b};
        return math_call_scalar(k, name, t->dtype, args, nargs);
    }
    LLVMValueRef out = LLVMGetUndef(t->llreg);
    for (int i = 0; i < t->ncomp; i++) {
        LLVMValueRef idx = tji_const_i32(k->ctx, i);
        LLVMValueRef args[] = {LLVMBuildExtractElement(k->llb, a, idx, ""),
                               b ? LLVMBuildExtractElement(k->llb, b, idx, "") : NULL};
        out = LLVMBuildInsertElement(k->llb, out, math_call_scalar(k, name, t->dtype, args, nargs),
                                     idx, "");
    }
    return out;
}

static LLVMValueRef
intrinsic1(tj_kernel *k, const char *name, LLVMValueRef a)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    return tji_emit_intrinsic(k, name, &ty, 1, &a, 1);
}

static LLVMValueRef
intrinsic2(tj_kernel *k, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef args[] = {a, b};
    return tji_emit_intrinsic(k, name, &ty, 1, args, 2);
}

/* ---- unary ----------------------------------------------------------------------------- */

static LLVMValueRef
emit_dot(tj_kernel *k, const tj_type *t, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef bl = k->llb;
    LLVMValueRef sum = NULL;
    for (int i = 0; i < t->ncomp; i++) {
        LLVMValueRef idx = tji_const_i32(k->ctx, i);
        LLVMValueRef x = LLVMBuildExtractElement(bl, a, idx, "");
        LLVMValueRef y = LLVMBuildExtractElement(bl, b, idx, "");
        LLVMValueRef p = is_float(t) ? LLVMBuildFMul(bl, x, y, "") : LLVMBuildMul(bl, x, y, "");
        sum = !sum ? p : is_float(t) ? LLVMBuildFAdd(bl, sum, p, "") : LLVMBuildAdd(bl, sum, p, "");
    }
    return sum;
}

static LLVMValueRef
emit_transpose(tj_kernel *k, const tj_type *t, LLVMValueRef m)
{
    LLVMValueRef mask[16];
    for (int r = 0; r < t->cols; r++)
        for (int c = 0; c < t->rows; c++)
            mask[r * t->rows + c] = tji_const_i32(k->ctx, c * t->cols + r);
    return LLVMBuildShuffleVector(k->llb, m, LLVMGetUndef(t->llreg),
                                  LLVMConstVector(mask, (unsigned)t->ncomp), "");
}

static tj_val *
emit_unary(tj_kernel *k, tj_unop op, tj_val *a)
{
    LLVMBuilderRef b = k->llb;
    const tj_type *t = a->type;
    LLVMValueRef x = a->ll;
    switch (op) {
    case TJ_UN_NEG:
        return tji_scalar(k, t, is_float(t) ? LLVMBuildFNeg(b, x, "") : LLVMBuildNeg(b, x, ""));
    case TJ_UN_NOT:
    case TJ_UN_BIT_NOT:
        return tji_scalar(k, t, LLVMBuildNot(b, x, ""));
    case TJ_UN_ABS:
        if (is_float(t))
            return tji_scalar(k, t, intrinsic1(k, "llvm.fabs", x));
        if (!tji_dtype_is_signed(t->dtype))
            return tji_scalar(k, t, x);
        return tji_scalar(k, t, intrinsic2(k, "llvm.abs", x, LLVMConstInt(tji_i1(k->ctx), 0, 0)));
    case TJ_UN_SQRT:
        return tji_scalar(k, t, intrinsic1(k, "llvm.sqrt", x));
    case TJ_UN_FLOOR:
        return tji_scalar(k, t, intrinsic1(k, "llvm.floor", x));
    case TJ_UN_CEIL:
        return tji_scalar(k, t, intrinsic1(k, "llvm.ceil", x));
    case TJ_UN_ROUND:
        return tji_scalar(k, t, intrinsic1(k, "llvm.round", x));
    case TJ_UN_TRUNC:
        return tji_scalar(k, t, intrinsic1(k, "llvm.trunc", x));
    case TJ_UN_EXP:
    case TJ_UN_LOG:
    case TJ_UN_SIN:
    case TJ_UN_COS:
    case TJ_UN_TAN:
    case TJ_UN_TANH:
        return tji_scalar(k, t, math_call(k, unops[op].name, t, x, NULL));
    case TJ_UN_LENGTH: {
        LLVMValueRef d = emit_dot(k, t, x, x);
        return tji_scalar(k, tji_type_scalar(k->ctx, t->dtype), intrinsic1(k, "llvm.sqrt", d));
    }
    case TJ_UN_NORMALIZE: {
        LLVMValueRef len = intrinsic1(k, "llvm.sqrt", emit_dot(k, t, x, x));
        LLVMTypeRef st = LLVMTypeOf(len);
        LLVMValueRef pos = LLVMBuildFCmp(b, LLVMRealOGT, len, LLVMConstNull(st), "");
        LLVMValueRef inv = LLVMBuildFDiv(b, LLVMConstReal(st, 1.0), len, "");
        inv = LLVMBuildSelect(b, pos, inv, LLVMConstReal(st, 1.0), "");
        return tji_scalar(k, t, LLVMBuildFMul(b, x, splat(k, inv, t), ""));
    }
    case TJ_UN_TRANSPOSE:
        return tji_scalar(k, tj_context_get_matrix_type(k->ctx, t->dtype, t->cols, t->rows),
                          emit_transpose(k, t, x));
    }
    return NULL;
}

tj_val *
tj_unary(tj_kernel *k, tj_unop op, tj_val *a)
{
    char d[64];
    if (!tji_enter_local(k, "tj_unary"))
        return NULL;
    if ((unsigned)op >= TJI_NELEMS(unops) || !unops[op].name) {
        tji_fail(k, TJ_ERR_INVALID, "tj_unary: argument 'op': %d is not a unary operator", op);
        return NULL;
    }
    if (a && a->kind == TJ_VAL_TILE)
        return tji_use(k, a, unops[op].name, "a") ? tji_tile_unary(k, op, a) : NULL;
    if (!check_operand(k, unops[op].name, "a", a))
        return NULL;
    if (!accepts(unops[op].accepts, a->type)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'a': %s is not supported", unops[op].name,
                 tji_val_describe(a, d, sizeof d));
        return NULL;
    }
    return emit_unary(k, op, a);
}

/* ---- binary ---------------------------------------------------------------------------- */

/* The constant 1 of an integer type or, splatted, of an integer vector type. */
static LLVMValueRef
const_one(LLVMTypeRef ty)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return LLVMConstInt(ty, 1, 0);
    LLVMValueRef e[16];
    unsigned n = LLVMGetVectorSize(ty);
    for (unsigned i = 0; i < n && i < 16; i++)
        e[i] = LLVMConstInt(LLVMGetElementType(ty), 1, 0);
    return LLVMConstVector(e, n);
}

/* a / b and a % b with b == 0 giving 0 and MIN / -1 not trapping; scalars or the
 * componentwise forms on integer composites. */
static LLVMValueRef
safe_divrem(tj_kernel *k, tj_binop op, bool is_signed, LLVMValueRef a, LLVMValueRef bv)
{
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ty), one = const_one(ty);
    LLVMValueRef is0 = LLVMBuildICmp(b, LLVMIntEQ, bv, zero, "");
    LLVMValueRef d = LLVMBuildSelect(b, is0, one, bv, "");
    LLVMValueRef r;
    if (is_signed) {
        /* b == -1: a / -1 = -a (wrapping), a % -1 = 0; avoids the MIN / -1 trap. */
        LLVMValueRef m1 = LLVMBuildICmp(b, LLVMIntEQ, d, LLVMConstAllOnes(ty), "");
        d = LLVMBuildSelect(b, m1, one, d, "");
        r = op == TJ_BIN_DIV ? LLVMBuildSDiv(b, a, d, "") : LLVMBuildSRem(b, a, d, "");
        LLVMValueRef alt = op == TJ_BIN_DIV ? LLVMBuildNeg(b, a, "") : zero;
        r = LLVMBuildSelect(b, m1, alt, r, "");
    } else {
        r = op == TJ_BIN_DIV ? LLVMBuildUDiv(b, a, d, "") : LLVMBuildURem(b, a, d, "");
    }
    return LLVMBuildSelect(b, is0, zero, r, "");
}

static LLVMValueRef
emit_same(tj_kernel *k, tj_binop op, const tj_type *t, LLVMValueRef x, LLVMValueRef y)
{
    LLVMBuilderRef b = k->llb;
    bool fl = is_float(t), sg = tji_dtype_is_signed(t->dtype);
    switch (op) {
    case TJ_BIN_ADD:
        return fl ? LLVMBuildFAdd(b, x, y, "") : LLVMBuildAdd(b, x, y, "");
    case TJ_BIN_SUB:
        return fl ? LLVMBuildFSub(b, x, y, "") : LLVMBuildSub(b, x, y, "");
    case TJ_BIN_MUL:
    case TJ_BIN_CW_MUL:
        return fl ? LLVMBuildFMul(b, x, y, "") : LLVMBuildMul(b, x, y, "");
    case TJ_BIN_DIV:
    case TJ_BIN_CW_DIV:
        return fl ? LLVMBuildFDiv(b, x, y, "") : safe_divrem(k, TJ_BIN_DIV, sg, x, y);
    case TJ_BIN_MOD:
        /* fmod, not frem: NVPTX lowers frem to x - trunc(x / y) * y, which is inexact. */
        return fl ? math_call(k, "fmod", t, x, y) : safe_divrem(k, TJ_BIN_MOD, sg, x, y);
    case TJ_BIN_MIN:
        return intrinsic2(k, fl ? "llvm.minnum" : sg ? "llvm.smin" : "llvm.umin", x, y);
    case TJ_BIN_MAX:
        return intrinsic2(k, fl ? "llvm.maxnum" : sg ? "llvm.smax" : "llvm.umax", x, y);
    case TJ_BIN_AND:
    case TJ_BIN_BIT_AND:
        return LLVMBuildAnd(b, x, y, "");
    case TJ_BIN_OR:
    case TJ_BIN_BIT_OR:
        return LLVMBuildOr(b, x, y, "");
    case TJ_BIN_BIT_XOR:
        return LLVMBuildXor(b, x, y, "");
    case TJ_BIN_SHL:
    case TJ_BIN_SHR: {
        LLVMValueRef amt = LLVMBuildAnd(
            b, y, LLVMConstInt(LLVMTypeOf(y), (unsigned)tji_dtype_bits(t->dtype) - 1, 0), "");
        if (op == TJ_BIN_SHL)
            return LLVMBuildShl(b, x, amt, "");
        return sg ? LLVMBuildAShr(b, x, amt, "") : LLVMBuildLShr(b, x, amt, "");
    }
    case TJ_BIN_POW:
    case TJ_BIN_ATAN2:
        return math_call(k, binop_names[op], t, x, y);
    default:
        return NULL;
    }
}

/* Which operand types each same-type operator takes. */
static int
same_accepts(tj_binop op)
{
    switch (op) {
    case TJ_BIN_ADD:
    case TJ_BIN_SUB:
    case TJ_BIN_MIN:
    case TJ_BIN_MAX:
        return A_NUM;
    case TJ_BIN_MUL:
    case TJ_BIN_DIV:
    case TJ_BIN_MOD:
        return A_NUM; /* composites are caught before, as products and scalings */
    case TJ_BIN_AND:
    case TJ_BIN_OR:
        return A_BOOL;
    case TJ_BIN_BIT_AND:
    case TJ_BIN_BIT_OR:
    case TJ_BIN_BIT_XOR:
    case TJ_BIN_SHL:
    case TJ_BIN_SHR:
        return A_INT;
    case TJ_BIN_POW:
    case TJ_BIN_ATAN2:
        return A_FLOAT;
    default:
        return 0;
    }
}

/* matrix * vector, vector * matrix, matrix * matrix; NULL result type: not a product. */
static const tj_type *
product_type(tj_context *c, const tj_type *ta, const tj_type *tb)
{
    if (ta->dtype != tb->dtype)
        return NULL;
    bool av = ta->kind == TJ_TYPE_VECTOR, bv = tb->kind == TJ_TYPE_VECTOR;
    bool am = ta->kind == TJ_TYPE_MATRIX, bm = tb->kind == TJ_TYPE_MATRIX;
    int r, cc;
    if (am && bv && ta->cols == tb->rows)
        return ta->rows == 1 ? tji_type_scalar(c, ta->dtype)
                             : tj_context_get_vector_type(c, ta->dtype, ta->rows);
    if (av && bm && ta->rows == tb->rows)
        return tb->cols == 1 ? tji_type_scalar(c, ta->dtype)
                             : tj_context_get_vector_type(c, ta->dtype, tb->cols);
    if (!(am && bm && ta->cols == tb->rows))
        return NULL;
    r = ta->rows;
    cc = tb->cols;
    if (r == 1 && cc == 1)
        return tji_type_scalar(c, ta->dtype);
    return tj_context_get_matrix_type(c, ta->dtype, r, cc);
}

/* out[i][j] = sum_k a[i][k] * b[k][j], with vectors as 1-row or 1-column matrices. */
static LLVMValueRef
emit_product(tj_kernel *k, const tj_type *ta, LLVMValueRef a, const tj_type *tb, LLVMValueRef b,
             const tj_type *tr)
{
    int ar = ta->kind == TJ_TYPE_VECTOR ? 1 : ta->rows;
    int ac = ta->kind == TJ_TYPE_VECTOR ? ta->rows : ta->cols;
    int bc = tb->kind == TJ_TYPE_VECTOR ? 1 : tb->cols;
    bool fl = is_float(ta);
    LLVMBuilderRef bl = k->llb;
    LLVMValueRef out = tji_type_is_scalar(tr) ? NULL : LLVMGetUndef(tr->llreg);
    for (int i = 0; i < ar; i++) {
        for (int j = 0; j < bc; j++) {
            LLVMValueRef sum = NULL;
            for (int m = 0; m < ac; m++) {
                LLVMValueRef x =
                    LLVMBuildExtractElement(bl, a, tji_const_i32(k->ctx, i * ac + m), "");
                LLVMValueRef y =
                    LLVMBuildExtractElement(bl, b, tji_const_i32(k->ctx, m * bc + j), "");
                LLVMValueRef p = fl ? LLVMBuildFMul(bl, x, y, "") : LLVMBuildMul(bl, x, y, "");
                sum = !sum ? p : fl ? LLVMBuildFAdd(bl, sum, p, "") : LLVMBuildAdd(bl, sum, p, "");
            }
            if (!out)
                return sum;
            out = LLVMBuildInsertElement(bl, out, sum, tji_const_i32(k->ctx, i * bc + j), "");
        }
    }
    return out;
}

/* Hamilton product of quaternions (x, y, z, w). */
static LLVMValueRef
emit_quat_mul(tj_kernel *k, LLVMValueRef a, LLVMValueRef b, const tj_type *t)
{
    LLVMBuilderRef bl = k->llb;
    LLVMValueRef q[2][4];
    for (int i = 0; i < 4; i++) {
        q[0][i] = LLVMBuildExtractElement(bl, a, tji_const_i32(k->ctx, i), "");
        q[1][i] = LLVMBuildExtractElement(bl, b, tji_const_i32(k->ctx, i), "");
    }
    /* Each output component: sum of sign * a[ia] * b[ib]. */
    static const int terms[4][4][3] = {
        {{3, 0, 1}, {0, 3, 1}, {1, 2, 1}, {2, 1, -1}}, /* x = aw bx + ax bw + ay bz - az by */
        {{3, 1, 1}, {1, 3, 1}, {2, 0, 1}, {0, 2, -1}}, /* y */
        {{3, 2, 1}, {2, 3, 1}, {0, 1, 1}, {1, 0, -1}}, /* z */
        {{3, 3, 1}, {0, 0, -1}, {1, 1, -1}, {2, 2, -1}}, /* w */
    };
    LLVMValueRef out = LLVMGetUndef(t->llreg);
    for (int o = 0; o < 4; o++) {
        LLVMValueRef sum = NULL;
        for (int j = 0; j < 4; j++) {
            LLVMValueRef p = LLVMBuildFMul(bl, q[0][terms[o][j][0]], q[1][terms[o][j][1]], "");
            if (!sum)
                sum = p;
            else if (terms[o][j][2] > 0)
                sum = LLVMBuildFAdd(bl, sum, p, "");
            else
                sum = LLVMBuildFSub(bl, sum, p, "");
        }
        out = LLVMBuildInsertElement(bl, out, sum, tji_const_i32(k->ctx, o), "");
    }
    return out;
}

static LLVMValueRef
emit_cross(tj_kernel *k, const tj_type *t, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef bl = k->llb;
    LLVMValueRef x[3], y[3];
    for (int i = 0; i < 3; i++) {
        x[i] = LLVMBuildExtractElement(bl, a, tji_const_i32(k->ctx, i), "");
        y[i] = LLVMBuildExtractElement(bl, b, tji_const_i32(k->ctx, i), "");
    }
    LLVMValueRef out = LLVMGetUndef(t->llreg);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, m = (i + 2) % 3;
        LLVMValueRef r = emit_same(k, TJ_BIN_SUB, t, emit_same(k, TJ_BIN_MUL, t, x[j], y[m]),
                                   emit_same(k, TJ_BIN_MUL, t, x[m], y[j]));
        out = LLVMBuildInsertElement(bl, out, r, tji_const_i32(k->ctx, i), "");
    }
    return out;
}

static tj_val *
binary_mixed(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    const tj_type *ta = a->type, *tb = b->type;
    bool sa = tji_type_is_scalar(ta), sb = tji_type_is_scalar(tb);
    if (op == TJ_BIN_MUL && sa != sb && ta->dtype == tb->dtype && ta->dtype != TJ_DTYPE_BOOL) {
        const tj_type *ct = sa ? tb : ta;
        LLVMValueRef s = splat(k, sa ? a->ll : b->ll, ct);
        return tji_scalar(k, ct, emit_same(k, TJ_BIN_MUL, ct, s, sa ? b->ll : a->ll));
    }
    if (op == TJ_BIN_DIV && !sa && sb && ta->dtype == tb->dtype && ta->dtype != TJ_DTYPE_BOOL)
        return tji_scalar(k, ta, emit_same(k, TJ_BIN_DIV, ta, a->ll, splat(k, b->ll, ta)));
    if (op == TJ_BIN_MUL) {
        const tj_type *tr = product_type(k->ctx, ta, tb);
        if (tr)
            return tji_scalar(k, tr, emit_product(k, ta, a->ll, tb, b->ll, tr));
    }
    char da[64], db[64];
    tji_fail(k, TJ_ERR_INVALID, "%s: operand types %s and %s do not match", binop_names[op],
             tji_val_describe(a, da, sizeof da), tji_val_describe(b, db, sizeof db));
    return NULL;
}

static tj_val *
binary_same(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    const tj_type *t = a->type;
    char d[64];
    bool comp = tji_type_is_composite(t);
    switch (op) {
    case TJ_BIN_DOT:
        if (t->kind != TJ_TYPE_VECTOR && t->kind != TJ_TYPE_QUAT)
            break;
        return tji_scalar(k, tji_type_scalar(k->ctx, t->dtype), emit_dot(k, t, a->ll, b->ll));
    case TJ_BIN_CROSS:
        if (t->kind != TJ_TYPE_VECTOR || t->rows != 3)
            break;
        return tji_scalar(k, t, emit_cross(k, t, a->ll, b->ll));
    case TJ_BIN_CW_MUL:
    case TJ_BIN_CW_DIV:
        if (!comp)
            break;
        return tji_scalar(k, t, emit_same(k, op, t, a->ll, b->ll));
    case TJ_BIN_MUL:
        if (t->kind == TJ_TYPE_QUAT)
            return tji_scalar(k, t, emit_quat_mul(k, a->ll, b->ll, t));
        if (t->kind == TJ_TYPE_MATRIX && t->rows == t->cols)
            return binary_mixed(k, op, a, b);
        if (comp)
            break;
        /* fall through */
    default:
        if (op == TJ_BIN_DIV && comp)
            break;
        if (op == TJ_BIN_MOD && comp)
            break;
        if (!accepts(same_accepts(op), t))
            break;
        return tji_scalar(k, t, emit_same(k, op, t, a->ll, b->ll));
    }
    tji_fail(k, TJ_ERR_INVALID, "%s: operands of type %s are not supported%s", binop_names[op],
             tji_val_describe(a, d, sizeof d),
             comp && (op == TJ_BIN_MUL || op == TJ_BIN_DIV) ? " (use cw_mul or cw_div)" : "");
    return NULL;
}

tj_val *
tj_binary(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    if (!tji_enter_local(k, "tj_binary"))
        return NULL;
    if ((unsigned)op >= TJI_NELEMS(binop_names) || !binop_names[op]) {
        tji_fail(k, TJ_ERR_INVALID, "tj_binary: argument 'op': %d is not a binary operator", op);
        return NULL;
    }
    if ((a && a->kind == TJ_VAL_TILE) || (b && b->kind == TJ_VAL_TILE))
        return tji_use(k, a, binop_names[op], "a") && tji_use(k, b, binop_names[op], "b")
                   ? tji_tile_binary(k, op, a, b)
                   : NULL;
    if (!check_operand(k, binop_names[op], "a", a) || !check_operand(k, binop_names[op], "b", b))
        return NULL;
    if (a->type == b->type)
        return binary_same(k, op, a, b);
    return binary_mixed(k, op, a, b);
}

/* ---- comparisons, fma, select, casts --------------------------------------------------- */

static LLVMValueRef
compare_llvm(tj_kernel *k, tj_cmp op, const tj_type *t, LLVMValueRef x, LLVMValueRef y)
{
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT,
                                          LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT,
                                          LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    if (is_float(t))
        return LLVMBuildFCmp(k->llb, fp[op], x, y, "");
    return LLVMBuildICmp(k->llb, tji_dtype_is_signed(t->dtype) ? sp[op] : up[op], x, y, "");
}

tj_val *
tj_compare(tj_kernel *k, tj_cmp op, tj_val *a, tj_val *b)
{
    char da[64], db[64];
    if (!tji_enter_local(k, "tj_compare"))
        return NULL;
    if ((unsigned)op > TJ_CMP_GE) {
        tji_fail(k, TJ_ERR_INVALID, "tj_compare: argument 'op': %d is not a comparison", op);
        return NULL;
    }
    if ((a && a->kind == TJ_VAL_TILE) || (b && b->kind == TJ_VAL_TILE))
        return tji_use(k, a, "tj_compare", "a") && tji_use(k, b, "tj_compare", "b")
                   ? tji_tile_compare(k, op, a, b)
                   : NULL;
    if (!check_operand(k, "tj_compare", "a", a) || !check_operand(k, "tj_compare", "b", b))
        return NULL;
    const tj_type *t = a->type;
    bool comp = tji_type_is_composite(t);
    if (t != b->type || (comp && op != TJ_CMP_EQ && op != TJ_CMP_NE)) {
        tji_fail(k, TJ_ERR_INVALID, "tj_compare: cannot compare %s with %s%s",
                 tji_val_describe(a, da, sizeof da), tji_val_describe(b, db, sizeof db),
                 comp ? " (composites: only equal and not-equal)" : "");
        return NULL;
    }
    LLVMValueRef r = compare_llvm(k, op, t, a->ll, b->ll);
    if (comp) {
        LLVMTypeRef vt = LLVMTypeOf(r);
        const char *red = op == TJ_CMP_EQ ? "llvm.vector.reduce.and" : "llvm.vector.reduce.or";
        r = tji_emit_intrinsic(k, red, &vt, 1, &r, 1);
    }
    return tji_scalar(k, tji_type_scalar(k->ctx, TJ_DTYPE_BOOL), r);
}

tj_val *
tj_fma(tj_kernel *k, tj_val *a, tj_val *b, tj_val *c)
{
    char d[64];
    if (!tji_enter_local(k, "tj_fma") || !check_operand(k, "fma", "a", a) ||
        !check_operand(k, "fma", "b", b) || !check_operand(k, "fma", "c", c))
        return NULL;
    if (!is_float(a->type) || a->type != b->type || a->type != c->type) {
        tji_fail(k, TJ_ERR_INVALID, "fma: operands must be floats of one type, got %s",
                 tji_val_describe(a->type != b->type ? b : a->type != c->type ? c : a, d,
                                  sizeof d));
        return NULL;
    }
    LLVMTypeRef ty = a->type->llreg;
    LLVMValueRef args[] = {a->ll, b->ll, c->ll};
    return tji_scalar(k, a->type, tji_emit_intrinsic(k, "llvm.fma", &ty, 1, args, 3));
}

tj_val *
tj_select(tj_kernel *k, tj_val *cond, tj_val *a, tj_val *b)
{
    char da[64], db[64];
    if (!tji_enter_local(k, "tj_select") || !tji_use(k, cond, "tj_select", "cond") ||
        !tji_use(k, a, "tj_select", "a") || !tji_use(k, b, "tj_select", "b"))
        return NULL;
    if (cond->kind != TJ_VAL_SCALAR || cond->type->kind != TJ_TYPE_SCALAR ||
        cond->type->dtype != TJ_DTYPE_BOOL) {
        tji_fail(k, TJ_ERR_INVALID, "tj_select: argument 'cond': %s is not bool",
                 tji_val_describe(cond, da, sizeof da));
        return NULL;
    }
    if (a->kind != TJ_VAL_SCALAR || b->kind != TJ_VAL_SCALAR || a->type != b->type) {
        tji_fail(k, TJ_ERR_INVALID, "tj_select: arguments 'a' and 'b' differ: %s and %s",
                 tji_val_describe(a, da, sizeof da), tji_val_describe(b, db, sizeof db));
        return NULL;
    }
    return tji_scalar(k, a->type, LLVMBuildSelect(k->llb, cond->ll, a->ll, b->ll, ""));
}

/* Float to integer in a CPU kernel on x86-64, for a scalar that is not a constant. LLVM
 * 19 lowers llvm.fptosi.sat / fptoui.sat on x86 to cvttss2si between two compares, a
 * branch and a cmov or two (NaN gives 0, values past the range its nearest end). cvttss2si
 * itself (in 32 or 64 bits) gives the exact truncation for every value its width holds,
 * and the "integer indefinite" (its minimum) for NaN and every other value, so where that
 * truncation is in the target's range it is the saturated result; only the rest takes a
 * branch, marked cold, to fptosi/fptoui.sat. One compare instead of two and a cmov (a CPU
 * histogram's cast and bin: 1.84 -> 1.44 ns an element). Not in functions (tj_func):
 * tile_map runs them in slot loops that LLVM vectorises, which it can do with
 * fptosi.sat and not with this target intrinsic. */
static bool
cast_by_cvtt(const tj_kernel *k, LLVMValueRef x, tj_dtype from, tj_dtype to)
{
#if defined(__x86_64__)
    return k->opts.target == TJ_TARGET_CPU && !k->is_func && !LLVMIsConstant(x) &&
           LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVectorTypeKind &&
           (from == TJ_DTYPE_F32 || from == TJ_DTYPE_F64) && tji_dtype_is_int(to);
#else
    (void)k, (void)x, (void)from, (void)to;
    return false;
#endif
}

static LLVMValueRef
cast_by_cvtt_emit(tj_kernel *k, LLVMValueRef x, tj_dtype from, tj_dtype to, LLVMTypeRef toty)
{
    static const char *const names[2][2] = {
        {"llvm.x86.sse.cvttss2si", "llvm.x86.sse.cvttss2si64"},
        {"llvm.x86.sse2.cvttsd2si", "llvm.x86.sse2.cvttsd2si64"},
    };
    LLVMBuilderRef b = k->llb;
    tj_context *c = k->ctx;
    int bits = tji_dtype_bits(to);
    bool sg = tji_dtype_is_signed(to), dbl = from == TJ_DTYPE_F64;
    bool wide = bits == 64 || (bits == 32 && !sg); /* uint32 needs the 64-bit truncation */
    LLVMTypeRef rty = wide ? tji_i64(c) : tji_i32(c);
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), dbl ? 2 : 4);
    LLVMValueRef v = LLVMBuildInsertElement(b, LLVMGetPoison(vt), x, tji_const_i32(c, 0), "");
    LLVMValueRef r = tji_emit_intrinsic(k, names[dbl][wide], NULL, 0, &v, 1);
    LLVMValueRef in;
    if (bits == 64 && !sg) /* uint64: what int64 holds, the indefinite and negatives not */
        in = LLVMBuildICmp(b, LLVMIntSGE, r, LLVMConstNull(rty), "");
    else if (bits == (wide ? 64 : 32)) /* int32 and int64: all but the indefinite */
        in = LLVMBuildICmp(b, LLVMIntNE, r, LLVMConstInt(rty, 1ULL << (bits - 1), 0), "");
    else { /* lo <= r <= hi as one unsigned compare of r - lo */
        long long lo = sg ? -(1LL << (bits - 1)) : 0;
        unsigned long long span = (1ULL << bits) - 1;
        LLVMValueRef off = LLVMBuildSub(b, r, LLVMConstInt(rty, (unsigned long long)lo, 1), "");
        in = LLVMBuildICmp(b, LLVMIntULE, off, LLVMConstInt(rty, span, 0), "");
    }
    LLVMValueRef fast = LLVMBuildTrunc(b, r, toty, "");
    tji_cond cond;
    tji_emit_cold_begin(k, LLVMBuildNot(b, in, ""), &cond);
    LLVMTypeRef tys[] = {toty, LLVMTypeOf(x)};
    LLVMValueRef sat = tji_emit_intrinsic(k, sg ? "llvm.fptosi.sat" : "llvm.fptoui.sat", tys, 2,
                                          &x, 1);
    tji_emit_cond_end(k, &cond);
    return tji_emit_phi2(b, sat, cond.then_bb, fast, cond.from_bb);
}

/* float32 to int32 or uint32 on the GPU: PTX's cvt.rzi.s32.f32 / .u32.f32 saturates and
 * gives 0 for NaN, which is fptosi/fptoui.sat's meaning, but LLVM 19's NVPTX backend
 * expands llvm.fpto*i.sat into the cvt between three compares and selects. The nvvm
 * intrinsics are the bare cvt: in the GPU histogram's loop, 1 instruction an element
 * instead of 7 (0.79 -> 0.89 of the shared-atomic reference on the H200). Only these two:
 * on the H200 the 64-bit results and float64 sources gave the integer minimum for NaN
 * (check_scalar's cast table), where the generic form's compares give 0. Not for
 * constants (LLVM folds the generic form) or vectors. */
static LLVMValueRef
cast_by_cvt_rzi(tj_kernel *k, LLVMValueRef x, tj_dtype from, tj_dtype to)
{
    if (k->opts.target != TJ_TARGET_CUDA || LLVMIsConstant(x) ||
        LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMVectorTypeKind || from != TJ_DTYPE_F32 ||
        (to != TJ_DTYPE_I32 && to != TJ_DTYPE_U32))
        return NULL;
    return tji_emit_intrinsic(k, to == TJ_DTYPE_I32 ? "llvm.nvvm.f2i.rz" : "llvm.nvvm.f2ui.rz",
                              NULL, 0, &x, 1);
}

static LLVMValueRef
cast_llvm(tj_kernel *k, LLVMValueRef x, tj_dtype from, tj_dtype to, LLVMTypeRef toty)
{
    LLVMBuilderRef b = k->llb;
    bool ff = tji_dtype_is_float(from), tf = tji_dtype_is_float(to);
    if (to == TJ_DTYPE_BOOL) {
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
        return ff ? LLVMBuildFCmp(b, LLVMRealUNE, x, zero, "")
                  : LLVMBuildICmp(b, LLVMIntNE, x, zero, "");
    }
    if (ff && tf)
        return tji_dtype_bits(to) < tji_dtype_bits(from) ? LLVMBuildFPTrunc(b, x, toty, "")
                                                        : LLVMBuildFPExt(b, x, toty, "");
    if (ff) {
        /* Half is widened first: every half value is exact in float, so the result is the
         * same, and LLVM 19's x86 AVX512-FP16 lowering of fptosi.sat from half gives
         * -32768 for NaN instead of 0 (check_scalar's cast table caught it). */
        if (from == TJ_DTYPE_F16) {
            LLVMTypeRef f32 = LLVMFloatTypeInContext(LLVMGetTypeContext(toty));
            LLVMTypeRef xty = LLVMTypeOf(x);
            if (LLVMGetTypeKind(xty) == LLVMVectorTypeKind)
                f32 = LLVMVectorType(f32, LLVMGetVectorSize(xty));
            x = LLVMBuildFPExt(b, x, f32, "");
        }
        tj_dtype wide = from == TJ_DTYPE_F16 ? TJ_DTYPE_F32 : from; /* x's dtype now */
        if (cast_by_cvtt(k, x, wide, to))
            return cast_by_cvtt_emit(k, x, wide, to, toty);
        LLVMValueRef cvt = cast_by_cvt_rzi(k, x, wide, to);
        if (cvt)
            return cvt;
        LLVMTypeRef tys[] = {toty, LLVMTypeOf(x)};
        const char *name = tji_dtype_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
        return tji_emit_intrinsic(k, name, tys, 2, &x, 1);
    }
    bool sg = tji_dtype_is_signed(from) && from != TJ_DTYPE_BOOL;
    if (tf)
        return sg ? LLVMBuildSIToFP(b, x, toty, "") : LLVMBuildUIToFP(b, x, toty, "");
    return LLVMBuildIntCast2(b, x, toty, sg, "");
}

tj_val *
tj_cast(tj_kernel *k, tj_val *v, const tj_type *type)
{
    char d[64];
    if (!tji_enter_local(k, "tj_cast") || !check_operand(k, "tj_cast", "v", v) ||
        !tji_check_type_ctx(k, "tj_cast", "type", type))
        return NULL;
    const tj_type *from = v->type;
    bool ok = type && (tji_type_is_scalar(type) || tji_type_is_composite(type)) &&
              type->kind == from->kind && type->rows == from->rows && type->cols == from->cols;
    if (!ok) {
        tji_fail(k, TJ_ERR_INVALID, "tj_cast: cannot convert %s to %s",
                 tji_val_describe(v, d, sizeof d), type ? type->name : "(null)");
        return NULL;
    }
    if (type == from)
        return tji_scalar(k, type, v->ll);
    return tji_scalar(k, type, cast_llvm(k, v->ll, from->dtype, type->dtype, type->llreg));
}
