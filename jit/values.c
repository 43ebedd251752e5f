/*
 * jit/values.c: constants, composites and structs (compose, extract, insert, fields),
 * mutable locals, and value introspection. Composites live in registers as one LLVM
 * vector (matrices row-major), structs as an LLVM struct of register forms.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

tj_val_kind
tj_val_get_kind(const tj_val *v)
{
    return v ? v->kind : TJ_VAL_VOID;
}

const tj_type *
tj_val_get_type(const tj_val *v)
{
    return v ? v->type : NULL;
}

bool
tji_val_const_int(const tj_val *v, int64_t *out)
{
    if (!v || v->kind != TJ_VAL_SCALAR || !v->ll || !LLVMIsAConstantInt(v->ll))
        return false;
    *out = tji_dtype_is_signed(v->type->dtype) ? LLVMConstIntGetSExtValue(v->ll)
                                                : (int64_t)LLVMConstIntGetZExtValue(v->ll);
    return true;
}

const char *
tji_val_describe(const tj_val *v, char *buf, size_t n)
{
    if (!v) {
        snprintf(buf, n, "(null)");
        return buf;
    }
    switch (v->kind) {
    case TJ_VAL_ARRAY:
        snprintf(buf, n, "array of %s (%d dim%s)", v->type->name, v->u.arr.ndim,
                 v->u.arr.ndim == 1 ? "" : "s");
        break;
    case TJ_VAL_VAR:
        snprintf(buf, n, "variable of %s", v->type->name);
        break;
    case TJ_VAL_VOID:
        snprintf(buf, n, "void");
        break;
    case TJ_VAL_TILE: {
        const tji_tile *t = &v->u.tile;
        int len = snprintf(buf, n, "a tile of %s (", v->type->name);
        for (int d = 0; d < t->rank && len > 0 && (size_t)len < n; d++)
            len += snprintf(buf + len, n - (size_t)len, "%s%d", d ? ", " : "", t->shape[d]);
        if (len > 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, "%s)", t->rank == 1 ? "," : "");
        break;
    }
    case TJ_VAL_STACK:
        snprintf(buf, n, "a stack of %s", v->type->name);
        break;
    default:
        snprintf(buf, n, "%s", v->type->name);
        break;
    }
    return buf;
}

/* ---- constants ------------------------------------------------------------------------- */

static bool
int_fits(tj_dtype dt, int64_t v)
{
    int bits = tji_dtype_bits(dt);
    if (dt == TJ_DTYPE_BOOL)
        return v == 0 || v == 1;
    if (dt == TJ_DTYPE_U64 || bits == 64)
        return true;
    if (tji_dtype_is_signed(dt))
        return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
    return v >= 0 && v < (INT64_C(1) << bits);
}

tj_val *
tj_const_int(tj_kernel *k, tj_dtype dtype, int64_t value)
{
    if (!tji_enter_local(k, "tj_const_int"))
        return NULL;
    if (!tji_dtype_valid(dtype) || tji_dtype_is_float(dtype)) {
        tji_fail(k, TJ_ERR_INVALID, "tj_const_int: argument 'dtype': %s is not an integer dtype",
                 tji_dtype_name(dtype));
        return NULL;
    }
    if (!int_fits(dtype, value)) {
        tji_fail(k, TJ_ERR_INVALID, "tj_const_int: argument 'value': %lld does not fit %s",
                 (long long)value, tji_dtype_name(dtype));
        return NULL;
    }
    const tj_type *t = tji_type_scalar(k->ctx, dtype);
    return tji_scalar(k, t, LLVMConstInt(t->llreg, (unsigned long long)value,
                                         tji_dtype_is_signed(dtype)));
}

tj_val *
tj_const_float(tj_kernel *k, tj_dtype dtype, double value)
{
    if (!tji_enter_local(k, "tj_const_float"))
        return NULL;
    if (!tji_dtype_is_float(dtype)) {
        tji_fail(k, TJ_ERR_INVALID,
                 "tj_const_float: argument 'dtype': %s is not a float dtype",
                 tji_dtype_name(dtype));
        return NULL;
    }
    const tj_type *t = tji_type_scalar(k->ctx, dtype);
    LLVMValueRef c = LLVMConstReal(LLVMDoubleTypeInContext(k->ctx->llctx), value);
    if (dtype != TJ_DTYPE_F64)
        c = LLVMBuildFPTrunc(k->llb, c, t->llreg, ""); /* folded: correctly rounded */
    return tji_scalar(k, t, c);
}

tj_val *
tj_const_bool(tj_kernel *k, bool value)
{
    return tj_const_int(k, TJ_DTYPE_BOOL, value ? 1 : 0);
}

tj_val *
tj_zero(tj_kernel *k, const tj_type *type)
{
    if (!tji_enter_local(k, "tj_zero"))
        return NULL;
    if (!tji_check_type_ctx(k, "tj_zero", "type", type))
        return NULL;
    if (!type || type->kind == TJ_TYPE_VOID) {
        tji_fail(k, TJ_ERR_INVALID, "tj_zero: argument 'type' is not a value type");
        return NULL;
    }
    return tji_scalar(k, type, LLVMConstNull(type->llreg));
}

/* ---- composites and structs ------------------------------------------------------------ */

static bool
check_elem(tj_kernel *k, const char *fn, tj_val *v, const tj_type *want, size_t i)
{
    char a[64];
    if (!tji_use(k, v, fn, "elems"))
        return false;
    if (v->kind != TJ_VAL_SCALAR || v->type != want)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'elems': element %zu is %s, expected %s",
                        fn, i, tji_val_describe(v, a, sizeof a), want->name);
    return true;
}

static tj_val *
compose_struct(tj_kernel *k, const tj_type *type, tj_val *const *elems, size_t n)
{
    if (n != type->nfields) {
        tji_fail(k, TJ_ERR_INVALID, "tj_compose: struct %s has %zu fields, got %zu elements",
                 type->name, type->nfields, n);
        return NULL;
    }
    LLVMValueRef agg = LLVMGetUndef(type->llreg);
    for (size_t i = 0; i < n; i++) {
        if (!check_elem(k, "tj_compose", elems[i], type->fields[i].type, i))
            return NULL;
        agg = LLVMBuildInsertValue(k->llb, agg, elems[i]->ll, (unsigned)i, "");
    }
    return tji_scalar(k, type, agg);
}

tj_val *
tj_compose(tj_kernel *k, const tj_type *type, tj_val *const *elems, size_t nelems)
{
    if (!tji_enter_local(k, "tj_compose") || !tji_check_type_ctx(k, "tj_compose", "type", type))
        return NULL;
    if (!type || !(tji_type_is_composite(type) || type->kind == TJ_TYPE_STRUCT) ||
        (nelems > 0 && !elems)) {
        tji_fail(k, TJ_ERR_INVALID,
                 "tj_compose: argument 'type' must be a vector, matrix, quaternion or struct");
        return NULL;
    }
    if (type->kind == TJ_TYPE_STRUCT)
        return compose_struct(k, type, elems, nelems);
    const tj_type *ct = tji_type_scalar(k->ctx, type->dtype);
    bool splat = nelems == 1 && type->kind != TJ_TYPE_QUAT;
    if (!splat && nelems != (size_t)type->ncomp) {
        tji_fail(k, TJ_ERR_INVALID, "tj_compose: %s takes %d components, got %zu", type->name,
                 type->ncomp, nelems);
        return NULL;
    }
    LLVMValueRef vec = LLVMGetUndef(type->llreg);
    for (int i = 0; i < type->ncomp; i++) {
        tj_val *e = elems[splat ? 0 : i];
        if (!check_elem(k, "tj_compose", e, ct, splat ? 0 : (size_t)i))
            return NULL;
        vec = LLVMBuildInsertElement(k->llb, vec, e->ll, tji_const_i32(k->ctx, i), "");
    }
    return tji_scalar(k, type, vec);
}

/* Row 'r' of a matrix as a vector of its columns. */
static LLVMValueRef
matrix_row(tj_kernel *k, const tj_type *mt, LLVMValueRef m, int r)
{
    LLVMValueRef mask[4];
    for (int c = 0; c < mt->cols; c++)
        mask[c] = tji_const_i32(k->ctx, r * mt->cols + c);
    return LLVMBuildShuffleVector(k->llb, m, LLVMGetUndef(mt->llreg),
                                  LLVMConstVector(mask, (unsigned)mt->cols), "");
}

static bool
check_index(tj_kernel *k, const char *fn, tj_val *v, int index, int *limit)
{
    char a[64];
    if (!tji_use(k, v, fn, "v"))
        return false;
    if (v->kind != TJ_VAL_SCALAR || !tji_type_is_composite(v->type))
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: argument 'v': %s is not a vector, matrix or quaternion", fn,
                        tji_val_describe(v, a, sizeof a));
    *limit = v->type->kind == TJ_TYPE_MATRIX ? v->type->rows : v->type->ncomp;
    if (index < 0 || index >= *limit)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'index': %d is out of range [0, %d)",
                        fn, index, *limit);
    return true;
}

tj_val *
tj_extract(tj_kernel *k, tj_val *v, int index)
{
    int limit;
    if (!tji_enter_local(k, "tj_extract") || !check_index(k, "tj_extract", v, index, &limit))
        return NULL;
    const tj_type *t = v->type;
    if (t->kind == TJ_TYPE_MATRIX) {
        const tj_type *rt = t->cols == 1
                                ? tji_type_scalar(k->ctx, t->dtype)
                                : tj_context_get_vector_type(k->ctx, t->dtype, t->cols);
        LLVMValueRef row = t->cols == 1 ? LLVMBuildExtractElement(k->llb, v->ll,
                                                                  tji_const_i32(k->ctx, index), "")
                                        : matrix_row(k, t, v->ll, index);
        return tji_scalar(k, rt, row);
    }
    LLVMValueRef e = LLVMBuildExtractElement(k->llb, v->ll, tji_const_i32(k->ctx, index), "");
    return tji_scalar(k, tji_type_scalar(k->ctx, t->dtype), e);
}

tj_val *
tj_insert(tj_kernel *k, tj_val *v, int index, tj_val *x)
{
    int limit;
    char a[64];
    if (!tji_enter_local(k, "tj_insert") || !check_index(k, "tj_insert", v, index, &limit) ||
        !tji_use(k, x, "tj_insert", "x"))
        return NULL;
    const tj_type *t = v->type;
    bool row = t->kind == TJ_TYPE_MATRIX && t->cols > 1;
    const tj_type *want = row ? tj_context_get_vector_type(k->ctx, t->dtype, t->cols)
                              : tji_type_scalar(k->ctx, t->dtype);
    if (x->kind != TJ_VAL_SCALAR || x->type != want) {
        tji_fail(k, TJ_ERR_INVALID, "tj_insert: argument 'x': %s, expected %s",
                 tji_val_describe(x, a, sizeof a), want->name);
        return NULL;
    }
    LLVMValueRef out = v->ll;
    int ncols = row ? t->cols : 1;
    for (int c = 0; c < ncols; c++) {
        LLVMValueRef e = row ? LLVMBuildExtractElement(k->llb, x->ll, tji_const_i32(k->ctx, c), "")
                             : x->ll;
        out = LLVMBuildInsertElement(k->llb, out, e, tji_const_i32(k->ctx, index * ncols + c), "");
    }
    return tji_scalar(k, t, out);
}

static const tji_field *
check_field(tj_kernel *k, const char *fn, tj_val *v, const char *name, size_t *index)
{
    char a[64];
    if (!tji_use(k, v, fn, "v"))
        return NULL;
    if (v->kind != TJ_VAL_SCALAR || v->type->kind != TJ_TYPE_STRUCT) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'v': %s is not a struct", fn,
                 tji_val_describe(v, a, sizeof a));
        return NULL;
    }
    const tji_field *f = tji_type_field(v->type, name, index);
    if (!f)
        tji_fail(k, TJ_ERR_INVALID, "%s: struct %s has no field '%s'", fn, v->type->name,
                 name ? name : "(null)");
    return f;
}

tj_val *
tj_get_field(tj_kernel *k, tj_val *v, const char *name)
{
    size_t i;
    if (!tji_enter_local(k, "tj_get_field"))
        return NULL;
    const tji_field *f = check_field(k, "tj_get_field", v, name, &i);
    if (!f)
        return NULL;
    return tji_scalar(k, f->type, LLVMBuildExtractValue(k->llb, v->ll, (unsigned)i, ""));
}

tj_val *
tj_set_field(tj_kernel *k, tj_val *v, const char *name, tj_val *x)
{
    size_t i;
    char a[64];
    if (!tji_enter_local(k, "tj_set_field"))
        return NULL;
    const tji_field *f = check_field(k, "tj_set_field", v, name, &i);
    if (!f || !tji_use(k, x, "tj_set_field", "x"))
        return NULL;
    if (x->kind != TJ_VAL_SCALAR || x->type != f->type) {
        tji_fail(k, TJ_ERR_INVALID, "tj_set_field: argument 'x': %s, field '%s' is %s",
                 tji_val_describe(x, a, sizeof a), name, f->type->name);
        return NULL;
    }
    return tji_scalar(k, v->type, LLVMBuildInsertValue(k->llb, v->ll, x->ll, (unsigned)i, ""));
}

/* ---- variables ------------------------------------------------------------------------- */

tj_val *
tj_var_new(tj_kernel *k, tj_val *init)
{
    char a[64];
    if (!tji_enter_pure(k, "tj_var_new") || !tji_use(k, init, "tj_var_new", "init"))
        return NULL;
    if (init->kind == TJ_VAL_TILE)
        return tji_tile_var_new(k, init);
    if (init->kind != TJ_VAL_SCALAR) {
        tji_fail(k, TJ_ERR_INVALID, "tj_var_new: argument 'init': %s cannot be a variable",
                 tji_val_describe(init, a, sizeof a));
        return NULL;
    }
    LLVMValueRef slot = tji_alloca(k, init->type->llreg, "var");
    LLVMBuildStore(k->llb, init->ll, slot);
    tj_val *v = tji_val_new(k, TJ_VAL_VAR, init->type, slot);
    if (v)
        v->scope = -1; /* the slot lives in the entry block */
    return v;
}

static bool
check_var(tj_kernel *k, const char *fn, tj_val *var)
{
    char a[64];
    if (!tji_use(k, var, fn, "var"))
        return false;
    if (var->kind != TJ_VAL_VAR)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'var': %s is not a variable", fn,
                        tji_val_describe(var, a, sizeof a));
    return true;
}

tj_val *
tj_var_get(tj_kernel *k, tj_val *var)
{
    if (!tji_enter_pure(k, "tj_var_get") || !check_var(k, "tj_var_get", var))
        return NULL;
    if (var->u.tile.regs)
        return tji_tile_var_get(k, var);
    return tji_scalar(k, var->type, LLVMBuildLoad2(k->llb, var->type->llreg, var->ll, ""));
}

bool
tj_var_set(tj_kernel *k, tj_val *var, tj_val *value)
{
    char a[64];
    if (!tji_enter_pure(k, "tj_var_set") || !check_var(k, "tj_var_set", var) ||
        !tji_use(k, value, "tj_var_set", "value"))
        return false;
    if (var->u.tile.regs)
        return tji_tile_var_set(k, var, value);
    if (value->kind != TJ_VAL_SCALAR || value->type != var->type)
        return tji_fail(k, TJ_ERR_INVALID, "tj_var_set: argument 'value': %s, the variable is %s",
                        tji_val_describe(value, a, sizeof a), var->type->name);
    LLVMBuildStore(k->llb, value->ll, var->ll);
    return true;
}
