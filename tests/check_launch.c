/* tj-test: CUDA */
/*
 * tests/check_launch.c: launching kernels (SPEC 1): tid() with 1-4 coordinates over launches
 * of 1-4 dimensions and the folding rule, launch versus launch_tiled, partial blocks in
 * width-1 and cooperative mode and on the GPU, block_dim(), empty and large launches,
 * arguments of every scalar type and as bytes, arrays of 1-4 dimensions, every launch error
 * with its exact message, and debug builds' index checks (SPEC 5).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300 };
enum { ON_CPU1 = 0, ON_COOP = 1, ON_PTX = 2, ON_CUDA = 3, NWHERE = 4 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define I32 tjt_type(TJ_DTYPE_I32)
#define F32 tjt_type(TJ_DTYPE_F32)
#define I64 tjt_type(TJ_DTYPE_I64)
#define F64 tjt_type(TJ_DTYPE_F64)

/* ---- targets ------------------------------------------------------------------------------ */

/* The block_dim each target uses unless a test says otherwise: width-1 mode accepts any
 * block_dim (and runs blocks of one lane); 32 in cooperative mode, 64 on the GPU. */
static const uint32_t default_block[NWHERE] = {
    [ON_CPU1] = 4, [ON_COOP] = 32, [ON_PTX] = 64, [ON_CUDA] = 64};

static int g_where;

static tj_kernel_options
opts_for(int where, uint32_t block_dim)
{
    return (tj_kernel_options){
        .target = where == ON_PTX || where == ON_CUDA ? TJ_TARGET_CUDA : TJ_TARGET_CPU,
        .block_dim = block_dim,
        .cpu_mode = where == ON_COOP ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1,
    };
}

static tj_device *
device(void)
{
    return g_where == ON_CUDA ? tjt_gpu() : tjt.cpu;
}

/* The block width the kernel sees: 1 in width-1 mode, else the block_dim. */
static uint32_t
width_of(uint32_t block_dim)
{
    return g_where == ON_CPU1 ? 1 : block_dim;
}

static tj_val *
bin(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    return tj_binary(k, op, a, b);
}

static void
put(tj_kernel *k, tj_val *arr, tj_val *i, tj_val *v)
{
    ck_assert(tj_store(k, arr, &i, 1, v));
}

static tj_module *
build(tj_kernel *k)
{
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    return tjt_build(k);
}

static void
check_ptx_has(tj_module *m, const char *what)
{
    const char *ptx = tj_module_get_ptx(m);
    ck_assert_ptr_nonnull(ptx);
    ck_assert_msg(strstr(ptx, what), "no '%s' in the PTX", what);
}

/* An int32 array of 'n' elements, every element 'fill'. */
static tj_array *
filled(int64_t n, int32_t fill)
{
    int32_t *h = malloc((size_t)(n ? n : 1) * sizeof *h);
    ck_assert_ptr_nonnull(h);
    for (int64_t i = 0; i < n; i++)
        h[i] = fill;
    tj_array *a = tjt_array(device(), I32, n, h);
    free(h);
    return a;
}

static int32_t *
to_host(const tj_array *a)
{
    size_t bytes = tj_array_get_bytes(a);
    int32_t *h = malloc(bytes ? bytes : 1);
    ck_assert_ptr_nonnull(h);
    tjt_ok(device(), tj_array_copy_to_host(a, h, bytes));
    return h;
}

/* ---- tid and the folding rule --------------------------------------------------------------- */

/* A kernel that reads tid() with 'nfull' coordinates (the launch's rank, to find its slot
 * out[lin * 4 ..]) and with 'ncoords' coordinates, which it stores (-1 in unused slots). */
static tj_kernel *
tid_kernel(const char *name, int nfull, const int64_t *dims, int ncoords, uint32_t block_dim)
{
    tj_kernel_options o = opts_for(g_where, block_dim);
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *full[4], *part[4];
    ck_assert(tj_tid(k, nfull, full));
    ck_assert(tj_tid(k, ncoords, part));
    tj_val *lin = full[0];
    for (int d = 1; d < nfull; d++)
        lin = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, lin, ci(k, dims[d])), full[d]);
    tj_val *base = bin(k, TJ_BIN_MUL, lin, ci(k, 4));
    for (int c = 0; c < 4; c++)
        put(k, out, bin(k, TJ_BIN_ADD, base, ci(k, c)), c < ncoords ? part[c] : ci(k, -1));
    return k;
}

static int64_t
product(const int64_t *dims, int n)
{
    int64_t p = 1;
    for (int d = 0; d < n; d++)
        p *= dims[d];
    return p;
}

/* SPEC 1: fold the trailing launch dims away, then unravel row-major. */
static void
ref_coords(const int64_t *dims, int ndim, int ncoords, int64_t lin, int32_t out[4])
{
    int64_t v = lin / product(dims + ncoords, ndim - ncoords);
    for (int d = ncoords - 1; d >= 0; d--) {
        out[d] = (int32_t)(d == 0 ? v : v % dims[d]);
        v /= dims[d];
    }
    for (int d = ncoords; d < 4; d++)
        out[d] = -1;
}

static void
check_coords(const int32_t *got, const int64_t *dims, int ndim, int ncoords, const char *what)
{
    int64_t n = product(dims, ndim);
    for (int64_t lin = 0; lin < n; lin++) {
        int32_t want[4];
        ref_coords(dims, ndim, ncoords, lin, want);
        for (int c = 0; c < 4; c++)
            ck_assert_msg(got[lin * 4 + c] == want[c],
                          "%s: thread %lld, coordinate %d of %d: got %d, expected %d", what,
                          (long long)lin, c, ncoords, got[lin * 4 + c], want[c]);
    }
}

static const struct tid_row {
    int ndim;
    int64_t dims[4];
    int ncoords;
} tid_rows[] = {
    {1, {37}, 1},
    {2, {5, 7}, 1},       {2, {5, 7}, 2},
    {3, {3, 4, 5}, 1},    {3, {3, 4, 5}, 2},    {3, {3, 4, 5}, 3},
    {4, {2, 3, 4, 5}, 1}, {4, {2, 3, 4, 5}, 2}, {4, {2, 3, 4, 5}, 3}, {4, {2, 3, 4, 5}, 4},
    {2, {1, 33}, 2},      {3, {7, 1, 3}, 3},    {4, {1, 1, 1, 70}, 2},
    /* dimensions that are no powers of two, with coordinates of several digits (width-1 CPU
     * entries keep them from block to block: test_width1_tid_reads_coordinates_the_entry_keeps) */
    {2, {3, 20011}, 2},   {3, {2, 1, 30011}, 1}, {3, {3, 5, 4099}, 2},
};

START_TEST(test_tid_unravels_and_folds_the_launch_dims)
{
    const struct tid_row *r = &tid_rows[_i % NROWS(tid_rows)];
    g_where = _i / NROWS(tid_rows);
    uint32_t bd = default_block[g_where];
    tj_kernel *k = tid_kernel("tid_fold", r->ndim, r->dims, r->ncoords, bd);
    tj_module *m = build(k);
    if (g_where == ON_PTX) {
        check_ptx_has(m, "%ctaid.x");
        check_ptx_has(m, "%tid.x");
        return;
    }
    int64_t n = product(r->dims, r->ndim);
    tj_array *out = filled(n * 4, -99);
    tj_arg arg = tj_arg_array(out);
    tjt_ok(device(), tj_launch(device(), m, "tid_fold", r->ndim, r->dims, bd, &arg, 1));
    int32_t *got = to_host(out);
    char what[64];
    snprintf(what, sizeof what, "%d-dim launch", r->ndim);
    check_coords(got, r->dims, r->ndim, r->ncoords, what);
    free(got);
}
END_TEST

/* Whether the PTX has a generic load or store (ld.u32, st.volatile.f32: no state space). */
static bool
has_generic_access(const char *ptx)
{
    static const char *const spaces[] = {".global", ".shared", ".param", ".local", ".const"};
    for (const char *l = ptx; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        l += strspn(l, " \t");
        if (strncmp(l, "ld.", 3) != 0 && strncmp(l, "st.", 3) != 0)
            continue;
        size_t len = strcspn(l, " \t\n");
        bool spaced = false;
        for (size_t i = 0; i < NROWS(spaces) && !spaced; i++) {
            const char *hit = strstr(l, spaces[i]);
            spaced = hit && (size_t)(hit - l) < len;
        }
        if (!spaced)
            return true;
    }
    return false;
}

/* A GPU kernel 'name' with two rank-1 arrays of 'elem' (the input 'a' and the output 'b')
 * and tid = (block, lane). */
static tj_kernel *
gpu_kernel_of_two_arrays(const char *name, uint32_t block_dim, const tj_type *elem, tj_val **a,
                         tj_val **b, tj_val *tid[2])
{
    tj_kernel_options o = opts_for(ON_PTX, block_dim);
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    *a = tj_param_array(k, "a", elem, 1);
    *b = tj_param_array(k, "b", elem, 1);
    ck_assert(tj_tid(k, 2, tid));
    return k;
}

/* Every build of the GPU, the default (NVPTX codegen at level None, passes.c) and an explicit
 * O3 (LLVM's full codegen), addresses arrays as global and tiles as shared memory, and
 * divides tid() by 32 bits when the values fit (GPUs have no 64-bit divider). */
START_TEST(test_gpu_builds_use_global_and_shared_accesses_and_32_bit_tid_divisions)
{
    static const tj_opt_level levels[] = {TJ_OPT_DEFAULT, TJ_OPT_O3};
    int n = 64;
    tj_val *x, *out, *tid[2];
    tj_kernel *k = gpu_kernel_of_two_arrays("spaces", 64, I32, &x, &out, tid);
    tj_val *zero = ci(k, 0);
    tj_val *t = tj_tile_load(k, x, 1, &n, &zero, TJ_STORAGE_SHARED);
    ck_assert(tj_tile_store(k, out, t, &zero));
    put(k, out, bin(k, TJ_BIN_ADD, tid[0], tid[1]), ci(k, 7));
    for (size_t i = 0; i < NROWS(levels); i++) {
        tj_module *m = NULL;
        tj_build_options bo = {.opt_level = levels[i]};
        ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
        const char *ptx = tj_module_get_ptx(m);
        tjt_check_ptx(ptx);
        check_ptx_has(m, "ld.global");
        check_ptx_has(m, "st.global");
        check_ptx_has(m, "ld.shared");
        check_ptx_has(m, "st.shared");
        check_ptx_has(m, "div.u32");
        /* one test whether the index and the launch's dimensions fit, for both divisions */
        if (levels[i] == TJ_OPT_DEFAULT)
            ck_assert_int_eq(tjt_occurrences(ptx, "4294967295"), 1);
        ck_assert_msg(!has_generic_access(ptx), "opt level %d: a generic access in the PTX",
                      (int)levels[i]);
        tj_module_destroy(m);
    }
}
END_TEST

/* Under launch_tiled, whose last dimension is the block width, a GPU kernel's tid() of one
 * or two coordinates is (block, lane) without the divisions (about 45 SASS instructions a
 * thread): the build tests for it once (arrays.c, the test named TJI_TILED_FLAG, as on the
 * CPU); test_launch_tiled_tid1_is_the_block_and_tid2_the_lane checks the values on a GPU. A
 * tid() of three coordinates divides. */
START_TEST(test_gpu_tid_of_a_tiled_launch_skips_its_divisions)
{
    for (int ncoords = 1; ncoords <= 3; ncoords++) {
        tj_kernel_options o = opts_for(ON_PTX, 64);
        tj_kernel *k = tj_kernel_create(tjt.ctx, "tiled_tid", &o);
        tj_val *out = tj_param_array(k, "out", I32, 1);
        tj_val *tid[3];
        ck_assert(tj_tid(k, ncoords, tid));
        put(k, out, tid[ncoords - 1], tid[0]);
        tj_module *m = NULL;
        tj_build_options bo = {.keep_ir = true};
        ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
        tjt_check_ptx(tj_module_get_ptx(m));
        bool tested = strstr(tj_module_get_ir(m), "br i1 %tid.is_tiled") != NULL;
        ck_assert_msg(tested == (ncoords <= 2), "tid() of %d coordinates: %s", ncoords,
                      tested ? "a test for a tiled launch" : "no test for a tiled launch");
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* A width-1 CPU block is one thread, and the entry runs its blocks in a loop
 * (jit/target_host.c): y[i] = 2 x[i] + y[i] of i = tid(). Its argument block is noalias and
 * aligned, so its loads leave the loop; tid() of one coordinate tests whether the launch has
 * dimensions to fold (arrays.c: "tid.unfolded"), a test LLVM takes out of the loop, which
 * it splits in two: the copy for launches with nothing to fold ("run.us") divides nothing.
 * 5.0 ns a thread before, 1.1 after (bench/RESULTS.md, 2026-12-06, ninth session);
 * test_tid_unravels_and_folds_the_launch_dims checks the values of both paths. */
START_TEST(test_width1_threads_run_in_a_loop_without_divisions)
{
    tj_kernel_options o = opts_for(ON_CPU1, 1);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "axpy", &o);
    tj_val *x = tj_param_array(k, "x", F32, 1), *y = tj_param_array(k, "y", F32, 1);
    tj_val *i = NULL;
    ck_assert(tj_tid(k, 1, &i));
    tj_val *two = tj_const_float(k, TJ_DTYPE_F32, 2.0);
    put(k, y, i, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, two, tj_load(k, x, &i, 1)),
                     tj_load(k, y, &i, 1)));
    tj_module *m = NULL;
    tj_build_options bo = {.keep_ir = true};
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *ir = tj_module_get_ir(m);
    ck_assert_msg(strstr(ir, "ptr noalias nocapture readonly align 16 dereferenceable("),
                  "the argument block is not noalias and aligned");
    const char *run = strstr(ir, "\nrun.us:");
    ck_assert_msg(run, "the loop over blocks is not split on tid()'s test");
    const char *end = strstr(run + 1, "\n\n");
    ck_assert_ptr_nonnull(end);
    bool stores = false, divides = false;
    for (const char *l = run + 1; l < end; l = strchr(l, '\n') + 1) {
        stores = stores || strncmp(l, "  store float", 13) == 0;
        const char *eol = strchr(l, '\n'), *div = strstr(l, " udiv ");
        divides = divides || (div && div < eol);
    }
    ck_assert_msg(stores && !divides, "the loop without folding %s",
                  !stores ? "does not store y[i]" : "divides");
    /* and it runs */
    enum { N = 1000 };
    float hx[N], hy[N];
    for (int j = 0; j < N; j++) {
        hx[j] = (float)j;
        hy[j] = 1.0f;
    }
    int64_t n = N;
    tj_array *ax = NULL, *ay = NULL;
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, F32, 1, &n, &ax));
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, F32, 1, &n, &ay));
    tjt_ok(tjt.cpu, tj_array_copy_from_host(ax, hx, sizeof hx));
    tjt_ok(tjt.cpu, tj_array_copy_from_host(ay, hy, sizeof hy));
    tj_arg args[] = {tj_arg_array(ax), tj_arg_array(ay)};
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "axpy", 1, &n, 1, args, 2));
    tjt_ok(tjt.cpu, tj_device_synchronize(tjt.cpu));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(ay, hy, sizeof hy));
    for (int j = 0; j < N; j++)
        ck_assert_msg(hy[j] == 2.0f * (float)j + 1.0f, "y[%d] = %g", j, hy[j]);
    tj_array_destroy(ax);
    tj_array_destroy(ay);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* A width-1 CPU block's tid() of several coordinates divided its index by the launch's
 * dimensions: up to three dependent 32-bit divisions a block (0.76 of C's loop for
 * y = 2x + y over (16, 16) tiles, 0.85-0.87 without them: bench/RESULTS.md, 2026-12-07,
 * third session). The entry now keeps the block's coordinates as it goes from block to block
 * (jit/target_host.c): divisions only before the loop over blocks, for its first block, and
 * the loop kept rolled. test_tid_unravels_and_folds_the_launch_dims checks the values. */
START_TEST(test_width1_tid_reads_coordinates_the_entry_keeps)
{
    g_where = ON_CPU1;
    static const int64_t dims[] = {3, 4, 5, 6};
    tj_kernel *k = tid_kernel("tid_coords", 4, dims, 2, 1); /* folds dims 2 and 3 */
    tj_module *m = NULL;
    tj_build_options bo = {.keep_ir = true};
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *ir = tj_module_get_ir(m);
    const char *loop = strstr(ir, "\nbody:"), *div = strstr(ir, " udiv ");
    ck_assert_msg(loop && div && div < loop, "no division before the loop over blocks:\n%s", ir);
    for (const char *d = div; d; d = strstr(d + 1, " udiv "))
        ck_assert_msg(d < loop, "a division in the loop over blocks:\n%s", ir);
    const char *r = strstr(ir, " urem ");
    ck_assert_msg(!r || r < loop, "a remainder in the loop over blocks:\n%s", ir);
    ck_assert_msg(strstr(ir, "llvm.loop.unroll.disable"), "the loop over blocks is unrolled");
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* A GPU kernel is one function however large its body: the body moves into the entry and
 * everything else is inlined (target_nvptx.c). LLVM's cost-driven inliner left a body this
 * large out of line, as a call whose arguments went through local memory. A recursive
 * function stays a call. */
START_TEST(test_gpu_kernels_are_one_function_however_large)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = opts_for(ON_PTX, 64);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "large_body", &o);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *tid[2];
    ck_assert(tj_tid(k, 2, tid));
    tj_val *acc = tj_cast(k, tid[1], f32);
    for (int i = 0; i < 160; i++)
        acc = tj_unary(k, TJ_UN_SIN, bin(k, TJ_BIN_ADD, acc, tj_const_float(k, TJ_DTYPE_F32, i)));
    put(k, out, tid[1], acc);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    const char *ptx = tj_module_get_ptx(m);
    tjt_check_ptx(ptx);
    ck_assert_msg(!strstr(ptx, ".func") && !strstr(ptx, "call"),
                  "the PTX of a large kernel has a function call");
    tj_module_destroy(m);

    tj_func *f = tj_func_create(tjt.ctx, "count_down", I32, &o);
    tj_val *n = tj_param(f, "n", I32);
    ck_assert(tj_if_begin(f, tj_compare(f, TJ_CMP_LE, n, ci(f, 0))));
    ck_assert(tj_return(f, ci(f, 0)));
    ck_assert(tj_if_end(f));
    tj_val *nm1 = bin(f, TJ_BIN_SUB, n, ci(f, 1));
    ck_assert(tj_return(f, bin(f, TJ_BIN_ADD, tj_call(f, f, &nm1, 1), ci(f, 1))));
    tj_kernel *kr = tj_kernel_create(tjt.ctx, "recursive", &o);
    tj_val *outi = tj_param_array(kr, "out", I32, 1);
    tj_val *t2[2];
    ck_assert(tj_tid(kr, 2, t2));
    put(kr, outi, t2[1], tj_call(kr, f, &t2[1], 1));
    ck_assert_int_eq(tj_kernel_build(kr, NULL, &m), TJ_OK);
    ptx = tj_module_get_ptx(m);
    tjt_check_ptx(ptx);
    ck_assert_msg(strstr(ptx, ".func") && strstr(ptx, "call"),
                  "the recursive function is not a call");
    tj_module_destroy(m);
    tj_func_destroy(f);
}
END_TEST

/* The number of warp shuffles and votes in 'ptx' whose member mask is the immediate -1 (the
 * whole warp). */
static int
full_mask_syncs(const char *ptx)
{
    int n = 0;
    for (const char *l = ptx; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        bool sync = false, full = false;
        for (size_t i = 0; i + 5 <= len; i++) {
            sync = sync || !strncmp(l + i, ".sync", 5);
            full = full || !strncmp(l + i, ", -1;", 5);
        }
        n += sync && full;
    }
    return n;
}

/* A kernel whose push takes a ballot and a shuffle: one stack push per lane. */
static tj_kernel *
push_kernel(const char *name, uint32_t block_dim)
{
    tj_kernel_options o = opts_for(ON_PTX, block_dim);
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *tid[2];
    ck_assert(tj_tid(k, 2, tid));
    tj_val *s = tj_tile_stack(k, 64, I32);
    tj_tile_stack_push(k, s, tid[1], tj_compare(k, TJ_CMP_LT, tid[1], ci(k, 3)));
    put(k, out, tid[1], tj_tile_stack_count(k, s));
    return k;
}

/* Shuffles and votes name the warp's running lanes with a mask in a register for every
 * block size, never the immediate -1 in a branch of their own for whole warps (ptxas wraps
 * such a branch in a convergence region and a divergence check: target_nvptx.c's
 * call_warp). The push's counter stays in shared memory, where its atomic is defined, even
 * for one lane. */
START_TEST(test_gpu_warp_calls_take_the_running_lanes_mask_in_a_register)
{
    static const struct {
        uint32_t dims[2];
        size_t n;
    } rows[] = {{{1}, 1}, {{8}, 1}, {{31}, 1}, {{32}, 1}, {{64}, 1}, {{8, 64}, 2}, {{4, 16}, 2}};
    for (size_t r = 0; r < NROWS(rows); r++) {
        tj_kernel *ks[2];
        for (size_t i = 0; i < rows[r].n; i++) {
            char name[32];
            snprintf(name, sizeof name, "push_%u", rows[r].dims[i]);
            ks[i] = push_kernel(name, rows[r].dims[i]);
        }
        tj_module *m = NULL;
        ck_assert_int_eq(tj_module_build(tjt.ctx, ks, rows[r].n, NULL, &m), TJ_OK);
        const char *ptx = tj_module_get_ptx(m);
        tjt_check_ptx(ptx);
        ck_assert_msg(strstr(ptx, "vote.sync.ballot") && strstr(ptx, "shfl.sync"),
                      "row %zu: the push has no ballot and shuffle", r);
        /* the counter is shared memory even for one lane: PTX atomics on local memory are
         * undefined */
        ck_assert_msg(!strstr(ptx, ".local"), "row %zu: the PTX uses local memory", r);
        int full = full_mask_syncs(ptx);
        ck_assert_msg(full == 0, "row %zu (block_dim %u%s): %d warp calls with the full mask", r,
                      rows[r].dims[0], rows[r].n > 1 ? " and another" : "", full);
        tj_module_destroy(m);
        for (size_t i = 0; i < rows[r].n; i++)
            tj_kernel_destroy(ks[i]);
    }
}
END_TEST

/* A GPU kernel takes the shared arena's address once (target_nvptx.c's one_smem_base):
 * code generation at level None would materialise the symbol in each block that uses it
 * ('mov.u64 %rd, __tj_smem'), and ptxas then computes the shared window's base again for
 * each. A loop of pushes, a drain of pops and a count use the arena in many blocks. (Only
 * kernels use it: other functions are inlined, or recursive and without shared memory.) */
START_TEST(test_gpu_kernels_take_the_shared_arena_address_once)
{
    tj_kernel_options o = opts_for(ON_PTX, 64);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "arena_once", &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *tid[2];
    ck_assert(tj_tid(k, 2, tid));
    tj_val *s = tj_tile_stack(k, 256, I32);
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 4), ci(k, 1));
    tj_tile_stack_push(k, s, j, tj_compare(k, TJ_CMP_LT, tid[1], j));
    ck_assert(tj_for_end(k));
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), ci(k, 0))));
    tj_val *slot = NULL;
    tj_val *v = tj_tile_stack_pop(k, s, &slot);
    ck_assert(tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, ci(k, 0))));
    put(k, out, slot, v);
    ck_assert(tj_if_end(k));
    ck_assert(tj_while_end(k));
    tj_module *m = NULL;
    ck_assert_msg(tj_kernel_build(k, NULL, &m) == TJ_OK, "%s", tj_context_error(tjt.ctx));
    const char *ptx = tj_module_get_ptx(m);
    tjt_check_ptx(ptx);
    ck_assert_int_eq(tjt_occurrences(ptx, ", __tj_smem;"), 1);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* The number of bar.sync instructions of 'ptx' that directly follow another. */
static int
repeated_barriers(const char *ptx)
{
    int n = 0;
    bool after = false;
    for (const char *l = ptx; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        while (*l == ' ' || *l == '\t')
            l++;
        if (*l == '\n' || *l == '\0')
            continue;
        bool bar = !strncmp(l, "bar.sync", 8) || !strncmp(l, "barrier.sync", 12);
        n += bar && after;
        after = bar;
    }
    return n;
}

/* The bench's view copy at block_dim 256: a tile of 4096 per block loaded into registers,
 * assigned through a view of a whole shared tile, and stored from the view; or with 'half',
 * only 2048 elements of it are stored, from the second on (through a view of them). */
static tj_kernel *
view_copy_kernel(bool half)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_val *src, *dst, *tid[2];
    tj_kernel *k = gpu_kernel_of_two_arrays("view_copy", 256, f32, &src, &dst, tid);
    int n = 4096;
    tj_val *off = bin(k, TJ_BIN_MUL, tid[0], ci(k, n));
    tj_val *t = tj_tile_load(k, src, 1, &n, &off, TJ_STORAGE_REGISTER);
    tj_val *buf = tj_tile_zeros(k, f32, 1, &n, TJ_STORAGE_SHARED);
    tj_view_index all = tj_view_slice(TJ_SLICE_NONE, TJ_SLICE_NONE, TJ_SLICE_NONE);
    tj_val *view = tj_tile_view(k, buf, &all, 1, NULL, 0);
    ck_assert(tj_tile_assign(k, view, t, NULL));
    if (half) {
        tj_view_index part = tj_view_slice(1, 1 + n / 2, 1);
        view = tj_tile_view(k, view, &part, 1, NULL, 0);
    }
    ck_assert(tj_tile_store(k, dst, view, &off));
    return k;
}

/* The view copies' barriers. Storing part of the tile, a lane stores elements that its
 * neighbour wrote, so the barrier after the assign stays; and a barrier that directly
 * follows another waits for nothing and is dropped: here a view's write fence and the
 * assign's barrier, which met once the code between them folded away. Storing the whole
 * view (the bench's copy), each lane stores the elements it wrote itself (the owner of
 * element e is lane e mod 256 in both), which needs no barrier, and takes them from its
 * registers (builtins/memory.c, tji_barrier_owed_for): the fill was dropped, so no barrier
 * is left, nor any read of shared memory. */
START_TEST(test_gpu_view_copies_keep_the_barriers_other_lanes_need)
{
    for (int half = 0; half < 2; half++) {
        tj_kernel *k = view_copy_kernel(half);
        tj_module *m = NULL;
        ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
        const char *ptx = tj_module_get_ptx(m);
        tjt_check_ptx(ptx);
        bool bar = strstr(ptx, "bar.sync") || strstr(ptx, "barrier.sync");
        ck_assert_msg(bar == half, "%s: %s", half ? "part" : "whole",
                      bar ? "a barrier" : "no barrier at all");
        ck_assert_int_eq(repeated_barriers(ptx), 0);
        if (!half)
            ck_assert_ptr_null(strstr(ptx, "ld.shared"));
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* The NVPTX entry stores the parameters into an argument block for the body to read back;
 * lowering hands the body the parameters themselves (target_nvptx.c's forward_args).
 * Without that, a build at O0, which runs no scalar replacement, keeps the block in local
 * memory. */
START_TEST(test_gpu_entries_hand_the_body_its_parameters_without_local_memory)
{
    tj_val *a, *b, *tid[2];
    tj_kernel *k = gpu_kernel_of_two_arrays("forwarded", 64, I32, &a, &b, tid);
    put(k, b, tid[1], bin(k, TJ_BIN_ADD, tj_load(k, a, &tid[1], 1), tid[0]));
    tj_module *m = NULL;
    tj_build_options bo = {.opt_level = TJ_OPT_O0};
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *ptx = tj_module_get_ptx(m);
    tjt_check_ptx(ptx);
    ck_assert_msg(!strstr(ptx, ".local"), "local memory in the PTX:\n%s", ptx);
    tj_module_destroy(m);
}
END_TEST

/* A loop that synchronises the block in every iteration stays a loop on the GPU, as
 * unrolling it only makes code generation longer (control.c): here two iterations of a
 * push, whose ballot is one vote instruction in each copy. The mark that keeps LLVM from
 * unrolling it does not reach ptxas as a "nounroll". A loop without a barrier is unrolled
 * as before. */
START_TEST(test_gpu_loops_that_synchronise_the_block_stay_rolled)
{
    tj_val *a, *b, *tid[2];
    tj_kernel *k = gpu_kernel_of_two_arrays("rolled", 4, I32, &a, &b, tid);
    tj_val *s = tj_tile_stack(k, 8, I32);
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 8), ci(k, 4));
    tj_val *v = tj_load(k, a, (tj_val *[]){bin(k, TJ_BIN_ADD, j, tid[1])}, 1);
    ck_assert(tj_tile_stack_push(k, s, v, tj_compare(k, TJ_CMP_GT, v, ci(k, 5))));
    ck_assert(tj_for_end(k));
    put(k, b, tid[1], tj_tile_stack_count(k, s));
    tj_module *m = tjt_build(k);
    const char *ptx = tj_module_get_ptx(m);
    ck_assert_int_eq(tjt_occurrences(ptx, "vote.sync.ballot"), 1);
    ck_assert_msg(!strstr(ptx, "nounroll"), "the PTX tells ptxas not to unroll");
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    /* without a barrier, LLVM unrolls it as before: four loads in each of its two copies
     * (loop_version.c: one for a unit stride of 'a', the other for any stride) */
    k = gpu_kernel_of_two_arrays("unrolled", 4, I32, &a, &b, tid);
    tj_val *sum = tj_var_new(k, ci(k, 0));
    j = tj_for_begin(k, ci(k, 0), ci(k, 16), ci(k, 4));
    v = tj_load(k, a, (tj_val *[]){bin(k, TJ_BIN_ADD, j, tid[1])}, 1);
    ck_assert(tj_var_set(k, sum, bin(k, TJ_BIN_ADD, tj_var_get(k, sum), v)));
    ck_assert(tj_for_end(k));
    put(k, b, tid[1], tj_var_get(k, sum));
    m = tjt_build(k);
    ck_assert_int_eq(tjt_occurrences(tj_module_get_ptx(m), "ld.global"), 8);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* But a loop whose counter indexes a register tile is unrolled, so that the tile stays in
 * registers: tile_extract(t, i) reads slot i / B of the tile, constant only once the loop
 * is unrolled. The counter reaches the index directly, through arithmetic, and through a
 * variable it is stored into. */
START_TEST(test_gpu_loops_indexing_a_register_tile_are_unrolled)
{
    static const char *const ways[] = {"directly", "through arithmetic", "through a variable"};
    for (int w = 0; w < 3; w++) {
        tj_val *a, *b, *tid[2];
        tj_kernel *k = gpu_kernel_of_two_arrays("unrolled", 4, I32, &a, &b, tid);
        int n = 8;
        tj_val *zero = ci(k, 0);
        tj_val *t = tj_tile_load(k, a, 1, &n, &zero, TJ_STORAGE_REGISTER);
        tj_val *sum = tj_var_new(k, ci(k, 0));
        tj_val *held = tj_var_new(k, ci(k, 0));
        tj_val *i = tj_for_begin(k, ci(k, 0), ci(k, w == 1 ? 4 : 8), ci(k, 1));
        tj_val *e = i;
        if (w == 1)
            e = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, i, ci(k, 2)), ci(k, 1));
        if (w == 2) {
            ck_assert(tj_var_set(k, held, i));
            e = tj_var_get(k, held);
        }
        tj_val *x = tj_tile_extract(k, t, &e, 1);
        ck_assert(tj_var_set(k, sum, bin(k, TJ_BIN_ADD, tj_var_get(k, sum), x)));
        ck_assert(tj_for_end(k));
        put(k, b, tid[1], tj_var_get(k, sum));
        tj_module *m = tjt_build(k);
        const char *ptx = tj_module_get_ptx(m);
        ck_assert_msg(!strstr(ptx, ".local"), "%s: the tile is in local memory", ways[w]);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* Every launch runs blocks of exactly block_dim threads (launch.c checks it), so the lane
 * read from %tid.x is known to be below block_dim (target_nvptx.c). Then the guards of a
 * whole-tile assign through a view, lane + 256 k < 4096, fold away; with them, ptxas kept
 * their 16 sums live, and the bench's view copy took 48 registers instead of 32. */
START_TEST(test_gpu_lanes_are_known_to_be_below_the_block_dim)
{
    static const uint32_t dims[] = {32, 256, 1000};
    tj_build_options bo = {.keep_ir = true};
    for (size_t i = 0; i < NROWS(dims); i++) {
        tj_val *a, *b, *tid[2];
        tj_kernel *k = gpu_kernel_of_two_arrays("lane_range", dims[i], I32, &a, &b, tid);
        put(k, b, tid[1], tj_load(k, a, &tid[1], 1));
        tj_module *m = NULL;
        ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
        char want[96];
        snprintf(want, sizeof want, "range(i32 0, %u) i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
                 dims[i]);
        ck_assert_msg(strstr(tj_module_get_ir(m), want), "block_dim %u: no '%s'", dims[i],
                      want);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
    tj_kernel *k = view_copy_kernel(false);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &bo, &m), TJ_OK);
    const char *ir = tj_module_get_ir(m);
    const char *call = strstr(ir, " = call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x");
    ck_assert_ptr_nonnull(call);
    const char *name = call;
    while (name > ir && name[-1] != '%')
        name--;
    char guard[64];
    snprintf(guard, sizeof guard, "icmp ult i32 %%%.*s,", (int)(call - name), name);
    ck_assert_msg(!strstr(ir, guard), "the lane is still compared: '%s'", guard);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* tile_load and tile_store take an unchecked path when the whole tile is inside a dense
 * array, but only where a lane has more than two elements (memory.c): a 2 x 3 tile over 4
 * lanes or a tile of 4 over 2 (two elements a lane) is only checked, with one load per
 * element; a tile of 6 over 2 (three a lane) has both paths, six loads. */
START_TEST(test_gpu_tile_accesses_have_a_fast_path_only_where_it_pays)
{
    static const struct {
        int rank, shape[2];
        uint32_t block_dim;
        int loads;
    } rows[] = {{2, {2, 3}, 4, 2}, {1, {4}, 2, 2}, {1, {6}, 2, 6}};
    for (size_t r = 0; r < NROWS(rows); r++) {
        tj_kernel_options o = opts_for(ON_PTX, rows[r].block_dim);
        tj_kernel *k = tj_kernel_create(tjt.ctx, "paths", &o);
        tj_val *a = tj_param_array(k, "a", I32, rows[r].rank);
        tj_val *b = tj_param_array(k, "b", I32, rows[r].rank);
        tj_val *t = tj_tile_load(k, a, rows[r].rank, rows[r].shape, NULL, TJ_STORAGE_REGISTER);
        ck_assert(tj_tile_store(k, b, t, NULL));
        tj_module *m = tjt_build(k);
        const char *ptx = tj_module_get_ptx(m);
        ck_assert_msg(tjt_occurrences(ptx, "ld.global") == rows[r].loads,
                      "row %zu: %d loads, expected %d", r, tjt_occurrences(ptx, "ld.global"),
                      rows[r].loads);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* launch_tiled(D, B) is launch([*D, W], B) where W is the block width: B on the GPU and in
 * cooperative mode, 1 in width-1 mode, where the lane is always 0 (SPEC 1; the seeds'
 * compaction example gives the GPU's answer on the CPU only so). The same coordinates,
 * for every tid rank. */
static const struct tiled_row {
    int ndim;
    int64_t dims[3];
    int ncoords;
} tiled_rows[] = {
    {1, {5}, 1},       {1, {5}, 2},
    {2, {3, 4}, 1},    {2, {3, 4}, 2},    {2, {3, 4}, 3},
    {3, {2, 3, 2}, 1}, {3, {2, 3, 2}, 3}, {3, {2, 3, 2}, 4},
};

START_TEST(test_launch_tiled_equals_launch_with_the_block_width_appended)
{
    const struct tiled_row *r = &tiled_rows[_i % NROWS(tiled_rows)];
    g_where = _i / NROWS(tiled_rows);
    uint32_t bd = g_where == ON_CPU1 ? 3 : 32;
    int64_t dims[4];
    memcpy(dims, r->dims, sizeof r->dims);
    dims[r->ndim] = width_of(bd);
    tj_kernel *k = tid_kernel("tiled", r->ndim + 1, dims, r->ncoords, bd);
    tj_module *m = build(k);
    if (g_where == ON_PTX)
        return;
    int64_t n = product(dims, r->ndim + 1);
    tj_array *a = filled(n * 4, -99), *b = filled(n * 4, -99);
    tj_arg arg_a = tj_arg_array(a), arg_b = tj_arg_array(b);
    tjt_ok(device(), tj_launch_tiled(device(), m, "tiled", r->ndim, r->dims, bd, &arg_a, 1));
    tjt_ok(device(), tj_launch(device(), m, "tiled", r->ndim + 1, dims, bd, &arg_b, 1));
    int32_t *ga = to_host(a), *gb = to_host(b);
    ck_assert_msg(memcmp(ga, gb, (size_t)n * 4 * sizeof *ga) == 0,
                  "launch_tiled and launch differ");
    check_coords(ga, dims, r->ndim + 1, r->ncoords, "launch_tiled");
    free(ga);
    free(gb);
}
END_TEST

/* SPEC 1's example: under launch_tiled(dim=[n], block_dim=B) a 1-coordinate tid() is the
 * block index in every lane and a 2-coordinate tid() is (block, lane); in width-1 mode
 * only lane 0 exists. */
START_TEST(test_launch_tiled_tid1_is_the_block_and_tid2_the_lane)
{
    g_where = _i;
    const uint32_t bd = 8;
    const int64_t nblocks = 6;
    tj_kernel_options o = opts_for(g_where, bd);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "block_lane", &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *t1[1], *t2[2];
    ck_assert(tj_tid(k, 1, t1));
    ck_assert(tj_tid(k, 2, t2));
    tj_val *slot = bin(k, TJ_BIN_MUL, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, t2[0], ci(k, bd)),
                                          t2[1]),
                       ci(k, 3));
    put(k, out, slot, t1[0]);
    put(k, out, bin(k, TJ_BIN_ADD, slot, ci(k, 1)), t2[0]);
    put(k, out, bin(k, TJ_BIN_ADD, slot, ci(k, 2)), t2[1]);
    tj_module *m = build(k);
    if (g_where == ON_PTX)
        return;
    tj_array *a = filled(nblocks * bd * 3, -1);
    tj_arg arg = tj_arg_array(a);
    tjt_ok(device(), tj_launch_tiled(device(), m, "block_lane", 1, &nblocks, bd, &arg, 1));
    int32_t *got = to_host(a);
    for (int64_t b = 0; b < nblocks; b++)
        for (int64_t l = 0; l < bd; l++) {
            const int32_t *s = got + (b * bd + l) * 3;
            bool ran = l < width_of(bd);
            ck_assert_msg(ran ? s[0] == b && s[1] == b && s[2] == l
                              : s[0] == -1 && s[1] == -1 && s[2] == -1,
                          "block %lld lane %lld: tid1 = %d, tid2 = (%d, %d)", (long long)b,
                          (long long)l, s[0], s[1], s[2]);
        }
    free(got);
}
END_TEST

/* ---- partial blocks and block_dim() ------------------------------------------------------ */

/* out[t] = 2t + 1; count[0] += 1 (atomically); bd[t] = block_dim(). */
static tj_module *
partial_module(uint32_t block_dim)
{
    tj_kernel_options o = opts_for(g_where, block_dim);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "partial", &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *count = tj_param_array(k, "count", I32, 1);
    tj_val *bd = tj_param_array(k, "bd", I32, 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    put(k, out, t[0], bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, t[0], ci(k, 2)), ci(k, 1)));
    tj_val *zero = ci(k, 0);
    ck_assert_ptr_nonnull(tj_atomic_add(k, count, &zero, 1, ci(k, 1)));
    put(k, bd, t[0], tj_block_dim(k));
    ck_assert_uint_eq(tj_kernel_get_block_dim(k), width_of(block_dim));
    return build(k);
}

/* Launches 'n' threads into arrays padded by 'pad' elements of -7 and checks that exactly
 * the first n threads ran, once each, seeing block_dim() == width. */
static void
check_partial(tj_module *m, int64_t n, uint32_t block_dim, int64_t pad)
{
    tj_array *out = filled(n + pad, -7), *count = filled(1, 0), *bd = filled(n + pad, -7);
    tj_arg args[] = {tj_arg_array(out), tj_arg_array(count), tj_arg_array(bd)};
    tjt_ok(device(), tj_launch(device(), m, "partial", 1, &n, block_dim, args, 3));
    int32_t *go = to_host(out), *gc = to_host(count), *gb = to_host(bd);
    ck_assert_msg(gc[0] == n, "%d threads ran, expected %lld", gc[0], (long long)n);
    for (int64_t i = 0; i < n + pad; i++) {
        int32_t wo = i < n ? (int32_t)(2 * i + 1) : -7;
        int32_t wb = i < n ? (int32_t)width_of(block_dim) : -7;
        ck_assert_msg(go[i] == wo && gb[i] == wb, "thread %lld: out %d (expected %d), "
                      "block_dim() %d (expected %d)", (long long)i, go[i], wo, gb[i], wb);
    }
    free(go);
    free(gc);
    free(gb);
}

static const uint32_t coop_widths[] = {2, 31, 32, 33, 64, 256};

START_TEST(test_partial_last_block_runs_only_the_threads_of_the_launch)
{
    g_where = _i / NROWS(coop_widths);
    uint32_t bd = coop_widths[_i % NROWS(coop_widths)];
    tj_module *m = partial_module(bd);
    if (g_where == ON_PTX) {
        check_ptx_has(m, "atom.global.add");
        return;
    }
    check_partial(m, 3 * (int64_t)bd - 1, bd, bd);  /* a partial last block */
    check_partial(m, 2 * (int64_t)bd, bd, bd);      /* whole blocks */
    check_partial(m, 1, bd, bd);                    /* one lane of one block */
}
END_TEST

START_TEST(test_width1_mode_runs_blocks_of_one_lane_whatever_the_block_dim)
{
    g_where = ON_CPU1;
    static const uint32_t dims[] = {1, 2, 33, 256, 1024};
    for (int d = 0; d < NROWS(dims); d++) {
        tj_module *m = partial_module(dims[d]);
        check_partial(m, 100, dims[d], 5);
        tj_module_destroy(m);
    }
}
END_TEST

START_TEST(test_empty_launches_run_nothing_and_succeed)
{
    g_where = _i;
    uint32_t bd = default_block[g_where];
    tj_module *m = partial_module(bd);
    if (g_where == ON_PTX)
        return;
    tj_array *out = filled(4, -7), *count = filled(1, 0), *bdv = filled(4, -7);
    tj_arg args[] = {tj_arg_array(out), tj_arg_array(count), tj_arg_array(bdv)};
    static const int64_t shapes[][3] = {{0, 5, 5}, {5, 0, 5}, {5, 5, 0}};
    for (int s = 0; s < 3; s++) {
        tjt_ok(device(), tj_launch(device(), m, "partial", 3, shapes[s], bd, args, 3));
        if (s < 2) /* no blocks */
            tjt_ok(device(), tj_launch_tiled(device(), m, "partial", 2, shapes[s], bd, args, 3));
    }
    int64_t zero = 0;
    tjt_ok(device(), tj_launch(device(), m, "partial", 1, &zero, bd, args, 3));
    ck_assert_ptr_null(tj_device_error(device()));
    int32_t *gc = to_host(count), *go = to_host(out);
    ck_assert_int_eq(gc[0], 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(go[i], -7);
    free(gc);
    free(go);
}
END_TEST

/* ---- large launches on several CPU threads ------------------------------------------------- */

START_TEST(test_million_thread_launch_runs_every_thread_once_on_several_threads)
{
    static const int threads[] = {1, 4, 0};
    g_where = _i / NROWS(threads);
    if (g_where != ON_CUDA)
        tjt_ok(tjt.cpu, tj_device_set_cpu_threads(tjt.cpu, threads[_i % NROWS(threads)]));
    uint32_t bd = g_where == ON_CPU1 ? 1 : 256;
    tj_module *m = partial_module(bd);
    if (g_where == ON_PTX)
        return;
    check_partial(m, 1000000 - 3, bd, 3);
}
END_TEST

/* ---- arguments ------------------------------------------------------------------------------ */

/* scalars(outi: int64[12], outf: float64[3], one parameter of every scalar type): each
 * parameter converted to int64 (integers, bits of uint64) or float64 (floats). */
static const tj_dtype all_dtypes[12] = {
    TJ_DTYPE_BOOL, TJ_DTYPE_I8,  TJ_DTYPE_I16, TJ_DTYPE_I32, TJ_DTYPE_I64, TJ_DTYPE_U8,
    TJ_DTYPE_U16,  TJ_DTYPE_U32, TJ_DTYPE_U64, TJ_DTYPE_F16, TJ_DTYPE_F32, TJ_DTYPE_F64,
};
static const char *const dtype_params[12] = {"b",   "i8",  "i16", "i32", "i64", "u8",
                                             "u16", "u32", "u64", "f16", "f32", "f64"};

static tj_module *
scalars_module(void)
{
    tj_kernel_options o = opts_for(g_where, default_block[g_where]);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "scalars", &o);
    tj_val *outi = tj_param_array(k, "outi", I64, 1);
    tj_val *outf = tj_param_array(k, "outf", F64, 1);
    tj_val *p[12];
    for (int i = 0; i < 12; i++)
        p[i] = tj_param(k, dtype_params[i], tjt_type(all_dtypes[i]));
    for (int i = 0; i < 9; i++)
        put(k, outi, ci(k, i), tj_cast(k, p[i], I64));
    for (int i = 0; i < 3; i++)
        put(k, outf, ci(k, i), tj_cast(k, p[9 + i], F64));
    return build(k);
}

static void
launch_scalars(tj_module *m, const tj_arg *scalars, int64_t outi[9], double outf[3])
{
    tj_array *ai = tjt_array(device(), I64, 9, NULL), *af = tjt_array(device(), F64, 3, NULL);
    tj_arg args[14] = {tj_arg_array(ai), tj_arg_array(af)};
    memcpy(args + 2, scalars, 12 * sizeof *args);
    int64_t one = 1;
    tjt_ok(device(), tj_launch(device(), m, "scalars", 1, &one, default_block[g_where], args,
                               14));
    tjt_ok(device(), tj_array_copy_to_host(ai, outi, 9 * sizeof *outi));
    tjt_ok(device(), tj_array_copy_to_host(af, outf, 3 * sizeof *outf));
    tj_array_destroy(ai);
    tj_array_destroy(af);
}

START_TEST(test_scalar_arguments_of_every_type_arrive_exactly)
{
    g_where = _i;
    tj_module *m = scalars_module();
    if (g_where == ON_PTX)
        return;
    /* 0.1 rounds to the float16 0.0999755859375 and to the float32 0.100000001490116... */
    const tj_arg lows[12] = {
        tj_arg_bool(false), tj_arg_int(INT8_MIN), tj_arg_int(INT16_MIN), tj_arg_int(INT32_MIN),
        tj_arg_int(INT64_MIN), tj_arg_int(0), tj_arg_int(0), tj_arg_int(0), tj_arg_int(0),
        tj_arg_float(0.1), tj_arg_float(0.1), tj_arg_float(-1e300)};
    const int64_t want_lows[9] = {0, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0, 0, 0};
    const double want_lowf[3] = {0.0999755859375, (double)0.1f, -1e300};
    const tj_arg highs[12] = {
        tj_arg_bool(true), tj_arg_int(INT8_MAX), tj_arg_int(INT16_MAX), tj_arg_int(INT32_MAX),
        tj_arg_int(INT64_MAX), tj_arg_int(UINT8_MAX), tj_arg_int(UINT16_MAX),
        tj_arg_int(UINT32_MAX), tj_arg_int(INT64_MAX), tj_arg_float(65504),
        tj_arg_float(-3.5), tj_arg_float(0.1)};
    const int64_t want_highs[9] = {1, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX,
                                   UINT8_MAX, UINT16_MAX, UINT32_MAX, INT64_MAX};
    const double want_highf[3] = {65504, -3.5, 0.1};
    int64_t gi[9];
    double gf[3];
    launch_scalars(m, lows, gi, gf);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(gi[i] == want_lows[i], "%s: %lld, expected %lld", dtype_params[i],
                      (long long)gi[i], (long long)want_lows[i]);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(gf[i] == want_lowf[i], "%s: %.17g, expected %.17g", dtype_params[9 + i],
                      gf[i], want_lowf[i]);
    launch_scalars(m, highs, gi, gf);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(gi[i] == want_highs[i], "%s: %lld, expected %lld", dtype_params[i],
                      (long long)gi[i], (long long)want_highs[i]);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(gf[i] == want_highf[i], "%s: %.17g, expected %.17g", dtype_params[9 + i],
                      gf[i], want_highf[i]);
}
END_TEST

/* The same parameters given as bytes in their memory layout (uint64's full range). */
START_TEST(test_scalar_arguments_given_as_bytes_arrive_exactly)
{
    g_where = _i;
    tj_module *m = scalars_module();
    if (g_where == ON_PTX)
        return;
    uint8_t b = 1;
    int8_t i8 = -5;
    int16_t i16 = -300;
    int32_t i32 = -70000;
    int64_t i64 = -5000000000;
    uint8_t u8 = 200;
    uint16_t u16 = 60000;
    uint32_t u32 = 4000000000u;
    uint64_t u64 = UINT64_MAX;
    uint16_t f16 = 0x3e00; /* 1.5 */
    float f32 = 0.25f;
    double f64 = -2.0;
    const void *bytes[12] = {&b, &i8, &i16, &i32, &i64, &u8, &u16, &u32, &u64, &f16, &f32, &f64};
    tj_arg args[12];
    for (int i = 0; i < 12; i++)
        args[i] = tj_arg_bytes(tjt_type(all_dtypes[i]), bytes[i]);
    int64_t gi[9];
    double gf[3];
    launch_scalars(m, args, gi, gf);
    const int64_t want[9] = {1, -5, -300, -70000, -5000000000, 200, 60000, 4000000000, -1};
    for (int i = 0; i < 9; i++)
        ck_assert_msg(gi[i] == want[i], "%s: %lld, expected %lld", dtype_params[i],
                      (long long)gi[i], (long long)want[i]);
    ck_assert(gf[0] == 1.5 && gf[1] == 0.25 && gf[2] == -2.0);
}
END_TEST

/* A vec3f and a struct with padding, passed as bytes, read back field by field. */
typedef struct {
    int8_t a;
    double b;
    int16_t c;
} mixed_c;

START_TEST(test_composite_and_struct_arguments_keep_their_c_layout)
{
    g_where = _i;
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_field fields[] = {{"a", tjt_type(TJ_DTYPE_I8)}, {"b", F64}, {"c", tjt_type(TJ_DTYPE_I16)}};
    const tj_type *st = tj_context_new_struct_type(tjt.ctx, "mixed", fields, 3);
    ck_assert_uint_eq(tj_type_get_size(st), sizeof(mixed_c));
    tj_kernel_options o = opts_for(g_where, default_block[g_where]);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "composites", &o);
    tj_val *out = tj_param_array(k, "out", F64, 1);
    tj_val *pre = tj_param(k, "pre", tjt_type(TJ_DTYPE_I8)); /* misaligns what follows */
    tj_val *v = tj_param(k, "v", v3);
    tj_val *s = tj_param(k, "s", st);
    put(k, out, ci(k, 0), tj_cast(k, pre, F64));
    for (int c = 0; c < 3; c++)
        put(k, out, ci(k, 1 + c), tj_cast(k, tj_extract(k, v, c), F64));
    put(k, out, ci(k, 4), tj_cast(k, tj_get_field(k, s, "a"), F64));
    put(k, out, ci(k, 5), tj_get_field(k, s, "b"));
    put(k, out, ci(k, 6), tj_cast(k, tj_get_field(k, s, "c"), F64));
    tj_module *m = build(k);
    if (g_where == ON_PTX)
        return;
    float vh[3] = {1.5f, -2.25f, 1e30f};
    mixed_c sh = {.a = -3, .b = 0.125, .c = -12345};
    tj_array *a = tjt_array(device(), F64, 7, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_int(-128), tj_arg_bytes(v3, vh),
                     tj_arg_bytes(st, &sh)};
    int64_t one = 1;
    tjt_ok(device(), tj_launch(device(), m, "composites", 1, &one, default_block[g_where],
                               args, 4));
    double got[7];
    tjt_ok(device(), tj_array_copy_to_host(a, got, sizeof got));
    const double want[7] = {-128, 1.5, -2.25, (double)1e30f, -3, 0.125, -12345};
    for (int i = 0; i < 7; i++)
        ck_assert_msg(got[i] == want[i], "out[%d] = %.17g, expected %.17g", i, got[i], want[i]);
}
END_TEST

/* ---- arrays of 1-4 dimensions ---------------------------------------------------------------- */

static const struct array_row {
    int ndim;
    int64_t shape[4];
    tj_dtype dt;
} array_rows[] = {
    {1, {7}, TJ_DTYPE_I32},
    {2, {3, 5}, TJ_DTYPE_U8},
    {3, {2, 3, 4}, TJ_DTYPE_F64},
    {4, {2, 1, 3, 2}, TJ_DTYPE_I16},
    {4, {3, 2, 2, 3}, TJ_DTYPE_F32},
};

/* copy(dst, src, shp): every thread (one per element) copies its element; shp[d] =
 * tj_shape(src, d). */
START_TEST(test_arrays_of_every_rank_report_shapes_and_read_every_element)
{
    const struct array_row *r = &array_rows[_i % NROWS(array_rows)];
    g_where = _i / NROWS(array_rows);
    uint32_t bd = default_block[g_where];
    const tj_type *t = tjt_type(r->dt);
    tj_kernel_options o = opts_for(g_where, bd);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "copy", &o);
    tj_val *dst = tj_param_array(k, "dst", t, r->ndim);
    tj_val *src = tj_param_array(k, "src", t, r->ndim);
    tj_val *shp = tj_param_array(k, "shp", I32, 1);
    tj_val *idx[4];
    ck_assert(tj_tid(k, r->ndim, idx));
    ck_assert(tj_store(k, dst, idx, r->ndim, tj_load(k, src, idx, r->ndim)));
    for (int d = 0; d < r->ndim; d++)
        put(k, shp, ci(k, d), tj_shape(k, src, d));
    tj_module *m = build(k);
    if (g_where == ON_PTX)
        return;
    size_t esz = tj_type_get_size(t);
    int64_t n = product(r->shape, r->ndim);
    tj_array *a = NULL, *b = NULL;
    tjt_ok(device(), tj_array_create(device(), t, r->ndim, r->shape, &a));
    tjt_ok(device(), tj_array_create(device(), t, r->ndim, r->shape, &b));
    ck_assert_int_eq(tj_array_get_ndim(a), r->ndim);
    for (int d = 0; d < r->ndim; d++)
        ck_assert_int_eq(tj_array_get_shape(a, d), r->shape[d]);
    ck_assert_int_eq(tj_array_get_shape(a, r->ndim), -1);
    ck_assert_uint_eq(tj_array_get_bytes(a), (size_t)n * esz);
    uint8_t *host = malloc((size_t)n * esz), *back = malloc((size_t)n * esz);
    for (size_t i = 0; i < (size_t)n * esz; i++)
        host[i] = (uint8_t)(i * 7 + 3);
    if (r->dt == TJ_DTYPE_F64 || r->dt == TJ_DTYPE_F32)
        for (int64_t i = 0; i < n; i++) {
            if (r->dt == TJ_DTYPE_F64)
                ((double *)host)[i] = (double)i * 1.25 - 3;
            else
                ((float *)host)[i] = (float)i * 0.5f - 7;
        }
    tjt_ok(device(), tj_array_copy_from_host(b, host, (size_t)n * esz));
    tj_array *shp_a = filled(4, -1);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b), tj_arg_array(shp_a)};
    tjt_ok(device(), tj_launch(device(), m, "copy", r->ndim, r->shape, bd, args, 3));
    tjt_ok(device(), tj_array_copy_to_host(a, back, (size_t)n * esz));
    ck_assert_msg(memcmp(host, back, (size_t)n * esz) == 0, "the copy differs");
    int32_t *gs = to_host(shp_a);
    for (int d = 0; d < 4; d++)
        ck_assert_int_eq(gs[d], d < r->ndim ? r->shape[d] : -1);
    free(gs);
    free(host);
    free(back);
}
END_TEST

/* Every array starts on a cache line (CUDA's allocations: on 256 bytes), whatever its size:
 * a kernel's vector loads and stores then split no line (glibc's calloc puts large blocks
 * 16 bytes past a page). Each starts zeroed, and its last byte is its own. */
START_TEST(test_arrays_start_on_a_cache_line_and_zeroed)
{
    g_where = _i;
    static const int64_t sizes[] = {1, 3, 17, 1000, 4099, 40000, 300001, 1 << 20};
    enum { N = sizeof sizes / sizeof sizes[0] };
    const tj_type *u8 = tjt_type(TJ_DTYPE_U8);
    tj_array *a[N] = {NULL};
    for (int i = 0; i < N; i++) {
        tjt_ok(device(), tj_array_create(device(), u8, 1, &sizes[i], &a[i]));
        uint64_t p = tj_array_get_device_pointer(a[i]);
        ck_assert_msg(p % 64 == 0, "an array of %lld bytes starts at 0x%llx, not on 64 bytes",
                      (long long)sizes[i], (unsigned long long)p);
        uint8_t *back = malloc((size_t)sizes[i]);
        tjt_ok(device(), tj_array_copy_to_host(a[i], back, (size_t)sizes[i]));
        for (int64_t j = 0; j < sizes[i]; j++)
            ck_assert_msg(back[j] == 0, "byte %lld of %lld is %d", (long long)j,
                          (long long)sizes[i], back[j]);
        memset(back, 0xa5, (size_t)sizes[i]);
        tjt_ok(device(), tj_array_copy_from_host(a[i], back, (size_t)sizes[i]));
        free(back);
    }
    for (int i = 0; i < N; i++)
        tj_array_destroy(a[i]);
}
END_TEST

/* out[j][i] = in[i][j]: indices follow the strides of each array. */
START_TEST(test_transpose_reads_and_writes_through_strides)
{
    g_where = _i;
    uint32_t bd = default_block[g_where];
    tj_kernel_options o = opts_for(g_where, bd);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "transpose", &o);
    tj_val *out = tj_param_array(k, "out", I32, 2);
    tj_val *in = tj_param_array(k, "in", I32, 2);
    tj_val *t[2];
    ck_assert(tj_tid(k, 2, t));
    tj_val *swapped[2] = {t[1], t[0]};
    ck_assert(tj_store(k, out, swapped, 2, tj_load(k, in, t, 2)));
    tj_module *m = build(k);
    if (g_where == ON_PTX)
        return;
    const int64_t sin[2] = {3, 5}, sout[2] = {5, 3};
    int32_t host[15], back[15];
    for (int i = 0; i < 15; i++)
        host[i] = i * 11;
    tj_array *a = NULL, *b = NULL;
    tjt_ok(device(), tj_array_create(device(), I32, 2, sout, &a));
    tjt_ok(device(), tj_array_create(device(), I32, 2, sin, &b));
    tjt_ok(device(), tj_array_copy_from_host(b, host, sizeof host));
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b)};
    tjt_ok(device(), tj_launch(device(), m, "transpose", 2, sin, bd, args, 2));
    tjt_ok(device(), tj_array_copy_to_host(a, back, sizeof back));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_int_eq(back[j * 3 + i], host[i * 5 + j]);
}
END_TEST

/* ---- launch errors ------------------------------------------------------------------------- */

/* err(out: int32[], s: float32, n: int8): a CPU kernel reading 2 tid() coordinates. */
static tj_module *
errors_module(void)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "err", NULL);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_param(k, "s", tjt_type(TJ_DTYPE_F32));
    tj_param(k, "n", tjt_type(TJ_DTYPE_I8));
    tj_val *t[2];
    ck_assert(tj_tid(k, 2, t));
    put(k, out, t[0], t[1]);
    return build(k);
}

/* Asserts 'st' and the exact device message, then that a valid launch works and clears
 * the message. */
static void
expect_launch_error(tj_status st, tj_status want, const char *msg, tj_module *m,
                    tj_array *out)
{
    ck_assert_msg(st == want, "status %s, expected %s (%s)", tj_status_name(st),
                  tj_status_name(want), tj_device_error(tjt.cpu));
    ck_assert_ptr_nonnull(tj_device_error(tjt.cpu));
    ck_assert_str_eq(tj_device_error(tjt.cpu), msg);
    const int64_t dims[2] = {2, 2};
    tj_arg args[] = {tj_arg_array(out), tj_arg_float(1), tj_arg_int(1)};
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "err", 2, dims, 1, args, 3));
    ck_assert_ptr_null(tj_device_error(tjt.cpu));
}

static const struct launch_error_row {
    const char *what;
    int arg;             /* which argument to replace (-1: none) */
    int kind;            /* replacement: see launch_error_arg() */
    int nargs;
    int ndim;
    uint32_t block_dim;
    bool tiled;
    tj_status status;
    const char *msg;
} launch_error_rows[] = {
    {"unknown kernel", -1, 0, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: the module has no kernel named 'nope'"},
    {"too few arguments", -1, 0, 2, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err' takes 3 arguments, got 2"},
    {"too many arguments", -1, 0, 4, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err' takes 3 arguments, got 4"},
    {"int for a float", 1, 1, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 1 ('s'): expected float32, got an integer"},
    {"float for an int", 2, 2, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got a float"},
    {"bool for an int", 2, 3, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got a bool"},
    {"int for an array", 0, 1, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 0 ('out'): expected an array, got an integer"},
    {"array for an int", 2, 4, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got an array"},
    {"bytes of another type", 2, 5, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got int16"},
    {"array of float32", 0, 6, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 0 ('out'): expected an array of int32 with 1 "
     "dimension, got an array of float32 with 1 dimension"},
    {"array of rank 2", 0, 7, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 0 ('out'): expected an array of int32 with 1 "
     "dimension, got an array of int32 with 2 dimensions"},
    {"NULL array", 0, 8, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 0 ('out'): expected an array of int32 with 1 "
     "dimension, got a NULL array"},
    {"int8 of 128", 2, 9, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got 128, which does not fit"},
    {"int8 of -129", 2, 10, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err': argument 2 ('n'): expected int8, got -129, which does not fit"},
    {"block_dim 0", -1, 0, 3, 2, 0, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'block_dim': 0 is not in [1, 1024]"},
    {"block_dim 1025", -1, 0, 3, 2, 1025, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'block_dim': 1025 is not in [1, 1024]"},
    {"block_dim of another build", -1, 0, 3, 2, 4, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err' was built for block_dim 1, not 4; build it again for this "
     "block_dim"},
    {"tid rank above the launch rank", -1, 0, 3, 1, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: kernel 'err' reads 2 tid() coordinates, the launch has 1 dimension"},
    {"ndim 0", -1, 0, 3, 0, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'ndim': 0 is not in [1, 4]"},
    {"ndim 5", -1, 0, 3, 5, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'ndim': 5 is not in [1, 4]"},
    {"tiled ndim 4", -1, 0, 3, 4, 1, true, TJ_ERR_LAUNCH,
     "tj_launch_tiled: argument 'ndim': 4 is not in [1, 3]"},
    {"tiled too few arguments", -1, 0, 2, 1, 1, true, TJ_ERR_LAUNCH,
     "tj_launch_tiled: kernel 'err' takes 3 arguments, got 2"},
    {"tiled int for a float", 1, 1, 3, 1, 1, true, TJ_ERR_LAUNCH,
     "tj_launch_tiled: kernel 'err': argument 1 ('s'): expected float32, got an integer"},
    {"tiled block_dim of another build", -1, 0, 3, 1, 2, true, TJ_ERR_LAUNCH,
     "tj_launch_tiled: kernel 'err' was built for block_dim 1, not 2; build it again for "
     "this block_dim"},
    {"negative extent", -1, 11, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'dim': extent -1 of dimension 1 is not in [0, 2147483647]"},
    {"extent above int32", -1, 12, 3, 2, 1, false, TJ_ERR_LAUNCH,
     "tj_launch: argument 'dim': extent 2147483648 of dimension 0 is not in [0, 2147483647]"},
    {"2^93 threads", -1, 13, 3, 3, 1, false, TJ_ERR_LAUNCH, "tj_launch: too many threads"},
};

START_TEST(test_launch_errors_name_the_call_and_the_reason)
{
    const struct launch_error_row *r = &launch_error_rows[_i];
    tj_module *m = errors_module();
    tj_array *out = filled(4, 0), *out_f = NULL, *out_2d = NULL;
    int64_t sh2[2] = {2, 2};
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, tjt_type(TJ_DTYPE_F32), 1, sh2, &out_f));
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, I32, 2, sh2, &out_2d));
    int16_t bytes16 = 3;
    tj_arg args[4] = {tj_arg_array(out), tj_arg_float(1), tj_arg_int(1), tj_arg_int(0)};
    const tj_arg repl[] = {
        [1] = tj_arg_int(1),
        [2] = tj_arg_float(1),
        [3] = tj_arg_bool(true),
        [4] = tj_arg_array(out),
        [5] = tj_arg_bytes(tjt_type(TJ_DTYPE_I16), &bytes16),
        [6] = tj_arg_array(out_f),
        [7] = tj_arg_array(out_2d),
        [8] = tj_arg_array(NULL),
        [9] = tj_arg_int(128),
        [10] = tj_arg_int(-129),
    };
    if (r->arg >= 0)
        args[r->arg] = repl[r->kind];
    int64_t dims[5] = {2, 2, 1, 1, 1};
    if (r->kind == 11)
        dims[1] = -1;
    if (r->kind == 12)
        dims[0] = INT64_C(2147483648);
    if (r->kind == 13)
        dims[0] = dims[1] = dims[2] = INT32_MAX;
    const char *name = strcmp(r->what, "unknown kernel") == 0 ? "nope" : "err";
    tj_status st = r->tiled ? tj_launch_tiled(tjt.cpu, m, name, r->ndim, dims, r->block_dim,
                                              args, (size_t)r->nargs)
                            : tj_launch(tjt.cpu, m, name, r->ndim, dims, r->block_dim, args,
                                        (size_t)r->nargs);
    expect_launch_error(st, r->status, r->msg, m, out);
}
END_TEST

START_TEST(test_launch_rejects_a_cuda_module_on_the_cpu)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "gpu_only", &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    put(k, out, t[0], t[0]);
    tj_module *m = build(k);
    tj_array *a = tjt_array(tjt.cpu, I32, 4, NULL);
    tj_arg arg = tj_arg_array(a);
    int64_t n = 4;
    tj_status st = tj_launch(tjt.cpu, m, "gpu_only", 1, &n, 256, &arg, 1);
    char want[512];
    snprintf(want, sizeof want, "tj_launch: the module was built for CUDA, the device is %s",
             tj_device_get_name(tjt.cpu));
    ck_assert_int_eq(st, TJ_ERR_LAUNCH);
    ck_assert_str_eq(tj_device_error(tjt.cpu), want);
    expect_launch_error(st, TJ_ERR_LAUNCH, want, errors_module(), tjt_array(tjt.cpu, I32, 4,
                                                                              NULL));
}
END_TEST

/* NULL where a count says there are elements: the pointer is named, not the count. */
START_TEST(test_launch_names_its_null_pointers)
{
    tj_module *m = errors_module();
    int64_t n = 4;
    ck_assert_int_eq(tj_launch(tjt.cpu, m, "err", 1, NULL, 1, NULL, 0), TJ_ERR_LAUNCH);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_launch: argument 'dim' is NULL");
    ck_assert_int_eq(tj_launch(tjt.cpu, m, "err", 2, (int64_t[]){n, n}, 1, NULL, 3),
                     TJ_ERR_LAUNCH);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_launch: argument 'args' is NULL");
    tj_array *a = NULL;
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 1, NULL, &a), TJ_ERR_INVALID);
    ck_assert_ptr_null(a);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_create: argument 'shape' is NULL");
}
END_TEST

/* x = (x + x) * x, block b on elements [b n, b n + n), a (n,) register tile a block; with
 * 'sum', x[b n] first takes the sum of x + x (a barrier the tiles live across). */
static tj_module *
register_tiles_module(tj_cpu_mode mode, uint32_t block_dim, int n, bool sum)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = block_dim, .cpu_mode = mode};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "big", &o);
    tj_val *x = tj_param_array(k, "x", tjt_type(TJ_DTYPE_F32), 1);
    tj_val *b;
    ck_assert(tj_tid(k, 1, &b));
    tj_val *at = bin(k, TJ_BIN_MUL, b, ci(k, n));
    tj_val *t = tj_tile_load(k, x, 1, &n, &at, TJ_STORAGE_REGISTER);
    tj_val *u = bin(k, TJ_BIN_ADD, t, t);
    if (sum)
        ck_assert(tj_tile_store(k, x, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, u), &at));
    ck_assert(tj_tile_store(k, x, bin(k, TJ_BIN_MUL, u, t), &at));
    return build(k);
}

/* Register tiles are locals of a block's code, on the stack it runs on: a launch whose
 * width-1 blocks (16 Mi elements a tile, run on the caller and two workers of 8 MiB or
 * more) or cooperative lanes (1 Mi elements over 32 lanes, on fibers of 256 KiB) would not
 * fit fails with TJ_ERR_LIMIT instead of faulting, and the device stays usable; tiles of
 * 16 Ki elements in width-1 blocks (checked, and within the stacks) run. */
START_TEST(test_launch_of_blocks_whose_register_tiles_pass_their_stack_fails)
{
    tjt_ok(tjt.cpu, tj_device_set_cpu_threads(tjt.cpu, 3));
    static const struct {
        tj_cpu_mode mode;
        uint32_t block_dim;
        int n;
        int64_t blocks;
    } rows[] = {{TJ_CPU_WIDTH1, 1, 1 << 24, 64}, {TJ_CPU_COOPERATIVE, 32, 1 << 20, 1}};
    tj_array *x = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_F32), 1 << 16, NULL);
    tj_arg arg = tj_arg_array(x);
    for (int i = 0; i < NROWS(rows); i++) {
        tj_module *m = register_tiles_module(rows[i].mode, rows[i].block_dim, rows[i].n, true);
        tj_status st = tj_launch_tiled(tjt.cpu, m, "big", 1, &rows[i].blocks,
                                       rows[i].block_dim, &arg, 1);
        ck_assert_msg(st == TJ_ERR_LIMIT, "row %d: %s: %s", i, tj_status_name(st),
                      tj_device_error(tjt.cpu) ? tj_device_error(tjt.cpu) : "no message");
        ck_assert_msg(strstr(tj_device_error(tjt.cpu), "KiB of stack (its register tiles and "
                                                      "locals)"), "%s", tj_device_error(tjt.cpu));
        tj_module_destroy(m);
    }
    enum { N = 1 << 14, BLOCKS = 16 }; /* more blocks than the caller runs alone */
    float *host = malloc(N * BLOCKS * sizeof *host);
    ck_assert_ptr_nonnull(host);
    for (int i = 0; i < N * BLOCKS; i++)
        host[i] = (float)(i % 7);
    tj_array *y = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_F32), N * BLOCKS, host);
    tj_arg yarg = tj_arg_array(y);
    tj_module *m = register_tiles_module(TJ_CPU_WIDTH1, 1, N, false);
    int64_t blocks = BLOCKS;
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "big", 1, &blocks, 1, &yarg, 1));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(y, host, N * BLOCKS * sizeof *host));
    for (int i = 0; i < N * BLOCKS; i++)
        ck_assert_msg(host[i] == 2.0f * (float)(i % 7) * (float)(i % 7), "element %d is %g", i,
                      host[i]);
    free(host);
    tj_module_destroy(m);
}
END_TEST

START_TEST(test_launch_rejects_a_null_module_and_an_array_of_another_device)
{
    tj_module *m = errors_module();
    tj_array *out = filled(4, 0);
    int64_t dims[2] = {2, 2};
    tj_arg args[] = {tj_arg_array(out), tj_arg_float(1), tj_arg_int(1)};
    tj_status st = tj_launch(tjt.cpu, NULL, "err", 2, dims, 1, args, 3);
    expect_launch_error(st, TJ_ERR_INVALID, "tj_launch: argument 'm' is NULL", m, out);
    tj_device *other = NULL;
    tjt_ok(tjt.cpu, tj_device_create(tjt.ctx, TJ_DEVICE_CPU, 0, &other));
    tj_array *elsewhere = tjt_array(other, I32, 4, NULL);
    args[0] = tj_arg_array(elsewhere);
    st = tj_launch(tjt.cpu, m, "err", 2, dims, 1, args, 3);
    expect_launch_error(st, TJ_ERR_LAUNCH,
                        "tj_launch: kernel 'err': argument 0 ('out'): expected an array on the "
                        "launch's device, got an array on another device",
                        m, out);
    ck_assert_int_eq(tj_launch(NULL, m, "err", 2, dims, 1, args, 3), TJ_ERR_INVALID);
    tj_array_destroy(elsewhere);
    tj_device_destroy(other);
}
END_TEST

/* ---- debug builds ------------------------------------------------------------------------- */

/* checked_load / checked_store (debug or release) over a (4, 5) launch: thread (i, j)
 * accesses element (i, j), except thread (row, col), which is shifted by (s0, s1): the load
 * kernel reads a[shifted] into out[i, j]; the store kernel writes a[i, j] + 1 to
 * out[shifted]. */
static tj_module *
checked_module(bool debug, uint32_t block_dim)
{
    tj_kernel_options o = opts_for(g_where, block_dim);
    o.debug = debug;
    tj_kernel *ks[2];
    for (int which = 0; which < 2; which++) {
        tj_kernel *k = ks[which] =
            tj_kernel_create(tjt.ctx, which == 0 ? "checked_load" : "checked_store", &o);
        tj_val *out = tj_param_array(k, "out", I32, 2);
        tj_val *a = tj_param_array(k, "a", I32, 2);
        tj_val *p[4];
        static const char *const names[4] = {"row", "col", "s0", "s1"};
        for (int i = 0; i < 4; i++)
            p[i] = tj_param(k, names[i], I32);
        tj_val *t[2];
        ck_assert(tj_tid(k, 2, t));
        tj_val *hit = bin(k, TJ_BIN_AND, tj_compare(k, TJ_CMP_EQ, t[0], p[0]),
                          tj_compare(k, TJ_CMP_EQ, t[1], p[1]));
        tj_val *sh[2];
        for (int d = 0; d < 2; d++)
            sh[d] = bin(k, TJ_BIN_ADD, t[d], tj_select(k, hit, p[2 + d], ci(k, 0)));
        if (which == 0)
            ck_assert(tj_store(k, out, t, 2, tj_load(k, a, sh, 2)));
        else
            ck_assert(tj_store(k, out, sh, 2, bin(k, TJ_BIN_ADD, tj_load(k, a, t, 2), ci(k, 1))));
        const char *ir = tj_kernel_get_ir(k);
        ck_assert_ptr_nonnull(ir);
        ck_assert_msg((strstr(ir, "tj.report") != NULL) == debug,
                      "the IR of a %s build %s index checks", debug ? "debug" : "release",
                      debug ? "lacks" : "has");
    }
    tj_module *m = NULL;
    tj_status st = tj_module_build(tjt.ctx, ks, 2, NULL, &m);
    ck_assert_msg(st == TJ_OK, "%s", tj_context_error(tjt.ctx));
    if (tj_module_get_target(m) == TJ_TARGET_CUDA)
        tjt_check_ptx(tj_module_get_ptx(m));
    return m;
}

static const struct checked_row {
    bool store;
    int row, col, s0, s1;
    const char *array;
    int64_t index, hi;
    int dim;
} checked_rows[] = {
    {false, 2, 4, 0, 1, "a", 5, 5, 1},
    {false, 3, 0, 1, 0, "a", 4, 4, 0},
    {false, 1, 2, 0, -3, "a", -1, 5, 1},
    {false, 0, 3, -1, 0, "a", -1, 4, 0},
    {true, 2, 4, 0, 1, "out", 5, 5, 1},
    {true, 3, 3, 2, 0, "out", 5, 4, 0},
};

static void
launch_checked(tj_module *m, bool store, const int p[4], tj_array *out, tj_array *a,
               uint32_t block_dim, tj_status want)
{
    const int64_t dims[2] = {4, 5};
    tj_arg args[] = {tj_arg_array(out), tj_arg_array(a), tj_arg_int(p[0]), tj_arg_int(p[1]),
                     tj_arg_int(p[2]), tj_arg_int(p[3])};
    tj_status st = tj_launch(device(), m, store ? "checked_store" : "checked_load", 2, dims,
                             block_dim, args, 6);
    ck_assert_msg(st == want, "status %s, expected %s: %s", tj_status_name(st),
                  tj_status_name(want), tj_device_error(device()) ? tj_device_error(device())
                                                                 : "(no message)");
}

START_TEST(test_debug_build_skips_an_out_of_range_index_and_reports_it)
{
    const struct checked_row *r = &checked_rows[_i % NROWS(checked_rows)];
    g_where = _i / NROWS(checked_rows);
    uint32_t bd = g_where == ON_CPU1 ? 1 : 8;
    tj_module *m = checked_module(true, bd);
    if (g_where == ON_PTX) {
        check_ptx_has(m, "__tj_err");
        return;
    }
    int32_t host[20], got[20];
    for (int i = 0; i < 20; i++)
        host[i] = 100 + i;
    const int64_t shape[2] = {4, 5};
    tj_array *a = NULL, *out = NULL;
    tjt_ok(device(), tj_array_create(device(), I32, 2, shape, &a));
    tjt_ok(device(), tj_array_create(device(), I32, 2, shape, &out));
    tjt_ok(device(), tj_array_copy_from_host(a, host, sizeof host));
    const int p[4] = {r->row, r->col, r->s0, r->s1};
    launch_checked(m, r->store, p, out, a, bd, TJ_ERR_KERNEL);
    int64_t lin = r->row * 5 + r->col;
    char want[512];
    snprintf(want, sizeof want,
             "kernel '%s': array '%s': index %lld is out of range [0, %lld) in dimension %d "
             "(block %lld, lane %lld)",
             r->store ? "checked_store" : "checked_load", r->array, (long long)r->index,
             (long long)r->hi, r->dim, (long long)(lin / bd), (long long)(lin % bd));
    ck_assert_str_eq(tj_device_error(device()), want);
    /* The failing access was skipped; every other thread did its work. */
    tjt_ok(device(), tj_array_copy_to_host(out, got, sizeof got));
    for (int i = 0; i < 20; i++) {
        int32_t w = r->store ? (i == lin ? 0 : host[i] + 1) : (i == lin ? 0 : host[i]);
        ck_assert_msg(got[i] == w, "out[%d] = %d, expected %d", i, got[i], w);
    }
    /* A later launch in the same process works. */
    const int none[4] = {-1, -1, 0, 0};
    launch_checked(m, r->store, none, out, a, bd, TJ_OK);
    ck_assert_ptr_null(tj_device_error(device()));
    tjt_ok(device(), tj_array_copy_to_host(out, got, sizeof got));
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(got[i], host[i] + (r->store ? 1 : 0));
}
END_TEST

/* A release build does not check: reading (1, 7) of a (4, 5) array reads the element at
 * that offset, (2, 2), and the launch succeeds. */
START_TEST(test_release_build_does_not_check_indices)
{
    g_where = _i;
    uint32_t bd = g_where == ON_CPU1 ? 1 : 8;
    tj_module *m = checked_module(false, bd);
    if (g_where == ON_PTX)
        return;
    int32_t host[20], got[20];
    for (int i = 0; i < 20; i++)
        host[i] = 100 + i;
    const int64_t shape[2] = {4, 5};
    tj_array *a = NULL, *out = NULL;
    tjt_ok(device(), tj_array_create(device(), I32, 2, shape, &a));
    tjt_ok(device(), tj_array_create(device(), I32, 2, shape, &out));
    tjt_ok(device(), tj_array_copy_from_host(a, host, sizeof host));
    const int p[4] = {1, 4, 0, 3};
    launch_checked(m, false, p, out, a, bd, TJ_OK);
    ck_assert_ptr_null(tj_device_error(device()));
    tjt_ok(device(), tj_array_copy_to_host(out, got, sizeof got));
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(got[i], i == 9 ? host[12] : host[i]);
}
END_TEST

/* ---- suite --------------------------------------------------------------------------------- */

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
add_target_tests(TCase *tc, int where)
{
#define ADD(fn) tcase_add_loop_test(tc, fn, where, where + 1)
#define ADD_ROWS(fn, n) tcase_add_loop_test(tc, fn, where * (n), (where + 1) * (n))
    ADD_ROWS(test_tid_unravels_and_folds_the_launch_dims, NROWS(tid_rows));
    ADD_ROWS(test_launch_tiled_equals_launch_with_the_block_width_appended, NROWS(tiled_rows));
    ADD(test_launch_tiled_tid1_is_the_block_and_tid2_the_lane);
    ADD(test_empty_launches_run_nothing_and_succeed);
    ADD(test_scalar_arguments_of_every_type_arrive_exactly);
    ADD(test_scalar_arguments_given_as_bytes_arrive_exactly);
    ADD(test_composite_and_struct_arguments_keep_their_c_layout);
    ADD_ROWS(test_arrays_of_every_rank_report_shapes_and_read_every_element,
             NROWS(array_rows));
    ADD(test_transpose_reads_and_writes_through_strides);
    if (where == ON_CPU1 || where == ON_CUDA)
        ADD(test_arrays_start_on_a_cache_line_and_zeroed);
    ADD_ROWS(test_debug_build_skips_an_out_of_range_index_and_reports_it, NROWS(checked_rows));
    ADD(test_release_build_does_not_check_indices);
    if (where != ON_CPU1)
        ADD_ROWS(test_partial_last_block_runs_only_the_threads_of_the_launch,
                 NROWS(coop_widths));
    ADD_ROWS(test_million_thread_launch_runs_every_thread_once_on_several_threads, 3);
#undef ADD
#undef ADD_ROWS
}

static Suite *
launch_suite(void)
{
    Suite *s = suite_create("launch");
    static const char *const names[NWHERE] = {
        [ON_CPU1] = "cpu1", [ON_COOP] = "coop", [ON_PTX] = "ptx", [ON_CUDA] = "cuda"};
    for (int where = 0; where < NWHERE; where++) {
        TCase *tc = new_case(s, names[where]);
        add_target_tests(tc, where);
        if (where == ON_CPU1) {
            tcase_add_test(tc, test_width1_mode_runs_blocks_of_one_lane_whatever_the_block_dim);
            tcase_add_test(tc, test_width1_threads_run_in_a_loop_without_divisions);
            tcase_add_test(tc, test_width1_tid_reads_coordinates_the_entry_keeps);
        }
        if (where == ON_PTX) {
            tcase_add_test(tc,
                           test_gpu_builds_use_global_and_shared_accesses_and_32_bit_tid_divisions);
            tcase_add_test(tc, test_gpu_tid_of_a_tiled_launch_skips_its_divisions);
            tcase_add_test(tc, test_gpu_kernels_are_one_function_however_large);
            tcase_add_test(tc, test_gpu_warp_calls_take_the_running_lanes_mask_in_a_register);
            tcase_add_test(tc, test_gpu_kernels_take_the_shared_arena_address_once);
            tcase_add_test(tc, test_gpu_view_copies_keep_the_barriers_other_lanes_need);
            tcase_add_test(tc, test_gpu_entries_hand_the_body_its_parameters_without_local_memory);
            tcase_add_test(tc, test_gpu_loops_that_synchronise_the_block_stay_rolled);
            tcase_add_test(tc, test_gpu_loops_indexing_a_register_tile_are_unrolled);
            tcase_add_test(tc, test_gpu_tile_accesses_have_a_fast_path_only_where_it_pays);
            tcase_add_test(tc, test_gpu_lanes_are_known_to_be_below_the_block_dim);
        }
    }
    TCase *errors = new_case(s, "errors");
    tcase_add_loop_test(errors, test_launch_errors_name_the_call_and_the_reason, 0,
                        NROWS(launch_error_rows));
    tcase_add_test(errors, test_launch_rejects_a_cuda_module_on_the_cpu);
    tcase_add_test(errors, test_launch_names_its_null_pointers);
    tcase_add_test(errors, test_launch_of_blocks_whose_register_tiles_pass_their_stack_fails);
    tcase_add_test(errors, test_launch_rejects_a_null_module_and_an_array_of_another_device);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, launch_suite());
}
