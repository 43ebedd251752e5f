/*
 * jit/internal.h: private structures of the JIT and the tji_ functions shared between its
 * files, grouped under the file that defines them. LLVM-C appears only in jit/ and
 * builtins/. Nothing here is exported from libtilejit.so.
 */
#ifndef TILEJIT_INTERNAL_H
#define TILEJIT_INTERNAL_H

#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "driver.h"
#include "tilejit.h"

#define TJI_ASSERT(c) assert(c)
#define TJI_ERR_BYTES 512
#define TJI_MAX_DIMS 4
#define TJI_MAX_SCOPES 64
#define TJI_MAX_BLOCK_DIM 1024
#define TJI_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* Part of every compile-cache key: bump it whenever the code the JIT emits for the same
 * lowered module changes (passes, code generation options, runtime ABI). */
#define TJI_CODEGEN_VERSION 14
#define TJI_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

typedef struct tji_arena_chunk tji_arena_chunk;
typedef struct tji_cache_entry tji_cache_entry;
typedef struct tji_target tji_target;

/* ---------------------------------------------------------------------------------------- */
/* context.c: the context, allocation, context-level errors                                  */
/* ---------------------------------------------------------------------------------------- */

/* A bump allocator for objects that die together (a kernel's values). */
typedef struct tji_arena {
    tj_context *ctx;
    tji_arena_chunk *head;
} tji_arena;

/* How compress_push.c packs a vector of kept values on this host (tji_compress_form_for). */
typedef enum tji_compress_form {
    TJI_COMPRESS_NONE,    /* push loops stay scalar */
    TJI_COMPRESS_PERMUTE, /* AVX2: a vpermd by a table row per mask, 256-bit vectors */
    TJI_COMPRESS_AVX512,  /* AVX-512F: vcompress, 512-bit vectors */
} tji_compress_form;

struct tj_context {
    LLVMContextRef llctx;
    LLVMTargetMachineRef tm_host;       /* on first use (tji_tm_host) */
    LLVMTargetMachineRef tm_nvptx[4];   /* per architecture and codegen level, on first use */
    char nvptx_arch[4][16];             /* "sm_90", or "sm_90+" for full codegen */
    LLVMOrcLLJITRef jit;                /* created on the first CPU build */
    tji_compress_form compress;         /* compress_push.c: how push loops are vectorised
                                           (set with tm_host) */
    tji_compress_form compress_cap;     /* the most $TILEJIT_CPU_COMPRESS allows */
    bool cpu_fibers;                    /* TILEJIT_CPU_LANES=fibers: cooperative CPU blocks
                                           keep fibers (no lane loops, lane_loops.c) */
    bool cpu_lanes_switch;              /* TILEJIT_CPU_LANES=switch: lane loops without
                                           their uniform copies (lane_loops.c) */
    bool cpu_butterfly;                 /* TILEJIT_CPU_REDUCE=butterfly: cooperative CPU
                                           reductions run the GPU's algorithm (reduce.c) */
    bool gpu_warp_pop;                  /* TILEJIT_GPU_POP=warp: GPU stack pops reserve
                                           their slots per warp (stack.c) */
    bool gpu_push_fence;                /* TILEJIT_GPU_PUSH=fence: a GPU push's leading
                                           barrier only where needed (stack.c) */
    bool cpu_no_prefetch;               /* TILEJIT_CPU_PREFETCH=off: no prefetches in
                                           lanes' loops (prefetch.c) */
    bool cpu_no_fusion;                 /* TILEJIT_CPU_FUSION=off: element-wise builtins
                                           keep loops of their own (layout.c) */
    bool perf_map;                      /* TILEJIT_PERF_MAP=1: CPU entries are listed in
                                           /tmp/perf-<pid>.map for perf (cache.c) */
    tj_type *types;                     /* interned types (a list) */
    tji_cache_entry *cache;             /* compiled modules (cache.c) */
    LLVMMemoryBufferRef libdevice;      /* libdevice bitcode, read on first use */
    char libdevice_id[4200];            /* its file when read (tji_libdevice_identity) */
    bool libdevice_missing;
    uint64_t next_id;                   /* for unique symbol names */
    tj_kernel *kernels;                 /* live kernels and functions (freed with us) */
    tj_module *modules;
    tj_device *devices;
    long fail_alloc_after;              /* test hook: fail the Nth allocation (0: never) */
    tj_status status;
    char err[TJI_ERR_BYTES];
    char llvm_error[512];               /* the first error LLVM diagnosed since the build
                                           began (context.c's handler), else "" */
};

TJI_HIDDEN void *tji_alloc(tj_context *ctx, size_t bytes);
TJI_HIDDEN void *tji_calloc(tj_context *ctx, size_t n, size_t bytes);
TJI_HIDDEN void *tji_realloc(tj_context *ctx, void *p, size_t bytes);
TJI_HIDDEN char *tji_strdup(tj_context *ctx, const char *s);
TJI_HIDDEN void tji_free(void *p);
TJI_HIDDEN void *tji_arena_alloc(tji_arena *a, size_t bytes);
TJI_HIDDEN char *tji_arena_strdup(tji_arena *a, const char *s);
TJI_HIDDEN void tji_arena_release(tji_arena *a);
/* Records a context-level error (the last one wins) and returns 'st'. */
TJI_HIDDEN tj_status tji_ctx_fail(tj_context *ctx, tj_status st, const char *fmt, ...)
    TJI_PRINTF(3, 4);
TJI_HIDDEN void tji_ctx_clear_error(tj_context *ctx);
/* The first error LLVM diagnosed in this context since tj_module_build began (NULL: none);
 * LLVM reports some failures (unreadable bitcode, a link, code generation) only that way. */
TJI_HIDDEN const char *tji_llvm_error(tj_context *ctx);
/* Converts and disposes an LLVM error handle into a context error. */
TJI_HIDDEN tj_status tji_ctx_fail_llvm(tj_context *ctx, LLVMErrorRef e, const char *what);
/* Names of kernels, functions, parameters, structs and fields: identifiers of at most
 * TJI_MAX_NAME characters (LLVM symbols and messages carry them whole). */
#define TJI_MAX_NAME 200
TJI_HIDDEN bool tji_is_identifier(const char *s);
/* Why 's' cannot be such a name, in 'buf' (quoting 's', cut when long), or NULL when it can. */
TJI_HIDDEN const char *tji_name_error(const char *s, char *buf, size_t n);
/* Intrusive doubly linked lists of the context's objects. */
#define TJI_LIST_ADD(head, obj)                                                                \
    do {                                                                                       \
        (obj)->prev = NULL;                                                                    \
        (obj)->next = (head);                                                                  \
        if (head)                                                                              \
            (head)->prev = (obj);                                                              \
        (head) = (obj);                                                                        \
    } while (0)
#define TJI_LIST_REMOVE(head, obj)                                                             \
    do {                                                                                       \
        if ((obj)->prev)                                                                       \
            (obj)->prev->next = (obj)->next;                                                   \
        else                                                                                   \
            (head) = (obj)->next;                                                              \
        if ((obj)->next)                                                                       \
            (obj)->next->prev = (obj)->prev;                                                   \
    } while (0)
TJI_HIDDEN void tji_kernel_free(tj_kernel *k);

/* ---------------------------------------------------------------------------------------- */
/* types.c: interned types and their LLVM forms                                              */
/* ---------------------------------------------------------------------------------------- */

typedef struct tji_field {
    char *name;
    const tj_type *type;
    size_t offset;
} tji_field;

struct tj_type {
    tj_type_kind kind;
    tj_dtype dtype;          /* scalar, or the components' scalar; 0 for structs and void */
    int rows, cols;          /* vector: (n, 1); quaternion: (4, 1); matrix; scalar: (1, 1) */
    int ncomp;               /* rows * cols */
    size_t size, align;      /* memory layout, C rules */
    LLVMTypeRef llreg;       /* in registers: i1 for bool, <n x T> for composites */
    LLVMTypeRef llmem;       /* in memory: i8 for bool, [n x T] for composites */
    char *name;
    tji_field *fields;
    size_t nfields;
    tj_type *next;
    const tj_context *ctx;   /* types belong to the context that made them, as values do */
};

TJI_HIDDEN void tji_types_release(tj_context *ctx);
/* Whether 'type' (NULL passes: the callers say what NULL means) belongs to 'k''s context;
 * fails the kernel, naming the call and the argument, when it does not. */
TJI_HIDDEN bool tji_check_type_ctx(tj_kernel *k, const char *fn, const char *arg,
                                   const tj_type *type);
TJI_HIDDEN const tj_type *tji_type_void(tj_context *ctx);
TJI_HIDDEN const tj_type *tji_type_scalar(tj_context *ctx, tj_dtype dt);
/* A composite of the same shape as 'like' with component type 'dt'. */
TJI_HIDDEN const tj_type *tji_type_with_dtype(tj_context *ctx, const tj_type *like,
                                              tj_dtype dt);
TJI_HIDDEN const char *tji_dtype_name(tj_dtype dt);
TJI_HIDDEN bool tji_dtype_valid(tj_dtype dt);
TJI_HIDDEN bool tji_dtype_is_float(tj_dtype dt);
TJI_HIDDEN bool tji_dtype_is_int(tj_dtype dt);     /* integers, not bool */
TJI_HIDDEN bool tji_dtype_is_signed(tj_dtype dt);
TJI_HIDDEN int tji_dtype_bits(tj_dtype dt);
TJI_HIDDEN LLVMTypeRef tji_dtype_llvm(tj_context *ctx, tj_dtype dt);
TJI_HIDDEN bool tji_type_is_scalar(const tj_type *t);
TJI_HIDDEN bool tji_type_is_composite(const tj_type *t);  /* vector, matrix, quaternion */
TJI_HIDDEN bool tji_type_is_numeric(const tj_type *t);    /* scalar or composite, not bool */
TJI_HIDDEN const tji_field *tji_type_field(const tj_type *t, const char *name, size_t *index);

/* ---------------------------------------------------------------------------------------- */
/* kernel.c: kernels and functions, parameters, the sticky error model, scopes                */
/* ---------------------------------------------------------------------------------------- */

/* One declared parameter. In LLVM a scalar is one argument (register form); an array is
 * data pointer, int32 shape per dimension, int64 byte stride per dimension; a stack is its
 * data and count pointers. */
typedef struct tji_param {
    char *name;
    tj_val_kind kind;        /* TJ_VAL_SCALAR, TJ_VAL_ARRAY, or TJ_VAL_STACK (functions) */
    const tj_type *type;     /* the element type for arrays and stacks */
    int ndim;
    int64_t capacity;        /* stacks */
    tj_val *val;
} tji_param;

typedef enum tji_scope_kind {
    TJI_SCOPE_BODY = 0,
    TJI_SCOPE_THEN,
    TJI_SCOPE_ELSE,
    TJI_SCOPE_FOR,
    TJI_SCOPE_WHILE_COND,
    TJI_SCOPE_WHILE_BODY,
} tji_scope_kind;

typedef struct tji_scope {
    tji_scope_kind kind;
    int id;
    bool reachable_at_start;
    bool then_reachable;          /* if: whether the then-branch's end was reachable */
    LLVMBasicBlockRef merge;      /* if: after the if; loops: the exit */
    LLVMBasicBlockRef cont;       /* loops: where continue goes */
    LLVMBasicBlockRef other;      /* if: the else block; for: the loop head */
    LLVMValueRef counter;         /* for: alloca of the loop variable */
    const tj_type *counter_type;
    LLVMValueRef step, stop;      /* for: the range's step and stop */
    LLVMValueRef start;           /* for: the range's start */
    LLVMValueRef ivar;            /* for: the loop variable, loaded in the head */
    LLVMValueRef enter;           /* loops: the branch into the loop (jit/loop_version.c) */
    unsigned barriers_at_start;   /* for: the kernel's 'barriers' when the loop began */
    unsigned shared_calls_at_start; /* for: the kernel's 'shared_calls' after it began */
    unsigned serial_pushes_at_start; /* for: the kernel's 'serial_pushes' when it began */
    unsigned shared_adds_at_start; /* for: the kernel's 'shared_adds' when it began */
} tji_scope;

/* A check site for debug builds: what a failing index names in the launch's message. */
typedef struct tji_site {
    char *what;                   /* "array 'x'", "tile_view offset" */
} tji_site;

/* The element a step of tji_foreach_owned visits: e = slot * block_dim + lane, lane in
 * [0, block_dim) (tji_tile_coords splits it without dividing e). A loop over rows of 'cols'
 * elements (tji_foreach_fused) also gives the row and column: slot = row * cols + col
 * (cols 0 elsewhere). */
typedef struct tji_owned {
    LLVMValueRef e, slot, lane;
    LLVMValueRef row, col;
    int64_t cols;
} tji_owned;

struct tj_kernel {
    tj_context *ctx;
    bool is_func;
    int refs;                     /* functions: the creator's reference plus each caller's */
    bool user_released;
    char *name;
    char *symbol;                 /* the body's LLVM name: unique in the context */
    tj_kernel_options opts;       /* as given, defaults resolved */
    uint32_t block_dim;           /* effective block width B */
    const tj_type *ret;           /* void type for kernels */
    tj_status status;
    char err[TJI_ERR_BYTES];
    tji_arena arena;
    LLVMModuleRef llmod;
    LLVMBuilderRef llb;
    LLVMValueRef llfn;            /* the body function, made with the first body call */
    LLVMValueRef ts;              /* its thread-state argument */
    LLVMBasicBlockRef alloca_bb;  /* allocas go here, before the first body block */
    tji_param *params;
    int nparams, cap_params;
    bool body_started;
    bool sealed;                  /* built: no more builder calls */
    bool reachable;               /* whether the insertion point may execute */
    tji_scope scopes[TJI_MAX_SCOPES];
    int nscopes;
    int next_scope_id;
    tj_kernel **callees;          /* functions called (each holds a reference) */
    int ncallees, cap_callees;
    bool calls_itself;            /* a tj_call of itself (not in 'callees') */
    int max_tid;                  /* most tid() coordinates read */
    unsigned barriers;            /* block barriers emitted so far (tji_emit_barrier) */
    bool barrier_pending;         /* a builtin's trailing barrier is owed (tji_defer_barrier) */
    const struct tj_val *owed_for; /* while one is owed: the shared tile whose writes alone it
                                      orders, each element by its owner lane (tj_tile_assign) */
    const struct tj_val *owed_values; /* and the register tile that holds what they wrote */
    unsigned shared_calls;        /* builder calls that may read shared memory or branch */
    unsigned serial_pushes;       /* stack pushes of one lane at a time (jit/compress_push.c) */
    unsigned shared_adds;         /* scatter-adds into shared tiles that owe their barrier */
    size_t shared_bytes;          /* owned shared memory, SPEC 3 */
    size_t scratch_bytes;         /* shared scratch its builtins share */
    size_t slot_off, slot_bytes;  /* tji_shared_slot: where, and how large (0: none yet) */
    size_t sink_off;              /* tji_shared_sink: where (sink_bytes 0: none yet) */
    size_t sink_bytes;
    LLVMValueRef layout_globals[2]; /* constants filled at seal: owned, callee arena base */
    size_t reg_tile_bytes;        /* per-lane bytes of register tiles (CPU fiber stacks) */
    tji_owned owned;              /* the element of tji_foreach_owned's step */
    struct tji_fuse {             /* the loop of the last element-wise builtins, which the */
        LLVMBasicBlockRef head;   /* its first block; */
        LLVMBasicBlockRef done;   /* next may join (tji_foreach_fused, builtins/layout.c): */
        LLVMValueRef tail;        /* its exit, where the builder was left; the body's branch */
        LLVMValueRef enter;       /* to its latch; the branch into it; */
        LLVMValueRef out_regs;    /* the registers of the last result; */
        tji_owned at;             /* the element a step visits; its size; */
        int64_t size;
        struct tji_borrow *reads[4]; /* the borrowed tiles its steps read (all of them */
        int nreads;                  /* unless 'more'), and their loads: load i of */
        LLVMValueRef loads[32];      /* reads[load_read[i]] */
        unsigned char load_read[32];
        int nloads;
        LLVMValueRef set;            /* the store of its last step's result element */
        int nsets;                   /* (tji_tile_set), and how many that step made */
        bool more, recording;
    } fuse;
    struct tji_unfilled {         /* register tiles whose registers a fused loop fills only */
        LLVMValueRef regs, keep;  /* under 'keep' (builtins/memory.c, the fused stores), */
    } unfilled[8];                /* until a reader needs them (tji_tile_materialize) */
    int nunfilled;
    unsigned mem_epoch;           /* bumped by every builder call that may write an array or
                                     change the control flow (tji_enter; see tji_borrow) */
    LLVMValueRef fill_guard;      /* the test before the last shared tile's fill, while no
                                     call may have read the tile (builtins/memory.c) */
    const struct tj_val *fill_tile;
    LLVMValueRef fill_barrier;    /* the barrier right after that fill, which no longer has
                                     anything to order once the fill is dropped */
    LLVMValueRef saved_fn, saved_ts, saved_call; /* tji_outline_begin */
    LLVMBasicBlockRef saved_alloca_bb;
    tji_site *sites;
    int nsites, cap_sites;
    char *ir_text;
    tj_kernel *prev, *next;       /* the context's list */
};

/* The entry guard of every builder call: false (and nothing done) for a NULL kernel, a
 * kernel in error, or a sealed one; starts the body on the first non-parameter call.
 * tji_enter also bumps the kernel's memory epoch: the call may write an array or open or
 * close a block of control flow. tji_enter_pure is for calls that do neither (arithmetic,
 * reads, tiles in registers or shared memory), so that borrowed tiles stay valid. Both
 * first emit a barrier that a builtin deferred (tji_defer_barrier); tji_enter_local is
 * tji_enter_pure for calls that touch no shared memory and do not branch (scalar
 * arithmetic, constants, tid(), array reads), which leave a deferred barrier owed. */
TJI_HIDDEN bool tji_enter(tj_kernel *k, const char *fn);
TJI_HIDDEN bool tji_enter_pure(tj_kernel *k, const char *fn);
TJI_HIDDEN bool tji_enter_local(tj_kernel *k, const char *fn);
/* tji_enter for a builtin that decides itself whether to flush a deferred barrier. */
TJI_HIDDEN bool tji_enter_deferring(tj_kernel *k, const char *fn);
/* Whether builder call 'fn' leaves a shared tile's fill droppable (builtins/memory.c): it
 * reads no shared memory and does not branch (tile_view, tile_load, tile_assign, which
 * decides itself, and the fills, which only start a tile of their own). */
TJI_HIDDEN bool tji_fill_survives(const char *fn);
/* Emits the deferred barrier, if one is owed. Counts as a call on shared memory. */
TJI_HIDDEN void tji_flush_barrier(tj_kernel *k);
/* Owes a barrier instead of emitting it: for a builtin whose only shared-memory effect is
 * atomic updates, which commute with those of other such calls. The next call that may
 * read shared memory or branch emits it (tji_enter, tji_enter_pure, a loop's end whose
 * body made other calls, sealing). */
TJI_HIDDEN void tji_defer_barrier(tj_kernel *k);
/* Owes the barrier after writes of the shared tile 't' in which each lane wrote exactly the
 * elements it owns (e = slot * B + lane), the values of register tile 'values' of its shape
 * (or NULL). A call that reads only its own lane's elements of a tile laid out as 't' may
 * then leave it owed (tji_barrier_owed_for); any other flushes it. */
TJI_HIDDEN void tji_defer_barrier_for(tj_kernel *k, const tj_val *t, const tj_val *values);
/* Whether the barrier owed (if any) orders only writes to the elements of a tile laid out as
 * 't' by their owner lanes, so that a lane reading its own elements of 't' needs none. */
TJI_HIDDEN bool tji_barrier_owed_for(const tj_kernel *k, const tj_val *t);
/* For such a tile 't': the register tile holding the values its lanes wrote, if known (the
 * lane's own elements can be read there instead of in shared memory); else 't'. */
TJI_HIDDEN const tj_val *tji_owner_values(const tj_kernel *k, const tj_val *t);
/* Records the kernel's first error; always returns false. */
TJI_HIDDEN bool tji_fail(tj_kernel *k, tj_status st, const char *fmt, ...) TJI_PRINTF(3, 4);
/* Checks a value argument: false with an error for NULL ("argument 'x' is NULL"; kept only
 * when the kernel has none, so after an earlier failure it changes nothing), a value of
 * another kernel or one out of scope. */
TJI_HIDDEN bool tji_use(tj_kernel *k, const tj_val *v, const char *fn, const char *arg);
TJI_HIDDEN int tji_scope_current(const tj_kernel *k);
/* At a for or while loop's end (CPU): copies the loop with its range checks made true and
 * its arrays' innermost strides the element size, entered when a test before the loop
 * shows both hold throughout (jit/loop_version.c). */
TJI_HIDDEN void tji_version_loop(tj_kernel *k, const tji_scope *s);
TJI_HIDDEN tj_val *tji_val_new(tj_kernel *k, tj_val_kind kind, const tj_type *type,
                               LLVMValueRef ll);
/* An alloca in the function's entry block (so it dominates every use), zero-initialised. */
TJI_HIDDEN LLVMValueRef tji_alloca(tj_kernel *k, LLVMTypeRef ty, const char *name);
/* The same without the zero store, for memory every reader finds written first (register
 * tile slots: a slot is read only where it was written, under the same guard). */
TJI_HIDDEN LLVMValueRef tji_alloca_uninit(tj_kernel *k, LLVMTypeRef ty, const char *name);
/* Finishes the body: closes the function (implicit return). Fails on open scopes. */
TJI_HIDDEN bool tji_kernel_seal(tj_kernel *k);
TJI_HIDDEN int tji_kernel_add_site(tj_kernel *k, const char *fmt, ...) TJI_PRINTF(2, 3);
TJI_HIDDEN void tji_func_release(tj_kernel *f);
/* The kernel's layout constant 'which' (0: owned shared bytes, 1: where the arena of called
 * functions starts), an i64 global that tji_kernel_seal fills in. */
TJI_HIDDEN LLVMValueRef tji_kernel_layout_global(tj_kernel *k, int which);
/* Shared-memory budget of a sealed kernel or function: owned + scratch + the largest
 * budget of a function it calls (SPEC 3). */
/* The shared-memory budget of 'k' (SPEC 3). When 'recursive' is not NULL it receives a
 * function that has shared memory of its own and is called recursively (each level would
 * take another copy, past the budget), or NULL. */
TJI_HIDDEN size_t tji_kernel_budget(const tj_kernel *k, const tj_kernel **recursive);
/* Emits code out of line: calls a new internal function void(ptr ts, ptr a, ptr b) at the
 * builder's position and moves the kernel's builder into it, until tji_outline_end. Lets
 * a builtin insert loops in the middle of an existing block. */
TJI_HIDDEN LLVMValueRef tji_outline_begin(tj_kernel *k, const char *name, LLVMValueRef a,
                                          LLVMValueRef b);
TJI_HIDDEN void tji_outline_end(tj_kernel *k);

/* ---------------------------------------------------------------------------------------- */
/* values.c, arith.c, arrays.c, control.c: the value handles                                 */
/* ---------------------------------------------------------------------------------------- */

typedef struct tji_array_val {
    int ndim;
    LLVMValueRef data;
    LLVMValueRef shape[TJI_MAX_DIMS];    /* i32 */
    LLVMValueRef strides[TJI_MAX_DIMS];  /* i64, bytes */
    const char *name;
} tji_array_val;

/* A register tile read in place (CPU, width 1): a tile_load that found the whole tile
 * inside the array, its elements consecutive in row-major order, copies nothing; until the
 * kernel's memory epoch moves on, its readers read 'ptr', the array's elements on that path
 * and the registers on the other.
 * The copy into the registers (one memcpy at the end of the inside path, 'fill_at') is
 * inserted only when a later reader needs it (tji_tile_materialize).
 * A tile of rows (rank 2, rows of 'cols' elements) inside its array with its rows apart
 * there is read in place too ('rows_at' the path), by readers that visit its elements row
 * by row (tji_foreach_fused): element (r, c) at ptr + r * rstride + c. Other readers read
 * 'flat': the elements where they follow one another, else the registers, which the rows'
 * path then fills (a loop of row copies, inserted when the first such reader comes). */
typedef struct tji_borrow {
    LLVMValueRef ptr;            /* phi: the array's elements, or the registers */
    unsigned epoch;              /* k->mem_epoch when the load was made */
    LLVMValueRef fill_at;        /* the inside path's branch: the memcpy goes before it */
    LLVMValueRef src;            /* the tile's first element in the array */
    LLVMValueRef arr_data;       /* the array's data pointer */
    LLVMValueRef span;           /* i64: bytes from src to the end of its last element */
    uint64_t bytes;
    unsigned esize;              /* bytes an element */
    bool filled;
    /* tiles of rows apart in the array (else rstride is NULL) */
    LLVMValueRef rstride;        /* phi (i64): elements from a row to the next */
    LLVMValueRef arr_rstride;    /* i64: the array's, in elements */
    LLVMValueRef flat;           /* phi: 'ptr' where the rows follow one another, else regs */
    LLVMValueRef rows_at;        /* the rows' path's branch (to a block of its own) */
    int rows, cols;
    bool rows_filled;
} tji_borrow;

/* A tile (SPEC 3). Register tiles are spread over the block: element e of the row-major
 * tile lives in lane e % B, slot e / B, in a per-lane alloca of nslots elements. Shared
 * tiles are a pointer into the block's arena with compile-time element strides. */
typedef struct tji_tile {
    int rank;
    int shape[TJI_MAX_DIMS];
    int64_t size;
    tj_storage storage;
    bool replicated;             /* register: every lane holds every element (size 1) */
    int nslots;                  /* register: slots per lane */
    LLVMValueRef regs;           /* register: alloca of [nslots x element] */
    LLVMValueRef base;           /* shared: address of element (0, ..., 0) */
    int64_t strides[TJI_MAX_DIMS]; /* shared: in elements; negative for reversed views */
    bool owner;                  /* shared: owns its memory (views do not) */
    LLVMBasicBlockRef def_bb;    /* where the tile was made: a register tile is promoted */
    LLVMValueRef def_last;       /* to shared memory right there (tji_tile_promote) */
    bool def_in_loop;            /* made inside a loop (its shared memory is reused) */
    struct tj_val *alias;        /* register: ring of the tiles sharing 'regs' (reshapes) */
    tji_borrow *borrow;          /* register: read in place for now (tj_tile_load), or NULL */
} tji_tile;

/* A shared-memory stack (builtins/stack.c). */
typedef struct tji_stack {
    int64_t capacity;
    LLVMValueRef data;           /* capacity elements */
    LLVMValueRef count;          /* i32 counter in shared memory */
    bool spare_slot;             /* slot 'capacity' may be written (stack.c) */
} tji_stack;

struct tj_val {
    tj_kernel *k;
    tj_val_kind kind;
    const tj_type *type;
    int scope;                   /* defining scope's id; -1: usable everywhere */
    LLVMValueRef ll;             /* SCALAR: the value; VAR: its alloca */
    union {
        tji_array_val arr;
        tji_tile tile;
        tji_stack stack;
    } u;
};

typedef enum tji_atom_op { TJI_ATOM_ADD, TJI_ATOM_MIN, TJI_ATOM_MAX } tji_atom_op;
/* One atomic read-modify-write per component of 'v' at 'p' (monotonic); the old value. */
TJI_HIDDEN LLVMValueRef tji_emit_atomic(tj_kernel *k, tji_atom_op op, const tj_type *t,
                                        LLVMValueRef p, LLVMValueRef v);
/* Whether 'v' is a compile-time integer constant; its value in '*out'. */
TJI_HIDDEN bool tji_val_const_int(const tj_val *v, int64_t *out);
/* A description such as "float32", "vec3f", "array of float32 (2 dims)" for messages. */
TJI_HIDDEN const char *tji_val_describe(const tj_val *v, char *buf, size_t n);
TJI_HIDDEN tj_val *tji_scalar(tj_kernel *k, const tj_type *t, LLVMValueRef ll);

/* Tile variables (builtins/layout.c), for values.c: a variable of kind TJ_VAL_VAR whose
 * u.tile describes its own register slots. */
TJI_HIDDEN tj_val *tji_tile_var_new(tj_kernel *k, tj_val *init);
TJI_HIDDEN tj_val *tji_tile_var_get(tj_kernel *k, tj_val *var);
TJI_HIDDEN bool tji_tile_var_set(tj_kernel *k, tj_val *var, tj_val *value);
/* Element-wise tile operations (builtins/elementwise.c), for arith.c. */
TJI_HIDDEN tj_val *tji_tile_unary(tj_kernel *k, tj_unop op, tj_val *a);
TJI_HIDDEN tj_val *tji_tile_binary(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b);
TJI_HIDDEN tj_val *tji_tile_compare(tj_kernel *k, tj_cmp op, tj_val *a, tj_val *b);

/* ---------------------------------------------------------------------------------------- */
/* emit.c: LLVM-C helpers shared by jit/ and builtins/                                       */
/* ---------------------------------------------------------------------------------------- */

TJI_HIDDEN LLVMTypeRef tji_i1(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_i8(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_i32(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_i64(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_ptr(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_void(tj_context *c);
TJI_HIDDEN LLVMValueRef tji_const_i32(tj_context *c, int64_t v);
TJI_HIDDEN LLVMValueRef tji_const_i64(tj_context *c, int64_t v);
/* Adds the enum attribute 'name' ("noinline", "alwaysinline") to function 'fn'. */
TJI_HIDDEN void tji_add_fn_attr(tj_context *c, LLVMValueRef fn, const char *name);
/* Calls intrinsic 'id' overloaded on 'tys' from module 'm', at the builder's position. */
TJI_HIDDEN LLVMValueRef tji_build_intrinsic(LLVMModuleRef m, LLVMBuilderRef b, unsigned id,
                                            LLVMTypeRef *tys, unsigned ntys,
                                            LLVMValueRef *args, unsigned nargs);
/* Calls intrinsic 'name' overloaded on 'tys'. */
TJI_HIDDEN LLVMValueRef tji_emit_intrinsic(tj_kernel *k, const char *name,
                                           LLVMTypeRef *tys, unsigned ntys,
                                           LLVMValueRef *args, unsigned nargs);
/* Declares (once) and calls an external function of the module. */
TJI_HIDDEN LLVMValueRef tji_emit_call_named(tj_kernel *k, const char *name, LLVMTypeRef ret,
                                            LLVMValueRef *args, unsigned nargs);
/* Loads a value of 'type' in memory form from 'ptr' and returns its register form; stores
 * the reverse. */
TJI_HIDDEN LLVMValueRef tji_emit_load(tj_kernel *k, const tj_type *type, LLVMValueRef ptr);
TJI_HIDDEN void tji_emit_store(tj_kernel *k, const tj_type *type, LLVMValueRef value,
                               LLVMValueRef ptr);
/* The thread-state field 'field' (TJI_TS_*) as a value. */
TJI_HIDDEN LLVMValueRef tji_emit_ts_load(tj_kernel *k, int field);
/* Linear thread index of the lane: block * B + lane, as i64. */
TJI_HIDDEN LLVMValueRef tji_emit_linear_tid(tj_kernel *k);
TJI_HIDDEN void tji_emit_barrier(tj_kernel *k);
/* Capability: warp shuffles in hardware (the GPU); elsewhere tj.hook.shfl_xor emulates them
 * through a scratch area of tji_shuffle_scratch_bytes() in the block's arena, with
 * barriers, so every lane of the block must reach each shuffle. */
TJI_HIDDEN bool tji_has_native_shuffle(const tj_kernel *k);
TJI_HIDDEN size_t tji_shuffle_scratch_bytes(const tj_kernel *k);
/* Capability: a block's lanes run at the same time (the GPU). On the CPU they run one at a
 * time on one thread (fibers, or a single lane), so updates of the block's shared memory
 * need no atomics there. */
TJI_HIDDEN bool tji_lanes_run_concurrently(const tj_kernel *k);
/* The i32 'v' of lane (lane ^ mask), mask < 32; 'scratch' is the emulation area. */
TJI_HIDDEN LLVMValueRef tji_emit_shfl_xor32(tj_kernel *k, LLVMValueRef v, int mask,
                                            LLVMValueRef scratch);
/* The same for a value of any type, 32 bits at a time. */
TJI_HIDDEN LLVMValueRef tji_emit_shfl_xor(tj_kernel *k, const tj_type *t, LLVMValueRef v,
                                          int mask, LLVMValueRef scratch);
/* Warp votes, where lanes run concurrently (the GPU) only: the i32 mask of the warp's
 * running lanes whose 'pred' holds, the mask of the lanes below this one, and lane 'src''s
 * 'v'. Every running lane of the warp must reach them. */
TJI_HIDDEN LLVMValueRef tji_emit_ballot(tj_kernel *k, LLVMValueRef pred);
TJI_HIDDEN LLVMValueRef tji_emit_lanemask_lt(tj_kernel *k);
TJI_HIDDEN LLVMValueRef tji_emit_shfl_idx32(tj_kernel *k, LLVMValueRef v, LLVMValueRef src);
/* Lanes of this block that run (i32): B, or fewer in the partial last block. */
TJI_HIDDEN LLVMValueRef tji_emit_nactive(tj_kernel *k);
/* Opens a conditional region: code emitted until tji_emit_cond_end runs only when 'cond'
 * holds. Returns the block to continue in. Used for checks and one-lane sections. */
typedef struct tji_cond {
    LLVMBasicBlockRef then_bb, done_bb, from_bb;
} tji_cond;
TJI_HIDDEN void tji_emit_cond_begin(tj_kernel *k, LLVMValueRef cond, tji_cond *c);
/* tji_emit_cond_begin for a 'cond' that rarely holds, which llvm.expect tells LLVM: it then
 * keeps the branch (SimplifyCFG does not make a predictable one a select) and lays the
 * region out of the way. */
TJI_HIDDEN void tji_emit_cold_begin(tj_kernel *k, LLVMValueRef cond, tji_cond *c);
TJI_HIDDEN void tji_emit_cond_end(tj_kernel *k, tji_cond *c);
/* A counted loop of emitted code over an i32 held in a local named 'var', its blocks
 * '<name>.head', '.body' and '.done': tji_emit_count_begin stores 'first' and returns the
 * counter as the head loads it (named 'load'); tji_emit_count_test enters the body while
 * 'go' holds, else leaves the loop; tji_emit_count_end stores 'i' + 'step' (nuw: without
 * unsigned wrap) and goes back to the head, leaving the builder after the loop. */
typedef struct tji_count {
    LLVMValueRef var;
    LLVMBasicBlockRef head, body, done;
} tji_count;
TJI_HIDDEN LLVMValueRef tji_emit_count_begin(tj_kernel *k, tji_count *lp, LLVMValueRef first,
                                             const char *var, const char *load,
                                             const char *name);
TJI_HIDDEN void tji_emit_count_test(tj_kernel *k, tji_count *lp, LLVMValueRef go);
TJI_HIDDEN void tji_emit_count_end(tj_kernel *k, tji_count *lp, LLVMValueRef i, int64_t step,
                                   bool nuw);
/* Ends the region like tji_emit_cond_end and gives 'v' (made inside it) where the region
 * ran, else zero. */
TJI_HIDDEN LLVMValueRef tji_emit_cond_value(tj_kernel *k, tji_cond *c, LLVMValueRef v);
/* A phi at the builder's position: 'v1' from 'bb1', 'v2' from 'bb2'. */
/* Integer add and multiply without their identities (x + 0, x * 1; x * 0 is 0): index
 * arithmetic over constant offsets and unit strides then adds no instruction for every
 * pass to visit. 'nuw': the operation does not wrap. */
TJI_HIDDEN LLVMValueRef tji_emit_add(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool nuw);
TJI_HIDDEN LLVMValueRef tji_emit_mul(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool nuw);
TJI_HIDDEN LLVMValueRef tji_emit_phi2(LLVMBuilderRef b, LLVMValueRef v1, LLVMBasicBlockRef bb1,
                                      LLVMValueRef v2, LLVMBasicBlockRef bb2);
/* Records a kernel error at check site 'site' when 'bad' holds (debug builds). */
TJI_HIDDEN void tji_emit_report(tj_kernel *k, LLVMValueRef bad, int site, LLVMValueRef value,
                                LLVMValueRef lo, LLVMValueRef hi, int dim);

/* The thread state: the hidden first argument of every body and function. Filled by the
 * target's kernel entry; read by target-neutral code. */
enum {
    TJI_TS_WORKER = 0,   /* ptr: the CPU worker (NULL on the GPU) */
    TJI_TS_ARENA = 1,    /* ptr: the block's shared memory */
    TJI_TS_ERR = 2,      /* ptr: the launch's tji_error_record */
    TJI_TS_BLOCK = 3,    /* i64 */
    TJI_TS_N = 4,        /* i64: threads in the launch */
    TJI_TS_LANE = 5,     /* i32 */
    TJI_TS_DIM0 = 6,     /* i32 x 4: launch dimensions, unused ones 1 */
    TJI_TS_SHFL = 10,    /* i32: CPU: which of its two scratch words the lane's next shuffle
                          * writes (0 at the start of a block; unused on the GPU) */
    TJI_TS_COORD0 = 11,  /* i32 x 4: CPU width-1 entries of kernels that read tid() of two
                          * coordinates or more: the block's coordinates in the launch
                          * (jit/target_host.c); unset elsewhere */
    TJI_TS_NFIELDS = 15,
};
TJI_HIDDEN LLVMTypeRef tji_ts_type(tj_context *c);
TJI_HIDDEN LLVMTypeRef tji_errrec_type(tj_context *c);

/* ---------------------------------------------------------------------------------------- */
/* module.c, target_*.c, passes.c, libdevice.c, cache.c                                      */
/* ---------------------------------------------------------------------------------------- */

/* One scalar leaf of a kernel's argument buffer (the same for both targets). */
typedef struct tji_slot {
    size_t offset;
    tj_dtype dtype;              /* 0 for a pointer */
} tji_slot;

typedef struct tji_kparam {
    char *name;
    bool is_array;
    const tj_type *type;
    int ndim;
    int first_slot, nslots;
} tji_kparam;

/* What a module keeps of each kernel: enough to check arguments and launch. */
typedef struct tji_kdesc {
    char *name;
    char *entry;                 /* the entry's symbol */
    tj_target target;
    uint32_t block_dim;          /* as requested */
    uint32_t block_width;        /* effective */
    bool cooperative, debug;
    bool lane_loops;             /* CPU cooperative: the entry loops over the lanes itself
                                    (lane_loops.c) and runs whole blocks, as in width-1 mode */
    int max_tid;
    size_t shared_bytes;
    size_t frame_bytes;          /* CPU: the static locals of its code (register tiles), about
                                    the stack a block takes (driver/cpu_launch.c checks) */
    tji_kparam *params;
    int nparams;
    tji_slot *slots;             /* the 5 hidden slots (n, dims) come first */
    int nslots;
    size_t args_bytes;
    char **sites;
    int nsites;
    tji_cpu_entry cpu_entry;     /* CPU modules, once loaded */
} tji_kdesc;

#define TJI_HIDDEN_SLOTS 5

struct tji_target {
    const char *name;
    tj_target kind;
    /* Adds kernel entries and hook bodies, renames math calls; the module then holds only
     * target code and declarations of what 'link' adds. 'tm' is NULL where the target's
     * machine is created only for a build the cache does not answer (NVPTX). */
    tj_status (*lower)(tj_context *ctx, LLVMModuleRef m, tj_kernel *const *ks, size_t n,
                       tji_kdesc *descs, LLVMTargetMachineRef tm);
    /* Writes into 'buf' what the key must name of the code 'link' would add to 'm', which
     * the key's bitcode does not hold (NULL: nothing). */
    void (*key_extra)(tj_context *ctx, LLVMModuleRef m, char *buf, size_t n);
    /* After the key, for a build the cache does not answer: adds that code (NULL: none). */
    tj_status (*link)(tj_context *ctx, LLVMModuleRef m);
    /* After optimisation, before code generation (NULL: nothing to do). */
    tj_status (*finish)(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, int n,
                        LLVMTargetMachineRef tm);
};

TJI_HIDDEN extern const tji_target tji_target_nvptx;
TJI_HIDDEN extern const tji_target tji_target_host;

struct tj_module {
    tj_context *ctx;
    tj_target target;
    tji_kdesc *kernels;
    int nkernels;
    tji_cache_entry *code;       /* owned by the context's cache */
    char *ir;                    /* keep_ir */
    bool cached;
    uint8_t key[16];
    tj_module *prev, *next;      /* the context's list */
};

TJI_HIDDEN const tji_kdesc *tji_module_find(const tj_module *m, const char *name, int *index);
/* Which of the 'n' kernels 'fn' is the entry of, or -1 (a function of their code). */
TJI_HIDDEN int tji_entry_of(const tji_kdesc *descs, int n, LLVMValueRef fn);
/* In a linked module, kernel 'name's body is called "tjk.<name>". */
#define TJI_BODY_PREFIX "tjk."
/* Starts the body of hook 'name' (tj.hook.*) when the module declares it: returns a
 * builder at its entry and the hook in '*hook', or NULL when the module does not use it.
 * tji_hook_end disposes of the builder and makes the hook internal. */
TJI_HIDDEN LLVMBuilderRef tji_hook_begin(tj_context *ctx, LLVMModuleRef m, const char *name,
                                         LLVMValueRef *hook);
TJI_HIDDEN void tji_hook_end(LLVMBuilderRef b, LLVMValueRef hook);
/* Renames math calls tj.math.<fn>.f32 to <prefix><fn>f and .f64 to <prefix><fn> (libm,
 * libdevice); returns how many. */
TJI_HIDDEN int tji_rename_math(LLVMModuleRef m, const char *prefix);
/* Launch dimension 'd' (i32) from the argument buffer 'args' of a kernel entry. */
TJI_HIDDEN LLVMValueRef tji_emit_launch_dim(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef args,
                                            int d);
/* Emits, at the builder's position in a kernel entry, the common part: fills the thread
 * state 'ts' from the argument buffer 'args' and 'fields' (worker, arena, err, block, -,
 * lane; TJI_TS_N is read from 'args'; 'coords', unless NULL, TJI_TS_COORD0), skips lanes
 * past the end of the launch, and calls the kernel's body. */
TJI_HIDDEN void tji_emit_entry_common(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b,
                                      const tji_kdesc *kd, LLVMValueRef ts, LLVMValueRef args,
                                      const LLVMValueRef fields[TJI_TS_LANE + 1],
                                      const LLVMValueRef *coords);

/* The NVPTX triple and the data layout LLVM 19 gives it (64-bit pointers, no short
 * pointers): lowering sets them without creating a target machine, which a build the cache
 * answers never needs; tji_tm_nvptx checks the layout of each machine it makes. */
#define TJI_NVPTX_TRIPLE "nvptx64-nvidia-cuda"
#define TJI_NVPTX_LAYOUT "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

/* passes.c */
/* The host's target machine, created on first use (a context that only builds PTX never
 * pays for it), with ctx->compress. */
TJI_HIDDEN tj_status tji_tm_host(tj_context *ctx, LLVMTargetMachineRef *out);
/* TJ_OK when LLVM 19 can target GPU architecture 'arch', else fails with the option's error. */
TJI_HIDDEN tj_status tji_nvptx_arch_check(tj_context *ctx, const char *arch);
/* The features of the NVPTX machine for 'arch': "+ptx60" below sm_70. LLVM 19 gives sm_50 to
 * sm_62 a PTX version older than the warp-synchronous instructions (vote.sync, shfl.sync:
 * PTX 6.0, CUDA 9) that stacks and warp calls use, and selecting them then aborts the process
 * ("LLVM ERROR: Cannot select"); PTX 6.0 targets all of them. */
TJI_HIDDEN const char *tji_nvptx_features(const char *arch);
/* The NVPTX target machine for 'arch'; 'full_codegen' selects LLVM's codegen optimisations
 * (explicit opt levels) over the fast path of the default level (tji_target_nvptx.finish). */
TJI_HIDDEN tj_status tji_tm_nvptx(tj_context *ctx, const char *arch, bool full_codegen,
                                  LLVMTargetMachineRef *out);
TJI_HIDDEN tj_status tji_optimize(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm,
                                  tj_opt_level level, tj_target target);
TJI_HIDDEN tj_status tji_emit_code(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm,
                                   bool assembly, LLVMMemoryBufferRef *out);
TJI_HIDDEN void tji_llvm_init(void);
/* Moves internal functions into their callers without LLVM's inliner: those of one block
 * are copied into each call, void ones called once are spliced in. Returns how many went. */
TJI_HIDDEN int tji_inline_simple(tj_context *ctx, LLVMModuleRef m);
/* Moves instruction 'in' to the builder's position, keeping its name. */
TJI_HIDDEN void tji_reinsert(LLVMBuilderRef b, LLVMValueRef in);
/* Moves the instructions before 'at' in its block into a new block placed before it, which
 * takes over the block's predecessors (and its place as a function's entry); the builder is
 * left at the new block's end, which has no terminator yet. */
TJI_HIDDEN LLVMBasicBlockRef tji_split_before(LLVMBuilderRef b, LLVMValueRef at);
/* Moves the body of 'fn', a void function whose one use is a direct call from another
 * function, in place of that call (the call's block splits around it), leaving 'fn'
 * empty for the caller to delete. False, with nothing changed, for any other 'fn'. */
TJI_HIDDEN bool tji_splice_call(LLVMValueRef fn);
/* The phis of 'bb' take an edge from 'also' with the value each takes from 'from'. */
TJI_HIDDEN void tji_phis_take_edge(LLVMBasicBlockRef bb, LLVMBasicBlockRef from,
                                   LLVMBasicBlockRef also);
struct tji_vmap;
/* Copies 'blocks' (n of them) before block 'at', or at the function's end when 'at' is NULL,
 * each named 'name'.
 * 'map' takes each block (as a value) and instruction to its copy; what it already maps when
 * called (a value, or a block outside 'blocks' that the copies branch to instead) is
 * replaced in the copies too. A phi's incoming edge from a block not copied stays, or, with
 * 'drop_outside', goes. Each copied loop gets an identity of its own (tji_keep_rolled's). */
TJI_HIDDEN void tji_copy_blocks(tj_context *ctx, LLVMBuilderRef b, const LLVMBasicBlockRef *blocks,
                                int n, LLVMBasicBlockRef at, const char *name,
                                struct tji_vmap *map, bool drop_outside);
/* Runs the new pass manager's 'pipeline' on 'm'; 'what' names it in the error. */
TJI_HIDDEN tj_status tji_run_pipeline(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm,
                                      const char *pipeline, const char *what);
/* The name of tj_tid's test, in cooperative CPU kernels, whether the launch is tiled
 * (arrays.c); lane_loops.c specialises its uniform loops for tiled launches. */
#define TJI_TILED_FLAG "tid.is_tiled"
/* The name of tj_tid's lane in cooperative CPU kernels, 'select(tiled, lane, general)'
 * (arrays.c): loop_version.c tests a loop's range checks over every lane of a block with it
 * (under a tiled launch the lane is in [0, block_dim)). */
#define TJI_LANE_NAME "tid.lane"
/* The name of loop_version.c's test that a loop's range checks hold on every trip, where
 * it is the same in every lane of a cooperative CPU block: lane_loops.c splits its uniform
 * loops on it, as on TJI_WHOLE_FLAG. */
#define TJI_RANGES_FLAG "loop.ranges"
/* The name of the CPU entry's test whether a lane is inside the launch (module.c): under a
 * tiled launch every block is whole, so lane_loops.c's tiled copies take it as true. */
#define TJI_LIVE_FLAG "lane.live"
/* The GPU stack push's leading barrier under TILEJIT_GPU_PUSH=fence (builtins/stack.c): a
 * call of this convergent function through the pipeline, which target_nvptx.c's finish
 * makes a barrier only where shared memory may have been touched since the last barrier. */
#define TJI_PUSH_FENCE "tj.push.fence"
/* The name of the CPU entry's load of the worker's shared-memory arena (target_host.c), by
 * which alias_scopes.c knows shared accesses. */
#define TJI_ARENA_NAME "tj.arena"
/* alias_scopes.c: scoped no-alias metadata on the memory accesses of CPU entry 'entry'
 * (shared memory against arrays, and the shared allocations against one another). */
TJI_HIDDEN void tji_scope_memory(tj_context *ctx, LLVMValueRef entry);
/* The name of tile_load's, tile_store's and tile_atomic_add's test that the whole tile is
 * inside a dense array (builtins/memory.c); lane_loops.c splits uniform loops on it. */
#define TJI_WHOLE_FLAG "tile.whole"
/* The name of a for loop's tests to run its body (again) (control.c): true on every trip but
 * the last, so lane_loops.c's copies for lanes that agree on the counter take them as true. */
#define TJI_MORE_FLAG "loop.more"
/* divergence.c: the values of cooperative block function 'fn' (one lane's code, its lane
 * parameter 'lane', argument buffer 'args') alike in every lane, or alike plus the lane,
 * with the i1 'flags' taken as true (as lane_loops.c's copies take them). NULL when out of
 * memory. */
typedef struct tji_lane_shapes tji_lane_shapes;
enum { TJI_SHAPE_UNIFORM = 0, TJI_SHAPE_LANE_PLUS = 1, TJI_SHAPE_VARIES = 2 };
TJI_HIDDEN tji_lane_shapes *tji_lane_shapes_of(LLVMValueRef fn, LLVMValueRef lane,
                                               LLVMValueRef args, const LLVMValueRef *flags,
                                               int nflags);
/* Value 'v''s shape in every lane that runs its block (TJI_SHAPE_*): VARIES where some lanes
 * may run it and others not, or a different number of times. */
TJI_HIDDEN int tji_lane_shape(const tji_lane_shapes *s, LLVMValueRef v);
/* Whether every lane runs instruction 'v''s block alike (no branch on a value not alike
 * decides whether, or how often). */
TJI_HIDDEN bool tji_lane_runs_alike(const tji_lane_shapes *s, LLVMValueRef v);
TJI_HIDDEN void tji_lane_shapes_free(tji_lane_shapes *s);
/* lane_loops.c: turns the cooperative block function 'fn' (ptr w, ptr args, i64 block,
 * i32 lane), whose barriers are calls of 'marker', into loops over its 'width' lanes;
 * false, with 'fn' still valid and its markers in place, when it cannot. */
TJI_HIDDEN bool tji_lane_loops(tj_context *ctx, LLVMValueRef fn, LLVMValueRef marker,
                               uint32_t width);

/* sink_copies.c */
/* CPU, after the pipeline: moves each copy into a local array down into the one branch
 * below it that reads the array (tji_target_host.finish). Returns how many moved. */
TJI_HIDDEN int tji_sink_local_copies(LLVMModuleRef m);

/* direct_stores.c */
/* CPU, after copy sinking: a block that computes a tile into a local array, copied out whole
 * on one of its two ways, gets a copy of itself that stores the values to the copy's
 * destination, taken when a run-time test shows that order safe. Returns how many. */
TJI_HIDDEN int tji_direct_tile_stores(LLVMModuleRef m);

/* control.c: marks the loop of this latch not to be unrolled (llvm.loop.unroll.disable). */
TJI_HIDDEN void tji_keep_rolled(tj_context *c, LLVMValueRef latch);
/* ... and not to be vectorised (llvm.loop.vectorize.enable false): a loop over rows. */
TJI_HIDDEN void tji_keep_unvectorised(tj_context *c, LLVMValueRef latch);
#define TJI_LANES_MD "tj.lanes"
/* A cooperative block's loop over its lanes; 'rolled': not to be unrolled either. */
TJI_HIDDEN void tji_mark_lane_loop(tj_context *c, LLVMValueRef latch, bool rolled);
#define TJI_ADDS_MD "tj.adds"
/* A cooperative CPU loop of scatter-adds, kept rolled for jit/interchange.c. */
TJI_HIDDEN void tji_mark_adds_loop(tj_context *c, LLVMValueRef latch);
/* Whether the loop id of terminator 't' carries property 'flag' (a string alone). */
TJI_HIDDEN bool tji_loop_flag(tj_context *c, LLVMValueRef t, const char *flag);
/* Whether 'v' is a call of a function whose name starts with one of the 'n' 'prefixes'
 * (intrinsics by family: "llvm.smin." and the like). */
TJI_HIDDEN bool tji_calls_named(LLVMValueRef v, const char *const *prefixes, size_t n);
/* The blocks of 'fn' whose branch closes a lanes' loop (TJI_LANES_MD), at most 'max' of them
 * into 'out'; how many. */
TJI_HIDDEN int tji_lane_loop_latches(tj_context *c, LLVMValueRef fn, LLVMBasicBlockRef *out,
                                     int max);
/* interchange.c: lanes' loops of scatter-adds run lane-by-lane per trip; how many */
TJI_HIDDEN int tji_interchange_lanes(tj_context *ctx, LLVMModuleRef m);
/* row_order.c: lanes' loops that fold or copy the rows of a tile read them one after the
 * other; how many */
TJI_HIDDEN int tji_row_order(tj_context *ctx, LLVMModuleRef m);
/* prefetch.c: before the pipeline, marks the array loads of the lanes' loops of 'fn' (a
 * cooperative entry that loops over its lanes, tji_mark_lane_loop); after it, the marked
 * vector loads of those of the 'n' entries 'descs' prefetch a few steps ahead (how many
 * prefetches). */
TJI_HIDDEN void tji_mark_lane_loads(tj_context *ctx, LLVMValueRef fn);
TJI_HIDDEN int tji_prefetch_lane_loads(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs,
                                       int n);
/* balance.c: long chains of one reassociable operation become trees; how many */
TJI_HIDDEN int tji_balance_chains(LLVMModuleRef m);
/* Whether instruction 'in' is an operation whose operands may be combined in any order:
 * integer add, mul, and, or, xor, or float add and mul with reassoc. */
TJI_HIDDEN bool tji_reassociable(LLVMValueRef in);
/* Drops the flags of operation 'op' (a tji_reassociable one, put in a new order) that an
 * order proves: nsw, nuw, disjoint, nnan, ninf and the like; reassoc and nsz stay. */
TJI_HIDDEN void tji_forget_order(LLVMValueRef op);
/* range_first.c: a CPU cast's result tested against a range before its own test; how many */
TJI_HIDDEN int tji_range_first(tj_context *ctx, LLVMModuleRef m);
/* control.c: what a pointer is an offset of, through GEPs and casts (instructions or
 * constants). */
TJI_HIDDEN LLVMValueRef tji_pointer_base(LLVMValueRef p);
/* The one successor of 'bb' where it ends in an unconditional branch, else NULL; the
 * conditional branch that ends 'bb', else NULL ('bb' may be NULL). */
TJI_HIDDEN LLVMBasicBlockRef tji_only_succ(LLVMBasicBlockRef bb);
TJI_HIDDEN LLVMValueRef tji_cond_br(LLVMBasicBlockRef bb);
/* The first use from 'u' on (u itself included) whose user is not 'user', else NULL: where a
 * walk over a value's uses sets every operand of 'user' that is the value, each of those
 * uses moves to the new value's list, so the walk goes on from there. */
TJI_HIDDEN LLVMUseRef tji_use_past_user(LLVMUseRef u, LLVMValueRef user);
/* control.c: a pointer as base + off + the sum of var[i] x scale[i] bytes, through GEPs
 * (instructions or constants) of constant indices but for first indices that are not, at
 * most 'max_vars' of them (up to TJI_ADDRESS_TERMS); the walk stops at a GEP it cannot take
 * whole, which is then the base. */
enum { TJI_ADDRESS_TERMS = 4 };
typedef struct tji_address {
    LLVMValueRef base;
    long long off;
    LLVMValueRef var[TJI_ADDRESS_TERMS];
    long long scale[TJI_ADDRESS_TERMS];
    int nvars;
} tji_address;
TJI_HIDDEN void tji_split_address(LLVMTargetDataRef td, LLVMValueRef p, int max_vars,
                                  tji_address *a);

/* compress_push.c */
/* The most $TILEJIT_CPU_COMPRESS allows ('want': "avx2" or "off"; NULL or anything else: no
 * cap); tj_context_create stores it in ctx->compress_cap. */
TJI_HIDDEN tji_compress_form tji_compress_cap(const char *want);
/* The widest form target machine 'tm' has (its "+avx512f", "+avx2" features), at most
 * 'cap'. tji_tm_host stores it in ctx->compress. */
TJI_HIDDEN tji_compress_form tji_compress_form_for(LLVMTargetMachineRef tm, tji_compress_form cap);
/* The form of this host (creating the host's target machine if need be; NONE if that
 * fails, which the build then reports). */
TJI_HIDDEN tji_compress_form tji_host_compress_form(tj_context *ctx);
/* Whether compress_push.c vectorises loops of serial stack pushes on this host. */
TJI_HIDDEN bool tji_host_compresses(tj_context *ctx);
/* Marks 'store' as a serial push's store into a stack of 'capacity' elements: the only
 * stores the pass vectorises. */
TJI_HIDDEN void tji_mark_serial_push(tj_context *ctx, LLVMValueRef store, int64_t capacity);
/* Whether instruction 'in' is a store so marked. */
TJI_HIDDEN bool tji_is_serial_push(LLVMValueRef in);
/* CPU, after the pipeline: vectorises each loop whose only store is a serial stack push of
 * values loaded at the loop counter (tji_target_host.finish). Returns how many. */
TJI_HIDDEN int tji_compress_pushes(tj_context *ctx, LLVMModuleRef m);

/* A loop counting an i64 'i' by one from the preheader 'pre' to 'limit' ('i == L', or 'i + 1
 * == L' when 'limit_on_next'), whose count 'c' (a phi of 'head') becomes 'c2' at the latch,
 * and which leaves to 'exit' from the latch alone, where only c2 of its values is used. */
typedef struct tji_counted_loop {
    LLVMBasicBlockRef pre, head, latch, exit;
    LLVMValueRef i, c, c2, limit;
    bool limit_on_next;
} tji_counted_loop;
/* Whether the latch's branch 'lterm' leaves to 'exit' on 'i == L' or 'i + 1 == L' ('i_next'),
 * L defined outside the loop's 'nblocks' 'blocks' (NULL entries skipped); sets '*limit' and
 * '*limit_on_next'. */
TJI_HIDDEN bool tji_counted_exit(LLVMValueRef lterm, LLVMBasicBlockRef exit, LLVMValueRef i,
                                 LLVMValueRef i_next, const LLVMBasicBlockRef *blocks,
                                 int nblocks, LLVMValueRef *limit, bool *limit_on_next);
/* A vector loop put in front of one (compress_push.c, serial_pops.c): 'head' with the phis
 * 'vi' and 'vc' (its counter and count), 'body' doing 'vf' iterations, 'done' going on to the
 * exit or the scalar loop. */
typedef struct tji_vec_front {
    LLVMBasicBlockRef head, body, done;
    LLVMValueRef vi, vc, i0, c0, end;
    unsigned vf;
} tji_vec_front;
/* 'v' in every element of a vector of 'vf'. */
TJI_HIDDEN LLVMValueRef tji_build_splat(LLVMBuilderRef b, LLVMValueRef v, unsigned vf);
/* Makes the blocks and the phis, with the builder at the end of 'head'. */
TJI_HIDDEN void tji_vec_front_begin(LLVMBuilderRef b, const tji_counted_loop *l, unsigned vf,
                                    const char *prefix, tji_vec_front *f);
/* Enters 'body' while 'vf' iterations remain and 'ok' holds, with the builder there. */
TJI_HIDDEN void tji_vec_front_enter(LLVMBuilderRef b, tji_vec_front *f, LLVMValueRef ok);
/* After the body (the builder at its end; 'vc_next' the count after it): the loop's back
 * edge, the way out to the exit or on in the scalar loop, which starts where it stopped. */
TJI_HIDDEN void tji_vec_front_end(LLVMBuilderRef b, const tji_counted_loop *l, tji_vec_front *f,
                                  LLVMValueRef vc_next);

/* lane_loops.c: marks 'v' (an instruction) as one less from lane to lane where lanes run in
 * turn, a guess that a cooperative phase's copy tests at its entry. Only a CPU pop's slot
 * has it: lane L's is c - 1 - L while that is not negative, else -1 (c: the count before
 * the pop), where every lane runs the pop in turn; so it is lane 0's minus the lane in
 * every lane when lane 0's is at least block_dim - 1. */
TJI_HIDDEN void tji_mark_descending(tj_context *ctx, LLVMValueRef v);
/* lane_loops.c: marks the users of 'partial' (a load of a lane's partial in a tile_reduce
 * whose lanes fold their partials into one total in turn, builtins/reduce.c) as that fold's,
 * with 'op' its operation (associative and commutative: the order of combination is
 * unspecified, SPEC 4). A lanes' array that carries a value whose every user is so marked
 * takes the mark: its elements are only ever combined, all of them, into one total, so any
 * elements with the same total do (row_order.c). tji_turn_fold_op: the array's 'op', or 0. */
TJI_HIDDEN void tji_mark_turn_fold(tj_context *ctx, LLVMValueRef partial, LLVMOpcode op);
TJI_HIDDEN LLVMOpcode tji_turn_fold_op(LLVMValueRef array);
/* divergence.c: marks load 'v' as reading the same value in every lane that runs it (a
 * builtin's broadcast after a barrier, with no write before the next: tile_extract's
 * scratch, tile_stack_count, uniform by SPEC 4); and whether load 'v' has that mark. */
TJI_HIDDEN void tji_mark_alike(tj_context *ctx, LLVMValueRef v);
TJI_HIDDEN bool tji_marked_alike(LLVMValueRef v);

/* serial_pops.c */
/* Marks 'load' as a pop's load of the top slot (builtins/stack.c, lanes in turn). */
TJI_HIDDEN void tji_mark_serial_pop(tj_context *ctx, LLVMValueRef load);
/* Whether instruction 'in' is a load so marked. */
TJI_HIDDEN bool tji_is_serial_pop(LLVMValueRef in);
/* CPU, after the pipeline: vectorises each loop over a cooperative block's lanes that pops
 * in turn (tji_target_host.finish). Returns how many. */
TJI_HIDDEN int tji_vectorise_pops(tj_context *ctx, LLVMModuleRef m);
/* Whether a drain's vector step computes 'v' from the popped values lane by lane:
 * tji_widens, but for integer divisions (the step's lanes without a value hold zeros). */
TJI_HIDDEN bool tji_drain_arith(LLVMValueRef v);

/* sink_barriers.c */
/* Marks barrier hook call 'call' as a CPU pop's trailing barrier, which may move down past
 * code that cannot see the pop (builtins/stack.c); whether call 'call' has that mark. */
TJI_HIDDEN void tji_mark_sinkable_barrier(tj_context *ctx, LLVMValueRef call);
TJI_HIDDEN bool tji_is_sinkable_barrier(LLVMValueRef call);
/* CPU, cooperative block function 'fn' (its barriers calls of 'marker', before
 * tji_lane_loops): moves each marked barrier down past the lane's own code. Returns how
 * many moved. */
TJI_HIDDEN int tji_sink_barriers(tj_context *ctx, LLVMValueRef fn, LLVMValueRef marker);

/* vmap.c: a map of LLVM values (or blocks, as values) to values, of fixed capacity */
typedef struct tji_vmap {
    LLVMValueRef *key, *val;
    size_t cap; /* a power of two, at least twice the entries */
} tji_vmap;
/* Room for 'n' entries; false when out of memory (free it all the same). */
TJI_HIDDEN bool tji_vmap_init(tji_vmap *m, size_t n);
TJI_HIDDEN void tji_vmap_free(tji_vmap *m);
TJI_HIDDEN void tji_vmap_put(tji_vmap *m, LLVMValueRef key, LLVMValueRef val);
/* The value of 'v', or 'v' itself when it has none. */
TJI_HIDDEN LLVMValueRef tji_vmap_get(const tji_vmap *m, LLVMValueRef v);
TJI_HIDDEN bool tji_vmap_has(const tji_vmap *m, LLVMValueRef v);

/* compress_push.c, beside tji_vmap: a lanes' loop's arithmetic done for VF lanes at once
 * (the pushes' vector loop, and serial_pops.c's drain). 'map' takes each scalar value to its
 * vector (set what the loop loads); 'i', the loop's lane counter (or NULL), becomes
 * vi + <0, 1, ..>; any other value the map lacks comes from outside the loop: the same in
 * every lane (a splat). */
typedef struct tji_widen {
    LLVMBuilderRef b;
    LLVMModuleRef m;
    unsigned vf;
    LLVMValueRef i, vi;
    tji_vmap map;
} tji_widen;
/* Whether tji_widen_inst takes instruction 'v': arithmetic, compares, casts (no pointers),
 * selects, fneg, freeze, and elementwise intrinsics (fabs, min and max, sqrt, rounding). */
TJI_HIDDEN bool tji_widens(LLVMValueRef v);
/* The vector of 'v': the map's, or made (and kept) as above. */
TJI_HIDDEN LLVMValueRef tji_widen_value(tji_widen *w, LLVMValueRef v);
/* The vector form of 'in' (tji_widens) at the builder, from its operands' vectors; kept in
 * the map. */
TJI_HIDDEN LLVMValueRef tji_widen_inst(tji_widen *w, LLVMValueRef in);

/* sink_copies.c, beside tji_vmap, which it takes */
/* Whether address 'p' (an alloca, or a GEP of one) reaches only accesses of its memory: GEPs,
 * loads, stores to it, memcpy/memmove/memset, masked loads and stores, lifetime markers.
 * With 'blocks', puts there (each as block -> itself) the blocks of those accesses other
 * than 'skip' and the markers. */
TJI_HIDDEN bool tji_address_stays_local(LLVMValueRef p, LLVMValueRef skip, tji_vmap *blocks);
/* The intrinsic that 'call' calls, or 0. */
TJI_HIDDEN unsigned tji_intrinsic_of(LLVMValueRef call);

/* libdevice.c */
/* Links the libdevice functions that 'm' declares (and what they call). */
TJI_HIDDEN tj_status tji_libdevice_link(tj_context *ctx, LLVMModuleRef m);
/* For the cache key: "" when 'm' declares no libdevice function, else which libdevice file
 * the build would link (path, size and modification time, or that none is found). */
TJI_HIDDEN void tji_libdevice_identity(tj_context *ctx, LLVMModuleRef m, char *buf, size_t n);
TJI_HIDDEN void tji_libdevice_release(tj_context *ctx);

/* cache.c: compiled code keyed by a 128-bit hash of the module and options */
struct tji_cache_entry {
    uint8_t key[16];
    tj_target target;
    char *ptx;                          /* CUDA */
    size_t ptx_len;
    LLVMOrcResourceTrackerRef rt;       /* CPU: the loaded object */
    char **symbols;                     /* CPU: entry symbols, in kernel order */
    uint64_t *addrs;                    /* CPU: their addresses */
    int nsymbols;
    tji_cache_entry *next;
};
TJI_HIDDEN void tji_hash128(const void *data, size_t n, const uint8_t *seed16, uint8_t out[16]);
/* The build-ids of the ELF objects holding tilejit's and LLVM's code (build_id.c), as text:
 * part of every cache key, so that a rebuilt library or libLLVM never loads code cached by
 * another build. */
TJI_HIDDEN const char *tji_build_identity(void);
TJI_HIDDEN tji_cache_entry *tji_cache_find(tj_context *ctx, const uint8_t key[16]);
TJI_HIDDEN tji_cache_entry *tji_cache_add(tj_context *ctx, const uint8_t key[16],
                                          tj_target target);
TJI_HIDDEN void tji_cache_remove(tj_context *ctx, tji_cache_entry *e);
TJI_HIDDEN void tji_cache_release(tj_context *ctx);
TJI_HIDDEN tj_status tji_jit_get(tj_context *ctx, LLVMOrcLLJITRef *out);
/* Adds object 'obj' (taken over) to the JIT under entry 'e' and looks up 'names'. */
TJI_HIDDEN tj_status tji_cache_load_object(tj_context *ctx, tji_cache_entry *e,
                                           LLVMMemoryBufferRef obj, const char *const *names,
                                           int nnames);

/* disk_cache.c: the payload stored for 'key' (malloc'ed, NUL-terminated), or NULL */
TJI_HIDDEN uint8_t *tji_disk_cache_read(const uint8_t key[16], tj_target target, size_t *len);
TJI_HIDDEN void tji_disk_cache_write(const uint8_t key[16], tj_target target, const void *data,
                                     size_t len);

/* llvm_compat.c: everything that depends on the LLVM version */
TJI_HIDDEN const char *tji_compat_barrier_intrinsic(void);
TJI_HIDDEN void tji_compat_mark_kernel(LLVMValueRef fn);
TJI_HIDDEN void tji_compat_set_return_range(LLVMValueRef call, uint32_t lo, uint32_t hi);

/* ---------------------------------------------------------------------------------------- */
/* device.c, launch.c                                                                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct tji_loaded {
    uint8_t key[16];
    tji_cuda_module *mod;
    tji_cuda_function **fns;
    int nfns;
    uint64_t err_ptr;            /* the module's tj_err record */
    struct tji_loaded *next;
} tji_loaded;

struct tj_device {
    tj_context *ctx;
    tj_device_kind kind;
    tji_cpu_pool *pool;          /* CPU */
    tji_cuda *cuda;              /* CUDA */
    tji_loaded *loaded;          /* CUDA modules loaded on the device */
    bool stack_set;              /* CUDA: tj_device_set_stack_bytes was called */
    tj_array *arrays;            /* live arrays, freed with the device */
    char name[300];
    char arch[64];
    char err[TJI_ERR_BYTES];
    bool has_err;
    tj_device *prev, *next;      /* the context's list */
};

/* CPU arrays start on a cache line, as CUDA's allocations do (256 bytes): vector loads and
 * stores of a kernel's tiles then split no line. glibc's calloc puts large blocks 16 bytes
 * past a page. */
#define TJI_ARRAY_ALIGN 64

struct tj_array {
    tj_device *dev;
    const tj_type *type;
    int ndim;
    int64_t shape[TJI_MAX_DIMS];
    int64_t strides[TJI_MAX_DIMS];
    size_t bytes;
    void *host;                  /* CPU: the elements, TJI_ARRAY_ALIGN-aligned in 'block' */
    void *block;                 /* CPU: what calloc gave */
    uint64_t dptr;               /* CUDA */
    tj_array *prev, *next;
};

TJI_HIDDEN tj_status tji_dev_fail(tj_device *dev, tj_status st, const char *fmt, ...)
    TJI_PRINTF(3, 4);
/* The kernel-error message of a failed check, from a record the launch filled. */
TJI_HIDDEN void tji_format_kernel_error(const tji_kdesc *kd, const tji_error_record *rec,
                                        char *buf, size_t n);

#endif /* TILEJIT_INTERNAL_H */
