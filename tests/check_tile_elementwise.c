/* tj-test: CUDA */
/*
 * tests/check_tile_elementwise.c: "Tiles I", element-wise work on tiles: tj_unary,
 * tj_binary and tj_compare on tile-tile, tile-scalar and scalar-tile operands (add, sub,
 * mul, div, min, max, neg, lt, eq, ge in float16/32/64 and int32/64), tj_tile_map with
 * user functions of one to three tiles, tile variables accumulated in a loop, and the
 * build errors of these.
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
    tj_val *p[3];
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

static bool
e_map_arity(tj_kernel *k)
{
    tj_kernel_options o = {0};
    tj_func *f = tj_func_create(tjt.ctx, "f2", tjt_type(TJ_DTYPE_F32), &o);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_val *a = tj_param(f, "a", f32), *b = tj_param(f, "b", f32);
    tj_return(f, tj_binary(f, TJ_BIN_ADD, a, b));
    tj_val *t = tt_f32_tile(k, 1, sh3, REG);
    bool failed = !tj_tile_map(k, f, &t, 1);
    tj_func_destroy(f);
    return failed;
}

static const tt_err_row err_rows[] = {
    {"binary_shapes", 0, TJ_ERR_INVALID, "tj_binary: tile operands have different shapes",
     e_binary_shapes},
    {"binary_types", 0, TJ_ERR_INVALID, "add: operand types float32 and int32 do not match",
     e_binary_types},
    {"var_set_shape", 0, TJ_ERR_INVALID,
     "tj_var_set: argument 'value': a tile of float32 (3,), the variable holds a tile of "
     "float32 (4,)", e_var_set_shape},
    {"map_arity", 0, TJ_ERR_INVALID, "tile_map: function 'f2' takes 2 arguments, got 1 tiles",
     e_map_arity},
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
    tt_add_rows(tc, kind, test_tile_map_applies_user_functions, 1);
    tt_add_rows(tc, kind, test_tile_variable_accumulates_in_a_loop, 1);
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
