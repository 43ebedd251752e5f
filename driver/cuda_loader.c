/*
 * driver/cuda_loader.c: finds the CUDA driver at runtime (dlopen, never linked), resolves
 * its entry points through cuGetProcAddress with explicit versions, and opens a device's
 * primary context. Owns "no device" detection and the error-message format of driver/cuda_*.
 * Never includes cuda.h; keeps no state outside the handle.
 */
#include <assert.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

static_assert(sizeof(void *) == sizeof(void (*)(void)),
              "entry points are stored through object pointers (POSIX dlsym)");

/* Every entry point, the CUDA version whose ABI tji_cuda_api declares for it (the
 * PFN_<name>_v<version> typedefs of cudaTypedefs.h), and the exported name with that ABI
 * for drivers older than cuGetProcAddress (CUDA 11.3). Versions are explicit because the
 * newest ABI is not always ours: CUDA 13 gave cuCtxSynchronize a context argument. */
#define API_ENTRY(sym, version, exported) \
    { #sym, version, exported, offsetof(tji_cuda_api, sym) }
static const struct api_entry {
    const char *name;
    int version;
    const char *exported;
    size_t offset;
} api_entries[] = {
    API_ENTRY(cuGetErrorName, 6000, "cuGetErrorName"),
    API_ENTRY(cuGetErrorString, 6000, "cuGetErrorString"),
    API_ENTRY(cuInit, 2000, "cuInit"),
    API_ENTRY(cuDriverGetVersion, 2020, "cuDriverGetVersion"),
    API_ENTRY(cuDeviceGetCount, 2000, "cuDeviceGetCount"),
    API_ENTRY(cuDeviceGet, 2000, "cuDeviceGet"),
    API_ENTRY(cuDeviceGetName, 2000, "cuDeviceGetName"),
    API_ENTRY(cuDeviceGetAttribute, 2000, "cuDeviceGetAttribute"),
    API_ENTRY(cuDeviceTotalMem, 3020, "cuDeviceTotalMem_v2"),
    API_ENTRY(cuDevicePrimaryCtxRetain, 7000, "cuDevicePrimaryCtxRetain"),
    API_ENTRY(cuDevicePrimaryCtxRelease, 11000, "cuDevicePrimaryCtxRelease_v2"),
    API_ENTRY(cuCtxSetCurrent, 4000, "cuCtxSetCurrent"),
    API_ENTRY(cuCtxSynchronize, 2000, "cuCtxSynchronize"),
    API_ENTRY(cuCtxGetLimit, 3010, "cuCtxGetLimit"),
    API_ENTRY(cuCtxSetLimit, 3010, "cuCtxSetLimit"),
    API_ENTRY(cuMemAlloc, 3020, "cuMemAlloc_v2"),
    API_ENTRY(cuMemFree, 3020, "cuMemFree_v2"),
    API_ENTRY(cuMemcpyHtoD, 3020, "cuMemcpyHtoD_v2"),
    API_ENTRY(cuMemcpyDtoH, 3020, "cuMemcpyDtoH_v2"),
    API_ENTRY(cuMemcpyDtoD, 3020, "cuMemcpyDtoD_v2"),
    API_ENTRY(cuMemsetD8, 3020, "cuMemsetD8_v2"),
    API_ENTRY(cuModuleLoadDataEx, 2010, "cuModuleLoadDataEx"),
    API_ENTRY(cuModuleUnload, 2000, "cuModuleUnload"),
    API_ENTRY(cuModuleGetFunction, 2000, "cuModuleGetFunction"),
    API_ENTRY(cuModuleGetGlobal, 3020, "cuModuleGetGlobal_v2"),
    API_ENTRY(cuFuncGetAttribute, 2020, "cuFuncGetAttribute"),
    API_ENTRY(cuFuncSetAttribute, 9000, "cuFuncSetAttribute"),
    API_ENTRY(cuLaunchKernel, 4000, "cuLaunchKernel"),
    API_ENTRY(cuEventCreate, 2000, "cuEventCreate"),
    API_ENTRY(cuEventRecord, 2000, "cuEventRecord"),
    API_ENTRY(cuEventSynchronize, 2000, "cuEventSynchronize"),
    /* 12080 is cuEventElapsedTime_v2, same ABI; older drivers answer with the first one */
    API_ENTRY(cuEventElapsedTime, 12080, "cuEventElapsedTime"),
    API_ENTRY(cuEventDestroy, 4000, "cuEventDestroy_v2"),
};
#undef API_ENTRY

#define DEFAULT_LIBCUDA "libcuda.so.1"

static const char *
libcuda_path(void)
{
    const char *env = getenv("TILEJIT_LIBCUDA");
    return env && *env ? env : DEFAULT_LIBCUDA;
}

/* How cuGetProcAddress is reached: the v2 (5-argument) form when the driver has it. */
typedef struct proc_lookup {
    tji_cu_get_proc_v1 v1;
    tji_cu_get_proc_v2 v2;
} proc_lookup;

static void
find_proc_lookup(void *lib, proc_lookup *pl)
{
    void *sym = dlsym(lib, "cuGetProcAddress_v2");
    memset(pl, 0, sizeof *pl);
    if (sym) {
        memcpy(&pl->v2, &sym, sizeof sym);
        return;
    }
    sym = dlsym(lib, "cuGetProcAddress");
    if (sym)
        memcpy(&pl->v1, &sym, sizeof sym);
}

/* Resolves one entry point into '*pfn'; returns the driver's result (CUDA_ERROR_NOT_FOUND
 * when the symbol is absent). */
static CUresult
resolve_entry(void *lib, const proc_lookup *pl, const struct api_entry *e, void **pfn)
{
    CUresult r = TJI_CUDA_ERROR_NOT_FOUND;
    int found = 0;
    *pfn = NULL;
    if (pl->v2)
        r = pl->v2(e->name, pfn, e->version, TJI_CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
    else if (pl->v1)
        r = pl->v1(e->name, pfn, e->version, TJI_CU_GET_PROC_ADDRESS_LEGACY_STREAM);
    else if ((*pfn = dlsym(lib, e->exported)) != NULL)
        r = TJI_CUDA_SUCCESS;
    if (r == TJI_CUDA_SUCCESS && !*pfn)
        r = TJI_CUDA_ERROR_NOT_FOUND;
    return r;
}

static tj_status __attribute__((format(printf, 3, 4)))
no_device(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return TJ_ERR_NO_DEVICE;
}

static tj_status
stub_library(const char *path, char *msg, size_t msglen)
{
    return no_device(msg, msglen,
                     "no CUDA device: the CUDA driver is the toolkit's stub library (%s); "
                     "no NVIDIA driver is installed",
                     path);
}

static tj_status
resolve_api(tji_cuda_driver *d, const char *path, char *msg, size_t msglen)
{
    proc_lookup pl;
    find_proc_lookup(d->lib, &pl);
    for (size_t i = 0; i < sizeof api_entries / sizeof api_entries[0]; i++) {
        const struct api_entry *e = &api_entries[i];
        void *pfn = NULL;
        CUresult r = resolve_entry(d->lib, &pl, e, &pfn);
        if (r == TJI_CUDA_ERROR_STUB_LIBRARY)
            return stub_library(path, msg, msglen);
        /* missing before cuInit (the table's first entries): not a CUDA driver at all */
        if (r != TJI_CUDA_SUCCESS && !d->api.cuInit)
            return no_device(msg, msglen, "no CUDA driver: %s has no %s", path, e->name);
        if (r != TJI_CUDA_SUCCESS) {
            char why[256];
            tji_cuda_describe(&d->api, r, why, sizeof why);
            snprintf(msg, msglen, "cuGetProcAddress(%s, version %d): %s (the CUDA driver %s "
                     "is too old)", e->name, e->version, why, path);
            return TJ_ERR_CUDA;
        }
        memcpy((char *)&d->api + e->offset, &pfn, sizeof pfn);
    }
    return TJ_OK;
}

static tj_status
init_driver(tji_cuda_driver *d, const char *path, char *msg, size_t msglen)
{
    CUresult r = d->api.cuInit(0);
    if (r == TJI_CUDA_SUCCESS)
        return TJ_OK;
    if (r == TJI_CUDA_ERROR_STUB_LIBRARY)
        return stub_library(path, msg, msglen);
    char why[256];
    tji_cuda_describe(&d->api, r, why, sizeof why);
    if (r == TJI_CUDA_ERROR_NO_DEVICE)
        return no_device(msg, msglen, "no CUDA device: cuInit: %s", why);
    snprintf(msg, msglen, "cuInit: %s", why);
    return r == TJI_CUDA_ERROR_OUT_OF_MEMORY ? TJ_ERR_NOMEM : TJ_ERR_CUDA;
}

static void
unload_driver(tji_cuda_driver *d)
{
    if (d->lib)
        dlclose(d->lib);
    memset(d, 0, sizeof *d);
}

/* Opens the driver, resolves every entry point and calls cuInit. */
static tj_status
load_driver(tji_cuda_driver *d, char *msg, size_t msglen)
{
    const char *path = libcuda_path();
    memset(d, 0, sizeof *d);
    /* RTLD_NODELETE: after cuInit the driver has threads and exit handlers of its own, so
     * dlclose only drops our reference and never unmaps it. */
    d->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!d->lib) {
        const char *why = dlerror();
        why = why ? why : "dlopen failed";
        if (strstr(why, "No such file"))
            return no_device(msg, msglen, "no CUDA driver: %s not found (%s)", path, why);
        return no_device(msg, msglen, "no CUDA driver: %s cannot be loaded (%s)", path, why);
    }
    tj_status st = resolve_api(d, path, msg, msglen);
    if (st == TJ_OK)
        st = init_driver(d, path, msg, msglen);
    if (st != TJ_OK)
        unload_driver(d);
    return st;
}

/* cuDeviceGetCount on a loaded driver; no device is TJ_OK with 0 and a reason in 'msg'. */
static tj_status
count_devices(tji_cuda_driver *d, int *count, char *msg, size_t msglen)
{
    char why[256];
    CUresult r = d->api.cuDeviceGetCount(count);
    if (r == TJI_CUDA_SUCCESS) {
        if (*count <= 0) {
            *count = 0;
            snprintf(msg, msglen, "no CUDA device: the driver reports 0 devices");
        }
        return TJ_OK;
    }
    *count = 0;
    tji_cuda_describe(&d->api, r, why, sizeof why);
    if (r == TJI_CUDA_ERROR_NO_DEVICE) {
        snprintf(msg, msglen, "no CUDA device: cuDeviceGetCount: %s", why);
        return TJ_OK;
    }
    snprintf(msg, msglen, "cuDeviceGetCount: %s", why);
    return TJ_ERR_CUDA;
}

tj_status
tji_cuda_device_count(int *count, char *msg, size_t msglen)
{
    tji_cuda_driver d;
    if (msg && msglen)
        msg[0] = 0;
    if (!count)
        return TJ_ERR_INVALID;
    *count = 0;
    char local[TJI_ERRMSG_BYTES];
    if (!msg || !msglen) {
        msg = local;
        msglen = sizeof local;
    }
    tj_status st = load_driver(&d, msg, msglen);
    if (st == TJ_ERR_NO_DEVICE)
        return TJ_OK;
    if (st != TJ_OK)
        return st;
    st = count_devices(&d, count, msg, msglen);
    unload_driver(&d);
    return st;
}

/* ---- errors --------------------------------------------------------------------------------- */

void
tji_cuda_describe(const tji_cuda_api *api, CUresult r, char *buf, size_t n)
{
    const char *name = NULL, *text = NULL;
    if (api && api->cuGetErrorName && api->cuGetErrorName(r, &name) != TJI_CUDA_SUCCESS)
        name = NULL;
    if (api && api->cuGetErrorString && api->cuGetErrorString(r, &text) != TJI_CUDA_SUCCESS)
        text = NULL;
    if (name && text)
        snprintf(buf, n, "%s: %s", name, text);
    else if (name)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "CUDA error %d", r);
}

static void
vrecord(tji_cuda *c, const char *fmt, va_list ap)
{
    vsnprintf(c->err, sizeof c->err, fmt, ap);
}

tj_status
tji_cuda_fail(tji_cuda *c, CUresult r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, fmt, ap);
    va_end(ap);
    size_t used = strlen(c->err);
    if (used + 2 < sizeof c->err) {
        memcpy(c->err + used, ": ", 3);
        used += 2;
        tji_cuda_describe(&c->drv.api, r, c->err + used, sizeof c->err - used);
    }
    return r == TJI_CUDA_ERROR_OUT_OF_MEMORY ? TJ_ERR_NOMEM : TJ_ERR_CUDA;
}

tj_status
tji_cuda_failf(tji_cuda *c, tj_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(c, fmt, ap);
    va_end(ap);
    return status;
}

tj_status
tji_cuda_enter(tji_cuda *c)
{
    CUresult r = c->drv.api.cuCtxSetCurrent(c->ctx);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuCtxSetCurrent(device %d)", c->dev);
    return TJ_OK;
}

const char *
tji_cuda_error(const tji_cuda *c)
{
    return c ? c->err : "no CUDA device handle";
}

const tji_cuda_info *
tji_cuda_get_info(const tji_cuda *c)
{
    return c ? &c->info : NULL;
}

/* ---- open and close ------------------------------------------------------------------------ */

static tj_status
read_attributes(tji_cuda *c, int *shared, int *optin)
{
    tji_cuda_info *info = &c->info;
    const struct {
        CUdevice_attribute attr;
        const char *name;
        int *value;
    } attrs[] = {
        {TJI_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "COMPUTE_CAPABILITY_MAJOR",
         &info->cc_major},
        {TJI_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "COMPUTE_CAPABILITY_MINOR",
         &info->cc_minor},
        {TJI_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "MULTIPROCESSOR_COUNT", &info->sm_count},
        {TJI_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK",
         &info->max_threads_per_block},
        {TJI_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "MAX_SHARED_MEMORY_PER_BLOCK",
         shared},
        {TJI_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", optin},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        CUresult r = c->drv.api.cuDeviceGetAttribute(attrs[i].value, attrs[i].attr, c->dev);
        if (r != TJI_CUDA_SUCCESS)
            return tji_cuda_fail(c, r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_%s, device %d)",
                                 attrs[i].name, c->dev);
    }
    return TJ_OK;
}

static tj_status
read_info(tji_cuda *c)
{
    const tji_cuda_api *api = &c->drv.api;
    tji_cuda_info *info = &c->info;
    int shared = 0, optin = 0;
    CUresult r = api->cuDeviceGetName(info->name, (int)sizeof info->name, c->dev);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuDeviceGetName(device %d)", c->dev);
    info->name[sizeof info->name - 1] = 0;
    if ((r = api->cuDeviceTotalMem(&info->total_mem_bytes, c->dev)) != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuDeviceTotalMem(device %d)", c->dev);
    if ((r = api->cuDriverGetVersion(&info->driver_version)) != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuDriverGetVersion");
    tj_status st = read_attributes(c, &shared, &optin);
    info->max_shared_default = shared > 0 ? (size_t)shared : 0;
    info->max_shared_optin = optin > shared ? (size_t)optin : info->max_shared_default;
    return st;
}

/* Gets the device and its primary context; the handle's driver is loaded. */
static tj_status
open_device(tji_cuda *c, int ordinal)
{
    const tji_cuda_api *api = &c->drv.api;
    CUresult r = api->cuDeviceGet(&c->dev, ordinal);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuDeviceGet(%d)", ordinal);
    CUcontext ctx = NULL;
    r = api->cuDevicePrimaryCtxRetain(&ctx, c->dev);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuDevicePrimaryCtxRetain(device %d)", ordinal);
    c->ctx = ctx;
    tj_status st = tji_cuda_enter(c);
    return st == TJ_OK ? read_info(c) : st;
}

tj_status
tji_cuda_open(int ordinal, tji_cuda **out, char *msg, size_t msglen)
{
    char local[TJI_ERRMSG_BYTES];
    if (!msg || !msglen) {
        msg = local;
        msglen = sizeof local;
    }
    msg[0] = 0;
    if (!out)
        return TJ_ERR_INVALID;
    *out = NULL;
    tji_cuda *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(msg, msglen, "tji_cuda_open: out of host memory");
        return TJ_ERR_NOMEM;
    }
    int count = 0;
    tj_status st = load_driver(&c->drv, msg, msglen);
    if (st == TJ_OK)
        st = count_devices(&c->drv, &count, msg, msglen);
    if (st == TJ_OK && (ordinal < 0 || ordinal >= count)) {
        if (count > 0)
            snprintf(msg, msglen, "no CUDA device %d: the driver reports %d device%s", ordinal,
                     count, count == 1 ? "" : "s");
        st = TJ_ERR_NO_DEVICE;
    }
    if (st == TJ_OK && (st = open_device(c, ordinal)) != TJ_OK)
        snprintf(msg, msglen, "%s", c->err);
    if (st != TJ_OK) {
        tji_cuda_close(c);
        return st;
    }
    *out = c;
    return TJ_OK;
}

void
tji_cuda_close(tji_cuda *c)
{
    if (!c)
        return;
    if (c->ctx) {
        /* unload even when the context cannot be made current: the host side is freed */
        tji_cuda_enter(c);
        tji_cuda_release_all(c);
        c->drv.api.cuDevicePrimaryCtxRelease(c->dev);
    }
    unload_driver(&c->drv);
    free(c);
}
