/* tj-test: CUDA */
/*
 * tests/check_atomics.c: tj_atomic_add, tj_atomic_min and tj_atomic_max on array elements
 * of int32, uint32, int64, uint64, float32 and float64 (and float16 add, the one 16-bit
 * atomic). NT threads each combine one value into out[i % 4] (a 1-dim array of 4, or a
 * (2, 2) array) and store the old element the atomic returned. Values are negative and
 * positive (floats of both signs, unsigned values on both sides of the sign bit, 64-bit
 * values past 32 bits) and chosen so that every float sum is exact in any order. Expected
 * values come from the C reference below:
 *   add: each slot's values have one sign, so its element moves one way and the old values,
 *        sorted, are the running sums from the initial value; the final element is the sum;
 *   min, max: the old values must be explained by some order of the operations: grouped by
 *        old value, starting at the initial value, each group has at most one value that
 *        improves on it, which is the next group's old value; the last group's is final.
 * Also: a debug build skips an atomic whose index is out of range and reports it, and the
 * build errors for element types the atomics do not take.
 *
 * Test cases (tj_tile_test.h): cpu1, coop (block widths 2, 31, 32, 33, 64, 256; NT is not a
 * multiple of most, so the last block is partial), ptx (block widths 33 and 256, through
 * ptxas, grepped for the row's atom.global opcode: float min/max are compare-and-swap
 * loops), cuda, errors.
 */
#include "tj_tile_test.h"

enum { NT = 1000, NSLOTS = 4 };

typedef enum op { OP_ADD, OP_MIN, OP_MAX } op;

static const char *const op_names[] = {"add", "min", "max"};

/* ---- host numbers ---------------------------------------------------------------------------- */

/* A value of one dtype: signed integers in .i, unsigned in .u, floats in .f (float32 and
 * float16 values are exact doubles). */
typedef union num {
    int64_t i;
    uint64_t u;
    double f;
} num;

static bool
is_signed_int(tj_dtype dt)
{
    return dt == TJ_DTYPE_I32 || dt == TJ_DTYPE_I64;
}

static num
num_get(tj_dtype dt, const void *buf, size_t i)
{
    const uint8_t *p = (const uint8_t *)buf + i * tt_dt_size(dt);
    num v = {0};
    switch (dt) {
    case TJ_DTYPE_I32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case TJ_DTYPE_I64: memcpy(&v.i, p, 8); break;
    case TJ_DTYPE_U32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    case TJ_DTYPE_U64: memcpy(&v.u, p, 8); break;
    default: v.f = tt_get(buf, dt, i); break;
    }
    return v;
}

static void
num_put(tj_dtype dt, void *buf, size_t i, num v)
{
    uint8_t *p = (uint8_t *)buf + i * tt_dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_I32: { int32_t x = (int32_t)v.i; memcpy(p, &x, 4); break; }
    case TJ_DTYPE_I64: memcpy(p, &v.i, 8); break;
    case TJ_DTYPE_U32: { uint32_t x = (uint32_t)v.u; memcpy(p, &x, 4); break; }
    case TJ_DTYPE_U64: memcpy(p, &v.u, 8); break;
    default: tt_put(buf, dt, i, v.f); break;
    }
}

static bool
num_eq(tj_dtype dt, num a, num b)
{
    return tt_dt_is_float(dt) ? a.f == b.f : a.u == b.u;
}

static bool
num_lt(tj_dtype dt, num a, num b)
{
    if (tt_dt_is_float(dt))
        return a.f < b.f;
    return is_signed_int(dt) ? a.i < b.i : a.u < b.u;
}

/* a + b in 'dt': integers wrap, floats round once to the dtype (exact for the test's
 * values). */
static num
num_add(tj_dtype dt, num a, num b)
{
    num r = {0};
    switch (dt) {
    case TJ_DTYPE_I32: r.i = (int32_t)(uint32_t)((uint64_t)a.i + (uint64_t)b.i); break;
    case TJ_DTYPE_I64: r.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i); break;
    case TJ_DTYPE_U32: r.u = (uint32_t)(a.u + b.u); break;
    case TJ_DTYPE_U64: r.u = a.u + b.u; break;
    case TJ_DTYPE_F16: r.f = tjt_half_to_double(tjt_half_from_double(a.f + b.f)); break;
    case TJ_DTYPE_F32: r.f = (double)(float)(a.f + b.f); break;
    default: r.f = a.f + b.f; break;
    }
    return r;
}

/* Whether 'a' replaces 'b' under min (a < b) or max (a > b). */
static bool
num_better(tj_dtype dt, op o, num a, num b)
{
    return o == OP_MIN ? num_lt(dt, a, b) : num_lt(dt, b, a);
}

static const char *
num_str(tj_dtype dt, num v, char *buf, size_t n)
{
    if (tt_dt_is_float(dt))
        snprintf(buf, n, "%.17g", v.f);
    else if (is_signed_int(dt))
        snprintf(buf, n, "%lld", (long long)v.i);
    else
        snprintf(buf, n, "%llu", (unsigned long long)v.u);
    return buf;
}

/* ---- the values ------------------------------------------------------------------------------ */

static int
slot_of(int64_t i)
{
    return (int)(i % NSLOTS);
}

/* add: a magnitude in [1, 101] (float16: halves in [0.5, 3.5], so the sums stay exact);
 * slots 1 and 3 subtract (unsigned types: add the two's complement, which wraps back). */
static num
add_value(tj_dtype dt, int64_t i)
{
    int64_t m = (i * 37) % 101 + 1;
    bool neg = slot_of(i) % 2 == 1;
    num v = {0};
    switch (dt) {
    case TJ_DTYPE_I32: v.i = (neg ? -m : m) * 1000; break;
    case TJ_DTYPE_I64: v.i = (neg ? -1 : 1) * (m * (INT64_C(1) << 33) + i); break;
    case TJ_DTYPE_U32: v.u = neg ? (uint32_t)(UINT64_C(4294967296) - (uint64_t)m * 1000)
                                 : (uint64_t)m * 1000; break;
    case TJ_DTYPE_U64: v.u = neg ? (uint64_t)0 - (uint64_t)m * (UINT64_C(1) << 33)
                                 : (uint64_t)m * (UINT64_C(1) << 33); break;
    case TJ_DTYPE_F16: v.f = (neg ? -0.5 : 0.5) * (double)(i * 37 % 7 + 1); break;
    case TJ_DTYPE_F32: v.f = (neg ? -0.25 : 0.25) * (double)m; break;
    default: v.f = (neg ? -1.0 : 1.0) * ((double)m * 0.25 + (double)m * ldexp(1.0, -30)); break;
    }
    return v;
}

/* min, max: distinct values over a wide range of both signs. */
static num
minmax_value(tj_dtype dt, int64_t i)
{
    int64_t c = (i * 7919) % 20011 - 10005; /* distinct for i < 20011, in [-10005, 10005] */
    num v = {0};
    switch (dt) {
    case TJ_DTYPE_I32: v.i = c * 100000; break;
    case TJ_DTYPE_I64: v.i = c * (INT64_C(1) << 40) + i; break;
    case TJ_DTYPE_U32: v.u = (uint32_t)((uint64_t)i * 2654435761u); break;
    case TJ_DTYPE_U64: v.u = (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15); break;
    case TJ_DTYPE_F32: v.f = (double)c * 0.125; break;
    default: v.f = (double)c * 0.125 + (double)i * ldexp(1.0, -40); break;
    }
    return v;
}

/* The initial element of slot 's'. */
static num
init_value(tj_dtype dt, op o, int s)
{
    num v = {0};
    if (o == OP_ADD) {
        switch (dt) {
        case TJ_DTYPE_I32: v.i = (s - 2) * 1000000; break;
        case TJ_DTYPE_I64: v.i = (s - 2) * (INT64_C(1) << 40); break;
        case TJ_DTYPE_U32: v.u = UINT64_C(3000000000) + (uint64_t)s; break; /* above INT32_MAX */
        case TJ_DTYPE_U64: v.u = (UINT64_C(1) << 63) + ((uint64_t)s << 40); break;
        default: v.f = (s - 2) * 4.0; break;
        }
        return v;
    }
    bool lo = o == OP_MIN;
    switch (dt) {
    case TJ_DTYPE_I32: v.i = lo ? 100 : -100; break;
    case TJ_DTYPE_I64: v.i = lo ? 100 : -100; break;
    case TJ_DTYPE_U32: v.u = lo ? UINT64_C(0xC0000000) : UINT64_C(0x40000000); break;
    case TJ_DTYPE_U64: v.u = lo ? UINT64_C(0xC000000000000000) : UINT64_C(0x4000000000000000);
        break;
    default: v.f = lo ? 100.25 : -100.25; break;
    }
    return v;
}

static num
value_of(tj_dtype dt, op o, int64_t i)
{
    return o == OP_ADD ? add_value(dt, i) : minmax_value(dt, i);
}

/* ---- the checks ------------------------------------------------------------------------------ */

typedef struct run_ctx {
    tj_dtype dt;
    op o;
    const char *name;
    const void *vals, *olds, *out;
    int idx[NT / NSLOTS + 1];      /* the threads of the slot being checked */
    int n;
} run_ctx;

#define NUMBUF 40

/* Sorted running sums: the slot's element moves one way, so its old values are distinct. */
static void
check_add_slot(run_ctx *c, int s, num init)
{
    tj_dtype dt = c->dt;
    bool down = s % 2 == 1;
    char b1[NUMBUF], b2[NUMBUF];
    for (int a = 1; a < c->n; a++)
        for (int j = a; j > 0; j--) {
            num x = num_get(dt, c->olds, (size_t)c->idx[j]);
            num y = num_get(dt, c->olds, (size_t)c->idx[j - 1]);
            if (!(down ? num_lt(dt, y, x) : num_lt(dt, x, y)))
                break;
            int t = c->idx[j];
            c->idx[j] = c->idx[j - 1];
            c->idx[j - 1] = t;
        }
    num run = init;
    for (int a = 0; a < c->n; a++) {
        num old = num_get(dt, c->olds, (size_t)c->idx[a]);
        ck_assert_msg(num_eq(dt, old, run), "%s (%s): slot %d: the %d-th old value is %s, "
                      "expected the running sum %s", c->name, tt_where(), s, a,
                      num_str(dt, old, b1, NUMBUF), num_str(dt, run, b2, NUMBUF));
        run = num_add(dt, run, num_get(dt, c->vals, (size_t)c->idx[a]));
    }
    num got = num_get(dt, c->out, (size_t)s);
    ck_assert_msg(num_eq(dt, got, run), "%s (%s): slot %d is %s, expected %s", c->name,
                  tt_where(), s, num_str(dt, got, b1, NUMBUF), num_str(dt, run, b2, NUMBUF));
}

/* The old values of min/max follow one order of the operations (see the top). */
static void
check_minmax_slot(run_ctx *c, int s, num init)
{
    tj_dtype dt = c->dt;
    char b1[NUMBUF], b2[NUMBUF];
    num best = init;
    for (int a = 0; a < c->n; a++)
        if (num_better(dt, c->o, num_get(dt, c->vals, (size_t)c->idx[a]), best))
            best = num_get(dt, c->vals, (size_t)c->idx[a]);
    num got = num_get(dt, c->out, (size_t)s);
    ck_assert_msg(num_eq(dt, got, best), "%s (%s): slot %d is %s, expected %s", c->name,
                  tt_where(), s, num_str(dt, got, b1, NUMBUF), num_str(dt, best, b2, NUMBUF));
    bool *done = calloc((size_t)c->n, 1);
    ck_assert_ptr_nonnull(done);
    num cur = init;
    int left = c->n;
    while (left > 0) {
        int ngroup = 0, nbetter = 0;
        num next = cur;
        for (int a = 0; a < c->n; a++) {
            if (done[a] || !num_eq(dt, num_get(dt, c->olds, (size_t)c->idx[a]), cur))
                continue;
            done[a] = true;
            ngroup++;
            num v = num_get(dt, c->vals, (size_t)c->idx[a]);
            if (num_better(dt, c->o, v, cur)) {
                nbetter++;
                next = v;
            }
        }
        left -= ngroup;
        ck_assert_msg(ngroup > 0, "%s (%s): slot %d: %d threads got old values that no order "
                      "of the operations gives (none saw %s)", c->name, tt_where(), s, left,
                      num_str(dt, cur, b1, NUMBUF));
        ck_assert_msg(nbetter <= 1 && (nbetter == 1 || left == 0),
                      "%s (%s): slot %d: of the %d threads that saw %s, %d had a better value",
                      c->name, tt_where(), s, ngroup, num_str(dt, cur, b1, NUMBUF), nbetter);
        cur = next;
    }
    ck_assert_msg(num_eq(dt, cur, best), "%s (%s): slot %d: the old values end at %s, not %s",
                  c->name, tt_where(), s, num_str(dt, cur, b1, NUMBUF),
                  num_str(dt, best, b2, NUMBUF));
    free(done);
}

/* ---- the table ------------------------------------------------------------------------------- */

typedef struct at_row {
    tj_dtype dt;
    op o;
    int ndim;              /* out: 1 dim of 4, or (2, 2) */
    const char *opcode;    /* in the PTX */
} at_row;

static const at_row at_rows[] = {
    {TJ_DTYPE_I32, OP_ADD, 1, "atom.global.add.u32"},
    {TJ_DTYPE_I32, OP_MIN, 1, "atom.global.min.s32"},
    {TJ_DTYPE_I32, OP_MAX, 2, "atom.global.max.s32"},
    {TJ_DTYPE_U32, OP_ADD, 2, "atom.global.add.u32"},
    {TJ_DTYPE_U32, OP_MIN, 1, "atom.global.min.u32"},
    {TJ_DTYPE_U32, OP_MAX, 1, "atom.global.max.u32"},
    {TJ_DTYPE_I64, OP_ADD, 1, "atom.global.add.u64"},
    {TJ_DTYPE_I64, OP_MIN, 2, "atom.global.min.s64"},
    {TJ_DTYPE_I64, OP_MAX, 1, "atom.global.max.s64"},
    {TJ_DTYPE_U64, OP_ADD, 1, "atom.global.add.u64"},
    {TJ_DTYPE_U64, OP_MIN, 1, "atom.global.min.u64"},
    {TJ_DTYPE_U64, OP_MAX, 2, "atom.global.max.u64"},
    {TJ_DTYPE_F32, OP_ADD, 1, "atom.global.add.f32"},
    {TJ_DTYPE_F32, OP_MIN, 1, "atom.global.cas.b32"},
    {TJ_DTYPE_F32, OP_MAX, 2, "atom.global.cas.b32"},
    {TJ_DTYPE_F64, OP_ADD, 2, "atom.global.add.f64"},
    {TJ_DTYPE_F64, OP_MIN, 1, "atom.global.cas.b64"},
    {TJ_DTYPE_F64, OP_MAX, 1, "atom.global.cas.b64"},
    {TJ_DTYPE_F16, OP_ADD, 1, "atom.global.add.noftz.f16"},
};

static tj_val *
emit_atomic(tj_kernel *k, op o, tj_val *arr, tj_val *const *idx, int nidx, tj_val *v)
{
    switch (o) {
    case OP_ADD:
        return tj_atomic_add(k, arr, idx, nidx, v);
    case OP_MIN:
        return tj_atomic_min(k, arr, idx, nidx, v);
    default:
        return tj_atomic_max(k, arr, idx, nidx, v);
    }
}

/* The slot index of thread 'g' in an out array of 'ndim' dims: (s) or (s / 2, s % 2). */
static int
slot_index(tj_kernel *k, tj_val *g, int ndim, tj_val **idx)
{
    tj_val *s = tj_binary(k, TJ_BIN_MOD, g, tt_i32(k, NSLOTS));
    if (ndim == 1) {
        idx[0] = s;
        return 1;
    }
    idx[0] = tj_binary(k, TJ_BIN_DIV, s, tt_i32(k, 2));
    idx[1] = tj_binary(k, TJ_BIN_MOD, s, tt_i32(k, 2));
    return 2;
}

/* Thread g: old = atomic_<op>(out[g % 4], vals[g]); olds[g] = old. */
START_TEST(test_atomics_from_many_threads_give_exact_results_and_old_values)
{
    const at_row *r = &at_rows[tt_begin(_i)];
    const tj_type *t = tjt_type(r->dt);
    char name[64];
    snprintf(name, sizeof name, "atomic_%s on %s", op_names[r->o], tj_type_get_name(t));
    tj_kernel *k = tt_kernel("atomic");
    tj_val *vals = tj_param_array(k, "vals", t, 1);
    tj_val *out = tj_param_array(k, "out", t, r->ndim);
    tj_val *olds = tj_param_array(k, "olds", t, 1);
    tj_val *g = NULL, *idx[2];
    ck_assert(tj_tid(k, 1, &g));
    int nidx = slot_index(k, g, r->ndim, idx);
    tj_val *old = emit_atomic(k, r->o, out, idx, nidx, tj_load(k, vals, &g, 1));
    ck_assert_msg(old != NULL, "%s: %s", name, tj_kernel_error(k) ? tj_kernel_error(k) : "?");
    ck_assert_int_eq(tj_val_get_kind(old), TJ_VAL_SCALAR);
    ck_assert_ptr_eq(tj_val_get_type(old), t);
    ck_assert(tj_store(k, olds, &g, 1, old));
    tj_module *m = tt_build(k, name);
    tt_ptx_has(m, r->opcode);
    void *hv = tt_alloc(NT, r->dt), *ho = tt_alloc(NT, r->dt);
    void *hinit = tt_alloc(NSLOTS, r->dt), *hout = tt_alloc(NSLOTS, r->dt);
    for (int64_t i = 0; i < NT; i++)
        num_put(r->dt, hv, (size_t)i, value_of(r->dt, r->o, i));
    for (int s = 0; s < NSLOTS; s++)
        num_put(r->dt, hinit, (size_t)s, init_value(r->dt, r->o, s));
    int64_t nt = NT, oshape[2] = {r->ndim == 1 ? NSLOTS : 2, 2};
    tj_array *av = tt_array(t, 1, &nt, hv), *ao = tt_array(t, 1, &nt, NULL);
    tj_array *aout = tt_array(t, r->ndim, oshape, hinit);
    tj_arg args[] = {tj_arg_array(av), tj_arg_array(aout), tj_arg_array(ao)};
    if (tt_launch(m, "atomic", NT, args, 3)) {
        tt_read(ao, ho);
        tt_read(aout, hout);
        run_ctx c = {.dt = r->dt, .o = r->o, .name = name, .vals = hv, .olds = ho,
                     .out = hout};
        for (int s = 0; s < NSLOTS; s++) {
            c.n = 0;
            for (int i = s; i < NT; i += NSLOTS)
                c.idx[c.n++] = i;
            if (r->o == OP_ADD)
                check_add_slot(&c, s, init_value(r->dt, r->o, s));
            else
                check_minmax_slot(&c, s, init_value(r->dt, r->o, s));
        }
    }
    free(hv);
    free(ho);
    free(hinit);
    free(hout);
    tj_array_destroy(av);
    tj_array_destroy(ao);
    tj_array_destroy(aout);
    tj_module_destroy(m);
}
END_TEST

/* The reference itself: the expected extremes are what the values were built to give
 * (negative minima, maxima past 32 bits, unsigned values above the sign bit win max). */
START_TEST(test_atomic_reference_values_cover_both_signs)
{
    num lo = minmax_value(TJ_DTYPE_I32, 0), hi = lo;
    for (int64_t i = 0; i < NT; i++) {
        num v = minmax_value(TJ_DTYPE_I32, i);
        lo = num_lt(TJ_DTYPE_I32, v, lo) ? v : lo;
        hi = num_lt(TJ_DTYPE_I32, hi, v) ? v : hi;
    }
    ck_assert(lo.i < -900000000 && hi.i > 900000000);
    num u = init_value(TJ_DTYPE_U32, OP_MIN, 0);
    bool above = false, below = false;
    for (int64_t i = 0; i < NT; i++) {
        num v = minmax_value(TJ_DTYPE_U32, i);
        above |= v.u > UINT64_C(0x80000000) && v.u < u.u;
        below |= v.u < UINT64_C(0x80000000);
    }
    ck_assert(above && below);
    int pos = 0, neg = 0;
    for (int64_t i = 0; i < NT; i++) {
        double f = add_value(TJ_DTYPE_F64, i).f;
        pos += f > 0;
        neg += f < 0;
    }
    ck_assert_int_eq(pos, NT / 2);
    ck_assert_int_eq(neg, NT / 2);
}
END_TEST

/* ---- a debug build --------------------------------------------------------------------------- */

enum { BAD_THREAD = 7 };

/* Thread BAD_THREAD adds at index 4 of a 4-element array: the debug build skips it (the
 * atomic returns zero there), the other threads' adds all land, and the launch reports
 * the first failing index with its block and lane. */
START_TEST(test_debug_atomic_out_of_range_is_skipped_and_reported)
{
    tt_begin(_i);
    tt.debug = true;
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tt_kernel("checked_atomic");
    tj_val *out = tj_param_array(k, "out", i32, 1), *olds = tj_param_array(k, "olds", i32, 1);
    tj_val *g = NULL;
    ck_assert(tj_tid(k, 1, &g));
    tj_val *bad = tj_compare(k, TJ_CMP_EQ, g, tt_i32(k, BAD_THREAD));
    tj_val *s = tj_select(k, bad, tt_i32(k, NSLOTS), tj_binary(k, TJ_BIN_MOD, g, tt_i32(k, 4)));
    tj_val *old = tj_atomic_add(k, out, &s, 1, tj_binary(k, TJ_BIN_ADD, g, tt_i32(k, 1)));
    ck_assert(tj_store(k, olds, &g, 1, old));
    tj_module *m = tt_build(k, "checked_atomic");
    tt_ptx_has(m, "atom.global.add");
    if (!tt.dev) {
        tj_module_destroy(m);
        return;
    }
    int64_t n = 64, four = NSLOTS;
    tj_array *aout = tt_array(i32, 1, &four, NULL), *aolds = tt_array(i32, 1, &n, NULL);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(aolds)};
    tj_status st = tj_launch(tt.dev, m, "checked_atomic", 1, &n, tt.block_dim, args, 2);
    ck_assert_msg(st == TJ_ERR_KERNEL, "(%s) status %s, expected TJ_ERR_KERNEL: %s", tt_where(),
                  tj_status_name(st), tj_device_error(tt.dev) ? tj_device_error(tt.dev) : "?");
    char want[256];
    int B = tt_B();
    snprintf(want, sizeof want, "kernel 'checked_atomic': array 'out': index %d is out of range "
             "[0, %d) in dimension 0 (block %d, lane %d)", NSLOTS, NSLOTS, BAD_THREAD / B,
             BAD_THREAD % B);
    ck_assert_str_eq(tj_device_error(tt.dev), want);
    int32_t got[NSLOTS], go[64];
    tt_read(aout, got);
    tt_read(aolds, go);
    for (int s2 = 0; s2 < NSLOTS; s2++) {
        int32_t w = 0;
        for (int i = s2; i < 64; i += NSLOTS)
            w += i == BAD_THREAD ? 0 : i + 1;
        ck_assert_msg(got[s2] == w, "(%s) out[%d] is %d, expected %d", tt_where(), s2, got[s2],
                      w);
    }
    ck_assert_int_eq(go[BAD_THREAD], 0);
    tj_array_destroy(aout);
    tj_array_destroy(aolds);
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

/* The array parameter 'a' of 'elem' (parameters come first). */
static tj_val *
err_array(tj_kernel *k, const tj_type *elem)
{
    return tj_param_array(k, "a", elem, 1);
}

/* atomic_<o>(a[0], value); true when it failed. */
static bool
err_atomic(tj_kernel *k, op o, tj_val *a, tj_val *value)
{
    tj_val *i = tt_i32(k, 0);
    return emit_atomic(k, o, a, &i, 1, value) == NULL;
}

static bool
e_add_bool(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_BOOL));
    return err_atomic(k, OP_ADD, a, tj_const_bool(k, true));
}

static bool
e_max_bool(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_BOOL));
    return err_atomic(k, OP_MAX, a, tj_const_bool(k, true));
}

static bool
e_min_i16(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_I16));
    return err_atomic(k, OP_MIN, a, tj_const_int(k, TJ_DTYPE_I16, -3));
}

static bool
e_max_u8(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_U8));
    return err_atomic(k, OP_MAX, a, tj_const_int(k, TJ_DTYPE_U8, 3));
}

static bool
e_add_u16(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_U16));
    return err_atomic(k, OP_ADD, a, tj_const_int(k, TJ_DTYPE_U16, 3));
}

static bool
e_min_f16(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_F16));
    return err_atomic(k, OP_MIN, a, tj_const_float(k, TJ_DTYPE_F16, 1));
}

static bool
e_max_vec2d(tj_kernel *k)
{
    const tj_type *v2 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F64, 2);
    tj_val *a = err_array(k, v2);
    return err_atomic(k, OP_MAX, a, tj_zero(k, v2));
}

static bool
e_min_quat(tj_kernel *k)
{
    const tj_type *q = tj_context_get_quat_type(tjt.ctx, TJ_DTYPE_F32);
    tj_val *a = err_array(k, q);
    return err_atomic(k, OP_MIN, a, tj_zero(k, q));
}

static bool
e_add_struct(tj_kernel *k)
{
    const tj_field fields[] = {{"a", tjt_type(TJ_DTYPE_I32)}, {"b", tjt_type(TJ_DTYPE_F64)}};
    const tj_type *st = tj_context_new_struct_type(tjt.ctx, "pair", fields, 2);
    ck_assert_ptr_nonnull(st);
    tj_val *a = err_array(k, st);
    return err_atomic(k, OP_ADD, a, tj_zero(k, st));
}

static bool
e_value_type(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_F32));
    return err_atomic(k, OP_ADD, a, tt_i32(k, 1));
}

static bool
e_value_f64_into_f32(tj_kernel *k)
{
    tj_val *a = err_array(k, tjt_type(TJ_DTYPE_F32));
    return err_atomic(k, OP_MIN, a, tj_const_float(k, TJ_DTYPE_F64, 1));
}

#define NEED " (atomics need 32- or 64-bit elements, or float16 add)"

static const tt_err_row err_rows[] = {
    {"add_bool", 0, TJ_ERR_INVALID, "tj_atomic_add: arrays of bool are not supported" NEED,
     e_add_bool},
    {"max_bool", 0, TJ_ERR_INVALID, "tj_atomic_max: arrays of bool are not supported" NEED,
     e_max_bool},
    {"min_int16", 0, TJ_ERR_INVALID, "tj_atomic_min: arrays of int16 are not supported" NEED,
     e_min_i16},
    {"max_uint8", 32, TJ_ERR_INVALID, "tj_atomic_max: arrays of uint8 are not supported" NEED,
     e_max_u8},
    {"add_uint16", 0, TJ_ERR_INVALID, "tj_atomic_add: arrays of uint16 are not supported" NEED,
     e_add_u16},
    {"min_float16", 0, TJ_ERR_INVALID,
     "tj_atomic_min: arrays of float16 are not supported" NEED, e_min_f16},
    {"max_vec2d", 0, TJ_ERR_INVALID, "tj_atomic_max: arrays of vec2d are not supported",
     e_max_vec2d},
    {"min_quat", 0, TJ_ERR_INVALID, "tj_atomic_min: arrays of quatf are not supported",
     e_min_quat},
    {"add_struct", 0, TJ_ERR_INVALID, "tj_atomic_add: arrays of pair are not supported",
     e_add_struct},
    {"value_type", 0, TJ_ERR_INVALID,
     "tj_atomic_add: argument 'value': int32, the array holds float32", e_value_type},
    {"value_f64_into_f32", 0, TJ_ERR_INVALID,
     "tj_atomic_min: argument 'value': float64, the array holds float32", e_value_f64_into_f32},
};

START_TEST(test_atomics_reject_element_types_they_do_not_take)
{
    tt_check_error_row(&err_rows[_i]);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_atomics_from_many_threads_give_exact_results_and_old_values,
                TT_NELEMS(at_rows));
    tt_add_rows(tc, kind, test_debug_atomic_out_of_range_is_skipped_and_reported, 1);
    if (kind == TT_CPU1)
        tcase_add_test(tc, test_atomic_reference_values_cover_both_signs);
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("atomics");
    TCase *errors = tt_errors_tcase();
    tcase_add_loop_test(errors, test_atomics_reject_element_types_they_do_not_take, 0,
                        TT_NELEMS(err_rows));
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
