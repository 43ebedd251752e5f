/* tj-test: CUDA */
/*
 * tests/check_tile_view.c: tile_view (SPEC 4) in every form against the reference of
 * tj_view_ref.h (Python's slicing rules written in C), which a first test checks against
 * CPython's own answers; and the seed of seeds/tile_view.txt (replace_rows) in every mode.
 *
 * The view table is generated (vt_generate): per parent tile (1-D to 4-D, register or
 * shared, 4- and 8-byte and vec3 elements) every slice of vt_slices on the first and the
 * last dimension, integers of form 1 (constant and runtime), then pseudo-random mixes of
 * slices, constant and runtime integers, windows with a shape, and chains of two views.
 * Views whose reference is empty or of rank 0 are left to the error tests. Each group of
 * up to VT_GROUP views of one parent is one kernel that stores every view (dense or not)
 * into its own array; it runs once per set of runtime offsets in vt_runtime. Last, views
 * written through (tile_assign) and stored in partial blocks of tj_launch (SPEC 1).
 */
#include "tj_view_ref.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED
#define N TJ_SLICE_NONE

/* ---- the reference against Python ------------------------------------------------------------ */

/* Python's answers, printed by CPython for these slices. */
START_TEST(test_reference_slices_match_python)
{
    static const struct {
        int64_t len, start, stop, step;
        int n;
        int64_t want[8];
    } cases[] = {
        {7, 100, N, -1, 7, {6, 5, 4, 3, 2, 1, 0}},   /* list(range(7))[100::-1] */
        {7, 7, -100, -1, 7, {6, 5, 4, 3, 2, 1, 0}},  /* [7:-100:-1] */
        {7, N, N, -2, 4, {6, 4, 2, 0}},              /* [::-2] */
        {7, -3, N, N, 3, {4, 5, 6}},                 /* [-3:] */
        {7, 2, 5, N, 3, {2, 3, 4}},
        {7, -100, 100, 3, 3, {0, 3, 6}},
        {7, 5, 1, -2, 2, {5, 3}},
        {7, 3, 3, N, 0, {0}},
        {7, N, N, 10, 1, {0}},
        {7, -1, -8, -3, 3, {6, 3, 0}},
        {7, N, -2, N, 5, {0, 1, 2, 3, 4}},
        {7, 1, 4, -1, 0, {0}},
        {5, -2, N, -1, 4, {3, 2, 1, 0}},
        {1, N, N, -1, 1, {0}},
        {6, 4, -5, -2, 2, {4, 2}},
        {7, N, N, INT64_C(1) << 62, 1, {0}},          /* [::2**62] */
        {7, 3, N, -(INT64_C(1) << 62), 1, {3}},       /* [3::-2**62] */
    };
    for (int c = 0; c < TT_NELEMS(cases); c++) {
        int64_t idx[16];
        int n = py_slice(cases[c].len, cases[c].start, cases[c].stop, cases[c].step, idx, 16);
        ck_assert_msg(n == cases[c].n, "case %d: %d indices, Python gives %d", c, n, cases[c].n);
        for (int i = 0; i < n; i++)
            ck_assert_msg(idx[i] == cases[c].want[i], "case %d: index %d is %lld, Python gives "
                          "%lld", c, i, (long long)idx[i], (long long)cases[c].want[i]);
    }
}
END_TEST


/* ---- the generated view table ---------------------------------------------------------------- */

typedef struct vparent {
    tt_ty ty;
    int rank;
    int shape[4];
    tj_storage storage;
    int nrandom, nwindows, nchains;
} vparent;

static const vparent vparents[] = {
    {TT_SCALAR(F32), 1, {7}, REG, 6, 4, 4},
    {TT_SCALAR(I32), 1, {10}, SHR, 6, 4, 4},
    {TT_SCALAR(F32), 2, {5, 6}, REG, 24, 6, 8},
    {TT_SCALAR(F64), 2, {6, 5}, SHR, 16, 4, 6},
    {TT_SCALAR(F32), 3, {3, 4, 5}, SHR, 24, 6, 8},
    {TT_SCALAR(I32), 3, {4, 3, 6}, REG, 16, 4, 6},
    {TT_SCALAR(F32), 4, {2, 3, 2, 3}, REG, 12, 4, 4},
    {TT_VEC(F32, 3), 2, {4, 7}, SHR, 8, 2, 2},
};

/* Slices every dimension tries: those of the seed and the task, and Python's corners. */
static const ventry vt_slices[] = {
    {'s', N, N, N},    {'s', 2, N, N},     {'s', -3, N, N},   {'s', N, -2, N},
    {'s', 1, 5, 2},    {'s', 100, N, -1},  {'s', 7, -100, -1}, {'s', N, N, -2},
    {'s', N, N, -1},   {'s', 5, 1, -2},    {'s', -1, -8, -3}, {'s', -100, 100, 3},
    {'s', 3, 4, N},    {'s', N, N, 10},    {'s', -2, N, -1},  {'s', N, 3, N},
    {'s', 1, -1, N},   {'s', N, N, 2},     {'s', 4, -5, -2},  {'s', N, 1, -1},
    {'s', N, N, INT64_C(1) << 62},         {'s', 3, N, -(INT64_C(1) << 62)}, /* t[::2**62] */
};

typedef struct vcase {
    int parent;
    int nchain;            /* 1 or 2 views, the second of the first */
    vspec s[2];
} vcase;

enum { VT_MAX = 512, VT_GROUP = 12, VT_MAXGROUPS = 64 };

static vcase vt_cases[VT_MAX];
static int vt_ncases;
static int vt_group_start[VT_MAXGROUPS + 1], vt_ngroups;

static uint32_t vt_seed = 12345;

static int
rnd(int n)
{
    vt_seed = vt_seed * 1103515245u + 12345u;
    return (int)((vt_seed >> 16) % (uint32_t)n);
}

/* A random entry for a dimension of extent 'ext'. */
static ventry
rnd_entry(int ext)
{
    int k = rnd(10);
    if (k < 6)
        return vt_slices[rnd(TT_NELEMS(vt_slices))];
    if (k < 8)
        return (ventry){'i', rnd(ext), 0, 0};
    return (ventry){'r', rnd(VT_NRUNTIME), rnd(ext), ext};
}

static vspec
rnd_spec(const rview *p)
{
    vspec s = {.n = 1 + rnd(p->rank)};
    for (int j = 0; j < s.n; j++)
        s.e[j] = rnd_entry(p->shape[j]);
    return s;
}

static vspec
rnd_window(const rview *p)
{
    vspec s = {.n = rnd(p->rank + 1), .nshape = p->rank};
    for (int d = 0; d < p->rank; d++) {
        s.shape[d] = 1 + rnd(p->shape[d]);
        int lim = p->shape[d] - s.shape[d] + 1;
        if (d < s.n)
            s.e[d] = rnd(3) == 0 ? (ventry){'r', rnd(VT_NRUNTIME), rnd(lim), lim}
                                 : (ventry){'i', rnd(lim), 0, 0};
    }
    return s;
}

/* The runtime parameters (r0, r1) each view kernel is launched with. */
static const int vt_runtime[][VT_NRUNTIME] = {{0, 0}, {1, 2}, {5, 3}};

/* Valid for every runtime value (each runtime entry is taken modulo its limit). */
static bool
vt_valid(const vcase *c)
{
    const vparent *p = &vparents[c->parent];
    for (int i = 0; i < TT_NELEMS(vt_runtime); i++) {
        rview v = dense_view(p->rank, p->shape), w;
        for (int j = 0; j < c->nchain; j++) {
            if (!ref_view(&v, &c->s[j], vt_runtime[i], &w))
                return false;
            v = w;
        }
    }
    return true;
}

static void
vt_add(vcase c)
{
    if (vt_ncases < VT_MAX && vt_valid(&c))
        vt_cases[vt_ncases++] = c;
}

static void
vt_generate(void)
{
    for (int pi = 0; pi < TT_NELEMS(vparents); pi++) {
        const vparent *p = &vparents[pi];
        rview pv = dense_view(p->rank, p->shape);
        int first = vt_ncases;
        vt_add((vcase){pi, 1, {{0}}}); /* no entries: the whole tile */
        for (int i = 0; i < TT_NELEMS(vt_slices); i++) { /* each slice on the first and last dim */
            vcase c = {pi, 1, {{.n = 1, .e = {vt_slices[i]}}}};
            vt_add(c);
            if (p->rank > 1) {
                c.s[0].n = p->rank;
                for (int d = 0; d < p->rank; d++)
                    c.s[0].e[d] = d == p->rank - 1 ? vt_slices[i] : (ventry){'s', N, N, N};
                vt_add(c);
            }
        }
        for (int i = 0; i < p->rank; i++) { /* integers of form 1 */
            vcase c = {pi, 1, {{.n = i + 1}}};
            for (int d = 0; d <= i; d++)
                c.s[0].e[d] = d == i ? (ventry){'r', 0, 1, p->shape[d]}
                                     : (ventry){'i', p->shape[d] - 1, 0, 0};
            vt_add(c);
        }
        for (int i = 0; i < 4 * p->nrandom && vt_ncases - first < 40 + p->nrandom; i++)
            vt_add((vcase){pi, 1, {rnd_spec(&pv)}});
        for (int i = 0; i < p->nwindows; i++)
            vt_add((vcase){pi, 1, {rnd_window(&pv)}});
        for (int i = 0, made = 0; i < 20 * p->nchains && made < p->nchains; i++) {
            vcase c = {pi, 2, {rnd(2) ? rnd_window(&pv) : rnd_spec(&pv)}};
            rview v;
            static const int r0[VT_NRUNTIME] = {0, 0};
            if (!ref_view(&pv, &c.s[0], r0, &v))
                continue;
            c.s[1] = rnd(3) == 0 ? rnd_window(&v) : rnd_spec(&v);
            int before = vt_ncases;
            vt_add(c);
            made += vt_ncases > before;
        }
        for (int i = first; i < vt_ncases; i += VT_GROUP) {
            if (vt_ngroups < VT_MAXGROUPS)
                vt_group_start[vt_ngroups++] = i;
        }
    }
    vt_group_start[vt_ngroups] = vt_ncases;
}

START_TEST(test_view_table_matches_python_slicing)
{
    int gi = tt_begin(_i);
    int lo = vt_group_start[gi], hi = vt_group_start[gi + 1];
    if (hi - lo > VT_GROUP) /* a parent's last group may be cut short by the next parent */
        hi = lo + VT_GROUP;
    const vparent *p = &vparents[vt_cases[lo].parent];
    const tj_type *et = tt_type(p->ty), *i32 = tjt_type(TJ_DTYPE_I32);
    rview pv = dense_view(p->rank, p->shape), want[VT_GROUP];
    tj_kernel *k = tt_kernel("views");
    tj_val *in = tj_param_array(k, "in", et, p->rank), *out[VT_GROUP], *rp[VT_NRUNTIME];
    for (int j = lo; j < hi; j++) {
        ck_assert_int_eq(vt_cases[j].parent, vt_cases[lo].parent);
        ref_view(&pv, &vt_cases[j].s[0], vt_runtime[0], &want[j - lo]);
        if (vt_cases[j].nchain == 2) {
            rview v = want[j - lo];
            ref_view(&v, &vt_cases[j].s[1], vt_runtime[0], &want[j - lo]);
        }
        char name[16];
        snprintf(name, sizeof name, "out%d", j - lo);
        out[j - lo] = tj_param_array(k, name, et, want[j - lo].rank);
    }
    for (int j = 0; j < VT_NRUNTIME; j++)
        rp[j] = tj_param(k, j ? "r1" : "r0", i32);
    tj_val *t = tj_tile_load(k, in, p->rank, p->shape, NULL, p->storage);
    for (int j = lo; j < hi; j++) {
        const vcase *c = &vt_cases[j];
        char d0[128], d1[128] = "";
        describe_spec(&c->s[0], d0, sizeof d0);
        if (c->nchain == 2)
            describe_spec(&c->s[1], d1, sizeof d1);
        tj_val *v = build_view(k, t, &c->s[0], rp);
        if (c->nchain == 2)
            v = build_view(k, v, &c->s[1], rp);
        ck_assert_msg(v != NULL, "view %s%s%s of a rank-%d tile: %s", d0,
                      c->nchain == 2 ? " then " : "", d1, p->rank, tj_kernel_error(k));
        const rview *w = &want[j - lo];
        ck_assert_int_eq(tj_tile_get_storage(v), SHR);
        ck_assert_msg(tj_tile_get_rank(v) == w->rank, "view %s%s: rank %d, expected %d", d0, d1,
                      tj_tile_get_rank(v), w->rank);
        for (int d = 0; d < w->rank; d++)
            ck_assert_msg(tj_tile_get_shape(v, d) == w->shape[d], "view %s %s: dimension %d is %d, "
                          "expected %d", d0, d1, d, tj_tile_get_shape(v, d), w->shape[d]);
        tj_tile_store(k, out[j - lo], v, NULL);
    }
    tj_module *m = tt_build(k, "views");
    tt_ptx_has(m, "ld.shared");
    int nc = tt_ncomp(p->ty);
    int64_t np = tt_size(p->rank, p->shape), s_in[4];
    tt_shape64(p->rank, p->shape, s_in);
    void *hin = tt_alloc((size_t)(np * nc), p->ty.dt), *h = tt_alloc((size_t)(np * nc), p->ty.dt);
    for (int64_t e = 0; e < np * nc; e++)
        tt_put(hin, p->ty.dt, (size_t)e, (double)(e + 1));
    tj_array *ain = tt_array(et, p->rank, s_in, hin), *aout[VT_GROUP];
    tj_arg args[1 + VT_GROUP + VT_NRUNTIME] = {tj_arg_array(ain)};
    for (int j = 0; j < hi - lo; j++) {
        int64_t s[4];
        tt_shape64(want[j].rank, want[j].shape, s);
        aout[j] = tt_array(et, want[j].rank, s, NULL);
        args[1 + j] = tj_arg_array(aout[j]);
    }
    for (int ri = 0; tt.dev && ri < TT_NELEMS(vt_runtime); ri++) {
        for (int j = 0; j < VT_NRUNTIME; j++)
            args[1 + (hi - lo) + j] = tj_arg_int(vt_runtime[ri][j]);
        tt_launch_tiled(m, "views", 1, args, (size_t)(1 + (hi - lo) + VT_NRUNTIME));
        for (int j = lo; j < hi; j++) {
            const vcase *c = &vt_cases[j];
            rview w, v;
            ref_view(&pv, &c->s[0], vt_runtime[ri], &w);
            if (c->nchain == 2) {
                v = w;
                ref_view(&v, &c->s[1], vt_runtime[ri], &w);
            }
            tt_read(aout[j - lo], h);
            int64_t n = tt_size(w.rank, w.shape);
            for (int64_t e = 0; e < n; e++) {
                int64_t at = view_elem(&w, e);
                for (int cc = 0; cc < nc; cc++) {
                    double got = tt_get(h, p->ty.dt, (size_t)(e * nc + cc));
                    double exp = (double)(at * nc + cc + 1);
                    if (got != exp) {
                        char d0[128], d1[128] = "";
                        describe_spec(&c->s[0], d0, sizeof d0);
                        if (c->nchain == 2)
                            describe_spec(&c->s[1], d1, sizeof d1);
                        ck_abort_msg("view %s%s%s of %s (%s, r = %d %d): element %lld component "
                                     "%d is %g, expected %g (parent element %lld)", d0,
                                     c->nchain == 2 ? " then " : "", d1, tj_type_get_name(et),
                                     tt_where(), vt_runtime[ri][0], vt_runtime[ri][1],
                                     (long long)e, cc, got, exp, (long long)at);
                    }
                }
            }
        }
    }
    for (int j = 0; j < hi - lo; j++)
        tj_array_destroy(aout[j]);
    tj_array_destroy(ain);
    free(hin);
    free(h);
    tj_module_destroy(m);
}
END_TEST

/* ---- the seed of seeds/tile_view.txt --------------------------------------------------------- */

/* replace_rows, as in examples/replace_rows.c: the same 4x4 result in every mode. */
START_TEST(test_seed_replace_rows_gives_the_seed_output)
{
    tt_begin(_i);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel *k = tt_kernel("replace_rows");
    tj_val *a = tj_param_array(k, "a", f32, 2), *out = tj_param_array(k, "out", f32, 2);
    int shape[2] = {4, 4}, rows_shape[2] = {2, 4};
    tj_val *t = tj_tile_load(k, a, 2, shape, NULL, REG);
    tj_view_index offset[2] = {tj_view_at(tt_i32(k, 2)), tj_view_at(tt_i32(k, 0))};
    tj_val *rows = tj_tile_view(k, t, offset, 2, rows_shape, 2);
    tj_val *values = tj_tile_arange(k, 100.0, 108.0, 1.0, f32, REG);
    tj_tile_assign(k, rows, tj_tile_reshape(k, values, 2, rows_shape), NULL);
    tj_tile_store(k, out, t, NULL);
    tj_module *m = tt_build(k, "replace_rows");
    tt_ptx_has(m, "bar.sync");
    float h[16];
    for (int j = 0; j < 16; j++)
        h[j] = (float)j;
    int64_t dims[2] = {4, 4};
    tj_array *aa = tt_array(f32, 2, dims, h), *aout = tt_array(f32, 2, dims, NULL);
    tj_arg args[] = {tj_arg_array(aa), tj_arg_array(aout)};
    if (tt_launch_tiled(m, "replace_rows", 1, args, 2)) {
        static const float want[16] = {0, 1, 2, 3, 4, 5, 6, 7,
                                       100, 101, 102, 103, 104, 105, 106, 107};
        tt_read(aout, h);
        for (int j = 0; j < 16; j++)
            ck_assert_msg(h[j] == want[j], "out[%d][%d] = %g, expected %g (%s)", j / 4, j % 4,
                          h[j], want[j], tt_where());
    }
    tj_array_destroy(aa);
    tj_array_destroy(aout);
    tj_module_destroy(m);
}
END_TEST

/* ---- views in partial blocks ----------------------------------------------------------------- */

/* tj_launch over n = 2 B + r threads, 0 < r < B (SPEC 1): blocks 0 and 1 are full, block 2 has
 * r active lanes. Each block loads its parent tile t (at row block * shape[0] of 'in'), takes a
 * view v of it (or a view of a view), assigns a tile loaded from 'src' into the view, and
 * stores t and v. Every loop over a tile gives element e to lane e % B (SPEC 3), and in a
 * partial block the elements of inactive lanes are never loaded, written or stored
 * (docs/builtins.md). So, in block b, with active(e) = b < 2 || e % B < r:
 *   v element j: src[j] if active(j), else the output's sentinel;
 *   t element e: the sentinel unless active(e); else src[j] if v's element j is e and
 *                active(j), else in[e] (the load).
 * Every expected value is defined: no lane reads a shared element that no active lane wrote.
 * (A view that is only read would, in a partial block, read parent elements of inactive
 * lanes, which nobody loaded.) The CPU runs one worker thread, so that the partial block gets
 * an arena the full blocks have used. */

typedef struct pv_row {
    const char *name;
    tt_ty ty;
    int rank;
    int shape[4];
    tj_storage storage;
    int nchain;            /* 1 or 2 views, the second of the first */
    vspec s[2];
} pv_row;

static const int pv_runtime[VT_NRUNTIME] = {3, 1};

static const pv_row pv_rows[] = {
    {"a window", TT_SCALAR(F32), 2, {6, 7}, SHR, 1, {{2, {VR_I(1), VR_I(2)}, 2, {3, 4}}}},
    {"the rows reversed", TT_SCALAR(I32), 2, {5, 40}, REG, 1, {{1, {VR_S(N, N, -1)}, 0, {0}}}},
    {"every other row, every third column from 3", TT_SCALAR(F32), 2, {9, 40}, SHR, 1,
     {{2, {VR_S(N, N, 2), VR_S(3, N, 3)}, 0, {0}}}},
    {"a runtime row", TT_SCALAR(F64), 2, {9, 40}, SHR, 1, {{1, {VR_R(0, 1, 9)}, 0, {0}}}},
    {"a view of a view", TT_SCALAR(I32), 3, {4, 3, 5}, REG, 2,
     {{1, {VR_S(1, N, N)}, 0, {0}}, {3, {VR_S(N, N, -1), VR_I(1), VR_S(N, N, 2)}, 0, {0}}}},
    {"a column of vec3", TT_VEC(F32, 3), 2, {4, 7}, SHR, 1,
     {{2, {VR_S(N, N, N), VR_I(2)}, 0, {0}}}},
    {"a 4-D window at a runtime offset", TT_SCALAR(F32), 4, {2, 3, 4, 5}, SHR, 1,
     {{4, {VR_I(1), VR_R(1, 0, 2), VR_I(0), VR_I(1)}, 4, {1, 2, 3, 4}}}},
    {"the odd elements backwards", TT_SCALAR(F32), 1, {300}, REG, 1,
     {{1, {VR_S(-1, N, -2)}, 0, {0}}}},
};

/* The offset (block * shape0, 0, ...) of this thread's block (tj_launch: tid() is the
 * linear thread index). */
static void
pb_offset(tj_kernel *k, tj_val *blk, int rank, int shape0, tj_val **off)
{
    for (int d = 0; d < rank; d++)
        off[d] = d ? tt_i32(k, 0) : tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, shape0));
}

START_TEST(test_views_written_in_partial_blocks_keep_the_active_lanes_elements)
{
    const pv_row *r = &pv_rows[tt_begin(_i)];
    const tj_type *et = tt_type(r->ty), *i32 = tjt_type(TJ_DTYPE_I32);
    int B = tt_B(), nc = tt_ncomp(r->ty);
    rview pv = dense_view(r->rank, r->shape), w;
    chain_ref(&pv, r->s, r->nchain, pv_runtime, &w);
    tj_kernel *k = tt_kernel("views");
    tj_val *in = tj_param_array(k, "in", et, r->rank), *src = tj_param_array(k, "src", et, w.rank);
    tj_val *outt = tj_param_array(k, "outt", et, r->rank);
    tj_val *outv = tj_param_array(k, "outv", et, w.rank);
    tj_val *rp[VT_NRUNTIME] = {tj_param(k, "r0", i32), tj_param(k, "r1", i32)}, *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *blk = tj_binary(k, TJ_BIN_DIV, i, tt_i32(k, B)), *off[4], *voff[4];
    pb_offset(k, blk, r->rank, r->shape[0], off);
    pb_offset(k, blk, w.rank, w.shape[0], voff);
    tj_val *t = tj_tile_load(k, in, r->rank, r->shape, off, r->storage);
    tj_val *v = build_view(k, t, &r->s[0], rp);
    if (r->nchain == 2)
        v = build_view(k, v, &r->s[1], rp);
    ck_assert_msg(v != NULL, "%s: %s", r->name, tj_kernel_error(k));
    ck_assert_int_eq(tj_tile_get_rank(v), w.rank);
    for (int d = 0; d < w.rank; d++)
        ck_assert_int_eq(tj_tile_get_shape(v, d), w.shape[d]);
    ck_assert(tj_tile_assign(k, v, tj_tile_load(k, src, w.rank, w.shape, voff, REG), NULL));
    tj_tile_store(k, outt, t, off);
    tj_tile_store(k, outv, v, voff);
    tj_module *m = tt_build(k, "views");
    int64_t tsize = tt_size(r->rank, r->shape), vsize = tt_size(w.rank, w.shape);
    int64_t nt = TT_PARTIAL_BLOCKS * tsize, nv = TT_PARTIAL_BLOCKS * vsize, s_t[4], s_v[4];
    tt_shape64(r->rank, r->shape, s_t);
    tt_shape64(w.rank, w.shape, s_v);
    s_t[0] *= TT_PARTIAL_BLOCKS;
    s_v[0] *= TT_PARTIAL_BLOCKS;
    /* which element of the view each parent element is (-1: none) */
    int64_t *of_view = malloc((size_t)tsize * sizeof *of_view);
    ck_assert_ptr_nonnull(of_view);
    for (int64_t e = 0; e < tsize; e++)
        of_view[e] = -1;
    for (int64_t j = 0; j < vsize; j++)
        of_view[view_elem(&w, j)] = j;
    void *hin = tt_host_elems(r->ty, nt, true), *hsrc = tt_alloc((size_t)(nv * nc), r->ty.dt);
    for (int64_t x = 0; x < nv * nc; x++)
        tt_put(hsrc, r->ty.dt, (size_t)x, (double)(1000 + x));
    void *st = tt_host_elems(r->ty, nt, false), *sv = tt_host_elems(r->ty, nv, false);
    void *ht = tt_host_elems(r->ty, nt, false), *hv = tt_host_elems(r->ty, nv, false);
    tj_array *ain = tt_array(et, r->rank, s_t, hin), *asrc = tt_array(et, w.rank, s_v, hsrc);
    tj_array *aoutt = tt_array(et, r->rank, s_t, NULL), *aoutv = tt_array(et, w.rank, s_v, NULL);
    tj_arg args[] = {tj_arg_array(ain), tj_arg_array(asrc), tj_arg_array(aoutt),
                     tj_arg_array(aoutv), tj_arg_int(pv_runtime[0]), tj_arg_int(pv_runtime[1])};
    int rs[3], nr = tt_partial_remainders(B, rs);
    if (tt.kind == TT_COOP)
        tjt_ok(tt.dev, tj_device_set_cpu_threads(tt.dev, 1));
    for (int ri = 0; tt.dev && ri < nr; ri++) {
        int64_t n = 2 * (int64_t)B + rs[ri];
        tjt_ok(tt.dev, tj_array_copy_from_host(aoutt, st, tj_array_get_bytes(aoutt)));
        tjt_ok(tt.dev, tj_array_copy_from_host(aoutv, sv, tj_array_get_bytes(aoutv)));
        tt_launch(m, "views", n, args, 6);
        tt_read(aoutt, ht);
        tt_read(aoutv, hv);
        char what[128];
        snprintf(what, sizeof what, "%s, the view, %lld threads", r->name, (long long)n);
        for (int64_t x = 0; x < nv; x++)
            tt_expect_elem(r->ty, hv, x,
                           tt_partial_active(B, rs[ri], x / vsize, x % vsize) ? hsrc : NULL, x,
                           what);
        snprintf(what, sizeof what, "%s, the parent, %lld threads", r->name, (long long)n);
        for (int64_t x = 0; x < nt; x++) {
            int64_t b = x / tsize, j = of_view[x % tsize];
            if (!tt_partial_active(B, rs[ri], b, x % tsize))
                tt_expect_elem(r->ty, ht, x, NULL, 0, what);
            else if (j >= 0 && tt_partial_active(B, rs[ri], b, j))
                tt_expect_elem(r->ty, ht, x, hsrc, b * vsize + j, what);
            else
                tt_expect_elem(r->ty, ht, x, hin, x, what);
        }
    }
    tj_array_destroy(ain);
    tj_array_destroy(asrc);
    tj_array_destroy(aoutt);
    tj_array_destroy(aoutv);
    free(of_view);
    free(hin);
    free(hsrc);
    free(st);
    free(sv);
    free(ht);
    free(hv);
    tj_module_destroy(m);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_view_table_matches_python_slicing, vt_ngroups);
    tt_add_rows(tc, kind, test_seed_replace_rows_gives_the_seed_output, 1);
    if (kind != TT_CPU1) /* width-1 blocks are never partial */
        tt_add_rows(tc, kind, test_views_written_in_partial_blocks_keep_the_active_lanes_elements,
                    TT_NELEMS(pv_rows));
    return tc;
}

int
main(int argc, char **argv)
{
    vt_generate();
    Suite *s = suite_create("tile_view");
    TCase *ref = tcase_create("reference");
    tcase_add_test(ref, test_reference_slices_match_python);
    suite_add_tcase(s, ref);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
