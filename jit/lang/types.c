/*
 * jit/lang/types.c: the front end's static types (lang.h): constructors, predicates,
 * equality, names for messages, and the type names Warp kernels write (int, wp.float64,
 * wp.vec3d, wp.mat33, wp.quath...). Plain values, no allocation, no library calls.
 */
#include <stdio.h>
#include <string.h>

#include "lang.h"

tjl_type
tjl_scalar(tj_dtype dt)
{
    return (tjl_type){.kind = TJL_T_SCALAR, .dtype = (uint8_t)dt, .rows = 1, .cols = 1,
                      .sid = -1};
}

tjl_type
tjl_none(void)
{
    return (tjl_type){.kind = TJL_T_NONE, .sid = -1};
}

tjl_type
tjl_simple(tjl_kind kind)
{
    return (tjl_type){.kind = (uint8_t)kind, .sid = -1};
}

tjl_type
tjl_elem(tjl_type t)
{
    tjl_type e = t;
    e.kind = t.ekind;
    e.ekind = 0;
    e.ndim = 0;
    memset(e.shape, 0, sizeof e.shape);
    return e;
}

tjl_type
tjl_container(tjl_kind kind, tjl_type elem, int ndim)
{
    tjl_type t = elem;
    t.ekind = elem.kind;
    t.kind = (uint8_t)kind;
    t.ndim = (uint8_t)ndim;
    for (int i = 0; i < TJL_MAX_DIMS; i++)
        t.shape[i] = TJL_DIM_UNKNOWN;
    return t;
}

bool
tjl_is_value(tjl_type t)
{
    return t.kind >= TJL_T_SCALAR && t.kind <= TJL_T_STRUCT;
}

bool
tjl_is_composite(tjl_type t)
{
    return t.kind == TJL_T_VECTOR || t.kind == TJL_T_MATRIX || t.kind == TJL_T_QUAT;
}

bool
tjl_dtype_is_int(int dt)
{
    return dt >= TJ_DTYPE_I8 && dt <= TJ_DTYPE_U64;
}

bool
tjl_dtype_is_float(int dt)
{
    return dt >= TJ_DTYPE_F16 && dt <= TJ_DTYPE_F64;
}

bool
tjl_dtype_is_signed(int dt)
{
    return (dt >= TJ_DTYPE_I8 && dt <= TJ_DTYPE_I64) || tjl_dtype_is_float(dt);
}

int
tjl_dtype_bits(int dt)
{
    static const int bits[] = {[TJ_DTYPE_BOOL] = 1, [TJ_DTYPE_I8] = 8, [TJ_DTYPE_I16] = 16,
                               [TJ_DTYPE_I32] = 32, [TJ_DTYPE_I64] = 64, [TJ_DTYPE_U8] = 8,
                               [TJ_DTYPE_U16] = 16, [TJ_DTYPE_U32] = 32, [TJ_DTYPE_U64] = 64,
                               [TJ_DTYPE_F16] = 16, [TJ_DTYPE_F32] = 32, [TJ_DTYPE_F64] = 64};
    return dt > 0 && dt <= TJ_DTYPE_F64 ? bits[dt] : 0;
}

bool
tjl_is_int(tjl_type t)
{
    return t.kind == TJL_T_SCALAR && tjl_dtype_is_int(t.dtype);
}

bool
tjl_is_float(tjl_type t)
{
    return t.kind == TJL_T_SCALAR && tjl_dtype_is_float(t.dtype);
}

bool
tjl_is_bool(tjl_type t)
{
    return t.kind == TJL_T_SCALAR && t.dtype == TJ_DTYPE_BOOL;
}

bool
tjl_is_numeric(tjl_type t)
{
    return (t.kind == TJL_T_SCALAR || tjl_is_composite(t)) && t.dtype != TJ_DTYPE_BOOL;
}

static bool
value_eq(int kind, tjl_type a, tjl_type b)
{
    switch (kind) {
    case TJL_T_SCALAR:
    case TJL_T_QUAT:
        return a.dtype == b.dtype;
    case TJL_T_VECTOR:
    case TJL_T_MATRIX:
        return a.dtype == b.dtype && a.rows == b.rows && a.cols == b.cols;
    case TJL_T_STRUCT:
        return a.sid == b.sid;
    default:
        return true;
    }
}

static bool
dim_eq(int32_t a, int32_t b)
{
    return a == b || a == TJL_DIM_UNKNOWN || b == TJL_DIM_UNKNOWN;
}

bool
tjl_type_eq(tjl_type a, tjl_type b)
{
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case TJL_T_ARRAY:
    case TJL_T_TILE:
    case TJL_T_STACK:
    case TJL_T_TYPE:
        if (a.ekind != b.ekind || a.ndim != b.ndim || !value_eq(a.ekind, a, b))
            return false;
        if (a.kind == TJL_T_TILE)
            for (int i = 0; i < a.ndim && i < TJL_MAX_DIMS; i++)
                if (!dim_eq(a.shape[i], b.shape[i]))
                    return false;
        return true;
    case TJL_T_FUNC:
        return a.sid == b.sid;
    default:
        return value_eq(a.kind, a, b);
    }
}

/* ---- names --------------------------------------------------------------------------------- */

static const char *const dtype_names[] = {
    [TJ_DTYPE_BOOL] = "bool",     [TJ_DTYPE_I8] = "int8",      [TJ_DTYPE_I16] = "int16",
    [TJ_DTYPE_I32] = "int32",     [TJ_DTYPE_I64] = "int64",    [TJ_DTYPE_U8] = "uint8",
    [TJ_DTYPE_U16] = "uint16",    [TJ_DTYPE_U32] = "uint32",   [TJ_DTYPE_U64] = "uint64",
    [TJ_DTYPE_F16] = "float16",   [TJ_DTYPE_F32] = "float32",  [TJ_DTYPE_F64] = "float64",
};

/* Warp's suffixes of typed vectors: vec3h, vec3i, vec3ub... ("" for float32 only in names
 * we print: vec3f). */
static const char *const dtype_suffixes[] = {
    [TJ_DTYPE_BOOL] = "",   [TJ_DTYPE_I8] = "b",    [TJ_DTYPE_I16] = "s",
    [TJ_DTYPE_I32] = "i",   [TJ_DTYPE_I64] = "l",   [TJ_DTYPE_U8] = "ub",
    [TJ_DTYPE_U16] = "us",  [TJ_DTYPE_U32] = "ui",  [TJ_DTYPE_U64] = "ul",
    [TJ_DTYPE_F16] = "h",   [TJ_DTYPE_F32] = "f",   [TJ_DTYPE_F64] = "d",
};

const char *
tjl_dtype_name(int dt)
{
    return dt > 0 && dt <= TJ_DTYPE_F64 ? dtype_names[dt] : "?";
}

static const char *
value_name(const tjl_program *p, int kind, tjl_type t, char *buf, size_t n)
{
    const char *suffix = t.dtype > 0 && t.dtype <= TJ_DTYPE_F64 ? dtype_suffixes[t.dtype] : "?";
    switch (kind) {
    case TJL_T_SCALAR:
        return tjl_dtype_name(t.dtype);
    case TJL_T_VECTOR:
        snprintf(buf, n, "vec%d%s", t.rows, suffix);
        return buf;
    case TJL_T_MATRIX:
        snprintf(buf, n, "mat%d%d%s", t.rows, t.cols, suffix);
        return buf;
    case TJL_T_QUAT:
        snprintf(buf, n, "quat%s", suffix);
        return buf;
    case TJL_T_STRUCT:
        return p && t.sid >= 0 && t.sid < p->nstructs ? p->structs[t.sid]->name : "struct";
    default:
        return "?";
    }
}

static void
shape_text(tjl_type t, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < t.ndim && i < TJL_MAX_DIMS && used + 16 < n; i++) {
        const char *sep = i ? ", " : "";
        if (t.shape[i] == TJL_DIM_B)
            used += (size_t)snprintf(buf + used, n - used, "%sB", sep);
        else if (t.shape[i] < 0)
            used += (size_t)snprintf(buf + used, n - used, "%s?", sep);
        else
            used += (size_t)snprintf(buf + used, n - used, "%s%d", sep, (int)t.shape[i]);
    }
    if (t.ndim == 1 && used + 2 < n)
        snprintf(buf + used, n - used, ",");
}

const char *
tjl_type_name(const tjl_program *p, tjl_type t, char *buf, size_t n)
{
    char eb[64], sh[64];
    switch (t.kind) {
    case TJL_T_NONE:
        return "None";
    case TJL_T_SCALAR:
    case TJL_T_VECTOR:
    case TJL_T_MATRIX:
    case TJL_T_QUAT:
    case TJL_T_STRUCT:
        return value_name(p, t.kind, t, buf, n);
    case TJL_T_ARRAY:
        snprintf(buf, n, "array%.0d%s[%s]", t.ndim > 1 ? t.ndim : 0, t.ndim > 1 ? "d" : "",
                 value_name(p, t.ekind, t, eb, sizeof eb));
        return buf;
    case TJL_T_TILE:
        shape_text(t, sh, sizeof sh);
        snprintf(buf, n, "tile[%s, (%s)]", value_name(p, t.ekind, t, eb, sizeof eb), sh);
        return buf;
    case TJL_T_STACK:
        snprintf(buf, n, "tile_stack[%s]", value_name(p, t.ekind, t, eb, sizeof eb));
        return buf;
    case TJL_T_TYPE:
        snprintf(buf, n, "the type %s", value_name(p, t.ekind, t, eb, sizeof eb));
        return buf;
    case TJL_T_FUNC:
        return "a function";
    case TJL_T_STR:
        return "a string";
    case TJL_T_SLICE:
        return "a slice";
    case TJL_T_TUPLE:
        return "a tuple";
    case TJL_T_MODULE:
        return "the warp module";
    case TJL_T_SHAPE:
        return "a shape";
    default:
        return "?";
    }
}

/* ---- type names in source ------------------------------------------------------------------ */

static int
dtype_by_suffix(const char *s)
{
    for (int dt = TJ_DTYPE_I8; dt <= TJ_DTYPE_F64; dt++)
        if (strcmp(s, dtype_suffixes[dt]) == 0)
            return dt;
    return 0;
}

static tjl_type
composite(int kind, int dt, int rows, int cols)
{
    return (tjl_type){.kind = (uint8_t)kind, .dtype = (uint8_t)dt, .rows = (uint8_t)rows,
                      .cols = (uint8_t)cols, .sid = -1};
}

/* vec2..vec4 with an optional suffix; mat22, mat33, mat44 with h, f or d; quat likewise. */
static bool
composite_by_name(const char *name, tjl_type *out)
{
    if (strncmp(name, "vec", 3) == 0 && name[3] >= '2' && name[3] <= '4') {
        int dt = name[4] ? dtype_by_suffix(name + 4) : TJ_DTYPE_F32;
        if (!dt)
            return false;
        *out = composite(TJL_T_VECTOR, dt, name[3] - '0', 1);
        return true;
    }
    if (strncmp(name, "mat", 3) == 0 && name[3] >= '2' && name[3] <= '4' && name[4] == name[3]) {
        int dt = name[5] ? dtype_by_suffix(name + 5) : TJ_DTYPE_F32;
        if (!tjl_dtype_is_float(dt))
            return false;
        *out = composite(TJL_T_MATRIX, dt, name[3] - '0', name[3] - '0');
        return true;
    }
    if (strncmp(name, "quat", 4) == 0) {
        int dt = name[4] ? dtype_by_suffix(name + 4) : TJ_DTYPE_F32;
        if (!tjl_dtype_is_float(dt))
            return false;
        *out = composite(TJL_T_QUAT, dt, 4, 1);
        return true;
    }
    return false;
}

bool
tjl_type_by_name(const char *name, tjl_type *out)
{
    static const struct {
        const char *name;
        tj_dtype dt;
    } scalars[] = {
        {"int", TJ_DTYPE_I32},      {"float", TJ_DTYPE_F32},    {"bool", TJ_DTYPE_BOOL},
        {"int8", TJ_DTYPE_I8},      {"int16", TJ_DTYPE_I16},    {"int32", TJ_DTYPE_I32},
        {"int64", TJ_DTYPE_I64},    {"uint8", TJ_DTYPE_U8},     {"uint16", TJ_DTYPE_U16},
        {"uint32", TJ_DTYPE_U32},   {"uint64", TJ_DTYPE_U64},   {"float16", TJ_DTYPE_F16},
        {"float32", TJ_DTYPE_F32},  {"float64", TJ_DTYPE_F64},  {"half", TJ_DTYPE_F16},
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strcmp(name, scalars[i].name) == 0) {
            *out = tjl_scalar(scalars[i].dt);
            return true;
        }
    return composite_by_name(name, out);
}
