/* tj-test: CUDA */
/*
 * tests/check_scatter_add.c: tile_scatter_add (SPEC 4) against references computed here.
 *
 *   collisions: every lane adds into one element (atomic), for every type that accumulates
 *               (int32/64, uint32/64, float16/32/64, vec3f, and matrices mat22f, mat33d,
 *               mat23 of int64, mat44 of uint32, componentwise), plus per-lane indices with
 *               has_value false on some lanes; register tiles (promoted) and shared tiles.
 *   unique indices with atomic = false, 1-D and 2-D, 3-D, 4-D; 2-D, 3-D and 4-D indices
 *   with collisions; struct elements (the float16/32/64, 32/64-bit integer and vector or
 *   matrix fields accumulate, bool, int8, int16, uint8 and uint16 fields are left as they
 *   were); the histogram seed; bins cast from floats of every kind (NaN, infinities, the
 *   integer limits); lanes that add nothing (has_value false, an index out of
 *   range) with an addend of l + 1 and the constant 1, and on the GPU the integer kernel's
 *   PTX without the float kernel's branch; index errors in debug builds (SPEC 5); build
 *   errors.
 *
 * Which lanes add: in width-1 mode a block has one lane (lane 0); in cooperative mode and
 * on the GPU every lane of the block; in a partial block (a launch whose thread count is
 * not a multiple of B) only the lanes that exist. A shared tile is stored by the lanes
 * that own its elements in the register layout (element e: lane e % B), so in a partial
 * block the elements of lanes that do not run are not stored (they stay zero).
 *
 * Values are small integers or multiples of 1/4, so every sum is exact in any order and
 * every check is exact, whatever order the collisions are applied in.
 *
 * Test cases: cpu1, coop (block widths 2, 31, 32, 33, 64, 256; partial blocks), ptx (the
 * same kernels through ptxas, grepped for atom.shared and bar.sync), cuda, errors.
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

/* ---- dtypes and host values --------------------------------------------------------------- */

static const char *const dt_names[] = {
    [TJ_DTYPE_I32] = "int32",   [TJ_DTYPE_I64] = "int64",   [TJ_DTYPE_U32] = "uint32",
    [TJ_DTYPE_U64] = "uint64",  [TJ_DTYPE_F16] = "float16", [TJ_DTYPE_F32] = "float32",
    [TJ_DTYPE_F64] = "float64",
};

static bool
dt_float(tj_dtype dt)
{
    return dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64;
}

static size_t
dt_size(tj_dtype dt)
{
    if (dt == TJ_DTYPE_F16)
        return 2;
    return dt == TJ_DTYPE_I32 || dt == TJ_DTYPE_U32 || dt == TJ_DTYPE_F32 ? 4 : 8;
}

/* Element j of a host array of 'dt' as a double (the checked values are exact in double). */
static double
get_d(tj_dtype dt, const void *base, int64_t j)
{
    const char *p = (const char *)base + (size_t)j * dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_I32: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case TJ_DTYPE_U32: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case TJ_DTYPE_I64: {
        int64_t v;
        memcpy(&v, p, 8);
        return (double)v;
    }
    case TJ_DTYPE_U64: {
        uint64_t v;
        memcpy(&v, p, 8);
        return (double)v;
    }
    case TJ_DTYPE_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return tjt_half_to_double(h);
    }
    case TJ_DTYPE_F32: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static void
put_d(tj_dtype dt, void *base, int64_t j, double x)
{
    char *p = (char *)base + (size_t)j * dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_I32: {
        int32_t v = (int32_t)x;
        memcpy(p, &v, 4);
        return;
    }
    case TJ_DTYPE_U32: {
        uint32_t v = (uint32_t)x;
        memcpy(p, &v, 4);
        return;
    }
    case TJ_DTYPE_I64: {
        int64_t v = (int64_t)x;
        memcpy(p, &v, 8);
        return;
    }
    case TJ_DTYPE_U64: {
        uint64_t v = (uint64_t)x;
        memcpy(p, &v, 8);
        return;
    }
    case TJ_DTYPE_F16: {
        uint16_t h = tjt_half_from_double(x);
        memcpy(p, &h, 2);
        return;
    }
    case TJ_DTYPE_F32: {
        float v = (float)x;
        memcpy(p, &v, 4);
        return;
    }
    default:
        memcpy(p, &x, 8);
    }
}

/* ---- collisions: every lane adds into one element ------------------------------------------- */

typedef struct crow {
    tj_dtype dt;
    int ncomp;           /* 1: the scalar; 3: vec3 of dt */
    tj_storage storage;  /* of the tile before the scatter (register tiles are promoted) */
} crow;

static const crow coll_rows[] = {
    {TJ_DTYPE_I32, 1, TJ_STORAGE_SHARED},   {TJ_DTYPE_I64, 1, TJ_STORAGE_REGISTER},
    {TJ_DTYPE_U32, 1, TJ_STORAGE_REGISTER}, {TJ_DTYPE_U64, 1, TJ_STORAGE_SHARED},
    {TJ_DTYPE_F16, 1, TJ_STORAGE_SHARED},   {TJ_DTYPE_F32, 1, TJ_STORAGE_REGISTER},
    {TJ_DTYPE_F64, 1, TJ_STORAGE_SHARED},   {TJ_DTYPE_F32, 3, TJ_STORAGE_REGISTER},
};

/* Component c of the first value lane l adds (into element 1): exact in every type. */
static double
first_value(tj_dtype dt, int c, int64_t l)
{
    switch (dt) {
    case TJ_DTYPE_I32:
        return (double)(l * 3 - 100);
    case TJ_DTYPE_I64:
        return (double)(l - 7) * 8589934592.0; /* 2^33 */
    case TJ_DTYPE_U32:
        return (double)(l * 1000 + 1);
    case TJ_DTYPE_U64:
        return 1099511627776.0 + (double)l; /* 2^40 + l */
    case TJ_DTYPE_F16:
        return (double)(l % 4) * 0.5 + 0.5;
    default:
        return c == 0 ? (double)l * 0.5 : c == 1 ? 1.0 : -(double)l - 0.25;
    }
}

/* Component c of the second value lane l adds (into element l % 4 when l % 3 != 1). */
static double
second_value(int c, int64_t l)
{
    return c == 1 ? (double)(l % 5) : 1.0;
}

static const tj_type *
crow_type(const crow *r)
{
    return r->ncomp == 1 ? tjt_type(r->dt) : tj_context_get_vector_type(tjt.ctx, r->dt, 3);
}

static tj_val *
crow_value(tj_kernel *k, const crow *r, tj_val *lane, bool first)
{
    tj_val *comps[3];
    const tj_type *st = tjt_type(r->dt);
    for (int c = 0; c < r->ncomp; c++) {
        /* the host formula, evaluated in the kernel in float64, converted exactly */
        tj_val *l = tj_cast(k, lane, tjt_type(TJ_DTYPE_F64));
        tj_val *x;
        if (!first) {
            x = c == 1 ? tj_cast(k, bin(k, TJ_BIN_MOD, lane, ci(k, 5)), tjt_type(TJ_DTYPE_F64))
                       : tj_const_float(k, TJ_DTYPE_F64, 1.0);
        } else {
            switch (r->dt) {
            case TJ_DTYPE_I32:
                x = bin(k, TJ_BIN_SUB, bin(k, TJ_BIN_MUL, l, tj_const_float(k, TJ_DTYPE_F64, 3)),
                        tj_const_float(k, TJ_DTYPE_F64, 100));
                break;
            case TJ_DTYPE_I64:
                x = bin(k, TJ_BIN_MUL, bin(k, TJ_BIN_SUB, l, tj_const_float(k, TJ_DTYPE_F64, 7)),
                        tj_const_float(k, TJ_DTYPE_F64, 8589934592.0));
                break;
            case TJ_DTYPE_U32:
                x = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, l, tj_const_float(k, TJ_DTYPE_F64, 1000)),
                        tj_const_float(k, TJ_DTYPE_F64, 1));
                break;
            case TJ_DTYPE_U64:
                x = bin(k, TJ_BIN_ADD, l, tj_const_float(k, TJ_DTYPE_F64, 1099511627776.0));
                break;
            case TJ_DTYPE_F16:
                x = bin(k, TJ_BIN_ADD,
                        bin(k, TJ_BIN_MUL,
                            tj_cast(k, bin(k, TJ_BIN_MOD, lane, ci(k, 4)), tjt_type(TJ_DTYPE_F64)),
                            tj_const_float(k, TJ_DTYPE_F64, 0.5)),
                        tj_const_float(k, TJ_DTYPE_F64, 0.5));
                break;
            default:
                x = c == 0 ? bin(k, TJ_BIN_MUL, l, tj_const_float(k, TJ_DTYPE_F64, 0.5))
                    : c == 1 ? tj_const_float(k, TJ_DTYPE_F64, 1.0)
                             : bin(k, TJ_BIN_SUB, tj_unary(k, TJ_UN_NEG, l),
                                   tj_const_float(k, TJ_DTYPE_F64, 0.25));
                break;
            }
        }
        comps[c] = tj_cast(k, x, st);
    }
    return r->ncomp == 1 ? comps[0] : tj_compose(k, crow_type(r), comps, 3);
}

/* tile = zeros(4); scatter_add(tile, 1, v1(lane), true); scatter_add(tile, lane % 4,
 * v2(lane), lane % 3 != 1, atomic = true); out[block * 4 ...] = tile. */
START_TEST(test_scatter_add_collisions_from_every_lane_accumulate)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const crow *r = &coll_rows[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    const tj_type *t = crow_type(r);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "collide", &o);
    tj_val *out = tj_param_array(k, "out", t, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    int four = 4;
    tj_val *tile = tj_tile_zeros(k, t, 1, &four, r->storage);
    tj_val *one = ci(k, 1);
    ck_assert(tj_tile_scatter_add(k, tile, &one, 1, crow_value(k, r, lane, true),
                                  tj_const_bool(k, true), NULL));
    ck_assert_int_eq(tj_tile_get_storage(tile), TJ_STORAGE_SHARED);
    tj_val *idx = bin(k, TJ_BIN_MOD, lane, ci(k, 4));
    tj_val *has = tj_compare(k, TJ_CMP_NE, bin(k, TJ_BIN_MOD, lane, ci(k, 3)), ci(k, 1));
    ck_assert(tj_tile_scatter_add(k, tile, &idx, 1, crow_value(k, r, lane, false), has,
                                  tj_const_bool(k, true)));
    tj_val *off = bin(k, TJ_BIN_MUL, blk, ci(k, 4));
    tj_tile_store(k, out, tile, &off);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        ptx_has(m, "bar.sync", true);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 3;
    int64_t total = nblocks * (int64_t)W;
    int64_t nelem = nblocks * 4 * r->ncomp;
    void *got = calloc((size_t)nelem, dt_size(r->dt));
    ck_assert_ptr_nonnull(got);
    tj_array *oa = tjt_array(device(), t, nblocks * 4, NULL);
    tj_arg args[] = {tj_arg_array(oa)};
    int64_t counts[2] = {total, total - W + (W > 1 ? W / 3 + 1 : 0)};
    for (int c = 0; c < (W > 1 ? 2 : 1); c++) {
        int64_t n = counts[c];
        if (c == 1 && g_where == ON_COOP)
            tjt_ok(device(), tj_device_set_cpu_threads(device(), 1));
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "collide", n, B, args, 1);
        tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)nelem * dt_size(r->dt)));
        for (int64_t b = 0; b < nblocks; b++) {
            int64_t act = active_in(n, W, b);
            for (int e = 0; e < 4; e++)
                for (int comp = 0; comp < r->ncomp; comp++) {
                    double want = 0;
                    for (int64_t l = 0; l < act && e % W < act; l++) {
                        if (e == 1)
                            want += first_value(r->dt, comp, l);
                        if (l % 4 == e && l % 3 != 1)
                            want += second_value(comp, l);
                    }
                    double v = get_d(r->dt, got, (b * 4 + e) * r->ncomp + comp);
                    ck_assert_msg(v == want, "%s%s, B = %u, %lld threads: block %lld element %d "
                                  "component %d is %.17g, expected %.17g", dt_names[r->dt],
                                  r->ncomp == 3 ? " vec3" : "", W, (long long)n, (long long)b,
                                  e, comp, v, want);
                }
        }
    }
    free(got);
    tj_array_destroy(oa);
}
END_TEST

/* ---- matrix elements ------------------------------------------------------------------------ */

static const struct matrow {
    tj_dtype dt;
    int rows, cols;
    tj_storage storage;  /* of the tile before the scatter (register tiles are promoted) */
} mat_rows[] = {
    {TJ_DTYPE_F32, 2, 2, TJ_STORAGE_REGISTER},
    {TJ_DTYPE_F64, 3, 3, TJ_STORAGE_SHARED},
    {TJ_DTYPE_I64, 2, 3, TJ_STORAGE_SHARED},
    {TJ_DTYPE_U32, 4, 4, TJ_STORAGE_REGISTER},
};

/* Component q (row-major) of the value lane l adds: 'first' into element 1 from every lane,
 * a * l + c with a and c below; else (l % 5) + q into element l % 4 when l % 3 != 1. Exact
 * in every type, whatever order the collisions are applied in. */
static void
mat_coeffs(tj_dtype dt, int q, double *a, double *c)
{
    switch (dt) {
    case TJ_DTYPE_I64:
        *a = 8589934592.0; /* (l - 7) * 2^33 + q */
        *c = q - 7 * 8589934592.0;
        return;
    case TJ_DTYPE_U32:
        *a = 1000;
        *c = q;
        return;
    default:
        *a = 0.25 * (q + 1);
        *c = -q;
        return;
    }
}

static double
mat_value(tj_dtype dt, bool first, int q, int64_t l)
{
    double a, c;
    mat_coeffs(dt, q, &a, &c);
    return first ? a * (double)l + c : (double)(l % 5) + q;
}

static tj_val *
mat_value_in(tj_kernel *k, const struct matrow *r, const tj_type *t, tj_val *lane, bool first)
{
    const tj_type *f64 = tjt_type(TJ_DTYPE_F64), *st = tjt_type(r->dt);
    tj_val *comps[16];
    tj_val *l = tj_cast(k, lane, f64), *l5 = tj_cast(k, bin(k, TJ_BIN_MOD, lane, ci(k, 5)), f64);
    for (int q = 0; q < r->rows * r->cols; q++) {
        double a, c;
        mat_coeffs(r->dt, q, &a, &c);
        tj_val *x = first ? bin(k, TJ_BIN_MUL, l, tj_const_float(k, TJ_DTYPE_F64, a)) : l5;
        x = bin(k, TJ_BIN_ADD, x, tj_const_float(k, TJ_DTYPE_F64, first ? c : q));
        comps[q] = tj_cast(k, x, st);
    }
    return tj_compose(k, t, comps, (size_t)(r->rows * r->cols));
}

/* The collisions test with matrix elements: tile = zeros(4) of mat RxC; every lane adds
 * M1(lane) at 1, then lanes with lane % 3 != 1 add M2(lane) at lane % 4 (atomic = true);
 * each component accumulates on its own. out[block * 4 ...] = tile. */
START_TEST(test_scatter_add_matrix_elements_accumulate_componentwise)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const struct matrow *r = &mat_rows[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    int nc = r->rows * r->cols;
    const tj_type *t = tj_context_get_matrix_type(tjt.ctx, r->dt, r->rows, r->cols);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(tj_type_get_size(t), (size_t)nc * dt_size(r->dt));
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "collide_mat", &o);
    tj_val *out = tj_param_array(k, "out", t, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    int four = 4;
    tj_val *tile = tj_tile_zeros(k, t, 1, &four, r->storage);
    tj_val *one = ci(k, 1);
    ck_assert(tj_tile_scatter_add(k, tile, &one, 1, mat_value_in(k, r, t, lane, true),
                                  tj_const_bool(k, true), NULL));
    ck_assert_int_eq(tj_tile_get_storage(tile), TJ_STORAGE_SHARED);
    tj_val *idx = bin(k, TJ_BIN_MOD, lane, ci(k, 4));
    tj_val *has = tj_compare(k, TJ_CMP_NE, bin(k, TJ_BIN_MOD, lane, ci(k, 3)), ci(k, 1));
    ck_assert(tj_tile_scatter_add(k, tile, &idx, 1, mat_value_in(k, r, t, lane, false), has,
                                  tj_const_bool(k, true)));
    tj_val *off = bin(k, TJ_BIN_MUL, blk, ci(k, 4));
    tj_tile_store(k, out, tile, &off);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        ptx_has(m, "bar.sync", true);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 3;
    int64_t nelem = nblocks * 4 * nc;
    void *got = calloc((size_t)nelem, dt_size(r->dt));
    ck_assert_ptr_nonnull(got);
    tj_array *oa = tjt_array(device(), t, nblocks * 4, NULL);
    tj_arg args[] = {tj_arg_array(oa)};
    int64_t counts[2] = {nblocks * (int64_t)W, 2 * (int64_t)W + (W > 1 ? W / 3 + 1 : 0)};
    for (int c = 0; c < (W > 1 ? 2 : 1); c++) {
        int64_t n = counts[c];
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "collide_mat", n, B, args, 1);
        tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)nelem * dt_size(r->dt)));
        for (int64_t b = 0; b < nblocks; b++) {
            int64_t act = active_in(n, W, b);
            for (int e = 0; e < 4; e++)
                for (int q = 0; q < nc; q++) {
                    double want = 0;
                    for (int64_t l = 0; l < act && e % W < act; l++) {
                        if (e == 1)
                            want += mat_value(r->dt, true, q, l);
                        if (l % 4 == e && l % 3 != 1)
                            want += mat_value(r->dt, false, q, l);
                    }
                    double v = get_d(r->dt, got, (b * 4 + e) * nc + q);
                    ck_assert_msg(v == want, "mat%d%d %s, B = %u, %lld threads: block %lld "
                                  "element %d component (%d, %d) is %.17g, expected %.17g",
                                  r->rows, r->cols, dt_names[r->dt], W, (long long)n,
                                  (long long)b, e, q / r->cols, q % r->cols, v, want);
                }
        }
    }
    free(got);
    tj_array_destroy(oa);
}
END_TEST

/* ---- unique indices, atomic = false ---------------------------------------------------------- */

static const tj_dtype unique_dts[] = {TJ_DTYPE_I32, TJ_DTYPE_F32, TJ_DTYPE_U64, TJ_DTYPE_F64};

/* tile = load(x, 2W, block * 2W); lane l adds l + 1 at (7l + 3) mod 2W (a permutation,
 * since 7 is prime to 2W) with a plain read-modify-write. */
START_TEST(test_scatter_add_unique_indices_without_atomics)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    tj_dtype dt = unique_dts[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    uint32_t W = width_of(B);
    int S = 2 * (int)W;
    const tj_type *t = tjt_type(dt);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "unique", &o);
    tj_val *x = tj_param_array(k, "x", t, 1), *out = tj_param_array(k, "out", t, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *off = bin(k, TJ_BIN_MUL, blk, ci(k, S));
    tj_val *tile = tj_tile_load(k, x, 1, &S, &off, TJ_STORAGE_REGISTER);
    tj_val *idx = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lane, ci(k, 7)), ci(k, 3));
    idx = bin(k, TJ_BIN_MOD, idx, ci(k, S));
    tj_val *v = tj_cast(k, bin(k, TJ_BIN_ADD, lane, ci(k, 1)), t);
    ck_assert(tj_tile_scatter_add(k, tile, &idx, 1, v, tj_const_bool(k, true),
                                  tj_const_bool(k, false)));
    tj_tile_store(k, out, tile, &off);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", false);
        ptx_has(m, "bar.sync", true);
        return;
    }
    const int nblocks = 2;
    int64_t n = nblocks * (int64_t)S;
    void *xh = calloc((size_t)n, dt_size(dt)), *got = calloc((size_t)n, dt_size(dt));
    ck_assert(xh && got);
    for (int64_t j = 0; j < n; j++)
        put_d(dt, xh, j, (double)(j * 10 + 1000));
    tj_array *xa = tjt_array(device(), t, n, xh), *oa = tjt_array(device(), t, n, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    int64_t threads = nblocks * (int64_t)W;
    launch_n(m, "unique", threads, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)n * dt_size(dt)));
    for (int64_t b = 0; b < nblocks; b++)
        for (int64_t e = 0; e < S; e++) {
            double want = get_d(dt, xh, b * S + e);
            for (int64_t l = 0; l < W; l++)
                if ((l * 7 + 3) % S == e)
                    want += (double)(l + 1);
            double v = get_d(dt, got, b * S + e);
            ck_assert_msg(v == want, "%s, B = %u: block %lld element %lld is %.17g, expected %.17g",
                          dt_names[dt], W, (long long)b, (long long)e, v, want);
        }
    free(xh);
    free(got);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* ---- 2-D, 3-D and 4-D indices ---------------------------------------------------------------- */

static const struct mrow {
    int rank;
    int shape[4];
    tj_dtype dt;
    bool atomic;
} multi_rows[] = {
    {2, {3, 4}, TJ_DTYPE_F64, true},
    {3, {2, 3, 4}, TJ_DTYPE_I32, true},
    {4, {2, 2, 3, 2}, TJ_DTYPE_U32, true},
    {4, {2, 2, 3, 2}, TJ_DTYPE_F32, true},
};

/* Lane l with l % 3 != 1 adds l + 1 at the element of linear index (5l + block) % size. */
START_TEST(test_scatter_add_multi_dimensional_indices_with_has_value_false_on_some_lanes)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const struct mrow *r = &multi_rows[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    const tj_type *t = tjt_type(r->dt);
    int size = 1;
    for (int d = 0; d < r->rank; d++)
        size *= r->shape[d];
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "multi", &o);
    tj_val *out = tj_param_array(k, "out", t, r->rank);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *tile = tj_tile_zeros(k, t, r->rank, r->shape, TJ_STORAGE_SHARED);
    tj_val *p = bin(k, TJ_BIN_MOD, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lane, ci(k, 5)), blk),
                    ci(k, size));
    tj_val *idx[4];
    for (int d = r->rank - 1; d >= 0; d--) {
        idx[d] = bin(k, TJ_BIN_MOD, p, ci(k, r->shape[d]));
        p = bin(k, TJ_BIN_DIV, p, ci(k, r->shape[d]));
    }
    tj_val *has = tj_compare(k, TJ_CMP_NE, bin(k, TJ_BIN_MOD, lane, ci(k, 3)), ci(k, 1));
    tj_val *v = tj_cast(k, bin(k, TJ_BIN_ADD, lane, ci(k, 1)), t);
    ck_assert(tj_tile_scatter_add(k, tile, idx, r->rank, v, has, tj_const_bool(k, r->atomic)));
    tj_val *off[4] = {bin(k, TJ_BIN_MUL, blk, ci(k, r->shape[0])), ci(k, 0), ci(k, 0), ci(k, 0)};
    tj_tile_store(k, out, tile, off);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 3;
    int64_t dims[4];
    for (int d = 0; d < r->rank; d++)
        dims[d] = r->shape[d] * (d == 0 ? nblocks : 1);
    int64_t nelem = (int64_t)nblocks * size;
    void *got = calloc((size_t)nelem, dt_size(r->dt));
    ck_assert_ptr_nonnull(got);
    tj_array *oa = NULL;
    tjt_ok(device(), tj_array_create(device(), t, r->rank, dims, &oa));
    tj_arg args[] = {tj_arg_array(oa)};
    int64_t counts[2] = {nblocks * (int64_t)W, 2 * (int64_t)W + (W > 1 ? W / 2 + 1 : 0)};
    for (int c = 0; c < (W > 1 ? 2 : 1); c++) {
        int64_t n = counts[c];
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "multi", n, B, args, 1);
        tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)nelem * dt_size(r->dt)));
        for (int64_t b = 0; b < nblocks; b++) {
            int64_t act = active_in(n, W, b);
            for (int64_t e = 0; e < size; e++) {
                double want = 0;
                for (int64_t l = 0; l < act && e % W < act; l++)
                    if (l % 3 != 1 && (5 * l + b) % size == e)
                        want += (double)(l + 1);
                double v = get_d(r->dt, got, b * size + e);
                ck_assert_msg(v == want, "rank %d %s, B = %u, %lld threads: block %lld element "
                              "%lld is %.17g, expected %.17g", r->rank, dt_names[r->dt], W,
                              (long long)n, (long long)b, (long long)e, v, want);
            }
        }
    }
    free(got);
    tj_array_destroy(oa);
}
END_TEST

/* ---- unique 2-D, 3-D and 4-D indices, atomic = false ---------------------------------------- */

static const struct umrow {
    int rank;
    int shape[4];  /* 0: the block width W */
    tj_dtype dt;
} umulti_rows[] = {
    {2, {2, 0}, TJ_DTYPE_F32},
    {2, {0, 3}, TJ_DTYPE_I64},
    {3, {2, 0, 2}, TJ_DTYPE_U32},
    {3, {3, 2, 0}, TJ_DTYPE_F64},
    {4, {2, 0, 1, 2}, TJ_DTYPE_I32},
};

/* tile = load(x, shape, (block * shape[0], 0, ...)); lane l with l % 3 != 1 adds l + 1 at the
 * element of linear index (7l + 3) % size with a plain read-modify-write. The size is 2W to
 * 6W and never a multiple of 7, so no two lanes of a block meet. */
START_TEST(test_scatter_add_unique_multi_dimensional_indices_without_atomics)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    bool all = g_where == ON_COOP || g_where == ON_CUDA;
    const struct umrow *r = &umulti_rows[all ? local / NWIDTHS : local];
    uint32_t B = widths[local % NWIDTHS];
    uint32_t W = width_of(B);
    const tj_type *t = tjt_type(r->dt);
    int shape[4], size = 1;
    for (int d = 0; d < r->rank; d++) {
        shape[d] = r->shape[d] ? r->shape[d] : (int)W;
        size *= shape[d];
    }
    ck_assert(size % 7 != 0 && size >= (int)W);
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "unique_md", &o);
    tj_val *x = tj_param_array(k, "x", t, r->rank), *out = tj_param_array(k, "out", t, r->rank);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *off[4] = {bin(k, TJ_BIN_MUL, blk, ci(k, shape[0])), ci(k, 0), ci(k, 0), ci(k, 0)};
    tj_val *tile = tj_tile_load(k, x, r->rank, shape, off, TJ_STORAGE_REGISTER);
    tj_val *p = bin(k, TJ_BIN_MOD, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lane, ci(k, 7)), ci(k, 3)),
                    ci(k, size));
    tj_val *idx[4];
    for (int d = r->rank - 1; d >= 0; d--) {
        idx[d] = bin(k, TJ_BIN_MOD, p, ci(k, shape[d]));
        p = bin(k, TJ_BIN_DIV, p, ci(k, shape[d]));
    }
    tj_val *has = tj_compare(k, TJ_CMP_NE, bin(k, TJ_BIN_MOD, lane, ci(k, 3)), ci(k, 1));
    tj_val *v = tj_cast(k, bin(k, TJ_BIN_ADD, lane, ci(k, 1)), t);
    ck_assert(tj_tile_scatter_add(k, tile, idx, r->rank, v, has, tj_const_bool(k, false)));
    tj_tile_store(k, out, tile, off);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", false);
        ptx_has(m, "bar.sync", true);
        return;
    }
    const int nblocks = 3;
    int64_t dims[4], nelem = (int64_t)nblocks * size;
    for (int d = 0; d < r->rank; d++)
        dims[d] = shape[d] * (d == 0 ? nblocks : 1);
    void *xh = calloc((size_t)nelem, dt_size(r->dt)), *got = calloc((size_t)nelem, dt_size(r->dt));
    ck_assert(xh && got);
    for (int64_t j = 0; j < nelem; j++)
        put_d(r->dt, xh, j, (double)(j * 10 + 1000));
    tj_array *xa = NULL, *oa = NULL;
    tjt_ok(device(), tj_array_create(device(), t, r->rank, dims, &xa));
    tjt_ok(device(), tj_array_create(device(), t, r->rank, dims, &oa));
    tjt_ok(device(), tj_array_copy_from_host(xa, xh, (size_t)nelem * dt_size(r->dt)));
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    int64_t counts[2] = {nblocks * (int64_t)W, 2 * (int64_t)W + (W > 1 ? W / 2 + 1 : 0)};
    for (int c = 0; c < (W > 1 ? 2 : 1); c++) {
        int64_t n = counts[c];
        tjt_ok(device(), tj_array_zero(oa));
        launch_n(m, "unique_md", n, B, args, 2);
        tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)nelem * dt_size(r->dt)));
        for (int64_t b = 0; b < nblocks; b++) {
            int64_t act = active_in(n, W, b);
            for (int64_t e = 0; e < size; e++) {
                /* owned by a lane that did not run: not stored */
                double want = e % W < act ? get_d(r->dt, xh, b * size + e) : 0;
                for (int64_t l = 0; l < act && e % W < act; l++)
                    if (l % 3 != 1 && (7 * l + 3) % size == e)
                        want += (double)(l + 1);
                double v = get_d(r->dt, got, b * size + e);
                ck_assert_msg(v == want, "rank %d %s, B = %u, %lld threads: block %lld element "
                              "%lld is %.17g, expected %.17g", r->rank, dt_names[r->dt], W,
                              (long long)n, (long long)b, (long long)e, v, want);
            }
        }
    }
    free(xh);
    free(got);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* ---- struct elements ------------------------------------------------------------------------- */

typedef struct mixed_c {
    float a;
    int32_t b;
    bool c;
    int8_t d;
    int16_t e;
    float v[3];
    double f;
    uint64_t g;
} mixed_c;

static const tj_type *
mixed_type(void)
{
    const tj_field fields[] = {
        {"a", tjt_type(TJ_DTYPE_F32)},  {"b", tjt_type(TJ_DTYPE_I32)},
        {"c", tjt_type(TJ_DTYPE_BOOL)}, {"d", tjt_type(TJ_DTYPE_I8)},
        {"e", tjt_type(TJ_DTYPE_I16)},  {"v", tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3)},
        {"f", tjt_type(TJ_DTYPE_F64)},  {"g", tjt_type(TJ_DTYPE_U64)},
    };
    return tjt_struct_type("mixed", fields, NROWS(fields), sizeof(mixed_c));
}

/* The value lane l adds: every field non-zero. */
static mixed_c
mixed_value(int64_t l)
{
    return (mixed_c){.a = (float)l * 0.25f + 1, .b = (int32_t)l - 5, .c = true, .d = 3, .e = 300,
                     .v = {(float)l, 0.5f, -2}, .f = (double)l * 2 + 0.5, .g = (uint64_t)l << 33};
}

static tj_val *
mixed_value_in(tj_kernel *k, const tj_type *t, tj_val *lane)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *f64 = tjt_type(TJ_DTYPE_F64);
    tj_val *lf = tj_cast(k, lane, f32);
    tj_val *vc[3] = {lf, tj_const_float(k, TJ_DTYPE_F32, 0.5), tj_const_float(k, TJ_DTYPE_F32, -2)};
    tj_val *fields[8] = {
        bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lf, tj_const_float(k, TJ_DTYPE_F32, 0.25)),
            tj_const_float(k, TJ_DTYPE_F32, 1)),
        bin(k, TJ_BIN_SUB, lane, ci(k, 5)),
        tj_const_bool(k, true),
        tj_const_int(k, TJ_DTYPE_I8, 3),
        tj_const_int(k, TJ_DTYPE_I16, 300),
        tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), vc, 3),
        bin(k, TJ_BIN_ADD,
            bin(k, TJ_BIN_MUL, tj_cast(k, lane, f64), tj_const_float(k, TJ_DTYPE_F64, 2)),
            tj_const_float(k, TJ_DTYPE_F64, 0.5)),
        bin(k, TJ_BIN_SHL, tj_cast(k, lane, tjt_type(TJ_DTYPE_U64)),
            tj_const_int(k, TJ_DTYPE_U64, 33)),
    };
    return tj_compose(k, t, fields, 8);
}

/* The struct kernels: tile = load(x, 3) ('storage'); every lane adds value(lane) at
 * lane % 3 (atomic), then lanes 0-2 add theirs at lane (atomic = false, no collisions). */
static tj_module *
struct_kernel(const char *name, const tj_type *t, tj_storage storage, uint32_t B,
              tj_val *(*value)(tj_kernel *, const tj_type *, tj_val *))
{
    tj_kernel_options o = opts_for(B, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", t, 1), *out = tj_param_array(k, "out", t, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    int three = 3;
    tj_val *off = bin(k, TJ_BIN_MUL, blk, ci(k, 3));
    tj_val *tile = tj_tile_load(k, x, 1, &three, &off, storage);
    tj_val *idx = bin(k, TJ_BIN_MOD, lane, ci(k, 3));
    tj_val *v = value(k, t, lane);
    ck_assert(tj_tile_scatter_add(k, tile, &idx, 1, v, tj_const_bool(k, true), NULL));
    ck_assert(tj_tile_scatter_add(k, tile, &lane, 1, v, tj_compare(k, TJ_CMP_LT, lane, ci(k, 3)),
                                  tj_const_bool(k, false)));
    tj_tile_store(k, out, tile, &off);
    return build(k);
}

/* struct_kernel with the mixed struct in a shared tile. */
START_TEST(test_scatter_add_structs_accumulate_only_the_fields_that_add)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    const tj_type *t = mixed_type();
    tj_module *m = struct_kernel("structs", t, TJ_STORAGE_SHARED, B, mixed_value_in);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 2;
    mixed_c init[2 * 3], got[2 * 3];
    for (int j = 0; j < 2 * 3; j++)
        init[j] = (mixed_c){.a = (float)j, .b = 100 * j, .c = j % 2 == 0, .d = (int8_t)(-j - 1),
                            .e = (int16_t)(1000 + j), .v = {1, 2, (float)j}, .f = -(double)j,
                            .g = (uint64_t)j};
    tj_array *xa = tjt_array(device(), t, 6, init), *oa = tjt_array(device(), t, 6, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    int64_t n = nblocks * (int64_t)W - (W > 4 ? W / 2 : 0);
    launch_n(m, "structs", n, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, sizeof got));
    for (int b = 0; b < nblocks; b++) {
        int64_t act = active_in(n, W, b);
        for (int e = 0; e < 3; e++) {
            mixed_c want = init[b * 3 + e];
            for (int64_t l = 0; l < act; l++) {
                int times = (l % 3 == e) + (l == e);
                mixed_c d = mixed_value(l);
                for (int r = 0; r < times; r++) {
                    want.a += d.a;
                    want.b += d.b;
                    for (int c = 0; c < 3; c++)
                        want.v[c] += d.v[c];
                    want.f += d.f;
                    want.g += d.g;
                }
            }
            if (e % W >= act) /* owned by a lane that did not run: not stored */
                want = (mixed_c){0};
            const mixed_c *h = &got[b * 3 + e];
            ck_assert_msg(h->a == want.a && h->b == want.b && h->f == want.f && h->g == want.g &&
                              h->v[0] == want.v[0] && h->v[1] == want.v[1] && h->v[2] == want.v[2],
                          "B = %u, block %d element %d: got a %g b %d v (%g %g %g) f %g g %llu, "
                          "expected a %g b %d v (%g %g %g) f %g g %llu", W, b, e, (double)h->a,
                          h->b, (double)h->v[0], (double)h->v[1], (double)h->v[2], h->f,
                          (unsigned long long)h->g, (double)want.a, want.b, (double)want.v[0],
                          (double)want.v[1], (double)want.v[2], want.f,
                          (unsigned long long)want.g);
            ck_assert_msg(h->c == want.c && h->d == want.d && h->e == want.e,
                          "B = %u, block %d element %d: bool/int8/int16 fields changed to %d %d "
                          "%d, expected %d %d %d", W, b, e, h->c, h->d, h->e, want.c, want.d,
                          want.e);
        }
    }
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* A second struct: float16, uint32, int64 and mat22f fields accumulate; bool, int8, int16,
 * uint8 and uint16 fields are left as they were (SPEC 4). */
typedef struct wide_c {
    uint16_t h;    /* float16 bits */
    bool c;
    int8_t d;
    uint32_t u;
    int64_t i;
    int16_t e;
    uint8_t b8;
    float m[4];    /* mat22f, row-major */
    uint16_t w;
} wide_c;

static const tj_type *
wide_type(void)
{
    const tj_field fields[] = {
        {"h", tjt_type(TJ_DTYPE_F16)},  {"c", tjt_type(TJ_DTYPE_BOOL)},
        {"d", tjt_type(TJ_DTYPE_I8)},   {"u", tjt_type(TJ_DTYPE_U32)},
        {"i", tjt_type(TJ_DTYPE_I64)},  {"e", tjt_type(TJ_DTYPE_I16)},
        {"b8", tjt_type(TJ_DTYPE_U8)},
        {"m", tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 2, 2)},
        {"w", tjt_type(TJ_DTYPE_U16)},
    };
    return tjt_struct_type("wide", fields, NROWS(fields), sizeof(wide_c));
}

/* The value lane l adds: every field non-zero; every sum is exact (h stays below 2^9 in
 * steps of 1/4, u below 2^32). */
static wide_c
wide_value(int64_t l)
{
    return (wide_c){.h = tjt_half_from_double((double)(l % 4) * 0.25 + 0.25), .c = true, .d = 5,
                    .u = (uint32_t)l * 65536u + 7u, .i = (int64_t)(l - 3) * 34359738368 + l,
                    .e = -300, .b8 = 200, .m = {(float)l * 0.5f, 1, -(float)l, 0.25f},
                    .w = 999};
}

static tj_val *
wide_value_in(tj_kernel *k, const tj_type *t, tj_val *lane)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *f64 = tjt_type(TJ_DTYPE_F64);
    const tj_type *i64 = tjt_type(TJ_DTYPE_I64);
    tj_val *lf = tj_cast(k, lane, f32), *l64 = tj_cast(k, lane, i64);
    tj_val *h = bin(k, TJ_BIN_ADD,
                    bin(k, TJ_BIN_MUL, tj_cast(k, bin(k, TJ_BIN_MOD, lane, ci(k, 4)), f64),
                        tj_const_float(k, TJ_DTYPE_F64, 0.25)),
                    tj_const_float(k, TJ_DTYPE_F64, 0.25));
    tj_val *mc[4] = {bin(k, TJ_BIN_MUL, lf, tj_const_float(k, TJ_DTYPE_F32, 0.5)),
                     tj_const_float(k, TJ_DTYPE_F32, 1), tj_unary(k, TJ_UN_NEG, lf),
                     tj_const_float(k, TJ_DTYPE_F32, 0.25)};
    tj_val *fields[9] = {
        tj_cast(k, h, tjt_type(TJ_DTYPE_F16)),
        tj_const_bool(k, true),
        tj_const_int(k, TJ_DTYPE_I8, 5),
        bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, tj_cast(k, lane, tjt_type(TJ_DTYPE_U32)),
                               tj_const_int(k, TJ_DTYPE_U32, 65536)),
            tj_const_int(k, TJ_DTYPE_U32, 7)),
        bin(k, TJ_BIN_ADD,
            bin(k, TJ_BIN_MUL, bin(k, TJ_BIN_SUB, l64, tj_const_int(k, TJ_DTYPE_I64, 3)),
                tj_const_int(k, TJ_DTYPE_I64, 34359738368)),
            l64),
        tj_const_int(k, TJ_DTYPE_I16, -300),
        tj_const_int(k, TJ_DTYPE_U8, 200),
        tj_compose(k, tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 2, 2), mc, 4),
        tj_const_int(k, TJ_DTYPE_U16, 999),
    };
    return tj_compose(k, t, fields, 9);
}

/* struct_kernel with the wide struct, in a register tile (promoted by the scatter-add). */
START_TEST(test_scatter_add_structs_with_half_int64_uint32_and_matrix_fields)
{
    g_where = _i / STRIDE;
    uint32_t B = widths[_i % STRIDE];
    const tj_type *t = wide_type();
    tj_module *m = struct_kernel("wide_structs", t, TJ_STORAGE_REGISTER, B, wide_value_in);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        return;
    }
    uint32_t W = width_of(B);
    const int nblocks = 2;
    wide_c init[2 * 3], got[2 * 3];
    for (int j = 0; j < 2 * 3; j++)
        init[j] = (wide_c){.h = tjt_half_from_double(j * 0.5), .c = j % 2 == 0,
                           .d = (int8_t)(-j - 1), .u = 1000u * (uint32_t)j,
                           .i = -((int64_t)j << 40), .e = (int16_t)(1000 + j),
                           .b8 = (uint8_t)(j + 1), .m = {(float)j, 2, -(float)j, 0.5f},
                           .w = (uint16_t)(40000 + j)};
    tj_array *xa = tjt_array(device(), t, 6, init), *oa = tjt_array(device(), t, 6, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    int64_t n = nblocks * (int64_t)W - (W > 4 ? W / 2 : 0);
    tjt_ok(device(), tj_array_zero(oa));
    launch_n(m, "wide_structs", n, B, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, sizeof got));
    for (int b = 0; b < nblocks; b++) {
        int64_t act = active_in(n, W, b);
        for (int e = 0; e < 3; e++) {
            wide_c want = init[b * 3 + e];
            double h = tjt_half_to_double(want.h);
            for (int64_t l = 0; l < act; l++) {
                int times = (l % 3 == e) + (l == e);
                wide_c d = wide_value(l);
                for (int r = 0; r < times; r++) {
                    h += tjt_half_to_double(d.h);
                    want.u += d.u;
                    want.i += d.i;
                    for (int c = 0; c < 4; c++)
                        want.m[c] += d.m[c];
                }
            }
            want.h = tjt_half_from_double(h);
            if (e % W >= act) /* owned by a lane that did not run: not stored */
                want = (wide_c){0};
            const wide_c *gw = &got[b * 3 + e];
            ck_assert_msg(gw->h == want.h && gw->u == want.u && gw->i == want.i &&
                              gw->m[0] == want.m[0] && gw->m[1] == want.m[1] &&
                              gw->m[2] == want.m[2] && gw->m[3] == want.m[3],
                          "B = %u, block %d element %d: got h %g u %u i %lld m (%g %g; %g %g), "
                          "expected h %g u %u i %lld m (%g %g; %g %g)", W, b, e,
                          tjt_half_to_double(gw->h), gw->u, (long long)gw->i, (double)gw->m[0],
                          (double)gw->m[1], (double)gw->m[2], (double)gw->m[3],
                          tjt_half_to_double(want.h), want.u, (long long)want.i,
                          (double)want.m[0], (double)want.m[1], (double)want.m[2],
                          (double)want.m[3]);
            ck_assert_msg(gw->c == want.c && gw->d == want.d && gw->e == want.e &&
                              gw->b8 == want.b8 && gw->w == want.w,
                          "B = %u, block %d element %d: bool/int8/int16/uint8/uint16 fields "
                          "changed to %d %d %d %d %d, expected %d %d %d %d %d", W, b, e, gw->c,
                          gw->d, gw->e, gw->b8, gw->w, want.c, want.d, want.e, want.b8, want.w);
        }
    }
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* ---- the seed ------------------------------------------------------------------------------- */

/* seeds/tile_scatter_add.txt: [1, 2, 3, 2] with block_dim 8 in cooperative mode and on the
 * GPU; width-1 mode counts only data[0] (the lane is always 0): [1, 0, 0, 0] (SPEC 1). */
START_TEST(test_scatter_add_histogram_seed)
{
    g_where = _i / STRIDE;
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = opts_for(8, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "histogram", &o);
    tj_val *data = tj_param_array(k, "data", f32, 1);
    tj_val *bins_out = tj_param_array(k, "bins_out", f32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    int four = 4;
    tj_val *bins = tj_tile_zeros(k, f32, 1, &four, TJ_STORAGE_SHARED);
    tj_val *d = tj_load(k, data, &tid[1], 1);
    tj_val *b = tj_cast(k, bin(k, TJ_BIN_DIV, d, tj_const_float(k, TJ_DTYPE_F32, 2.0)),
                        tjt_type(TJ_DTYPE_I32));
    ck_assert(tj_tile_scatter_add(k, bins, &b, 1, tj_const_float(k, TJ_DTYPE_F32, 1.0),
                                  tj_const_bool(k, true), tj_const_bool(k, true)));
    tj_tile_store(k, bins_out, bins, NULL);
    tj_module *m = build(k);
    if (!runs()) {
        ptx_has(m, "atom.shared", true);
        return;
    }
    float in[8] = {0.5f, 2.0f, 3.0f, 4.0f, 4.5f, 5.5f, 6.0f, 7.0f}, res[4];
    tj_array *da = tjt_array(device(), f32, 8, in), *oa = tjt_array(device(), f32, 4, NULL);
    tj_arg args[] = {tj_arg_array(da), tj_arg_array(oa)};
    int64_t one = 1;
    tjt_ok(device(), tj_launch_tiled(device(), m, "histogram", 1, &one, 8, args, 2));
    tjt_ok(device(), tj_array_copy_to_host(oa, res, sizeof res));
    static const float want[2][4] = {{1, 2, 3, 2}, {1, 0, 0, 0}};
    const float *w = want[g_where == ON_CPU1];
    ck_assert_msg(res[0] == w[0] && res[1] == w[1] && res[2] == w[2] && res[3] == w[3],
                  "got [%g, %g, %g, %g], expected [%g, %g, %g, %g]", (double)res[0],
                  (double)res[1], (double)res[2], (double)res[3], (double)w[0], (double)w[1],
                  (double)w[2], (double)w[3]);
    tj_array_destroy(da);
    tj_array_destroy(oa);
}
END_TEST

/* ---- bins cast from floats ------------------------------------------------------------------ */

/* A histogram of floats cast to int32 bins (the bench's form) in one block of W lanes:
 * each lane adds 1 at int(x[j]) for j = lane, lane + W, ... < n into 256 bins, out = the
 * bins. */
static tj_kernel *
bins_kernel(uint32_t W, int n)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = opts_for(W, false);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bins", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1), *out = tj_param_array(k, "out", i32, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    int nb = 256;
    tj_val *bins = tj_tile_zeros(k, i32, 1, &nb, TJ_STORAGE_SHARED);
    tj_val *j = tj_for_begin(k, lane, ci(k, n), ci(k, (int64_t)W));
    tj_val *b = tj_cast(k, tj_load(k, x, &j, 1), i32);
    ck_assert(tj_tile_scatter_add(k, bins, &b, 1, ci(k, 1), tj_const_bool(k, true),
                                  tj_const_bool(k, true)));
    tj_for_end(k);
    tj_tile_store(k, out, bins, NULL);
    return k;
}

/* bins_kernel over NaN, infinities, zeros, fractions either side of 0 and 256, INT_MIN and
 * INT_MAX's neighbours as floats (the CPU's cvttss2si gives its "indefinite", INT_MIN, for
 * -2^31 itself) and large values: the cast saturates and gives 0 for NaN (SPEC 2), and
 * indices outside [0, 256) add nothing. On x86-64 CPUs the range's test goes before the
 * cast's own (jit/range_first.c: "cast.in_range" in the optimised IR), which must give the
 * same bins. */
START_TEST(test_scatter_add_bins_cast_from_every_kind_of_float)
{
    g_where = _i / STRIDE;
    static const float xs[] = {
        NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 0.5f, -0.5f, -0.99f, -1.0f, 1.0f, 7.9f,
        255.0f, 255.99f, 256.0f, 256.5f, -2147483648.0f, 2147483520.0f, 2147483648.0f,
        -2147483904.0f, 3e9f, -3e9f, 1e20f, -1e20f, 128.25f, 7.0f, -NAN};
    enum { N = sizeof xs / sizeof xs[0], NBINS = 256 };
    uint32_t W = width_of(8);
    tj_module *m = build(bins_kernel(W, N));
    if (!runs())
        return;
#if defined(__x86_64__)
    if (g_where != ON_CUDA) {
        tj_module *mi = NULL;
        tj_build_options bo = {.keep_ir = true};
        ck_assert_int_eq(tj_kernel_build(bins_kernel(W, N), &bo, &mi), TJ_OK);
        ck_assert_msg(strstr(tj_module_get_ir(mi), "cast.in_range") != NULL,
                      "the bin's range not tested first");
    }
#endif
    int32_t want[NBINS] = {0}, got[NBINS];
    for (int e = 0; e < N; e++) {
        float v = xs[e];
        long long t = isnan(v) ? 0 : v >= 2147483648.0f ? INT32_MAX : v < -2147483648.0f
                                                                       ? INT32_MIN
                                                                       : (long long)v;
        if (t >= 0 && t < NBINS)
            want[t]++;
    }
    ck_assert_int_eq(want[0], 7); /* the NaNs, the zeros and the fractions above -1 */
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_array *xa = tjt_array(device(), f32, N, xs), *oa = tjt_array(device(), i32, NBINS, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    launch_n(m, "bins", (int64_t)W, W, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, sizeof got));
    for (int e = 0; e < NBINS; e++)
        ck_assert_msg(got[e] == want[e], "bin %d holds %d, expected %d", e, got[e], want[e]);
    tj_array_destroy(xa);
    tj_array_destroy(oa);
}
END_TEST

/* ---- index errors in debug builds ---------------------------------------------------------- */

static const struct index_row {
    int rank;
    int shape[2];
    int bad[2];      /* the index of the failing thread */
    bool has_value;  /* of the failing thread */
    int dim;         /* the reported dimension, -1: no error */
    int hi;
} index_rows[] = {
    {1, {4}, {5}, true, 0, 4},
    {1, {4}, {-1}, true, 0, 4},
    {1, {4}, {4}, true, 0, 4},
    {2, {3, 4}, {1, 4}, true, 1, 4},
    {2, {3, 4}, {3, 0}, true, 0, 3},
    {2, {3, 4}, {-2, 1}, true, 0, 3},
    {1, {4}, {9}, false, -1, 0},
};

/* Thread 'bad' adds 1 at index 'bad[]' when 'has_bad'; every other thread adds 1 at
 * (lane % shape[0], lane % shape[1]); out[block] = the tile (rank 1) or its flattening. */
static tj_kernel *
index_kernel(const struct index_row *r, uint32_t B)
{
    tj_kernel_options o = opts_for(B, true);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "scatter_dbg", &o);
    tj_val *out = tj_param_array(k, "out", i32, r->rank);
    tj_val *bad = tj_param(k, "bad", i32);
    tj_val *bad0 = tj_param(k, "bad0", i32), *bad1 = tj_param(k, "bad1", i32);
    tj_val *has_bad = tj_param(k, "has_bad", tjt_type(TJ_DTYPE_BOOL));
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    tj_val *tile = tj_tile_zeros(k, i32, r->rank, r->shape, TJ_STORAGE_SHARED);
    tj_val *is_bad = tj_compare(k, TJ_CMP_EQ, g, bad);
    tj_val *idx[2];
    idx[0] = tj_select(k, is_bad, bad0, bin(k, TJ_BIN_MOD, lane, ci(k, r->shape[0])));
    if (r->rank == 2)
        idx[1] = tj_select(k, is_bad, bad1, bin(k, TJ_BIN_MOD, lane, ci(k, r->shape[1])));
    tj_val *has = tj_select(k, is_bad, has_bad, tj_const_bool(k, true));
    ck_assert(tj_tile_scatter_add(k, tile, idx, r->rank, ci(k, 1), has, NULL));
    tj_val *off[2] = {bin(k, TJ_BIN_MUL, blk, ci(k, r->shape[0])), ci(k, 0)};
    tj_tile_store(k, out, tile, off);
    return k;
}

START_TEST(test_scatter_add_index_out_of_range_is_a_debug_kernel_error)
{
    g_where = _i / STRIDE;
    const struct index_row *r = &index_rows[_i % STRIDE];
    uint32_t B = g_where == ON_CPU1 ? 4 : 8;
    tj_kernel *k = index_kernel(r, B);
    tj_module *m = build(k);
    if (!runs())
        return;
    uint32_t W = width_of(B);
    const int64_t n = 16;
    int64_t bad = 11, nblocks = n / W;
    int size = r->shape[0] * (r->rank == 2 ? r->shape[1] : 1);
    int64_t dims[2] = {nblocks * r->shape[0], r->shape[1]};
    tj_array *oa = NULL;
    tjt_ok(device(), tj_array_create(device(), tjt_type(TJ_DTYPE_I32), r->rank, dims, &oa));
    tj_arg args[] = {tj_arg_array(oa), tj_arg_int(bad), tj_arg_int(r->bad[0]),
                     tj_arg_int(r->bad[1]), tj_arg_bool(r->has_value)};
    int64_t nn = n;
    tj_status st = tj_launch(device(), m, "scatter_dbg", 1, &nn, B, args, 5);
    if (r->dim < 0) {
        ck_assert_msg(st == TJ_OK, "%s", tj_device_error(device()));
    } else {
        ck_assert_msg(st == TJ_ERR_KERNEL, "status %s: %s", tj_status_name(st),
                      tj_device_error(device()) ? tj_device_error(device()) : "(no message)");
        char want[512];
        snprintf(want, sizeof want,
                 "kernel 'scatter_dbg': tile_scatter_add index: index %d is out of range [0, "
                 "%d) in dimension %d (block %lld, lane %lld)",
                 r->bad[r->dim], r->hi, r->dim, (long long)(bad / W), (long long)(bad % W));
        ck_assert_str_eq(tj_device_error(device()), want);
    }
    /* The failing update was skipped; every other thread's update is there. */
    int32_t *got = calloc((size_t)(nblocks * size), sizeof *got);
    ck_assert_ptr_nonnull(got);
    tjt_ok(device(), tj_array_copy_to_host(oa, got, (size_t)(nblocks * size) * sizeof *got));
    for (int64_t b = 0; b < nblocks; b++)
        for (int e = 0; e < size; e++) {
            int want = 0;
            for (int64_t l = 0; l < W; l++) {
                if (b * W + l == bad)
                    continue;
                int i0 = (int)(l % r->shape[0]), i1 = r->rank == 2 ? (int)(l % r->shape[1]) : 0;
                want += (r->rank == 2 ? i0 * r->shape[1] + i1 : i0) == e;
            }
            ck_assert_msg(got[b * size + e] == want, "block %lld element %d is %d, expected %d",
                          (long long)b, e, got[b * size + e], want);
        }
    /* A later launch without a bad index succeeds. */
    tj_arg fine[] = {tj_arg_array(oa), tj_arg_int(-1), tj_arg_int(0), tj_arg_int(0),
                     tj_arg_bool(true)};
    tjt_ok(device(), tj_launch(device(), m, "scatter_dbg", 1, &nn, B, fine, 5));
    free(got);
    tj_array_destroy(oa);
}
END_TEST

/* ---- lanes that add nothing, without a branch on the GPU ------------------------------------- */

/* Conditional branches in a module's PTX. */
static int
ptx_cond_branches(tj_module *m)
{
    const char *ptx = tj_module_get_ptx(m);
    ck_assert_ptr_nonnull(ptx);
    int n = 0;
    for (const char *at = ptx; (at = strchr(at, '@')) != NULL; at++) {
        const char *end = strchr(at, '\n');
        const char *bra = strstr(at, " bra");
        n += bra && (!end || bra < end);
    }
    return n;
}

/* Lane l adds l + 1 (or 1: 'one') at index l % 11 - 1 of a tile of 8 when l % 4 != 3:
 * indices -1, 8 and 9 and the lanes without has_value add nothing. The tile's element type:
 * int32 or float32. */
static tj_kernel *
dropping_kernel(tj_dtype dt, uint32_t B, bool one)
{
    tj_kernel_options o = opts_for(B, false);
    const tj_type *t = tjt_type(dt);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "drops", &o);
    tj_val *out = tj_param_array(k, "out", t, 1);
    tj_val *g, *blk, *lane;
    thread_ids(k, &g, &blk, &lane);
    int eight = 8;
    tj_val *tile = tj_tile_zeros(k, t, 1, &eight, TJ_STORAGE_SHARED);
    tj_val *idx = bin(k, TJ_BIN_SUB, bin(k, TJ_BIN_MOD, lane, ci(k, 11)), ci(k, 1));
    tj_val *has = tj_compare(k, TJ_CMP_NE, bin(k, TJ_BIN_MOD, lane, ci(k, 4)), ci(k, 3));
    tj_val *v = one ? tj_cast(k, ci(k, 1), t) : tj_cast(k, bin(k, TJ_BIN_ADD, lane, ci(k, 1)), t);
    ck_assert(tj_tile_scatter_add(k, tile, &idx, 1, v, has, NULL));
    tj_val *off = bin(k, TJ_BIN_MUL, blk, ci(k, 8));
    tj_tile_store(k, out, tile, &off);
    return k;
}

/* On the GPU an atomic integer add into a shared tile takes no branch: a lane without
 * has_value or with an index out of range adds 0 at index 0, or, when the addend is a
 * constant (kept an immediate, "], 1;"), adds it to the kernel's sink word. Either way one
 * conditional branch fewer in the PTX than the float32 kernel's, which keeps it. Everywhere,
 * those lanes change nothing. Rows: the widths, each with an addend of l + 1, then 1. */
START_TEST(test_scatter_add_lanes_that_add_nothing_change_nothing)
{
    g_where = _i / STRIDE;
    int local = _i % STRIDE;
    uint32_t B = widths[local % NWIDTHS];
    bool one = local >= NWIDTHS;
    tj_kernel *k = dropping_kernel(TJ_DTYPE_I32, B, one);
    tj_module *m = build(k);
    tj_kernel_destroy(k);
    if (g_where == ON_PTX || g_where == ON_CUDA) {
        tj_kernel *kf = dropping_kernel(TJ_DTYPE_F32, B, one);
        tj_module *mf = build(kf);
        tj_kernel_destroy(kf);
        ck_assert_int_eq(ptx_cond_branches(m), ptx_cond_branches(mf) - 1);
        ptx_has(m, "atom.shared.add.u32", true);
        ptx_has(m, "], 1;", one);
        tj_module_destroy(mf);
    }
    if (runs()) {
        uint32_t W = width_of(B);
        const int64_t nblocks = 3, n = 2 * (int64_t)W + (W + 1) / 2;
        int64_t len = nblocks * 8;
        tj_array *oa = tjt_array(device(), tjt_type(TJ_DTYPE_I32), len, NULL);
        tj_arg args[] = {tj_arg_array(oa)};
        launch_n(m, "drops", n, B, args, 1);
        int32_t got[3 * 8];
        tjt_ok(device(), tj_array_copy_to_host(oa, got, sizeof got));
        for (int64_t b = 0; b < nblocks; b++)
            for (int e = 0; e < 8; e++) {
                int32_t want = 0;
                for (int64_t l = 0; l < active_in(n, W, b); l++)
                    want += l % 4 != 3 && l % 11 - 1 == e ? (one ? 1 : (int32_t)(l + 1)) : 0;
                ck_assert_msg(got[b * 8 + e] == want, "B = %u, block %lld element %d is %d, "
                              "expected %d", W, (long long)b, e, got[b * 8 + e], want);
            }
        tj_array_destroy(oa);
    }
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

typedef enum err_kind {
    E_ATOMIC_RUNTIME,
    E_ATOMIC_INT,
    E_VALUE_TYPE,
    E_VALUE_VEC,
    E_NIDX,
    E_HAS_VALUE,
    E_ELEM_TYPE,
    E_NOT_A_TILE,
} err_kind;

static const struct err_row {
    err_kind kind;
    tj_dtype dt;
    int rank, nidx;
    const char *msg;
} err_rows[] = {
    {E_ATOMIC_RUNTIME, TJ_DTYPE_F32, 1, 1,
     "tile_scatter_add: argument 'atomic' must be a compile-time bool constant"},
    {E_ATOMIC_INT, TJ_DTYPE_I32, 1, 1,
     "tile_scatter_add: argument 'atomic' must be a compile-time bool constant"},
    {E_VALUE_TYPE, TJ_DTYPE_F32, 1, 1,
     "tile_scatter_add: argument 'value': float64, the tile holds float32"},
    {E_VALUE_TYPE, TJ_DTYPE_I64, 2, 2,
     "tile_scatter_add: argument 'value': float64, the tile holds int64"},
    {E_VALUE_VEC, TJ_DTYPE_F32, 1, 1,
     "tile_scatter_add: argument 'value': vec3f, the tile holds float32"},
    {E_NIDX, TJ_DTYPE_F32, 2, 1, "tile_scatter_add: a rank-2 tile takes 2 indices, got 1"},
    {E_NIDX, TJ_DTYPE_F32, 2, 3, "tile_scatter_add: a rank-2 tile takes 2 indices, got 3"},
    {E_NIDX, TJ_DTYPE_I32, 4, 2, "tile_scatter_add: a rank-4 tile takes 4 indices, got 2"},
    {E_HAS_VALUE, TJ_DTYPE_F32, 1, 1,
     "tile_scatter_add: argument 'has_value': int32 is not bool"},
    {E_ELEM_TYPE, TJ_DTYPE_I8, 1, 1,
     "tile_scatter_add: argument 'a': int8 elements cannot be added"},
    {E_ELEM_TYPE, TJ_DTYPE_U16, 1, 1,
     "tile_scatter_add: argument 'a': uint16 elements cannot be added"},
    {E_ELEM_TYPE, TJ_DTYPE_BOOL, 1, 1,
     "tile_scatter_add: argument 'a': bool elements cannot be added"},
    {E_NOT_A_TILE, TJ_DTYPE_F32, 1, 1, "tile_scatter_add: argument 'a': float32 is not a tile"},
};

START_TEST(test_scatter_add_build_errors_name_the_builtin_argument_and_reason)
{
    const struct err_row *e = &err_rows[_i];
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bad_scatter", NULL);
    const tj_type *t = tjt_type(e->dt);
    tj_val *flag = tj_param(k, "flag", tjt_type(TJ_DTYPE_BOOL));
    static const int shape[4] = {2, 3, 4, 5};
    tj_val *a = e->kind == E_NOT_A_TILE ? tj_const_float(k, TJ_DTYPE_F32, 0)
                                        : tj_tile_zeros(k, t, e->rank, shape, TJ_STORAGE_SHARED);
    ck_assert_ptr_nonnull(a);
    tj_val *idx[4] = {ci(k, 0), ci(k, 0), ci(k, 0), ci(k, 0)};
    const tj_type *vec3f = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_val *value = e->kind == E_VALUE_TYPE ? tj_const_float(k, TJ_DTYPE_F64, 1)
                    : e->kind == E_VALUE_VEC ? tj_zero(k, vec3f)
                    : e->dt == TJ_DTYPE_BOOL ? tj_const_bool(k, true)
                    : dt_float(e->dt)        ? tj_const_float(k, e->dt, 1)
                                             : tj_const_int(k, e->dt, 1);
    tj_val *has = e->kind == E_HAS_VALUE ? ci(k, 1) : tj_const_bool(k, true);
    tj_val *atomic = e->kind == E_ATOMIC_RUNTIME ? flag
                     : e->kind == E_ATOMIC_INT   ? ci(k, 1)
                                                 : tj_const_bool(k, true);
    ck_assert(!tj_tile_scatter_add(k, a, idx, e->nidx, value, has, atomic));
    ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    /* Sticky: later calls do nothing and the first message stays. */
    ck_assert_ptr_null(ci(k, 2));
    ck_assert(!tj_tile_scatter_add(k, a, idx, e->rank, value, tj_const_bool(k, true), NULL));
    ck_assert_str_eq(tj_kernel_error(k), e->msg);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    char want[600];
    snprintf(want, sizeof want, "kernel 'bad_scatter': %s", e->msg);
    ck_assert_str_eq(tj_context_error(tjt.ctx), want);
    tj_kernel_destroy(k);
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
#define ADD_ROWS(fn, n) tjt_add_loop_rows(tc, fn, where * STRIDE, (n))
    bool all = where == ON_COOP || where == ON_CUDA;
    ADD_ROWS(test_scatter_add_collisions_from_every_lane_accumulate,
             NROWS(coll_rows) * (all ? NWIDTHS : 1));
    ADD_ROWS(test_scatter_add_matrix_elements_accumulate_componentwise,
             NROWS(mat_rows) * (all ? NWIDTHS : 1));
    ADD_ROWS(test_scatter_add_unique_indices_without_atomics,
             all ? NWIDTHS * NROWS(unique_dts) : NROWS(unique_dts));
    ADD_ROWS(test_scatter_add_multi_dimensional_indices_with_has_value_false_on_some_lanes,
             NROWS(multi_rows) * (all ? NWIDTHS : 1));
    ADD_ROWS(test_scatter_add_unique_multi_dimensional_indices_without_atomics,
             NROWS(umulti_rows) * (all ? NWIDTHS : 1));
    ADD_ROWS(test_scatter_add_structs_accumulate_only_the_fields_that_add,
             where == ON_CPU1 || where == ON_PTX ? 1 : NWIDTHS);
    ADD_ROWS(test_scatter_add_structs_with_half_int64_uint32_and_matrix_fields,
             where == ON_CPU1 || where == ON_PTX ? 1 : NWIDTHS);
    ADD_ROWS(test_scatter_add_histogram_seed, 1);
    ADD_ROWS(test_scatter_add_bins_cast_from_every_kind_of_float, 1);
    ADD_ROWS(test_scatter_add_lanes_that_add_nothing_change_nothing, 2 * NWIDTHS);
    ADD_ROWS(test_scatter_add_index_out_of_range_is_a_debug_kernel_error,
             where == ON_PTX ? 1 : NROWS(index_rows));
#undef ADD_ROWS
}

static Suite *
scatter_add_suite(void)
{
    Suite *s = suite_create("scatter_add");
    static const char *const names[NWHERE] = {
        [ON_CPU1] = "cpu1", [ON_COOP] = "coop", [ON_PTX] = "ptx", [ON_CUDA] = "cuda"};
    for (int where = 0; where < NWHERE; where++)
        add_where(new_case(s, names[where]), where);
    TCase *errors = new_case(s, "errors");
    tcase_add_loop_test(errors, test_scatter_add_build_errors_name_the_builtin_argument_and_reason,
                        0, NROWS(err_rows));
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, scatter_add_suite());
}
