/* tj-test: CUDA */
/*
 * tests/check_composite.c: vectors (2-4), matrices (2x2, 3x3, 4x4, 2x3, 3x2 and the
 * one-row / one-column shapes), quaternions and structs, against references computed here
 * in C. Each row of the operator table builds one kernel out[i] = op(a[i], b[i]) over
 * arrays of composites (so composites are also tested as array elements); the other tests
 * cover struct layout in memory, composites and structs as kernel parameters given as
 * bytes, compose/extract/insert, and atomic adds on vec3 elements.
 *
 * Layout (SPEC 2, tilejit.h): composites are dense arrays of their components, matrices
 * row-major; structs follow C rules, so a C struct with the same fields has the same bytes.
 *
 * Tolerances: integer and bool results are exact. A float result component r, computed
 * from inputs already rounded to the dtype, must be within tol * s of the reference, where
 * s is the sum of the magnitudes of the terms that make r (|r| for componentwise
 * operators), tol = 1e-5 for float32, 1e-12 for float64 and 4e-3 for float16 (computed
 * through float32 and rounded to float16 after each operation, so a sum of four products
 * may be a few float16 roundings away): the GPU may contract a * b + c into an fma, so
 * sums of products are not bit-exact across targets. NaN matches NaN, an
 * infinity only itself, and a zero vector stays exactly zero under normalize.
 *
 * Test cases: cpu1 (CPU, width-1), ptx (the same kernels built for CUDA, assembled by
 * ptxas when present), cuda (launched on the GPU).
 * Under valgrind only every 16th row of the table runs ($TJ_TEST_SAMPLE=n sets the step;
 * see tjt_sample_stride).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300, NELEMS = 48, MAXC = 16, CUDA_BLOCK = 256 };

/* ---- types ------------------------------------------------------------------------------- */

/* A scalar or composite type described without a context. */
typedef struct cty {
    tj_type_kind kind;
    tj_dtype dt;
    int rows, cols;
} cty;

static int
ncomp(cty t)
{
    return t.rows * t.cols;
}

static bool
dt_is_float(tj_dtype dt)
{
    return dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64;
}

static cty
scalar_of(tj_dtype dt)
{
    return (cty){TJ_TYPE_SCALAR, dt, 1, 1};
}

static const tj_type *
get_type(cty t)
{
    switch (t.kind) {
    case TJ_TYPE_SCALAR:
        return tjt_type(t.dt);
    case TJ_TYPE_VECTOR:
        return tj_context_get_vector_type(tjt.ctx, t.dt, t.rows);
    case TJ_TYPE_MATRIX:
        return tj_context_get_matrix_type(tjt.ctx, t.dt, t.rows, t.cols);
    case TJ_TYPE_QUAT:
        return tj_context_get_quat_type(tjt.ctx, t.dt);
    default:
        return NULL;
    }
}

static size_t
dt_size(tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_F64:
    case TJ_DTYPE_I64:
    case TJ_DTYPE_U64:
        return 8;
    case TJ_DTYPE_F32:
    case TJ_DTYPE_I32:
    case TJ_DTYPE_U32:
        return 4;
    case TJ_DTYPE_F16:
    case TJ_DTYPE_I16:
    case TJ_DTYPE_U16:
        return 2;
    default:
        return 1;
    }
}

/* Component 'i' of a dense host array of 'dt' (a float, int16, int32, int64 or bool). */
static double
get_comp(const void *base, tj_dtype dt, size_t i)
{
    const uint8_t *p = (const uint8_t *)base + i * dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_F32: { float f; memcpy(&f, p, 4); return f; }
    case TJ_DTYPE_F64: { double d; memcpy(&d, p, 8); return d; }
    case TJ_DTYPE_I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case TJ_DTYPE_I64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case TJ_DTYPE_I16: { int16_t x; memcpy(&x, p, 2); return x; }
    case TJ_DTYPE_F16: { uint16_t h; memcpy(&h, p, 2); return tjt_half_to_double(h); }
    default: return *p;
    }
}

static void
put_comp(void *base, tj_dtype dt, size_t i, double v)
{
    uint8_t *p = (uint8_t *)base + i * dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
    case TJ_DTYPE_F64: memcpy(p, &v, 8); break;
    case TJ_DTYPE_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case TJ_DTYPE_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case TJ_DTYPE_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case TJ_DTYPE_F16: { uint16_t h = tjt_half_from_double(v); memcpy(p, &h, 2); break; }
    default: *p = v != 0; break;
    }
}

/* ---- the operator table --------------------------------------------------------------------- */

typedef enum cop {
    C_UNARY,   /* tj_unary(arg, a) */
    C_BINARY,  /* tj_binary(arg, a, b) */
    C_FMA,     /* tj_fma(a, b, a) */
    C_EQ,      /* tj_compare(EQ, a, b) */
    C_NE,
    C_SELECT,  /* i % 2 == 0 ? a : b */
    C_CAST,    /* tj_cast(a, the shape of a with dtype 'to') */
    C_EXTRACT, /* tj_extract(a, arg) */
    C_INSERT,  /* tj_insert(a, arg, tj_extract(b, arg)) */
} cop;

typedef struct crow {
    cop op;
    int arg;
    cty ta, tb;      /* tb.kind == TJ_TYPE_VOID: no b */
    tj_dtype to;     /* C_CAST */
} crow;

enum { MAXROWS = 1024 };
static crow rows[MAXROWS];
static int nrows;

static bool
is_vec(cty t)
{
    return t.kind == TJ_TYPE_VECTOR;
}

/* The result type of a row, by the rules of tilejit.h. */
static cty
result_type(const crow *r)
{
    cty a = r->ta, b = r->tb;
    switch (r->op) {
    case C_UNARY:
        if (r->arg == TJ_UN_LENGTH)
            return scalar_of(a.dt);
        if (r->arg == TJ_UN_TRANSPOSE)
            return (cty){TJ_TYPE_MATRIX, a.dt, a.cols, a.rows};
        return a;
    case C_BINARY:
        if (r->arg == TJ_BIN_DOT)
            return scalar_of(a.dt);
        if (r->arg != TJ_BIN_MUL)
            return a;
        if (a.kind == TJ_TYPE_SCALAR)
            return b;
        if (b.kind == TJ_TYPE_SCALAR || a.kind == TJ_TYPE_QUAT)
            return a;
        if (is_vec(a))
            return b.cols == 1 ? scalar_of(a.dt) : (cty){TJ_TYPE_VECTOR, a.dt, b.cols, 1};
        if (is_vec(b))
            return a.rows == 1 ? scalar_of(a.dt) : (cty){TJ_TYPE_VECTOR, a.dt, a.rows, 1};
        if (a.rows == 1 && b.cols == 1)
            return scalar_of(a.dt);
        return (cty){TJ_TYPE_MATRIX, a.dt, a.rows, b.cols};
    case C_EQ:
    case C_NE:
        return scalar_of(TJ_DTYPE_BOOL);
    case C_CAST:
        return (cty){a.kind, r->to, a.rows, a.cols};
    case C_EXTRACT:
        if (a.kind == TJ_TYPE_MATRIX && a.cols > 1)
            return (cty){TJ_TYPE_VECTOR, a.dt, a.cols, 1};
        return scalar_of(a.dt);
    default:
        return a;
    }
}

/* Adds a row; only every tjt_sample_stride()-th one (all of them, except under valgrind). */
static void
add_row(cop op, int arg, cty ta, cty tb, tj_dtype to)
{
    static int seen;
    if (seen++ % tjt_sample_stride() != 0)
        return;
    if (nrows == MAXROWS)
        abort();
    rows[nrows++] = (crow){op, arg, ta, tb, to};
}

#define VEC(n, d) ((cty){TJ_TYPE_VECTOR, d, n, 1})
#define MAT(r, c, d) ((cty){TJ_TYPE_MATRIX, d, r, c})
#define QUAT(d) ((cty){TJ_TYPE_QUAT, d, 4, 1})
#define NONE ((cty){TJ_TYPE_VOID, 0, 0, 0})

static const tj_dtype comp_dtypes[] = {TJ_DTYPE_F32, TJ_DTYPE_F64, TJ_DTYPE_I32};
enum { NCOMPDT = 3 };

/* Every composite shape of the table with component type 'dt' ('nshapes' set; quaternions
 * only for floats). */
static int
all_shapes(tj_dtype dt, cty *out)
{
    int n = 0;
    for (int len = 2; len <= 4; len++)
        out[n++] = VEC(len, dt);
    const int mats[][2] = {{2, 2}, {3, 3}, {4, 4}, {2, 3}, {3, 2}};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        out[n++] = MAT(mats[i][0], mats[i][1], dt);
    if (dt_is_float(dt))
        out[n++] = QUAT(dt);
    return n;
}

static void
make_rows(void)
{
    cty shapes[16];
    for (int d = 0; d < NCOMPDT; d++) {
        tj_dtype dt = comp_dtypes[d];
        bool fl = dt_is_float(dt);
        int ns = all_shapes(dt, shapes);
        for (int s = 0; s < ns; s++) {
            cty t = shapes[s];
            static const int cw[] = {TJ_BIN_ADD, TJ_BIN_SUB, TJ_BIN_CW_MUL, TJ_BIN_CW_DIV};
            for (size_t o = 0; o < sizeof cw / sizeof cw[0]; o++)
                add_row(C_BINARY, cw[o], t, t, 0);
            add_row(C_UNARY, TJ_UN_NEG, t, NONE, 0);
            add_row(C_BINARY, TJ_BIN_MUL, scalar_of(dt), t, 0); /* scalar * composite */
            add_row(C_BINARY, TJ_BIN_MUL, t, scalar_of(dt), 0); /* composite * scalar */
            add_row(C_BINARY, TJ_BIN_DIV, t, scalar_of(dt), 0); /* composite / scalar */
            add_row(C_EQ, 0, t, t, 0);
            add_row(C_NE, 0, t, t, 0);
            if (t.kind == TJ_TYPE_MATRIX)
                add_row(C_UNARY, TJ_UN_TRANSPOSE, t, NONE, 0);
            if (is_vec(t) || t.kind == TJ_TYPE_QUAT)
                add_row(C_BINARY, TJ_BIN_DOT, t, t, 0);
            if (fl && (is_vec(t) || t.kind == TJ_TYPE_QUAT)) {
                add_row(C_UNARY, TJ_UN_LENGTH, t, NONE, 0);
                add_row(C_UNARY, TJ_UN_NORMALIZE, t, NONE, 0);
            }
        }
        /* Componentwise unary and binary functions, fma, select, on a few shapes. */
        const cty few[] = {VEC(3, dt), MAT(2, 3, dt), fl ? QUAT(dt) : VEC(4, dt)};
        for (size_t s = 0; s < sizeof few / sizeof few[0]; s++) {
            cty t = few[s];
            add_row(C_UNARY, TJ_UN_ABS, t, NONE, 0);
            add_row(C_BINARY, TJ_BIN_MIN, t, t, 0);
            add_row(C_BINARY, TJ_BIN_MAX, t, t, 0);
            add_row(C_SELECT, 0, t, t, 0);
            if (!fl)
                continue;
            static const int un[] = {TJ_UN_SQRT, TJ_UN_FLOOR, TJ_UN_CEIL, TJ_UN_ROUND,
                                     TJ_UN_TRUNC, TJ_UN_EXP, TJ_UN_LOG, TJ_UN_SIN,
                                     TJ_UN_COS, TJ_UN_TAN, TJ_UN_TANH};
            for (size_t o = 0; o < sizeof un / sizeof un[0]; o++)
                add_row(C_UNARY, un[o], t, NONE, 0);
            add_row(C_BINARY, TJ_BIN_POW, t, t, 0);
            add_row(C_BINARY, TJ_BIN_ATAN2, t, t, 0);
            add_row(C_FMA, 0, t, t, 0);
        }
        add_row(C_BINARY, TJ_BIN_CROSS, VEC(3, dt), VEC(3, dt), 0);
        if (fl)
            add_row(C_BINARY, TJ_BIN_MUL, QUAT(dt), QUAT(dt), 0); /* Hamilton product */
        /* Products: matrix * vector, vector * matrix, matrix * matrix. */
        const cty prods[][2] = {
            {MAT(2, 2, dt), VEC(2, dt)}, {MAT(3, 3, dt), VEC(3, dt)}, {MAT(4, 4, dt), VEC(4, dt)},
            {MAT(2, 3, dt), VEC(3, dt)}, {MAT(3, 2, dt), VEC(2, dt)}, {MAT(1, 3, dt), VEC(3, dt)},
            {VEC(2, dt), MAT(2, 2, dt)}, {VEC(3, dt), MAT(3, 3, dt)}, {VEC(4, dt), MAT(4, 4, dt)},
            {VEC(2, dt), MAT(2, 3, dt)}, {VEC(3, dt), MAT(3, 2, dt)}, {VEC(3, dt), MAT(3, 1, dt)},
            {MAT(2, 2, dt), MAT(2, 2, dt)}, {MAT(3, 3, dt), MAT(3, 3, dt)},
            {MAT(4, 4, dt), MAT(4, 4, dt)}, {MAT(2, 3, dt), MAT(3, 2, dt)},
            {MAT(3, 2, dt), MAT(2, 3, dt)}, {MAT(2, 3, dt), MAT(3, 3, dt)},
            {MAT(1, 4, dt), MAT(4, 1, dt)},
        };
        for (size_t p = 0; p < sizeof prods / sizeof prods[0]; p++)
            add_row(C_BINARY, TJ_BIN_MUL, prods[p][0], prods[p][1], 0);
        /* Extract and insert: vector and quaternion components, matrix rows. */
        const struct { cty t; int idx; } ex[] = {
            {VEC(2, dt), 1}, {VEC(3, dt), 2}, {VEC(4, dt), 0}, {MAT(3, 3, dt), 1},
            {MAT(2, 3, dt), 0}, {MAT(3, 2, dt), 2}, {MAT(4, 4, dt), 3}, {MAT(3, 1, dt), 1},
        };
        for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
            add_row(C_EXTRACT, ex[e].idx, ex[e].t, NONE, 0);
            add_row(C_INSERT, ex[e].idx, ex[e].t, ex[e].t, 0);
        }
        if (fl) {
            add_row(C_EXTRACT, 3, QUAT(dt), NONE, 0);
            add_row(C_INSERT, 3, QUAT(dt), QUAT(dt), 0);
        }
    }
    /* float16 composites: each operation rounds to float16 (through float32). */
    const cty halves[] = {VEC(3, TJ_DTYPE_F16), MAT(2, 2, TJ_DTYPE_F16), QUAT(TJ_DTYPE_F16)};
    for (size_t s = 0; s < sizeof halves / sizeof halves[0]; s++) {
        cty t = halves[s];
        static const int bin[] = {TJ_BIN_ADD, TJ_BIN_SUB, TJ_BIN_CW_MUL, TJ_BIN_CW_DIV,
                                  TJ_BIN_MIN, TJ_BIN_MAX};
        for (size_t o = 0; o < sizeof bin / sizeof bin[0]; o++)
            add_row(C_BINARY, bin[o], t, t, 0);
        static const int un[] = {TJ_UN_NEG, TJ_UN_ABS, TJ_UN_SQRT, TJ_UN_ROUND, TJ_UN_EXP};
        for (size_t o = 0; o < sizeof un / sizeof un[0]; o++)
            add_row(C_UNARY, un[o], t, NONE, 0);
        add_row(C_BINARY, TJ_BIN_MUL, scalar_of(TJ_DTYPE_F16), t, 0);
        add_row(C_BINARY, TJ_BIN_DIV, t, scalar_of(TJ_DTYPE_F16), 0);
        add_row(C_FMA, 0, t, t, 0);
        add_row(C_EQ, 0, t, t, 0);
        add_row(C_NE, 0, t, t, 0);
        add_row(C_SELECT, 0, t, t, 0);
        if (t.kind == TJ_TYPE_MATRIX) {
            add_row(C_UNARY, TJ_UN_TRANSPOSE, t, NONE, 0);
            add_row(C_BINARY, TJ_BIN_MUL, t, VEC(2, TJ_DTYPE_F16), 0);
            add_row(C_BINARY, TJ_BIN_MUL, VEC(2, TJ_DTYPE_F16), t, 0);
            add_row(C_BINARY, TJ_BIN_MUL, t, t, 0);
            add_row(C_EXTRACT, 1, t, NONE, 0);
            add_row(C_INSERT, 1, t, t, 0);
        } else {
            add_row(C_BINARY, TJ_BIN_DOT, t, t, 0);
            add_row(C_UNARY, TJ_UN_LENGTH, t, NONE, 0);
            add_row(C_UNARY, TJ_UN_NORMALIZE, t, NONE, 0);
            add_row(C_EXTRACT, 2, t, NONE, 0);
            add_row(C_INSERT, 2, t, t, 0);
        }
    }
    add_row(C_BINARY, TJ_BIN_CROSS, VEC(3, TJ_DTYPE_F16), VEC(3, TJ_DTYPE_F16), 0);
    add_row(C_BINARY, TJ_BIN_MUL, QUAT(TJ_DTYPE_F16), QUAT(TJ_DTYPE_F16), 0);
    /* Casts of composites, componentwise. */
    const struct { cty t; tj_dtype to; } casts[] = {
        {VEC(3, TJ_DTYPE_F32), TJ_DTYPE_F64}, {VEC(3, TJ_DTYPE_F64), TJ_DTYPE_F32},
        {VEC(3, TJ_DTYPE_F32), TJ_DTYPE_I32}, {VEC(3, TJ_DTYPE_I32), TJ_DTYPE_F32},
        {MAT(2, 2, TJ_DTYPE_F64), TJ_DTYPE_F32}, {MAT(2, 3, TJ_DTYPE_F32), TJ_DTYPE_I32},
        {MAT(3, 3, TJ_DTYPE_I32), TJ_DTYPE_F64}, {QUAT(TJ_DTYPE_F32), TJ_DTYPE_F64},
        {QUAT(TJ_DTYPE_F64), TJ_DTYPE_F32}, {VEC(4, TJ_DTYPE_I32), TJ_DTYPE_F64},
        {VEC(3, TJ_DTYPE_F16), TJ_DTYPE_F32}, {VEC(3, TJ_DTYPE_F32), TJ_DTYPE_F16},
        {MAT(2, 2, TJ_DTYPE_F64), TJ_DTYPE_F16}, {QUAT(TJ_DTYPE_F16), TJ_DTYPE_F64},
        {VEC(4, TJ_DTYPE_I32), TJ_DTYPE_F16}, {MAT(2, 3, TJ_DTYPE_F16), TJ_DTYPE_I32},
        {VEC(3, TJ_DTYPE_F16), TJ_DTYPE_I16}, {MAT(2, 2, TJ_DTYPE_F16), TJ_DTYPE_I16},
    };
    for (size_t c = 0; c < sizeof casts / sizeof casts[0]; c++)
        add_row(C_CAST, 0, casts[c].t, NONE, casts[c].to);
}

static const char *
row_name(const crow *r, char *buf, size_t n)
{
    static const char *const ops[] = {"unary", "binary", "fma", "eq", "ne",
                                      "select", "cast", "extract", "insert"};
    snprintf(buf, n, "%s(%d) %s%s%s -> %s", ops[r->op], r->arg, tj_type_get_name(get_type(r->ta)),
             r->tb.kind ? ", " : "", r->tb.kind ? tj_type_get_name(get_type(r->tb)) : "",
             tj_type_get_name(get_type(result_type(r))));
    return buf;
}

/* ---- inputs and the C reference --------------------------------------------------------- */

/* A deterministic input component: floats in about [-10, 10] and never zero, int32 in
 * [-9, 9] (zero included, so integer division by zero is covered). */
static double
gen(tj_dtype dt, size_t elem, int comp, int which)
{
    uint32_t h = (uint32_t)(elem * 31u + (unsigned)comp * 7u + (unsigned)which * 101u + 1u);
    h *= 2654435761u;
    h ^= h >> 15;
    if (!dt_is_float(dt))
        return (double)((h >> 8) % 19) - 9.0;
    double v = ((double)((h >> 8) % 1999) - 999.0) / 97.0;
    return v == 0 ? 0.5 : v;
}

/* Fills a[] and b[] (NELEMS elements each) and rounds them to their dtypes. */
static void
make_inputs(const crow *r, void *ha, void *hb)
{
    int na = ncomp(r->ta), nb = r->tb.kind ? ncomp(r->tb) : 0;
    for (size_t e = 0; e < NELEMS; e++) {
        for (int c = 0; c < na; c++) /* element 0 of a is the zero composite */
            put_comp(ha, r->ta.dt, e * (size_t)na + (size_t)c,
                     e == 0 ? 0.0 : gen(r->ta.dt, e, c, 0));
        for (int c = 0; c < nb; c++)
            put_comp(hb, r->tb.dt, e * (size_t)nb + (size_t)c, gen(r->tb.dt, e, c, 1));
        /* Casts from floats see a NaN in element 2 (an integer gets 0: casts saturate). */
        if (r->op == C_CAST && e == 2 && dt_is_float(r->ta.dt))
            put_comp(ha, r->ta.dt, e * (size_t)na, NAN);
        if (r->op != C_EQ && r->op != C_NE)
            continue;
        /* b equals a, or differs in one component; element 2 has NaN in both (floats). */
        for (int c = 0; c < na; c++)
            put_comp(hb, r->tb.dt, e * (size_t)na + (size_t)c,
                     get_comp(ha, r->ta.dt, e * (size_t)na + (size_t)c) +
                         (e % 3 == 1 && c == (int)(e / 3) % na ? 1.0 : 0.0));
        if (e == 2 && dt_is_float(r->ta.dt)) {
            put_comp(ha, r->ta.dt, e * (size_t)na, NAN);
            put_comp(hb, r->tb.dt, e * (size_t)na, NAN);
        }
    }
}

/* out[i][j] = sum_m a[i][m] * b[m][j], vectors as one row (left) or one column (right). */
static void
ref_product(cty ta, const double *a, cty tb, const double *b, double *out, double *scale)
{
    int ar = is_vec(ta) ? 1 : ta.rows, ac = is_vec(ta) ? ta.rows : ta.cols;
    int bc = is_vec(tb) ? 1 : tb.cols;
    for (int i = 0; i < ar; i++) {
        for (int j = 0; j < bc; j++) {
            double s = 0, m = 0;
            for (int k = 0; k < ac; k++) {
                s += a[i * ac + k] * b[k * bc + j];
                m += fabs(a[i * ac + k] * b[k * bc + j]);
            }
            out[i * bc + j] = s;
            scale[i * bc + j] = m;
        }
    }
}

/* Hamilton product of (x, y, z, w) quaternions. */
static void
ref_quat_mul(const double *a, const double *b, double *out, double *scale)
{
    double ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2],
           bw = b[3];
    out[0] = aw * bx + ax * bw + ay * bz - az * by;
    out[1] = aw * by + ay * bw + az * bx - ax * bz;
    out[2] = aw * bz + az * bw + ax * by - ay * bx;
    out[3] = aw * bw - ax * bx - ay * by - az * bz;
    scale[0] = fabs(aw * bx) + fabs(ax * bw) + fabs(ay * bz) + fabs(az * by);
    scale[1] = fabs(aw * by) + fabs(ay * bw) + fabs(az * bx) + fabs(ax * bz);
    scale[2] = fabs(aw * bz) + fabs(az * bw) + fabs(ax * by) + fabs(ay * bx);
    scale[3] = fabs(aw * bw) + fabs(ax * bx) + fabs(ay * by) + fabs(az * bz);
}

/* Integer division as the library defines it: truncating, and 0 for a zero divisor. */
static double
ref_div(tj_dtype dt, double x, double y)
{
    if (dt_is_float(dt))
        return x / y;
    return y == 0 ? 0 : trunc(x / y);
}

static double
ref_unary1(int op, double x)
{
    switch (op) {
    case TJ_UN_NEG: return -x;
    case TJ_UN_ABS: return fabs(x);
    case TJ_UN_SQRT: return sqrt(x);
    case TJ_UN_FLOOR: return floor(x);
    case TJ_UN_CEIL: return ceil(x);
    case TJ_UN_ROUND: return round(x);
    case TJ_UN_TRUNC: return trunc(x);
    case TJ_UN_EXP: return exp(x);
    case TJ_UN_LOG: return log(x);
    case TJ_UN_SIN: return sin(x);
    case TJ_UN_COS: return cos(x);
    case TJ_UN_TAN: return tan(x);
    default: return tanh(x);
    }
}

static double
ref_binary1(int op, tj_dtype dt, double x, double y)
{
    switch (op) {
    case TJ_BIN_ADD: return x + y;
    case TJ_BIN_SUB: return x - y;
    case TJ_BIN_CW_MUL: return x * y;
    case TJ_BIN_CW_DIV: return ref_div(dt, x, y);
    case TJ_BIN_MIN: return fmin(x, y);
    case TJ_BIN_MAX: return fmax(x, y);
    case TJ_BIN_POW: return pow(x, y);
    default: return atan2(x, y);
    }
}

static bool
all_equal(const double *a, const double *b, int n)
{
    for (int i = 0; i < n; i++)
        if (!(a[i] == b[i]))
            return false;
    return true;
}

/* The reference result of element 'e': components in out[], their scales in scale[]
 * (0: the scale is |out|). */
static void
reference(const crow *r, const double *a, const double *b, size_t e, double *out, double *scale)
{
    cty ta = r->ta, tb = r->tb, tr = result_type(r);
    int na = ncomp(ta), nr = ncomp(tr);
    for (int i = 0; i < MAXC; i++)
        scale[i] = 0;
    switch (r->op) {
    case C_UNARY:
        if (r->arg == TJ_UN_LENGTH || r->arg == TJ_UN_NORMALIZE) {
            double d = 0;
            for (int i = 0; i < na; i++)
                d += a[i] * a[i];
            double len = sqrt(d);
            if (r->arg == TJ_UN_LENGTH)
                out[0] = len;
            for (int i = 0; r->arg == TJ_UN_NORMALIZE && i < na; i++)
                out[i] = len > 0 ? a[i] / len : a[i];
        } else if (r->arg == TJ_UN_TRANSPOSE) {
            for (int i = 0; i < ta.rows; i++)
                for (int j = 0; j < ta.cols; j++)
                    out[j * ta.rows + i] = a[i * ta.cols + j];
        } else {
            for (int i = 0; i < na; i++)
                out[i] = ref_unary1(r->arg, a[i]);
        }
        break;
    case C_BINARY:
        if (r->arg == TJ_BIN_DOT) {
            out[0] = 0;
            for (int i = 0; i < na; i++) {
                out[0] += a[i] * b[i];
                scale[0] += fabs(a[i] * b[i]);
            }
        } else if (r->arg == TJ_BIN_CROSS) {
            for (int i = 0; i < 3; i++) {
                int j = (i + 1) % 3, m = (i + 2) % 3;
                out[i] = a[j] * b[m] - a[m] * b[j];
                scale[i] = fabs(a[j] * b[m]) + fabs(a[m] * b[j]);
            }
        } else if (r->arg == TJ_BIN_MUL && ta.kind == TJ_TYPE_SCALAR) {
            for (int i = 0; i < nr; i++)
                out[i] = a[0] * b[i];
        } else if (r->arg == TJ_BIN_MUL && tb.kind == TJ_TYPE_SCALAR) {
            for (int i = 0; i < nr; i++)
                out[i] = a[i] * b[0];
        } else if (r->arg == TJ_BIN_DIV) {
            for (int i = 0; i < nr; i++)
                out[i] = ref_div(ta.dt, a[i], b[0]);
        } else if (r->arg == TJ_BIN_MUL && ta.kind == TJ_TYPE_QUAT) {
            ref_quat_mul(a, b, out, scale);
        } else if (r->arg == TJ_BIN_MUL) {
            ref_product(ta, a, tb, b, out, scale);
        } else {
            for (int i = 0; i < na; i++)
                out[i] = ref_binary1(r->arg, ta.dt, a[i], b[i]);
        }
        break;
    case C_FMA:
        for (int i = 0; i < na; i++) {
            out[i] = a[i] * b[i] + a[i];
            scale[i] = fabs(a[i] * b[i]) + fabs(a[i]);
        }
        break;
    case C_EQ:
        out[0] = all_equal(a, b, na);
        break;
    case C_NE:
        out[0] = !all_equal(a, b, na);
        break;
    case C_SELECT:
        for (int i = 0; i < na; i++)
            out[i] = e % 2 == 0 ? a[i] : b[i];
        break;
    case C_CAST:
        for (int i = 0; i < na; i++)
            out[i] = dt_is_float(r->to) ? a[i] : isnan(a[i]) ? 0 : trunc(a[i]);
        break;
    case C_EXTRACT:
        for (int i = 0; i < nr; i++)
            out[i] = a[r->arg * nr + i];
        break;
    case C_INSERT: {
        int w = ta.kind == TJ_TYPE_MATRIX ? ta.cols : 1;
        for (int i = 0; i < na; i++)
            out[i] = i / w == r->arg ? b[i] : a[i];
        break;
    }
    }
    for (int i = 0; i < nr; i++)
        if (scale[i] == 0)
            scale[i] = fabs(out[i]);
}

static bool
comp_matches(tj_dtype dt, double got, double want, double scale)
{
    if (!dt_is_float(dt))
        return got == want;
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    double tol = dt == TJ_DTYPE_F16 ? 4e-3 : dt == TJ_DTYPE_F32 ? 1e-5 : 1e-12;
    return fabs(got - want) <= tol * scale;
}

/* ---- kernels and runs ---------------------------------------------------------------------- */

static tj_target cur_target;
static tj_device *cur_dev; /* NULL: build only (the ptx case) */

static tj_kernel *
new_kernel(const char *name)
{
    tj_kernel_options o = {.target = cur_target};
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    ck_assert_ptr_nonnull(k);
    return k;
}

static void
assert_kernel_ok(tj_kernel *k, const char *what)
{
    ck_assert_msg(tj_kernel_status(k) == TJ_OK, "%s: %s", what,
                  tj_kernel_error(k) ? tj_kernel_error(k) : "?");
}

static uint32_t
launch_block(void)
{
    return cur_target == TJ_TARGET_CUDA ? CUDA_BLOCK : 1;
}

/* Builds 'k' (checking the PTX on CUDA), destroys it, and returns the module. */
static tj_module *
build(tj_kernel *k, const char *what)
{
    assert_kernel_ok(k, what);
    tj_module *m = tjt_build(k);
    tj_kernel_destroy(k);
    return m;
}

static void
launch(tj_module *m, const char *name, int64_t n, const tj_arg *args, size_t nargs)
{
    tjt_ok(cur_dev, tj_launch(cur_dev, m, name, 1, &n, launch_block(), args, nargs));
    tjt_ok(cur_dev, tj_device_synchronize(cur_dev));
}

static void
copy_out(const tj_array *a, void *host)
{
    tjt_ok(cur_dev, tj_array_copy_to_host(a, host, tj_array_get_bytes(a)));
}

static tj_kernel *
make_row_kernel(const crow *r)
{
    cty tr = result_type(r);
    tj_kernel *k = new_kernel("comp_op");
    tj_val *out = tj_param_array(k, "out", get_type(tr), 1);
    tj_val *a = tj_param_array(k, "a", get_type(r->ta), 1);
    tj_val *b = r->tb.kind ? tj_param_array(k, "b", get_type(r->tb), 1) : NULL;
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *x = tj_load(k, a, &i, 1), *y = b ? tj_load(k, b, &i, 1) : NULL, *v = NULL;
    switch (r->op) {
    case C_UNARY:
        v = tj_unary(k, (tj_unop)r->arg, x);
        break;
    case C_BINARY:
        v = tj_binary(k, (tj_binop)r->arg, x, y);
        break;
    case C_FMA:
        v = tj_fma(k, x, y, x);
        break;
    case C_EQ:
    case C_NE:
        v = tj_compare(k, r->op == C_EQ ? TJ_CMP_EQ : TJ_CMP_NE, x, y);
        break;
    case C_SELECT: {
        tj_val *odd = tj_binary(k, TJ_BIN_MOD, i, tj_const_int(k, TJ_DTYPE_I32, 2));
        tj_val *even = tj_compare(k, TJ_CMP_EQ, odd, tj_const_int(k, TJ_DTYPE_I32, 0));
        v = tj_select(k, even, x, y);
        break;
    }
    case C_CAST:
        v = tj_cast(k, x, get_type(tr));
        break;
    case C_EXTRACT:
        v = tj_extract(k, x, r->arg);
        break;
    case C_INSERT:
        v = tj_insert(k, x, r->arg, tj_extract(k, y, r->arg));
        break;
    }
    ck_assert_msg(!v || tj_val_get_type(v) == get_type(tr), "result type %s, expected %s",
                  tj_type_get_name(tj_val_get_type(v)), tj_type_get_name(get_type(tr)));
    tj_store(k, out, &i, 1, v);
    return k;
}

static void
check_row(const crow *r, tj_module *m)
{
    char name[128];
    row_name(r, name, sizeof name);
    cty tr = result_type(r);
    int na = ncomp(r->ta), nb = r->tb.kind ? ncomp(r->tb) : 0, nr = ncomp(tr);
    void *ha = calloc(NELEMS * (size_t)na, dt_size(r->ta.dt));
    void *hb = calloc(NELEMS * (size_t)(nb ? nb : 1), dt_size(r->tb.kind ? r->tb.dt : 1));
    void *hr = calloc(NELEMS * (size_t)nr, dt_size(tr.dt));
    ck_assert(ha && hb && hr);
    make_inputs(r, ha, hb);
    tj_array *out = tjt_array(cur_dev, get_type(tr), NELEMS, NULL);
    tj_array *aa = tjt_array(cur_dev, get_type(r->ta), NELEMS, ha);
    tj_array *ab = nb ? tjt_array(cur_dev, get_type(r->tb), NELEMS, hb) : NULL;
    tj_arg args[] = {tj_arg_array(out), tj_arg_array(aa), tj_arg_array(ab)};
    launch(m, "comp_op", NELEMS, args, nb ? 3 : 2);
    copy_out(out, hr);
    for (size_t e = 0; e < NELEMS; e++) {
        double a[MAXC], b[MAXC], want[MAXC], scale[MAXC];
        for (int c = 0; c < na; c++)
            a[c] = get_comp(ha, r->ta.dt, e * (size_t)na + (size_t)c);
        for (int c = 0; c < nb; c++)
            b[c] = get_comp(hb, r->tb.dt, e * (size_t)nb + (size_t)c);
        reference(r, a, b, e, want, scale);
        for (int c = 0; c < nr; c++) {
            double got = get_comp(hr, tr.dt, e * (size_t)nr + (size_t)c);
            ck_assert_msg(comp_matches(tr.dt, got, want[c], scale[c]),
                          "%s on %s: element %zu component %d: got %.17g, expected %.17g "
                          "(a[0]=%g)",
                          name, cur_target == TJ_TARGET_CUDA ? "cuda" : "cpu", e, c, got,
                          want[c], a[0]);
        }
    }
    tj_array_destroy(out);
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    free(ha);
    free(hb);
    free(hr);
}

/* ---- fixtures -------------------------------------------------------------------------------- */

static void
setup_cpu1(void)
{
    tjt_setup();
    cur_target = TJ_TARGET_CPU;
    cur_dev = tjt.cpu;
}

static void
setup_ptx(void)
{
    tjt_setup();
    cur_target = TJ_TARGET_CUDA;
    cur_dev = NULL;
}

static void
setup_cuda(void)
{
    tjt_setup();
    cur_target = TJ_TARGET_CUDA;
    cur_dev = tjt_gpu();
}

/* ---- the operator table ---------------------------------------------------------------------- */

START_TEST(test_composite_ops_match_c_reference)
{
    const crow *r = &rows[_i];
    char name[128];
    tj_module *m = build(make_row_kernel(r), row_name(r, name, sizeof name));
    if (cur_dev)
        check_row(r, m);
    tj_module_destroy(m);
}
END_TEST

/* ---- structs --------------------------------------------------------------------------------- */

/* The C twin of the tilejit struct below: same fields, same order. */
typedef struct particle {
    bool alive;
    int8_t tag;
    uint16_t w;        /* float16 */
    float pos[3];      /* vec3f */
    double mass;
    float rot[4];      /* quatf (x, y, z, w) */
    int64_t id;
    float m[2][2];     /* mat22f, row-major */
    uint32_t flags;
} particle;

static const tj_type *
particle_type(void)
{
    const tj_field f[] = {
        {"alive", tjt_type(TJ_DTYPE_BOOL)},
        {"tag", tjt_type(TJ_DTYPE_I8)},
        {"w", tjt_type(TJ_DTYPE_F16)},
        {"pos", tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3)},
        {"mass", tjt_type(TJ_DTYPE_F64)},
        {"rot", tj_context_get_quat_type(tjt.ctx, TJ_DTYPE_F32)},
        {"id", tjt_type(TJ_DTYPE_I64)},
        {"m", tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 2, 2)},
        {"flags", tjt_type(TJ_DTYPE_U32)},
    };
    const tj_type *t = tj_context_new_struct_type(tjt.ctx, "particle", f, sizeof f / sizeof f[0]);
    ck_assert_msg(t != NULL, "%s", tj_context_error(tjt.ctx));
    ck_assert_int_eq(tj_type_get_kind(t), TJ_TYPE_STRUCT);
    ck_assert_str_eq(tj_type_get_name(t), "particle");
    ck_assert_uint_eq(tj_type_get_size(t), sizeof(particle));
    return t;
}

static particle
particle_input(int i)
{
    particle p;
    memset(&p, 0, sizeof p);
    p.alive = i % 3 == 0;
    p.tag = (int8_t)(i - 20);
    p.w = tjt_half_from_double(0.25 * i - 3.0);
    for (int c = 0; c < 3; c++)
        p.pos[c] = (float)(i * 3 + c) * 0.5f;
    p.mass = 1.0 / (i + 1);
    for (int c = 0; c < 4; c++)
        p.rot[c] = (float)(c - i);
    p.id = INT64_C(1) << 40 | i;
    for (int c = 0; c < 4; c++)
        p.m[c / 2][c % 2] = (float)(10 * i + c);
    p.flags = 0x12345678u + (uint32_t)i;
    return p;
}

/* What the kernel below makes of particle_input(i). */
static particle
particle_updated(int i)
{
    particle p = particle_input(i), q;
    memset(&q, 0, sizeof q);
    q.alive = !p.alive;
    q.tag = (int8_t)(p.tag + 1);
    q.w = tjt_half_from_double(tjt_half_to_double(p.w) * 2.0);
    for (int c = 0; c < 3; c++)
        q.pos[c] = 2.0f * p.pos[c];
    q.mass = p.mass + 0.5;
    for (int c = 0; c < 4; c++)
        q.rot[c] = -p.rot[c];
    q.id = p.id + i;
    for (int c = 0; c < 4; c++)
        q.m[c / 2][c % 2] = p.m[c % 2][c / 2];
    q.flags = p.flags ^ 0xffff0000u;
    return q;
}

/* What tj_compose makes for element i in the kernel below. */
static particle
particle_composed(int i)
{
    particle q;
    memset(&q, 0, sizeof q);
    q.alive = i % 2 == 0;
    q.tag = (int8_t)i;
    q.w = tjt_half_from_double(i);
    for (int c = 0; c < 3; c++)
        q.pos[c] = (float)i;
    q.mass = 0.25 * i;
    q.rot[3] = 1.0f;
    q.id = -3 * (int64_t)i;
    for (int c = 0; c < 4; c++)
        q.m[c / 2][c % 2] = (float)(c + 1);
    q.flags = (uint32_t)i;
    return q;
}

static tj_val *
field_op(tj_kernel *k, tj_val *p, const char *name, tj_val *(*op)(tj_kernel *, tj_val *, tj_val *),
         tj_val *arg)
{
    return tj_set_field(k, p, name, op(k, tj_get_field(k, p, name), arg));
}

static tj_val *
op_add(tj_kernel *k, tj_val *a, tj_val *b)
{
    return tj_binary(k, TJ_BIN_ADD, a, b);
}

static tj_val *
op_mul(tj_kernel *k, tj_val *a, tj_val *b)
{
    return tj_binary(k, TJ_BIN_MUL, a, b);
}

static tj_val *
op_rmul(tj_kernel *k, tj_val *a, tj_val *b)
{
    return tj_binary(k, TJ_BIN_MUL, b, a);
}

static tj_val *
op_xor(tj_kernel *k, tj_val *a, tj_val *b)
{
    return tj_binary(k, TJ_BIN_BIT_XOR, a, b);
}

START_TEST(test_struct_array_fields_roundtrip_with_c_layout)
{
    const tj_type *pt = particle_type();
    tj_kernel *k = new_kernel("particles");
    tj_val *out = tj_param_array(k, "out", pt, 1);
    tj_val *made = tj_param_array(k, "made", pt, 1);
    tj_val *pick = tj_param_array(k, "pick", pt, 1);
    tj_val *in = tj_param_array(k, "in", pt, 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *p = tj_load(k, in, &i, 1);
    p = tj_set_field(k, p, "alive", tj_unary(k, TJ_UN_NOT, tj_get_field(k, p, "alive")));
    p = field_op(k, p, "tag", op_add, tj_const_int(k, TJ_DTYPE_I8, 1));
    p = field_op(k, p, "w", op_mul, tj_const_float(k, TJ_DTYPE_F16, 2.0));
    p = field_op(k, p, "pos", op_rmul, tj_const_float(k, TJ_DTYPE_F32, 2.0));
    p = field_op(k, p, "mass", op_add, tj_const_float(k, TJ_DTYPE_F64, 0.5));
    p = tj_set_field(k, p, "rot", tj_unary(k, TJ_UN_NEG, tj_get_field(k, p, "rot")));
    p = field_op(k, p, "id", op_add, tj_cast(k, i, tjt_type(TJ_DTYPE_I64)));
    p = tj_set_field(k, p, "m", tj_unary(k, TJ_UN_TRANSPOSE, tj_get_field(k, p, "m")));
    p = field_op(k, p, "flags", op_xor, tj_const_int(k, TJ_DTYPE_U32, 0xffff0000));
    tj_store(k, out, &i, 1, p);

    tj_val *odd = tj_binary(k, TJ_BIN_MOD, i, tj_const_int(k, TJ_DTYPE_I32, 2));
    tj_val *f32 = tj_cast(k, i, tjt_type(TJ_DTYPE_F32));
    tj_val *zero = tj_const_float(k, TJ_DTYPE_F32, 0.0);
    tj_val *rot[] = {zero, zero, zero, tj_const_float(k, TJ_DTYPE_F32, 1.0)};
    tj_val *m[4];
    for (int c = 0; c < 4; c++)
        m[c] = tj_const_float(k, TJ_DTYPE_F32, c + 1);
    tj_val *fields[] = {
        tj_compare(k, TJ_CMP_EQ, odd, tj_const_int(k, TJ_DTYPE_I32, 0)),
        tj_cast(k, i, tjt_type(TJ_DTYPE_I8)),
        tj_cast(k, i, tjt_type(TJ_DTYPE_F16)),
        tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), &f32, 1),
        tj_binary(k, TJ_BIN_MUL, tj_cast(k, i, tjt_type(TJ_DTYPE_F64)),
                  tj_const_float(k, TJ_DTYPE_F64, 0.25)),
        tj_compose(k, tj_context_get_quat_type(tjt.ctx, TJ_DTYPE_F32), rot, 4),
        tj_binary(k, TJ_BIN_MUL, tj_cast(k, i, tjt_type(TJ_DTYPE_I64)),
                  tj_const_int(k, TJ_DTYPE_I64, -3)),
        tj_compose(k, tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 2, 2), m, 4),
        tj_cast(k, i, tjt_type(TJ_DTYPE_U32)),
    };
    tj_val *composed = tj_compose(k, pt, fields, sizeof fields / sizeof fields[0]);
    tj_store(k, made, &i, 1, composed);
    tj_store(k, pick, &i, 1, tj_select(k, fields[0], p, composed)); /* structs select whole */
    tj_module *mod = build(k, "particles");
    if (!cur_dev) {
        tj_module_destroy(mod);
        return;
    }

    enum { N = 40 };
    particle host[N], got[N], got_made[N], got_pick[N];
    for (int j = 0; j < N; j++)
        host[j] = particle_input(j);
    tj_array *aout = tjt_array(cur_dev, pt, N, NULL);
    tj_array *amade = tjt_array(cur_dev, pt, N, NULL);
    tj_array *apick = tjt_array(cur_dev, pt, N, NULL);
    tj_array *ain = tjt_array(cur_dev, pt, N, host);
    ck_assert_uint_eq(tj_array_get_bytes(ain), sizeof host);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(amade), tj_arg_array(apick),
                     tj_arg_array(ain)};
    launch(mod, "particles", N, args, 4);
    copy_out(aout, got);
    copy_out(amade, got_made);
    copy_out(apick, got_pick);
    for (int j = 0; j < N; j++) {
        particle want = particle_updated(j), want_made = particle_composed(j);
        ck_assert_msg(memcmp(&got[j], &want, sizeof want) == 0,
                      "particle %d after the update differs from C (id %lld vs %lld, w 0x%x vs "
                      "0x%x, flags 0x%x vs 0x%x)",
                      j, (long long)got[j].id, (long long)want.id, got[j].w, want.w,
                      got[j].flags, want.flags);
        ck_assert_msg(memcmp(&got_made[j], &want_made, sizeof want_made) == 0,
                      "composed particle %d differs from C (tag %d vs %d, mass %g vs %g)", j,
                      got_made[j].tag, want_made.tag, got_made[j].mass, want_made.mass);
        ck_assert_msg(memcmp(&got_pick[j], j % 2 == 0 ? &want : &want_made, sizeof want) == 0,
                      "select of particles %d picked neither whole struct", j);
    }
    tj_array_destroy(aout);
    tj_array_destroy(amade);
    tj_array_destroy(apick);
    tj_array_destroy(ain);
    tj_module_destroy(mod);
}
END_TEST

/* A struct inside a struct, with padding after a byte and before a double. */
typedef struct inner {
    uint16_t h; /* float16 */
    double d;
} inner;

typedef struct outer {
    uint8_t b;
    inner in;
    int32_t v[3]; /* vec3i */
    bool f;
} outer;

static const tj_type *
outer_type(void)
{
    const tj_field fi[] = {{"h", tjt_type(TJ_DTYPE_F16)}, {"d", tjt_type(TJ_DTYPE_F64)}};
    const tj_type *it = tj_context_new_struct_type(tjt.ctx, "inner", fi, 2);
    ck_assert_msg(it != NULL, "%s", tj_context_error(tjt.ctx));
    const tj_field fo[] = {
        {"b", tjt_type(TJ_DTYPE_U8)},
        {"in", it},
        {"v", tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 3)},
        {"f", tjt_type(TJ_DTYPE_BOOL)},
    };
    const tj_type *ot = tj_context_new_struct_type(tjt.ctx, "outer", fo, 4);
    ck_assert_msg(ot != NULL, "%s", tj_context_error(tjt.ctx));
    ck_assert_uint_eq(tj_type_get_size(it), sizeof(inner));
    ck_assert_uint_eq(tj_type_get_size(ot), sizeof(outer));
    return ot;
}

static outer
outer_input(int i)
{
    outer o;
    memset(&o, 0, sizeof o);
    o.b = (uint8_t)(250 + i);
    o.in.h = tjt_half_from_double(i - 5);
    o.in.d = 1.5 * i;
    for (int c = 0; c < 3; c++)
        o.v[c] = i * 100 + c;
    o.f = i % 2 == 1;
    return o;
}

START_TEST(test_nested_struct_array_matches_c_bytes)
{
    const tj_type *ot = outer_type();
    tj_kernel *k = new_kernel("nested");
    tj_val *out = tj_param_array(k, "out", ot, 1);
    tj_val *in = tj_param_array(k, "in", ot, 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *o = tj_load(k, in, &i, 1);
    tj_val *inn = tj_get_field(k, o, "in");
    inn = field_op(k, inn, "d", op_mul, tj_const_float(k, TJ_DTYPE_F64, 2.0));
    inn = field_op(k, inn, "h", op_add, tj_const_float(k, TJ_DTYPE_F16, 0.5));
    o = tj_set_field(k, o, "in", inn);
    o = field_op(k, o, "b", op_add, tj_const_int(k, TJ_DTYPE_U8, 10)); /* wraps past 255 */
    tj_val *seven = tj_const_int(k, TJ_DTYPE_I32, 7);
    o = field_op(k, o, "v", op_add,
                 tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 3), &seven, 1));
    o = tj_set_field(k, o, "f", tj_unary(k, TJ_UN_NOT, tj_get_field(k, o, "f")));
    tj_store(k, out, &i, 1, o);
    tj_module *m = build(k, "nested");
    if (!cur_dev) {
        tj_module_destroy(m);
        return;
    }
    enum { N = 12 };
    outer host[N], got[N];
    for (int j = 0; j < N; j++)
        host[j] = outer_input(j);
    tj_array *aout = tjt_array(cur_dev, ot, N, NULL);
    tj_array *ain = tjt_array(cur_dev, ot, N, host);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(ain)};
    launch(m, "nested", N, args, 2);
    copy_out(aout, got);
    for (int j = 0; j < N; j++) {
        outer want = outer_input(j);
        want.in.d *= 2.0;
        want.in.h = tjt_half_from_double(tjt_half_to_double(want.in.h) + 0.5);
        want.b = (uint8_t)(want.b + 10);
        for (int c = 0; c < 3; c++)
            want.v[c] += 7;
        want.f = !want.f;
        ck_assert_msg(memcmp(&got[j], &want, sizeof want) == 0,
                      "outer %d differs from C (b %u vs %u, d %g vs %g, v0 %d vs %d, f %d vs %d)",
                      j, got[j].b, want.b, got[j].in.d, want.in.d, got[j].v[0], want.v[0],
                      got[j].f, want.f);
    }
    tj_array_destroy(aout);
    tj_array_destroy(ain);
    tj_module_destroy(m);
}
END_TEST

/* Composite and struct parameters given as bytes arrive unchanged and usable. */
START_TEST(test_struct_and_composite_params_arrive_as_bytes)
{
    const tj_type *pt = particle_type(), *ot = outer_type();
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    const tj_type *m33 = tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F64, 3, 3);
    const tj_type *qd = tj_context_get_quat_type(tjt.ctx, TJ_DTYPE_F64);
    const tj_type *m23 = tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_I32, 2, 3);
    tj_kernel *k = new_kernel("params");
    tj_val *outp = tj_param_array(k, "outp", pt, 1);
    tj_val *outo = tj_param_array(k, "outo", ot, 1);
    tj_val *outv = tj_param_array(k, "outv", v3, 1);
    tj_val *outm = tj_param_array(k, "outm", m33, 1);
    tj_val *outq = tj_param_array(k, "outq", qd, 1);
    tj_val *outi = tj_param_array(k, "outi", m23, 1);
    tj_val *p = tj_param(k, "p", pt);
    tj_val *o = tj_param(k, "o", ot);
    tj_val *v = tj_param(k, "v", v3);
    tj_val *mm = tj_param(k, "m", m33);
    tj_val *q = tj_param(k, "q", qd);
    tj_val *mi = tj_param(k, "mi", m23);
    tj_val *s = tj_param(k, "s", tjt_type(TJ_DTYPE_F32));
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_store(k, outp, &zero, 1, p);
    tj_store(k, outo, &zero, 1, o);
    tj_store(k, outv, &zero, 1, v);
    tj_store(k, outv, &one, 1, tj_binary(k, TJ_BIN_MUL, v, s));
    tj_store(k, outm, &zero, 1, mm);
    tj_store(k, outm, &one, 1, tj_unary(k, TJ_UN_TRANSPOSE, mm));
    tj_store(k, outq, &zero, 1, q);
    tj_store(k, outi, &zero, 1, mi);
    tj_module *m = build(k, "params");
    if (!cur_dev) {
        tj_module_destroy(m);
        return;
    }
    particle hp = particle_input(7);
    outer ho = outer_input(3);
    float hv[3] = {1.5f, -2.25f, 1e30f};
    double hm[9] = {1, 2, 3, 4, 5, 6, 7, 8, -0.0};
    double hq[4] = {0.5, -0.5, 0.25, 1e-300};
    int32_t hi[6] = {INT32_MIN, -1, 0, 1, 2, INT32_MAX};
    tj_array *ap = tjt_array(cur_dev, pt, 1, NULL), *ao = tjt_array(cur_dev, ot, 1, NULL);
    tj_array *av = tjt_array(cur_dev, v3, 2, NULL), *am = tjt_array(cur_dev, m33, 2, NULL);
    tj_array *aq = tjt_array(cur_dev, qd, 1, NULL), *ai = tjt_array(cur_dev, m23, 1, NULL);
    tj_arg args[] = {
        tj_arg_array(ap),       tj_arg_array(ao),       tj_arg_array(av),
        tj_arg_array(am),       tj_arg_array(aq),       tj_arg_array(ai),
        tj_arg_bytes(pt, &hp),  tj_arg_bytes(ot, &ho),  tj_arg_bytes(v3, hv),
        tj_arg_bytes(m33, hm),  tj_arg_bytes(qd, hq),   tj_arg_bytes(m23, hi),
        tj_arg_float(-2.0),
    };
    launch(m, "params", 1, args, sizeof args / sizeof args[0]);
    particle gp;
    outer go;
    float gv[6];
    double gm[18], gq[4];
    int32_t gi[6];
    copy_out(ap, &gp);
    copy_out(ao, &go);
    copy_out(av, gv);
    copy_out(am, gm);
    copy_out(aq, gq);
    copy_out(ai, gi);
    ck_assert_msg(memcmp(&gp, &hp, sizeof hp) == 0, "struct particle parameter differs");
    ck_assert_msg(memcmp(&go, &ho, sizeof ho) == 0, "struct outer parameter differs");
    ck_assert_msg(memcmp(gv, hv, sizeof hv) == 0, "vec3f parameter differs");
    for (int c = 0; c < 3; c++)
        ck_assert_msg(gv[3 + c] == -2.0f * hv[c], "v * s component %d: %g", c, gv[3 + c]);
    ck_assert_msg(memcmp(gm, hm, sizeof hm) == 0, "mat33d parameter differs");
    for (int c = 0; c < 9; c++)
        ck_assert_msg(gm[9 + c] == hm[(c % 3) * 3 + c / 3], "transpose(m) component %d: %g", c,
                      gm[9 + c]);
    ck_assert_msg(memcmp(gq, hq, sizeof hq) == 0, "quatd parameter differs");
    ck_assert_msg(memcmp(gi, hi, sizeof hi) == 0, "mat23i parameter differs");
    tj_array_destroy(ap);
    tj_array_destroy(ao);
    tj_array_destroy(av);
    tj_array_destroy(am);
    tj_array_destroy(aq);
    tj_array_destroy(ai);
    tj_module_destroy(m);
}
END_TEST

/* 40 mat44f parameters: 640 scalar leaves, each a parameter of the CUDA entry (and a
 * pointer of the launch), more than 64 parameters of at most 9 each; out[i] = m_i[i % 4][1]. */
START_TEST(test_many_matrix_params_arrive_whole)
{
    enum { NM = 40 };
    const tj_type *m44 = tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 4, 4);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = new_kernel("many");
    tj_val *out = tj_param_array(k, "out", f32, 1), *mp[NM];
    for (int i = 0; i < NM; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        mp[i] = tj_param(k, name, m44);
    }
    for (int i = 0; i < NM; i++) {
        tj_val *at = tj_const_int(k, TJ_DTYPE_I32, i);
        tj_store(k, out, &at, 1, tj_extract(k, tj_extract(k, mp[i], i % 4), 1));
    }
    tj_module *m = build(k, "many");
    if (!cur_dev) {
        tj_module_destroy(m);
        return;
    }
    static float hm[NM][16];
    tj_arg args[1 + NM];
    tj_array *aout = tjt_array(cur_dev, f32, NM, NULL);
    args[0] = tj_arg_array(aout);
    for (int i = 0; i < NM; i++) {
        for (int e = 0; e < 16; e++)
            hm[i][e] = (float)(100 * i + e);
        args[1 + i] = tj_arg_bytes(m44, hm[i]);
    }
    launch(m, "many", 1, args, 1 + NM);
    float got[NM];
    copy_out(aout, got);
    for (int i = 0; i < NM; i++)
        ck_assert_msg(got[i] == hm[i][(i % 4) * 4 + 1], "out[%d] = %g, expected %g", i,
                      (double)got[i], (double)hm[i][(i % 4) * 4 + 1]);
    tj_array_destroy(aout);
    tj_module_destroy(m);
}
END_TEST

/* ---- compose, extract, insert -------------------------------------------------------------- */

START_TEST(test_compose_fills_matrices_row_major_and_splats_one_scalar)
{
    const tj_type *m23 = tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 2, 3);
    const tj_type *m33 = tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F64, 3, 3);
    const tj_type *v4 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 4);
    const tj_type *qf = tj_context_get_quat_type(tjt.ctx, TJ_DTYPE_F32);
    tj_kernel *k = new_kernel("compose");
    tj_val *om = tj_param_array(k, "om", m23, 1);
    tj_val *os = tj_param_array(k, "os", m33, 1);
    tj_val *ov = tj_param_array(k, "ov", v4, 1);
    tj_val *oq = tj_param_array(k, "oq", qf, 1);
    tj_val *orow =
        tj_param_array(k, "orow", tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *ten_i = tj_binary(k, TJ_BIN_MUL, i, tj_const_int(k, TJ_DTYPE_I32, 10));
    tj_val *e[6];
    for (int c = 0; c < 6; c++)
        e[c] = tj_cast(k, tj_binary(k, TJ_BIN_ADD, ten_i, tj_const_int(k, TJ_DTYPE_I32, c)),
                       tjt_type(TJ_DTYPE_F32));
    tj_val *mat = tj_compose(k, m23, e, 6);
    tj_store(k, om, &i, 1, mat);
    tj_val *d = tj_cast(k, i, tjt_type(TJ_DTYPE_F64));
    tj_store(k, os, &i, 1, tj_compose(k, m33, &d, 1));
    tj_store(k, ov, &i, 1, tj_compose(k, v4, &i, 1));
    tj_store(k, oq, &i, 1, tj_compose(k, qf, e, 4));
    tj_store(k, orow, &i, 1, tj_extract(k, mat, 1)); /* row 1: elements 3, 4, 5 */
    tj_module *m = build(k, "compose");
    if (!cur_dev) {
        tj_module_destroy(m);
        return;
    }
    enum { N = 5 };
    float gm[N * 6], gq[N * 4], gr[N * 3];
    double gs[N * 9];
    int32_t gv[N * 4];
    tj_array *am = tjt_array(cur_dev, m23, N, NULL), *as = tjt_array(cur_dev, m33, N, NULL);
    tj_array *av = tjt_array(cur_dev, v4, N, NULL), *aq = tjt_array(cur_dev, qf, N, NULL);
    tj_array *ar = tjt_array(cur_dev, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), N,
                             NULL);
    tj_arg args[] = {tj_arg_array(am), tj_arg_array(as), tj_arg_array(av), tj_arg_array(aq),
                     tj_arg_array(ar)};
    launch(m, "compose", N, args, 5);
    copy_out(am, gm);
    copy_out(as, gs);
    copy_out(av, gv);
    copy_out(aq, gq);
    copy_out(ar, gr);
    for (int j = 0; j < N; j++) {
        for (int c = 0; c < 6; c++)
            ck_assert_msg(gm[j * 6 + c] == (float)(10 * j + c), "mat23 %d[%d]: %g", j, c,
                          gm[j * 6 + c]);
        for (int c = 0; c < 9; c++)
            ck_assert_msg(gs[j * 9 + c] == j, "splat mat33 %d[%d]: %g", j, c, gs[j * 9 + c]);
        for (int c = 0; c < 4; c++) {
            ck_assert_msg(gv[j * 4 + c] == j, "splat vec4i %d[%d]: %d", j, c, gv[j * 4 + c]);
            ck_assert_msg(gq[j * 4 + c] == (float)(10 * j + c), "quat %d[%d]: %g", j, c,
                          gq[j * 4 + c]);
        }
        for (int c = 0; c < 3; c++)
            ck_assert_msg(gr[j * 3 + c] == (float)(10 * j + 3 + c), "row 1 of %d[%d]: %g", j, c,
                          gr[j * 3 + c]);
    }
    tj_array_destroy(am);
    tj_array_destroy(as);
    tj_array_destroy(av);
    tj_array_destroy(aq);
    tj_array_destroy(ar);
    tj_module_destroy(m);
}
END_TEST

/* ---- atomics on vec3 elements ---------------------------------------------------------------- */

static const tj_dtype atomic_dtypes[] = {TJ_DTYPE_F32, TJ_DTYPE_F64, TJ_DTYPE_I32, TJ_DTYPE_I64};

static tj_val *
const_of(tj_kernel *k, tj_dtype dt, int v)
{
    return dt_is_float(dt) ? tj_const_float(k, dt, v) : tj_const_int(k, dt, v);
}

/* Thread i adds (i % 5, 1, -(i % 3)) into acc[i % 4] and records the old value. Every
 * component is atomic on its own: the sums are exact (small integers) and the old y
 * components of one slot are 0, 1, ..., count - 1 in some order. */
START_TEST(test_atomic_add_on_vec3_elements_counts_every_thread)
{
    tj_dtype dt = atomic_dtypes[_i];
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, dt, 3);
    tj_kernel *k = new_kernel("atomic_vec3");
    tj_val *acc = tj_param_array(k, "acc", v3, 1);
    tj_val *old = tj_param_array(k, "old", v3, 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *slot = tj_binary(k, TJ_BIN_MOD, i, tj_const_int(k, TJ_DTYPE_I32, 4));
    tj_val *c[3] = {
        tj_cast(k, tj_binary(k, TJ_BIN_MOD, i, tj_const_int(k, TJ_DTYPE_I32, 5)), tjt_type(dt)),
        const_of(k, dt, 1),
        tj_unary(k, TJ_UN_NEG,
                 tj_cast(k, tj_binary(k, TJ_BIN_MOD, i, tj_const_int(k, TJ_DTYPE_I32, 3)),
                         tjt_type(dt))),
    };
    tj_val *prev = tj_atomic_add(k, acc, &slot, 1, tj_compose(k, v3, c, 3));
    tj_store(k, old, &i, 1, prev);
    tj_module *m = build(k, "atomic_vec3");
    if (!cur_dev) {
        tj_module_destroy(m);
        return;
    }
    enum { N = 1000, SLOTS = 4 };
    tj_array *aacc = tjt_array(cur_dev, v3, SLOTS, NULL), *aold = tjt_array(cur_dev, v3, N, NULL);
    tj_arg args[] = {tj_arg_array(aacc), tj_arg_array(aold)};
    launch(m, "atomic_vec3", N, args, 2);
    size_t es = dt_size(dt);
    uint8_t *gacc = calloc(SLOTS * 3, es), *gold = calloc(N * 3, es);
    ck_assert(gacc && gold);
    copy_out(aacc, gacc);
    copy_out(aold, gold);
    double want[SLOTS][3] = {{0}};
    for (int j = 0; j < N; j++) {
        want[j % SLOTS][0] += j % 5;
        want[j % SLOTS][1] += 1;
        want[j % SLOTS][2] -= j % 3;
    }
    for (int s = 0; s < SLOTS; s++) {
        for (int cc = 0; cc < 3; cc++) {
            double got = get_comp(gacc, dt, (size_t)s * 3 + (size_t)cc);
            ck_assert_msg(got == want[s][cc], "%s acc[%d][%d] = %g, expected %g",
                          tj_type_get_name(v3), s, cc, got, want[s][cc]);
        }
        /* The old y values of the threads of slot s: a permutation of 0 .. count-1. */
        bool seen[N / SLOTS] = {false};
        for (int j = s; j < N; j += SLOTS) {
            double y = get_comp(gold, dt, (size_t)j * 3 + 1);
            ck_assert_msg(y >= 0 && y < N / SLOTS && !seen[(int)y],
                          "%s: thread %d saw old y %g (repeated or out of range)",
                          tj_type_get_name(v3), j, y);
            seen[(int)y] = true;
        }
    }
    free(gacc);
    free(gold);
    tj_array_destroy(aacc);
    tj_array_destroy(aold);
    tj_module_destroy(m);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(const char *name, void (*setup)(void))
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_loop_test(tc, test_composite_ops_match_c_reference, 0, nrows);
    tcase_add_test(tc, test_struct_array_fields_roundtrip_with_c_layout);
    tcase_add_test(tc, test_nested_struct_array_matches_c_bytes);
    tcase_add_test(tc, test_struct_and_composite_params_arrive_as_bytes);
    tcase_add_test(tc, test_many_matrix_params_arrive_whole);
    tcase_add_test(tc, test_compose_fills_matrices_row_major_and_splats_one_scalar);
    tcase_add_loop_test(tc, test_atomic_add_on_vec3_elements_counts_every_thread, 0,
                        (int)(sizeof atomic_dtypes / sizeof atomic_dtypes[0]));
    return tc;
}

int
main(int argc, char **argv)
{
    make_rows();
    Suite *s = suite_create("composite");
    suite_add_tcase(s, make_case("cpu1", setup_cpu1));
    suite_add_tcase(s, make_case("ptx", setup_ptx));
    TCase *cuda = make_case("cuda", setup_cuda);
    tcase_set_tags(cuda, "cuda");
    suite_add_tcase(s, cuda);
    return tj_test_main(argc, argv, s);
}
