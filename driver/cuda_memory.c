/*
 * driver/cuda_memory.c: device memory on a tji_cuda handle: allocation, copies, memset.
 * Everything is ordered on the legacy default stream (stream 0): copies to and from the host
 * return once the host buffer is done with; device-to-device copies and memsets may still
 * be running. Zero-byte requests succeed without calling the driver; allocating 0 bytes
 * gives the address 0, and freeing 0 does nothing.
 */
#include <stdio.h>

#include "cuda_internal.h"

tj_status
tji_cuda_alloc(tji_cuda *c, size_t bytes, uint64_t *dptr)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (!dptr)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_alloc: 'dptr' is NULL");
    *dptr = 0;
    if (bytes == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUdeviceptr p = 0;
    CUresult r = c->drv.api.cuMemAlloc(&p, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemAlloc(%zu bytes)", bytes);
    *dptr = p;
    return TJ_OK;
}

tj_status
tji_cuda_free(tji_cuda *c, uint64_t dptr)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (dptr == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuMemFree(dptr);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemFree(0x%llx)", (unsigned long long)dptr);
    return TJ_OK;
}

tj_status
tji_cuda_copy_htod(tji_cuda *c, uint64_t dst, const void *src, size_t bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (bytes && !src)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_copy_htod: 'src' is NULL");
    if (bytes == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuMemcpyHtoD(dst, src, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemcpyHtoD(0x%llx, %zu bytes)", (unsigned long long)dst,
                             bytes);
    return TJ_OK;
}

tj_status
tji_cuda_copy_dtoh(tji_cuda *c, void *dst, uint64_t src, size_t bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (bytes && !dst)
        return tji_cuda_failf(c, TJ_ERR_INVALID, "tji_cuda_copy_dtoh: 'dst' is NULL");
    if (bytes == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuMemcpyDtoH(dst, src, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemcpyDtoH(0x%llx, %zu bytes)", (unsigned long long)src,
                             bytes);
    return TJ_OK;
}

tj_status
tji_cuda_copy_dtod(tji_cuda *c, uint64_t dst, uint64_t src, size_t bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (bytes == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuMemcpyDtoD(dst, src, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemcpyDtoD(0x%llx, 0x%llx, %zu bytes)",
                             (unsigned long long)dst, (unsigned long long)src, bytes);
    return TJ_OK;
}

tj_status
tji_cuda_memset(tji_cuda *c, uint64_t dst, uint8_t value, size_t bytes)
{
    if (!c)
        return TJ_ERR_INVALID;
    if (bytes == 0)
        return TJ_OK;
    tj_status st = tji_cuda_enter(c);
    if (st != TJ_OK)
        return st;
    CUresult r = c->drv.api.cuMemsetD8(dst, value, bytes);
    if (r != TJI_CUDA_SUCCESS)
        return tji_cuda_fail(c, r, "cuMemsetD8(0x%llx, %u, %zu bytes)", (unsigned long long)dst,
                             (unsigned)value, bytes);
    return TJ_OK;
}
