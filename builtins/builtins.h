/*
 * builtins/builtins.h: what the builtin family files share: the builtin table and the
 * tile layout helpers of layout.c (allocation, iteration over a lane's elements, element
 * access in either storage, promotion to shared memory). Target-neutral: hooks only.
 */
#ifndef TILEJIT_BUILTINS_H
#define TILEJIT_BUILTINS_H

#include "internal.h"

typedef enum tji_builtin {
#define TJI_BUILTIN(id, name, family, coop) TJI_B_##id,
#include "builtins.def"
#undef TJI_BUILTIN
    TJI_B_COUNT
} tji_builtin;

TJI_HIDDEN const char *tji_builtin_name(tji_builtin b);
TJI_HIDDEN bool tji_builtin_is_cooperative(tji_builtin b);

/* ---- layout.c -------------------------------------------------------------------------- */

/* The largest tile, in elements. */
#define TJI_MAX_TILE_ELEMS (INT64_C(1) << 24)

/* Checks 'rank' and 'shape' (1-4 positive extents, at most TJI_MAX_TILE_ELEMS elements). */
TJI_HIDDEN bool tji_check_shape(tj_kernel *k, const char *fn, const char *arg, int rank,
                                const int *shape);
/* Checks that 'v' is a tile of this kernel, usable here. */
TJI_HIDDEN bool tji_check_tile(tj_kernel *k, const char *fn, const char *arg, const tj_val *v);
/* Checks 'n' integer offsets or indices, argument 'arg' ('offset' may be NULL: zeros). */
TJI_HIDDEN bool tji_check_offsets(tj_kernel *k, const char *fn, const char *arg,
                                  tj_val *const *offset, int n);
/* A new tile with undefined contents (register: an alloca; shared: arena memory). */
TJI_HIDDEN tj_val *tji_tile_new(tj_kernel *k, const tj_type *elem, int rank, const int *shape,
                                tj_storage storage);
/* Records the builder's position as where tile 't' is complete (for promotion). */
TJI_HIDDEN void tji_tile_mark(tj_kernel *k, tj_val *t);
TJI_HIDDEN bool tji_tile_is_dense(const tji_tile *t);
/* Row-major strides of 'shape'. */
TJI_HIDDEN void tji_dense_strides(int rank, const int *shape, int64_t *strides);
TJI_HIDDEN int64_t tji_shape_size(int rank, const int *shape);

/* The lane id (i32) and block width. */
TJI_HIDDEN LLVMValueRef tji_lane(tj_kernel *k);

/* Calls 'fn' for each element e (i32) this lane owns in the register layout of a tile of
 * 'size' elements, with its slot s (i32): e = s * B + lane. Small slot counts are
 * unrolled (constant slots), large ones become a loop. */
typedef void (*tji_elem_fn)(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud);
TJI_HIDDEN void tji_foreach_owned(tj_kernel *k, int64_t size, tji_elem_fn fn, void *ud);
/* The same, starting at slot 'first'. */
TJI_HIDDEN void tji_foreach_owned_from(tj_kernel *k, int64_t size, int first, tji_elem_fn fn,
                                       void *ud);
/* tji_foreach_owned for an element-wise builtin: 'fn' reads the element 'e' of its
 * operands (tiles made before this call) and writes that of its result 'out', a new
 * register tile, and touches no other memory. Right after another such loop of 'size'
 * elements (nothing emitted since), it joins that loop (layout.c says where). */
TJI_HIDDEN void tji_foreach_fused(tj_kernel *k, int64_t size, const tj_val *out,
                                  tji_elem_fn fn, void *ud);
/* The row length of the loops tji_foreach_fused makes for tiles of 't''s shape: rows of at
 * least a vector's elements, each a loop inside one over the rows; 0: one loop. */
TJI_HIDDEN int64_t tji_row_loop_cols(const tji_tile *t);
/* Whether the builder is right after such a loop and 't' is the result of its last step
 * (pure arithmetic emitted since moves in front of the loop). */
TJI_HIDDEN bool tji_fused_result(tj_kernel *k, const tj_val *t);
/* Runs 'fn' in each step of that loop, after the steps so far (its element: k->fuse.at). */
TJI_HIDDEN void tji_fused_append(tj_kernel *k, tji_elem_fn fn, void *ud);
/* In a partial cooperative CPU block, lane 0 calls 'fn' for the elements of the lanes that
 * do not run (e % B >= the active lanes), with their slots: after a shared tile's fill or
 * load, so that the tile holds its values everywhere (SPEC 1: the active lanes run the
 * cooperative builtins correctly). Nothing in whole blocks and width-1 kernels, and
 * nothing on the GPU, where README leaves those elements unspecified: the code, never run
 * in a tiled launch, made the histogram seed's build 14% longer (instructions, 30 builds
 * under callgrind), a memset instead of the loop too. */
TJI_HIDDEN void tji_foreach_unowned(tj_kernel *k, int64_t size, tji_elem_fn fn, void *ud);
/* Where tji_foreach_unowned applies: begins code that lane 0 of a partial cooperative CPU
 * block runs ('cond', ended by tji_emit_cond_end) and returns the active lanes (i32), or
 * returns NULL and emits nothing. */
TJI_HIDDEN LLVMValueRef tji_partial_lane0_begin(tj_kernel *k, tji_cond *cond);
/* Splits linear element index 'e' (row-major) into coordinates by the tile's shape. */
TJI_HIDDEN void tji_tile_coords(tj_kernel *k, const tji_tile *t, LLVMValueRef e,
                                LLVMValueRef *coords);
/* Address of element 'coords' (i32 each) of a shared tile. */
TJI_HIDDEN LLVMValueRef tji_tile_elem_ptr(tj_kernel *k, const tj_val *t,
                                          LLVMValueRef const *coords);
/* Element e (owned by this lane at slot s in the register layout), from either storage. */
TJI_HIDDEN LLVMValueRef tji_tile_get(tj_kernel *k, const tj_val *t, LLVMValueRef slot,
                                     LLVMValueRef e);
TJI_HIDDEN void tji_tile_set(tj_kernel *k, const tj_val *t, LLVMValueRef slot, LLVMValueRef e,
                             LLVMValueRef v);
/* Fills the registers of a borrowed register tile (see tji_borrow) where it was loaded, if
 * not done yet. Code that reads a tile's registers other than through tji_tile_get calls it
 * first. */
TJI_HIDDEN void tji_tile_materialize(tj_kernel *k, const tj_val *t);
/* Moves a register tile (a reduction result too) to shared memory where it was made, so
 * that every later use reads the shared copy (views alias it). Shared tiles are left
 * alone. */
TJI_HIDDEN void tji_tile_promote(tj_kernel *k, tj_val *t);
/* 'bytes' of shared memory owned by the kernel, rounded up to 16 (SPEC 3); the address. */
TJI_HIDDEN LLVMValueRef tji_shared_alloc(tj_kernel *k, size_t bytes);
/* A slot of owned shared memory of at least 'bytes', the same for every call that needs no
 * more than the first: for a value that one builtin call hands its lanes past its last
 * barrier, which no other builtin's scratch may overwrite before they read it. */
TJI_HIDDEN LLVMValueRef tji_shared_slot(tj_kernel *k, size_t bytes);
/* 16 bytes of owned shared memory that nothing reads, the same for every call of the
 * kernel: where atomics of lanes that add nothing go (builtins/scatter_add.c). */
TJI_HIDDEN LLVMValueRef tji_shared_sink(tj_kernel *k);
/* Before writing fresh shared memory: a barrier when the code may run again (inside a loop,
 * or in a function) while other lanes still read the previous contents. */
TJI_HIDDEN void tji_shared_write_fence(tj_kernel *k);
TJI_HIDDEN bool tji_in_loop(const tj_kernel *k);
/* The kernel's shared scratch area, at least 'bytes' (reused by every builtin that needs
 * it; each leaves it free after its trailing barrier). */
TJI_HIDDEN LLVMValueRef tji_shared_scratch(tj_kernel *k, size_t bytes);

/* ---- elementwise.c ------------------------------------------------------------------------- */

/* The scalar operation applied per element: takes one element (or broadcast value) per
 * operand and returns the result element. */
typedef tj_val *(*tji_elem_op)(tj_kernel *k, tj_val *const *elems, void *ud);
/* A register tile of op(elements...) over 'args' (tiles of one shape, or values that are
 * broadcast); at least one argument is a tile. The caller has passed each argument through
 * tji_use, under the argument's name in its own signature. */
TJI_HIDDEN tj_val *tji_tile_apply(tj_kernel *k, const char *fn, tj_val *const *args, int nargs,
                                  tji_elem_op op, void *ud);

#endif /* TILEJIT_BUILTINS_H */
