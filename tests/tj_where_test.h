/*
 * tests/tj_where_test.h: the suites whose loop tests run each row four ways (check_reduce,
 * check_scatter_add, check_stack): width-1 CPU blocks, cooperative CPU blocks, PTX only
 * (assembled by ptxas, not run) and the GPU. A test's loop index is where * STRIDE + row;
 * the test sets g_where from it. Static inline, one copy a suite.
 */
#ifndef TJ_WHERE_TEST_H
#define TJ_WHERE_TEST_H

#include "tj_api_test.h"

enum { ON_CPU1 = 0, ON_COOP = 1, ON_PTX = 2, ON_CUDA = 3, NWHERE = 4 };
/* Loop indices are where * STRIDE + row. */
enum { STRIDE = 100000 };

static int g_where;

/* The options of a kernel built for the row's place. */
static inline tj_kernel_options
opts_for(uint32_t block_dim, bool debug)
{
    return (tj_kernel_options){
        .target = g_where == ON_PTX || g_where == ON_CUDA ? TJ_TARGET_CUDA : TJ_TARGET_CPU,
        .block_dim = block_dim,
        .cpu_mode = g_where == ON_COOP ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1,
        .debug = debug,
    };
}

/* Where the row's kernels launch (the GPU, else the CPU). */
static inline tj_device *
device(void)
{
    return g_where == ON_CUDA ? tjt_gpu() : tjt.cpu;
}

/* The block width kernels see: 1 in width-1 mode. */
static inline uint32_t
width_of(uint32_t block_dim)
{
    return g_where == ON_CPU1 ? 1 : block_dim;
}

/* Whether the row launches its kernels (not for PTX only). */
static inline bool
runs(void)
{
    return g_where != ON_PTX;
}

static inline tj_module *
build(tj_kernel *k)
{
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    return tjt_build(k);
}

static inline void
ptx_has(tj_module *m, const char *what, bool want)
{
    const char *ptx = tj_module_get_ptx(m);
    ck_assert_ptr_nonnull(ptx);
    ck_assert_msg((strstr(ptx, what) != NULL) == want, "'%s' is %s the PTX", what,
                  want ? "missing from" : "unexpectedly in");
}

/* Launches 'n' threads in blocks of 'block_dim' where the row runs. */
static inline void
launch_n(tj_module *m, const char *name, int64_t n, uint32_t block_dim, const tj_arg *args,
         size_t nargs)
{
    tjt_ok(device(), tj_launch(device(), m, name, 1, &n, block_dim, args, nargs));
}

static inline tj_val *
bin(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    return tj_binary(k, op, a, b);
}

/* g, its block and its lane, for 1-D launches. */
static inline void
thread_ids(tj_kernel *k, tj_val **g, tj_val **blk, tj_val **lane)
{
    tj_tid(k, 1, g);
    *blk = bin(k, TJ_BIN_DIV, *g, tj_block_dim(k));
    *lane = bin(k, TJ_BIN_MOD, *g, tj_block_dim(k));
}

/* Threads of block b that run in a launch of n threads with blocks of W. */
static inline int64_t
active_in(int64_t n, int64_t W, int64_t b)
{
    int64_t left = n - b * W;
    return left < 0 ? 0 : left < W ? left : W;
}

#endif /* TJ_WHERE_TEST_H */
