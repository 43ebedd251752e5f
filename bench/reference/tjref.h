/*
 * bench/reference/tjref.h: the C ABI of libtjref.so, the GPU references of tilejit-bench
 * (CUDA runtime and CUB, built by nvcc when CMake finds it; see reference.cmake). The bench
 * loads the library with dlopen and passes device pointers of tilejit arrays
 * (tj_array_get_device_pointer), which live in the primary context that the runtime uses
 * too. Every call returns 0, or -1 with a message in tjref_error(). Each timed call makes
 * one untimed warm-up run, then 'nreps' runs timed with CUDA events on the legacy default
 * stream (milliseconds in ms[0..nreps)), and leaves the last run's output in place.
 */
#ifndef TJREF_H
#define TJREF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TJREF_ABI_VERSION 2

#if defined(TJREF_BUILDING)
#define TJREF_API __attribute__((visibility("default")))
#else
#define TJREF_API
#endif

/* TJREF_ABI_VERSION of the library. */
typedef int tjref_abi_version_fn(void);
/* "CUDA runtime 13.0, CUB 3.0.0, built for sm_90"; static storage. */
typedef const char *tjref_describe_fn(void);
/* The message of the last failure; static storage. */
typedef const char *tjref_error_fn(void);
/* Selects device 0 and makes its primary context current; its name in 'name'. */
typedef int tjref_init_fn(char *name, size_t n);

/* cudaMemcpyAsync device to device of 'bytes'. */
typedef int tjref_copy_fn(uint64_t dst, uint64_t src, size_t bytes, int nreps, float *ms);
/* cub::DeviceReduce::Sum of 'n' floats into one float at 'out'. */
typedef int tjref_reduce_sum_fn(uint64_t in, int64_t n, uint64_t out, int nreps, float *ms);
/* cub::DeviceHistogram::HistogramEven of 'n' floats: 256 int32 bins of width 1 over
 * [0, 256) at 'hist'. */
typedef int tjref_histogram_even_fn(uint64_t in, int64_t n, uint64_t hist, int nreps,
                                    float *ms);
/* The same histogram, hand-written: a grid-stride loop with a shared 256-bin histogram
 * per block (shared atomics), merged with one global atomic per bin and block. 'hist' is
 * zeroed before each run, outside the timed interval. */
typedef int tjref_histogram_shared_fn(uint64_t in, int64_t n, uint64_t hist, int nreps,
                                      float *ms);
/* cub::DeviceSelect::If keeping x < 'threshold' into 'out' (stable), the count as int64 at
 * 'count'. */
typedef int tjref_select_less_fn(uint64_t in, int64_t n, float threshold, uint64_t out,
                                 uint64_t count, int nreps, float *ms);
/* Launch overhead: 'nreps' times, 'nlaunches' launches of an empty kernel <<<1, 256>>>
 * back to back, then a synchronisation, timed on the host; the mean per launch in
 * us[0..nreps). */
typedef int tjref_launch_empty_fn(int nlaunches, int nreps, double *us);
/* Device 0's multiprocessors and the most threads each runs at once (for a grid that fills
 * the device once, as the shared-atomic histogram's grid-stride loop has). */
typedef int tjref_device_slots_fn(int *sms, int *threads_per_sm);
/* Loads PTX text with cudaLibraryLoadData, gets kernel 'name' and its attributes (which
 * forces its compilation), then unloads it: the loading half of NVRTC + load. */
typedef int tjref_load_ptx_fn(const char *ptx, const char *name);

TJREF_API tjref_abi_version_fn tjref_abi_version;
TJREF_API tjref_describe_fn tjref_describe;
TJREF_API tjref_error_fn tjref_error;
TJREF_API tjref_init_fn tjref_init;
TJREF_API tjref_copy_fn tjref_copy;
TJREF_API tjref_reduce_sum_fn tjref_reduce_sum;
TJREF_API tjref_histogram_even_fn tjref_histogram_even;
TJREF_API tjref_histogram_shared_fn tjref_histogram_shared;
TJREF_API tjref_select_less_fn tjref_select_less;
TJREF_API tjref_launch_empty_fn tjref_launch_empty;
TJREF_API tjref_load_ptx_fn tjref_load_ptx;
TJREF_API tjref_device_slots_fn tjref_device_slots;

#ifdef __cplusplus
}
#endif

#endif /* TJREF_H */
