/*
 * driver/: the runtime below the JIT. The CUDA driver (dlopen'ed, never linked) and the
 * CPU launcher (thread pool, width-1 and cooperative lanes). No LLVM here: this layer sees
 * PTX text and function pointers only. Every call returns a tj_status and, on failure,
 * writes a message naming the call (and the driver's error string) into the buffer it
 * is given or into its handle's 'err'.
 */
#ifndef TILEJIT_DRIVER_H
#define TILEJIT_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tilejit.h"

#define TJI_HIDDEN __attribute__((visibility("hidden")))
#define TJI_ERRMSG_BYTES 1024

/* ---------------------------------------------------------------------------------------- */
/* Kernel error record (SPEC 5), shared with the generated code                              */
/* ---------------------------------------------------------------------------------------- */
/* Generated code (both targets) claims 'flag' with a 0 -> 1 compare-and-swap; the winner
 * fills the other fields. The layout is mirrored by jit/kernel_error.c: keep in step. */
typedef struct tji_error_record {
    int32_t flag;     /* 0: no error */
    int32_t site;     /* index into the module's table of check sites */
    int64_t value;    /* the offending index or offset */
    int64_t lo;       /* the valid range is [lo, hi) */
    int64_t hi;
    int64_t block;
    int32_t lane;
    int32_t dim;      /* which dimension, or -1 */
} tji_error_record;

/* ---------------------------------------------------------------------------------------- */
/* CPU launcher (driver/cpu_launch.c)                                                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct tji_cpu_worker tji_cpu_worker;

/* The CPU entry that jit/target_host.c emits for each kernel: runs blocks
 * [block_begin, block_end) for lane 'lane'. In width-1 mode the launcher passes lane 0 and
 * a range of blocks; in cooperative mode each lane is a fiber and gets a single block. */
typedef void (*tji_cpu_entry)(tji_cpu_worker *w, const void *args, int64_t block_begin,
                              int64_t block_end, int32_t lane);

/* Per-worker state read by generated code. The first fields are read by the code that
 * jit/target_host.c emits (GEP indices 0, 1, 2): keep their order and types. */
struct tji_cpu_worker {
    void *arena;                           /* this block's shared memory, 16-byte aligned */
    void (*barrier)(tji_cpu_worker *w);    /* cooperative mode: wait for the block's lanes */
    tji_error_record *err;                 /* the launch's kernel-error record */
    /* launcher-private fields follow in driver/cpu_launch.c */
};

typedef struct tji_cpu_launch {
    tji_cpu_entry entry;
    const void *args;          /* passed through to 'entry' */
    int64_t nblocks;
    int32_t block_dim;         /* lanes per block; 1 in width-1 mode */
    bool cooperative;          /* run block_dim lanes per block as fibers */
    int32_t block_lanes;       /* width-1 mode: the lanes one block runs itself (lane loops,
                                  jit/lane_loops.c), a measure of its work; 0 means 1 */
    size_t arena_bytes;        /* shared memory per block (0 allowed) */
    size_t frame_bytes;        /* about the stack a block takes (a lane's, as fibers); 0:
                                  small */
    tji_error_record *err;     /* where kernel errors go; must be non-NULL */
} tji_cpu_launch;

typedef struct tji_cpu_pool tji_cpu_pool;

/* Starts a pool of 'nthreads' workers (0: one per online core). */
TJI_HIDDEN tj_status tji_cpu_pool_create(int nthreads, tji_cpu_pool **out, char *msg,
                                         size_t msglen);
TJI_HIDDEN void tji_cpu_pool_destroy(tji_cpu_pool *pool);
TJI_HIDDEN int tji_cpu_pool_threads(const tji_cpu_pool *pool);
/* For tests: plans cooperative launches as if vm.max_map_count, which pool creation reads,
 * were 'count' (cpu_launch.c: coop_workers). */
TJI_HIDDEN void tji_cpu_pool_set_max_map_count(tji_cpu_pool *pool, int64_t count);
/* Runs the launch to completion on the pool (the caller's thread takes part). */
TJI_HIDDEN tj_status tji_cpu_run(tji_cpu_pool *pool, const tji_cpu_launch *l, char *msg,
                                 size_t msglen);

/* ---------------------------------------------------------------------------------------- */
/* CUDA driver (driver/cuda_*.c)                                                             */
/* ---------------------------------------------------------------------------------------- */

typedef struct tji_cuda tji_cuda;          /* one device, its primary context, its driver */
typedef struct tji_cuda_module tji_cuda_module;
typedef struct tji_cuda_function tji_cuda_function;

typedef struct tji_cuda_info {
    char name[256];
    int cc_major, cc_minor;         /* compute capability: 9, 0 on an H200 */
    int sm_count;
    int max_threads_per_block;
    size_t total_mem_bytes;
    size_t max_shared_default;      /* per block without opting in (48 KiB) */
    size_t max_shared_optin;        /* per block after raising the limit */
    int driver_version;             /* e.g. 13000 */
} tji_cuda_info;

/* The number of CUDA devices: 0 (and TJ_OK) when there is no libcuda.so.1, only the
 * toolkit's stub library, or no GPU. */
TJI_HIDDEN tj_status tji_cuda_device_count(int *count, char *msg, size_t msglen);
/* Opens device 'ordinal' with its primary context. TJ_ERR_NO_DEVICE when there is none. */
TJI_HIDDEN tj_status tji_cuda_open(int ordinal, tji_cuda **out, char *msg, size_t msglen);
/* Unloads its modules, releases the primary context. NULL does nothing. */
TJI_HIDDEN void tji_cuda_close(tji_cuda *c);
TJI_HIDDEN const tji_cuda_info *tji_cuda_get_info(const tji_cuda *c);
/* The last failure's message, e.g.
 * "cuMemAlloc(1024 bytes): CUDA_ERROR_OUT_OF_MEMORY: out of memory". */
TJI_HIDDEN const char *tji_cuda_error(const tji_cuda *c);

TJI_HIDDEN tj_status tji_cuda_alloc(tji_cuda *c, size_t bytes, uint64_t *dptr);
TJI_HIDDEN tj_status tji_cuda_free(tji_cuda *c, uint64_t dptr);
TJI_HIDDEN tj_status tji_cuda_copy_htod(tji_cuda *c, uint64_t dst, const void *src,
                                        size_t bytes);
TJI_HIDDEN tj_status tji_cuda_copy_dtoh(tji_cuda *c, void *dst, uint64_t src, size_t bytes);
TJI_HIDDEN tj_status tji_cuda_copy_dtod(tji_cuda *c, uint64_t dst, uint64_t src,
                                        size_t bytes);
TJI_HIDDEN tj_status tji_cuda_memset(tji_cuda *c, uint64_t dst, uint8_t value, size_t bytes);

/* Loads PTX text; a failure's message includes the driver JIT's error log. */
TJI_HIDDEN tj_status tji_cuda_module_load(tji_cuda *c, const char *ptx,
                                          tji_cuda_module **out);
TJI_HIDDEN void tji_cuda_module_unload(tji_cuda *c, tji_cuda_module *m);
TJI_HIDDEN tj_status tji_cuda_module_function(tji_cuda *c, tji_cuda_module *m,
                                              const char *name, tji_cuda_function **out);
/* Address and size of global 'name' of the module. */
TJI_HIDDEN tj_status tji_cuda_module_global(tji_cuda *c, tji_cuda_module *m, const char *name,
                                            uint64_t *dptr, size_t *bytes);
/* Launches on the default stream. 'shared_bytes' above 48 KiB raises the function's
 * dynamic shared-memory limit first (once per function and size). */
TJI_HIDDEN tj_status tji_cuda_launch(tji_cuda *c, tji_cuda_function *fn,
                                     const uint32_t grid[3], const uint32_t block[3],
                                     size_t shared_bytes, void **params);
TJI_HIDDEN tj_status tji_cuda_synchronize(tji_cuda *c);
/* The per-thread stack of the context's threads (CU_LIMIT_STACK_SIZE) in '*bytes'. */
TJI_HIDDEN tj_status tji_cuda_get_stack_size(tji_cuda *c, size_t *bytes);
/* Sets it; the driver reserves it for every thread the device can hold at once. */
TJI_HIDDEN tj_status tji_cuda_set_stack_size(tji_cuda *c, size_t bytes);

/* Events for timing (the benchmarks). */
typedef struct tji_cuda_event tji_cuda_event;
TJI_HIDDEN tj_status tji_cuda_event_create(tji_cuda *c, tji_cuda_event **out);
TJI_HIDDEN void tji_cuda_event_destroy(tji_cuda *c, tji_cuda_event *e);
TJI_HIDDEN tj_status tji_cuda_event_record(tji_cuda *c, tji_cuda_event *e);
/* Milliseconds between two recorded events (waits for 'end'). */
TJI_HIDDEN tj_status tji_cuda_event_elapsed(tji_cuda *c, tji_cuda_event *start,
                                            tji_cuda_event *end, float *ms);

#endif /* TILEJIT_DRIVER_H */
