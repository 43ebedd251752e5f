/* tj-test: CUDA */
/*
 * tests/check_tile_lanes.c: "Tiles I", what lanes contribute and see: tj_tile / tj_untile
 * round trips of every scalar type, vectors, matrices, quaternions and structs, with and
 * without preserve_type (shapes (B,), (N, B), (R, C, B); B = 1 in width-1 mode), each
 * lane's value checked; tile_extract (constant and runtime indices, register and shared
 * tiles: every lane of every block sees the element); partial blocks of tj_launch; the
 * seed of seeds/tile.txt; and the build errors of tile, untile and tile_extract.
 *
 * Kinds and widths as in tj_tile_test.h. Values are compared exactly.
 */
#include "tj_tile_test.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED

/* ---- tj_tile / tj_untile --------------------------------------------------------------------- */

/* Each lane of TU_BLOCKS blocks builds x = f(g) (g = block * B + lane, component c of
 * f(g) is tu_val(g, c)), tiles it, stores the tile at (..., block * B) of 'out', untiles it
 * into back[g], and untiles a shared copy of it into back2[g]. */
typedef struct tu_row {
    tt_ty ty;
    bool preserve;
} tu_row;

enum { TU_BLOCKS = 2 };

static const tu_row tu_rows[] = {
    {TT_SCALAR(BOOL), false}, {TT_SCALAR(I8), false},  {TT_SCALAR(I16), false},
    {TT_SCALAR(I32), false},  {TT_SCALAR(I64), false}, {TT_SCALAR(U8), false},
    {TT_SCALAR(U16), false},  {TT_SCALAR(U32), false}, {TT_SCALAR(U64), false},
    {TT_SCALAR(F16), false},  {TT_SCALAR(F32), false}, {TT_SCALAR(F64), false},
    {TT_SCALAR(I8), true},    {TT_SCALAR(F32), true},  {TT_SCALAR(U64), true},
    {TT_VEC(F32, 2), false},  {TT_VEC(F32, 2), true},  {TT_VEC(I32, 3), false},
    {TT_VEC(I32, 3), true},   {TT_VEC(F64, 4), false}, {TT_VEC(F16, 3), true},
    {TT_MAT(F32, 2, 2), false}, {TT_MAT(F32, 2, 2), true}, {TT_MAT(F32, 2, 3), false},
    {TT_MAT(F64, 3, 2), false}, {TT_MAT(F64, 3, 3), true}, {TT_MAT(F32, 4, 4), false},
    {TT_QUAT(F32), false},    {TT_QUAT(F32), true},    {TT_QUAT(F64), true},
};

static double
tu_val(tj_dtype dt, int64_t g, int c)
{
    int64_t v = (g * 3 + c * 5 + 1) % 100;
    if (dt == TJ_DTYPE_BOOL)
        return (double)((g + c) % 2);
    bool is_signed = dt == TJ_DTYPE_I8 || dt == TJ_DTYPE_I16 || dt == TJ_DTYPE_I32 ||
                     dt == TJ_DTYPE_I64 || tt_dt_is_float(dt);
    if (is_signed)
        v -= 50;
    return tt_dt_is_float(dt) ? (double)v * 0.5 : (double)v;
}

/* tu_val in the kernel, for the int32 'g'. */
static tj_val *
tu_val_ir(tj_kernel *k, tj_dtype dt, tj_val *g, int c)
{
    const tj_type *t = tjt_type(dt);
    if (dt == TJ_DTYPE_BOOL) {
        tj_val *p = tj_binary(k, TJ_BIN_ADD, g, tt_i32(k, c));
        p = tj_binary(k, TJ_BIN_MOD, p, tt_i32(k, 2));
        return tj_compare(k, TJ_CMP_NE, p, tt_i32(k, 0));
    }
    tj_val *v = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, g, tt_i32(k, 3)),
                          tt_i32(k, c * 5 + 1));
    v = tj_binary(k, TJ_BIN_MOD, v, tt_i32(k, 100));
    if (tu_val(dt, 0, 0) < 0) /* the signed types */
        v = tj_binary(k, TJ_BIN_SUB, v, tt_i32(k, 50));
    v = tj_cast(k, v, t);
    if (tt_dt_is_float(dt))
        v = tj_binary(k, TJ_BIN_MUL, v, tj_const_float(k, dt, 0.5));
    return v;
}

START_TEST(test_tile_untile_round_trip_every_type)
{
    const tu_row *r = &tu_rows[tt_begin(_i)];
    const tj_type *xt = tt_type(r->ty), *st = tjt_type(r->ty.dt);
    int B = tt_B(), nc = tt_ncomp(r->ty);
    bool whole = r->preserve || r->ty.kind == TJ_TYPE_SCALAR;
    /* the expected tile: (B,) of x's type, or (N, B) / (R, C, B) of its scalar type */
    int rank = 1, shape[3];
    if (!whole && r->ty.kind == TJ_TYPE_MATRIX) {
        shape[0] = r->ty.rows;
        shape[1] = r->ty.cols;
        rank = 2;
    } else if (!whole) {
        shape[0] = nc;
    }
    rank = whole ? 1 : rank + 1;
    shape[rank - 1] = B;
    /* untile gives x's type back, except that a (4, B) tile of a quaternion gives a vec4 */
    const tj_type *yt = r->ty.kind == TJ_TYPE_QUAT && !r->preserve
                            ? tj_context_get_vector_type(tjt.ctx, r->ty.dt, 4)
                            : xt;
    tj_kernel *k = tt_kernel("tile_untile");
    tj_val *out = tj_param_array(k, "out", whole ? xt : st, rank);
    tj_val *back = tj_param_array(k, "back", yt, 1), *back2 = tj_param_array(k, "back2", yt, 1);
    tj_val *id[2];
    tj_tid(k, 2, id);
    tj_val *g = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, B)), id[1]);
    tj_val *comps[16];
    for (int c = 0; c < nc; c++)
        comps[c] = tu_val_ir(k, r->ty.dt, g, c);
    tj_val *x = r->ty.kind == TJ_TYPE_SCALAR ? comps[0] : tj_compose(k, xt, comps, (size_t)nc);
    tj_val *t = tj_tile(k, x, r->preserve);
    tt_kernel_ok(k, "tile");
    ck_assert_int_eq(tj_tile_get_rank(t), rank);
    for (int d = 0; d < rank; d++)
        ck_assert_msg(tj_tile_get_shape(t, d) == shape[d], "%s: dimension %d is %d, expected %d",
                      tj_type_get_name(xt), d, tj_tile_get_shape(t, d), shape[d]);
    ck_assert_ptr_eq(tj_val_get_type(t), whole ? xt : st);
    tj_val *off[3] = {tt_i32(k, 0), tt_i32(k, 0), tt_i32(k, 0)};
    off[rank - 1] = tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, B));
    tj_tile_store(k, out, t, off);
    tj_val *y = tj_untile(k, t);
    tt_kernel_ok(k, "untile");
    ck_assert_ptr_eq(tj_val_get_type(y), yt);
    tj_store(k, back, &g, 1, y);
    tj_val *s = tj_tile_zeros(k, whole ? xt : st, rank, shape, SHR);
    tj_tile_assign(k, s, t, NULL);
    tj_store(k, back2, &g, 1, tj_untile(k, s));
    tj_module *m = tt_build(k, "tile_untile");
    int64_t ng = (int64_t)TU_BLOCKS * B, s_out[3];
    memcpy(s_out, (int64_t[]){shape[0], rank > 1 ? shape[1] : 0, rank > 2 ? shape[2] : 0},
           sizeof s_out);
    s_out[rank - 1] = ng;
    tj_array *aout = tt_array(whole ? xt : st, rank, s_out, NULL);
    tj_array *aback = tt_array(yt, 1, &ng, NULL), *aback2 = tt_array(yt, 1, &ng, NULL);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(aback), tj_arg_array(aback2)};
    if (tt_launch_tiled(m, "tile_untile", TU_BLOCKS, args, 3)) {
        void *h = tt_alloc((size_t)(ng * nc), r->ty.dt);
        tt_read(aout, h);
        /* out holds component c of lane g at [c..., g]: the transpose of x's components */
        for (int64_t gg = 0; gg < ng; gg++)
            for (int c = 0; c < nc; c++) {
                size_t at = whole ? (size_t)(gg * nc + c) : (size_t)(c * ng + gg);
                double got = tt_get(h, r->ty.dt, at), want = tu_val(r->ty.dt, gg, c);
                ck_assert_msg(got == want, "tile of %s%s (%s): lane %lld component %d is %g, "
                              "expected %g", tj_type_get_name(xt),
                              r->preserve ? " (preserved)" : "",
                              tt_where(), (long long)gg, c, got, want);
            }
        for (int j = 0; j < 2; j++) {
            tt_read(j ? aback2 : aback, h);
            for (int64_t gg = 0; gg < ng; gg++)
                for (int c = 0; c < nc; c++) {
                    double got = tt_get(h, r->ty.dt, (size_t)(gg * nc + c));
                    ck_assert_msg(got == tu_val(r->ty.dt, gg, c), "untile%s of %s (%s): lane %lld "
                                  "component %d is %g, expected %g", j ? " of a shared copy" : "",
                                  tj_type_get_name(xt), tt_where(), (long long)gg, c, got,
                                  tu_val(r->ty.dt, gg, c));
                }
        }
        free(h);
    }
    tj_array_destroy(aout);
    tj_array_destroy(aback);
    tj_array_destroy(aback2);
    tj_module_destroy(m);
}
END_TEST

/* The C twin of the struct below (C layout: the same bytes). */
typedef struct tu_struct {
    int32_t id;
    float w;
    float p[3];
    uint8_t flag;
    double mass;
} tu_struct;

START_TEST(test_tile_untile_struct_elements_with_preserve_type)
{
    tt_begin(_i);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32), *f32 = tjt_type(TJ_DTYPE_F32);
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_field fields[] = {{"id", i32}, {"w", f32}, {"p", v3}, {"flag", tjt_type(TJ_DTYPE_U8)},
                         {"mass", tjt_type(TJ_DTYPE_F64)}};
    const tj_type *st = tj_context_new_struct_type(tjt.ctx, "tu_struct", fields, 5);
    ck_assert_ptr_nonnull(st);
    ck_assert_uint_eq(tj_type_get_size(st), sizeof(tu_struct));
    int B = tt_B();
    tj_kernel *k = tt_kernel("tile_struct");
    tj_val *out = tj_param_array(k, "out", st, 1), *back = tj_param_array(k, "back", st, 1);
    tj_val *id[2];
    tj_tid(k, 2, id);
    tj_val *g = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, B)), id[1]);
    tj_val *gf = tj_cast(k, g, f32);
    tj_val *elems[] = {tj_binary(k, TJ_BIN_MUL, g, tt_i32(k, 10)),
                       tj_binary(k, TJ_BIN_MUL, gf, tj_const_float(k, TJ_DTYPE_F32, 0.5)),
                       tj_compose(k, v3, (tj_val *[]){gf, tj_unary(k, TJ_UN_NEG, gf), gf}, 3),
                       tj_cast(k, tj_binary(k, TJ_BIN_MOD, g, tt_i32(k, 7)), tjt_type(TJ_DTYPE_U8)),
                       tj_cast(k, g, tjt_type(TJ_DTYPE_F64))};
    tj_val *x = tj_compose(k, st, elems, 5);
    tj_val *t = tj_tile(k, x, true);
    tt_kernel_ok(k, "tile of a struct");
    ck_assert_int_eq(tj_tile_get_rank(t), 1);
    ck_assert_int_eq(tj_tile_get_shape(t, 0), B);
    ck_assert_ptr_eq(tj_val_get_type(t), st);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, B));
    tj_tile_store(k, out, t, &off);
    tj_val *s = tj_tile_zeros(k, st, 1, &B, SHR);
    tj_tile_assign(k, s, t, NULL);
    tj_store(k, back, &g, 1, tj_untile(k, s));
    tj_module *m = tt_build(k, "tile_struct");
    int64_t ng = 2 * (int64_t)B;
    tj_array *aout = tt_array(st, 1, &ng, NULL), *aback = tt_array(st, 1, &ng, NULL);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(aback)};
    if (tt_launch_tiled(m, "tile_struct", 2, args, 2)) {
        tu_struct *h = calloc((size_t)ng, sizeof *h);
        ck_assert_ptr_nonnull(h);
        for (int j = 0; j < 2; j++) {
            tt_read(j ? aback : aout, h);
            for (int gg = 0; gg < ng; gg++) {
                const tu_struct *e = &h[gg];
                bool ok = e->id == gg * 10 && e->w == gg * 0.5f && e->p[0] == (float)gg &&
                          e->p[1] == -(float)gg && e->p[2] == (float)gg && e->flag == gg % 7 &&
                          e->mass == gg;
                ck_assert_msg(ok, "%s (%s): lane %d holds {%d, %g, (%g %g %g), %d, %g}",
                              j ? "untile" : "tile", tt_where(), gg, e->id, e->w, e->p[0],
                              e->p[1], e->p[2], e->flag, e->mass);
            }
        }
        free(h);
    }
    tj_array_destroy(aout);
    tj_array_destroy(aback);
    tj_module_destroy(m);
}
END_TEST

/* Tiles of a kernel asked for block_dim 8 in width-1 mode still have B = 1. */
START_TEST(test_width1_tiles_have_one_lane_whatever_block_dim_asks)
{
    tt.block_dim = 8;
    tj_kernel *k = tt_kernel("width1");
    tj_val *v3 = tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3),
                            (tj_val *[]){tj_const_float(k, TJ_DTYPE_F32, 1)}, 1);
    tj_val *t = tj_tile(k, v3, false);
    ck_assert_int_eq(tj_tile_get_rank(t), 2);
    ck_assert_int_eq(tj_tile_get_shape(t, 0), 3);
    ck_assert_int_eq(tj_tile_get_shape(t, 1), 1);
    tj_tile_store(k, tj_param_array(k, "late", tjt_type(TJ_DTYPE_F32), 2), t, NULL);
    tj_kernel_destroy(k);
}
END_TEST

/* ---- partial blocks -------------------------------------------------------------------------- */

/* tj_launch over n = 2 B + r threads: the last block has r active lanes (SPEC 1). Element e
 * of a register tile lives in lane e % B, so it is handled only when that lane is active:
 *   out1: tile(3 i + 1) stored at block * B;            out2: a (B + 3,) shared load stored;
 *   out3: every thread's extract of element 'pick' of the block's tile(3 i + 1);
 *   out4: untile of a shared copy (barriers with inactive lanes);
 *   count: tile_atomic_add of tile(1), once per block, into count[lane]. */
START_TEST(test_partial_blocks_run_the_active_lanes)
{
    tt_begin(_i);
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    int B = tt_B(), S = B + 3;
    tj_kernel *k = tt_kernel("partial");
    tj_val *in = tj_param_array(k, "in", i32, 1), *o[4];
    tj_val *count = tj_param_array(k, "count", i32, 1);
    for (int j = 0; j < 4; j++)
        o[j] = tj_param_array(k, j == 0 ? "o1" : j == 1 ? "o2" : j == 2 ? "o3" : "o4", i32, 1);
    tj_val *pick = tj_param(k, "pick", i32), *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *blk = tj_binary(k, TJ_BIN_DIV, i, tt_i32(k, B));
    tj_val *f = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, i, tt_i32(k, 3)), tt_i32(k, 1));
    tj_val *t = tj_tile(k, f, false);
    tj_val *base = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, B));
    tj_tile_store(k, o[0], t, &base);
    tj_val *lo = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, S));
    tj_tile_store(k, o[1], tj_tile_load(k, in, 1, &S, &lo, SHR), &lo);
    tj_store(k, o[2], &i, 1, tj_tile_extract(k, t, &pick, 1));
    tj_val *s = tj_tile_zeros(k, i32, 1, &B, SHR);
    tj_tile_assign(k, s, t, NULL);
    tj_store(k, o[3], &i, 1, tj_untile(k, s));
    tj_tile_atomic_add(k, count, tj_tile(k, tt_i32(k, 1), false), NULL);
    tj_module *m = tt_build(k, "partial");
    int64_t cap = 3 * (int64_t)S;
    int32_t *hin = tt_alloc((size_t)cap, TJ_DTYPE_I32), *h = tt_alloc((size_t)cap, TJ_DTYPE_I32);
    for (int j = 0; j < cap; j++)
        hin[j] = 1000 + j;
    int64_t nb = B;
    tj_array *ain = tt_array(i32, 1, &cap, hin), *ao[4], *acount = tt_array(i32, 1, &nb, NULL);
    for (int j = 0; j < 4; j++)
        ao[j] = tt_array(i32, 1, &cap, NULL);
    int rs[] = {1, B / 2 + 1, B - 1};
    for (int ri = 0; tt.dev && ri < 3; ri++) {
        int rr = rs[ri];
        if (rr >= B || (ri > 0 && rr == rs[ri - 1]) || (ri > 1 && rr == rs[0]))
            continue; /* B = 2 has only r = 1 */
        int64_t n = 2 * (int64_t)B + rr;
        int pk = rr - 1; /* the last active lane of the partial block */
        for (int j = 0; j < 4; j++)
            tjt_ok(tt.dev, tj_array_copy_from_host(ao[j], memset(h, 0xff, (size_t)cap * 4),
                                                   (size_t)cap * 4));
        tjt_ok(tt.dev, tj_array_zero(acount));
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(acount), tj_arg_array(ao[0]),
                         tj_arg_array(ao[1]), tj_arg_array(ao[2]), tj_arg_array(ao[3]),
                         tj_arg_int(pk)};
        tt_launch(m, "partial", n, args, 7);
        for (int j = 0; j < 4; j++) {
            tt_read(ao[j], h);
            for (int64_t x = 0; x < cap; x++) {
                int64_t b = j == 1 ? x / S : x / B, lane = j == 1 ? x % S % B : x % B;
                bool active = b * B + lane < n && b < 3;
                int32_t want = -1;
                if (j == 1)
                    want = active ? hin[x] : -1;
                else if (x < n && j == 2)
                    want = (int32_t)((b * B + pk) * 3 + 1);
                else if (x < n)
                    want = (int32_t)(x * 3 + 1);
                ck_assert_msg(h[x] == want, "out%d (%s, %lld threads): element %lld is %d, "
                              "expected %d", j + 1, tt_where(), (long long)n, (long long)x,
                              h[x], want);
            }
        }
        tt_read(acount, h);
        for (int l = 0; l < B; l++)
            ck_assert_msg(h[l] == (l < rr ? 3 : 2), "count[%d] (%s, %lld threads) is %d", l,
                          tt_where(), (long long)n, h[l]);
    }
    tj_array_destroy(ain);
    tj_array_destroy(acount);
    for (int j = 0; j < 4; j++)
        tj_array_destroy(ao[j]);
    free(hin);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- the seed of seeds/tile.txt -------------------------------------------------------------- */

static tj_module *
seed_build(void)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tt_kernel("store_doubled_thread_indices");
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *t = tj_tile(k, tj_binary(k, TJ_BIN_MUL, i, tt_i32(k, 2)), false);
    tj_tile_store(k, out, t, NULL);
    return tt_build(k, "seed");
}

/* wp.launch(store_doubled_thread_indices, dim=16, block_dim=16) prints [0 2 ... 30] */
START_TEST(test_seed_tile_stores_doubled_thread_indices)
{
    tt.block_dim = 16;
    tj_module *m = seed_build();
    int32_t h[16] = {0};
    tj_array *a = tjt_array(tt.dev ? tt.dev : tjt.cpu, tjt_type(TJ_DTYPE_I32), 16, h);
    tj_arg args[] = {tj_arg_array(a)};
    if (tt_launch(m, "store_doubled_thread_indices", 16, args, 1)) {
        tt_read(a, h);
        for (int j = 0; j < 16; j++) {
            if (tt.kind != TT_CPU1)
                ck_assert_msg(h[j] == 2 * j, "out[%d] = %d, expected %d (%s)", j, h[j], 2 * j,
                              tt_where());
            else if (j > 0) /* width-1: every thread stores its (1,) tile at out[0] */
                ck_assert_msg(h[j] == 0, "cpu1: out[%d] = %d, expected 0", j, h[j]);
            else
                ck_assert_msg(h[0] % 2 == 0 && h[0] >= 0 && h[0] <= 30,
                              "cpu1: out[0] = %d is no thread's value", h[0]);
        }
    }
    tj_array_destroy(a);
    tj_module_destroy(m);
}
END_TEST

/* ---- tile_extract ---------------------------------------------------------------------------- */

/* Every lane of every block stores what it extracted; all of them must see the element. */
typedef struct ex_row {
    tt_ty ty;
    int rank;
    int shape[4];
    tj_storage storage;
    bool from_lanes;       /* the tile is tile(x) of each lane's value: shape (B,) */
} ex_row;

enum { EX_BLOCKS = 2, EX_CONST = 3, EX_RUNTIME = 4, EX_N = EX_CONST + EX_RUNTIME };

static const ex_row ex_rows[] = {
    {TT_SCALAR(F32), 1, {37}, REG, false},
    {TT_SCALAR(I64), 2, {5, 7}, SHR, false},
    {TT_VEC(F32, 3), 2, {3, 4}, REG, false},
    {TT_SCALAR(F16), 3, {2, 3, 5}, REG, false},
    {TT_SCALAR(U8), 4, {2, 3, 2, 3}, SHR, false},
    {TT_SCALAR(F64), 2, {20, 30}, REG, false},
    {TT_SCALAR(I32), 1, {0}, REG, true},
};

/* The coordinates of extract number j (constant for j < EX_CONST, else runtime). */
static void
ex_index(const int *shape, int rank, int j, int *c)
{
    for (int d = 0; d < rank; d++)
        c[d] = j == 0 ? 0 : j == 1 ? shape[d] - 1 : (j * 5 + d * 3 + 1) % shape[d];
}

START_TEST(test_extract_gives_every_lane_the_element)
{
    const ex_row *r = &ex_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty), *i32 = tjt_type(TJ_DTYPE_I32);
    int B = tt_B(), rank = r->rank, shape[4];
    memcpy(shape, r->shape, sizeof shape);
    if (r->from_lanes)
        shape[0] = B;
    int ishape[4];
    memcpy(ishape, shape, sizeof ishape);
    ishape[0] *= EX_BLOCKS;
    tj_kernel *k = tt_kernel("extract");
    tj_val *in = tj_param_array(k, "in", et, rank), *out = tj_param_array(k, "out", et, 1);
    tj_val *idx = tj_param_array(k, "idx", i32, 1);
    tj_val *id[2];
    tj_tid(k, 2, id); /* (block, lane) */
    tj_val *g = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, B)), id[1]);
    tj_val *t;
    if (r->from_lanes) {
        t = tj_tile(k, tj_cast(k, tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, g,
                                                                        tt_i32(k, 3)),
                                            tt_i32(k, 1)), et), false);
    } else {
        tj_val *off[4] = {tj_binary(k, TJ_BIN_MUL, id[0], tt_i32(k, shape[0])), tt_i32(k, 0),
                          tt_i32(k, 0), tt_i32(k, 0)};
        t = tj_tile_load(k, in, rank, shape, off, r->storage);
    }
    for (int j = 0; j < EX_N; j++) {
        tj_val *ix[4];
        int c[4];
        ex_index(shape, rank, j, c);
        for (int d = 0; d < rank; d++)
            ix[d] = j < EX_CONST ? tt_i32(k, c[d])
                                 : tj_load(k, idx, (tj_val *[]){tt_i32(k, j * rank + d)}, 1);
        tj_val *v = tj_tile_extract(k, t, ix, rank);
        tt_kernel_ok(k, "tile_extract");
        ck_assert_ptr_eq(tj_val_get_type(v), et);
        tj_val *slot = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, g, tt_i32(k, EX_N)),
                                 tt_i32(k, j));
        tj_store(k, out, &slot, 1, v);
    }
    tj_module *m = tt_build(k, "extract");
    if (!r->from_lanes && r->storage == REG && B > 1)
        tt_ptx_has(m, "bar.sync");
    int64_t nin = tt_size(rank, ishape), s_in[4], nout = (int64_t)EX_BLOCKS * B * EX_N;
    tt_shape64(rank, ishape, s_in);
    int32_t hidx[EX_N * 4];
    for (int j = EX_CONST; j < EX_N; j++)
        ex_index(shape, rank, j, &hidx[j * rank]);
    void *hin = tt_host_elems(r->ty, nin, true), *hout = tt_host_elems(r->ty, nout, false);
    tj_array *ain = tt_array(et, rank, s_in, hin), *aout = tt_array(et, 1, &nout, hout);
    int64_t nidx = EX_N * rank;
    tj_array *aidx = tt_array(i32, 1, &nidx, hidx);
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aidx)};
    if (tt_launch_tiled(m, "extract", EX_BLOCKS, args, 3)) {
        tt_read(aout, hout);
        int nc = tt_ncomp(r->ty);
        for (int b = 0; b < EX_BLOCKS; b++)
            for (int j = 0; j < EX_N; j++) {
                int c[4] = {0, 0, 0, 0};
                ex_index(shape, rank, j, c);
                c[0] += b * shape[0];
                int64_t src = tt_ravel(rank, ishape, c);
                for (int lane = 0; lane < B; lane++) {
                    int64_t at = ((int64_t)(b * B + lane)) * EX_N + j;
                    for (int cc = 0; cc < nc; cc++) {
                        double got = tt_get(hout, r->ty.dt, (size_t)(at * nc + cc));
                        double want = r->from_lanes
                                          ? (double)(src * 3 + 1)
                                          : tt_get(hin, r->ty.dt, (size_t)(src * nc + cc));
                        ck_assert_msg(got == want, "extract %d (%s) in block %d: lane %d sees %g, "
                                      "expected %g", j, tt_where(), b, lane, got, want);
                    }
                }
            }
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_array_destroy(aidx);
    free(hin);
    free(hout);
    tj_module_destroy(m);
}
END_TEST

/* Debug builds check a runtime tile_extract index in 64 bits, so 2^32 + 1 does not wrap to
 * 1, and report the first failing lane (SPEC 5); the access is skipped and the next valid
 * launch of the same module works. */
START_TEST(test_debug_build_reports_runtime_extract_indices_out_of_range)
{
    tt_begin(_i);
    tt.debug = true;
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    int n = 4;
    tj_kernel *k = tt_kernel("dbg_extract");
    tj_val *in = tj_param_array(k, "in", f32, 1), *out = tj_param_array(k, "out", f32, 1);
    tj_val *i = tj_param(k, "i", tjt_type(TJ_DTYPE_I64)), *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *v = tj_tile_extract(k, tj_tile_load(k, in, 1, &n, NULL, REG), &i, 1);
    tj_store(k, out, &blk, 1, v);
    tj_module *m = tt_build(k, "debug extract");
    const float hin[4] = {10, 11, 12, 13};
    int64_t n_in = 4, n_out = 1, nb = 1;
    tj_array *ain = tt_array(f32, 1, &n_in, hin), *aout = tt_array(f32, 1, &n_out, NULL);
    if (!tt.dev) {
        tj_module_destroy(m);
        return;
    }
    static const int64_t bad[] = {4, -1, (INT64_C(1) << 32) + 1};
    for (int b = 0; b < TT_NELEMS(bad); b++) {
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_int(bad[b])};
        tj_status st = tj_launch_tiled(tt.dev, m, "dbg_extract", 1, &nb, tt.block_dim, args, 3);
        char want[160];
        snprintf(want, sizeof want, "kernel 'dbg_extract': tile_extract index: index %lld is out "
                 "of range [0, 4) in dimension 0 (block 0, lane 0)", (long long)bad[b]);
        const char *got = tj_device_error(tt.dev);
        ck_assert_msg(st == TJ_ERR_KERNEL, "index %lld: status %s (%s)", (long long)bad[b],
                      tj_status_name(st), tt_where());
        ck_assert_ptr_nonnull(got);
        /* which lane fails first is the GPU's choice */
        size_t len = tt.kind == TT_CUDA ? strlen(want) - strlen("0)") : strlen(want) + 1;
        ck_assert_msg(strncmp(got, want, len) == 0, "message '%s', expected '%s'", got, want);
    }
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_int(2)};
    tjt_ok(tt.dev, tj_launch_tiled(tt.dev, m, "dbg_extract", 1, &nb, tt.block_dim, args, 3));
    float h;
    tt_read(aout, &h);
    ck_assert_msg(h == 12, "extract(2) gave %g (%s)", h, tt_where());
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_module_destroy(m);
}
END_TEST

/* A register tile's element is published by the lane that owns it, so tile_extract needs
 * the same index in every lane (as in Warp). A debug build checks it: lane b - 1 - lane's
 * element in each lane is a kernel error naming a lane whose index is not lane 0's, and a
 * launch with one index for all the block still reads it. Width-1 blocks have one lane. */
START_TEST(test_debug_build_reports_extract_indices_that_differ_between_lanes)
{
    tt_begin(_i);
    tt.debug = true;
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int B = (int)tt.block_dim, n = B;
    tj_kernel *k = tt_kernel("dbg_lanes");
    tj_val *in = tj_param_array(k, "in", f32, 1), *out = tj_param_array(k, "out", f32, 1);
    tj_val *flip = tj_param(k, "flip", i32), *ids[2];
    tj_tid(k, 2, ids);
    /* flip 1: index b - 1 - lane; flip 0: index b - 1 in every lane */
    tj_val *i = tj_binary(k, TJ_BIN_SUB, tt_i32(k, B - 1), tj_binary(k, TJ_BIN_MUL, flip, ids[1]));
    tj_val *v = tj_tile_extract(k, tj_tile_load(k, in, 1, &n, NULL, REG), &i, 1);
    tj_store(k, out, &ids[1], 1, v);
    tj_module *m = tt_build(k, "debug extract lanes");
    int64_t nb = 1, nel = B;
    float *hin = malloc((size_t)B * sizeof *hin), *hout = malloc((size_t)B * sizeof *hout);
    for (int j = 0; j < B; j++)
        hin[j] = (float)(10 + j);
    tj_array *ain = tt_array(f32, 1, &nel, hin), *aout = tt_array(f32, 1, &nel, NULL);
    if (tt.dev) {
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_int(1)};
        tj_status st = tj_launch_tiled(tt.dev, m, "dbg_lanes", 1, &nb, tt.block_dim, args, 3);
        if (B == 1) {
            tjt_ok(tt.dev, st);
        } else {
            const char *want = "kernel 'dbg_lanes': tile_extract of a register tile: this lane "
                               "reads element ";
            const char *got = tj_device_error(tt.dev);
            ck_assert_msg(st == TJ_ERR_KERNEL, "status %s (%s)", tj_status_name(st), tt_where());
            ck_assert_msg(strncmp(got, want, strlen(want)) == 0, "message '%s' (%s)", got,
                          tt_where());
            /* the lane that reports reads element b - 1 - lane, not lane 0's b - 1 */
            long long elem = -1;
            int lane = -1;
            const char *tail = strstr(got, "(block 0, lane ");
            ck_assert_msg(sscanf(got + strlen(want), "%lld", &elem) == 1 && tail &&
                              sscanf(tail, "(block 0, lane %d)", &lane) == 1,
                          "message '%s'", got);
            ck_assert_msg(lane > 0 && lane < B && elem == B - 1 - lane,
                          "message '%s' (%s)", got, tt_where());
            ck_assert_msg(strstr(got, "lane 0 another; the index must be the same in every lane "
                                      "(a shared tile reads each lane's own)"),
                          "message '%s'", got);
        }
        args[2] = tj_arg_int(0);
        tjt_ok(tt.dev, tj_launch_tiled(tt.dev, m, "dbg_lanes", 1, &nb, tt.block_dim, args, 3));
        tt_read(aout, hout);
        for (int j = 0; j < B; j++)
            ck_assert_msg(hout[j] == (float)(10 + B - 1), "lane %d read %g (%s)", j, hout[j],
                          tt_where());
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    free(hin);
    free(hout);
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

/* Each row makes one bad call; tt_check_error_row asserts the status, the exact message,
 * that a later valid call returns NULL, and that the build fails. */
static const int sh3[] = {3}, sh34[] = {3, 4};

static bool
e_untile_wrong_width(tj_kernel *k)
{
    return !tj_untile(k, tt_f32_tile(k, 1, sh3, REG));
}

static bool
e_untile_wrong_width_coop(tj_kernel *k)
{
    static const int s[] = {3, 31};
    return !tj_untile(k, tt_f32_tile(k, 2, s, REG));
}

static bool
e_untile_rank4(tj_kernel *k)
{
    static const int s[] = {2, 2, 2, 1};
    return !tj_untile(k, tt_f32_tile(k, 4, s, REG));
}

static bool
e_untile_vector_too_long(tj_kernel *k)
{
    static const int s[] = {5, 1};
    return !tj_untile(k, tt_f32_tile(k, 2, s, REG));
}

static bool
e_tile_struct_without_preserve(tj_kernel *k)
{
    tj_field fl[] = {{"a", tjt_type(TJ_DTYPE_I32)}};
    const tj_type *st = tj_context_new_struct_type(tjt.ctx, "pair", fl, 1);
    return !tj_tile(k, tj_param(k, "x", st), false);
}

static bool
e_extract_indices(tj_kernel *k)
{
    tj_val *i = tt_i32(k, 0);
    return !tj_tile_extract(k, tt_f32_tile(k, 2, sh34, REG), &i, 1);
}

static bool
e_extract_float_index(tj_kernel *k)
{
    tj_val *i[2] = {tt_i32(k, 0), tj_const_float(k, TJ_DTYPE_F32, 1)};
    return !tj_tile_extract(k, tt_f32_tile(k, 2, sh34, REG), i, 2);
}

static bool
e_extract_constant_past_the_end(tj_kernel *k)
{
    tj_val *i[2] = {tt_i32(k, 1), tt_i32(k, 4)};
    return !tj_tile_extract(k, tt_f32_tile(k, 2, sh34, REG), i, 2);
}

static bool
e_extract_constant_negative(tj_kernel *k)
{
    tj_val *i[2] = {tj_const_int(k, TJ_DTYPE_I64, -1), tt_i32(k, 0)};
    return !tj_tile_extract(k, tt_f32_tile(k, 2, sh34, REG), i, 2);
}

static bool
e_tile_of_a_tile(tj_kernel *k)
{
    return !tj_tile(k, tt_f32_tile(k, 1, sh3, REG), false);
}

static bool
e_untile_bool_rank2(tj_kernel *k)
{
    static const int s[] = {3, 1};
    return !tj_untile(k, tj_tile_zeros(k, tjt_type(TJ_DTYPE_BOOL), 2, s, REG));
}

static bool
e_untile_matrix_too_big(tj_kernel *k)
{
    static const int s[] = {5, 2, 1};
    return !tj_untile(k, tt_f32_tile(k, 3, s, REG));
}

static const tt_err_row err_rows[] = {
    {"untile_wrong_width", 0, TJ_ERR_INVALID,
     "untile: argument 'a': the last dimension must equal the block width 1, got a tile of "
     "rank 1 whose last extent is 3", e_untile_wrong_width},
    {"untile_wrong_width_coop", 32, TJ_ERR_INVALID,
     "untile: argument 'a': the last dimension must equal the block width 32, got a tile of "
     "rank 2 whose last extent is 31", e_untile_wrong_width_coop},
    {"untile_rank4", 0, TJ_ERR_INVALID,
     "untile: argument 'a': a tile of rank 4 has no per-thread value (rank 1 gives a scalar, "
     "2 a vector, 3 a matrix)", e_untile_rank4},
    {"untile_bool_rank2", 0, TJ_ERR_INVALID,
     "untile: argument 'a': a rank-2 tile needs numeric scalar elements, not bool",
     e_untile_bool_rank2},
    {"untile_matrix_too_big", 0, TJ_ERR_INVALID,
     "untile: argument 'a': a tile of shape (5, 2, 1) does not make a matrix of at most 4x4",
     e_untile_matrix_too_big},
    {"tile_of_a_tile", 0, TJ_ERR_INVALID,
     "tile: argument 'x': a tile of float32 (3,) is not a per-thread value",
     e_tile_of_a_tile},
    {"extract_constant_past_the_end", 0, TJ_ERR_INVALID,
     "tile_extract: argument 'idx': entry 1 is 4, outside dimension 1 of extent 4",
     e_extract_constant_past_the_end},
    {"extract_constant_negative", 0, TJ_ERR_INVALID,
     "tile_extract: argument 'idx': entry 0 is -1, outside dimension 0 of extent 3",
     e_extract_constant_negative},
    {"untile_vector_too_long", 0, TJ_ERR_INVALID,
     "untile: argument 'a': a tile of shape (5, 1) does not make a vector of 2 to 4 components",
     e_untile_vector_too_long},
    {"tile_struct_without_preserve", 0, TJ_ERR_INVALID,
     "tile: argument 'x': a struct (pair) needs preserve_type", e_tile_struct_without_preserve},
    {"extract_indices", 0, TJ_ERR_INVALID, "tile_extract: the tile has 2 dimensions, got 1 indices",
     e_extract_indices},
    {"extract_float_index", 0, TJ_ERR_INVALID,
     "tile_extract: argument 'idx': entry 1 is float32, not an integer", e_extract_float_index},
};

START_TEST(test_tile_untile_extract_report_build_errors)
{
    tt_check_error_row(&err_rows[_i]);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_tile_untile_round_trip_every_type, TT_NELEMS(tu_rows));
    tt_add_rows(tc, kind, test_tile_untile_struct_elements_with_preserve_type, 1);
    tt_add_rows(tc, kind, test_extract_gives_every_lane_the_element, TT_NELEMS(ex_rows));
    if (kind == TT_CPU1)
        tcase_add_test(tc, test_width1_tiles_have_one_lane_whatever_block_dim_asks);
    else
        tt_add_rows(tc, kind, test_partial_blocks_run_the_active_lanes, 1);
    tcase_add_test(tc, test_seed_tile_stores_doubled_thread_indices);
    tt_add_rows(tc, kind, test_debug_build_reports_runtime_extract_indices_out_of_range, 1);
    tt_add_rows(tc, kind, test_debug_build_reports_extract_indices_that_differ_between_lanes, 1);
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("tile_lanes");
    TCase *errors = tt_errors_tcase();
    tcase_add_loop_test(errors, test_tile_untile_extract_report_build_errors, 0,
                        TT_NELEMS(err_rows));
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
