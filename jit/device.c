/*
 * jit/device.c: devices (the CPU with its thread pool, or a CUDA device) and arrays on
 * them. Runtime calls are not sticky: they return a status and keep the message on the
 * device (STYLE 2.5). A device frees its remaining arrays and loaded modules. Timers (for
 * benchmarks) are CUDA events or host clock readings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* The CPU has no hardware limit on a block's arena; this keeps a typo from asking for
 * gigabytes per worker. */
#define TJI_CPU_MAX_SHARED ((size_t)64 << 20)

tj_status
tji_dev_fail(tj_device *dev, tj_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->err, sizeof dev->err, fmt, ap);
    va_end(ap);
    dev->has_err = true;
    return st;
}

tj_status
tj_cuda_device_count(tj_context *ctx, int *count)
{
    if (!ctx || !count)
        return TJ_ERR_INVALID;
    char msg[TJI_ERRMSG_BYTES];
    tj_status st = tji_cuda_device_count(count, msg, sizeof msg);
    if (st != TJ_OK)
        tji_ctx_fail(ctx, st, "%s", msg);
    return st;
}

static void
cpu_name(tj_device *dev)
{
    int n = tji_cpu_pool_threads(dev->pool);
    snprintf(dev->name, sizeof dev->name, "cpu (%d thread%s)", n, n == 1 ? "" : "s");
}

static tj_status
open_cpu(tj_device *dev)
{
    char msg[TJI_ERRMSG_BYTES];
    tj_status st = tji_cpu_pool_create(0, &dev->pool, msg, sizeof msg);
    if (st != TJ_OK)
        return tji_ctx_fail(dev->ctx, st, "tj_device_create: %s", msg);
    cpu_name(dev);
    char *cpu = LLVMGetHostCPUName();
    snprintf(dev->arch, sizeof dev->arch, "%s", cpu);
    LLVMDisposeMessage(cpu);
    return TJ_OK;
}

static tj_status
open_cuda(tj_device *dev, int ordinal)
{
    char msg[TJI_ERRMSG_BYTES];
    tj_status st = tji_cuda_open(ordinal, &dev->cuda, msg, sizeof msg);
    if (st != TJ_OK)
        return tji_ctx_fail(dev->ctx, st, "tj_device_create: %s", msg);
    const tji_cuda_info *info = tji_cuda_get_info(dev->cuda);
    snprintf(dev->name, sizeof dev->name, "%s", info->name);
    snprintf(dev->arch, sizeof dev->arch, "sm_%d%d", info->cc_major, info->cc_minor);
    return TJ_OK;
}

tj_status
tj_device_create(tj_context *ctx, tj_device_kind kind, int ordinal, tj_device **out)
{
    if (!ctx || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    if (kind != TJ_DEVICE_CPU && kind != TJ_DEVICE_CUDA)
        return tji_ctx_fail(ctx, TJ_ERR_INVALID, "tj_device_create: argument 'kind': %d",
                            (int)kind);
    if (kind == TJ_DEVICE_CPU && ordinal != 0)
        return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                            "tj_device_create: argument 'ordinal': the CPU is device 0, not %d",
                            ordinal);
    tj_device *dev = tji_calloc(ctx, 1, sizeof *dev);
    if (!dev)
        return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_device_create: out of memory");
    dev->ctx = ctx;
    dev->kind = kind;
    tj_status st = kind == TJ_DEVICE_CPU ? open_cpu(dev) : open_cuda(dev, ordinal);
    if (st != TJ_OK) {
        tji_free(dev);
        return st;
    }
    TJI_LIST_ADD(ctx->devices, dev);
    *out = dev;
    return TJ_OK;
}

tj_status
tj_device_create_default(tj_context *ctx, tj_device **out)
{
    tj_status st = tj_device_create(ctx, TJ_DEVICE_CUDA, 0, out);
    if (st == TJ_ERR_NO_DEVICE) {
        tji_ctx_clear_error(ctx);
        st = tj_device_create(ctx, TJ_DEVICE_CPU, 0, out);
    }
    return st;
}

void
tj_device_destroy(tj_device *dev)
{
    if (!dev)
        return;
    while (dev->arrays)
        tj_array_destroy(dev->arrays);
    tji_loaded *l = dev->loaded;
    while (l) {
        tji_loaded *next = l->next;
        tji_cuda_module_unload(dev->cuda, l->mod);
        free(l->fns);
        free(l);
        l = next;
    }
    tji_cuda_close(dev->cuda);
    tji_cpu_pool_destroy(dev->pool);
    TJI_LIST_REMOVE(dev->ctx->devices, dev);
    tji_free(dev);
}

tj_device_kind
tj_device_get_kind(const tj_device *dev)
{
    return dev ? dev->kind : TJ_DEVICE_CPU;
}

const char *
tj_device_get_name(const tj_device *dev)
{
    return dev ? dev->name : NULL;
}

const char *
tj_device_get_arch(const tj_device *dev)
{
    return dev ? dev->arch : NULL;
}

size_t
tj_device_get_max_shared_bytes(const tj_device *dev)
{
    if (!dev)
        return 0;
    if (dev->kind == TJ_DEVICE_CPU)
        return TJI_CPU_MAX_SHARED;
    return tji_cuda_get_info(dev->cuda)->max_shared_optin;
}

const char *
tj_device_error(const tj_device *dev)
{
    return dev && dev->has_err ? dev->err : NULL;
}

tj_status
tj_device_set_cpu_threads(tj_device *dev, int nthreads)
{
    if (!dev)
        return TJ_ERR_INVALID;
    if (dev->kind != TJ_DEVICE_CPU || nthreads < 0)
        return tji_dev_fail(dev, TJ_ERR_INVALID,
                            "tj_device_set_cpu_threads: %s",
                            nthreads < 0 ? "a negative thread count" : "not a CPU device");
    char msg[TJI_ERRMSG_BYTES];
    tji_cpu_pool *pool;
    tj_status st = tji_cpu_pool_create(nthreads, &pool, msg, sizeof msg);
    if (st != TJ_OK)
        return tji_dev_fail(dev, st, "tj_device_set_cpu_threads: %s", msg);
    tji_cpu_pool_destroy(dev->pool);
    dev->pool = pool;
    cpu_name(dev);
    return TJ_OK;
}

tj_status
tj_device_set_stack_bytes(tj_device *dev, size_t bytes)
{
    if (!dev)
        return TJ_ERR_INVALID;
    if (dev->kind != TJ_DEVICE_CUDA)
        return tji_dev_fail(dev, TJ_ERR_INVALID, "tj_device_set_stack_bytes: not a CUDA device "
                            "(a CPU thread's stack is its own)");
    tj_status st = tji_cuda_set_stack_size(dev->cuda, bytes);
    if (st != TJ_OK)
        return tji_dev_fail(dev, st, "tj_device_set_stack_bytes: %s", tji_cuda_error(dev->cuda));
    dev->stack_set = true;
    return TJ_OK;
}

tj_status
tj_device_synchronize(tj_device *dev)
{
    if (!dev)
        return TJ_ERR_INVALID;
    if (dev->kind == TJ_DEVICE_CPU)
        return TJ_OK; /* CPU launches finish before they return */
    tj_status st = tji_cuda_synchronize(dev->cuda);
    if (st != TJ_OK)
        return tji_dev_fail(dev, st, "%s", tji_cuda_error(dev->cuda));
    return TJ_OK;
}

/* ---- arrays ----------------------------------------------------------------------------- */

static tj_status
check_shape(tj_device *dev, const tj_type *elem, int ndim, const int64_t *shape, size_t *bytes)
{
    if (!elem || elem->kind == TJ_TYPE_VOID)
        return tji_dev_fail(dev, TJ_ERR_INVALID, "tj_array_create: argument 'elem' is not a type");
    if (elem->ctx != dev->ctx)
        return tji_dev_fail(dev, TJ_ERR_INVALID, "tj_array_create: argument 'elem': %s is a type "
                            "of another context", elem->name);
    if (ndim < 1 || ndim > TJI_MAX_DIMS)
        return tji_dev_fail(dev, TJ_ERR_INVALID,
                            "tj_array_create: argument 'ndim': %d is not in [1, 4]", ndim);
    if (!shape)
        return tji_dev_fail(dev, TJ_ERR_INVALID, "tj_array_create: argument 'shape' is NULL");
    size_t n = elem->size;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0 || shape[d] > INT32_MAX)
            return tji_dev_fail(dev, TJ_ERR_INVALID,
                                "tj_array_create: argument 'shape': extent %lld of dimension %d "
                                "is not in [0, %d]",
                                (long long)shape[d], d, INT32_MAX);
        if (shape[d] > 0 && n > SIZE_MAX / (size_t)shape[d])
            return tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_array_create: the array is too large");
        n *= (size_t)shape[d];
    }
    *bytes = n;
    return TJ_OK;
}

tj_status
tj_array_create(tj_device *dev, const tj_type *elem, int ndim, const int64_t *shape,
                tj_array **out)
{
    if (!dev || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    size_t bytes = 0;
    tj_status st = check_shape(dev, elem, ndim, shape, &bytes);
    if (st != TJ_OK)
        return st;
    tj_array *a = tji_calloc(dev->ctx, 1, sizeof *a);
    if (!a)
        return tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_array_create: out of memory");
    *a = (tj_array){.dev = dev, .type = elem, .ndim = ndim, .bytes = bytes};
    int64_t stride = (int64_t)elem->size;
    for (int d = ndim - 1; d >= 0; d--) {
        a->shape[d] = shape[d];
        a->strides[d] = stride;
        stride *= shape[d];
    }
    if (dev->kind == TJ_DEVICE_CPU) {
        /* calloc, not aligned_alloc and memset: large blocks come as fresh zero pages. */
        a->block = bytes <= SIZE_MAX - TJI_ARRAY_ALIGN ? calloc(1, bytes + TJI_ARRAY_ALIGN)
                                                        : NULL;
        uintptr_t at = (uintptr_t)a->block + TJI_ARRAY_ALIGN - 1;
        a->host = a->block ? (void *)(at - at % TJI_ARRAY_ALIGN) : NULL;
        st = a->host ? TJ_OK
                     : tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_array_create: cannot allocate %zu "
                                    "bytes", bytes);
    } else {
        st = tji_cuda_alloc(dev->cuda, bytes ? bytes : 1, &a->dptr);
        if (st == TJ_OK)
            st = tji_cuda_memset(dev->cuda, a->dptr, 0, bytes);
        if (st != TJ_OK) {
            if (a->dptr)
                tji_cuda_free(dev->cuda, a->dptr);
            tji_dev_fail(dev, st, "%s", tji_cuda_error(dev->cuda));
        }
    }
    if (st != TJ_OK) {
        tji_free(a);
        return st;
    }
    TJI_LIST_ADD(dev->arrays, a);
    *out = a;
    return TJ_OK;
}

void
tj_array_destroy(tj_array *arr)
{
    if (!arr)
        return;
    tj_device *dev = arr->dev;
    if (dev->kind == TJ_DEVICE_CPU)
        free(arr->block);
    else
        tji_cuda_free(dev->cuda, arr->dptr);
    TJI_LIST_REMOVE(dev->arrays, arr);
    tji_free(arr);
}

static tj_status
check_bytes(const tj_array *arr, const char *fn, const void *p, size_t bytes)
{
    if (!p)
        return tji_dev_fail(arr->dev, TJ_ERR_INVALID, "%s: the host pointer is NULL", fn);
    if (bytes != arr->bytes)
        return tji_dev_fail(arr->dev, TJ_ERR_INVALID,
                            "%s: argument 'bytes': %zu, the array has %zu bytes", fn, bytes,
                            arr->bytes);
    return TJ_OK;
}

tj_status
tj_array_copy_from_host(tj_array *arr, const void *src, size_t bytes)
{
    if (!arr)
        return TJ_ERR_INVALID;
    tj_status st = check_bytes(arr, "tj_array_copy_from_host", src, bytes);
    if (st != TJ_OK || bytes == 0)
        return st;
    if (arr->dev->kind == TJ_DEVICE_CPU) {
        memcpy(arr->host, src, bytes);
        return TJ_OK;
    }
    st = tji_cuda_copy_htod(arr->dev->cuda, arr->dptr, src, bytes);
    return st == TJ_OK ? st : tji_dev_fail(arr->dev, st, "%s", tji_cuda_error(arr->dev->cuda));
}

tj_status
tj_array_copy_to_host(const tj_array *arr, void *dst, size_t bytes)
{
    if (!arr)
        return TJ_ERR_INVALID;
    tj_status st = check_bytes(arr, "tj_array_copy_to_host", dst, bytes);
    if (st != TJ_OK || bytes == 0)
        return st;
    if (arr->dev->kind == TJ_DEVICE_CPU) {
        memcpy(dst, arr->host, bytes);
        return TJ_OK;
    }
    st = tji_cuda_copy_dtoh(arr->dev->cuda, dst, arr->dptr, bytes);
    return st == TJ_OK ? st : tji_dev_fail(arr->dev, st, "%s", tji_cuda_error(arr->dev->cuda));
}

tj_status
tj_array_zero(tj_array *arr)
{
    if (!arr)
        return TJ_ERR_INVALID;
    if (arr->dev->kind == TJ_DEVICE_CPU) {
        memset(arr->host, 0, arr->bytes);
        return TJ_OK;
    }
    tj_status st = tji_cuda_memset(arr->dev->cuda, arr->dptr, 0, arr->bytes);
    return st == TJ_OK ? st : tji_dev_fail(arr->dev, st, "%s", tji_cuda_error(arr->dev->cuda));
}

int
tj_array_get_ndim(const tj_array *arr)
{
    return arr ? arr->ndim : 0;
}

int64_t
tj_array_get_shape(const tj_array *arr, int dim)
{
    return arr && dim >= 0 && dim < arr->ndim ? arr->shape[dim] : -1;
}

size_t
tj_array_get_bytes(const tj_array *arr)
{
    return arr ? arr->bytes : 0;
}

const tj_type *
tj_array_get_type(const tj_array *arr)
{
    return arr ? arr->type : NULL;
}

tj_device *
tj_array_get_device(const tj_array *arr)
{
    return arr ? arr->dev : NULL;
}

uint64_t
tj_array_get_device_pointer(const tj_array *arr)
{
    if (!arr)
        return 0;
    return arr->dev->kind == TJ_DEVICE_CPU ? (uint64_t)(uintptr_t)arr->host : arr->dptr;
}

/* ---- timers ----------------------------------------------------------------------------- */

struct tj_device_timer {
    tj_device *dev;
    tji_cuda_event *ev[2];       /* CUDA: start, stop */
    double host_ms[2];           /* CPU: CLOCK_MONOTONIC readings */
    uint64_t seq[2];             /* when each mark was last recorded (0: never) */
    uint64_t next_seq;
};

tj_status
tj_device_timer_create(tj_device *dev, tj_device_timer **out)
{
    if (!dev || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    tj_device_timer *t = calloc(1, sizeof *t);
    if (!t)
        return tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_device_timer_create: out of memory");
    t->dev = dev;
    for (int i = 0; dev->kind == TJ_DEVICE_CUDA && i < 2; i++) {
        tj_status st = tji_cuda_event_create(dev->cuda, &t->ev[i]);
        if (st != TJ_OK) {
            tji_dev_fail(dev, st, "tj_device_timer_create: %s", tji_cuda_error(dev->cuda));
            tj_device_timer_destroy(t);
            return st;
        }
    }
    *out = t;
    return TJ_OK;
}

void
tj_device_timer_destroy(tj_device_timer *t)
{
    if (!t)
        return;
    for (int i = 0; i < 2; i++)
        tji_cuda_event_destroy(t->dev->cuda, t->ev[i]);
    free(t);
}

static tj_status
timer_mark(tj_device_timer *t, int which)
{
    if (!t)
        return TJ_ERR_INVALID;
    if (t->dev->kind == TJ_DEVICE_CUDA) {
        tj_status st = tji_cuda_event_record(t->dev->cuda, t->ev[which]);
        if (st != TJ_OK)
            return tji_dev_fail(t->dev, st, "%s", tji_cuda_error(t->dev->cuda));
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        t->host_ms[which] = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
    }
    t->seq[which] = ++t->next_seq;
    return TJ_OK;
}

tj_status
tj_device_timer_start(tj_device_timer *t)
{
    return timer_mark(t, 0);
}

tj_status
tj_device_timer_stop(tj_device_timer *t)
{
    return timer_mark(t, 1);
}

tj_status
tj_device_timer_elapsed(tj_device_timer *t, double *ms)
{
    if (!t || !ms)
        return TJ_ERR_INVALID;
    if (t->seq[0] == 0 || t->seq[1] < t->seq[0])
        return tji_dev_fail(t->dev, TJ_ERR_STATE,
                            "tj_device_timer_elapsed: %s", t->seq[0] == 0
                                ? "the start mark was never recorded"
                                : "no stop mark was recorded after the last start mark");
    if (t->dev->kind != TJ_DEVICE_CUDA) {
        *ms = t->host_ms[1] - t->host_ms[0];
        return TJ_OK;
    }
    float f = 0;
    tj_status st = tji_cuda_event_elapsed(t->dev->cuda, t->ev[0], t->ev[1], &f);
    if (st != TJ_OK)
        return tji_dev_fail(t->dev, st, "%s", tji_cuda_error(t->dev->cuda));
    *ms = f;
    return TJ_OK;
}
