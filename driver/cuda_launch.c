/*
 * driver/cuda_launch.c: PTX modules (load with the driver JIT's logs, functions, globals),
 * kernel launches on the legacy default stream, synchronisation and timing events. Every
 * module and event a handle creates stays on its lists until released, so tji_cuda_close
 * can release what the caller left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define JIT_LOG_BYTES 8192

/* ---- modules ------------------------------------------------------------------------------ */

/* "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: ...: <log>", with the error log, else the
 * info log, trimmed of trailing newlines. */
static tj_status
fail_load(tji_cuda *c, CUresult r, char *error_log, char *info_log)
{
    char *log = error_log[0] ? error_log : info_log;
    char *end = log + strlen(log);
    while (end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        *--end = 0;
    tj_status st = tji_cuda_fail(c, r, "cuModuleLoadDataEx");
    size_t used = strlen(c->err);
    if (log[0] && used + 1 < sizeof c->err)
        snprintf(c->err + used, sizeof c->err - used, ": %s", log);
    return st;
}

tj_status
tji_cuda_module_load(tji_cuda *c, const char *ptx, tji_cuda_module **out)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!ptx || !out)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_module_load: %s is NULL",
                              !ptx ? "'ptx'" : "'out'");
    *out = NULL;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    tji_cuda_module *m = calloc(1, sizeof *m);
    char *logs = calloc(2, JIT_LOG_BYTES);
    if (!m || !logs) {
        free(m);
        free(logs);
        return tji_cuda_failf(c, TJ_ERR_NOMEM, "tji_cuda_module_load: out of host memory");
    }
    char *error_log = logs, *info_log = logs + JIT_LOG_BYTES;
    CUjit_option opts[] = {
        TJI_CU_JIT_ERROR_LOG_BUFFER, TJI_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        TJI_CU_JIT_INFO_LOG_BUFFER, TJI_CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
    };
    /* the size options' values travel in the pointer itself (cuda.h: CUjit_option) */
    void *values[] = {
        error_log, (void *)(uintptr_t)(JIT_LOG_BYTES - 1),
        info_log, (void *)(uintptr_t)(JIT_LOG_BYTES - 1),
    };
    CUresult r = c->drv.api.cuModuleLoadDataEx(&m->mod, ptx, sizeof opts / sizeof opts[0], opts,
                                               values);
    if (r != TJI_CUDA_SUCCESS) {
        st = fail_load(c, r, error_log, info_log);
        free(m);
        free(logs);
        return st;
    }
    free(logs);
    m->next = c->modules;
    if (c->modules)
        c->modules->prev = m;
    c->modules = m;
    *out = m;
    return TJ_OK;
}

/* Unloads 'm' (already off the handle's list) and frees it. */
static void
destroy_module(tji_cuda *c, tji_cuda_module *m)
{
    CUresult r = c->drv.api.cuModuleUnload(m->mod);
    if (r != TJI_CUDA_SUCCESS)
        tji_cuda_fail(c, r, "cuModuleUnload");
    for (tji_cuda_function *f = m->functions, *next; f; f = next) {
        next = f->next;
        free(f);
    }
    free(m);
}

void
tji_cuda_module_unload(tji_cuda *c, tji_cuda_module *m)
{
    if (!c || !m)
        return;
    tji_cuda_enter(c);
    if (m->prev)
        m->prev->next = m->next;
    else
        c->modules = m->next;
    if (m->next)
        m->next->prev = m->prev;
    destroy_module(c, m);
}

tj_status
tji_cuda_module_function(tji_cuda *c, tji_cuda_module *m, const char *name,
                         tji_cuda_function **out)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!m || !name || !out)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_module_function: %s is NULL",
                              !m ? "'m'" : !name ? "'name'" : "'out'");
    *out = NULL;
    /* one object per name, so the shared-memory limit set on it is remembered */
    for (tji_cuda_function *f = m->functions; f; f = f->next) {
        if (strcmp(f->name, name) == 0) {
            *out = f;
            return TJ_OK;
        }
    }
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    size_t len = strlen(name);
    tji_cuda_function *f = calloc(1, sizeof *f + len + 1);
    if (!f)
        return tji_cuda_failf(c, TJ_ERR_NOMEM, "tji_cuda_module_function: out of host memory");
    memcpy(f->name, name, len + 1);
    CUresult r = c->drv.api.cuModuleGetFunction(&f->fn, m->mod, name);
    if (r != TJI_CUDA_SUCCESS) {
        free(f);
        return tji_cuda_fail(c, r, "cuModuleGetFunction(\"%s\")", name);
    }
    f->next = m->functions;
    m->functions = f;
    *out = f;
    return TJ_OK;
}

tj_status
tji_cuda_module_global(tji_cuda *c, tji_cuda_module *m, const char *name, uint64_t *dptr,
                       size_t *bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!m || !name)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_module_global: %s is NULL",
                              !m ? "'m'" : "'name'");
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUdeviceptr p = 0;
    size_t n = 0;
    CUresult r = c->drv.api.cuModuleGetGlobal(&p, &n, m->mod, name);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuModuleGetGlobal(\"%s\")", name);
    if (dptr)
        *dptr = p;
    if (bytes)
        *bytes = n;
    return TJ_OK;
}

/* ---- launches ----------------------------------------------------------------------------- */

/* Raises fn's dynamic shared-memory limit to 'bytes' unless it is there already; refuses
 * (TJ_ERR_LIMIT) what the device cannot give a block even after opting in. */
static tj_status
raise_shared_limit(tji_cuda *c, tji_cuda_function *fn, size_t bytes)
{
    if (bytes <= fn->dynamic_shared_limit)
        return TJ_OK;
    const tji_cuda_api *api = &c->drv.api;
    size_t optin = c->info.max_shared_optin;
    if (bytes > optin)
        return tji_cuda_failf(c, TJ_ERR_LIMIT,
                              "cuLaunchKernel(\"%s\"): %zu bytes of dynamic shared memory per "
                              "block exceed the device's opt-in maximum of %zu bytes",
                              fn->name, bytes, optin);
    int static_bytes = 0;
    CUresult r = api->cuFuncGetAttribute(&static_bytes, TJI_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                         fn->fn);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuFuncGetAttribute(\"%s\", "
                             "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)", fn->name);
    size_t total = bytes + (static_bytes > 0 ? (size_t)static_bytes : 0);
    if (total > optin)
        return tji_cuda_failf(c, TJ_ERR_LIMIT,
                              "cuLaunchKernel(\"%s\"): %zu bytes of shared memory per block "
                              "(%zu dynamic + %d static) exceed the device's opt-in maximum "
                              "of %zu bytes",
                              fn->name, total, bytes, static_bytes, optin);
    r = api->cuFuncSetAttribute(fn->fn, TJI_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                (int)bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuFuncSetAttribute(\"%s\", "
                             "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, %zu)",
                             fn->name, bytes);
    fn->dynamic_shared_limit = bytes;
    return TJ_OK;
}

tj_status
tji_cuda_launch(tji_cuda *c, tji_cuda_function *fn, const uint32_t grid[3],
                const uint32_t block[3], size_t shared_bytes, void **params)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!fn || !grid || !block)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_launch: %s is NULL",
                              !fn ? "'fn'" : !grid ? "'grid'" : "'block'");
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    if (shared_bytes > c->info.max_shared_default &&
        (st = raise_shared_limit(c, fn, shared_bytes)) != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuLaunchKernel(fn->fn, grid[0], grid[1], grid[2], block[0],
                                           block[1], block[2], (unsigned int)shared_bytes,
                                           NULL, params, NULL);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r,
                             "cuLaunchKernel(\"%s\", grid %u x %u x %u, block %u x %u x %u, "
                             "%zu bytes of shared memory)",
                             fn->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                             shared_bytes);
    return TJ_OK;
}

tj_status
tji_cuda_synchronize(tji_cuda *c)
{
    if (!c)
        return TJ_ERR_INVALID;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuCtxSynchronize();
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuCtxSynchronize");
    return TJ_OK;
}

tj_status
tji_cuda_get_stack_size(tji_cuda *c, size_t *bytes)
{
    if (!c || !bytes)
        return TJ_ERR_INVALID;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuCtxGetLimit(bytes, TJI_CU_LIMIT_STACK_SIZE);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuCtxGetLimit(CU_LIMIT_STACK_SIZE)");
    return TJ_OK;
}

tj_status
tji_cuda_set_stack_size(tji_cuda *c, size_t bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuCtxSetLimit(TJI_CU_LIMIT_STACK_SIZE, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuCtxSetLimit(CU_LIMIT_STACK_SIZE, %zu)", bytes);
    return TJ_OK;
}

/* ---- events ------------------------------------------------------------------------------- */

tj_status
tji_cuda_event_create(tji_cuda *c, tji_cuda_event **out)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!out)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_event_create: 'out' is NULL");
    *out = NULL;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    tji_cuda_event *e = calloc(1, sizeof *e);
    if (!e)
        return tji_cuda_failf(c, TJ_ERR_NOMEM, "tji_cuda_event_create: out of host memory");
    CUresult r = c->drv.api.cuEventCreate(&e->ev, TJI_CU_EVENT_DEFAULT);
    if (r != TJI_CUDA_SUCCESS) {
        free(e);
        return tji_cuda_fail(c, r, "cuEventCreate");
    }
    e->next = c->events;
    if (c->events)
        c->events->prev = e;
    c->events = e;
    *out = e;
    return TJ_OK;
}

static void
destroy_event(tji_cuda *c, tji_cuda_event *e)
{
    CUresult r = c->drv.api.cuEventDestroy(e->ev);
    if (r != TJI_CUDA_SUCCESS)
        tji_cuda_fail(c, r, "cuEventDestroy");
    free(e);
}

void
tji_cuda_event_destroy(tji_cuda *c, tji_cuda_event *e)
{
    if (!c || !e)
        return;
    tji_cuda_enter(c);
    if (e->prev)
        e->prev->next = e->next;
    else
        c->events = e->next;
    if (e->next)
        e->next->prev = e->prev;
    destroy_event(c, e);
}

tj_status
tji_cuda_event_record(tji_cuda *c, tji_cuda_event *e)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!e)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_event_record: 'e' is NULL");
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuEventRecord(e->ev, NULL);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuEventRecord");
    return TJ_OK;
}

tj_status
tji_cuda_event_elapsed(tji_cuda *c, tji_cuda_event *start, tji_cuda_event *end, float *ms)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!start || !end || !ms)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_event_elapsed: %s is NULL",
                              !start ? "'start'" : !end ? "'end'" : "'ms'");
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuEventSynchronize(end->ev);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuEventSynchronize");
    r = c->drv.api.cuEventElapsedTime(ms, start->ev, end->ev);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuEventElapsedTime");
    return TJ_OK;
}

/* ---- close -------------------------------------------------------------------------------- */

void
tji_cuda_release_all(tji_cuda *c)
{
    while (c->modules) {
        tji_cuda_module *m = c->modules;
        c->modules = m->next;
        destroy_module(c, m);
    }
    while (c->events) {
        tji_cuda_event *e = c->events;
        c->events = e->next;
        destroy_event(c, e);
    }
}
