/*
 * bench/reference/tjref.cu: libtjref.so, the GPU references of tilejit-bench (the ABI and
 * its rules are in tjref.h). CUDA runtime and CUB only; no tilejit here. Built by nvcc
 * with the runtime linked statically (reference.cmake), so the library needs only glibc,
 * libstdc++ and libgcc next to the driver.
 */
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#define TJREF_BUILDING
#include "tjref.h"

namespace {

char last_error[1024];

int
fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return -1;
}

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess)                                                             \
            return fail("%s: %s (%s)", #call, cudaGetErrorString(err_),                      \
                        cudaGetErrorName(err_));                                             \
    } while (0)

/* Runs 'run' once untimed, then 'nreps' times between two events each; 'before' runs
 * before each start event (untimed). */
template <typename Run, typename Before>
int
timed(int nreps, float *ms, Run run, Before before)
{
    cudaEvent_t ev[2];
    CHECK(cudaEventCreate(&ev[0]));
    CHECK(cudaEventCreate(&ev[1]));
    int rc = 0;
    for (int i = -1; rc == 0 && i < nreps; i++) {
        rc = before();
        if (rc == 0 && cudaEventRecord(ev[0], 0) != cudaSuccess)
            rc = fail("cudaEventRecord failed");
        if (rc == 0)
            rc = run();
        if (rc == 0 && cudaEventRecord(ev[1], 0) != cudaSuccess)
            rc = fail("cudaEventRecord failed");
        if (rc == 0 && cudaEventSynchronize(ev[1]) != cudaSuccess)
            rc = fail("cudaEventSynchronize: %s", cudaGetErrorString(cudaGetLastError()));
        float t = 0;
        if (rc == 0 && cudaEventElapsedTime(&t, ev[0], ev[1]) != cudaSuccess)
            rc = fail("cudaEventElapsedTime failed");
        if (rc == 0 && i >= 0)
            ms[i] = t;
    }
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    return rc;
}

int
nothing()
{
    return 0;
}

template <typename T>
T *
dev(uint64_t p)
{
    return reinterpret_cast<T *>(static_cast<uintptr_t>(p));
}

/* Temporary storage for a CUB call, kept between calls. */
struct temp_storage {
    void *p = nullptr;
    size_t bytes = 0;
    int reserve(size_t want)
    {
        if (want <= bytes)
            return 0;
        if (p)
            cudaFree(p);
        p = nullptr;
        bytes = 0;
        CHECK(cudaMalloc(&p, want));
        bytes = want;
        return 0;
    }
    ~temp_storage()
    {
        if (p)
            cudaFree(p);
    }
};

constexpr int HIST_BINS = 256;
constexpr int HIST_BLOCK = 256;

/* A grid-stride loop with a shared histogram per block, merged into 'hist' at the end. */
__global__ void
histogram_shared_kernel(const float *__restrict__ in, long long n, int *__restrict__ hist)
{
    __shared__ int bins[HIST_BINS];
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    long long stride = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    /* four loads in flight per thread */
    for (; i + 3 * stride < n; i += 4 * stride) {
        float v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride], v3 = in[i + 3 * stride];
        atomicAdd(&bins[(int)v0], 1);
        atomicAdd(&bins[(int)v1], 1);
        atomicAdd(&bins[(int)v2], 1);
        atomicAdd(&bins[(int)v3], 1);
    }
    for (; i < n; i += stride)
        atomicAdd(&bins[(int)in[i]], 1);
    __syncthreads();
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}

__global__ void
empty_kernel(float *x)
{
    (void)x;
}

struct less_than {
    float threshold;
    __host__ __device__ bool operator()(float v) const { return v < threshold; }
};

} // namespace

extern "C" int
tjref_abi_version(void)
{
    return TJREF_ABI_VERSION;
}

extern "C" const char *
tjref_describe(void)
{
    static char text[256];
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    snprintf(text, sizeof text, "CUDA runtime %d.%d, CUB %d.%d.%d, nvcc %d.%d for sm_%d",
             rt / 1000, rt % 1000 / 10, CUB_MAJOR_VERSION, CUB_MINOR_VERSION,
             CUB_SUBMINOR_VERSION, __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, TJREF_ARCH);
    return text;
}

extern "C" const char *
tjref_error(void)
{
    return last_error;
}

extern "C" int
tjref_init(char *name, size_t n)
{
    CHECK(cudaSetDevice(0));
    CHECK(cudaFree(nullptr));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(name, n, "%s (sm_%d%d)", prop.name, prop.major, prop.minor);
    return 0;
}

extern "C" int
tjref_copy(uint64_t dst, uint64_t src, size_t bytes, int nreps, float *ms)
{
    auto run = [&]() -> int {
        CHECK(cudaMemcpyAsync(dev<void>(dst), dev<void>(src), bytes, cudaMemcpyDeviceToDevice, 0));
        return 0;
    };
    return timed(nreps, ms, run, nothing);
}

extern "C" int
tjref_reduce_sum(uint64_t in, int64_t n, uint64_t out, int nreps, float *ms)
{
    temp_storage tmp;
    size_t bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, bytes, dev<const float>(in), dev<float>(out), n));
    if (tmp.reserve(bytes))
        return -1;
    auto run = [&]() -> int {
        CHECK(cub::DeviceReduce::Sum(tmp.p, bytes, dev<const float>(in), dev<float>(out), n));
        return 0;
    };
    return timed(nreps, ms, run, nothing);
}

extern "C" int
tjref_histogram_even(uint64_t in, int64_t n, uint64_t hist, int nreps, float *ms)
{
    temp_storage tmp;
    size_t bytes = 0;
    CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, dev<const float>(in),
                                              dev<int>(hist), HIST_BINS + 1, 0.0f, 256.0f, n));
    if (tmp.reserve(bytes))
        return -1;
    auto run = [&]() -> int {
        CHECK(cub::DeviceHistogram::HistogramEven(tmp.p, bytes, dev<const float>(in),
                                                  dev<int>(hist), HIST_BINS + 1, 0.0f, 256.0f,
                                                  n));
        return 0;
    };
    return timed(nreps, ms, run, nothing);
}

extern "C" int
tjref_histogram_shared(uint64_t in, int64_t n, uint64_t hist, int nreps, float *ms)
{
    int sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_shared_kernel,
                                                        HIST_BLOCK, 0));
    int grid = sms * (per_sm > 0 ? per_sm : 1);
    auto before = [&]() -> int {
        CHECK(cudaMemsetAsync(dev<int>(hist), 0, HIST_BINS * sizeof(int), 0));
        return 0;
    };
    auto run = [&]() -> int {
        histogram_shared_kernel<<<grid, HIST_BLOCK>>>(dev<const float>(in), n, dev<int>(hist));
        CHECK(cudaGetLastError());
        return 0;
    };
    return timed(nreps, ms, run, before);
}

extern "C" int
tjref_select_less(uint64_t in, int64_t n, float threshold, uint64_t out, uint64_t count,
                  int nreps, float *ms)
{
    temp_storage tmp;
    size_t bytes = 0;
    less_than pred{threshold};
    CHECK(cub::DeviceSelect::If(nullptr, bytes, dev<const float>(in), dev<float>(out),
                                dev<long long>(count), n, pred));
    if (tmp.reserve(bytes))
        return -1;
    auto run = [&]() -> int {
        CHECK(cub::DeviceSelect::If(tmp.p, bytes, dev<const float>(in), dev<float>(out),
                                    dev<long long>(count), n, pred));
        return 0;
    };
    return timed(nreps, ms, run, nothing);
}

extern "C" int
tjref_launch_empty(int nlaunches, int nreps, double *us)
{
    float *x = nullptr;
    CHECK(cudaMalloc(&x, sizeof(float)));
    int rc = 0;
    for (int r = -1; rc == 0 && r < nreps; r++) {
        CHECK(cudaDeviceSynchronize());
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < nlaunches; i++)
            empty_kernel<<<1, 256>>>(x);
        cudaError_t err = cudaDeviceSynchronize();
        auto t1 = std::chrono::steady_clock::now();
        if (err != cudaSuccess)
            rc = fail("empty kernel: %s", cudaGetErrorString(err));
        else if (r >= 0)
            us[r] = std::chrono::duration<double, std::micro>(t1 - t0).count() / nlaunches;
    }
    cudaFree(x);
    return rc;
}

extern "C" int
tjref_device_slots(int *sms, int *threads_per_sm)
{
    CHECK(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    return 0;
}

extern "C" int
tjref_load_ptx(const char *ptx, const char *name)
{
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
    cudaKernel_t kernel;
    cudaError_t err = cudaLibraryGetKernel(&kernel, lib, name);
    cudaFuncAttributes attr;
    if (err == cudaSuccess)
        err = cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(kernel));
    cudaLibraryUnload(lib);
    if (err != cudaSuccess)
        return fail("loading kernel '%s': %s", name, cudaGetErrorString(err));
    return 0;
}
