/* tj-test: INTERNAL CUDA FORK */
/*
 * tests/check_cuda_driver.c: the CUDA driver layer (driver/cuda_*.c) through driver.h.
 *   nodevice: a missing library, the toolkit's stub, a library that is not a driver.
 *   fake:     a fake libcuda.so.1 built from this very file (-DTJ_FAKE_LIBCUDA, below) when a
 *             C compiler is at hand: entry-point versions, context handling, messages,
 *             the shared-memory opt-in, cleanup at close, all without a GPU.
 *   ptx:      the PTX texts of the GPU tests assembled by ptxas -arch=sm_90.
 *   cuda:     the same exercises on device 0 (run as check_cuda_driver_cuda).
 */
#include <stddef.h>
#include <stdint.h>

/* Counters the fake driver keeps and the tests read (through dlsym "fake_state"). */
typedef struct fake_state {
    int lookups;            /* cuGetProcAddress calls */
    int abi_errors;         /* entry points requested at a version with another ABI */
    int bad_flags;          /* lookups without CU_GET_PROC_ADDRESS_LEGACY_STREAM */
    int set_current;        /* cuCtxSetCurrent calls */
    int wrong_context;      /* calls made while the primary context was not current */
    int retained;           /* primary-context references held */
    int live_allocs, live_modules, live_events;
    int set_attr_calls;     /* cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) */
    int last_attr_value;
    int launches, syncs;
    int jit_logs_given;     /* the last module load passed both log buffers and sizes */
    int nonzero_stream;     /* launches or records on a stream other than 0 */
    size_t stack_size;      /* CU_LIMIT_STACK_SIZE beyond the default's 1024 (0: default) */
    int set_limit_calls;    /* cuCtxSetLimit calls */
} fake_state;

#define FAKE_OPTIN 232448 /* the fake device's opt-in shared memory per block */

#ifdef TJ_FAKE_LIBCUDA
/* ---------------------------------------------------------------------------------------- */
/* The fake driver. Device memory is host memory; kernels "twice" and "shtest" are emulated */
/* on the host. Variants: default (cuGetProcAddress_v2 and cuGetProcAddress),              */
/* TJ_FAKE_GPA_V1 (only the 4-argument cuGetProcAddress), TJ_FAKE_NO_GPA (plain exports).   */
/* ---------------------------------------------------------------------------------------- */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXPORT __attribute__((visibility("default")))
typedef int CUresult;
typedef unsigned long long CUdeviceptr;

typedef struct fake_fn {
    char name[64];
    int max_dynamic;
} fake_fn;

typedef struct fake_mod {
    char *image;
    unsigned int magic;
    fake_fn fns[8];
    int nfns;
} fake_mod;

static fake_state state;
static int primary_ctx;
static __thread void *current;

EXPORT fake_state *
fake_state_get(void)
{
    return &state;
}

EXPORT void
fake_reset(void)
{
    memset(&state, 0, sizeof state);
}

/* What other code on the thread might do between two tilejit calls. */
EXPORT void
fake_forget_context(void)
{
    current = NULL;
}

#define NEED_CTX()                                                                           \
    do {                                                                                     \
        if (current != &primary_ctx) {                                                       \
            state.wrong_context++;                                                           \
            return 201; /* CUDA_ERROR_INVALID_CONTEXT */                                     \
        }                                                                                    \
    } while (0)

static const struct {
    int code;
    const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static CUresult
error_text(CUresult e, const char **s, int which)
{
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        if (errors[i].code == e) {
            *s = which ? errors[i].text : errors[i].name;
            return 0;
        }
    }
    *s = NULL;
    return 1;
}

static CUresult fake_cuGetErrorName(CUresult e, const char **s) { return error_text(e, s, 0); }
static CUresult fake_cuGetErrorString(CUresult e, const char **s) { return error_text(e, s, 1); }

static int
env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

static CUresult fake_cuInit(unsigned flags) { return flags ? 1 : env_int("TJ_FAKE_INIT", 0); }

static CUresult
fake_cuDriverGetVersion(int *v)
{
    *v = 13000;
    return 0;
}

static CUresult
fake_cuDeviceGetCount(int *n)
{
    *n = env_int("TJ_FAKE_NDEV", 1);
    return 0;
}

static CUresult
fake_cuDeviceGet(int *dev, int ordinal)
{
    if (ordinal < 0 || ordinal >= env_int("TJ_FAKE_NDEV", 1))
        return 101;
    *dev = ordinal;
    return 0;
}

static CUresult
fake_cuDeviceGetName(char *name, int len, int dev)
{
    if (len < 16)
        return 1;
    strcpy(name, "Fake H200");
    return 0;
}

static CUresult
fake_cuDeviceGetAttribute(int *v, int attr, int dev)
{
    switch (attr) {
    case 1: *v = 1024; return 0;
    case 8: *v = 49152; return 0;
    case 16: *v = 132; return 0;
    case 75: *v = 9; return 0;
    case 76: *v = 0; return 0;
    case 97: *v = FAKE_OPTIN; return 0;
    default: return 1;
    }
}

static CUresult
fake_cuDeviceTotalMem(size_t *bytes, int dev)
{
    *bytes = (size_t)80 << 30;
    return 0;
}

static CUresult
fake_cuDevicePrimaryCtxRetain(void **ctx, int dev)
{
    state.retained++;
    *ctx = &primary_ctx;
    return 0;
}

static CUresult
fake_cuDevicePrimaryCtxRelease(int dev)
{
    state.retained--;
    return 0;
}

static CUresult
fake_cuCtxSetCurrent(void *ctx)
{
    state.set_current++;
    current = ctx;
    return 0;
}

static CUresult
fake_cuCtxSynchronize(void)
{
    NEED_CTX();
    state.syncs++;
    return 0;
}

static CUresult
fake_cuCtxGetLimit(size_t *value, int limit)
{
    NEED_CTX();
    if (limit != 0)
        return 1; /* CUDA_ERROR_INVALID_VALUE: only the stack is modelled */
    *value = state.stack_size ? state.stack_size : 1024;
    return 0;
}

static CUresult
fake_cuCtxSetLimit(int limit, size_t value)
{
    NEED_CTX();
    if (limit != 0)
        return 1;
    state.set_limit_calls++;
    if (value > ((size_t)1 << 20))
        return 2; /* CUDA_ERROR_OUT_OF_MEMORY, as a real driver says past what it can reserve */
    state.stack_size = value;
    return 0;
}

static CUresult
fake_cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
    NEED_CTX();
    if (bytes == 0)
        return 1;
    void *m = bytes > ((size_t)1 << 40) ? NULL : malloc(bytes);
    if (!m)
        return 2;
    state.live_allocs++;
    *p = (CUdeviceptr)(uintptr_t)m;
    return 0;
}

static CUresult
fake_cuMemFree(CUdeviceptr p)
{
    NEED_CTX();
    free((void *)(uintptr_t)p);
    state.live_allocs--;
    return 0;
}

static CUresult
fake_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
    NEED_CTX();
    memcpy((void *)(uintptr_t)dst, src, n);
    return 0;
}

static CUresult
fake_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return 0;
}

static CUresult
fake_cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    NEED_CTX();
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return 0;
}

static CUresult
fake_cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n)
{
    NEED_CTX();
    memset((void *)(uintptr_t)dst, v, n);
    return 0;
}

static CUresult
fake_cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals)
{
    NEED_CTX();
    char *elog = NULL, *ilog = NULL;
    size_t esize = 0, isize = 0;
    for (unsigned i = 0; i < n; i++) {
        switch (opts[i]) {
        case 3: ilog = vals[i]; break;
        case 4: isize = (size_t)(uintptr_t)vals[i]; break;
        case 5: elog = vals[i]; break;
        case 6: esize = (size_t)(uintptr_t)vals[i]; break;
        default: return 1;
        }
    }
    state.jit_logs_given = elog && esize > 100 && ilog && isize > 100;
    if (strstr(image, "frobnicate")) {
        if (elog && esize)
            snprintf(elog, esize, "ptxas application ptx input, line 8; error   : Not a name "
                                  "of any known instruction: 'frobnicate'\n");
        return 218;
    }
    fake_mod *m = calloc(1, sizeof *m);
    m->image = strdup(image);
    m->magic = 12345;
    state.live_modules++;
    *mod = m;
    return 0;
}

static CUresult
fake_cuModuleUnload(void *mod)
{
    NEED_CTX();
    fake_mod *m = mod;
    free(m->image);
    free(m);
    state.live_modules--;
    return 0;
}

static CUresult
fake_cuModuleGetFunction(void **fn, void *mod, const char *name)
{
    NEED_CTX();
    fake_mod *m = mod;
    char entry[80];
    snprintf(entry, sizeof entry, ".entry %s(", name);
    if (!strstr(m->image, entry) || m->nfns == 8)
        return 500;
    for (int i = 0; i < m->nfns; i++) {
        if (strcmp(m->fns[i].name, name) == 0) {
            *fn = &m->fns[i];
            return 0;
        }
    }
    fake_fn *f = &m->fns[m->nfns++];
    snprintf(f->name, sizeof f->name, "%s", name);
    f->max_dynamic = 49152;
    *fn = f;
    return 0;
}

static CUresult
fake_cuModuleGetGlobal(CUdeviceptr *p, size_t *bytes, void *mod, const char *name)
{
    NEED_CTX();
    fake_mod *m = mod;
    if (strcmp(name, "magic") != 0 || !strstr(m->image, ".u32 magic"))
        return 500;
    *p = (CUdeviceptr)(uintptr_t)&m->magic;
    *bytes = sizeof m->magic;
    return 0;
}

static CUresult
fake_cuFuncGetAttribute(int *v, int attr, void *fn)
{
    NEED_CTX();
    if (attr != 1)
        return 1;
    *v = 0;
    return 0;
}

static CUresult
fake_cuFuncSetAttribute(void *fn, int attr, int value)
{
    NEED_CTX();
    if (attr != 8)
        return 1;
    state.set_attr_calls++;
    state.last_attr_value = value;
    if (value > FAKE_OPTIN)
        return 1;
    ((fake_fn *)fn)->max_dynamic = value;
    return 0;
}

static void
emulate(const fake_fn *f, unsigned nthreads, void **params)
{
    uint32_t *out = (uint32_t *)(uintptr_t)*(const uint64_t *)params[0];
    uint32_t n = *(const uint32_t *)params[1];
    if (strcmp(f->name, "twice") == 0) {
        for (uint32_t i = 0; i < n && i < nthreads; i++)
            out[i] = 2 * i;
    } else if (strcmp(f->name, "shtest") == 0) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = 3 * (n - 1 - i);
    }
}

static CUresult
fake_cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                    unsigned bz, unsigned shared, void *stream, void **params, void **extra)
{
    NEED_CTX();
    fake_fn *f = fn;
    state.launches++;
    if (stream)
        state.nonzero_stream++;
    if (!gx || !gy || !gz || !bx || !by || !bz || bx * by * bz > 1024 || extra)
        return 1;
    if ((int)shared > f->max_dynamic)
        return 1;
    emulate(f, gx * bx, params);
    return 0;
}

static CUresult
fake_cuEventCreate(void **ev, unsigned flags)
{
    NEED_CTX();
    *ev = calloc(1, sizeof(struct timespec));
    state.live_events++;
    return 0;
}

static CUresult
fake_cuEventRecord(void *ev, void *stream)
{
    NEED_CTX();
    if (stream)
        state.nonzero_stream++;
    clock_gettime(CLOCK_MONOTONIC, ev);
    return 0;
}

static CUresult
fake_cuEventSynchronize(void *ev)
{
    NEED_CTX();
    return 0;
}

static CUresult
fake_cuEventElapsedTime(float *ms, void *start, void *end)
{
    NEED_CTX();
    const struct timespec *a = start, *b = end;
    double d = (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
    *ms = (float)d + 0.001f;
    return 0;
}

static CUresult
fake_cuEventDestroy(void *ev)
{
    NEED_CTX();
    free(ev);
    state.live_events--;
    return 0;
}

/* X(name, exported name, lowest version with our ABI, first version with another ABI) */
#define FAKE_ENTRIES(X)                                                                      \
    X(cuGetErrorName, cuGetErrorName, 6000, 0)                                               \
    X(cuGetErrorString, cuGetErrorString, 6000, 0)                                           \
    X(cuInit, cuInit, 2000, 0)                                                               \
    X(cuDriverGetVersion, cuDriverGetVersion, 2020, 0)                                       \
    X(cuDeviceGetCount, cuDeviceGetCount, 2000, 0)                                           \
    X(cuDeviceGet, cuDeviceGet, 2000, 0)                                                     \
    X(cuDeviceGetName, cuDeviceGetName, 2000, 0)                                             \
    X(cuDeviceGetAttribute, cuDeviceGetAttribute, 2000, 0)                                   \
    X(cuDeviceTotalMem, cuDeviceTotalMem_v2, 3020, 0)                                        \
    X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, 7000, 0)                           \
    X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, 7000, 0)                      \
    X(cuCtxSetCurrent, cuCtxSetCurrent, 4000, 0)                                             \
    X(cuCtxSynchronize, cuCtxSynchronize, 2000, 13000)                                       \
    X(cuCtxGetLimit, cuCtxGetLimit, 3010, 0)                                                 \
    X(cuCtxSetLimit, cuCtxSetLimit, 3010, 0)                                                 \
    X(cuMemAlloc, cuMemAlloc_v2, 3020, 0)                                                    \
    X(cuMemFree, cuMemFree_v2, 3020, 0)                                                      \
    X(cuMemcpyHtoD, cuMemcpyHtoD_v2, 3020, 0)                                                \
    X(cuMemcpyDtoH, cuMemcpyDtoH_v2, 3020, 0)                                                \
    X(cuMemcpyDtoD, cuMemcpyDtoD_v2, 3020, 0)                                                \
    X(cuMemsetD8, cuMemsetD8_v2, 3020, 0)                                                    \
    X(cuModuleLoadDataEx, cuModuleLoadDataEx, 2010, 0)                                       \
    X(cuModuleUnload, cuModuleUnload, 2000, 0)                                               \
    X(cuModuleGetFunction, cuModuleGetFunction, 2000, 0)                                     \
    X(cuModuleGetGlobal, cuModuleGetGlobal_v2, 3020, 0)                                      \
    X(cuFuncGetAttribute, cuFuncGetAttribute, 2020, 0)                                       \
    X(cuFuncSetAttribute, cuFuncSetAttribute, 9000, 0)                                       \
    X(cuLaunchKernel, cuLaunchKernel, 4000, 0)                                               \
    X(cuEventCreate, cuEventCreate, 2000, 0)                                                 \
    X(cuEventRecord, cuEventRecord, 2000, 0)                                                 \
    X(cuEventSynchronize, cuEventSynchronize, 2000, 0)                                       \
    X(cuEventElapsedTime, cuEventElapsedTime, 2000, 0)                                       \
    X(cuEventDestroy, cuEventDestroy_v2, 2000, 0)

#ifdef TJ_FAKE_NO_GPA
#define EXPORT_ALIAS(name, exported, lo, hi)                                                 \
    EXPORT __typeof__(fake_##name) exported __attribute__((alias("fake_" #name)));
FAKE_ENTRIES(EXPORT_ALIAS)
#else
static const struct {
    const char *name;
    void (*fn)(void);
    int lo, hi;
} entries[] = {
#define TABLE_ROW(name, exported, lo, hi) {#name, (void (*)(void))fake_##name, lo, hi},
    FAKE_ENTRIES(TABLE_ROW)
#undef TABLE_ROW
};

static CUresult
lookup(const char *symbol, void **pfn, int version, unsigned long long flags)
{
    state.lookups++;
    if (!(flags & 1))
        state.bad_flags++;
    *pfn = NULL;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        if (strcmp(entries[i].name, symbol) != 0)
            continue;
        if (version < entries[i].lo || (entries[i].hi && version >= entries[i].hi))
            state.abi_errors++;
        memcpy(pfn, &entries[i].fn, sizeof *pfn);
        return 0;
    }
    return 500;
}

EXPORT CUresult
cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags)
{
    return lookup(symbol, pfn, version, flags);
}

#ifndef TJ_FAKE_GPA_V1
EXPORT CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
                    int *status)
{
    CUresult r = lookup(symbol, pfn, version, flags);
    if (status)
        *status = r == 0 ? 0 : 1;
    return r;
}
#endif
#endif /* TJ_FAKE_NO_GPA */

#else /* !TJ_FAKE_LIBCUDA: the tests */
/* ---------------------------------------------------------------------------------------- */

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "tj_test.h"

/* ---- PTX used on the GPU (and by the fake driver, which looks for the entry names) -------- */

static const char good_ptx[] =
    ".version 7.8\n"
    ".target sm_70\n"
    ".address_size 64\n"
    "\n"
    ".visible .global .align 4 .u32 magic = 12345;\n"
    ".extern .shared .align 16 .b8 dsmem[];\n"
    "\n"
    "// out[i] = 2 * i for i < n\n"
    ".visible .entry twice(.param .u64 twice_out, .param .u32 twice_n)\n"
    "{\n"
    "    .reg .pred %p<2>;\n"
    "    .reg .b32 %r<7>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [twice_out];\n"
    "    ld.param.u32 %r1, [twice_n];\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "    setp.ge.u32 %p1, %r5, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mul.wide.u32 %rd3, %r5, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    shl.b32 %r6, %r5, 1;\n"
    "    st.global.u32 [%rd4], %r6;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n"
    "\n"
    "// one block: sh[j] = 3 * j for j < nwords; barrier; out[j] = sh[nwords - 1 - j]\n"
    ".visible .entry shtest(.param .u64 shtest_out, .param .u32 shtest_nwords)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<5>;\n"
    "    ld.param.u64 %rd1, [shtest_out];\n"
    "    ld.param.u32 %r1, [shtest_nwords];\n"
    "    cvta.to.global.u64 %rd2, %rd1;\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, dsmem;\n"
    "    mov.u32 %r5, %r2;\n"
    "FILL:\n"
    "    setp.ge.u32 %p1, %r5, %r1;\n"
    "    @%p1 bra FILLED;\n"
    "    mul.lo.s32 %r6, %r5, 3;\n"
    "    shl.b32 %r7, %r5, 2;\n"
    "    add.s32 %r8, %r4, %r7;\n"
    "    st.shared.u32 [%r8], %r6;\n"
    "    add.s32 %r5, %r5, %r3;\n"
    "    bra FILL;\n"
    "FILLED:\n"
    "    bar.sync 0;\n"
    "    mov.u32 %r5, %r2;\n"
    "READ:\n"
    "    setp.ge.u32 %p2, %r5, %r1;\n"
    "    @%p2 bra DONE;\n"
    "    sub.s32 %r9, %r1, 1;\n"
    "    sub.s32 %r9, %r9, %r5;\n"
    "    shl.b32 %r10, %r9, 2;\n"
    "    add.s32 %r8, %r4, %r10;\n"
    "    ld.shared.u32 %r11, [%r8];\n"
    "    mul.wide.u32 %rd3, %r5, 4;\n"
    "    add.s64 %rd4, %rd2, %rd3;\n"
    "    st.global.u32 [%rd4], %r11;\n"
    "    add.s32 %r5, %r5, %r3;\n"
    "    bra READ;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

/* Fails in the JIT: an unknown instruction on line 8. */
static const char bad_ptx[] =
    ".version 7.8\n"
    ".target sm_70\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry bad(.param .u64 bad_out)\n"
    "{\n"
    "    .reg .b32 %r<2>;\n"
    "    frobnicate.u32 %r1, 7;\n"
    "    ret;\n"
    "}\n";

#define CHECK_OK(c, call)                                                                    \
    do {                                                                                     \
        tj_status st_ = (call);                                                              \
        ck_assert_msg(st_ == TJ_OK, "%s: status %d: %s", #call, (int)st_,                   \
                      tji_cuda_error(c));                                                    \
    } while (0)

#define ck_assert_has(haystack, needle)                                                      \
    ck_assert_msg(strstr((haystack), (needle)) != NULL, "'%s' lacks '%s'", (haystack),      \
                  (needle))

/* ---- exercises shared by the fake and the real driver ------------------------------------ */

static void
exercise_info(tji_cuda *c)
{
    const tji_cuda_info *info = tji_cuda_get_info(c);
    ck_assert_ptr_nonnull(info);
    ck_assert_msg(info->name[0] != 0, "empty device name");
    ck_assert_int_ge(info->cc_major, 7);
    ck_assert_int_ge(info->cc_minor, 0);
    ck_assert_int_gt(info->sm_count, 0);
    ck_assert_int_ge(info->max_threads_per_block, 256);
    ck_assert_uint_gt(info->total_mem_bytes, (size_t)1 << 30);
    ck_assert_uint_ge(info->max_shared_default, 48 * 1024);
    ck_assert_uint_ge(info->max_shared_optin, info->max_shared_default);
    ck_assert_int_ge(info->driver_version, 11030);
    ck_assert_str_eq(tji_cuda_error(c), "");
}

static void
exercise_memory(tji_cuda *c)
{
    enum { N = 4096 };
    static uint8_t host[N], back[N];
    uint64_t a = 0, b = 0, z = 1;
    for (int i = 0; i < N; i++)
        host[i] = (uint8_t)(i * 7 + 3);
    CHECK_OK(c, tji_cuda_alloc(c, N, &a));
    CHECK_OK(c, tji_cuda_alloc(c, N, &b));
    ck_assert(a != 0 && b != 0 && a != b);
    CHECK_OK(c, tji_cuda_copy_htod(c, a, host, N));
    CHECK_OK(c, tji_cuda_copy_dtod(c, b, a, N));
    memset(back, 0, N);
    CHECK_OK(c, tji_cuda_copy_dtoh(c, back, b, N));
    ck_assert_mem_eq(back, host, N);
    CHECK_OK(c, tji_cuda_memset(c, b + 100, 0xab, 1000));
    CHECK_OK(c, tji_cuda_copy_dtoh(c, back, b, N));
    int bad = 0;
    while (bad < N && back[bad] == (bad >= 100 && bad < 1100 ? 0xab : host[bad]))
        bad++;
    ck_assert_msg(bad == N, "after memset: byte %d is 0x%x", bad, back[bad % N]);
    /* zero bytes: nothing to do, no driver call needed */
    CHECK_OK(c, tji_cuda_alloc(c, 0, &z));
    ck_assert_uint_eq(z, 0);
    CHECK_OK(c, tji_cuda_copy_htod(c, a, NULL, 0));
    CHECK_OK(c, tji_cuda_memset(c, a, 0, 0));
    CHECK_OK(c, tji_cuda_free(c, 0));
    CHECK_OK(c, tji_cuda_free(c, a));
    CHECK_OK(c, tji_cuda_free(c, b));
    ck_assert_int_eq(tji_cuda_copy_dtoh(c, NULL, a, 4), TJ_ERR_INVALID);
    ck_assert_has(tji_cuda_error(c), "'dst' is NULL");
}

static void
exercise_oom(tji_cuda *c)
{
    uint64_t p = 1;
    ck_assert_int_eq(tji_cuda_alloc(c, (size_t)1 << 50, &p), TJ_ERR_NOMEM);
    ck_assert_uint_eq(p, 0);
    ck_assert_has(tji_cuda_error(c),
                  "cuMemAlloc(1125899906842624 bytes): CUDA_ERROR_OUT_OF_MEMORY: ");
    /* the handle stays usable */
    CHECK_OK(c, tji_cuda_alloc(c, 64, &p));
    CHECK_OK(c, tji_cuda_free(c, p));
}

/* Loads good_ptx, runs twice over 'n' elements with 'block' threads per block, checks. */
static void
run_twice(tji_cuda *c, uint32_t n, uint32_t block)
{
    tji_cuda_module *m = NULL;
    tji_cuda_function *fn = NULL, *again = NULL;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    CHECK_OK(c, tji_cuda_module_function(c, m, "twice", &fn));
    CHECK_OK(c, tji_cuda_module_function(c, m, "twice", &again));
    ck_assert_ptr_eq(fn, again);
    uint32_t *host = malloc((size_t)n * 4);
    ck_assert_ptr_nonnull(host);
    uint64_t out = 0;
    CHECK_OK(c, tji_cuda_alloc(c, (size_t)n * 4, &out));
    CHECK_OK(c, tji_cuda_memset(c, out, 0xff, (size_t)n * 4));
    void *params[] = {&out, &n};
    uint32_t grid[3] = {(n + block - 1) / block, 1, 1}, blk[3] = {block, 1, 1};
    CHECK_OK(c, tji_cuda_launch(c, fn, grid, blk, 0, params));
    CHECK_OK(c, tji_cuda_synchronize(c));
    CHECK_OK(c, tji_cuda_copy_dtoh(c, host, out, (size_t)n * 4));
    uint32_t bad = 0;
    while (bad < n && host[bad] == 2 * bad)
        bad++;
    ck_assert_msg(bad == n, "out[%u] = %u, expected %u", bad, host[bad % n], 2 * bad);
    CHECK_OK(c, tji_cuda_free(c, out));
    free(host);
    tji_cuda_module_unload(c, m);
}

static void
exercise_globals(tji_cuda *c)
{
    tji_cuda_module *m = NULL;
    uint64_t p = 0;
    size_t bytes = 0;
    uint32_t v = 0;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    CHECK_OK(c, tji_cuda_module_global(c, m, "magic", &p, &bytes));
    ck_assert_uint_eq(bytes, 4);
    CHECK_OK(c, tji_cuda_copy_dtoh(c, &v, p, 4));
    ck_assert_uint_eq(v, 12345);
    ck_assert_int_eq(tji_cuda_module_global(c, m, "nothing_here", &p, &bytes), TJ_ERR_CUDA);
    ck_assert_has(tji_cuda_error(c), "cuModuleGetGlobal(\"nothing_here\"): CUDA_ERROR_NOT_FOUND");
    tji_cuda_function *fn = NULL;
    ck_assert_int_eq(tji_cuda_module_function(c, m, "nothing_here", &fn), TJ_ERR_CUDA);
    ck_assert_ptr_null(fn);
    ck_assert_has(tji_cuda_error(c),
                  "cuModuleGetFunction(\"nothing_here\"): CUDA_ERROR_NOT_FOUND");
    tji_cuda_module_unload(c, m);
}

/* shtest with 'nwords' words of dynamic shared memory, 256 threads in one block. */
static tj_status
run_shtest(tji_cuda *c, tji_cuda_function *fn, uint32_t nwords, bool check)
{
    uint64_t out = 0;
    CHECK_OK(c, tji_cuda_alloc(c, (size_t)nwords * 4, &out));
    void *params[] = {&out, &nwords};
    uint32_t grid[3] = {1, 1, 1}, blk[3] = {256, 1, 1};
    tj_status st = tji_cuda_launch(c, fn, grid, blk, (size_t)nwords * 4, params);
    if (st == TJ_OK && check) {
        uint32_t *host = malloc((size_t)nwords * 4);
        ck_assert_ptr_nonnull(host);
        CHECK_OK(c, tji_cuda_synchronize(c));
        CHECK_OK(c, tji_cuda_copy_dtoh(c, host, out, (size_t)nwords * 4));
        uint32_t bad = 0;
        while (bad < nwords && host[bad] == 3 * (nwords - 1 - bad))
            bad++;
        ck_assert_msg(bad == nwords, "out[%u] = %u", bad, host[bad % nwords]);
        free(host);
    }
    CHECK_OK(c, tji_cuda_synchronize(c));
    CHECK_OK(c, tji_cuda_free(c, out));
    return st;
}

static void
exercise_dynamic_shared(tji_cuda *c)
{
    const tji_cuda_info *info = tji_cuda_get_info(c);
    tji_cuda_module *m = NULL;
    tji_cuda_function *fn = NULL;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    CHECK_OK(c, tji_cuda_module_function(c, m, "shtest", &fn));
    CHECK_OK(c, run_shtest(c, fn, 1024, true));             /* 4 KiB: no opt-in */
    CHECK_OK(c, run_shtest(c, fn, 16384, true));            /* 64 KiB: opt-in */
    CHECK_OK(c, run_shtest(c, fn, 16384, true));
    CHECK_OK(c, run_shtest(c, fn, 1024, true));
    /* over the opt-in maximum: refused before the driver sees it, both numbers named */
    size_t over = info->max_shared_optin + 4096;
    ck_assert_int_eq(run_shtest(c, fn, (uint32_t)(over / 4), false), TJ_ERR_LIMIT);
    char num[32];
    snprintf(num, sizeof num, "%zu", over);
    ck_assert_has(tji_cuda_error(c), num);
    snprintf(num, sizeof num, "%zu", info->max_shared_optin);
    ck_assert_has(tji_cuda_error(c), num);
    /* the function still runs with what it had */
    CHECK_OK(c, run_shtest(c, fn, 16384, true));
    tji_cuda_module_unload(c, m);
}

/* The per-thread stack: read, raised, refused past what the driver can reserve (the call
 * named), then put back. */
static void
exercise_stack_size(tji_cuda *c)
{
    size_t was = 0, now = 0;
    CHECK_OK(c, tji_cuda_get_stack_size(c, &was));
    ck_assert_uint_ge(was, 256);
    CHECK_OK(c, tji_cuda_set_stack_size(c, 8192));
    CHECK_OK(c, tji_cuda_get_stack_size(c, &now));
    ck_assert_uint_eq(now, 8192);
    size_t huge = (size_t)1 << 40;
    ck_assert_int_ne(tji_cuda_set_stack_size(c, huge), TJ_OK);
    ck_assert_has(tji_cuda_error(c), "cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1099511627776): ");
    CHECK_OK(c, tji_cuda_set_stack_size(c, was));
    CHECK_OK(c, tji_cuda_get_stack_size(c, &now));
    ck_assert_uint_eq(now, was);
}

static void
exercise_bad_ptx(tji_cuda *c)
{
    tji_cuda_module *m = (tji_cuda_module *)&m;
    ck_assert_int_eq(tji_cuda_module_load(c, bad_ptx, &m), TJ_ERR_CUDA);
    ck_assert_ptr_null(m);
    const char *msg = tji_cuda_error(c);
    ck_assert_has(msg, "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX");
    ck_assert_has(msg, "frobnicate");           /* from the JIT's error log */
    /* the context stays usable */
    run_twice(c, 1000, 128);
}

static void
exercise_events(tji_cuda *c)
{
    tji_cuda_event *a = NULL, *b = NULL;
    CHECK_OK(c, tji_cuda_event_create(c, &a));
    CHECK_OK(c, tji_cuda_event_create(c, &b));
    CHECK_OK(c, tji_cuda_event_record(c, a));
    run_twice(c, 1u << 22, 256);
    CHECK_OK(c, tji_cuda_event_record(c, b));
    float ms = -1;
    CHECK_OK(c, tji_cuda_event_elapsed(c, a, b, &ms));
    ck_assert_msg(ms > 0 && ms < 60000, "elapsed %g ms", (double)ms);
    tji_cuda_event_destroy(c, a);
    tji_cuda_event_destroy(c, b);
    tji_cuda_event_destroy(c, NULL);
}

/* The same handle used from another thread: each call makes the context current. No
 * ck_assert in the thread; it returns NULL or what went wrong. */
typedef struct thread_job {
    tji_cuda *c;
    tji_cuda_function *twice;
    char why[TJI_ERRMSG_BYTES + 64];
} thread_job;

static void *
thread_body(void *arg)
{
    thread_job *job = arg;
    tji_cuda *c = job->c;
    uint64_t p = 0;
    uint32_t n = 300, host[300];
    void *params[] = {&p, &n};
    uint32_t grid[3] = {5, 1, 1}, blk[3] = {64, 1, 1};
    if (tji_cuda_alloc(c, sizeof host, &p) != TJ_OK ||
        tji_cuda_memset(c, p, 0, sizeof host) != TJ_OK ||
        tji_cuda_launch(c, job->twice, grid, blk, 0, params) != TJ_OK ||
        tji_cuda_synchronize(c) != TJ_OK || tji_cuda_copy_dtoh(c, host, p, sizeof host) != TJ_OK ||
        tji_cuda_free(c, p) != TJ_OK) {
        snprintf(job->why, sizeof job->why, "%s", tji_cuda_error(c));
        return job->why;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (host[i] != 2 * i) {
            snprintf(job->why, sizeof job->why, "out[%u] = %u", i, host[i]);
            return job->why;
        }
    }
    return NULL;
}

static void
exercise_other_thread(tji_cuda *c)
{
    thread_job job = {.c = c};
    tji_cuda_module *m = NULL;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    CHECK_OK(c, tji_cuda_module_function(c, m, "twice", &job.twice));
    for (int round = 0; round < 3; round++) {
        pthread_t t;
        void *res = (void *)"not run";
        ck_assert_int_eq(pthread_create(&t, NULL, thread_body, &job), 0);
        ck_assert_int_eq(pthread_join(t, &res), 0);
        ck_assert_msg(res == NULL, "other thread: %s", res ? (const char *)res : "");
        /* and back on this thread */
        run_twice(c, 100, 32);
    }
    tji_cuda_module_unload(c, m);
}

/* Leaves a module and events behind for tji_cuda_close to release. */
static void
leave_things_behind(tji_cuda *c)
{
    tji_cuda_module *m1 = NULL, *m2 = NULL;
    tji_cuda_function *fn = NULL;
    tji_cuda_event *e = NULL;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m1));
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m2));
    CHECK_OK(c, tji_cuda_module_function(c, m1, "twice", &fn));
    CHECK_OK(c, tji_cuda_module_function(c, m2, "shtest", &fn));
    CHECK_OK(c, tji_cuda_event_create(c, &e));
    CHECK_OK(c, tji_cuda_event_create(c, &e));
}

/* ---- nodevice ----------------------------------------------------------------------------- */

static void
expect_no_device(const char *reason)
{
    char msg[TJI_ERRMSG_BYTES] = "unset";
    int count = -1;
    ck_assert_int_eq(tji_cuda_device_count(&count, msg, sizeof msg), TJ_OK);
    ck_assert_int_eq(count, 0);
    ck_assert_has(msg, reason);
    tji_cuda *c = (tji_cuda *)&count;
    ck_assert_int_eq(tji_cuda_open(0, &c, msg, sizeof msg), TJ_ERR_NO_DEVICE);
    ck_assert_ptr_null(c);
    ck_assert_has(msg, reason);
    /* no message buffer is fine too */
    ck_assert_int_eq(tji_cuda_open(0, &c, NULL, 0), TJ_ERR_NO_DEVICE);
    ck_assert_int_eq(tji_cuda_device_count(&count, NULL, 0), TJ_OK);
}

START_TEST(test_missing_library_is_no_device)
{
    setenv("TILEJIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    expect_no_device("no CUDA driver: /nonexistent/libcuda.so.1 not found");
}
END_TEST

static const char *
stub_path(void)
{
    static char path[PATH_MAX];
    const char *home = getenv("CUDA_HOME");
    const char *dirs[] = {home, "/usr/local/cuda"};
    const char *subs[] = {"lib64/stubs", "lib/stubs", "targets/x86_64-linux/lib/stubs"};
    for (size_t i = 0; i < 2; i++) {
        for (size_t j = 0; dirs[i] && *dirs[i] && j < 3; j++) {
            snprintf(path, sizeof path, "%s/%s/libcuda.so", dirs[i], subs[j]);
            if (access(path, R_OK) == 0)
                return path;
        }
    }
    return NULL;
}

START_TEST(test_stub_library_is_no_device)
{
    const char *stub = stub_path();
    if (!stub) {
        printf("note: no CUDA toolkit stub libcuda.so here; stub test not run\n");
        return;
    }
    setenv("TILEJIT_LIBCUDA", stub, 1);
    expect_no_device("the CUDA driver is the toolkit's stub library");
}
END_TEST

START_TEST(test_default_library)
{
    unsetenv("TILEJIT_LIBCUDA");
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        /* a machine with a driver: the count works; the cuda case does the rest */
        dlclose(lib);
        int count = -1;
        char msg[TJI_ERRMSG_BYTES];
        ck_assert_int_eq(tji_cuda_device_count(&count, msg, sizeof msg), TJ_OK);
        ck_assert_int_ge(count, 0);
        return;
    }
    expect_no_device("no CUDA driver: libcuda.so.1 not found");
}
END_TEST

START_TEST(test_library_that_is_not_a_driver)
{
    setenv("TILEJIT_LIBCUDA", "libm.so.6", 1);
    expect_no_device("no CUDA driver: libm.so.6 has no cuGetErrorName");
}
END_TEST

START_TEST(test_null_arguments)
{
    char msg[64];
    tji_cuda_close(NULL);
    ck_assert_ptr_null(tji_cuda_get_info(NULL));
    ck_assert_ptr_nonnull(tji_cuda_error(NULL));
    ck_assert_int_eq(tji_cuda_device_count(NULL, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_int_eq(tji_cuda_open(0, NULL, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_int_eq(tji_cuda_alloc(NULL, 4, NULL), TJ_ERR_INVALID);
    ck_assert_int_eq(tji_cuda_synchronize(NULL), TJ_ERR_INVALID);
    tji_cuda_module_unload(NULL, NULL);
    tji_cuda_event_destroy(NULL, NULL);
}
END_TEST

/* ---- fake driver -------------------------------------------------------------------------- */

enum { FAKE_GPA_V2, FAKE_GPA_V1, FAKE_NO_GPA, NFAKES };
static const char *const fake_defines[NFAKES] = {"", "-DTJ_FAKE_GPA_V1", "-DTJ_FAKE_NO_GPA"};
/* Built once per run in the parent (an unchecked fixture); the forked tests inherit it.
 * Without a compiler or the source (a build carried to another machine) the fake tests
 * are not run; a compiler that fails on the fake is a test failure. */
static char fake_dir[64];
static char fake_paths[NFAKES][128];
static char fake_unavailable[256];
static char fake_broken[2048];

static void
read_log(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(buf, 1, n - 1, f) : 0;
    buf[got] = 0;
    if (f)
        fclose(f);
}

static void
compile_fakes(const char *cc)
{
    char cmd[1024], path[128], log[1200];
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", cc);
    if (system(cmd) != 0) {
        snprintf(fake_unavailable, sizeof fake_unavailable, "no C compiler '%s'", cc);
        return;
    }
    for (int i = 0; i < NFAKES; i++) {
        snprintf(fake_paths[i], sizeof fake_paths[i], "%s/libcuda%d.so.1", fake_dir, i);
        snprintf(cmd, sizeof cmd,
                 "'%s' -std=gnu11 -shared -fPIC -g -O1 -fvisibility=hidden -Wall -Wextra "
                 "-Wno-unused-parameter -Werror -DTJ_FAKE_LIBCUDA %s -o %s '%s' >%s/cc.log 2>&1",
                 cc, fake_defines[i], fake_paths[i], __FILE__, fake_dir);
        if (system(cmd) != 0) {
            snprintf(path, sizeof path, "%s/cc.log", fake_dir);
            read_log(path, log, sizeof log);
            snprintf(fake_broken, sizeof fake_broken, "%.700s:\n%s", cmd, log);
            fake_paths[i][0] = 0;
            return;
        }
    }
}

static void
fake_build(void)
{
    const char *cc = getenv("CC");
    cc = cc && *cc ? cc : "cc";
    if (access(__FILE__, R_OK) != 0) {
        snprintf(fake_unavailable, sizeof fake_unavailable, "no test source %s", __FILE__);
        return;
    }
    snprintf(fake_dir, sizeof fake_dir, "/tmp/tj_fakecuda_XXXXXX");
    if (!mkdtemp(fake_dir)) {
        snprintf(fake_broken, sizeof fake_broken, "mkdtemp(%s) failed", fake_dir);
        fake_dir[0] = 0;
        return;
    }
    /* Under valgrind --trace-children=yes the compiler would run under valgrind too, and
     * its own leaks would fail it. A traced child reads VALGRIND_OPTS, so the shell that
     * system() starts traces nothing further. Without valgrind this does nothing. */
    const char *old_opts = getenv("VALGRIND_OPTS");
    char *saved = old_opts ? strdup(old_opts) : NULL;
    setenv("VALGRIND_OPTS", "--trace-children-skip=*", 1);
    compile_fakes(cc);
    if (saved)
        setenv("VALGRIND_OPTS", saved, 1);
    else
        unsetenv("VALGRIND_OPTS");
    free(saved);
}

static void
fake_clean(void)
{
    char path[256];
    for (int i = 0; i < NFAKES; i++)
        if (fake_paths[i][0])
            unlink(fake_paths[i]);
    if (fake_dir[0]) {
        snprintf(path, sizeof path, "%s/cc.log", fake_dir);
        unlink(path);
        rmdir(fake_dir);
    }
}

/* A fake driver in use by this test: its library handle and counters. */
typedef struct fake {
    void *lib;
    fake_state *st;
    void (*forget)(void);   /* unsets the calling thread's current context */
} fake;

/* Points TILEJIT_LIBCUDA at fake 'which'; false (with a note) where it cannot be built. */
static bool
fake_use(int which, fake *f)
{
    memset(f, 0, sizeof *f);
    ck_assert_msg(!fake_broken[0], "building the fake libcuda failed: %s", fake_broken);
    if (fake_unavailable[0] || !fake_paths[which][0]) {
        printf("note: fake libcuda not built (%s); test not run\n",
               fake_unavailable[0] ? fake_unavailable : "its fixture did not run");
        return false;
    }
    setenv("TILEJIT_LIBCUDA", fake_paths[which], 1);
    unsetenv("TJ_FAKE_INIT");
    unsetenv("TJ_FAKE_NDEV");
    f->lib = dlopen(fake_paths[which], RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(f->lib != NULL, "dlopen %s: %s", fake_paths[which], dlerror());
    fake_state *(*get)(void) = NULL;
    void (*reset)(void) = NULL;
    void *sym = dlsym(f->lib, "fake_state_get");
    memcpy(&get, &sym, sizeof sym);
    sym = dlsym(f->lib, "fake_reset");
    memcpy(&reset, &sym, sizeof sym);
    sym = dlsym(f->lib, "fake_forget_context");
    memcpy(&f->forget, &sym, sizeof sym);
    ck_assert(get && reset && f->forget);
    reset();
    f->st = get();
    return true;
}

/* Opens device 0 of the fake; the shared checks run after 'body' and close. */
static void
fake_run(int which, void (*body)(tji_cuda *c))
{
    fake f;
    if (!fake_use(which, &f))
        return;
    char msg[TJI_ERRMSG_BYTES];
    tji_cuda *c = NULL;
    ck_assert_msg(tji_cuda_open(0, &c, msg, sizeof msg) == TJ_OK, "open: %s", msg);
    ck_assert_int_eq(f.st->retained, 1);
    body(c);
    tji_cuda_close(c);
    ck_assert_int_eq(f.st->retained, 0);
    ck_assert_int_eq(f.st->live_modules, 0);
    ck_assert_int_eq(f.st->live_events, 0);
    ck_assert_int_eq(f.st->live_allocs, 0);
    ck_assert_int_eq(f.st->wrong_context, 0);
    ck_assert_int_eq(f.st->abi_errors, 0);
    ck_assert_int_eq(f.st->bad_flags, 0);
    ck_assert_int_eq(f.st->nonzero_stream, 0);
    if (which == FAKE_NO_GPA)
        ck_assert_int_eq(f.st->lookups, 0);
    else
        ck_assert_int_gt(f.st->lookups, 20);
    dlclose(f.lib);
}

static void
body_info(tji_cuda *c)
{
    const tji_cuda_info *info = tji_cuda_get_info(c);
    exercise_info(c);
    ck_assert_str_eq(info->name, "Fake H200");
    ck_assert_int_eq(info->cc_major, 9);
    ck_assert_int_eq(info->cc_minor, 0);
    ck_assert_int_eq(info->sm_count, 132);
    ck_assert_int_eq(info->max_threads_per_block, 1024);
    ck_assert_uint_eq(info->total_mem_bytes, (size_t)80 << 30);
    ck_assert_uint_eq(info->max_shared_default, 49152);
    ck_assert_uint_eq(info->max_shared_optin, FAKE_OPTIN);
    ck_assert_int_eq(info->driver_version, 13000);
}

START_TEST(test_fake_open_reads_info_with_versioned_entry_points)
{
    fake_run(FAKE_GPA_V2, body_info);
    fake_run(FAKE_GPA_V1, body_info);
    fake_run(FAKE_NO_GPA, body_info);
}
END_TEST

START_TEST(test_fake_memory_round_trips)
{
    fake_run(FAKE_GPA_V2, exercise_memory);
}
END_TEST

static void
body_oom_message(tji_cuda *c)
{
    exercise_oom(c);
    uint64_t p = 0;
    ck_assert_int_eq(tji_cuda_alloc(c, (size_t)1 << 41, &p), TJ_ERR_NOMEM);
    ck_assert_str_eq(tji_cuda_error(c),
                     "cuMemAlloc(2199023255552 bytes): CUDA_ERROR_OUT_OF_MEMORY: out of memory");
}

START_TEST(test_fake_alloc_failure_is_nomem_naming_the_call)
{
    fake_run(FAKE_GPA_V2, body_oom_message);
}
END_TEST

static void
body_kernels(tji_cuda *c)
{
    run_twice(c, 1000, 128);
    exercise_globals(c);
}

START_TEST(test_fake_kernel_launch_and_globals)
{
    fake_run(FAKE_GPA_V2, body_kernels);
    fake_run(FAKE_GPA_V1, body_kernels);
    fake_run(FAKE_NO_GPA, body_kernels);
}
END_TEST

START_TEST(test_fake_dynamic_shared_opt_in_once_per_size)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    tji_cuda *c = NULL;
    CHECK_OK(c, tji_cuda_open(0, &c, NULL, 0));
    tji_cuda_module *m = NULL;
    tji_cuda_function *fn = NULL;
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    CHECK_OK(c, tji_cuda_module_function(c, m, "shtest", &fn));
    CHECK_OK(c, run_shtest(c, fn, 12288, true)); /* 48 KiB: the default limit */
    ck_assert_int_eq(f.st->set_attr_calls, 0);
    CHECK_OK(c, run_shtest(c, fn, 16384, true));
    CHECK_OK(c, run_shtest(c, fn, 16384, true));
    ck_assert_int_eq(f.st->set_attr_calls, 1);
    ck_assert_int_eq(f.st->last_attr_value, 65536);
    CHECK_OK(c, run_shtest(c, fn, 24576, true));
    CHECK_OK(c, run_shtest(c, fn, 16384, true));
    ck_assert_int_eq(f.st->set_attr_calls, 2);
    ck_assert_int_eq(f.st->last_attr_value, 98304);
    ck_assert_int_eq(run_shtest(c, fn, FAKE_OPTIN / 4 + 1, false), TJ_ERR_LIMIT);
    ck_assert_str_eq(tji_cuda_error(c),
                     "cuLaunchKernel(\"shtest\"): 232452 bytes of dynamic shared memory per "
                     "block exceed the device's opt-in maximum of 232448 bytes");
    ck_assert_int_eq(f.st->set_attr_calls, 2);
    CHECK_OK(c, run_shtest(c, fn, FAKE_OPTIN / 4, true));
    ck_assert_int_eq(f.st->set_attr_calls, 3);
    tji_cuda_close(c);
    ck_assert_int_eq(f.st->live_modules, 0);
    dlclose(f.lib);
    /* and the GPU case's version of it */
    fake_run(FAKE_GPA_V2, exercise_dynamic_shared);
}
END_TEST

static void
body_bad_ptx(tji_cuda *c)
{
    exercise_bad_ptx(c);
    ck_assert_str_eq(tji_cuda_error(c),
                     "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation "
                     "failed: ptxas application ptx input, line 8; error   : Not a name of "
                     "any known instruction: 'frobnicate'");
}

START_TEST(test_fake_stack_size_is_read_and_set)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    tji_cuda *c = NULL;
    CHECK_OK(c, tji_cuda_open(0, &c, NULL, 0));
    exercise_stack_size(c);
    ck_assert_int_eq(f.st->set_limit_calls, 3);
    ck_assert_str_eq(tji_cuda_error(c), "cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1099511627776): "
                                        "CUDA_ERROR_OUT_OF_MEMORY: out of memory");
    tji_cuda_close(c);
    dlclose(f.lib);
}
END_TEST

START_TEST(test_fake_bad_ptx_reports_jit_log)
{
    fake_run(FAKE_GPA_V2, body_bad_ptx);
}
END_TEST

START_TEST(test_fake_module_load_passes_log_buffers)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    tji_cuda *c = NULL;
    tji_cuda_module *m = NULL;
    CHECK_OK(c, tji_cuda_open(0, &c, NULL, 0));
    CHECK_OK(c, tji_cuda_module_load(c, good_ptx, &m));
    ck_assert_int_eq(f.st->jit_logs_given, 1);
    tji_cuda_close(c);
    dlclose(f.lib);
}
END_TEST

START_TEST(test_fake_events_measure_time)
{
    fake_run(FAKE_GPA_V2, exercise_events);
}
END_TEST

START_TEST(test_fake_handle_works_from_another_thread)
{
    fake_run(FAKE_GPA_V2, exercise_other_thread);
}
END_TEST

START_TEST(test_fake_close_releases_modules_and_events)
{
    fake_run(FAKE_GPA_V2, leave_things_behind);
}
END_TEST

/* Someone else changes the thread's context before every call: each call sets it again. */
START_TEST(test_fake_every_call_makes_the_context_current)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    tji_cuda *c = NULL;
    tji_cuda_module *m = NULL;
    tji_cuda_function *fn = NULL;
    tji_cuda_event *e1 = NULL, *e2 = NULL;
    uint64_t a = 0, b = 0, g = 0;
    size_t gbytes = 0;
    uint32_t n = 16384, host[4] = {1, 2, 3, 4};
    float ms = 0;
    void *params[] = {&a, &n};
    uint32_t grid[3] = {1, 1, 1}, blk[3] = {256, 1, 1};
    CHECK_OK(c, tji_cuda_open(0, &c, NULL, 0));
#define FORGET_THEN(call)                                                                    \
    do {                                                                                     \
        f.forget();                                                                          \
        CHECK_OK(c, call);                                                                   \
    } while (0)
    FORGET_THEN(tji_cuda_alloc(c, 65536, &a));
    FORGET_THEN(tji_cuda_alloc(c, 65536, &b));
    FORGET_THEN(tji_cuda_copy_htod(c, a, host, sizeof host));
    FORGET_THEN(tji_cuda_copy_dtod(c, b, a, sizeof host));
    FORGET_THEN(tji_cuda_memset(c, b, 0, 4));
    FORGET_THEN(tji_cuda_copy_dtoh(c, host, b, sizeof host));
    ck_assert_uint_eq(host[0], 0);
    ck_assert_uint_eq(host[1], 2);
    FORGET_THEN(tji_cuda_module_load(c, good_ptx, &m));
    FORGET_THEN(tji_cuda_module_function(c, m, "shtest", &fn));
    FORGET_THEN(tji_cuda_module_global(c, m, "magic", &g, &gbytes));
    FORGET_THEN(tji_cuda_event_create(c, &e1));
    FORGET_THEN(tji_cuda_event_create(c, &e2));
    FORGET_THEN(tji_cuda_event_record(c, e1));
    FORGET_THEN(tji_cuda_launch(c, fn, grid, blk, 65536, params));
    FORGET_THEN(tji_cuda_event_record(c, e2));
    FORGET_THEN(tji_cuda_synchronize(c));
    FORGET_THEN(tji_cuda_event_elapsed(c, e1, e2, &ms));
    f.forget();
    tji_cuda_event_destroy(c, e1);
    f.forget();
    tji_cuda_module_unload(c, m);
    FORGET_THEN(tji_cuda_free(c, a));
    FORGET_THEN(tji_cuda_free(c, b));
#undef FORGET_THEN
    f.forget();
    tji_cuda_close(c);
    ck_assert_int_eq(f.st->wrong_context, 0);
    ck_assert_int_eq(f.st->set_attr_calls, 1);
    ck_assert_int_eq(f.st->live_events, 0);
    ck_assert_int_eq(f.st->live_modules, 0);
    ck_assert_int_eq(f.st->live_allocs, 0);
    dlclose(f.lib);
}
END_TEST

START_TEST(test_fake_two_handles_share_the_primary_context)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    tji_cuda *a = NULL, *b = NULL;
    CHECK_OK(a, tji_cuda_open(0, &a, NULL, 0));
    CHECK_OK(b, tji_cuda_open(0, &b, NULL, 0));
    ck_assert_int_eq(f.st->retained, 2);
    run_twice(a, 100, 32);
    tji_cuda_close(a);
    run_twice(b, 100, 32);
    tji_cuda_close(b);
    ck_assert_int_eq(f.st->retained, 0);
    ck_assert_int_eq(f.st->wrong_context, 0);
    dlclose(f.lib);
}
END_TEST

START_TEST(test_fake_init_results)
{
    fake f;
    if (!fake_use(FAKE_GPA_V2, &f))
        return;
    char msg[TJI_ERRMSG_BYTES];
    int count = -1;
    setenv("TJ_FAKE_INIT", "100", 1);
    expect_no_device("no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device");
    setenv("TJ_FAKE_INIT", "34", 1);
    expect_no_device("the CUDA driver is the toolkit's stub library");
    setenv("TJ_FAKE_INIT", "999", 1);
    ck_assert_int_eq(tji_cuda_device_count(&count, msg, sizeof msg), TJ_ERR_CUDA);
    ck_assert_int_eq(count, 0);
    ck_assert_str_eq(msg, "cuInit: CUDA_ERROR_UNKNOWN: unknown error");
    tji_cuda *c = NULL;
    ck_assert_int_eq(tji_cuda_open(0, &c, msg, sizeof msg), TJ_ERR_CUDA);
    ck_assert_str_eq(msg, "cuInit: CUDA_ERROR_UNKNOWN: unknown error");
    setenv("TJ_FAKE_INIT", "0", 1);
    setenv("TJ_FAKE_NDEV", "0", 1);
    expect_no_device("no CUDA device: the driver reports 0 devices");
    setenv("TJ_FAKE_NDEV", "2", 1);
    ck_assert_int_eq(tji_cuda_device_count(&count, msg, sizeof msg), TJ_OK);
    ck_assert_int_eq(count, 2);
    ck_assert_int_eq(tji_cuda_open(2, &c, msg, sizeof msg), TJ_ERR_NO_DEVICE);
    ck_assert_str_eq(msg, "no CUDA device 2: the driver reports 2 devices");
    ck_assert_int_eq(tji_cuda_open(-1, &c, msg, sizeof msg), TJ_ERR_NO_DEVICE);
    CHECK_OK(c, tji_cuda_open(1, &c, msg, sizeof msg));
    tji_cuda_close(c);
    ck_assert_int_eq(f.st->retained, 0);
    dlclose(f.lib);
}
END_TEST

/* ---- ptx ---------------------------------------------------------------------------------- */

START_TEST(test_ptx_texts_assemble_for_sm_90)
{
    char log[4096];
    bool ran = false;
    ck_assert_msg(tj_test_ptxas(good_ptx, "sm_90", &ran, log, sizeof log), "ptxas: %s", log);
    if (!ran) {
        printf("note: no ptxas here; PTX texts not assembled\n");
        return;
    }
    ck_assert_msg(!tj_test_ptxas(bad_ptx, "sm_90", &ran, log, sizeof log), "bad PTX assembled");
    ck_assert_has(log, "frobnicate");
}
END_TEST

/* ---- cuda --------------------------------------------------------------------------------- */

/* Opens device 0 of the real driver (TILEJIT_LIBCUDA as the environment has it). */
static void
gpu_run(void (*body)(tji_cuda *c))
{
    char msg[TJI_ERRMSG_BYTES];
    tji_cuda *c = NULL;
    ck_assert_msg(tji_cuda_open(0, &c, msg, sizeof msg) == TJ_OK, "open: %s", msg);
    body(c);
    tji_cuda_close(c);
}

START_TEST(test_gpu_info_is_sane)
{
    gpu_run(exercise_info);
    int count = 0;
    char msg[TJI_ERRMSG_BYTES];
    ck_assert_int_eq(tji_cuda_device_count(&count, msg, sizeof msg), TJ_OK);
    ck_assert_int_gt(count, 0);
    tji_cuda *c = NULL;
    ck_assert_int_eq(tji_cuda_open(count, &c, msg, sizeof msg), TJ_ERR_NO_DEVICE);
    ck_assert_has(msg, "no CUDA device");
}
END_TEST

START_TEST(test_gpu_memory_round_trips)
{
    gpu_run(exercise_memory);
}
END_TEST

START_TEST(test_gpu_alloc_failure_is_nomem)
{
    gpu_run(exercise_oom);
}
END_TEST

static void
body_gpu_kernels(tji_cuda *c)
{
    run_twice(c, 1000, 128);
    run_twice(c, 1u << 20, 256);
    exercise_globals(c);
}

START_TEST(test_gpu_kernel_writes_twice_i)
{
    gpu_run(body_gpu_kernels);
}
END_TEST

START_TEST(test_gpu_dynamic_shared_64k)
{
    gpu_run(exercise_dynamic_shared);
}
END_TEST

START_TEST(test_gpu_stack_size_is_read_and_set)
{
    gpu_run(exercise_stack_size);
}
END_TEST

START_TEST(test_gpu_bad_ptx_then_launch)
{
    gpu_run(exercise_bad_ptx);
}
END_TEST

START_TEST(test_gpu_events_measure_time)
{
    gpu_run(exercise_events);
}
END_TEST

START_TEST(test_gpu_other_thread_and_close)
{
    gpu_run(exercise_other_thread);
    gpu_run(leave_things_behind);
    gpu_run(exercise_info);
}
END_TEST

/* ---- suite -------------------------------------------------------------------------------- */

static TCase *
new_case(Suite *s, const char *name, int timeout)
{
    TCase *tc = tcase_create(name);
    /* a timeout of our own unless the environment (valgrind runs) sets one */
    if (!getenv("CK_DEFAULT_TIMEOUT"))
        tcase_set_timeout(tc, timeout);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *
cuda_driver_suite(void)
{
    Suite *s = suite_create("cuda_driver");
    TCase *tc = new_case(s, "nodevice", 30);
    tcase_add_test(tc, test_missing_library_is_no_device);
    tcase_add_test(tc, test_stub_library_is_no_device);
    tcase_add_test(tc, test_default_library);
    tcase_add_test(tc, test_library_that_is_not_a_driver);
    tcase_add_test(tc, test_null_arguments);

    tc = new_case(s, "fake", 60);
    tcase_add_unchecked_fixture(tc, fake_build, fake_clean);
    tcase_add_test(tc, test_fake_open_reads_info_with_versioned_entry_points);
    tcase_add_test(tc, test_fake_memory_round_trips);
    tcase_add_test(tc, test_fake_alloc_failure_is_nomem_naming_the_call);
    tcase_add_test(tc, test_fake_kernel_launch_and_globals);
    tcase_add_test(tc, test_fake_dynamic_shared_opt_in_once_per_size);
    tcase_add_test(tc, test_fake_stack_size_is_read_and_set);
    tcase_add_test(tc, test_fake_bad_ptx_reports_jit_log);
    tcase_add_test(tc, test_fake_module_load_passes_log_buffers);
    tcase_add_test(tc, test_fake_events_measure_time);
    tcase_add_test(tc, test_fake_handle_works_from_another_thread);
    tcase_add_test(tc, test_fake_close_releases_modules_and_events);
    tcase_add_test(tc, test_fake_every_call_makes_the_context_current);
    tcase_add_test(tc, test_fake_two_handles_share_the_primary_context);
    tcase_add_test(tc, test_fake_init_results);

    tc = new_case(s, "ptx", 120);
    tcase_add_test(tc, test_ptx_texts_assemble_for_sm_90);

    tc = new_case(s, "cuda", 120);
    tcase_set_tags(tc, "cuda");
    tcase_add_test(tc, test_gpu_info_is_sane);
    tcase_add_test(tc, test_gpu_memory_round_trips);
    tcase_add_test(tc, test_gpu_alloc_failure_is_nomem);
    tcase_add_test(tc, test_gpu_kernel_writes_twice_i);
    tcase_add_test(tc, test_gpu_dynamic_shared_64k);
    tcase_add_test(tc, test_gpu_stack_size_is_read_and_set);
    tcase_add_test(tc, test_gpu_bad_ptx_then_launch);
    tcase_add_test(tc, test_gpu_events_measure_time);
    tcase_add_test(tc, test_gpu_other_thread_and_close);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, cuda_driver_suite());
}

#endif /* TJ_FAKE_LIBCUDA */
