/* tj-test: */
/*
 * tests/check_lang.c: the kernel language (jit/lang/) on the CPU: every statement form,
 * Python's operator precedence and integer semantics (constant-folded and at run time),
 * every type (scalars, vectors, matrices, quaternions, structs, arrays of 1-4 dims), user
 * functions, the math builtins and atomics against C references, and the program and
 * module lookup API. Tile builtins are in check_lang_tiles.c, errors in check_lang_errors.c.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_lang_test.h"

enum { TIMEOUT_S = 300 };

/* Runs kernel 'k' of 'src' over n threads (width-1 CPU) with an int32 array 'in' (n
 * elements) and an int32 output of 'nout' elements; returns the output in 'out'. */
static void
run_ints(const char *src, int n, const int32_t *in, int nout, int32_t *out)
{
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    tj_array *a = tjl_array1(TJ_DTYPE_I32, n, in);
    tj_array *o = tjl_array1(TJ_DTYPE_I32, nout, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(o)};
    tjl_launch(m, "k", n, false, 1, args, 2);
    tjl_read(o, out);
}

static void
run_floats(const char *src, int n, const float *in, int nout, float *out)
{
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    tj_array *a = tjl_array1(TJ_DTYPE_F32, n, in);
    tj_array *o = tjl_array1(TJ_DTYPE_F32, nout, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(o)};
    tjl_launch(m, "k", n, false, 1, args, 2);
    tjl_read(o, out);
}

/* Python's a // b for ints. */
static int
floordiv(int a, int b)
{
    int q = a / b;
    return a % b != 0 && ((a % b < 0) != (b < 0)) ? q - 1 : q;
}

/* ---- statements ------------------------------------------------------------------------------ */

START_TEST(test_assignment_reassignment_and_loop_variable_after_the_loop)
{
    const char *src = "import warp as wp\n"
                      "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    x = a[i]\n"
                      "    x = x * 2\n"            /* reassigned: a variable */
                      "    y = x + 1\n"            /* once: bound directly */
                      "    if y > 5:\n"
                      "        z = 100\n"          /* first assigned in a branch */
                      "    else:\n"
                      "        z = 200\n"
                      "    for j in range(3):\n"
                      "        pass\n"
                      "    out[i] = y + z + j\n";  /* j after the loop: its last value */
    int32_t in[4] = {1, 2, 3, 4}, out[4];
    run_ints(src, 4, in, 4, out);
    for (int i = 0; i < 4; i++) {
        int y = in[i] * 2 + 1;
        ck_assert_int_eq(out[i], y + (y > 5 ? 100 : 200) + 2);
    }
}
END_TEST

START_TEST(test_augmented_assignment_of_every_operator)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    v = a[i]\n"
                      "    v += 7\n    v -= 2\n    v *= 3\n    v //= 2\n    v %= 11\n"
                      "    v <<= 3\n    v >>= 1\n    v &= 0x3c\n    v |= 1\n    v ^= 0b110\n"
                      "    v **= 2\n    v /= 3\n"
                      "    out[i] = v\n"
                      "    f = float(a[i])\n"
                      "    f += 0.5\n    f *= 4.0\n    f /= 2.0\n    f -= 1.0\n    f **= 2.0\n"
                      "    f //= 3.0\n    f %= 5.0\n"
                      "    out[i + 4] = int(f * 100.0)\n";
    int32_t in[4] = {-5, 0, 3, 100}, out[8];
    run_ints(src, 4, in, 8, out);
    for (int i = 0; i < 4; i++) {
        int v = in[i] + 7 - 2;
        v *= 3;
        v = floordiv(v, 2);
        v %= 11;
        v <<= 3;
        v >>= 1;
        v &= 0x3c;
        v |= 1;
        v ^= 6;
        v = v * v;
        v /= 3;
        ck_assert_int_eq(out[i], v);
        float f = (float)in[i];
        f = ((f + 0.5f) * 4.0f / 2.0f) - 1.0f;
        f = powf(f, 2.0f);
        f = floorf(f / 3.0f);
        f = fmodf(f, 5.0f);
        ck_assert_int_eq(out[i + 4], (int)(f * 100.0f));
    }
}
END_TEST

START_TEST(test_if_elif_else_and_conditional_expression)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    v = a[i]\n"
                      "    r = 0\n"
                      "    if v < 0:\n        r = -1\n"
                      "    elif v == 0:\n        r = 0\n"
                      "    elif v < 10: r = 1\n"
                      "    else:\n        r = 2\n"
                      "    out[i] = r * 10 + (3 if v % 2 == 0 else 4)\n"
                      "    if v:\n        out[i] += 1000\n";  /* an int condition */
    int32_t in[5] = {-3, 0, 5, 12, 7}, out[5];
    run_ints(src, 5, in, 5, out);
    for (int i = 0; i < 5; i++) {
        int v = in[i], r = v < 0 ? -1 : v == 0 ? 0 : v < 10 ? 1 : 2;
        ck_assert_int_eq(out[i], r * 10 + (v % 2 == 0 ? 3 : 4) + (v ? 1000 : 0));
    }
}
END_TEST

START_TEST(test_for_range_with_one_two_and_three_arguments)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    n = a[i]\n"
                      "    s1 = 0\n"
                      "    for j in range(n):\n        s1 += j\n"
                      "    s2 = 0\n"
                      "    for j in range(2, n):\n        s2 += j\n"
                      "    s3 = 0\n"
                      "    for j in range(n, -1, -3):\n        s3 += j\n"
                      "    out[3 * i] = s1\n    out[3 * i + 1] = s2\n    out[3 * i + 2] = s3\n";
    int32_t in[3] = {0, 5, 10}, out[9];
    run_ints(src, 3, in, 9, out);
    for (int i = 0; i < 3; i++) {
        int n = in[i], s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j < n; j++)
            s1 += j;
        for (int j = 2; j < n; j++)
            s2 += j;
        for (int j = n; j > -1; j -= 3)
            s3 += j;
        ck_assert_int_eq(out[3 * i], s1);
        ck_assert_int_eq(out[3 * i + 1], s2);
        ck_assert_int_eq(out[3 * i + 2], s3);
    }
}
END_TEST

START_TEST(test_while_break_continue_and_return)
{
    const char *src = "@wp.func\n"
                      "def first_multiple(n: int, d: int) -> int:\n"
                      "    j = n\n"
                      "    while True:\n"
                      "        if j % d == 0:\n"
                      "            return j\n"
                      "        j += 1\n"
                      "    return -1\n"
                      "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    if a[i] < 0:\n"
                      "        return\n"
                      "    s = 0\n"
                      "    j = 0\n"
                      "    while j < 100:\n"
                      "        j += 1\n"
                      "        if j % 3 == 0:\n"
                      "            continue\n"
                      "        if j > a[i]:\n"
                      "            break\n"
                      "        s += j\n"
                      "    out[i] = s * 1000 + first_multiple(a[i], 7)\n";
    int32_t in[4] = {-1, 5, 10, 21}, out[4];
    run_ints(src, 4, in, 4, out);
    ck_assert_int_eq(out[0], 0);
    for (int i = 1; i < 4; i++) {
        int s = 0;
        for (int j = 1; j <= 100; j++) {
            if (j % 3 == 0)
                continue;
            if (j > in[i])
                break;
            s += j;
        }
        int fm = (in[i] + 6) / 7 * 7;
        ck_assert_int_eq(out[i], s * 1000 + fm);
    }
}
END_TEST

START_TEST(test_pass_docstrings_expression_statements_and_annotations)
{
    const char *src = "\"\"\"A module docstring.\"\"\"\n"
                      "import warp as wp\n"
                      "from warp import tid\n"
                      "import numpy as np\n"
                      "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    \"\"\"A kernel docstring.\"\"\"\n"
                      "    i = tid()  # 'wp.' is optional\n"
                      "    pass\n"
                      "    x: int = a[i]; y: wp.int32 = 2\n"
                      "    wp.atomic_add(out, 0, x * y)\n"  /* an expression statement */
                      "    out[i + 1] = x \\\n"
                      "        + (y\n"
                      "           * 3)\n";
    int32_t in[3] = {1, 2, 3}, out[4];
    run_ints(src, 3, in, 4, out);
    ck_assert_int_eq(out[0], 2 * (1 + 2 + 3));
    ck_assert_int_eq(out[1], 1 + 6);
    ck_assert_int_eq(out[2], 2 + 6);
    ck_assert_int_eq(out[3], 3 + 6);
}
END_TEST

START_TEST(test_tid_unpacks_coordinates_of_a_2d_launch)
{
    const char *src = "@wp.kernel\n"
                      "def k(out: wp.array2d[int]):\n"
                      "    r, c = wp.tid()\n"
                      "    out[r, c] = r * 100 + c + out.shape[1] * 0\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    int64_t shape[2] = {3, 5};
    tj_array *o = tjl_array(TJ_DTYPE_I32, 2, shape, NULL);
    tj_arg args[] = {tj_arg_array(o)};
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "k", 2, shape, 1, args, 1));
    int32_t out[15];
    tjl_read(o, out);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++)
            ck_assert_int_eq(out[r * 5 + c], r * 100 + c);
}
END_TEST

START_TEST(test_array_element_plus_equal_is_atomic)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    out[0] += a[i]\n"
                      "    out[1] -= 1\n"
                      "    out[2 + i % 2] *= 1\n";
    int n = 1000;
    int32_t *in = malloc((size_t)n * sizeof *in), out[4];
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += in[i] = i % 7;
    run_ints(src, n, in, 4, out);
    ck_assert_int_eq(out[0], sum);
    ck_assert_int_eq(out[1], -n);
    free(in);
}
END_TEST

/* ---- expressions ----------------------------------------------------------------------------- */

/* Integer expressions of 'a' (7 at run time) with Python's values (C semantics for / and %,
 * as in Warp). */
static const struct {
    const char *expr;
    int value;
} int_exprs[] = {
    {"2 + 3 * 4 ** 2", 50},   {"-2 ** 2", -4},        {"(2 + 3) * 4", 20},
    {"1 << 2 + 1", 8},        {"7 & 3 | 8", 11},      {"5 ^ 1 & 3", 4},
    {"~5 + 1", -5},           {"10 - 4 - 3", 3},      {"2 ** 3 ** 2", 512},
    {"-a // 2", -4},          {"-a / 2", -3},         {"-a % 2", -1},
    {"a // -2", -4},          {"17 % 5 * 2", 4},      {"a * 2 - 3 * (a - 1)", -4},
    {"a >> 1 << 2", 12},      {"-(-a)", 7},           {"+a", 7},
    {"a ** 3", 343},          {"int(a > 3) + int(not a < 3)", 2},
    {"(a if a > 5 else -a) * 2", 14},
    {"int(1 < a < 10) * 10 + int(1 < a < 5)", 10},
    {"int(a == 7 and a != 6) + int(a == 6 or False)", 1},
    {"wp.min(a, 3) + wp.max(a, 3) + abs(-a)", 17},
    {"int(wp.float32(a) / 2.0)", 3},  {"int(float(a) // 2.0)", 3},
    {"wp.select(a > 5, 1, 2) + wp.where(a > 5, 10, 20)", 12},
    {"wp.int32(wp.int8(a * 40))", 24},  /* 280 wraps to 24 in int8 */
    {"wp.sub(a, 2) * wp.mul(2, 3) + wp.div(a, 2) + wp.mod(a, 4) + wp.add(a, 1)", 44},
    {"wp.bit_and(a, 3) + wp.bit_or(a, 8) + wp.bit_xor(a, 1)", 24},
    {"wp.neg(a) + int(wp.trunc(-2.5)) + int(wp.round(2.5))", -6},
};

START_TEST(test_operators_follow_python_precedence)
{
    int n = (int)(sizeof int_exprs / sizeof int_exprs[0]);
    char src[8192];
    int used = snprintf(src, sizeof src, "@wp.kernel\n"
                                         "def k(inp: wp.array[int], out: wp.array[int]):\n"
                                         "    a = inp[0]\n");
    for (int i = 0; i < n; i++) {
        /* at run time (a from the array), and folded ('a' replaced by the constant 7) */
        used += snprintf(src + used, sizeof src - (size_t)used, "    out[%d] = %s\n", 2 * i,
                         int_exprs[i].expr);
        char folded[256];
        size_t f = 0;
        for (const char *p = int_exprs[i].expr; *p && f + 4 < sizeof folded; p++) {
            bool lone = *p == 'a' && (p == int_exprs[i].expr || !isalnum((unsigned char)p[-1])) &&
                        !isalnum((unsigned char)p[1]) && p[1] != '_';
            if (lone)
                folded[f++] = '7';
            else
                folded[f++] = *p;
        }
        folded[f] = 0;
        used += snprintf(src + used, sizeof src - (size_t)used, "    out[%d] = %s\n", 2 * i + 1,
                         folded);
    }
    int32_t in[1] = {7}, out[64];
    run_ints(src, 1, in, 2 * n, out);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(out[2 * i] == int_exprs[i].value, "%s gave %d at run time, want %d",
                      int_exprs[i].expr, out[2 * i], int_exprs[i].value);
        ck_assert_msg(out[2 * i + 1] == int_exprs[i].value, "%s gave %d folded, want %d",
                      int_exprs[i].expr, out[2 * i + 1], int_exprs[i].value);
    }
}
END_TEST

START_TEST(test_float_math_builtins_match_libm)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    i = wp.tid()\n"
                      "    v = x[i]\n"
                      "    b = 16 * i\n"
                      "    out[b + 0] = wp.sqrt(v)\n    out[b + 1] = wp.floor(v)\n"
                      "    out[b + 2] = wp.ceil(v)\n    out[b + 3] = wp.round(v)\n"
                      "    out[b + 4] = wp.trunc(v)\n    out[b + 5] = wp.exp(v)\n"
                      "    out[b + 6] = wp.log(v)\n    out[b + 7] = wp.sin(v)\n"
                      "    out[b + 8] = wp.cos(v)\n    out[b + 9] = wp.tan(v)\n"
                      "    out[b + 10] = wp.tanh(v)\n    out[b + 11] = wp.atan2(v, 2.0)\n"
                      "    out[b + 12] = wp.pow(v, 1.5)\n    out[b + 13] = v ** 2.0\n"
                      "    out[b + 14] = wp.abs(-v) + wp.neg(v)\n"
                      "    out[b + 15] = wp.min(v, 2.0) * wp.max(v, 2.0)\n";
    float in[3] = {0.25f, 2.5f, 7.75f}, out[48];
    run_floats(src, 3, in, 48, out);
    for (int i = 0; i < 3; i++) {
        float v = in[i], *o = out + 16 * i;
        double want[16] = {sqrt(v), floor(v), ceil(v), round(v), trunc(v), exp(v), log(v),
                           sin(v), cos(v), tan(v), tanh(v), atan2(v, 2.0), pow(v, 1.5),
                           (double)v * v, 0.0, fmin(v, 2.0) * fmax(v, 2.0)};
        for (int j = 0; j < 16; j++)
            ck_assert_msg(tj_test_close(o[j], want[j], 1e-5), "x=%g builtin %d: %g, want %g",
                          v, j, o[j], want[j]);
    }
}
END_TEST

START_TEST(test_bool_operators_and_logic)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    p = a[i] > 0\n"
                      "    q = a[i] % 2 == 0\n"
                      "    r = (p & q) == (p and q)\n"
                      "    s = (p | q) == (p or q)\n"
                      "    t = p ^ q\n"
                      "    out[i] = int(r) + 2 * int(s) + 4 * int(t) + 8 * int(not p) "
                      "+ 16 * int(wp.bit_xor(p, True))\n";
    int32_t in[4] = {-2, -1, 2, 3}, out[4];
    run_ints(src, 4, in, 4, out);
    for (int i = 0; i < 4; i++) {
        bool p = in[i] > 0, q = in[i] % 2 == 0;
        ck_assert_int_eq(out[i], 1 + 2 + 4 * (p != q) + 8 * !p + 16 * !p);
    }
}
END_TEST

/* ---- types ----------------------------------------------------------------------------------- */

START_TEST(test_integer_types_casts_and_wide_literals)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[wp.int64], b: wp.array[wp.uint8],\n"
                      "      c: wp.array[wp.uint64],\n"
                      "      d: wp.array[wp.int16], n: wp.uint32):\n"
                      "    i = wp.tid()\n"
                      "    a[i] = a[i] * wp.int64(10000000000) + wp.int64(-3)\n"
                      "    b[i] = b[i] + wp.uint8(250)\n"                 /* wraps */
                      "    c[i] = wp.uint64(18446744073709551615) - c[i]\n"
                      "    d[i] = wp.int16(int(d[i]) * 3) >> wp.int16(1)\n"
                      "    if n != wp.uint32(4000000000):\n"
                      "        a[i] = wp.int64(0)\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    int64_t av[2] = {1, -2};
    uint8_t bv[2] = {10, 3};
    uint64_t cv[2] = {1, 5};
    int16_t dv[2] = {-7, 1000};
    tj_array *a = tjl_array1(TJ_DTYPE_I64, 2, av), *b = tjl_array1(TJ_DTYPE_U8, 2, bv);
    tj_array *c = tjl_array1(TJ_DTYPE_U64, 2, cv), *d = tjl_array1(TJ_DTYPE_I16, 2, dv);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b), tj_arg_array(c), tj_arg_array(d),
                     tj_arg_int(4000000000LL)};
    tjl_launch(m, "k", 2, false, 1, args, 5);
    tjl_read(a, av);
    tjl_read(b, bv);
    tjl_read(c, cv);
    tjl_read(d, dv);
    ck_assert(av[0] == 10000000000LL - 3 && av[1] == -20000000003LL);
    ck_assert(bv[0] == 4 && bv[1] == 253);
    ck_assert(cv[0] == UINT64_MAX - 1 && cv[1] == UINT64_MAX - 5);
    ck_assert(dv[0] == (int16_t)(-21 >> 1) && dv[1] == (int16_t)(3000 >> 1));
}
END_TEST

/* A literal given for a typed argument, a component or a field takes that type when it is
 * a value of it as written: integer literals at the ends of int64's range, integer
 * literals for float32 components, arguments and tiles; casts convert anything (the
 * errors: check_lang_errors). */
START_TEST(test_literals_take_the_type_they_are_given_for)
{
    const char *src = "@wp.func\n"
                      "def same(x: wp.int64) -> wp.int64:\n"
                      "    return x\n"
                      "@wp.kernel\n"
                      "def k(a: wp.array[wp.int64], f: wp.array[float], d: wp.array[wp.float64]):\n"
                      "    a[0] = same(-9223372036854775808)\n"
                      "    a[1] = same(9223372036854775807)\n"
                      "    a[2] = wp.int64(wp.int32(-2.7))\n"
                      "    d[0] = wp.float64(-9223372036854775808)\n"
                      "    d[1] = wp.float64(18446744073709551615)\n"
                      "    v = wp.vec3(1, 2, -3)\n"
                      "    f[0] = v[0] + v[1] * v[2]\n"
                      "    t = wp.tile_zeros(shape=1, dtype=float, storage=\"shared\")\n"
                      "    wp.tile_scatter_add(t, 0, 7, True)\n"
                      "    wp.tile_store(f, t, offset=1)\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    int64_t av[3];
    float fv[2];
    double dv[2];
    tj_array *a = tjl_array1(TJ_DTYPE_I64, 3, NULL), *f = tjl_array1(TJ_DTYPE_F32, 2, NULL);
    tj_array *d = tjl_array1(TJ_DTYPE_F64, 2, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(f), tj_arg_array(d)};
    tjl_launch(m, "k", 1, false, 1, args, 3);
    tjl_read(a, av);
    tjl_read(f, fv);
    tjl_read(d, dv);
    ck_assert(av[0] == INT64_MIN && av[1] == INT64_MAX && av[2] == -2);
    ck_assert(dv[0] == -0x1p63 && dv[1] == 0x1p64);
    ck_assert(fv[0] == -5.0f && fv[1] == 7.0f);
}
END_TEST

START_TEST(test_float16_and_float64_with_exact_literals)
{
    const char *src = "@wp.kernel\n"
                      "def k(h: wp.array[wp.float16], d: wp.array[wp.float64]):\n"
                      "    i = wp.tid()\n"
                      "    h[i] = h[i] * wp.float16(2.0) + wp.float16(0.5)\n"
                      "    d[i] = d[i] + wp.float64(0.1)\n"
                      "    if i == 0:\n"
                      "        d[2] = wp.float64(1.0) / wp.float64(3.0)\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    uint16_t hv[2] = {tjt_half_from_double(1.5), tjt_half_from_double(-3.0)};
    double dv[3] = {1.0, 2.0, 0.0};
    tj_array *h = tjl_array1(TJ_DTYPE_F16, 2, hv), *d = tjl_array1(TJ_DTYPE_F64, 3, dv);
    tj_arg args[] = {tj_arg_array(h), tj_arg_array(d)};
    tjl_launch(m, "k", 2, false, 1, args, 2);
    tjl_read(h, hv);
    tjl_read(d, dv);
    ck_assert(tjt_half_to_double(hv[0]) == 3.5 && tjt_half_to_double(hv[1]) == -5.5);
    ck_assert(dv[0] == 1.0 + 0.1 && dv[1] == 2.0 + 0.1 && dv[2] == 1.0 / 3.0);
}
END_TEST

START_TEST(test_vectors_components_and_vector_math)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    i = wp.tid()\n"
                      "    v = wp.vec3(x[i], 2.0, 3.0)\n"
                      "    w = wp.vec3(1.0)\n"
                      "    u = wp.cross(v, wp.vec3(0.0, 0.0, 1.0))\n"
                      "    v.y = v.y + 1.0\n"
                      "    v[2] = 10.0\n"
                      "    j = i % 3\n"
                      "    out[0] = wp.dot(v, w)\n"
                      "    out[1] = wp.length(wp.vec2(3.0, 4.0)) + "
                      "wp.normalize(wp.vec2(0.0, 2.0)).y\n"
                      "    out[2] = u.x + u[1] * 10.0\n"
                      "    out[3] = (v * 2.0 + w - v / 2.0).z\n"
                      "    out[4] = v[j]\n"
                      "    vi = wp.vec2i(7, -2) * 3\n"
                      "    out[5] = float(vi.x + vi[1])\n"
                      "    vd = wp.vec3d(wp.vec3(1.5, 2.5, 3.5))\n"
                      "    out[6] = float(vd.z)\n"
                      "    v4 = wp.vec(length=4, dtype=float)(1.0, 2.0, 3.0, 4.0)\n"
                      "    out[7] = v4.w + wp.cw_mul(v, w).x + float(v == v) + float(v != w)\n"
                      "    out[8] = wp.cw_div(wp.vec2(6.0, 8.0), wp.vec2(2.0, 4.0)).y\n";
    float in[1] = {1.0f}, out[9];
    run_floats(src, 1, in, 9, out);
    ck_assert_float_eq(out[0], 1.0f + 3.0f + 10.0f);
    ck_assert_float_eq(out[1], 5.0f + 1.0f);
    ck_assert_float_eq(out[2], 2.0f + (-1.0f) * 10.0f);  /* (1,2,3) x (0,0,1) = (2,-1,0) */
    ck_assert_float_eq(out[3], 20.0f + 1.0f - 5.0f);
    ck_assert_float_eq(out[4], 1.0f);
    ck_assert_float_eq(out[5], 21.0f - 6.0f);
    ck_assert_float_eq(out[6], 3.5f);
    ck_assert_float_eq(out[7], 4.0f + 1.0f + 1.0f + 1.0f);
    ck_assert_float_eq(out[8], 2.0f);
}
END_TEST

START_TEST(test_matrices_and_quaternions)
{
    const char *src = "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    m = wp.mat22(1.0, 2.0, 3.0, 4.0)\n"
                      "    r = wp.mat22(wp.vec2(1.0, 0.0), wp.vec2(0.0, x[0]))\n"
                      "    p = m @ r\n"
                      "    v = m * wp.vec2(1.0, 1.0)\n"
                      "    t = wp.transpose(m)\n"
                      "    m[0, 1] = 20.0\n"
                      "    out[0] = p[1, 1]\n    out[1] = v[0] + v[1]\n"
                      "    out[2] = t[0, 1]\n    out[3] = m[0][1] + m[1][0]\n"
                      "    i3 = wp.mat33(1.0)\n"
                      "    z = wp.mat33()\n"
                      "    out[4] = i3[2, 2] + z[1, 1] + "
                      "wp.mat(shape=(2, 3), dtype=float)(1.0)[1, 2]\n"
                      "    q = wp.quat(0.0, 0.0, 0.0, 1.0)\n"
                      "    a = wp.quat(1.0, 2.0, 3.0, 4.0)\n"
                      "    b = q * a\n"
                      "    out[5] = b.x + b.y * 10.0 + b.z * 100.0 + b.w * 1000.0\n";
    float in[1] = {5.0f}, out[6];
    run_floats(src, 1, in, 6, out);
    ck_assert_float_eq(out[0], 20.0f);  /* [[1,2],[3,4]] @ [[1,0],[0,5]] */
    ck_assert_float_eq(out[1], 3.0f + 7.0f);
    ck_assert_float_eq(out[2], 3.0f);
    ck_assert_float_eq(out[3], 23.0f);
    ck_assert_float_eq(out[4], 1.0f + 0.0f + 1.0f);
    ck_assert_float_eq(out[5], 1.0f + 20.0f + 300.0f + 4000.0f);
}
END_TEST

START_TEST(test_structs_fields_keywords_and_parameters)
{
    const char *src = "@wp.struct\n"
                      "class Inner:\n"
                      "    a: int\n"
                      "    b: wp.vec2\n"
                      "@wp.struct\n"
                      "class Particle:\n"
                      "    \"\"\"A particle.\"\"\"\n"
                      "    pos: wp.vec3\n"
                      "    mass: float\n"
                      "    inner: Inner\n"
                      "@wp.func\n"
                      "def weight(p: Particle) -> float:\n"
                      "    return p.mass * 9.8\n"
                      "@wp.kernel\n"
                      "def k(ps: wp.array[Particle], scale: Particle, out: wp.array[float]):\n"
                      "    i = wp.tid()\n"
                      "    p = ps[i]\n"
                      "    q = Particle(mass=2.0)\n"
                      "    q.pos = p.pos * scale.mass\n"
                      "    q.inner.b.y = 3.0\n"
                      "    q.pos.x += 1.0\n"
                      "    ps[i].mass = 7.0\n"
                      "    out[i] = q.pos.x + q.pos.y + q.inner.b.y + weight(q) + "
                      "float(q.inner.a)\n";
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *v3 = tj_context_get_vector_type(tjt.ctx,
                                                                                   TJ_DTYPE_F32, 3);
    tj_program *prog = tjl_program(src);
    tj_kernel_options o = tjl_cpu(0);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_program_build(prog, "k", &o, NULL, &m), TJ_OK);
    tj_param_info pi;
    ck_assert_int_eq(tj_module_get_param(m, "k", 0, &pi), TJ_OK);
    const tj_type *pt = pi.type;
    ck_assert_int_eq(tj_type_get_kind(pt), TJ_TYPE_STRUCT);
    ck_assert_str_eq(tj_type_get_name(pt), "Particle");
    size_t sz = tj_type_get_size(pt);
    unsigned char *host = calloc(2, sz), sc[64] = {0};
    float pos[2][3] = {{1, 2, 3}, {4, 5, 6}}, mass = 2.0f;
    for (int i = 0; i < 2; i++)
        memcpy(host + (size_t)i * sz, pos[i], sizeof pos[i]); /* pos is the first field */
    memcpy(sc + 12, &mass, 4);                                 /* mass follows the vec3 */
    tj_array *ps = tjl_array1(TJ_DTYPE_F32, 1, NULL);
    tj_array_destroy(ps);
    int64_t two = 2;
    tjt_ok(tjt.cpu, tj_array_create(tjt.cpu, pt, 1, &two, &ps));
    tjt_ok(tjt.cpu, tj_array_copy_from_host(ps, host, 2 * sz));
    tj_array *out = tjl_array1(TJ_DTYPE_F32, 2, NULL);
    tj_arg args[] = {tj_arg_array(ps), tj_arg_bytes(pt, sc), tj_arg_array(out)};
    tjl_launch(m, "k", 2, false, 1, args, 3);
    float res[2];
    tjl_read(out, res);
    for (int i = 0; i < 2; i++)
        ck_assert(tj_test_close(res[i], (pos[i][0] * 2 + 1) + pos[i][1] * 2 + 3 + 2 * 9.8, 1e-6));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(ps, host, 2 * sz));
    memcpy(&mass, host + sz + 12, 4);
    ck_assert_float_eq(mass, 7.0f);
    (void)f32;
    (void)v3;
    free(host);
    tj_program_destroy(prog);
}
END_TEST

START_TEST(test_arrays_of_two_to_four_dims_and_their_shape)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array3d[float], b: wp.array(dtype=float, ndim=4),\n"
                      "      out: wp.array2d[int]):\n"
                      "    i, j, l = wp.tid()\n"
                      "    a[i, j, l] = a[i, j, l] + b[0, i, j, l]\n"
                      "    out[0, 0] = a.shape[0] * 100 + a.shape[1] * 10 + a.shape[-1]\n"
                      "    out[0, 1] = b.shape[3] + out.shape[1] * 10\n";
    tj_module *m = tjl_build(src, "k", tjl_cpu(0));
    int64_t s3[3] = {2, 3, 4}, s4[4] = {1, 2, 3, 4}, s2[2] = {1, 2};
    float av[24], bv[24];
    for (int i = 0; i < 24; i++) {
        av[i] = (float)i;
        bv[i] = 100.0f * (float)i;
    }
    tj_array *a = tjl_array(TJ_DTYPE_F32, 3, s3, av), *b = tjl_array(TJ_DTYPE_F32, 4, s4, bv);
    tj_array *o = tjl_array(TJ_DTYPE_I32, 2, s2, NULL);
    tj_arg args[] = {tj_arg_array(a), tj_arg_array(b), tj_arg_array(o)};
    tjt_ok(tjt.cpu, tj_launch(tjt.cpu, m, "k", 3, s3, 1, args, 3));
    tjl_read(a, av);
    int32_t ov[2];
    tjl_read(o, ov);
    for (int i = 0; i < 24; i++)
        ck_assert_float_eq(av[i], 101.0f * (float)i);
    ck_assert_int_eq(ov[0], 234);
    ck_assert_int_eq(ov[1], 24);
}
END_TEST

START_TEST(test_user_functions_keywords_nesting_and_void)
{
    const char *src = "@wp.func\n"
                      "def axpy(a: float, x: float, y: float) -> float:\n"
                      "    return a * x + y\n"
                      "@wp.func\n"
                      "def twice(v: float):\n"                 /* return type inferred */
                      "    return axpy(2.0, v, 0.0)\n"
                      "@wp.func\n"
                      "def store(out: wp.array[float], i: int, v: float):\n"
                      "    out[i] = v\n"
                      "@wp.kernel\n"
                      "def k(x: wp.array[float], out: wp.array[float]):\n"
                      "    i = wp.tid()\n"
                      "    store(out, i, axpy(y=1.0, a=3.0, x=twice(x[i])))\n";
    float in[3] = {1.0f, -2.0f, 0.5f}, out[3];
    run_floats(src, 3, in, 3, out);
    for (int i = 0; i < 3; i++)
        ck_assert_float_eq(out[i], 3.0f * (2.0f * in[i]) + 1.0f);
}
END_TEST

START_TEST(test_atomics_return_the_old_value)
{
    const char *src = "@wp.kernel\n"
                      "def k(a: wp.array[int], out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    wp.atomic_add(out, 0, a[i])\n"
                      "    wp.atomic_min(out, 1, a[i])\n"
                      "    wp.atomic_max(out, 2, a[i])\n"
                      "    if i == 0:\n"
                      "        out[3] = wp.atomic_add(out, 4, 5) + 100\n";
    int32_t in[5] = {4, -9, 17, 2, 0}, out[5];
    run_ints(src, 5, in, 5, out);
    ck_assert_int_eq(out[0], 14);
    ck_assert_int_eq(out[1], -9);
    ck_assert_int_eq(out[2], 17);
    ck_assert_int_eq(out[3], 100);
    ck_assert_int_eq(out[4], 5);
}
END_TEST

START_TEST(test_constants_and_wp_prefix_optional)
{
    const char *src = "import warp\n"
                      "N = wp.constant(3)\n"
                      "SCALE = warp.constant(1.5)\n"
                      "M = N * 2 + 1\n"                       /* a plain constant expression */
                      "FLAG = wp.constant(True)\n"
                      "@warp.kernel\n"
                      "def k(x: warp.array(dtype=float), out: array(dtype=float32)):\n"
                      "    i = tid()\n"
                      "    if FLAG:\n"
                      "        out[i] = x[i] * SCALE + float(M) + float(wp.constant(2))\n";
    float in[2] = {2.0f, 4.0f}, out[2];
    run_floats(src, 2, in, 2, out);
    ck_assert_float_eq(out[0], 3.0f + 7.0f + 2.0f);
    ck_assert_float_eq(out[1], 6.0f + 7.0f + 2.0f);
}
END_TEST

/* ---- the API --------------------------------------------------------------------------------- */

START_TEST(test_program_and_module_lookup)
{
    const char *src = "@wp.func\n"
                      "def f(a: float) -> float:\n"
                      "    return a\n"
                      "@wp.kernel\n"
                      "def first(a: wp.array2d[float], n: int):\n"
                      "    pass\n"
                      "@wp.kernel\n"
                      "def second(v: wp.vec3, b: wp.array[wp.uint8]):\n"
                      "    pass\n";
    tj_program *p = tjl_program(src);
    ck_assert_int_eq(tj_program_get_kernel_count(p), 2);
    ck_assert_str_eq(tj_program_get_kernel_name(p, 0), "first");
    ck_assert_str_eq(tj_program_get_kernel_name(p, 1), "second");
    ck_assert_ptr_null(tj_program_get_kernel_name(p, 2));
    ck_assert_int_eq(tj_program_get_kernel_index(p, "second"), 1);
    ck_assert_int_eq(tj_program_get_kernel_index(p, "f"), -1);
    ck_assert_ptr_null(tj_program_error(p));
    tj_kernel_options o = tjl_cpu(0);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_program_build(p, NULL, &o, NULL, &m), TJ_OK);
    ck_assert_int_eq(tj_module_get_kernel_count(m), 2);
    ck_assert_str_eq(tj_module_get_kernel_name(m, 1), "second");
    ck_assert_int_eq(tj_module_get_param_count(m, "first"), 2);
    ck_assert_int_eq(tj_module_get_param_count(m, "nope"), -1);
    ck_assert_uint_eq(tj_module_get_block_dim(m, "first"), 1);
    tj_param_info pi;
    ck_assert_int_eq(tj_module_get_param(m, "first", 0, &pi), TJ_OK);
    ck_assert(pi.is_array && pi.ndim == 2 && pi.type == tjt_type(TJ_DTYPE_F32));
    ck_assert_str_eq(pi.name, "a");
    ck_assert_int_eq(tj_module_get_param(m, "second", 0, &pi), TJ_OK);
    ck_assert(!pi.is_array && pi.ndim == 0 && tj_type_get_rows(pi.type) == 3);
    ck_assert_int_eq(tj_type_get_cols(pi.type), 1);
    ck_assert_int_eq(tj_module_get_param(m, "second", 2, &pi), TJ_ERR_INVALID);
    tj_module_destroy(m);
    /* a kernel to combine with builder-made ones */
    tj_kernel *k = NULL;
    ck_assert_int_eq(tj_program_create_kernel(p, "second", &o, &k), TJ_OK);
    ck_assert_ptr_nonnull(tj_kernel_get_ir(k));
    tj_kernel_destroy(k);
    ck_assert_int_eq(tj_program_create_kernel(p, "f", &o, &k), TJ_ERR_INVALID);
    ck_assert_ptr_null(k);
    ck_assert_str_eq(tj_program_error(p), "test.py: error: no kernel named 'f' (the kernels are "
                                          "'first', 'second')\n");
    tj_program_destroy(p);
    tj_program_destroy(NULL);
    ck_assert_int_eq(tj_program_create(NULL, src, "x", &p), TJ_ERR_INVALID);
    ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_one_program_builds_for_several_block_widths)
{
    /* tile(x) has shape (B,): the same source lowered again per configuration */
    const char *src = "@wp.kernel\n"
                      "def k(out: wp.array[int]):\n"
                      "    i = wp.tid()\n"
                      "    s = wp.tile_sum(wp.tile(i))\n"
                      "    out[i] = s[0] + wp.tile(i).shape[0] * 1000\n";
    tj_program *p = tjl_program(src);
    static const uint32_t widths[] = {2, 8, 33};
    for (size_t w = 0; w < 3; w++) {
        uint32_t B = widths[w];
        tj_kernel_options o = tjl_cpu(B);
        tj_module *m = NULL;
        ck_assert_int_eq(tj_program_build(p, "k", &o, NULL, &m), TJ_OK);
        tj_array *out = tjl_array1(TJ_DTYPE_I32, B, NULL);
        tj_arg args[] = {tj_arg_array(out)};
        tjl_launch(m, "k", B, false, B, args, 1);
        int32_t res[64];
        tjl_read(out, res);
        for (uint32_t i = 0; i < B; i++)
            ck_assert_int_eq(res[i], (int)(B * (B - 1) / 2 + B * 1000));
        tj_module_destroy(m);
    }
    tj_program_destroy(p);
}
END_TEST

static Suite *
lang_suite(void)
{
    Suite *s = suite_create("lang");
    TCase *tc = tcase_create("cpu1");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_test(tc, test_assignment_reassignment_and_loop_variable_after_the_loop);
    tcase_add_test(tc, test_augmented_assignment_of_every_operator);
    tcase_add_test(tc, test_if_elif_else_and_conditional_expression);
    tcase_add_test(tc, test_for_range_with_one_two_and_three_arguments);
    tcase_add_test(tc, test_while_break_continue_and_return);
    tcase_add_test(tc, test_pass_docstrings_expression_statements_and_annotations);
    tcase_add_test(tc, test_tid_unpacks_coordinates_of_a_2d_launch);
    tcase_add_test(tc, test_array_element_plus_equal_is_atomic);
    tcase_add_test(tc, test_operators_follow_python_precedence);
    tcase_add_test(tc, test_float_math_builtins_match_libm);
    tcase_add_test(tc, test_bool_operators_and_logic);
    tcase_add_test(tc, test_integer_types_casts_and_wide_literals);
    tcase_add_test(tc, test_literals_take_the_type_they_are_given_for);
    tcase_add_test(tc, test_float16_and_float64_with_exact_literals);
    tcase_add_test(tc, test_vectors_components_and_vector_math);
    tcase_add_test(tc, test_matrices_and_quaternions);
    tcase_add_test(tc, test_structs_fields_keywords_and_parameters);
    tcase_add_test(tc, test_arrays_of_two_to_four_dims_and_their_shape);
    tcase_add_test(tc, test_user_functions_keywords_nesting_and_void);
    tcase_add_test(tc, test_atomics_return_the_old_value);
    tcase_add_test(tc, test_constants_and_wp_prefix_optional);
    suite_add_tcase(s, tc);
    TCase *api = tcase_create("api");
    tcase_add_checked_fixture(api, tjt_setup, tjt_teardown);
    tcase_set_timeout(api, TIMEOUT_S);
    tcase_add_test(api, test_program_and_module_lookup);
    tcase_add_test(api, test_one_program_builds_for_several_block_widths);
    suite_add_tcase(s, api);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, lang_suite());
}
