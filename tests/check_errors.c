/* tj-test: */
/*
 * tests/check_errors.c: every builder error (STYLE 2.5), in the style of libgccjit's
 * test-error-* tests. For each case: the failing call returns NULL or false, the kernel
 * records the status and the exact first message, later valid calls do nothing (sticky),
 * and building fails with the same status and the message in tj_context_error(). Then the
 * module-level errors of tj_module_build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define I32 tjt_type(TJ_DTYPE_I32)
#define I64 tjt_type(TJ_DTYPE_I64)
#define F32 tjt_type(TJ_DTYPE_F32)

/* What a case leaves behind: the kernel to build, the kernel or function holding the
 * error, and whether the failing call returned NULL (or false). */
typedef struct provoked {
    tj_kernel *build;
    tj_kernel *failed;
    bool null;
} provoked;

typedef void (*provoke_fn)(provoked *p);

/* When the error is recorded: by a builder call, by tj_kernel_create / tj_func_create, or
 * by the build (unterminated blocks). */
enum when { AT_CALL, AT_CREATE, AT_BUILD };

/* ---- shorthands ---------------------------------------------------------------------------- */

static tj_kernel *
kern(provoked *p, const char *name)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, NULL);
    ck_assert_ptr_nonnull(k);
    p->build = p->failed = k;
    return k;
}

static const tj_type *
vec(int n)
{
    return tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, n);
}

static tj_val *
vec3(tj_kernel *k)
{
    tj_val *e = cf(k, 1);
    return tj_compose(k, vec(3), &e, 1);
}

static const tj_type *
pair_type(void)
{
    tj_field fields[] = {{"a", I32}, {"b", F32}};
    return tj_context_new_struct_type(tjt.ctx, "pair", fields, 2);
}

#define PROVOKE(name) static void name(provoked *p)
#define K tj_kernel *k = kern(p, "k")

/* ---- operators ----------------------------------------------------------------------------- */

PROVOKE(not_of_int)
{
    K;
    p->null = !tj_unary(k, TJ_UN_NOT, ci(k, 1));
}

PROVOKE(bit_not_of_float)
{
    K;
    p->null = !tj_unary(k, TJ_UN_BIT_NOT, cf(k, 1));
}

PROVOKE(sqrt_of_int)
{
    K;
    p->null = !tj_unary(k, TJ_UN_SQRT, ci(k, 4));
}

PROVOKE(neg_of_bool)
{
    K;
    p->null = !tj_unary(k, TJ_UN_NEG, tj_const_bool(k, true));
}

PROVOKE(length_of_scalar)
{
    K;
    p->null = !tj_unary(k, TJ_UN_LENGTH, cf(k, 1));
}

PROVOKE(transpose_of_vector)
{
    K;
    p->null = !tj_unary(k, TJ_UN_TRANSPOSE, vec3(k));
}

PROVOKE(unary_bad_op)
{
    K;
    p->null = !tj_unary(k, (tj_unop)99, cf(k, 1));
}

PROVOKE(unary_of_array)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 1);
    p->null = !tj_unary(k, TJ_UN_NEG, a);
}

PROVOKE(add_int_float)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_ADD, ci(k, 1), cf(k, 1));
}

PROVOKE(bit_and_of_floats)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_BIT_AND, cf(k, 1), cf(k, 2));
}

PROVOKE(and_of_ints)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_AND, ci(k, 1), ci(k, 2));
}

PROVOKE(pow_of_ints)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_POW, ci(k, 1), ci(k, 2));
}

PROVOKE(dot_of_scalars)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_DOT, cf(k, 1), cf(k, 2));
}

PROVOKE(mul_of_vectors)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_MUL, vec3(k), vec3(k));
}

PROVOKE(binary_bad_op)
{
    K;
    p->null = !tj_binary(k, (tj_binop)77, ci(k, 1), ci(k, 2));
}

PROVOKE(shl_by_other_width)
{
    K;
    p->null = !tj_binary(k, TJ_BIN_SHL, ci(k, 1), tj_const_int(k, TJ_DTYPE_I64, 2));
}

PROVOKE(cross_of_vec2)
{
    K;
    tj_val *e = cf(k, 1);
    tj_val *v = tj_compose(k, vec(2), &e, 1);
    p->null = !tj_binary(k, TJ_BIN_CROSS, v, v);
}

PROVOKE(matrix_times_short_vector)
{
    K;
    tj_val *e = cf(k, 1);
    tj_val *m = tj_compose(k, tj_context_get_matrix_type(tjt.ctx, TJ_DTYPE_F32, 3, 3), &e, 1);
    tj_val *v = tj_compose(k, vec(2), &e, 1);
    p->null = !tj_binary(k, TJ_BIN_MUL, m, v);
}

PROVOKE(add_of_structs)
{
    K;
    tj_val *s = tj_zero(k, pair_type());
    p->null = !tj_binary(k, TJ_BIN_ADD, s, s);
}

PROVOKE(compare_int_float)
{
    K;
    p->null = !tj_compare(k, TJ_CMP_LT, ci(k, 1), cf(k, 1));
}

PROVOKE(compare_lt_of_vectors)
{
    K;
    p->null = !tj_compare(k, TJ_CMP_LT, vec3(k), vec3(k));
}

PROVOKE(compare_bad_op)
{
    K;
    p->null = !tj_compare(k, (tj_cmp)9, ci(k, 1), ci(k, 1));
}

PROVOKE(fma_of_ints)
{
    K;
    p->null = !tj_fma(k, ci(k, 1), ci(k, 2), ci(k, 3));
}

PROVOKE(fma_mixed_widths)
{
    K;
    p->null = !tj_fma(k, cf(k, 1), tj_const_float(k, TJ_DTYPE_F64, 2), cf(k, 3));
}

PROVOKE(select_int_cond)
{
    K;
    p->null = !tj_select(k, ci(k, 1), ci(k, 2), ci(k, 3));
}

PROVOKE(select_different_types)
{
    K;
    tj_val *c = tj_const_bool(k, true);
    p->null = !tj_select(k, c, ci(k, 2), tj_const_int(k, TJ_DTYPE_I64, 3));
}

PROVOKE(cast_vector_to_scalar)
{
    K;
    p->null = !tj_cast(k, vec3(k), F32);
}

PROVOKE(cast_vector_to_shorter)
{
    K;
    p->null = !tj_cast(k, vec3(k), vec(2));
}

/* ---- values -------------------------------------------------------------------------------- */

PROVOKE(const_int_too_big)
{
    K;
    p->null = !tj_const_int(k, TJ_DTYPE_I8, 128);
}

PROVOKE(const_int_negative_unsigned)
{
    K;
    p->null = !tj_const_int(k, TJ_DTYPE_U8, -1);
}

PROVOKE(const_int_bool_2)
{
    K;
    p->null = !tj_const_int(k, TJ_DTYPE_BOOL, 2);
}

PROVOKE(const_int_float_dtype)
{
    K;
    p->null = !tj_const_int(k, TJ_DTYPE_F32, 1);
}

PROVOKE(const_float_int_dtype)
{
    K;
    p->null = !tj_const_float(k, TJ_DTYPE_I32, 1);
}

PROVOKE(zero_of_null_type)
{
    K;
    p->null = !tj_zero(k, NULL);
}

PROVOKE(compose_too_few)
{
    K;
    tj_val *e[] = {cf(k, 1), cf(k, 2)};
    p->null = !tj_compose(k, vec(3), e, 2);
}

PROVOKE(compose_struct_too_many)
{
    K;
    tj_val *e[] = {ci(k, 1), cf(k, 2), cf(k, 3)};
    p->null = !tj_compose(k, pair_type(), e, 3);
}

PROVOKE(compose_wrong_element)
{
    K;
    tj_val *e[] = {cf(k, 1), ci(k, 2), cf(k, 3)};
    p->null = !tj_compose(k, vec(3), e, 3);
}

PROVOKE(compose_scalar_type)
{
    K;
    tj_val *e = cf(k, 1);
    p->null = !tj_compose(k, F32, &e, 1);
}

PROVOKE(extract_out_of_range)
{
    K;
    p->null = !tj_extract(k, vec3(k), 3);
}

PROVOKE(extract_negative)
{
    K;
    p->null = !tj_extract(k, vec3(k), -1);
}

PROVOKE(extract_of_scalar)
{
    K;
    p->null = !tj_extract(k, cf(k, 1), 0);
}

PROVOKE(insert_wrong_type)
{
    K;
    p->null = !tj_insert(k, vec3(k), 0, ci(k, 1));
}

PROVOKE(unknown_field)
{
    K;
    p->null = !tj_get_field(k, tj_zero(k, pair_type()), "z");
}

PROVOKE(set_field_wrong_type)
{
    K;
    p->null = !tj_set_field(k, tj_zero(k, pair_type()), "b", ci(k, 1));
}

PROVOKE(field_of_scalar)
{
    K;
    p->null = !tj_get_field(k, ci(k, 1), "a");
}

PROVOKE(var_set_wrong_type)
{
    K;
    tj_val *v = tj_var_new(k, ci(k, 0));
    p->null = !tj_var_set(k, v, cf(k, 1));
}

PROVOKE(var_get_of_value)
{
    K;
    p->null = !tj_var_get(k, ci(k, 0));
}

PROVOKE(var_new_of_array)
{
    K;
    tj_val *a = tj_param_array(k, "a", I32, 1);
    p->null = !tj_var_new(k, a);
}

/* ---- values from elsewhere ----------------------------------------------------------------- */

PROVOKE(value_of_another_kernel)
{
    tj_kernel *other = tj_kernel_create(tjt.ctx, "other", NULL);
    tj_val *x = ci(other, 1);
    K;
    p->null = !tj_binary(k, TJ_BIN_ADD, ci(k, 1), x);
}

/* Tiles go through the same checks, under the argument names of the call made. */
PROVOKE(tile_of_another_kernel_in_neg)
{
    static const int four[] = {4};
    tj_kernel *other = tj_kernel_create(tjt.ctx, "other", NULL);
    tj_val *t = tj_tile_zeros(other, F32, 1, four, TJ_STORAGE_REGISTER);
    K;
    p->null = !tj_unary(k, TJ_UN_NEG, t);
}

PROVOKE(tile_of_another_kernel_in_tile_map)
{
    static const int four[] = {4};
    tj_func *f = tj_func_create(tjt.ctx, "f", F32, NULL);
    tj_val *x = tj_param(f, "x", F32);
    ck_assert(tj_return(f, x));
    tj_kernel *other = tj_kernel_create(tjt.ctx, "other", NULL);
    tj_val *t = tj_tile_zeros(other, F32, 1, four, TJ_STORAGE_REGISTER);
    K;
    p->null = !tj_tile_map(k, f, &t, 1);
    tj_func_destroy(f);
}

PROVOKE(value_of_a_function)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", I32, NULL);
    tj_val *x = tj_param(f, "x", I32);
    K;
    p->null = !tj_var_new(k, x);
}

PROVOKE(value_after_its_if_ended)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    tj_val *x = ci(k, 1);
    ck_assert(tj_if_end(k));
    p->null = !tj_binary(k, TJ_BIN_ADD, x, ci(k, 2));
}

PROVOKE(then_value_in_else)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    tj_val *x = ci(k, 1);
    ck_assert(tj_else_begin(k));
    p->null = !tj_unary(k, TJ_UN_NEG, x);
}

PROVOKE(loop_counter_after_the_loop)
{
    K;
    tj_val *i = tj_for_begin(k, ci(k, 0), ci(k, 4), ci(k, 1));
    ck_assert(tj_for_end(k));
    p->null = !tj_var_new(k, i);
}

PROVOKE(while_body_value_after_the_loop)
{
    K;
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, tj_const_bool(k, false)));
    tj_val *x = cf(k, 1);
    ck_assert(tj_while_end(k));
    p->null = !tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, x, x));
}

/* ---- control flow -------------------------------------------------------------------------- */

PROVOKE(unterminated_if)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    p->null = true;
}

PROVOKE(unterminated_else)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    ck_assert(tj_else_begin(k));
    p->null = true;
}

PROVOKE(unterminated_for)
{
    K;
    ck_assert_ptr_nonnull(tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1)));
    p->null = true;
}

PROVOKE(unterminated_while_cond)
{
    K;
    ck_assert(tj_while_begin(k));
    p->null = true;
}

PROVOKE(unterminated_while_body)
{
    K;
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, tj_const_bool(k, false)));
    p->null = true;
}

PROVOKE(unterminated_inner_block)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    ck_assert_ptr_nonnull(tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1)));
    ck_assert(tj_for_end(k));
    ck_assert(tj_while_begin(k));
    p->null = true;
}

PROVOKE(else_without_if)
{
    K;
    p->null = !tj_else_begin(k);
}

PROVOKE(if_end_without_if)
{
    K;
    p->null = !tj_if_end(k);
}

PROVOKE(for_end_without_for)
{
    K;
    p->null = !tj_for_end(k);
}

PROVOKE(while_end_without_while)
{
    K;
    p->null = !tj_while_end(k);
}

PROVOKE(while_cond_without_while)
{
    K;
    p->null = !tj_while_cond(k, tj_const_bool(k, true));
}

PROVOKE(while_end_before_its_cond)
{
    K;
    ck_assert(tj_while_begin(k));
    p->null = !tj_while_end(k);
}

PROVOKE(else_twice)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    ck_assert(tj_else_begin(k));
    p->null = !tj_else_begin(k);
}

PROVOKE(if_end_closing_a_for)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    ck_assert_ptr_nonnull(tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1)));
    p->null = !tj_if_end(k);
}

PROVOKE(for_end_closing_an_if)
{
    K;
    ck_assert_ptr_nonnull(tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1)));
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    p->null = !tj_for_end(k);
}

PROVOKE(break_outside_a_loop)
{
    K;
    p->null = !tj_break(k);
}

PROVOKE(continue_outside_a_loop)
{
    K;
    ck_assert(tj_if_begin(k, tj_const_bool(k, true)));
    p->null = !tj_continue(k);
}

PROVOKE(break_in_a_while_condition)
{
    K;
    ck_assert_ptr_nonnull(tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1)));
    ck_assert(tj_while_begin(k));
    p->null = !tj_break(k);
}

PROVOKE(if_on_int)
{
    K;
    p->null = !tj_if_begin(k, ci(k, 1));
}

PROVOKE(while_on_float)
{
    K;
    ck_assert(tj_while_begin(k));
    p->null = !tj_while_cond(k, cf(k, 1));
}

PROVOKE(for_float_start)
{
    K;
    p->null = !tj_for_begin(k, cf(k, 0), ci(k, 3), ci(k, 1));
}

PROVOKE(for_mixed_types)
{
    K;
    p->null = !tj_for_begin(k, ci(k, 0), tj_const_int(k, TJ_DTYPE_I64, 3), ci(k, 1));
}

PROVOKE(for_constant_step_zero)
{
    K;
    p->null = !tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 0));
}

/* ---- returns ------------------------------------------------------------------------------- */

PROVOKE(kernel_returns_a_value)
{
    K;
    p->null = !tj_return(k, ci(k, 1));
}

/* A kernel that calls 'f' (so that building the kernel seals it), then the failing call
 * on f. */
static tj_func *
called_func(provoked *p, const tj_type *ret)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", ret, NULL);
    tj_val *x = tj_param(f, "x", I32);
    tj_kernel *k = kern(p, "k");
    tj_val *arg = ci(k, 1);
    ck_assert_ptr_nonnull(tj_call(k, f, &arg, 1));
    (void)x;
    p->failed = f;
    return f;
}

PROVOKE(function_returns_the_wrong_type)
{
    tj_func *f = called_func(p, I32);
    p->null = !tj_return(f, cf(f, 1));
}

PROVOKE(function_returns_no_value)
{
    tj_func *f = called_func(p, I32);
    p->null = !tj_return(f, NULL);
}

PROVOKE(void_function_returns_a_value)
{
    tj_func *f = called_func(p, NULL);
    p->null = !tj_return(f, ci(f, 1));
}

PROVOKE(function_unterminated_for)
{
    tj_func *f = called_func(p, I32);
    ck_assert_ptr_nonnull(tj_for_begin(f, ci(f, 0), ci(f, 3), ci(f, 1)));
    p->null = true;
}

/* ---- parameters and creation --------------------------------------------------------------- */

PROVOKE(param_after_the_body)
{
    K;
    tj_var_new(k, ci(k, 1));
    p->null = !tj_param(k, "late", I32);
}

/* A call starts the body of a function that has not started it itself. */
PROVOKE(param_after_a_call_started_the_function)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", NULL, NULL);
    K;
    ck_assert_ptr_nonnull(tj_call(k, f, NULL, 0));
    p->failed = f;
    p->null = !tj_param(f, "x", I32);
}

PROVOKE(param_declared_twice)
{
    K;
    tj_param(k, "a", I32);
    p->null = !tj_param_array(k, "a", F32, 1);
}

PROVOKE(param_name_not_an_identifier)
{
    K;
    p->null = !tj_param(k, "2x", I32);
}

PROVOKE(param_name_null)
{
    K;
    p->null = !tj_param(k, NULL, I32);
}

PROVOKE(param_without_type)
{
    K;
    p->null = !tj_param(k, "a", NULL);
}

PROVOKE(param_array_rank_5)
{
    K;
    p->null = !tj_param_array(k, "a", F32, 5);
}

PROVOKE(param_65)
{
    K;
    for (int i = 0; i < 64; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        ck_assert_ptr_nonnull(tj_param(k, name, I32));
    }
    p->null = !tj_param_array(k, "p64", I32, 1);
}

PROVOKE(param_array_rank_0)
{
    K;
    p->null = !tj_param_array(k, "a", F32, 0);
}

PROVOKE(kernel_name_not_an_identifier)
{
    p->build = p->failed = tj_kernel_create(tjt.ctx, "my kernel", NULL);
    p->null = true;
}

/* A name made of 'n' copies of 'c' (and a space at 'space' unless it is -1). */
static const char *
long_name(size_t n, char c, int space)
{
    static char buf[512];
    memset(buf, c, n);
    buf[n] = 0;
    if (space >= 0)
        buf[space] = ' ';
    return buf;
}

PROVOKE(kernel_name_of_201_characters)
{
    p->build = p->failed = tj_kernel_create(tjt.ctx, long_name(201, 'k', -1), NULL);
    p->null = true;
}

PROVOKE(param_name_of_300_characters_with_a_space)
{
    K;
    p->null = !tj_param(k, long_name(300, 'p', 150), I32);
}

PROVOKE(kernel_name_null)
{
    p->build = p->failed = tj_kernel_create(tjt.ctx, NULL, NULL);
    p->null = true;
}

PROVOKE(kernel_block_dim_above_1024)
{
    tj_kernel_options o = {.block_dim = 1025};
    p->build = p->failed = tj_kernel_create(tjt.ctx, "k", &o);
    p->null = true;
}

PROVOKE(cuda_kernel_block_dim_above_1024)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA, .block_dim = 4096};
    p->build = p->failed = tj_kernel_create(tjt.ctx, "k", &o);
    p->null = true;
}

PROVOKE(kernel_bad_target)
{
    tj_kernel_options o = {.target = (tj_target)7};
    p->build = p->failed = tj_kernel_create(tjt.ctx, "k", &o);
    p->null = true;
}

PROVOKE(kernel_bad_cpu_mode)
{
    tj_kernel_options o = {.cpu_mode = (tj_cpu_mode)5};
    p->build = p->failed = tj_kernel_create(tjt.ctx, "k", &o);
    p->null = true;
}

PROVOKE(function_name_not_an_identifier)
{
    tj_func *f = tj_func_create(tjt.ctx, "f-1", I32, NULL);
    tj_kernel *k = kern(p, "k");
    tj_val *r = tj_call(k, f, NULL, 0);
    p->failed = f;
    p->null = r == NULL; /* the call fails too: see test_calling_a_function_in_error... */
    ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
}

/* ---- arrays and threads -------------------------------------------------------------------- */

PROVOKE(load_with_too_few_indices)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *i = ci(k, 0);
    p->null = !tj_load(k, a, &i, 1);
}

PROVOKE(store_with_too_many_indices)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *i[] = {ci(k, 0), ci(k, 0)};
    p->null = !tj_store(k, a, i, 2, cf(k, 1));
}

PROVOKE(load_with_a_float_index)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *i[] = {ci(k, 0), cf(k, 0)};
    p->null = !tj_load(k, a, i, 2);
}

PROVOKE(load_with_a_bool_index)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *i = tj_const_bool(k, false);
    p->null = !tj_load(k, a, &i, 1);
}

PROVOKE(store_of_the_wrong_type)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *i = ci(k, 0);
    p->null = !tj_store(k, a, &i, 1, ci(k, 1));
}

PROVOKE(load_from_a_scalar)
{
    K;
    tj_val *x = tj_param(k, "x", I32);
    tj_val *i = ci(k, 0);
    p->null = !tj_load(k, x, &i, 1);
}

PROVOKE(shape_of_a_missing_dim)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 2);
    p->null = !tj_shape(k, a, 2);
}

PROVOKE(atomic_add_on_int8)
{
    K;
    tj_val *a = tj_param_array(k, "a", tjt_type(TJ_DTYPE_I8), 1);
    tj_val *i = ci(k, 0);
    p->null = !tj_atomic_add(k, a, &i, 1, tj_const_int(k, TJ_DTYPE_I8, 1));
}

PROVOKE(atomic_min_on_vectors)
{
    K;
    tj_val *a = tj_param_array(k, "a", vec(3), 1);
    tj_val *i = ci(k, 0);
    p->null = !tj_atomic_min(k, a, &i, 1, vec3(k));
}

PROVOKE(tid_with_5_coordinates)
{
    K;
    tj_val *t[5];
    p->null = !tj_tid(k, 5, t);
}

PROVOKE(tid_with_0_coordinates)
{
    K;
    tj_val *t[1];
    p->null = !tj_tid(k, 0, t);
}

/* NULL where a count says there are elements: the pointer is named, not the count */
PROVOKE(tid_into_null)
{
    K;
    p->null = !tj_tid(k, 1, NULL);
}

PROVOKE(store_at_null_indices)
{
    K;
    tj_val *a = tj_param_array(k, "a", F32, 1);
    p->null = !tj_store(k, a, NULL, 1, cf(k, 1));
}

PROVOKE(tile_of_a_null_shape)
{
    K;
    p->null = !tj_tile_zeros(k, F32, 1, NULL, TJ_STORAGE_REGISTER);
}

PROVOKE(reshape_to_a_null_shape)
{
    K;
    static const int four[] = {4};
    p->null = !tj_tile_reshape(k, tj_tile_zeros(k, F32, 1, four, TJ_STORAGE_REGISTER), 1, NULL);
}

PROVOKE(extract_at_null_indices)
{
    K;
    static const int four[] = {4};
    p->null = !tj_tile_extract(k, tj_tile_zeros(k, F32, 1, four, TJ_STORAGE_REGISTER), NULL, 1);
}

PROVOKE(scatter_add_at_null_indices)
{
    K;
    static const int four[] = {4};
    tj_val *t = tj_tile_zeros(k, F32, 1, four, TJ_STORAGE_SHARED);
    p->null = !tj_tile_scatter_add(k, t, NULL, 1, cf(k, 1), tj_const_bool(k, true), NULL);
}

/* ---- calls ---------------------------------------------------------------------------------- */

static tj_func *
two_int_func(void)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", I32, NULL);
    tj_val *a = tj_param(f, "a", I32), *b = tj_param(f, "b", I32);
    ck_assert(tj_return(f, tj_binary(f, TJ_BIN_ADD, a, b)));
    return f;
}

PROVOKE(call_with_too_few_arguments)
{
    tj_func *f = two_int_func();
    K;
    tj_val *a = ci(k, 1);
    p->null = !tj_call(k, f, &a, 1);
}

PROVOKE(call_with_null_arguments)
{
    tj_func *f = two_int_func();
    K;
    p->null = !tj_call(k, f, NULL, 2);
}

PROVOKE(call_with_the_wrong_type)
{
    tj_func *f = two_int_func();
    K;
    tj_val *a[] = {ci(k, 1), cf(k, 2)};
    p->null = !tj_call(k, f, a, 2);
}

static tj_func *
array_func(void)
{
    tj_func *f = tj_func_create(tjt.ctx, "g", NULL, NULL);
    tj_param_array(f, "arr", I32, 1);
    return f;
}

PROVOKE(call_with_an_array_of_another_rank)
{
    tj_func *f = array_func();
    K;
    tj_val *a = tj_param_array(k, "a", I32, 2);
    p->null = !tj_call(k, f, &a, 1);
}

PROVOKE(call_with_a_scalar_for_an_array)
{
    tj_func *f = array_func();
    K;
    tj_val *a = ci(k, 1);
    p->null = !tj_call(k, f, &a, 1);
}

PROVOKE(call_of_null)
{
    K;
    p->null = !tj_call(k, NULL, NULL, 0);
}

PROVOKE(call_of_a_kernel)
{
    tj_kernel *other = tj_kernel_create(tjt.ctx, "other", NULL);
    K;
    p->null = !tj_call(k, other, NULL, 0);
}

PROVOKE(call_of_a_function_with_other_options)
{
    tj_kernel_options o = {.debug = true};
    tj_func *f = tj_func_create(tjt.ctx, "f", I32, &o);
    K;
    p->null = !tj_call(k, f, NULL, 0);
}

PROVOKE(call_of_a_cuda_function_from_a_cpu_kernel)
{
    tj_kernel_options o = {.target = TJ_TARGET_CUDA};
    tj_func *f = tj_func_create(tjt.ctx, "f", I32, &o);
    K;
    p->null = !tj_call(k, f, NULL, 0);
}

PROVOKE(call_of_a_function_in_error)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", I32, NULL);
    tj_unary(f, TJ_UN_SQRT, ci(f, 4));
    K;
    p->null = !tj_call(k, f, NULL, 0);
}

/* ---- after a build ------------------------------------------------------------------------- */

PROVOKE(call_after_the_build)
{
    K;
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    tj_module_destroy(m);
    p->null = !tj_const_int(k, TJ_DTYPE_I32, 1);
}

PROVOKE(param_after_the_build)
{
    K;
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_OK);
    tj_module_destroy(m);
    p->null = !tj_param(k, "x", I32);
}

/* ---- the table ----------------------------------------------------------------------------- */

static const struct error_row {
    const char *name;
    provoke_fn provoke;
    enum when when;
    tj_status status;
    const char *msg;
} error_rows[] = {
    /* operators */
    {"not of int", not_of_int, AT_CALL, TJ_ERR_INVALID,
     "not: argument 'a': int32 is not supported"},
    {"bit_not of float", bit_not_of_float, AT_CALL, TJ_ERR_INVALID,
     "bit_not: argument 'a': float32 is not supported"},
    {"sqrt of int", sqrt_of_int, AT_CALL, TJ_ERR_INVALID,
     "sqrt: argument 'a': int32 is not supported"},
    {"neg of bool", neg_of_bool, AT_CALL, TJ_ERR_INVALID,
     "neg: argument 'a': bool is not supported"},
    {"length of scalar", length_of_scalar, AT_CALL, TJ_ERR_INVALID,
     "length: argument 'a': float32 is not supported"},
    {"transpose of vector", transpose_of_vector, AT_CALL, TJ_ERR_INVALID,
     "transpose: argument 'a': vec3f is not supported"},
    {"unary bad op", unary_bad_op, AT_CALL, TJ_ERR_INVALID,
     "tj_unary: argument 'op': 99 is not a unary operator"},
    {"unary of array", unary_of_array, AT_CALL, TJ_ERR_INVALID,
     "neg: argument 'a': array of float32 (1 dim) is not a scalar or composite"},
    {"add int float", add_int_float, AT_CALL, TJ_ERR_INVALID,
     "add: operand types int32 and float32 do not match"},
    {"bit_and of floats", bit_and_of_floats, AT_CALL, TJ_ERR_INVALID,
     "bit_and: operands of type float32 are not supported"},
    {"and of ints", and_of_ints, AT_CALL, TJ_ERR_INVALID,
     "and: operands of type int32 are not supported"},
    {"pow of ints", pow_of_ints, AT_CALL, TJ_ERR_INVALID,
     "pow: operands of type int32 are not supported"},
    {"dot of scalars", dot_of_scalars, AT_CALL, TJ_ERR_INVALID,
     "dot: operands of type float32 are not supported"},
    {"mul of vectors", mul_of_vectors, AT_CALL, TJ_ERR_INVALID,
     "mul: operands of type vec3f are not supported (use cw_mul or cw_div)"},
    {"binary bad op", binary_bad_op, AT_CALL, TJ_ERR_INVALID,
     "tj_binary: argument 'op': 77 is not a binary operator"},
    {"shl by other width", shl_by_other_width, AT_CALL, TJ_ERR_INVALID,
     "shl: operand types int32 and int64 do not match"},
    {"cross of vec2", cross_of_vec2, AT_CALL, TJ_ERR_INVALID,
     "cross: operands of type vec2f are not supported"},
    {"matrix times short vector", matrix_times_short_vector, AT_CALL, TJ_ERR_INVALID,
     "mul: operand types mat33f and vec2f do not match"},
    {"add of structs", add_of_structs, AT_CALL, TJ_ERR_INVALID,
     "add: argument 'a': pair is not a scalar or composite"},
    {"compare int float", compare_int_float, AT_CALL, TJ_ERR_INVALID,
     "tj_compare: cannot compare int32 with float32"},
    {"compare lt of vectors", compare_lt_of_vectors, AT_CALL, TJ_ERR_INVALID,
     "tj_compare: cannot compare vec3f with vec3f (composites: only equal and not-equal)"},
    {"compare bad op", compare_bad_op, AT_CALL, TJ_ERR_INVALID,
     "tj_compare: argument 'op': 9 is not a comparison"},
    {"fma of ints", fma_of_ints, AT_CALL, TJ_ERR_INVALID,
     "fma: operands must be floats of one type, got int32"},
    {"fma mixed widths", fma_mixed_widths, AT_CALL, TJ_ERR_INVALID,
     "fma: operands must be floats of one type, got float64"},
    {"select int cond", select_int_cond, AT_CALL, TJ_ERR_INVALID,
     "tj_select: argument 'cond': int32 is not bool"},
    {"select different types", select_different_types, AT_CALL, TJ_ERR_INVALID,
     "tj_select: arguments 'a' and 'b' differ: int32 and int64"},
    {"cast vector to scalar", cast_vector_to_scalar, AT_CALL, TJ_ERR_INVALID,
     "tj_cast: cannot convert vec3f to float32"},
    {"cast vector to shorter", cast_vector_to_shorter, AT_CALL, TJ_ERR_INVALID,
     "tj_cast: cannot convert vec3f to vec2f"},
    /* values */
    {"const int too big", const_int_too_big, AT_CALL, TJ_ERR_INVALID,
     "tj_const_int: argument 'value': 128 does not fit int8"},
    {"const int negative unsigned", const_int_negative_unsigned, AT_CALL, TJ_ERR_INVALID,
     "tj_const_int: argument 'value': -1 does not fit uint8"},
    {"const int bool 2", const_int_bool_2, AT_CALL, TJ_ERR_INVALID,
     "tj_const_int: argument 'value': 2 does not fit bool"},
    {"const int float dtype", const_int_float_dtype, AT_CALL, TJ_ERR_INVALID,
     "tj_const_int: argument 'dtype': float32 is not an integer dtype"},
    {"const float int dtype", const_float_int_dtype, AT_CALL, TJ_ERR_INVALID,
     "tj_const_float: argument 'dtype': int32 is not a float dtype"},
    {"zero of null type", zero_of_null_type, AT_CALL, TJ_ERR_INVALID,
     "tj_zero: argument 'type' is not a value type"},
    {"compose too few", compose_too_few, AT_CALL, TJ_ERR_INVALID,
     "tj_compose: vec3f takes 3 components, got 2"},
    {"compose struct too many", compose_struct_too_many, AT_CALL, TJ_ERR_INVALID,
     "tj_compose: struct pair has 2 fields, got 3 elements"},
    {"compose wrong element", compose_wrong_element, AT_CALL, TJ_ERR_INVALID,
     "tj_compose: argument 'elems': element 1 is int32, expected float32"},
    {"compose scalar type", compose_scalar_type, AT_CALL, TJ_ERR_INVALID,
     "tj_compose: argument 'type' must be a vector, matrix, quaternion or struct"},
    {"extract out of range", extract_out_of_range, AT_CALL, TJ_ERR_INVALID,
     "tj_extract: argument 'index': 3 is out of range [0, 3)"},
    {"extract negative", extract_negative, AT_CALL, TJ_ERR_INVALID,
     "tj_extract: argument 'index': -1 is out of range [0, 3)"},
    {"extract of scalar", extract_of_scalar, AT_CALL, TJ_ERR_INVALID,
     "tj_extract: argument 'v': float32 is not a vector, matrix or quaternion"},
    {"insert wrong type", insert_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_insert: argument 'x': int32, expected float32"},
    {"unknown field", unknown_field, AT_CALL, TJ_ERR_INVALID,
     "tj_get_field: struct pair has no field 'z'"},
    {"set field wrong type", set_field_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_set_field: argument 'x': int32, field 'b' is float32"},
    {"field of scalar", field_of_scalar, AT_CALL, TJ_ERR_INVALID,
     "tj_get_field: argument 'v': int32 is not a struct"},
    {"var set wrong type", var_set_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_var_set: argument 'value': float32, the variable is int32"},
    {"var get of value", var_get_of_value, AT_CALL, TJ_ERR_INVALID,
     "tj_var_get: argument 'var': int32 is not a variable"},
    {"var new of array", var_new_of_array, AT_CALL, TJ_ERR_INVALID,
     "tj_var_new: argument 'init': array of int32 (1 dim) cannot be a variable"},
    /* values from elsewhere */
    {"value of another kernel", value_of_another_kernel, AT_CALL, TJ_ERR_INVALID,
     "add: argument 'b': the value belongs to kernel 'other', not to 'k'"},
    {"tile of another kernel in neg", tile_of_another_kernel_in_neg, AT_CALL, TJ_ERR_INVALID,
     "neg: argument 'a': the value belongs to kernel 'other', not to 'k'"},
    {"tile of another kernel in tile_map", tile_of_another_kernel_in_tile_map, AT_CALL,
     TJ_ERR_INVALID, "tile_map: argument 'tiles': the value belongs to kernel 'other', not to 'k'"},
    {"value of a function", value_of_a_function, AT_CALL, TJ_ERR_INVALID,
     "tj_var_new: argument 'init': the value belongs to function 'f', not to 'k'"},
    {"value after its if ended", value_after_its_if_ended, AT_CALL, TJ_ERR_STATE,
     "add: argument 'a': the value was made inside a block that has ended (use a variable to "
     "carry it out)"},
    {"then value in else", then_value_in_else, AT_CALL, TJ_ERR_STATE,
     "neg: argument 'a': the value was made inside a block that has ended (use a variable to "
     "carry it out)"},
    {"loop counter after the loop", loop_counter_after_the_loop, AT_CALL, TJ_ERR_STATE,
     "tj_var_new: argument 'init': the value was made inside a block that has ended (use a "
     "variable to carry it out)"},
    {"while body value after the loop", while_body_value_after_the_loop, AT_CALL, TJ_ERR_STATE,
     "tj_compare: argument 'a': the value was made inside a block that has ended (use a "
     "variable to carry it out)"},
    /* control flow */
    {"unterminated if", unterminated_if, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_if_begin without its end"},
    {"unterminated else", unterminated_else, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_else_begin without its end"},
    {"unterminated for", unterminated_for, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_for_begin without its end"},
    {"unterminated while cond", unterminated_while_cond, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_while_begin without its end"},
    {"unterminated while body", unterminated_while_body, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_while_begin without its end"},
    {"unterminated inner block", unterminated_inner_block, AT_BUILD, TJ_ERR_STATE,
     "'k' has an unterminated block: tj_while_begin without its end"},
    {"else without if", else_without_if, AT_CALL, TJ_ERR_STATE,
     "tj_else_begin: no open tj_if_begin to close here"},
    {"if end without if", if_end_without_if, AT_CALL, TJ_ERR_STATE,
     "tj_if_end: no open tj_if_begin to close here"},
    {"for end without for", for_end_without_for, AT_CALL, TJ_ERR_STATE,
     "tj_for_end: no open tj_for_begin to close here"},
    {"while end without while", while_end_without_while, AT_CALL, TJ_ERR_STATE,
     "tj_while_end: no open tj_while_begin to close here"},
    {"while cond without while", while_cond_without_while, AT_CALL, TJ_ERR_STATE,
     "tj_while_cond: no open tj_while_begin to close here"},
    {"while end before its cond", while_end_before_its_cond, AT_CALL, TJ_ERR_STATE,
     "tj_while_end: the loop has no condition yet (call tj_while_cond)"},
    {"else twice", else_twice, AT_CALL, TJ_ERR_STATE,
     "tj_else_begin: no open tj_if_begin to close here"},
    {"if end closing a for", if_end_closing_a_for, AT_CALL, TJ_ERR_STATE,
     "tj_if_end: no open tj_if_begin to close here"},
    {"for end closing an if", for_end_closing_an_if, AT_CALL, TJ_ERR_STATE,
     "tj_for_end: no open tj_for_begin to close here"},
    {"break outside a loop", break_outside_a_loop, AT_CALL, TJ_ERR_STATE,
     "tj_break: not inside a loop"},
    {"continue outside a loop", continue_outside_a_loop, AT_CALL, TJ_ERR_STATE,
     "tj_continue: not inside a loop"},
    {"break in a while condition", break_in_a_while_condition, AT_CALL, TJ_ERR_STATE,
     "tj_break: not allowed in a while condition (before tj_while_cond)"},
    {"if on int", if_on_int, AT_CALL, TJ_ERR_INVALID,
     "tj_if_begin: argument 'cond': int32 is not bool"},
    {"while on float", while_on_float, AT_CALL, TJ_ERR_INVALID,
     "tj_while_cond: argument 'cond': float32 is not bool"},
    {"for float start", for_float_start, AT_CALL, TJ_ERR_INVALID,
     "tj_for_begin: argument 'start': float32 is not an integer"},
    {"for mixed types", for_mixed_types, AT_CALL, TJ_ERR_INVALID,
     "tj_for_begin: argument 'stop': int64 differs from 'start' (int32)"},
    {"for constant step zero", for_constant_step_zero, AT_CALL, TJ_ERR_INVALID,
     "tj_for_begin: argument 'step': the step is 0"},
    /* returns */
    {"kernel returns a value", kernel_returns_a_value, AT_CALL, TJ_ERR_INVALID,
     "tj_return: 'k' returns nothing, got a value"},
    {"function returns the wrong type", function_returns_the_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_return: argument 'value': float32, 'f' returns int32"},
    {"function returns no value", function_returns_no_value, AT_CALL, TJ_ERR_INVALID,
     "tj_return: 'f' returns int32, got no value"},
    {"void function returns a value", void_function_returns_a_value, AT_CALL, TJ_ERR_INVALID,
     "tj_return: 'f' returns nothing, got a value"},
    {"function unterminated for", function_unterminated_for, AT_BUILD, TJ_ERR_STATE,
     "'f' has an unterminated block: tj_for_begin without its end"},
    /* parameters and creation */
    {"param after the body", param_after_the_body, AT_CALL, TJ_ERR_STATE,
     "tj_param: parameter 'late' comes after the body has started"},
    {"param after a call started the function", param_after_a_call_started_the_function,
     AT_CALL, TJ_ERR_STATE, "tj_param: parameter 'x' comes after the body has started"},
    {"param declared twice", param_declared_twice, AT_CALL, TJ_ERR_INVALID,
     "tj_param_array: parameter 'a' is declared twice"},
    {"param name not an identifier", param_name_not_an_identifier, AT_CALL, TJ_ERR_INVALID,
     "tj_param: argument 'name': '2x' is not an identifier"},
    {"param name null", param_name_null, AT_CALL, TJ_ERR_INVALID,
     "tj_param: argument 'name': '(null)' is not an identifier"},
    {"param without type", param_without_type, AT_CALL, TJ_ERR_INVALID,
     "tj_param: parameter 'a': argument 'type' is not a type"},
    {"param array rank 5", param_array_rank_5, AT_CALL, TJ_ERR_INVALID,
     "tj_param_array: parameter 'a': argument 'ndim': 5 is not in [1, 4]"},
    {"param array rank 0", param_array_rank_0, AT_CALL, TJ_ERR_INVALID,
     "tj_param_array: parameter 'a': argument 'ndim': 0 is not in [1, 4]"},
    {"65 parameters", param_65, AT_CALL, TJ_ERR_LIMIT,
     "tj_param_array: parameter 'p64': 'k' already has 64 parameters, the most allowed"},
    {"kernel name not an identifier", kernel_name_not_an_identifier, AT_CREATE, TJ_ERR_INVALID,
     "tj_kernel_create: argument 'name': 'my kernel' is not an identifier"},
    {"kernel name of 201 characters", kernel_name_of_201_characters, AT_CREATE, TJ_ERR_INVALID,
     "tj_kernel_create: argument 'name': 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' has 201 "
     "characters; a name has at most 200"},
    {"param name of 300 characters with a space", param_name_of_300_characters_with_a_space,
     AT_CALL, TJ_ERR_INVALID,
     "tj_param: argument 'name': 'pppppppppppppppppppppppppppppppp...' (300 characters) is not "
     "an identifier"},
    {"kernel name null", kernel_name_null, AT_CREATE, TJ_ERR_INVALID,
     "tj_kernel_create: argument 'name': '(null)' is not an identifier"},
    {"kernel block_dim above 1024", kernel_block_dim_above_1024, AT_CREATE, TJ_ERR_LIMIT,
     "tj_kernel_create: option 'block_dim': 1025 is above the maximum of 1024"},
    {"cuda kernel block_dim above 1024", cuda_kernel_block_dim_above_1024, AT_CREATE,
     TJ_ERR_LIMIT, "tj_kernel_create: option 'block_dim': 4096 is above the maximum of 1024"},
    {"kernel bad target", kernel_bad_target, AT_CREATE, TJ_ERR_INVALID,
     "tj_kernel_create: option 'target': 7 is not a target"},
    {"kernel bad cpu mode", kernel_bad_cpu_mode, AT_CREATE, TJ_ERR_INVALID,
     "tj_kernel_create: option 'cpu_mode': 5 is not a CPU mode"},
    {"function name not an identifier", function_name_not_an_identifier, AT_CREATE,
     TJ_ERR_INVALID, "tj_func_create: argument 'name': 'f-1' is not an identifier"},
    /* arrays and threads */
    {"load with too few indices", load_with_too_few_indices, AT_CALL, TJ_ERR_INVALID,
     "tj_load: array 'a' has 2 dimensions, got 1 index"},
    {"store with too many indices", store_with_too_many_indices, AT_CALL, TJ_ERR_INVALID,
     "tj_store: array 'a' has 1 dimension, got 2 indices"},
    {"load with a float index", load_with_a_float_index, AT_CALL, TJ_ERR_INVALID,
     "tj_load: argument 'idx': index 1 is float32, not an integer"},
    {"load with a bool index", load_with_a_bool_index, AT_CALL, TJ_ERR_INVALID,
     "tj_load: argument 'idx': index 0 is bool, not an integer"},
    {"store of the wrong type", store_of_the_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_store: argument 'value': int32, the array holds float32"},
    {"load from a scalar", load_from_a_scalar, AT_CALL, TJ_ERR_INVALID,
     "tj_load: argument 'arr': int32 is not an array"},
    {"shape of a missing dim", shape_of_a_missing_dim, AT_CALL, TJ_ERR_INVALID,
     "tj_shape: argument 'dim': 2 is out of range for a 2-dim array"},
    {"atomic add on int8", atomic_add_on_int8, AT_CALL, TJ_ERR_INVALID,
     "tj_atomic_add: arrays of int8 are not supported (atomics need 32- or 64-bit elements, "
     "or float16 add)"},
    {"atomic min on vectors", atomic_min_on_vectors, AT_CALL, TJ_ERR_INVALID,
     "tj_atomic_min: arrays of vec3f are not supported"},
    {"tid with 5 coordinates", tid_with_5_coordinates, AT_CALL, TJ_ERR_INVALID,
     "tj_tid: argument 'ncoords': 5 is not in [1, 4]"},
    {"tid with 0 coordinates", tid_with_0_coordinates, AT_CALL, TJ_ERR_INVALID,
     "tj_tid: argument 'ncoords': 0 is not in [1, 4]"},
    {"tid into NULL", tid_into_null, AT_CALL, TJ_ERR_INVALID, "tj_tid: argument 'out' is NULL"},
    {"store at NULL indices", store_at_null_indices, AT_CALL, TJ_ERR_INVALID,
     "tj_store: argument 'idx' is NULL"},
    {"tile of a NULL shape", tile_of_a_null_shape, AT_CALL, TJ_ERR_INVALID,
     "tile_zeros: argument 'shape' is NULL"},
    {"reshape to a NULL shape", reshape_to_a_null_shape, AT_CALL, TJ_ERR_INVALID,
     "tile_reshape: argument 'shape' is NULL"},
    {"extract at NULL indices", extract_at_null_indices, AT_CALL, TJ_ERR_INVALID,
     "tile_extract: argument 'idx' is NULL"},
    {"scatter-add at NULL indices", scatter_add_at_null_indices, AT_CALL, TJ_ERR_INVALID,
     "tile_scatter_add: argument 'idx' is NULL"},
    /* calls */
    {"call with too few arguments", call_with_too_few_arguments, AT_CALL, TJ_ERR_INVALID,
     "tj_call: function 'f' takes 2 arguments, got 1"},
    {"call with NULL arguments", call_with_null_arguments, AT_CALL, TJ_ERR_INVALID,
     "tj_call: argument 'args' is NULL"},
    {"call with the wrong type", call_with_the_wrong_type, AT_CALL, TJ_ERR_INVALID,
     "tj_call: function 'f': argument 'b': float32, expected int32"},
    {"call with an array of another rank", call_with_an_array_of_another_rank, AT_CALL,
     TJ_ERR_INVALID,
     "tj_call: function 'g': argument 'arr': array of int32 (2 dims), expected an array of "
     "int32 (1 dim)"},
    {"call with a scalar for an array", call_with_a_scalar_for_an_array, AT_CALL, TJ_ERR_INVALID,
     "tj_call: function 'g': argument 'arr': int32, expected an array of int32 (1 dim)"},
    {"call of null", call_of_null, AT_CALL, TJ_ERR_INVALID,
     "tj_call: argument 'f' is not a function of this context"},
    {"call of a kernel", call_of_a_kernel, AT_CALL, TJ_ERR_INVALID,
     "tj_call: argument 'f' is not a function of this context"},
    {"call of a function with other options", call_of_a_function_with_other_options, AT_CALL,
     TJ_ERR_INVALID,
     "tj_call: function 'f' was created with other options than 'k' (target, block_dim, CPU "
     "mode and debug must match)"},
    {"call of a cuda function from a cpu kernel", call_of_a_cuda_function_from_a_cpu_kernel,
     AT_CALL, TJ_ERR_INVALID,
     "tj_call: function 'f' was created with other options than 'k' (target, block_dim, CPU "
     "mode and debug must match)"},
    {"call of a function in error", call_of_a_function_in_error, AT_CALL, TJ_ERR_INVALID,
     "tj_call: function 'f' has an error: sqrt: argument 'a': int32 is not supported"},
    /* after a build */
    {"call after the build", call_after_the_build, AT_CALL, TJ_ERR_STATE,
     "tj_const_int: 'k' has been built; it takes no more calls"},
    {"param after the build", param_after_the_build, AT_CALL, TJ_ERR_STATE,
     "tj_param: 'k' has been built; it takes no more calls"},
};

/* ---- the test ------------------------------------------------------------------------------- */

/* Later valid calls on a kernel in error do nothing and change nothing. */
static void
check_sticky(tj_kernel *k, tj_status st, const char *msg)
{
    ck_assert_ptr_null(tj_const_int(k, TJ_DTYPE_I32, 1));
    ck_assert_ptr_null(tj_const_bool(k, true));
    ck_assert_ptr_null(tj_param(k, "later", I32));
    ck_assert_ptr_null(tj_zero(k, F32));
    ck_assert(!tj_if_begin(k, NULL));
    ck_assert(!tj_while_begin(k));
    ck_assert(!tj_return(k, NULL));
    tj_val *t[1];
    ck_assert(!tj_tid(k, 1, t));
    ck_assert_ptr_null(tj_kernel_get_ir(k));
    ck_assert_int_eq(tj_kernel_status(k), st);
    ck_assert_str_eq(tj_kernel_error(k), msg);
}

START_TEST(test_builder_error_is_recorded_sticky_and_fails_the_build)
{
    const struct error_row *r = &error_rows[_i];
    provoked p = {0};
    r->provoke(&p);
    ck_assert_ptr_nonnull(p.build);
    ck_assert_ptr_nonnull(p.failed);
    ck_assert_msg(p.null, "%s: the failing call did not return NULL or false", r->name);
    if (r->when == AT_BUILD) {
        ck_assert_msg(tj_kernel_error(p.failed) == NULL, "%s: %s", r->name,
                      tj_kernel_error(p.failed));
    } else {
        ck_assert_msg(tj_kernel_status(p.failed) == r->status, "%s: status %s, expected %s (%s)",
                      r->name, tj_status_name(tj_kernel_status(p.failed)),
                      tj_status_name(r->status), tj_kernel_error(p.failed));
        ck_assert_ptr_nonnull(tj_kernel_error(p.failed));
        ck_assert_str_eq(tj_kernel_error(p.failed), r->msg);
        check_sticky(p.failed, r->status, r->msg);
    }
    tj_module *m = (tj_module *)&p; /* must be reset to NULL */
    tj_status st = tj_kernel_build(p.build, NULL, &m);
    ck_assert_msg(st == r->status, "%s: build status %s, expected %s (%s)", r->name,
                  tj_status_name(st), tj_status_name(r->status), tj_context_error(tjt.ctx));
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(tj_context_error(tjt.ctx));
    ck_assert_msg(strstr(tj_context_error(tjt.ctx), r->msg), "%s: context error '%s' lacks '%s'",
                  r->name, tj_context_error(tjt.ctx), r->msg);
    ck_assert_int_eq(tj_kernel_status(p.failed), r->status);
    ck_assert_str_eq(tj_kernel_error(p.failed), r->msg);
    check_sticky(p.failed, r->status, r->msg);
    /* Building again fails the same way. */
    ck_assert_int_eq(tj_kernel_build(p.build, NULL, &m), r->status);
    ck_assert_ptr_null(m);
}
END_TEST

/* The context message names the kernel or function, then gives the builder's message. */
START_TEST(test_build_error_names_the_kernel_or_function)
{
    provoked p = {0};
    sqrt_of_int(&p);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(p.build, NULL, &m), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "kernel 'k': sqrt: argument 'a': int32 is not supported");
    provoked q = {0};
    function_returns_no_value(&q);
    ck_assert_int_eq(tj_kernel_build(q.build, NULL, &m), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "function 'f': tj_return: 'f' returns int32, got no value");
}
END_TEST

/* Only the first error is kept. */
START_TEST(test_only_the_first_error_is_kept)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    ck_assert_ptr_null(tj_const_int(k, TJ_DTYPE_I8, 300));
    ck_assert_ptr_null(tj_const_float(k, TJ_DTYPE_I32, 1));
    ck_assert(!tj_break(k));
    ck_assert_str_eq(tj_kernel_error(k), "tj_const_int: argument 'value': 300 does not fit int8");
}
END_TEST

/* A NULL value passed to a builder call is recorded as an error of that call when the
 * kernel has none (a call is never dropped quietly: a kernel that builds ran every call it
 * was given); after an earlier failure it changes nothing, the first error is kept. */
START_TEST(test_null_values_are_errors_unless_an_earlier_one_is_kept)
{
    static const char *const msgs[] = {
        "neg: argument 'a' is NULL",
        "add: argument 'a' is NULL",
        "tj_load: argument 'idx' is NULL",
        "tj_var_set: argument 'var' is NULL",
        "tj_if_begin: argument 'cond' is NULL",
        "tile_stack_push: argument 'has_value' is NULL",
    };
    for (int row = 0; row < NROWS(msgs); row++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
        tj_val *a = tj_param_array(k, "a", I32, 1);
        tj_val *i = NULL;
        switch (row) {
        case 0: ck_assert_ptr_null(tj_unary(k, TJ_UN_NEG, NULL)); break;
        case 1: ck_assert_ptr_null(tj_binary(k, TJ_BIN_ADD, NULL, NULL)); break;
        case 2: ck_assert_ptr_null(tj_load(k, a, &i, 1)); break;
        case 3: ck_assert(!tj_var_set(k, NULL, NULL)); break;
        case 4: ck_assert(!tj_if_begin(k, NULL)); break;
        default: {
            tj_val *st = tj_tile_stack(k, 4, I32);
            ck_assert_ptr_null(tj_tile_stack_push(k, st, tj_const_int(k, TJ_DTYPE_I32, 1),
                                                  NULL));
        }
        }
        ck_assert_str_eq(tj_kernel_error(k), msgs[row]);
        ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
        tj_module *m = (tj_module *)k;
        ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_ERR_INVALID);
        ck_assert_ptr_null(m);
        tj_kernel_destroy(k);
    }
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    tj_val *bad = tj_const_int(k, TJ_DTYPE_I8, 300);
    ck_assert_ptr_null(bad);
    ck_assert_ptr_null(tj_unary(k, TJ_UN_NEG, bad));
    ck_assert_str_eq(tj_kernel_error(k), "tj_const_int: argument 'value': 300 does not fit int8");
    tj_kernel_destroy(k);
}
END_TEST

/* NULL kernels: builder calls return NULL, the status is TJ_ERR_INVALID, no message. */
START_TEST(test_null_kernel_calls_do_nothing)
{
    ck_assert_ptr_null(tj_kernel_create(NULL, "k", NULL));
    ck_assert_ptr_null(tj_func_create(NULL, "f", NULL, NULL));
    ck_assert_ptr_null(tj_const_int(NULL, TJ_DTYPE_I32, 1));
    ck_assert_ptr_null(tj_param(NULL, "x", I32));
    ck_assert(!tj_if_begin(NULL, NULL));
    ck_assert_int_eq(tj_kernel_status(NULL), TJ_ERR_INVALID);
    ck_assert_ptr_null(tj_kernel_error(NULL));
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(NULL, NULL, &m), TJ_ERR_INVALID);
}
END_TEST

/* ---- module-level errors ------------------------------------------------------------------ */

static tj_kernel *
simple_kernel(const char *name, const tj_kernel_options *o)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, o);
    tj_val *a = tj_param_array(k, "a", I32, 1);
    tj_val *i = tj_const_int(k, TJ_DTYPE_I32, 0);
    ck_assert(tj_store(k, a, &i, 1, i));
    return k;
}

/* Names of 200 characters, the most a name may have, make a function, a kernel and their
 * parameters that build and run (their LLVM symbols carry them whole). */
START_TEST(test_names_of_200_characters_build_and_run)
{
    char fname[201], kname[201], pname[201];
    memcpy(fname, long_name(200, 'f', -1), sizeof fname);
    memcpy(kname, long_name(200, 'k', -1), sizeof kname);
    memcpy(pname, long_name(200, 'p', -1), sizeof pname);
    tj_func *f = tj_func_create(tjt.ctx, fname, I32, NULL);
    tj_val *x = tj_param(f, pname, I32);
    ck_assert(tj_return(f, tj_binary(f, TJ_BIN_ADD, x, tj_const_int(f, TJ_DTYPE_I32, 1))));
    tj_kernel *k = tj_kernel_create(tjt.ctx, kname, NULL);
    tj_val *a = tj_param_array(k, pname, I32, 1);
    tj_val *i = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *v = tj_call(k, f, (tj_val *[]){tj_const_int(k, TJ_DTYPE_I32, 41)}, 1);
    ck_assert(tj_store(k, a, &i, 1, v));
    tj_module *m = NULL;
    ck_assert_msg(tj_kernel_build(k, NULL, &m) == TJ_OK, "%s", tj_context_error(tjt.ctx));
    tj_array *arr = NULL;
    int64_t one = 1;
    ck_assert_int_eq(tj_array_create(tjt.cpu, I32, 1, &one, &arr), TJ_OK);
    tj_arg arg = tj_arg_array(arr);
    ck_assert_msg(tj_launch(tjt.cpu, m, kname, 1, &one, 1, &arg, 1) == TJ_OK, "%s",
                  tj_device_error(tjt.cpu));
    int32_t got = 0;
    ck_assert_int_eq(tj_array_copy_to_host(arr, &got, sizeof got), TJ_OK);
    ck_assert_int_eq(got, 42);
    tj_array_destroy(arr);
    tj_module_destroy(m);
    tj_func_destroy(f);
}
END_TEST

static void
expect_module_error(tj_kernel *const *ks, size_t n, tj_status want, const char *msg)
{
    tj_module *m = (tj_module *)ks;
    tj_status st = tj_module_build(tjt.ctx, ks, n, NULL, &m);
    ck_assert_msg(st == want, "status %s, expected %s (%s)", tj_status_name(st),
                  tj_status_name(want), tj_context_error(tjt.ctx));
    ck_assert_ptr_null(m);
    ck_assert_str_eq(tj_context_error(tjt.ctx), msg);
    for (size_t i = 0; i < n; i++)
        if (ks[i] && tj_kernel_status(ks[i]) == TJ_OK)
            ck_assert_ptr_null(tj_kernel_error(ks[i])); /* the kernels stay usable */
}

START_TEST(test_module_rejects_kernels_of_different_targets)
{
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel *ks[] = {simple_kernel("a", NULL), simple_kernel("b", &cuda)};
    expect_module_error(ks, 2, TJ_ERR_INVALID,
                        "tj_module_build: kernels 'a' and 'b' have different targets or CPU "
                        "modes; build them into separate modules");
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(ks[0], NULL, &m), TJ_OK); /* each builds alone */
    ck_assert_int_eq(tj_kernel_build(ks[1], NULL, &m), TJ_OK);
}
END_TEST

START_TEST(test_module_rejects_kernels_of_different_cpu_modes)
{
    tj_kernel_options coop = {.cpu_mode = TJ_CPU_COOPERATIVE, .block_dim = 4};
    tj_kernel *ks[] = {simple_kernel("a", &coop), simple_kernel("b", NULL)};
    expect_module_error(ks, 2, TJ_ERR_INVALID,
                        "tj_module_build: kernels 'a' and 'b' have different targets or CPU "
                        "modes; build them into separate modules");
}
END_TEST

START_TEST(test_module_rejects_two_kernels_of_one_name)
{
    tj_kernel *ks[] = {simple_kernel("same", NULL), simple_kernel("other", NULL),
                       simple_kernel("same", NULL)};
    expect_module_error(ks, 3, TJ_ERR_INVALID, "tj_module_build: two kernels are named 'same'");
}
END_TEST

START_TEST(test_module_rejects_functions_and_missing_kernels)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", NULL, NULL);
    tj_kernel *ks[] = {simple_kernel("a", NULL), f};
    expect_module_error(ks, 2, TJ_ERR_INVALID,
                        "tj_module_build: kernels[1] ('f') is a function (made by "
                        "tj_func_create); modules are built from kernels, which call it");
    tj_module *m = (tj_module *)1;
    ck_assert_int_eq(tj_kernel_build(f, NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "tj_kernel_build: 'f' is a function (made by tj_func_create); build the "
                     "kernels that call it");
    tj_kernel *nul[] = {simple_kernel("b", NULL), NULL};
    expect_module_error(nul, 2, TJ_ERR_INVALID, "tj_module_build: kernels[1] is NULL");
    expect_module_error(ks, 0, TJ_ERR_INVALID, "tj_module_build: no kernels given");
    tj_context *other = NULL;
    ck_assert_int_eq(tj_context_create(&other), TJ_OK);
    tj_kernel *foreign = tj_kernel_create(other, "c", NULL);
    tj_kernel *mixed[] = {simple_kernel("c", NULL), foreign};
    expect_module_error(mixed, 2, TJ_ERR_INVALID,
                        "tj_module_build: kernels[1] ('c') is a kernel of another context");
    tj_context_destroy(other);
}
END_TEST

/* The first kernel in error fails a module build with its message. */
START_TEST(test_module_build_reports_the_first_kernel_in_error)
{
    tj_kernel *bad = tj_kernel_create(tjt.ctx, "bad", NULL);
    tj_break(bad);
    tj_kernel *ks[] = {simple_kernel("good", NULL), bad};
    expect_module_error(ks, 2, TJ_ERR_STATE, "kernel 'bad': tj_break: not inside a loop");
}
END_TEST

START_TEST(test_module_rejects_bad_build_options)
{
    tj_kernel *k = simple_kernel("k", NULL);
    tj_build_options o = {.opt_level = (tj_opt_level)9};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(k, &o, &m), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "tj_module_build: option 'opt_level': 9 is not a tj_opt_level");
    ck_assert_ptr_null(m);
    tj_device *gpu_like = tjt.cpu;
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel *kc = simple_kernel("kc", &cuda);
    tj_build_options od = {.device = gpu_like};
    ck_assert_int_eq(tj_kernel_build(kc, &od, &m), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "tj_module_build: option 'device' is the CPU, the kernels are built for "
                     "CUDA");
}
END_TEST

/* a[0] = exp(a[0]) for the GPU: a kernel that needs libdevice. */
static tj_kernel *
exp_kernel(void)
{
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", &cuda);
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *i = tj_const_int(k, TJ_DTYPE_I32, 0);
    ck_assert(tj_store(k, a, &i, 1, tj_unary(k, TJ_UN_EXP, tj_load(k, a, &i, 1))));
    return k;
}

/* A GPU kernel calling a math function needs libdevice; without it the build fails with a
 * message naming the function and where it was looked for (Check forks each test, so the
 * variable stays in this test). Everything else still builds. */
START_TEST(test_gpu_math_without_libdevice_is_a_clear_build_error)
{
    setenv("TILEJIT_LIBDEVICE", "/nonexistent/libdevice.10.bc", 1);
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(exp_kernel(), NULL, &m), TJ_ERR_UNSUPPORTED);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(tj_context_error(tjt.ctx),
                     "the kernel calls expf, which needs libdevice on the GPU, and "
                     "libdevice.10.bc was not found (at $TILEJIT_LIBDEVICE, else under "
                     "nvvm/libdevice of $CUDA_HOME, $CUDA_PATH or /usr/local/cuda)");
    tj_kernel *plain = simple_kernel("plain", &cuda);
    ck_assert_int_eq(tj_kernel_build(plain, NULL, &m), TJ_OK);
    tj_module_destroy(m);
}
END_TEST

/* A libdevice whose bitcode is damaged (here: tests/fake_libdevice.ll cut short, so its
 * header is right and its blocks end too soon) fails the build of a kernel that needs it.
 * LLVM reports such bitcode through its context's diagnostic handler, whose default prints
 * the message and exits the process; the context's own handler keeps it for the error. */
START_TEST(test_gpu_math_with_damaged_libdevice_is_a_build_error)
{
    const char *fake =
        tj_test_fake_libdevice("test_gpu_math_with_damaged_libdevice_is_a_build_error");
    FILE *in = fake ? fopen(fake, "rb") : NULL;
    if (!in)
        return;
    char bytes[4096], path[] = "/tmp/tj_libdevice_XXXXXX";
    size_t n = fread(bytes, 1, sizeof bytes, in);
    fclose(in);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, bytes, n / 2), (ssize_t)(n / 2));
    close(fd);
    setenv("TILEJIT_LIBDEVICE", path, 1);
    setenv("TILEJIT_CACHE", "0", 1);
    tj_kernel_options cuda = {.target = TJ_TARGET_CUDA};
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(exp_kernel(), NULL, &m), TJ_ERR_IO);
    ck_assert_ptr_null(m);
    const char *msg = tj_context_error(tjt.ctx);
    static const char want[] = "libdevice.10.bc is not valid bitcode: ";
    ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 && strlen(msg) > strlen(want),
                  "%s", msg);
    tj_kernel *plain = simple_kernel("plain", &cuda);
    ck_assert_int_eq(tj_kernel_build(plain, NULL, &m), TJ_OK);
    tj_module_destroy(m);
    unlink(path);
    unsetenv("TILEJIT_LIBDEVICE");
    unsetenv("TILEJIT_CACHE");
}
END_TEST

static Suite *
errors_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_loop_test(tc, test_builder_error_is_recorded_sticky_and_fails_the_build, 0,
                        NROWS(error_rows));
    tcase_add_test(tc, test_build_error_names_the_kernel_or_function);
    tcase_add_test(tc, test_only_the_first_error_is_kept);
    tcase_add_test(tc, test_null_values_are_errors_unless_an_earlier_one_is_kept);
    tcase_add_test(tc, test_null_kernel_calls_do_nothing);
    tcase_add_test(tc, test_module_rejects_kernels_of_different_targets);
    tcase_add_test(tc, test_module_rejects_kernels_of_different_cpu_modes);
    tcase_add_test(tc, test_module_rejects_two_kernels_of_one_name);
    tcase_add_test(tc, test_module_rejects_functions_and_missing_kernels);
    tcase_add_test(tc, test_names_of_200_characters_build_and_run);
    tcase_add_test(tc, test_module_build_reports_the_first_kernel_in_error);
    tcase_add_test(tc, test_module_rejects_bad_build_options);
    tcase_add_test(tc, test_gpu_math_without_libdevice_is_a_clear_build_error);
    tcase_add_test(tc, test_gpu_math_with_damaged_libdevice_is_a_build_error);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, errors_suite());
}
