/*
 * bench/seeds.c: the kernels of the compile group. The six seed kernels, defined with the
 * same builder calls as the example programs, and one larger kernel (a user function with
 * sin/exp/sqrt through tile_map, axis and whole-tile reductions, a scatter-add histogram,
 * a stack compaction and a view assignment). Each comes with its inputs, a check of its
 * output against the seed's answer (or plain C for the larger one), and the equivalent
 * CUDA C++ that NVRTC compiles (kernel name KNAME, defined by the caller).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "seeds.h"

static const tj_type *
ty(tj_context *ctx, tj_dtype dt)
{
    return tj_context_get_type(ctx, dt);
}

static tj_val *
ci(tj_kernel *k, int64_t v)
{
    return tj_const_int(k, TJ_DTYPE_I32, v);
}

static tj_val *
cf(tj_kernel *k, double v)
{
    return tj_const_float(k, TJ_DTYPE_F32, v);
}

/* An array of 'ndim' extents 'shape' of 'dt' holding 'data' (NULL: zeros). */
static tj_array *
array_of(tj_context *ctx, tj_device *dev, tj_dtype dt, int ndim, const int64_t *shape,
         const void *data)
{
    tj_array *a = NULL;
    if (tj_array_create(dev, ty(ctx, dt), ndim, shape, &a) != TJ_OK)
        return NULL;
    if (data && tj_array_copy_from_host(a, data, tj_array_get_bytes(a)) != TJ_OK) {
        tj_array_destroy(a);
        return NULL;
    }
    return a;
}

static bool
read_back(const tj_array *a, void *dst, char *why, size_t n)
{
    if (tj_array_copy_to_host(a, dst, tj_array_get_bytes(a)) == TJ_OK)
        return true;
    snprintf(why, n, "copy to host failed: %s", tj_device_error(tj_array_get_device(a)));
    return false;
}

static tj_status
run_tiled(tj_device *dev, tj_module *m, const char *kname, uint32_t block_dim,
          tj_array *const *io, int nargs)
{
    tj_arg args[BENCH_SEED_MAX_ARRAYS];
    for (int i = 0; i < nargs; i++)
        args[i] = tj_arg_array(io[i]);
    int64_t one = 1;
    return tj_launch_tiled(dev, m, kname, 1, &one, block_dim, args, (size_t)nargs);
}

/* ---- tile: store_doubled_thread_indices -------------------------------------------------- */

static tj_kernel *
define_tile(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *out = tj_param_array(k, "out", ty(ctx, TJ_DTYPE_I32), 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_val *t = tj_tile(k, tj_binary(k, TJ_BIN_MUL, i, ci(k, 2)), false);
    tj_tile_store(k, out, t, NULL);
    return k;
}

static bool
prepare_tile(tj_context *ctx, tj_device *dev, tj_array **io)
{
    int64_t n = 16;
    return (io[0] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &n, NULL)) != NULL;
}

static tj_status
launch_tile(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    tj_arg a = tj_arg_array(io[0]);
    int64_t n = 16;
    return tj_launch(dev, m, kname, 1, &n, 16, &a, 1);
}

static bool
verify_tile(tj_array *const *io, bool width1, char *why, size_t n)
{
    int32_t h[16];
    if (!read_back(io[0], h, why, n))
        return false;
    for (int j = 0; j < 16; j++) {
        /* width-1: every block stores its one-element tile at out[0] (SPEC 1) */
        bool ok = width1 ? (j == 0 ? h[0] % 2 == 0 && h[0] >= 0 && h[0] <= 30 : h[j] == 0)
                         : h[j] == 2 * j;
        if (!ok) {
            snprintf(why, n, "out[%d] = %d", j, h[j]);
            return false;
        }
    }
    return true;
}

static const char cuda_tile[] =
    "extern \"C\" __global__ void KNAME(int *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = i * 2;\n"
    "}\n";

static const char source_tile[] =
    "import warp as wp\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(out: wp.array[int]):\n"
    "    i = wp.tid()\n"
    "    t = wp.tile(i * 2)\n"
    "    wp.tile_store(out, t)\n";

/* ---- tile_reduce: multiply_elements ---------------------------------------------------- */

static tj_kernel *
define_reduce(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *i32 = ty(ctx, TJ_DTYPE_I32);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *x = tj_param_array(k, "x", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    int shape = 4;
    tj_val *t = tj_tile_load(k, x, 1, &shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k, out, tj_tile_reduce(k, TJ_REDUCE_MUL, NULL, t), NULL);
    return k;
}

static bool
prepare_reduce(tj_context *ctx, tj_device *dev, tj_array **io)
{
    int32_t in[4] = {3, 7, 4, 9};
    int64_t four = 4, one = 1;
    io[0] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &four, in);
    io[1] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &one, NULL);
    return io[0] && io[1];
}

static tj_status
launch_reduce(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, 2, io, 2);
}

static bool
verify_reduce(tj_array *const *io, bool width1, char *why, size_t n)
{
    int32_t r = 0;
    (void)width1;
    if (!read_back(io[1], &r, why, n))
        return false;
    if (r != 756)
        snprintf(why, n, "product %d, expected 756", r);
    return r == 756;
}

static const char cuda_reduce[] =
    "extern \"C\" __global__ void KNAME(const int *x, int nx, int *out)\n"
    "{\n"
    "    __shared__ int part[1024];\n"
    "    int lane = threadIdx.x, p = 1;\n"
    "    for (int e = lane; e < 4; e += blockDim.x)\n"
    "        p *= e < nx ? x[e] : 0;\n"
    "    part[lane] = p;\n"
    "    __syncthreads();\n"
    "    if (lane == 0) {\n"
    "        for (int i = 1; i < blockDim.x; i++)\n"
    "            p *= part[i];\n"
    "        out[0] = p;\n"
    "    }\n"
    "}\n";

static const char source_reduce[] =
    "import warp as wp\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(x: wp.array[int], out: wp.array[int]):\n"
    "    t = wp.tile_load(x, shape=4)\n"
    "    wp.tile_store(out, wp.tile_reduce(wp.mul, t))\n";

/* ---- tile_reduce with an axis: row_products ----------------------------------------------- */

static tj_kernel *
define_axis(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *f32 = ty(ctx, TJ_DTYPE_F32);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *p = tj_param_array(k, "p", f32, 1);
    int shape[2] = {2, 3};
    tj_val *t = tj_tile_load(k, x, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_tile_store(k, p, tj_tile_reduce_axis(k, TJ_REDUCE_MUL, NULL, t, 1), NULL);
    return k;
}

static bool
prepare_axis(tj_context *ctx, tj_device *dev, tj_array **io)
{
    float in[6] = {1, 2, 3, 10, 20, 30};
    int64_t dims[2] = {2, 3}, two = 2;
    io[0] = array_of(ctx, dev, TJ_DTYPE_F32, 2, dims, in);
    io[1] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &two, NULL);
    return io[0] && io[1];
}

static tj_status
launch_axis(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, 4, io, 2);
}

static bool
verify_axis(tj_array *const *io, bool width1, char *why, size_t n)
{
    float r[2];
    (void)width1;
    if (!read_back(io[1], r, why, n))
        return false;
    bool ok = r[0] == 6.0f && r[1] == 6000.0f;
    if (!ok)
        snprintf(why, n, "products [%g, %g], expected [6, 6000]", r[0], r[1]);
    return ok;
}

static const char cuda_axis[] =
    "extern \"C\" __global__ void KNAME(const float *x, int rows, int cols, float *p)\n"
    "{\n"
    "    __shared__ float t[2][3];\n"
    "    for (int e = threadIdx.x; e < 6; e += blockDim.x) {\n"
    "        int r = e / 3, c = e % 3;\n"
    "        t[r][c] = r < rows && c < cols ? x[r * cols + c] : 0.0f;\n"
    "    }\n"
    "    __syncthreads();\n"
    "    for (int r = threadIdx.x; r < 2; r += blockDim.x) {\n"
    "        float acc = 1.0f;\n"
    "        for (int c = 0; c < 3; c++)\n"
    "            acc *= t[r][c];\n"
    "        if (r < rows)\n"
    "            p[r] = acc;\n"
    "    }\n"
    "}\n";

static const char source_axis[] =
    "import warp as wp\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(x: wp.array2d[float], p: wp.array[float]):\n"
    "    t = wp.tile_load(x, shape=(2, 3))\n"
    "    wp.tile_store(p, wp.tile_reduce(wp.mul, t, axis=1))\n";

/* ---- tile_view: replace_rows -------------------------------------------------------------- */

static tj_kernel *
define_view(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *f32 = ty(ctx, TJ_DTYPE_F32);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *a = tj_param_array(k, "a", f32, 2);
    tj_val *out = tj_param_array(k, "out", f32, 2);
    int shape[2] = {4, 4}, rows_shape[2] = {2, 4};
    tj_val *t = tj_tile_load(k, a, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_view_index offset[2] = {tj_view_at(ci(k, 2)), tj_view_at(ci(k, 0))};
    tj_val *rows = tj_tile_view(k, t, offset, 2, rows_shape, 2);
    tj_val *values = tj_tile_arange(k, 100.0, 108.0, 1.0, f32, TJ_STORAGE_REGISTER);
    tj_tile_assign(k, rows, tj_tile_reshape(k, values, 2, rows_shape), NULL);
    tj_tile_store(k, out, t, NULL);
    return k;
}

static bool
prepare_view(tj_context *ctx, tj_device *dev, tj_array **io)
{
    float h[16];
    for (int j = 0; j < 16; j++)
        h[j] = (float)j;
    int64_t dims[2] = {4, 4};
    io[0] = array_of(ctx, dev, TJ_DTYPE_F32, 2, dims, h);
    io[1] = array_of(ctx, dev, TJ_DTYPE_F32, 2, dims, NULL);
    return io[0] && io[1];
}

static tj_status
launch_view(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, 8, io, 2);
}

static bool
verify_view(tj_array *const *io, bool width1, char *why, size_t n)
{
    float h[16];
    (void)width1;
    if (!read_back(io[1], h, why, n))
        return false;
    for (int j = 0; j < 16; j++) {
        float want = j < 8 ? (float)j : 100.0f + (float)(j - 8);
        if (h[j] != want) {
            snprintf(why, n, "out[%d] = %g, expected %g", j, h[j], want);
            return false;
        }
    }
    return true;
}

static const char cuda_view[] =
    "extern \"C\" __global__ void KNAME(const float *a, float *out)\n"
    "{\n"
    "    __shared__ float t[4][4];\n"
    "    for (int e = threadIdx.x; e < 16; e += blockDim.x)\n"
    "        t[e / 4][e % 4] = a[e];\n"
    "    __syncthreads();\n"
    "    for (int e = threadIdx.x; e < 8; e += blockDim.x)\n"
    "        t[2 + e / 4][e % 4] = 100.0f + e;\n"
    "    __syncthreads();\n"
    "    for (int e = threadIdx.x; e < 16; e += blockDim.x)\n"
    "        out[e] = t[e / 4][e % 4];\n"
    "}\n";

static const char source_view[] =
    "import warp as wp\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(a: wp.array2d[float], out: wp.array2d[float]):\n"
    "    t = wp.tile_load(a, shape=(4, 4))\n"
    "    rows = wp.tile_view(t, offset=(2, 0), shape=(2, 4))\n"
    "    values = wp.tile_arange(100.0, 108.0, 1.0, dtype=float)\n"
    "    wp.tile_assign(rows, wp.tile_reshape(values, shape=(2, 4)))\n"
    "    wp.tile_store(out, t)\n";

/* ---- tile_scatter_add: histogram ---------------------------------------------------------- */

static tj_kernel *
define_scatter(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *f32 = ty(ctx, TJ_DTYPE_F32);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *data = tj_param_array(k, "data", f32, 1);
    tj_val *bins_out = tj_param_array(k, "bins_out", f32, 1);
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    int four = 4;
    tj_val *bins = tj_tile_zeros(k, f32, 1, &four, TJ_STORAGE_SHARED);
    tj_val *d = tj_load(k, data, &tid[1], 1);
    tj_val *b = tj_cast(k, tj_binary(k, TJ_BIN_DIV, d, cf(k, 2.0)), ty(ctx, TJ_DTYPE_I32));
    tj_tile_scatter_add(k, bins, &b, 1, cf(k, 1.0), tj_const_bool(k, true),
                        tj_const_bool(k, true));
    tj_tile_store(k, bins_out, bins, NULL);
    return k;
}

static bool
prepare_scatter(tj_context *ctx, tj_device *dev, tj_array **io)
{
    float in[8] = {0.5f, 2.0f, 3.0f, 4.0f, 4.5f, 5.5f, 6.0f, 7.0f};
    int64_t eight = 8, four = 4;
    io[0] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &eight, in);
    io[1] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &four, NULL);
    return io[0] && io[1];
}

static tj_status
launch_scatter(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, 8, io, 2);
}

static bool
verify_scatter(tj_array *const *io, bool width1, char *why, size_t n)
{
    float r[4];
    /* width-1: the one lane counts data[0] only (SPEC 1) */
    const float want[2][4] = {{1, 2, 3, 2}, {1, 0, 0, 0}};
    if (!read_back(io[1], r, why, n))
        return false;
    for (int j = 0; j < 4; j++) {
        if (r[j] != want[width1][j]) {
            snprintf(why, n, "bin %d = %g, expected %g", j, r[j], want[width1][j]);
            return false;
        }
    }
    return true;
}

static const char cuda_scatter[] =
    "extern \"C\" __global__ void KNAME(const float *data, float *bins_out)\n"
    "{\n"
    "    __shared__ float bins[4];\n"
    "    if (threadIdx.x < 4)\n"
    "        bins[threadIdx.x] = 0.0f;\n"
    "    __syncthreads();\n"
    "    int b = (int)(data[threadIdx.x] / 2.0f);\n"
    "    atomicAdd(&bins[b], 1.0f);\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x < 4)\n"
    "        bins_out[threadIdx.x] = bins[threadIdx.x];\n"
    "}\n";

static const char source_scatter[] =
    "import warp as wp\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(data: wp.array[float], bins_out: wp.array[float]):\n"
    "    _block, i = wp.tid()\n"
    "    bins = wp.tile_zeros(shape=4, dtype=float, storage=\"shared\")\n"
    "    b = int(data[i] / 2.0)\n"
    "    wp.tile_scatter_add(bins, b, 1.0, True)\n"
    "    wp.tile_store(bins_out, bins)\n";

/* ---- tile_stack: compact_values ----------------------------------------------------------- */

enum { STACK_CAPACITY = 8, STACK_ITEMS = 8 };

static tj_kernel *
define_stack(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *i32 = ty(ctx, TJ_DTYPE_I32);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *data = tj_param_array(k, "data", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *num = tj_param_array(k, "num", i32, 1);
    tj_val *zero = ci(k, 0), *nitems = ci(k, STACK_ITEMS);
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    tj_val *lane = tid[1];
    tj_val *s = tj_tile_stack(k, STACK_CAPACITY, i32);
    tj_val *base = tj_for_begin(k, zero, nitems, tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, base, lane);
    tj_val *value = tj_var_new(k, ci(k, -1));
    tj_val *keep = tj_var_new(k, tj_const_bool(k, false));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, nitems));
    tj_val *v = tj_load(k, data, &i, 1);
    tj_var_set(k, value, v);
    tj_var_set(k, keep, tj_compare(k, TJ_CMP_GT, v, ci(k, 5)));
    tj_if_end(k);
    tj_tile_stack_push(k, s, tj_var_get(k, value), tj_var_get(k, keep));
    tj_for_end(k);
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
    tj_store(k, num, &zero, 1, tj_tile_stack_count(k, s));
    tj_if_end(k);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, out, &slot, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

static bool
prepare_stack(tj_context *ctx, tj_device *dev, tj_array **io)
{
    int32_t data[STACK_ITEMS] = {1, 8, 3, 7, 2, 9, 4, 6};
    int64_t n = STACK_ITEMS, one = 1;
    io[0] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &n, data);
    io[1] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &n, NULL);
    io[2] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &one, NULL);
    return io[0] && io[1] && io[2];
}

static tj_status
launch_stack(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, 4, io, 3);
}

static bool
verify_stack(tj_array *const *io, bool width1, char *why, size_t n)
{
    int32_t out[STACK_ITEMS], num = 0;
    (void)width1;
    if (!read_back(io[1], out, why, n) || !read_back(io[2], &num, why, n))
        return false;
    bool seen[10] = {false};
    bool ok = num == 4;
    for (int j = 0; ok && j < num; j++) {
        ok = out[j] >= 6 && out[j] <= 9 && !seen[out[j]];
        if (ok)
            seen[out[j]] = true;
    }
    if (!ok)
        snprintf(why, n, "%d values kept, expected 6, 7, 8, 9 in any order", num);
    return ok;
}

static const char cuda_stack[] =
    "#define CAPACITY 8\n"
    "#define NUM_ITEMS 8\n"
    "extern \"C\" __global__ void KNAME(const int *data, int *out, int *num)\n"
    "{\n"
    "    __shared__ int stack[CAPACITY];\n"
    "    __shared__ int count;\n"
    "    int lane = threadIdx.x;\n"
    "    if (lane == 0)\n"
    "        count = 0;\n"
    "    __syncthreads();\n"
    "    for (int base = 0; base < NUM_ITEMS; base += blockDim.x) {\n"
    "        int i = base + lane;\n"
    "        if (i < NUM_ITEMS && data[i] > 5) {\n"
    "            int slot = atomicAdd(&count, 1);\n"
    "            if (slot < CAPACITY)\n"
    "                stack[slot] = data[i];\n"
    "        }\n"
    "        __syncthreads();\n"
    "    }\n"
    "    int n = min(count, CAPACITY);\n"
    "    if (lane == 0)\n"
    "        num[0] = n;\n"
    "    for (int s = lane; s < n; s += blockDim.x)\n"
    "        out[s] = stack[s];\n"
    "}\n";

static const char source_stack[] =
    "import warp as wp\n"
    "\n"
    "CAPACITY = wp.constant(8)\n"
    "NUM_ITEMS = wp.constant(8)\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(data: wp.array[int], out: wp.array[int], num: wp.array[int]):\n"
    "    _i, lane = wp.tid()\n"
    "    s = wp.tile_stack(capacity=CAPACITY, dtype=int)\n"
    "    for base in range(0, NUM_ITEMS, wp.block_dim()):\n"
    "        i = base + lane\n"
    "        value = int(-1)\n"
    "        keep = False\n"
    "        if i < NUM_ITEMS:\n"
    "            value = data[i]\n"
    "            keep = value > 5\n"
    "        wp.tile_stack_push(s, value, keep)\n"
    "    if lane == 0:\n"
    "        num[0] = wp.tile_stack_count(s)\n"
    "    while wp.tile_stack_count(s) > 0:\n"
    "        value, slot = wp.tile_stack_pop(s)\n"
    "        if slot >= 0:\n"
    "            out[slot] = value\n";

/* ---- the larger kernel -------------------------------------------------------------------- */

enum { L_ROWS = 16, L_COLS = 32, L_N = L_ROWS * L_COLS, L_BINS = 16, L_BLOCK = 64 };

static float
large_f(float a)
{
    return sinf(a) * expf(-0.5f * a) + sqrtf(a + 1.0f);
}

/* f(a) = sin(a) * exp(-0.5 a) + sqrt(a + 1), a user function called through tile_map. */
static tj_func *
define_large_f(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    char name[128];
    snprintf(name, sizeof name, "%s_f", kname);
    const tj_type *f32 = ty(ctx, TJ_DTYPE_F32);
    tj_func *f = tj_func_create(ctx, name, f32, o);
    tj_val *a = tj_param(f, "a", f32);
    tj_val *damp = tj_unary(f, TJ_UN_EXP, tj_binary(f, TJ_BIN_MUL, a, cf(f, -0.5)));
    tj_val *wave = tj_binary(f, TJ_BIN_MUL, tj_unary(f, TJ_UN_SIN, a), damp);
    tj_val *root = tj_unary(f, TJ_UN_SQRT, tj_binary(f, TJ_BIN_ADD, a, cf(f, 1.0)));
    tj_return(f, tj_binary(f, TJ_BIN_ADD, wave, root));
    return f;
}

/* The histogram and compaction loop over x, one element per lane per step. */
static void
large_loop(tj_kernel *k, const tj_type *i32, tj_val *x, tj_val *lane, tj_val *bins, tj_val *s)
{
    tj_val *j = tj_for_begin(k, ci(k, 0), ci(k, L_N), tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, j, lane);
    tj_val *has = tj_compare(k, TJ_CMP_LT, i, ci(k, L_N));
    tj_val *safe = tj_select(k, has, i, ci(k, 0));
    tj_val *rc[2] = {tj_binary(k, TJ_BIN_DIV, safe, ci(k, L_COLS)),
                     tj_binary(k, TJ_BIN_MOD, safe, ci(k, L_COLS))};
    tj_val *v = tj_load(k, x, rc, 2);
    tj_val *scaled = tj_binary(k, TJ_BIN_MUL, v, cf(k, 4.0));
    tj_val *b = tj_binary(k, TJ_BIN_MIN, tj_cast(k, scaled, i32),
                          ci(k, L_BINS - 1));
    tj_tile_scatter_add(k, bins, &b, 1, ci(k, 1), has, tj_const_bool(k, true));
    tj_val *big = tj_compare(k, TJ_CMP_GT, v, cf(k, 2.0));
    tj_tile_stack_push(k, s, v, tj_binary(k, TJ_BIN_AND, has, big));
    tj_for_end(k);
}

static tj_kernel *
define_large(tj_context *ctx, const tj_kernel_options *o, const char *kname)
{
    const tj_type *f32 = ty(ctx, TJ_DTYPE_F32), *i32 = ty(ctx, TJ_DTYPE_I32);
    tj_func *f = define_large_f(ctx, o, kname);
    tj_kernel *k = tj_kernel_create(ctx, kname, o);
    tj_val *x = tj_param_array(k, "x", f32, 2);
    tj_val *rows_out = tj_param_array(k, "rows_out", f32, 1);
    tj_val *stats = tj_param_array(k, "stats", f32, 1);
    tj_val *hist = tj_param_array(k, "hist", i32, 1);
    tj_val *kept = tj_param_array(k, "kept", f32, 1);
    tj_val *nkept = tj_param_array(k, "nkept", i32, 1);
    tj_val *y = tj_param_array(k, "y", f32, 2);
    tj_val *tid[2] = {NULL, NULL};
    tj_tid(k, 2, tid);
    tj_val *lane = tid[1], *zero = ci(k, 0), *one = ci(k, 1);
    int shape[2] = {L_ROWS, L_COLS}, nbins = L_BINS;
    tj_val *t = tj_tile_load(k, x, 2, shape, NULL, TJ_STORAGE_REGISTER);
    tj_val *m = tj_tile_map(k, f, &t, 1);
    tj_func_destroy(f); /* the kernel keeps it alive from its first call on */
    tj_tile_store(k, rows_out, tj_tile_reduce_axis(k, TJ_REDUCE_ADD, NULL, m, 1), NULL);
    tj_tile_store(k, stats, tj_tile_reduce(k, TJ_REDUCE_MAX, NULL, m), NULL);
    tj_tile_store(k, stats, tj_tile_reduce(k, TJ_REDUCE_MIN, NULL, m), &one);
    tj_val *bins = tj_tile_zeros(k, i32, 1, &nbins, TJ_STORAGE_SHARED);
    tj_val *s = tj_tile_stack(k, L_N, f32);
    large_loop(k, i32, x, lane, bins, s);
    tj_tile_store(k, hist, bins, NULL);
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
    tj_store(k, nkept, &zero, 1, tj_tile_stack_count(k, s));
    tj_if_end(k);
    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot = NULL;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, kept, &slot, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    int rows_shape[2] = {4, L_COLS};
    tj_view_index at[2] = {tj_view_at(ci(k, 4)), tj_view_at(zero)};
    tj_val *rows = tj_tile_view(k, m, at, 2, rows_shape, 2);
    tj_val *ramp = tj_tile_arange(k, 0.0, 4.0 * L_COLS, 1.0, f32, TJ_STORAGE_REGISTER);
    tj_tile_assign(k, rows, tj_tile_reshape(k, ramp, 2, rows_shape), NULL);
    tj_tile_store(k, y, m, NULL);
    return k;
}

/* The input: fixed values in [0, 4). */
static void
large_input(float *x)
{
    bench_fill_uniform(x, L_N, 0.0f, 4.0f, 12345, 1);
}

static bool
prepare_large(tj_context *ctx, tj_device *dev, tj_array **io)
{
    float x[L_N];
    large_input(x);
    int64_t dims[2] = {L_ROWS, L_COLS}, rows = L_ROWS, two = 2, nb = L_BINS, n = L_N, one = 1;
    io[0] = array_of(ctx, dev, TJ_DTYPE_F32, 2, dims, x);
    io[1] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &rows, NULL);
    io[2] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &two, NULL);
    io[3] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &nb, NULL);
    io[4] = array_of(ctx, dev, TJ_DTYPE_F32, 1, &n, NULL);
    io[5] = array_of(ctx, dev, TJ_DTYPE_I32, 1, &one, NULL);
    io[6] = array_of(ctx, dev, TJ_DTYPE_F32, 2, dims, NULL);
    for (int i = 0; i < 7; i++)
        if (!io[i])
            return false;
    return true;
}

static tj_status
launch_large(tj_device *dev, tj_module *m, const char *kname, tj_array *const *io)
{
    return run_tiled(dev, m, kname, L_BLOCK, io, 7);
}

/* Math from libdevice or the C library may differ in the last bits. */
static bool
close_to(float got, float want)
{
    return fabsf(got - want) <= 1e-4f * fmaxf(1.0f, fabsf(want));
}

static bool
verify_large_values(const float *x, const float *rows, const float *stats, const float *y,
                    char *why, size_t n)
{
    float mx = -INFINITY, mn = INFINITY;
    for (int r = 0; r < L_ROWS; r++) {
        float acc = 0;
        for (int c = 0; c < L_COLS; c++) {
            float v = large_f(x[r * L_COLS + c]);
            acc += v;
            mx = fmaxf(mx, v);
            mn = fminf(mn, v);
            float want = r >= 4 && r < 8 ? (float)((r - 4) * L_COLS + c) : v;
            if (!close_to(y[r * L_COLS + c], want)) {
                snprintf(why, n, "y[%d][%d] = %g, expected %g", r, c, y[r * L_COLS + c], want);
                return false;
            }
        }
        if (!close_to(rows[r], acc)) {
            snprintf(why, n, "row sum %d = %g, expected %g", r, rows[r], acc);
            return false;
        }
    }
    if (!close_to(stats[0], mx) || !close_to(stats[1], mn)) {
        snprintf(why, n, "max, min = %g, %g, expected %g, %g", stats[0], stats[1], mx, mn);
        return false;
    }
    return true;
}

static bool
verify_large(tj_array *const *io, bool width1, char *why, size_t n)
{
    float x[L_N], rows[L_ROWS], stats[2], kept[L_N], y[L_N];
    int32_t hist[L_BINS], nkept = 0, want_hist[L_BINS] = {0};
    (void)width1;
    if (!read_back(io[1], rows, why, n) || !read_back(io[2], stats, why, n) ||
        !read_back(io[3], hist, why, n) || !read_back(io[4], kept, why, n) ||
        !read_back(io[5], &nkept, why, n) || !read_back(io[6], y, why, n))
        return false;
    large_input(x);
    if (!verify_large_values(x, rows, stats, y, why, n))
        return false;
    float want_kept[L_N];
    int nwant = 0;
    for (int i = 0; i < L_N; i++) {
        int b = (int)(x[i] * 4.0f);
        want_hist[b < L_BINS - 1 ? b : L_BINS - 1]++;
        if (x[i] > 2.0f)
            want_kept[nwant++] = x[i];
    }
    if (memcmp(hist, want_hist, sizeof hist) != 0) {
        snprintf(why, n, "the histogram differs from C's");
        return false;
    }
    if (nkept != nwant ||
        bench_multiset_hash(kept, nkept) != bench_multiset_hash(want_kept, nwant)) {
        snprintf(why, n, "kept %d values, expected %d (or other values)", nkept, nwant);
        return false;
    }
    return true;
}

static const char cuda_large[] =
    "#define ROWS 16\n"
    "#define COLS 32\n"
    "#define N (ROWS * COLS)\n"
    "#define BINS 16\n"
    "__device__ float f(float a)\n"
    "{\n"
    "    return sinf(a) * expf(-0.5f * a) + sqrtf(a + 1.0f);\n"
    "}\n"
    "extern \"C\" __global__ void KNAME(const float *x, float *rows_out, float *stats,\n"
    "                                  int *hist, float *kept, int *nkept, float *y)\n"
    "{\n"
    "    __shared__ float m[ROWS][COLS];\n"
    "    __shared__ float red[2][32];\n"
    "    __shared__ int bins[BINS];\n"
    "    __shared__ float stack[N];\n"
    "    __shared__ int count;\n"
    "    int lane = threadIdx.x;\n"
    "    if (lane < BINS)\n"
    "        bins[lane] = 0;\n"
    "    if (lane == 0)\n"
    "        count = 0;\n"
    "    for (int e = lane; e < N; e += blockDim.x)\n"
    "        m[e / COLS][e % COLS] = f(x[e]);\n"
    "    __syncthreads();\n"
    "    for (int r = lane; r < ROWS; r += blockDim.x) {\n"
    "        float acc = 0.0f;\n"
    "        for (int c = 0; c < COLS; c++)\n"
    "            acc += m[r][c];\n"
    "        rows_out[r] = acc;\n"
    "    }\n"
    "    float mx = -__int_as_float(0x7f800000), mn = __int_as_float(0x7f800000);\n"
    "    for (int e = lane; e < N; e += blockDim.x) {\n"
    "        mx = fmaxf(mx, m[e / COLS][e % COLS]);\n"
    "        mn = fminf(mn, m[e / COLS][e % COLS]);\n"
    "    }\n"
    "    for (int o = 16; o > 0; o >>= 1) {\n"
    "        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));\n"
    "        mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, o));\n"
    "    }\n"
    "    if ((lane & 31) == 0) {\n"
    "        red[0][lane >> 5] = mx;\n"
    "        red[1][lane >> 5] = mn;\n"
    "    }\n"
    "    __syncthreads();\n"
    "    if (lane == 0) {\n"
    "        for (int w = 1; w < (int)(blockDim.x + 31) / 32; w++) {\n"
    "            mx = fmaxf(mx, red[0][w]);\n"
    "            mn = fminf(mn, red[1][w]);\n"
    "        }\n"
    "        stats[0] = mx;\n"
    "        stats[1] = mn;\n"
    "    }\n"
    "    for (int e = lane; e < N; e += blockDim.x) {\n"
    "        float v = x[e];\n"
    "        atomicAdd(&bins[min((int)(v * 4.0f), BINS - 1)], 1);\n"
    "        if (v > 2.0f)\n"
    "            stack[atomicAdd(&count, 1)] = v;\n"
    "    }\n"
    "    __syncthreads();\n"
    "    if (lane < BINS)\n"
    "        hist[lane] = bins[lane];\n"
    "    if (lane == 0)\n"
    "        nkept[0] = count;\n"
    "    for (int s = lane; s < count; s += blockDim.x)\n"
    "        kept[s] = stack[s];\n"
    "    for (int e = lane; e < 4 * COLS; e += blockDim.x)\n"
    "        m[4 + e / COLS][e % COLS] = (float)e;\n"
    "    __syncthreads();\n"
    "    for (int e = lane; e < N; e += blockDim.x)\n"
    "        y[e] = m[e / COLS][e % COLS];\n"
    "}\n";

static const char source_large[] =
    "import warp as wp\n"
    "\n"
    "ROWS = wp.constant(16)\n"
    "COLS = wp.constant(32)\n"
    "N = wp.constant(512)\n"
    "BINS = wp.constant(16)\n"
    "\n"
    "\n"
    "@wp.func\n"
    "def f(a: float):\n"
    "    return wp.sin(a) * wp.exp(a * -0.5) + wp.sqrt(a + 1.0)\n"
    "\n"
    "\n"
    "@wp.kernel\n"
    "def KNAME(x: wp.array2d[float], rows_out: wp.array[float], stats: wp.array[float],\n"
    "          hist: wp.array[int], kept: wp.array[float], nkept: wp.array[int],\n"
    "          y: wp.array2d[float]):\n"
    "    _b, lane = wp.tid()\n"
    "    t = wp.tile_load(x, shape=(ROWS, COLS))\n"
    "    m = wp.tile_map(f, t)\n"
    "    wp.tile_store(rows_out, wp.tile_reduce(wp.add, m, axis=1))\n"
    "    wp.tile_store(stats, wp.tile_reduce(wp.max, m))\n"
    "    wp.tile_store(stats, wp.tile_reduce(wp.min, m), offset=1)\n"
    "    bins = wp.tile_zeros(shape=BINS, dtype=int, storage=\"shared\")\n"
    "    s = wp.tile_stack(capacity=N, dtype=float)\n"
    "    for j in range(0, N, wp.block_dim()):\n"
    "        i = j + lane\n"
    "        has = i < N\n"
    "        k = 0\n"
    "        if has:\n"
    "            k = i\n"
    "        v = x[k / COLS, k % COLS]\n"
    "        b = wp.min(int(v * 4.0), BINS - 1)\n"
    "        wp.tile_scatter_add(bins, b, 1, has)\n"
    "        wp.tile_stack_push(s, v, has and v > 2.0)\n"
    "    wp.tile_store(hist, bins)\n"
    "    if lane == 0:\n"
    "        nkept[0] = wp.tile_stack_count(s)\n"
    "    while wp.tile_stack_count(s) > 0:\n"
    "        v, slot = wp.tile_stack_pop(s)\n"
    "        if slot >= 0:\n"
    "            kept[slot] = v\n"
    "    rows = wp.tile_view(m, offset=(4, 0), shape=(4, COLS))\n"
    "    ramp = wp.tile_arange(0.0, 128.0, 1.0, dtype=float)\n"
    "    wp.tile_assign(rows, wp.tile_reshape(ramp, shape=(4, COLS)))\n"
    "    wp.tile_store(y, m)\n";

const bench_seed bench_seeds[] = {
    {"store_doubled_thread_indices", "tile", 16, define_tile, prepare_tile, launch_tile,
     verify_tile, cuda_tile, source_tile},
    {"multiply_elements", "tile_reduce", 2, define_reduce, prepare_reduce, launch_reduce,
     verify_reduce, cuda_reduce, source_reduce},
    {"row_products", "tile_reduce (axis)", 4, define_axis, prepare_axis, launch_axis,
     verify_axis, cuda_axis, source_axis},
    {"replace_rows", "tile_view, tile_assign", 8, define_view, prepare_view, launch_view,
     verify_view, cuda_view, source_view},
    {"histogram", "tile_scatter_add", 8, define_scatter, prepare_scatter, launch_scatter,
     verify_scatter, cuda_scatter, source_scatter},
    {"compact_values", "tile_stack", 4, define_stack, prepare_stack, launch_stack,
     verify_stack, cuda_stack, source_stack},
    {"large", "larger kernel: tile_map of sin/exp/sqrt, reductions, scatter-add, stack, view",
     L_BLOCK, define_large, prepare_large, launch_large, verify_large, cuda_large, source_large},
};
const int bench_nseeds = (int)(sizeof bench_seeds / sizeof bench_seeds[0]);

const bench_seed *
bench_seed_find(const char *name)
{
    for (int i = 0; i < bench_nseeds; i++)
        if (strcmp(bench_seeds[i].name, name) == 0)
            return &bench_seeds[i];
    return NULL;
}

void
bench_seed_release(tj_array **io)
{
    for (int i = 0; i < BENCH_SEED_MAX_ARRAYS; i++) {
        tj_array_destroy(io[i]);
        io[i] = NULL;
    }
}
