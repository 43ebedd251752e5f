/* tj-test: CUDA */
/*
 * tests/check_scalar.c: every scalar operator on every scalar dtype of SPEC 2, against a
 * reference computed here in C. Each row of the tables below builds one kernel
 *     out[i] = op(a[i], b[i])        (unary: op(a[i]); fma: fma(a[i], b[i], c[i]);
 *                                     select: c[i] ? a[i] : b[i]; cast: (to)a[i])
 * over arrays holding every value (unary), pair (binary), or triple (fma) of the dtype's
 * edge values: zero, one, negatives, min/max of the type, shift amounts around the bit
 * width, and for floats -0, denormals, +-inf and NaN.
 *
 * Library rules checked here (jit/arith.c, tilejit.h): integer arithmetic wraps; integer
 * division and remainder by zero give 0; MIN / -1 gives MIN (wrapping) and MIN % -1 gives
 * 0; shift amounts are taken modulo the bit width; shr is arithmetic for signed types;
 * round() is half away from zero; min/max ignore NaN (C fmin/fmax); float-to-integer casts
 * truncate and saturate, NaN gives 0; casts to bool compare with zero (NaN is true).
 *
 * Float tolerances (float16 is computed through float32 and rounded):
 *   exact, bit for bit (any NaN matches any NaN): + - * / mod sqrt neg abs floor ceil
 *       round trunc and casts, on float16, float32 and float64 (computing in float64 and
 *       rounding once is exact for these, since 53 >= 2 * 24 + 2);
 *   min, max: exact, but -0 and +0 are interchangeable (LLVM minnum/maxnum);
 *   exp log sin cos tan tanh pow atan2: float32 within 4 ULP or relative 1e-6, float64
 *       within 4 ULP or relative 1e-12, float16 within 2 ULP or relative 1e-3; signed
 *       zeros match each other; infinities must match exactly;
 *   fma: exact on float32 and float64; float16 within 1 ULP (the reference rounds twice).
 *
 * Test cases: cpu1 (CPU, width-1; also: float16 min and max run in float32 there), ptx
 * (the same kernels built for CUDA and assembled by ptxas when present; some rows also
 * check the PTX opcode), cuda (launched on the GPU).
 * Under valgrind only every 16th row of the table runs ($TJ_TEST_SAMPLE=n sets the step;
 * see tjt_sample_stride).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300, MAXVALS = 32, CUDA_BLOCK = 256 };

/* ---- dtypes ----------------------------------------------------------------------------- */

static const tj_dtype all_dtypes[] = {
    TJ_DTYPE_BOOL, TJ_DTYPE_I8,  TJ_DTYPE_I16, TJ_DTYPE_I32, TJ_DTYPE_I64, TJ_DTYPE_U8,
    TJ_DTYPE_U16,  TJ_DTYPE_U32, TJ_DTYPE_U64, TJ_DTYPE_F16, TJ_DTYPE_F32, TJ_DTYPE_F64,
};
enum { NDTYPES = sizeof all_dtypes / sizeof all_dtypes[0] };

static const char *
dt_name(tj_dtype dt)
{
    static const char *const names[] = {
        [TJ_DTYPE_BOOL] = "bool",   [TJ_DTYPE_I8] = "int8",     [TJ_DTYPE_I16] = "int16",
        [TJ_DTYPE_I32] = "int32",   [TJ_DTYPE_I64] = "int64",   [TJ_DTYPE_U8] = "uint8",
        [TJ_DTYPE_U16] = "uint16",  [TJ_DTYPE_U32] = "uint32",  [TJ_DTYPE_U64] = "uint64",
        [TJ_DTYPE_F16] = "float16", [TJ_DTYPE_F32] = "float32", [TJ_DTYPE_F64] = "float64",
    };
    return names[dt];
}

static bool
dt_is_float(tj_dtype dt)
{
    return dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64;
}

static bool
dt_is_signed_int(tj_dtype dt)
{
    return dt >= TJ_DTYPE_I8 && dt <= TJ_DTYPE_I64;
}

/* Bit width: 1 for bool. */
static int
dt_bits(tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_BOOL:
        return 1;
    case TJ_DTYPE_I8:
    case TJ_DTYPE_U8:
        return 8;
    case TJ_DTYPE_I16:
    case TJ_DTYPE_U16:
    case TJ_DTYPE_F16:
        return 16;
    case TJ_DTYPE_I32:
    case TJ_DTYPE_U32:
    case TJ_DTYPE_F32:
        return 32;
    default:
        return 64;
    }
}

static size_t
dt_size(tj_dtype dt)
{
    return dt == TJ_DTYPE_BOOL ? 1 : (size_t)dt_bits(dt) / 8;
}

static uint64_t
dt_mask(tj_dtype dt)
{
    int w = dt_bits(dt);
    return w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* The value of integer bits 'x' of 'dt', sign-extended for signed types. */
static int64_t
sext(tj_dtype dt, uint64_t x)
{
    int w = dt_bits(dt);
    x &= dt_mask(dt);
    if (dt_is_signed_int(dt) && w < 64 && (x >> (w - 1)) & 1)
        x |= ~dt_mask(dt);
    return (int64_t)x;
}

/* ---- float16 and float bits -------------------------------------------------------------- */

static double
fval(tj_dtype dt, uint64_t bits)
{
    if (dt == TJ_DTYPE_F16)
        return tjt_half_to_double((uint16_t)bits);
    if (dt == TJ_DTYPE_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* Rounds 'v' once to float 'dt' and returns its bits. */
static uint64_t
fbits(tj_dtype dt, double v)
{
    if (dt == TJ_DTYPE_F16)
        return tjt_half_from_double(v);
    if (dt == TJ_DTYPE_F32) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

/* Distance in units in the last place between two non-NaN floats of 'dt'. */
static uint64_t
ulp_distance(tj_dtype dt, uint64_t x, uint64_t y)
{
    int w = dt_bits(dt);
    uint64_t sign = UINT64_C(1) << (w - 1);
    int64_t ox = (x & sign) ? -(int64_t)(x & ~sign) : (int64_t)x;
    int64_t oy = (y & sign) ? -(int64_t)(y & ~sign) : (int64_t)y;
    return ox > oy ? (uint64_t)ox - (uint64_t)oy : (uint64_t)oy - (uint64_t)ox;
}

/* ---- edge values --------------------------------------------------------------------------- */

/* The edge values of 'dt' as raw bits; returns the count. */
static int
edge_values(tj_dtype dt, uint64_t *out)
{
    int n = 0, w = dt_bits(dt);
    if (dt == TJ_DTYPE_BOOL) {
        out[n++] = 0;
        out[n++] = 1;
    } else if (dt_is_signed_int(dt)) {
        int64_t max = (int64_t)(dt_mask(dt) >> 1), min = -max - 1;
        const int64_t v[] = {0,      1,   -1,  2,         -3,    7,     -8,    100,
                             -100,   min, max, min + 1,   max - 1, w - 1, w,     w + 1,
                             2 * w + 3, -w};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            out[n++] = (uint64_t)v[i] & dt_mask(dt);
    } else if (!dt_is_float(dt)) {
        uint64_t max = dt_mask(dt);
        const uint64_t v[] = {0,       1,       2,           3,           7, 8, 100, 200,
                              max,     max - 1, max / 2,     max / 2 + 1, (uint64_t)w - 1,
                              (uint64_t)w,      (uint64_t)w + 1, 2 * (uint64_t)w + 3};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            out[n++] = v[i];
    } else {
        double big = dt == TJ_DTYPE_F16 ? 65504.0 : dt == TJ_DTYPE_F32 ? FLT_MAX : DBL_MAX;
        double tiny = dt == TJ_DTYPE_F16 ? ldexp(1, -24) : dt == TJ_DTYPE_F32 ? FLT_TRUE_MIN
                                                                               : DBL_TRUE_MIN;
        double norm = dt == TJ_DTYPE_F16 ? ldexp(1, -14) : dt == TJ_DTYPE_F32 ? FLT_MIN : DBL_MIN;
        double exact = dt == TJ_DTYPE_F16 ? 1025.0 : dt == TJ_DTYPE_F32 ? 8388609.0
                                                                         : 4503599627370497.0;
        /* The largest value below 0.5: round() must give 0, not 1. */
        double below_half = 0.5 - ldexp(1.0, dt == TJ_DTYPE_F16 ? -12 : dt == TJ_DTYPE_F32 ? -25
                                                                                         : -54);
        const double v[] = {0.0,   -0.0,    1.0,  -1.0,     0.5,      -0.5,  1.5,     2.5,
                            -2.5,  M_PI,    -7.25, 100.0,   -1e-3,    255.5, -128.75, 3e9,
                            1e19,  1e20,    big,  -big,     tiny,     norm,  exact,   below_half,
                            INFINITY, -INFINITY, NAN,
                            /* the bounds of int32 and int64 (CPU casts: arith.c) */
                            2147483648.0, -2147483648.0, -9223372036854775808.0};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            out[n++] = fbits(dt, v[i]);
    }
    ck_assert_int_le(n, MAXVALS);
    return n;
}

/* ---- the operator table -------------------------------------------------------------------- */

typedef enum fam { F_UNARY, F_BINARY, F_COMPARE, F_FMA, F_SELECT, F_CAST } fam;

/* How float results are compared (see the top of the file). */
typedef enum tol { T_EXACT, T_MINMAX, T_MATH, T_FMA } tol;

/* Which dtypes an operator takes. */
enum {
    D_BOOL = 1,
    D_SINT = 2,
    D_UINT = 4,
    D_FLOAT = 8,
    D_INT = D_SINT | D_UINT,
    D_NUM = D_INT | D_FLOAT,
    D_ALL = D_BOOL | D_NUM,
};

typedef struct opdef {
    fam fam;
    int op;
    const char *name;
    unsigned dtypes;
    tol tol;
} opdef;

static const opdef ops[] = {
    {F_UNARY, TJ_UN_NEG, "neg", D_NUM, T_EXACT},
    {F_UNARY, TJ_UN_NOT, "not", D_BOOL, T_EXACT},
    {F_UNARY, TJ_UN_BIT_NOT, "bit_not", D_INT | D_BOOL, T_EXACT},
    {F_UNARY, TJ_UN_ABS, "abs", D_NUM, T_EXACT},
    {F_UNARY, TJ_UN_SQRT, "sqrt", D_FLOAT, T_EXACT},
    {F_UNARY, TJ_UN_FLOOR, "floor", D_FLOAT, T_EXACT},
    {F_UNARY, TJ_UN_CEIL, "ceil", D_FLOAT, T_EXACT},
    {F_UNARY, TJ_UN_ROUND, "round", D_FLOAT, T_EXACT},
    {F_UNARY, TJ_UN_TRUNC, "trunc", D_FLOAT, T_EXACT},
    {F_UNARY, TJ_UN_EXP, "exp", D_FLOAT, T_MATH},
    {F_UNARY, TJ_UN_LOG, "log", D_FLOAT, T_MATH},
    {F_UNARY, TJ_UN_SIN, "sin", D_FLOAT, T_MATH},
    {F_UNARY, TJ_UN_COS, "cos", D_FLOAT, T_MATH},
    {F_UNARY, TJ_UN_TAN, "tan", D_FLOAT, T_MATH},
    {F_UNARY, TJ_UN_TANH, "tanh", D_FLOAT, T_MATH},
    {F_BINARY, TJ_BIN_ADD, "add", D_NUM, T_EXACT},
    {F_BINARY, TJ_BIN_SUB, "sub", D_NUM, T_EXACT},
    {F_BINARY, TJ_BIN_MUL, "mul", D_NUM, T_EXACT},
    {F_BINARY, TJ_BIN_DIV, "div", D_NUM, T_EXACT},
    {F_BINARY, TJ_BIN_MOD, "mod", D_NUM, T_EXACT},
    {F_BINARY, TJ_BIN_MIN, "min", D_NUM, T_MINMAX},
    {F_BINARY, TJ_BIN_MAX, "max", D_NUM, T_MINMAX},
    {F_BINARY, TJ_BIN_AND, "and", D_BOOL, T_EXACT},
    {F_BINARY, TJ_BIN_OR, "or", D_BOOL, T_EXACT},
    {F_BINARY, TJ_BIN_BIT_AND, "bit_and", D_INT | D_BOOL, T_EXACT},
    {F_BINARY, TJ_BIN_BIT_OR, "bit_or", D_INT | D_BOOL, T_EXACT},
    {F_BINARY, TJ_BIN_BIT_XOR, "bit_xor", D_INT | D_BOOL, T_EXACT},
    {F_BINARY, TJ_BIN_SHL, "shl", D_INT, T_EXACT},
    {F_BINARY, TJ_BIN_SHR, "shr", D_INT, T_EXACT},
    {F_BINARY, TJ_BIN_POW, "pow", D_FLOAT, T_MATH},
    {F_BINARY, TJ_BIN_ATAN2, "atan2", D_FLOAT, T_MATH},
    {F_COMPARE, TJ_CMP_EQ, "eq", D_ALL, T_EXACT},
    {F_COMPARE, TJ_CMP_NE, "ne", D_ALL, T_EXACT},
    {F_COMPARE, TJ_CMP_LT, "lt", D_ALL, T_EXACT},
    {F_COMPARE, TJ_CMP_LE, "le", D_ALL, T_EXACT},
    {F_COMPARE, TJ_CMP_GT, "gt", D_ALL, T_EXACT},
    {F_COMPARE, TJ_CMP_GE, "ge", D_ALL, T_EXACT},
    {F_FMA, 0, "fma", D_FLOAT, T_FMA},
    {F_SELECT, 0, "select", D_ALL, T_EXACT},
    {F_CAST, 0, "cast", D_ALL, T_EXACT},
};

/* One row: an operator on one dtype ('to': the target of a cast). */
typedef struct row {
    const opdef *op;
    tj_dtype dt, to;
} row;

enum { MAXROWS = 160 };
static row rows[F_CAST + 1][MAXROWS];
static int nrows[F_CAST + 1];

static unsigned
dtype_class(tj_dtype dt)
{
    return dt == TJ_DTYPE_BOOL ? D_BOOL : dt_is_float(dt) ? D_FLOAT
                                        : dt_is_signed_int(dt) ? D_SINT : D_UINT;
}

/* Expands the operator table over the dtypes each operator takes (every
 * tjt_sample_stride()-th row of each family: all of them, except under valgrind). */
static void
make_rows(void)
{
    int stride = tjt_sample_stride(), seen[F_CAST + 1] = {0};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        for (int d = 0; d < NDTYPES; d++) {
            if (!(ops[o].dtypes & dtype_class(all_dtypes[d])))
                continue;
            for (int t = 0; t < (ops[o].fam == F_CAST ? NDTYPES : 1); t++) {
                fam f = ops[o].fam;
                if (seen[f]++ % stride != 0)
                    continue;
                if (nrows[f] == MAXROWS)
                    abort();
                rows[f][nrows[f]++] = (row){&ops[o], all_dtypes[d], all_dtypes[t]};
            }
        }
    }
}

/* ---- the C reference ------------------------------------------------------------------------- */

static uint64_t
ref_int_unary(int op, tj_dtype dt, uint64_t a)
{
    uint64_t r = 0;
    switch (op) {
    case TJ_UN_NEG:
        r = 0 - a;
        break;
    case TJ_UN_NOT:
    case TJ_UN_BIT_NOT:
        r = ~a;
        break;
    case TJ_UN_ABS:
        r = dt_is_signed_int(dt) && sext(dt, a) < 0 ? 0 - a : a;
        break;
    }
    return r & dt_mask(dt);
}

static uint64_t
ref_float_unary(int op, tj_dtype dt, uint64_t a)
{
    double x = fval(dt, a);
    switch (op) {
    case TJ_UN_NEG:
        return fbits(dt, -x);
    case TJ_UN_ABS:
        return fbits(dt, fabs(x));
    case TJ_UN_SQRT:
        return fbits(dt, sqrt(x));
    case TJ_UN_FLOOR:
        return fbits(dt, floor(x));
    case TJ_UN_CEIL:
        return fbits(dt, ceil(x));
    case TJ_UN_ROUND:
        return fbits(dt, round(x));
    case TJ_UN_TRUNC:
        return fbits(dt, trunc(x));
    case TJ_UN_EXP:
        return fbits(dt, exp(x));
    case TJ_UN_LOG:
        return fbits(dt, log(x));
    case TJ_UN_SIN:
        return fbits(dt, sin(x));
    case TJ_UN_COS:
        return fbits(dt, cos(x));
    case TJ_UN_TAN:
        return fbits(dt, tan(x));
    default:
        return fbits(dt, tanh(x));
    }
}

/* An arithmetic right shift that does not rely on implementation-defined behaviour. */
static int64_t
ashr(int64_t x, int n)
{
    return x < 0 ? ~(~x >> n) : x >> n;
}

static uint64_t
ref_int_binary(int op, tj_dtype dt, uint64_t a, uint64_t b)
{
    bool sg = dt_is_signed_int(dt);
    int64_t sa = sext(dt, a), sb = sext(dt, b);
    int amt = (int)(b & (uint64_t)(dt_bits(dt) - 1));
    uint64_t r = 0;
    switch (op) {
    case TJ_BIN_ADD:
        r = a + b;
        break;
    case TJ_BIN_SUB:
        r = a - b;
        break;
    case TJ_BIN_MUL:
        r = a * b;
        break;
    case TJ_BIN_DIV:
        r = b == 0 ? 0 : sg && sb == -1 ? 0 - a : sg ? (uint64_t)(sa / sb) : a / b;
        break;
    case TJ_BIN_MOD:
        r = b == 0 || (sg && sb == -1) ? 0 : sg ? (uint64_t)(sa % sb) : a % b;
        break;
    case TJ_BIN_MIN:
        r = (sg ? sa < sb : a < b) ? a : b;
        break;
    case TJ_BIN_MAX:
        r = (sg ? sa > sb : a > b) ? a : b;
        break;
    case TJ_BIN_AND:
    case TJ_BIN_BIT_AND:
        r = a & b;
        break;
    case TJ_BIN_OR:
    case TJ_BIN_BIT_OR:
        r = a | b;
        break;
    case TJ_BIN_BIT_XOR:
        r = a ^ b;
        break;
    case TJ_BIN_SHL:
        r = a << amt;
        break;
    case TJ_BIN_SHR:
        r = sg ? (uint64_t)ashr(sa, amt) : a >> amt;
        break;
    }
    return r & dt_mask(dt);
}

static uint64_t
ref_float_binary(int op, tj_dtype dt, uint64_t a, uint64_t b)
{
    double x = fval(dt, a), y = fval(dt, b);
    switch (op) {
    case TJ_BIN_ADD:
        return fbits(dt, x + y);
    case TJ_BIN_SUB:
        return fbits(dt, x - y);
    case TJ_BIN_MUL:
        return fbits(dt, x * y);
    case TJ_BIN_DIV:
        return fbits(dt, x / y);
    case TJ_BIN_MOD:
        return fbits(dt, fmod(x, y));
    case TJ_BIN_MIN:
        return fbits(dt, fmin(x, y));
    case TJ_BIN_MAX:
        return fbits(dt, fmax(x, y));
    case TJ_BIN_POW:
        return fbits(dt, pow(x, y));
    default:
        return fbits(dt, atan2(x, y));
    }
}

static uint64_t
ref_compare(int op, tj_dtype dt, uint64_t a, uint64_t b)
{
    if (dt_is_float(dt)) {
        double x = fval(dt, a), y = fval(dt, b);
        switch (op) {
        case TJ_CMP_EQ: return x == y;
        case TJ_CMP_NE: return x != y;
        case TJ_CMP_LT: return x < y;
        case TJ_CMP_LE: return x <= y;
        case TJ_CMP_GT: return x > y;
        default: return x >= y;
        }
    }
    if (dt_is_signed_int(dt)) {
        int64_t x = sext(dt, a), y = sext(dt, b);
        switch (op) {
        case TJ_CMP_EQ: return x == y;
        case TJ_CMP_NE: return x != y;
        case TJ_CMP_LT: return x < y;
        case TJ_CMP_LE: return x <= y;
        case TJ_CMP_GT: return x > y;
        default: return x >= y;
        }
    }
    switch (op) {
    case TJ_CMP_EQ: return a == b;
    case TJ_CMP_NE: return a != b;
    case TJ_CMP_LT: return a < b;
    case TJ_CMP_LE: return a <= b;
    case TJ_CMP_GT: return a > b;
    default: return a >= b;
    }
}

static uint64_t
ref_fma(tj_dtype dt, uint64_t a, uint64_t b, uint64_t c)
{
    if (dt == TJ_DTYPE_F32) {
        float r = fmaf((float)fval(dt, a), (float)fval(dt, b), (float)fval(dt, c));
        return fbits(dt, r);
    }
    return fbits(dt, fma(fval(dt, a), fval(dt, b), fval(dt, c)));
}

/* Float 'x' truncated and saturated to integer 'to' (NaN gives 0), as raw bits. */
static uint64_t
float_to_int(double x, tj_dtype to)
{
    if (isnan(x))
        return 0;
    double t = trunc(x);
    int w = dt_bits(to);
    if (dt_is_signed_int(to)) {
        double lim = ldexp(1.0, w - 1);
        int64_t max = (int64_t)(dt_mask(to) >> 1);
        int64_t v = t >= lim ? max : t < -lim ? -max - 1 : (int64_t)t;
        return (uint64_t)v & dt_mask(to);
    }
    if (t <= 0)
        return 0;
    return t >= ldexp(1.0, w) ? dt_mask(to) : (uint64_t)t;
}

static uint64_t
ref_cast(tj_dtype from, tj_dtype to, uint64_t a)
{
    if (dt_is_float(from)) {
        double x = fval(from, a);
        if (to == TJ_DTYPE_BOOL)
            return x != 0;
        return dt_is_float(to) ? fbits(to, x) : float_to_int(x, to);
    }
    bool sg = dt_is_signed_int(from);
    int64_t s = sext(from, a);
    if (to == TJ_DTYPE_BOOL)
        return a != 0;
    if (to == TJ_DTYPE_F64)
        return fbits(to, sg ? (double)s : (double)a);
    if (to == TJ_DTYPE_F32)
        return fbits(to, sg ? (float)s : (float)a);
    if (to == TJ_DTYPE_F16) /* exact in double below 65520, infinite above */
        return fbits(to, sg ? (double)s : (double)a);
    return (uint64_t)s & dt_mask(to);
}

/* ---- comparing results ---------------------------------------------------------------------- */

static bool
float_matches(tj_dtype dt, tol t, uint64_t got, uint64_t want)
{
    double g = fval(dt, got), w = fval(dt, want);
    if (isnan(g) || isnan(w))
        return isnan(g) && isnan(w);
    if (got == want)
        return true;
    switch (t) {
    case T_EXACT:
        return false;
    case T_MINMAX:
        return g == 0 && w == 0;
    case T_FMA:
        return dt == TJ_DTYPE_F16 && !isinf(g) && !isinf(w) && ulp_distance(dt, got, want) <= 1;
    case T_MATH:
        break;
    }
    if (g == 0 && w == 0)
        return true;
    if (isinf(g) || isinf(w))
        return false;
    double rel = dt == TJ_DTYPE_F16 ? 1e-3 : dt == TJ_DTYPE_F32 ? 1e-6 : 1e-12;
    uint64_t ulps = dt == TJ_DTYPE_F16 ? 2 : 4;
    return fabs(g - w) <= rel * fabs(w) || ulp_distance(dt, got, want) <= ulps;
}

static void
format_value(char *buf, size_t n, tj_dtype dt, uint64_t bits)
{
    if (dt_is_float(dt))
        snprintf(buf, n, "%.17g (0x%" PRIx64 ")", fval(dt, bits), bits);
    else if (dt_is_signed_int(dt))
        snprintf(buf, n, "%" PRId64, sext(dt, bits));
    else
        snprintf(buf, n, "%" PRIu64, bits);
}

/* ---- memory ---------------------------------------------------------------------------------- */

static void
put_bits(void *base, tj_dtype dt, size_t i, uint64_t v)
{
    uint8_t *p = (uint8_t *)base + i * dt_size(dt);
    switch (dt_size(dt)) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static uint64_t
get_bits(const void *base, tj_dtype dt, size_t i)
{
    const uint8_t *p = (const uint8_t *)base + i * dt_size(dt);
    switch (dt_size(dt)) {
    case 1: { uint8_t x; memcpy(&x, p, 1); return x; }
    case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
    default: { uint64_t x; memcpy(&x, p, 8); return x; }
    }
}

/* ---- kernels --------------------------------------------------------------------------------- */

/* The operands of a row: dtypes of out, a, b, c (0: absent). */
static void
operand_dtypes(const row *r, tj_dtype *out, tj_dtype in[3])
{
    fam f = r->op->fam;
    in[0] = r->dt;
    in[1] = f == F_UNARY || f == F_CAST ? 0 : r->dt;
    in[2] = f == F_FMA ? r->dt : f == F_SELECT ? TJ_DTYPE_BOOL : 0;
    *out = f == F_COMPARE ? TJ_DTYPE_BOOL : f == F_CAST ? r->to : r->dt;
}

static tj_kernel *
make_kernel(const row *r, tj_target target)
{
    static const char *const names[] = {"a", "b", "c"};
    tj_dtype odt, in[3];
    operand_dtypes(r, &odt, in);
    tj_kernel_options o = {.target = target};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "scalar_op", &o);
    ck_assert_ptr_nonnull(k);
    tj_val *out = tj_param_array(k, "out", tjt_type(odt), 1);
    tj_val *arr[3] = {NULL, NULL, NULL}, *x[3] = {NULL, NULL, NULL}, *i = NULL;
    for (int j = 0; j < 3; j++)
        if (in[j])
            arr[j] = tj_param_array(k, names[j], tjt_type(in[j]), 1);
    tj_tid(k, 1, &i);
    for (int j = 0; j < 3; j++)
        if (in[j])
            x[j] = tj_load(k, arr[j], &i, 1);
    tj_val *v = NULL;
    switch (r->op->fam) {
    case F_UNARY:
        v = tj_unary(k, (tj_unop)r->op->op, x[0]);
        break;
    case F_BINARY:
        v = tj_binary(k, (tj_binop)r->op->op, x[0], x[1]);
        break;
    case F_COMPARE:
        v = tj_compare(k, (tj_cmp)r->op->op, x[0], x[1]);
        break;
    case F_FMA:
        v = tj_fma(k, x[0], x[1], x[2]);
        break;
    case F_SELECT:
        v = tj_select(k, x[2], x[0], x[1]);
        break;
    case F_CAST:
        v = tj_cast(k, x[0], tjt_type(r->to));
        break;
    }
    tj_store(k, out, &i, 1, v);
    ck_assert_msg(tj_kernel_status(k) == TJ_OK, "%s %s: %s", r->op->name, dt_name(r->dt),
                  tj_kernel_error(k));
    return k;
}

/* A cast from float to an integer also takes the values around the ends of the integer's
 * range, where the CPU's fast path and its saturation meet (arith.c). Returns how many. */
static size_t
range_end_values(const row *r, uint64_t *out)
{
    if (r->op->fam != F_CAST || !dt_is_float(r->dt) || r->to == TJ_DTYPE_BOOL ||
        dt_is_float(r->to))
        return 0;
    int w = dt_bits(r->to);
    double lo = dt_is_signed_int(r->to) ? -ldexp(1.0, w - 1) : 0.0;
    double hi = dt_is_signed_int(r->to) ? ldexp(1.0, w - 1) - 1 : ldexp(1.0, w) - 1;
    const double v[] = {lo - 1, lo - 0.5, lo, lo + 0.5, hi - 0.5, hi, hi + 0.5, hi + 1};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        out[i] = fbits(r->dt, v[i]);
    return sizeof v / sizeof v[0];
}

/* The inputs of a row: every value, pair or triple of the edge values. */
static size_t
make_inputs(const row *r, void *host[3])
{
    uint64_t v[MAXVALS + 8];
    size_t nv = (size_t)edge_values(r->dt, v);
    nv += range_end_values(r, v + nv);
    fam f = r->op->fam;
    size_t arity = f == F_UNARY || f == F_CAST ? 1 : f == F_FMA ? 3 : 2;
    size_t n = arity == 1 ? nv : arity == 2 ? nv * nv : nv * nv * nv;
    tj_dtype odt, in[3];
    operand_dtypes(r, &odt, in);
    for (int j = 0; j < 3; j++) {
        host[j] = NULL;
        if (in[j]) {
            host[j] = calloc(n, dt_size(in[j]));
            ck_assert_ptr_nonnull(host[j]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t ia = arity == 1 ? i : arity == 2 ? i / nv : i / (nv * nv);
        put_bits(host[0], r->dt, i, v[ia]);
        if (arity >= 2)
            put_bits(host[1], r->dt, i, v[(arity == 2 ? i : i / nv) % nv]);
        if (f == F_FMA)
            put_bits(host[2], r->dt, i, v[i % nv]);
        if (f == F_SELECT)
            put_bits(host[2], TJ_DTYPE_BOOL, i, i % 3 == 0);
    }
    return n;
}

static uint64_t
reference(const row *r, void *const host[3], size_t i)
{
    uint64_t a = get_bits(host[0], r->dt, i);
    uint64_t b = host[1] ? get_bits(host[1], r->dt, i) : 0;
    bool fl = dt_is_float(r->dt);
    switch (r->op->fam) {
    case F_UNARY:
        return fl ? ref_float_unary(r->op->op, r->dt, a) : ref_int_unary(r->op->op, r->dt, a);
    case F_BINARY:
        return fl ? ref_float_binary(r->op->op, r->dt, a, b)
                  : ref_int_binary(r->op->op, r->dt, a, b);
    case F_COMPARE:
        return ref_compare(r->op->op, r->dt, a, b);
    case F_FMA:
        return ref_fma(r->dt, a, b, get_bits(host[2], r->dt, i));
    case F_SELECT:
        return get_bits(host[2], TJ_DTYPE_BOOL, i) ? a : b;
    default:
        return ref_cast(r->dt, r->to, a);
    }
}

/* Launches the kernel of 'r' on 'dev' and compares every element with the reference. */
static void
launch_and_check(const row *r, tj_module *m, tj_device *dev)
{
    void *host[3];
    size_t n = make_inputs(r, host);
    tj_dtype odt, in[3];
    operand_dtypes(r, &odt, in);
    tj_array *arr[4] = {tjt_array(dev, tjt_type(odt), (int64_t)n, NULL), NULL, NULL, NULL};
    tj_arg args[4] = {tj_arg_array(arr[0])};
    size_t nargs = 1;
    for (int j = 0; j < 3; j++) {
        if (!in[j])
            continue;
        arr[nargs] = tjt_array(dev, tjt_type(in[j]), (int64_t)n, host[j]);
        args[nargs] = tj_arg_array(arr[nargs]);
        nargs++;
    }
    bool gpu = tj_device_get_kind(dev) == TJ_DEVICE_CUDA;
    int64_t dim = (int64_t)n;
    tjt_ok(dev, tj_launch(dev, m, "scalar_op", 1, &dim, gpu ? CUDA_BLOCK : 1, args, nargs));
    tjt_ok(dev, tj_device_synchronize(dev));
    void *got = calloc(n, dt_size(odt));
    ck_assert_ptr_nonnull(got);
    tjt_ok(dev, tj_array_copy_to_host(arr[0], got, n * dt_size(odt)));

    size_t nbad = 0, first = 0;
    uint64_t fgot = 0, fwant = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t g = get_bits(got, odt, i), w = reference(r, host, i);
        bool ok = dt_is_float(odt) ? float_matches(odt, r->op->tol, g, w)
                                   : (g & dt_mask(odt)) == (w & dt_mask(odt));
        if (!ok && nbad++ == 0) {
            first = i;
            fgot = g;
            fwant = w;
        }
    }
    char ops[3][80] = {"", "", ""}, sg[64] = "", sw[64] = "";
    if (nbad) {
        for (int j = 0; j < 3; j++) {
            char v[64];
            if (!host[j])
                continue;
            format_value(v, sizeof v, in[j], get_bits(host[j], in[j], first));
            snprintf(ops[j], sizeof ops[j], " %c=%s", "abc"[j], v);
        }
        format_value(sg, sizeof sg, odt, fgot);
        format_value(sw, sizeof sw, odt, fwant);
    }
    ck_assert_msg(nbad == 0,
                  "%s %s%s%s on %s: %zu of %zu elements differ; first:%s%s%s: got %s, "
                  "expected %s",
                  r->op->name, dt_name(r->dt), r->op->fam == F_CAST ? " -> " : "",
                  r->op->fam == F_CAST ? dt_name(r->to) : "", gpu ? "cuda" : "cpu", nbad, n,
                  ops[0], ops[1], ops[2], sg, sw);
    free(got);
    for (int j = 0; j < 4; j++)
        tj_array_destroy(arr[j]);
    for (int j = 0; j < 3; j++)
        free(host[j]);
}

/* An opcode the PTX of some rows must contain: the IEEE forms, never approximations. */
static const char *
ptx_opcode(const row *r)
{
    const char *sfx = r->dt == TJ_DTYPE_F32 ? "f32" : r->dt == TJ_DTYPE_F64 ? "f64" : NULL;
    static char buf[32];
    if (!sfx)
        return NULL;
    const char *op = NULL;
    if (r->op->fam == F_BINARY && r->op->op == TJ_BIN_DIV)
        op = "div.rn";
    else if (r->op->fam == F_UNARY && r->op->op == TJ_UN_SQRT)
        op = "sqrt.rn";
    else if (r->op->fam == F_FMA)
        op = "fma.rn";
    if (!op)
        return NULL;
    snprintf(buf, sizeof buf, "%s.%s", op, sfx);
    return buf;
}

/* ---- test cases: one row on one target ---------------------------------------------------- */

static tj_target cur_target;
static tj_device *cur_dev; /* NULL: build only (the ptx case) */

static void
run_row(const row *r)
{
    tj_kernel *k = make_kernel(r, cur_target);
    tj_module *m = tjt_build(k);
    tj_kernel_destroy(k);
    if (cur_target == TJ_TARGET_CUDA) {
        const char *want = ptx_opcode(r);
        ck_assert_msg(!want || strstr(tj_module_get_ptx(m), want), "%s %s: no %s in the PTX",
                      r->op->name, dt_name(r->dt), want);
    }
    if (cur_dev)
        launch_and_check(r, m, cur_dev);
    tj_module_destroy(m);
}

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

START_TEST(test_unary_ops_match_c_reference)
{
    run_row(&rows[F_UNARY][_i]);
}
END_TEST

START_TEST(test_binary_ops_match_c_reference)
{
    run_row(&rows[F_BINARY][_i]);
}
END_TEST

START_TEST(test_comparisons_match_c_operators)
{
    run_row(&rows[F_COMPARE][_i]);
}
END_TEST

START_TEST(test_fma_is_fused_and_matches_c_fma)
{
    run_row(&rows[F_FMA][_i]);
}
END_TEST

START_TEST(test_select_picks_a_where_cond_else_b)
{
    run_row(&rows[F_SELECT][_i]);
}
END_TEST

START_TEST(test_casts_between_all_dtypes_match_c_conversions)
{
    run_row(&rows[F_CAST][_i]);
}
END_TEST

/* The PTX of out[i] = (to)x[i] for a float 'from'. */
static char *
cast_ptx(tj_dtype from, tj_dtype to)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 256};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "cast", &o);
    tj_val *x = tj_param_array(k, "x", tjt_type(from), 1);
    tj_val *out = tj_param_array(k, "out", tjt_type(to), 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    ck_assert(tj_store(k, out, t, 1, tj_cast(k, tj_load(k, x, t, 1), tjt_type(to))));
    tj_module *m = tjt_build(k);
    char *ptx = strdup(tj_module_get_ptx(m));
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    return ptx;
}

/* float32 -> int32 and uint32 on the GPU are one cvt.rzi, which saturates and gives 0 for
 * NaN by itself; the other float-to-integer casts keep the NaN test (the cvt gives the
 * integer minimum there on the H200: the cuda case's cast table). */
START_TEST(test_gpu_float32_to_int32_casts_are_one_cvt)
{
    static const struct {
        tj_dtype from, to;
        const char *cvt;
        bool bare;
    } rows[] = {
        {TJ_DTYPE_F32, TJ_DTYPE_I32, "cvt.rzi.s32.f32", true},
        {TJ_DTYPE_F32, TJ_DTYPE_U32, "cvt.rzi.u32.f32", true},
        {TJ_DTYPE_F32, TJ_DTYPE_I64, "cvt.rzi.s64.f32", false},
        {TJ_DTYPE_F64, TJ_DTYPE_I32, "cvt.rzi.s32.f64", false},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char *ptx = cast_ptx(rows[r].from, rows[r].to);
        ck_assert_msg(strstr(ptx, rows[r].cvt), "no %s in:\n%s", rows[r].cvt, ptx);
        bool nan_test = strstr(ptx, "setp.nan") != NULL;
        ck_assert_msg(nan_test != rows[r].bare, "%s: %s NaN test in:\n%s", rows[r].cvt,
                      rows[r].bare ? "a" : "no", ptx);
        free(ptx);
    }
}
END_TEST

/* The first call in optimised IR 'ir' of a half-precision llvm.minnum or llvm.maxnum,
 * scalar or vector (".f16", ".v16f16"), or NULL. */
static const char *
half_minmax_call(const char *ir)
{
    static const char *const names[] = {"@llvm.minnum.", "@llvm.maxnum."};
    for (int i = 0; i < 2; i++)
        for (const char *p = ir; (p = strstr(p, names[i])); p++) {
            size_t n = strcspn(p, "(");
            if (n >= 3 && strncmp(p + n - 3, "f16", 3) == 0)
                return p;
        }
    return NULL;
}

/* On the CPU, float16 min and max run in float32 (target_host.c, widen_half_minmax): x86
 * below AVX512-FP16 has no half min, and LLVM makes each element a call of libm's fminf or
 * fmaxf. A loop over N elements, which LLVM vectorises (the calls were per element there
 * too), computes out[j] = min(a[j], b[j]) and out[N + j] = max(a[j], b[j]); the values
 * include NaN (ignored), infinities and signed zeros. */
START_TEST(test_cpu_half_min_max_compute_in_float)
{
    enum { N = 64 };
    const tj_type *h = tjt_type(TJ_DTYPE_F16);
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "half_minmax", &o);
    tj_val *a = tj_param_array(k, "a", h, 1), *b = tj_param_array(k, "b", h, 1);
    tj_val *out = tj_param_array(k, "out", h, 1);
    tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0), tj_const_int(k, TJ_DTYPE_I32, N),
                             tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *x = tj_load(k, a, &j, 1), *y = tj_load(k, b, &j, 1);
    tj_store(k, out, &j, 1, tj_binary(k, TJ_BIN_MIN, x, y));
    tj_val *j2 = tj_binary(k, TJ_BIN_ADD, j, tj_const_int(k, TJ_DTYPE_I32, N));
    tj_store(k, out, &j2, 1, tj_binary(k, TJ_BIN_MAX, x, y));
    tj_for_end(k);
    tj_module *m = NULL;
    tj_build_options bo = {.keep_ir = true};
    ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(tjt.ctx));
    const char *ir = tj_module_get_ir(m);
    const char *left = half_minmax_call(ir);
    ck_assert_msg(!left, "a half min or max is left in the CPU IR: %.60s", left);
    ck_assert_msg(strstr(ir, "@llvm.minnum.") && strstr(ir, "@llvm.maxnum."),
                  "no float min or max in the CPU IR");
    const double v[] = {NAN, -INFINITY, -65504, -1.5, -0.0, 0.0, 0.25, 3, 65504, INFINITY};
    enum { NV = sizeof v / sizeof v[0] };
    uint16_t ha[N], hb[N], got[2 * N];
    for (int i = 0; i < N; i++) {
        ha[i] = (uint16_t)fbits(TJ_DTYPE_F16, v[i % NV]);
        hb[i] = (uint16_t)fbits(TJ_DTYPE_F16, v[(i / NV + 3 * i) % NV]);
    }
    tj_array *aa = tjt_array(tjt.cpu, h, N, ha), *ab = tjt_array(tjt.cpu, h, N, hb);
    tj_array *ao = tjt_array(tjt.cpu, h, 2 * N, NULL);
    tj_arg args[] = {tj_arg_array(aa), tj_arg_array(ab), tj_arg_array(ao)};
    int64_t one = 1;
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "half_minmax", 1, &one, 1, args, 3));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(ao, got, sizeof got));
    for (int i = 0; i < 2 * N; i++) {
        double x = fval(TJ_DTYPE_F16, ha[i % N]), y = fval(TJ_DTYPE_F16, hb[i % N]);
        double want = i < N ? fmin(x, y) : fmax(x, y), g = fval(TJ_DTYPE_F16, got[i]);
        /* -0 and +0 are interchangeable (LLVM minnum and maxnum) */
        ck_assert_msg(g == want || (isnan(g) && isnan(want)),
                      "%s(%g, %g) gave %g, expected %g", i < N ? "min" : "max", x, y, g, want);
    }
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    tj_array_destroy(ao);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

static TCase *
make_case(const char *name, void (*setup)(void))
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_loop_test(tc, test_unary_ops_match_c_reference, 0, nrows[F_UNARY]);
    tcase_add_loop_test(tc, test_binary_ops_match_c_reference, 0, nrows[F_BINARY]);
    tcase_add_loop_test(tc, test_comparisons_match_c_operators, 0, nrows[F_COMPARE]);
    tcase_add_loop_test(tc, test_fma_is_fused_and_matches_c_fma, 0, nrows[F_FMA]);
    tcase_add_loop_test(tc, test_select_picks_a_where_cond_else_b, 0, nrows[F_SELECT]);
    tcase_add_loop_test(tc, test_casts_between_all_dtypes_match_c_conversions, 0,
                        nrows[F_CAST]);
    return tc;
}

int
main(int argc, char **argv)
{
    make_rows();
    Suite *s = suite_create("scalar");
    TCase *cpu1 = make_case("cpu1", setup_cpu1);
    tcase_add_test(cpu1, test_cpu_half_min_max_compute_in_float);
    suite_add_tcase(s, cpu1);
    TCase *ptx = make_case("ptx", setup_ptx);
    tcase_add_test(ptx, test_gpu_float32_to_int32_casts_are_one_cvt);
    suite_add_tcase(s, ptx);
    TCase *cuda = make_case("cuda", setup_cuda);
    tcase_set_tags(cuda, "cuda");
    suite_add_tcase(s, cuda);
    return tj_test_main(argc, argv, s);
}
