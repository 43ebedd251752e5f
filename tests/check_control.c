/* tj-test: CUDA */
/*
 * tests/check_control.c: structured control flow against plain C references: if/else,
 * for-range, while, break, continue, early returns, variables carried across branches and
 * loops, user functions (scalars, arrays, void, nested calls, recursion, shared by two
 * kernels) and tj_select. Every kernel runs on the CPU (cpu1), is assembled by ptxas (ptx)
 * and runs on the GPU (cuda); the test's loop index picks the target.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { TIMEOUT_S = 300, N = 300, CUDA_BLOCK = 256 };
enum { ON_CPU1 = 0, ON_PTX = 1, ON_CUDA = 2 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define I32 tjt_type(TJ_DTYPE_I32)
#define I64 tjt_type(TJ_DTYPE_I64)
#define F32 tjt_type(TJ_DTYPE_F32)

/* ---- targets and shorthands ------------------------------------------------------------ */

static int g_where;
static tj_kernel_options g_opts;

static void
use_target(int where)
{
    g_where = where;
    g_opts = (tj_kernel_options){.target = where == ON_CPU1 ? TJ_TARGET_CPU : TJ_TARGET_CUDA};
}

static tj_val *
bin(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    return tj_binary(k, op, a, b);
}

static tj_val *
cmp(tj_kernel *k, tj_cmp op, tj_val *a, tj_val *b)
{
    return tj_compare(k, op, a, b);
}

/* var += delta */
static void
var_add(tj_kernel *k, tj_val *var, tj_val *delta)
{
    ck_assert(tj_var_set(k, var, bin(k, TJ_BIN_ADD, tj_var_get(k, var), delta)));
}

static void
put(tj_kernel *k, tj_val *out, tj_val *i, tj_val *v)
{
    tj_val *idx[1] = {i};
    ck_assert(tj_store(k, out, idx, 1, v));
}

static tj_val *
iabs(tj_kernel *k, tj_val *x)
{
    return tj_unary(k, TJ_UN_ABS, x);
}

static int32_t
input(int i)
{
    return (i * 37) % 211 - 105;
}

static int32_t
abs32(int32_t x)
{
    return x < 0 ? -x : x;
}

/* ---- running ------------------------------------------------------------------------------ */

static tj_device *
device(void)
{
    return g_where == ON_CUDA ? tjt_gpu() : tjt.cpu;
}

static uint32_t
block_dim(void)
{
    return g_where == ON_CUDA ? CUDA_BLOCK : 1;
}

/* Asserts that the PTX has an entry for every kernel name. */
static void
check_entries(tj_module *m, const char *const *names, int n)
{
    const char *ptx = tj_module_get_ptx(m);
    ck_assert_ptr_nonnull(ptx);
    for (int i = 0; i < n; i++) {
        char want[128];
        snprintf(want, sizeof want, ".entry %s(", names[i]);
        ck_assert_msg(strstr(ptx, want), "no '%s' in the PTX", want);
    }
}

static void
launch_1d(tj_module *m, const char *name, int64_t n, const tj_arg *args, size_t nargs)
{
    tjt_ok(device(), tj_launch(device(), m, name, 1, &n, block_dim(), args, nargs));
}

/* A kernel 'name'(out: int32[], in: int32[]) run over N threads; thread i loads x = in[i]
 * and 'body' stores out[i]. */
typedef void (*body_fn)(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i);
typedef int32_t (*ref_fn)(const int32_t *in, int n, int i);

static tj_kernel *
elementwise_kernel(const char *name, body_fn body)
{
    tj_kernel *k = tj_kernel_create(tjt.ctx, name, &g_opts);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *in = tj_param_array(k, "in", I32, 1);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    body(k, out, in, tj_load(k, in, t, 1), t[0]);
    return k;
}

static void
run_elementwise(tj_module *m, const char *name, ref_fn ref)
{
    if (g_where == ON_PTX) {
        check_entries(m, &name, 1);
        return;
    }
    int32_t in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = input(i);
    tj_array *ain = tjt_array(device(), I32, N, in);
    tj_array *aout = tjt_array(device(), I32, N, NULL);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(ain)};
    launch_1d(m, name, N, args, 2);
    tjt_ok(device(), tj_array_copy_to_host(aout, out, sizeof out));
    for (int i = 0; i < N; i++)
        ck_assert_msg(out[i] == ref(in, N, i), "%s: out[%d] = %d, expected %d (x = %d)", name,
                      i, out[i], ref(in, N, i), in[i]);
    tj_array_destroy(ain);
    tj_array_destroy(aout);
}

static void
check_elementwise(const char *name, body_fn body, ref_fn ref)
{
    tj_kernel *k = elementwise_kernel(name, body);
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s: %s", name, tj_kernel_error(k));
    tj_module *m = tjt_build(k);
    run_elementwise(m, name, ref);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}

/* ---- if/else ------------------------------------------------------------------------------ */

static void
body_if_without_else(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = tj_var_new(k, x);
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, x, ci(k, 0))));
    ck_assert(tj_var_set(k, v, bin(k, TJ_BIN_MUL, x, ci(k, 2))));
    ck_assert(tj_if_end(k));
    put(k, out, i, tj_var_get(k, v));
}

static int32_t
ref_if_without_else(const int32_t *in, int n, int i)
{
    return in[i] > 0 ? 2 * in[i] : in[i];
}

START_TEST(test_if_without_else_runs_the_branch_only_when_true)
{
    use_target(_i);
    check_elementwise("if_without_else", body_if_without_else, ref_if_without_else);
}
END_TEST

/* A variable made inside a branch outlives it (its slot is the kernel's): read after the
 * branch, it holds its value where the branch ran and zero elsewhere. */
static void
body_variable_made_in_a_branch(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, x, ci(k, 0))));
    tj_val *v = tj_var_new(k, bin(k, TJ_BIN_ADD, x, ci(k, 1)));
    ck_assert(tj_if_end(k));
    put(k, out, i, tj_var_get(k, v));
}

static int32_t
ref_variable_made_in_a_branch(const int32_t *in, int n, int i)
{
    return in[i] > 0 ? in[i] + 1 : 0;
}

START_TEST(test_variables_made_in_a_branch_outlive_it_and_hold_zero_where_it_did_not_run)
{
    use_target(_i);
    check_elementwise("variable_made_in_a_branch", body_variable_made_in_a_branch,
                      ref_variable_made_in_a_branch);
}
END_TEST

static void
body_if_else(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = tj_var_new(k, ci(k, 0));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, x, ci(k, 2)), ci(k, 0))));
    ck_assert(tj_var_set(k, v, bin(k, TJ_BIN_DIV, x, ci(k, 2))));
    ck_assert(tj_else_begin(k));
    ck_assert(tj_var_set(k, v, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, x, ci(k, 3)), ci(k, 1))));
    ck_assert(tj_if_end(k));
    put(k, out, i, tj_var_get(k, v));
}

static int32_t
ref_if_else(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    return x % 2 == 0 ? x / 2 : 3 * x + 1;
}

START_TEST(test_if_else_takes_exactly_one_branch)
{
    use_target(_i);
    check_elementwise("if_else", body_if_else, ref_if_else);
}
END_TEST

/* Three levels: sign, then zero, then size. */
static void
body_nested_if(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *r = tj_var_new(k, ci(k, 99));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_LT, x, ci(k, 0))));
    {
        ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_LT, x, ci(k, -50))));
        tj_var_set(k, r, ci(k, -2));
        ck_assert(tj_else_begin(k));
        tj_var_set(k, r, ci(k, -1));
        ck_assert(tj_if_end(k));
    }
    ck_assert(tj_else_begin(k));
    {
        ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, x, ci(k, 0))));
        tj_var_set(k, r, ci(k, 0));
        ck_assert(tj_else_begin(k));
        {
            ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, x, ci(k, 50))));
            tj_var_set(k, r, ci(k, 2));
            ck_assert(tj_else_begin(k));
            tj_var_set(k, r, ci(k, 1));
            ck_assert(tj_if_end(k));
        }
        ck_assert(tj_if_end(k));
    }
    ck_assert(tj_if_end(k));
    put(k, out, i, tj_var_get(k, r));
}

static int32_t
ref_nested_if(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    if (x < 0)
        return x < -50 ? -2 : -1;
    if (x == 0)
        return 0;
    return x > 50 ? 2 : 1;
}

START_TEST(test_nested_if_else_classifies_sign_and_size)
{
    use_target(_i);
    check_elementwise("nested_if", body_nested_if, ref_nested_if);
}
END_TEST

static void
body_empty_branches(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = tj_var_new(k, ci(k, 0));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, x, ci(k, 0)))); /* both branches empty */
    ck_assert(tj_else_begin(k));
    ck_assert(tj_if_end(k));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_LT, x, ci(k, 0)))); /* empty, no else */
    ck_assert(tj_if_end(k));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, x, ci(k, 0)))); /* empty then, full else */
    ck_assert(tj_else_begin(k));
    tj_var_set(k, v, bin(k, TJ_BIN_ADD, x, ci(k, 1)));
    ck_assert(tj_if_end(k));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_NE, x, ci(k, 7)))); /* full then, empty else */
    var_add(k, v, ci(k, 1000));
    ck_assert(tj_else_begin(k));
    ck_assert(tj_if_end(k));
    put(k, out, i, tj_var_get(k, v));
}

static int32_t
ref_empty_branches(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    return (x == 0 ? 0 : x + 1) + (x != 7 ? 1000 : 0);
}

START_TEST(test_empty_branches_change_nothing)
{
    use_target(_i);
    check_elementwise("empty_branches", body_empty_branches, ref_empty_branches);
}
END_TEST

/* ---- for-range ------------------------------------------------------------------------------ */

/* Python's range(start, stop, step) over 'dt': the kernel counts the iterations and hashes
 * the sequence (h = h * 31 + i in int64, wrapping), breaking out after CAP iterations so
 * that a wrong loop fails instead of hanging. */
enum { CAP = 1000 };

static const struct range_row {
    tj_dtype dt;
    int64_t start, stop, step;
} range_rows[] = {
    {TJ_DTYPE_I32, 0, 10, 1},
    {TJ_DTYPE_I32, 0, 10, 3},
    {TJ_DTYPE_I32, 10, 0, -1},
    {TJ_DTYPE_I32, 10, 0, -3},
    {TJ_DTYPE_I32, -7, 8, 4},
    {TJ_DTYPE_I32, 3, -9, -5},
    {TJ_DTYPE_I32, 5, 5, 1},         /* empty: start == stop */
    {TJ_DTYPE_I32, 5, 0, 2},         /* empty: counts the wrong way */
    {TJ_DTYPE_I32, 0, 5, -1},
    {TJ_DTYPE_I32, 0, 1, 100},       /* one iteration: the step passes stop */
    {TJ_DTYPE_I32, INT32_MAX - 1, INT32_MAX, 2},  /* i + step would wrap */
    {TJ_DTYPE_I32, INT32_MIN + 2, INT32_MIN, -7},
    {TJ_DTYPE_I8, -126, -128, -3},
    {TJ_DTYPE_U8, 250, 255, 2},
    {TJ_DTYPE_U16, 65530, 65535, 1},
    {TJ_DTYPE_U32, 0, 10, 3},
    {TJ_DTYPE_U32, 4000000000, 4000000009, 4},
    {TJ_DTYPE_I64, INT64_C(1) << 40, (INT64_C(1) << 40) + 7, 2},
    {TJ_DTYPE_I64, INT64_MIN + 5, INT64_MIN, -2},
    {TJ_DTYPE_I64, INT64_MAX - 10, INT64_MAX, 5},
};

__extension__ typedef __int128 wide;

static void
ref_range(const struct range_row *r, int64_t *count, int64_t *hash)
{
    uint64_t h = 0;
    int64_t c = 0;
    for (wide v = r->start; r->step > 0 ? v < r->stop : r->step < 0 && v > r->stop;
         v += r->step) {
        if (c == CAP)
            break;
        c++;
        h = h * 31u + (uint64_t)(int64_t)v;
    }
    *count = c;
    *hash = (int64_t)h;
}

/* Builds the loop over start/stop/step values and stores [count, hash] into out[0..1]. */
static void
build_range_loop(tj_kernel *k, tj_val *out, tj_val *start, tj_val *stop, tj_val *step)
{
    tj_val *count = tj_var_new(k, tj_const_int(k, TJ_DTYPE_I64, 0));
    tj_val *hash = tj_var_new(k, tj_const_int(k, TJ_DTYPE_I64, 0));
    tj_val *i = tj_for_begin(k, start, stop, step);
    ck_assert_msg(i, "tj_for_begin: %s", tj_kernel_error(k));
    ck_assert_ptr_eq(tj_val_get_type(i), tj_val_get_type(start));
    tj_val *c = tj_var_get(k, count);
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, c, tj_const_int(k, TJ_DTYPE_I64, CAP))));
    ck_assert(tj_break(k));
    ck_assert(tj_if_end(k));
    tj_var_set(k, count, bin(k, TJ_BIN_ADD, c, tj_const_int(k, TJ_DTYPE_I64, 1)));
    tj_val *h = bin(k, TJ_BIN_MUL, tj_var_get(k, hash), tj_const_int(k, TJ_DTYPE_I64, 31));
    tj_var_set(k, hash, bin(k, TJ_BIN_ADD, h, tj_cast(k, i, I64)));
    ck_assert(tj_for_end(k));
    put(k, out, ci(k, 0), tj_var_get(k, count));
    put(k, out, ci(k, 1), tj_var_get(k, hash));
}

static void
check_range_result(tj_module *m, const char *name, const struct range_row *r,
                   const tj_arg *extra, size_t nextra)
{
    if (g_where == ON_PTX) {
        check_entries(m, &name, 1);
        return;
    }
    tj_array *out = tjt_array(device(), I64, 2, NULL);
    tj_arg args[4] = {tj_arg_array(out)};
    for (size_t a = 0; a < nextra; a++)
        args[1 + a] = extra[a];
    launch_1d(m, name, 1, args, 1 + nextra);
    int64_t got[2], count, hash;
    tjt_ok(device(), tj_array_copy_to_host(out, got, sizeof got));
    ref_range(r, &count, &hash);
    ck_assert_msg(got[0] == count && got[1] == hash,
                  "range(%lld, %lld, %lld) over %s: %lld iterations (hash %lld), expected %lld "
                  "(hash %lld)",
                  (long long)r->start, (long long)r->stop, (long long)r->step,
                  tj_type_get_name(tjt_type(r->dt)), (long long)got[0], (long long)got[1],
                  (long long)count, (long long)hash);
}

START_TEST(test_for_range_with_constant_bounds_matches_python_range)
{
    const struct range_row *r = &range_rows[_i % NROWS(range_rows)];
    use_target(_i / NROWS(range_rows));
    tj_kernel *k = tj_kernel_create(tjt.ctx, "range_const", &g_opts);
    tj_val *out = tj_param_array(k, "out", I64, 1);
    build_range_loop(k, out, tj_const_int(k, r->dt, r->start), tj_const_int(k, r->dt, r->stop),
                     tj_const_int(k, r->dt, r->step));
    tj_module *m = tjt_build(k);
    check_range_result(m, "range_const", r, NULL, 0);
}
END_TEST

START_TEST(test_for_range_with_runtime_bounds_matches_python_range)
{
    const struct range_row *r = &range_rows[_i % NROWS(range_rows)];
    use_target(_i / NROWS(range_rows));
    const tj_type *t = tjt_type(r->dt);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "range_runtime", &g_opts);
    tj_val *out = tj_param_array(k, "out", I64, 1);
    tj_val *start = tj_param(k, "start", t);
    tj_val *stop = tj_param(k, "stop", t);
    tj_val *step = tj_param(k, "step", t);
    build_range_loop(k, out, start, stop, step);
    tj_module *m = tjt_build(k);
    tj_arg extra[] = {tj_arg_int(r->start), tj_arg_int(r->stop), tj_arg_int(r->step)};
    check_range_result(m, "range_runtime", r, extra, 3);
}
END_TEST

START_TEST(test_for_range_runtime_step_zero_runs_no_iteration)
{
    static const struct range_row zero_rows[] = {
        {TJ_DTYPE_I32, 0, 10, 0}, {TJ_DTYPE_I32, 10, 0, 0}, {TJ_DTYPE_I32, 3, 3, 0},
        {TJ_DTYPE_U32, 0, 10, 0}, {TJ_DTYPE_I64, -5, 5, 0},
    };
    use_target(_i);
    for (int row = 0; row < NROWS(zero_rows); row++) {
        const struct range_row *r = &zero_rows[row];
        tj_kernel *k = tj_kernel_create(tjt.ctx, "range_step0", &g_opts);
        tj_val *out = tj_param_array(k, "out", I64, 1);
        tj_val *start = tj_param(k, "start", tjt_type(r->dt));
        tj_val *stop = tj_param(k, "stop", tjt_type(r->dt));
        tj_val *step = tj_param(k, "step", tjt_type(r->dt));
        build_range_loop(k, out, start, stop, step);
        tj_module *m = tjt_build(k);
        tj_arg extra[] = {tj_arg_int(r->start), tj_arg_int(r->stop), tj_arg_int(0)};
        check_range_result(m, "range_step0", r, extra, 3);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

START_TEST(test_for_range_negative_step_counts_down)
{
    use_target(_i);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "count_down", &g_opts);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *slot = tj_var_new(k, ci(k, 0));
    tj_val *j = tj_for_begin(k, ci(k, 9), ci(k, -6), ci(k, -2));
    tj_val *s = tj_var_get(k, slot);
    put(k, out, s, j);
    tj_var_set(k, slot, bin(k, TJ_BIN_ADD, s, ci(k, 1)));
    ck_assert(tj_for_end(k));
    put(k, out, ci(k, 8), tj_var_get(k, slot));
    tj_module *m = tjt_build(k);
    if (g_where == ON_PTX)
        return;
    tj_array *a = tjt_array(device(), I32, 9, NULL);
    tj_arg arg = tj_arg_array(a);
    launch_1d(m, "count_down", 1, &arg, 1);
    int32_t got[9];
    tjt_ok(device(), tj_array_copy_to_host(a, got, sizeof got));
    static const int32_t want[9] = {9, 7, 5, 3, 1, -1, -3, -5, 8};
    for (int n = 0; n < 9; n++)
        ck_assert_msg(got[n] == want[n], "out[%d] = %d, expected %d", n, got[n], want[n]);
}
END_TEST

/* ---- while ------------------------------------------------------------------------------- */

/* The number of Collatz steps from |x| + 1 down to 1. */
static void
body_while_collatz(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = tj_var_new(k, bin(k, TJ_BIN_ADD, iabs(k, x), ci(k, 1)));
    tj_val *steps = tj_var_new(k, ci(k, 0));
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, cmp(k, TJ_CMP_NE, tj_var_get(k, v), ci(k, 1))));
    tj_val *cur = tj_var_get(k, v);
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, cur, ci(k, 2)), ci(k, 0))));
    tj_var_set(k, v, bin(k, TJ_BIN_DIV, cur, ci(k, 2)));
    ck_assert(tj_else_begin(k));
    tj_var_set(k, v, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, cur, ci(k, 3)), ci(k, 1)));
    ck_assert(tj_if_end(k));
    var_add(k, steps, ci(k, 1));
    ck_assert(tj_while_end(k));
    put(k, out, i, tj_var_get(k, steps));
}

static int32_t
ref_while_collatz(const int32_t *in, int n, int i)
{
    int32_t v = abs32(in[i]) + 1, steps = 0;
    while (v != 1) {
        v = v % 2 == 0 ? v / 2 : 3 * v + 1;
        steps++;
    }
    return steps;
}

/* ---- range checks: loops versioned on them (jit/loop_version.c) ----------------------------- */

/* for j in range(start, stop, step): out[slot] = (base + c * j + 7 <op> n); slot += 1.
 * On the CPU the loop is copied with the test made true, entered when a test before the
 * loop shows that it holds throughout; the rows below hold throughout, in part, not at
 * all, and wrap 32 bits (where the ends alone would say it holds). */
struct check_row {
    tj_dtype dt;
    tj_cmp op;
    int32_t c, step;
    int64_t base, n, start, stop;
};

static const struct check_row check_rows[] = {
    {TJ_DTYPE_I32, TJ_CMP_LT, 1, 1, 0, 100, 0, 64},               /* holds throughout */
    {TJ_DTYPE_I32, TJ_CMP_LT, 1, 1, 40, 100, 0, 64},              /* holds for 53 */
    {TJ_DTYPE_I32, TJ_CMP_GT, 1, 1, INT32_MAX - 12, 0, 0, 10},    /* wraps after 5 */
    {TJ_DTYPE_I32, TJ_CMP_GE, 1, -3, 0, -20, 30, -30},            /* counts down */
    {TJ_DTYPE_I32, TJ_CMP_GE, 1, -3, 0, -30, 30, -30},            /* down, throughout */
    {TJ_DTYPE_I32, TJ_CMP_LE, -2, 2, 50, 20, 0, 40},              /* base - 2 j */
    {TJ_DTYPE_I32, TJ_CMP_LE, -2, 2, 50, 60, 0, 40},              /* base - 2 j, throughout */
    {TJ_DTYPE_U32, TJ_CMP_GT, 1, 1, UINT32_MAX - 20, 5, 0, 32},   /* unsigned, wraps */
    {TJ_DTYPE_U32, TJ_CMP_LT, 1, 1, 100, 1000, 0, 32},            /* unsigned, throughout */
    {TJ_DTYPE_I32, TJ_CMP_LT, 1, 1, 0, 100, 10, 5},               /* runs no iteration */
    {TJ_DTYPE_I32, TJ_CMP_LT, 1, 1, INT32_MAX - 3, INT32_MAX, -20, -10}, /* I = base + 7
                                                                      does not fit 32 bits */
};

/* Whether the kernel's IR so far holds a copy of a loop (jit/loop_version.c). */
static bool
has_loop_copy(tj_kernel *k)
{
    const char *ir = tj_kernel_get_ir(k);
    ck_assert_ptr_nonnull(ir);
    return strstr(ir, "loop.copy") != NULL;
}

static tj_kernel *
check_loop_kernel(const struct check_row *r)
{
    const tj_type *t = tjt_type(r->dt);
    tj_kernel *k = tj_kernel_create(tjt.ctx, "range_check", &g_opts);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *base = tj_param(k, "base", t);
    tj_val *n = tj_param(k, "n", t);
    tj_val *start = tj_param(k, "start", t);
    tj_val *stop = tj_param(k, "stop", t);
    tj_val *slot = tj_var_new(k, ci(k, 0));
    tj_val *j = tj_for_begin(k, start, stop, tj_const_int(k, r->dt, r->step));
    tj_val *cj = bin(k, TJ_BIN_MUL, tj_const_int(k, r->dt, r->c < 0 ? -r->c : r->c), j);
    tj_val *i = bin(k, r->c < 0 ? TJ_BIN_SUB : TJ_BIN_ADD, base, cj);
    i = bin(k, TJ_BIN_ADD, i, tj_const_int(k, r->dt, 7));
    tj_val *s = tj_var_get(k, slot);
    put(k, out, s, tj_select(k, cmp(k, r->op, i, n), ci(k, 1), ci(k, 0)));
    tj_var_set(k, slot, bin(k, TJ_BIN_ADD, s, ci(k, 1)));
    ck_assert(tj_for_end(k));
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    return k;
}

/* Each of a row's 'n' iterations gave what C did. */
static void
check_iterations(const int32_t *got, const int32_t *want, int n, int row)
{
    for (int s = 0; s < n; s++)
        ck_assert_msg(got[s] == want[s], "row %d: iteration %d gave %d, expected %d", row, s,
                      got[s], want[s]);
}

/* The test in C, with the kernel's 32-bit wrapping arithmetic. */
static int32_t
check_ref(const struct check_row *r, int64_t j)
{
    uint32_t i = (uint32_t)r->base + (uint32_t)r->c * (uint32_t)j + 7u;
    bool sg = r->dt == TJ_DTYPE_I32;
    int64_t x = sg ? (int64_t)(int32_t)i : (int64_t)i;
    switch (r->op) {
    case TJ_CMP_LT: return x < r->n;
    case TJ_CMP_LE: return x <= r->n;
    case TJ_CMP_GT: return x > r->n;
    default: return x >= r->n;
    }
}

START_TEST(test_loops_with_range_checks_match_c_where_the_check_holds_in_part_or_wraps)
{
    const struct check_row *r = &check_rows[_i % NROWS(check_rows)];
    use_target(_i / NROWS(check_rows));
    tj_kernel *k = check_loop_kernel(r);
    /* Copied everywhere: on the CPU with the test made true, on the GPU for the unit stride
     * of 'out' alone (a test of the lane's own index is not the block's), so that both of
     * its copies still compare with n. */
    ck_assert_msg(has_loop_copy(k), "the loop was not copied");
    ck_assert_int_eq(tjt_occurrences(tj_kernel_get_ir(k), ", %n\n"), g_where == ON_CPU1 ? 1 : 2);
    tj_module *m = tjt_build(k);
    if (g_where != ON_PTX) {
        enum { MAX = 64 };
        int32_t got[MAX], want[MAX];
        int nw = 0;
        for (int64_t j = r->start; r->step > 0 ? j < r->stop : j > r->stop; j += r->step)
            want[nw++] = check_ref(r, j);
        ck_assert_int_le(nw, MAX);
        tj_array *a = tjt_array(device(), I32, MAX, NULL);
        tj_arg args[] = {tj_arg_array(a), tj_arg_int(r->base), tj_arg_int(r->n),
                         tj_arg_int(r->start), tj_arg_int(r->stop)};
        launch_1d(m, "range_check", 1, args, 5);
        tjt_ok(device(), tj_array_copy_to_host(a, got, sizeof got));
        check_iterations(got, want, nw, _i % NROWS(check_rows));
        tj_array_destroy(a);
    }
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* Many runs of each kind of check against C: values near the ends of the type for the
 * base, the bound and the range, random trip counts up to 40, every predicate, positive and
 * negative coefficients and steps (up only for uint32, as tj_for_begin counts). */
static int64_t
near_end(uint64_t *seed, bool sg)
{
    static const int64_t ends_s[] = {INT32_MIN, -1000, 0, 1000, INT32_MAX};
    static const int64_t ends_u[] = {0, 1000, INT32_MAX, (int64_t)UINT32_MAX - 1000, UINT32_MAX};
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*seed >> 33);
    int64_t v = (sg ? ends_s : ends_u)[r % 5] + (int64_t)(r >> 8) % 121 - 60;
    int64_t lo = sg ? INT32_MIN : 0, hi = sg ? INT32_MAX : UINT32_MAX;
    return v < lo ? lo : v > hi ? hi : v;
}

START_TEST(test_loops_with_range_checks_match_c_near_the_ends_of_the_type)
{
    static const tj_cmp ops[] = {TJ_CMP_LT, TJ_CMP_LE, TJ_CMP_GT, TJ_CMP_GE};
    static const int32_t coefs[] = {1, -1, 3, -2};
    static const int32_t steps[] = {1, 2, -1, -3};
    use_target(ON_CPU1);
    uint64_t seed = 12345;
    int copied = 0, runs = 0, throughout = 0;
    for (int sgi = 0; sgi < 2; sgi++)
        for (int o = 0; o < NROWS(ops); o++)
            for (int ci_ = 0; ci_ < NROWS(coefs); ci_++)
                for (int si = 0; si < (sgi ? 4 : 2); si++) {
                    bool sg = sgi == 1;
                    struct check_row r = {sg ? TJ_DTYPE_I32 : TJ_DTYPE_U32, ops[o], coefs[ci_],
                                          steps[si], 0, 0, 0, 0};
                    tj_kernel *k = check_loop_kernel(&r);
                    copied += has_loop_copy(k);
                    tj_module *m = tjt_build(k);
                    tj_array *a = tjt_array(tjt.cpu, I32, 64, NULL);
                    for (int run = 0; run < 24; run++, runs++) {
                        r.base = near_end(&seed, sg);
                        r.n = near_end(&seed, sg);
                        r.start = near_end(&seed, sg);
                        int64_t trips = (int64_t)(seed >> 40) % 41;
                        int64_t lo = sg ? INT32_MIN : 0, hi = sg ? INT32_MAX : UINT32_MAX;
                        r.stop = r.start + trips * r.step;
                        r.stop = r.stop < lo ? lo : r.stop > hi ? hi : r.stop;
                        int32_t got[64], want[64];
                        int nw = 0, held = 0;
                        for (int64_t j = r.start; r.step > 0 ? j < r.stop : j > r.stop;
                             j += r.step) {
                            want[nw++] = check_ref(&r, j);
                            int64_t x = r.base + (int64_t)r.c * j + 7;
                            held += want[nw - 1] && x >= lo && x <= hi;
                        }
                        throughout += nw > 0 && held == nw;
                        tj_arg args[] = {tj_arg_array(a), tj_arg_int(r.base), tj_arg_int(r.n),
                                         tj_arg_int(r.start), tj_arg_int(r.stop)};
                        int64_t one = 1;
                        tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "range_check", 1, &one, 1, args, 5));
                        tjt_ok(tjt.cpu, tj_array_copy_to_host(a, got, sizeof got));
                        for (int e = 0; e < nw; e++)
                            ck_assert_msg(got[e] == want[e],
                                          "%s op %d c %d step %d base %lld n %lld range "
                                          "[%lld, %lld): iteration %d gave %d, expected %d",
                                          sg ? "int32" : "uint32", (int)r.op, r.c, r.step,
                                          (long long)r.base, (long long)r.n,
                                          (long long)r.start, (long long)r.stop, e, got[e],
                                          want[e]);
                    }
                    tj_array_destroy(a);
                    tj_module_destroy(m);
                    tj_kernel_destroy(k);
                }
    ck_assert_int_eq(copied, 4 * 4 * 2 + 4 * 4 * 4); /* every kind is a range check */
    /* Runs where the check holds on every iteration without wrapping (the copy's) and runs
     * where it does not (the original's) both come up often. */
    ck_assert_msg(throughout > runs / 5 && throughout < runs * 4 / 5, "%d of %d runs hold",
                  throughout, runs);
}
END_TEST

/* A loop stepping by more than one tests its range over the js it takes: up to start +
 * (stop - 1 - start) / step * step, not stop - 1 (so that a lane's column of a block's last
 * tile, j stepping by block_dim, passes its test), computed with a division by the step's
 * magnitude, which a unit step does without; the results stay C's at the end (j = 8, the
 * last of range(0, 10, 4), where stop - 1 = 9 would fail the test i = j + 7 < 16). */
START_TEST(test_strided_loops_test_their_range_at_their_last_iteration)
{
    static const int32_t steps[] = {4, -3, 1, -1};
    use_target(ON_CPU1);
    for (int si = 0; si < NROWS(steps); si++) {
        struct check_row r = {TJ_DTYPE_I32, TJ_CMP_LT, 1, steps[si], 0, 16, 0, 10};
        if (r.step < 0)
            r = (struct check_row){TJ_DTYPE_I32, TJ_CMP_LT, 1, steps[si], 0, 16, 8, -2};
        tj_kernel *k = check_loop_kernel(&r);
        const char *ir = tj_kernel_get_ir(k);
        bool strided = r.step != 1 && r.step != -1;
        ck_assert_msg((strstr(ir, "sdiv i64 %") != NULL) == strided, "step %d: %s division", r.step,
                      strided ? "no" : "a");
        tj_module *m = tjt_build(k);
        tj_array *a = tjt_array(tjt.cpu, I32, 16, NULL);
        tj_arg args[] = {tj_arg_array(a), tj_arg_int(r.base), tj_arg_int(r.n),
                         tj_arg_int(r.start), tj_arg_int(r.stop)};
        int64_t one = 1;
        tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "range_check", 1, &one, 1, args, 5));
        int32_t got[16];
        tjt_ok(tjt.cpu, tj_array_copy_to_host(a, got, sizeof got));
        int e = 0;
        for (int64_t j = r.start; r.step > 0 ? j < r.stop : j > r.stop; j += r.step, e++)
            ck_assert_msg(got[e] == check_ref(&r, j), "step %d, j %lld: %d", r.step,
                          (long long)j, got[e]);
        tj_array_destroy(a);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* Cooperative lanes choose their copy each: with i = base + j + lane, lane 0's test holds
 * throughout and the other lanes' only in part. out[4 j + lane] = (i < n). */
START_TEST(test_cooperative_lanes_each_take_the_loop_copy_their_range_allows)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .cpu_mode = TJ_CPU_COOPERATIVE,
                           .block_dim = 4};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "lanes", &o);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *base = tj_param(k, "base", I32);
    tj_val *n = tj_param(k, "n", I32);
    tj_val *t[1];
    ck_assert(tj_tid(k, 1, t));
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 40), ci(k, 1));
    tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, base, j), t[0]);
    put(k, out, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, j, ci(k, 4)), t[0]),
        tj_select(k, cmp(k, TJ_CMP_LT, i, n), ci(k, 1), ci(k, 0)));
    ck_assert(tj_for_end(k));
    ck_assert(has_loop_copy(k));
    tj_module *m = tjt_build(k);
    tj_array *a = tjt_array(tjt.cpu, I32, 160, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_int(1000), tj_arg_int(1040)};
    int64_t lanes = 4;
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "lanes", 1, &lanes, 4, args, 3));
    int32_t got[160];
    tjt_ok(tjt.cpu, tj_array_copy_to_host(a, got, sizeof got));
    for (int jj = 0; jj < 40; jj++)
        for (int lane = 0; lane < 4; lane++)
            ck_assert_msg(got[4 * jj + lane] == (1000 + jj + lane < 1040),
                          "j %d lane %d: %d", jj, lane, got[4 * jj + lane]);
    tj_array_destroy(a);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* for j in range(0, 64, 16): i = 64 blk + j + lane; has = i < n; v = x[has ? i : 0];
 * if has: y[i] = 2 v, in cooperative blocks of 16 lanes with tid() = (blk, lane). */
static tj_kernel *
lane_range_kernel(void)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .cpu_mode = TJ_CPU_COOPERATIVE,
                           .block_dim = 16};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "lane_range", &o);
    tj_val *x = tj_param_array(k, "x", F32, 1);
    tj_val *y = tj_param_array(k, "y", F32, 1);
    tj_val *n = tj_param(k, "n", I32);
    tj_val *t[2];
    ck_assert(tj_tid(k, 2, t));
    tj_val *base = bin(k, TJ_BIN_MUL, t[0], ci(k, 64));
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 64), tj_block_dim(k));
    tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, base, j), t[1]);
    tj_val *has = cmp(k, TJ_CMP_LT, i, n);
    tj_val *at = tj_select(k, has, i, ci(k, 0));
    tj_val *v = tj_load(k, x, &at, 1);
    tj_if_begin(k, has);
    put(k, y, i, bin(k, TJ_BIN_MUL, v, tj_const_float(k, TJ_DTYPE_F32, 2.0)));
    tj_if_end(k);
    ck_assert(tj_for_end(k));
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    return k;
}

/* Runs lane_range over 160 elements, n of them in range: 'dims' of a tiled launch (ndim 1,
 * blocks) or of a plain one (ndim 2), and checks y = 2 x below n, untouched above. */
static void
run_lane_range(tj_module *m, int ndim, const int64_t *dims, int32_t n)
{
    enum { N = 160 };
    float xs[N], ys[N];
    for (int e = 0; e < N; e++)
        xs[e] = (float)(e * 3 + 1);
    tj_array *x = tjt_array(tjt.cpu, F32, N, xs);
    for (int e = 0; e < N; e++)
        ys[e] = -1.0f;
    tj_array *y = tjt_array(tjt.cpu, F32, N, ys);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(y), tj_arg_int(n)};
    tjt_ok(tjt.cpu, ndim == 1 ? tj_launch_tiled(tjt.cpu, m, "lane_range", 1, dims, 16, args, 3)
                              : tj_launch(tjt.cpu, m, "lane_range", 2, dims, 16, args, 3));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(y, ys, sizeof ys));
    for (int e = 0; e < N; e++)
        ck_assert_msg(ys[e] == (e < n ? 2.0f * xs[e] : -1.0f), "%s launch, n %d: y[%d] = %g",
                      ndim == 1 ? "tiled" : "plain", n, e, (double)ys[e]);
    tj_array_destroy(x);
    tj_array_destroy(y);
}

/* With tid()'s lane in the index, each lane's test of the loop's range is its own, and the
 * loops over a block's lanes ran both copies under masks (gathers, or no vector code at
 * all). Under a tiled launch the lane is below block_dim, so the test is made over the
 * block's lanes, the same in each: the lanes' loops split on it and the copy without the
 * tests is vectorised. A plain launch's tid() may give lanes past block_dim (here 40 a
 * row), which still test their own range (n = 140: every lane below 16 of block 1 holds
 * throughout, its lanes from 28 do not). */
START_TEST(test_cooperative_range_checks_on_the_lane_hold_for_the_whole_block_when_tiled)
{
    tj_kernel *k = lane_range_kernel();
    ck_assert(has_loop_copy(k));
    tj_build_options bo = {.device = tjt.cpu, .keep_ir = true};
    tj_module *m = NULL;
    tjt_ok(tjt.cpu, tj_kernel_build(k, &bo, &m));
    const char *ir = tj_module_get_ir(m);
    ck_assert_ptr_nonnull(ir);
    ck_assert_msg(strstr(ir, " x float>, ptr") != NULL, "no vector load of x or store of y");
    int64_t blocks = 3;
    run_lane_range(m, 1, &blocks, 160);
    run_lane_range(m, 1, &blocks, 150);
    run_lane_range(m, 1, &blocks, 5);
    int64_t dims[2] = {2, 40};
    run_lane_range(m, 2, dims, 140);
    run_lane_range(m, 2, dims, 100);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* Not copied: a loop without such a test, one with a test on a value it loads, one a
 * tj_return leaves, and one whose index is j doubled eleven times (a tree of 2048 leaves
 * over 11 values: its test before the loop would copy the tree for each of its checks). */
START_TEST(test_loops_without_range_checks_or_with_a_return_are_not_copied)
{
    use_target(ON_CPU1);
    for (int which = 0; which < 4; which++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "not_copied", &g_opts);
        tj_val *out = tj_param_array(k, "out", I32, 1);
        tj_val *n = tj_param(k, "n", I32);
        tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 8), ci(k, 1));
        tj_val *v = which == 1 ? tj_load(k, out, &j, 1) : j;
        for (int d = 0; which == 3 && d < 11; d++)
            v = bin(k, TJ_BIN_ADD, v, v);
        for (int c = 0; which == 3 && c < 15; c++)
            put(k, out, ci(k, c), tj_select(k, cmp(k, TJ_CMP_LT, v, bin(k, TJ_BIN_ADD, n,
                                                                          ci(k, c))),
                                           ci(k, 1), ci(k, 0)));
        if (which == 2) {
            ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, tj_load(k, out, &j, 1), ci(k, 3))));
            ck_assert(tj_return(k, NULL));
            ck_assert(tj_if_end(k));
        }
        tj_val *flag = which == 0 ? ci(k, 1) : tj_select(k, cmp(k, TJ_CMP_LT, v, n), ci(k, 1),
                                                         ci(k, 0));
        put(k, out, j, flag);
        ck_assert(tj_for_end(k));
        ck_assert_msg(!has_loop_copy(k), "loop %d was copied", which);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* A while loop that indexes an array is copied (CPU and GPU) with the array's stride the element
 * size, entered when the array's stride is that (the copy stores contiguously: compaction's
 * drain vectorises instead of scattering); one that indexes no array is not. Both count down
 * from n: out[i] = 3 i + 1 for i < n, and a variable sums i. */
START_TEST(test_while_loops_indexing_arrays_are_copied_for_unit_strides)
{
    use_target(_i);
    for (int stores = 0; stores < 2; stores++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "drain", &g_opts);
        tj_val *out = tj_param_array(k, "out", I32, 1);
        tj_val *n = tj_param(k, "n", I32);
        tj_val *i = tj_var_new(k, n);
        tj_val *sum = tj_var_new(k, ci(k, 0));
        ck_assert(tj_while_begin(k));
        ck_assert(tj_while_cond(k, cmp(k, TJ_CMP_GT, tj_var_get(k, i), ci(k, 0))));
        tj_val *at = bin(k, TJ_BIN_SUB, tj_var_get(k, i), ci(k, 1));
        ck_assert(tj_var_set(k, i, at));
        var_add(k, sum, at);
        if (stores)
            put(k, out, at, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_MUL, at, ci(k, 3)), ci(k, 1)));
        ck_assert(tj_while_end(k));
        put(k, out, n, tj_var_get(k, sum));
        bool copied = has_loop_copy(k);
        /* The sum's store after the loop indexes 'out' outside it: only 'stores' copies. */
        ck_assert_msg(copied == stores, "stores %d: copied %d", stores, copied);
        tj_module *m = tjt_build(k);
        if (g_where != ON_PTX) {
            enum { M = 37 };
            tj_array *a = tjt_array(device(), I32, M + 1, NULL);
            tj_arg args[] = {tj_arg_array(a), tj_arg_int(M)};
            launch_1d(m, "drain", 1, args, 2);
            int32_t got[M + 1];
            tjt_ok(device(), tj_array_copy_to_host(a, got, sizeof got));
            for (int e = 0; e < M; e++)
                ck_assert_int_eq(got[e], stores ? 3 * e + 1 : 0);
            ck_assert_int_eq(got[M], M * (M - 1) / 2);
            tj_array_destroy(a);
        }
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* On the GPU a for loop that indexes an array is copied for its unit stride unless it calls
 * something (a function or a cooperative builtin may hold barriers, votes or shuffles, which
 * must not be copied into two paths) or is long (over 500 instructions: a GPU build's time
 * counts). out[j] = j, 2 j + 1 (a function), j + the sum of a register tile of four ones (a
 * reduce) or j after 300 adds and subtractions of 1, for j < 8; the CPU copies none of
 * them (no range check in them). */
START_TEST(test_gpu_loops_are_copied_for_unit_strides_unless_they_call_or_are_long)
{
    use_target(_i);
    tj_func *f = tj_func_create(tjt.ctx, "odd", I32, &g_opts);
    tj_val *a = tj_param(f, "a", I32);
    ck_assert(tj_return(f, bin(f, TJ_BIN_ADD, bin(f, TJ_BIN_MUL, a, ci(f, 2)), ci(f, 1))));
    for (int form = 0; form < 4; form++) {
        tj_kernel *k = tj_kernel_create(tjt.ctx, "unit", &g_opts);
        tj_val *out = tj_param_array(k, "out", I32, 1);
        tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 8), ci(k, 1));
        tj_val *v = j;
        if (form == 1) {
            v = tj_call(k, f, &j, 1);
        } else if (form == 2) {
            int four = 4;
            tj_val *zero = ci(k, 0);
            tj_val *ones = tj_tile_ones(k, I32, 1, &four, TJ_STORAGE_REGISTER);
            tj_val *sum = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, ones);
            v = bin(k, TJ_BIN_ADD, j, tj_tile_extract(k, sum, &zero, 1));
        } else if (form == 3) {
            tj_val *t = tj_var_new(k, j);
            for (int step = 0; step < 300; step++)
                tj_var_set(k, t, bin(k, step % 2 ? TJ_BIN_SUB : TJ_BIN_ADD, tj_var_get(k, t),
                                     ci(k, 1)));
            v = tj_var_get(k, t);
        }
        put(k, out, j, v);
        ck_assert(tj_for_end(k));
        ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
        ck_assert_msg(has_loop_copy(k) == (form == 0 && g_where != ON_CPU1), "form %d: copied %d",
                      form, has_loop_copy(k));
        tj_module *m = tjt_build(k);
        if (g_where != ON_PTX) {
            tj_array *arr = tjt_array(device(), I32, 8, NULL);
            tj_arg args[] = {tj_arg_array(arr)};
            launch_1d(m, "unit", block_dim(), args, 1);
            int32_t got[8];
            tjt_ok(device(), tj_array_copy_to_host(arr, got, sizeof got));
            for (int e = 0; e < 8; e++)
                ck_assert_int_eq(got[e], form == 1 ? 2 * e + 1 : form == 2 ? e + 4 : e);
            tj_array_destroy(arr);
        }
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
    tj_func_destroy(f);
}
END_TEST

START_TEST(test_while_loop_runs_until_its_condition_fails)
{
    use_target(_i);
    check_elementwise("while_collatz", body_while_collatz, ref_while_collatz);
}
END_TEST

static void
body_while_false(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = tj_var_new(k, x);
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, cmp(k, TJ_CMP_GT, tj_var_get(k, v), ci(k, 1000))));
    var_add(k, v, ci(k, 1));
    ck_assert(tj_while_end(k));
    put(k, out, i, tj_var_get(k, v));
}

static int32_t
ref_identity(const int32_t *in, int n, int i)
{
    return in[i];
}

/* GPU loop copies compute the indices of their array accesses in 64 bits when the 32-bit
 * index cannot wrap over the loop's range (jit/loop_version.c, find_wides): in[i] and
 * in[i + 8] then share one address, 32 bytes apart. Indices whose exact sum leaves the
 * 32-bit range (a + b + c = 2^32 or -2^32, which wraps to 0) must take the original loop,
 * where the wrapping arithmetic reads in[j]. */
static const struct wide_row {
    int32_t start, stop, step, coef, a, b, c;
} wide_rows[] = {
    {0, 8, 1, 1, 1, 2, 3},                       /* fits */
    {0, 8, 1, 1, INT32_MAX, INT32_MAX, 2},       /* 2^32 + j: wraps to j */
    {0, 8, 1, 1, INT32_MIN, INT32_MIN, 0},       /* -2^32 + j: wraps to j */
    {7, -1, -1, -1, 10, 0, 0},                   /* counts down, 10 - j */
    {0, 16, 2, 1, 1, 0, 0},                      /* steps by 2 */
    {0, 8, 1, 3, 0, 0, 1},                       /* 3 j + 1 */
};

START_TEST(test_gpu_loop_copies_index_in_64_bits_where_the_index_cannot_wrap)
{
    const struct wide_row *r = &wide_rows[_i % NROWS(wide_rows)];
    use_target(_i / NROWS(wide_rows));
    tj_kernel *k = tj_kernel_create(tjt.ctx, "wide", &g_opts);
    tj_val *out = tj_param_array(k, "out", I32, 1);
    tj_val *in = tj_param_array(k, "in", I32, 1);
    tj_val *a = tj_param(k, "a", I32), *b = tj_param(k, "b", I32), *c = tj_param(k, "c", I32);
    tj_val *slot = tj_var_new(k, ci(k, 0));
    tj_val *j = tj_for_begin(k, ci(k, r->start), ci(k, r->stop), ci(k, r->step));
    tj_val *i = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, a, b), c),
                    bin(k, TJ_BIN_MUL, ci(k, r->coef), j));
    tj_val *i8 = bin(k, TJ_BIN_ADD, i, ci(k, 8));
    tj_val *s = tj_var_get(k, slot);
    put(k, out, s, bin(k, TJ_BIN_ADD, tj_load(k, in, &i, 1), tj_load(k, in, &i8, 1)));
    tj_var_set(k, slot, bin(k, TJ_BIN_ADD, s, ci(k, 1)));
    ck_assert(tj_for_end(k));
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    tj_module *m = tjt_build(k);
    if (g_where != ON_CPU1) {
        const char *ptx = tj_module_get_ptx(m);
        ck_assert_msg(strstr(ptx, "+32];"), "row %d: no load 32 bytes after another",
                      _i % NROWS(wide_rows));
    }
    if (g_where != ON_PTX) {
        enum { LEN = 32, MAX = 8 };
        int32_t data[LEN], got[MAX], want[MAX];
        for (int e = 0; e < LEN; e++)
            data[e] = input(e);
        int nw = 0;
        for (int32_t jj = r->start; r->step > 0 ? jj < r->stop : jj > r->stop; jj += r->step) {
            int32_t x = (int32_t)((uint32_t)r->a + (uint32_t)r->b + (uint32_t)r->c +
                                  (uint32_t)r->coef * (uint32_t)jj);
            want[nw++] = data[x] + data[x + 8];
        }
        tj_array *ain = tjt_array(device(), I32, LEN, data);
        tj_array *aout = tjt_array(device(), I32, MAX, NULL);
        tj_arg args[] = {tj_arg_array(aout), tj_arg_array(ain), tj_arg_int(r->a),
                         tj_arg_int(r->b), tj_arg_int(r->c)};
        launch_1d(m, "wide", 1, args, 5);
        tjt_ok(device(), tj_array_copy_to_host(aout, got, sizeof got));
        check_iterations(got, want, nw, _i % NROWS(wide_rows));
        tj_array_destroy(ain);
        tj_array_destroy(aout);
    }
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

START_TEST(test_while_condition_false_at_start_runs_no_iteration)
{
    use_target(_i);
    check_elementwise("while_false", body_while_false, ref_identity);
}
END_TEST

/* ---- break and continue -------------------------------------------------------------------- */

static void
body_break_nested(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *count = tj_var_new(k, ci(k, 0));
    tj_val *a = tj_for_begin(k, ci(k, 0), bin(k, TJ_BIN_BIT_AND, x, ci(k, 7)), ci(k, 1));
    tj_val *b = tj_for_begin(k, ci(k, 0), ci(k, 10), ci(k, 1));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, b, a)));
    ck_assert(tj_break(k));
    ck_assert(tj_if_end(k));
    var_add(k, count, ci(k, 1));
    ck_assert(tj_for_end(k));
    var_add(k, count, ci(k, 100));
    ck_assert(tj_for_end(k));
    put(k, out, i, tj_var_get(k, count));
}

static int32_t
ref_break_nested(const int32_t *in, int n, int i)
{
    int32_t count = 0;
    for (int32_t a = 0; a < (in[i] & 7); a++) {
        for (int32_t b = 0; b < 10; b++) {
            if (b == a)
                break;
            count++;
        }
        count += 100;
    }
    return count;
}

START_TEST(test_break_leaves_only_the_innermost_loop)
{
    use_target(_i);
    check_elementwise("break_nested", body_break_nested, ref_break_nested);
}
END_TEST

/* The smallest divisor d >= 2 of |x| + 2, by a while(true) loop left with break. */
static void
body_break_while(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *v = bin(k, TJ_BIN_ADD, iabs(k, x), ci(k, 2));
    tj_val *d = tj_var_new(k, ci(k, 2));
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, tj_const_bool(k, true)));
    tj_val *cur = tj_var_get(k, d);
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, v, cur), ci(k, 0))));
    ck_assert(tj_break(k));
    ck_assert(tj_if_end(k));
    var_add(k, d, ci(k, 1));
    ck_assert(tj_while_end(k));
    put(k, out, i, tj_var_get(k, d));
}

static int32_t
ref_break_while(const int32_t *in, int n, int i)
{
    int32_t v = abs32(in[i]) + 2, d = 2;
    while (v % d != 0)
        d++;
    return d;
}

START_TEST(test_break_leaves_a_while_true_loop)
{
    use_target(_i);
    check_elementwise("break_while", body_break_while, ref_break_while);
}
END_TEST

/* for j in range(|x| % 20): skip multiples of 3; then a while loop skipping even j. */
static void
body_continue(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *lim = bin(k, TJ_BIN_MOD, iabs(k, x), ci(k, 20));
    tj_val *s = tj_var_new(k, ci(k, 0));
    tj_val *j = tj_for_begin(k, ci(k, 0), lim, ci(k, 1));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, j, ci(k, 3)), ci(k, 0))));
    ck_assert(tj_continue(k));
    ck_assert(tj_if_end(k));
    var_add(k, s, j);
    ck_assert(tj_for_end(k));
    tj_val *w = tj_var_new(k, ci(k, 0));
    ck_assert(tj_while_begin(k));
    ck_assert(tj_while_cond(k, cmp(k, TJ_CMP_LT, tj_var_get(k, w), lim)));
    var_add(k, w, ci(k, 1));
    tj_val *wj = tj_var_get(k, w);
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_MOD, wj, ci(k, 2)), ci(k, 0))));
    ck_assert(tj_continue(k));
    ck_assert(tj_if_end(k));
    var_add(k, s, bin(k, TJ_BIN_MUL, wj, ci(k, 1000)));
    ck_assert(tj_while_end(k));
    put(k, out, i, tj_var_get(k, s));
}

static int32_t
ref_continue(const int32_t *in, int n, int i)
{
    int32_t lim = abs32(in[i]) % 20, s = 0;
    for (int32_t j = 0; j < lim; j++) {
        if (j % 3 == 0)
            continue;
        s += j;
    }
    int32_t w = 0;
    while (w < lim) {
        w++;
        if (w % 2 == 0)
            continue;
        s += w * 1000;
    }
    return s;
}

START_TEST(test_continue_skips_the_rest_of_the_iteration)
{
    use_target(_i);
    check_elementwise("continue_loops", body_continue, ref_continue);
}
END_TEST

/* ---- early returns --------------------------------------------------------------------------- */

/* x < 0: -1; else the smallest j with j * j > x, found in a loop that returns. */
static void
body_return_kernel(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_LT, x, ci(k, 0))));
    put(k, out, i, ci(k, -1));
    ck_assert(tj_return(k, NULL));
    ck_assert(tj_if_end(k));
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 100), ci(k, 1));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, bin(k, TJ_BIN_MUL, j, j), x)));
    put(k, out, i, j);
    ck_assert(tj_return(k, NULL));
    ck_assert(tj_if_end(k));
    ck_assert(tj_for_end(k));
    put(k, out, i, ci(k, 1000));
}

static int32_t
ref_return(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    if (x < 0)
        return -1;
    for (int32_t j = 0; j < 100; j++)
        if (j * j > x)
            return j;
    return 1000;
}

START_TEST(test_return_from_kernel_skips_the_rest_of_the_thread)
{
    use_target(_i);
    check_elementwise("return_kernel", body_return_kernel, ref_return);
}
END_TEST

/* The same as a function: an early return in a branch and in a loop. */
static tj_func *
make_func_early_return(void)
{
    tj_func *f = tj_func_create(tjt.ctx, "first_square_above", I32, &g_opts);
    tj_val *x = tj_param(f, "x", I32);
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_LT, x, ci(f, 0))));
    ck_assert(tj_return(f, ci(f, -1)));
    ck_assert(tj_if_end(f));
    tj_val *j = tj_for_begin(f, ci(f, 0), ci(f, 100), ci(f, 1));
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_GT, bin(f, TJ_BIN_MUL, j, j), x)));
    ck_assert(tj_return(f, j));
    ck_assert(tj_if_end(f));
    ck_assert(tj_for_end(f));
    ck_assert(tj_return(f, ci(f, 1000)));
    ck_assert_msg(tj_kernel_error(f) == NULL, "%s", tj_kernel_error(f));
    return f;
}

static void
body_return_func(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = make_func_early_return();
    tj_val *args[] = {x};
    put(k, out, i, tj_call(k, f, args, 1));
    tj_func_destroy(f); /* the kernel keeps it alive */
}

START_TEST(test_return_from_function_returns_its_value_early)
{
    use_target(_i);
    check_elementwise("return_func", body_return_func, ref_return);
}
END_TEST

/* A function that runs off its end returns the zero value of its type. */
static void
body_fall_off_end(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "five_if_positive", I32, &g_opts);
    tj_val *p = tj_param(f, "x", I32);
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_GT, p, ci(f, 0))));
    ck_assert(tj_return(f, ci(f, 5)));
    ck_assert(tj_if_end(f));
    tj_val *args[] = {x};
    put(k, out, i, tj_call(k, f, args, 1));
}

static int32_t
ref_fall_off_end(const int32_t *in, int n, int i)
{
    return in[i] > 0 ? 5 : 0;
}

START_TEST(test_function_running_off_its_end_returns_zero)
{
    use_target(_i);
    check_elementwise("fall_off_end", body_fall_off_end, ref_fall_off_end);
}
END_TEST

/* ---- nested loops and variables ---------------------------------------------------------- */

static void
body_nested_loops(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *s = tj_var_new(k, ci(k, 0));
    tj_val *a = tj_for_begin(k, ci(k, 0), bin(k, TJ_BIN_MOD, iabs(k, x), ci(k, 7)), ci(k, 1));
    tj_val *b = tj_for_begin(k, ci(k, 0), a, ci(k, 1));
    tj_val *c = tj_for_begin(k, b, a, ci(k, 1));
    var_add(k, s, bin(k, TJ_BIN_SUB, bin(k, TJ_BIN_MUL, a, b), c));
    ck_assert(tj_for_end(k));
    ck_assert(tj_for_end(k));
    ck_assert(tj_for_end(k));
    put(k, out, i, tj_var_get(k, s));
}

static int32_t
ref_nested_loops(const int32_t *in, int n, int i)
{
    int32_t s = 0;
    for (int32_t a = 0; a < abs32(in[i]) % 7; a++)
        for (int32_t b = 0; b < a; b++)
            for (int32_t c = b; c < a; c++)
                s += a * b - c;
    return s;
}

START_TEST(test_nested_loops_see_the_outer_counters)
{
    use_target(_i);
    check_elementwise("nested_loops", body_nested_loops, ref_nested_loops);
}
END_TEST

/* Fibonacci: two variables updated in every iteration. */
static void
body_fibonacci(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *a = tj_var_new(k, ci(k, 0));
    tj_val *b = tj_var_new(k, ci(k, 1));
    tj_for_begin(k, ci(k, 0), bin(k, TJ_BIN_MOD, iabs(k, x), ci(k, 30)), ci(k, 1));
    tj_val *t = bin(k, TJ_BIN_ADD, tj_var_get(k, a), tj_var_get(k, b));
    tj_var_set(k, a, tj_var_get(k, b));
    tj_var_set(k, b, t);
    ck_assert(tj_for_end(k));
    put(k, out, i, tj_var_get(k, a));
}

static int32_t
ref_fibonacci(const int32_t *in, int n, int i)
{
    int32_t a = 0, b = 1;
    for (int32_t j = 0; j < abs32(in[i]) % 30; j++) {
        int32_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

START_TEST(test_variables_carry_values_across_loop_iterations)
{
    use_target(_i);
    check_elementwise("fibonacci", body_fibonacci, ref_fibonacci);
}
END_TEST

/* A variable made inside a loop starts again from its initial value in every iteration; a
 * float variable doubles across iterations; a struct variable is set in one branch. */
static void
body_var_kinds(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *s = tj_var_new(k, ci(k, 0));
    tj_val *f = tj_var_new(k, tj_const_float(k, TJ_DTYPE_F32, 0.5));
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, 3), ci(k, 1));
    tj_val *w = tj_var_new(k, bin(k, TJ_BIN_MUL, j, ci(k, 10)));
    var_add(k, w, x);
    var_add(k, s, tj_var_get(k, w));
    tj_var_set(k, f, bin(k, TJ_BIN_MUL, tj_var_get(k, f), tj_const_float(k, TJ_DTYPE_F32, 2)));
    ck_assert(tj_for_end(k));
    tj_field fields[] = {{"a", I32}, {"b", F32}};
    const tj_type *pair = tj_context_new_struct_type(tjt.ctx, "pair", fields, 2);
    tj_val *init[] = {ci(k, 1), tj_const_float(k, TJ_DTYPE_F32, 0.25)};
    tj_val *p = tj_var_new(k, tj_compose(k, pair, init, 2));
    ck_assert(tj_if_begin(k, cmp(k, TJ_CMP_GT, x, ci(k, 0))));
    tj_var_set(k, p, tj_set_field(k, tj_var_get(k, p), "a", x));
    ck_assert(tj_if_end(k));
    tj_val *pv = tj_var_get(k, p);
    tj_val *fb = bin(k, TJ_BIN_ADD, tj_var_get(k, f), tj_get_field(k, pv, "b"));
    tj_val *r = bin(k, TJ_BIN_ADD, tj_var_get(k, s), tj_cast(k, fb, I32)); /* 4.25 -> 4 */
    put(k, out, i, bin(k, TJ_BIN_ADD, r, bin(k, TJ_BIN_MUL, tj_get_field(k, pv, "a"),
                                               ci(k, 100))));
}

static int32_t
ref_var_kinds(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    return (30 + 3 * x) + 4 + (x > 0 ? x : 1) * 100;
}

START_TEST(test_variables_of_every_kind_live_across_branches_and_loops)
{
    use_target(_i);
    check_elementwise("var_kinds", body_var_kinds, ref_var_kinds);
}
END_TEST

/* ---- functions ------------------------------------------------------------------------------ */

/* mad(a, b, c) = a * b + c with scalar parameters. */
static void
body_call_scalar(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "mad", I32, &g_opts);
    tj_val *a = tj_param(f, "a", I32), *b = tj_param(f, "b", I32), *c = tj_param(f, "c", I32);
    ck_assert(tj_return(f, bin(f, TJ_BIN_ADD, bin(f, TJ_BIN_MUL, a, b), c)));
    tj_val *args[] = {x, i, ci(k, 7)};
    tj_val *r = tj_call(k, f, args, 3);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(tj_val_get_kind(r), TJ_VAL_SCALAR);
    ck_assert_ptr_eq(tj_val_get_type(r), I32);
    put(k, out, i, r);
}

static int32_t
ref_call_scalar(const int32_t *in, int n, int i)
{
    return in[i] * i + 7;
}

START_TEST(test_function_with_scalar_parameters_returns_its_value)
{
    use_target(_i);
    check_elementwise("call_scalar", body_call_scalar, ref_call_scalar);
}
END_TEST

/* count_below(arr, x): how many elements of arr are below x (an array parameter). */
static void
body_call_array(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "count_below", I32, &g_opts);
    tj_val *arr = tj_param_array(f, "arr", I32, 1);
    tj_val *px = tj_param(f, "x", I32);
    tj_val *n = tj_var_new(f, ci(f, 0));
    tj_val *j = tj_for_begin(f, ci(f, 0), tj_shape(f, arr, 0), ci(f, 1));
    tj_val *idx[] = {j};
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_LT, tj_load(f, arr, idx, 1), px)));
    var_add(f, n, ci(f, 1));
    ck_assert(tj_if_end(f));
    ck_assert(tj_for_end(f));
    ck_assert(tj_return(f, tj_var_get(f, n)));
    tj_val *args[] = {in, x};
    put(k, out, i, tj_call(k, f, args, 2));
}

static int32_t
ref_call_array(const int32_t *in, int n, int i)
{
    int32_t c = 0;
    for (int j = 0; j < n; j++)
        c += in[j] < in[i];
    return c;
}

START_TEST(test_function_with_an_array_parameter_reads_the_callers_array)
{
    use_target(_i);
    check_elementwise("call_array", body_call_array, ref_call_array);
}
END_TEST

/* A void function that stores into the kernel's output array. */
static void
body_call_void(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "store_twice", NULL, &g_opts);
    tj_val *arr = tj_param_array(f, "arr", I32, 1);
    tj_val *at = tj_param(f, "at", I32);
    tj_val *v = tj_param(f, "v", I32);
    put(f, arr, at, bin(f, TJ_BIN_MUL, v, ci(f, 2)));
    ck_assert(tj_return(f, NULL));
    tj_val *args[] = {out, i, x};
    tj_val *r = tj_call(k, f, args, 3);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(tj_val_get_kind(r), TJ_VAL_VOID);
}

static int32_t
ref_call_void(const int32_t *in, int n, int i)
{
    return 2 * in[i];
}

START_TEST(test_void_function_stores_through_an_array_parameter)
{
    use_target(_i);
    check_elementwise("call_void", body_call_void, ref_call_void);
}
END_TEST

/* sumsq(a, b) = sq(a) + sq(b); the kernel calls both sumsq and sq. */
static void
body_call_nested(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *sq = tj_func_create(tjt.ctx, "sq", I32, &g_opts);
    tj_val *p = tj_param(sq, "x", I32);
    ck_assert(tj_return(sq, bin(sq, TJ_BIN_MUL, p, p)));
    tj_func *sumsq = tj_func_create(tjt.ctx, "sumsq", I32, &g_opts);
    tj_val *a = tj_param(sumsq, "a", I32), *b = tj_param(sumsq, "b", I32);
    tj_val *sa = tj_call(sumsq, sq, &a, 1), *sb = tj_call(sumsq, sq, &b, 1);
    ck_assert(tj_return(sumsq, bin(sumsq, TJ_BIN_ADD, sa, sb)));
    tj_val *m = bin(k, TJ_BIN_MOD, i, ci(k, 10));
    tj_val *args[] = {x, m};
    tj_val *r = tj_call(k, sumsq, args, 2);
    put(k, out, i, bin(k, TJ_BIN_SUB, r, tj_call(k, sq, &m, 1)));
}

static int32_t
ref_call_nested(const int32_t *in, int n, int i)
{
    return in[i] * in[i];
}

START_TEST(test_function_calls_another_function_the_kernel_also_calls)
{
    use_target(_i);
    check_elementwise("call_nested", body_call_nested, ref_call_nested);
}
END_TEST

/* fact(n) = n <= 1 ? 1 : n * fact(n - 1) in int64; the kernel stores fact(|x| % 21) mod a
 * prime. */
static void
body_recursion(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "fact", I64, &g_opts);
    tj_val *n = tj_param(f, "n", I64);
    tj_val *one = tj_const_int(f, TJ_DTYPE_I64, 1);
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_LE, n, one)));
    ck_assert(tj_return(f, one));
    ck_assert(tj_if_end(f));
    tj_val *nm1 = bin(f, TJ_BIN_SUB, n, one);
    tj_val *rec = tj_call(f, f, &nm1, 1);
    ck_assert_msg(rec, "recursive tj_call: %s", tj_kernel_error(f));
    ck_assert(tj_return(f, bin(f, TJ_BIN_MUL, n, rec)));
    tj_val *arg = tj_cast(k, bin(k, TJ_BIN_MOD, iabs(k, x), ci(k, 21)), I64);
    tj_val *r = bin(k, TJ_BIN_MOD, tj_call(k, f, &arg, 1), tj_const_int(k, TJ_DTYPE_I64, 1000003));
    put(k, out, i, tj_cast(k, r, I32));
}

static int32_t
ref_recursion(const int32_t *in, int n, int i)
{
    int64_t f = 1;
    for (int64_t m = 2; m <= abs32(in[i]) % 21; m++)
        f *= m;
    return (int32_t)(f % 1000003);
}

START_TEST(test_recursive_function_computes_factorials)
{
    use_target(_i);
    check_elementwise("recursion", body_recursion, ref_recursion);
}
END_TEST

/* total(n) = n == 0 ? 0 : n + total(n - 1), called with |x| (up to 105 deep): past the
 * stack that loading gives a recursive module on the GPU (TJ_CUDA_RECURSION_STACK_BYTES),
 * so the CUDA case asks for more first. */
static void
body_deep_recursion(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_func *f = tj_func_create(tjt.ctx, "total", I32, &g_opts);
    tj_val *n = tj_param(f, "n", I32);
    ck_assert(tj_if_begin(f, cmp(f, TJ_CMP_EQ, n, ci(f, 0))));
    ck_assert(tj_return(f, ci(f, 0)));
    ck_assert(tj_if_end(f));
    tj_val *nm1 = bin(f, TJ_BIN_SUB, n, ci(f, 1));
    ck_assert(tj_return(f, bin(f, TJ_BIN_ADD, n, tj_call(f, f, &nm1, 1))));
    tj_val *ax = iabs(k, x);
    put(k, out, i, tj_call(k, f, &ax, 1));
    tj_func_destroy(f); /* the kernel keeps it alive */
}

static int32_t
ref_deep_recursion(const int32_t *in, int n, int i)
{
    int32_t m = abs32(in[i]);
    return m * (m + 1) / 2;
}

START_TEST(test_deep_recursion_runs_with_the_stack_it_is_given)
{
    use_target(_i);
    if (g_where == ON_CUDA)
        tjt_ok(device(), tj_device_set_stack_bytes(device(), 24576));
    check_elementwise("deep_recursion", body_deep_recursion, ref_deep_recursion);
}
END_TEST

/* is_even(n) = n == 0 or is_odd(n - 1); is_odd(n) = n != 0 and is_even(n - 1). */
static void
body_mutual_recursion(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    const tj_type *b = tjt_type(TJ_DTYPE_BOOL);
    tj_func *even = tj_func_create(tjt.ctx, "is_even", b, &g_opts);
    tj_func *odd = tj_func_create(tjt.ctx, "is_odd", b, &g_opts);
    tj_func *fs[2] = {even, odd};
    tj_val *n[2] = {tj_param(even, "n", I32), tj_param(odd, "n", I32)};
    for (int f = 0; f < 2; f++) {
        ck_assert(tj_if_begin(fs[f], cmp(fs[f], TJ_CMP_EQ, n[f], ci(fs[f], 0))));
        ck_assert(tj_return(fs[f], tj_const_bool(fs[f], f == 0)));
        ck_assert(tj_if_end(fs[f]));
        tj_val *m = bin(fs[f], TJ_BIN_SUB, n[f], ci(fs[f], 1));
        ck_assert(tj_return(fs[f], tj_call(fs[f], fs[1 - f], &m, 1)));
    }
    tj_func_destroy(even);
    tj_func_destroy(odd);
    tj_val *ax = iabs(k, x);
    put(k, out, i, tj_cast(k, tj_call(k, even, &ax, 1), I32));
}

static int32_t
ref_mutual_recursion(const int32_t *in, int n, int i)
{
    return abs32(in[i]) % 2 == 0;
}

START_TEST(test_mutually_recursive_functions_call_each_other)
{
    use_target(_i);
    check_elementwise("mutual_recursion", body_mutual_recursion, ref_mutual_recursion);
}
END_TEST

/* f(int8, uint16, float64, bool, vec3f) -> int32: parameters of several types. */
static void
body_call_mixed(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    const tj_type *v3 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_F32, 3);
    tj_func *f = tj_func_create(tjt.ctx, "mixed", I32, &g_opts);
    tj_val *a = tj_param(f, "a", tjt_type(TJ_DTYPE_I8));
    tj_val *b = tj_param(f, "b", tjt_type(TJ_DTYPE_U16));
    tj_val *c = tj_param(f, "c", tjt_type(TJ_DTYPE_F64));
    tj_val *d = tj_param(f, "d", tjt_type(TJ_DTYPE_BOOL));
    tj_val *e = tj_param(f, "e", v3);
    tj_val *r = bin(f, TJ_BIN_ADD, tj_cast(f, a, I32), tj_cast(f, b, I32));
    r = bin(f, TJ_BIN_ADD, r, tj_cast(f, c, I32));
    r = bin(f, TJ_BIN_ADD, r, tj_cast(f, bin(f, TJ_BIN_DOT, e, e), I32));
    tj_val *res = tj_var_new(f, r);
    ck_assert(tj_if_begin(f, tj_unary(f, TJ_UN_NOT, d)));
    tj_var_set(f, res, tj_unary(f, TJ_UN_NEG, r));
    ck_assert(tj_if_end(f));
    ck_assert(tj_return(f, tj_var_get(f, res)));
    tj_val *xf = tj_cast(k, x, F32);
    tj_val *comps[] = {xf, tj_const_float(k, TJ_DTYPE_F32, 1), tj_const_float(k, TJ_DTYPE_F32, 2)};
    tj_val *args[] = {tj_cast(k, x, tjt_type(TJ_DTYPE_I8)), tj_cast(k, i, tjt_type(TJ_DTYPE_U16)),
                      bin(k, TJ_BIN_MUL, tj_cast(k, x, tjt_type(TJ_DTYPE_F64)),
                          tj_const_float(k, TJ_DTYPE_F64, 0.5)),
                      cmp(k, TJ_CMP_GT, x, ci(k, 0)), tj_compose(k, v3, comps, 3)};
    put(k, out, i, tj_call(k, f, args, 5));
}

static int32_t
ref_call_mixed(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    int32_t r = (int8_t)x + (uint16_t)i + (int32_t)(x * 0.5) + (x * x + 5);
    return x > 0 ? r : -r;
}

START_TEST(test_function_takes_parameters_of_several_types)
{
    use_target(_i);
    check_elementwise("call_mixed", body_call_mixed, ref_call_mixed);
}
END_TEST

/* Two kernels of one module call the same function. */
START_TEST(test_function_shared_by_two_kernels_of_one_module)
{
    use_target(_i);
    tj_func *f = tj_func_create(tjt.ctx, "twice_plus", I32, &g_opts);
    tj_val *a = tj_param(f, "a", I32), *b = tj_param(f, "b", I32);
    ck_assert(tj_return(f, bin(f, TJ_BIN_ADD, bin(f, TJ_BIN_MUL, a, ci(f, 2)), b)));
    const char *names[2] = {"shared_a", "shared_b"};
    tj_kernel *ks[2];
    for (int n = 0; n < 2; n++) {
        tj_kernel *k = ks[n] = tj_kernel_create(tjt.ctx, names[n], &g_opts);
        tj_val *out = tj_param_array(k, "out", I32, 1);
        tj_val *in = tj_param_array(k, "in", I32, 1);
        tj_val *t[1];
        ck_assert(tj_tid(k, 1, t));
        tj_val *args[] = {tj_load(k, in, t, 1), ci(k, n == 0 ? 1 : -1)};
        put(k, out, t[0], tj_call(k, f, args, 2));
    }
    tj_func_destroy(f);
    tj_module *m = NULL;
    tj_status st = tj_module_build(tjt.ctx, ks, 2, NULL, &m);
    ck_assert_msg(st == TJ_OK, "tj_module_build: %s", tj_context_error(tjt.ctx));
    if (g_where == ON_PTX) {
        tjt_check_ptx(tj_module_get_ptx(m));
        check_entries(m, names, 2);
        return;
    }
    int32_t in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = input(i);
    tj_array *ain = tjt_array(device(), I32, N, in);
    tj_array *aout = tjt_array(device(), I32, N, NULL);
    tj_arg args[] = {tj_arg_array(aout), tj_arg_array(ain)};
    for (int n = 0; n < 2; n++) {
        launch_1d(m, names[n], N, args, 2);
        tjt_ok(device(), tj_array_copy_to_host(aout, out, sizeof out));
        for (int i = 0; i < N; i++)
            ck_assert_msg(out[i] == 2 * in[i] + (n == 0 ? 1 : -1), "%s: out[%d] = %d",
                          names[n], i, out[i]);
    }
}
END_TEST

/* ---- select ------------------------------------------------------------------------------ */

static void
body_select(tj_kernel *k, tj_val *out, tj_val *in, tj_val *x, tj_val *i)
{
    tj_val *neg = cmp(k, TJ_CMP_LT, x, ci(k, 0));
    tj_val *ab = tj_select(k, neg, tj_unary(k, TJ_UN_NEG, x), x);
    tj_val *even = cmp(k, TJ_CMP_EQ, bin(k, TJ_BIN_BIT_AND, i, ci(k, 1)), ci(k, 0));
    tj_val *tag = tj_select(k, even, ci(k, 1000), ci(k, 2000));
    tj_val *xf = tj_cast(k, x, F32);
    tj_val *half = bin(k, TJ_BIN_MUL, xf, tj_const_float(k, TJ_DTYPE_F32, 0.5));
    tj_val *quad = bin(k, TJ_BIN_MUL, xf, tj_const_float(k, TJ_DTYPE_F32, 4));
    tj_val *fs = tj_cast(k, tj_select(k, neg, half, quad), I32);
    const tj_type *v2 = tj_context_get_vector_type(tjt.ctx, TJ_DTYPE_I32, 2);
    tj_val *pa[] = {ci(k, 10000), ci(k, 20000)}, *pb[] = {ci(k, 30000), ci(k, 40000)};
    tj_val *vs = tj_select(k, even, tj_compose(k, v2, pa, 2), tj_compose(k, v2, pb, 2));
    tj_val *r = bin(k, TJ_BIN_ADD, bin(k, TJ_BIN_ADD, ab, tag), fs);
    put(k, out, i, bin(k, TJ_BIN_ADD, r, tj_extract(k, vs, 1)));
}

static int32_t
ref_select(const int32_t *in, int n, int i)
{
    int32_t x = in[i];
    int32_t fs = x < 0 ? (int32_t)(x * 0.5f) : x * 4;
    return abs32(x) + (i % 2 == 0 ? 1000 : 2000) + fs + (i % 2 == 0 ? 20000 : 40000);
}

START_TEST(test_select_picks_a_or_b_for_scalars_floats_and_vectors)
{
    use_target(_i);
    check_elementwise("select_kinds", body_select, ref_select);
}
END_TEST

/* ---- suite --------------------------------------------------------------------------------- */

static void
add_all(TCase *tc, int where)
{
#define ADD(fn) tcase_add_loop_test(tc, fn, where, where + 1)
#define ADD_ROWS(fn, rows)                                                                     \
    tcase_add_loop_test(tc, fn, where * NROWS(rows), (where + 1) * NROWS(rows))
    ADD(test_if_without_else_runs_the_branch_only_when_true);
    ADD(test_variables_made_in_a_branch_outlive_it_and_hold_zero_where_it_did_not_run);
    ADD(test_if_else_takes_exactly_one_branch);
    ADD(test_nested_if_else_classifies_sign_and_size);
    ADD(test_empty_branches_change_nothing);
    ADD_ROWS(test_for_range_with_constant_bounds_matches_python_range, range_rows);
    ADD_ROWS(test_for_range_with_runtime_bounds_matches_python_range, range_rows);
    ADD(test_for_range_runtime_step_zero_runs_no_iteration);
    ADD(test_for_range_negative_step_counts_down);
    ADD_ROWS(test_loops_with_range_checks_match_c_where_the_check_holds_in_part_or_wraps,
             check_rows);
    if (where == ON_CPU1) {
        ADD(test_loops_without_range_checks_or_with_a_return_are_not_copied);
        ADD(test_cooperative_lanes_each_take_the_loop_copy_their_range_allows);
        ADD(test_cooperative_range_checks_on_the_lane_hold_for_the_whole_block_when_tiled);
        ADD(test_strided_loops_test_their_range_at_their_last_iteration);
        ADD(test_loops_with_range_checks_match_c_near_the_ends_of_the_type);
    }
    ADD(test_while_loop_runs_until_its_condition_fails);
    ADD(test_while_loops_indexing_arrays_are_copied_for_unit_strides);
    ADD(test_gpu_loops_are_copied_for_unit_strides_unless_they_call_or_are_long);
    ADD_ROWS(test_gpu_loop_copies_index_in_64_bits_where_the_index_cannot_wrap, wide_rows);
    ADD(test_while_condition_false_at_start_runs_no_iteration);
    ADD(test_break_leaves_only_the_innermost_loop);
    ADD(test_break_leaves_a_while_true_loop);
    ADD(test_continue_skips_the_rest_of_the_iteration);
    ADD(test_return_from_kernel_skips_the_rest_of_the_thread);
    ADD(test_return_from_function_returns_its_value_early);
    ADD(test_function_running_off_its_end_returns_zero);
    ADD(test_nested_loops_see_the_outer_counters);
    ADD(test_variables_carry_values_across_loop_iterations);
    ADD(test_variables_of_every_kind_live_across_branches_and_loops);
    ADD(test_function_with_scalar_parameters_returns_its_value);
    ADD(test_function_with_an_array_parameter_reads_the_callers_array);
    ADD(test_void_function_stores_through_an_array_parameter);
    ADD(test_function_calls_another_function_the_kernel_also_calls);
    ADD(test_recursive_function_computes_factorials);
    ADD(test_mutually_recursive_functions_call_each_other);
    ADD(test_deep_recursion_runs_with_the_stack_it_is_given);
    ADD(test_function_takes_parameters_of_several_types);
    ADD(test_function_shared_by_two_kernels_of_one_module);
    ADD(test_select_picks_a_or_b_for_scalars_floats_and_vectors);
#undef ADD
#undef ADD_ROWS
}

static Suite *
control_suite(void)
{
    Suite *s = suite_create("control");
    static const char *const names[] = {[ON_CPU1] = "cpu1", [ON_PTX] = "ptx", [ON_CUDA] = "cuda"};
    for (int where = ON_CPU1; where <= ON_CUDA; where++) {
        TCase *tc = tcase_create(names[where]);
        tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
        tcase_set_timeout(tc, TIMEOUT_S);
        if (where == ON_CUDA)
            tcase_set_tags(tc, "cuda");
        add_all(tc, where);
        suite_add_tcase(s, tc);
    }
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, control_suite());
}
