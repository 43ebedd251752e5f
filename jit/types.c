/*
 * jit/types.c: scalar, composite and struct types, interned per context (equal types are
 * the same pointer; structs are nominal), with their memory layout (C rules) and their
 * LLVM forms in registers and in memory (SPEC 2).
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* One row per dtype: name, bits, float?, signed?, short suffix for composite names. */
static const struct {
    const char *name;
    int bits;
    bool is_float, is_signed;
    const char *suffix;
} dtypes[] = {
    [TJ_DTYPE_BOOL] = {"bool", 1, false, false, "b"},
    [TJ_DTYPE_I8] = {"int8", 8, false, true, "i8"},
    [TJ_DTYPE_I16] = {"int16", 16, false, true, "i16"},
    [TJ_DTYPE_I32] = {"int32", 32, false, true, "i"},
    [TJ_DTYPE_I64] = {"int64", 64, false, true, "l"},
    [TJ_DTYPE_U8] = {"uint8", 8, false, false, "ub"},
    [TJ_DTYPE_U16] = {"uint16", 16, false, false, "us"},
    [TJ_DTYPE_U32] = {"uint32", 32, false, false, "ui"},
    [TJ_DTYPE_U64] = {"uint64", 64, false, false, "ul"},
    [TJ_DTYPE_F16] = {"float16", 16, true, true, "h"},
    [TJ_DTYPE_F32] = {"float32", 32, true, true, "f"},
    [TJ_DTYPE_F64] = {"float64", 64, true, true, "d"},
};

bool
tji_dtype_valid(tj_dtype dt)
{
    return dt >= TJ_DTYPE_BOOL && dt <= TJ_DTYPE_F64;
}

const char *
tji_dtype_name(tj_dtype dt)
{
    return tji_dtype_valid(dt) ? dtypes[dt].name : "?";
}

bool
tji_dtype_is_float(tj_dtype dt)
{
    return tji_dtype_valid(dt) && dtypes[dt].is_float;
}

bool
tji_dtype_is_int(tj_dtype dt)
{
    return tji_dtype_valid(dt) && !dtypes[dt].is_float && dt != TJ_DTYPE_BOOL;
}

bool
tji_dtype_is_signed(tj_dtype dt)
{
    return tji_dtype_valid(dt) && dtypes[dt].is_signed;
}

int
tji_dtype_bits(tj_dtype dt)
{
    return tji_dtype_valid(dt) ? dtypes[dt].bits : 0;
}

LLVMTypeRef
tji_dtype_llvm(tj_context *ctx, tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_F16:
        return LLVMHalfTypeInContext(ctx->llctx);
    case TJ_DTYPE_F32:
        return LLVMFloatTypeInContext(ctx->llctx);
    case TJ_DTYPE_F64:
        return LLVMDoubleTypeInContext(ctx->llctx);
    default:
        return LLVMIntTypeInContext(ctx->llctx, (unsigned)dtypes[dt].bits);
    }
}

static size_t
dtype_bytes(tj_dtype dt)
{
    return dt == TJ_DTYPE_BOOL ? 1 : (size_t)dtypes[dt].bits / 8;
}

bool
tji_type_is_scalar(const tj_type *t)
{
    return t && t->kind == TJ_TYPE_SCALAR;
}

bool
tji_type_is_composite(const tj_type *t)
{
    return t && (t->kind == TJ_TYPE_VECTOR || t->kind == TJ_TYPE_MATRIX ||
                 t->kind == TJ_TYPE_QUAT);
}

bool
tji_type_is_numeric(const tj_type *t)
{
    return (tji_type_is_scalar(t) || tji_type_is_composite(t)) && t->dtype != TJ_DTYPE_BOOL;
}

const tji_field *
tji_type_field(const tj_type *t, const char *name, size_t *index)
{
    if (!t || t->kind != TJ_TYPE_STRUCT || !name)
        return NULL;
    for (size_t i = 0; i < t->nfields; i++) {
        if (strcmp(t->fields[i].name, name) == 0) {
            if (index)
                *index = i;
            return &t->fields[i];
        }
    }
    return NULL;
}

static tj_type *
find_interned(tj_context *ctx, tj_type_kind kind, tj_dtype dt, int rows, int cols)
{
    for (tj_type *t = ctx->types; t; t = t->next)
        if (t->kind == kind && t->dtype == dt && t->rows == rows && t->cols == cols)
            return t;
    return NULL;
}

static void
composite_name(char *buf, size_t n, tj_type_kind kind, tj_dtype dt, int rows, int cols)
{
    const char *sfx = dtypes[dt].suffix;
    switch (kind) {
    case TJ_TYPE_VECTOR:
        snprintf(buf, n, "vec%d%s", rows, sfx);
        break;
    case TJ_TYPE_MATRIX:
        snprintf(buf, n, "mat%d%d%s", rows, cols, sfx);
        break;
    case TJ_TYPE_QUAT:
        snprintf(buf, n, "quat%s", sfx);
        break;
    default:
        snprintf(buf, n, "%s", dtypes[dt].name);
        break;
    }
}

static const tj_type *
intern(tj_context *ctx, tj_type_kind kind, tj_dtype dt, int rows, int cols)
{
    tj_type *t = find_interned(ctx, kind, dt, rows, cols);
    if (t)
        return t;
    t = tji_calloc(ctx, 1, sizeof *t);
    char name[32];
    composite_name(name, sizeof name, kind, dt, rows, cols);
    if (t)
        t->name = tji_strdup(ctx, kind == TJ_TYPE_VOID ? "void" : name);
    if (!t || !t->name) {
        tji_free(t);
        tji_ctx_fail(ctx, TJ_ERR_NOMEM, "out of memory creating type %s", name);
        return NULL;
    }
    t->ctx = ctx;
    t->kind = kind;
    t->dtype = dt;
    t->rows = rows;
    t->cols = cols;
    t->ncomp = rows * cols;
    if (kind == TJ_TYPE_VOID) {
        t->llreg = t->llmem = LLVMVoidTypeInContext(ctx->llctx);
    } else {
        LLVMTypeRef el = tji_dtype_llvm(ctx, dt);
        t->size = dtype_bytes(dt) * (size_t)t->ncomp;
        t->align = dtype_bytes(dt);
        if (kind == TJ_TYPE_SCALAR) {
            t->llreg = el;
            t->llmem = dt == TJ_DTYPE_BOOL ? LLVMInt8TypeInContext(ctx->llctx) : el;
        } else {
            t->llreg = LLVMVectorType(el, (unsigned)t->ncomp);
            t->llmem = LLVMArrayType2(el, (uint64_t)t->ncomp);
        }
    }
    t->next = ctx->types;
    ctx->types = t;
    return t;
}

const tj_type *
tji_type_void(tj_context *ctx)
{
    return intern(ctx, TJ_TYPE_VOID, 0, 0, 0);
}

const tj_type *
tji_type_scalar(tj_context *ctx, tj_dtype dt)
{
    return intern(ctx, TJ_TYPE_SCALAR, dt, 1, 1);
}

const tj_type *
tji_type_with_dtype(tj_context *ctx, const tj_type *like, tj_dtype dt)
{
    return intern(ctx, like->kind, dt, like->rows, like->cols);
}

const tj_type *
tj_context_get_type(tj_context *ctx, tj_dtype dtype)
{
    if (!ctx)
        return NULL;
    if (!tji_dtype_valid(dtype)) {
        tji_ctx_fail(ctx, TJ_ERR_INVALID, "tj_context_get_type: %d is not a dtype", dtype);
        return NULL;
    }
    return tji_type_scalar(ctx, dtype);
}

static bool
check_component_dtype(tj_context *ctx, const char *fn, tj_dtype dt)
{
    if (!tji_dtype_valid(dt) || dt == TJ_DTYPE_BOOL) {
        tji_ctx_fail(ctx, TJ_ERR_INVALID, "%s: argument 'dtype': %s is not a numeric dtype",
                     fn, tji_dtype_name(dt));
        return false;
    }
    return true;
}

const tj_type *
tj_context_get_vector_type(tj_context *ctx, tj_dtype dtype, int length)
{
    if (!ctx || !check_component_dtype(ctx, "tj_context_get_vector_type", dtype))
        return NULL;
    if (length < 2 || length > 4) {
        tji_ctx_fail(ctx, TJ_ERR_INVALID,
                     "tj_context_get_vector_type: argument 'length': %d is not in [2, 4]",
                     length);
        return NULL;
    }
    return intern(ctx, TJ_TYPE_VECTOR, dtype, length, 1);
}

const tj_type *
tj_context_get_matrix_type(tj_context *ctx, tj_dtype dtype, int rows, int cols)
{
    if (!ctx || !check_component_dtype(ctx, "tj_context_get_matrix_type", dtype))
        return NULL;
    if (rows < 1 || rows > 4 || cols < 1 || cols > 4 || rows * cols == 1) {
        tji_ctx_fail(ctx, TJ_ERR_INVALID,
                     "tj_context_get_matrix_type: a %dx%d matrix is not supported "
                     "(rows and cols in [1, 4], not both 1)",
                     rows, cols);
        return NULL;
    }
    return intern(ctx, TJ_TYPE_MATRIX, dtype, rows, cols);
}

const tj_type *
tj_context_get_quat_type(tj_context *ctx, tj_dtype dtype)
{
    if (!ctx)
        return NULL;
    if (!tji_dtype_is_float(dtype)) {
        tji_ctx_fail(ctx, TJ_ERR_INVALID,
                     "tj_context_get_quat_type: argument 'dtype': %s is not a float dtype",
                     tji_dtype_name(dtype));
        return NULL;
    }
    return intern(ctx, TJ_TYPE_QUAT, dtype, 4, 1);
}

static bool
check_fields(tj_context *ctx, const char *name, const tj_field *fields, size_t nfields)
{
    char why[160];
    if (tji_name_error(name, why, sizeof why))
        return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                            "tj_context_new_struct_type: argument 'name': %s", why) == TJ_OK;
    if (nfields == 0 || !fields)
        return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                            "tj_context_new_struct_type: struct '%s' has no fields",
                            name) == TJ_OK;
    for (size_t i = 0; i < nfields; i++) {
        const tj_type *ft = fields[i].type;
        if (tji_name_error(fields[i].name, why, sizeof why))
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_context_new_struct_type: struct '%s': field %zu: %s", name,
                                i, why) == TJ_OK;
        if (!ft || ft->kind == TJ_TYPE_VOID)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_context_new_struct_type: struct '%s': field '%s' has no "
                                "type",
                                name, fields[i].name) == TJ_OK;
        if (ft->ctx != ctx)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_context_new_struct_type: struct '%s': field '%s': %s is a "
                                "type of another context",
                                name, fields[i].name, ft->name) == TJ_OK;
        for (size_t j = 0; j < i; j++)
            if (strcmp(fields[j].name, fields[i].name) == 0)
                return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                    "tj_context_new_struct_type: struct '%s': duplicate "
                                    "field '%s'",
                                    name, fields[i].name) == TJ_OK;
    }
    return true;
}

const tj_type *
tj_context_new_struct_type(tj_context *ctx, const char *name, const tj_field *fields,
                           size_t nfields)
{
    if (!ctx || !check_fields(ctx, name, fields, nfields))
        return NULL;
    tj_type *t = tji_calloc(ctx, 1, sizeof *t);
    tji_field *fs = tji_calloc(ctx, nfields, sizeof *fs);
    LLVMTypeRef *regs = tji_calloc(ctx, nfields, sizeof *regs);
    LLVMTypeRef *mems = tji_calloc(ctx, nfields, sizeof *mems);
    char *tname = tji_strdup(ctx, name);
    bool ok = t && fs && regs && mems && tname;
    size_t off = 0, align = 1;
    for (size_t i = 0; ok && i < nfields; i++) {
        const tj_type *ft = fields[i].type;
        fs[i].name = tji_strdup(ctx, fields[i].name);
        ok = fs[i].name != NULL;
        fs[i].type = ft;
        off = (off + ft->align - 1) / ft->align * ft->align;
        fs[i].offset = off;
        off += ft->size;
        if (ft->align > align)
            align = ft->align;
        regs[i] = ft->llreg;
        mems[i] = ft->llmem;
    }
    if (!ok) {
        for (size_t i = 0; fs && i < nfields; i++)
            tji_free(fs[i].name);
        tji_free(fs);
        tji_free(t);
        tji_free(tname);
        tji_free(regs);
        tji_free(mems);
        tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_context_new_struct_type: out of memory");
        return NULL;
    }
    t->ctx = ctx;
    t->kind = TJ_TYPE_STRUCT;
    t->name = tname;
    t->fields = fs;
    t->nfields = nfields;
    t->align = align;
    t->size = (off + align - 1) / align * align;
    t->rows = t->cols = t->ncomp = 1;
    t->llreg = LLVMStructTypeInContext(ctx->llctx, regs, (unsigned)nfields, 0);
    t->llmem = LLVMStructTypeInContext(ctx->llctx, mems, (unsigned)nfields, 0);
    tji_free(regs);
    tji_free(mems);
    t->next = ctx->types;
    ctx->types = t;
    return t;
}

void
tji_types_release(tj_context *ctx)
{
    tj_type *t = ctx->types;
    while (t) {
        tj_type *next = t->next;
        for (size_t i = 0; i < t->nfields; i++)
            tji_free(t->fields[i].name);
        tji_free(t->fields);
        tji_free(t->name);
        tji_free(t);
        t = next;
    }
    ctx->types = NULL;
}

tj_type_kind
tj_type_get_kind(const tj_type *type)
{
    return type ? type->kind : TJ_TYPE_VOID;
}

tj_dtype
tj_type_get_dtype(const tj_type *type)
{
    return type ? type->dtype : 0;
}

size_t
tj_type_get_size(const tj_type *type)
{
    return type ? type->size : 0;
}

const char *
tj_type_get_name(const tj_type *type)
{
    return type ? type->name : "(null)";
}

int
tj_type_get_rows(const tj_type *type)
{
    return type && type->kind != TJ_TYPE_STRUCT && type->kind != TJ_TYPE_VOID ? type->rows : 0;
}

int
tj_type_get_cols(const tj_type *type)
{
    return type && type->kind != TJ_TYPE_STRUCT && type->kind != TJ_TYPE_VOID ? type->cols : 0;
}

bool
tji_check_type_ctx(tj_kernel *k, const char *fn, const char *arg, const tj_type *type)
{
    if (!type || type->ctx == k->ctx)
        return true;
    return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': %s is a type of another context",
                    fn, arg, type->name);
}
