/*
 * driver/cuda_internal.h: private to driver/cuda_*.c. The few CUDA driver types and
 * constants tilejit uses, declared here because cuda.h is never included (the project builds
 * without the toolkit); values copied from the CUDA 13.0 cuda.h, enum names in comments.
 * The handle structs and the entry-point table live here too. No state outside the handles.
 */
#ifndef TILEJIT_CUDA_INTERNAL_H
#define TILEJIT_CUDA_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"

/* ---- CUDA driver types (cuda.h) --------------------------------------------------------- */
typedef int CUresult;                       /* enum cudaError_enum */
typedef int CUdevice;                       /* CUdevice_v1 */
typedef uint64_t CUdeviceptr;               /* CUdeviceptr_v2 (unsigned long long) */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef int CUjit_option;                   /* enum CUjit_option_enum */
typedef int CUdevice_attribute;             /* enum CUdevice_attribute_enum */
typedef int CUfunction_attribute;           /* enum CUfunction_attribute_enum */
typedef int CUlimit;                        /* enum CUlimit_enum */

/* Each TJI_<NAME> constant below is cuda.h's <NAME> with the same value. */

/* CUresult (enum cudaError_enum) */
enum {
    TJI_CUDA_SUCCESS = 0,
    TJI_CUDA_ERROR_INVALID_VALUE = 1,
    TJI_CUDA_ERROR_OUT_OF_MEMORY = 2,
    TJI_CUDA_ERROR_STUB_LIBRARY = 34,
    TJI_CUDA_ERROR_NO_DEVICE = 100,
    TJI_CUDA_ERROR_NOT_FOUND = 500,
};

/* CUjit_option (enum CUjit_option_enum), for cuModuleLoadDataEx */
enum {
    TJI_CU_JIT_INFO_LOG_BUFFER = 3,
    TJI_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    TJI_CU_JIT_ERROR_LOG_BUFFER = 5,
    TJI_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* CUdevice_attribute (enum CUdevice_attribute_enum) */
enum {
    TJI_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    TJI_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    TJI_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    TJI_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    TJI_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    TJI_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

/* CUfunction_attribute (enum CUfunction_attribute_enum) */
enum {
    TJI_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    TJI_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

/* CUlimit (enum CUlimit_enum) */
enum {
    TJI_CU_LIMIT_STACK_SIZE = 0,
};

/* CUevent_flags (enum CUevent_flags_enum) and CUdriverProcAddress_flags: the loader asks for
 * the legacy-stream entry points, so that stream 0 is the legacy default stream whatever
 * the driver's default is. */
enum {
    TJI_CU_EVENT_DEFAULT = 0,
    TJI_CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1,
};

/* cuGetProcAddress (CUDA 11.3, 4 arguments) and cuGetProcAddress_v2 (CUDA 12.0; the 5th
 * argument is a CUdriverProcAddressQueryResult). */
typedef CUresult (*tji_cu_get_proc_v1)(const char *symbol, void **pfn, int cuda_version,
                                       uint64_t flags);
typedef CUresult (*tji_cu_get_proc_v2)(const char *symbol, void **pfn, int cuda_version,
                                       uint64_t flags, int *symbol_status);

/* ---- entry points ------------------------------------------------------------------------- */
/* Each member has the ABI of the version that driver/cuda_loader.c requests for it (its
 * table names the version); the member's name is the symbol's base name. */
typedef struct tji_cuda_api {
    CUresult (*cuGetErrorName)(CUresult error, const char **str);
    CUresult (*cuGetErrorString)(CUresult error, const char **str);
    CUresult (*cuInit)(unsigned int flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attr, CUdevice dev);
    CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuCtxGetLimit)(size_t *value, CUlimit limit);
    CUresult (*cuCtxSetLimit)(CUlimit limit, size_t value);
    CUresult (*cuMemAlloc)(CUdeviceptr *dptr, size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr dptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, size_t count);
    CUresult (*cuModuleLoadDataEx)(CUmodule *mod, const void *image, unsigned int noptions,
                                   CUjit_option *options, void **values);
    CUresult (*cuModuleUnload)(CUmodule mod);
    CUresult (*cuModuleGetFunction)(CUfunction *fn, CUmodule mod, const char *name);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *dptr, size_t *bytes, CUmodule mod,
                                  const char *name);
    CUresult (*cuFuncGetAttribute)(int *value, CUfunction_attribute attr, CUfunction fn);
    CUresult (*cuFuncSetAttribute)(CUfunction fn, CUfunction_attribute attr, int value);
    CUresult (*cuLaunchKernel)(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz,
                               unsigned int bx, unsigned int by, unsigned int bz,
                               unsigned int shared_bytes, CUstream stream, void **params,
                               void **extra);
    CUresult (*cuEventCreate)(CUevent *ev, unsigned int flags);
    CUresult (*cuEventRecord)(CUevent ev, CUstream stream);
    CUresult (*cuEventSynchronize)(CUevent ev);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*cuEventDestroy)(CUevent ev);
} tji_cuda_api;

/* A loaded driver: its dlopen handle and entry points. One per tji_cuda (and one, briefly,
 * per tji_cuda_device_count call). */
typedef struct tji_cuda_driver {
    void *lib;
    tji_cuda_api api;
} tji_cuda_driver;

/* ---- handles ------------------------------------------------------------------------------ */
struct tji_cuda_function {
    CUfunction fn;
    size_t dynamic_shared_limit;    /* the limit set on 'fn' so far; 0: the device default */
    tji_cuda_function *next;        /* in its module's list */
    char name[];
};

struct tji_cuda_module {
    CUmodule mod;
    tji_cuda_function *functions;   /* looked up so far; freed at unload */
    tji_cuda_module *prev, *next;   /* in the handle's list of loaded modules */
};

struct tji_cuda_event {
    CUevent ev;
    tji_cuda_event *prev, *next;    /* in the handle's list of live events */
};

struct tji_cuda {
    tji_cuda_driver drv;
    CUdevice dev;
    CUcontext ctx;                  /* the device's primary context, retained */
    tji_cuda_info info;
    tji_cuda_module *modules;
    tji_cuda_event *events;
    char err[TJI_ERRMSG_BYTES];     /* the last failure's message; "" before any */
};

/* ---- cuda_loader.c ------------------------------------------------------------------------ */
/* Writes "CUDA_ERROR_NAME: description" for 'r' (or "CUDA error <r>" when the driver
 * cannot name it). */
TJI_HIDDEN void tji_cuda_describe(const tji_cuda_api *api, CUresult r, char *buf, size_t n);
/* Records "<call>: CUDA_ERROR_NAME: description" in c->err, the call formatted from 'fmt'.
 * Returns TJ_ERR_NOMEM for CUDA_ERROR_OUT_OF_MEMORY, TJ_ERR_CUDA otherwise. */
TJI_HIDDEN tj_status tji_cuda_fail(tji_cuda *c, CUresult r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records a message that is not a driver error and returns 'status'. */
TJI_HIDDEN tj_status tji_cuda_failf(tji_cuda *c, tj_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Makes the primary context current on the calling thread; every public call starts here. */
TJI_HIDDEN tj_status tji_cuda_enter(tji_cuda *c);

/* ---- cuda_launch.c ------------------------------------------------------------------------ */
/* Unloads every module and destroys every event still held by 'c' (for tji_cuda_close). */
TJI_HIDDEN void tji_cuda_release_all(tji_cuda *c);

#endif /* TILEJIT_CUDA_INTERNAL_H */
