/*
 * tests/tj_tile_test.h: what the tile suites (check_tile_memory.c, check_tile_lanes.c,
 * check_tile_elementwise.c, check_tile_view.c, check_tile_view_writes.c) share: the four
 * kinds of test case and the block widths each runs, kernels built for the current kind,
 * launches that do nothing when there is no device (ptx), typed host buffers, test values
 * and their comparison, and the rows of the build-error tables. Static, like
 * tj_api_test.h.
 *
 * Kinds (STYLE 2.8):
 *   cpu1  the CPU in width-1 mode: B = 1 whatever block_dim was asked for
 *   coop  the CPU in cooperative mode, every test once per block width 2, 31, 32, 33, 64
 *         and 256 (a loop test's index _i is case * nwidths + width index)
 *   ptx   the same kernels for CUDA at block widths 33 and 256: built, and assembled by
 *         ptxas -arch=sm_90 when it exists
 *   cuda  the same kernels and widths launched on the GPU (tagged "cuda")
 * A test calls tt_begin(_i), builds its kernels with tt_kernel() and tt_build(), and
 * launches with tt_launch*(), which return false on ptx (nothing to run).
 */
#ifndef TJ_TILE_TEST_H
#define TJ_TILE_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

#define TT_NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { TT_TIMEOUT_S = 600 };

typedef enum tt_kind { TT_CPU1, TT_COOP, TT_PTX, TT_CUDA, TT_NKINDS } tt_kind;

static const uint32_t tt_widths_cpu1[] = {1};
static const uint32_t tt_widths_coop[] = {2, 31, 32, 33, 64, 256};
static const uint32_t tt_widths_gpu[] = {33, 256};

static inline const uint32_t *
tt_widths(tt_kind kind, int *n)
{
    switch (kind) {
    case TT_CPU1:
        *n = TT_NELEMS(tt_widths_cpu1);
        return tt_widths_cpu1;
    case TT_COOP:
        *n = TT_NELEMS(tt_widths_coop);
        return tt_widths_coop;
    default:
        *n = TT_NELEMS(tt_widths_gpu);
        return tt_widths_gpu;
    }
}

static inline int
tt_nwidths(tt_kind kind)
{
    int n;
    tt_widths(kind, &n);
    return n;
}

/* The current test's kind and options (set by the fixture and tt_begin). */
typedef struct tt_state {
    tt_kind kind;
    uint32_t block_dim;   /* asked for */
    bool debug;
    tj_device *dev;       /* NULL on ptx */
} tt_state;

static tt_state tt;

static const char *const tt_kind_names[] = {"cpu1", "coop", "ptx", "cuda"};

static inline void
tt_setup_kind(tt_kind kind)
{
    tjt_setup();
    memset(&tt, 0, sizeof tt);
    tt.kind = kind;
    tt.block_dim = kind == TT_CPU1 ? 1 : 256;
    tt.dev = kind == TT_PTX ? NULL : kind == TT_CUDA ? tjt_gpu() : tjt.cpu;
}

static inline void tt_setup_cpu1(void) { tt_setup_kind(TT_CPU1); }
static inline void tt_setup_coop(void) { tt_setup_kind(TT_COOP); }
static inline void tt_setup_ptx(void) { tt_setup_kind(TT_PTX); }
static inline void tt_setup_cuda(void) { tt_setup_kind(TT_CUDA); }

/* Picks the block width for loop index 'i' and returns the table row it stands for. */
static inline int
tt_begin(int i)
{
    int n;
    const uint32_t *w = tt_widths(tt.kind, &n);
    tt.block_dim = w[i % n];
    return i / n;
}

static inline tj_target
tt_target(void)
{
    return tt.kind == TT_PTX || tt.kind == TT_CUDA ? TJ_TARGET_CUDA : TJ_TARGET_CPU;
}

/* The effective block width B of the current kind. */
static inline int
tt_B(void)
{
    return tt.kind == TT_CPU1 ? 1 : (int)tt.block_dim;
}

static inline const char *
tt_where(void)
{
    static char buf[48];
    snprintf(buf, sizeof buf, "%s, block_dim %u", tt_kind_names[tt.kind], tt.block_dim);
    return buf;
}

static inline tj_kernel_options
tt_options(void)
{
    tj_kernel_options o = {.target = tt_target(), .block_dim = tt.block_dim,
                           .cpu_mode = tt.kind == TT_COOP ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1,
                           .debug = tt.debug};
    return o;
}

static inline tj_kernel *
tt_kernel(const char *name)
{
    tj_kernel_options o = tt_options();
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq((int)tj_kernel_get_block_dim(k), tt_B());
    return k;
}

static inline tj_func *
tt_func(const char *name, const tj_type *ret)
{
    tj_kernel_options o = tt_options();
    tj_func *f = tj_func_create(tjt.ctx, name, ret, &o);
    ck_assert_ptr_nonnull(f);
    return f;
}

static inline void
tt_kernel_ok(const tj_kernel *k, const char *what)
{
    ck_assert_msg(tj_kernel_status(k) == TJ_OK, "%s (%s): %s", what, tt_where(),
                  tj_kernel_error(k) ? tj_kernel_error(k) : "?");
}

/* Builds 'k' (PTX through ptxas on CUDA), destroys it and returns the module. */
static inline tj_module *
tt_build(tj_kernel *k, const char *what)
{
    tt_kernel_ok(k, what);
    tj_module *m = tjt_build(k);
    tj_kernel_destroy(k);
    return m;
}

/* Asserts that the PTX of 'm' (CUDA only) contains 'opcode'. */
static inline void
tt_ptx_has(const tj_module *m, const char *opcode)
{
    const char *ptx = tj_module_get_ptx(m);
    if (!ptx)
        return;
    ck_assert_msg(strstr(ptx, opcode) != NULL, "the PTX has no '%s'", opcode);
}

/* How many times the PTX of 'm' contains 'opcode'; -1 when 'm' has no PTX (the CPU). */
static inline int
tt_ptx_count(const tj_module *m, const char *opcode)
{
    const char *ptx = tj_module_get_ptx(m);
    int n = 0;
    for (const char *p = ptx; p && (p = strstr(p, opcode)); p += strlen(opcode))
        n++;
    return ptx ? n : -1;
}

/* tj_launch_tiled over 'nblocks' blocks; false (nothing run) without a device. */
static inline bool
tt_launch_tiled(tj_module *m, const char *name, int64_t nblocks, const tj_arg *args,
                size_t nargs)
{
    if (!tt.dev)
        return false;
    tjt_ok(tt.dev, tj_launch_tiled(tt.dev, m, name, 1, &nblocks, tt.block_dim, args, nargs));
    tjt_ok(tt.dev, tj_device_synchronize(tt.dev));
    return true;
}

/* tj_launch over 'nthreads' threads (the last block is partial when B does not divide it). */
static inline bool
tt_launch(tj_module *m, const char *name, int64_t nthreads, const tj_arg *args, size_t nargs)
{
    if (!tt.dev)
        return false;
    tjt_ok(tt.dev, tj_launch(tt.dev, m, name, 1, &nthreads, tt.block_dim, args, nargs));
    tjt_ok(tt.dev, tj_device_synchronize(tt.dev));
    return true;
}

/* ---- host values ----------------------------------------------------------------------------- */

static inline size_t
tt_dt_size(tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_F64:
    case TJ_DTYPE_I64:
    case TJ_DTYPE_U64:
        return 8;
    case TJ_DTYPE_F32:
    case TJ_DTYPE_I32:
    case TJ_DTYPE_U32:
        return 4;
    case TJ_DTYPE_F16:
    case TJ_DTYPE_I16:
    case TJ_DTYPE_U16:
        return 2;
    default:
        return 1;
    }
}

static inline bool
tt_dt_is_float(tj_dtype dt)
{
    return dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64;
}

/* Component 'i' of a dense host buffer of scalars 'dt', as a double (exact for the small
 * values the tests use). */
static inline double
tt_get(const void *base, tj_dtype dt, size_t i)
{
    const uint8_t *p = (const uint8_t *)base + i * tt_dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_BOOL: return *p;
    case TJ_DTYPE_I8: { int8_t x; memcpy(&x, p, 1); return x; }
    case TJ_DTYPE_I16: { int16_t x; memcpy(&x, p, 2); return x; }
    case TJ_DTYPE_I32: { int32_t x; memcpy(&x, p, 4); return x; }
    case TJ_DTYPE_I64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case TJ_DTYPE_U8: return *p;
    case TJ_DTYPE_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
    case TJ_DTYPE_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
    case TJ_DTYPE_U64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
    case TJ_DTYPE_F16: { uint16_t h; memcpy(&h, p, 2); return tjt_half_to_double(h); }
    case TJ_DTYPE_F32: { float f; memcpy(&f, p, 4); return f; }
    case TJ_DTYPE_F64: { double d; memcpy(&d, p, 8); return d; }
    }
    return NAN;
}

static inline void
tt_put(void *base, tj_dtype dt, size_t i, double v)
{
    uint8_t *p = (uint8_t *)base + i * tt_dt_size(dt);
    switch (dt) {
    case TJ_DTYPE_BOOL: *p = v != 0; break;
    case TJ_DTYPE_I8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case TJ_DTYPE_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case TJ_DTYPE_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case TJ_DTYPE_I64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case TJ_DTYPE_U8: *p = (uint8_t)v; break;
    case TJ_DTYPE_U16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case TJ_DTYPE_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case TJ_DTYPE_U64: { uint64_t x = (uint64_t)v; memcpy(p, &x, 8); break; }
    case TJ_DTYPE_F16: { uint16_t h = tjt_half_from_double(v); memcpy(p, &h, 2); break; }
    case TJ_DTYPE_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
    case TJ_DTYPE_F64: memcpy(p, &v, 8); break;
    }
}

/* A scalar, vector, matrix or quaternion type described without a context. */
typedef struct tt_ty {
    tj_type_kind kind;
    tj_dtype dt;
    int rows, cols;    /* vector: rows = length, cols = 1; quaternion 4 x 1 */
} tt_ty;

/* Initializers of tt_ty (in expressions: (tt_ty)TT_SCALAR(F32)). */
#define TT_SCALAR(d) {TJ_TYPE_SCALAR, TJ_DTYPE_##d, 1, 1}
#define TT_VEC(d, n) {TJ_TYPE_VECTOR, TJ_DTYPE_##d, n, 1}
#define TT_MAT(d, r, c) {TJ_TYPE_MATRIX, TJ_DTYPE_##d, r, c}
#define TT_QUAT(d) {TJ_TYPE_QUAT, TJ_DTYPE_##d, 4, 1}

static inline int
tt_ncomp(tt_ty t)
{
    return t.rows * t.cols;
}

static inline const tj_type *
tt_type(tt_ty t)
{
    switch (t.kind) {
    case TJ_TYPE_VECTOR:
        return tj_context_get_vector_type(tjt.ctx, t.dt, t.rows);
    case TJ_TYPE_MATRIX:
        return tj_context_get_matrix_type(tjt.ctx, t.dt, t.rows, t.cols);
    case TJ_TYPE_QUAT:
        return tj_context_get_quat_type(tjt.ctx, t.dt);
    default:
        return tjt_type(t.dt);
    }
}

/* An array on the current device of 'ndim' dims 'shape' of 'elem', filled from 'host'
 * (NULL: zeros); NULL on ptx, where nothing runs. */
static inline tj_array *
tt_array(const tj_type *elem, int ndim, const int64_t *shape, const void *host)
{
    tj_array *a = NULL;
    if (!tt.dev)
        return NULL;
    tjt_ok(tt.dev, tj_array_create(tt.dev, elem, ndim, shape, &a));
    if (host)
        tjt_ok(tt.dev, tj_array_copy_from_host(a, host, tj_array_get_bytes(a)));
    return a;
}

static inline void
tt_read(const tj_array *a, void *host)
{
    if (!tt.dev)
        return;
    tjt_ok(tt.dev, tj_array_copy_to_host(a, host, tj_array_get_bytes(a)));
}

static inline tj_val *
tt_i32(tj_kernel *k, int64_t v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}

/* A host buffer of 'n' components of 'dt' (calloc'd, checked). */
static inline void *
tt_alloc(size_t n, tj_dtype dt)
{
    void *p = calloc(n ? n : 1, tt_dt_size(dt));
    ck_assert_ptr_nonnull(p);
    return p;
}

/* ---- test values ----------------------------------------------------------------------------- */

enum { TT_SENTINEL = 111 };

/* The test value of component c of element i: small, exact in every type (bool: parity). */
static inline double
tt_val_of(tj_dtype dt, int64_t i, int c)
{
    int64_t v = (i * 7 + c * 13) % 97 + 1;
    if (dt == TJ_DTYPE_BOOL)
        return (double)(v % 2);
    return tt_dt_is_float(dt) ? (double)v * 0.5 : (double)v;
}

/* A host buffer of 'n' elements of 't', element i component c = tt_val_of(i, c) ('fill'),
 * or TT_SENTINEL everywhere. */
static inline void *
tt_host_elems(tt_ty t, int64_t n, bool fill)
{
    int nc = tt_ncomp(t);
    void *p = tt_alloc((size_t)(n * nc), t.dt);
    for (int64_t i = 0; i < n; i++)
        for (int c = 0; c < nc; c++)
            tt_put(p, t.dt, (size_t)(i * nc + c), fill ? tt_val_of(t.dt, i, c) : TT_SENTINEL);
    return p;
}

/* Asserts element 'i' of 'got' (components of t) equals element 'j' of 'src' (j < 0: zero;
 * src NULL: TT_SENTINEL). */
static inline void
tt_expect_elem(tt_ty t, const void *got, int64_t i, const void *src, int64_t j,
               const char *what)
{
    int nc = tt_ncomp(t);
    for (int c = 0; c < nc; c++) {
        double g = tt_get(got, t.dt, (size_t)(i * nc + c));
        double w = !src ? TT_SENTINEL : j < 0 ? 0.0 : tt_get(src, t.dt, (size_t)(j * nc + c));
        ck_assert_msg(g == w, "%s (%s): element %lld component %d is %g, expected %g", what,
                      tt_where(), (long long)i, c, g, w);
    }
}

/* ---- shapes ---------------------------------------------------------------------------------- */

static inline int64_t
tt_size(int rank, const int *shape)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

/* Row-major coordinates of linear index 'e' in 'shape'. */
static inline void
tt_unravel(int64_t e, int rank, const int *shape, int *coords)
{
    for (int d = rank - 1; d >= 0; d--) {
        coords[d] = (int)(e % shape[d]);
        e /= shape[d];
    }
}

/* Linear index of 'coords' in 'shape', or -1 when a coordinate is outside. */
static inline int64_t
tt_ravel(int rank, const int *shape, const int *coords)
{
    int64_t e = 0;
    for (int d = 0; d < rank; d++) {
        if (coords[d] < 0 || coords[d] >= shape[d])
            return -1;
        e = e * shape[d] + coords[d];
    }
    return e;
}

static inline void
tt_shape64(int rank, const int *shape, int64_t *out)
{
    for (int d = 0; d < rank; d++)
        out[d] = shape[d];
}

/* Asserts the build error of kernel 'k': status, exact message, that a later valid call
 * returns NULL, and that the build fails with the same message. 'later' makes one more
 * valid builder call and returns its result. */
static inline void
tt_assert_build_error(tj_kernel *k, tj_status want, const char *msg,
                      tj_val *(*later)(tj_kernel *))
{
    ck_assert_msg(tj_kernel_status(k) == want, "status %s, expected %s (%s)",
                  tj_status_name(tj_kernel_status(k)), tj_status_name(want),
                  tj_kernel_error(k) ? tj_kernel_error(k) : "no message");
    ck_assert_ptr_nonnull(tj_kernel_error(k));
    ck_assert_str_eq(tj_kernel_error(k), msg);
    if (later)
        ck_assert_ptr_null(later(k));
    ck_assert_str_eq(tj_kernel_error(k), msg); /* the first error stays */
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), want);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(tj_context_error(tjt.ctx));
    ck_assert_msg(strstr(tj_context_error(tjt.ctx), msg) != NULL,
                  "the build's message '%s' does not carry '%s'", tj_context_error(tjt.ctx),
                  msg);
    tj_kernel_destroy(k);
}

/* A valid builder call for tt_assert_build_error. */
static inline tj_val *
tt_later_zeros(tj_kernel *k)
{
    int shape[1] = {4};
    return tj_tile_zeros(k, tjt_type(TJ_DTYPE_F32), 1, shape, TJ_STORAGE_REGISTER);
}

/* A row of an error table: one bad call on a fresh CPU kernel (width-1, or cooperative at
 * 'block'); true when the call returned NULL or false. */
typedef struct tt_err_row {
    const char *name;
    uint32_t block;        /* 0: width-1 */
    tj_status status;
    const char *msg;
    bool (*call)(tj_kernel *k);
} tt_err_row;

/* Runs an error row: the call fails, then tt_assert_build_error. */
static inline void
tt_check_error_row(const tt_err_row *r)
{
    tj_kernel_options o = {.block_dim = r->block ? r->block : 1,
                           .cpu_mode = r->block ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "bad", &o);
    ck_assert_ptr_nonnull(k);
    ck_assert_msg(r->call(k), "%s: the bad call did not fail", r->name);
    tt_assert_build_error(k, r->status, r->msg, tt_later_zeros);
}

/* A float32 tile of zeros, for the error tables. */
static inline tj_val *
tt_f32_tile(tj_kernel *k, int rank, const int *shape, tj_storage st)
{
    return tj_tile_zeros(k, tjt_type(TJ_DTYPE_F32), rank, shape, st);
}

/* The "errors" test case: error rows need only the context (no kind). */
static inline TCase *
tt_errors_tcase(void)
{
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    return tc;
}

/* A TCase of kind 'kind' with the fixture and the JIT timeout; "cuda" carries its tag. */
static inline TCase *
tt_tcase(tt_kind kind)
{
    static void (*const setups[])(void) = {tt_setup_cpu1, tt_setup_coop, tt_setup_ptx,
                                           tt_setup_cuda};
    TCase *tc = tcase_create(tt_kind_names[kind]);
    tcase_add_checked_fixture(tc, setups[kind], tjt_teardown);
    tcase_set_timeout(tc, TT_TIMEOUT_S);
    if (kind == TT_CUDA)
        tcase_set_tags(tc, "cuda");
    return tc;
}

/* Adds loop test 'fn' over 'nrows' table rows, once per block width of the case's kind;
 * under valgrind only every tjt_sample_stride()-th of those runs (each build is slow there). */
static inline void
tt_add_rows(TCase *tc, tt_kind kind, const TTest *fn, int nrows)
{
    tjt_add_loop_rows(tc, fn, 0, nrows * tt_nwidths(kind));
}

/* ---- partial blocks -------------------------------------------------------------------- */

/* Partial-block tests launch TT_PARTIAL_BLOCKS blocks of 2 B + r threads in all (0 < r < B,
 * SPEC 1): the blocks before the last are full, the last has r running lanes. */
enum { TT_PARTIAL_BLOCKS = 3 };

/* The r each width tries: 1, B / 2 + 1 and B - 1, without repeats (B = 2 has only r = 1);
 * returns how many it wrote to 'rs' (3 at most). */
static inline int
tt_partial_remainders(int B, int *rs)
{
    int cand[3] = {1, B / 2 + 1, B - 1}, n = 0;
    for (int i = 0; i < 3; i++) {
        bool seen = cand[i] >= B;
        for (int j = 0; j < n; j++)
            seen = seen || rs[j] == cand[i];
        if (!seen)
            rs[n++] = cand[i];
    }
    return n;
}

/* Whether element 'e' of block 'block' is made: every element of a full block, and in the
 * last block those of the r running lanes (element e belongs to lane e % B, SPEC 3). */
static inline bool
tt_partial_active(int B, int r, int64_t block, int64_t e)
{
    return block < TT_PARTIAL_BLOCKS - 1 || e % B < r;
}

#endif /* TJ_TILE_TEST_H */
