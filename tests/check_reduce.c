/* tj-test: CUDA */
/*
 * tests/check_reduce.c: tile_reduce (SPEC 4) against references computed here in C.
 *
 *   whole tile: every operator (add, mul, min, max, bit_and/or/xor, a user function that
 *               keeps the value of larger magnitude) with every scalar type it accepts, tiles
 *               of 3, 37, 64 and 300 elements (smaller than, equal to and larger than the
 *               block), composites (vec2/3/4, mat22) and a struct with a user operator; every
 *               lane stores tile_extract(result, 0), so the value is checked in every lane.
 *   axis:       every axis of ranks 1-4, shapes (3,5), (4,1024) (with B = 64 groups of lanes
 *               share a slice), (2,3,4), (2,2,3,2); block widths 2, 31, 32, 33, 64, 256.
 *   partial blocks (SPEC 1): a launch whose thread count is not a multiple of B. An element
 *               counts only when the lane that owns it in the register layout (e % B) runs;
 *               a slice with no such element gives the operator's identity, and a user
 *               operator's empty slice is a kernel error in debug builds (zero otherwise).
 *   errors:     each build error with its exact message.
 *
 * Tolerances: integers, bools, min, max and the user operators are exact. float16 data is
 * chosen so that every partial sum and product is exact in any order (multiples of 1/2 or
 * powers of two), so float16 is exact too. Sums of float32 (float64) values come in an
 * unspecified order: |got - ref| <= 1e-5 (1e-12) * sum |x_i|, ref computed in double.
 * Products: |got - ref| <= 1e-5 (1e-12) * |ref|. NaN inputs are ignored by min and max.
 *
 * Test cases: cpu1 (width-1 CPU blocks), coop (cooperative CPU blocks of 2, 31, 32, 33,
 * 64 and 256 lanes, full and partial), ptx (the same kernels built for CUDA, assembled by
 * ptxas, and grepped for shfl.sync / bar.sync), cuda (the same kernels on the GPU),
 * errors (build errors).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"
#include "tj_where_test.h"

enum { TIMEOUT_S = 600 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const uint32_t widths[] = {2, 31, 32, 33, 64, 256};
enum { NWIDTHS = 6 };
static const int sizes[] = {3, 37, 64, 300};

static bool g_butterfly; /* the case coop_butterfly: TILEJIT_CPU_REDUCE=butterfly */

/* A context whose cooperative CPU blocks keep fibers (TILEJIT_CPU_LANES=fibers; lane loops
 * have no barrier calls to count), with the fixture's reduction algorithm. */
static tj_context *
fiber_context(void)
{
    ck_assert_int_eq(setenv("TILEJIT_CPU_LANES", "fibers", 1), 0);
    if (g_butterfly)
        ck_assert_int_eq(setenv("TILEJIT_CPU_REDUCE", "butterfly", 1), 0);
    tj_context *ctx = NULL;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    unsetenv("TILEJIT_CPU_LANES");
    unsetenv("TILEJIT_CPU_REDUCE");
    return ctx;
}

/* ---- dtypes and host values --------------------------------------------------------------- */

static const char *const op_names[] = {
    [TJ_REDUCE_ADD] = "add",         [TJ_REDUCE_MUL] = "mul",       [TJ_REDUCE_MIN] = "min",
    [TJ_REDUCE_MAX] = "max",         [TJ_REDUCE_BIT_AND] = "bit_and",
    [TJ_REDUCE_BIT_OR] = "bit_or",   [TJ_REDUCE_BIT_XOR] = "bit_xor",
    [TJ_REDUCE_FUNC] = "maxabs",
};

static const char *const dt_names[] = {
    [TJ_DTYPE_BOOL] = "bool",   [TJ_DTYPE_I8] = "int8",     [TJ_DTYPE_I16] = "int16",
    [TJ_DTYPE_I32] = "int32",   [TJ_DTYPE_I64] = "int64",   [TJ_DTYPE_U8] = "uint8",
    [TJ_DTYPE_U16] = "uint16",  [TJ_DTYPE_U32] = "uint32",  [TJ_DTYPE_U64] = "uint64",
    [TJ_DTYPE_F16] = "float16", [TJ_DTYPE_F32] = "float32", [TJ_DTYPE_F64] = "float64",
};

static bool
dt_float(tj_dtype dt)
{
    return dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64;
}

static bool
dt_signed(tj_dtype dt)
{
    return dt == TJ_DTYPE_I8 || dt == TJ_DTYPE_I16 || dt == TJ_DTYPE_I32 || dt == TJ_DTYPE_I64;
}

static size_t
dt_size(tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_BOOL:
    case TJ_DTYPE_I8:
    case TJ_DTYPE_U8:
        return 1;
    case TJ_DTYPE_I16:
    case TJ_DTYPE_U16:
    case TJ_DTYPE_F16:
        return 2;
    case TJ_DTYPE_I32:
    case TJ_DTYPE_U32:
    case TJ_DTYPE_F32:
        return 4;
    default:
        return 8;
    }
}

static int
dt_bits(tj_dtype dt)
{
    return dt == TJ_DTYPE_BOOL ? 1 : (int)dt_size(dt) * 8;
}

/* A host value: 'f' for float dtypes, 'i' (the bit pattern for uint64) for the others. */
typedef struct num {
    double f;
    int64_t i;
} num;

/* Wraps 'v' to the dtype (two's complement, as the JIT's integer arithmetic does). */
static int64_t
wrap(tj_dtype dt, uint64_t v)
{
    int bits = dt_bits(dt);
    if (bits == 64)
        return (int64_t)v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (dt_signed(dt) && ((v >> (bits - 1)) & 1))
        v |= ~mask;
    return (int64_t)v;
}

static double
round_to(tj_dtype dt, double x)
{
    if (dt == TJ_DTYPE_F16)
        return tjt_half_to_double(tjt_half_from_double(x));
    if (dt == TJ_DTYPE_F32)
        return (double)(float)x;
    return x;
}

static void
put_num(tj_dtype dt, void *base, int64_t idx, num v)
{
    char *p = (char *)base + (size_t)idx * dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_F16: {
        uint16_t h = tjt_half_from_double(v.f);
        memcpy(p, &h, 2);
        return;
    }
    case TJ_DTYPE_F32: {
        float f = (float)v.f;
        memcpy(p, &f, 4);
        return;
    }
    case TJ_DTYPE_F64:
        memcpy(p, &v.f, 8);
        return;
    case TJ_DTYPE_BOOL: {
        uint8_t b = v.i != 0;
        memcpy(p, &b, 1);
        return;
    }
    default:
        break;
    }
    switch (dt_size(dt)) {
    case 1: {
        uint8_t x = (uint8_t)v.i;
        memcpy(p, &x, 1);
        return;
    }
    case 2: {
        uint16_t x = (uint16_t)v.i;
        memcpy(p, &x, 2);
        return;
    }
    case 4: {
        uint32_t x = (uint32_t)v.i;
        memcpy(p, &x, 4);
        return;
    }
    default:
        memcpy(p, &v.i, 8);
    }
}

static num
get_num(tj_dtype dt, const void *base, int64_t idx)
{
    const char *p = (const char *)base + (size_t)idx * dt_size(dt);
    num v = {0};
    switch (dt) {
    case TJ_DTYPE_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        v.f = tjt_half_to_double(h);
        return v;
    }
    case TJ_DTYPE_F32: {
        float f;
        memcpy(&f, p, 4);
        v.f = f;
        return v;
    }
    case TJ_DTYPE_F64:
        memcpy(&v.f, p, 8);
        return v;
    default:
        break;
    }
    uint64_t x = 0;
    switch (dt_size(dt)) {
    case 1: {
        uint8_t y;
        memcpy(&y, p, 1);
        x = y;
        break;
    }
    case 2: {
        uint16_t y;
        memcpy(&y, p, 2);
        x = y;
        break;
    }
    case 4: {
        uint32_t y;
        memcpy(&y, p, 4);
        x = y;
        break;
    }
    default:
        memcpy(&x, p, 8);
    }
    v.i = wrap(dt, x);
    return v;
}

static char *
num_str(tj_dtype dt, num v, char *buf, size_t n)
{
    if (dt_float(dt))
        snprintf(buf, n, "%.9g", v.f);
    else if (dt_signed(dt))
        snprintf(buf, n, "%lld", (long long)v.i);
    else
        snprintf(buf, n, "%llu", (unsigned long long)(uint64_t)v.i);
    return buf;
}

static uint64_t
mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Input element 'j' for operator 'op' on 'dt'; 'salt' varies the data between tensors. */
static num
gen(tj_reduce_op op, tj_dtype dt, int64_t j, int salt)
{
    uint64_t h = mix((uint64_t)j * 1000003u + (uint64_t)op * 7919u + (uint64_t)dt * 31u +
                     (uint64_t)salt * 104729u);
    num v = {0};
    double sign = (h >> 40) & 1 ? -1.0 : 1.0;
    if (dt_float(dt)) {
        double x;
        switch (op) {
        case TJ_REDUCE_ADD:
            x = dt == TJ_DTYPE_F16 ? (double)((int)(h % 11) - 5) / 2
                                   : ((double)(h % 2001) - 1000) / 7.0;
            break;
        case TJ_REDUCE_MUL:
            x = j % 3 == 0 ? -1.0 : 1.0;
            if (j % 97 == 4)
                x *= 2;
            if (j % 89 == 9)
                x *= 0.5;
            if (dt != TJ_DTYPE_F16 && j % 4 == 1)
                x *= 1 + (double)(h % 7) / 64;
            break;
        case TJ_REDUCE_MIN:
        case TJ_REDUCE_MAX:
            x = j % 41 == 7 ? NAN : ((double)(h % 1999) - 999) / 4;
            break;
        default: /* maxabs: distinct magnitudes for up to 1009 elements */
            x = sign * (double)(1 + (j * 37) % 1009) / 2;
            break;
        }
        v.f = round_to(dt, x);
        return v;
    }
    if (dt == TJ_DTYPE_BOOL) {
        v.i = op == TJ_REDUCE_BIT_AND ? h % 16 != 0 : op == TJ_REDUCE_BIT_OR ? h % 16 == 0 : h & 1;
        return v;
    }
    int bits = dt_bits(dt);
    uint64_t x;
    switch (op) {
    case TJ_REDUCE_ADD:
        x = dt_signed(dt) ? (uint64_t)((int64_t)(h % 201) - 100) : h % 201;
        if (bits == 64)
            x += ((h >> 32) % 4) << 40;
        break;
    case TJ_REDUCE_MUL: {
        int64_t y = dt_signed(dt) && j % 3 == 0 ? -1 : 1;
        if (j % 5 == 2)
            y *= 3;
        if (j % 7 == 3)
            y *= 2;
        x = (uint64_t)y;
        break;
    }
    case TJ_REDUCE_BIT_AND:
        x = j % 4 == 0 ? ~(UINT64_C(1) << ((h >> 8) % (uint64_t)bits)) : ~UINT64_C(0);
        break;
    case TJ_REDUCE_BIT_OR:
        x = j % 4 == 0 ? UINT64_C(1) << ((h >> 8) % (uint64_t)bits) : 0;
        break;
    case TJ_REDUCE_FUNC: /* signed types only: distinct magnitudes for up to 4093 elements */
        x = (uint64_t)((sign < 0 ? -1 : 1) * (int64_t)(1 + (j * 37) % 4093));
        break;
    default: /* min, max, xor: anything */
        x = h;
        break;
    }
    v.i = wrap(dt, x);
    return v;
}

static bool
is_nan_num(tj_dtype dt, num v)
{
    return dt_float(dt) && isnan(v.f);
}

static num
combine(tj_reduce_op op, tj_dtype dt, num a, num b)
{
    num r = {0};
    if (dt_float(dt)) {
        switch (op) {
        case TJ_REDUCE_ADD:
            r.f = a.f + b.f;
            break;
        case TJ_REDUCE_MUL:
            r.f = a.f * b.f;
            break;
        case TJ_REDUCE_MIN:
            r.f = fmin(a.f, b.f);
            break;
        case TJ_REDUCE_MAX:
            r.f = fmax(a.f, b.f);
            break;
        default:
            r.f = fabs(a.f) >= fabs(b.f) ? a.f : b.f;
            break;
        }
        return r;
    }
    uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;
    bool sg = dt_signed(dt);
    switch (op) {
    case TJ_REDUCE_ADD:
        r.i = wrap(dt, x + y);
        break;
    case TJ_REDUCE_MUL:
        r.i = wrap(dt, x * y);
        break;
    case TJ_REDUCE_MIN:
        r.i = sg ? (a.i < b.i ? a.i : b.i) : (int64_t)(x < y ? x : y);
        break;
    case TJ_REDUCE_MAX:
        r.i = sg ? (a.i > b.i ? a.i : b.i) : (int64_t)(x > y ? x : y);
        break;
    case TJ_REDUCE_BIT_AND:
        r.i = wrap(dt, x & y);
        break;
    case TJ_REDUCE_BIT_OR:
        r.i = wrap(dt, x | y);
        break;
    case TJ_REDUCE_BIT_XOR:
        r.i = wrap(dt, x ^ y);
        break;
    default:
        r.i = llabs(a.i) >= llabs(b.i) ? a.i : b.i;
        break;
    }
    return r;
}

/* The identity of a builtin operator (SPEC 4); zero for user operators. */
static num
identity(tj_reduce_op op, tj_dtype dt)
{
    num v = {0};
    bool fl = dt_float(dt);
    int bits = dt_bits(dt);
    switch (op) {
    case TJ_REDUCE_MUL:
        v.f = 1;
        v.i = 1;
        break;
    case TJ_REDUCE_MIN:
        v.f = INFINITY;
        v.i = dt_signed(dt) ? wrap(dt, (UINT64_C(1) << (bits - 1)) - 1) : wrap(dt, ~UINT64_C(0));
        break;
    case TJ_REDUCE_MAX:
        v.f = -INFINITY;
        v.i = dt_signed(dt) ? wrap(dt, UINT64_C(1) << (bits - 1)) : 0;
        break;
    case TJ_REDUCE_BIT_AND:
        v.i = wrap(dt, ~UINT64_C(0));
        break;
    default:
        break;
    }
    if (!fl)
        v.f = 0;
    return v;
}

/* A fold that remembers whether it saw anything and the magnitude of its terms. */
typedef struct fold {
    tj_reduce_op op;
    tj_dtype dt;
    num acc;
    bool any;
    double mag;
} fold;

static void
fold_in(fold *f, num x)
{
    if (is_nan_num(f->dt, x) && (f->op == TJ_REDUCE_MIN || f->op == TJ_REDUCE_MAX)) {
        if (!f->any) {
            f->acc = x;
            f->any = true;
        }
        return; /* fmin/fmax: NaN loses to any number; a NaN accumulator is replaced below */
    }
    if (dt_float(f->dt))
        f->mag += fabs(x.f);
    if (!f->any || is_nan_num(f->dt, f->acc))
        f->acc = x;
    else
        f->acc = combine(f->op, f->dt, f->acc, x);
    f->any = true;
}

static num
fold_result(const fold *f)
{
    return f->any ? f->acc : identity(f->op, f->dt);
}

static double
tolerance(tj_dtype dt)
{
    return dt == TJ_DTYPE_F64 ? 1e-12 : dt == TJ_DTYPE_F32 ? 1e-5 : 0.0;
}

static bool
matches(const fold *f, num got)
{
    num want = fold_result(f);
    if (!dt_float(f->dt))
        return got.i == want.i;
    if (isnan(want.f) || isinf(want.f))
        return isnan(want.f) ? isnan(got.f) : got.f == want.f;
    double scale = f->op == TJ_REDUCE_ADD ? f->mag : f->op == TJ_REDUCE_MUL ? fabs(want.f) : 0;
    return fabs(got.f - want.f) <= tolerance(f->dt) * scale;
}

/* ---- user operators ------------------------------------------------------------------------ */

/* maxabs(a, b) = |a| >= |b| ? a : b: associative, and commutative on distinct magnitudes. */
static tj_func *
maxabs_func(const tj_type *t, const tj_kernel_options *o)
{
    tj_func *f = tj_func_create(tjt.ctx, "maxabs", t, o);
    tj_val *a = tj_param(f, "a", t), *b = tj_param(f, "b", t);
    tj_val *pick = tj_compare(f, TJ_CMP_GE, tj_unary(f, TJ_UN_ABS, a), tj_unary(f, TJ_UN_ABS, b));
    tj_return(f, tj_select(f, pick, a, b));
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

/* sub(a, b) = a - b: not commutative; it builds and runs, its value is not checked. */
static tj_func *
sub_func(const tj_type *t, const tj_kernel_options *o)
{
    tj_func *f = tj_func_create(tjt.ctx, "sub", t, o);
    tj_val *a = tj_param(f, "a", t), *b = tj_param(f, "b", t);
    tj_return(f, tj_binary(f, TJ_BIN_SUB, a, b));
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

/* ---- whole tile: every operator and scalar dtype -------------------------------------------- */

typedef struct rrow {
    tj_reduce_op op;
    tj_dtype dt;
} rrow;

static rrow whole_rows[96];
static int nwhole;

/* Every scalar type each builtin operator accepts (SPEC 4): arithmetic and min/max take
 * every numeric type, the bitwise operators bool and the integers; the user operator runs
 * on signed integers and floats. */
static void
init_whole_rows(void)
{
    nwhole = 0;
    for (int op = TJ_REDUCE_ADD; op <= TJ_REDUCE_BIT_XOR; op++)
        for (int dt = TJ_DTYPE_BOOL; dt <= TJ_DTYPE_F64; dt++) {
            bool bitwise = op >= TJ_REDUCE_BIT_AND;
            if (bitwise ? dt_float((tj_dtype)dt) : dt == TJ_DTYPE_BOOL)
                continue;
            whole_rows[nwhole++] = (rrow){(tj_reduce_op)op, (tj_dtype)dt};
        }
    static const tj_dtype fdts[] = {TJ_DTYPE_I16, TJ_DTYPE_I32, TJ_DTYPE_I64, TJ_DTYPE_F16,
                                    TJ_DTYPE_F32, TJ_DTYPE_F64};
    for (int i = 0; i < NROWS(fdts); i++)
        whole_rows[nwhole++] = (rrow){TJ_REDUCE_FUNC, fdts[i]};
}

/* out[g] = tile_extract(tile_reduce(op, tile_load(x, S, offset = block * S)), 0): every
 * thread stores the result it sees. */
static tj_kernel *
whole_kernel(tj_reduce_op op, tj_func *f, const tj_type *t, int S, const tj_kernel_options *o)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "whole", o);
    tj_val *x = tj_param_array(k, "x", t, 1);
    tj_val *out = tj_param_array(k, "out", t, 1);
    tj_val *g;
    tj_tid(k, 1, &g);
    tj_val *blk = tj_binary(k, TJ_BIN_DIV, g, tj_block_dim(k));
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, ci(k, S));
    tj_val *tile = tj_tile_load(k, x, 1, &S, &off, TJ_STORAGE_REGISTER);
    tj_val *r = tj_tile_reduce(k, op, f, tile);
    tj_val *zero = ci(k, 0);
    tj_store(k, out, &g, 1, tj_tile_extract(k, r, &zero, 1));
    return k;
}

/* The result thread g sees: blocks of W lanes, 'n' threads, tile of block b at x[b * S]. */
static fold
whole_ref(tj_reduce_op op, tj_dtype dt, const void *x, int S, int64_t W, int64_t n, int64_t g)
{
    int64_t b = g / W, active = n - b * W < W ? n - b * W : W;
    fold f = {.op = op, .dt = dt};
    for (int64_t e = 0; e < S; e++)
        if (e % W < active)
            fold_in(&f, get_num(dt, x, b * S + e));
    return f;
}

static void
check_whole(const rrow *r, const void *x, const void *got, int S, uint32_t W, int64_t n,
            int64_t total)
{
    char a[64], b[64];
    for (int64_t g = 0; g < total; g++) {
        num v = get_num(r->dt, got, g);
        if (g >= n) {
            ck_assert_msg(v.i == 0 && v.f == 0, "%s %s: thread %lld did not run but wrote %s",
                          op_names[r->op], dt_names[r->dt], (long long)g,
                          num_str(r->dt, v, a, sizeof a));
            continue;
        }
        fold f = whole_ref(r->op, r->dt, x, S, W, n, g);
        ck_assert_msg(matches(&f, v),
                      "%s over %d %s, B = %u, %lld threads: thread %lld (block %lld, lane %lld) "
                      "got %s, expected %s",
                      op_names[r->op], S, dt_names[r->dt], W, (long long)n, (long long)g,
                      (long long)(g / W), (long long)(g % W), num_str(r->dt, v, a, sizeof a),
                      num_str(r->dt, fold_result(&f), b, sizeof b));
    }
}

/* Builds the kernel for row 'r', then (not for ptx) launches 3 full blocks, and in
 * cooperative mode also 2 full blocks and a partial one on a single worker thread, so
 * that the partial block runs in an arena that full blocks have used. */
static void
run_whole(const rrow *r, int S, uint32_t B)
{
    tj_kernel_options o = opts_for(B, false);
    const tj_type *t = tjt_type(r->dt);
    tj_func *f = r->op == TJ_REDUCE_FUNC ? maxabs_func(t, &o) : NULL;
    tj_kernel *k = whole_kernel(r->op, f, t, S, &o);
    tj_func_destroy(f);
    tj_module *m = build(k);
    if (!runs()) {
        /* a tile of at most 32 elements, smaller than the block, combines through shared
         * scratch (reduce.c, small_combine); larger ones shuffle */
        bool small = S < (int)B && S <= 32;
        ptx_has(m, "shfl.sync", !small);
        ptx_has(m, "bar.sync", B > 32 || small);
        /* the member mask is the warp's running lanes, never %activemask (target_nvptx.c) */
        ptx_has(m, "activemask", false);
        tj_module_destroy(m);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 3;
    size_t es = dt_size(r->dt);
    int64_t total = nblocks * (int64_t)W;
    void *x = calloc((size_t)(nblocks * S), es), *got = calloc((size_t)total, es);
    ck_assert(x && got);
    for (int64_t j = 0; j < nblocks * S; j++)
        put_num(r->dt, x, j, gen(r->op, r->dt, j, S));
    tj_array *xa = tjt_array(device(), t, nblocks * S, x);
    tj_array *oa = tjt_array(device(), t, total, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    launch_n(m, "whole", total, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)total * es));
    check_whole(r, x, got, S, W, total, total);
    if (W > 1) {
        int64_t n = 2 * (int64_t)W + W / 3 + 1;
        if (g_where == ON_COOP)
            tjt_ok(device(), tj_device_set_cpu_threads(device(), 1));
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "whole", n, B, args, 2);
        tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)total * es));
        check_whole(r, x, got, S, W, n, total);
    }
    tj_array_destroy(xa);
    tj_array_destroy(oa);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    free(x);
    free(got);
}

/* Each row at one width and size, cycling through both (so every operator meets every
 * width); the next test crosses every width with every size. */
START_TEST(test_reduce_whole_tile_matches_reference_for_every_operator_and_dtype)
{
    g_where = _i / STRIDE;
    int row = _i % STRIDE;
    uint32_t B = widths[row % NWIDTHS];
    int S = sizes[(row / NWIDTHS + row) % NROWS(sizes)];
    run_whole(&whole_rows[row], S, B);
}
END_TEST

/* Every width with every size, for one integer and one float operator. */
START_TEST(test_reduce_whole_tile_every_width_and_size)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    static const rrow rows[] = {{TJ_REDUCE_ADD, TJ_DTYPE_I32}, {TJ_REDUCE_MIN, TJ_DTYPE_F32}};
    int nsz = NROWS(sizes);
    if (g_where == ON_PTX) /* the PTX does not depend on the size: one per width */
        local = local * nsz + (local % nsz);
    const rrow *r = &rows[local / (NWIDTHS * nsz)];
    uint32_t B = widths[(local / nsz) % NWIDTHS];
    run_whole(r, sizes[local % nsz], B);
}
END_TEST

/* ---- whole tile: composites and a struct ------------------------------------------------ */

typedef struct crow {
    tj_reduce_op op;
    tj_type_kind kind;
    tj_dtype dt;
    int rows, cols;
} crow;

static const crow comp_rows[] = {
    {TJ_REDUCE_ADD, TJ_TYPE_VECTOR, TJ_DTYPE_F32, 3, 1},
    {TJ_REDUCE_ADD, TJ_TYPE_MATRIX, TJ_DTYPE_F32, 2, 2},
    {TJ_REDUCE_ADD, TJ_TYPE_VECTOR, TJ_DTYPE_I32, 3, 1},
    {TJ_REDUCE_ADD, TJ_TYPE_VECTOR, TJ_DTYPE_F64, 2, 1},
    {TJ_REDUCE_MUL, TJ_TYPE_VECTOR, TJ_DTYPE_F32, 3, 1},
    {TJ_REDUCE_MIN, TJ_TYPE_VECTOR, TJ_DTYPE_F32, 4, 1},
    {TJ_REDUCE_MAX, TJ_TYPE_MATRIX, TJ_DTYPE_F64, 2, 2},
};

static const tj_type *
comp_type(const crow *c)
{
    return c->kind == TJ_TYPE_VECTOR ? tj_context_get_vector_type(tjt.ctx, c->dt, c->rows)
                                     : tj_context_get_matrix_type(tjt.ctx, c->dt, c->rows, c->cols);
}

/* Each component folds like a scalar of its dtype; mul on composites is componentwise. */
START_TEST(test_reduce_whole_tile_of_composites_matches_reference)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool two = g_where == ON_COOP || g_where == ON_CUDA;
    int row = two ? local / 2 : local, pick = two ? local % 2 : 0;
    const crow *c = &comp_rows[row];
    uint32_t B = widths[(row + 3 * pick) % NWIDTHS];
    int S = sizes[(row + pick) % NROWS(sizes)];
    const tj_type *t = comp_type(c);
    int nc = c->rows * c->cols;
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = whole_kernel(c->op, NULL, t, S, &o);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "shfl.sync", !(S < (int)B && S <= 32)); /* see run_whole */
        return;
    }
    uint32_t W = width_of(B);
    int64_t total = 2 * (int64_t)W, n = W > 1 ? total - 1 : total;
    size_t es = dt_size(c->dt);
    void *x = calloc((size_t)(2 * S * nc), es), *got = calloc((size_t)(total * nc), es);
    ck_assert(x && got);
    for (int64_t j = 0; j < 2 * S * nc; j++)
        put_num(c->dt, x, j, gen(c->op, c->dt, j, 1));
    tj_array *xa = tjt_array(device(), t, 2 * S, x);
    tj_array *oa = tjt_array(device(), t, total, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    launch_n(m, "whole", n, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)(total * nc) * es));
    char a[64], b[64];
    for (int64_t g = 0; g < n; g++) {
        int64_t blk = g / W, active = n - blk * W < W ? n - blk * W : W;
        for (int comp = 0; comp < nc; comp++) {
            fold f = {.op = c->op, .dt = c->dt};
            for (int64_t e = 0; e < S; e++)
                if (e % W < active)
                    fold_in(&f, get_num(c->dt, x, (blk * S + e) * nc + comp));
            num v = get_num(c->dt, got, g * nc + comp);
            ck_assert_msg(matches(&f, v), "%s over %d %s, B = %u: thread %lld component %d got "
                          "%s, expected %s", op_names[c->op], S, tj_type_get_name(t), W,
                          (long long)g, comp, num_str(c->dt, v, a, sizeof a),
                          num_str(c->dt, fold_result(&f), b, sizeof b));
        }
    }
    free(x);
    free(got);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* A struct {float32 v; int32 idx} reduced with a user argmax (ties: the smaller idx). */
typedef struct argmax_c {
    float v;
    int32_t idx;
} argmax_c;

static const tj_type *
argmax_type(void)
{
    const tj_field fields[] = {{"v", tjt_type(TJ_DTYPE_F32)}, {"idx", tjt_type(TJ_DTYPE_I32)}};
    const tj_type *t = tj_context_new_struct_type(tjt.ctx, "argmax_pair", fields, 2);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(tj_type_get_size(t), sizeof(argmax_c));
    return t;
}

static tj_func *
argmax_func(const tj_type *t, const tj_kernel_options *o)
{
    tj_func *f = tj_func_create(tjt.ctx, "argmax", t, o);
    tj_val *a = tj_param(f, "a", t), *b = tj_param(f, "b", t);
    tj_val *av = tj_get_field(f, a, "v"), *bv = tj_get_field(f, b, "v");
    tj_val *tie = tj_binary(f, TJ_BIN_AND, tj_compare(f, TJ_CMP_EQ, av, bv),
                            tj_compare(f, TJ_CMP_LT, tj_get_field(f, a, "idx"),
                                       tj_get_field(f, b, "idx")));
    tj_val *pick = tj_binary(f, TJ_BIN_OR, tj_compare(f, TJ_CMP_GT, av, bv), tie);
    tj_return(f, tj_select(f, pick, a, b));
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

START_TEST(test_reduce_whole_tile_of_structs_with_a_user_operator)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    const int S = 100;
    const tj_type *t = argmax_type();
    tj_kernel_options o = opts_for(B, false);
    tj_func *f = argmax_func(t, &o);
    tj_kernel *k = whole_kernel(TJ_REDUCE_FUNC, f, t, S, &o);
    tj_func_destroy(f);
    tj_module *m = build(k);
    if (!runs())
        return;
    uint32_t W = width_of(B);
    int64_t total = 2 * (int64_t)W, n = W > 1 ? total - 1 : total;
    argmax_c x[2 * S];
    argmax_c *got = calloc((size_t)total, sizeof *got);
    ck_assert_ptr_nonnull(got);
    for (int j = 0; j < 2 * S; j++) /* few distinct values: many ties */
        x[j] = (argmax_c){.v = (float)((int)(mix((uint64_t)j) % 9) - 4) / 2, .idx = 1000 - j};
    tj_array *xa = tjt_array(device(), t, 2 * S, x);
    tj_array *oa = tjt_array(device(), t, total, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    launch_n(m, "whole", n, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)total * sizeof *got));
    for (int64_t g = 0; g < n; g++) {
        int64_t blk = g / W, active = n - blk * W < W ? n - blk * W : W;
        argmax_c best = {0};
        bool any = false;
        for (int e = 0; e < S; e++) {
            argmax_c c = x[blk * S + e];
            if (e % W < active &&
                (!any || c.v > best.v || (c.v == best.v && c.idx < best.idx))) {
                best = c;
                any = true;
            }
        }
        ck_assert_msg(got[g].v == best.v && got[g].idx == best.idx,
                      "B = %u: thread %lld got {%g, %d}, expected {%g, %d}", W, (long long)g,
                      (double)got[g].v, got[g].idx, (double)best.v, best.idx);
    }
    free(got);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* tile(x) of each lane's value, reduced: every lane of the block sees the same total, also
 * when the builtin right after the reduction publishes through the scratch at once: on the
 * CPU lane 0, which runs first, reads the total and goes on to publish its own element for
 * tile_extract before the other lanes read the total (which is why the total lives in a
 * slot of its own, builtins/reduce.c). A sum of int64 (a neutral start) and a max of
 * float32 (no neutral value: flags), each followed by an extract of lane 0's element of a
 * register tile. */
START_TEST(test_reduce_of_lane_values_reaches_every_lane)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "lanes", &o);
    const tj_type *i64 = tjt_type(TJ_DTYPE_I64), *f32 = tjt_type(TJ_DTYPE_F32);
    tj_val *out = tj_param_array(k, "out", i64, 1);
    tj_val *g;
    tj_tid(k, 1, &g);
    tj_val *lane = tj_binary(k, TJ_BIN_MOD, g, tj_block_dim(k));
    tj_val *v = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, lane, lane), ci(k, 7));
    tj_val *vt = tj_tile(k, tj_cast(k, v, i64), false), *ft = tj_tile(k, tj_cast(k, v, f32), false);
    tj_val *zero = ci(k, 0);
    tj_val *got[4];
    got[0] = tj_tile_extract(k, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, vt), &zero, 1);
    got[1] = tj_tile_extract(k, vt, &zero, 1);
    tj_val *mx = tj_tile_reduce(k, TJ_REDUCE_MAX, NULL, ft);
    got[2] = tj_cast(k, tj_tile_extract(k, mx, &zero, 1), i64);
    got[3] = tj_cast(k, tj_tile_extract(k, ft, &zero, 1), i64);
    for (int j = 0; j < 4; j++) {
        tj_val *at = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, g, ci(k, 4)), ci(k, j));
        tj_store(k, out, &at, 1, got[j]);
    }
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "shfl.sync", true);
        return;
    }
    uint32_t W = width_of(B);
    const int64_t counts[] = {3 * (int64_t)W, 2 * (int64_t)W + 1, 2 * (int64_t)W + W - 1};
    int64_t total = 3 * (int64_t)W;
    int64_t *res = calloc((size_t)total * 4, sizeof *res);
    ck_assert_ptr_nonnull(res);
    tj_array *oa = tjt_array(device(), i64, total * 4, NULL);
    tj_arg args[] = {tj_arg_array(oa)};
    for (int c = 0; c < 3; c++) {
        int64_t n = counts[c];
        if (g_where == ON_COOP && c == 1)
            tjt_ok(device(), tj_device_set_cpu_threads(device(), 1));
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "lanes", n, B, args, 1);
        tjt_ok(device(), tj_array_copy_to_host(oa, res, (size_t)total * 4 * sizeof *res));
        for (int64_t t = 0; t < total; t++) {
            int64_t blk = t / W, active = n - blk * W < W ? n - blk * W : W;
            int64_t want[4] = {0, 7, 0, 7};
            for (int64_t l = 0; l < active; l++) {
                want[0] += l * l + 7;
                want[2] = l * l + 7;
            }
            for (int j = 0; j < 4; j++) {
                int64_t w = t < n ? want[j] : 0;
                ck_assert_msg(res[4 * t + j] == w,
                              "B = %u, %lld threads: thread %lld value %d is %lld, expected %lld",
                              W, (long long)n, (long long)t, j, (long long)res[4 * t + j],
                              (long long)w);
            }
        }
    }
    free(res);
    tj_array_destroy(oa);
}
END_TEST

/* A reduction result is a register tile like any other (SPEC 3): a builtin that needs its
 * tile in shared memory moves it there where it was made, its lane 0 writing the element
 * every lane holds. Four results of tile(l * l + 7) over the lanes: one scatter-added into
 * (each running lane adds 1), one reduced along its axis, one viewed as a window, one
 * assigned into; every thread reads each back with tile_extract. Full and partial blocks. */
START_TEST(test_reduce_results_move_to_shared_memory_for_the_builtins_that_need_it)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "promoted", &o);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *vt = tj_tile(k, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lane, lane), ci(k, 7)), false);
    tj_val *zero = ci(k, 0);
    tj_val *sum = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, vt);
    ck_assert(tj_tile_scatter_add(k, sum, &zero, 1, ci(k, 1), tj_const_bool(k, true), NULL));
    tj_val *max = tj_tile_reduce(k, TJ_REDUCE_MAX, NULL, vt);
    tj_val *max_axis = tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, max, 0);
    tj_view_index at0 = tj_view_at(zero);
    static const int one[] = {1};
    tj_val *min = tj_tile_view(k, tj_tile_reduce(k, TJ_REDUCE_MIN, NULL, vt), &at0, 1, one, 1);
    tj_val *set = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, vt);
    ck_assert(tj_tile_assign(k, set, tj_tile_arange(k, 5, 6, 1, i32, TJ_STORAGE_REGISTER), NULL));
    tj_val *got[] = {sum, max_axis, min, set};
    for (int j = 0; j < 4; j++) {
        tj_val *at = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, g, ci(k, 4)), ci(k, j));
        tj_store(k, out, &at, 1, tj_tile_extract(k, got[j], &zero, 1));
    }
    tj_module *m = build(k);
    if (!runs())
        return;
    uint32_t W = width_of(B);
    const int64_t counts[] = {3 * (int64_t)W, 2 * (int64_t)W + 1};
    int64_t total = 3 * (int64_t)W;
    int32_t *res = calloc((size_t)total * 4, sizeof *res);
    ck_assert_ptr_nonnull(res);
    tj_array *oa = tjt_array(device(), i32, total * 4, NULL);
    tj_arg args[] = {tj_arg_array(oa)};
    for (int c = 0; c < 2; c++) {
        int64_t n = counts[c];
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "promoted", n, B, args, 1);
        tjt_ok(device(), tj_array_copy_to_host(oa, res, (size_t)total * 4 * sizeof *res));
        for (int64_t t = 0; t < total; t++) {
            int64_t active = active_in(n, W, t / W);
            int64_t want[4] = {active, (active - 1) * (active - 1) + 7, 7, 5};
            for (int64_t l = 0; l < active; l++)
                want[0] += l * l + 7;
            for (int j = 0; j < 4; j++) {
                int64_t w = t < n ? want[j] : 0;
                ck_assert_msg(res[4 * t + j] == w,
                              "B = %u, %lld threads: thread %lld value %d is %d, expected %lld",
                              W, (long long)n, (long long)t, j, res[4 * t + j], (long long)w);
            }
        }
    }
    free(res);
    tj_array_destroy(oa);
}
END_TEST

/* Adding -0.0 values gives -0.0 (IEEE 754): a sum starts from -0.0, the value that adding
 * leaves unchanged, not from +0.0 (+0.0 + -0.0 is +0.0). The whole 4 x 8 tile and each of
 * its rows, reduced in float32 and float64, keep the sign. */
START_TEST(test_reduce_sums_of_negative_zeros_are_negative_zero)
{
    g_where = _i / STRIDE;
    int row = _i % STRIDE;
    uint32_t B = widths[row % NWIDTHS];
    tj_dtype dt = row / NWIDTHS ? TJ_DTYPE_F64 : TJ_DTYPE_F32;
    const tj_type *t = tjt_type(dt);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "negzero", &o);
    tj_val *x = tj_param_array(k, "x", t, 1), *y = tj_param_array(k, "y", t, 1);
    tj_val *z = tj_param_array(k, "z", t, 1);
    int n = 32, shape[2] = {4, 8};
    tj_val *zero = ci(k, 0);
    tj_val *tile = tj_tile_reshape(k, tj_tile_load(k, x, 1, &n, &zero, TJ_STORAGE_REGISTER), 2,
                                   shape);
    tj_tile_store(k, y, tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, tile, 1), &zero);
    tj_store(k, z, &zero, 1,
             tj_tile_extract(k, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, tile), &zero, 1));
    tj_module *m = build(k);
    if (!runs())
        return;
    double host[32];
    for (int i = 0; i < 32; i++)
        host[i] = -0.0;
    float hostf[32];
    for (int i = 0; i < 32; i++)
        hostf[i] = -0.0f;
    const void *src = dt == TJ_DTYPE_F64 ? (const void *)host : (const void *)hostf;
    tj_array *xa = tjt_array(device(), t, 32, src), *ya = tjt_array(device(), t, 4, NULL);
    tj_array *za = tjt_array(device(), t, 1, NULL);
    tjt_ok(device(), tj_array_zero(ya));
    tjt_ok(device(), tj_array_zero(za));
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya), tj_arg_array(za)};
    launch_n(m, "negzero", width_of(B), B, args, 3);
    double got[5];
    if (dt == TJ_DTYPE_F64) {
        tjt_ok(device(), tj_array_copy_to_host(ya, got, 4 * sizeof(double)));
        tjt_ok(device(), tj_array_copy_to_host(za, got + 4, sizeof(double)));
    } else {
        float g[5];
        tjt_ok(device(), tj_array_copy_to_host(ya, g, 4 * sizeof(float)));
        tjt_ok(device(), tj_array_copy_to_host(za, g + 4, sizeof(float)));
        for (int i = 0; i < 5; i++)
            got[i] = g[i];
    }
    for (int i = 0; i < 5; i++)
        ck_assert_msg(got[i] == 0.0 && signbit(got[i]),
                      "%s, B = %u: the sum of %s of -0.0 gave %+g, expected -0", dt_names[dt],
                      width_of(B), i < 4 ? "a row" : "the tile", got[i]);
    tj_array_destroy(xa);
    tj_array_destroy(ya);
    tj_array_destroy(za);
}
END_TEST

/* A non-commutative user operator (sub) builds and runs; its value is unspecified. */
START_TEST(test_reduce_non_commutative_operator_builds_and_runs)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    tj_kernel_options o = opts_for(B, false);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_func *f = sub_func(f32, &o);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "subs", &o);
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    int shape[2] = {5, 7};
    tj_val *t = tj_tile_load(k, x, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k, out, tj_tile_reduce(k, TJ_REDUCE_FUNC, f, t), NULL);
    tj_val *off = ci(k, 1);
    tj_tile_store(k, out, tj_tile_reduce_axis(k, TJ_REDUCE_FUNC, f, t, 1), &off);
    tj_func_destroy(f);
    tj_module *m = build(k);
    if (!runs())
        return;
    float host[35];
    for (int j = 0; j < 35; j++)
        host[j] = (float)j;
    int64_t dims[2] = {5, 7}, one = 1;
    tj_array *xa = NULL;
    tjt_ok(device(), tj_array_create(device(), f32, 2, dims, &xa));
    tjt_ok(device(), tj_array_copy_from_host(xa, host, sizeof host));
    tj_array *oa = tjt_array(device(), f32, 6, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    tjt_ok(device(), tj_launch_tiled(device(), m, "subs", 1, &one, B, args, 2));
    float got[6];
    tjt_ok(device(), tj_array_copy_to_host(oa, got, sizeof got));
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* ---- along an axis ------------------------------------------------------------------------ */

typedef struct arow {
    int rank;
    int shape[4];
    int axis;
    tj_reduce_op op;
    tj_dtype dt;
} arow;

static const arow axis_rows[] = {
    {1, {37}, 0, TJ_REDUCE_ADD, TJ_DTYPE_F16},
    {1, {40}, 0, TJ_REDUCE_BIT_AND, TJ_DTYPE_U64},
    {2, {3, 5}, 0, TJ_REDUCE_ADD, TJ_DTYPE_F32},
    {2, {3, 5}, 1, TJ_REDUCE_MUL, TJ_DTYPE_I32},
    {2, {4, 8}, 1, TJ_REDUCE_MUL, TJ_DTYPE_F32}, /* the longest slice folded without a loop */
    {2, {4, 9}, 1, TJ_REDUCE_ADD, TJ_DTYPE_I32}, /* the shortest folded in one */
    {2, {4, 1024}, 0, TJ_REDUCE_MAX, TJ_DTYPE_F64},
    {2, {4, 1024}, 1, TJ_REDUCE_ADD, TJ_DTYPE_F32},
    {2, {4, 1024}, 1, TJ_REDUCE_MIN, TJ_DTYPE_I64},
    {3, {2, 3, 4}, 0, TJ_REDUCE_MIN, TJ_DTYPE_I16},
    {3, {2, 3, 4}, 1, TJ_REDUCE_BIT_XOR, TJ_DTYPE_U32},
    {3, {2, 3, 4}, 2, TJ_REDUCE_FUNC, TJ_DTYPE_F32},
    {4, {2, 2, 3, 2}, 0, TJ_REDUCE_ADD, TJ_DTYPE_I64},
    {4, {2, 2, 3, 2}, 1, TJ_REDUCE_MAX, TJ_DTYPE_U8},
    {4, {2, 2, 3, 2}, 2, TJ_REDUCE_MUL, TJ_DTYPE_F64},
    {4, {2, 2, 3, 2}, 3, TJ_REDUCE_BIT_OR, TJ_DTYPE_I8},
};

/* out = tile_reduce(op, tile_load(x, shape), axis), stored by the lanes owning the output. */
static tj_kernel *
axis_kernel(const char *name, const arow *r, const tj_kernel_options *o)
{
    const tj_type *t = tjt_type(r->dt);
    tj_func *f = r->op == TJ_REDUCE_FUNC ? maxabs_func(t, o) : NULL;
    int orank = r->rank == 1 ? 1 : r->rank - 1;
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, o);
    tj_val *x = tj_param_array(k, "x", t, r->rank);
    tj_val *out = tj_param_array(k, "out", t, orank);
    tj_val *tile = tj_tile_load(k, x, r->rank, r->shape, NULL, TJ_STORAGE_REGISTER);
    tj_val *res = tj_tile_reduce_axis(k, r->op, f, tile, r->axis);
    ck_assert_int_eq(tj_tile_get_rank(res), orank);
    tj_tile_store(k, out, res, NULL);
    tj_func_destroy(f);
    return k;
}

typedef struct axis_geom {
    int64_t size, nout, len;
    int oshape[4], orank;
} axis_geom;

static axis_geom
geom_of(const arow *r)
{
    axis_geom g = {.size = 1, .nout = 1, .len = r->shape[r->axis]};
    for (int d = 0; d < r->rank; d++) {
        g.size *= r->shape[d];
        if (d != r->axis) {
            g.oshape[g.orank++] = r->shape[d];
            g.nout *= r->shape[d];
        }
    }
    if (g.orank == 0)
        g.oshape[g.orank++] = 1;
    return g;
}

/* Linear input index of element i along the axis of output o. */
static int64_t
input_index(const arow *r, int64_t o, int64_t i)
{
    int coords[4];
    int64_t rest = o;
    for (int d = r->rank - 1; d >= 0; d--) {
        if (d == r->axis)
            continue;
        coords[d] = (int)(rest % r->shape[d]);
        rest /= r->shape[d];
    }
    coords[r->axis] = (int)i;
    int64_t e = 0;
    for (int d = 0; d < r->rank; d++)
        e = e * r->shape[d] + coords[d];
    return e;
}

/* The fold of output o's slice counting elements whose owner lane (e % W) is below
 * 'active'. */
static fold
axis_ref(const arow *r, const void *x, int64_t o, int64_t W, int64_t active)
{
    axis_geom g = geom_of(r);
    fold f = {.op = r->op, .dt = r->dt};
    for (int64_t i = 0; i < g.len; i++) {
        int64_t e = input_index(r, o, i);
        if (e % W < active)
            fold_in(&f, get_num(r->dt, x, e));
    }
    return f;
}

static const num sentinel = {.f = 77, .i = 77};

/* Launches 'n' threads (a single block when n < W, else n / W tiled blocks) and checks
 * every output: stored when its owner lane (o % W) runs, else still the sentinel.
 * Returns the number of stored outputs whose slice was empty. */
static int
launch_axis(tj_module *m, const char *name, const arow *r, const void *x, tj_array *xa,
            uint32_t B, int64_t n)
{
    axis_geom g = geom_of(r);
    uint32_t W = width_of(B);
    const tj_type *t = tjt_type(r->dt);
    size_t es = dt_size(r->dt);
    void *host = calloc((size_t)g.nout, es);
    ck_assert_ptr_nonnull(host);
    for (int64_t o = 0; o < g.nout; o++)
        put_num(r->dt, host, o, sentinel);
    int64_t odims[4];
    for (int d = 0; d < g.orank; d++)
        odims[d] = g.oshape[d];
    tj_array *oa = NULL;
    tjt_ok(device(), tj_array_create(device(), t, g.orank, odims, &oa));
    tjt_ok(device(), tj_array_copy_from_host(oa, host, (size_t)g.nout * es));
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    launch_n(m, name, n, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, host, (size_t)g.nout * es));
    int64_t active = n < W ? n : W;
    int empty = 0;
    char a[64], b[64];
    for (int64_t o = 0; o < g.nout; o++) {
        num v = get_num(r->dt, host, o);
        if (o % W >= active) {
            ck_assert_msg(r->dt == TJ_DTYPE_BOOL || v.i == sentinel.i || v.f == sentinel.f,
                          "output %lld is owned by lane %lld, which did not run, but was "
                          "written", (long long)o, (long long)(o % W));
            continue;
        }
        fold f = axis_ref(r, x, o, W, active);
        empty += !f.any;
        ck_assert_msg(matches(&f, v),
                      "%s of %s along axis %d of a rank-%d tile, B = %u, %lld threads: output "
                      "%lld got %s, expected %s%s", op_names[r->op], dt_names[r->dt], r->axis,
                      r->rank, W, (long long)n, (long long)o, num_str(r->dt, v, a, sizeof a),
                      num_str(r->dt, fold_result(&f), b, sizeof b),
                      f.any ? "" : " (the identity of an empty slice)");
        /* the identity of a float add is +0.0, not the -0.0 a sum starts from */
        ck_assert_msg(f.any || !dt_float(r->dt) || !signbit(v.f) == !signbit(fold_result(&f).f),
                      "%s of %s, B = %u: the empty slice of output %lld gave %s, expected %s",
                      op_names[r->op], dt_names[r->dt], W, (long long)o,
                      num_str(r->dt, v, a, sizeof a), num_str(r->dt, fold_result(&f), b, sizeof b));
    }
    free(host);
    tj_array_destroy(oa);
    return empty;
}

static tj_array *
axis_input(const arow *r, void **host_out)
{
    axis_geom g = geom_of(r);
    size_t es = dt_size(r->dt);
    void *x = calloc((size_t)g.size, es);
    ck_assert_ptr_nonnull(x);
    for (int64_t j = 0; j < g.size; j++)
        put_num(r->dt, x, j, gen(r->op, r->dt, j, r->rank * 10 + r->axis));
    int64_t dims[4];
    for (int d = 0; d < r->rank; d++)
        dims[d] = r->shape[d];
    tj_array *xa = NULL;
    tjt_ok(device(), tj_array_create(device(), tjt_type(r->dt), r->rank, dims, &xa));
    tjt_ok(device(), tj_array_copy_from_host(xa, x, (size_t)g.size * es));
    *host_out = x;
    return xa;
}

/* Runs row r at width B: one full block, two full blocks, and a partial block. */
static int
run_axis(const arow *r, uint32_t B, int64_t partial)
{
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = axis_kernel("axis", r, &o);
    tj_module *m = build(k);
    if (!runs()) {
        axis_geom g = geom_of(r);
        /* lanes share a slice (and shuffle) when the block has several per output and the
         * slice gives each at least 8 elements (reduce.c, lanes_per_output) */
        int64_t len = r->shape[r->axis], per = 1;
        while (per * 2 <= (int64_t)B / g.nout && per * 2 <= len / 8)
            per *= 2;
        ptx_has(m, "bar.sync", true);
        ptx_has(m, "shfl.sync", g.nout < B && per > 1);
        tj_module_destroy(m);
        return 0;
    }
    void *x;
    tj_array *xa = axis_input(r, &x);
    uint32_t W = width_of(B);
    launch_axis(m, "axis", r, x, xa, B, W);
    launch_axis(m, "axis", r, x, xa, B, 2 * (int64_t)W);
    int empty = 0;
    if (W > 1 && partial > 0)
        empty = launch_axis(m, "axis", r, x, xa, B, partial);
    free(x);
    tj_array_destroy(xa);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    return empty;
}

START_TEST(test_reduce_axis_matches_reference_for_every_axis)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const arow *r = &axis_rows[all ? local / NWIDTHS : local];
    uint32_t B = all ? widths[local % NWIDTHS] : g_where == ON_CPU1 ? 64 : widths[local % NWIDTHS];
    uint32_t W = width_of(B);
    run_axis(r, B, W > 2 ? W / 2 + 1 : 1);
}
END_TEST

/* On the GPU a lane folding a whole slice of at most 8 elements gets them written out, not
 * a loop (reduce.c, UNROLL_SLICE: LLVM unrolled those loops anyway, at a cost in build
 * time); a longer slice, and any on the CPU, keeps its loop. The rows above check both
 * results. */
START_TEST(test_reduce_axis_folds_short_slices_without_a_loop)
{
    g_where = _i;
    for (int len = 8; len <= 9; len++) {
        arow r = {2, {4, len}, 1, TJ_REDUCE_ADD, TJ_DTYPE_F32};
        tj_kernel_options o = opts_for(4, false);
        tj_kernel *k = axis_kernel("short_slices", &r, &o);
        const char *ir = tj_kernel_get_ir(k);
        ck_assert_ptr_nonnull(ir);
        bool loop = len > 8 || o.target == TJ_TARGET_CPU;
        ck_assert_msg((strstr(ir, "slice.head") != NULL) == loop,
                      "a slice of %d elements was folded %s", len,
                      loop ? "without a loop" : "in a loop");
        tj_kernel_destroy(k);
    }
}
END_TEST

/* ---- empty slices in partial blocks ---------------------------------------------------------- */

static const rrow identity_rows[] = {
    {TJ_REDUCE_ADD, TJ_DTYPE_I32},     {TJ_REDUCE_ADD, TJ_DTYPE_F16},
    {TJ_REDUCE_ADD, TJ_DTYPE_F64},     {TJ_REDUCE_MUL, TJ_DTYPE_I8},
    {TJ_REDUCE_MUL, TJ_DTYPE_U64},     {TJ_REDUCE_MUL, TJ_DTYPE_F32},
    {TJ_REDUCE_MIN, TJ_DTYPE_I8},      {TJ_REDUCE_MIN, TJ_DTYPE_U8},
    {TJ_REDUCE_MIN, TJ_DTYPE_I16},     {TJ_REDUCE_MIN, TJ_DTYPE_U16},
    {TJ_REDUCE_MIN, TJ_DTYPE_I32},     {TJ_REDUCE_MIN, TJ_DTYPE_U32},
    {TJ_REDUCE_MIN, TJ_DTYPE_I64},     {TJ_REDUCE_MIN, TJ_DTYPE_U64},
    {TJ_REDUCE_MIN, TJ_DTYPE_F16},     {TJ_REDUCE_MIN, TJ_DTYPE_F32},
    {TJ_REDUCE_MIN, TJ_DTYPE_F64},     {TJ_REDUCE_MAX, TJ_DTYPE_I8},
    {TJ_REDUCE_MAX, TJ_DTYPE_U8},      {TJ_REDUCE_MAX, TJ_DTYPE_I16},
    {TJ_REDUCE_MAX, TJ_DTYPE_U16},     {TJ_REDUCE_MAX, TJ_DTYPE_I32},
    {TJ_REDUCE_MAX, TJ_DTYPE_U32},     {TJ_REDUCE_MAX, TJ_DTYPE_I64},
    {TJ_REDUCE_MAX, TJ_DTYPE_U64},     {TJ_REDUCE_MAX, TJ_DTYPE_F16},
    {TJ_REDUCE_MAX, TJ_DTYPE_F32},     {TJ_REDUCE_MAX, TJ_DTYPE_F64},
    {TJ_REDUCE_BIT_AND, TJ_DTYPE_U8},  {TJ_REDUCE_BIT_AND, TJ_DTYPE_I32},
    {TJ_REDUCE_BIT_AND, TJ_DTYPE_BOOL}, {TJ_REDUCE_BIT_OR, TJ_DTYPE_I16},
    {TJ_REDUCE_BIT_OR, TJ_DTYPE_BOOL}, {TJ_REDUCE_BIT_XOR, TJ_DTYPE_U32},
};

static const uint32_t identity_widths[] = {31, 32, 33, 64, 256};

/* Shapes (W, 2) along axis 1 (one lane per output) and (W/4, 8) along axis 1 (groups of
 * lanes per output), launched with W/3 + 1 threads: the outputs of running lanes whose
 * slices belong to lanes that do not run get the identity. */
START_TEST(test_reduce_axis_empty_slices_of_partial_blocks_give_the_identity)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    if (g_where == ON_PTX) /* one shape per row */
        local = 2 * local + local % 2;
    const rrow *id = &identity_rows[local / 2];
    uint32_t B = identity_widths[(local / 2) % NROWS(identity_widths)];
    arow r = {.rank = 2, .axis = 1, .op = id->op, .dt = id->dt};
    if (local % 2 == 0) {
        r.shape[0] = (int)B;
        r.shape[1] = 2;
    } else {
        r.shape[0] = (int)B / 4;
        r.shape[1] = 8;
    }
    int empty = run_axis(&r, B, B / 3 + 1);
    if (runs())
        ck_assert_msg(empty > 0, "the launch left no slice empty: the test checks nothing");
}
END_TEST

/* A user operator has no identity: an empty slice is a kernel error in a debug build
 * (SPEC 5), reported by the lane that owns the output, and zero in a release build. */
static const struct empty_row {
    uint32_t B;
    int shape[2];
    int64_t n;
    int64_t slice, lane;
} empty_rows[] = {
    {8, {8, 2}, 3, 2, 2},  /* one lane per output: output 2 = elements 4, 5 (lanes 4, 5) */
    {32, {2, 8}, 3, 1, 1}, /* 16 lanes per output: output 1 = elements 8-15 */
};

START_TEST(test_reduce_user_operator_on_an_empty_slice_is_a_debug_kernel_error)
{
    g_where = _i / STRIDE;
    const struct empty_row *e = &empty_rows[(_i % STRIDE) / 2];
    bool debug = (_i % STRIDE) % 2 == 0;
    arow r = {.rank = 2, .shape = {e->shape[0], e->shape[1]}, .axis = 1,
              .op = TJ_REDUCE_FUNC, .dt = TJ_DTYPE_I32};
    tj_kernel_options o = opts_for(e->B, debug);
    tj_kernel *k = axis_kernel("empty_slice", &r, &o);
    tj_module *m = build(k);
    if (!runs())
        return;
    void *x;
    tj_array *xa = axis_input(&r, &x);
    if (!debug) {
        ck_assert_int_eq(launch_axis(m, "empty_slice", &r, x, xa, e->B, e->n), 1);
        free(x);
        return;
    }
    int64_t odim = e->shape[0];
    tj_array *oa = NULL;
    tjt_ok(device(), tj_array_create(device(), tjt_type(TJ_DTYPE_I32), 1, &odim, &oa));
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    int64_t n = e->n;
    tj_status st = tj_launch(device(), m, "empty_slice", 1, &n, e->B, args, 2);
    ck_assert_msg(st == TJ_ERR_KERNEL, "status %s: %s", tj_status_name(st),
                  tj_device_error(device()) ? tj_device_error(device()) : "(no message)");
    char want[512];
    snprintf(want, sizeof want,
             "kernel 'empty_slice': tile_reduce: slice %lld has no value from a running lane "
             "and a user operator has no identity (block 0, lane %lld)",
             (long long)e->slice, (long long)e->lane);
    ck_assert_str_eq(tj_device_error(device()), want);
    /* A full block has no empty slice: the same module launches cleanly afterwards. */
    n = e->B;
    tjt_ok(device(), tj_launch(device(), m, "empty_slice", 1, &n, e->B, args, 2));
    free(x);
}
END_TEST

/* ---- the seeds ------------------------------------------------------------------------------ */

/* seeds/tile_reduce.txt: mul over [3, 7, 4, 9] is [756] with block_dim 2; the row products
 * of [[1, 2, 3], [10, 20, 30]] are [6, 6000] with block_dim 4; in every mode. */
START_TEST(test_reduce_seeds_give_their_printed_output)
{
    g_where = _i / STRIDE;
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32), *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o2 = opts_for(2, false), o4 = opts_for(4, false);
    tj_kernel *k1 = tj_kernel_create(tjt.ctx, "multiply_elements", &o2);
    tj_val *x = tj_param_array(k1, "x", i32, 1), *out = tj_param_array(k1, "out", i32, 1);
    int four = 4;
    tj_val *t = tj_tile_load(k1, x, 1, &four, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k1, out, tj_tile_reduce(k1, TJ_REDUCE_MUL, NULL, t), NULL);
    tj_module *m1 = build(k1);

    tj_kernel *k2 = tj_kernel_create(tjt.ctx, "row_products", &o4);
    tj_val *x2 = tj_param_array(k2, "x", f32, 2), *p = tj_param_array(k2, "p", f32, 1);
    int shape[2] = {2, 3};
    tj_val *t2 = tj_tile_load(k2, x2, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k2, p, tj_tile_reduce_axis(k2, TJ_REDUCE_MUL, NULL, t2, 1), NULL);
    tj_module *m2 = build(k2);
    if (!runs()) {
        ptx_has(m1, "shfl.sync", true);
        ptx_has(m2, "bar.sync", true);
        return;
    }
    int32_t in1[4] = {3, 7, 4, 9}, res1 = 0;
    float in2[6] = {1, 2, 3, 10, 20, 30}, res2[2] = {0, 0};
    int64_t one = 1, dims[2] = {2, 3};
    tj_array *xa = tjt_array(device(), i32, 4, in1), *oa = tjt_array(device(), i32, 1, NULL);
    tj_arg a1[] = {tj_arg_array(xa), tj_arg_array(oa)};
    tjt_ok(device(), tj_launch_tiled(device(), m1, "multiply_elements", 1, &one, 2, a1, 2));
    tjt_ok(device(), tj_array_copy_to_host(oa, &res1, sizeof res1));
    ck_assert_int_eq(res1, 756);
    tj_array *x2a = NULL, *pa = tjt_array(device(), f32, 2, NULL);
    tjt_ok(device(), tj_array_create(device(), f32, 2, dims, &x2a));
    tjt_ok(device(), tj_array_copy_from_host(x2a, in2, sizeof in2));
    tj_arg a2[] = {tj_arg_array(x2a), tj_arg_array(pa)};
    tjt_ok(device(), tj_launch_tiled(device(), m2, "row_products", 1, &one, 4, a2, 2));
    tjt_ok(device(), tj_array_copy_to_host(pa, res2, sizeof res2));
    ck_assert_msg(res2[0] == 6.0f && res2[1] == 6000.0f, "got [%g, %g], expected [6, 6000]",
                  (double)res2[0], (double)res2[1]);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
    tj_array_destroy(x2a);
    tj_array_destroy(pa);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

typedef enum err_kind {
    E_AXIS_RANGE,
    E_AXIS_VEC3,
    E_BITWISE_FLOAT,
    E_BITWISE_FLOAT_AXIS,
    E_FUNC_SIGNATURE,
    E_FUNC_RETURN,
    E_FUNC_ARITY,
    E_FUNC_NULL,
    E_BOOL_ADD,
    E_STRUCT_ADD,
    E_BAD_OP,
    E_NOT_A_TILE,
} err_kind;

static const struct err_row {
    err_kind kind;
    tj_dtype dt;
    int rank, axis;
    tj_reduce_op op;
    const char *msg;
} err_rows[] = {
    {E_AXIS_RANGE, TJ_DTYPE_F32, 2, 2, TJ_REDUCE_ADD,
     "tile_reduce: argument 'axis': 2 is out of range for a rank-2 tile"},
    {E_AXIS_RANGE, TJ_DTYPE_I32, 2, -1, TJ_REDUCE_MAX,
     "tile_reduce: argument 'axis': -1 is out of range for a rank-2 tile"},
    {E_AXIS_RANGE, TJ_DTYPE_F64, 1, 1, TJ_REDUCE_MIN,
     "tile_reduce: argument 'axis': 1 is out of range for a rank-1 tile"},
    {E_AXIS_RANGE, TJ_DTYPE_U8, 4, 4, TJ_REDUCE_BIT_OR,
     "tile_reduce: argument 'axis': 4 is out of range for a rank-4 tile"},
    {E_AXIS_VEC3, TJ_DTYPE_F32, 2, 0, TJ_REDUCE_ADD,
     "tile_reduce: argument 'a': reducing along an axis needs scalar elements, not vec3f"},
    {E_BITWISE_FLOAT, TJ_DTYPE_F32, 1, 0, TJ_REDUCE_BIT_AND,
     "tile_reduce: argument 'op': bit_and: operands of type float32 are not supported"},
    {E_BITWISE_FLOAT, TJ_DTYPE_F64, 1, 0, TJ_REDUCE_BIT_OR,
     "tile_reduce: argument 'op': bit_or: operands of type float64 are not supported"},
    {E_BITWISE_FLOAT, TJ_DTYPE_F16, 1, 0, TJ_REDUCE_BIT_XOR,
     "tile_reduce: argument 'op': bit_xor: operands of type float16 are not supported"},
    {E_BITWISE_FLOAT_AXIS, TJ_DTYPE_F32, 2, 1, TJ_REDUCE_BIT_XOR,
     "tile_reduce: argument 'op': bit_xor: operands of type float32 are not supported"},
    {E_FUNC_SIGNATURE, TJ_DTYPE_F32, 1, 0, TJ_REDUCE_FUNC,
     "tile_reduce: argument 'op': function 'bad' must take two float32 and return float32"},
    {E_FUNC_RETURN, TJ_DTYPE_I32, 2, 0, TJ_REDUCE_FUNC,
     "tile_reduce: argument 'op': function 'bad' must take two int32 and return int32"},
    {E_FUNC_ARITY, TJ_DTYPE_F64, 1, 0, TJ_REDUCE_FUNC,
     "tile_reduce: argument 'op': function 'bad' must take two float64 and return float64"},
    {E_FUNC_NULL, TJ_DTYPE_F32, 1, 0, TJ_REDUCE_FUNC,
     "tile_reduce: argument 'op': a function must take two float32 and return float32"},
    {E_BOOL_ADD, TJ_DTYPE_BOOL, 1, 0, TJ_REDUCE_ADD,
     "tile_reduce: argument 'op': add: operands of type bool are not supported"},
    {E_STRUCT_ADD, TJ_DTYPE_F32, 1, 0, TJ_REDUCE_ADD,
     "tile_reduce: argument 'op': add: argument 'a': argmax_pair is not a scalar or composite"},
    {E_BAD_OP, TJ_DTYPE_F32, 1, 0, (tj_reduce_op)8,
     "tile_reduce: argument 'op': 8 is not an operator"},
    {E_NOT_A_TILE, TJ_DTYPE_F32, 1, 0, TJ_REDUCE_ADD,
     "tile_reduce: argument 'a': float32 is not a tile"},
};

/* A function "bad" with the wrong signature for the row. */
static tj_func *
bad_func(const struct err_row *e, const tj_type *t)
{
    const tj_type *other = tjt_type(TJ_DTYPE_F64);
    tj_func *f = tj_func_create(tjt.ctx, "bad", e->kind == E_FUNC_RETURN ? other : t, NULL);
    tj_val *a = tj_param(f, "a", t);
    if (e->kind == E_FUNC_SIGNATURE)
        tj_param(f, "b", other);
    else if (e->kind == E_FUNC_RETURN)
        tj_param(f, "b", t);
    tj_return(f, e->kind == E_FUNC_RETURN ? tj_cast(f, a, other) : a);
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

START_TEST(test_reduce_build_errors_name_the_builtin_argument_and_reason)
{
    const struct err_row *e = &err_rows[_i];
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bad_reduce", NULL);
    const tj_type *t = e->kind == E_AXIS_VEC3 ? tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3)
                       : e->kind == E_STRUCT_ADD ? argmax_type()
                                                 : tjt_type(e->dt);
    tj_func *f = e->kind >= E_FUNC_SIGNATURE && e->kind <= E_FUNC_ARITY ? bad_func(e, t) : NULL;
    tj_val *out = tj_param_array(k, "out", t, 1);
    static const int shape[4] = {2, 3, 4, 5};
    tj_val *tile = e->kind == E_NOT_A_TILE
                       ? tj_const_float(k, TJ_DTYPE_F32, 1)
                       : tj_tile_zeros(k, t, e->rank, shape, TJ_STORAGE_REGISTER);
    ck_assert_ptr_nonnull(tile);
    bool axis = e->kind == E_AXIS_RANGE || e->kind == E_AXIS_VEC3 ||
                e->kind == E_BITWISE_FLOAT_AXIS;
    tj_val *r = axis ? tj_tile_reduce_axis(k, e->op, f, tile, e->axis)
                     : tj_tile_reduce(k, e->op, f, tile);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    /* Sticky: later calls do nothing and the first message stays. */
    ck_assert_ptr_null(tj_tile_zeros(k, tjt_type(TJ_DTYPE_F32), 1, shape, TJ_STORAGE_REGISTER));
    ck_assert_ptr_null(tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, tile));
    ck_assert(!tj_tile_store(k, out, tile, NULL));
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    char want[600];
    snprintf(want, sizeof want, "kernel 'bad_reduce': %s", e->msg);
    ck_assert_str_eq(tj_context_error(tjt.ctx), want);
    tj_func_destroy(f);
    tj_kernel_destroy(k);
}
END_TEST

/* Cooperative CPU lanes run one at a time, in order, so a whole-tile reduction folds the
 * lanes' partials into one total in shared memory: 64 float32 over 64 lanes synchronise
 * twice (the partials are final, then the total is). With TILEJIT_CPU_REDUCE=butterfly (the case
 * coop_butterfly) they run the GPU's algorithm: five emulated shuffles of one barrier each,
 * then the warps' partials are published and read, seven. In the IR each barrier is an
 * indirect call of the worker's barrier function, and a load and a store of the same tile
 * have none. Built at O1, which does not unswitch loops, so that each barrier appears once. */
START_TEST(test_reduce_cpu_whole_tile_synchronises_twice)
{
    tj_context *ctx = fiber_context();
    int calls[2];
    for (int with = 0; with < 2; with++) {
        tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = 64,
                               .cpu_mode = TJ_CPU_COOPERATIVE};
        tj_kernel *k = tj_kernel_create(ctx, with ? "sum64" : "copy64", &o);
        const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
        tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
        int n = 64;
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_val *t = tj_tile_load(k, x, 1, &n, &zero, TJ_STORAGE_REGISTER);
        if (with)
            t = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t);
        tj_tile_store(k, y, t, &zero);
        tj_build_options bo = {.keep_ir = true, .opt_level = TJ_OPT_O1};
        tj_module *m = NULL;
        ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
        calls[with] = 0;
        for (const char *p = tj_module_get_ir(m); (p = strstr(p, "call void %")); p++)
            calls[with]++;
        tj_kernel_destroy(k);
    }
    ck_assert_int_eq(calls[0], 0);
    int want = g_butterfly ? 7 : 2;
    ck_assert_msg(calls[1] == want, "the reduction synchronises %d times, expected %d", calls[1],
                  want);
    tj_context_destroy(ctx);
}
END_TEST

/* Cooperative CPU lanes emulate each warp shuffle through the arena with one barrier: a
 * lane's shuffles use its two scratch words in turn (jit/target_host.c). Groups of lanes
 * sharing a slice (a 2 x 256 float32 tile along axis 1 over 64 lanes: 32 lanes a row)
 * combine by a butterfly of five shuffles, and then the groups' partials are
 * published and read (two barriers), after the barrier that publishes the tile in shared
 * memory. A sum starts from a value its operator leaves unchanged, so a lane without
 * elements holds it and needs no flag: eight barriers. max on floats has no such value (a
 * fold of NaNs alone gives NaN), so each step also exchanges the flags: thirteen. Built
 * at O1, as above. */
START_TEST(test_reduce_cpu_axis_groups_exchange_flags_only_without_a_neutral_value)
{
    tj_context *ctx = fiber_context();
    static const tj_reduce_op opsv[] = {TJ_REDUCE_ADD, TJ_REDUCE_MAX};
    static const int want[] = {8, 13};
    for (int i = 0; i < 2; i++) {
        tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = 64,
                               .cpu_mode = TJ_CPU_COOPERATIVE};
        tj_kernel *k = tj_kernel_create(ctx, i ? "rowmax" : "rowsum", &o);
        const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
        tj_val *x = tj_param_array(k, "x", f32, 2), *y = tj_param_array(k, "y", f32, 1);
        int shape[2] = {2, 256};
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *at[2] = {zero, zero};
        tj_val *t = tj_tile_load(k, x, 2, shape, at, TJ_STORAGE_REGISTER);
        tj_tile_store(k, y, tj_tile_reduce_axis(k, opsv[i], NULL, t, 1), &zero);
        tj_build_options bo = {.keep_ir = true, .opt_level = TJ_OPT_O1};
        tj_module *m = NULL;
        ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
        int calls = 0;
        for (const char *p = tj_module_get_ir(m); (p = strstr(p, "call void %")); p++)
            calls++;
        tj_kernel_destroy(k);
        ck_assert_msg(calls == want[i], "the %s along rows synchronises %d times, expected %d",
                      i ? "max" : "sum", calls, want[i]);
    }
    tj_context_destroy(ctx);
}
END_TEST

/* ---- suite ----------------------------------------------------------------------------------- */

static TCase *
new_case(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    if (strcmp(name, "cuda") == 0)
        tcase_set_tags(tc, "cuda");
    suite_add_tcase(s, tc);
    return tc;
}

static void
add_where(TCase *tc, int where)
{
#define ADD_ROWS(fn, n) tcase_add_loop_test(tc, fn, where * STRIDE, where * STRIDE + (n))
    bool two = where == ON_COOP || where == ON_CUDA;
    bool all = two;
    ADD_ROWS(test_reduce_whole_tile_matches_reference_for_every_operator_and_dtype, nwhole);
    ADD_ROWS(test_reduce_whole_tile_every_width_and_size,
             where == ON_CPU1 ? NROWS(sizes)
             : where == ON_PTX ? 2 * NWIDTHS
                               : 2 * NWIDTHS * NROWS(sizes));
    ADD_ROWS(test_reduce_whole_tile_of_composites_matches_reference,
             NROWS(comp_rows) * (two ? 2 : 1));
    ADD_ROWS(test_reduce_whole_tile_of_structs_with_a_user_operator,
             where == ON_CPU1 ? 1 : NWIDTHS);
    ADD_ROWS(test_reduce_of_lane_values_reaches_every_lane, where == ON_CPU1 ? 1 : NWIDTHS);
    ADD_ROWS(test_reduce_results_move_to_shared_memory_for_the_builtins_that_need_it,
             where == ON_CPU1 ? 1 : NWIDTHS);
    ADD_ROWS(test_reduce_sums_of_negative_zeros_are_negative_zero, 2 * NWIDTHS);
    ADD_ROWS(test_reduce_non_commutative_operator_builds_and_runs, where == ON_CPU1 ? 1 : 2);
    ADD_ROWS(test_reduce_axis_matches_reference_for_every_axis,
             NROWS(axis_rows) * (all ? NWIDTHS : 1));
    if (where != ON_CPU1) {
        ADD_ROWS(test_reduce_axis_empty_slices_of_partial_blocks_give_the_identity,
                 (where == ON_PTX ? 1 : 2) * NROWS(identity_rows));
        ADD_ROWS(test_reduce_user_operator_on_an_empty_slice_is_a_debug_kernel_error,
                 2 * NROWS(empty_rows));
    }
    ADD_ROWS(test_reduce_seeds_give_their_printed_output, 1);
    tcase_add_loop_test(tc, test_reduce_axis_folds_short_slices_without_a_loop, where, where + 1);
    if (where == ON_COOP) {
        tcase_add_test(tc, test_reduce_cpu_whole_tile_synchronises_twice);
        tcase_add_test(tc, test_reduce_cpu_axis_groups_exchange_flags_only_without_a_neutral_value);
    }
#undef ADD_ROWS
}

/* Cooperative CPU blocks combine whole tiles in lane order (turn_combine), not with the
 * GPU's butterfly. TILEJIT_CPU_REDUCE=butterfly brings the GPU's algorithm back, so that
 * these cases still run it, its emulated shuffles and warps' partials, without a GPU. */
static void
butterfly_setup(void)
{
    ck_assert_int_eq(setenv("TILEJIT_CPU_REDUCE", "butterfly", 1), 0);
    tjt_setup();
    unsetenv("TILEJIT_CPU_REDUCE");
    g_butterfly = true;
}

static void
butterfly_teardown(void)
{
    g_butterfly = false;
    tjt_teardown();
}

static void
add_butterfly_case(Suite *s)
{
    TCase *tc = tcase_create("coop_butterfly");
    tcase_add_checked_fixture(tc, butterfly_setup, butterfly_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    suite_add_tcase(s, tc);
    int where = ON_COOP;
#define ADD_ROWS(fn, n) tcase_add_loop_test(tc, fn, where * STRIDE, where * STRIDE + (n))
    ADD_ROWS(test_reduce_whole_tile_matches_reference_for_every_operator_and_dtype, nwhole);
    ADD_ROWS(test_reduce_whole_tile_every_width_and_size, 2 * NWIDTHS * NROWS(sizes));
    ADD_ROWS(test_reduce_whole_tile_of_composites_matches_reference, NROWS(comp_rows) * 2);
    ADD_ROWS(test_reduce_whole_tile_of_structs_with_a_user_operator, NWIDTHS);
    ADD_ROWS(test_reduce_of_lane_values_reaches_every_lane, NWIDTHS);
    ADD_ROWS(test_reduce_sums_of_negative_zeros_are_negative_zero, 2 * NWIDTHS);
#undef ADD_ROWS
    tcase_add_test(tc, test_reduce_cpu_whole_tile_synchronises_twice);
}

static Suite *
reduce_suite(void)
{
    init_whole_rows();
    Suite *s = suite_create("reduce");
    static const char *const names[NWHERE] = {
        [ON_CPU1] = "cpu1", [ON_COOP] = "coop", [ON_PTX] = "ptx", [ON_CUDA] = "cuda"};
    for (int where = 0; where < NWHERE; where++)
        add_where(new_case(s, names[where]), where);
    add_butterfly_case(s);
    TCase *errors = new_case(s, "errors");
    tcase_add_loop_test(errors, test_reduce_build_errors_name_the_builtin_argument_and_reason, 0,
                        NROWS(err_rows));
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, reduce_suite());
}
