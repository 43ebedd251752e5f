/* tj-test: CUDA */
/*
 * tests/check_tile_memory.c: "Tiles I", memory builtins: tile_load / tile_store (1-4
 * dims, windows partly outside the array on either side, negative offsets too, register
 * and shared storage), tile_zeros / tile_ones / tile_arange, tile_reshape, tile_assign
 * (without views; through views in check_tile_view.c), a shared fill that tile_assign
 * overwrites before anything reads it (dropped) and four that it must not drop,
 * tile_atomic_add from many blocks,
 * the fills and tile_reshape in partial blocks of tj_launch (SPEC 1), and the build errors
 * of these builtins.
 *
 * Every table row builds one kernel and runs it in each kind of tj_tile_test.h (cpu1, coop
 * at block widths 2, 31, 32, 33, 64 and 256, ptx, cuda; the partial-block rows in all but
 * cpu1, whose blocks are never partial). Expected values come from the C references below,
 * written from SPEC 3 and 4; results are compared exactly except where a float comment says
 * otherwise.
 */
#include "tj_tile_test.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED
#define NONE TJ_SLICE_NONE

/* ---- tile_load / tile_store ------------------------------------------------------------------ */

typedef struct ls_row {
    tt_ty ty;
    int rank;
    int arr[4], tile[4];
    tj_storage storage;
    bool runtime;          /* offsets are kernel parameters, swept over LS_SWEEP launches */
    int lo[4], so[4];      /* load and store offsets when constant */
} ls_row;

enum { LS_BLOCKS = 3, LS_SWEEP = 8 };

static const ls_row ls_rows[] = {
    {TT_SCALAR(F32), 1, {10}, {4}, REG, true, {0}, {0}},
    {TT_SCALAR(I32), 1, {7}, {40}, SHR, true, {0}, {0}},
    {TT_SCALAR(F64), 2, {5, 7}, {3, 4}, REG, true, {0}, {0}},
    {TT_SCALAR(U8), 2, {6, 5}, {4, 3}, SHR, true, {0}, {0}},
    {TT_SCALAR(F32), 3, {4, 5, 6}, {2, 3, 4}, REG, true, {0}, {0}},
    {TT_SCALAR(I16), 3, {3, 4, 5}, {2, 5, 3}, SHR, true, {0}, {0}},
    {TT_SCALAR(F32), 4, {3, 4, 2, 5}, {2, 2, 2, 3}, REG, true, {0}, {0}},
    {TT_SCALAR(I64), 4, {2, 3, 4, 3}, {2, 2, 3, 2}, SHR, true, {0}, {0}},
    {TT_VEC(F32, 3), 2, {4, 5}, {3, 3}, REG, true, {0}, {0}},
    {TT_SCALAR(F16), 1, {300}, {260}, SHR, true, {0}, {0}},
    {TT_MAT(F32, 2, 2), 1, {6}, {5}, SHR, true, {0}, {0}},
    {TT_SCALAR(F32), 2, {9, 40}, {9, 40}, REG, false, {0, 0}, {0, 0}},
    {TT_SCALAR(I32), 2, {5, 6}, {3, 4}, REG, false, {-2, 3}, {4, -1}},
    {TT_SCALAR(F64), 3, {3, 4, 5}, {2, 2, 2}, SHR, false, {2, -1, 4}, {-1, 3, -1}},
    {TT_SCALAR(U32), 4, {2, 3, 2, 3}, {2, 2, 2, 2}, REG, false, {-1, 0, 1, -2}, {1, 1, -1, 0}},
};

static tj_module *
ls_build(const ls_row *r)
{
    const tj_type *et = tt_type(r->ty), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tt_kernel("load_store");
    tj_val *in = tj_param_array(k, "in", et, r->rank);
    tj_val *out = tj_param_array(k, "out", et, r->rank);
    tj_val *back = tj_param_array(k, "back", et, r->rank);
    tj_val *lo[4], *so[4], *oo[4];
    static const char *const names[2][4] = {{"lo0", "lo1", "lo2", "lo3"},
                                            {"so0", "so1", "so2", "so3"}};
    for (int d = 0; r->runtime && d < r->rank; d++) {
        lo[d] = tj_param(k, names[0][d], i32);
        so[d] = tj_param(k, names[1][d], i32);
    }
    for (int d = 0; !r->runtime && d < r->rank; d++) {
        lo[d] = tt_i32(k, r->lo[d]);
        so[d] = tt_i32(k, r->so[d]);
    }
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk); /* the block under launch_tiled */
    tj_val *shift = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, r->tile[0]));
    lo[0] = tj_binary(k, TJ_BIN_ADD, lo[0], shift);
    so[0] = tj_binary(k, TJ_BIN_ADD, so[0], shift);
    for (int d = 0; d < r->rank; d++)
        oo[d] = d == 0 ? shift : tt_i32(k, 0);
    tj_val *t = tj_tile_load(k, in, r->rank, r->tile, lo, r->storage);
    tt_kernel_ok(k, "tile_load");
    ck_assert_int_eq(tj_tile_get_storage(t), r->storage);
    ck_assert_int_eq(tj_tile_get_rank(t), r->rank);
    for (int d = 0; d < r->rank; d++)
        ck_assert_int_eq(tj_tile_get_shape(t, d), r->tile[d]);
    tj_tile_store(k, out, t, oo);
    tj_tile_store(k, back, t, so);
    tj_module *m = tt_build(k, "load_store");
    if (r->storage == SHR) {
        tt_ptx_has(m, "st.shared");
        tt_ptx_has(m, "bar.sync");
    }
    return m;
}

static void
ls_run(const ls_row *r, tj_module *m, const int *lo, const int *so)
{
    int rank = r->rank;
    int oshape[4];
    memcpy(oshape, r->tile, sizeof oshape);
    oshape[0] *= LS_BLOCKS;
    int64_t nin = tt_size(rank, r->arr), nout = tt_size(rank, oshape);
    int64_t s_in[4], s_out[4];
    tt_shape64(rank, r->arr, s_in);
    tt_shape64(rank, oshape, s_out);
    const tj_type *et = tt_type(r->ty);
    void *hin = tt_host_elems(r->ty, nin, true), *hout = tt_host_elems(r->ty, nout, false);
    void *hback = tt_host_elems(r->ty, nin, false);
    tj_array *ain = tt_array(et, rank, s_in, hin), *aout = tt_array(et, rank, s_out, hout);
    tj_array *aback = tt_array(et, rank, s_in, hback);
    tj_arg args[3 + 8] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_array(aback)};
    size_t nargs = 3;
    for (int d = 0; r->runtime && d < rank; d++) {
        args[nargs++] = tj_arg_int(lo[d]);
        args[nargs++] = tj_arg_int(so[d]);
    }
    tt_launch_tiled(m, "load_store", LS_BLOCKS, args, nargs);
    tt_read(aout, hout);
    tt_read(aback, hback);
    char what[160];
    snprintf(what, sizeof what, "%s rank %d, load at (%d, %d, %d, %d), store at (%d, %d, %d, %d)",
             tj_type_get_name(et), rank, lo[0], rank > 1 ? lo[1] : 0, rank > 2 ? lo[2] : 0,
             rank > 3 ? lo[3] : 0, so[0], rank > 1 ? so[1] : 0, rank > 2 ? so[2] : 0,
             rank > 3 ? so[3] : 0);
    /* out: block b's tile at rows b * tile0: in[lo + b * tile0 + t], or zero outside */
    for (int64_t e = 0; e < nout; e++) {
        int c[4];
        tt_unravel(e, rank, oshape, c);
        int b = c[0] / r->tile[0];
        c[0] = c[0] % r->tile[0] + lo[0] + b * r->tile[0];
        for (int d = 1; d < rank; d++)
            c[d] += lo[d];
        tt_expect_elem(r->ty, hout, e, hin, tt_ravel(rank, r->arr, c), what);
    }
    /* back: where some block's tile lands inside the array, that tile's element; else the
     * sentinel (stores outside the array are dropped, not wrapped into other rows) */
    for (int64_t i = 0; i < nin; i++) {
        int p[4], t[4], src[4];
        tt_unravel(i, rank, r->arr, p);
        int64_t hit = -1;
        for (int b = 0; b < LS_BLOCKS && hit < 0; b++) {
            for (int d = 0; d < rank; d++)
                t[d] = p[d] - so[d] - (d == 0 ? b * r->tile[0] : 0);
            if (tt_ravel(rank, r->tile, t) < 0)
                continue;
            for (int d = 0; d < rank; d++)
                src[d] = t[d] + lo[d] + (d == 0 ? b * r->tile[0] : 0);
            hit = tt_ravel(rank, r->arr, src);
            if (hit < 0)
                hit = -2; /* the tile element was loaded from outside: zero */
        }
        if (hit == -1)
            tt_expect_elem(r->ty, hback, i, NULL, 0, what);
        else
            tt_expect_elem(r->ty, hback, i, hin, hit < 0 ? -1 : hit, what);
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_array_destroy(aback);
    free(hin);
    free(hout);
    free(hback);
}

START_TEST(test_load_store_windows_outside_the_array_load_zero_and_drop_stores)
{
    const ls_row *r = &ls_rows[tt_begin(_i)];
    tj_module *m = ls_build(r);
    if (!tt.dev) {
        tj_module_destroy(m);
        return;
    }
    if (!r->runtime) {
        ls_run(r, m, r->lo, r->so);
    } else {
        for (int s = 0; s < LS_SWEEP; s++) {
            int lo[4] = {0}, so[4] = {0};
            for (int d = 0; d < r->rank; d++) {
                int cand[LS_SWEEP] = {-r->tile[d] - 1, -2, -1, 0, 1, r->arr[d] - r->tile[d],
                                      r->arr[d] - 1, r->arr[d] + 1};
                lo[d] = cand[(s + d) % LS_SWEEP];
                so[d] = cand[(s + 3 * d + 2) % LS_SWEEP];
            }
            ls_run(r, m, lo, so);
        }
    }
    tj_module_destroy(m);
}
END_TEST

/* ---- the coordinates of a lane's elements ---------------------------------------------- */

/* A lane's element e = s * B + lane of a tile whose extents and the lanes left divide one
 * another splits into coordinates without dividing e (builtins/layout.c, owned_coords);
 * an extent neither way keeps the divisions. Built at O0, where no pass takes divisions
 * apart, the IR tells which; run, the copy through a shared tile is exact either way. */
typedef struct oc_row {
    int rank;
    int shape[3]; /* 0 stands for B, -1 for 2 B, -2 for B + 1, -3 for 4 B */
    bool split;
} oc_row;

static const oc_row oc_rows[] = {
    {2, {5, -1}, true},   /* B divides the extent: (s % 2) * B + lane, row s / 2 */
    {2, {3, 0}, true},    /* the extent divides B: lane % B, then the row */
    {3, {2, 3, 0}, true}, /* one, then constants */
    {2, {20, 0}, true},   /* more than 16 slots: the slots' loop */
    {2, {9, -3}, true},   /* and there (s % 4) * B + lane, row s / 4 */
    {2, {4, -2}, false},  /* B + 1: neither */
};

static int
oc_extent(int x)
{
    int B = tt_B();
    return x == 0 ? B : x == -1 ? 2 * B : x == -2 ? B + 1 : x == -3 ? 4 * B : x;
}

START_TEST(test_lane_elements_split_into_coordinates_without_division)
{
    const oc_row *r = &oc_rows[tt_begin(_i)];
    int shape[3];
    for (int d = 0; d < r->rank; d++)
        shape[d] = oc_extent(r->shape[d]);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("coords");
    tj_val *in = tj_param_array(k, "in", f32, r->rank);
    tj_val *out = tj_param_array(k, "out", f32, r->rank);
    tj_val *at[3] = {tt_i32(k, 0), tt_i32(k, 0), tt_i32(k, 0)};
    tj_val *t = tj_tile_load(k, in, r->rank, shape, at, SHR);
    tj_tile_store(k, out, t, at);
    tt_kernel_ok(k, "coords");
    tj_build_options bo = {.opt_level = TJ_OPT_O0, .keep_ir = true};
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, &bo, &m);
    ck_assert_msg(st == TJ_OK, "build failed (%s): %s", tj_status_name(st),
                  tj_context_error(tjt.ctx) ? tj_context_error(tjt.ctx) : "?");
    tj_kernel_destroy(k);
    const char *ir = tj_module_get_ir(m);
    bool divides = strstr(ir, " udiv ") || strstr(ir, " urem ");
    ck_assert_msg(divides != r->split, "%s, tile %d x %d%s: the O0 IR %s", tt_where(), shape[0],
                  shape[1], r->rank > 2 ? " x B" : "",
                  divides ? "divides the element index" : "has no division");
    if (tj_module_get_target(m) == TJ_TARGET_CUDA)
        tjt_check_ptx(tj_module_get_ptx(m));
    int64_t n = tt_size(r->rank, shape), s64[3];
    tt_shape64(r->rank, shape, s64);
    const tt_ty ft = TT_SCALAR(F32);
    void *hin = tt_host_elems(ft, n, true), *hout = tt_host_elems(ft, n, false);
    tj_array *ain = tt_array(f32, r->rank, s64, hin), *aout = tt_array(f32, r->rank, s64, hout);
    tj_arg args[2] = {tj_arg_array(ain), tj_arg_array(aout)};
    if (tt_launch_tiled(m, "coords", 1, args, 2)) {
        tt_read(aout, hout);
        for (int64_t e = 0; e < n; e++)
            tt_expect_elem(ft, hout, e, hin, e, "copy through a shared tile");
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    free(hin);
    free(hout);
    tj_module_destroy(m);
}
END_TEST

/* ---- loaded tiles are values ------------------------------------------------------------ */
/* On the CPU in width-1 mode a loaded tile is read in place until something may write an
 * array or the control flow moves on (tji_borrow). Each row loads a tile of 'a', then
 * writes 2 * tile into 'a' in a way that must not change the tile, then stores the tile to
 * 'out': 'out' must hold the old 'a'. The last block is partial (the edge path). */

typedef enum bw_kind { BW_STORE, BW_LOOP, BW_CALL, BW_ASSIGN } bw_kind;

typedef struct bw_row {
    bw_kind kind;
    const char *what;
} bw_row;

static const bw_row bw_rows[] = {
    {BW_STORE, "tile_store into the loaded array"},
    {BW_LOOP, "a loop that stores the tile, then overwrites the array, twice"},
    {BW_CALL, "a function that overwrites the array"},
    {BW_ASSIGN, "tile_assign into a shared copy, then tile_store of the copy"},
};

enum { BW_T = 64, BW_BLOCKS = 4, BW_N = 3 * BW_T + 5 };

START_TEST(test_loaded_tiles_keep_their_values_when_the_array_is_written)
{
    const bw_row *r = &bw_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    int T = BW_T;
    tj_func *f = NULL;
    if (r->kind == BW_CALL) {
        f = tt_func("double_in_place", NULL);
        tj_val *fa = tj_param_array(f, "a", f32, 1);
        tj_val *foff = tj_param(f, "off", tjt_type(TJ_DTYPE_I32));
        tj_val *u = tj_tile_load(f, fa, 1, &T, &foff, TJ_STORAGE_REGISTER);
        tj_tile_store(f, fa, tj_binary(f, TJ_BIN_ADD, u, u), &foff);
        tt_kernel_ok(f, "double_in_place");
    }
    tj_kernel *k = tt_kernel("borrowed");
    tj_val *a = tj_param_array(k, "a", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, T));
    tj_val *t = tj_tile_load(k, a, 1, &T, &off, TJ_STORAGE_REGISTER);
    switch (r->kind) {
    case BW_STORE:
        tj_tile_store(k, a, tj_binary(k, TJ_BIN_ADD, t, t), &off);
        tj_tile_store(k, out, t, &off);
        break;
    case BW_LOOP:
        tj_for_begin(k, tt_i32(k, 0), tt_i32(k, 2), tt_i32(k, 1));
        tj_tile_store(k, out, t, &off);
        tj_tile_store(k, a, tj_binary(k, TJ_BIN_ADD, t, t), &off);
        tj_for_end(k);
        break;
    case BW_CALL: {
        tj_val *args[] = {a, off};
        tj_call(k, f, args, 2);
        tj_tile_store(k, out, t, &off);
        break;
    }
    case BW_ASSIGN: {
        tj_val *buf = tj_tile_zeros(k, f32, 1, &T, TJ_STORAGE_SHARED);
        tj_tile_assign(k, buf, t, NULL);
        tj_tile_store(k, a, tj_binary(k, TJ_BIN_ADD, t, t), &off);
        tj_tile_store(k, out, buf, &off);
        break;
    }
    }
    tj_module *m = tt_build(k, r->what);
    if (f)
        tj_func_destroy(f);
    float host[BW_N], got[BW_N];
    for (int i = 0; i < BW_N; i++)
        host[i] = (float)(i + 1);
    int64_t n = BW_N;
    tj_array *aa = tt_array(f32, 1, &n, host), *ao = tt_array(f32, 1, &n, NULL);
    tj_arg args[] = {tj_arg_array(aa), tj_arg_array(ao)};
    if (tt_launch_tiled(m, "borrowed", BW_BLOCKS, args, 2)) {
        tt_read(ao, got);
        for (int i = 0; i < BW_N; i++)
            ck_assert_msg(got[i] == (float)(i + 1), "%s (%s): out[%d] = %g, want %d",
                          r->what, tt_where(), i, got[i], i + 1);
        tt_read(aa, got);
        for (int i = 0; i < BW_N; i++)
            ck_assert_msg(got[i] == (float)(2 * (i + 1)), "%s (%s): a[%d] = %g, want %d",
                          r->what, tt_where(), i, got[i], 2 * (i + 1));
    }
    tj_array_destroy(aa);
    tj_array_destroy(ao);
    tj_module_destroy(m);
}
END_TEST

/* The same for tiles of rank 2 and 3, which width-1 blocks read in place when their
 * elements follow one another in the array (a (1, N) row, or rows as long as the array's),
 * and copy otherwise: rows apart in the array, and the edge. Block b loads at b * step in
 * each dimension; the blocks' tiles do not overlap, so each element's result is known. */

typedef struct bn_row {
    int rank;
    int arr[3], tile[3], step[3];
    int blocks;
    const char *what;
} bn_row;

static const bn_row bn_rows[] = {
    {2, {5, 12}, {1, 8}, {1, 0}, 6, "(1, 8) rows of a (5, 12) array, a block past its end"},
    {2, {7, 12}, {3, 12}, {3, 0}, 3, "(3, 12) whole rows of a (7, 12) array, the last partial"},
    {2, {7, 12}, {3, 8}, {3, 4}, 3, "(3, 8) of a (7, 12) array: rows apart, the last partial"},
    {2, {6, 9}, {2, 9}, {2, 0}, 3, "(2, 9) whole rows of a (6, 9) array, all inside"},
    {3, {4, 2, 6}, {2, 2, 6}, {2, 0, 0}, 2, "(2, 2, 6) of a (4, 2, 6) array"},
    {3, {4, 3, 6}, {2, 1, 6}, {2, 1, 0}, 3, "(2, 1, 6) of a (4, 3, 6) array: rows apart"},
    {3, {3, 2, 5}, {1, 2, 5}, {1, 0, 0}, 4, "(1, 2, 5) of a (3, 2, 5) array, a block past it"},
};

enum { BN_MAX = 4 * 3 * 12 };

START_TEST(test_loaded_tiles_of_rank_2_and_3_keep_their_values_when_the_array_is_written)
{
    const bn_row *r = &bn_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("borrowed_n");
    tj_val *a = tj_param_array(k, "a", f32, r->rank);
    tj_val *out = tj_param_array(k, "out", f32, r->rank);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off[3];
    for (int d = 0; d < r->rank; d++)
        off[d] = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, r->step[d]));
    tj_val *t = tj_tile_load(k, a, r->rank, r->tile, off, TJ_STORAGE_REGISTER);
    tj_tile_store(k, a, tj_binary(k, TJ_BIN_ADD, t, t), off);
    tj_tile_store(k, out, t, off);
    tj_module *m = tt_build(k, r->what);
    int64_t shape[3];
    int n = 1;
    for (int d = 0; d < r->rank; d++) {
        shape[d] = r->arr[d];
        n *= r->arr[d];
    }
    ck_assert_int_le(n, BN_MAX);
    float host[BN_MAX], want_a[BN_MAX], want_out[BN_MAX] = {0}, got[BN_MAX];
    for (int i = 0; i < n; i++)
        want_a[i] = host[i] = (float)(i + 1);
    /* Each block's tile elements that fall inside the array. */
    for (int b = 0; b < r->blocks; b++) {
        int tsize = r->tile[0] * (r->rank > 1 ? r->tile[1] : 1) * (r->rank > 2 ? r->tile[2] : 1);
        for (int e = 0; e < tsize; e++) {
            int rest = e, pos = 0;
            bool in = true;
            for (int d = r->rank - 1; d >= 0; d--) {
                int c = b * r->step[d] + rest % r->tile[d];
                rest /= r->tile[d];
                in = in && c < r->arr[d];
                int inner = 1;
                for (int dd = d + 1; dd < r->rank; dd++)
                    inner *= r->arr[dd];
                pos += c * inner;
            }
            if (in) {
                want_out[pos] = host[pos];
                want_a[pos] = 2 * host[pos];
            }
        }
    }
    tj_array *aa = tt_array(f32, r->rank, shape, host), *ao = tt_array(f32, r->rank, shape, NULL);
    tj_arg args[] = {tj_arg_array(aa), tj_arg_array(ao)};
    if (tt_launch_tiled(m, "borrowed_n", r->blocks, args, 2)) {
        tt_read(ao, got);
        for (int i = 0; i < n; i++)
            ck_assert_msg(got[i] == want_out[i], "%s (%s): out[%d] = %g, want %g", r->what,
                          tt_where(), i, got[i], want_out[i]);
        tt_read(aa, got);
        for (int i = 0; i < n; i++)
            ck_assert_msg(got[i] == want_a[i], "%s (%s): a[%d] = %g, want %g", r->what,
                          tt_where(), i, got[i], want_a[i]);
    }
    tj_array_destroy(aa);
    tj_array_destroy(ao);
    tj_module_destroy(m);
}
END_TEST

/* A tile computed from loaded tiles and stored whole: width-1 CPU code stores the values
 * straight into the array when a run-time test allows (jit/direct_stores.c for tiles that
 * LLVM writes out in one block; for tiles over 1 KiB, whose element-wise steps run in one
 * loop, that loop stores them: builtins/memory.c), and goes through the tile's registers
 * when what it read overlaps where it writes. Block r computes
 * t = a + a + b from a = x[r, 0:n] and b = y[r, load_col:load_col + n] and stores t at
 * y[r, store_col:store_col + n]; x may be y itself, and t may be stored again into 'out'
 * (then the registers stay live). The expected values are the old ones': a tile holds the
 * values of its load. Where the store overlaps what was read at other positions, that holds
 * only for a block of one thread (width-1): the lanes of a wider block, on the GPU or
 * cooperative on the CPU, each store their elements while others may not have read theirs,
 * a race (those rows run in width-1 mode only). */

typedef struct ds_row {
    int n;
    int load_col, store_col;
    bool x_is_y, reuse;
    const char *what;
} ds_row;

enum { DS_ROWS = 3, DS_MAX_W = 1025 };

static const ds_row ds_rows[] = {
    {64, 0, 0, false, false, "y = 2x + y, 64 elements"},
    {256, 0, 0, false, false, "y = 2x + y, 256 elements"},
    {60, 0, 0, false, false, "y = 2x + y, 60 elements"},
    {1024, 0, 0, false, false, "y = 2x + y, 1024 elements"},
    {64, 0, 0, true, false, "x is y"},
    {64, 0, 0, false, true, "the tile stored again after"},
    {1024, 0, 0, true, false, "x is y, 1024 elements"},
    {1024, 0, 0, false, true, "the tile stored again after, 1024 elements"},
};

static const ds_row ds_overlap_rows[] = {
    {64, 0, 1, false, false, "stored one element right of where y was read"},
    {64, 1, 0, false, false, "stored one element left of where y was read"},
    {256, 0, 1, true, false, "x is y, stored one element right"},
    {1024, 0, 1, false, false, "1024 elements stored one element right of where y was read"},
    {1024, 1, 0, false, false, "1024 elements stored one element left of where y was read"},
    {1024, 0, 1, true, false, "x is y, 1024 elements stored one element right"},
};

/* Reads the (h, w) float32 array 'a' into 'got' and checks it against 'want'. */
static void
expect_grid(const char *what, const char *name, const tj_array *a, float *got,
            const float *want, int h, int w)
{
    tt_read(a, got);
    for (int i = 0; i < h * w; i++)
        ck_assert_msg(got[i] == want[i], "%s (%s): %s[%d, %d] = %g, want %g", what, tt_where(),
                      name, i / w, i % w, got[i], want[i]);
}

static void
run_direct_row(const ds_row *r)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("direct");
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *y = tj_param_array(k, "y", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 2);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    int shape[] = {1, r->n};
    tj_val *at_x[] = {blk, tt_i32(k, 0)}, *at_y[] = {blk, tt_i32(k, r->load_col)};
    tj_val *at_store[] = {blk, tt_i32(k, r->store_col)};
    tj_val *a = tj_tile_load(k, x, 2, shape, at_x, TJ_STORAGE_REGISTER);
    tj_val *b = tj_tile_load(k, y, 2, shape, at_y, TJ_STORAGE_REGISTER);
    tj_val *t = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, a, a), b);
    tj_tile_store(k, y, t, at_store);
    if (r->reuse)
        tj_tile_store(k, out, t, at_x);
    tj_module *m = tt_build(k, r->what);
    int w = r->n + 1;
    int64_t dims[] = {DS_ROWS, w};
    static float hx[DS_ROWS * DS_MAX_W], hy[DS_ROWS * DS_MAX_W], want[DS_ROWS * DS_MAX_W],
        want_out[DS_ROWS * DS_MAX_W], got[DS_ROWS * DS_MAX_W];
    ck_assert_int_le(w, DS_MAX_W);
    for (int i = 0; i < DS_ROWS * w; i++) {
        hx[i] = (float)(i % 7) - 2.5f;
        hy[i] = (float)(i % 11) * 0.5f;
        want_out[i] = 0;
    }
    const float *old_x = r->x_is_y ? hy : hx;
    memcpy(want, hy, sizeof(float) * (size_t)(DS_ROWS * w));
    for (int row = 0; row < DS_ROWS; row++)
        for (int j = 0; j < r->n; j++) {
            float v = old_x[row * w + j] + old_x[row * w + j] + hy[row * w + r->load_col + j];
            want[row * w + r->store_col + j] = v;
            if (r->reuse)
                want_out[row * w + j] = v;
        }
    tj_array *ay = tt_array(f32, 2, dims, hy), *ao = tt_array(f32, 2, dims, NULL);
    tj_array *ax = r->x_is_y ? ay : tt_array(f32, 2, dims, hx);
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(ay), tj_arg_array(ao)};
    if (tt_launch_tiled(m, "direct", DS_ROWS, args, 3)) {
        expect_grid(r->what, "y", ay, got, want, DS_ROWS, w);
        expect_grid(r->what, "out", ao, got, want_out, DS_ROWS, w);
    }
    if (!r->x_is_y)
        tj_array_destroy(ax);
    tj_array_destroy(ay);
    tj_array_destroy(ao);
    tj_module_destroy(m);
}

START_TEST(test_computed_tiles_stored_whole_hold_the_values_read_before_the_store)
{
    run_direct_row(&ds_rows[tt_begin(_i)]);
}
END_TEST

START_TEST(test_width1_stores_over_other_elements_of_what_was_read_hold_the_values_read)
{
    run_direct_row(&ds_overlap_rows[tt_begin(_i)]);
}
END_TEST

/* The same over (R, C) tiles whose rows are apart in their arrays (columns 1 to C of rows
 * W wide): width-1 CPU code reads such tiles in place row by row, runs the element-wise
 * builtins in a loop over rows and stores each row from that loop when a run-time test
 * allows (builtins/layout.c, builtins/memory.c). Block r takes a = x[r0:r0 + R, 1:1 + C]
 * (r0 = r * (R + 2): the blocks' rows, shifted by one, stay apart) and b = y shifted by
 * (ldr, ldc), stores t = a + a + b into y shifted by (sdr, sdc), and
 * may store t again into 'out' or the sum of b into 'sums' (a reader that visits b's
 * elements in no loop over rows, so it reads them from the registers). */
typedef struct dr_row {
    int R, C, W;
    int ldr, ldc, sdr, sdc;
    bool x_is_y, reuse, sum;
    const char *what;
} dr_row;

enum { DR_BLOCKS = 2, DR_MAX = 2 * (20 + 2) * 48 };

static const dr_row dr_rows[] = {
    {16, 16, 48, 0, 0, 0, 0, false, false, false, "(16, 16) tiles of rows 48 wide"},
    {20, 24, 40, 0, 0, 0, 0, true, false, false, "x is y, (20, 24) tiles of rows 40 wide"},
    {16, 16, 48, 0, 0, 0, 0, false, true, true, "stored again, and b summed"},
    {16, 16, 17, 0, 0, 0, 0, false, false, false, "(16, 16) tiles of rows 17 wide"},
};

static const dr_row dr_overlap_rows[] = {
    {16, 16, 48, 0, 0, 1, 0, false, false, false, "stored one row below where y was read"},
    {16, 16, 48, 1, 0, 0, 0, false, false, false, "stored one row above where y was read"},
    {16, 16, 48, 0, 0, 0, 1, false, false, false, "stored one column right"},
    {16, 16, 48, 0, 1, 0, 0, true, false, false, "x is y, stored one column left"},
};

static void
run_rows_row(const dr_row *r)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("rows");
    tj_val *x = tj_param_array(k, "x", f32, 2), *y = tj_param_array(k, "y", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 2), *sums = tj_param_array(k, "sums", f32, 1);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *row0 = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, r->R + 2));
    int shape[] = {r->R, r->C};
    tj_val *at_x[] = {row0, tt_i32(k, 1)};
    tj_val *at_y[] = {tj_binary(k, TJ_BIN_ADD, row0, tt_i32(k, r->ldr)), tt_i32(k, 1 + r->ldc)};
    tj_val *a = tj_tile_load(k, x, 2, shape, at_x, TJ_STORAGE_REGISTER);
    tj_val *b = tj_tile_load(k, y, 2, shape, at_y, TJ_STORAGE_REGISTER);
    tj_val *t = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, a, a), b);
    tj_val *at_s[] = {tj_binary(k, TJ_BIN_ADD, row0, tt_i32(k, r->sdr)), tt_i32(k, 1 + r->sdc)};
    tj_tile_store(k, y, t, at_s);
    if (r->reuse)
        tj_tile_store(k, out, t, at_x);
    if (r->sum)
        tj_tile_store(k, sums, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, b), &blk);
    tj_module *m = tt_build(k, r->what);
    int h = DR_BLOCKS * (r->R + 2), w = r->W;
    int64_t dims[] = {h, w}, nsums = DR_BLOCKS;
    static float hx[DR_MAX], hy[DR_MAX], want[DR_MAX], want_out[DR_MAX], got[DR_MAX];
    float want_sums[DR_BLOCKS] = {0}, got_sums[DR_BLOCKS];
    ck_assert_int_le(h * w, DR_MAX);
    for (int i = 0; i < h * w; i++) {
        hx[i] = (float)(i % 7) - 2.5f;
        hy[i] = (float)(i % 11) * 0.5f;
        want_out[i] = 0;
    }
    const float *old_x = r->x_is_y ? hy : hx;
    memcpy(want, hy, sizeof(float) * (size_t)(h * w));
    for (int bl = 0; bl < DR_BLOCKS; bl++)
        for (int i = 0; i < r->R; i++)
            for (int j = 0; j < r->C; j++) {
                int xi = (bl * (r->R + 2) + i) * w + 1 + j;
                float bv = hy[(bl * (r->R + 2) + r->ldr + i) * w + 1 + r->ldc + j];
                float v = old_x[xi] + old_x[xi] + bv;
                want[(bl * (r->R + 2) + r->sdr + i) * w + 1 + r->sdc + j] = v;
                if (r->reuse)
                    want_out[xi] = v;
                want_sums[bl] += bv;
            }
    tj_array *ay = tt_array(f32, 2, dims, hy), *ao = tt_array(f32, 2, dims, NULL);
    tj_array *ax = r->x_is_y ? ay : tt_array(f32, 2, dims, hx);
    tj_array *as = tt_array(f32, 1, &nsums, NULL);
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(ay), tj_arg_array(ao), tj_arg_array(as)};
    if (tt_launch_tiled(m, "rows", DR_BLOCKS, args, 4)) {
        expect_grid(r->what, "y", ay, got, want, h, w);
        expect_grid(r->what, "out", ao, got, want_out, h, w);
        tt_read(as, got_sums);
        for (int bl = 0; bl < DR_BLOCKS && r->sum; bl++)
            ck_assert_msg(got_sums[bl] == want_sums[bl], "%s (%s): sum of block %d's b = %g, "
                          "want %g", r->what, tt_where(), bl, got_sums[bl], want_sums[bl]);
    }
    if (!r->x_is_y)
        tj_array_destroy(ax);
    tj_array_destroy(ay);
    tj_array_destroy(ao);
    tj_array_destroy(as);
    tj_module_destroy(m);
}

START_TEST(test_tiles_of_rows_apart_computed_and_stored_hold_the_values_read)
{
    run_rows_row(&dr_rows[tt_begin(_i)]);
}
END_TEST

START_TEST(test_width1_tiles_of_rows_stored_over_what_was_read_hold_the_values_read)
{
    run_rows_row(&dr_overlap_rows[tt_begin(_i)]);
}
END_TEST

/* ---- tile_zeros, tile_ones, tile_arange ------------------------------------------------------ */

typedef enum fill_kind { F_ZEROS, F_ONES, F_ARANGE } fill_kind;

typedef struct fill_row {
    fill_kind kind;
    tt_ty ty;
    int rank;
    int shape[4];          /* zeros, ones */
    tj_storage storage;
    double start, stop, step; /* arange */
    int len;               /* arange: int((stop - start) / step) */
} fill_row;

static const fill_row fill_rows[] = {
    {F_ZEROS, TT_SCALAR(F32), 1, {7}, REG, 0, 0, 0, 0},
    {F_ZEROS, TT_SCALAR(I64), 2, {3, 5}, SHR, 0, 0, 0, 0},
    {F_ZEROS, TT_VEC(F32, 3), 2, {4, 3}, REG, 0, 0, 0, 0},
    {F_ZEROS, TT_SCALAR(F16), 3, {2, 3, 4}, SHR, 0, 0, 0, 0},
    {F_ZEROS, TT_SCALAR(U8), 4, {2, 2, 2, 40}, REG, 0, 0, 0, 0},
    {F_ZEROS, TT_QUAT(F64), 1, {5}, SHR, 0, 0, 0, 0},
    {F_ZEROS, TT_SCALAR(BOOL), 1, {33}, REG, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(F32), 1, {300}, REG, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(I32), 2, {4, 4}, SHR, 0, 0, 0, 0},
    {F_ONES, TT_VEC(F32, 3), 1, {6}, REG, 0, 0, 0, 0},
    {F_ONES, TT_VEC(I32, 3), 2, {2, 3}, SHR, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(F64), 1, {1}, REG, 0, 0, 0, 0},
    {F_ONES, TT_MAT(F32, 2, 2), 1, {3}, REG, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(U16), 4, {2, 3, 4, 5}, SHR, 0, 0, 0, 0},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, REG, 0, 10, 1, 10},
    {F_ARANGE, TT_SCALAR(I32), 1, {0}, REG, 0, 10, 3, 3},      /* NumPy: 4 */
    {F_ARANGE, TT_SCALAR(I32), 1, {0}, SHR, 10, 0, -3, 3},     /* 10 7 4 */
    {F_ARANGE, TT_SCALAR(I64), 1, {0}, REG, -5, 5, 2, 5},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, REG, 0.5, 2.0, 0.25, 6},
    {F_ARANGE, TT_SCALAR(F64), 1, {0}, SHR, 1.0, -1.0, -0.5, 4},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, REG, 0, 1, 0.3, 3},     /* NumPy: 4 */
    {F_ARANGE, TT_SCALAR(F16), 1, {0}, REG, 0, 8, 0.5, 16},
    {F_ARANGE, TT_SCALAR(I32), 1, {0}, SHR, 0, 300, 1, 300},
    {F_ARANGE, TT_SCALAR(I32), 1, {0}, REG, -1, -40, -3, 13},
    {F_ARANGE, TT_SCALAR(U8), 1, {0}, REG, 0, 200, 7, 28},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, REG, 100, 108, 1, 8},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, SHR, 5.0, 5.9, 0.5, 1},
    {F_ARANGE, TT_SCALAR(I16), 1, {0}, REG, 7, -8, -5, 3},
    {F_ARANGE, TT_SCALAR(F64), 1, {0}, REG, -2.5, 7.5, 2.5, 4},
};

START_TEST(test_fill_builtins_match_reference)
{
    const fill_row *r = &fill_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty);
    int rank = r->kind == F_ARANGE ? 1 : r->rank;
    int shape[4];
    memcpy(shape, r->shape, sizeof shape);
    if (r->kind == F_ARANGE)
        shape[0] = r->len;
    tj_kernel *k = tt_kernel("fill");
    tj_val *out = tj_param_array(k, "out", et, rank);
    tj_val *t = r->kind == F_ZEROS  ? tj_tile_zeros(k, et, rank, shape, r->storage)
                : r->kind == F_ONES ? tj_tile_ones(k, et, rank, shape, r->storage)
                                    : tj_tile_arange(k, r->start, r->stop, r->step, et, r->storage);
    tt_kernel_ok(k, "fill");
    ck_assert_int_eq(tj_tile_get_rank(t), rank);
    for (int d = 0; d < rank; d++)
        ck_assert_int_eq(tj_tile_get_shape(t, d), shape[d]);
    ck_assert_int_eq(tj_tile_get_storage(t), r->storage);
    ck_assert_ptr_eq(tj_val_get_type(t), et);
    tj_tile_store(k, out, t, NULL);
    tj_module *m = tt_build(k, "fill");
    int64_t n = tt_size(rank, shape), s64[4];
    tt_shape64(rank, shape, s64);
    int nc = tt_ncomp(r->ty);
    void *h = tt_host_elems(r->ty, n, false);
    tj_array *a = tt_array(et, rank, s64, h);
    tj_arg args[] = {tj_arg_array(a)};
    if (tt_launch_tiled(m, "fill", 1, args, 1)) {
        tt_read(a, h);
        for (int64_t e = 0; e < n; e++) {
            for (int c = 0; c < nc; c++) {
                double got = tt_get(h, r->ty.dt, (size_t)(e * nc + c)), want = r->kind == F_ONES;
                if (r->kind == F_ARANGE) {
                    /* computed in the element type: e * step + start (the GPU may fuse it) */
                    if (r->ty.dt == TJ_DTYPE_F32)
                        want = (float)((float)e * (float)r->step) + (float)r->start;
                    else
                        want = (double)e * r->step + r->start;
                }
                bool ok = r->ty.dt == TJ_DTYPE_F32 ? tj_test_close(got, want, 1e-6) : got == want;
                ck_assert_msg(ok, "%s of %s (%s): element %lld component %d is %.9g, expected "
                              "%.9g", r->kind == F_ZEROS ? "zeros" : r->kind == F_ONES ? "ones"
                              : "arange", tj_type_get_name(et), tt_where(), (long long)e, c,
                              got, want);
            }
        }
    }
    tj_array_destroy(a);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- tile_reshape ---------------------------------------------------------------------------- */

typedef struct rs_row {
    int rank;
    int shape[4];
    int nrank;
    int nshape[4];         /* may hold one -1 */
    int want[4];           /* the resolved shape */
    tj_storage storage;
} rs_row;

static const rs_row rs_rows[] = {
    {1, {12}, 2, {3, 4}, {3, 4}, REG},
    {1, {12}, 2, {-1, 6}, {2, 6}, SHR},
    {3, {2, 3, 4}, 2, {4, -1}, {4, 6}, REG},
    {3, {2, 3, 4}, 1, {24}, {24}, SHR},
    {2, {4, 6}, 4, {2, 2, 3, 2}, {2, 2, 3, 2}, REG},
    {1, {5}, 3, {1, 5, 1}, {1, 5, 1}, REG},
    {2, {40, 9}, 1, {-1}, {360}, SHR},
    {2, {3, 4}, 3, {2, -1, 3}, {2, 2, 3}, SHR},
    {1, {260}, 2, {13, -1}, {13, 20}, REG},
};

/* Loads a tile, reshapes it and back, then takes a whole view of the reshape (which moves
 * a register tile and its reshapes to shared memory); stores all three. */
START_TEST(test_reshape_keeps_row_major_order)
{
    const rs_row *r = &rs_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("reshape");
    tj_val *in = tj_param_array(k, "in", f32, r->rank);
    tj_val *out = tj_param_array(k, "out", f32, r->nrank);
    tj_val *back = tj_param_array(k, "back", f32, r->rank);
    tj_val *whole = tj_param_array(k, "whole", f32, r->nrank);
    tj_val *t = tj_tile_load(k, in, r->rank, r->shape, NULL, r->storage);
    tj_val *s = tj_tile_reshape(k, t, r->nrank, r->nshape);
    tt_kernel_ok(k, "tile_reshape");
    ck_assert_int_eq(tj_tile_get_rank(s), r->nrank);
    for (int d = 0; d < r->nrank; d++)
        ck_assert_int_eq(tj_tile_get_shape(s, d), r->want[d]);
    tj_val *u = tj_tile_reshape(k, s, r->rank, r->shape);
    tj_tile_store(k, out, s, NULL);
    tj_tile_store(k, back, u, NULL);
    tj_view_index all = tj_view_slice(NONE, NONE, NONE);
    tj_val *v = tj_tile_view(k, s, &all, 1, NULL, 0);
    tj_tile_store(k, whole, v, NULL);
    tj_module *m = tt_build(k, "reshape");
    int64_t n = tt_size(r->rank, r->shape), s1[4], s2[4];
    tt_shape64(r->rank, r->shape, s1);
    tt_shape64(r->nrank, r->want, s2);
    tt_ty f32t = TT_SCALAR(F32);
    void *hin = tt_host_elems(f32t, n, true), *h = tt_host_elems(f32t, n, false);
    tj_array *a[] = {tt_array(f32, r->rank, s1, hin), tt_array(f32, r->nrank, s2, h),
                     tt_array(f32, r->rank, s1, h), tt_array(f32, r->nrank, s2, h)};
    tj_arg args[] = {tj_arg_array(a[0]), tj_arg_array(a[1]), tj_arg_array(a[2]),
                     tj_arg_array(a[3])};
    if (tt_launch_tiled(m, "reshape", 1, args, 4)) {
        for (int j = 1; j < 4; j++) {
            tt_read(a[j], h);
            for (int64_t e = 0; e < n; e++)
                tt_expect_elem(f32t, h, e, hin, e, j == 1   ? "reshape"
                                                   : j == 2 ? "reshape back"
                                                            : "view of reshape");
        }
    }
    for (int j = 0; j < 4; j++)
        tj_array_destroy(a[j]);
    free(hin);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- tile_assign without views --------------------------------------------------------------- */

/* dst (R, C) loaded from 'in' (register or shared); src either an arange (SR, SC) register
 * tile or dst itself; assigned at a runtime offset that may put part of src outside dst
 * (dropped), then dst is stored. NumPy: d[o0:o0+SR, o1:o1+SC] = s.copy(), clipped. */
typedef struct as_row {
    int R, C, SR, SC;
    tj_storage storage;
    bool self;             /* src is dst: an overlapping copy */
} as_row;

static const as_row as_rows[] = {
    {4, 6, 2, 3, REG, false},
    {4, 6, 3, 4, SHR, false},
    {5, 40, 3, 33, SHR, false},
    {4, 6, 4, 6, SHR, true},
    {6, 5, 6, 5, REG, true},
};

static const int as_offsets[][2] = {{0, 0}, {1, 2}, {-1, -2}, {3, 4},
                                    {-3, 5}, {2, -1}, {1, 0}, {0, 1}};

START_TEST(test_assign_copies_src_first_and_drops_what_falls_outside)
{
    const as_row *r = &as_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    int shape[2] = {r->R, r->C}, sshape[2] = {r->SR, r->SC};
    tj_kernel *k = tt_kernel("assign");
    tj_val *in = tj_param_array(k, "in", f32, 2), *out = tj_param_array(k, "out", f32, 2);
    tj_val *o[2] = {tj_param(k, "o0", i32), tj_param(k, "o1", i32)};
    tj_val *dst = tj_tile_load(k, in, 2, shape, NULL, r->storage);
    tj_val *src = dst;
    if (!r->self) {
        tj_val *a = tj_tile_arange(k, 1000, 1000 + r->SR * r->SC, 1, f32, REG);
        src = tj_tile_reshape(k, a, 2, sshape);
    }
    ck_assert(tj_tile_assign(k, dst, src, o));
    ck_assert_int_eq(tj_tile_get_storage(dst), SHR); /* promoted when it was a register tile */
    tj_tile_store(k, out, dst, NULL);
    tj_module *m = tt_build(k, "assign");
    int64_t n = (int64_t)r->R * r->C, s64[2] = {r->R, r->C};
    tt_ty f32t = TT_SCALAR(F32);
    float *hin = tt_host_elems(f32t, n, true), *h = tt_alloc((size_t)n, TJ_DTYPE_F32);
    float *want = tt_alloc((size_t)n, TJ_DTYPE_F32);
    tj_array *ain = tt_array(f32, 2, s64, hin), *aout = tt_array(f32, 2, s64, NULL);
    for (int j = 0; tt.dev && j < TT_NELEMS(as_offsets); j++) {
        int o0 = as_offsets[j][0], o1 = as_offsets[j][1];
        tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aout), tj_arg_int(o0), tj_arg_int(o1)};
        tt_launch_tiled(m, "assign", 1, args, 4);
        tt_read(aout, h);
        memcpy(want, hin, (size_t)n * sizeof *want);
        for (int i = 0; i < r->SR; i++)
            for (int c = 0; c < r->SC; c++) {
                int di = i + o0, dc = c + o1;
                if (di >= 0 && di < r->R && dc >= 0 && dc < r->C)
                    want[di * r->C + dc] = r->self ? hin[i * r->C + c]
                                                   : (float)(1000 + i * r->SC + c);
            }
        for (int64_t e = 0; e < n; e++)
            ck_assert_msg(h[e] == want[e], "assign%s at (%d, %d) (%s): element (%lld, %lld) is %g, "
                          "expected %g", r->self ? " to itself" : "", o0, o1, tt_where(),
                          (long long)(e / r->C), (long long)(e % r->C), h[e], want[e]);
    }
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    free(hin);
    free(h);
    free(want);
    tj_module_destroy(m);
}
END_TEST

/* ---- a shared fill that tile_assign overwrites ----------------------------------------------- */

/* A shared tile_zeros of FD_N float32, then (per row) tile_assign of an arange 1000, 1001, ...
 * into it, and the tile stored at block * FD_N. The fill is dropped only where the assign
 * writes the whole tile before any call could read the zeros (FD_FULL and FD_LOOP, through a
 * view of all of it): the unoptimised IR keeps its test ("fill.needed") in every other row, and
 * every row stores what the zeros and the assign make together. */
enum { FD_N = 40, FD_BLOCKS = 3 };
typedef enum fd_row {
    FD_FULL,        /* view of the whole tile, assign at offset 0 (none given) */
    FD_PARTIAL,     /* a smaller src: the last 3 elements stay 0 */
    FD_READ_FIRST,  /* tile_reduce of the zeros first (out2[block] = 0), then the assign */
    FD_IN_IF,       /* the assign only in block 0 */
    FD_RUNTIME,     /* offset 0, but a kernel parameter */
    FD_LOOP,        /* as FD_FULL, twice in a loop: the tile's own fence stays */
    FD_NROWS
} fd_row;

/* bar.sync in each row's PTX (adjacent barriers come out as one). Where the fill is
 * dropped, so are its barrier and the assign's barrier before. Where the assign writes the
 * whole tile from a src of its shape at offset 0 (FD_FULL, FD_READ_FIRST, FD_LOOP), each
 * lane then stores only the elements it wrote itself, and the barrier after the assign is
 * only owed (tji_barrier_owed_for): FD_FULL has none left (2, then 1, before these), and
 * FD_READ_FIRST keeps the reduction's and the assign's barrier before it (5 before). In
 * FD_LOOP the owed barrier is made at the end of the body, next to the tile's fence, which
 * stays, as it orders the second pass's writes after the first pass's reads (2 before too:
 * the fence and the two dropped barriers were adjacent); dropping the fence as well would
 * leave 1. */
static const int fd_barriers[FD_NROWS] = {0, 2, 4, 3, 2, 2};

START_TEST(test_fill_is_dropped_only_when_an_assign_overwrites_it_unread)
{
    fd_row r = (fd_row)tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tt_kernel("fill_drop");
    tj_val *out = tj_param_array(k, "out", f32, 1), *out2 = tj_param_array(k, "out2", f32, 1);
    tj_val *o = tj_param(k, "o", i32);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    int n = FD_N, small = FD_N - 3;
    tj_val *src = tj_tile_arange(k, 1000, 1000 + (r == FD_PARTIAL ? small : n), 1, f32, REG);
    if (r == FD_LOOP)
        tj_for_begin(k, tt_i32(k, 0), tt_i32(k, 2), tt_i32(k, 1));
    tj_val *buf = tj_tile_zeros(k, f32, 1, &n, SHR);
    tj_view_index all = tj_view_slice(NONE, NONE, NONE);
    if (r == FD_READ_FIRST)
        tj_tile_store(k, out2, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, buf), &blk);
    if (r == FD_IN_IF)
        tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, blk, tt_i32(k, 0)));
    bool dropped = r == FD_FULL || r == FD_LOOP;
    tj_val *dst = dropped ? tj_tile_view(k, buf, &all, 1, NULL, 0) : buf;
    ck_assert(tj_tile_assign(k, dst, src, r == FD_RUNTIME ? &o : NULL));
    if (r == FD_IN_IF)
        tj_if_end(k);
    tj_tile_store(k, out, buf, (tj_val *[]){tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, n))});
    if (r == FD_LOOP)
        tj_for_end(k);
    tt_kernel_ok(k, "fill_drop");
    if (tt_target() == TJ_TARGET_CPU) { /* the GPU's IR, even at O0, is past its passes */
        tj_module *m0 = NULL;
        tj_build_options o0 = {.keep_ir = true, .opt_level = TJ_OPT_O0};
        ck_assert_int_eq(tj_kernel_build(k, &o0, &m0), TJ_OK);
        bool kept = strstr(tj_module_get_ir(m0), "fill.needed") != NULL;
        ck_assert_msg(kept == !dropped, "row %d (%s): the fill's test is %s", (int)r,
                      tt_where(), kept ? "kept" : "gone");
        tj_module_destroy(m0);
        /* optimised, the dropped fill stores no zeros at all */
        tj_build_options o3 = {.keep_ir = true};
        ck_assert_int_eq(tj_kernel_build(k, &o3, &m0), TJ_OK);
        const char *ir = tj_module_get_ir(m0);
        bool zeros = strstr(ir, "store float 0.000000e+00") || strstr(ir, "zeroinitializer, ptr");
        if (dropped)
            ck_assert_msg(!zeros, "row %d (%s): zeros are stored", (int)r, tt_where());
        tj_module_destroy(m0);
    }
    tj_module *m = tt_build(k, "fill_drop");
    int bars = tt_ptx_count(m, "bar.sync");
    ck_assert_msg(bars < 0 || bars == fd_barriers[r],
                  "row %d (%s): %d bar.sync in the PTX, expected %d", (int)r, tt_where(), bars,
                  fd_barriers[r]);
    float h[FD_BLOCKS * FD_N], h2[FD_BLOCKS];
    for (int i = 0; i < FD_BLOCKS * FD_N; i++)
        h[i] = -1.0f;
    for (int b = 0; b < FD_BLOCKS; b++)
        h2[b] = -1.0f;
    tj_array *a = tt_array(f32, 1, (int64_t[]){FD_BLOCKS * FD_N}, h);
    tj_array *a2 = tt_array(f32, 1, (int64_t[]){FD_BLOCKS}, h2);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(a2), tj_arg_int(0)};
    if (tt_launch_tiled(m, "fill_drop", FD_BLOCKS, args, 3)) {
        tt_read(a, h);
        tt_read(a2, h2);
        for (int b = 0; b < FD_BLOCKS; b++) {
            for (int e = 0; e < FD_N; e++) {
                bool written = (r != FD_IN_IF || b == 0) && (r != FD_PARTIAL || e < small);
                float want = written ? (float)(1000 + e) : 0.0f;
                ck_assert_msg(h[b * FD_N + e] == want, "row %d (%s): block %d element %d is %g, "
                              "expected %g", (int)r, tt_where(), b, e, h[b * FD_N + e], want);
            }
            float want2 = r == FD_READ_FIRST ? 0.0f : -1.0f;
            ck_assert_msg(h2[b] == want2, "row %d (%s): out2[%d] is %g, expected %g", (int)r,
                          tt_where(), b, h2[b], want2);
        }
    }
    tj_array_destroy(a);
    tj_array_destroy(a2);
    tj_module_destroy(m);
}
END_TEST

/* ---- reads of a lane's own elements after an assign --------------------------------------- */

/* A shared tile of FD_N elements written by every lane, then read (per row), on FD_BLOCKS
 * blocks; out[block * FD_N + e] is checked exactly. A lane that reads only the elements it
 * wrote (those it owns, e = slot * B + lane) reads its own writes and needs no barrier
 * (tji_barrier_owed_for); one that reads others' does. The elementwise operations leave a
 * deferred barrier owed, as for values (tj_binary), but a shared operand makes it. */
typedef enum or_row {
    OR_STORE,       /* assign 1000 + e through a view of all of it, store the tile */
    OR_SHIFTED,     /* the same, then store a view from element 1: the neighbour's writes */
    OR_MAPPED,      /* the same, then store 2 * tile (tj_binary reads its own elements) */
    OR_SCATTERED,   /* int zeros, scatter_add of 1 at e % FD_N for each lane e < B, then
                       store 2 * tile: the adds of other lanes, ordered by the barrier that
                       scatter_add owes (out = 2 x the lanes whose index falls there) */
    OR_NROWS
} or_row;

/* bar.sync in each row's PTX: none where every read is a lane's own (the fill is dropped,
 * builtins/memory.c), one where a lane reads its neighbour's writes, and for the scatter the
 * fill's barrier and the one owed after the adds. */
static const int or_barriers[OR_NROWS] = {0, 1, 0, 2};

START_TEST(test_reads_of_a_lanes_own_writes_need_no_barrier)
{
    or_row r = (or_row)tt_begin(_i);
    bool ints = r == OR_SCATTERED;
    const tj_type *et = tjt_type(ints ? TJ_DTYPE_I32 : TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("owner_reads");
    tj_val *out = tj_param_array(k, "out", et, 1);
    tj_val *blk = NULL, *lane = NULL, *ids[2];
    tj_tid(k, 2, ids);
    blk = ids[0];
    lane = ids[1];
    int n = FD_N, rest = FD_N - 1;
    tj_val *buf = tj_tile_zeros(k, et, 1, &n, SHR);
    tj_val *two = ints ? tt_i32(k, 2) : tj_const_float(k, TJ_DTYPE_F32, 2.0);
    tj_val *result = buf;
    if (ints) {
        tj_val *at = tj_binary(k, TJ_BIN_MOD, lane, tt_i32(k, n));
        tj_tile_scatter_add(k, buf, &at, 1, tt_i32(k, 1), tj_const_bool(k, true),
                            tj_const_bool(k, true));
        result = tj_binary(k, TJ_BIN_MUL, buf, two);
    } else {
        tj_view_index all = tj_view_slice(NONE, NONE, NONE);
        tj_val *src = tj_tile_arange(k, 1000, 1000 + n, 1, et, REG);
        ck_assert(tj_tile_assign(k, tj_tile_view(k, buf, &all, 1, NULL, 0), src, NULL));
        if (r == OR_SHIFTED) {
            tj_view_index from1 = tj_view_slice(1, NONE, NONE);
            result = tj_tile_view(k, buf, &from1, 1, NULL, 0);
        } else if (r == OR_MAPPED) {
            result = tj_binary(k, TJ_BIN_MUL, buf, two);
        }
    }
    tj_tile_store(k, out, result, (tj_val *[]){tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, n))});
    tj_module *m = tt_build(k, "owner_reads");
    int bars = tt_ptx_count(m, "bar.sync");
    ck_assert_msg(bars < 0 || bars == or_barriers[r],
                  "row %d (%s): %d bar.sync in the PTX, expected %d", (int)r, tt_where(), bars,
                  or_barriers[r]);
    int32_t hi[FD_BLOCKS * FD_N];
    float hf[FD_BLOCKS * FD_N];
    for (int i = 0; i < FD_BLOCKS * FD_N; i++) {
        hi[i] = -1;
        hf[i] = -1.0f;
    }
    tj_array *a = tt_array(et, 1, (int64_t[]){FD_BLOCKS * FD_N}, ints ? (void *)hi : (void *)hf);
    tj_arg args[] = {tj_arg_array(a)};
    if (tt_launch_tiled(m, "owner_reads", FD_BLOCKS, args, 1)) {
        tt_read(a, ints ? (void *)hi : (void *)hf);
        int B = tt_B();
        for (int b = 0; b < FD_BLOCKS; b++)
            for (int e = 0; e < FD_N; e++) {
                double want, got = ints ? hi[b * FD_N + e] : hf[b * FD_N + e];
                if (r == OR_SCATTERED) /* lanes l < B with l % FD_N == e */
                    want = 2.0 * (e < B ? (B - 1 - e) / FD_N + 1 : 0);
                else if (r == OR_SHIFTED) /* the view has FD_N - 1 elements */
                    want = e < rest ? 1001 + e : -1;
                else
                    want = (r == OR_MAPPED ? 2.0 : 1.0) * (1000 + e);
                ck_assert_msg(got == want, "row %d (%s): block %d element %d is %g, expected %g",
                              (int)r, tt_where(), b, e, got, want);
            }
    }
    tj_array_destroy(a);
    tj_module_destroy(m);
}
END_TEST

/* ---- tile_atomic_add ------------------------------------------------------------------------- */

/* AT_BLOCKS blocks each add (in + block) into one array at one offset (partly outside on
 * some rows) and store the old values they got back. Every sum is exact (small integers). */
typedef struct at_row {
    tt_ty ty;
    int rank;
    int tile[3], arr[3], off[3];
} at_row;

enum { AT_BLOCKS = 37 };

static const at_row at_rows[] = {
    {TT_SCALAR(F32), 1, {40}, {40}, {0}},
    {TT_SCALAR(I32), 2, {3, 5}, {4, 4}, {-1, 1}},
    {TT_SCALAR(F64), 3, {2, 3, 4}, {2, 3, 4}, {1, -1, 2}},
    {TT_SCALAR(U32), 1, {7}, {5}, {-2}},
    {TT_SCALAR(I64), 2, {4, 4}, {5, 5}, {2, 2}},
    {TT_SCALAR(U64), 1, {9}, {9}, {0}},
    {TT_SCALAR(F16), 1, {6}, {8}, {3}},
    {TT_VEC(F32, 3), 1, {5}, {6}, {-1}},
};

/* Contribution of block b to element e component c (>= 1, so old values increase). */
static double
at_contrib(const at_row *r, int64_t e, int c, int b)
{
    return (double)((e * 3 + c * 5) % 8 + 1 + b);
}

START_TEST(test_atomic_add_sums_many_blocks_and_returns_old_values)
{
    const at_row *r = &at_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty), *st = tjt_type(r->ty.dt);
    int rank = r->rank, nc = tt_ncomp(r->ty), oshape[3];
    memcpy(oshape, r->tile, sizeof oshape);
    oshape[0] *= AT_BLOCKS;
    tj_kernel *k = tt_kernel("atomic");
    tj_val *in = tj_param_array(k, "in", et, rank), *acc = tj_param_array(k, "acc", et, rank);
    tj_val *olds = tj_param_array(k, "olds", et, rank);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *t = tj_tile_load(k, in, rank, r->tile, NULL, REG);
    tj_val *bv = tj_cast(k, blk, st);
    if (r->ty.kind != TJ_TYPE_SCALAR)
        bv = tj_compose(k, et, &bv, 1);
    tj_val *off[3], *oo[3];
    for (int d = 0; d < rank; d++) {
        off[d] = tt_i32(k, r->off[d]);
        oo[d] = d ? tt_i32(k, 0) : tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, r->tile[0]));
    }
    tj_val *old = tj_tile_atomic_add(k, acc, tj_binary(k, TJ_BIN_ADD, t, bv), off);
    tt_kernel_ok(k, "tile_atomic_add");
    ck_assert_int_eq(tj_tile_get_rank(old), rank);
    ck_assert_ptr_eq(tj_val_get_type(old), et);
    tj_tile_store(k, olds, old, oo);
    tj_module *m = tt_build(k, "atomic");
    tt_ptx_has(m, "atom.");
    int64_t nt = tt_size(rank, r->tile), na = tt_size(rank, r->arr), no = nt * AT_BLOCKS;
    int64_t s_t[3], s_a[3], s_o[3];
    tt_shape64(rank, r->tile, s_t);
    tt_shape64(rank, r->arr, s_a);
    tt_shape64(rank, oshape, s_o);
    void *hin = tt_alloc((size_t)(nt * nc), r->ty.dt);
    void *hacc = tt_alloc((size_t)(na * nc), r->ty.dt);
    void *holds = tt_alloc((size_t)(no * nc), r->ty.dt);
    for (int64_t e = 0; e < nt; e++)
        for (int c = 0; c < nc; c++)
            tt_put(hin, r->ty.dt, (size_t)(e * nc + c), at_contrib(r, e, c, 0));
    for (int64_t p = 0; p < na * nc; p++)
        tt_put(hacc, r->ty.dt, (size_t)p, (double)(p % 5));
    tj_array *ain = tt_array(et, rank, s_t, hin), *aacc = tt_array(et, rank, s_a, hacc);
    tj_array *aolds = tt_array(et, rank, s_o, NULL);
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(aacc), tj_arg_array(aolds)};
    if (tt_launch_tiled(m, "atomic", AT_BLOCKS, args, 3)) {
        void *final = tt_alloc((size_t)(na * nc), r->ty.dt);
        tt_read(aacc, final);
        tt_read(aolds, holds);
        bool *hit = calloc((size_t)na, 1);
        ck_assert_ptr_nonnull(hit);
        for (int64_t e = 0; e < nt; e++) {
            int cc[3];
            tt_unravel(e, rank, r->tile, cc);
            for (int d = 0; d < rank; d++)
                cc[d] += r->off[d];
            int64_t p = tt_ravel(rank, r->arr, cc);
            if (p >= 0)
                hit[p] = true;
            for (int c = 0; c < nc; c++) {
                /* the old values of one element, sorted, are the running sums */
                double seen[AT_BLOCKS];
                int order[AT_BLOCKS];
                for (int b = 0; b < AT_BLOCKS; b++) {
                    seen[b] = tt_get(holds, r->ty.dt, (size_t)(((int64_t)b * nt + e) * nc + c));
                    order[b] = b;
                }
                if (p < 0) {
                    for (int b = 0; b < AT_BLOCKS; b++)
                        ck_assert_msg(seen[b] == 0, "%s (%s): element %lld is outside; block %d "
                                      "got old value %g, expected 0", tj_type_get_name(et),
                                      tt_where(), (long long)e, b, seen[b]);
                    continue;
                }
                for (int i = 1; i < AT_BLOCKS; i++)
                    for (int j = i; j > 0 && seen[order[j]] < seen[order[j - 1]]; j--) {
                        int x = order[j];
                        order[j] = order[j - 1];
                        order[j - 1] = x;
                    }
                double run = tt_get(hacc, r->ty.dt, (size_t)(p * nc + c));
                for (int i = 0; i < AT_BLOCKS; i++) {
                    ck_assert_msg(seen[order[i]] == run, "%s (%s): element %lld: the old values "
                                  "are not the running sums (%g, expected %g)",
                                  tj_type_get_name(et), tt_where(), (long long)e, seen[order[i]],
                                  run);
                    run += at_contrib(r, e, c, order[i]);
                }
                double got = tt_get(final, r->ty.dt, (size_t)(p * nc + c));
                ck_assert_msg(got == run, "%s (%s): acc element %lld component %d is %g, "
                              "expected %g", tj_type_get_name(et), tt_where(), (long long)p, c,
                              got, run);
            }
        }
        for (int64_t p = 0; p < na; p++)
            for (int c = 0; !hit[p] && c < nc; c++)
                ck_assert_msg(tt_get(final, r->ty.dt, (size_t)(p * nc + c)) ==
                              tt_get(hacc, r->ty.dt, (size_t)(p * nc + c)),
                              "acc element %lld changed though no tile element covers it",
                              (long long)p);
        free(hit);
        free(final);
    }
    tj_array_destroy(ain);
    tj_array_destroy(aacc);
    tj_array_destroy(aolds);
    free(hin);
    free(hacc);
    free(holds);
    tj_module_destroy(m);
}
END_TEST

/* ---- partial blocks -------------------------------------------------------------------------- */

/* tj_launch over n = 2 B + r threads, 0 < r < B (SPEC 1): blocks 0 and 1 are full, block 2 has
 * r active lanes. Element e of a block's tile belongs to lane e % B (SPEC 3; the loops over
 * shared tiles stride the same way), and in a partial block the elements of inactive lanes
 * are never made or stored (docs/builtins.md): there the output keeps its sentinel. Each
 * block b works on its own tile, stored at row b * shape[0], so element e of block b is at
 * b * size + e of the output. The CPU runs one worker thread, so that the partial block gets
 * an arena the full blocks have used. */

/* The block of thread tid() (tj_launch: the linear thread index) and the offset of its tile,
 * (block * shape0, 0, ...). */
static void
pb_offset(tj_kernel *k, int rank, int shape0, tj_val **off)
{
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *blk = tj_binary(k, TJ_BIN_DIV, i, tt_i32(k, tt_B()));
    for (int d = 0; d < rank; d++)
        off[d] = d ? tt_i32(k, 0) : tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, shape0));
}

static void
pb_one_worker(void)
{
    if (tt.kind == TT_COOP)
        tjt_ok(tt.dev, tj_device_set_cpu_threads(tt.dev, 1));
}

/* Fills in every form: zeros and ones of scalars, vectors and matrices, register and shared,
 * of 1 to 3 dimensions and up to 300 elements (two slots per lane at B = 256); aranges whose
 * values are exact in the type. */
static const fill_row pb_fill_rows[] = {
    {F_ZEROS, TT_SCALAR(F32), 1, {37}, REG, 0, 0, 0, 0},
    {F_ZEROS, TT_VEC(F32, 3), 2, {4, 9}, SHR, 0, 0, 0, 0},
    {F_ZEROS, TT_SCALAR(I64), 2, {3, 100}, SHR, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(I32), 2, {5, 7}, SHR, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(F64), 1, {300}, REG, 0, 0, 0, 0},
    {F_ONES, TT_MAT(F32, 2, 2), 1, {40}, SHR, 0, 0, 0, 0},
    {F_ONES, TT_SCALAR(U16), 3, {2, 3, 11}, REG, 0, 0, 0, 0},
    {F_ARANGE, TT_SCALAR(I32), 1, {0}, SHR, 0, 300, 1, 300},
    {F_ARANGE, TT_SCALAR(F32), 1, {0}, REG, 0.5, 20.0, 0.25, 78},
    {F_ARANGE, TT_SCALAR(F64), 1, {0}, SHR, 10, -30, -0.5, 80},
    {F_ARANGE, TT_SCALAR(I16), 1, {0}, REG, 7, -60, -3, 22},   /* NumPy: 23 */
};

START_TEST(test_fills_in_partial_blocks_make_only_the_active_lanes_elements)
{
    const fill_row *r = &pb_fill_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty);
    int B = tt_B(), rank = r->kind == F_ARANGE ? 1 : r->rank, shape[4];
    memcpy(shape, r->shape, sizeof shape);
    if (r->kind == F_ARANGE)
        shape[0] = r->len;
    tj_kernel *k = tt_kernel("fill");
    tj_val *out = tj_param_array(k, "out", et, rank), *off[4];
    pb_offset(k, rank, shape[0], off);
    tj_val *t = r->kind == F_ZEROS  ? tj_tile_zeros(k, et, rank, shape, r->storage)
                : r->kind == F_ONES ? tj_tile_ones(k, et, rank, shape, r->storage)
                                    : tj_tile_arange(k, r->start, r->stop, r->step, et, r->storage);
    tt_kernel_ok(k, "fill");
    ck_assert_int_eq(tj_tile_get_shape(t, 0), shape[0]);
    tj_tile_store(k, out, t, off);
    tj_module *m = tt_build(k, "fill");
    int64_t size = tt_size(rank, shape), nout = TT_PARTIAL_BLOCKS * size, s64[4];
    tt_shape64(rank, shape, s64);
    s64[0] *= TT_PARTIAL_BLOCKS;
    int nc = tt_ncomp(r->ty), rs[3], nr = tt_partial_remainders(B, rs);
    void *sent = tt_host_elems(r->ty, nout, false), *h = tt_host_elems(r->ty, nout, false);
    tj_array *a = tt_array(et, rank, s64, sent);
    tj_arg args[] = {tj_arg_array(a)};
    if (tt.dev)
        pb_one_worker();
    for (int ri = 0; tt.dev && ri < nr; ri++) {
        int64_t n = 2 * (int64_t)B + rs[ri];
        tjt_ok(tt.dev, tj_array_copy_from_host(a, sent, tj_array_get_bytes(a)));
        tt_launch(m, "fill", n, args, 1);
        tt_read(a, h);
        for (int64_t x = 0; x < nout; x++) {
            int64_t b = x / size, e = x % size;
            bool on = tt_partial_active(B, rs[ri], b, e);
            double want = r->kind == F_ZEROS  ? 0
                          : r->kind == F_ONES ? 1
                                              : (double)e * r->step + r->start; /* exact */
            for (int c = 0; c < nc; c++) {
                double got = tt_get(h, r->ty.dt, (size_t)(x * nc + c));
                ck_assert_msg(got == (on ? want : TT_SENTINEL), "%s of %s (%s, %lld threads): "
                              "block %lld element %lld component %d is %g, expected %g",
                              r->kind == F_ZEROS ? "zeros" : r->kind == F_ONES ? "ones" : "arange",
                              tj_type_get_name(et), tt_where(), (long long)n, (long long)b,
                              (long long)e, c, got, on ? want : TT_SENTINEL);
            }
        }
    }
    tj_array_destroy(a);
    free(sent);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* The rows of rs_rows in partial blocks: each block loads its tile, reshapes it and back, and
 * takes a whole view of the reshape (promoting a register tile); all three are stored. A
 * reshape keeps each element in its lane, so the active lanes' elements come out in
 * row-major order and the rest keep the sentinel. */
START_TEST(test_reshape_in_partial_blocks_keeps_active_lanes_elements_row_major)
{
    const rs_row *r = &rs_rows[tt_begin(_i)];
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    int B = tt_B();
    tj_kernel *k = tt_kernel("reshape");
    tj_val *in = tj_param_array(k, "in", f32, r->rank);
    tj_val *out = tj_param_array(k, "out", f32, r->nrank);
    tj_val *back = tj_param_array(k, "back", f32, r->rank);
    tj_val *whole = tj_param_array(k, "whole", f32, r->nrank);
    tj_val *off[4], *noff[4];
    pb_offset(k, r->rank, r->shape[0], off);
    pb_offset(k, r->nrank, r->want[0], noff);
    tj_val *t = tj_tile_load(k, in, r->rank, r->shape, off, r->storage);
    tj_val *s = tj_tile_reshape(k, t, r->nrank, r->nshape);
    tj_val *u = tj_tile_reshape(k, s, r->rank, r->shape);
    tj_tile_store(k, out, s, noff);
    tj_tile_store(k, back, u, off);
    tj_view_index all = tj_view_slice(NONE, NONE, NONE);
    tj_tile_store(k, whole, tj_tile_view(k, s, &all, 1, NULL, 0), noff);
    tj_module *m = tt_build(k, "reshape");
    int64_t size = tt_size(r->rank, r->shape), nout = TT_PARTIAL_BLOCKS * size, s1[4], s2[4];
    tt_shape64(r->rank, r->shape, s1);
    tt_shape64(r->nrank, r->want, s2);
    s1[0] *= TT_PARTIAL_BLOCKS;
    s2[0] *= TT_PARTIAL_BLOCKS;
    tt_ty f32t = TT_SCALAR(F32);
    void *hin = tt_host_elems(f32t, nout, true), *sent = tt_host_elems(f32t, nout, false);
    void *h = tt_host_elems(f32t, nout, false);
    tj_array *a[] = {tt_array(f32, r->rank, s1, hin), tt_array(f32, r->nrank, s2, NULL),
                     tt_array(f32, r->rank, s1, NULL), tt_array(f32, r->nrank, s2, NULL)};
    tj_arg args[] = {tj_arg_array(a[0]), tj_arg_array(a[1]), tj_arg_array(a[2]),
                     tj_arg_array(a[3])};
    int rs[3], nr = tt_partial_remainders(B, rs);
    if (tt.dev)
        pb_one_worker();
    for (int ri = 0; tt.dev && ri < nr; ri++) {
        int64_t n = 2 * (int64_t)B + rs[ri];
        for (int j = 1; j < 4; j++)
            tjt_ok(tt.dev, tj_array_copy_from_host(a[j], sent, tj_array_get_bytes(a[j])));
        tt_launch(m, "reshape", n, args, 4);
        for (int j = 1; j < 4; j++) {
            tt_read(a[j], h);
            char what[96];
            snprintf(what, sizeof what, "%s, %lld threads",
                     j == 1 ? "reshape" : j == 2 ? "reshape back" : "view of reshape",
                     (long long)n);
            for (int64_t x = 0; x < nout; x++)
                tt_expect_elem(f32t, h, x,
                               tt_partial_active(B, rs[ri], x / size, x % size) ? hin : NULL, x,
                               what);
        }
    }
    for (int j = 0; j < 4; j++)
        tj_array_destroy(a[j]);
    free(hin);
    free(sent);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- build errors ---------------------------------------------------------------------------- */

/* Each row makes one bad call; tt_check_error_row asserts the status, the exact message,
 * that a later valid call returns NULL, and that the build fails. */
static const int sh_bad0[] = {4, 0}, sh_neg[] = {-3}, sh5[] = {2, 2, 2, 2, 2}, sh3[] = {3};
static const int sh34[] = {3, 4}, sh4[] = {4};

static bool
e_zeros_extent0(tj_kernel *k)
{
    return !tt_f32_tile(k, 2, sh_bad0, REG);
}

static bool
e_ones_negative(tj_kernel *k)
{
    return !tj_tile_ones(k, tjt_type(TJ_DTYPE_I32), 1, sh_neg, SHR);
}

static bool
e_load_rank5(tj_kernel *k)
{
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_F32), 4);
    return !tj_tile_load(k, a, 5, sh5, NULL, REG);
}

static bool
e_zeros_rank0(tj_kernel *k)
{
    return !tt_f32_tile(k, 0, sh3, REG);
}

static bool
e_zeros_too_big(tj_kernel *k)
{
    static const int big[] = {4096, 4097};
    return !tt_f32_tile(k, 2, big, REG);
}

static bool
e_ones_bool(tj_kernel *k)
{
    return !tj_tile_ones(k, tjt_type(TJ_DTYPE_BOOL), 1, sh3, REG);
}

static bool
e_arange_empty(tj_kernel *k)
{
    return !tj_tile_arange(k, 5, 0, 1, tjt_type(TJ_DTYPE_F32), REG);
}

static bool
e_arange_step0(tj_kernel *k)
{
    return !tj_tile_arange(k, 0, 5, 0, tjt_type(TJ_DTYPE_F32), REG);
}

static bool
e_arange_nan_stop(tj_kernel *k)
{
    return !tj_tile_arange(k, 0, NAN, 1, tjt_type(TJ_DTYPE_F32), REG);
}

static bool
e_arange_int_fraction(tj_kernel *k)
{
    return !tj_tile_arange(k, 0, 5, 0.5, tjt_type(TJ_DTYPE_I32), REG);
}

static bool
e_load_rank_mismatch(tj_kernel *k)
{
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_F32), 2);
    return !tj_tile_load(k, a, 1, sh3, NULL, REG);
}

static bool
e_store_type_mismatch(tj_kernel *k)
{
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_F32), 1);
    return !tj_tile_store(k, a, tj_tile_zeros(k, tjt_type(TJ_DTYPE_I32), 1, sh3, REG), NULL);
}

static bool
e_reshape_size(tj_kernel *k)
{
    static const int s[] = {2, 5};
    return !tj_tile_reshape(k, tt_f32_tile(k, 2, sh34, REG), 2, s);
}

static bool
e_reshape_too_big(tj_kernel *k)
{
    static const int s[] = {4096, 4096, 2};
    return !tj_tile_reshape(k, tt_f32_tile(k, 2, sh34, REG), 3, s);
}

static bool
e_reshape_two_wild(tj_kernel *k)
{
    static const int s[] = {-1, -1};
    return !tj_tile_reshape(k, tt_f32_tile(k, 2, sh34, REG), 2, s);
}

static bool
e_reshape_wild_not_dividing(tj_kernel *k)
{
    static const int s[] = {5, -1};
    return !tj_tile_reshape(k, tt_f32_tile(k, 2, sh34, REG), 2, s);
}

static bool
e_reshape_non_dense_view(tj_kernel *k)
{
    tj_view_index o[] = {tj_view_slice(NONE, NONE, NONE), tj_view_slice(NONE, NONE, 2)};
    tj_val *v = tj_tile_view(k, tt_f32_tile(k, 2, sh34, REG), o, 2, NULL, 0);
    return !tj_tile_reshape(k, v, 1, (const int[]){6});
}

static bool
e_assign_types(tj_kernel *k)
{
    return !tj_tile_assign(k, tt_f32_tile(k, 1, sh4, SHR),
                           tj_tile_zeros(k, tjt_type(TJ_DTYPE_I32), 1, sh4, REG), NULL);
}

static bool
e_assign_ranks(tj_kernel *k)
{
    return !tj_tile_assign(k, tt_f32_tile(k, 2, sh34, SHR), tt_f32_tile(k, 1, sh4, REG), NULL);
}

static bool
e_atomic_int8(tj_kernel *k)
{
    const tj_type *i8 = tjt_type(TJ_DTYPE_I8);
    tj_val *a = tj_param_array(k, "a", i8, 1);
    return !tj_tile_atomic_add(k, a, tj_tile_zeros(k, i8, 1, sh3, REG), NULL);
}

static bool
e_zeros_null_dtype(tj_kernel *k)
{
    return !tj_tile_zeros(k, NULL, 1, sh3, REG);
}

static bool
e_zeros_bad_storage(tj_kernel *k)
{
    return !tj_tile_zeros(k, tjt_type(TJ_DTYPE_F32), 1, sh3, (tj_storage)7);
}

static bool
e_arange_bool(tj_kernel *k)
{
    return !tj_tile_arange(k, 0, 3, 1, tjt_type(TJ_DTYPE_BOOL), REG);
}

static bool
e_load_not_an_array(tj_kernel *k)
{
    return !tj_tile_load(k, tj_param(k, "x", tjt_type(TJ_DTYPE_F32)), 1, sh3, NULL, REG);
}

static bool
e_store_rank_mismatch(tj_kernel *k)
{
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_F32), 1);
    return !tj_tile_store(k, a, tt_f32_tile(k, 2, sh34, REG), NULL);
}

static const tt_err_row err_rows[] = {
    {"zeros_null_dtype", 0, TJ_ERR_INVALID,
     "tile_zeros: argument 'dtype': (null) is not an element type", e_zeros_null_dtype},
    {"zeros_bad_storage", 0, TJ_ERR_INVALID, "tile_zeros: argument 'storage': 7 is not a storage",
     e_zeros_bad_storage},
    {"arange_bool", 0, TJ_ERR_INVALID,
     "tile_arange: argument 'dtype': bool is not a numeric scalar type", e_arange_bool},
    {"load_not_an_array", 0, TJ_ERR_INVALID, "tile_load: argument 'a': float32 is not an array",
     e_load_not_an_array},
    {"store_rank_mismatch", 0, TJ_ERR_INVALID,
     "tile_store: the array has 1 dimension and the tile 2; they must match",
     e_store_rank_mismatch},
    {"zeros_extent0", 0, TJ_ERR_INVALID,
     "tile_zeros: argument 'shape': extent 0 of dimension 1 is not positive", e_zeros_extent0},
    {"ones_negative", 0, TJ_ERR_INVALID,
     "tile_ones: argument 'shape': extent -3 of dimension 0 is not positive", e_ones_negative},
    {"load_rank5", 0, TJ_ERR_INVALID, "tile_load: argument 'shape': rank 5 is not in [1, 4]",
     e_load_rank5},
    {"zeros_rank0", 0, TJ_ERR_INVALID, "tile_zeros: argument 'shape': rank 0 is not in [1, 4]",
     e_zeros_rank0},
    {"zeros_too_big", 0, TJ_ERR_LIMIT,
     "tile_zeros: argument 'shape': more than 16777216 elements", e_zeros_too_big},
    {"ones_bool", 0, TJ_ERR_INVALID, "tile_ones: argument 'dtype': bool is not a numeric type",
     e_ones_bool},
    {"arange_empty", 0, TJ_ERR_INVALID, "tile_arange: arange(5, 0, 1) has 0 elements",
     e_arange_empty},
    {"arange_step0", 0, TJ_ERR_INVALID,
     "tile_arange: argument 'step': 0 is not a finite non-zero step", e_arange_step0},
    {"arange_nan_stop", 0, TJ_ERR_INVALID, "tile_arange: argument 'stop': nan is not finite",
     e_arange_nan_stop},
    {"arange_int_fraction", 0, TJ_ERR_INVALID,
     "tile_arange: start, stop and step must be integers for int32", e_arange_int_fraction},
    {"load_rank_mismatch", 0, TJ_ERR_INVALID,
     "tile_load: the array has 2 dimensions and the tile 1; they must match",
     e_load_rank_mismatch},
    {"store_type_mismatch", 0, TJ_ERR_INVALID,
     "tile_store: the array holds float32 and the tile int32", e_store_type_mismatch},
    {"reshape_size", 0, TJ_ERR_INVALID,
     "tile_reshape: a tile of 12 elements cannot take a shape of 10 elements", e_reshape_size},
    {"reshape_too_big", 0, TJ_ERR_LIMIT,
     "tile_reshape: argument 'shape': more than 16777216 elements", e_reshape_too_big},
    {"reshape_two_wild", 0, TJ_ERR_INVALID,
     "tile_reshape: argument 'shape': extent -1 of dimension 1 is not positive (one extent may "
     "be -1)", e_reshape_two_wild},
    {"reshape_wild_not_dividing", 0, TJ_ERR_INVALID,
     "tile_reshape: a tile of 12 elements cannot take a shape whose other extents make 5 "
     "elements (one extent is -1)",
     e_reshape_wild_not_dividing},
    {"reshape_non_dense_view", 0, TJ_ERR_INVALID,
     "tile_reshape: argument 't': the tile is a non-dense view; only dense tiles can be "
     "reshaped", e_reshape_non_dense_view},
    {"assign_types", 0, TJ_ERR_INVALID, "tile_assign: 'dst' holds float32 and 'src' int32",
     e_assign_types},
    {"assign_ranks", 0, TJ_ERR_INVALID,
     "tile_assign: 'dst' has rank 2 and 'src' 1; they must match", e_assign_ranks},
    {"atomic_int8", 0, TJ_ERR_INVALID, "tile_atomic_add: tiles of int8 cannot be added atomically",
     e_atomic_int8},
};

START_TEST(test_memory_builtins_report_build_errors)
{
    tt_check_error_row(&err_rows[_i]);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_load_store_windows_outside_the_array_load_zero_and_drop_stores,
                TT_NELEMS(ls_rows));
    tt_add_rows(tc, kind, test_loaded_tiles_keep_their_values_when_the_array_is_written,
                TT_NELEMS(bw_rows));
    tt_add_rows(tc, kind,
                test_loaded_tiles_of_rank_2_and_3_keep_their_values_when_the_array_is_written,
                TT_NELEMS(bn_rows));
    tt_add_rows(tc, kind, test_computed_tiles_stored_whole_hold_the_values_read_before_the_store,
                TT_NELEMS(ds_rows));
    tt_add_rows(tc, kind, test_fill_builtins_match_reference, TT_NELEMS(fill_rows));
    tt_add_rows(tc, kind, test_reshape_keeps_row_major_order, TT_NELEMS(rs_rows));
    tt_add_rows(tc, kind, test_assign_copies_src_first_and_drops_what_falls_outside,
                TT_NELEMS(as_rows));
    tt_add_rows(tc, kind, test_atomic_add_sums_many_blocks_and_returns_old_values,
                TT_NELEMS(at_rows));
    tt_add_rows(tc, kind, test_fill_is_dropped_only_when_an_assign_overwrites_it_unread, FD_NROWS);
    tt_add_rows(tc, kind, test_reads_of_a_lanes_own_writes_need_no_barrier, OR_NROWS);
    tt_add_rows(tc, kind, test_tiles_of_rows_apart_computed_and_stored_hold_the_values_read,
                TT_NELEMS(dr_rows));
    if (kind == TT_CPU1) {
        tt_add_rows(tc, kind,
                    test_width1_stores_over_other_elements_of_what_was_read_hold_the_values_read,
                    TT_NELEMS(ds_overlap_rows));
        tt_add_rows(tc, kind,
                    test_width1_tiles_of_rows_stored_over_what_was_read_hold_the_values_read,
                    TT_NELEMS(dr_overlap_rows));
    }
    if (kind != TT_CPU1) { /* width-1 blocks are never partial; B = 1 leaves no division */
        tt_add_rows(tc, kind, test_lane_elements_split_into_coordinates_without_division,
                    TT_NELEMS(oc_rows));
        tt_add_rows(tc, kind, test_fills_in_partial_blocks_make_only_the_active_lanes_elements,
                    TT_NELEMS(pb_fill_rows));
        tt_add_rows(tc, kind, test_reshape_in_partial_blocks_keeps_active_lanes_elements_row_major,
                    TT_NELEMS(rs_rows));
    }
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("tile_memory");
    TCase *errors = tt_errors_tcase();
    tcase_add_loop_test(errors, test_memory_builtins_report_build_errors, 0, TT_NELEMS(err_rows));
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
