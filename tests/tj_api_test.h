/*
 * tests/tj_api_test.h: helpers for suites that use the public API (not the INTERNAL ones):
 * a per-test context and devices, builds that fail the test with the library's message,
 * and PTX checks with ptxas. Static inline so unused helpers cost nothing.
 */
#ifndef TJ_API_TEST_H
#define TJ_API_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilejit.h"
#include "tj_test.h"

/* Per-test state, made by tjt_setup() (a checked fixture) and freed by tjt_teardown(). */
typedef struct tjt_state {
    tj_context *ctx;
    tj_device *cpu;
    tj_device *gpu;      /* only after tjt_gpu() */
} tjt_state;

static tjt_state tjt;

static inline void
tjt_setup(void)
{
    memset(&tjt, 0, sizeof tjt);
    ck_assert_int_eq(tj_context_create(&tjt.ctx), TJ_OK);
    ck_assert_int_eq(tj_device_create(tjt.ctx, TJ_DEVICE_CPU, 0, &tjt.cpu), TJ_OK);
}

static inline void
tjt_teardown(void)
{
    tj_context_destroy(tjt.ctx);
    memset(&tjt, 0, sizeof tjt);
}

/* The CUDA device for "cuda" test cases (tj_test_main has checked that one exists). */
static inline tj_device *
tjt_gpu(void)
{
    if (!tjt.gpu) {
        tj_status st = tj_device_create(tjt.ctx, TJ_DEVICE_CUDA, 0, &tjt.gpu);
        ck_assert_msg(st == TJ_OK, "no CUDA device: %s", tj_context_error(tjt.ctx));
    }
    return tjt.gpu;
}

static inline const tj_type *
tjt_type(tj_dtype dt)
{
    return tj_context_get_type(tjt.ctx, dt);
}

/* Asserts that PTX text assembles with ptxas -arch=sm_90 (when ptxas exists). */
static inline void
tjt_check_ptx(const char *ptx)
{
    char log[4096];
    ck_assert_ptr_nonnull(ptx);
    bool ok = tj_test_ptxas(ptx, "sm_90", NULL, log, sizeof log);
    ck_assert_msg(ok, "ptxas rejected the PTX:\n%s", log);
}

/* Builds 'k' (asserting success with the library's message); for CUDA modules also checks
 * the PTX with ptxas. */
static inline tj_module *
tjt_build(tj_kernel *k)
{
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, NULL, &m);
    ck_assert_msg(st == TJ_OK, "build failed (%s): %s", tj_status_name(st),
                  tj_context_error(tjt.ctx) ? tj_context_error(tjt.ctx) : "?");
    if (tj_module_get_target(m) == TJ_TARGET_CUDA)
        tjt_check_ptx(tj_module_get_ptx(m));
    return m;
}

/* Asserts a launch status of TJ_OK with the device's message otherwise. */
#define tjt_ok(dev, expr)                                                                      \
    do {                                                                                       \
        tj_status tjt_st_ = (expr);                                                            \
        ck_assert_msg(tjt_st_ == TJ_OK, "%s -> %s: %s", #expr, tj_status_name(tjt_st_),       \
                      tj_device_error(dev) ? tj_device_error(dev) : "?");                      \
    } while (0)

/* A 1-D array on 'dev' filled from 'host' ('n' elements of 'elem'). */
static inline tj_array *
tjt_array(tj_device *dev, const tj_type *elem, int64_t n, const void *host)
{
    tj_array *a = NULL;
    tjt_ok(dev, tj_array_create(dev, elem, 1, &n, &a));
    if (host)
        tjt_ok(dev, tj_array_copy_from_host(a, host, tj_array_get_bytes(a)));
    return a;
}

/* How many rows of a big case table to step over: run rows 0, n, 2n, ... The value of
 * $TJ_TEST_SAMPLE when set (1: every row); else 16 under valgrind (its preload library is
 * in LD_PRELOAD), where each JIT build is slow; else 1. */
static inline int
tjt_sample_stride(void)
{
    const char *env = getenv("TJ_TEST_SAMPLE");
    if (env && atoi(env) >= 1)
        return atoi(env);
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload") ? 16 : 1;
}

/* How often 'what' occurs in 'text' (occurrences that do not overlap). */
static inline int
tjt_occurrences(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* A struct type of the test context whose size must equal the C struct's ('c_size'). */
static inline const tj_type *
tjt_struct_type(const char *name, const tj_field *fields, size_t n, size_t c_size)
{
    const tj_type *t = tj_context_new_struct_type(tjt.ctx, name, fields, n);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(tj_type_get_size(t), c_size);
    return t;
}

/* Adds loop test 'fn' for _i in [first, first + n): every one, or under valgrind every
 * tjt_sample_stride()-th (each JIT build is slow there). */
static inline void
tjt_add_loop_rows(TCase *tc, const TTest *fn, int first, int n)
{
    int stride = tjt_sample_stride();
    if (stride == 1) {
        tcase_add_loop_test(tc, fn, first, first + n);
        return;
    }
    for (int i = 0; i < n; i += stride)
        tcase_add_loop_test(tc, fn, first + i, first + i + 1);
}

/* float16 bits <-> double, for references in C (no _Float16 under -Wpedantic). The
 * conversion to float16 rounds once, to nearest even, so it is exact for any double. */
static inline double
tjt_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static inline uint16_t
tjt_half_from_double(double d)
{
    uint16_t s = signbit(d) ? 0x8000 : 0;
    if (isnan(d))
        return 0x7e00;
    double a = fabs(d);
    if (a >= 65520.0)
        return s | 0x7c00;
    if (a < ldexp(1.0, -14))
        return s | (uint16_t)nearbyint(a * 16777216.0); /* 1024 becomes the smallest normal */
    int e;
    frexp(a, &e);
    double q = nearbyint(ldexp(a, 11 - e)); /* in [1024, 2048] */
    if (q == 2048.0) {
        q = 1024.0;
        e++;
    }
    if (e - 1 + 15 >= 31)
        return s | 0x7c00;
    return s | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((int)q - 1024);
}

/* Constants of the two types tests use most. */
static inline tj_val *
ci(tj_kernel *k, int64_t v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}

static inline tj_val *
cf(tj_kernel *k, double v)
{
    return tj_const_float(k, TJ_DTYPE_F32, v);
}

/* Opens the loop of the bench's kernels (bench/kernels.c, items_loop): for j in range(0,
 * items, block_dim()), i = tid[0] * items + j + tid[1]; gives i in '*i' (when not NULL),
 * whether it is inside x in '*has', and returns x at i (at 0 outside). Close with
 * tj_for_end. */
static inline tj_val *
tjt_items_loop(tj_kernel *k, tj_val *x, tj_val *const tid[2], int items, tj_val **i,
               tj_val **has)
{
    tj_val *base = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, items));
    tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0),
                             tj_const_int(k, TJ_DTYPE_I32, items), tj_block_dim(k));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, base, j), tid[1]);
    *has = tj_compare(k, TJ_CMP_LT, at, tj_shape(k, x, 0));
    if (i)
        *i = at;
    tj_val *safe = tj_select(k, *has, at, tj_const_int(k, TJ_DTYPE_I32, 0));
    return tj_load(k, x, &safe, 1);
}

/* The loop of the bench's compaction: push x's elements below 0.5 onto stack 's'. */
static inline void
tjt_push_below_half(tj_kernel *k, tj_val *x, tj_val *s, tj_val *const tid[2], int items)
{
    tj_val *has;
    tj_val *v = tjt_items_loop(k, x, tid, items, NULL, &has);
    tj_val *below = tj_compare(k, TJ_CMP_LT, v, tj_const_float(k, TJ_DTYPE_F32, 0.5));
    tj_tile_stack_push(k, s, v, tj_binary(k, TJ_BIN_AND, has, below));
    tj_for_end(k);
}

/* The bench's drain: while stack 's' (of int32) holds values, every lane pops and stores its
 * value at out[start + slot] when it got a slot. With 'two_phases' it stores 'value / 1': the
 * one-phase drain's vector steps compute no integer division (tji_drain_arith), so
 * jit/sink_barriers.c leaves the pop's barrier where it is, the pop keeps a phase of its own
 * and its slot and value cross that barrier in per-lane arrays (the two-phase drain, whose
 * slots the lane loops' copies know). */
static inline void
tjt_drain_phases(tj_kernel *k, tj_val *s, tj_val *out, tj_val *start, bool two_phases)
{
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, start, slot);
    tj_val *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_store(k, out, &at, 1, two_phases ? tj_binary(k, TJ_BIN_DIV, popped, one) : popped);
    tj_if_end(k);
    tj_while_end(k);
}

static inline void
tjt_drain(tj_kernel *k, tj_val *s, tj_val *out, tj_val *start)
{
    tjt_drain_phases(k, s, out, start, false);
}

#endif /* TJ_API_TEST_H */
