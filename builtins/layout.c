/*
 * builtins/layout.c: tile values and storage (SPEC 3). Register tiles are spread over the
 * block: element e of the row-major tile lives in lane e % B, slot e / B; each lane keeps
 * its slots in an alloca that SROA turns into registers. Shared tiles are a pointer into
 * the block's arena plus compile-time element strides. The arena of a kernel (or function)
 * holds, in order: its owned tiles and stacks (each rounded up to 16 bytes), the scratch
 * its builtins share, and the arena of the functions it calls. Target-neutral: the lane,
 * the arena and barriers come from the thread state and hooks.
 */
#include <stdio.h>
#include <string.h>

#include "builtins.h"

static const struct {
    const char *name;
    bool cooperative;
} builtins[] = {
#define TJI_BUILTIN(id, name, family, coop) [TJI_B_##id] = {name, coop},
#include "builtins.def"
#undef TJI_BUILTIN
};
static_assert(TJI_NELEMS(builtins) == TJI_B_COUNT, "builtins.def and the table disagree");

const char *
tji_builtin_name(tji_builtin b)
{
    return (unsigned)b < TJI_B_COUNT ? builtins[b].name : "?";
}

bool
tji_builtin_is_cooperative(tji_builtin b)
{
    return (unsigned)b < TJI_B_COUNT && builtins[b].cooperative;
}

/* ---- introspection and checks ----------------------------------------------------------- */

int
tj_tile_get_rank(const tj_val *t)
{
    return t && t->kind == TJ_VAL_TILE ? t->u.tile.rank : 0;
}

int
tj_tile_get_shape(const tj_val *t, int dim)
{
    if (!t || t->kind != TJ_VAL_TILE || dim < 0 || dim >= t->u.tile.rank)
        return 0;
    return t->u.tile.shape[dim];
}

tj_storage
tj_tile_get_storage(const tj_val *t)
{
    return t && t->kind == TJ_VAL_TILE ? t->u.tile.storage : TJ_STORAGE_REGISTER;
}

int64_t
tji_shape_size(int rank, const int *shape)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

void
tji_dense_strides(int rank, const int *shape, int64_t *strides)
{
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d];
    }
}

bool
tji_tile_is_dense(const tji_tile *t)
{
    if (t->storage == TJ_STORAGE_REGISTER)
        return true;
    int64_t want[TJI_MAX_DIMS];
    tji_dense_strides(t->rank, t->shape, want);
    for (int d = 0; d < t->rank; d++)
        if (t->shape[d] > 1 && t->strides[d] != want[d])
            return false;
    return true;
}

bool
tji_check_shape(tj_kernel *k, const char *fn, const char *arg, int rank, const int *shape)
{
    if (rank < 1 || rank > TJI_MAX_DIMS)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': rank %d is not in [1, 4]", fn,
                        arg, rank);
    if (!shape)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s' is NULL", fn, arg);
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1)
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument '%s': extent %d of dimension %d is not positive", fn,
                            arg, shape[d], d);
        n *= shape[d];
        if (n > TJI_MAX_TILE_ELEMS)
            return tji_fail(k, TJ_ERR_LIMIT, "%s: argument '%s': more than %lld elements", fn,
                            arg, (long long)TJI_MAX_TILE_ELEMS);
    }
    return true;
}

bool
tji_check_tile(tj_kernel *k, const char *fn, const char *arg, const tj_val *v)
{
    char d[64];
    if (!tji_use(k, v, fn, arg))
        return false;
    if (v->kind != TJ_VAL_TILE)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': %s is not a tile", fn, arg,
                        tji_val_describe(v, d, sizeof d));
    return true;
}

bool
tji_check_offsets(tj_kernel *k, const char *fn, const char *arg, tj_val *const *offset, int n)
{
    char d[64];
    for (int i = 0; offset && i < n; i++) {
        if (!tji_use(k, offset[i], fn, arg))
            return false;
        const tj_type *t = offset[i]->type;
        if (offset[i]->kind != TJ_VAL_SCALAR || !tji_type_is_scalar(t) ||
            !tji_dtype_is_int(t->dtype))
            return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': entry %d is %s, not an integer",
                            fn, arg, i, tji_val_describe(offset[i], d, sizeof d));
    }
    return true;
}

/* ---- shared memory ---------------------------------------------------------------------- */

LLVMValueRef
tji_lane(tj_kernel *k)
{
    if (k->block_dim == 1)
        return tji_const_i32(k->ctx, 0);
    return tji_emit_ts_load(k, TJI_TS_LANE);
}

static LLVMValueRef
arena_at(tj_kernel *k, LLVMValueRef offset)
{
    LLVMValueRef arena = tji_emit_ts_load(k, TJI_TS_ARENA);
    return LLVMBuildGEP2(k->llb, tji_i8(k->ctx), arena, &offset, 1, "shared");
}

LLVMValueRef
tji_shared_alloc(tj_kernel *k, size_t bytes)
{
    size_t off = k->shared_bytes;
    k->shared_bytes += (bytes + 15) & ~(size_t)15;
    return arena_at(k, tji_const_i64(k->ctx, (int64_t)off));
}

LLVMValueRef
tji_shared_slot(tj_kernel *k, size_t bytes)
{
    if (bytes > k->slot_bytes) {
        k->slot_off = k->shared_bytes;
        k->slot_bytes = (bytes + 15) & ~(size_t)15;
        k->shared_bytes += k->slot_bytes;
    }
    return arena_at(k, tji_const_i64(k->ctx, (int64_t)k->slot_off));
}

LLVMValueRef
tji_shared_sink(tj_kernel *k)
{
    if (!k->sink_bytes) {
        k->sink_off = k->shared_bytes;
        k->sink_bytes = 16;
        k->shared_bytes += k->sink_bytes;
    }
    return arena_at(k, tji_const_i64(k->ctx, (int64_t)k->sink_off));
}

bool
tji_in_loop(const tj_kernel *k)
{
    for (int i = 0; i < k->nscopes; i++) {
        tji_scope_kind s = k->scopes[i].kind;
        if (s == TJI_SCOPE_FOR || s == TJI_SCOPE_WHILE_COND || s == TJI_SCOPE_WHILE_BODY)
            return true;
    }
    return false;
}

void
tji_shared_write_fence(tj_kernel *k)
{
    if (k->is_func || tji_in_loop(k))
        tji_emit_barrier(k);
}

LLVMValueRef
tji_shared_scratch(tj_kernel *k, size_t bytes)
{
    if (bytes > k->scratch_bytes)
        k->scratch_bytes = (bytes + 15) & ~(size_t)15;
    /* The owned size is final only when the kernel is sealed: read it from a constant that
     * tji_kernel_seal fills in. */
    LLVMValueRef g = tji_kernel_layout_global(k, 0);
    return arena_at(k, LLVMBuildLoad2(k->llb, tji_i64(k->ctx), g, "scratch.off"));
}

/* ---- tiles ------------------------------------------------------------------------------ */

static LLVMTypeRef
regs_type(const tj_val *t)
{
    return LLVMArrayType2(t->type->llreg, (uint64_t)t->u.tile.nslots);
}

tj_val *
tji_tile_new(tj_kernel *k, const tj_type *elem, int rank, const int *shape, tj_storage storage)
{
    tj_val *v = tji_val_new(k, TJ_VAL_TILE, elem, NULL);
    if (!v)
        return NULL;
    tji_tile *t = &v->u.tile;
    t->rank = rank;
    memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
    t->size = tji_shape_size(rank, shape);
    t->storage = storage;
    if (storage == TJ_STORAGE_SHARED) {
        t->owner = true;
        tji_dense_strides(rank, shape, t->strides);
        t->base = tji_shared_alloc(k, (size_t)t->size * elem->size);
    } else {
        t->nslots = (int)((t->size + k->block_dim - 1) / k->block_dim);
        t->regs = tji_alloca_uninit(k, regs_type(v), "tile");
        t->alias = v;
        k->reg_tile_bytes += (size_t)t->nslots * elem->size;
    }
    return v;
}

void
tji_tile_mark(tj_kernel *k, tj_val *t)
{
    t->u.tile.def_bb = LLVMGetInsertBlock(k->llb);
    t->u.tile.def_last = LLVMGetLastInstruction(t->u.tile.def_bb);
    t->u.tile.def_in_loop = tji_in_loop(k);
}

enum { UNROLL_SLOTS = 16 };

void
tji_foreach_owned(tj_kernel *k, int64_t size, tji_elem_fn fn, void *ud)
{
    tji_foreach_owned_from(k, size, 0, fn, ud);
}

/* Calls 'fn' for element 'at' (tji_tile_coords knows it meanwhile: k->owned). */
static void
visit(tj_kernel *k, tji_elem_fn fn, void *ud, tji_owned at)
{
    tji_owned outer = k->owned;
    k->owned = at;
    fn(k, at.slot, at.e, ud);
    k->owned = outer;
}

/* tji_foreach_owned_from for the elements of lane 'lane' (an i32). */
static void
foreach_slot(tj_kernel *k, int64_t size, int first, LLVMValueRef lane, tji_elem_fn fn, void *ud)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    int64_t B = k->block_dim;
    int64_t nslots = (size + B - 1) / B;
    bool ragged = size % B != 0;
    if (nslots <= UNROLL_SLOTS) {
        for (int64_t s = first; s < nslots; s++) {
            /* e < size <= 2^24: no wrap, so addresses fold to constant offsets */
            LLVMValueRef e = tji_emit_add(b, tji_const_i32(c, s * B), lane, true);
            bool guard = ragged && s == nslots - 1;
            tji_cond cond;
            if (guard)
                tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntULT, e,
                                                     tji_const_i32(c, size), ""), &cond);
            visit(k, fn, ud, (tji_owned){.e = e, .slot = tji_const_i32(c, s), .lane = lane});
            if (guard)
                tji_emit_cond_end(k, &cond);
        }
        return;
    }
    tji_count lp;
    LLVMValueRef s = tji_emit_count_begin(k, &lp, tji_const_i32(c, first), "slot", "s", "slots");
    LLVMValueRef e = LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, s, tji_const_i32(c, B), ""), lane, "e");
    tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, e, tji_const_i32(c, size), ""));
    visit(k, fn, ud, (tji_owned){.e = e, .slot = s, .lane = lane});
    tji_emit_count_end(k, &lp, s, 1, false);
}

void
tji_foreach_owned_from(tj_kernel *k, int64_t size, int first, tji_elem_fn fn, void *ud)
{
    foreach_slot(k, size, first, tji_lane(k), fn, ud);
}

/* Whether 'in' computes a value from its operands alone: no memory, no control flow. */
static bool
pure_arithmetic(LLVMValueRef in)
{
    return LLVMIsABinaryOperator(in) || LLVMIsAUnaryOperator(in) || LLVMIsACastInst(in) ||
           LLVMIsACmpInst(in) || LLVMIsASelectInst(in) || LLVMIsAGetElementPtrInst(in) ||
           LLVMIsAExtractElementInst(in) || LLVMIsAInsertElementInst(in) ||
           LLVMIsAExtractValueInst(in) || LLVMIsAInsertValueInst(in);
}

/* Whether block 'bb' is 'head' or was added to the function after it. Blocks are appended
 * as they are made, so a block with code from before the loop of tji_foreach_fused (whose
 * first block is 'head') comes before it. */
static bool
made_since(LLVMBasicBlockRef head, LLVMBasicBlockRef bb)
{
    for (LLVMBasicBlockRef x = head; x; x = LLVMGetNextBasicBlock(x))
        if (x == bb)
            return true;
    return false;
}

/* Whether the builder is right after the loop of tji_foreach_fused with nothing but pure
 * arithmetic on values made before the loop emitted since (the scalars of a later builder
 * call, such as `i * 16` for a tile_store's offset), which this moves in front of the
 * loop, where they compute the same values. */
static bool
fused_loop_open(tj_kernel *k)
{
    LLVMBuilderRef b = k->llb;
    LLVMBasicBlockRef done = k->fuse.done;
    if (!done || LLVMGetInsertBlock(b) != done)
        return false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(done); in; in = LLVMGetNextInstruction(in)) {
        if (!pure_arithmetic(in))
            return false;
        for (int i = 0, n = LLVMGetNumOperands(in); i < n; i++) {
            LLVMValueRef op = LLVMGetOperand(in, i);
            if (LLVMIsAInstruction(op) && LLVMGetInstructionParent(op) != done &&
                made_since(k->fuse.head, LLVMGetInstructionParent(op)))
                return false;
        }
    }
    for (LLVMValueRef in = LLVMGetFirstInstruction(done), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        size_t len;
        const char *name = LLVMGetValueName2(in, &len);
        char keep[64];
        snprintf(keep, sizeof keep, "%.*s", (int)(len < sizeof keep ? len : sizeof keep - 1),
                 name);
        LLVMInstructionRemoveFromParent(in);
        LLVMPositionBuilderBefore(b, k->fuse.enter);
        LLVMInsertIntoBuilderWithName(b, in, keep);
    }
    LLVMPositionBuilderAtEnd(b, done);
    return true;
}

/* Runs 'fn' for the element of a step of that loop, after what its step does so far. */
static void
fused_step(tj_kernel *k, tji_elem_fn fn, void *ud)
{
    LLVMBuilderRef b = k->llb;
    LLVMBasicBlockRef tail = LLVMGetInstructionParent(k->fuse.tail);
    LLVMBasicBlockRef latch = LLVMGetSuccessor(k->fuse.tail, 0);
    LLVMInstructionEraseFromParent(k->fuse.tail);
    LLVMPositionBuilderAtEnd(b, tail);
    k->fuse.nsets = 0;
    k->fuse.recording = true;
    visit(k, fn, ud, k->fuse.at);
    k->fuse.recording = false;
    k->fuse.tail = LLVMBuildBr(b, latch);
    LLVMPositionBuilderAtEnd(b, k->fuse.done);
}

/* Element-wise builtins in a row (`a * 2.0 + b`) each make a tile. In width-1 CPU code a
 * register tile is a local array, and a tile of more than UNROLL_SLOTS elements a loop over
 * it: LLVM unrolls the loops of small tiles and forwards each value to its reader, but
 * keeps those of large ones (a 1024-float row) as they are, so each intermediate tile went
 * to memory and back, a loop each (0.60 of C's loop for y = 2x + y over such rows,
 * bench/RESULTS.md). LLVM's loop-fusion pass would join them but is not in its pipelines
 * for a reason: it still miscompiles (llvm-project issues 191238, 199687). Here the join
 * is made where it is known to be sound: the second builtin's step runs in the first's
 * loop, after the first's step for the same element. It reads its operands' element e:
 * the first's result, written just before, or a tile made before the first's loop, which
 * that loop does not write (it writes only its own new tile); neither writes anything else,
 * so no order of other memory changes. The loop's exit must be where the builder still is,
 * with nothing emitted there since (no other builder call came between; a builtin that
 * emitted nothing, like a reshape, may), and both loops cover 'size' elements from slot 0.
 * Debug builds, whose checks report the first failing element, keep one loop a builtin. */
/* The row length of the loop tji_foreach_fused makes for 'out': a loop over rows with one
 * over their elements inside, for a tile of several rows of at least ROW_LOOP_MIN elements
 * (so that a row is a vector or more), else 0: one loop over the elements. Along a row the
 * elements of a tile read in place from an array whose rows are apart (tji_borrow) follow
 * one another, as they do in registers: LLVM vectorises each row. */
enum { ROW_LOOP_MIN = 8 };

int64_t
tji_row_loop_cols(const tji_tile *t)
{
    int64_t cols = t->shape[t->rank - 1];
    return t->rank > 1 && cols >= ROW_LOOP_MIN && t->size > cols ? cols : 0;
}

void
tji_foreach_fused(tj_kernel *k, int64_t size, const tj_val *out, tji_elem_fn fn, void *ud)
{
    bool loop = k->opts.target == TJ_TARGET_CPU && k->block_dim == 1 && size > UNROLL_SLOTS &&
                !k->opts.debug && !k->ctx->cpu_no_fusion;
    if (!loop) {
        tji_foreach_owned(k, size, fn, ud);
        return;
    }
    LLVMBuilderRef b = k->llb;
    int64_t cols = tji_row_loop_cols(&out->u.tile);
    if (fused_loop_open(k) && k->fuse.size == size && k->fuse.at.cols == cols) {
        fused_step(k, fn, ud);
        k->fuse.out_regs = out->u.tile.regs;
        return;
    }
    /* foreach_slot's loop (or one over rows, and one over a row's elements inside), its step
     * ending in a latch of its own */
    tj_context *c = k->ctx;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
    tji_count rows, lp;
    tji_owned at = {.lane = tji_const_i32(c, 0), .cols = cols};
    if (cols) {
        at.row = tji_emit_count_begin(k, &rows, tji_const_i32(c, 0), "row", "r", "rows");
        tji_emit_count_test(k, &rows, LLVMBuildICmp(b, LLVMIntULT, at.row,
                                                    tji_const_i32(c, size / cols), ""));
        at.col = tji_emit_count_begin(k, &lp, tji_const_i32(c, 0), "col", "c", "cols");
        tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, at.col,
                                                  tji_const_i32(c, cols), ""));
        at.slot = LLVMBuildNUWAdd(b, LLVMBuildNUWMul(b, at.row, tji_const_i32(c, cols), ""),
                                  at.col, "s");
    } else {
        at.slot = tji_emit_count_begin(k, &lp, tji_const_i32(c, 0), "slot", "s", "slots");
        tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, at.slot,
                                                  tji_const_i32(c, size), ""));
    }
    at.e = at.slot;
    k->fuse.nreads = 0;
    k->fuse.nloads = 0;
    k->fuse.more = false;
    k->fuse.nsets = 0;
    k->fuse.recording = true;
    visit(k, fn, ud, at);
    k->fuse.recording = false;
    LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "slots.latch");
    LLVMValueRef tail = LLVMBuildBr(b, latch);
    LLVMPositionBuilderAtEnd(b, latch);
    tji_emit_count_end(k, &lp, cols ? at.col : at.slot, 1, true);
    if (cols) { /* the rows' loop is the inner loop's exit's branch */
        tji_keep_rolled(c, LLVMGetBasicBlockTerminator(latch));
        tji_emit_count_end(k, &rows, at.row, 1, true);
        tji_keep_unvectorised(c, LLVMGetBasicBlockTerminator(lp.done));
    }
    k->fuse.head = cols ? rows.head : lp.head;
    k->fuse.done = cols ? rows.done : lp.done;
    k->fuse.tail = tail;
    k->fuse.enter = LLVMGetBasicBlockTerminator(pre);
    k->fuse.out_regs = out->u.tile.regs;
    k->fuse.at = at;
    k->fuse.size = size;
}

bool
tji_fused_result(tj_kernel *k, const tj_val *t)
{
    const tji_tile *tt = &t->u.tile;
    return fused_loop_open(k) && tt->storage == TJ_STORAGE_REGISTER && !tt->replicated &&
           !tt->borrow && tt->regs == k->fuse.out_regs && tt->size == k->fuse.size;
}

void
tji_fused_append(tj_kernel *k, tji_elem_fn fn, void *ud)
{
    TJI_ASSERT(fused_loop_open(k));
    fused_step(k, fn, ud);
}

LLVMValueRef
tji_partial_lane0_begin(tj_kernel *k, tji_cond *cond)
{
    if (k->block_dim == 1 || k->opts.target != TJ_TARGET_CPU)
        return NULL;
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef nactive = tji_emit_nactive(k);
    LLVMValueRef first = LLVMBuildICmp(b, LLVMIntEQ, tji_lane(k), tji_const_i32(c, 0), "");
    LLVMValueRef partial =
        LLVMBuildICmp(b, LLVMIntULT, nactive, tji_const_i32(c, k->block_dim), "");
    tji_emit_cold_begin(k, LLVMBuildAnd(b, first, partial, ""), cond);
    return nactive;
}

void
tji_foreach_unowned(tj_kernel *k, int64_t size, tji_elem_fn fn, void *ud)
{
    tji_cond cond;
    LLVMValueRef nactive = tji_partial_lane0_begin(k, &cond);
    if (!nactive)
        return;
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef B = tji_const_i32(c, k->block_dim);
    /* each lane l from nactive on, and its elements as tji_foreach_owned visits a lane's */
    tji_count lp;
    LLVMValueRef l = tji_emit_count_begin(k, &lp, nactive, "unowned.lane", "", "unowned");
    tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, l, B, ""));
    foreach_slot(k, size, 0, l, fn, ud);
    tji_emit_count_end(k, &lp, l, 1, true);
    tji_emit_cond_end(k, &cond);
}

/* x / n and x % n for a constant n > 0: a shift and a mask when n is a power of two. */
static LLVMValueRef
div_by(tj_kernel *k, LLVMValueRef x, int64_t n)
{
    if (n == 1)
        return x;
    if ((n & (n - 1)) == 0) {
        int shift = 0;
        while ((int64_t)1 << shift < n)
            shift++;
        return LLVMBuildLShr(k->llb, x, tji_const_i32(k->ctx, shift), "");
    }
    return LLVMBuildUDiv(k->llb, x, tji_const_i32(k->ctx, n), "");
}

static LLVMValueRef
rem_by(tj_kernel *k, LLVMValueRef x, int64_t n)
{
    if (n == 1)
        return tji_const_i32(k->ctx, 0);
    if ((n & (n - 1)) == 0)
        return LLVMBuildAnd(k->llb, x, tji_const_i32(k->ctx, n - 1), "");
    return LLVMBuildURem(k->llb, x, tji_const_i32(k->ctx, n), "");
}

/* The coordinates of the element a tji_foreach_owned step visits: e = s * w + lane with
 * lane in [0, w) (w = B and s the slot at the start). Along an extent S that w divides
 * (S = w too), with q = S / w, the coordinate is (s % q) * w + lane and the rest s / q
 * (no lane left: w = 1); along one that divides w, the coordinate is lane % S and the
 * rest s * (w / S) + lane / S (w / S lanes left). Only an extent that does neither needs
 * e's division, as tji_tile_coords does it. The same values without dividing e: for a
 * constant slot what LLVM's instcombine otherwise works out for every slot (and at O0
 * leaves in the code); in the slots' loop, divisions it leaves. */
static bool
owned_coords(tj_kernel *k, const tji_tile *t, LLVMValueRef *coords)
{
    for (int d = t->rank - 1, w = (int)k->block_dim; d > 0; d--) { /* w's course below */
        int S = t->shape[d];
        if (S % w != 0 && w % S != 0)
            return false;
        w = S % w == 0 ? 1 : w / S;
    }
    LLVMBuilderRef b = k->llb;
    int64_t w = k->block_dim;
    LLVMValueRef s = k->owned.slot, lane = k->owned.lane;
    for (int d = t->rank - 1; d > 0; d--) {
        int64_t S = t->shape[d];
        if (S % w == 0) {
            LLVMValueRef row = rem_by(k, s, S / w);
            coords[d] = tji_emit_add(b, tji_emit_mul(b, row, tji_const_i32(k->ctx, w), true),
                                     lane, true);
            s = div_by(k, s, S / w);
            lane = tji_const_i32(k->ctx, 0);
            w = 1;
        } else {
            coords[d] = rem_by(k, lane, S);
            lane = div_by(k, lane, S);
            w /= S;
        }
    }
    coords[0] = tji_emit_add(b, tji_emit_mul(b, s, tji_const_i32(k->ctx, w), true), lane, true);
    return true;
}

void
tji_tile_coords(tj_kernel *k, const tji_tile *t, LLVMValueRef e, LLVMValueRef *coords)
{
    LLVMBuilderRef b = k->llb;
    if (e == k->owned.e && e && owned_coords(k, t, coords))
        return;
    for (int d = t->rank - 1; d >= 0; d--) {
        LLVMValueRef ext = tji_const_i32(k->ctx, t->shape[d]);
        coords[d] = d == 0 ? e : LLVMBuildURem(b, e, ext, "");
        if (d > 0)
            e = LLVMBuildUDiv(b, e, ext, "");
    }
}

LLVMValueRef
tji_tile_elem_ptr(tj_kernel *k, const tj_val *t, LLVMValueRef const *coords)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef off = tji_const_i64(c, 0);
    for (int d = 0; d < t->u.tile.rank; d++) {
        LLVMValueRef x = LLVMBuildSExt(b, coords[d], tji_i64(c), "");
        off = tji_emit_add(
            b, off, tji_emit_mul(b, x, tji_const_i64(c, t->u.tile.strides[d]), false), false);
    }
    return LLVMBuildGEP2(b, t->type->llmem, t->u.tile.base, &off, 1, "");
}

static LLVMValueRef
slot_ptr(tj_kernel *k, const tj_val *t, LLVMValueRef base, LLVMValueRef slot)
{
    LLVMValueRef idx[] = {tji_const_i32(k->ctx, 0), slot};
    return LLVMBuildGEP2(k->llb, regs_type(t), base, idx, 2, "");
}

/* The registers of a borrowed tile of rows apart in its array, filled on that path: a loop
 * of row copies in place of the path's branch. */
static void
fill_rows(tj_kernel *k, const tj_val *t)
{
    tji_borrow *bw = t->u.tile.borrow;
    if (bw->rows_filled)
        return;
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef path = LLVMGetInstructionParent(bw->rows_at);
    LLVMBasicBlockRef next = LLVMGetSuccessor(bw->rows_at, 0);
    LLVMInstructionEraseFromParent(bw->rows_at);
    LLVMPositionBuilderAtEnd(b, path);
    unsigned align = (unsigned)LLVMABIAlignmentOfType(LLVMGetModuleDataLayout(k->llmod),
                                                      t->type->llmem);
    LLVMTypeRef et = t->type->llmem;
    tji_count lp;
    LLVMValueRef r = tji_emit_count_begin(k, &lp, tji_const_i32(c, 0), "row", "r", "fill.rows");
    tji_emit_count_test(k, &lp, LLVMBuildICmp(b, LLVMIntULT, r, tji_const_i32(c, bw->rows), ""));
    LLVMValueRef r64 = LLVMBuildZExt(b, r, tji_i64(c), "");
    LLVMValueRef to = LLVMBuildMul(b, r64, tji_const_i64(c, bw->cols), "");
    LLVMValueRef from = LLVMBuildMul(b, r64, bw->arr_rstride, "");
    LLVMBuildMemCpy(b, LLVMBuildGEP2(b, et, t->u.tile.regs, &to, 1, ""), align,
                    LLVMBuildGEP2(b, et, bw->src, &from, 1, ""), align,
                    tji_const_i64(c, (int64_t)bw->cols * bw->esize));
    tji_emit_count_end(k, &lp, r, 1, true);
    bw->rows_at = LLVMBuildBr(b, next);
    LLVMPositionBuilderAtEnd(b, here);
    bw->rows_filled = true;
}

/* Where a fused loop fills the registers of 't' only under a test (builtins/memory.c, the
 * fused stores), makes it fill them always: a reader needs them. */
static void
fill_unfilled(tj_kernel *k, const tj_val *t)
{
    for (int i = 0; i < k->nunfilled; i++) {
        if (k->unfilled[i].regs != t->u.tile.regs)
            continue;
        LLVMValueRef keep = k->unfilled[i].keep;
        LLVMReplaceAllUsesWith(keep, LLVMConstInt(tji_i1(k->ctx), 1, 0));
        LLVMInstructionEraseFromParent(keep);
        k->unfilled[i] = k->unfilled[--k->nunfilled];
        return;
    }
}

void
tji_tile_materialize(tj_kernel *k, const tj_val *t)
{
    if (k->nunfilled)
        fill_unfilled(k, t);
    tji_borrow *bw = t->u.tile.borrow;
    if (!bw || bw->filled)
        return;
    LLVMBasicBlockRef here = LLVMGetInsertBlock(k->llb);
    LLVMPositionBuilderBefore(k->llb, bw->fill_at);
    unsigned align = (unsigned)LLVMABIAlignmentOfType(
        LLVMGetModuleDataLayout(k->llmod), t->type->llmem);
    LLVMBuildMemCpy(k->llb, t->u.tile.regs, align, bw->src, align,
                    tji_const_i64(k->ctx, (int64_t)bw->bytes));
    LLVMPositionBuilderAtEnd(k->llb, here);
    bw->filled = true;
    if (bw->rstride)
        fill_rows(k, t);
}

/* Where a reader of register tile 't' finds slot 's': in place while its borrow holds
 * (same epoch), else in the registers, filled first if they were not. Code moved out of
 * line (tji_outline_begin) reads copies of a tile whose 'regs' is a helper parameter and
 * whose borrow is NULL, as promotion does. A tile of rows apart in place is read there by a
 * loop over its rows (k->owned gives the row and column), else through 'flat'. */
static LLVMValueRef
read_ptr(tj_kernel *k, const tj_val *t, LLVMValueRef s, int *read)
{
    tji_borrow *bw = t->u.tile.borrow;
    if (bw && bw->epoch == k->mem_epoch) {
        TJI_ASSERT(LLVMGetBasicBlockParent(LLVMGetInstructionParent(bw->ptr)) ==
                   LLVMGetBasicBlockParent(LLVMGetInsertBlock(k->llb)));
        if (k->fuse.recording) { /* the array memory a fused loop reads */
            int i = 0;
            while (i < k->fuse.nreads && k->fuse.reads[i] != bw)
                i++;
            if (i == k->fuse.nreads && i < (int)TJI_NELEMS(k->fuse.reads))
                k->fuse.reads[k->fuse.nreads++] = bw;
            else if (i == k->fuse.nreads)
                k->fuse.more = true;
            *read = i;
        }
        if (!bw->rstride)
            return slot_ptr(k, t, bw->ptr, s);
        const tji_owned *o = &k->owned;
        if (o->row && o->cols == bw->cols && o->slot == s) {
            LLVMBuilderRef b = k->llb;
            LLVMValueRef r = LLVMBuildZExt(b, o->row, tji_i64(k->ctx), "");
            LLVMValueRef i = LLVMBuildAdd(b, LLVMBuildMul(b, r, bw->rstride, ""),
                                          LLVMBuildZExt(b, o->col, tji_i64(k->ctx), ""), "");
            return LLVMBuildGEP2(b, t->type->llreg, bw->ptr, &i, 1, "");
        }
        fill_rows(k, t);
        return slot_ptr(k, t, bw->flat, s);
    }
    tji_tile_materialize(k, t);
    return slot_ptr(k, t, t->u.tile.regs, s);
}

LLVMValueRef
tji_tile_get(tj_kernel *k, const tj_val *t, LLVMValueRef slot, LLVMValueRef e)
{
    if (t->u.tile.storage == TJ_STORAGE_REGISTER) {
        LLVMValueRef s = t->u.tile.replicated ? tji_const_i32(k->ctx, 0) : slot;
        int read = -1;
        LLVMValueRef v = LLVMBuildLoad2(k->llb, t->type->llreg, read_ptr(k, t, s, &read), "");
        if (read >= 0 && read < k->fuse.nreads) { /* a fused loop's load from an array */
            if (k->fuse.nloads < (int)TJI_NELEMS(k->fuse.loads)) {
                k->fuse.loads[k->fuse.nloads] = v;
                k->fuse.load_read[k->fuse.nloads++] = (unsigned char)read;
            } else {
                k->fuse.more = true;
            }
        }
        return v;
    }
    LLVMValueRef coords[TJI_MAX_DIMS];
    tji_tile_coords(k, &t->u.tile, e, coords);
    return tji_emit_load(k, t->type, tji_tile_elem_ptr(k, t, coords));
}

void
tji_tile_set(tj_kernel *k, const tj_val *t, LLVMValueRef slot, LLVMValueRef e, LLVMValueRef v)
{
    if (t->u.tile.storage == TJ_STORAGE_REGISTER) {
        LLVMValueRef st = LLVMBuildStore(k->llb, v, slot_ptr(k, t, t->u.tile.regs, slot));
        if (k->fuse.recording && k->fuse.nsets++ == 0)
            k->fuse.set = st;
        return;
    }
    LLVMValueRef coords[TJI_MAX_DIMS];
    tji_tile_coords(k, &t->u.tile, e, coords);
    tji_emit_store(k, t->type, v, tji_tile_elem_ptr(k, t, coords));
}

/* ---- promotion -------------------------------------------------------------------------- */

/* Element-by-element copies between tiles of one shape (promotion, tile variables). */
/* Element-by-element copies between tiles of one shape (promotion, tile variables). */
typedef struct copy {
    const tj_val *from, *to;
} copy;

static void
copy_elem(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const copy *c = ud;
    tji_tile_set(k, c->to, slot, e, tji_tile_get(k, c->from, slot, e));
}

/* Positions the builder right after the instructions that made 't'. */
static void
position_at_def(tj_kernel *k, const tji_tile *t)
{
    LLVMValueRef next = t->def_last ? LLVMGetNextInstruction(t->def_last)
                                    : LLVMGetFirstInstruction(t->def_bb);
    if (next)
        LLVMPositionBuilderBefore(k->llb, next);
    else
        LLVMPositionBuilderAtEnd(k->llb, t->def_bb);
}

void
tji_tile_promote(tj_kernel *k, tj_val *t)
{
    tji_tile *tt = &t->u.tile;
    if (tt->storage == TJ_STORAGE_SHARED)
        return;
    /* A reduction result (replicated: every lane holds the one element) is copied as any
     * register tile of one element: its owner, lane 0, writes it. */
    TJI_ASSERT(tt->def_bb);
    tji_tile_materialize(k, t); /* the copy below reads the registers */
    LLVMBasicBlockRef here = LLVMGetInsertBlock(k->llb);
    position_at_def(k, tt);
    if (tt->def_in_loop || k->is_func)
        tji_emit_barrier(k);
    /* The copy loop lives in a helper function so it can be inserted mid-block. */
    tj_val shared = *t;
    shared.u.tile.storage = TJ_STORAGE_SHARED;
    shared.u.tile.owner = true;
    tji_dense_strides(tt->rank, tt->shape, shared.u.tile.strides);
    shared.u.tile.base = tji_shared_alloc(k, (size_t)tt->size * t->type->size);
    LLVMValueRef helper = tji_outline_begin(k, "tj.promote", t->u.tile.regs, shared.u.tile.base);
    tj_val from = *t, to = shared;
    from.u.tile.regs = LLVMGetParam(helper, 1);
    from.u.tile.borrow = NULL;
    to.u.tile.base = LLVMGetParam(helper, 2);
    tji_foreach_owned(k, tt->size, copy_elem, &(copy){&from, &to});
    tji_outline_end(k);
    tji_emit_barrier(k);
    LLVMPositionBuilderAtEnd(k->llb, here);
    /* Every tile sharing these registers (reshapes of one another) now reads the copy. */
    tj_val *v = t;
    do {
        tj_val *next = v->u.tile.alias;
        tji_tile *vt = &v->u.tile;
        vt->storage = TJ_STORAGE_SHARED;
        vt->replicated = false;
        vt->owner = v == t;
        vt->base = shared.u.tile.base;
        tji_dense_strides(vt->rank, vt->shape, vt->strides);
        vt->alias = NULL;
        vt->borrow = NULL;
        v = next;
    } while (v && v != t);
}

/* ---- tile variables -------------------------------------------------------------------- */
/* A variable holding a tile keeps a register copy of its own (shared tiles are copied in);
 * reading it gives a fresh copy, so tiles stay immutable values. */

static void
copy_tile(tj_kernel *k, const tj_val *from, const tj_val *to)
{
    copy c = {from, to};
    if (to->u.tile.replicated)
        copy_elem(k, tji_const_i32(k->ctx, 0), tji_const_i32(k->ctx, 0), &c);
    else
        tji_foreach_owned(k, to->u.tile.size, copy_elem, &c);
}

static tj_val *
register_like(tj_kernel *k, const tj_val *t, tj_val_kind kind)
{
    tj_val *v = tji_tile_new(k, t->type, t->u.tile.rank, t->u.tile.shape, TJ_STORAGE_REGISTER);
    if (!v)
        return NULL;
    v->kind = kind;
    v->u.tile.replicated = t->u.tile.replicated;
    return v;
}

tj_val *
tji_tile_var_new(tj_kernel *k, tj_val *init)
{
    tj_val *var = register_like(k, init, TJ_VAL_VAR);
    if (!var)
        return NULL;
    var->scope = -1; /* the slots live in the entry block */
    copy_tile(k, init, var);
    return var;
}

tj_val *
tji_tile_var_get(tj_kernel *k, tj_val *var)
{
    tj_val *t = register_like(k, var, TJ_VAL_TILE);
    if (!t)
        return NULL;
    copy_tile(k, var, t);
    tji_tile_mark(k, t);
    return t;
}

bool
tji_tile_var_set(tj_kernel *k, tj_val *var, tj_val *value)
{
    char d[64], w[64];
    const tji_tile *a = &var->u.tile, *b = &value->u.tile;
    bool same = value->kind == TJ_VAL_TILE && value->type == var->type && a->rank == b->rank &&
                memcmp(a->shape, b->shape, (size_t)a->rank * sizeof(int)) == 0;
    if (same && a->replicated && !b->replicated) {
        /* A variable that started as a reduction's result (every lane holds its one
         * element) takes a value of that shape held by its owner lane, such as the result
         * plus a loaded tile: the owner publishes the element (tile_extract), and every
         * lane keeps it. */
        tj_val *zero[TJI_MAX_DIMS];
        for (int i = 0; i < b->rank; i++)
            zero[i] = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_val *e = tj_tile_extract(k, value, zero, b->rank);
        if (!e)
            return false;
        LLVMValueRef at = tji_const_i32(k->ctx, 0);
        tji_tile_set(k, var, at, at, e->ll);
        return true;
    }
    if (!same) {
        tj_val shown = *var;
        shown.kind = TJ_VAL_TILE;
        return tji_fail(k, TJ_ERR_INVALID, "tj_var_set: argument 'value': %s, the variable holds "
                        "%s", tji_val_describe(value, d, sizeof d),
                        tji_val_describe(&shown, w, sizeof w));
    }
    copy_tile(k, value, var);
    return true;
}
