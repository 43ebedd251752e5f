/* tj-test: CUDA */
/*
 * tests/check_lang_tiles.c: every tile builtin reached from kernel source, on the CPU in
 * cooperative mode (real lanes) against C references; the six seed kernels written as
 * source give the same results as the builder-built kernels of examples/ for several block
 * widths; the seeds' PTX passes ptxas (ptx) and they give the seed outputs on a GPU (cuda).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_lang_test.h"

enum { TIMEOUT_S = 300 };

/* Builds kernel "k" of 'src' for cooperative CPU blocks of 'B' lanes, launches 'nblocks'
 * tiled blocks with a float input 'in' (nin) and a float output (nout), and reads it. */
static void
run_tiled_f32(const char *src, uint32_t B, int nblocks, const float *in, int nin, int nout,
              float *out)
{
    tj_module *m = tjl_build(src, "k", tjl_cpu(B));
    tj_array *a = tjl_array1(TJ_DTYPE_F32, nin, in);
    tj_array *o = tjl_array1(TJ_DTYPE_F32, nout, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(o)};
    tjl_launch(m, "k", nblocks, true, B, args, 2);
    tjl_read(o, out);
}

static void
run_tiled_i32(const char *src, uint32_t B, int nblocks, const int32_t *in, int nin, int nout,
              int32_t *out)
{
    tj_module *m = tjl_build(src, "k", tjl_cpu(B));
    tj_array *a = tjl_array1(TJ_DTYPE_I32, nin, in);
    tj_array *o = tjl_array1(TJ_DTYPE_I32, nout, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(o)};
    tjl_launch(m, "k", nblocks, true, B, args, 2);
    tjl_read(o, out);
}

START_TEST(test_tile_zeros_ones_arange_and_storage)
{
    const char *src2 = "@wp.kernel\n"
                       "def k(x: wp.array[float], out: wp.array[float]):\n"
                       "    z = wp.tile_zeros(shape=(2, 2), dtype=float, storage=\"shared\")\n"
                       "    o = wp.tile_ones(shape=4, dtype=wp.float32)\n"
                       "    r = wp.tile_arange(3, dtype=float)\n"
                       "    s = wp.tile_arange(1.0, 2.0, 0.25)\n"
                       "    n = wp.tile_arange(10, 4, -2)\n"
                       "    wp.tile_store(out, wp.tile_reshape(z, shape=4) + o, offset=0)\n"
                       "    wp.tile_store(out, r, offset=4)\n"
                       "    wp.tile_store(out, s, offset=7)\n"
                       "    out[11] = float(n[0] + n[1] * 100 + n[2] * 10000)\n";
    float out[16];
    run_tiled_f32(src2, 4, 1, NULL, 1, 16, out);
    static const float want[12] = {1, 1, 1, 1, 0, 1, 2, 1.0f, 1.25f, 1.5f, 1.75f,
                                   10 + 800 + 60000};
    for (int i = 0; i < 12; i++)
        ck_assert_msg(out[i] == want[i], "out[%d] = %g, want %g", i, out[i], want[i]);
}
END_TEST

START_TEST(test_tile_load_and_store_with_runtime_offsets)
{
    /* each block copies a 2x3 window at (block, 1) of a 4x5 array, doubled, to its row */
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array2d[float], out: wp.array2d[float]):\n"
                      "    b, lane = wp.tid()\n"
                      "    t = wp.tile_load(x, shape=(2, 3), offset=(b, 1), storage=\"shared\")\n"
                      "    wp.tile_store(out, t * 2.0, offset=(2 * b, 0))\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(4));
    float xv[20], ov[8 * 3];
    for (int i = 0; i < 20; i++)
        xv[i] = (float)i;
    int64_t sx[2] = {4, 5}, so[2] = {8, 3}, nb = 4;
    tj_array *x = tjl_array(TJ_DTYPE_F32, 2, sx, xv), *o = tjl_array(TJ_DTYPE_F32, 2, so, NULL);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(o)};
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "k", 1, &nb, 4, args, 2));
    tjl_read(o, ov);
    for (int b = 0; b < 4; b++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 3; c++) {
                int row = b + r;
                float want = row < 4 ? 2.0f * (float)(row * 5 + 1 + c) : 0.0f; /* zero outside */
                ck_assert_float_eq(ov[(2 * b + r) * 3 + c], want);
            }
}
END_TEST

START_TEST(test_tile_subscripts_extract_views_and_wrapping)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array2d[float], out: wp.array[float]):\n"
                      "    t = wp.tile_load(x, shape=(3, 4))\n"
                      "    out[0] = t[1, 2]\n"                       /* extract */
                      "    out[1] = t[-1, -1]\n"                     /* wraps once */
                      "    out[2] = wp.tile_extract(t, 2, 0)\n"
                      "    row = t[1]\n"                             /* a view of row 1 */
                      "    out[3] = row[3]\n"
                      "    rev = t[0:2, ::-1]\n"                     /* slices keep dims */
                      "    out[4] = rev[1, 0]\n"
                      "    out[5] = float(rev.shape[0] * 10 + rev.shape[1])\n"
                      "    col = t[:, 2]\n"
                      "    out[6] = col[2]\n"
                      "    j = int(x[0, 1])\n"                       /* a runtime index: 1 */
                      "    out[7] = t[j, j + 1]\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(4));
    float xv[12], ov[8];
    for (int i = 0; i < 12; i++)
        xv[i] = (float)i;
    int64_t sx[2] = {3, 4}, one = 1;
    tj_array *x = tjl_array(TJ_DTYPE_F32, 2, sx, xv), *o = tjl_array1(TJ_DTYPE_F32, 8, NULL);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(o)};
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "k", 1, &one, 4, args, 2));
    tjl_read(o, ov);
    static const float want[8] = {6, 11, 8, 7, 7, 24, 10, 6};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(ov[i] == want[i], "out[%d] = %g, want %g", i, ov[i], want[i]);
}
END_TEST

START_TEST(test_tile_view_builtin_forms_and_assign)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array2d[float], out: wp.array2d[float]):\n"
                      "    t = wp.tile_load(x, shape=(4, 4))\n"
                      "    w = wp.tile_view(t, offset=(1, 1), shape=(2, 2))\n"
                      "    wp.tile_assign(w, wp.tile_ones(shape=(2, 2), dtype=float) * -1.0)\n"
                      "    r = wp.tile_view(t, offset=3)\n"                 /* row 3 */
                      "    wp.tile_assign(r, wp.tile_zeros(shape=2, dtype=float), offset=2)\n"
                      "    c = wp.tile_view(t, offset=(slice(None), 0))\n"  /* column 0 */
                      "    wp.tile_assign(c, wp.tile_arange(4, dtype=float) + 50.0)\n"
                      "    wp.tile_store(out, t)\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(8));
    float xv[16], ov[16];
    for (int i = 0; i < 16; i++)
        xv[i] = (float)i;
    int64_t s[2] = {4, 4}, one = 1;
    tj_array *x = tjl_array(TJ_DTYPE_F32, 2, s, xv), *o = tjl_array(TJ_DTYPE_F32, 2, s, NULL);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(o)};
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "k", 1, &one, 8, args, 2));
    tjl_read(o, ov);
    float want[16];
    memcpy(want, xv, sizeof want);
    want[5] = want[6] = want[9] = want[10] = -1.0f;
    want[14] = want[15] = 0.0f;
    for (int r = 0; r < 4; r++)
        want[r * 4] = 50.0f + (float)r;
    for (int i = 0; i < 16; i++)
        ck_assert_msg(ov[i] == want[i], "out[%d] = %g, want %g", i, ov[i], want[i]);
}
END_TEST

/* A register tile moves to shared memory right where it was made: the copy is spliced into
 * the middle of that block. Here the block starts with a phi (the checked load's value) and
 * ends in a branch to another phi (the next checked load), the two shapes a split must
 * keep right; the verifier rejects the module when it does not. */
START_TEST(test_promotion_inside_a_block_between_checked_loads)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    b, lane = wp.tid()\n"
                      "    v = x[lane]\n"
                      "    t = wp.tile(v)\n"
                      "    w = x[lane + 4]\n"
                      "    r = wp.tile_view(t, offset=(2,), shape=(2,))\n"
                      "    wp.tile_store(out, r)\n"
                      "    out[4 + lane] = w\n";
    const float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float want[8] = {3, 4, 0, 0, 5, 6, 7, 8};
    for (int target = 0; target < 2; target++) {
        tj_kernel_options o = tjl_cpu(4);
        o.debug = true;
        if (target) {
            o.target = TJ_TARGET_CUDA;
            tj_module_destroy(tjl_build(src, "k", o)); /* assembled by ptxas when present */
            continue;
        }
        tj_module *m = tjl_build(src, "k", o);
        tj_array *x = tjl_array1(TJ_DTYPE_F32, 8, xv), *out = tjl_array1(TJ_DTYPE_F32, 8, NULL);
        tj_arg args[] = {tj_arg_array(x), tj_arg_array(out)};
        int64_t one = 1;
        tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "k", 1, &one, 4, args, 2));
        float ov[8];
        tjl_read(out, ov);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(ov[i] == want[i], "out[%d] = %g, want %g", i, ov[i], want[i]);
    }
}
END_TEST

START_TEST(test_tile_and_untile_of_scalars_vectors_and_matrices)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    b, lane = wp.tid()\n"
                      "    v = wp.vec3(x[lane], 2.0 * x[lane], 3.0)\n"
                      "    tv = wp.tile(v)\n"                                 /* (3, B) */
                      "    s = wp.tile_reduce(wp.add, tv, axis=1)\n"          /* (3,) */
                      "    back = wp.untile(tv * 2.0)\n"
                      "    m = wp.mat22(x[lane], 0.0, 0.0, 1.0)\n"
                      "    tm = wp.tile(m)\n"                                 /* (2, 2, B) */
                      "    mb = wp.untile(tm)\n"
                      "    tp = wp.tile(v, preserve_type=True)\n"             /* (B,) of vec3 */
                      "    vs = wp.tile_reduce(wp.add, tp)\n"
                      "    out[lane] = back.y + mb[0, 0] + wp.untile(wp.tile(x[lane] * 0.5))\n"
                      "    if lane == 0:\n"
                      "        out[8] = s[0]\n"
                      "        out[9] = vs[0].z\n"
                      "        out[10] = float(tv.shape[0] * 10 + tv.shape[1])\n";
    float in[4] = {1, 2, 3, 4}, out[11];
    run_tiled_f32(src, 4, 1, in, 4, 11, out);
    for (int l = 0; l < 4; l++)
        ck_assert_float_eq(out[l], 4.0f * in[l] + in[l] + 0.5f * in[l]);
    ck_assert_float_eq(out[8], 10.0f);
    ck_assert_float_eq(out[9], 12.0f);
    ck_assert_float_eq(out[10], 34.0f);
}
END_TEST

START_TEST(test_tile_map_and_tile_arithmetic)
{
    const char *src = "@wp.func\n"
                      "def clamp01(a: float) -> float:\n"
                      "    return wp.min(wp.max(a, 0.0), 1.0)\n"
                      "@wp.func\n"
                      "def lerp(a: float, b: float, t: float) -> float:\n"
                      "    return a + (b - a) * t\n"
                      "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    t = wp.tile_load(x, shape=8)\n"
                      "    c = wp.tile_map(clamp01, t)\n"
                      "    h = wp.tile_ones(shape=8, dtype=float) * 0.5\n"
                      "    l = wp.tile_map(lerp, c, t, h)\n"
                      "    s = wp.tile_map(wp.sqrt, wp.tile_map(wp.abs, t))\n"
                      "    q = wp.tile_map(wp.add, s, -t + 1.0)\n"
                      "    wp.tile_store(out, l, offset=0)\n"
                      "    wp.tile_store(out, q, offset=8)\n"
                      "    wp.tile_store(out, wp.tile_map(wp.min, t, h) * 2.0, offset=16)\n";
    float in[8] = {-1.0f, 0.25f, 0.5f, 2.0f, 4.0f, -0.5f, 0.0f, 9.0f}, out[24];
    run_tiled_f32(src, 4, 1, in, 8, 24, out);
    for (int i = 0; i < 8; i++) {
        float c = fminf(fmaxf(in[i], 0.0f), 1.0f);
        ck_assert(tj_test_close(out[i], c + (in[i] - c) * 0.5f, 1e-6));
        ck_assert(tj_test_close(out[8 + i], sqrtf(fabsf(in[i])) + (-in[i] + 1.0f), 1e-6));
        ck_assert(tj_test_close(out[16 + i], fminf(in[i], 0.5f) * 2.0f, 1e-6));
    }
}
END_TEST

START_TEST(test_tile_reduce_every_operator_and_axis)
{
    const char *src = "@wp.func\n"
                      "def bigger(a: int, b: int) -> int:\n"
                      "    return wp.max(a, b)\n"
                      "@wp.kernel\n"
                      "def k(x: wp.array[int], out: wp.array[int]):\n"
                      "    t = wp.tile_load(x, shape=6)\n"
                      "    out[0] = wp.tile_reduce(wp.add, t)[0]\n"
                      "    out[1] = wp.tile_reduce(wp.mul, t)[0]\n"
                      "    out[2] = wp.tile_reduce(wp.min, t)[0]\n"
                      "    out[3] = wp.tile_reduce(wp.max, t)[0]\n"
                      "    out[4] = wp.tile_reduce(wp.bit_and, t)[0]\n"
                      "    out[5] = wp.tile_reduce(wp.bit_or, t)[0]\n"
                      "    out[6] = wp.tile_reduce(wp.bit_xor, t)[0]\n"
                      "    out[7] = wp.tile_reduce(bigger, t)[0]\n"
                      "    m = wp.tile_reshape(t, shape=(2, -1))\n"
                      "    rows = wp.tile_reduce(wp.add, m, axis=1)\n"
                      "    cols = wp.tile_sum(m, axis=0)\n"
                      "    out[8] = rows[0] * 1000 + rows[1]\n"
                      "    out[9] = cols[0] * 10000 + cols[1] * 100 + cols[2]\n"
                      "    out[10] = wp.tile_sum(t)[0] + wp.tile_min(t)[0] * 100 + "
                      "wp.tile_max(t)[0] * 10000\n"
                      "    out[11] = wp.tile_reduce(bigger, m, 0)[2]\n";
    int32_t in[6] = {3, 7, 4, 9, 12, 6}, out[12];
    run_tiled_i32(src, 4, 1, in, 6, 12, out);
    int sum = 41, prod = 3 * 7 * 4 * 9 * 12 * 6, band = 3 & 7 & 4 & 9 & 12 & 6;
    int bor = 3 | 7 | 4 | 9 | 12 | 6, bxor = 3 ^ 7 ^ 4 ^ 9 ^ 12 ^ 6;
    int32_t want[12] = {sum, prod, 3, 12, band, bor, bxor, 12, 14 * 1000 + 27,
                        12 * 10000 + 19 * 100 + 10, 41 + 300 + 120000, 6};
    for (int i = 0; i < 12; i++)
        ck_assert_msg(out[i] == want[i], "out[%d] = %d, want %d", i, out[i], want[i]);
}
END_TEST

/* A variable that starts as a reduction's result (held by every lane) and is then given
 * the result plus a loaded tile of shape (1,) (held by lane 0): the assignment hands the
 * element to every lane. It was a build error whose two types read the same ("a tile of
 * int32 (1,), the variable holds a tile of int32 (1,)"); found by fuzz/diff_kernels. */
static const char reduction_variable_src[] =
    "@wp.kernel\n"
    "def k(x: wp.array[int], out: wp.array[int]):\n"
    "    blk, lane = wp.tid()\n"
    "    acc = wp.tile_sum(wp.tile_load(x, shape=8, offset=blk * 8))\n"
    "    for j in range(3):\n"
    "        acc = wp.tile_map(wp.add, acc, wp.tile_load(x, shape=1, offset=blk * 8 + j))\n"
    "        acc = wp.tile_map(wp.mul, acc, wp.tile_max(wp.tile_ones(shape=2, dtype=int)))\n"
    "    wp.tile_store(out, acc, offset=blk * 2)\n"
    "    if lane == 0:\n"
    "        out[blk * 2 + 1] = acc[0] * 10\n";

START_TEST(test_reduction_result_variables_take_other_tiles)
{
    enum { NBLK = 3 };
    int32_t in[NBLK * 8], out[NBLK * 2];
    for (int i = 0; i < NBLK * 8; i++)
        in[i] = i * 3 - 7;
    static const uint32_t widths[] = {1, 3, 4, 32};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        run_tiled_i32(reduction_variable_src, widths[w], NBLK, in, NBLK * 8, NBLK * 2, out);
        for (int b = 0; b < NBLK; b++) {
            int want = 0;
            for (int i = 0; i < 8; i++)
                want += in[b * 8 + i];
            for (int j = 0; j < 3; j++)
                want += in[b * 8 + j];
            ck_assert_msg(out[b * 2] == want && out[b * 2 + 1] == want * 10,
                          "block width %u, block %d: %d and %d, want %d and %d", widths[w], b,
                          out[b * 2], out[b * 2 + 1], want, want * 10);
        }
    }
}
END_TEST

/* Reduction results go to shared memory for the builtins that need it there, as other
 * register tiles do: scatter-added into by every lane, reduced along their axis, viewed and
 * assigned into (check_reduce runs the same on every target through the builder). */
static const char reduction_promoted_src[] =
    "@wp.kernel\n"
    "def k(x: wp.array[float], out: wp.array[float]):\n"
    "    blk, lane = wp.tid()\n"
    "    t = wp.tile_load(x, shape=8, offset=blk * 8)\n"
    "    s = wp.tile_sum(t)\n"
    "    wp.tile_scatter_add(s, 0, 1.0, True)\n"
    "    wp.tile_store(out, s, offset=blk * 4)\n"
    "    m = wp.tile_reduce(wp.add, wp.tile_max(t), axis=0)\n"
    "    wp.tile_store(out, m, offset=blk * 4 + 1)\n"
    "    v = wp.tile_view(wp.tile_min(t), offset=(0,), shape=(1,))\n"
    "    wp.tile_store(out, v, offset=blk * 4 + 2)\n"
    "    a = wp.tile_sum(t)\n"
    "    wp.tile_assign(a, wp.tile_ones(shape=1, dtype=float), 0)\n"
    "    wp.tile_store(out, a, offset=blk * 4 + 3)\n";

START_TEST(test_reduction_results_move_to_shared_memory)
{
    enum { NBLK = 2 };
    float in[NBLK * 8], out[NBLK * 4];
    for (int i = 0; i < NBLK * 8; i++)
        in[i] = (float)((i * 5) % 11) - 3.0f;
    static const uint32_t widths[] = {1, 3, 8, 32};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        run_tiled_f32(reduction_promoted_src, widths[w], NBLK, in, NBLK * 8, NBLK * 4, out);
        for (int b = 0; b < NBLK; b++) {
            float sum = 0, mx = in[b * 8], mn = in[b * 8];
            for (int i = 0; i < 8; i++) {
                sum += in[b * 8 + i];
                mx = in[b * 8 + i] > mx ? in[b * 8 + i] : mx;
                mn = in[b * 8 + i] < mn ? in[b * 8 + i] : mn;
            }
            const float want[4] = {sum + (float)widths[w], mx, mn, 1.0f};
            for (int j = 0; j < 4; j++)
                ck_assert_msg(out[b * 4 + j] == want[j], "block width %u, block %d, value %d: "
                              "%g, want %g", widths[w], b, j, out[b * 4 + j], want[j]);
        }
    }
}
END_TEST

START_TEST(test_tile_scatter_add_atomic_and_not)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[int], out: wp.array[int]):\n"
                      "    b, lane = wp.tid()\n"
                      "    h = wp.tile_zeros(shape=(2, 3), dtype=int, storage=\"shared\")\n"
                      "    wp.tile_scatter_add(h, x[lane] % 2, x[lane] % 3, 1, True)\n"
                      "    u = wp.tile_zeros(shape=8, dtype=int)\n"
                      "    wp.tile_scatter_add(u, lane, value=lane * 10, has_value=lane % 2 == 0,"
                      " atomic=False)\n"
                      "    v = wp.tile_zeros(shape=8, dtype=int)\n"
                      "    wp.tile_scatter_add(v, lane, lane * 10, lane % 2 == 0, False)\n"
                      "    wp.tile_store(out, wp.tile_reshape(h, shape=6))\n"
                      "    wp.tile_store(out, u, offset=6)\n"
                      "    wp.tile_store(out, v, offset=14)\n";
    int32_t in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[22];
    run_tiled_i32(src, 8, 1, in, 8, 22, out);
    int32_t want[22] = {0};
    for (int l = 0; l < 8; l++)
        want[(l % 2) * 3 + l % 3]++;
    for (int l = 0; l < 8; l += 2)
        want[6 + l] = want[14 + l] = l * 10; /* atomic=False by keyword, then by position */
    for (int i = 0; i < 22; i++)
        ck_assert_msg(out[i] == want[i], "out[%d] = %d, want %d", i, out[i], want[i]);
}
END_TEST

START_TEST(test_tile_stack_push_pop_count_and_clear)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[int], out: wp.array[int]):\n"
                      "    b, lane = wp.tid()\n"
                      "    s = wp.tile_stack(capacity=16, dtype=int)\n"
                      "    slot = wp.tile_stack_push(s, x[lane], x[lane] > 2)\n"
                      "    n = wp.tile_stack_count(s)\n"
                      "    total = 0\n"
                      "    while wp.tile_stack_count(s) > 0:\n"
                      "        v, sl = wp.tile_stack_pop(s)\n"
                      "        if sl >= 0:\n"
                      "            total += v\n"
                      "    wp.tile_stack_push(s, 1, True)\n"
                      "    wp.tile_stack_clear(s)\n"
                      "    wp.atomic_add(out, 0, total)\n"
                      "    if lane == 0:\n"
                      "        out[1] = n\n"
                      "        out[2] = wp.tile_stack_count(s)\n"
                      "    out[3 + lane] = slot\n";
    int32_t in[4] = {5, 1, 3, 9}, out[7];
    run_tiled_i32(src, 4, 1, in, 4, 7, out);
    ck_assert_int_eq(out[0], 17);
    ck_assert_int_eq(out[1], 3);
    ck_assert_int_eq(out[2], 0);
    ck_assert_int_eq(out[4], -1);  /* lane 1 pushed nothing */
    int seen = 0;
    for (int l = 0; l < 4; l++)
        if (l != 1)
            seen |= 1 << out[3 + l];
    ck_assert_int_eq(seen, 7);     /* slots 0, 1, 2 once each */
}
END_TEST

START_TEST(test_tile_element_writes_atomic_add_and_variables)
{
    const char *src =
        "@wp.kernel\n"
        "def k(x: wp.array[float], out: wp.array[float]):\n"
        "    acc = wp.tile_zeros(shape=4, dtype=float)\n"
        "    for j in range(3):\n"
        "        acc = acc + wp.tile_load(x, shape=4, offset=4 * j)\n" /* a tile variable */
        "    acc[1] = 100.0\n"
        "    acc[-1] = acc[0] * 2.0\n"
        "    old = wp.tile_atomic_add(out, acc)\n"
        "    wp.tile_atomic_add(out, old, offset=4)\n";
    float in[12], out[8];
    for (int i = 0; i < 12; i++)
        in[i] = (float)i;
    run_tiled_f32(src, 4, 2, in, 12, 8, out);
    float acc[4] = {12, 15, 18, 21};
    acc[1] = 100;
    acc[3] = acc[0] * 2;
    for (int i = 0; i < 4; i++) {
        ck_assert_float_eq(out[i], 2 * acc[i]);   /* two blocks added it */
        ck_assert_float_eq(out[4 + i], acc[i]);   /* the old values: 0, then acc */
    }
}
END_TEST

/* ---- the seeds as source against the builder-built examples ------------------------------- */

static const char *const seed_files[] = {
    "store_doubled_thread_indices", "replace_rows", "multiply_elements",
    "row_products",                 "histogram",    "compact_values",
};

static char *
read_seed(const char *name)
{
    char path[1024], rel[256];
    snprintf(rel, sizeof rel, "../examples/kernels/%s.py", name);
    tjl_source_path(path, sizeof path, rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* The builder-built histogram and compaction of examples/histogram.c and compact_values.c. */
static tj_kernel *
builder_histogram(uint32_t B)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = tjl_cpu(B);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "histogram", &o);
    tj_val *data = tj_param_array(k, "data", f32, 1);
    tj_val *bins_out = tj_param_array(k, "bins_out", f32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    int four = 4;
    tj_val *bins = tj_tile_zeros(k, f32, 1, &four, TJ_STORAGE_SHARED);
    tj_val *d = tj_load(k, data, &tid[1], 1);
    tj_val *b = tj_cast(k, tj_binary(k, TJ_BIN_DIV, d, tj_const_float(k, TJ_DTYPE_F32, 2.0)),
                        tjt_type(TJ_DTYPE_I32));
    tj_tile_scatter_add(k, bins, &b, 1, tj_const_float(k, TJ_DTYPE_F32, 1.0),
                        tj_const_bool(k, true), tj_const_bool(k, true));
    tj_tile_store(k, bins_out, bins, NULL);
    return k;
}

static tj_kernel *
builder_compact(uint32_t B)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = tjl_cpu(B);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "compact_values", &o);
    tj_val *data = tj_param_array(k, "data", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *num = tj_param_array(k, "num", i32, 1);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *nitems = tj_const_int(k, TJ_DTYPE_I32, 8);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *s = tj_tile_stack(k, 8, i32);
    tj_val *base = tj_for_begin(k, zero, nitems, tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, base, tid[1]);
    tj_val *value = tj_var_new(k, tj_const_int(k, TJ_DTYPE_I32, -1));
    tj_val *keep = tj_var_new(k, tj_const_bool(k, false));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, nitems));
    tj_val *v = tj_load(k, data, &i, 1);
    tj_var_set(k, value, v);
    tj_var_set(k, keep, tj_compare(k, TJ_CMP_GT, v, tj_const_int(k, TJ_DTYPE_I32, 5)));
    tj_if_end(k);
    tj_tile_stack_push(k, s, tj_var_get(k, value), tj_var_get(k, keep));
    tj_for_end(k);
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, tid[1], zero));
    tj_store(k, num, &zero, 1, tj_tile_stack_count(k, s));
    tj_if_end(k);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, out, &slot, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

/* Runs 'k' (a built module 'm') on the seed's inputs and returns its outputs flattened. */
static void
run_seed(tj_module *m, const char *name, uint32_t B, float *res, int nres)
{
    float data_f[8] = {0.5f, 2.0f, 3.0f, 4.0f, 4.5f, 5.5f, 6.0f, 7.0f};
    int32_t data_i[8] = {1, 8, 3, 7, 2, 9, 4, 6};
    tj_array *a[3] = {0};
    int na = 0;
    int nout_i = 0;
    if (strcmp(name, "histogram") == 0) {
        a[na++] = tjl_array1(TJ_DTYPE_F32, 8, data_f);
        a[na++] = tjl_array1(TJ_DTYPE_F32, 4, NULL);
    } else {
        a[na++] = tjl_array1(TJ_DTYPE_I32, 8, data_i);
        a[na++] = tjl_array1(TJ_DTYPE_I32, 8, NULL);
        a[na++] = tjl_array1(TJ_DTYPE_I32, 1, NULL);
        nout_i = 1;
    }
    tj_arg args[3];
    for (int i = 0; i < na; i++)
        args[i] = tj_arg_array(a[i]);
    tjl_launch(m, name, 1, true, B, args, (size_t)na);
    if (!nout_i) {
        tjl_read(a[1], res);
        return;
    }
    int32_t out[8], num;
    tjl_read(a[1], out);
    tjl_read(a[2], &num);
    ck_assert(num >= 0 && num <= 8);
    /* the order within a pop is unspecified: compare the sorted prefix */
    for (int i = 0; i < num; i++)
        for (int j = i + 1; j < num; j++)
            if (out[j] < out[i]) {
                int32_t t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
    for (int i = 0; i < nres; i++)
        res[i] = i < num ? (float)out[i] : -1.0f;
    res[nres - 1] = (float)num;
}

START_TEST(test_seed_kernels_match_the_builder_built_examples)
{
    static const uint32_t widths[] = {2, 4, 8};
    for (size_t w = 0; w < 3; w++) {
        uint32_t B = widths[w];
        for (int which = 0; which < 2; which++) {
            const char *name = which ? "compact_values" : "histogram";
            char *src = read_seed(name);
            tj_module *ms = tjl_build(src, name, tjl_cpu(B));
            tj_module *mb = tjt_build(which ? builder_compact(B) : builder_histogram(B));
            float rs[9], rb[9];
            run_seed(ms, name, B, rs, 9);
            run_seed(mb, name, B, rb, 9);
            int n = which ? 9 : 4;
            for (int i = 0; i < n; i++)
                ck_assert_msg(rs[i] == rb[i], "%s B=%u: source %g, builder %g at %d", name, B,
                              rs[i], rb[i], i);
            free(src);
        }
    }
}
END_TEST

START_TEST(test_seed_kernels_give_the_seed_outputs_with_cooperative_blocks)
{
    /* multiply_elements (B=2), row_products (B=4), replace_rows (B=8), tile (B=16) */
    char *src;
    int32_t x[4] = {3, 7, 4, 9}, o[1];
    tj_module *m = tjl_build((src = read_seed("multiply_elements")), "multiply_elements",
                             tjl_cpu(2));
    tj_array *xa = tjl_array1(TJ_DTYPE_I32, 4, x), *oa = tjl_array1(TJ_DTYPE_I32, 1, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
    tjl_launch(m, "multiply_elements", 1, true, 2, args, 2);
    tjl_read(oa, o);
    ck_assert_int_eq(o[0], 756);
    free(src);

    m = tjl_build((src = read_seed("row_products")), "row_products", tjl_cpu(4));
    float xf[6] = {1, 2, 3, 10, 20, 30}, p[2];
    int64_t s2[2] = {2, 3};
    tj_array *x2 = tjl_array(TJ_DTYPE_F32, 2, s2, xf), *pa = tjl_array1(TJ_DTYPE_F32, 2, NULL);
    tj_arg args2[] = {tj_arg_array(x2), tj_arg_array(pa)};
    tjl_launch(m, "row_products", 1, true, 4, args2, 2);
    tjl_read(pa, p);
    ck_assert(p[0] == 6.0f && p[1] == 6000.0f);
    free(src);

    m = tjl_build((src = read_seed("replace_rows")), "replace_rows", tjl_cpu(8));
    float a[16], r[16];
    for (int i = 0; i < 16; i++)
        a[i] = (float)i;
    int64_t s4[2] = {4, 4};
    tj_array *aa = tjl_array(TJ_DTYPE_F32, 2, s4, a), *ra = tjl_array(TJ_DTYPE_F32, 2, s4, NULL);
    tj_arg args3[] = {tj_arg_array(aa), tj_arg_array(ra)};
    tjl_launch(m, "replace_rows", 1, true, 8, args3, 2);
    tjl_read(ra, r);
    for (int i = 0; i < 16; i++)
        ck_assert_float_eq(r[i], i < 8 ? (float)i : 100.0f + (float)(i - 8));
    free(src);

    m = tjl_build((src = read_seed("store_doubled_thread_indices")),
                  "store_doubled_thread_indices", tjl_cpu(16));
    int32_t d[16];
    tj_array *da = tjl_array1(TJ_DTYPE_I32, 16, NULL);
    tj_arg args4[] = {tj_arg_array(da)};
    tjl_launch(m, "store_doubled_thread_indices", 16, false, 16, args4, 1);
    tjl_read(da, d);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(d[i], 2 * i);
    free(src);
}
END_TEST

/* ---- PTX and the GPU ------------------------------------------------------------------------ */

START_TEST(test_seed_kernels_ptx_passes_ptxas)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 64};
    for (size_t i = 0; i < sizeof seed_files / sizeof seed_files[0]; i++) {
        char *src = read_seed(seed_files[i]);
        tj_module *m = tjl_build(src, NULL, o);  /* tjl_build runs ptxas on CUDA modules */
        const char *ptx = tj_module_get_ptx(m);
        ck_assert_ptr_nonnull(strstr(ptx, seed_files[i]));
        free(src);
    }
    char *src = read_seed("histogram");
    tj_module *m = tjl_build(src, "histogram", o);
    ck_assert_ptr_nonnull(strstr(tj_module_get_ptx(m), "bar.sync"));
    free(src);
    /* a reduction's variable given other tiles (coop: the values) */
    tjl_build(reduction_variable_src, "k", o);
    tjl_build(reduction_promoted_src, "k", o);
}
END_TEST

START_TEST(test_seed_kernels_on_the_gpu)
{
    tj_device *gpu = tjt_gpu();
    char *src = read_seed("histogram");
    tj_program *p = tjl_program(src);
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 8};
    tj_build_options bo = {.device = gpu};
    tj_module *m = NULL;
    ck_assert_msg(tj_program_build(p, "histogram", &o, &bo, &m) == TJ_OK, "%s",
                  tj_program_error(p));
    float data[8] = {0.5f, 2.0f, 3.0f, 4.0f, 4.5f, 5.5f, 6.0f, 7.0f}, bins[4];
    tj_array *da = tjt_array(gpu, tjt_type(TJ_DTYPE_F32), 8, data);
    tj_array *ba = tjt_array(gpu, tjt_type(TJ_DTYPE_F32), 4, NULL);
    tj_arg args[] = {tj_arg_array(da), tj_arg_array(ba)};
    int64_t one = 1;
    tjt_ok(gpu, tj_launch_tiled(gpu, m, "histogram", 1, &one, 8, args, 2));
    tjt_ok(gpu, tj_array_copy_to_host(ba, bins, sizeof bins));
    ck_assert(bins[0] == 1 && bins[1] == 2 && bins[2] == 3 && bins[3] == 2);
    tj_program_destroy(p);
    free(src);
}
END_TEST

static Suite *
lang_tiles_suite(void)
{
    Suite *s = suite_create("lang_tiles");
    TCase *coop = tcase_create("coop");
    tcase_add_checked_fixture(coop, tjt_setup, tjt_teardown);
    tcase_set_timeout(coop, TIMEOUT_S);
    tcase_add_test(coop, test_tile_zeros_ones_arange_and_storage);
    tcase_add_test(coop, test_tile_load_and_store_with_runtime_offsets);
    tcase_add_test(coop, test_tile_subscripts_extract_views_and_wrapping);
    tcase_add_test(coop, test_tile_view_builtin_forms_and_assign);
    tcase_add_test(coop, test_promotion_inside_a_block_between_checked_loads);
    tcase_add_test(coop, test_tile_and_untile_of_scalars_vectors_and_matrices);
    tcase_add_test(coop, test_tile_map_and_tile_arithmetic);
    tcase_add_test(coop, test_tile_reduce_every_operator_and_axis);
    tcase_add_test(coop, test_reduction_result_variables_take_other_tiles);
    tcase_add_test(coop, test_reduction_results_move_to_shared_memory);
    tcase_add_test(coop, test_tile_scatter_add_atomic_and_not);
    tcase_add_test(coop, test_tile_stack_push_pop_count_and_clear);
    tcase_add_test(coop, test_tile_element_writes_atomic_add_and_variables);
    tcase_add_test(coop, test_seed_kernels_match_the_builder_built_examples);
    tcase_add_test(coop, test_seed_kernels_give_the_seed_outputs_with_cooperative_blocks);
    suite_add_tcase(s, coop);
    TCase *ptx = tcase_create("ptx");
    tcase_add_checked_fixture(ptx, tjt_setup, tjt_teardown);
    tcase_set_timeout(ptx, TIMEOUT_S);
    tcase_add_test(ptx, test_seed_kernels_ptx_passes_ptxas);
    suite_add_tcase(s, ptx);
    TCase *cuda = tcase_create("cuda");
    tcase_add_checked_fixture(cuda, tjt_setup, tjt_teardown);
    tcase_set_timeout(cuda, TIMEOUT_S);
    tcase_set_tags(cuda, "cuda");
    tcase_add_test(cuda, test_seed_kernels_on_the_gpu);
    suite_add_tcase(s, cuda);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, lang_tiles_suite());
}
