/* tj-test: CUDA */
/*
 * tests/check_tile_view_writes.c: what tile_view does beyond reading, against the
 * reference of tj_view_ref.h: writes through views (tile_assign into a view, NumPy
 * semantics when source and destination overlap, views of views, offsets), reshapes of
 * dense views, the build errors of tile_view with their exact messages, and the debug-build
 * check of runtime offsets (TJ_ERR_KERNEL naming the kernel, "tile_view offset", the index,
 * the range, the block and the lane; the next valid launch works).
 *
 * Kinds and widths as in tj_tile_test.h. Values are compared exactly.
 */
#include "tj_view_ref.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED
#define N TJ_SLICE_NONE
#define I VR_I
#define S VR_S
#define R VR_R

/* ---- writes through views -------------------------------------------------------------------- */

/* t (4, 6) is loaded, then tile_assign(dst, src, offset) where dst is a view (or a view of
 * a view) of t and src is another view of t, overlapping dst, or a fresh arange (values
 * 100, 101, ...). NumPy semantics: src is read completely first; elements of src whose
 * place (plus offset) falls outside dst are dropped. Both t and dst are stored after. */
enum { WV_R = 4, WV_C = 6 };

typedef struct wv_row {
    const char *name;
    tj_storage storage;
    int ndst;
    vspec dst[2];
    int nsrc;              /* 0: a fresh arange of src_shape */
    vspec src[2];
    int src_rank, src_shape[2];
    bool has_off;
    int off[2];
} wv_row;

static const int wv_runtime[VT_NRUNTIME] = {2, 1};

static const wv_row wv_rows[] = {
    {"shift a row right", SHR, 1, {{2, {I(1), I(1)}, 2, {1, 5}}}, 1,
     {{2, {I(1), I(0)}, 2, {1, 5}}}, 0, {0}, false, {0}},
    {"shift a row left", REG, 1, {{2, {I(2), I(0)}, 2, {1, 5}}}, 1,
     {{2, {I(2), I(1)}, 2, {1, 5}}}, 0, {0}, false, {0}},
    {"down and right", SHR, 1, {{2, {I(1), I(1)}, 2, {3, 5}}}, 1,
     {{2, {I(0), I(0)}, 2, {3, 5}}}, 0, {0}, false, {0}},
    {"up and left", REG, 1, {{2, {I(0), I(0)}, 2, {3, 5}}}, 1,
     {{2, {I(1), I(1)}, 2, {3, 5}}}, 0, {0}, false, {0}},
    {"the same window", SHR, 1, {{2, {I(1), I(1)}, 2, {2, 3}}}, 1,
     {{2, {I(1), I(1)}, 2, {2, 3}}}, 0, {0}, false, {0}},
    {"reverse the columns", SHR, 1, {{2, {S(N, N, N), S(N, N, -1)}, 0, {0}}}, 1,
     {{0, {{0}}, 0, {0}}}, 0, {0}, false, {0}},
    {"reverse the rows", REG, 1, {{1, {S(N, N, -1)}, 0, {0}}}, 1, {{0, {{0}}, 0, {0}}}, 0,
     {0}, false, {0}},
    {"rows down by slices", SHR, 1, {{1, {S(1, N, N)}, 0, {0}}}, 1,
     {{1, {S(N, -1, N)}, 0, {0}}}, 0, {0}, false, {0}},
    {"columns right by slices", REG, 1, {{2, {S(N, N, N), S(1, N, N)}, 0, {0}}}, 1,
     {{2, {S(N, N, N), S(N, -1, N)}, 0, {0}}}, 0, {0}, false, {0}},
    {"even rows from odd rows", SHR, 1, {{1, {S(N, N, 2)}, 0, {0}}}, 1,
     {{1, {S(1, N, 2)}, 0, {0}}}, 0, {0}, false, {0}},
    {"a row (form 1)", REG, 1, {{1, {I(3)}, 0, {0}}}, 0, {{0}}, 1, {WV_C}, false, {0}},
    {"a runtime row", SHR, 1, {{1, {R(0, 1, WV_R)}, 0, {0}}}, 0, {{0}}, 1, {WV_C}, false, {0}},
    {"a column", SHR, 1, {{2, {S(N, N, N), I(2)}, 0, {0}}}, 0, {{0}}, 1, {WV_R}, false, {0}},
    {"a window from a reversed view", REG, 1, {{2, {I(1), I(2)}, 2, {2, 3}}}, 2,
     {{1, {S(N, N, -1)}, 0, {0}}, {2, {S(N, 2, N), S(-3, N, N)}, 0, {0}}}, 0, {0}, false, {0}},
    {"a view of a view", SHR, 2,
     {{2, {S(1, N, N), S(N, N, -1)}, 0, {0}}, {1, {S(N, N, 2)}, 0, {0}}}, 0, {{0}}, 2, {2, WV_C},
     false, {0}},
    {"at an offset inside a view", REG, 1, {{2, {S(1, N, N), S(1, N, N)}, 0, {0}}}, 0, {{0}},
     2, {2, 2}, true, {1, 2}},
    {"partly outside at an offset", SHR, 1, {{0, {{0}}, 0, {0}}}, 1,
     {{2, {I(0), I(0)}, 2, {2, 3}}}, 0, {0}, true, {3, 4}},
    {"a runtime window onto itself shifted", SHR, 1, {{2, {R(1, 0, 3), I(0)}, 2, {2, 6}}}, 1,
     {{2, {R(1, 1, 3), I(0)}, 2, {2, 6}}}, 0, {0}, false, {0}},
};

START_TEST(test_assign_through_views_follows_numpy)
{
    const wv_row *r = &wv_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int shape[2] = {WV_R, WV_C};
    rview pv = dense_view(2, shape), dv, sv;
    chain_ref(&pv, r->dst, r->ndst, wv_runtime, &dv);
    if (r->nsrc)
        chain_ref(&pv, r->src, r->nsrc, wv_runtime, &sv);
    else
        sv = dense_view(r->src_rank, r->src_shape);
    tj_kernel *k = tt_kernel("write_view");
    tj_val *in = tj_param_array(k, "in", f32, 2), *out = tj_param_array(k, "out", f32, 2);
    tj_val *out2 = tj_param_array(k, "out2", f32, dv.rank), *rp[VT_NRUNTIME];
    for (int j = 0; j < VT_NRUNTIME; j++)
        rp[j] = tj_param(k, j ? "r1" : "r0", i32);
    tj_val *t = tj_tile_load(k, in, 2, shape, NULL, r->storage);
    tj_val *dst = t, *src = t;
    for (int j = 0; j < r->ndst; j++)
        dst = build_view(k, dst, &r->dst[j], rp);
    for (int j = 0; j < r->nsrc; j++)
        src = build_view(k, src, &r->src[j], rp);
    if (!r->nsrc) {
        src = tj_tile_arange(k, 100, 100 + (double)tt_size(r->src_rank, r->src_shape), 1, f32, REG);
        if (r->src_rank > 1)
            src = tj_tile_reshape(k, src, r->src_rank, r->src_shape);
    }
    tj_val *off[2] = {tt_i32(k, r->off[0]), tt_i32(k, r->off[1])};
    ck_assert_msg(tj_tile_assign(k, dst, src, r->has_off ? off : NULL), "%s: %s", r->name,
                  tj_kernel_error(k));
    tj_tile_store(k, out, t, NULL);
    tj_tile_store(k, out2, dst, NULL);
    tj_module *m = tt_build(k, r->name);
    enum { NP = WV_R * WV_C };
    float hin[NP], want[NP], h[NP], tmp[NP];
    for (int e = 0; e < NP; e++)
        hin[e] = want[e] = (float)(e + 1);
    int64_t ns = tt_size(sv.rank, sv.shape), nd = tt_size(dv.rank, dv.shape);
    for (int64_t e = 0; e < ns; e++)
        tmp[e] = r->nsrc ? hin[view_elem(&sv, e)] : (float)(100 + e);
    for (int64_t e = 0; e < ns; e++) {
        int c[4];
        tt_unravel(e, sv.rank, sv.shape, c);
        for (int d = 0; r->has_off && d < sv.rank; d++)
            c[d] += r->off[d];
        int64_t de = tt_ravel(dv.rank, dv.shape, c);
        if (de >= 0)
            want[view_elem(&dv, de)] = tmp[e];
    }
    int64_t s2[2] = {WV_R, WV_C}, sd[4];
    tt_shape64(dv.rank, dv.shape, sd);
    tj_array *ain = tt_array(f32, 2, s2, hin), *aout = tt_array(f32, 2, s2, NULL);
    tj_array *aout2 = tt_array(f32, dv.rank, sd, NULL);
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aout2),
                     tj_arg_int(wv_runtime[0]), tj_arg_int(wv_runtime[1])};
    if (tt_launch_tiled(m, "write_view", 2, args, 5)) {
        tt_read(aout, h);
        for (int e = 0; e < NP; e++)
            ck_assert_msg(h[e] == want[e], "%s (%s): t[%d, %d] is %g, expected %g", r->name,
                          tt_where(), e / WV_C, e % WV_C, h[e], want[e]);
        tt_read(aout2, h);
        for (int64_t e = 0; e < nd; e++)
            ck_assert_msg(h[e] == want[view_elem(&dv, e)], "%s (%s): the destination view's "
                          "element %lld is %g, expected %g", r->name, tt_where(), (long long)e,
                          h[e], want[view_elem(&dv, e)]);
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_array_destroy(aout2);
    tj_module_destroy(m);
}
END_TEST


/* ---- reshapes of dense views ----------------------------------------------------------------- */

/* A row, a block of whole rows, a plane of a 3-D tile and a one-row slice are dense views:
 * they can be reshaped (and viewed again). */
START_TEST(test_dense_views_can_be_reshaped)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    int s2[2] = {4, 6}, s3[3] = {3, 4, 5};
    tj_kernel *k = tt_kernel("reshape_views");
    tj_val *in2 = tj_param_array(k, "in2", f32, 2), *in3 = tj_param_array(k, "in3", f32, 3);
    tj_val *o[5] = {tj_param_array(k, "o0", f32, 2), tj_param_array(k, "o1", f32, 1),
                    tj_param_array(k, "o2", f32, 1), tj_param_array(k, "o3", f32, 1),
                    tj_param_array(k, "o4", f32, 2)};
    tj_val *t = tj_tile_load(k, in2, 2, s2, NULL, REG);
    tj_val *t3 = tj_tile_load(k, in3, 3, s3, NULL, SHR);
    tj_view_index row2 = tj_view_at(tt_i32(k, 2)), rows[2] = {tj_view_at(tt_i32(k, 1)),
                                                                tj_view_at(tt_i32(k, 0))};
    tj_view_index one = tj_view_slice(1, 2, N), plane = tj_view_at(tt_i32(k, 1));
    tj_view_index rev = tj_view_slice(N, N, -1);
    tj_val *r0 = tj_tile_reshape(k, tj_tile_view(k, t, &row2, 1, NULL, 0), 2, (int[]){2, 3});
    tj_val *r1 = tj_tile_reshape(k, tj_tile_view(k, t, rows, 2, (int[]){2, 6}, 2), 1, (int[]){12});
    tj_val *r2 = tj_tile_reshape(k, tj_tile_view(k, t3, &plane, 1, NULL, 0), 1, (int[]){-1});
    tj_val *r3 = tj_tile_reshape(k, tj_tile_view(k, t, &one, 1, NULL, 0), 1, (int[]){6});
    tj_val *r4 = tj_tile_view(k, r0, &rev, 1, NULL, 0);
    tt_kernel_ok(k, "reshape of dense views");
    ck_assert_int_eq(tj_tile_get_shape(r2, 0), 20);
    tj_val *rs[5] = {r0, r1, r2, r3, r4};
    for (int j = 0; j < 5; j++)
        tj_tile_store(k, o[j], rs[j], NULL);
    tj_module *m = tt_build(k, "reshape of dense views");
    float h2[24], h3[60], h[60];
    for (int e = 0; e < 60; e++) {
        h3[e] = (float)(1000 + e);
        if (e < 24)
            h2[e] = (float)(e + 1);
    }
    int64_t a2[2] = {4, 6}, a3[3] = {3, 4, 5}, sh[5][2] = {{2, 3}, {12}, {20}, {6}, {2, 3}};
    tj_array *ain2 = tt_array(f32, 2, a2, h2), *ain3 = tt_array(f32, 3, a3, h3), *ao[5];
    tj_arg args[7] = {tj_arg_array(ain2), tj_arg_array(ain3)};
    for (int j = 0; j < 5; j++) {
        ao[j] = tt_array(f32, j == 0 || j == 4 ? 2 : 1, sh[j], NULL);
        args[2 + j] = tj_arg_array(ao[j]);
    }
    if (tt_launch_tiled(m, "reshape_views", 1, args, 7)) {
        /* expected: the parent elements, in order */
        for (int j = 0; j < 5; j++) {
            tt_read(ao[j], h);
            int n = (int)(sh[j][0] * (sh[j][1] ? sh[j][1] : 1));
            for (int e = 0; e < n; e++) {
                float want = j == 0   ? h2[12 + e]
                             : j == 1 ? h2[6 + e]
                             : j == 2 ? h3[20 + e]
                             : j == 3 ? h2[6 + e]
                                      : h2[12 + (1 - e / 3) * 3 + e % 3];
                ck_assert_msg(h[e] == want, "reshape %d (%s): element %d is %g, expected %g", j,
                              tt_where(), e, h[e], want);
            }
        }
    }
    tj_array_destroy(ain2);
    tj_array_destroy(ain3);
    for (int j = 0; j < 5; j++)
        tj_array_destroy(ao[j]);
    tj_module_destroy(m);
}
END_TEST

/* ---- views as operands, and tiles made in loops ---------------------------------------------- */

/* v = t[1::2, ::-1] of a (6, 8) register tile is a non-dense shared view. It feeds: an
 * element-wise add and a tile_map (o1, o2), tile_extract at a runtime index (every lane,
 * o3), tile_atomic_add (acc), and a tile variable that adds it n times in a loop (o4).
 * Inside the loop a register tile u is loaded per iteration, its row 1 viewed (promoting
 * u where it was made, in the loop), reshaped and assigned into row i of a shared
 * accumulator s (o5), and element (0, i) of the register tile -u extracted by every lane
 * and summed (o6). */
enum { CV_R = 6, CV_C = 8, CV_VR = 3, CV_N = 4 };

static tj_func *
cv_twice_plus_one(void)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_func *f = tt_func("twice_plus_one", f32);
    tj_val *a = tj_param(f, "a", f32);
    tj_val *two = tj_const_float(f, TJ_DTYPE_F32, 2), *one = tj_const_float(f, TJ_DTYPE_F32, 1);
    tj_return(f, tj_fma(f, a, two, one));
    return f;
}

START_TEST(test_views_feed_other_builtins_and_loops_promote_their_tiles)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int B = tt_B(), shape[2] = {CV_R, CV_C}, ushape[2] = {2, CV_C};
    int sshape[2] = {CV_N, CV_C}, row[2] = {1, CV_C};
    tj_func *f = cv_twice_plus_one();
    tj_kernel *k = tt_kernel("composed");
    tj_val *in = tj_param_array(k, "in", f32, 2), *in2 = tj_param_array(k, "in2", f32, 2);
    tj_val *acc = tj_param_array(k, "acc", f32, 2), *o[6];
    for (int j = 0; j < 6; j++) {
        char name[8];
        snprintf(name, sizeof name, "o%d", j + 1);
        o[j] = tj_param_array(k, name, f32, j == 2 || j == 5 ? 1 : 2);
    }
    tj_val *n = tj_param(k, "n", i32), *r = tj_param(k, "r", i32), *id[2];
    tj_tid(k, 2, id);
    tj_val *lane = id[1];
    tj_val *t = tj_tile_load(k, in, 2, shape, NULL, REG);
    tj_view_index vo[2] = {tj_view_slice(1, N, 2), tj_view_slice(N, N, -1)};
    tj_val *v = tj_tile_view(k, t, vo, 2, NULL, 0);
    tj_tile_store(k, o[0], tj_binary(k, TJ_BIN_ADD, v, v), NULL);
    tj_tile_store(k, o[1], tj_tile_map(k, f, &v, 1), NULL);
    tj_val *xi[2] = {tj_binary(k, TJ_BIN_MOD, r, tt_i32(k, CV_VR)), tt_i32(k, 2)};
    tj_store(k, o[2], &lane, 1, tj_tile_extract(k, v, xi, 2));
    tj_tile_atomic_add(k, acc, v, NULL);
    tj_val *var = tj_var_new(k, v);
    tj_val *s = tj_tile_zeros(k, f32, 2, sshape, SHR);
    tj_val *sum = tj_var_new(k, tj_const_float(k, TJ_DTYPE_F32, 0));
    tj_val *i = tj_for_begin(k, tt_i32(k, 0), n, tt_i32(k, 1));
    tj_var_set(k, var, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, var), v));
    tj_val *uo[2] = {tj_binary(k, TJ_BIN_MUL, i, tt_i32(k, 2)), tt_i32(k, 0)};
    tj_val *u = tj_tile_load(k, in2, 2, ushape, uo, REG);
    tj_view_index r1 = tj_view_at(tt_i32(k, 1));
    tj_val *ao[2] = {i, tt_i32(k, 0)};
    tj_tile_assign(k, s, tj_tile_reshape(k, tj_tile_view(k, u, &r1, 1, NULL, 0), 2, row), ao);
    tj_val *ui[2] = {tt_i32(k, 0), i};
    tj_val *uneg = tj_unary(k, TJ_UN_NEG, u); /* a register tile: extract goes through scratch */
    tj_val *x = tj_tile_extract(k, uneg, ui, 2);
    tj_var_set(k, sum, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, sum), x));
    tj_for_end(k);
    tj_tile_store(k, o[3], tj_var_get(k, var), NULL);
    tj_tile_store(k, o[4], s, NULL);
    tj_store(k, o[5], &lane, 1, tj_var_get(k, sum));
    tj_module *m = tt_build(k, "composed");
    tj_func_destroy(f);
    enum { NT = CV_R * CV_C, NV = CV_VR * CV_C, N2 = 2 * CV_N * CV_C };
    float hin[NT], hin2[N2], hacc[NV], *h = tt_alloc((size_t)(B > NT ? B : NT), TJ_DTYPE_F32);
    for (int e = 0; e < NT; e++)
        hin[e] = (float)(e % 17) - 4;
    for (int e = 0; e < N2; e++)
        hin2[e] = (float)(e % 11) + 0.5f;
    for (int e = 0; e < NV; e++)
        hacc[e] = 100;
    int64_t s_t[2] = {CV_R, CV_C}, s_2[2] = {2 * CV_N, CV_C}, s_v[2] = {CV_VR, CV_C};
    int64_t s_s[2] = {CV_N, CV_C}, nl = B;
    tj_array *ain = tt_array(f32, 2, s_t, hin), *ain2 = tt_array(f32, 2, s_2, hin2);
    tj_array *aacc = tt_array(f32, 2, s_v, hacc), *ao_[6];
    for (int j = 0; j < 6; j++)
        ao_[j] = j == 2 || j == 5 ? tt_array(f32, 1, &nl, NULL)
                                  : tt_array(f32, 2, j == 4 ? s_s : s_v, NULL);
    static const int runs[][2] = {{CV_N, 4}, {2, 1}};
    for (int ri = 0; tt.dev && ri < TT_NELEMS(runs); ri++) {
        int nn = runs[ri][0], rr = runs[ri][1];
        tjt_ok(tt.dev, tj_array_copy_from_host(aacc, hacc, sizeof hacc));
        tjt_ok(tt.dev, tj_array_zero(ao_[4]));
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(ain2), tj_arg_array(aacc),
                         tj_arg_array(ao_[0]), tj_arg_array(ao_[1]), tj_arg_array(ao_[2]),
                         tj_arg_array(ao_[3]), tj_arg_array(ao_[4]), tj_arg_array(ao_[5]),
                         tj_arg_int(nn), tj_arg_int(rr)};
        tt_launch_tiled(m, "composed", 1, args, TT_NELEMS(args));
        float vv[NV];
        for (int e = 0; e < NV; e++)
            vv[e] = hin[(1 + 2 * (e / CV_C)) * CV_C + (CV_C - 1 - e % CV_C)];
        for (int j = 0; j < 6; j++) {
            tt_read(j == 2 ? ao_[2] : j == 5 ? ao_[5] : ao_[j], h);
            int cnt = j == 2 || j == 5 ? B : j == 4 ? CV_N * CV_C : NV;
            for (int e = 0; e < cnt; e++) {
                float want = 0;
                switch (j) {
                case 0: want = vv[e] + vv[e]; break;
                case 1: want = vv[e] * 2 + 1; break;
                case 2: want = vv[(rr % CV_VR) * CV_C + 2]; break;
                case 3: want = vv[e] * (float)(nn + 1); break;
                case 4: want = e / CV_C < nn ? hin2[(2 * (e / CV_C) + 1) * CV_C + e % CV_C] : 0;
                        break;
                default:
                    for (int it = 0; it < nn; it++)
                        want -= hin2[2 * it * CV_C + it];
                }
                ck_assert_msg(h[e] == want, "o%d (%s, n=%d): element %d is %g, expected %g",
                              j + 1, tt_where(), nn, e, h[e], want);
            }
        }
        tt_read(aacc, h);
        for (int e = 0; e < NV; e++)
            ck_assert_msg(h[e] == 100 + vv[e], "acc (%s): element %d is %g, expected %g",
                          tt_where(), e, h[e], 100 + vv[e]);
    }
    tj_array_destroy(ain);
    tj_array_destroy(ain2);
    tj_array_destroy(aacc);
    for (int j = 0; j < 6; j++)
        tj_array_destroy(ao_[j]);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

typedef struct verr_row {
    const char *name;
    int rank;
    int shape[3];
    vspec s;
    int kind;              /* 0 the view; 1 a float entry; 2 a tile entry; 3 an array as 't';
                            * 4 a view of a valid view (s applies to t[1:4]); 5 entry 0 of
                            * kind 7; 6 'offset' NULL; 7 'shape' NULL */
    tj_status status;
    const char *msg;
} verr_row;

static const verr_row verr_rows[] = {
    {"constant offset past its dimension", 2, {5, 6}, {1, {I(5)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 is 5, outside dimension 0 of extent 5"},
    {"negative constant offset", 2, {5, 6}, {2, {I(0), I(-1)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 1 is -1, outside dimension 1 of extent 6"},
    {"window constant offset past its dimension", 2, {5, 6}, {2, {I(0), I(6)}, 2, {1, 1}}, 0,
     TJ_ERR_INVALID, "tile_view: argument 'offset': entry 1 is 6, outside dimension 1 of extent 6"},
    {"offset plus shape beyond the parent", 2, {5, 6}, {2, {I(3), I(0)}, 2, {3, 6}}, 0,
     TJ_ERR_INVALID,
     "tile_view: argument 'shape': offset 3 + extent 3 exceeds dimension 0 of extent 5"},
    {"offset plus shape beyond the last dimension", 3, {3, 4, 5},
     {3, {I(0), I(1), I(4)}, 3, {3, 3, 2}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'shape': offset 4 + extent 2 exceeds dimension 2 of extent 5"},
    {"step 0", 2, {5, 6}, {2, {S(N, N, N), S(N, N, 0)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 1 is a slice with step 0"},
    {"a slice with a shape", 2, {5, 6}, {2, {I(1), S(N, N, N)}, 2, {2, 2}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'shape': a shape cannot be given with slices in 'offset'"},
    {"an empty slice", 2, {5, 6}, {1, {S(3, 3, N)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 selects no element of dimension 0 (extent 5); the "
     "view would be empty"},
    {"an empty negative-step slice", 2, {5, 6}, {2, {S(N, N, N), S(1, 4, -1)}, 0, {0}}, 0,
     TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 1 selects no element of dimension 1 (extent 6); the "
     "view would be empty"},
    {"an empty slice past the end", 1, {7}, {1, {S(100, N, N)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 selects no element of dimension 0 (extent 7); the "
     "view would be empty"},
    {"a rank-0 result", 2, {5, 6}, {2, {I(1), I(2)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: every dimension is selected by an integer, so the view has rank 0; use "
     "tile_extract for one element"},
    {"a rank-0 result of a 1-D tile", 1, {7}, {1, {I(3)}, 0, {0}}, 0, TJ_ERR_INVALID,
     "tile_view: every dimension is selected by an integer, so the view has rank 0; use "
     "tile_extract for one element"},
    {"more entries than dimensions", 2, {5, 6}, {3, {I(0), I(0), I(0)}, 0, {0}}, 0,
     TJ_ERR_INVALID, "tile_view: argument 'offset': 3 entries for a rank-2 tile"},
    {"a float entry", 2, {5, 6}, {1, {I(0)}, 0, {0}}, 1, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 is float32, not an integer"},
    {"a tile entry", 2, {5, 6}, {2, {I(0), I(0)}, 0, {0}}, 2, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 1 is a tile of int32 (2,), not an integer"},
    {"too few shape extents", 2, {5, 6}, {1, {I(1)}, 1, {2}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'shape': 1 extents for a rank-2 tile (one per dimension)"},
    {"a zero shape extent", 2, {5, 6}, {0, {{0}}, 2, {2, 0}}, 0, TJ_ERR_INVALID,
     "tile_view: argument 'shape': extent 0 of dimension 1 is not in [1, 6]"},
    {"a view of an array", 2, {5, 6}, {1, {I(0)}, 0, {0}}, 3, TJ_ERR_INVALID,
     "tile_view: argument 't': array of float32 (2 dims) is not a tile"},
    {"a view of a view past its dimension", 1, {7}, {1, {I(3)}, 0, {0}}, 4, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 is 3, outside dimension 0 of extent 3"},
    {"a window of a view beyond it", 1, {7}, {1, {I(1)}, 1, {3}}, 4, TJ_ERR_INVALID,
     "tile_view: argument 'shape': offset 1 + extent 3 exceeds dimension 0 of extent 3"},
    {"an entry of no kind", 2, {5, 6}, {1, {I(0)}, 0, {0}}, 5, TJ_ERR_INVALID,
     "tile_view: argument 'offset': entry 0 has kind 7"},
    {"offsets missing", 2, {5, 6}, {1, {I(0)}, 0, {0}}, 6, TJ_ERR_INVALID,
     "tile_view: argument 'offset' is missing"},
    {"a NULL shape", 2, {5, 6}, {2, {I(0), I(0)}, 2, {1, 1}}, 7, TJ_ERR_INVALID,
     "tile_view: argument 'shape' is NULL"},
};

START_TEST(test_view_reports_build_errors)
{
    const verr_row *r = &verr_rows[_i];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bad_view", NULL);
    tj_val *arr = tj_param_array(k, "a", f32, r->rank);
    tj_val *t = tj_tile_load(k, arr, r->rank, r->shape, NULL, REG);
    tt_kernel_ok(k, "setup");
    if (r->kind == 4) {
        tj_view_index mid = tj_view_slice(1, 4, N);
        t = tj_tile_view(k, t, &mid, 1, NULL, 0);
        ck_assert_int_eq(tj_tile_get_shape(t, 0), 3);
    }
    tj_view_index o[4];
    for (int j = 0; j < r->s.n; j++)
        o[j] = r->s.e[j].kind == 's' ? tj_view_slice(r->s.e[j].a, r->s.e[j].b, r->s.e[j].c)
                                     : tj_view_at(tt_i32(k, r->s.e[j].a));
    if (r->kind == 1)
        o[0] = tj_view_at(tj_const_float(k, TJ_DTYPE_F32, 0));
    if (r->kind == 2)
        o[1] = tj_view_at(tj_tile_zeros(k, tjt_type(TJ_DTYPE_I32), 1, (int[]){2}, REG));
    if (r->kind == 5)
        o[0].kind = (tj_view_kind)7;
    tt_kernel_ok(k, "setup");
    tj_val *v = tj_tile_view(k, r->kind == 3 ? arr : t, r->s.n && r->kind != 6 ? o : NULL,
                             r->s.n, r->s.nshape && r->kind != 7 ? r->s.shape : NULL,
                             r->s.nshape);
    ck_assert_msg(v == NULL, "%s: the view was made", r->name);
    tt_assert_build_error(k, r->status, r->msg, tt_later_zeros);
}
END_TEST

/* ---- debug builds: runtime offsets are checked ----------------------------------------------- */

/* Three blocks take row (r + block) of a (5, 6) tile, and a (2, 4) window at (w, 1): only
 * the last block's row is out of range when r = 3, and every window is out of range when
 * w = 4 or -1. The launch fails with the kernel's message; the next valid launch works. */
static void
debug_expect(tj_status st, const char *want)
{
    const char *got = tj_device_error(tt.dev);
    ck_assert_msg(st == TJ_ERR_KERNEL, "status %s, expected TJ_ERR_KERNEL (%s)", tj_status_name(st),
                  got ? got : "no message");
    ck_assert_ptr_nonnull(got);
    if (tt.kind == TT_CUDA) { /* which lane fails first is the GPU's choice */
        size_t n = strlen(want) - strlen("0)");
        ck_assert_msg(strncmp(got, want, n) == 0, "message '%s', expected '%s' up to the lane",
                      got, want);
    } else {
        ck_assert_str_eq(got, want);
    }
}

START_TEST(test_debug_build_reports_runtime_view_offsets_out_of_range)
{
    tt_begin(_i);
    tt.debug = true;
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int shape[2] = {5, 6}, win[2] = {2, 4};
    tj_kernel *k = tt_kernel("dbg_view");
    tj_val *in = tj_param_array(k, "in", f32, 2), *out = tj_param_array(k, "out", f32, 1);
    tj_val *wout = tj_param_array(k, "wout", f32, 2);
    tj_val *r = tj_param(k, "r", i32), *w = tj_param(k, "w", i32), *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *t = tj_tile_load(k, in, 2, shape, NULL, SHR);
    tj_view_index row = tj_view_at(tj_binary(k, TJ_BIN_ADD, r, blk));
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, 6));
    tj_tile_store(k, out, tj_tile_view(k, t, &row, 1, NULL, 0), &off);
    tj_view_index wo[2] = {tj_view_at(w), tj_view_at(tt_i32(k, 1))};
    tj_val *woff[2] = {tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, 2)), tt_i32(k, 0)};
    tj_tile_store(k, wout, tj_tile_view(k, t, wo, 2, win, 2), woff);
    tj_module *m = tt_build(k, "debug view");
    float hin[30], h[24];
    for (int e = 0; e < 30; e++)
        hin[e] = (float)(e + 1);
    int64_t s_in[2] = {5, 6}, n_out = 18, s_w[2] = {6, 4}, nb = 3;
    tj_array *ain = tt_array(f32, 2, s_in, hin), *aout = tt_array(f32, 1, &n_out, NULL);
    tj_array *aw = tt_array(f32, 2, s_w, NULL);
    if (!tt.dev) {
        tj_module_destroy(m);
        return;
    }
    static const struct {
        int r, w;
        const char *msg;
    } bad[] = {
        {3, 0, "kernel 'dbg_view': tile_view offset: index 5 is out of range [0, 5) in dimension "
               "0 (block 2, lane 0)"},
        {0, 4, "kernel 'dbg_view': tile_view offset: index 4 is out of range [0, 4) in dimension "
               "0 (block %d, lane 0)"},
        {-1, 0, "kernel 'dbg_view': tile_view offset: index -1 is out of range [0, 5) in "
                "dimension 0 (block 0, lane 0)"},
        {0, -1, "kernel 'dbg_view': tile_view offset: index -1 is out of range [0, 4) in "
                "dimension 0 (block %d, lane 0)"},
    };
    for (int i = 0; i < TT_NELEMS(bad); i++) {
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aw),
                         tj_arg_int(bad[i].r), tj_arg_int(bad[i].w)};
        tj_status st = tj_launch_tiled(tt.dev, m, "dbg_view", 1, &nb, tt.block_dim, args, 5);
        char want[256];
        if (strstr(bad[i].msg, "%d")) { /* every block fails: the first to report wins */
            const char *got = tj_device_error(tt.dev);
            const char *b = got ? strstr(got, "(block ") : NULL;
            snprintf(want, sizeof want, bad[i].msg, b ? atoi(b + 7) : -1);
        } else {
            snprintf(want, sizeof want, "%s", bad[i].msg);
        }
        debug_expect(st, want);
    }
    /* a valid launch of the same module in the same process */
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aw), tj_arg_int(2),
                     tj_arg_int(3)};
    tjt_ok(tt.dev, tj_launch_tiled(tt.dev, m, "dbg_view", 1, &nb, tt.block_dim, args, 5));
    tt_read(aout, h);
    for (int e = 0; e < 18; e++)
        ck_assert_msg(h[e] == hin[(2 + e / 6) * 6 + e % 6], "row element %d is %g (%s)", e, h[e],
                      tt_where());
    tt_read(aw, h);
    for (int e = 0; e < 24; e++)
        ck_assert_msg(h[e] == hin[(3 + e / 4 % 2) * 6 + 1 + e % 4], "window element %d is %g (%s)",
                      e, h[e], tt_where());
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_array_destroy(aw);
    tj_module_destroy(m);
}
END_TEST

/* ---- copies through a shared tile ------------------------------------------------------------ */

/* Block b loads its CT_L elements of src into a register tile, assigns it into a shared tile
 * through a full view and stores the shared tile into dst: the copy of the bench. src has
 * CT_NB blocks' worth less 5 elements, so the last block takes tile_store's
 * element-by-element path and the others its fast path (one memmove). 'both': the store
 * happens when flag != 0 only, and otherwise lane 0 writes element 3 of the shared tile to
 * out[b], so both sides of that branch read the shared tile. */
enum { CT_L = 1024, CT_NB = 5, CT_N = CT_NB * CT_L - 5 };

static tj_kernel *
ct_kernel(bool both)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int L = CT_L;
    tj_kernel *k = tt_kernel(both ? "copy_either" : "copy_through");
    tj_val *src = tj_param_array(k, "src", f32, 1), *dst = tj_param_array(k, "dst", f32, 1);
    tj_val *out = both ? tj_param_array(k, "out", f32, 1) : NULL;
    tj_val *flag = both ? tj_param(k, "flag", i32) : NULL, *id[2];
    tj_tid(k, 2, id);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, CT_L));
    tj_val *t = tj_tile_load(k, src, 1, &L, &off, REG);
    tj_val *buf = tj_tile_zeros(k, f32, 1, &L, SHR);
    tj_view_index all = tj_view_slice(N, N, N);
    tj_val *view = tj_tile_view(k, buf, &all, 1, NULL, 0);
    tj_tile_assign(k, view, t, NULL);
    if (both)
        tj_if_begin(k, tj_compare(k, TJ_CMP_NE, flag, tt_i32(k, 0)));
    tj_tile_store(k, dst, view, &off);
    if (both) {
        tj_else_begin(k);
        tj_val *three = tt_i32(k, 3);
        tj_val *x = tj_tile_extract(k, buf, &three, 1);
        tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, id[1], tt_i32(k, 0)));
        tj_store(k, out, &id[0], 1, x);
        tj_if_end(k);
        tj_if_end(k);
    }
    return k;
}

enum { IRB_MAX = 256, IRB_NAME = 64, IRB_PREDS = 8 };

typedef struct ir_block {
    char name[IRB_NAME];
    char preds[IRB_PREDS][IRB_NAME];
    int npreds;
    bool has[2]; /* an instruction of the block contains needle 0, 1 */
} ir_block;

/* The blocks of the one function that 'ir' defines, from its label lines ("name: ; preds =
 * %a, %b"); has[j] when one of the block's lines contains needles[j]. */
static int
ir_blocks(const char *ir, const char *const needles[2], ir_block *bs)
{
    int n = 0;
    bool in_fn = false;
    for (const char *line = ir; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if (strncmp(buf, "define ", 7) == 0) {
            in_fn = true;
        } else if (strcmp(buf, "}") == 0) {
            in_fn = false;
        } else if (in_fn && buf[0] != ' ' && strchr(buf, ':')) {
            ck_assert_int_lt(n, IRB_MAX);
            ir_block *b = &bs[n++];
            memset(b, 0, sizeof *b);
            snprintf(b->name, sizeof b->name, "%.*s", (int)(strchr(buf, ':') - buf), buf);
            const char *p = strstr(buf, "; preds = ");
            for (p = p ? p + 10 : NULL; p && *p == '%';) {
                size_t w = strcspn(p + 1, ", ");
                ck_assert_int_lt(b->npreds, IRB_PREDS);
                snprintf(b->preds[b->npreds++], IRB_NAME, "%.*s", (int)w, p + 1);
                p += 1 + w;
                p = strncmp(p, ", ", 2) == 0 ? p + 2 : NULL;
            }
        } else if (in_fn && n > 0) {
            for (int j = 0; j < 2; j++)
                bs[n - 1].has[j] = bs[n - 1].has[j] || strstr(buf, needles[j]) != NULL;
        }
        line = end ? end + 1 : line + len;
    }
    return n;
}

/* True when block 'from' reaches block 'to' (or is it) without passing a block named
 * 'stop' (the entry's loop over blocks, target_host.c: one block's run, not the next). */
static bool
ir_reaches(const ir_block *bs, int n, int from, int to, const char *stop)
{
    bool seen[IRB_MAX] = {false};
    int work[IRB_MAX], top = 0;
    work[top++] = to;
    seen[to] = true;
    while (top > 0) {
        int b = work[--top];
        if (b == from)
            return true;
        if (strcmp(bs[b].name, stop) == 0)
            continue;
        for (int p = 0; p < bs[b].npreds; p++)
            for (int c = 0; c < n; c++)
                if (!seen[c] && strcmp(bs[c].name, bs[b].preds[p]) == 0) {
                    seen[c] = true;
                    work[top++] = c;
                }
    }
    return false;
}

/* In width-1 mode the shared tile is a local array, and after O3 the copy into it sat
 * above tile_store's branch, though the fast path reads the source directly: sink_copies.c
 * moves it into the branch that reads it. The optimised IR shows that no block on the way
 * to the fast path's memmove copies into the shared array; the values show both paths
 * right. 'copy_either' keeps the copy above its branch (both sides read the array): moved
 * into either side, the other would read a shared tile never written. */
START_TEST(test_copies_through_a_shared_tile_skip_it_on_the_fast_path)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    float *hs = tt_alloc(CT_NB * CT_L, TJ_DTYPE_F32), *hd = tt_alloc(CT_NB * CT_L, TJ_DTYPE_F32);
    for (int e = 0; e < CT_N; e++)
        hs[e] = (float)(e % 1000) * 0.5f - 7;
    int64_t ns = CT_N, nb = CT_NB;
    tj_array *as = tt_array(f32, 1, &ns, hs);
    for (int both = 0; both < 2; both++)
        for (int flag = 0; flag < 1 + both; flag++) {
            tj_module *m = tt_build(ct_kernel(both), both ? "copy_either" : "copy_through");
            for (int e = 0; e < CT_N; e++)
                hd[e] = -1;
            tj_array *ad = tt_array(f32, 1, &ns, hd), *ao = tt_array(f32, 1, &nb, hd);
            tj_arg args[4] = {tj_arg_array(as), tj_arg_array(ad), tj_arg_array(ao),
                              tj_arg_int(flag)};
            bool stored = !both || flag;
            if (tt_launch_tiled(m, both ? "copy_either" : "copy_through", CT_NB, args,
                                both ? 4 : 2)) {
                tt_read(ad, hd);
                for (int e = 0; e < CT_N; e++)
                    ck_assert_msg(hd[e] == (stored ? hs[e] : -1),
                                  "%s, flag %d (%s): dst[%d] is %g, expected %g",
                                  both ? "copy_either" : "copy_through", flag, tt_where(), e,
                                  hd[e], stored ? hs[e] : -1);
                tt_read(ao, hd);
                for (int b = 0; both && b < CT_NB; b++)
                    ck_assert_msg(hd[b] == (stored ? -1 : hs[b * CT_L + 3]),
                                  "copy_either, flag %d (%s): out[%d] is %g, expected %g", flag,
                                  tt_where(), b, hd[b], stored ? -1 : hs[b * CT_L + 3]);
            }
            tj_array_destroy(ad);
            tj_array_destroy(ao);
            tj_module_destroy(m);
        }
    tj_array_destroy(as);
    free(hs);
    free(hd);
    if (tt.kind == TT_CPU1) {
        tj_kernel *k = ct_kernel(false);
        tt_kernel_ok(k, "copy_through");
        tj_build_options o = {.keep_ir = true};
        tj_module *m = NULL;
        ck_assert_int_eq(tj_kernel_build(k, &o, &m), TJ_OK);
        static const char *const needles[2] = {"@llvm.memcpy", "@llvm.memmove"};
        static ir_block bs[IRB_MAX];
        int n = ir_blocks(tj_module_get_ir(m), needles, bs), copies = 0, moves = 0;
        for (int c = 0; c < n; c++)
            for (int v = 0; v < n; v++)
                if (bs[c].has[0] && bs[v].has[1]) {
                    ck_assert_msg(!ir_reaches(bs, n, c, v, "body"),
                                  "block %s copies into the shared tile on the way to the "
                                  "memmove of block %s",
                                  bs[c].name, bs[v].name);
                    copies++, moves++;
                }
        ck_assert_msg(copies > 0 && moves > 0, "expected a memcpy and a memmove in the IR");
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_assign_through_views_follows_numpy, TT_NELEMS(wv_rows));
    tt_add_rows(tc, kind, test_dense_views_can_be_reshaped, 1);
    tt_add_rows(tc, kind, test_views_feed_other_builtins_and_loops_promote_their_tiles, 1);
    tt_add_rows(tc, kind, test_debug_build_reports_runtime_view_offsets_out_of_range, 1);
    tt_add_rows(tc, kind, test_copies_through_a_shared_tile_skip_it_on_the_fast_path, 1);
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("tile_view_writes");
    TCase *errors = tt_errors_tcase();
    tcase_add_loop_test(errors, test_view_reports_build_errors, 0, TT_NELEMS(verr_rows));
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
