/* tj-test: CUDA */
/*
 * tests/check_tile_elementwise.c: "Tiles I", element-wise work on tiles: tj_unary,
 * tj_binary and tj_compare on tile-tile, tile-scalar and scalar-tile operands (add, sub,
 * mul, div, min, max, neg, lt, eq, ge in float16/32/64 and int32/64), the same on tiles of
 * vectors, matrices and quaternions with their own operators (cw_mul, dot, cross, products,
 * scaling), tj_tile_map with user functions of one to three tiles, element-wise ops and
 * tile_map in partial blocks of tj_launch (SPEC 1), tile variables accumulated in a loop,
 * chains of operations (which width-1 CPU code runs in one loop), and the build errors of
 * these.
 *
 * Kinds and widths as in tj_tile_test.h. Values are compared exactly: the references round
 * once to the element type, as IEEE add, sub, mul and div do.
 */
#include "tj_tile_test.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED

/* ---- element-wise operations on tiles -------------------------------------------------------- */

/* One kernel per row computes every operation of ew_ops (and neg, and three comparisons) in
 * one operand form: tile-tile (a, b), tile-scalar (a, s) or scalar-tile (s, a). */
typedef enum ew_form { EW_TT, EW_TS, EW_ST } ew_form;

typedef struct ew_row {
    tj_dtype dt;
    ew_form form;
    int rank;
    int shape[4];
    tj_storage storage;    /* of a */
} ew_row;

static const ew_row ew_rows[] = {
    {TJ_DTYPE_F32, EW_TT, 2, {5, 7}, REG},
    {TJ_DTYPE_F32, EW_TS, 1, {300}, SHR},
    {TJ_DTYPE_F32, EW_ST, 3, {2, 3, 5}, REG},
    {TJ_DTYPE_I32, EW_TT, 1, {33}, SHR},
    {TJ_DTYPE_I32, EW_TS, 2, {4, 9}, REG},
    {TJ_DTYPE_I32, EW_ST, 4, {2, 2, 3, 2}, REG},
    {TJ_DTYPE_F64, EW_TT, 3, {3, 4, 5}, REG},
    {TJ_DTYPE_F64, EW_TS, 1, {7}, REG},
    {TJ_DTYPE_F64, EW_ST, 2, {6, 6}, SHR},
    {TJ_DTYPE_I64, EW_TT, 2, {3, 3}, REG},
    {TJ_DTYPE_F16, EW_TS, 1, {40}, REG},
};

static const tj_binop ew_ops[] = {TJ_BIN_ADD, TJ_BIN_SUB, TJ_BIN_MUL, TJ_BIN_DIV, TJ_BIN_MIN,
                                  TJ_BIN_MAX};
static const tj_cmp ew_cmps[] = {TJ_CMP_LT, TJ_CMP_EQ, TJ_CMP_GE};
enum { EW_NOPS = 6, EW_NCMP = 3, EW_NOUT = EW_NOPS + 1 + EW_NCMP };

static double
ew_a(tj_dtype dt, int64_t i)
{
    double v = (double)((i * 7) % 23 - 11);
    return tt_dt_is_float(dt) ? (v == 0 ? 5 : v) * 0.25 : (v == 0 ? 5 : v);
}

static double
ew_b(tj_dtype dt, int64_t i)
{
    double v = (double)((i * 5) % 17 - 8);
    if (i % 6 == 0) /* some equal pairs for the comparisons */
        return ew_a(dt, i);
    return tt_dt_is_float(dt) ? (v == 0 ? 3 : v) * 0.5 : (v == 0 ? 3 : v);
}

/* The reference in the type: doubles rounded once to the type (exact for +, -, *, / of
 * float32 or float16 operands), integer division truncating like C. */
static double
ew_ref(tj_dtype dt, tj_binop op, double x, double y)
{
    double r = 0;
    switch (op) {
    case TJ_BIN_ADD: r = x + y; break;
    case TJ_BIN_SUB: r = x - y; break;
    case TJ_BIN_MUL: r = x * y; break;
    case TJ_BIN_DIV: r = tt_dt_is_float(dt) ? x / y : (double)((int64_t)x / (int64_t)y); break;
    case TJ_BIN_MIN: r = x < y ? x : y; break;
    case TJ_BIN_MAX: r = x > y ? x : y; break;
    default: break;
    }
    if (dt == TJ_DTYPE_F32)
        r = (float)r;
    if (dt == TJ_DTYPE_F16)
        r = tjt_half_to_double(tjt_half_from_double(r));
    return r;
}

static bool
ew_cmp_ref(tj_cmp op, double x, double y)
{
    return op == TJ_CMP_LT ? x < y : op == TJ_CMP_EQ ? x == y : x >= y;
}

START_TEST(test_elementwise_ops_on_tiles_and_scalars_match_reference)
{
    const ew_row *r = &ew_rows[tt_begin(_i)];
    const tj_type *et = tjt_type(r->dt), *bt = tjt_type(TJ_DTYPE_BOOL);
    int rank = r->rank;
    tj_kernel *k = tt_kernel("elementwise");
    tj_val *ina = tj_param_array(k, "a", et, rank), *inb = tj_param_array(k, "b", et, rank);
    tj_val *s = tj_param(k, "s", et), *out[EW_NOUT];
    for (int j = 0; j < EW_NOUT; j++) {
        char name[16];
        snprintf(name, sizeof name, "out%d", j);
        out[j] = tj_param_array(k, name, j <= EW_NOPS ? et : bt, rank);
    }
    tj_val *a = tj_tile_load(k, ina, rank, r->shape, NULL, r->storage);
    tj_val *b = tj_tile_load(k, inb, rank, r->shape, NULL, REG);
    tj_val *x = r->form == EW_ST ? s : a, *y = r->form == EW_TT ? b : r->form == EW_TS ? s : a;
    tj_val *res[EW_NOUT];
    for (int j = 0; j < EW_NOPS; j++)
        res[j] = tj_binary(k, ew_ops[j], x, y);
    res[EW_NOPS] = tj_unary(k, TJ_UN_NEG, a);
    for (int j = 0; j < EW_NCMP; j++)
        res[EW_NOPS + 1 + j] = tj_compare(k, ew_cmps[j], x, y);
    tt_kernel_ok(k, "element-wise");
    for (int j = 0; j < EW_NOUT; j++) {
        ck_assert_int_eq(tj_val_get_kind(res[j]), TJ_VAL_TILE);
        ck_assert_int_eq(tj_tile_get_storage(res[j]), REG);
        ck_assert_int_eq(tj_tile_get_rank(res[j]), rank);
        for (int d = 0; d < rank; d++)
            ck_assert_int_eq(tj_tile_get_shape(res[j], d), r->shape[d]);
        ck_assert_ptr_eq(tj_val_get_type(res[j]), j <= EW_NOPS ? et : bt);
        tj_tile_store(k, out[j], res[j], NULL);
    }
    tj_module *m = tt_build(k, "element-wise");
    int64_t n = tt_size(rank, r->shape), s64[4];
    tt_shape64(rank, r->shape, s64);
    double sv = tt_dt_is_float(r->dt) ? -2.5 : -3;
    void *ha = tt_alloc((size_t)n, r->dt), *hb = tt_alloc((size_t)n, r->dt);
    void *h = tt_alloc((size_t)n, r->dt);
    for (int64_t i = 0; i < n; i++) {
        tt_put(ha, r->dt, (size_t)i, ew_a(r->dt, i));
        tt_put(hb, r->dt, (size_t)i, ew_b(r->dt, i));
    }
    tj_array *aa = tt_array(et, rank, s64, ha), *ab = tt_array(et, rank, s64, hb), *ao[EW_NOUT];
    tj_arg args[3 + EW_NOUT] = {tj_arg_array(aa), tj_arg_array(ab), tj_arg_float(sv)};
    if (!tt_dt_is_float(r->dt))
        args[2] = tj_arg_int((int64_t)sv);
    for (int j = 0; j < EW_NOUT; j++) {
        ao[j] = tt_array(j <= EW_NOPS ? et : bt, rank, s64, NULL);
        args[3 + j] = tj_arg_array(ao[j]);
    }
    if (tt_launch_tiled(m, "elementwise", 1, args, 3 + EW_NOUT)) {
        for (int j = 0; j < EW_NOUT; j++) {
            tj_dtype odt = j <= EW_NOPS ? r->dt : TJ_DTYPE_BOOL;
            tt_read(ao[j], h);
            for (int64_t i = 0; i < n; i++) {
                double av = tt_get(ha, r->dt, (size_t)i), bv = tt_get(hb, r->dt, (size_t)i);
                double xv = r->form == EW_ST ? sv : av;
                double yv = r->form == EW_TT ? bv : r->form == EW_TS ? sv : av;
                double want = j < EW_NOPS   ? ew_ref(r->dt, ew_ops[j], xv, yv)
                              : j == EW_NOPS ? -av
                                             : ew_cmp_ref(ew_cmps[j - EW_NOPS - 1], xv, yv);
                double got = tt_get(h, odt, (size_t)i);
                ck_assert_msg(got == want, "%s, form %d, output %d (%s): element %lld is %g, "
                              "expected %g (x %g, y %g)", tj_type_get_name(et), (int)r->form, j,
                              tt_where(), (long long)i, got, want, xv, yv);
            }
        }
    }
    for (int j = 0; j < EW_NOUT; j++)
        tj_array_destroy(ao[j]);
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    free(ha);
    free(hb);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- chains of element-wise operations ------------------------------------------------------- */

/* t1 = a * 2, t2 = t1 + b, t3 = -t2, c = t3 < a, then sum(t1), then t4 = t1 - t3, t5 = t4 *
 * t4. In width-1 CPU code element-wise builtins of more than 16 elements in a row share one
 * loop (tji_foreach_fused): t1 to c in one, the reduction, t4 and t5 in another. So each
 * step must read what the step before it wrote for the same element, and t1 and t3, read
 * again after the reduction ended their loop, must hold every element. The values are
 * exact in float32 (quarters and halves, sums under 2^13), so the sum is order-free. */
typedef struct chain_row {
    int rank;
    int shape[2];
} chain_row;

static const chain_row chain_rows[] = {{1, {300}}, {2, {20, 24}}, {1, {1000}}, {2, {3, 5}}};

START_TEST(test_chains_of_elementwise_ops_match_reference)
{
    const chain_row *r = &chain_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *bt = tjt_type(TJ_DTYPE_BOOL);
    int rank = r->rank;
    tj_kernel *k = tt_kernel("chain");
    tj_val *ina = tj_param_array(k, "a", f32, rank), *inb = tj_param_array(k, "b", f32, rank);
    tj_val *o2 = tj_param_array(k, "o2", f32, rank), *oc = tj_param_array(k, "oc", bt, rank);
    tj_val *o5 = tj_param_array(k, "o5", f32, rank), *osum = tj_param_array(k, "osum", f32, 1);
    tj_val *a = tj_tile_load(k, ina, rank, r->shape, NULL, REG);
    tj_val *b = tj_tile_load(k, inb, rank, r->shape, NULL, REG);
    tj_val *t1 = tj_binary(k, TJ_BIN_MUL, a, tj_const_float(k, TJ_DTYPE_F32, 2));
    tj_val *t2 = tj_binary(k, TJ_BIN_ADD, t1, b);
    tj_val *t3 = tj_unary(k, TJ_UN_NEG, t2);
    tj_val *c = tj_compare(k, TJ_CMP_LT, t3, a);
    tj_val *sum = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t1);
    tj_val *t4 = tj_binary(k, TJ_BIN_SUB, t1, t3);
    tj_val *t5 = tj_binary(k, TJ_BIN_MUL, t4, t4);
    tj_tile_store(k, o2, t2, NULL);
    tj_tile_store(k, oc, c, NULL);
    tj_tile_store(k, o5, t5, NULL);
    tj_tile_store(k, osum, sum, NULL);
    tj_module *m = tt_build(k, "chain");
    int64_t n = tt_size(rank, r->shape), s64[4], one = 1;
    tt_shape64(rank, r->shape, s64);
    float *ha = malloc((size_t)n * sizeof *ha), *hb = malloc((size_t)n * sizeof *hb);
    float *h2 = malloc((size_t)n * sizeof *h2), *h5 = malloc((size_t)n * sizeof *h5), hs = 0;
    bool *hc = malloc((size_t)n * sizeof *hc);
    ck_assert(ha && hb && h2 && h5 && hc);
    for (int64_t i = 0; i < n; i++) {
        ha[i] = (float)((i * 7) % 23 - 11) * 0.25f;
        hb[i] = (float)((i * 5) % 17 - 8) * 0.5f;
    }
    tj_array *aa = tt_array(f32, rank, s64, ha), *ab = tt_array(f32, rank, s64, hb);
    tj_array *a2 = tt_array(f32, rank, s64, NULL), *ac = tt_array(bt, rank, s64, NULL);
    tj_array *a5 = tt_array(f32, rank, s64, NULL), *as = tt_array(f32, 1, &one, NULL);
    tj_arg args[] = {tj_arg_array(aa), tj_arg_array(ab), tj_arg_array(a2), tj_arg_array(ac),
                     tj_arg_array(a5), tj_arg_array(as)};
    if (tt_launch_tiled(m, "chain", 1, args, TT_NELEMS(args))) {
        tt_read(a2, h2);
        tt_read(ac, hc);
        tt_read(a5, h5);
        tt_read(as, &hs);
        float want_sum = 0;
        for (int64_t i = 0; i < n; i++) {
            float t1v = ha[i] * 2, t2v = t1v + hb[i], t3v = -t2v, t4v = t1v - t3v;
            want_sum += t1v;
            ck_assert_msg(h2[i] == t2v && hc[i] == (t3v < ha[i]) && h5[i] == t4v * t4v,
                          "%s: element %lld: t2 %g, c %d, t5 %g; expected %g, %d, %g", tt_where(),
                          (long long)i, h2[i], hc[i], h5[i], t2v, t3v < ha[i], t4v * t4v);
        }
        ck_assert_msg(hs == want_sum, "%s: sum(t1) is %g, expected %g", tt_where(), hs, want_sum);
    }
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    tj_array_destroy(a2);
    tj_array_destroy(ac);
    tj_array_destroy(a5);
    tj_array_destroy(as);
    free(ha);
    free(hb);
    free(h2);
    free(h5);
    free(hc);
    tj_module_destroy(m);
}
END_TEST

/* ---- tj_tile_map ----------------------------------------------------------------------------- */

/* Maps of one, two and three tiles, one changing the element type and one taking vectors:
 *   g(x: int32) -> float64 = x * 0.5;   f(a, b: float32) = a * 2 + b;
 *   h(a, b, c: float32) = a < b ? c : a - c;   dot(p, q: vec3f) -> float32 */
enum { MAP_R = 5, MAP_C = 7 };

static tj_func *
map_func(const char *name, const tj_type *ret, int n, const tj_type *pt)
{
    tj_func *f = tt_func(name, ret);
    static const char *const pn[] = {"a", "b", "c"};
    tj_val *p[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++)
        p[i] = tj_param(f, pn[i], pt);
    tj_val *v = NULL;
    if (strcmp(name, "g") == 0)
        v = tj_binary(f, TJ_BIN_MUL, tj_cast(f, p[0], ret), tj_const_float(f, TJ_DTYPE_F64, 0.5));
    else if (strcmp(name, "f") == 0)
        v = tj_binary(f, TJ_BIN_ADD, tj_binary(f, TJ_BIN_MUL, p[0],
                                               tj_const_float(f, TJ_DTYPE_F32, 2)), p[1]);
    else if (strcmp(name, "h") == 0)
        v = tj_select(f, tj_compare(f, TJ_CMP_LT, p[0], p[1]), p[2],
                      tj_binary(f, TJ_BIN_SUB, p[0], p[2]));
    else
        v = tj_binary(f, TJ_BIN_DOT, p[0], p[1]);
    tj_return(f, v);
    ck_assert_msg(tj_kernel_status(f) == TJ_OK, "function %s: %s", name, tj_kernel_error(f));
    return f;
}

START_TEST(test_tile_map_applies_user_functions)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *f64 = tjt_type(TJ_DTYPE_F64);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_func *g = map_func("g", f64, 1, i32), *f = map_func("f", f32, 2, f32);
    tj_func *h = map_func("h", f32, 3, f32), *dot = map_func("dot", f32, 2, v3);
    int shape[2] = {MAP_R, MAP_C};
    tj_kernel *k = tt_kernel("map");
    tj_val *in[3], *ii = tj_param_array(k, "ii", i32, 2), *iv = tj_param_array(k, "iv", v3, 2);
    for (int j = 0; j < 3; j++)
        in[j] = tj_param_array(k, j == 0 ? "a" : j == 1 ? "b" : "c", f32, 2);
    tj_val *og = tj_param_array(k, "og", f64, 2), *of = tj_param_array(k, "of", f32, 2);
    tj_val *oh = tj_param_array(k, "oh", f32, 2), *od = tj_param_array(k, "od", f32, 2);
    tj_val *t[3];
    for (int j = 0; j < 3; j++)
        t[j] = tj_tile_load(k, in[j], 2, shape, NULL, j == 1 ? SHR : REG);
    tj_val *ti = tj_tile_load(k, ii, 2, shape, NULL, REG);
    tj_val *tv = tj_tile_load(k, iv, 2, shape, NULL, SHR);
    tj_val *rg = tj_tile_map(k, g, &ti, 1), *rf = tj_tile_map(k, f, t, 2);
    tj_val *rh = tj_tile_map(k, h, t, 3), *rd = tj_tile_map(k, dot, (tj_val *[]){tv, tv}, 2);
    tt_kernel_ok(k, "tile_map");
    ck_assert_ptr_eq(tj_val_get_type(rg), f64);
    ck_assert_ptr_eq(tj_val_get_type(rd), f32);
    ck_assert_int_eq(tj_tile_get_shape(rd, 1), MAP_C);
    tj_tile_store(k, og, rg, NULL);
    tj_tile_store(k, of, rf, NULL);
    tj_tile_store(k, oh, rh, NULL);
    tj_tile_store(k, od, rd, NULL);
    tj_module *m = tt_build(k, "map");
    tj_func_destroy(g);
    tj_func_destroy(f);
    tj_func_destroy(h);
    tj_func_destroy(dot);
    enum { N = MAP_R * MAP_C };
    int64_t s64[2] = {MAP_R, MAP_C};
    float ha[3][N], hv[N][3], of_h[N], oh_h[N], od_h[N];
    int32_t hi[N];
    double og_h[N];
    for (int e = 0; e < N; e++) {
        for (int j = 0; j < 3; j++)
            ha[j][e] = (float)((e * (j + 3)) % 11 - 5) * 0.5f;
        hi[e] = e * 3 - 40;
        for (int c = 0; c < 3; c++)
            hv[e][c] = (float)(e % 4 + c) - 1.0f;
    }
    tj_array *aa[3], *ai = tt_array(i32, 2, s64, hi), *av = tt_array(v3, 2, s64, hv);
    for (int j = 0; j < 3; j++)
        aa[j] = tt_array(f32, 2, s64, ha[j]);
    tj_array *ao[4] = {tt_array(f64, 2, s64, NULL), tt_array(f32, 2, s64, NULL),
                       tt_array(f32, 2, s64, NULL), tt_array(f32, 2, s64, NULL)};
    tj_arg args[] = {tj_arg_array(ai), tj_arg_array(av), tj_arg_array(aa[0]),
                     tj_arg_array(aa[1]), tj_arg_array(aa[2]), tj_arg_array(ao[0]),
                     tj_arg_array(ao[1]), tj_arg_array(ao[2]), tj_arg_array(ao[3])};
    if (tt_launch_tiled(m, "map", 1, args, 9)) {
        tt_read(ao[0], og_h);
        tt_read(ao[1], of_h);
        tt_read(ao[2], oh_h);
        tt_read(ao[3], od_h);
        for (int e = 0; e < N; e++) {
            float a = ha[0][e], b = ha[1][e], c = ha[2][e];
            float dv = hv[e][0] * hv[e][0] + hv[e][1] * hv[e][1] + hv[e][2] * hv[e][2];
            ck_assert_msg(og_h[e] == hi[e] * 0.5, "g at %d (%s): %g", e, tt_where(), og_h[e]);
            ck_assert_msg(of_h[e] == a * 2 + b, "f at %d (%s): %g", e, tt_where(), of_h[e]);
            ck_assert_msg(oh_h[e] == (a < b ? c : a - c), "h at %d (%s): %g", e, tt_where(),
                          oh_h[e]);
            ck_assert_msg(od_h[e] == dv, "dot at %d (%s): %g, expected %g", e, tt_where(),
                          od_h[e], dv);
        }
    }
    for (int j = 0; j < 3; j++)
        tj_array_destroy(aa[j]);
    for (int j = 0; j < 4; j++)
        tj_array_destroy(ao[j]);
    tj_array_destroy(ai);
    tj_array_destroy(av);
    tj_module_destroy(m);
}
END_TEST

/* ---- composite elements ---------------------------------------------------------------------- */

/* Tiles of vectors, matrices and quaternions: each element goes through the composite
 * operator of tj_binary, tj_unary or tj_compare (jit/arith.c). a and b are tiles, c a
 * composite and s a scalar value broadcast to every element (c is also the vector a square
 * matrix multiplies). Each row is one element type; every op of ce_op that the type takes
 * is computed in one kernel. Values are nonzero multiples of 1/2 (integers for integer
 * types), small enough that every result, sums of products included, is exact in the type,
 * so fused or reordered arithmetic gives the same bits; a / s and cw_div round once, like
 * the C reference (integer division truncates). b equals a on every fifth element. */
typedef enum ce_op {
    CE_ADD, CE_SUB_C, CE_MUL_S, CE_S_MUL, CE_DIV_S, CE_NEG, CE_ABS, CE_CW_MUL, CE_CW_DIV,
    CE_MIN, CE_MAX, CE_MAP, CE_FLOOR, CE_SQRT, CE_EQ, CE_NE_C, CE_DOT, CE_CROSS, CE_PRODUCT,
    CE_MAT_VEC, CE_NOPS
} ce_op;

static const char *const ce_names[] = {
    "a + b",          "a - c",          "a * s",        "s * b",
    "a / s",          "-a",             "abs(a)",       "cw_mul(a, b)",
    "cw_div(a, b)",   "min(a, b)",      "max(a, b)",    "map(a * 2 + b)",
    "floor(a)",       "sqrt(cw_mul(a, a))", "a == b",   "a != c",
    "dot(a, b)",      "cross(a, b)",    "a * b (product)", "a * c (matrix * vector)"};

typedef struct ce_row {
    tt_ty ty;
    int rank;
    int shape[4];
    tj_storage storage;    /* of a */
} ce_row;

static const ce_row ce_rows[] = {
    {TT_VEC(F32, 3), 2, {5, 7}, REG},
    {TT_VEC(F32, 3), 1, {300}, SHR},
    {TT_VEC(F64, 2), 2, {3, 4}, REG},
    {TT_VEC(F16, 3), 1, {20}, REG},
    {TT_VEC(I32, 4), 1, {33}, SHR},
    {TT_VEC(I64, 2), 3, {2, 3, 2}, REG},
    {TT_MAT(F32, 2, 2), 1, {37}, REG},
    {TT_MAT(F64, 3, 3), 2, {2, 5}, SHR},
    {TT_MAT(F32, 2, 3), 1, {9}, REG},
    {TT_QUAT(F32), 1, {40}, REG},
    {TT_QUAT(F64), 2, {4, 4}, SHR},
};

/* Whether op takes elements of type t, and the kind of its result: 0 t, 1 the scalar, 2 bool. */
static bool
ce_takes(ce_op op, tt_ty t, int *result)
{
    bool fl = tt_dt_is_float(t.dt), square = t.kind == TJ_TYPE_MATRIX && t.rows == t.cols;
    *result = op == CE_EQ || op == CE_NE_C ? 2 : op == CE_DOT ? 1 : 0;
    switch (op) {
    case CE_FLOOR:
    case CE_SQRT:
        return fl;
    case CE_DOT:
        return t.kind == TJ_TYPE_VECTOR || t.kind == TJ_TYPE_QUAT;
    case CE_CROSS:
        return t.kind == TJ_TYPE_VECTOR && t.rows == 3;
    case CE_PRODUCT:
        return t.kind == TJ_TYPE_QUAT || square;
    case CE_MAT_VEC:
        return square;
    default:
        return true;
    }
}

/* Component c of element x of a, of b (equal to a on every fifth element), of c and s. */
static double
ce_a(tj_dtype dt, int64_t x, int c)
{
    double v = (double)((x * 7 + c * 3) % 23 - 11);
    v = v == 0 ? 5 : v;
    return tt_dt_is_float(dt) ? v * 0.5 : v;
}

static double
ce_b(tj_dtype dt, int64_t x, int c)
{
    if (x % 5 == 0)
        return ce_a(dt, x, c);
    double v = (double)((x * 5 + c * 11) % 17 - 8);
    v = v == 0 ? 3 : v;
    return tt_dt_is_float(dt) ? v * 0.5 : v;
}

static double
ce_c(tj_dtype dt, int c)
{
    return tt_dt_is_float(dt) ? (c - 2) * 0.5 : c - 2;
}

static double
ce_s(tj_dtype dt)
{
    return tt_dt_is_float(dt) ? -2.5 : -3;
}

/* The reference of op on the components a, b, c and scalar s of type t: the components of
 * the result (or its scalar, or bool) in 'out'; returns their count. */
static int
ce_ref(ce_op op, tt_ty t, const double *a, const double *b, const double *c, double s,
       double *out)
{
    tj_dtype dt = t.dt;
    int nc = tt_ncomp(t), R = t.rows, C = t.cols;
    switch (op) {
    case CE_EQ:
    case CE_NE_C: {
        bool eq = true;
        for (int i = 0; i < nc; i++)
            eq = eq && a[i] == (op == CE_EQ ? b[i] : c[i]);
        out[0] = op == CE_EQ ? eq : !eq;
        return 1;
    }
    case CE_DOT:
        out[0] = ew_ref(dt, TJ_BIN_MUL, a[0], b[0]);
        for (int i = 1; i < nc; i++)
            out[0] = ew_ref(dt, TJ_BIN_ADD, out[0], ew_ref(dt, TJ_BIN_MUL, a[i], b[i]));
        return 1;
    case CE_CROSS:
        for (int i = 0; i < 3; i++) {
            int j = (i + 1) % 3, m = (i + 2) % 3;
            out[i] = ew_ref(dt, TJ_BIN_SUB, ew_ref(dt, TJ_BIN_MUL, a[j], b[m]),
                            ew_ref(dt, TJ_BIN_MUL, a[m], b[j]));
        }
        return 3;
    case CE_PRODUCT:
        if (t.kind == TJ_TYPE_QUAT) { /* Hamilton, (x, y, z, w) */
            out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
            out[1] = a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2];
            out[2] = a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0];
            out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
            return 4; /* exact: no rounding */
        }
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) {
                double sum = 0;
                for (int m = 0; m < C; m++)
                    sum += a[i * C + m] * b[m * C + j];
                out[i * C + j] = sum;
            }
        return nc;
    case CE_MAT_VEC:
        for (int i = 0; i < R; i++) {
            out[i] = 0;
            for (int m = 0; m < C; m++)
                out[i] += a[i * C + m] * c[m];
        }
        return R;
    default:
        break;
    }
    for (int i = 0; i < nc; i++) {
        switch (op) {
        case CE_ADD: out[i] = ew_ref(dt, TJ_BIN_ADD, a[i], b[i]); break;
        case CE_SUB_C: out[i] = ew_ref(dt, TJ_BIN_SUB, a[i], c[i]); break;
        case CE_MUL_S: out[i] = ew_ref(dt, TJ_BIN_MUL, a[i], s); break;
        case CE_S_MUL: out[i] = ew_ref(dt, TJ_BIN_MUL, s, b[i]); break;
        case CE_DIV_S: out[i] = ew_ref(dt, TJ_BIN_DIV, a[i], s); break;
        case CE_NEG: out[i] = -a[i]; break;
        case CE_ABS: out[i] = fabs(a[i]); break;
        case CE_CW_MUL: out[i] = ew_ref(dt, TJ_BIN_MUL, a[i], b[i]); break;
        case CE_CW_DIV: out[i] = ew_ref(dt, TJ_BIN_DIV, a[i], b[i]); break;
        case CE_MIN: out[i] = ew_ref(dt, TJ_BIN_MIN, a[i], b[i]); break;
        case CE_MAX: out[i] = ew_ref(dt, TJ_BIN_MAX, a[i], b[i]); break;
        case CE_MAP: out[i] = ew_ref(dt, TJ_BIN_ADD, a[i] * 2, b[i]); break;
        case CE_FLOOR: out[i] = floor(a[i]); break;
        case CE_SQRT: out[i] = fabs(a[i]); break; /* a * a is exact, so is its root */
        default: break;
        }
    }
    return nc;
}

/* The constant 'v' of dtype dt in 'k'. */
static tj_val *
ce_const(tj_kernel *k, tj_dtype dt, double v)
{
    return tt_dt_is_float(dt) ? tj_const_float(k, dt, v) : tj_const_int(k, dt, (int64_t)v);
}

/* map's function: f(x, y) = x * 2 + y on elements of et. */
static tj_func *
ce_map_func(const tj_type *et, tj_dtype dt)
{
    tj_func *f = tt_func("twice_plus", et);
    tj_val *x = tj_param(f, "x", et), *y = tj_param(f, "y", et);
    tj_return(f, tj_binary(f, TJ_BIN_ADD, tj_binary(f, TJ_BIN_MUL, x, ce_const(f, dt, 2)), y));
    ck_assert_msg(tj_kernel_status(f) == TJ_OK, "twice_plus: %s", tj_kernel_error(f));
    return f;
}

/* Builds op on the tiles a, b and the values c (composite), cv (the vector a square matrix
 * multiplies) and s; NULL when the type does not take it. */
static tj_val *
ce_build_op(tj_kernel *k, ce_op op, tt_ty t, tj_func *map, tj_val *a, tj_val *b, tj_val *c,
            tj_val *cv, tj_val *s)
{
    int result;
    if (!ce_takes(op, t, &result))
        return NULL;
    switch (op) {
    case CE_ADD: return tj_binary(k, TJ_BIN_ADD, a, b);
    case CE_SUB_C: return tj_binary(k, TJ_BIN_SUB, a, c);
    case CE_MUL_S: return tj_binary(k, TJ_BIN_MUL, a, s);
    case CE_S_MUL: return tj_binary(k, TJ_BIN_MUL, s, b);
    case CE_DIV_S: return tj_binary(k, TJ_BIN_DIV, a, s);
    case CE_NEG: return tj_unary(k, TJ_UN_NEG, a);
    case CE_ABS: return tj_unary(k, TJ_UN_ABS, a);
    case CE_CW_MUL: return tj_binary(k, TJ_BIN_CW_MUL, a, b);
    case CE_CW_DIV: return tj_binary(k, TJ_BIN_CW_DIV, a, b);
    case CE_MIN: return tj_binary(k, TJ_BIN_MIN, a, b);
    case CE_MAX: return tj_binary(k, TJ_BIN_MAX, a, b);
    case CE_MAP: return tj_tile_map(k, map, (tj_val *[]){a, b}, 2);
    case CE_FLOOR: return tj_unary(k, TJ_UN_FLOOR, a);
    case CE_SQRT: return tj_unary(k, TJ_UN_SQRT, tj_binary(k, TJ_BIN_CW_MUL, a, a));
    case CE_EQ: return tj_compare(k, TJ_CMP_EQ, a, b);
    case CE_NE_C: return tj_compare(k, TJ_CMP_NE, a, c);
    case CE_DOT: return tj_binary(k, TJ_BIN_DOT, a, b);
    case CE_CROSS: return tj_binary(k, TJ_BIN_CROSS, a, b);
    case CE_PRODUCT: return tj_binary(k, TJ_BIN_MUL, a, b);
    case CE_MAT_VEC: return tj_binary(k, TJ_BIN_MUL, a, cv);
    default: return NULL;
    }
}

/* The type of op's result on elements of t, for the host (0 t, 1 its scalar, 2 bool; a matrix
 * times a vector gives the vector of its rows). */
static tt_ty
ce_result_ty(ce_op op, tt_ty t)
{
    int result;
    ce_takes(op, t, &result);
    if (op == CE_MAT_VEC)
        return (tt_ty){TJ_TYPE_VECTOR, t.dt, t.rows, 1};
    if (result == 2)
        return (tt_ty)TT_SCALAR(BOOL);
    if (result == 1)
        return (tt_ty){TJ_TYPE_SCALAR, t.dt, 1, 1};
    return t;
}

START_TEST(test_elementwise_ops_on_composite_tiles_match_reference)
{
    const ce_row *r = &ce_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty);
    tj_dtype dt = r->ty.dt;
    int rank = r->rank, nc = tt_ncomp(r->ty);
    tj_func *map = ce_map_func(et, dt);
    tj_kernel *k = tt_kernel("composite");
    tj_val *ina = tj_param_array(k, "a", et, rank), *inb = tj_param_array(k, "b", et, rank);
    tj_val *out[CE_NOPS] = {NULL};
    for (int op = 0; op < CE_NOPS; op++) {
        int result;
        if (!ce_takes((ce_op)op, r->ty, &result))
            continue;
        char name[16];
        snprintf(name, sizeof name, "out%d", op);
        out[op] = tj_param_array(k, name, tt_type(ce_result_ty((ce_op)op, r->ty)), rank);
    }
    tj_val *a = tj_tile_load(k, ina, rank, r->shape, NULL, r->storage);
    tj_val *b = tj_tile_load(k, inb, rank, r->shape, NULL, REG);
    tj_val *cc[16];
    for (int j = 0; j < nc; j++)
        cc[j] = ce_const(k, dt, ce_c(dt, j));
    tj_val *c = tj_compose(k, et, cc, (size_t)nc), *cv = NULL, *s = ce_const(k, dt, ce_s(dt));
    if (r->ty.kind == TJ_TYPE_MATRIX)
        cv = tj_compose(k, tj_context_get_vector_type(tjt.ctx, dt, r->ty.cols), cc,
                        (size_t)r->ty.cols);
    for (int op = 0; op < CE_NOPS; op++) {
        if (!out[op])
            continue;
        tj_val *res = ce_build_op(k, (ce_op)op, r->ty, map, a, b, c, cv, s);
        ck_assert_msg(res != NULL, "%s on tiles of %s: %s", ce_names[op], tj_type_get_name(et),
                      tj_kernel_error(k) ? tj_kernel_error(k) : "?");
        ck_assert_int_eq(tj_val_get_kind(res), TJ_VAL_TILE);
        ck_assert_int_eq(tj_tile_get_storage(res), REG);
        ck_assert_int_eq(tj_tile_get_rank(res), rank);
        for (int d = 0; d < rank; d++)
            ck_assert_int_eq(tj_tile_get_shape(res, d), r->shape[d]);
        ck_assert_ptr_eq(tj_val_get_type(res), tt_type(ce_result_ty((ce_op)op, r->ty)));
        tj_tile_store(k, out[op], res, NULL);
    }
    tj_module *m = tt_build(k, "composite");
    tj_func_destroy(map);
    int64_t n = tt_size(rank, r->shape), s64[4];
    tt_shape64(rank, r->shape, s64);
    void *ha = tt_alloc((size_t)(n * nc), dt), *hb = tt_alloc((size_t)(n * nc), dt);
    void *h = tt_alloc((size_t)(n * nc), dt);
    for (int64_t x = 0; x < n; x++)
        for (int j = 0; j < nc; j++) {
            tt_put(ha, dt, (size_t)(x * nc + j), ce_a(dt, x, j));
            tt_put(hb, dt, (size_t)(x * nc + j), ce_b(dt, x, j));
        }
    tj_array *aa = tt_array(et, rank, s64, ha), *ab = tt_array(et, rank, s64, hb);
    tj_array *ao[CE_NOPS] = {NULL};
    tj_arg args[2 + CE_NOPS] = {tj_arg_array(aa), tj_arg_array(ab)};
    size_t nargs = 2;
    for (int op = 0; op < CE_NOPS; op++)
        if (out[op]) {
            ao[op] = tt_array(tt_type(ce_result_ty((ce_op)op, r->ty)), rank, s64, NULL);
            args[nargs++] = tj_arg_array(ao[op]);
        }
    if (tt_launch_tiled(m, "composite", 1, args, nargs)) {
        double cvals[16];
        for (int j = 0; j < nc; j++)
            cvals[j] = ce_c(dt, j);
        for (int op = 0; op < CE_NOPS; op++) {
            if (!ao[op])
                continue;
            tt_ty rt = ce_result_ty((ce_op)op, r->ty);
            int rn = tt_ncomp(rt);
            tt_read(ao[op], h);
            for (int64_t x = 0; x < n; x++) {
                double av[16], bv[16], want[16];
                for (int j = 0; j < nc; j++) {
                    av[j] = ce_a(dt, x, j);
                    bv[j] = ce_b(dt, x, j);
                }
                ce_ref((ce_op)op, r->ty, av, bv, cvals, ce_s(dt), want);
                for (int j = 0; j < rn; j++) {
                    double got = tt_get(h, rt.dt, (size_t)(x * rn + j));
                    ck_assert_msg(got == want[j], "%s on %s (%s): element %lld component %d is "
                                  "%g, expected %g", ce_names[op], tj_type_get_name(et),
                                  tt_where(), (long long)x, j, got, want[j]);
                }
            }
        }
    }
    for (int op = 0; op < CE_NOPS; op++)
        tj_array_destroy(ao[op]);
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    free(ha);
    free(hb);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- partial blocks -------------------------------------------------------------------------- */

/* tj_launch over n = 2 B + r threads, 0 < r < B (SPEC 1): blocks 0 and 1 are full, block 2 has
 * r active lanes. Each block loads its tiles a and b (at row block * shape[0]) and stores
 * a + b, a * s, s * b, a / s, -a and tile_map(a * 2 + b). Element e of a block's tiles
 * belongs to lane e % B (SPEC 3), and in a partial block the elements of inactive lanes are
 * never computed or stored (docs/builtins.md): there the outputs keep the sentinel. Scalar
 * and composite elements, register and shared a. */

typedef enum pb_op { PB_ADD, PB_MUL_S, PB_S_MUL, PB_DIV_S, PB_NEG, PB_MAP, PB_NOPS } pb_op;

static const ce_op pb_as_ce[PB_NOPS] = {CE_ADD, CE_MUL_S, CE_S_MUL, CE_DIV_S, CE_NEG, CE_MAP};

static const ce_row pb_rows[] = {
    {TT_SCALAR(F32), 1, {300}, REG},
    {TT_SCALAR(I32), 2, {5, 7}, SHR},
    {TT_SCALAR(F64), 3, {2, 3, 7}, REG},
    {TT_SCALAR(F16), 1, {40}, SHR},
    {TT_VEC(F32, 3), 2, {4, 9}, REG},
    {TT_VEC(I32, 4), 1, {70}, SHR},
    {TT_MAT(F32, 2, 2), 1, {33}, REG},
};

START_TEST(test_elementwise_ops_in_partial_blocks_compute_active_lanes_elements)
{
    const ce_row *r = &pb_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty);
    tj_dtype dt = r->ty.dt;
    int B = tt_B(), rank = r->rank, nc = tt_ncomp(r->ty);
    tj_func *map = ce_map_func(et, dt);
    tj_kernel *k = tt_kernel("partial");
    tj_val *ina = tj_param_array(k, "a", et, rank), *inb = tj_param_array(k, "b", et, rank);
    tj_val *s = tj_param(k, "s", tjt_type(dt)), *out[PB_NOPS], *i = NULL;
    for (int op = 0; op < PB_NOPS; op++) {
        char name[16];
        snprintf(name, sizeof name, "out%d", op);
        out[op] = tj_param_array(k, name, et, rank);
    }
    tj_tid(k, 1, &i);
    tj_val *blk = tj_binary(k, TJ_BIN_DIV, i, tt_i32(k, B)), *off[4];
    for (int d = 0; d < rank; d++)
        off[d] = d ? tt_i32(k, 0) : tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, r->shape[0]));
    tj_val *a = tj_tile_load(k, ina, rank, r->shape, off, r->storage);
    tj_val *b = tj_tile_load(k, inb, rank, r->shape, off, REG);
    for (int op = 0; op < PB_NOPS; op++) {
        tj_val *res = ce_build_op(k, pb_as_ce[op], r->ty, map, a, b, NULL, NULL, s);
        ck_assert_msg(res != NULL, "%s on tiles of %s: %s", ce_names[pb_as_ce[op]],
                      tj_type_get_name(et), tj_kernel_error(k) ? tj_kernel_error(k) : "?");
        tj_tile_store(k, out[op], res, off);
    }
    tj_module *m = tt_build(k, "partial");
    tj_func_destroy(map);
    int64_t size = tt_size(rank, r->shape), nout = TT_PARTIAL_BLOCKS * size, s64[4];
    tt_shape64(rank, r->shape, s64);
    s64[0] *= TT_PARTIAL_BLOCKS;
    void *ha = tt_alloc((size_t)(nout * nc), dt), *hb = tt_alloc((size_t)(nout * nc), dt);
    for (int64_t x = 0; x < nout; x++)
        for (int j = 0; j < nc; j++) {
            tt_put(ha, dt, (size_t)(x * nc + j), ce_a(dt, x, j));
            tt_put(hb, dt, (size_t)(x * nc + j), ce_b(dt, x, j));
        }
    void *sent = tt_host_elems(r->ty, nout, false), *h = tt_host_elems(r->ty, nout, false);
    tj_array *aa = tt_array(et, rank, s64, ha), *ab = tt_array(et, rank, s64, hb), *ao[PB_NOPS];
    tj_arg args[3 + PB_NOPS] = {tj_arg_array(aa), tj_arg_array(ab),
                                tt_dt_is_float(dt) ? tj_arg_float(ce_s(dt))
                                                   : tj_arg_int((int64_t)ce_s(dt))};
    for (int op = 0; op < PB_NOPS; op++) {
        ao[op] = tt_array(et, rank, s64, NULL);
        args[3 + op] = tj_arg_array(ao[op]);
    }
    int rs[3], nr = tt_partial_remainders(B, rs);
    if (tt.kind == TT_COOP)
        tjt_ok(tt.dev, tj_device_set_cpu_threads(tt.dev, 1));
    for (int ri = 0; tt.dev && ri < nr; ri++) {
        int64_t n = 2 * (int64_t)B + rs[ri];
        for (int op = 0; op < PB_NOPS; op++)
            tjt_ok(tt.dev, tj_array_copy_from_host(ao[op], sent, tj_array_get_bytes(ao[op])));
        tt_launch(m, "partial", n, args, 3 + PB_NOPS);
        for (int op = 0; op < PB_NOPS; op++) {
            tt_read(ao[op], h);
            for (int64_t x = 0; x < nout; x++) {
                double av[16], bv[16], want[16];
                bool on = tt_partial_active(B, rs[ri], x / size, x % size);
                for (int j = 0; j < nc; j++) {
                    av[j] = ce_a(dt, x, j);
                    bv[j] = ce_b(dt, x, j);
                }
                ce_ref(pb_as_ce[op], r->ty, av, bv, NULL, ce_s(dt), want);
                for (int j = 0; j < nc; j++) {
                    double got = tt_get(h, dt, (size_t)(x * nc + j));
                    double w = on ? want[j] : TT_SENTINEL;
                    ck_assert_msg(got == w, "%s on %s (%s, %lld threads): block %lld element "
                                  "%lld component %d is %g, expected %g", ce_names[pb_as_ce[op]],
                                  tj_type_get_name(et), tt_where(), (long long)n,
                                  (long long)(x / size), (long long)(x % size), j, got, w);
                }
            }
        }
    }
    for (int op = 0; op < PB_NOPS; op++)
        tj_array_destroy(ao[op]);
    tj_array_destroy(aa);
    tj_array_destroy(ab);
    free(ha);
    free(hb);
    free(sent);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- tile variables -------------------------------------------------------------------------- */

/* acc = zeros; for i in range(n): acc = acc + tile_load(in, offset=(i * R, 0)) (a shared
 * load inside the loop); loads past the array add zeros. A second variable starts from a
 * shared tile and doubles each iteration. */
enum { VAR_R = 3, VAR_C = 37, VAR_NI = 4 };

START_TEST(test_tile_variable_accumulates_in_a_loop)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int shape[2] = {VAR_R, VAR_C};
    tj_kernel *k = tt_kernel("var");
    tj_val *in = tj_param_array(k, "in", f32, 2), *out = tj_param_array(k, "out", f32, 2);
    tj_val *out2 = tj_param_array(k, "out2", f32, 2), *n = tj_param(k, "n", i32);
    tj_val *acc = tj_var_new(k, tj_tile_zeros(k, f32, 2, shape, REG));
    tj_val *dbl = tj_var_new(k, tj_tile_ones(k, f32, 2, shape, SHR));
    tj_val *i = tj_for_begin(k, tt_i32(k, 0), n, tt_i32(k, 1));
    tj_val *off[2] = {tj_binary(k, TJ_BIN_MUL, i, tt_i32(k, VAR_R)), tt_i32(k, 0)};
    tj_val *x = tj_tile_load(k, in, 2, shape, off, SHR);
    tj_var_set(k, acc, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, acc), x));
    tj_val *d = tj_var_get(k, dbl);
    tj_var_set(k, dbl, tj_binary(k, TJ_BIN_ADD, d, d));
    tj_for_end(k);
    tj_val *res = tj_var_get(k, acc);
    tt_kernel_ok(k, "tile variable");
    ck_assert_int_eq(tj_val_get_kind(res), TJ_VAL_TILE);
    ck_assert_int_eq(tj_tile_get_shape(res, 1), VAR_C);
    tj_tile_store(k, out, res, NULL);
    tj_tile_store(k, out2, tj_var_get(k, dbl), NULL);
    tj_module *m = tt_build(k, "var");
    enum { N = VAR_R * VAR_C };
    int64_t s_in[2] = {VAR_R * VAR_NI, VAR_C}, s_out[2] = {VAR_R, VAR_C};
    float hin[VAR_NI * N], h[N], h2[N];
    for (int e = 0; e < VAR_NI * N; e++)
        hin[e] = (float)(e % 13);
    tj_array *ain = tt_array(f32, 2, s_in, hin), *aout = tt_array(f32, 2, s_out, NULL);
    tj_array *aout2 = tt_array(f32, 2, s_out, NULL);
    static const int counts[] = {0, 1, 3, VAR_NI + 2};
    for (int j = 0; tt.dev && j < TT_NELEMS(counts); j++) {
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aout2),
                         tj_arg_int(counts[j])};
        tt_launch_tiled(m, "var", 1, args, 4);
        tt_read(aout, h);
        tt_read(aout2, h2);
        for (int e = 0; e < N; e++) {
            float want = 0;
            for (int it = 0; it < counts[j] && it < VAR_NI; it++)
                want += hin[it * N + e];
            ck_assert_msg(h[e] == want, "n=%d (%s): element %d is %g, expected %g", counts[j],
                          tt_where(), e, h[e], want);
            ck_assert_msg(h2[e] == (float)(1 << counts[j]), "n=%d (%s): doubled element %d is %g",
                          counts[j], tt_where(), e, h2[e]);
        }
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_array_destroy(aout2);
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

/* Each row makes one bad call; tt_check_error_row asserts the status, the exact message,
 * that a later valid call returns NULL, and that the build fails. */
static const int sh3[] = {3}, sh4[] = {4};

static bool
e_binary_shapes(tj_kernel *k)
{
    return !tj_binary(k, TJ_BIN_ADD, tt_f32_tile(k, 1, sh3, REG), tt_f32_tile(k, 1, sh4, REG));
}

static bool
e_binary_types(tj_kernel *k)
{
    return !tj_binary(k, TJ_BIN_ADD, tt_f32_tile(k, 1, sh3, REG), tt_i32(k, 1));
}

static bool
e_var_set_shape(tj_kernel *k)
{
    tj_val *v = tj_var_new(k, tt_f32_tile(k, 1, sh4, REG));
    return !tj_var_set(k, v, tt_f32_tile(k, 1, sh3, REG));
}

/* Whether tile_map of 'f' (NULL: none) over one (3,) tile fails; drops 'f'. */
static bool
map_fails(tj_kernel *k, tj_func *f)
{
    tj_val *t = tt_f32_tile(k, 1, sh3, REG);
    bool failed = !tj_tile_map(k, f, &t, 1);
    tj_func_destroy(f);
    return failed;
}

static bool
e_map_arity(tj_kernel *k)
{
    tj_kernel_options o = {0};
    tj_func *f = tj_func_create(tjt.ctx, "f2", tjt_type(TJ_DTYPE_F32), &o);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_val *a = tj_param(f, "a", f32), *b = tj_param(f, "b", f32);
    tj_return(f, tj_binary(f, TJ_BIN_ADD, a, b));
    return map_fails(k, f);
}

static bool
e_map_nothing(tj_kernel *k)
{
    return map_fails(k, NULL);
}

static bool
e_map_void(tj_kernel *k)
{
    tj_kernel_options o = {0};
    tj_func *f = tj_func_create(tjt.ctx, "nothing", NULL, &o);
    tj_param(f, "a", tjt_type(TJ_DTYPE_F32));
    return map_fails(k, f);
}

static bool
e_binary_array(tj_kernel *k)
{
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_F32), 1);
    return !tj_binary(k, TJ_BIN_ADD, tt_f32_tile(k, 1, sh3, REG), a);
}

static bool
e_composite_mul(tj_kernel *k)
{
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_val *t = tj_tile_zeros(k, v3, 1, sh3, REG);
    return !tj_binary(k, TJ_BIN_MUL, t, t);
}

static bool
e_composite_less(tj_kernel *k)
{
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_val *t = tj_tile_zeros(k, v3, 1, sh3, REG);
    return !tj_compare(k, TJ_CMP_LT, t, t);
}

static const tt_err_row err_rows[] = {
    {"binary_shapes", 0, TJ_ERR_INVALID,
     "tj_binary: operand 1 is a tile of float32 (3,) and operand 2 a tile of float32 (4,); "
     "tile operands must have one shape", e_binary_shapes},
    {"binary_types", 0, TJ_ERR_INVALID, "add: operand types float32 and int32 do not match",
     e_binary_types},
    {"var_set_shape", 0, TJ_ERR_INVALID,
     "tj_var_set: argument 'value': a tile of float32 (3,), the variable holds a tile of "
     "float32 (4,)", e_var_set_shape},
    {"map_arity", 0, TJ_ERR_INVALID, "tile_map: function 'f2' takes 2 arguments, got 1 tiles",
     e_map_arity},
    {"map_nothing", 0, TJ_ERR_INVALID, "tile_map: needs a function and 1 to 8 tiles",
     e_map_nothing},
    {"map_void", 0, TJ_ERR_INVALID, "tile_map: function 'nothing' returns nothing", e_map_void},
    {"binary_array", 0, TJ_ERR_INVALID,
     "tj_binary: operand 2: array of float32 (1 dim) is neither a tile nor a value",
     e_binary_array},
    {"composite_mul", 0, TJ_ERR_INVALID,
     "mul: operands of type vec3f are not supported (use cw_mul or cw_div)", e_composite_mul},
    {"composite_less", 0, TJ_ERR_INVALID,
     "tj_compare: cannot compare vec3f with vec3f (composites: only equal and not-equal)",
     e_composite_less},
};

START_TEST(test_elementwise_ops_report_build_errors)
{
    tt_check_error_row(&err_rows[_i]);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_elementwise_ops_on_tiles_and_scalars_match_reference,
                TT_NELEMS(ew_rows));
    tt_add_rows(tc, kind, test_chains_of_elementwise_ops_match_reference, TT_NELEMS(chain_rows));
    tt_add_rows(tc, kind, test_tile_map_applies_user_functions, 1);
    tt_add_rows(tc, kind, test_tile_variable_accumulates_in_a_loop, 1);
    tt_add_rows(tc, kind, test_elementwise_ops_on_composite_tiles_match_reference,
                TT_NELEMS(ce_rows));
    if (kind != TT_CPU1) /* width-1 blocks are never partial */
        tt_add_rows(tc, kind, test_elementwise_ops_in_partial_blocks_compute_active_lanes_elements,
                    TT_NELEMS(pb_rows));
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("tile_elementwise");
    TCase *errors = tt_errors_tcase();
    tcase_add_loop_test(errors, test_elementwise_ops_report_build_errors, 0, TT_NELEMS(err_rows));
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
