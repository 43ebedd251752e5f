/* tj-test: */
/*
 * tests/check_nulls.c: a NULL tj_val passed to a builder call is an error of that call
 * (include/tilejit.h, "Errors"). One row per value argument of every public builder call
 * that takes values (or arrays of values: a NULL entry with a count above zero): the call
 * returns NULL (or false), the kernel's status is TJ_ERR_INVALID and its message names the
 * call (or builtin) and the argument; the kernel then fails to build. The same rows run
 * again on a kernel already in error, whose first error must be kept.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define I32 tjt_type(TJ_DTYPE_I32)
#define F32 tjt_type(TJ_DTYPE_F32)

/* A row: makes valid values in 'k' for every argument but one, passes NULL for that one,
 * and returns whether the call returned NULL (or false). */
typedef bool (*null_fn)(tj_kernel *k);

/* ---- shorthands ---------------------------------------------------------------------------- */

static const int four[] = {4};
static const int two_by_four[] = {2, 4};

static tj_val *
yes(tj_kernel *k)
{
    return tj_const_bool(k, true);
}

static tj_val *
vec3(tj_kernel *k)
{
    tj_val *e = cf(k, 1);
    return tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), &e, 1);
}

static const tj_type *
pair_type(void)
{
    tj_field fields[] = {{"a", I32}, {"b", F32}};
    return tj_context_new_struct_type(tjt.ctx, "pair", fields, 2);
}

/* A register (shared) tile of four float32 zeros. */
static tj_val *
tile4(tj_kernel *k)
{
    return tj_tile_zeros(k, F32, 1, four, TJ_STORAGE_REGISTER);
}

static tj_val *
shared4(tj_kernel *k)
{
    return tj_tile_zeros(k, F32, 1, four, TJ_STORAGE_SHARED);
}

/* f(a: int32, b: int32) -> int32 (a + b), or the same on float32. */
static tj_func *
add_func(const tj_type *t)
{
    tj_func *f = tj_func_create(tjt.ctx, "f", t, NULL);
    tj_val *a = tj_param(f, "a", t), *b = tj_param(f, "b", t);
    ck_assert(tj_return(f, tj_binary(f, TJ_BIN_ADD, a, b)));
    return f;
}

#define ROWFN(name) static bool name(tj_kernel *k)

/* ---- values and operators ------------------------------------------------------------------ */

ROWFN(compose_elems)
{
    tj_val *e[] = {cf(k, 1), NULL, cf(k, 3)};
    return !tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), e, 3);
}

ROWFN(compose_splat_elems)
{
    tj_val *e = NULL;
    return !tj_compose(k, tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3), &e, 1);
}

ROWFN(compose_struct_elems)
{
    tj_val *e[] = {ci(k, 1), NULL};
    return !tj_compose(k, pair_type(), e, 2);
}

ROWFN(extract_v) { return !tj_extract(k, NULL, 0); }
ROWFN(insert_v) { return !tj_insert(k, NULL, 0, cf(k, 1)); }
ROWFN(insert_x) { return !tj_insert(k, vec3(k), 0, NULL); }
ROWFN(get_field_v) { return !tj_get_field(k, NULL, "a"); }
ROWFN(set_field_v) { return !tj_set_field(k, NULL, "a", ci(k, 1)); }
ROWFN(set_field_x) { return !tj_set_field(k, tj_zero(k, pair_type()), "a", NULL); }
ROWFN(unary_a) { return !tj_unary(k, TJ_UN_NEG, NULL); }
ROWFN(binary_a) { return !tj_binary(k, TJ_BIN_ADD, NULL, ci(k, 1)); }
ROWFN(binary_b) { return !tj_binary(k, TJ_BIN_ADD, ci(k, 1), NULL); }
ROWFN(binary_a_with_tile_b) { return !tj_binary(k, TJ_BIN_MUL, NULL, tile4(k)); }
ROWFN(binary_b_with_tile_a) { return !tj_binary(k, TJ_BIN_SUB, tile4(k), NULL); }
ROWFN(compare_a) { return !tj_compare(k, TJ_CMP_LT, NULL, ci(k, 1)); }
ROWFN(compare_b) { return !tj_compare(k, TJ_CMP_LT, ci(k, 1), NULL); }
ROWFN(compare_a_with_tile_b) { return !tj_compare(k, TJ_CMP_EQ, NULL, tile4(k)); }
ROWFN(compare_b_with_tile_a) { return !tj_compare(k, TJ_CMP_GE, tile4(k), NULL); }
ROWFN(fma_a) { return !tj_fma(k, NULL, cf(k, 2), cf(k, 3)); }
ROWFN(fma_b) { return !tj_fma(k, cf(k, 1), NULL, cf(k, 3)); }
ROWFN(fma_c) { return !tj_fma(k, cf(k, 1), cf(k, 2), NULL); }
ROWFN(select_cond) { return !tj_select(k, NULL, ci(k, 1), ci(k, 2)); }
ROWFN(select_a) { return !tj_select(k, yes(k), NULL, ci(k, 2)); }
ROWFN(select_b) { return !tj_select(k, yes(k), ci(k, 1), NULL); }
ROWFN(cast_v) { return !tj_cast(k, NULL, F32); }
ROWFN(var_new_init) { return !tj_var_new(k, NULL); }
ROWFN(var_get_var) { return !tj_var_get(k, NULL); }
ROWFN(var_set_var) { return !tj_var_set(k, NULL, ci(k, 1)); }
ROWFN(var_set_value) { return !tj_var_set(k, tj_var_new(k, ci(k, 0)), NULL); }
ROWFN(tile_var_set_value) { return !tj_var_set(k, tj_var_new(k, tile4(k)), NULL); }

/* ---- arrays and calls ---------------------------------------------------------------------- */

ROWFN(shape_arr) { return !tj_shape(k, NULL, 0); }

ROWFN(load_arr)
{
    tj_val *i = ci(k, 0);
    return !tj_load(k, NULL, &i, 1);
}

ROWFN(load_idx)
{
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *i[] = {ci(k, 0), NULL};
    return !tj_load(k, a, i, 2);
}

ROWFN(store_arr)
{
    tj_val *i = ci(k, 0);
    return !tj_store(k, NULL, &i, 1, cf(k, 1));
}

ROWFN(store_idx)
{
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *i[] = {NULL, ci(k, 0)};
    return !tj_store(k, a, i, 2, cf(k, 1));
}

ROWFN(store_value)
{
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *i = ci(k, 0);
    return !tj_store(k, a, &i, 1, NULL);
}

typedef tj_val *(*atomic_fn)(tj_kernel *, tj_val *, tj_val *const *, int, tj_val *);

/* 'which' of the atomic's arguments (0 arr, 1 idx, 2 value) is NULL. */
static bool
atomic_null(tj_kernel *k, atomic_fn fn, int which)
{
    tj_val *a = tj_param_array(k, "a", I32, 1);
    tj_val *i = which == 1 ? NULL : ci(k, 0);
    return !fn(k, which == 0 ? NULL : a, &i, 1, which == 2 ? NULL : ci(k, 1));
}

ROWFN(atomic_add_arr) { return atomic_null(k, tj_atomic_add, 0); }
ROWFN(atomic_add_idx) { return atomic_null(k, tj_atomic_add, 1); }
ROWFN(atomic_add_value) { return atomic_null(k, tj_atomic_add, 2); }
ROWFN(atomic_min_arr) { return atomic_null(k, tj_atomic_min, 0); }
ROWFN(atomic_min_idx) { return atomic_null(k, tj_atomic_min, 1); }
ROWFN(atomic_min_value) { return atomic_null(k, tj_atomic_min, 2); }
ROWFN(atomic_max_arr) { return atomic_null(k, tj_atomic_max, 0); }
ROWFN(atomic_max_idx) { return atomic_null(k, tj_atomic_max, 1); }
ROWFN(atomic_max_value) { return atomic_null(k, tj_atomic_max, 2); }

ROWFN(call_args)
{
    tj_func *f = add_func(I32);
    tj_val *args[] = {ci(k, 1), NULL};
    return !tj_call(k, f, args, 2);
}

/* ---- control flow -------------------------------------------------------------------------- */

ROWFN(if_begin_cond) { return !tj_if_begin(k, NULL); }
ROWFN(for_begin_start) { return !tj_for_begin(k, NULL, ci(k, 4), ci(k, 1)); }
ROWFN(for_begin_stop) { return !tj_for_begin(k, ci(k, 0), NULL, ci(k, 1)); }
ROWFN(for_begin_step) { return !tj_for_begin(k, ci(k, 0), ci(k, 4), NULL); }

ROWFN(while_cond_cond)
{
    tj_while_begin(k);
    return !tj_while_cond(k, NULL);
}

/* In a function returning a value, NULL is "no value" (in one returning nothing it is
 * what tj_return takes), an error of the call all the same. */
ROWFN(return_value) { return !tj_return(k, NULL); }

/* ---- tiles: memory, tile/untile, views ----------------------------------------------------- */

ROWFN(tile_load_arr) { return !tj_tile_load(k, NULL, 1, four, NULL, TJ_STORAGE_REGISTER); }

ROWFN(tile_load_offset)
{
    tj_val *a = tj_param_array(k, "a", F32, 2);
    tj_val *o[] = {ci(k, 0), NULL};
    return !tj_tile_load(k, a, 2, two_by_four, o, TJ_STORAGE_REGISTER);
}

ROWFN(tile_store_arr) { return !tj_tile_store(k, NULL, tile4(k), NULL); }

ROWFN(tile_store_t)
{
    tj_val *a = tj_param_array(k, "a", F32, 1);
    return !tj_tile_store(k, a, NULL, NULL);
}

ROWFN(tile_store_offset)
{
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *o = NULL;
    return !tj_tile_store(k, a, tile4(k), &o);
}

ROWFN(tile_reshape_t) { return !tj_tile_reshape(k, NULL, 2, (const int[]){2, 2}); }
ROWFN(tile_assign_dst) { return !tj_tile_assign(k, NULL, tile4(k), NULL); }
ROWFN(tile_assign_src) { return !tj_tile_assign(k, shared4(k), NULL, NULL); }

ROWFN(tile_assign_offset)
{
    tj_val *o = NULL;
    return !tj_tile_assign(k, shared4(k), tile4(k), &o);
}

ROWFN(tile_extract_t)
{
    tj_val *i = ci(k, 0);
    return !tj_tile_extract(k, NULL, &i, 1);
}

ROWFN(tile_extract_idx)
{
    tj_val *t = tj_tile_zeros(k, F32, 2, two_by_four, TJ_STORAGE_REGISTER);
    tj_val *i[] = {ci(k, 0), NULL};
    return !tj_tile_extract(k, t, i, 2);
}

ROWFN(tile_atomic_add_arr) { return !tj_tile_atomic_add(k, NULL, tile4(k), NULL); }

ROWFN(tile_atomic_add_t)
{
    tj_val *a = tj_param_array(k, "a", F32, 1);
    return !tj_tile_atomic_add(k, a, NULL, NULL);
}

ROWFN(tile_atomic_add_offset)
{
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *o = NULL;
    return !tj_tile_atomic_add(k, a, tile4(k), &o);
}

ROWFN(tile_x) { return !tj_tile(k, NULL, false); }
ROWFN(untile_a) { return !tj_untile(k, NULL); }

ROWFN(tile_view_t)
{
    tj_view_index o = tj_view_at(ci(k, 0));
    return !tj_tile_view(k, NULL, &o, 1, NULL, 0);
}

ROWFN(tile_view_offset)
{
    tj_val *t = tj_tile_zeros(k, F32, 2, two_by_four, TJ_STORAGE_SHARED);
    tj_view_index o[] = {tj_view_slice(0, 1, TJ_SLICE_NONE), tj_view_at(NULL)};
    return !tj_tile_view(k, t, o, 2, NULL, 0);
}

/* ---- tiles: map, reductions, scatter-add, stacks ------------------------------------------- */

ROWFN(tile_map_tiles)
{
    tj_func *f = add_func(F32);
    tj_val *t[] = {tile4(k), NULL};
    return !tj_tile_map(k, f, t, 2);
}

ROWFN(tile_reduce_a) { return !tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, NULL); }
ROWFN(tile_reduce_axis_a) { return !tj_tile_reduce_axis(k, TJ_REDUCE_MAX, NULL, NULL, 0); }

/* 'which' of scatter-add's arguments (0 a, 1 idx, 2 value, 3 has_value) is NULL. */
static bool
scatter_null(tj_kernel *k, int which)
{
    tj_val *t = which == 0 ? NULL : shared4(k);
    tj_val *i = which == 1 ? NULL : ci(k, 0);
    return !tj_tile_scatter_add(k, t, &i, 1, which == 2 ? NULL : cf(k, 1),
                                which == 3 ? NULL : yes(k), NULL);
}

ROWFN(scatter_add_a) { return scatter_null(k, 0); }
ROWFN(scatter_add_idx) { return scatter_null(k, 1); }
ROWFN(scatter_add_value) { return scatter_null(k, 2); }
ROWFN(scatter_add_has_value) { return scatter_null(k, 3); }

ROWFN(stack_push_s) { return !tj_tile_stack_push(k, NULL, ci(k, 1), yes(k)); }
ROWFN(stack_push_value) { return !tj_tile_stack_push(k, tj_tile_stack(k, 4, I32), NULL, yes(k)); }

ROWFN(stack_push_has_value)
{
    return !tj_tile_stack_push(k, tj_tile_stack(k, 4, I32), ci(k, 1), NULL);
}

ROWFN(stack_pop_s)
{
    tj_val *slot = NULL;
    return !tj_tile_stack_pop(k, NULL, &slot);
}

ROWFN(stack_count_s) { return !tj_tile_stack_count(k, NULL); }
ROWFN(stack_clear_s) { return !tj_tile_stack_clear(k, NULL); }

/* ---- the table ----------------------------------------------------------------------------- */

/* The kernel a row runs in: "k" with the zero options, or a function "g" returning int32. */
enum holder { KERNEL, FUNC_I32 };

static const struct null_row {
    const char *name;
    null_fn call;
    enum holder in;
    const char *msg;
} rows[] = {
#define ROW(fn, msg) {#fn, fn, KERNEL, msg}
    /* values and operators */
    ROW(compose_elems, "tj_compose: argument 'elems' is NULL"),
    ROW(compose_splat_elems, "tj_compose: argument 'elems' is NULL"),
    ROW(compose_struct_elems, "tj_compose: argument 'elems' is NULL"),
    ROW(extract_v, "tj_extract: argument 'v' is NULL"),
    ROW(insert_v, "tj_insert: argument 'v' is NULL"),
    ROW(insert_x, "tj_insert: argument 'x' is NULL"),
    ROW(get_field_v, "tj_get_field: argument 'v' is NULL"),
    ROW(set_field_v, "tj_set_field: argument 'v' is NULL"),
    ROW(set_field_x, "tj_set_field: argument 'x' is NULL"),
    ROW(unary_a, "neg: argument 'a' is NULL"),
    ROW(binary_a, "add: argument 'a' is NULL"),
    ROW(binary_b, "add: argument 'b' is NULL"),
    ROW(binary_a_with_tile_b, "mul: argument 'a' is NULL"),
    ROW(binary_b_with_tile_a, "sub: argument 'b' is NULL"),
    ROW(compare_a, "tj_compare: argument 'a' is NULL"),
    ROW(compare_b, "tj_compare: argument 'b' is NULL"),
    ROW(compare_a_with_tile_b, "tj_compare: argument 'a' is NULL"),
    ROW(compare_b_with_tile_a, "tj_compare: argument 'b' is NULL"),
    ROW(fma_a, "fma: argument 'a' is NULL"),
    ROW(fma_b, "fma: argument 'b' is NULL"),
    ROW(fma_c, "fma: argument 'c' is NULL"),
    ROW(select_cond, "tj_select: argument 'cond' is NULL"),
    ROW(select_a, "tj_select: argument 'a' is NULL"),
    ROW(select_b, "tj_select: argument 'b' is NULL"),
    ROW(cast_v, "tj_cast: argument 'v' is NULL"),
    ROW(var_new_init, "tj_var_new: argument 'init' is NULL"),
    ROW(var_get_var, "tj_var_get: argument 'var' is NULL"),
    ROW(var_set_var, "tj_var_set: argument 'var' is NULL"),
    ROW(var_set_value, "tj_var_set: argument 'value' is NULL"),
    ROW(tile_var_set_value, "tj_var_set: argument 'value' is NULL"),
    /* arrays and calls (tj_call names the function's parameter) */
    ROW(shape_arr, "tj_shape: argument 'arr' is NULL"),
    ROW(load_arr, "tj_load: argument 'arr' is NULL"),
    ROW(load_idx, "tj_load: argument 'idx' is NULL"),
    ROW(store_arr, "tj_store: argument 'arr' is NULL"),
    ROW(store_idx, "tj_store: argument 'idx' is NULL"),
    ROW(store_value, "tj_store: argument 'value' is NULL"),
    ROW(atomic_add_arr, "tj_atomic_add: argument 'arr' is NULL"),
    ROW(atomic_add_idx, "tj_atomic_add: argument 'idx' is NULL"),
    ROW(atomic_add_value, "tj_atomic_add: argument 'value' is NULL"),
    ROW(atomic_min_arr, "tj_atomic_min: argument 'arr' is NULL"),
    ROW(atomic_min_idx, "tj_atomic_min: argument 'idx' is NULL"),
    ROW(atomic_min_value, "tj_atomic_min: argument 'value' is NULL"),
    ROW(atomic_max_arr, "tj_atomic_max: argument 'arr' is NULL"),
    ROW(atomic_max_idx, "tj_atomic_max: argument 'idx' is NULL"),
    ROW(atomic_max_value, "tj_atomic_max: argument 'value' is NULL"),
    ROW(call_args, "tj_call: argument 'b' is NULL"),
    /* control flow */
    ROW(if_begin_cond, "tj_if_begin: argument 'cond' is NULL"),
    ROW(for_begin_start, "tj_for_begin: argument 'start' is NULL"),
    ROW(for_begin_stop, "tj_for_begin: argument 'stop' is NULL"),
    ROW(for_begin_step, "tj_for_begin: argument 'step' is NULL"),
    ROW(while_cond_cond, "tj_while_cond: argument 'cond' is NULL"),
    {"return_value", return_value, FUNC_I32, "tj_return: 'g' returns int32, got no value"},
    /* tiles (builtins are named as in Warp, their arrays 'a') */
    ROW(tile_load_arr, "tile_load: argument 'a' is NULL"),
    ROW(tile_load_offset, "tile_load: argument 'offset' is NULL"),
    ROW(tile_store_arr, "tile_store: argument 'a' is NULL"),
    ROW(tile_store_t, "tile_store: argument 't' is NULL"),
    ROW(tile_store_offset, "tile_store: argument 'offset' is NULL"),
    ROW(tile_reshape_t, "tile_reshape: argument 't' is NULL"),
    ROW(tile_assign_dst, "tile_assign: argument 'dst' is NULL"),
    ROW(tile_assign_src, "tile_assign: argument 'src' is NULL"),
    ROW(tile_assign_offset, "tile_assign: argument 'offset' is NULL"),
    ROW(tile_extract_t, "tile_extract: argument 't' is NULL"),
    ROW(tile_extract_idx, "tile_extract: argument 'idx' is NULL"),
    ROW(tile_atomic_add_arr, "tile_atomic_add: argument 'a' is NULL"),
    ROW(tile_atomic_add_t, "tile_atomic_add: argument 't' is NULL"),
    ROW(tile_atomic_add_offset, "tile_atomic_add: argument 'offset' is NULL"),
    ROW(tile_x, "tile: argument 'x' is NULL"),
    ROW(untile_a, "untile: argument 'a' is NULL"),
    ROW(tile_view_t, "tile_view: argument 't' is NULL"),
    ROW(tile_view_offset, "tile_view: argument 'offset' is NULL"),
    ROW(tile_map_tiles, "tile_map: argument 'tiles' is NULL"),
    ROW(tile_reduce_a, "tile_reduce: argument 'a' is NULL"),
    ROW(tile_reduce_axis_a, "tile_reduce: argument 'a' is NULL"),
    ROW(scatter_add_a, "tile_scatter_add: argument 'a' is NULL"),
    ROW(scatter_add_idx, "tile_scatter_add: argument 'idx' is NULL"),
    ROW(scatter_add_value, "tile_scatter_add: argument 'value' is NULL"),
    ROW(scatter_add_has_value, "tile_scatter_add: argument 'has_value' is NULL"),
    ROW(stack_push_s, "tile_stack_push: argument 's' is NULL"),
    ROW(stack_push_value, "tile_stack_push: argument 'value' is NULL"),
    ROW(stack_push_has_value, "tile_stack_push: argument 'has_value' is NULL"),
    ROW(stack_pop_s, "tile_stack_pop: argument 's' is NULL"),
    ROW(stack_count_s, "tile_stack_count: argument 's' is NULL"),
    ROW(stack_clear_s, "tile_stack_clear: argument 's' is NULL"),
#undef ROW
};

static tj_kernel *
holder(enum holder in)
{
    tj_kernel *k = in == FUNC_I32 ? tj_func_create(tjt.ctx, "g", I32, NULL)
                                  : tj_kernel_create(tjt.ctx, "k", NULL);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(tj_kernel_status(k), TJ_OK);
    return k;
}

/* The NULL is an error of the call: NULL (or false) back, TJ_ERR_INVALID, the message. */
START_TEST(test_a_null_value_is_an_error_of_the_call)
{
    const struct null_row *r = &rows[_i];
    tj_kernel *k = holder(r->in);
    bool refused = r->call(k);
    ck_assert_msg(tj_kernel_status(k) == TJ_ERR_INVALID, "%s: status %s (%s)", r->name,
                  tj_status_name(tj_kernel_status(k)),
                  tj_kernel_error(k) ? tj_kernel_error(k) : "no message");
    ck_assert_msg(refused, "%s: the call did not return NULL or false", r->name);
    ck_assert_str_eq(tj_kernel_error(k), r->msg);
    if (r->in == KERNEL) {
        tj_module *m = (tj_module *)k;
        ck_assert_int_eq(tj_kernel_build(k, NULL, &m), TJ_ERR_INVALID);
        ck_assert_ptr_null(m);
        char want[256];
        snprintf(want, sizeof want, "kernel 'k': %s", r->msg);
        ck_assert_str_eq(tj_context_error(tjt.ctx), want);
        tj_kernel_destroy(k);
    } else {
        tj_func_destroy(k);
    }
}
END_TEST

/* After an earlier error the same calls do nothing: the first error is kept. */
START_TEST(test_a_null_after_an_earlier_error_keeps_it)
{
    static const char first[] = "tj_const_int: argument 'value': 300 does not fit int8";
    const struct null_row *r = &rows[_i];
    tj_kernel *k = holder(r->in);
    ck_assert_ptr_null(tj_const_int(k, TJ_DTYPE_I8, 300));
    ck_assert_msg(r->call(k), "%s: the call did not return NULL or false", r->name);
    ck_assert_int_eq(tj_kernel_status(k), TJ_ERR_INVALID);
    ck_assert_str_eq(tj_kernel_error(k), first);
    if (r->in == KERNEL)
        tj_kernel_destroy(k);
    else
        tj_func_destroy(k);
}
END_TEST

/* The NULLs the header allows stay allowed: tj_return(k, NULL) in a kernel, no offsets
 * (zeros) and no 'atomic' (true) for tile calls; the kernel builds. */
START_TEST(test_documented_nulls_are_not_errors)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, "k", NULL);
    tj_val *a = tj_param_array(k, "a", F32, 1);
    tj_val *t = tj_tile_load(k, a, 1, four, NULL, TJ_STORAGE_SHARED);
    tj_val *i = ci(k, 0);
    ck_assert(tj_tile_scatter_add(k, t, &i, 1, cf(k, 1), yes(k), NULL));
    ck_assert(tj_tile_store(k, a, t, NULL));
    ck_assert(tj_return(k, NULL));
    ck_assert_msg(tj_kernel_status(k) == TJ_OK, "%s", tj_kernel_error(k));
    tj_module_destroy(tjt_build(k));
    tj_kernel_destroy(k);
}
END_TEST

static Suite *
nulls_suite(void)
{
    Suite *s = suite_create("nulls");
    TCase *tc = tcase_create("nulls");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_loop_test(tc, test_a_null_value_is_an_error_of_the_call, 0, NROWS(rows));
    tcase_add_loop_test(tc, test_a_null_after_an_earlier_error_keeps_it, 0, NROWS(rows));
    tcase_add_test(tc, test_documented_nulls_are_not_errors);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, nulls_suite());
}
