/* tj-test: CUDA */
/*
 * tests/check_budget.c: the shared-memory budget of SPEC 3, read with
 * tj_kernel_get_shared_bytes: owning shared tiles and stacks, each rounded up to 16 bytes (a
 * stack also takes a 16-byte counter); views and reshapes take nothing; a register tile that
 * a builtin promotes takes its shared copy; the scratch of the builtins that use one (one
 * area, as large as the largest request); the largest budget among the called functions.
 * Then the budget at run time: the regions of one block do not overlap, a budget exactly at
 * the device's limit launches, and one 16 bytes over fails with TJ_ERR_LIMIT and a message
 * naming the budget and the limit, after which the device still runs valid launches.
 *
 * The scratch sizes are those the builtins reserve (builtins/reduce.c partials_at,
 * builtins/memory.c tj_tile_extract, jit/emit.c tji_shuffle_scratch_bytes), restated in
 * the C reference below. Test cases: cpu1, coop (block widths 2, 31, 32, 33, 64, 256), ptx
 * (block widths 33 and 256, every module through ptxas), cuda.
 */
#include "tj_tile_test.h"

#define REG TJ_STORAGE_REGISTER
#define SHR TJ_STORAGE_SHARED

/* ---- the C reference ------------------------------------------------------------------------- */

static size_t
r16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* The CPU emulates warp shuffles through the arena: two 32-bit words per lane (used in
 * turn), in whole warps (jit/emit.c); the GPU shuffles in registers. */
static size_t
shuffle_bytes(void)
{
    size_t B = (size_t)tt_B();
    if (tt_target() == TJ_TARGET_CUDA || B == 1)
        return 0;
    return (B + 31) / 32 * 32 * 8;
}

/* Scratch for 'n' partials of 'esize' bytes: the shuffle area, the values (rounded up to
 * 16), one int32 flag per partial; the request is rounded up to 16 (builtins/reduce.c). */
static size_t
partials_bytes(size_t esize, size_t n)
{
    return r16(shuffle_bytes() + r16(n * esize) + n * 4);
}

static size_t
pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x)
        p *= 2;
    return p;
}

/* tile_reduce(op, a) of a tile of 'size' elements: nothing at B = 1; on the CPU, whose
 * lanes take turns, no scratch (reduce_slot); on the GPU a tile of at most 32 elements
 * smaller than the block publishes its elements, one partial each; otherwise the lanes'
 * partials combine through one partial per warp when the block has more than one. */
static size_t
reduce_scratch(size_t esize, size_t size)
{
    size_t B = (size_t)tt_B();
    if (B == 1 || tt_target() == TJ_TARGET_CPU)
        return 0;
    if (size < B && size <= 32)
        return partials_bytes(esize, size);
    size_t nwarps = (B + 31) / 32;
    return partials_bytes(esize, nwarps > 1 ? nwarps : 0);
}

/* On the CPU (B > 1) the lanes' total is handed to them past the reduction's last barrier
 * in owned memory, which no builtin's scratch overlaps: the value, its int32 flag 4-aligned
 * after it, rounded up to 16. Every reduction whose total fits the kernel's slot shares it;
 * a larger one takes a larger slot (builtins/layout.c tji_shared_slot). */
static size_t
reduce_slot(size_t esize)
{
    if (tt_B() == 1 || tt_target() == TJ_TARGET_CUDA)
        return 0;
    return r16(((esize + 3) & ~(size_t)3) + 4);
}

/* tile_reduce(op, a, axis) with 'nout' outputs and slices of 'len': with fewer outputs than
 * lanes, a group of lanes (a power of two, each folding at least 8 elements) shares each
 * slice, and the groups' partials (one per warp of the group) go through the scratch; a
 * group of one lane folds alone and needs none. */
static size_t
reduce_axis_scratch(size_t esize, size_t nout, size_t len)
{
    size_t B = (size_t)tt_B();
    if (nout >= B)
        return 0;
    size_t by_output = pow2_floor(B / nout), by_length = pow2_floor(len / 8);
    size_t lpo = by_output < by_length ? by_output : by_length;
    if (lpo == 1)
        return 0;
    size_t per = lpo > 32 ? lpo / 32 : 1;
    return partials_bytes(esize, nout * per);
}

/* tile_extract of a register tile: the owner lane publishes the element through the
 * scratch; at B = 1 the lane owns everything. */
static size_t
extract_scratch(size_t esize)
{
    return tt_B() == 1 ? 0 : r16(esize);
}

static size_t
max2(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* ---- builder shorthands ---------------------------------------------------------------------- */

static const tj_type *
ty(tj_dtype dt)
{
    return tjt_type(dt);
}

static const tj_type *
vec3f(void)
{
    return tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
}

static const tj_type *
mat33d(void)
{
    return tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F64, 3, 3);
}

static tj_val *
zeros(tj_kernel *k, const tj_type *elem, int rank, const int *shape, tj_storage st)
{
    tj_val *t = tj_tile_zeros(k, elem, rank, shape, st);
    ck_assert_msg(t != NULL, "tile_zeros: %s", tj_kernel_error(k) ? tj_kernel_error(k) : "?");
    return t;
}

static tj_val *
zeros1(tj_kernel *k, tj_dtype dt, int n, tj_storage st)
{
    return zeros(k, ty(dt), 1, &n, st);
}

static tj_val *
zeros2(tj_kernel *k, tj_dtype dt, int n0, int n1, tj_storage st)
{
    int shape[2] = {n0, n1};
    return zeros(k, ty(dt), 2, shape, st);
}

/* Asserts the budget of 'k' (a kernel or a function) so far. */
static void
expect_budget(const tj_kernel *k, size_t want, const char *what)
{
    tt_kernel_ok(k, what);
    size_t got = tj_kernel_get_shared_bytes(k);
    ck_assert_msg(got == want, "%s (%s): the budget is %zu bytes, expected %zu", what,
                  tt_where(), got, want);
}

/* tile_extract of element (0, ...) of 't' (of rank 'rank'), stored into out[0] when it is
 * a float32 scalar. */
static void
use_elem(tj_kernel *k, tj_val *out, tj_val *t, int rank)
{
    tj_val *idx[4] = {tt_i32(k, 0), tt_i32(k, 0), tt_i32(k, 0), tt_i32(k, 0)};
    tj_val *x = tj_tile_extract(k, t, idx, rank);
    ck_assert_msg(x != NULL, "tile_extract: %s", tj_kernel_error(k) ? tj_kernel_error(k) : "?");
    if (tj_val_get_type(x) == ty(TJ_DTYPE_F32))
        ck_assert(tj_store(k, out, idx, 1, x));
}

/* ---- the budget table ------------------------------------------------------------------------ */

/* A row makes its tiles in kernel 'k' (with an array parameter 'out' of float32, 1 dim),
 * asserting the budget after the steps that matter, and returns the final expected budget
 * in the current kind. */
typedef size_t (*make_fn)(tj_kernel *k, tj_val *out);

typedef struct budget_row {
    const char *name;
    make_fn make;
} budget_row;

static size_t
m_f32_5(tj_kernel *k, tj_val *out)
{
    tj_tile_store(k, out, zeros1(k, TJ_DTYPE_F32, 5, SHR), NULL); /* 20 bytes */
    return 32;
}

static size_t
m_u8_3x3(tj_kernel *k, tj_val *out)
{
    (void)out;
    zeros2(k, TJ_DTYPE_U8, 3, 3, SHR); /* 9 bytes */
    return 16;
}

static size_t
m_i16_1(tj_kernel *k, tj_val *out)
{
    (void)out;
    zeros1(k, TJ_DTYPE_I16, 1, SHR); /* 2 bytes */
    return 16;
}

static size_t
m_vec3f_7(tj_kernel *k, tj_val *out)
{
    (void)out;
    int n = 7;
    zeros(k, vec3f(), 1, &n, SHR); /* 7 * 12 = 84 bytes */
    return 96;
}

static size_t
m_f64_4x4(tj_kernel *k, tj_val *out)
{
    (void)out;
    zeros2(k, TJ_DTYPE_F64, 4, 4, SHR); /* 128 bytes, a multiple of 16 */
    return 128;
}

/* 20 -> 32 and 42 -> 48: the sum of the rounded sizes (80), not the rounded sum (64). */
static size_t
m_two_tiles(tj_kernel *k, tj_val *out)
{
    tj_tile_store(k, out, zeros1(k, TJ_DTYPE_F32, 5, SHR), NULL);
    expect_budget(k, 32, "after the first tile");
    zeros2(k, TJ_DTYPE_I16, 3, 7, SHR);
    return 80;
}

/* tile_zeros, tile_ones and tile_arange in shared memory: 20 -> 32, 12 -> 16, 9 -> 16. */
static size_t
m_three_fills(tj_kernel *k, tj_val *out)
{
    (void)out;
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    int three = 3;
    ck_assert_ptr_nonnull(tj_tile_ones(k, ty(TJ_DTYPE_I32), 1, &three, SHR));
    expect_budget(k, 48, "after tile_ones");
    ck_assert_ptr_nonnull(tj_tile_arange(k, 0, 9, 1, ty(TJ_DTYPE_U8), SHR));
    return 64;
}

/* A shared tile_load takes its tile like tile_zeros: 6 float32, 24 -> 32. */
static size_t
m_load_shared(tj_kernel *k, tj_val *out)
{
    int n = 6;
    tj_val *t = tj_tile_load(k, out, 1, &n, NULL, SHR);
    ck_assert_ptr_nonnull(t);
    expect_budget(k, 32, "a shared float32 tile_load of 6");
    tj_tile_store(k, out, t, NULL);
    return 32;
}

static size_t
m_stack_f32_5(tj_kernel *k, tj_val *out)
{
    (void)out;
    ck_assert_ptr_nonnull(tj_tile_stack(k, 5, ty(TJ_DTYPE_F32))); /* 20 -> 32, + 16 */
    return 48;
}

static size_t
m_stack_vec3f_3(tj_kernel *k, tj_val *out)
{
    (void)out;
    ck_assert_ptr_nonnull(tj_tile_stack(k, 3, vec3f())); /* 36 -> 48, + 16 */
    return 64;
}

static size_t
m_stack_i8_1(tj_kernel *k, tj_val *out)
{
    (void)out;
    ck_assert_ptr_nonnull(tj_tile_stack(k, 1, ty(TJ_DTYPE_I8))); /* 1 -> 16, + 16 */
    return 32;
}

static size_t
m_stack_f64_2(tj_kernel *k, tj_val *out)
{
    (void)out;
    ck_assert_ptr_nonnull(tj_tile_stack(k, 2, ty(TJ_DTYPE_F64))); /* 16, + 16 */
    return 32;
}

/* A tile, a stack of 7 int32 (28 -> 32, + 16), and a second stack of 1 float64 (16 + 16). */
static size_t
m_tile_and_stacks(tj_kernel *k, tj_val *out)
{
    (void)out;
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    ck_assert_ptr_nonnull(tj_tile_stack(k, 7, ty(TJ_DTYPE_I32)));
    expect_budget(k, 80, "a tile and a stack");
    ck_assert_ptr_nonnull(tj_tile_stack(k, 1, ty(TJ_DTYPE_F64)));
    return 112;
}

/* Views of every form, a view of a view, reshapes of the shared tile and of a view-free
 * register tile: the (4, 6) float32 tile's 96 bytes stay the budget throughout. */
static size_t
m_views_and_reshapes(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros2(k, TJ_DTYPE_F32, 4, 6, SHR);
    expect_budget(k, 96, "the shared tile");
    tj_view_index row[1] = {tj_view_at(tt_i32(k, 1))};
    ck_assert_ptr_nonnull(tj_tile_view(k, t, row, 1, NULL, 0));
    expect_budget(k, 96, "a row view");
    tj_view_index at[2] = {tj_view_at(tt_i32(k, 1)), tj_view_at(tt_i32(k, 2))};
    int wshape[2] = {2, 3};
    tj_val *w = tj_tile_view(k, t, at, 2, wshape, 2);
    ck_assert_ptr_nonnull(w);
    expect_budget(k, 96, "a window view");
    tj_view_index sl[2] = {tj_view_slice(TJ_SLICE_NONE, TJ_SLICE_NONE, 2),
                           tj_view_slice(1, 5, TJ_SLICE_NONE)};
    tj_val *s = tj_tile_view(k, t, sl, 2, NULL, 0);
    ck_assert_ptr_nonnull(s);
    expect_budget(k, 96, "a slice view");
    tj_view_index first[1] = {tj_view_at(tt_i32(k, 0))};
    ck_assert_ptr_nonnull(tj_tile_view(k, w, first, 1, NULL, 0));
    ck_assert_ptr_nonnull(tj_tile_view(k, s, first, 1, NULL, 0));
    expect_budget(k, 96, "views of views");
    int rshape[2] = {6, 4}, flat = -1;
    tj_val *r = tj_tile_reshape(k, t, 2, rshape);
    ck_assert_ptr_nonnull(r);
    ck_assert_ptr_nonnull(tj_tile_reshape(k, r, 1, &flat));
    ck_assert_ptr_nonnull(tj_tile_view(k, r, first, 1, NULL, 0));
    expect_budget(k, 96, "reshapes and a view of a reshape");
    tj_val *g = zeros2(k, TJ_DTYPE_F64, 3, 4, REG);
    int twelve = 12;
    ck_assert_ptr_nonnull(tj_tile_reshape(k, g, 1, &twelve));
    return 96;
}

/* tile_view promotes a register tile: its shared copy (60 -> 64 bytes) is owned; a second
 * view of it takes nothing more. */
static size_t
m_view_promotes(tj_kernel *k, tj_val *out)
{
    (void)out;
    int shape[2] = {3, 5};
    tj_val *t = tj_tile_ones(k, ty(TJ_DTYPE_F32), 2, shape, REG);
    ck_assert_ptr_nonnull(t);
    expect_budget(k, 0, "a register tile");
    tj_view_index row[1] = {tj_view_at(tt_i32(k, 2))};
    ck_assert_ptr_nonnull(tj_tile_view(k, t, row, 1, NULL, 0));
    expect_budget(k, 64, "the promoted tile");
    ck_assert_ptr_nonnull(tj_tile_view(k, t, row, 1, NULL, 0));
    return 64;
}

/* A register tile and its reshape share one promotion: 12 int32 = 48 bytes once. */
static size_t
m_reshape_promotes_once(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros2(k, TJ_DTYPE_I32, 2, 6, REG);
    int rshape[2] = {3, 4};
    tj_val *r = tj_tile_reshape(k, t, 2, rshape);
    ck_assert_ptr_nonnull(r);
    expect_budget(k, 0, "a register tile and its reshape");
    tj_view_index row[1] = {tj_view_at(tt_i32(k, 1))};
    ck_assert_ptr_nonnull(tj_tile_view(k, r, row, 1, NULL, 0));
    expect_budget(k, 48, "the reshape promoted");
    ck_assert_ptr_nonnull(tj_tile_view(k, t, row, 1, NULL, 0));
    return 48;
}

/* tile_scatter_add promotes its register tile: 10 int32 = 40 -> 48. On the GPU (B > 1) an
 * integer atomic add of a constant adds 16 bytes of scratch, the word where lanes that add
 * nothing send their atomic (builtins/scatter_add.c); once per kernel. */
static size_t
m_scatter_promotes(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros1(k, TJ_DTYPE_I32, 10, REG);
    tj_val *i = tt_i32(k, 3);
    ck_assert(tj_tile_scatter_add(k, t, &i, 1, tt_i32(k, 1), tj_const_bool(k, true), NULL));
    ck_assert(tj_tile_scatter_add(k, t, &i, 1, tt_i32(k, 2), tj_const_bool(k, true), NULL));
    return 48 + (tt_target() == TJ_TARGET_CUDA && tt_B() > 1 ? 16 : 0);
}

/* tile_assign promotes its destination (6 float32: 24 -> 32), not its source. */
static size_t
m_assign_promotes_dst(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *dst = zeros1(k, TJ_DTYPE_F32, 6, REG), *src = zeros1(k, TJ_DTYPE_F32, 2, REG);
    tj_val *off = tt_i32(k, 1);
    ck_assert(tj_tile_assign(k, dst, src, &off));
    return 32;
}

/* Register tiles, element-wise results, tile variables and a reshape take no shared memory;
 * neither does a whole-tile reduction at B = 1. */
static size_t
m_registers_only(tj_kernel *k, tj_val *out)
{
    int n = 64;
    tj_val *a = tj_tile_ones(k, ty(TJ_DTYPE_F32), 1, &n, REG);
    tj_val *b = tj_tile_load(k, out, 1, &n, NULL, REG);
    tj_val *c = tj_binary(k, TJ_BIN_ADD, a, b);
    tj_val *v = tj_var_new(k, c);
    ck_assert_ptr_nonnull(v);
    int rshape[2] = {8, 8};
    ck_assert_ptr_nonnull(tj_tile_reshape(k, tj_var_get(k, v), 2, rshape));
    tj_tile_store(k, out, c, NULL);
    return 0;
}

/* A shared tile copied into a tile variable: the variable holds registers, so only the
 * tile's 32 bytes count. */
static size_t
m_var_of_shared(tj_kernel *k, tj_val *out)
{
    tj_val *t = zeros1(k, TJ_DTYPE_F32, 5, SHR);
    tj_val *v = tj_var_new(k, t);
    ck_assert_ptr_nonnull(v);
    tj_tile_store(k, out, tj_var_get(k, v), NULL);
    return 32;
}

/* tile_extract of a register float64 tile: 8 bytes of scratch, rounded to 16 (B > 1). */
static size_t
m_extract_f64(tj_kernel *k, tj_val *out)
{
    use_elem(k, out, zeros1(k, TJ_DTYPE_F64, 5, REG), 1);
    return extract_scratch(8);
}

/* tile_extract of a register tile of mat33d: 72 bytes of scratch, rounded to 80. */
static size_t
m_extract_mat33d(tj_kernel *k, tj_val *out)
{
    int n = 2;
    use_elem(k, out, zeros(k, mat33d(), 1, &n, REG), 1);
    return extract_scratch(72);
}

/* tile_extract of a shared tile reads it directly: no scratch. */
static size_t
m_extract_shared(tj_kernel *k, tj_val *out)
{
    use_elem(k, out, zeros2(k, TJ_DTYPE_F32, 2, 3, SHR), 2); /* 24 -> 32 */
    return 32;
}

/* Two extracts (4 and 72 bytes) share one scratch area of the larger size, after the owned
 * tile. */
static size_t
m_extracts_share_scratch(tj_kernel *k, tj_val *out)
{
    zeros1(k, TJ_DTYPE_U8, 3, SHR); /* 16 */
    use_elem(k, out, zeros1(k, TJ_DTYPE_F32, 5, REG), 1);
    expect_budget(k, 16 + extract_scratch(4), "a tile and a float32 extract");
    int n = 2;
    use_elem(k, out, zeros(k, mat33d(), 1, &n, REG), 1);
    expect_budget(k, 16 + extract_scratch(72), "and a mat33d extract");
    use_elem(k, out, zeros1(k, TJ_DTYPE_F32, 3, REG), 1);
    return 16 + extract_scratch(72);
}

/* A whole-tile reduction of 64 float32: the per-warp partials (and on the CPU the shuffle
 * emulation area) in the scratch. */
static size_t
m_reduce_f32(tj_kernel *k, tj_val *out)
{
    int n = 64;
    tj_val *t = tj_tile_load(k, out, 1, &n, NULL, REG);
    tj_val *r = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t);
    ck_assert_ptr_nonnull(r);
    tj_tile_store(k, out, r, NULL);
    return reduce_slot(4) + reduce_scratch(4, 64);
}

/* 7 float64, fewer than the lanes of most blocks: one published partial per element. */
static size_t
m_reduce_f64(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros1(k, TJ_DTYPE_F64, 7, REG);
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_MAX, NULL, t));
    return reduce_slot(8) + reduce_scratch(8, 7);
}

/* Whole-tile reductions of float32, then float64 and vec3 (whose totals fit the first's
 * slot), then mat33d (a slot of its own on the CPU): the scratch is the largest request. */
static size_t
m_reduce_slots(tj_kernel *k, tj_val *out)
{
    (void)out;
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, zeros1(k, TJ_DTYPE_F32, 64, REG)));
    size_t slots = reduce_slot(4), scratch = reduce_scratch(4, 64);
    expect_budget(k, slots + scratch, "a float32 reduction");
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_MAX, NULL, zeros1(k, TJ_DTYPE_F64, 64, REG)));
    int n = 64;
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, zeros(k, vec3f(), 1, &n, REG)));
    scratch = max2(scratch, max2(reduce_scratch(8, 64), reduce_scratch(12, 64)));
    expect_budget(k, slots + scratch, "and float64 and vec3 reductions");
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, zeros(k, mat33d(), 1, &n, REG)));
    return slots + reduce_slot(72) + max2(scratch, reduce_scratch(72, 64));
}

/* tile_reduce along axis 1 of a register (4, 8) float32 tile: the promoted input (128
 * bytes); slices of 8 are folded by one lane each, without scratch. */
static size_t
m_reduce_axis1(tj_kernel *k, tj_val *out)
{
    int shape[2] = {4, 8};
    tj_val *t = tj_tile_ones(k, ty(TJ_DTYPE_F32), 2, shape, REG);
    tj_val *r = tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, t, 1);
    ck_assert_ptr_nonnull(r);
    tj_tile_store(k, out, r, NULL);
    expect_budget(k, 128 + reduce_axis_scratch(4, 4, 8), "the axis reduction");
    return 128 + reduce_axis_scratch(4, 4, 8);
}

/* Along axis 0 of an (8, 3) int32 tile: 96 bytes, 3 outputs with slices of 8. */
static size_t
m_reduce_axis0(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros2(k, TJ_DTYPE_I32, 8, 3, REG);
    ck_assert_ptr_nonnull(tj_tile_reduce_axis(k, TJ_REDUCE_MIN, NULL, t, 0));
    return 96 + reduce_axis_scratch(4, 3, 8);
}

/* Along axis 1 of a register (2, 512) float32 tile: 4096 bytes, and slices long enough for
 * groups of up to 64 lanes (two warp partials per output at B = 256). */
static size_t
m_reduce_axis_long(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros2(k, TJ_DTYPE_F32, 2, 512, REG);
    ck_assert_ptr_nonnull(tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, t, 1));
    return 4096 + reduce_axis_scratch(4, 2, 512);
}

/* A shared input is reduced where it is (no copy): 16 float64 = 128 bytes, one output
 * whose slice two lanes share. */
static size_t
m_reduce_axis_shared(tj_kernel *k, tj_val *out)
{
    (void)out;
    tj_val *t = zeros1(k, TJ_DTYPE_F64, 16, SHR);
    ck_assert_ptr_nonnull(tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, t, 0));
    return 128 + reduce_axis_scratch(8, 1, 16);
}

/* A reduction and an extract share the scratch: the larger of their requests. */
static size_t
m_reduce_and_extract(tj_kernel *k, tj_val *out)
{
    tj_val *t = zeros1(k, TJ_DTYPE_F32, 40, REG);
    ck_assert_ptr_nonnull(tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t));
    int n = 2;
    use_elem(k, out, zeros(k, mat33d(), 1, &n, REG), 1);
    return reduce_slot(4) + max2(reduce_scratch(4, 40), extract_scratch(72));
}

/* ---- functions ------------------------------------------------------------------------------- */

/* void name(out: array of float32): a shared tile of 'n' float32 stored into 'out', and 'nstack'
 * float64 stack slots when 'nstack' > 0. */
static tj_func *
tile_func(const char *name, int n, int nstack)
{
    tj_func *f = tt_func(name, NULL);
    tj_val *out = tj_param_array(f, "out", ty(TJ_DTYPE_F32), 1);
    tj_val *t = zeros1(f, TJ_DTYPE_F32, n, SHR);
    tj_tile_store(f, out, t, NULL);
    if (nstack > 0)
        ck_assert_ptr_nonnull(tj_tile_stack(f, nstack, ty(TJ_DTYPE_F64)));
    tt_kernel_ok(f, name);
    return f;
}

static void
call(tj_kernel *k, tj_func *f, tj_val *out)
{
    tj_val *r = tj_call(k, f, &out, 1);
    ck_assert_msg(r != NULL, "tj_call: %s", tj_kernel_error(k) ? tj_kernel_error(k) : "?");
}

/* A function with a shared tile of 10 float32 (48 bytes) adds its budget to the kernel's
 * own 32. */
static size_t
m_callee_tile(tj_kernel *k, tj_val *out)
{
    tj_func *f = tile_func("with_tile", 10, 0);
    expect_budget(f, 48, "the function");
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    expect_budget(k, 32, "before the call");
    call(k, f, out);
    tj_func_destroy(f);
    return 80;
}

/* Of two functions (48 and 48 + 112 = 160 bytes), the larger budget counts, once, however
 * often each is called. */
static size_t
m_largest_callee(tj_kernel *k, tj_val *out)
{
    tj_func *small = tile_func("small", 10, 0), *large = tile_func("large", 10, 12);
    expect_budget(large, 48 + 112, "the larger function");
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    call(k, small, out);
    expect_budget(k, 32 + 48, "after calling the smaller one");
    call(k, large, out);
    call(k, small, out);
    call(k, large, out);
    tj_func_destroy(small);
    tj_func_destroy(large);
    return 32 + 160;
}

/* Nested calls add up: inner 48, outer 16 + 48, the kernel (no tiles of its own) 64. */
static size_t
m_nested_callees(tj_kernel *k, tj_val *out)
{
    tj_func *inner = tile_func("inner", 10, 0);
    tj_func *outer = tt_func("outer", NULL);
    tj_val *fo = tj_param_array(outer, "out", ty(TJ_DTYPE_F32), 1);
    zeros1(outer, TJ_DTYPE_U8, 1, SHR);
    call(outer, inner, fo);
    expect_budget(outer, 64, "the outer function");
    call(k, outer, out);
    tj_func_destroy(inner);
    tj_func_destroy(outer);
    return 64;
}

/* A function's scratch is part of its budget: the function owns 48 and extracts from a
 * register float64 tile; the kernel owns 32 and extracts from a register float32 tile. */
static size_t
m_callee_scratch(tj_kernel *k, tj_val *out)
{
    tj_func *f = tt_func("with_scratch", NULL);
    tj_val *p = tj_param_array(f, "out", ty(TJ_DTYPE_F32), 1);
    tj_tile_store(f, p, zeros1(f, TJ_DTYPE_F32, 10, SHR), NULL);
    use_elem(f, p, zeros1(f, TJ_DTYPE_F64, 5, REG), 1);
    expect_budget(f, 48 + extract_scratch(8), "the function with scratch");
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    use_elem(k, out, zeros1(k, TJ_DTYPE_F32, 3, REG), 1);
    call(k, f, out);
    tj_func_destroy(f);
    return 32 + extract_scratch(4) + 48 + extract_scratch(8);
}

/* A function without shared memory adds nothing. */
static size_t
m_callee_without_shared(tj_kernel *k, tj_val *out)
{
    tj_func *f = tt_func("scalar_only", ty(TJ_DTYPE_I32));
    tj_val *x = tj_param(f, "x", ty(TJ_DTYPE_I32));
    tj_return(f, tj_binary(f, TJ_BIN_MUL, x, tt_i32(f, 3)));
    tt_kernel_ok(f, "scalar_only");
    expect_budget(f, 0, "the function");
    (void)out;
    zeros1(k, TJ_DTYPE_F32, 5, SHR);
    tj_val *a = tt_i32(k, 2);
    ck_assert_ptr_nonnull(tj_call(k, f, &a, 1));
    tj_func_destroy(f);
    return 32;
}

static const budget_row budget_rows[] = {
    {"one float32 tile of 5", m_f32_5},
    {"one uint8 (3, 3) tile", m_u8_3x3},
    {"one int16 tile of 1", m_i16_1},
    {"one vec3f tile of 7", m_vec3f_7},
    {"one float64 (4, 4) tile", m_f64_4x4},
    {"two tiles", m_two_tiles},
    {"zeros, ones and arange", m_three_fills},
    {"a shared tile_load", m_load_shared},
    {"a float32 stack of 5", m_stack_f32_5},
    {"a vec3f stack of 3", m_stack_vec3f_3},
    {"an int8 stack of 1", m_stack_i8_1},
    {"a float64 stack of 2", m_stack_f64_2},
    {"a tile and two stacks", m_tile_and_stacks},
    {"views and reshapes", m_views_and_reshapes},
    {"tile_view promotes", m_view_promotes},
    {"a reshape promotes once", m_reshape_promotes_once},
    {"tile_scatter_add promotes", m_scatter_promotes},
    {"tile_assign promotes dst", m_assign_promotes_dst},
    {"register tiles only", m_registers_only},
    {"a variable of a shared tile", m_var_of_shared},
    {"extract float64", m_extract_f64},
    {"extract mat33d", m_extract_mat33d},
    {"extract from a shared tile", m_extract_shared},
    {"extracts share the scratch", m_extracts_share_scratch},
    {"reduce float32", m_reduce_f32},
    {"reduce float64", m_reduce_f64},
    {"reductions of four types", m_reduce_slots},
    {"reduce along axis 1", m_reduce_axis1},
    {"reduce along axis 0", m_reduce_axis0},
    {"reduce long slices along axis 1", m_reduce_axis_long},
    {"reduce a shared tile along its axis", m_reduce_axis_shared},
    {"a reduction and an extract", m_reduce_and_extract},
    {"a callee with a tile", m_callee_tile},
    {"the largest callee", m_largest_callee},
    {"nested callees", m_nested_callees},
    {"a callee with scratch", m_callee_scratch},
    {"a callee without shared memory", m_callee_without_shared},
};

START_TEST(test_budget_counts_rounded_tiles_stacks_scratch_and_the_largest_callee)
{
    const budget_row *r = &budget_rows[tt_begin(_i)];
    tj_kernel *k = tt_kernel("budget");
    tj_val *out = tj_param_array(k, "out", ty(TJ_DTYPE_F32), 1);
    expect_budget(k, 0, "a new kernel");
    size_t want = r->make(k, out);
    expect_budget(k, want, r->name);
    tj_module *m = tt_build(k, r->name);
    tj_module_destroy(m);
}
END_TEST

/* ---- the regions at run time ----------------------------------------------------------------- */

enum { RG_BLOCKS = 6, RG_A = 5, RG_B = 21, RG_C = 10 };

/* out layout per block: A, B, C, then the popped value and the count before the pop. */
enum { RG_PER_BLOCK = RG_A + RG_B + RG_C + 2 };

static float
rg_in(int64_t i)
{
    return (float)(i % 1000) * 0.5f + 1.0f;
}

/* void load_c(in, out, blk): a shared tile of C values of block 'blk' loaded from 'in' and
 * stored into block blk's C slot of 'out'. */
static tj_func *
rg_func(void)
{
    tj_func *f = tt_func("load_c", NULL);
    tj_val *in = tj_param_array(f, "in", ty(TJ_DTYPE_F32), 1);
    tj_val *out = tj_param_array(f, "out", ty(TJ_DTYPE_F32), 1);
    tj_val *blk = tj_param(f, "blk", ty(TJ_DTYPE_I32));
    int n = RG_C;
    tj_val *base = tj_binary(f, TJ_BIN_MUL, blk, tt_i32(f, RG_C));
    tj_val *lo = tj_binary(f, TJ_BIN_ADD, base, tt_i32(f, RG_BLOCKS * (RG_A + RG_B)));
    tj_val *c = tj_tile_load(f, in, 1, &n, &lo, SHR);
    tj_val *so = tj_binary(f, TJ_BIN_ADD, tj_binary(f, TJ_BIN_MUL, blk, tt_i32(f, RG_PER_BLOCK)),
                           tt_i32(f, RG_A + RG_B));
    tj_tile_store(f, out, c, &so);
    tt_kernel_ok(f, "load_c");
    return f;
}

/* Block b loads tiles A (5 float32: 32 bytes) and B (21: 96 bytes) into shared memory,
 * pushes one value onto a stack of 3 float32 (16 + 16), then calls a function whose own
 * tile C (10: 48 bytes) is loaded and stored; only then are A, B and the stack read back.
 * Overlapping regions would show as C's (or another block's) values in A, B or the stack. */
START_TEST(test_budget_regions_of_a_block_do_not_overlap)
{
    tt_begin(_i);
    const tj_type *f32 = ty(TJ_DTYPE_F32);
    tj_func *f = rg_func();
    tj_kernel *k = tt_kernel("regions");
    tj_val *in = tj_param_array(k, "in", f32, 1), *out = tj_param_array(k, "out", f32, 1);
    tj_val *tid[2];
    ck_assert(tj_tid(k, 2, tid));
    tj_val *blk = tid[0], *lane = tid[1];
    int na = RG_A, nb = RG_B;
    tj_val *ao = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, RG_A));
    tj_val *bo = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, RG_B)),
                           tt_i32(k, RG_BLOCKS * RG_A));
    tj_val *a = tj_tile_load(k, in, 1, &na, &ao, SHR);
    tj_val *b = tj_tile_load(k, in, 1, &nb, &bo, SHR);
    tj_val *s = tj_tile_stack(k, 3, f32);
    tj_val *pushed = tj_binary(k, TJ_BIN_ADD, tj_cast(k, blk, f32),
                               tj_const_float(k, TJ_DTYPE_F32, 0.25));
    tj_tile_stack_push(k, s, pushed, tj_compare(k, TJ_CMP_EQ, lane, tt_i32(k, 0)));
    tj_val *args[3] = {in, out, blk};
    ck_assert_ptr_nonnull(tj_call(k, f, args, 3));
    tj_val *base = tj_binary(k, TJ_BIN_MUL, blk, tt_i32(k, RG_PER_BLOCK));
    tj_tile_store(k, out, a, &base);
    tj_val *ob = tj_binary(k, TJ_BIN_ADD, base, tt_i32(k, RG_A));
    tj_tile_store(k, out, b, &ob);
    tj_val *count = tj_tile_stack_count(k, s);
    tj_val *slot;
    tj_val *v = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, tt_i32(k, 0)));
    tj_val *pv = tj_binary(k, TJ_BIN_ADD, base, tt_i32(k, RG_A + RG_B + RG_C));
    tj_store(k, out, &pv, 1, v);
    tj_val *pc = tj_binary(k, TJ_BIN_ADD, pv, tt_i32(k, 1));
    tj_store(k, out, &pc, 1, tj_cast(k, count, f32));
    tj_if_end(k);
    expect_budget(k, 32 + 96 + 32 + 48, "the regions kernel");
    tj_func_destroy(f);
    tj_module *m = tt_build(k, "regions");
    tt_ptx_has(m, "st.shared");
    tt_ptx_has(m, "ld.shared");
    int64_t nin = RG_BLOCKS * (RG_A + RG_B + RG_C), nout = RG_BLOCKS * RG_PER_BLOCK;
    float *hin = malloc((size_t)nin * sizeof *hin), *hout = malloc((size_t)nout * sizeof *hout);
    ck_assert(hin && hout);
    for (int64_t i = 0; i < nin; i++)
        hin[i] = rg_in(i);
    for (int64_t i = 0; i < nout; i++)
        hout[i] = -1.0f;
    tj_array *ain = tt_array(f32, 1, &nin, hin), *aout = tt_array(f32, 1, &nout, hout);
    tj_arg largs[2] = {tj_arg_array(ain), tj_arg_array(aout)};
    if (tt_launch_tiled(m, "regions", RG_BLOCKS, largs, 2)) {
        tt_read(aout, hout);
        for (int64_t bk = 0; bk < RG_BLOCKS; bk++) {
            const float *o = hout + bk * RG_PER_BLOCK;
            for (int i = 0; i < RG_A; i++)
                ck_assert_msg(o[i] == rg_in(bk * RG_A + i), "(%s) block %lld: A[%d] is %g, "
                              "expected %g", tt_where(), (long long)bk, i, (double)o[i],
                              (double)rg_in(bk * RG_A + i));
            for (int i = 0; i < RG_B; i++) {
                float w = rg_in(RG_BLOCKS * RG_A + bk * RG_B + i);
                ck_assert_msg(o[RG_A + i] == w, "(%s) block %lld: B[%d] is %g, expected %g",
                              tt_where(), (long long)bk, i, (double)o[RG_A + i], (double)w);
            }
            for (int i = 0; i < RG_C; i++) {
                float w = rg_in(RG_BLOCKS * (RG_A + RG_B) + bk * RG_C + i);
                ck_assert_msg(o[RG_A + RG_B + i] == w, "(%s) block %lld: C[%d] is %g, "
                              "expected %g", tt_where(), (long long)bk, i,
                              (double)o[RG_A + RG_B + i], (double)w);
            }
            float pw = (float)bk + 0.25f;
            ck_assert_msg(o[RG_A + RG_B + RG_C] == pw && o[RG_A + RG_B + RG_C + 1] == 1.0f,
                          "(%s) block %lld: popped %g with count %g, expected %g with 1",
                          tt_where(), (long long)bk, (double)o[RG_A + RG_B + RG_C],
                          (double)o[RG_A + RG_B + RG_C + 1], (double)pw);
        }
    }
    free(hin);
    free(hout);
    tj_array_destroy(ain);
    tj_array_destroy(aout);
    tj_module_destroy(m);
}
END_TEST

/* ---- the device limit ------------------------------------------------------------------------ */

/* A kernel whose budget is 'max' exactly: one stack of (max - 16) / 8 float64 and its
 * counter. Lane 0 pushes 2.5; out[0] gets the count, out[1] the popped value. */
static tj_module *
at_limit_module(size_t max)
{
    const tj_type *f64 = ty(TJ_DTYPE_F64);
    tj_kernel *k = tt_kernel("at_limit");
    tj_val *out = tj_param_array(k, "out", f64, 1);
    tj_val *tid[2];
    ck_assert(tj_tid(k, 2, tid));
    tj_val *s = tj_tile_stack(k, (int64_t)((max - 16) / 8), f64);
    tj_val *lane0 = tj_compare(k, TJ_CMP_EQ, tid[1], tt_i32(k, 0));
    tj_tile_stack_push(k, s, tj_const_float(k, TJ_DTYPE_F64, 2.5), lane0);
    tj_val *count = tj_tile_stack_count(k, s);
    tj_val *slot;
    tj_val *v = tj_tile_stack_pop(k, s, &slot);
    tj_val *zero = tt_i32(k, 0), *one = tt_i32(k, 1);
    tj_if_begin(k, lane0);
    tj_store(k, out, &zero, 1, tj_cast(k, count, f64));
    tj_if_end(k);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, out, &one, 1, v);
    tj_if_end(k);
    expect_budget(k, max, "the kernel at the limit");
    return tt_build(k, "at_limit");
}

/* A kernel 16 bytes over 'max': two shared float64 tiles of max / 16 elements (max / 2
 * bytes each) and one float32 tile of 1 (16 bytes). */
static tj_module *
over_limit_module(size_t max)
{
    tj_kernel *k = tt_kernel("over_limit");
    tj_val *out = tj_param_array(k, "out", ty(TJ_DTYPE_F64), 1);
    int half = (int)(max / 16);
    tj_val *a = zeros1(k, TJ_DTYPE_F64, half, SHR);
    tj_val *b = zeros1(k, TJ_DTYPE_F64, half, SHR);
    zeros1(k, TJ_DTYPE_F32, 1, SHR);
    tj_tile_store(k, out, a, NULL);
    tj_tile_store(k, out, b, NULL);
    expect_budget(k, max + 16, "the kernel over the limit");
    return tt_build(k, "over_limit");
}

static void
run_at_limit(tj_module *m, tj_array *out)
{
    double got[2] = {-1, -1};
    tj_arg arg = tj_arg_array(out);
    ck_assert(tt_launch_tiled(m, "at_limit", 1, &arg, 1));
    ck_assert_ptr_null(tj_device_error(tt.dev));
    tt_read(out, got);
    ck_assert_msg(got[0] == 1.0 && got[1] == 2.5, "(%s) the kernel at the limit stored "
                  "count %g and value %g, expected 1 and 2.5", tt_where(), got[0], got[1]);
}

/* Launching over the limit fails before anything runs, naming the kernel, the budget, the
 * device and its limit (tj_launch and tj_launch_tiled alike); the same device then runs a
 * kernel whose budget is exactly the limit (on a GPU, above the 48 KiB default). */
START_TEST(test_budget_over_the_device_limit_fails_the_launch_and_the_device_stays_usable)
{
    tt_begin(_i);
    if (tt.kind == TT_CPU1)
        tjt_ok(tt.dev, tj_device_set_cpu_threads(tt.dev, 2)); /* two 64 MiB arenas at most */
    size_t max = tj_device_get_max_shared_bytes(tt.dev);
    if (tt.kind == TT_CPU1)
        ck_assert_uint_eq(max, (size_t)64 << 20);
    else
        ck_assert_uint_gt(max, 48 * 1024);
    ck_assert_uint_eq(max % 16, 0);
    tj_module *over = over_limit_module(max);
    tj_module *at = at_limit_module(max);
    tj_array *out = tt_array(ty(TJ_DTYPE_F64), 1, (const int64_t[]){2}, NULL);
    tj_arg arg = tj_arg_array(out);
    char want[512];
    for (int tiled = 0; tiled < 2; tiled++) {
        int64_t one = 1, nthreads = tt_B();
        tj_status st = tiled ? tj_launch_tiled(tt.dev, over, "over_limit", 1, &one, tt.block_dim,
                                               &arg, 1)
                             : tj_launch(tt.dev, over, "over_limit", 1, &nthreads, tt.block_dim,
                                         &arg, 1);
        ck_assert_msg(st == TJ_ERR_LIMIT, "(%s) status %s, expected TJ_ERR_LIMIT: %s",
                      tt_where(), tj_status_name(st),
                      tj_device_error(tt.dev) ? tj_device_error(tt.dev) : "no message");
        snprintf(want, sizeof want, "%s: kernel 'over_limit' needs %zu bytes of shared memory "
                 "per block; %s allows %zu", tiled ? "tj_launch_tiled" : "tj_launch", max + 16,
                 tj_device_get_name(tt.dev), max);
        ck_assert_ptr_nonnull(tj_device_error(tt.dev));
        ck_assert_str_eq(tj_device_error(tt.dev), want);
        if (tt.kind == TT_CPU1)
            ck_assert_str_eq(tj_device_get_name(tt.dev), "cpu (2 threads)");
        run_at_limit(at, out);
    }
    tj_array_destroy(out);
    tj_module_destroy(over);
    tj_module_destroy(at);
}
END_TEST

/* ---- recursion ------------------------------------------------------------------------------ */

/* A function rec(out, d) that, if 'with_tile', holds a shared tile of 64 float32, calls
 * 'next' with d - 1 while d > 0 and stores 1 + (the tile or nothing) at out[d]. */
static tj_func *
rec_func(const char *name, bool with_tile, tj_func *next)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_func *f = tj_func_create(tjt.ctx, name, NULL, &o);
    tj_val *out = tj_param_array(f, "out", f32, 1), *d = tj_param(f, "d", i32);
    int n = 64;
    tj_val *t = with_tile ? tj_tile_ones(f, f32, 1, &n, TJ_STORAGE_SHARED) : NULL;
    tj_if_begin(f, tj_compare(f, TJ_CMP_GT, d, tj_const_int(f, TJ_DTYPE_I32, 0)));
    tj_val *args[2] = {out, tj_binary(f, TJ_BIN_SUB, d, tj_const_int(f, TJ_DTYPE_I32, 1))};
    tj_call(f, next ? next : f, args, 2);
    tj_if_end(f);
    tj_val *zero = tj_const_int(f, TJ_DTYPE_I32, 0);
    tj_val *v = t ? tj_tile_extract(f, t, &zero, 1) : tj_const_float(f, TJ_DTYPE_F32, 1);
    tj_store(f, out, &d, 1, v);
    return f;
}

static tj_kernel *
rec_kernel(tj_func *f)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "rec_kernel", &o);
    tj_val *args[2] = {tj_param_array(k, "out", tjt_type(TJ_DTYPE_F32), 1),
                       tj_const_int(k, TJ_DTYPE_I32, 8)};
    tj_call(k, f, args, 2);
    return k;
}

/* Shared memory in a recursive call chain has no bound (each level places its callee's
 * arena after its own), so the build fails naming the function; recursion without shared
 * memory builds and runs. */
START_TEST(test_budget_rejects_shared_memory_in_recursion)
{
    tj_func *direct = rec_func("direct", true, NULL);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(rec_kernel(direct), NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "kernel 'rec_kernel': function 'direct' has 256 bytes of shared memory and "
                     "is called recursively (or nested more than 64 calls deep); each level "
                     "would need its own, so the block's budget has no bound");
    /* mutual: ping (no tile) -> pong (a tile) -> ping */
    tj_func *ping = tj_func_create(tjt.ctx, "ping", NULL, &(tj_kernel_options){0});
    tj_val *out = tj_param_array(ping, "out", tjt_type(TJ_DTYPE_F32), 1);
    tj_val *d = tj_param(ping, "d", tjt_type(TJ_DTYPE_I32));
    tj_func *pong = rec_func("pong", true, ping);
    tj_val *args[2] = {out, d};
    tj_if_begin(ping, tj_compare(ping, TJ_CMP_GT, d, tj_const_int(ping, TJ_DTYPE_I32, 0)));
    tj_call(ping, pong, args, 2);
    tj_if_end(ping);
    ck_assert_int_eq(tj_kernel_build(rec_kernel(ping), NULL, &m), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "kernel 'rec_kernel': function 'pong' has 256 bytes of shared memory and "
                     "is called recursively (or nested more than 64 calls deep); each level "
                     "would need its own, so the block's budget has no bound");
    /* without shared memory: out[0..8] = 1 */
    tj_func *plain = rec_func("plain", false, NULL);
    tj_kernel *k = rec_kernel(plain);
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    ck_assert_uint_eq(tj_kernel_get_shared_bytes(k), 0);
    int64_t n = 9, one = 1;
    tj_array *a = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_F32), n, NULL);
    tj_arg arg = tj_arg_array(a);
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "rec_kernel", 1, &one, 1, &arg, 1));
    float h[9];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, h, sizeof h));
    for (int i = 0; i < 9; i++)
        ck_assert_msg(h[i] == 1.0f, "out[%d] = %g", i, h[i]);
    tj_array_destroy(a);
    tj_module_destroy(m);
}
END_TEST

/* ---- the suite ------------------------------------------------------------------------------- */

static TCase *
make_case(tt_kind kind)
{
    TCase *tc = tt_tcase(kind);
    tt_add_rows(tc, kind, test_budget_counts_rounded_tiles_stacks_scratch_and_the_largest_callee,
                TT_NELEMS(budget_rows));
    tt_add_rows(tc, kind, test_budget_regions_of_a_block_do_not_overlap, 1);
    if (kind == TT_CPU1 || kind == TT_CUDA)
        tt_add_rows(tc, kind,
                    test_budget_over_the_device_limit_fails_the_launch_and_the_device_stays_usable,
                    1);
    return tc;
}

int
main(int argc, char **argv)
{
    Suite *s = suite_create("budget");
    TCase *errors = tt_errors_tcase();
    tcase_add_test(errors, test_budget_rejects_shared_memory_in_recursion);
    suite_add_tcase(s, errors);
    for (int kind = 0; kind < TT_NKINDS; kind++)
        suite_add_tcase(s, make_case((tt_kind)kind));
    return tj_test_main(argc, argv, s);
}
