/* tj-test: */
/*
 * tests/check_api.c: the public API outside the builder: lifecycles of contexts, devices,
 * arrays, kernels and modules (destroy(NULL), destroying a context with everything still
 * alive; run under valgrind), array copies, interned types with their names, sizes and C
 * layout, status names and the version, CUDA devices on a machine without one, the
 * in-memory compile cache, IR text, and modules that outlive their kernels.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define I32 tjt_type(TJ_DTYPE_I32)
#define F32 tjt_type(TJ_DTYPE_F32)

#define STR2(x) #x
#define STR(x) STR2(x)

/* out[i] = in[i] * 3 + 1 over int32, for 'name' with options 'o'. */
static tj_kernel *
affine_kernel(tj_context *ctx, const char *name, const tj_kernel_options *o)
{
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_kernel *k = tj_kernel_create(ctx, name, o);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *in = tj_param_array(k, "in", i32, 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    tj_val *x = tj_load(k, in, t, 1);
    tj_val *x3 = tj_binary(k, TJ_BIN_MUL, x, tj_const_int(k, TJ_DTYPE_I32, 3));
    tj_val *y = tj_binary(k, TJ_BIN_ADD, x3, tj_const_int(k, TJ_DTYPE_I32, 1));
    ck_assert(tj_store(k, out, t, 1, y));
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    return k;
}

/* Launches 'name' of 'm' on the CPU device 'dev' over n = 'n' threads and checks it. */
static void
check_affine(tj_context *ctx, tj_device *dev, tj_module *m, const char *name, int64_t n,
             uint32_t block_dim)
{
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    int32_t *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
    for (int64_t i = 0; i < n; i++)
        in[i] = (int32_t)(i * 7 - 50);
    tj_array *a = tjt_array(dev, i32, n, NULL), *b = tjt_array(dev, i32, n, in);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b)};
    tjt_ok(dev, tj_launch(dev, m, name, 1, &n, block_dim, args, 2));
    tjt_ok(dev, tj_array_copy_to_host(a, out, (size_t)n * sizeof *out));
    for (int64_t i = 0; i < n; i++)
        ck_assert_int_eq(out[i], in[i] * 3 + 1);
    tj_array_destroy(a);
    tj_array_destroy(b);
    free(in);
    free(out);
}

static tj_module *
build_ok(tj_kernel *k, const tj_build_options *o)
{
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, o, &m);
    ck_assert_msg(st == TJ_OK, "build: %s: %s", tj_status_name(st), tj_context_error(tjt.ctx));
    ck_assert_ptr_nonnull(m);
    return m;
}

/* ---- lifecycles ---------------------------------------------------------------------------- */

START_TEST(test_destroy_of_null_does_nothing)
{
    tj_context_destroy(NULL);
    tj_device_destroy(NULL);
    tj_array_destroy(NULL);
    tj_kernel_destroy(NULL);
    tj_func_destroy(NULL);
    tj_module_destroy(NULL);
    ck_assert_int_eq(tj_context_create(NULL), TJ_ERR_INVALID);
    ck_assert_ptr_null(tj_context_error(NULL));
}
END_TEST

/* Everything made in a context and never destroyed is freed with it (valgrind checks). */
START_TEST(test_context_destroy_frees_everything_still_alive)
{
    tj_context *ctx = NULL;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    ck_assert_ptr_null(tj_context_error(ctx));
    tj_device *cpu = NULL, *cpu2 = NULL;
    ck_assert_int_eq(tj_device_create(ctx, TJ_DEVICE_CPU, 0, &cpu), TJ_OK);
    ck_assert_int_eq(tj_device_create(ctx, TJ_DEVICE_CPU, 0, &cpu2), TJ_OK);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_field fields[] = {{"a", i32}};
    ck_assert_ptr_nonnull(tj_context_new_struct_type(ctx, "s", fields, 1));
    tj_func *f = tj_func_create(ctx, "f", i32, NULL);
    tj_val *x = tj_param(f, "x", i32);
    tj_return(f, x);
    tj_kernel *k = affine_kernel(ctx, "k", NULL);
    tj_kernel *caller = tj_kernel_create(ctx, "caller", NULL);
    tj_val *arg = tj_const_int(caller, TJ_DTYPE_I32, 1);
    tj_call(caller, f, &arg, 1);
    tj_kernel *open = tj_kernel_create(ctx, "open", NULL);
    tj_if_begin(open, tj_const_bool(open, true)); /* never closed */
    tj_kernel *broken = tj_kernel_create(ctx, "broken", NULL);
    tj_break(broken);
    tj_module *m = NULL, *mc = NULL, *mcaller = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    ck_assert_int_eq(tj_kernel_build(caller, NULL, &mcaller), TJ_OK);
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel *kc = affine_kernel(ctx, "kc", &cuda);
    ck_assert_int_eq(tj_kernel_build(kc, NULL, &mc), TJ_OK);
    int64_t n = 10;
    tj_array *a = NULL, *b = NULL, *c = NULL;
    ck_assert_int_eq(tj_array_create(cpu, i32, 1, &n, &a), TJ_OK);
    ck_assert_int_eq(tj_array_create(cpu, i32, 1, &n, &b), TJ_OK);
    ck_assert_int_eq(tj_array_create(cpu2, i32, 1, &n, &c), TJ_OK);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b)};
    ck_assert_int_eq(tj_launch(cpu, m, "k", 1, &n, 1, args, 2), TJ_OK);
    ck_assert_int_eq(tj_launch(cpu, m, "nope", 1, &n, 1, args, 2), TJ_ERR_LAUNCH);
    ck_assert_int_eq(tj_kernel_build(broken, NULL, &m), TJ_ERR_STATE);
    ck_assert_ptr_nonnull(tj_context_error(ctx));
    tj_context_destroy(ctx);
}
END_TEST

START_TEST(test_objects_can_be_destroyed_one_by_one_in_any_order)
{
    tj_kernel *k = affine_kernel(tjt.ctx, "k", NULL);
    tj_module *m = build_ok(k, NULL);
    tj_kernel_destroy(k);
    tj_array *a = tjt_array(tjt.cpu, I32, 4, NULL);
    tj_array_destroy(a);
    tj_module_destroy(m);
    tj_func *f = tj_func_create(tjt.ctx, "f", NULL, NULL);
    tj_func_destroy(f);
    tj_func *g = tj_func_create(tjt.ctx, "g", NULL, NULL);
    tj_kernel_destroy(g); /* a function given to tj_kernel_destroy is released */
    tj_device_destroy(tjt.cpu);
    tjt.cpu = NULL;
}
END_TEST

/* A kernel keeps the functions it calls alive until it is destroyed; destroying a
 * function twice is harmless. */
START_TEST(test_functions_live_while_a_kernel_calls_them)
{
    tj_func *f = tj_func_create(tjt.ctx, "twice", I32, NULL);
    tj_val *x = tj_param(f, "x", I32);
    ck_assert(tj_return(f, tj_binary(f, TJ_BIN_ADD, x, x)));
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    ck_assert(tj_store(k, out, t, 1, tj_call(k, f, t, 1)));
    tj_func_destroy(f);
    tj_func_destroy(f);
    tj_module *m = build_ok(k, NULL);
    tj_kernel_destroy(k); /* the function goes with its last caller */
    int64_t n = 5;
    tj_array *a = tjt_array(tjt.cpu, I32, n, NULL);
    tj_arg arg = tj_arg_array(a);
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "k", 1, &n, 1, &arg, 1));
    int32_t got[5];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, got, sizeof got));
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(got[i], 2 * i);
}
END_TEST

/* A module keeps nothing of its kernels: it launches after they are destroyed. */
START_TEST(test_module_is_usable_after_its_kernel_is_destroyed)
{
    tj_kernel *k = affine_kernel(tjt.ctx, "k", NULL);
    tj_module *m = build_ok(k, NULL);
    tj_kernel_destroy(k);
    check_affine(tjt.ctx, tjt.cpu, m, "k", 100, 1);
    tj_kernel *k2 = affine_kernel(tjt.ctx, "k", NULL); /* the same code, from the cache */
    tj_module *m2 = build_ok(k2, NULL);
    ck_assert(tj_module_is_cached(m2));
    tj_kernel_destroy(k2);
    tj_module_destroy(m);
    check_affine(tjt.ctx, tjt.cpu, m2, "k", 100, 1);
}
END_TEST

/* ---- devices ------------------------------------------------------------------------------- */

START_TEST(test_cpu_device_reports_its_kind_name_and_limits)
{
    tj_device *d = tjt.cpu;
    ck_assert_int_eq(tj_device_get_kind(d), TJ_DEVICE_CPU);
    ck_assert_ptr_nonnull(tj_device_get_arch(d));
    ck_assert_uint_gt(strlen(tj_device_get_arch(d)), 0);
    ck_assert_uint_eq(tj_device_get_max_shared_bytes(d), (size_t)64 << 20);
    ck_assert_ptr_null(tj_device_error(d));
    tjt_ok(d, tj_device_set_cpu_threads(d, 3));
    ck_assert_str_eq(tj_device_get_name(d), "cpu (3 threads)");
    tjt_ok(d, tj_device_set_cpu_threads(d, 1));
    ck_assert_str_eq(tj_device_get_name(d), "cpu (1 thread)");
    ck_assert_int_eq(tj_device_set_cpu_threads(d, -1), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(d), "tj_device_set_cpu_threads: a negative thread count");
    tjt_ok(d, tj_device_synchronize(d));
    ck_assert_int_eq(tj_device_synchronize(NULL), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_device_set_cpu_threads(NULL, 1), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_device_set_stack_bytes(d, 8192), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(d), "tj_device_set_stack_bytes: not a CUDA device (a CPU "
                                         "thread's stack is its own)");
    ck_assert_int_eq(tj_device_set_stack_bytes(NULL, 8192), TJ_ERR_INVALID);
    ck_assert_ptr_null(tj_device_get_name(NULL));
    ck_assert_ptr_null(tj_device_error(NULL));
    ck_assert_uint_eq(tj_device_get_max_shared_bytes(NULL), 0);
}
END_TEST

START_TEST(test_device_create_rejects_bad_arguments)
{
    tj_device *d = (tj_device *)&d;
    ck_assert_int_eq(tj_device_create(tjt.ctx, TJ_DEVICE_CPU, 1, &d), TJ_ERR_INVALID);
    ck_assert_ptr_null(d);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "tj_device_create: argument 'ordinal': the CPU is device 0, not 1");
    ck_assert_int_eq(tj_device_create(tjt.ctx, (tj_device_kind)7, 0, &d), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx), "tj_device_create: argument 'kind': 7");
    ck_assert_int_eq(tj_device_create(NULL, TJ_DEVICE_CPU, 0, &d), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_device_create(tjt.ctx, TJ_DEVICE_CPU, 0, NULL), TJ_ERR_INVALID);
}
END_TEST

/* A CUDA driver that is not there is "no device", a normal result (STYLE 2.5). */
START_TEST(test_cuda_device_without_a_driver_is_no_device)
{
    const char *path = "/nonexistent/tilejit/libcuda.so.1";
    setenv("TILEJIT_LIBCUDA", path, 1);
    tj_device *d = (tj_device *)&d;
    ck_assert_int_eq(tj_device_create(tjt.ctx, TJ_DEVICE_CUDA, 0, &d), TJ_ERR_NO_DEVICE);
    ck_assert_ptr_null(d);
    char want[512];
    snprintf(want, sizeof want,
             "tj_device_create: no CUDA driver: %s not found (%s: cannot open shared object "
             "file: No such file or directory)",
             path, path);
    ck_assert_str_eq(tj_context_error(tjt.ctx), want);
    int count = -1;
    ck_assert_int_eq(tj_cuda_device_count(tjt.ctx, &count), TJ_OK);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(tj_device_create_default(tjt.ctx, &d), TJ_OK);
    ck_assert_int_eq(tj_device_get_kind(d), TJ_DEVICE_CPU);
    ck_assert_ptr_null(tj_context_error(tjt.ctx));
    unsetenv("TILEJIT_LIBCUDA");
}
END_TEST

/* With the real driver path: no GPU here means TJ_ERR_NO_DEVICE, a count of 0 and the CPU
 * as the default device; a GPU machine gets the GPU. */
START_TEST(test_cuda_device_matches_the_machine)
{
    int gpus = tj_test_gpu_count();
    int count = -1;
    ck_assert_int_eq(tj_cuda_device_count(tjt.ctx, &count), TJ_OK);
    ck_assert_int_eq(count, gpus);
    ck_assert_int_eq(tj_cuda_device_count(tjt.ctx, NULL), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_cuda_device_count(NULL, &count), TJ_ERR_INVALID);
    tj_device *d = NULL, *def = NULL;
    tj_status st = tj_device_create(tjt.ctx, TJ_DEVICE_CUDA, 0, &d);
    ck_assert_int_eq(tj_device_create_default(tjt.ctx, &def), TJ_OK);
    if (gpus == 0) {
        ck_assert_int_eq(st, TJ_ERR_NO_DEVICE);
        ck_assert_ptr_null(d);
        ck_assert_int_eq(tj_device_get_kind(def), TJ_DEVICE_CPU);
    } else {
        ck_assert_int_eq(st, TJ_OK);
        ck_assert_int_eq(tj_device_get_kind(d), TJ_DEVICE_CUDA);
        ck_assert_int_eq(tj_device_get_kind(def), TJ_DEVICE_CUDA);
    }
    st = tj_device_create(tjt.ctx, TJ_DEVICE_CUDA, gpus, &d);
    ck_assert_int_eq(st, TJ_ERR_NO_DEVICE);
    ck_assert_ptr_null(d);
    const char *msg = tj_context_error(tjt.ctx);
    ck_assert_ptr_nonnull(msg);
    ck_assert_msg(strncmp(msg, "tj_device_create: no CUDA ", 26) == 0, "message: %s", msg);
}
END_TEST

/* ---- arrays -------------------------------------------------------------------------------- */

START_TEST(test_array_is_zero_filled_and_copies_round_trip)
{
    const int64_t shape[3] = {2, 3, 4};
    tj_array *a = NULL;
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, F32, 3, shape, &a));
    ck_assert_int_eq(tj_array_get_ndim(a), 3);
    ck_assert_int_eq(tj_array_get_shape(a, 0), 2);
    ck_assert_int_eq(tj_array_get_shape(a, 2), 4);
    ck_assert_int_eq(tj_array_get_shape(a, 3), -1);
    ck_assert_int_eq(tj_array_get_shape(a, -1), -1);
    ck_assert_uint_eq(tj_array_get_bytes(a), 96);
    ck_assert_ptr_eq(tj_array_get_type(a), F32);
    ck_assert_ptr_eq(tj_array_get_device(a), tjt.cpu);
    float h[24], back[24];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, back, sizeof back));
    for (int i = 0; i < 24; i++)
        ck_assert(back[i] == 0.0f);
    for (int i = 0; i < 24; i++)
        h[i] = (float)i * 0.5f - 3;
    tjt_ok(tjt.cpu, tj_array_copy_from_host(a, h, sizeof h));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, back, sizeof back));
    ck_assert(memcmp(h, back, sizeof h) == 0);
    tjt_ok(tjt.cpu, tj_array_zero(a));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, back, sizeof back));
    for (int i = 0; i < 24; i++)
        ck_assert(back[i] == 0.0f);
    ck_assert_int_eq(tj_array_get_ndim(NULL), 0);
    ck_assert_uint_eq(tj_array_get_bytes(NULL), 0);
    ck_assert_ptr_null(tj_array_get_type(NULL));
    ck_assert_ptr_null(tj_array_get_device(NULL));
    ck_assert_int_eq(tj_array_zero(NULL), TJ_ERR_INVALID);
}
END_TEST

START_TEST(test_array_copies_of_the_wrong_size_fail_with_a_message)
{
    tj_array *a = tjt_array(tjt.cpu, I32, 4, NULL);
    int32_t h[5] = {1, 2, 3, 4, 5};
    ck_assert_int_eq(tj_array_copy_from_host(a, h, 12), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu),
                     "tj_array_copy_from_host: argument 'bytes': 12, the array has 16 bytes");
    ck_assert_int_eq(tj_array_copy_from_host(a, h, 20), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu),
                     "tj_array_copy_from_host: argument 'bytes': 20, the array has 16 bytes");
    ck_assert_int_eq(tj_array_copy_to_host(a, h, 8), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu),
                     "tj_array_copy_to_host: argument 'bytes': 8, the array has 16 bytes");
    ck_assert_int_eq(tj_array_copy_from_host(a, NULL, 16), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_copy_from_host: the host pointer is NULL");
    ck_assert_int_eq(tj_array_copy_to_host(a, NULL, 16), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_copy_to_host: the host pointer is NULL");
    ck_assert_int_eq(tj_array_copy_from_host(NULL, h, 16), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_array_copy_to_host(NULL, h, 16), TJ_ERR_INVALID);
    /* The array is unchanged by the failed copies. */
    int32_t back[4];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, back, sizeof back));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(back[i], 0);
}
END_TEST

START_TEST(test_array_create_rejects_bad_shapes)
{
    tj_array *a = (tj_array *)&a;
    int64_t shape[5] = {2, -1, 3, 4, 5};
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 2, shape, &a), TJ_ERR_INVALID);
    ck_assert_ptr_null(a);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_create: argument 'shape': extent -1 of "
                                               "dimension 1 is not in [0, 2147483647]");
    shape[1] = INT64_C(1) << 31;
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 2, shape, &a), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_create: argument 'shape': extent "
                                               "2147483648 of dimension 1 is not in [0, "
                                               "2147483647]");
    shape[1] = 3;
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 0, shape, &a), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu),
                     "tj_array_create: argument 'ndim': 0 is not in [1, 4]");
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 5, shape, &a), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu),
                     "tj_array_create: argument 'ndim': 5 is not in [1, 4]");
    ck_assert_int_eq(tj_array_create(tjt.cpu, NULL, 1, shape, &a), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_create: argument 'elem' is not a type");
    ck_assert_int_eq(tj_array_create(NULL, I32, 1, shape, &a), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 1, shape, NULL), TJ_ERR_INVALID);
}
END_TEST

/* Empty arrays, and arrays of composites and structs, size as C does. */
START_TEST(test_arrays_of_every_element_kind_have_c_sizes)
{
    const int64_t zero = 0, shape[2] = {3, 2};
    tj_array *e = NULL, *v = NULL, *s = NULL;
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, I32, 1, &zero, &e));
    ck_assert_uint_eq(tj_array_get_bytes(e), 0);
    int32_t dummy = 0;
    tjt_ok(tjt.cpu, tj_array_copy_from_host(e, &dummy, 0));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(e, &dummy, 0));
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, v3, 2, shape, &v));
    ck_assert_uint_eq(tj_array_get_bytes(v), 6 * 12);
    typedef struct {
        int8_t a;
        double b;
    } c_pair;
    tj_field fields[] = {{"a", tjt_type(TJ_DTYPE_I8)}, {"b", tjt_type(TJ_DTYPE_F64)}};
    const tj_type *st = tj_context_new_struct_type(tjt.ctx, "c_pair", fields, 2);
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, st, 1, &shape[0], &s));
    ck_assert_uint_eq(tj_array_get_bytes(s), 3 * sizeof(c_pair));
}
END_TEST

/* ---- types --------------------------------------------------------------------------------- */

START_TEST(test_types_are_interned)
{
    tj_context *c = tjt.ctx;
    ck_assert_ptr_eq(tj_context_get_type(c, TJ_DTYPE_F32), tj_context_get_type(c, TJ_DTYPE_F32));
    ck_assert_ptr_ne(tj_context_get_type(c, TJ_DTYPE_F32), tj_context_get_type(c, TJ_DTYPE_F64));
    const tj_type *v3 = tj_context_get_vector_type(c, TJ_DTYPE_F32, 3);
    ck_assert_ptr_nonnull(v3);
    ck_assert_ptr_eq(tj_context_get_vector_type(c, TJ_DTYPE_F32, 3), v3);
    ck_assert_ptr_ne(tj_context_get_vector_type(c, TJ_DTYPE_F32, 4), v3);
    ck_assert_ptr_ne(tj_context_get_vector_type(c, TJ_DTYPE_I32, 3), v3);
    const tj_type *m = tj_context_get_matrix_type(c, TJ_DTYPE_F32, 3, 3);
    ck_assert_ptr_eq(tj_context_get_matrix_type(c, TJ_DTYPE_F32, 3, 3), m);
    ck_assert_ptr_ne(tj_context_get_matrix_type(c, TJ_DTYPE_F32, 3, 2), m);
    const tj_type *q = tj_context_get_quat_type(c, TJ_DTYPE_F32);
    ck_assert_ptr_eq(tj_context_get_quat_type(c, TJ_DTYPE_F32), q);
    ck_assert_ptr_ne((const void *)q, (const void *)tj_context_get_vector_type(c, TJ_DTYPE_F32, 4));
    /* An n x 1 matrix is not a vector; a vector is not a matrix. */
    ck_assert_ptr_ne(tj_context_get_matrix_type(c, TJ_DTYPE_F32, 3, 1), v3);
    /* Structs are nominal: the same fields make another type. */
    tj_field fields[] = {{"x", tj_context_get_type(c, TJ_DTYPE_F32)}};
    const tj_type *s1 = tj_context_new_struct_type(c, "s", fields, 1);
    const tj_type *s2 = tj_context_new_struct_type(c, "s", fields, 1);
    ck_assert_ptr_nonnull(s1);
    ck_assert_ptr_nonnull(s2);
    ck_assert_ptr_ne(s1, s2);
    /* Types are per context. */
    tj_context *other = NULL;
    ck_assert_int_eq(tj_context_create(&other), TJ_OK);
    ck_assert_ptr_ne(tj_context_get_type(other, TJ_DTYPE_F32),
                     tj_context_get_type(c, TJ_DTYPE_F32));
    tj_context_destroy(other);
}
END_TEST

static const struct type_row {
    tj_type_kind kind;
    tj_dtype dt;
    int rows, cols;
    const char *name;
    size_t size;
} type_rows[] = {
    {TJ_TYPE_SCALAR, TJ_DTYPE_BOOL, 1, 1, "bool", 1},
    {TJ_TYPE_SCALAR, TJ_DTYPE_I8, 1, 1, "int8", 1},
    {TJ_TYPE_SCALAR, TJ_DTYPE_I16, 1, 1, "int16", 2},
    {TJ_TYPE_SCALAR, TJ_DTYPE_I32, 1, 1, "int32", 4},
    {TJ_TYPE_SCALAR, TJ_DTYPE_I64, 1, 1, "int64", 8},
    {TJ_TYPE_SCALAR, TJ_DTYPE_U8, 1, 1, "uint8", 1},
    {TJ_TYPE_SCALAR, TJ_DTYPE_U16, 1, 1, "uint16", 2},
    {TJ_TYPE_SCALAR, TJ_DTYPE_U32, 1, 1, "uint32", 4},
    {TJ_TYPE_SCALAR, TJ_DTYPE_U64, 1, 1, "uint64", 8},
    {TJ_TYPE_SCALAR, TJ_DTYPE_F16, 1, 1, "float16", 2},
    {TJ_TYPE_SCALAR, TJ_DTYPE_F32, 1, 1, "float32", 4},
    {TJ_TYPE_SCALAR, TJ_DTYPE_F64, 1, 1, "float64", 8},
    {TJ_TYPE_VECTOR, TJ_DTYPE_F32, 3, 1, "vec3f", 12},
    {TJ_TYPE_VECTOR, TJ_DTYPE_F32, 2, 1, "vec2f", 8},
    {TJ_TYPE_VECTOR, TJ_DTYPE_F64, 4, 1, "vec4d", 32},
    {TJ_TYPE_VECTOR, TJ_DTYPE_F16, 2, 1, "vec2h", 4},
    {TJ_TYPE_VECTOR, TJ_DTYPE_I32, 3, 1, "vec3i", 12},
    {TJ_TYPE_VECTOR, TJ_DTYPE_U8, 4, 1, "vec4ub", 4},
    {TJ_TYPE_VECTOR, TJ_DTYPE_I64, 2, 1, "vec2l", 16},
    {TJ_TYPE_MATRIX, TJ_DTYPE_F32, 3, 3, "mat33f", 36},
    {TJ_TYPE_MATRIX, TJ_DTYPE_F32, 2, 2, "mat22f", 16},
    {TJ_TYPE_MATRIX, TJ_DTYPE_F64, 4, 4, "mat44d", 128},
    {TJ_TYPE_MATRIX, TJ_DTYPE_F32, 2, 3, "mat23f", 24},
    {TJ_TYPE_MATRIX, TJ_DTYPE_F32, 1, 4, "mat14f", 16},
    {TJ_TYPE_QUAT, TJ_DTYPE_F32, 4, 1, "quatf", 16},
    {TJ_TYPE_QUAT, TJ_DTYPE_F64, 4, 1, "quatd", 32},
    {TJ_TYPE_QUAT, TJ_DTYPE_F16, 4, 1, "quath", 8},
};

START_TEST(test_types_have_their_names_kinds_and_sizes)
{
    const struct type_row *r = &type_rows[_i];
    const tj_type *t = NULL;
    switch (r->kind) {
    case TJ_TYPE_SCALAR:
        t = tj_context_get_type(tjt.ctx, r->dt);
        break;
    case TJ_TYPE_VECTOR:
        t = tj_context_get_vector_type(tjt.ctx, r->dt, r->rows);
        break;
    case TJ_TYPE_MATRIX:
        t = tj_context_get_matrix_type(tjt.ctx, r->dt, r->rows, r->cols);
        break;
    default:
        t = tj_context_get_quat_type(tjt.ctx, r->dt);
        break;
    }
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(tj_type_get_name(t), r->name);
    ck_assert_int_eq(tj_type_get_kind(t), r->kind);
    ck_assert_int_eq(tj_type_get_dtype(t), r->dt);
    ck_assert_uint_eq(tj_type_get_size(t), r->size);
}
END_TEST

/* Struct layout follows C: field offsets aligned, size a multiple of the alignment. */
typedef struct {
    int8_t a;
    float v[3];
    double d;
    int16_t s;
} c_outer_inner;

typedef struct {
    uint8_t tag;
    c_outer_inner in;
    float m[2][2];
    bool flag;
} c_outer;

START_TEST(test_struct_types_have_the_c_layout)
{
    tj_context *c = tjt.ctx;
    tj_field inner_fields[] = {
        {"a", tj_context_get_type(c, TJ_DTYPE_I8)},
        {"v", tj_context_get_vector_type(c, TJ_DTYPE_F32, 3)},
        {"d", tj_context_get_type(c, TJ_DTYPE_F64)},
        {"s", tj_context_get_type(c, TJ_DTYPE_I16)},
    };
    const tj_type *inner = tj_context_new_struct_type(c, "inner", inner_fields, 4);
    ck_assert_ptr_nonnull(inner);
    ck_assert_uint_eq(tj_type_get_size(inner), sizeof(c_outer_inner));
    ck_assert_str_eq(tj_type_get_name(inner), "inner");
    ck_assert_int_eq(tj_type_get_kind(inner), TJ_TYPE_STRUCT);
    ck_assert_int_eq(tj_type_get_dtype(inner), 0);
    tj_field outer_fields[] = {
        {"tag", tj_context_get_type(c, TJ_DTYPE_U8)},
        {"in", inner},
        {"m", tj_context_get_matrix_type(c, TJ_DTYPE_F32, 2, 2)},
        {"flag", tj_context_get_type(c, TJ_DTYPE_BOOL)},
    };
    const tj_type *outer = tj_context_new_struct_type(c, "outer", outer_fields, 4);
    ck_assert_uint_eq(tj_type_get_size(outer), sizeof(c_outer));
    /* The layout is what a kernel reads: a struct argument arrives field by field. */
    tj_kernel *k = tj_kernel_create(c, "fields", NULL);
    tj_val *out = tj_param_array(k, "out", tj_context_get_type(c, TJ_DTYPE_F64), 1);
    tj_val *s = tj_param(k, "s", outer);
    tj_val *in = tj_get_field(k, s, "in");
    tj_val *vals[] = {
        tj_get_field(k, s, "tag"), tj_get_field(k, in, "a"),
        tj_extract(k, tj_get_field(k, in, "v"), 2), tj_get_field(k, in, "d"),
        tj_get_field(k, in, "s"), tj_extract(k, tj_extract(k, tj_get_field(k, s, "m"), 1), 0),
        tj_get_field(k, s, "flag"),
    };
    const tj_type *f64 = tj_context_get_type(c, TJ_DTYPE_F64);
    for (int i = 0; i < 7; i++) {
        tj_val *idx = tj_const_int(k, TJ_DTYPE_I32, i);
        ck_assert(tj_store(k, out, &idx, 1, tj_cast(k, vals[i], f64)));
    }
    tj_module *m = build_ok(k, NULL);
    c_outer h;
    memset(&h, 0, sizeof h);
    h.tag = 200;
    h.in = (c_outer_inner){.a = -7, .v = {1, 2, 3.5f}, .d = -0.25, .s = -300};
    h.m[1][0] = 9.5f;
    h.flag = true;
    tj_array *a = tjt_array(tjt.cpu, f64, 7, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_bytes(outer, &h)};
    int64_t one = 1;
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "fields", 1, &one, 1, args, 2));
    double got[7];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, got, sizeof got));
    const double want[7] = {200, -7, 3.5, -0.25, -300, 9.5, 1};
    for (int i = 0; i < 7; i++)
        ck_assert_msg(got[i] == want[i], "field %d: %g, expected %g", i, got[i], want[i]);
}
END_TEST

START_TEST(test_type_constructors_reject_bad_arguments)
{
    tj_context *c = tjt.ctx;
    ck_assert_ptr_null(tj_context_get_type(c, (tj_dtype)99));
    ck_assert_str_eq(tj_context_error(c), "tj_context_get_type: 99 is not a dtype");
    ck_assert_ptr_null(tj_context_get_type(c, (tj_dtype)0));
    ck_assert_str_eq(tj_context_error(c), "tj_context_get_type: 0 is not a dtype");
    ck_assert_ptr_null(tj_context_get_vector_type(c, TJ_DTYPE_F32, 5));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_get_vector_type: argument 'length': 5 is not in [2, 4]");
    ck_assert_ptr_null(tj_context_get_vector_type(c, TJ_DTYPE_F32, 1));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_get_vector_type: argument 'length': 1 is not in [2, 4]");
    ck_assert_ptr_null(tj_context_get_vector_type(c, TJ_DTYPE_BOOL, 3));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_get_vector_type: argument 'dtype': bool is not a numeric dtype");
    ck_assert_ptr_null(tj_context_get_matrix_type(c, TJ_DTYPE_F32, 1, 1));
    ck_assert_str_eq(tj_context_error(c), "tj_context_get_matrix_type: a 1x1 matrix is not "
                                          "supported (rows and cols in [1, 4], not both 1)");
    ck_assert_ptr_null(tj_context_get_matrix_type(c, TJ_DTYPE_F32, 5, 2));
    ck_assert_str_eq(tj_context_error(c), "tj_context_get_matrix_type: a 5x2 matrix is not "
                                          "supported (rows and cols in [1, 4], not both 1)");
    ck_assert_ptr_null(tj_context_get_quat_type(c, TJ_DTYPE_I32));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_get_quat_type: argument 'dtype': int32 is not a float dtype");
    const tj_type *f32 = tj_context_get_type(c, TJ_DTYPE_F32);
    tj_field dup[] = {{"a", f32}, {"a", f32}};
    ck_assert_ptr_null(tj_context_new_struct_type(c, "s", dup, 2));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_new_struct_type: struct 's': duplicate field 'a'");
    ck_assert_ptr_null(tj_context_new_struct_type(c, "", dup, 1));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_new_struct_type: argument 'name': '' is not an identifier");
    ck_assert_ptr_null(tj_context_new_struct_type(c, "s", dup, 0));
    ck_assert_str_eq(tj_context_error(c), "tj_context_new_struct_type: struct 's' has no fields");
    tj_field untyped[] = {{"a", NULL}};
    ck_assert_ptr_null(tj_context_new_struct_type(c, "s", untyped, 1));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_new_struct_type: struct 's': field 'a' has no type");
    tj_field unnamed[] = {{"1a", f32}};
    ck_assert_ptr_null(tj_context_new_struct_type(c, "s", unnamed, 1));
    ck_assert_str_eq(tj_context_error(c),
                     "tj_context_new_struct_type: struct 's': field 0: '1a' is not an "
                     "identifier");
    ck_assert_ptr_null(tj_context_get_type(NULL, TJ_DTYPE_F32));
    ck_assert_int_eq(tj_type_get_kind(NULL), TJ_TYPE_VOID);
    ck_assert_uint_eq(tj_type_get_size(NULL), 0);
    ck_assert_int_eq(tj_type_get_dtype(NULL), 0);
    ck_assert_str_eq(tj_type_get_name(NULL), "(null)");
}
END_TEST

/* Types belong to the context that made them, as values do: each call that takes a type
 * refuses one of another context (whose LLVM types die with it) with the call and the
 * argument, and destroying both contexts afterwards, the other first, is clean. */
static bool
foreign_param(tj_kernel *k, const tj_type *t)
{
    return !tj_param(k, "x", t);
}

static bool
foreign_array_param(tj_kernel *k, const tj_type *t)
{
    return !tj_param_array(k, "a", t, 1);
}

static bool
foreign_stack_param(tj_kernel *k, const tj_type *t)
{
    return !tj_param_stack(k, "s", t, 4);
}

static bool
foreign_zero(tj_kernel *k, const tj_type *t)
{
    return !tj_zero(k, t);
}

static bool
foreign_cast(tj_kernel *k, const tj_type *t)
{
    return !tj_cast(k, tj_const_int(k, TJ_DTYPE_I32, 1), t);
}

static bool
foreign_tile(tj_kernel *k, const tj_type *t)
{
    static const int shape[] = {4};
    return !tj_tile_zeros(k, t, 1, shape, TJ_STORAGE_SHARED);
}

static bool
foreign_arange(tj_kernel *k, const tj_type *t)
{
    return !tj_tile_arange(k, 0, 4, 1, t, TJ_STORAGE_REGISTER);
}

static bool
foreign_stack(tj_kernel *k, const tj_type *t)
{
    return !tj_tile_stack(k, 4, t);
}

START_TEST(test_types_of_another_context_are_refused)
{
    tj_context *other = NULL;
    ck_assert_int_eq(tj_context_create(&other), TJ_OK);
    const tj_type *t = tj_context_get_type(other, TJ_DTYPE_I32);
    static const struct {
        bool (*call)(tj_kernel *k, const tj_type *t);
        const char *msg;
    } rows[] = {
        {foreign_param, "tj_param: argument 'type': int32 is a type of another context"},
        {foreign_array_param, "tj_param_array: argument 'type': int32 is a type of another "
                              "context"},
        {foreign_stack_param, "tj_param_stack: argument 'type': int32 is a type of another "
                              "context"},
        {foreign_zero, "tj_zero: argument 'type': int32 is a type of another context"},
        {foreign_cast, "tj_cast: argument 'type': int32 is a type of another context"},
        {foreign_tile, "tile_zeros: argument 'dtype': int32 is a type of another context"},
        {foreign_arange, "tile_arange: argument 'dtype': int32 is a type of another context"},
        {foreign_stack, "tile_stack: argument 'dtype': int32 is a type of another context"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
        ck_assert_msg(rows[i].call(k, t), "row %zu: accepted", i);
        ck_assert_str_eq(tj_kernel_error(k), rows[i].msg);
        tj_kernel_destroy(k);
    }
    tj_func *f = tj_func_create(tjt.ctx, "f", t, NULL);
    ck_assert_str_eq(tj_kernel_error(f), "tj_func_create: argument 'ret': int32 is a type of "
                                         "another context");
    tj_func_destroy(f);
    tj_field field[] = {{"a", t}};
    ck_assert_ptr_null(tj_context_new_struct_type(tjt.ctx, "s", field, 1));
    ck_assert_str_eq(tj_context_error(tjt.ctx), "tj_context_new_struct_type: struct 's': field "
                                                "'a': int32 is a type of another context");
    tj_array *a = NULL;
    int64_t n = 4;
    ck_assert_int_eq(tj_array_create(tjt.cpu, t, 1, &n, &a), TJ_ERR_INVALID);
    ck_assert_ptr_null(a);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_array_create: argument 'elem': int32 is a "
                                                "type of another context");
    /* a kernel made in this context, of its own types, builds and launches */
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    ck_assert_ptr_nonnull(tj_param(k, "x", tjt_type(TJ_DTYPE_I32)));
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    int32_t v = 3;
    tj_arg arg = tj_arg_bytes(t, &v);
    int64_t one = 1;
    ck_assert_int_eq(tj_launch(tjt.cpu, m, "k", 1, &one, 1, &arg, 1), TJ_ERR_LAUNCH);
    ck_assert_str_eq(tj_device_error(tjt.cpu), "tj_launch: kernel 'k': argument 0 ('x'): "
                                               "expected int32, got int32 of another context");
    /* the module runs on its own context's devices, not on another context's */
    tj_device *dev = NULL;
    ck_assert_int_eq(tj_device_create(other, TJ_DEVICE_CPU, 0, &dev), TJ_OK);
    tj_arg own = tj_arg_bytes(tjt_type(TJ_DTYPE_I32), &v);
    ck_assert_int_eq(tj_launch(dev, m, "k", 1, &one, 1, &own, 1), TJ_ERR_LAUNCH);
    ck_assert_str_eq(tj_device_error(dev), "tj_launch: the module belongs to another context "
                                           "than the device; a module runs on the devices of "
                                           "the context that built it");
    ck_assert_int_eq(tj_launch(tjt.cpu, m, "k", 1, &one, 1, &own, 1), TJ_OK);
    tj_context_destroy(other);
    tj_kernel_destroy(k);
}
END_TEST

/* ---- names and the version ------------------------------------------------------------------- */

START_TEST(test_status_names_are_the_constant_names)
{
    static const char *const names[] = {
        "TJ_OK",          "TJ_ERR_INVALID",     "TJ_ERR_STATE", "TJ_ERR_NOMEM",
        "TJ_ERR_NO_DEVICE", "TJ_ERR_UNSUPPORTED", "TJ_ERR_LIMIT", "TJ_ERR_LLVM",
        "TJ_ERR_CUDA",    "TJ_ERR_LAUNCH",      "TJ_ERR_KERNEL", "TJ_ERR_IO",
    };
    for (int i = 0; i < NROWS(names); i++)
        ck_assert_str_eq(tj_status_name((tj_status)i), names[i]);
    ck_assert_str_eq(tj_status_name(TJ_ERR_IO), "TJ_ERR_IO");
    ck_assert_str_eq(tj_status_name((tj_status)12), "TJ_ERR_?");
    ck_assert_str_eq(tj_status_name((tj_status)-1), "TJ_ERR_?");
    ck_assert_str_eq(tj_status_name((tj_status)1000), "TJ_ERR_?");
}
END_TEST

START_TEST(test_version_names_the_library_and_llvm)
{
    const char *v = tj_version();
    const char *want = STR(TJ_VERSION_MAJOR) "." STR(TJ_VERSION_MINOR) "." STR(
        TJ_VERSION_PATCH) " (LLVM 19.";
    ck_assert_msg(strncmp(v, want, strlen(want)) == 0, "tj_version() = '%s'", v);
    ck_assert_int_eq(v[strlen(v) - 1], ')');
    ck_assert_ptr_eq(tj_version(), v);
}
END_TEST

/* ---- kernels, IR and the cache ------------------------------------------------------------ */

START_TEST(test_kernel_ir_names_the_kernel)
{
    tj_kernel *k = affine_kernel(tjt.ctx, "saxpy_like", NULL);
    const char *ir = tj_kernel_get_ir(k);
    ck_assert_ptr_nonnull(ir);
    ck_assert_ptr_nonnull(strstr(ir, "saxpy_like"));
    ck_assert_ptr_nonnull(strstr(ir, "define"));
    tj_module *m = build_ok(k, NULL);
    ck_assert_ptr_null(tj_module_get_ir(m)); /* not kept without keep_ir */
    ck_assert_ptr_nonnull(strstr(tj_kernel_get_ir(k), "saxpy_like"));
    ck_assert_ptr_null(tj_kernel_get_ir(NULL));
    ck_assert_ptr_null(tj_module_get_ptx(m));
    ck_assert_int_eq(tj_module_get_target(m), TJ_TARGET_CPU);
}
END_TEST

START_TEST(test_keep_ir_keeps_the_optimised_ir_of_the_module)
{
    tj_build_options o = {.keep_ir = true};
    tj_kernel *k = affine_kernel(tjt.ctx, "kept", NULL);
    tj_module *m = build_ok(k, &o);
    ck_assert_ptr_nonnull(tj_module_get_ir(m));
    ck_assert_ptr_nonnull(strstr(tj_module_get_ir(m), "kept"));
    tj_module *again = build_ok(k, &o); /* from the cache, still with IR */
    ck_assert(tj_module_is_cached(again));
    ck_assert_ptr_nonnull(tj_module_get_ir(again));
    ck_assert_msg(strcmp(tj_module_get_ir(again), tj_module_get_ir(m)) == 0,
                  "a cache hit keeps other IR than the first build");
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel *kc = affine_kernel(tjt.ctx, "kept_cuda", &cuda);
    tj_module *mc = build_ok(kc, &o);
    ck_assert_ptr_nonnull(strstr(tj_module_get_ir(mc), "kept_cuda"));
    ck_assert_ptr_nonnull(strstr(tj_module_get_ptx(mc), ".entry kept_cuda("));
    ck_assert_int_eq(tj_module_get_target(mc), TJ_TARGET_CUDA);
    tjt_check_ptx(tj_module_get_ptx(mc));
    ck_assert_ptr_null(tj_module_get_ir(NULL));
    ck_assert_ptr_null(tj_module_get_ptx(NULL));
    ck_assert(!tj_module_is_cached(NULL));
}
END_TEST

/* CPU width-1 code generation that the throughput depends on (bench/RESULTS.md): a tile
 * loaded and reduced is read in place, without a copy, unless the array may be written in
 * between; shared memory of up to 48 KiB is a local array of the entry (LLVM sees that it
 * aliases no array and dies with the block); cooperative mode and larger budgets use the
 * worker's arena; every function probes its stack frame page by page. */
static tj_kernel *
load_kernel(const char *name, int32_t tile, bool write_between, int shared_elems,
            tj_cpu_mode mode)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = 32, .cpu_mode = mode};
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, tile));
    int t = tile;
    tj_val *v = tj_tile_load(k, x, 1, &t, &off, TJ_STORAGE_REGISTER);
    if (write_between)
        tj_tile_store(k, x, tj_binary(k, TJ_BIN_ADD, v, v), &off);
    if (shared_elems > 0) {
        tj_val *buf = tj_tile_zeros(k, f32, 1, &shared_elems, TJ_STORAGE_SHARED);
        tj_tile_atomic_add(k, out, buf, NULL);
    }
    tj_tile_atomic_add(k, out, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, v), NULL);
    return k;
}

/* A (rows, cols) tile of a 2-d array at (block * rows, 0), reduced as load_kernel does. */
static tj_kernel *
rows_load_kernel(const char *name, int rows, int cols)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off[] = {tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, rows)),
                     tj_const_int(k, TJ_DTYPE_I32, 0)};
    int shape[] = {rows, cols};
    tj_val *v = tj_tile_load(k, x, 2, shape, off, TJ_STORAGE_REGISTER);
    tj_tile_atomic_add(k, out, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, v), NULL);
    return k;
}

static const char *
kept_ir(tj_kernel *k, tj_module **m)
{
    tj_build_options o = {.keep_ir = true};
    *m = build_ok(k, &o);
    const char *ir = tj_module_get_ir(*m);
    ck_assert_ptr_nonnull(ir);
    return ir;
}

START_TEST(test_width1_cpu_code_reads_loaded_tiles_in_place_and_keeps_shared_memory_local)
{
    tj_module *m;
    const char *ir = kept_ir(load_kernel("in_place", 1024, false, 0, TJ_CPU_WIDTH1), &m);
    ck_assert_msg(!strstr(ir, "@llvm.memcpy"), "a loaded and reduced tile is copied");
    /* tiles of rank 2 too, when their rows follow one another in the array (the test is at
     * run time: a (4, 256) tile is read in place when the array's rows are 256 long) */
    ir = kept_ir(rows_load_kernel("in_place_row", 1, 1024), &m);
    ck_assert_msg(!strstr(ir, "@llvm.memcpy"), "a loaded and reduced (1, 1024) tile is copied");
    /* (rows apart in the array, such a tile is copied row by row: 1 KiB memcpys) */
    ir = kept_ir(rows_load_kernel("in_place_rows", 4, 256), &m);
    ck_assert_msg(!strstr(ir, "i64 4096, i1 false)"), "a loaded and reduced (4, 256) tile is "
                  "copied whole");
    ck_assert_msg(strstr(ir, "i64 1024, i1 false)"), "a (4, 256) tile whose rows are apart in "
                  "the array is not copied row by row");
    ir = kept_ir(load_kernel("written", 1024, true, 0, TJ_CPU_WIDTH1), &m);
    ck_assert_msg(strstr(ir, "@llvm.memcpy"),
                  "a tile whose array is written is not copied where it was loaded");
    ir = kept_ir(load_kernel("local_shared", 16, false, 256, TJ_CPU_WIDTH1), &m);
    ck_assert_msg(strstr(ir, "alloca [1024 x i8], align 64"), "no local shared memory");
    /* large frames run on the caller's stack for small launches: they probe every page */
    ck_assert_msg(strstr(ir, "\"probe-stack\"=\"inline-asm\""),
                  "CPU code does not probe its stack");
    ir = kept_ir(load_kernel("coop_shared", 16, false, 256, TJ_CPU_COOPERATIVE), &m);
    ck_assert_msg(!strstr(ir, "alloca [1024 x i8]"), "cooperative shared memory is local");
    ir = kept_ir(load_kernel("big_shared", 16, false, 16384, TJ_CPU_WIDTH1), &m);
    ck_assert_msg(!strstr(ir, "alloca [65536 x i8]"), "64 KiB of shared memory is local");
}
END_TEST

/* y[r] = 2 x[r] + y[r] over (1, 256) rows: the sum is computed into the tile's registers,
 * and tile_store's whole-tile path copied them out; width-1 CPU code now has a copy of the
 * computation that stores straight into y, taken when a run-time test passes
 * (jit/direct_stores.c; check_tile_memory tests its values, overlaps included). */
START_TEST(test_width1_cpu_code_stores_a_computed_tile_straight_into_its_array)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "saxpy_rows", &o);
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *y = tj_param_array(k, "y", f32, 2);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off[] = {blk, tj_const_int(k, TJ_DTYPE_I32, 0)};
    int shape[] = {1, 256};
    tj_val *a = tj_tile_load(k, x, 2, shape, off, TJ_STORAGE_REGISTER);
    tj_val *b = tj_tile_load(k, y, 2, shape, off, TJ_STORAGE_REGISTER);
    tj_tile_store(k, y, tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, a, a), b), off);
    tj_module *m;
    const char *ir = kept_ir(k, &m);
    ck_assert_msg(strstr(ir, "%direct.ok = select"), "no run-time test for direct stores");
    const char *direct = strstr(ir, "\ndirect:");
    ck_assert_msg(direct, "no block that stores the computed tile into y");
    const char *end = strstr(direct, "\n\n");
    ck_assert_ptr_nonnull(end);
    size_t len = (size_t)(end - direct);
    char *body = malloc(len + 1);
    ck_assert_ptr_nonnull(body);
    memcpy(body, direct, len);
    body[len] = '\0';
    ck_assert_msg(!strstr(body, "memcpy"), "the direct block copies the tile:\n%s", body);
    ck_assert_msg(strstr(body, "store <"), "the direct block stores no vectors:\n%s", body);
    free(body);
    /* the whole-tile path through the registers is still there for overlapping arrays */
    ck_assert_msg(strstr(ir, "@llvm.memcpy"), "the copy through the registers is gone");
}
END_TEST

/* y = x * 3 + y over (n,) float32 tiles, one a block. */
static tj_kernel *
multiply_add_kernel(tj_context *ctx, const char *name, int n)
{
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
    tj_val *blk = NULL;
    tj_tid(k, 1, &blk);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, n));
    tj_val *a = tj_tile_load(k, x, 1, &n, &off, TJ_STORAGE_REGISTER);
    tj_val *b = tj_tile_load(k, y, 1, &n, &off, TJ_STORAGE_REGISTER);
    tj_val *ax3 = tj_binary(k, TJ_BIN_MUL, a, tj_const_float(k, TJ_DTYPE_F32, 3));
    tj_tile_store(k, y, tj_binary(k, TJ_BIN_ADD, ax3, b), &off);
    return k;
}

/* multiply_add_kernel over (2048,) tiles, built in 'ctx': whether the optimised IR
 * multiplies and adds in one block (one loop) rather than in two. (On a host with 512-bit
 * vectors LLVM writes two loops over 1024 floats out in one block.) */
static bool
multiply_adds_in_one_block(tj_context *ctx, const char *name)
{
    tj_kernel *k = multiply_add_kernel(ctx, name, 2048);
    tj_build_options bo = {.keep_ir = true};
    tj_module *m = NULL;
    ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
    const char *ir = tj_module_get_ir(m);
    ck_assert_ptr_nonnull(ir);
    const char *mul = strstr(ir, "fmul <");
    ck_assert_msg(mul, "no vector multiply:\n%s", ir);
    const char *add = strstr(mul, "fadd <"), *end = strstr(mul, "\n\n");
    ck_assert_msg(add, "no vector add after the multiply:\n%s", ir);
    bool one = !end || add < end;
    tj_module_destroy(m);
    tj_kernel_destroy(k);
    return one;
}

/* Element-wise builtins in a row on a tile too large for LLVM to unroll: each made its own
 * loop, the product went to a local array and back (LLVM does not fuse loops); now the add
 * runs in the multiply's loop (tji_foreach_fused; check_tile_elementwise checks the values
 * of such chains). TILEJIT_CPU_FUSION=off, read when a context is created, keeps two. */
START_TEST(test_width1_cpu_code_runs_element_wise_builtins_in_one_loop)
{
    ck_assert_msg(multiply_adds_in_one_block(tjt.ctx, "fused"),
                  "the multiply and the add of y = x * 3 + y run in two loops");
    ck_assert_int_eq(setenv("TILEJIT_CPU_FUSION", "off", 1), 0);
    tj_context *ctx = NULL;
    tj_status st = tj_context_create(&ctx);
    unsetenv("TILEJIT_CPU_FUSION");
    ck_assert_int_eq(st, TJ_OK);
    ck_assert_msg(!multiply_adds_in_one_block(ctx, "unfused"),
                  "with TILEJIT_CPU_FUSION=off, the multiply and the add still share a loop");
    tj_context_destroy(ctx);
}
END_TEST

/* The same loop stores the sum into y as it computes it, under a test made before the
 * loop (builtins/memory.c, "stores in the loop that computes the tile"), for tiles over 1
 * KiB; check_tile_memory checks the values, overlaps included. A (256,) tile, which LLVM
 * unrolls, keeps tile_store's copy, for jit/direct_stores.c. */
START_TEST(test_width1_cpu_code_stores_a_large_computed_tile_in_its_loop)
{
    static const int sizes[] = {1024, 256};
    for (int i = 0; i < 2; i++) {
        tj_kernel *k = multiply_add_kernel(tjt.ctx, i ? "small" : "large", sizes[i]);
        const char *ir = tj_kernel_get_ir(k);
        ck_assert_ptr_nonnull(ir);
        ck_assert_msg((strstr(ir, "%fused.ok = ") != NULL) == (i == 0),
                      "a (%d,) tile is %sstored in the loop that computes it", sizes[i],
                      i ? "" : "not ");
        ck_assert_msg((strstr(ir, "%fused.same = ") != NULL) == (i == 0),
                      "y = x * 3 + y over (%d,) tiles: %s store through y's own tile", sizes[i],
                      i ? "a" : "no");
        tj_kernel_destroy(k);
    }
}
END_TEST

/* The loop that stores a computed tile into its array fills the tile's registers only
 * under "fused.keep", the loop's test failing (tile_store's path after the loop then reads
 * them), until a later reader needs them: here a second tile_store of the tile, after which
 * the registers are filled always (builtins/memory.c; values: check_tile_memory's tiles
 * stored again). y = x * 3 + y over (1024,) tiles, then y[n:2n] = the tile for 'again'. */
START_TEST(test_width1_fused_stores_fill_registers_only_for_their_readers)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    for (int again = 0; again < 2; again++) {
        int n = 1024;
        tj_kernel_options o = {.target = TJ_TARGET_CPU};
        tj_kernel *k = tj_kernel_create(tjt.ctx, again ? "twice" : "once", &o);
        tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_val *a = tj_tile_load(k, x, 1, &n, &zero, TJ_STORAGE_REGISTER);
        tj_val *b = tj_tile_load(k, y, 1, &n, &zero, TJ_STORAGE_REGISTER);
        tj_val *t = tj_binary(k, TJ_BIN_ADD,
                              tj_binary(k, TJ_BIN_MUL, a, tj_const_float(k, TJ_DTYPE_F32, 3)), b);
        ck_assert(tj_tile_store(k, y, t, &zero));
        if (again) {
            tj_val *next = tj_const_int(k, TJ_DTYPE_I32, n);
            ck_assert(tj_tile_store(k, y, t, &next));
        }
        const char *ir = tj_kernel_get_ir(k);
        ck_assert_ptr_nonnull(ir);
        ck_assert_msg(strstr(ir, "%fused.ok = "), "the tile is not stored in its loop");
        ck_assert_msg((strstr(ir, "%fused.keep = ") != NULL) == !again,
                      "stored %s: the registers are filled %s", again ? "twice" : "once",
                      again ? "only under a test" : "always");
        tj_kernel_destroy(k);
    }
}
END_TEST

/* y = 2x + y over (16, 16) tiles of wider arrays, whose rows are apart there: the loads
 * have a path that reads such rows in place, the element-wise loop goes over rows (the
 * rows' loop not vectorised, the row's not unrolled: LLVM vectorises each row), and the
 * store is in that loop, through y's own tile where it is the stored one. (Values:
 * check_tile_memory's tiles of rows apart.) */
START_TEST(test_width1_cpu_code_reads_and_stores_tiles_of_rows_apart_in_place)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "tiles_16", &o);
    tj_val *x = tj_param_array(k, "x", f32, 2), *y = tj_param_array(k, "y", f32, 2);
    tj_val *ij[2] = {NULL, NULL};
    tj_tid(k, 2, ij);
    tj_val *sixteen = tj_const_int(k, TJ_DTYPE_I32, 16);
    tj_val *off[] = {tj_binary(k, TJ_BIN_MUL, ij[0], sixteen),
                     tj_binary(k, TJ_BIN_MUL, ij[1], sixteen)};
    int shape[] = {16, 16};
    tj_val *a = tj_tile_load(k, x, 2, shape, off, TJ_STORAGE_REGISTER);
    tj_val *b = tj_tile_load(k, y, 2, shape, off, TJ_STORAGE_REGISTER);
    tj_val *two = tj_const_float(k, TJ_DTYPE_F32, 2);
    tj_val *off2[] = {tj_binary(k, TJ_BIN_MUL, ij[0], sixteen),
                      tj_binary(k, TJ_BIN_MUL, ij[1], sixteen)}; /* emitted after the loop */
    tj_val *t = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, a, two), b);
    tj_tile_store(k, y, t, off2);
    const char *ir = tj_kernel_get_ir(k);
    ck_assert_ptr_nonnull(ir);
    ck_assert_msg(strstr(ir, "\ntile.rows:") && strstr(ir, "%tile.rstride = phi"),
                  "a (16, 16) tile is not read in place with its rows apart");
    ck_assert_msg(strstr(ir, "%fused.same.rows = "), "the (16, 16) tile is not stored in its loop");
    /* the loads of each tile read in place are no-alias with those of the other: else LLVM's
     * loop vectoriser tests every row against the stored one at run time */
    bool both = false;
    const char *ld = " = load float";
    for (const char *l = strstr(ir, ld); l && !both; l = strstr(l + 1, ld)) {
        const char *eol = strchr(l, '\n');
        const char *sc = strstr(l, "!alias.scope"), *na = strstr(l, "!noalias");
        both = sc && na && sc < eol && na < eol;
    }
    ck_assert_msg(both, "no load in place has both a scope and a no-alias list");
    ck_assert_msg(strstr(ir, "llvm.loop.vectorize.enable"), "the loop over rows is vectorised");
    tj_module *m;
    ir = kept_ir(k, &m);
    ck_assert_msg(strstr(ir, "<8 x float>") || strstr(ir, "<16 x float>") ||
                  strstr(ir, "<4 x float>"), "the rows are not vectorised:\n%s", ir);
}
END_TEST

/* A loop of pushes, then a pop: for j in range(n): push(s, x[j], x[j] < 0.5); then
 * out[0] = count and out[1] = pop. 'out' is float32 so that the only i32 stores are the
 * counter's. */
static tj_kernel *
push_loop_kernel(const char *name, tj_cpu_mode mode, uint32_t block_dim)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = block_dim, .cpu_mode = mode};
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", f32, 1);
    tj_val *out = tj_param_array(k, "out", f32, 1);
    tj_val *s = tj_tile_stack(k, 64, f32);
    tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0), tj_shape(k, x, 0),
                             tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *v = tj_load(k, x, &j, 1);
    tj_tile_stack_push(k, s, v, tj_compare(k, TJ_CMP_LT, v, tj_const_float(k, TJ_DTYPE_F32, 0.5)));
    tj_for_end(k);
    tj_val *at[2] = {tj_const_int(k, TJ_DTYPE_I32, 0), tj_const_int(k, TJ_DTYPE_I32, 1)};
    tj_store(k, out, &at[0], 1, tj_cast(k, tj_tile_stack_count(k, s), f32));
    tj_store(k, out, &at[1], 1, tj_tile_stack_pop(k, s, NULL));
    return k;
}

/* Whether, in the IR, the basic block of the first 'b' has an 'a'. */
static bool
in_block_of(const char *ir, const char *a, const char *b)
{
    const char *at = strstr(ir, b), *start = ir, *end = NULL;
    if (!at)
        return false;
    for (const char *l = ir; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        size_t id = strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789._");
        bool label = id > 0 && l[id] == ':';
        if (!label && *l != '}')
            continue; /* a label starts a block, and a function's '}' ends its last */
        if (l > at) {
            end = l;
            break;
        }
        start = l;
    }
    const char *found = strstr(start, a);
    return found && (!end || found < end);
}

/* Whether the block of the first 'what' in the IR is entered on a branch taken when an
 * 'icmp slt' or 'icmp ult' of an i32 with 'cap' holds: the push's test that the stack has
 * room. */
static bool
room_tested(const char *ir, const char *what, int cap)
{
    const char *at = strstr(ir, what), *label = NULL;
    for (const char *l = ir; at && l && l < at; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        size_t id = strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789._");
        if (id > 0 && l[id] == ':')
            label = l;
    }
    if (!label)
        return false;
    char target[96], cond[96];
    snprintf(target, sizeof target, ", label %%%.*s, label",
             (int)strspn(label, "abcdefghijklmnopqrstuvwxyz0123456789._"), label);
    const char *c = strstr(ir, target); /* the branch's true side */
    while (c && c > ir && c[-1] != '\n')
        c--;
    if (!c || sscanf(c, " br i1 %95[^,]", cond) != 1)
        return false;
    char def[128], tail[32];
    snprintf(def, sizeof def, "%s = icmp ", cond);
    snprintf(tail, sizeof tail, ", %d\n", cap);
    const char *d = strstr(ir, def), *eol = d ? strchr(d, '\n') : NULL;
    const char *op = d ? d + strlen(def) : NULL;
    if (!eol || (strncmp(op, "slt i32", 7) != 0 && strncmp(op, "ult i32", 7) != 0))
        return false;
    return strncmp(eol - strlen(tail) + 1, tail, strlen(tail)) == 0;
}

/* A stack's counter is shared memory only where a block has lanes to share it with: in
 * width-1 mode and for cooperative blocks of one lane it is a register of the push loop,
 * and its 16 bytes still count against the budget. There, a push stores without testing
 * whether the stack has room (a full stack's store goes to the counter's unused bytes):
 * the loop's store of the value it loaded is in the block of that load. The clamp of the
 * counter at the capacity is a branch, not a umin in that block. */
START_TEST(test_one_lane_stacks_keep_their_counter_in_a_register)
{
    static const struct {
        const char *name;
        tj_cpu_mode mode;
        uint32_t block_dim;
        bool shared;       /* the counter is stored to the arena */
        float count, pop;  /* out[0] and out[1] */
    } rows[] = {
        /* 3 of the 5 values are below 0.5, pushed once by each lane of the block; the last
         * value pushed (-1) is on top, and with 4 cooperative lanes the last lane to pop,
         * lane 3, takes the fourth from the top: lane 3's push of -1 */
        {"w1_push", TJ_CPU_WIDTH1, 4, false, 3, -1},
        {"coop1_push", TJ_CPU_COOPERATIVE, 1, false, 3, -1},
        {"coop4_push", TJ_CPU_COOPERATIVE, 4, true, 12, -1},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        tj_module *m;
        tj_kernel *k = push_loop_kernel(rows[r].name, rows[r].mode, rows[r].block_dim);
        ck_assert_uint_eq(tj_kernel_get_shared_bytes(k), 64 * 4 + 16);
        const char *ir = kept_ir(k, &m);
        bool stored = strstr(ir, "store i32") != NULL;
        ck_assert_msg(strstr(ir, "store float") && stored == rows[r].shared,
                      "%s: the counter is %s memory (an i32 store in the IR)", rows[r].name,
                      rows[r].shared ? "not stored to" : "stored to");
        ck_assert_msg(room_tested(ir, "!tj.serial_push", 64) == rows[r].shared &&
                          (rows[r].shared || in_block_of(ir, "load float", "store float")),
                      "%s: a push %s whether the stack has room", rows[r].name,
                      rows[r].shared ? "does not test" : "tests");
        ck_assert_msg(!in_block_of(ir, "@llvm.umin", "store float"),
                      "%s: a push's clamp of the counter is a select", rows[r].name);
        float xs[5] = {0.25f, 0.75f, 0.0f, 0.5f, -1.0f}, got[2] = {0, 0};
        tj_array *xa = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_F32), 5, xs);
        tj_array *oa = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_F32), 2, NULL);
        tj_arg args[2] = {tj_arg_array(xa), tj_arg_array(oa)};
        int64_t n = rows[r].block_dim;
        tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, rows[r].name, 1, &n, rows[r].block_dim, args, 2));
        tjt_ok(tjt.cpu, tj_array_copy_to_host(oa, got, sizeof got));
        ck_assert_msg(got[0] == rows[r].count && got[1] == rows[r].pop,
                      "%s: count %g and pop %g, expected %g and %g", rows[r].name, got[0],
                      got[1], rows[r].count, rows[r].pop);
        tj_array_destroy(xa);
        tj_array_destroy(oa);
    }
}
END_TEST

/* Cooperative CPU lanes push one at a time, each push after a barrier that orders it
 * (lane order within a push, earlier pushes first) and before one that ends the lanes'
 * phase of pushes (builtins/stack.c, for jit/compress_push.c): the body's last block (the
 * one that branches to for.next) has that barrier. The stack's count after the loop is
 * that of every lane's pushes. */
START_TEST(test_cpu_pushes_in_a_loop_push_between_two_barriers)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = 32,
                           .cpu_mode = TJ_CPU_COOPERATIVE};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "push_loop", &o);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *s = tj_tile_stack(k, 256, i32);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    tj_val *i = tj_for_begin(k, zero, tj_const_int(k, TJ_DTYPE_I32, 4), one);
    tj_tile_stack_push(k, s, i, tj_compare(k, TJ_CMP_LT, i, tj_const_int(k, TJ_DTYPE_I32, 3)));
    tj_for_end(k);
    tj_store(k, out, &tid[1], 1, tj_tile_stack_count(k, s));
    const char *ir = tj_kernel_get_ir(k);
    ck_assert_ptr_nonnull(ir);
    ck_assert_msg(in_block_of(ir, "@tj.hook.barrier", "br label %for.next"),
                  "the loop's body does not end with a barrier");
    tj_module *m = build_ok(k, NULL);
    int32_t got[32] = {0};
    tj_array *oa = tjt_array(tjt.cpu, i32, 32, NULL);
    tj_arg arg = tj_arg_array(oa);
    int64_t nblocks = 1;
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "push_loop", 1, &nblocks, 32, &arg, 1));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(oa, got, sizeof got));
    for (int lane = 0; lane < 32; lane++)
        ck_assert_msg(got[lane] == 3 * 32, "lane %d counted %d pushes, expected %d", lane,
                      got[lane], 3 * 32);
    tj_array_destroy(oa);
}
END_TEST

/* bins = shared zeros(2); for j in range(8): tile_scatter_add(bins, 0, 1, True, atomic)
 * and, with 'read', out[0] = bins[0] after it; then out[1 + lane] = bins[0] after the loop
 * (out is int32; each lane adds 1 an iteration). */
static tj_kernel *
scatter_loop_kernel(const char *name, tj_target target, uint32_t block_dim, bool atomic,
                    bool read)
{
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = {.target = target, .block_dim = block_dim,
                           .cpu_mode = TJ_CPU_COOPERATIVE};
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    int two = 2;
    tj_val *bins = tj_tile_zeros(k, i32, 1, &two, TJ_STORAGE_SHARED);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    tj_for_begin(k, zero, tj_const_int(k, TJ_DTYPE_I32, 8), one);
    tj_tile_scatter_add(k, bins, &zero, 1, one, tj_const_bool(k, true),
                        tj_const_bool(k, atomic));
    if (read)
        tj_store(k, out, &zero, 1, tj_tile_extract(k, bins, &zero, 1));
    tj_for_end(k);
    tj_val *seen = tj_tile_extract(k, bins, &zero, 1);
    tj_val *at = tj_binary(k, TJ_BIN_ADD, tid[1], one);
    tj_store(k, out, &at, 1, seen);
    return k;
}

/* A loop of atomic scatter-adds into a shared tile owes its barrier once, after the loop
 * (its iterations only add atomically), not one an iteration: in the IR before lowering,
 * the body's last block (the one that branches to for.next) has no barrier and for.end
 * has one. A non-atomic add on the GPU, or a read of the tile in the body, keeps the
 * barrier in the loop. Cooperative CPU lanes run in order between barriers, so the read
 * after the loop would see only the lanes before it if that barrier were missing. */
START_TEST(test_atomic_scatter_adds_in_a_loop_synchronise_once_after_it)
{
    static const struct {
        const char *name;
        tj_target target;
        bool atomic, read, in_loop;
    } rows[] = {
        {"gpu_atomic", TJ_TARGET_CUDA, true, false, false},
        {"gpu_plain", TJ_TARGET_CUDA, false, false, true},
        {"gpu_read", TJ_TARGET_CUDA, true, true, true},
        {"cpu_plain", TJ_TARGET_CPU, false, false, false},
        {"cpu_atomic", TJ_TARGET_CPU, true, false, false},
        {"cpu_read", TJ_TARGET_CPU, true, true, true},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        tj_kernel *k = scatter_loop_kernel(rows[r].name, rows[r].target, 32, rows[r].atomic,
                                           rows[r].read);
        const char *ir = tj_kernel_get_ir(k);
        ck_assert_ptr_nonnull(ir);
        ck_assert_msg(in_block_of(ir, "@tj.hook.barrier", "br label %for.next") ==
                          rows[r].in_loop,
                      "%s: the loop's body %s a barrier", rows[r].name,
                      rows[r].in_loop ? "has no" : "has");
        ck_assert_msg(rows[r].in_loop || in_block_of(ir, "@tj.hook.barrier", "for.end:"),
                      "%s: no barrier after the loop", rows[r].name);
        /* the body's read races with the next iteration's adds: run the others only */
        if (rows[r].target != TJ_TARGET_CPU || rows[r].read) {
            tj_kernel_destroy(k);
            continue;
        }
        tj_module *m = build_ok(k, NULL);
        int32_t got[33] = {0};
        tj_array *oa = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_I32), 33, NULL);
        tj_arg arg = tj_arg_array(oa);
        int64_t nblocks = 1;
        tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, rows[r].name, 1, &nblocks, 32, &arg, 1));
        tjt_ok(tjt.cpu, tj_array_copy_to_host(oa, got, sizeof got));
        for (int lane = 0; lane < 32; lane++)
            ck_assert_msg(got[1 + lane] == 8 * 32, "%s: lane %d read %d after the loop, "
                          "expected %d", rows[r].name, lane, got[1 + lane], 8 * 32);
        tj_array_destroy(oa);
    }
}
END_TEST

/* out32[i] = int32(x[i]), out64[i] = int64(y[i]) and outu[i] = uint32(x[i]) (x float32,
 * y float64), or with 'map' out32's first 64 elements = tile_map(int32, the tile of x's). */
static tj_kernel *
cast_kernel(const char *name, bool map)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU};
    const tj_type *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &o);
    tj_val *x = tj_param_array(k, "x", tjt_type(TJ_DTYPE_F32), 1);
    tj_val *y = tj_param_array(k, "y", tjt_type(TJ_DTYPE_F64), 1);
    tj_val *out32 = tj_param_array(k, "out32", i32, 1);
    tj_val *out64 = tj_param_array(k, "out64", tjt_type(TJ_DTYPE_I64), 1);
    tj_val *outu = tj_param_array(k, "outu", tjt_type(TJ_DTYPE_U32), 1);
    if (map) {
        tj_func *f = tj_func_create(tjt.ctx, "to_int", i32, &o);
        tj_return(f, tj_cast(f, tj_param(f, "a", tjt_type(TJ_DTYPE_F32)), i32));
        int n = 64;
        tj_val *t = tj_tile_load(k, x, 1, &n, NULL, TJ_STORAGE_REGISTER);
        tj_tile_store(k, out32, tj_tile_map(k, f, &t, 1), NULL);
        tj_func_destroy(f);
        return k;
    }
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_store(k, out32, &i, 1, tj_cast(k, tj_load(k, x, &i, 1), i32));
    tj_store(k, out64, &i, 1, tj_cast(k, tj_load(k, y, &i, 1), tjt_type(TJ_DTYPE_I64)));
    tj_store(k, outu, &i, 1, tj_cast(k, tj_load(k, x, &i, 1), tjt_type(TJ_DTYPE_U32)));
    return k;
}

/* On x86-64, a CPU kernel converts a float scalar to an integer with cvttss2si /
 * cvttsd2si (64-bit for uint32), and saturates (llvm.fptosi/fptoui.sat) only where that
 * is out of the integer's range; functions keep llvm.fptosi.sat, which LLVM vectorises in
 * tile_map's slot loops. The results are check_scalar's cast rows (NaN, infinities, and
 * the values around each integer type's ends). */
START_TEST(test_cpu_float_to_int_casts_saturate_only_where_cvtt_cannot)
{
    tj_module *m;
    const char *ir = kept_ir(cast_kernel("scalar_casts", false), &m);
#if defined(__x86_64__)
    ck_assert_msg(strstr(ir, "@llvm.x86.sse.cvttss2si(") &&
                      strstr(ir, "@llvm.x86.sse2.cvttsd2si64("),
                  "a scalar cast does not use cvtt");
    ck_assert_msg(strstr(ir, "@llvm.fptosi.sat.i32.f32(") &&
                      strstr(ir, "@llvm.fptosi.sat.i64.f64("),
                  "a scalar cast has no saturating path");
    ck_assert_msg(strstr(ir, "@llvm.x86.sse.cvttss2si64(") &&
                      strstr(ir, "@llvm.fptoui.sat.i32.f32("),
                  "a cast to uint32 does not use the 64-bit cvtt and fptoui.sat");
#else
    ck_assert_msg(!strstr(ir, "llvm.x86"), "x86 code on another host");
#endif
    ir = kept_ir(cast_kernel("map_casts", true), &m);
    ck_assert_msg(!strstr(ir, "llvm.x86") && strstr(ir, "@llvm.fptosi.sat.v"),
                  "tile_map's cast is not a vector fptosi.sat");
}
END_TEST

/* The in-memory cache: the same kernel (or an equal one) with the same options reuses the
 * compiled code; anything that changes the code does not. */
START_TEST(test_cache_reuses_equal_builds_only)
{
    tj_context *c = tjt.ctx;
    tj_kernel *k = affine_kernel(c, "k", NULL);
    tj_module *m1 = build_ok(k, NULL);
    ck_assert(!tj_module_is_cached(m1));
    tj_module *m2 = build_ok(k, NULL);
    ck_assert(tj_module_is_cached(m2));
    tj_module *m3 = build_ok(affine_kernel(c, "k", NULL), NULL);
    ck_assert(tj_module_is_cached(m3));
    ck_assert(!tj_module_is_cached(build_ok(affine_kernel(c, "other_name", NULL), NULL)));
    tj_build_options o1 = {.opt_level = TJ_OPT_O1};
    ck_assert(!tj_module_is_cached(build_ok(k, &o1)));
    ck_assert(tj_module_is_cached(build_ok(k, &o1)));
    tj_kernel_options dbg = {.debug = true};
    ck_assert(!tj_module_is_cached(build_ok(affine_kernel(c, "k", &dbg), NULL)));
    tj_kernel_options coop4 = {.cpu_mode = TJ_CPU_COOPERATIVE, .block_dim = 4};
    tj_kernel_options coop8 = {.cpu_mode = TJ_CPU_COOPERATIVE, .block_dim = 8};
    tj_module *mc4 = build_ok(affine_kernel(c, "k", &coop4), NULL);
    ck_assert(!tj_module_is_cached(mc4));
    tj_module *mc8 = build_ok(affine_kernel(c, "k", &coop8), NULL);
    ck_assert(!tj_module_is_cached(mc8));
    ck_assert(tj_module_is_cached(build_ok(affine_kernel(c, "k", &coop8), NULL)));
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel_options cuda128 = {.target = TJ_TARGET_CUDA, .block_dim = 128};
    ck_assert(!tj_module_is_cached(build_ok(affine_kernel(c, "k", &cuda), NULL)));
    ck_assert(tj_module_is_cached(build_ok(affine_kernel(c, "k", &cuda), NULL)));
    ck_assert(!tj_module_is_cached(build_ok(affine_kernel(c, "k", &cuda128), NULL)));
    tj_build_options sm80 = {.arch = "sm_80"};
    ck_assert(!tj_module_is_cached(build_ok(affine_kernel(c, "k", &cuda), &sm80)));
    /* Every module from the cache runs, each with its own block_dim. */
    check_affine(c, tjt.cpu, m1, "k", 50, 1);
    check_affine(c, tjt.cpu, m2, "k", 50, 1);
    check_affine(c, tjt.cpu, m3, "k", 50, 1);
    check_affine(c, tjt.cpu, mc4, "k", 50, 4);
    check_affine(c, tjt.cpu, mc8, "k", 50, 8);
    /* The cache belongs to its context. */
    tj_context *other = NULL;
    ck_assert_int_eq(tj_context_create(&other), TJ_OK);
    tj_module *mo = NULL;
    ck_assert_int_eq(tj_kernel_build(affine_kernel(other, "k", NULL), NULL, &mo), TJ_OK);
    ck_assert(!tj_module_is_cached(mo));
    tj_context_destroy(other);
}
END_TEST

/* A width-1 build for block_dim 4 launches with 4 only, even when its code is shared. */
START_TEST(test_width1_builds_for_other_block_dims_keep_their_own_block_dim)
{
    tj_kernel_options b4 = {.block_dim = 4};
    tj_module *m1 = build_ok(affine_kernel(tjt.ctx, "k", NULL), NULL);
    tj_module *m4 = build_ok(affine_kernel(tjt.ctx, "k", &b4), NULL);
    check_affine(tjt.ctx, tjt.cpu, m1, "k", 10, 1);
    check_affine(tjt.ctx, tjt.cpu, m4, "k", 10, 4);
    int64_t n = 10;
    tj_arg args[2] = {tj_arg_array(tjt_array(tjt.cpu, I32, n, NULL)),
                      tj_arg_array(tjt_array(tjt.cpu, I32, n, NULL))};
    ck_assert_int_eq(tj_launch(tjt.cpu, m4, "k", 1, &n, 1, args, 2), TJ_ERR_LAUNCH);
    ck_assert_int_eq(tj_launch(tjt.cpu, m1, "k", 1, &n, 4, args, 2), TJ_ERR_LAUNCH);
}
END_TEST

START_TEST(test_kernels_report_their_effective_block_width)
{
    static const struct {
        tj_kernel_options o;
        uint32_t width;
    } rows[] = {
        {{0}, 1},
        {{.block_dim = 64}, 1},
        {{.cpu_mode = TJ_CPU_COOPERATIVE, .block_dim = 64}, 64},
        {{.cpu_mode = TJ_CPU_COOPERATIVE}, 1},
        {{.target = TJ_TARGET_CUDA}, 256},
        {{.target = TJ_TARGET_CUDA, .block_dim = 128}, 128},
        {{.target = TJ_TARGET_CUDA, .block_dim = 1024}, 1024},
    };
    for (int i = 0; i < NROWS(rows); i++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "k", &rows[i].o);
        ck_assert_uint_eq(tj_kernel_get_block_dim(k), rows[i].width);
        ck_assert_uint_eq(tj_kernel_get_shared_bytes(k), 0);
        tj_kernel_destroy(k);
    }
    ck_assert_uint_eq(tj_kernel_get_block_dim(NULL), 0);
}
END_TEST

/* 64 parameters, the most a kernel takes, and a kernel with none. */
START_TEST(test_kernels_take_zero_to_64_parameters)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "many", NULL);
    tj_val *out = tj_param_array(k, "out", tjt_type(TJ_DTYPE_I64), 1);
    tj_val *p[63];
    for (int i = 0; i < 63; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        p[i] = tj_param(k, name, i % 2 ? I32 : tjt_type(TJ_DTYPE_I64));
    }
    tj_val *sum = tj_const_int(k, TJ_DTYPE_I64, 0);
    for (int i = 0; i < 63; i++)
        sum = tj_binary(k, TJ_BIN_ADD, sum, tj_cast(k, p[i], tjt_type(TJ_DTYPE_I64)));
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    ck_assert_msg(tj_store(k, out, &zero, 1, sum), "%s", tj_kernel_error(k));
    tj_module *m = build_ok(k, NULL);
    tj_array *a = tjt_array(tjt.cpu, tjt_type(TJ_DTYPE_I64), 1, NULL);
    tj_arg args[64] = {tj_arg_array(a)};
    int64_t want = 0;
    for (int i = 0; i < 63; i++) {
        args[1 + i] = tj_arg_int(i % 2 ? -(i * 1000) : (INT64_C(1) << 40) + i);
        want += i % 2 ? -(i * 1000) : (INT64_C(1) << 40) + i;
    }
    int64_t one = 1, got = 0;
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "many", 1, &one, 1, args, 64));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, &got, sizeof got));
    ck_assert_int_eq(got, want);
    tj_kernel *none = tj_kernel_create(tjt.ctx, "none", NULL);
    tj_module *mn = build_ok(none, NULL);
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, mn, "none", 1, &one, 1, NULL, 0));
}
END_TEST

START_TEST(test_values_report_their_kind_and_type)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *x = tj_param(k, "x", I32);
    tj_val *v = tj_var_new(k, x);
    ck_assert_int_eq(tj_val_get_kind(a), TJ_VAL_ARRAY);
    ck_assert_ptr_eq(tj_val_get_type(a), F32);
    ck_assert_int_eq(tj_val_get_kind(x), TJ_VAL_SCALAR);
    ck_assert_ptr_eq(tj_val_get_type(x), I32);
    ck_assert_int_eq(tj_val_get_kind(v), TJ_VAL_VAR);
    ck_assert_ptr_eq(tj_val_get_type(v), I32);
    ck_assert_int_eq(tj_val_get_kind(tj_compare(k, TJ_CMP_LT, x, x)), TJ_VAL_SCALAR);
    ck_assert_ptr_eq(tj_val_get_type(tj_compare(k, TJ_CMP_LT, x, x)), tjt_type(TJ_DTYPE_BOOL));
    ck_assert_int_eq(tj_val_get_kind(NULL), TJ_VAL_VOID);
    ck_assert_ptr_null(tj_val_get_type(NULL));
}
END_TEST

START_TEST(test_context_error_is_cleared_by_a_successful_build)
{
    tj_kernel *bad = tj_kernel_create(tjt.ctx, "bad", NULL);
    tj_continue(bad);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(bad, NULL, &m), TJ_ERR_STATE);
    ck_assert_str_eq(tj_context_error(tjt.ctx), "kernel 'bad': tj_continue: not inside a loop");
    build_ok(affine_kernel(tjt.ctx, "good", NULL), NULL);
    ck_assert_ptr_null(tj_context_error(tjt.ctx));
    ck_assert_int_eq(tj_module_build(NULL, &bad, 1, NULL, &m), TJ_ERR_INVALID);
    ck_assert_int_eq(tj_module_build(tjt.ctx, &bad, 1, NULL, NULL), TJ_ERR_INVALID);
}
END_TEST

/* ---- contexts on several threads (SPEC 6) --------------------------------------------------- */

typedef struct job {
    int id;
    int failures;
} job;

static void *
context_job(void *arg)
{
    job *j = arg;
    tj_context *ctx = NULL;
    tj_device *cpu = NULL;
    if (tj_context_create(&ctx) != TJ_OK || tj_device_create(ctx, TJ_DEVICE_CPU, 0, &cpu)) {
        j->failures++;
        tj_context_destroy(ctx);
        return NULL;
    }
    for (int round = 0; round < 3; round++) {
        char name[32];
        snprintf(name, sizeof name, "k%d_%d", j->id, round);
        const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
        tj_kernel *k = tj_kernel_create(ctx, name, NULL);
        tj_val *out = tj_param_array(k, "out", i32, 1);
        tj_val *t[1];
        tj_tid(k, 1, t);
        tj_val *v = tj_binary(k, TJ_BIN_ADD, t[0], tj_const_int(k, TJ_DTYPE_I32, j->id));
        tj_store(k, out, t, 1, v);
        tj_module *m = NULL;
        tj_array *a = NULL;
        int64_t n = 64;
        int32_t got[64] = {0};
        tj_arg arg;
        if (tj_kernel_build(k, NULL, &m) != TJ_OK || tj_array_create(cpu, i32, 1, &n, &a))
            j->failures++;
        arg = tj_arg_array(a);
        if (tj_launch(cpu, m, name, 1, &n, 1, &arg, 1) ||
            tj_array_copy_to_host(a, got, sizeof got))
            j->failures++;
        for (int i = 0; i < 64; i++)
            j->failures += got[i] != i + j->id;
    }
    tj_context_destroy(ctx);
    return NULL;
}

START_TEST(test_contexts_on_different_threads_work_at_once)
{
    enum { NJOBS = 4 };
    pthread_t th[NJOBS];
    job jobs[NJOBS];
    for (int i = 0; i < NJOBS; i++) {
        jobs[i] = (job){.id = i * 100};
        ck_assert_int_eq(pthread_create(&th[i], NULL, context_job, &jobs[i]), 0);
    }
    for (int i = 0; i < NJOBS; i++) {
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
        ck_assert_int_eq(jobs[i].failures, 0);
    }
}
END_TEST

static Suite *
api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_test(tc, test_destroy_of_null_does_nothing);
    tcase_add_test(tc, test_context_destroy_frees_everything_still_alive);
    tcase_add_test(tc, test_objects_can_be_destroyed_one_by_one_in_any_order);
    tcase_add_test(tc, test_functions_live_while_a_kernel_calls_them);
    tcase_add_test(tc, test_module_is_usable_after_its_kernel_is_destroyed);
    tcase_add_test(tc, test_cpu_device_reports_its_kind_name_and_limits);
    tcase_add_test(tc, test_device_create_rejects_bad_arguments);
    tcase_add_test(tc, test_cuda_device_without_a_driver_is_no_device);
    tcase_add_test(tc, test_cuda_device_matches_the_machine);
    tcase_add_test(tc, test_array_is_zero_filled_and_copies_round_trip);
    tcase_add_test(tc, test_array_copies_of_the_wrong_size_fail_with_a_message);
    tcase_add_test(tc, test_array_create_rejects_bad_shapes);
    tcase_add_test(tc, test_arrays_of_every_element_kind_have_c_sizes);
    tcase_add_test(tc, test_types_are_interned);
    tcase_add_loop_test(tc, test_types_have_their_names_kinds_and_sizes, 0, NROWS(type_rows));
    tcase_add_test(tc, test_struct_types_have_the_c_layout);
    tcase_add_test(tc, test_type_constructors_reject_bad_arguments);
    tcase_add_test(tc, test_types_of_another_context_are_refused);
    tcase_add_test(tc, test_status_names_are_the_constant_names);
    tcase_add_test(tc, test_version_names_the_library_and_llvm);
    tcase_add_test(tc, test_kernel_ir_names_the_kernel);
    tcase_add_test(tc, test_keep_ir_keeps_the_optimised_ir_of_the_module);
    tcase_add_test(tc,
                   test_width1_cpu_code_reads_loaded_tiles_in_place_and_keeps_shared_memory_local);
    tcase_add_test(tc, test_width1_cpu_code_stores_a_computed_tile_straight_into_its_array);
    tcase_add_test(tc, test_width1_cpu_code_runs_element_wise_builtins_in_one_loop);
    tcase_add_test(tc, test_width1_cpu_code_stores_a_large_computed_tile_in_its_loop);
    tcase_add_test(tc, test_width1_fused_stores_fill_registers_only_for_their_readers);
    tcase_add_test(tc, test_width1_cpu_code_reads_and_stores_tiles_of_rows_apart_in_place);
    tcase_add_test(tc, test_one_lane_stacks_keep_their_counter_in_a_register);
    tcase_add_test(tc, test_cpu_float_to_int_casts_saturate_only_where_cvtt_cannot);
    tcase_add_test(tc, test_atomic_scatter_adds_in_a_loop_synchronise_once_after_it);
    tcase_add_test(tc, test_cpu_pushes_in_a_loop_push_between_two_barriers);
    tcase_add_test(tc, test_cache_reuses_equal_builds_only);
    tcase_add_test(tc, test_width1_builds_for_other_block_dims_keep_their_own_block_dim);
    tcase_add_test(tc, test_kernels_report_their_effective_block_width);
    tcase_add_test(tc, test_kernels_take_zero_to_64_parameters);
    tcase_add_test(tc, test_values_report_their_kind_and_type);
    tcase_add_test(tc, test_context_error_is_cleared_by_a_successful_build);
    tcase_add_test(tc, test_contexts_on_different_threads_work_at_once);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, api_suite());
}
