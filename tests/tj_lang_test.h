/*
 * tests/tj_lang_test.h: helpers for the kernel-language suites (check_lang*.c): make a
 * program from source text (asserting success with its message), build and launch kernels
 * on the CPU, and arrays of any dtype. Header-only (static inline) on top of tj_api_test.h.
 */
#ifndef TJ_LANG_TEST_H
#define TJ_LANG_TEST_H

#include <unistd.h>

#include "tj_api_test.h"

/* Kernel options for the CPU: width-1 blocks (block_dim 0) or cooperative blocks. */
static inline tj_kernel_options
tjl_cpu(uint32_t block_dim)
{
    return (tj_kernel_options){.target = TJ_TARGET_CPU, .block_dim = block_dim,
                               .cpu_mode = block_dim > 1 ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
}

static inline tj_program *
tjl_program(const char *src)
{
    tj_program *p = NULL;
    tj_status st = tj_program_create(tjt.ctx, src, "test.py", &p);
    ck_assert_msg(st == TJ_OK, "tj_program_create failed (%s):\n%s", tj_status_name(st),
                  p && tj_program_error(p) ? tj_program_error(p) : "?");
    return p;
}

/* Builds kernel 'kernel' of 'src' with 'o' (asserting success). */
static inline tj_module *
tjl_build(const char *src, const char *kernel, tj_kernel_options o)
{
    tj_program *p = tjl_program(src);
    tj_module *m = NULL;
    tj_status st = tj_program_build(p, kernel, &o, NULL, &m);
    ck_assert_msg(st == TJ_OK, "tj_program_build failed (%s):\n%s", tj_status_name(st),
                  tj_program_error(p) ? tj_program_error(p) : "?");
    if (tj_module_get_target(m) == TJ_TARGET_CUDA)
        tjt_check_ptx(tj_module_get_ptx(m));
    tj_program_destroy(p);
    return m;
}

/* The first error tj_program_create or tj_program_build gives for 'src' (built for the CPU
 * with 'block_dim'), asserting that there is one. Returned text is static. */
static inline const char *
tjl_error_of(const char *src, uint32_t block_dim)
{
    static char buf[4096];
    tj_program *p = NULL;
    tj_status st = tj_program_create(tjt.ctx, src, "test.py", &p);
    if (st == TJ_OK) {
        tj_kernel_options o = tjl_cpu(block_dim);
        tj_module *m = NULL;
        st = tj_program_build(p, NULL, &o, NULL, &m);
        ck_assert_msg(st != TJ_OK, "expected an error, the program built:\n%s", src);
        ck_assert_ptr_null(m);
    }
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(tj_program_error(p));
    snprintf(buf, sizeof buf, "%s", tj_program_error(p));
    tj_program_destroy(p);
    return buf;
}

/* An array of 'ndim' dims 'shape' of scalar 'dt' on the CPU, from 'host' (NULL: zeros). */
static inline tj_array *
tjl_array(tj_dtype dt, int ndim, const int64_t *shape, const void *host)
{
    tj_array *a = NULL;
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, tjt_type(dt), ndim, shape, &a));
    if (host)
        tjt_ok(tjt.cpu, tj_array_copy_from_host(a, host, tj_array_get_bytes(a)));
    return a;
}

static inline tj_array *
tjl_array1(tj_dtype dt, int64_t n, const void *host)
{
    return tjl_array(dt, 1, &n, host);
}

static inline void
tjl_read(const tj_array *a, void *host)
{
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, host, tj_array_get_bytes(a)));
}

/* tj_launch (tiled: tj_launch_tiled) of kernel 'name' over one dimension 'n'. */
static inline void
tjl_launch(tj_module *m, const char *name, int64_t n, bool tiled, uint32_t block_dim,
           const tj_arg *args, size_t nargs)
{
    if (tiled)
        tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, name, 1, &n, block_dim, args, nargs));
    else
        tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, name, 1, &n, block_dim, args, nargs));
}

/* The path of 'rel' relative to the tests/ folder of the sources: beside this header when
 * it exists (the build machine), else under $TILEJIT_SOURCE_DIR/tests or ./tests (a kit run
 * from a copy of the working tree elsewhere). */
static inline void
tjl_source_path(char *buf, size_t n, const char *rel)
{
    const char *here = __FILE__, *slash = strrchr(here, '/');
    const char *env = getenv("TILEJIT_SOURCE_DIR");
    if (slash) {
        snprintf(buf, n, "%.*s/%s", (int)(slash - here), here, rel);
        if (access(buf, R_OK) == 0)
            return;
    }
    if (env && *env) {
        snprintf(buf, n, "%s/tests/%s", env, rel);
        if (access(buf, R_OK) == 0)
            return;
    }
    snprintf(buf, n, "tests/%s", rel);
}

/* Asserts that 'msg' starts with 'want' (the "file:line:col: error: message" line). */
#define tjl_assert_error(msg, want)                                                            \
    ck_assert_msg(strncmp((msg), (want), strlen(want)) == 0, "got:\n%s\nwanted:\n%s", (msg),   \
                  (want))

#endif /* TJ_LANG_TEST_H */
