/* tj-test: */
/*
 * tests/check_lang_errors.c: every class of kernel-source error with its exact message and
 * position ("file:line:col: error: ..."), the source line and the caret under the column:
 * syntax, unknown names, wrong types, wrong argument counts, unknown keywords, runtime
 * values where constants are needed, scoping, and builder errors reported at the call that
 * caused them. Also: no input crashes the front end (every prefix of the seeds, bytes that
 * are not source, deep nesting).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tj_lang_test.h"

enum { TIMEOUT_S = 300 };

#define K "@wp.kernel\ndef k(a: wp.array[float], n: int, flag: bool):\n"

/* Source, block width to build with, and the first line of the message. */
static const struct {
    const char *src;
    uint32_t block_dim;
    const char *want;
} cases[] = {
    /* syntax */
    {"@wp.kernel\ndef k(a: wp.array[float])\n    pass\n", 0,
     "test.py:2:26: error: expected ':' after the function's signature, found the end of the "
     "line\n"},
    {K "    x = (1 +\n", 0,
     "test.py:4:1: error: unexpected end of file: a bracket is not closed\n"},
    {K "    x = 1 +\n", 0,
     "test.py:3:12: error: expected an expression, found the end of the line\n"},
    {K "  x = 1\n    y = 2\n", 0, "test.py:4:5: error: unexpected indentation\n"},
    {K "    if n > 0:\n        x = 1\n      y = 2\n", 0,
     "test.py:5:7: error: unindent does not match any outer indentation level\n"},
    {K "    x = 'abc\n", 0, "test.py:3:9: error: unterminated string literal\n"},
    {K "    x = 1 $ 2\n", 0, "test.py:3:11: error: unexpected character '$'\n"},
    {K "    x = [1, 2]\n", 0,
     "test.py:3:9: error: lists are not supported in kernels (use a tuple or a vector)\n"},
    {K "    lambda: 1\n", 0, "test.py:3:5: error: 'lambda' is not supported in kernels\n"},
    {K "    for i in n:\n        pass\n", 0,
     "test.py:3:14: error: a for loop must iterate over range(...)\n"},
    {K "    else:\n        pass\n", 0,
     "test.py:3:5: error: 'else' without a matching 'if' (check the indentation)\n"},
    {"def k(a: int):\n    pass\n", 0,
     "test.py:1:1: error: a function needs @wp.kernel or @wp.func before 'def'\n"},
    {"@wp.kernel\ndef k(a):\n    pass\n", 0,
     "test.py:2:8: error: expected ':' and the parameter's type (kernel parameters need "
     "annotations), found ')'\n"},
    {"print('hello')\n", 0,
     "test.py:1:1: error: expected an import, a constant (NAME = wp.constant(...)), "
     "@wp.kernel, @wp.func or @wp.struct at the top level\n"},
    {K "    x = 099\n", 0,
     "test.py:3:9: error: leading zeros are not allowed in integers (use 0o for octal)\n"},
    /* names */
    {K "    x = foo + 1\n", 0,
     "test.py:3:9: error: unknown name 'foo' (expected a local variable, a parameter, a "
     "constant, a function, a type or a builtin)\n"},
    {K "    x = wp.tile_lod(a, shape=4)\n", 0,
     "test.py:3:12: error: module 'wp' has no attribute 'tile_lod' (expected a builtin or a "
     "type)\n"},
    {K "    y = x + 1\n    x = 2\n", 0,
     "test.py:3:9: error: local variable 'x' is used before it is assigned\n"},
    {K "    v = wp.vec3(1.0, 2.0, 3.0)\n    w = v.q\n", 0,
     "test.py:4:11: error: vec3f has no attribute 'q'\n"},
    {"@wp.struct\nclass S:\n    a: int\n" K "    s = S()\n    s.b = 1\n", 0,
     "test.py:7:7: error: struct 'S' has no field 'b'\n"},
    /* types */
    {K "    x = a[0] + n\n", 0,
     "test.py:3:14: error: operator '+' does not take float32 and int32 (types are not "
     "converted implicitly: use int(), float() or wp.float64())\n"},
    {K "    x = 1\n    x = 2.0\n", 0,
     "test.py:4:5: error: 'x' holds int32 and cannot be assigned float32 (a name keeps one "
     "type)\n"},
    {K "    a[n] = n\n", 0,
     "test.py:3:5: error: cannot assign int32 to an element of type "
     "float32\n"},
    {K "    x = a[1.0]\n", 0,
     "test.py:3:11: error: an index of an array must be an integer, got float32\n"},
    {K "    t = wp.tile_load(a, shape=4)\n    if t:\n        pass\n", 0,
     "test.py:4:8: error: the if condition must be a bool (or a number compared with zero), "
     "got tile[float32, (4,)]\n"},
    {K "    v = wp.vec3(1.0, 2.0, 3.0) * wp.vec3(1.0)\n", 0,
     "test.py:3:32: error: operator '*' does not take vec3f and vec3f (use wp.cw_mul for a "
     "componentwise product or wp.dot)\n"},
    {"@wp.func\ndef f(x: float) -> float:\n    return x\n" K "    y = f(n)\n", 0,
     "test.py:6:11: error: argument 'x' of f() must be float32, got int32\n"},
    {"@wp.func\ndef f(x: float) -> int:\n    return x\n", 0,
     "test.py:3:12: error: function 'f' returns int32, not float32\n"},
    {K "    return 1\n", 0, "test.py:3:12: error: a kernel cannot return a value\n"},
    {K "    x = 10000000000\n", 0,
     "test.py:3:9: error: integer literal 10000000000 does not fit in int32 (write "
     "wp.int64(10000000000))\n"},
    {K "    wp.tile_store(a, wp.tile_zeros(shape=4, dtype=int))\n", 0,
     "test.py:3:5: error: tile_store: the array holds float32 and the tile int32\n"},
    {K "    wp.tile_scatter_add(wp.tile_zeros(shape=4, dtype=float), 0, n, True)\n", 0,
     "test.py:3:65: error: tile_scatter_add: argument 'value' must be float32, got int32\n"},
    /* tiles and stacks are not types a function, a struct or an array takes */
    {"@wp.func\ndef f(t: wp.tile(dtype=float, shape=(8,))) -> float:\n    return 1.0\n", 0,
     "test.py:2:10: error: expected a type, got wp.tile: tiles and tile stacks are not types "
     "a function, a struct or an array can take; they stay in the kernel that makes them\n"},
    {"@wp.func\ndef f(x: float) -> wp.tile:\n    return x\n", 0,
     "test.py:2:23: error: expected a type, got wp.tile: tiles and tile stacks are not types "
     "a function, a struct or an array can take; they stay in the kernel that makes them\n"},
    {"@wp.struct\nclass S:\n    s: wp.tile_stack\n", 0,
     "test.py:3:11: error: expected a type, got wp.tile_stack: tiles and tile stacks are not "
     "types a function, a struct or an array can take; they stay in the kernel that makes "
     "them\n"},
    /* argument counts and keywords */
    {"@wp.func\ndef f(x: float, y: float) -> float:\n    return x\n" K "    z = f(1.0)\n", 0,
     "test.py:6:9: error: f() is missing the argument 'y'\n"},
    {"@wp.func\ndef f(x: float) -> float:\n    return x\n" K "    z = f(1.0, 2.0)\n", 0,
     "test.py:6:9: error: f() takes 1 argument, got 2\n"},
    {K "    t = wp.tile_load(a)\n", 0,
     "test.py:3:9: error: tile_load() is missing the argument 'shape'\n"},
    {K "    t = wp.tile_load(a, 4, 0, \"shared\", 5)\n", 0,
     "test.py:3:9: error: tile_load() takes (a, shape, offset=..., storage=...)\n"},
    {K "    t = wp.tile_load(a, shap=4)\n", 0,
     "test.py:3:25: error: tile_load() got an unexpected keyword argument 'shap' (expected "
     "one of 'a', 'shape', 'offset', 'storage')\n"},
    {"@wp.func\ndef f(x: float) -> float:\n    return x\n" K "    z = f(y=1.0)\n", 0,
     "test.py:6:11: error: f() got an unexpected keyword argument 'y'\n"},
    {K "    x = wp.sqrt(1.0, 2.0)\n", 0, "test.py:3:9: error: sqrt() takes (x)\n"},
    {K "    x = int(1, 2)\n", 0, "test.py:3:9: error: int32() takes at most 1 argument, got 2\n"},
    /* a variadic builtin called with nothing (the fuzzer's null + 0) */
    {K "    t = wp.tile_arange()\n", 0,
     "test.py:3:9: error: tile_arange() takes 1 to 3 numbers (stop; start, stop; or start, "
     "stop, step), got 0\n"},
    /* constants */
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_scatter_add(t, 0, 1.0, True, atomic=flag)\n",
     0,
     "test.py:4:49: error: tile_scatter_add: argument 'atomic' must be a compile-time "
     "constant (a literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile_load(a, shape=4)\n    s = wp.tile_reduce(wp.add, t, axis=n)\n", 0,
     "test.py:4:40: error: tile_reduce: argument 'axis' must be a compile-time constant (a "
     "literal or a wp.constant), not a runtime value\n"},
    {K "    s = wp.tile_stack(capacity=n, dtype=int)\n", 0,
     "test.py:3:32: error: tile_stack: argument 'capacity' must be a compile-time constant (a "
     "literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile_load(a, shape=n)\n", 0,
     "test.py:3:31: error: tile_load: argument 'shape' must be a compile-time constant (a "
     "literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile(n, preserve_type=flag)\n", 0,
     "test.py:3:34: error: tile: argument 'preserve_type' must be a compile-time constant (a "
     "literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile_load(a, shape=4)\n    v = t[0:n]\n", 0,
     "test.py:4:13: error: tile subscript: slice bound must be a compile-time constant (a "
     "literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"global\")\n", 0,
     "test.py:3:53: error: tile_zeros: argument 'storage' must be \"register\" or "
     "\"shared\"\n"},
    {"N = wp.constant(a)\n", 0,
     "test.py:1:17: error: unknown name 'a' (expected a local variable, a parameter, a "
     "constant, a function, a type or a builtin)\n"},
    /* scoping and statements */
    {K "    break\n", 0, "test.py:3:5: error: 'break' outside a loop\n"},
    {K "    if n > 0:\n        t = wp.tile_load(a, shape=4)\n    wp.tile_store(a, t)\n", 0,
     "test.py:5:22: error: 't' is a tile assigned inside a block and used after it; assign it "
     "before the block (for example with wp.tile_zeros)\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=int)\n    x = wp.tile_stack_pop(s)\n", 0,
     "test.py:4:9: error: tile_stack_pop() returns (value, slot): unpack it with 'value, slot "
     "= wp.tile_stack_pop(s)'\n"},
    {K "    x, y, z = wp.tile_stack_pop(wp.tile_stack(capacity=4, dtype=int))\n", 0,
     "test.py:3:15: error: tile_stack_pop() returns (value, slot): unpack it with 'value, "
     "slot = wp.tile_stack_pop(s)'\n"},
    {"@wp.kernel\ndef k(a: int):\n    pass\n@wp.kernel\ndef k(a: int):\n    pass\n", 0,
     "test.py:5:5: error: 'k' is defined twice\n"},
    {K "    x = 1 // 0\n", 0, "test.py:3:11: error: division by zero in a constant expression\n"},
    /* the tile builtins' own checks in the front end (jit/lang/builtins_check.c), literals
     * given for typed arguments, tile subscripts and operators */
    {K "    x = wp.untile(wp.tile_zeros(shape=(1, 1, 1, 4), dtype=float))\n", 0,
     "test.py:3:19: error: untile: argument 'a': a tile of rank 4 has no per-thread value "
     "(rank 1 gives a scalar, 2 a vector, 3 a matrix)\n"},
    {K "    x = wp.untile(wp.tile_zeros(shape=(3, 1), dtype=bool))\n", 0,
     "test.py:3:19: error: untile: argument 'a': a rank-2 tile needs numeric scalar elements, "
     "not bool\n"},
    {K "    x = wp.untile(wp.tile_zeros(shape=(5, 1), dtype=float))\n", 0,
     "test.py:3:19: error: untile: argument 'a': a tile of shape (5, 1) does not make a vector "
     "of 2 to 4 components\n"},
    {K "    x = wp.untile(wp.tile_zeros(shape=(5, 2, 1), dtype=float))\n", 0,
     "test.py:3:19: error: untile: argument 'a': a tile of shape (5, 2, 1) does not make a "
     "matrix of at most 4x4\n"},
    {"@wp.struct\nclass S:\n    a: int\n" K "    t = wp.tile(S())\n", 0,
     "test.py:6:17: error: tile: argument 'x' is a struct (S); it needs preserve_type=True\n"},
    {K "    r = wp.tile_reduce(wp.add, wp.tile_zeros(shape=4, dtype=float), axis=1)\n", 0,
     "test.py:3:74: error: tile_reduce: argument 'axis' is 1, out of range for a rank-1 tile\n"},
    {K "    r = wp.tile_reduce(wp.add, wp.tile_zeros(shape=(4, 2), dtype=wp.vec3), axis=1)\n", 0,
     "test.py:3:32: error: tile_reduce: argument 'a' holds vec3f; reducing along an axis needs "
     "scalars\n"},
    {K "    r = wp.tile_reduce(wp.bit_and, wp.tile_zeros(shape=4, dtype=float))\n", 0,
     "test.py:3:27: error: tile_reduce: argument 'op' wp.bit_and does not combine float32 "
     "elements\n"},
    {K "    r = wp.tile_reduce(wp.sub, wp.tile_zeros(shape=4, dtype=float))\n", 0,
     "test.py:3:27: error: tile_reduce: argument 'op' must be wp.add, wp.mul, wp.min, wp.max, "
     "wp.bit_and, wp.bit_or, wp.bit_xor or a @wp.func, not wp.sub\n"},
    {"@wp.func\ndef f(x: int, y: int) -> int:\n    return x\n" K
     "    r = wp.tile_reduce(f, wp.tile_zeros(shape=4, dtype=float))\n",
     0,
     "test.py:6:24: error: tile_reduce: argument 'op' function 'f' must take two float32 and "
     "return float32\n"},
    {K "    r = wp.tile_reduce(wp.add, n)\n", 0,
     "test.py:3:32: error: tile_reduce: argument 'a' must be a tile, got int32\n"},
    {K "    wp.tile_scatter_add(wp.tile_zeros(shape=(4, 4), dtype=float), 0, 1.0, True)\n", 0,
     "test.py:3:5: error: tile_scatter_add: the tile has 2 dimensions and takes as many "
     "indices, then value, has_value and (optionally) atomic; got 3 positional arguments "
     "after the tile\n"},
    {K "    wp.tile_scatter_add(wp.tile_zeros(shape=4, dtype=float), 1.0, 1.0, True)\n", 0,
     "test.py:3:62: error: tile_scatter_add: argument 'i' must be an integer, got float32\n"},
    {K "    wp.tile_scatter_add(wp.tile_zeros(shape=4, dtype=int), 0, 1.5, True)\n", 0,
     "test.py:3:63: error: tile_scatter_add: argument 'value' must be int32, got the float "
     "literal 1.5 (write wp.int32(1.5) to convert)\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=int)\n"
       "    wp.tile_stack_push(s, 1.5, True)\n",
     0,
     "test.py:4:27: error: tile_stack_push: argument 'value' must be int32, got the float "
     "literal 1.5 (write wp.int32(1.5) to convert)\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=wp.uint8)\n"
       "    wp.tile_stack_push(s, 256, True)\n",
     0,
     "test.py:4:27: error: tile_stack_push: argument 'value' must be uint8, got 256, outside "
     "the range of uint8\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=wp.uint32)\n"
       "    wp.tile_stack_push(s, -1, True)\n",
     0,
     "test.py:4:27: error: tile_stack_push: argument 'value' must be uint32, got -1, outside "
     "the range of uint32\n"},
    {K "    u = wp.tile_zeros(shape=4, dtype=wp.int64, storage=\"shared\")\n"
       "    wp.tile_scatter_add(u, 0, -9223372036854775809, True)\n",
     0,
     "test.py:4:31: error: tile_scatter_add: argument 'value' must be int64, got "
     "-9223372036854775809, outside the range of int64\n"},
    {"@wp.func\ndef f(x: wp.int8) -> wp.int8:\n    return x\n" K "    y = f(300)\n", 0,
     "test.py:6:11: error: argument 'x' of f() must be int8, got 300, outside the range of "
     "int8\n"},
    {K "    v = wp.vec3i(1, 2, 3.5)\n", 0,
     "test.py:3:24: error: vec3i takes int32 components, got the float literal 3.5 (write "
     "wp.int32(3.5) to convert)\n"},
    {K "    v = wp.vec3i(2.5)\n", 0,
     "test.py:3:18: error: cannot make vec3i from the float literal 2.5 (write wp.int32(2.5) "
     "to convert)\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(slice(0, 4, 0),))\n",
     0, "test.py:4:45: error: slice: argument 'step' must not be zero\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(slice(0, 2, 1),), shape=(2, 4))\n",
     0, "test.py:4:57: error: tile_view: argument 'shape' cannot be given with slices\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(slice(3, 3, 1),))\n",
     0, "test.py:4:33: error: tile_view: argument 'offset' entry 0 selects no elements\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = t[3:3, :]\n",
     0,
     "test.py:4:11: error: tile subscript: index 0: the slice selects no elements of a "
     "dimension of extent 4\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(1, 1))\n",
     0,
     "test.py:4:9: error: tile_view: every dimension is selected by an integer; use "
     "tile_extract (or t[i, j]) for one element\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(1, 1, 1))\n",
     0,
     "test.py:4:32: error: tile_view: argument 'offset' has 3 entries; the tile has 2 "
     "dimensions\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(1.0,))\n",
     0,
     "test.py:4:33: error: tile_view: argument 'offset' entry 0 must be an integer or a "
     "slice()\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = wp.tile_view(t, offset=(0, 0), shape=(2,))\n",
     0,
     "test.py:4:46: error: tile_view: argument 'shape' needs 2 entries, one per dimension of "
     "the tile\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    r = wp.tile_reshape(t, shape=5)\n",
     0, "test.py:4:34: error: tile_reshape: argument 'shape' has 5 elements; the tile has 16\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    r = wp.tile_reshape(t, shape=(-1, -1))\n",
     0, "test.py:4:34: error: tile_reshape: argument 'shape' may infer one extent (-1), not two\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    r = wp.tile_reshape(t, shape=(4096, 4096, 2))\n",
     0, "test.py:4:34: error: tile_reshape: argument 'shape' has more than 16777216 elements\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    r = wp.tile_reshape(t, shape=(0, 16))\n",
     0,
     "test.py:4:34: error: tile_reshape: argument 'shape' has the extent 0; extents must be "
     "positive (one may be -1)\n"},
    {K "    s = wp.tile_stack(capacity=0, dtype=int)\n", 0,
     "test.py:3:32: error: tile_stack: argument 'capacity' is 0; it must be positive\n"},
    {K "    s = wp.tile_stack(capacity=100000000, dtype=int)\n", 0,
     "test.py:3:9: error: tile_stack: argument 'capacity': 100000000 is not a positive "
     "constant up to 16777216\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=n)\n", 0,
     "test.py:3:41: error: tile_stack: argument 'dtype' must be a type, got int32\n"},
    {K "    t = wp.tile_zeros(shape=(1, 1, 1, 1, 1), dtype=float)\n", 0,
     "test.py:3:29: error: tile_zeros: argument 'shape' must have 1 to 4 entries, got 5\n"},
    {K "    t = wp.tile_zeros(shape=(4, 0), dtype=float)\n", 0,
     "test.py:3:29: error: tile_zeros: argument 'shape' has the extent 0; extents must be "
     "positive\n"},
    {K "    t = wp.tile_load(a, shape=(4, 4))\n", 0,
     "test.py:3:31: error: tile_load: argument 'shape' has 2 dimensions; the array has 1\n"},
    {K "    wp.tile_store(a, wp.tile_zeros(shape=(2, 2), dtype=float))\n", 0,
     "test.py:3:5: error: tile_store: the array has 1 dimension and the tile 2; they must "
     "match\n"},
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_assign(t, wp.tile_zeros(shape=2, dtype=int), 0)\n",
     0, "test.py:4:5: error: tile_assign: 'dst' holds float32 and 'src' int32\n"},
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_assign(t, wp.tile_zeros(shape=(2, 2), dtype=float), 0)\n",
     0, "test.py:4:5: error: tile_assign: 'dst' has rank 1 and 'src' 2; they must match\n"},
    {K "    v = wp.tile_zeros(shape=4, dtype=float) + wp.tile_zeros(shape=3, dtype=float)\n", 0,
     "test.py:3:45: error: operator '+': the tiles have different shapes: tile[float32, (4,)] "
     "and tile[float32, (3,)]\n"},
    {K "    i, j, k2, l, m = wp.tid()\n", 0,
     "test.py:3:22: error: tid() gives 1 to 4 coordinates, not 5\n"},
    {K "    x = wp.tile_zeros(shape=4, dtype=float)[0, 1]\n", 0,
     "test.py:3:9: error: tile subscript: 2 indices for a tile of 1 dimension\n"},
    {K "    x = wp.tile_zeros(shape=4, dtype=float)[1.0]\n", 0,
     "test.py:3:45: error: tile subscript: index 0 must be an integer or a slice, got float32\n"},
    {K "    v = wp.tile_zeros(shape=4, dtype=float)[0:4:0]\n", 0,
     "test.py:3:45: error: tile subscript: index 0: a slice step must not be zero\n"},
    {K "    x = wp.tile_extract(wp.tile_zeros(shape=(4, 4), dtype=float), 1)\n", 0,
     "test.py:3:9: error: tile_extract: the tile has 2 dimensions and takes as many indices, "
     "got 1\n"},

    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_scatter_add(t, 0, 1.0, True, flag)\n",
     0,
     "test.py:4:42: error: tile_scatter_add: argument 'atomic' must be a compile-time "
     "constant (a literal or a wp.constant), not a runtime value\n"},
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_scatter_add(t, 0, 1, 1.0, True, False)\n",
     0,
     "test.py:4:5: error: tile_scatter_add: the tile has 1 dimension and takes as many "
     "indices, then value, has_value and (optionally) atomic; got 5 positional arguments "
     "after the tile\n"},
    {K "    t = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
       "    wp.tile_scatter_add(t, 0, 1.0, True, atomic=2)\n",
     0,
     "test.py:4:49: error: tile_scatter_add: argument 'atomic' must be a bool, got 2 (a bool "
     "is True, False, 1 or 0)\n"},
    {K "    t = wp.tile(n, preserve_type=1.5)\n", 0,
     "test.py:3:34: error: tile: argument 'preserve_type' must be a bool, got the float "
     "literal 1.5 (write wp.bool(1.5) to convert)\n"},
    {K "    s = wp.tile_stack(capacity=4, dtype=int)\n"
       "    wp.tile_stack_push(s, 0.1, True)\n",
     0,
     "test.py:4:27: error: tile_stack_push: argument 'value' must be int32, got the float "
     "literal 0.1 (write wp.int32(0.1) to convert)\n"},
    {K "    t = wp.tile_zeros(shape=(4, 4), dtype=float)\n"
       "    v = t[1, slice(0, 2, 1)]\n",
     0,
     "test.py:4:14: error: tile subscript: index 1: write the slice as start:stop:step "
     "(slice() objects go in tile_view's offset)\n"},

    /* builder errors, at the call that caused them */
    {K "    t = wp.tile_load(a, shape=(4,))\n"
       "    v = wp.tile_view(t, offset=(3,), shape=(2,))\n",
     0, "test.py:4:9: error: tile_view: "},
    {K "    t = wp.tile(n)\n    r = wp.tile_reshape(t, shape=3)\n", 4,
     "test.py:4:9: error: tile_reshape: "},
    {K "    x = wp.untile(wp.tile_zeros(shape=(2, 3), dtype=float))\n", 4,
     "test.py:3:9: error: untile: "},
};

START_TEST(test_error_message_and_position)
{
    int i = _i;
    const char *msg = tjl_error_of(cases[i].src, cases[i].block_dim);
    tjl_assert_error(msg, cases[i].want);
}
END_TEST

START_TEST(test_error_shows_the_line_and_a_caret)
{
    const char *msg = tjl_error_of(K "    x = a[0] + n\n", 0);
    ck_assert_str_eq(msg, "test.py:3:14: error: operator '+' does not take float32 and int32 "
                          "(types are not converted implicitly: use int(), float() or "
                          "wp.float64())\n"
                          "    x = a[0] + n\n"
                          "             ^\n");
    /* tabs are kept in the caret line, so the caret lines up */
    msg = tjl_error_of("@wp.kernel\ndef k(a: int):\n\tx = a + 1.0\n", 0);
    ck_assert_str_eq(msg, "test.py:3:8: error: operator '+' does not take int32 and float32 "
                          "(types are not converted implicitly: use int(), float() or "
                          "wp.float64())\n"
                          "\tx = a + 1.0\n"
                          "\t      ^\n");
}
END_TEST

START_TEST(test_a_program_in_error_fails_every_build_with_its_message)
{
    tj_program *p = NULL;
    ck_assert_int_eq(tj_program_create(tjt.ctx, K "    x = foo\n", "bad.py", &p), TJ_ERR_INVALID);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(tj_program_get_kernel_count(p), 0);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_program_build(p, NULL, NULL, NULL, &m), TJ_ERR_INVALID);
    ck_assert_ptr_null(m);
    tjl_assert_error(tj_program_error(p), "bad.py:3:9: error: unknown name 'foo'");
    tj_program_destroy(p);
    /* a builder error leaves the program usable for other options */
    const char *src = K "    t = wp.tile(n)\n    r = wp.tile_reshape(t, shape=4)\n";
    p = tjl_program(src);
    tj_kernel_options o4 = tjl_cpu(4), o2 = tjl_cpu(2);
    ck_assert_int_eq(tj_program_build(p, "k", &o4, NULL, &m), TJ_OK);
    tj_module_destroy(m);
    ck_assert_int_ne(tj_program_build(p, "k", &o2, NULL, &m), TJ_OK);
    tjl_assert_error(tj_program_error(p), "test.py:4:9: error: tile_reshape: ");
    ck_assert_int_eq(tj_program_build(p, "k", &o4, NULL, &m), TJ_OK);
    tj_module_destroy(m);
    tj_program_destroy(p);
}
END_TEST

/* ---- no input crashes the front end -------------------------------------------------------- */

static void
create_and_build(const char *src)
{
    tj_program *p = NULL;
    tj_status st = tj_program_create(tjt.ctx, src, "fuzz.py", &p);
    ck_assert_ptr_nonnull(p);
    if (st == TJ_OK) {
        tj_kernel_options o = tjl_cpu(4);
        tj_module *m = NULL;
        for (int i = 0; i < tj_program_get_kernel_count(p); i++) {
            tj_kernel *k = NULL;
            if (tj_program_create_kernel(p, tj_program_get_kernel_name(p, i), &o, &k) == TJ_OK)
                tj_kernel_destroy(k);
        }
        (void)m;
    } else {
        ck_assert_ptr_nonnull(tj_program_error(p));
    }
    tj_program_destroy(p);
}

START_TEST(test_every_prefix_of_the_seed_kernels)
{
    static const char *const seeds[] = {"compact_values", "replace_rows", "histogram"};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        char path[1024], rel[256];
        snprintf(rel, sizeof rel, "../examples/kernels/%s.py", seeds[s]);
        tjl_source_path(path, sizeof path, rel);
        FILE *f = fopen(path, "rb");
        ck_assert_ptr_nonnull(f);
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        char *prefix = malloc(n + 1);
        for (size_t len = 0; len <= n; len += 7) {
            memcpy(prefix, buf, len);
            prefix[len] = 0;
            create_and_build(prefix);
        }
        free(prefix);
    }
}
END_TEST

START_TEST(test_deep_nesting_and_odd_bytes_are_errors)
{
    size_t n = 200000;
    char *src = malloc(n + 64);
    /* 100000 nested parentheses */
    strcpy(src, "X = ");
    size_t used = strlen(src);
    for (int i = 0; i < 100000 && used + 2 < n; i++)
        src[used++] = '(';
    src[used] = 0;
    const char *msg = tjl_error_of(src, 0);
    ck_assert_ptr_nonnull(strstr(msg, "error:"));
    /* a long chain of operators and of unary minus */
    strcpy(src, "X = 1");
    used = strlen(src);
    for (int i = 0; i < 20000; i++) {
        memcpy(src + used, " + 1", 4);
        used += 4;
    }
    src[used] = 0;
    tjl_assert_error(tjl_error_of(src, 0), "test.py:1:");
    strcpy(src, "X = ");
    used = strlen(src);
    for (int i = 0; i < 50000; i++)
        src[used++] = '-';
    strcpy(src + used, "1\n");
    tjl_assert_error(tjl_error_of(src, 0), "test.py:1:");
    /* deep indentation */
    used = 0;
    used += (size_t)sprintf(src, "@wp.kernel\ndef k(a: int):\n");
    for (int d = 1; d < 60; d++) {
        for (int s = 0; s < d; s++)
            src[used++] = ' ';
        used += (size_t)sprintf(src + used, "if a > %d:\n", d);
    }
    for (int s = 0; s < 60; s++)
        src[used++] = ' ';
    strcpy(src + used, "pass\n");
    tjl_assert_error(tjl_error_of(src, 0), "test.py:");
    free(src);
    static const char *const odd[] = {
        "\x01\x02\x03", "\xff\xfe", "@", "@wp.kernel", "@wp.kernel\ndef", "def k(", "\t\t\n x",
        "'''", "x = 1e", "x = 0x", "x = 1_", "@wp.struct\nclass S:\n", "import", "from . import x",
        "@wp.kernel\ndef k(a: wp.array[wp.array[int]]):\n pass\n",
        "@wp.kernel\ndef k(a: wp.array(dtype=int, ndim=9)):\n pass\n",
        "@wp.kernel\ndef k(a: int):\n a.b.c.d = 1\n",
        "@wp.kernel\ndef k(a: int):\n wp = 1\n x = wp.tid()\n",
        "@wp.func\ndef f(a: int):\n return f(a)\n@wp.kernel\ndef k(a: int):\n f(a)\n",
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
        create_and_build(odd[i]);
}
END_TEST

static Suite *
lang_errors_suite(void)
{
    Suite *s = suite_create("lang_errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_loop_test(tc, test_error_message_and_position, 0,
                        (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, test_error_shows_the_line_and_a_caret);
    tcase_add_test(tc, test_a_program_in_error_fails_every_build_with_its_message);
    tcase_add_test(tc, test_every_prefix_of_the_seed_kernels);
    tcase_add_test(tc, test_deep_nesting_and_odd_bytes_are_errors);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, lang_errors_suite());
}
