/*
 * jit/target_host.c: the host CPU target. Lowers a linked kernel module to one entry per
 * kernel with the signature of tji_cpu_entry (driver.h): it loops over its range of blocks
 * for one lane. The barrier hook is empty in width-1 mode; in cooperative mode the entry
 * calls a block function per block, which becomes loops over the lanes where it can
 * (lane_loops.c), else calls the worker's barrier (a fiber switch) at each barrier. Math calls
 * become libm calls, bound as absolute symbols in the JIT (cache.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* tji_cpu_worker fields read here (driver.h). */
enum { W_ARENA = 0, W_BARRIER = 1, W_ERR = 2 };

/* In width-1 mode a block's shared memory of at most this many bytes is a local array of
 * the entry, live for one block, instead of the worker's arena: LLVM then knows it aliases
 * no array parameter and dies with the block, so it keeps counters in registers and
 * forwards copies through it. Larger budgets (the CPU allows 64 MiB) use the arena, as
 * cooperative mode always does (its lanes are fibers on stacks of their own). */
enum { STACK_ARENA_MAX = 48 * 1024, ARENA_ALIGN = 64 };

/* llvm.lifetime.start/end(size, p) at the builder's position. */
static void
lifetime(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b, const char *name, size_t bytes,
         LLVMValueRef p)
{
    LLVMTypeRef pt = tji_ptr(ctx);
    LLVMValueRef args[] = {tji_const_i64(ctx, (int64_t)bytes), p};
    tji_build_intrinsic(m, b, LLVMLookupIntrinsicID(name, strlen(name)), &pt, 1, args, 2);
}

static LLVMTypeRef
worker_type(tj_context *ctx)
{
    LLVMTypeRef p = tji_ptr(ctx);
    LLVMTypeRef fields[] = {p, p, p};
    return LLVMStructTypeInContext(ctx->llctx, fields, 3, 0);
}

static LLVMValueRef
load_worker_field(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef w, unsigned field)
{
    LLVMValueRef p = LLVMBuildStructGEP2(b, worker_type(ctx), w, field, "");
    return LLVMBuildLoad2(b, tji_ptr(ctx), p, field == W_ARENA ? TJI_ARENA_NAME : "");
}

/* A cooperative kernel's block: void tj.lanes.<kernel>(ptr w, ptr args, i64 block, i32 lane)
 * runs the body for one lane of one block, from the worker's arena. lower() turns it into
 * loops over the lanes where it can (lane_loops.c); the entry calls it for each block. */
static LLVMValueRef
make_block_fn(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *kd)
{
    LLVMTypeRef tys[] = {tji_ptr(ctx), tji_ptr(ctx), tji_i64(ctx), tji_i32(ctx)};
    char name[256];
    snprintf(name, sizeof name, "tj.lanes.%s", kd->name);
    LLVMValueRef fn = LLVMAddFunction(m, name, LLVMFunctionType(tji_void(ctx), tys, 4, 0));
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    tji_add_fn_attr(ctx, fn, "noinline"); /* until lower() is done with it */
    LLVMValueRef w = LLVMGetParam(fn, 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx->llctx, fn, "entry"));
    LLVMValueRef ts = LLVMBuildAlloca(b, tji_ts_type(ctx), "ts");
    LLVMValueRef fields[TJI_TS_LANE + 1] = {
        [TJI_TS_WORKER] = w, [TJI_TS_ARENA] = load_worker_field(ctx, b, w, W_ARENA),
        [TJI_TS_ERR] = load_worker_field(ctx, b, w, W_ERR),
        [TJI_TS_BLOCK] = LLVMGetParam(fn, 2), [TJI_TS_LANE] = LLVMGetParam(fn, 3),
    };
    tji_emit_entry_common(ctx, m, b, kd, ts, LLVMGetParam(fn, 1), fields, NULL);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
}

/* The coordinates in the launch of the entry's blocks, for tid() (jit/arrays.c): at b0 by
 * divisions, in the entry block, then one more each block, the last coordinate first, each
 * carrying into the one before it when it reaches its dimension (an add, a compare and a
 * select a coordinate, in place of a block's divisions). Width-1 blocks are one thread, so
 * a block's index is its thread's. */
typedef struct entry_coords {
    LLVMValueRef dims[TJI_MAX_DIMS], at[TJI_MAX_DIMS]; /* i32: dims, and the phis in 'head' */
} entry_coords;

static void
coords_begin(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef args,
             LLVMValueRef b0, LLVMValueRef first[TJI_MAX_DIMS], entry_coords *ec)
{
    LLVMTypeRef i64 = tji_i64(ctx);
    LLVMValueRef q = b0;
    for (int d = TJI_MAX_DIMS - 1; d >= 0; d--) {
        ec->dims[d] = tji_emit_launch_dim(ctx, b, args, d);
        if (d == 0) {
            first[d] = LLVMBuildTrunc(b, q, tji_i32(ctx), "");
            break;
        }
        /* an empty launch runs no block: its dimension of 0 divides nothing */
        LLVMValueRef one = tji_const_i64(ctx, 1);
        LLVMValueRef dd = tji_build_intrinsic(
            m, b, LLVMLookupIntrinsicID("llvm.umax", 9), &i64, 1,
            (LLVMValueRef[]){LLVMBuildZExt(b, ec->dims[d], i64, ""), one}, 2);
        LLVMValueRef next = LLVMBuildUDiv(b, q, dd, "");
        first[d] = LLVMBuildTrunc(b, LLVMBuildSub(b, q, LLVMBuildMul(b, next, dd, ""), ""),
                                  tji_i32(ctx), "");
        q = next;
    }
}

/* The next block's coordinates, from the latch, into the phis. */
static void
coords_next(tj_context *ctx, LLVMBuilderRef b, const entry_coords *ec, LLVMValueRef next[])
{
    LLVMValueRef carry = tji_const_i32(ctx, 1), zero = tji_const_i32(ctx, 0);
    for (int d = TJI_MAX_DIMS - 1; d >= 0; d--) {
        LLVMValueRef v = LLVMBuildAdd(b, ec->at[d], carry, "");
        if (d > 0) {
            LLVMValueRef wrap = LLVMBuildICmp(b, LLVMIntEQ, v, ec->dims[d], "");
            v = LLVMBuildSelect(b, wrap, zero, v, "");
            carry = LLVMBuildZExt(b, wrap, tji_i32(ctx), "");
        }
        next[d] = v;
    }
}

/* void entry(ptr w, ptr args, i64 b0, i64 b1, i32 lane): for b in [b0, b1) run the body, or
 * call 'block_fn' (make_block_fn) when there is one. */
static void
make_entry(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *kd, LLVMValueRef block_fn)
{
    LLVMTypeRef tys[] = {tji_ptr(ctx), tji_ptr(ctx), tji_i64(ctx), tji_i64(ctx), tji_i32(ctx)};
    LLVMValueRef fn = LLVMAddFunction(m, kd->entry, LLVMFunctionType(tji_void(ctx), tys, 5, 0));
    LLVMValueRef w = LLVMGetParam(fn, 0), args = LLVMGetParam(fn, 1);
    LLVMValueRef b0 = LLVMGetParam(fn, 2), b1 = LLVMGetParam(fn, 3), lane = LLVMGetParam(fn, 4);
    if (kd->block_width == 1) /* the launcher's lane of a block of one (driver.h) */
        lane = tji_const_i32(ctx, 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "entry");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "body");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "exit");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef ts = block_fn ? NULL : LLVMBuildAlloca(b, tji_ts_type(ctx), "ts");
    bool local = !kd->cooperative && kd->shared_bytes > 0 && kd->shared_bytes <= STACK_ARENA_MAX;
    LLVMValueRef arena = NULL; /* the block function reads its own (cooperative: not local) */
    if (local) {
        LLVMTypeRef at = LLVMArrayType2(tji_i8(ctx), kd->shared_bytes);
        arena = LLVMBuildAlloca(b, at, "shared");
        LLVMSetAlignment(arena, ARENA_ALIGN);
    } else if (!block_fn) {
        arena = load_worker_field(ctx, b, w, W_ARENA);
    }
    LLVMValueRef err = block_fn ? NULL : load_worker_field(ctx, b, w, W_ERR);
    bool coords = !block_fn && kd->block_width == 1 && kd->max_tid > 1;
    entry_coords ec;
    LLVMValueRef first[TJI_MAX_DIMS];
    if (coords)
        coords_begin(ctx, m, b, args, b0, first, &ec);
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef blk = LLVMBuildPhi(b, tji_i64(ctx), "block");
    for (int d = 0; coords && d < TJI_MAX_DIMS; d++)
        ec.at[d] = LLVMBuildPhi(b, tji_i32(ctx), "coord");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, blk, b1, ""), body, exit);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef fields[TJI_TS_LANE + 1] = {
        [TJI_TS_WORKER] = w, [TJI_TS_ARENA] = arena, [TJI_TS_ERR] = err,
        [TJI_TS_BLOCK] = blk, [TJI_TS_LANE] = lane,
    };
    if (local)
        lifetime(ctx, m, b, "llvm.lifetime.start", kd->shared_bytes, arena);
    if (block_fn) {
        LLVMValueRef cargs[] = {w, args, blk, lane};
        LLVMBuildCall2(b, LLVMGlobalGetValueType(block_fn), block_fn, cargs, 4, "");
    } else {
        tji_emit_entry_common(ctx, m, b, kd, ts, args, fields, coords ? ec.at : NULL);
    }
    if (local)
        lifetime(ctx, m, b, "llvm.lifetime.end", kd->shared_bytes, arena);
    LLVMValueRef next = LLVMBuildAdd(b, blk, tji_const_i64(ctx, 1), "");
    LLVMValueRef cnext[TJI_MAX_DIMS];
    if (coords)
        coords_next(ctx, b, &ec, cnext);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
    LLVMValueRef back = LLVMBuildBr(b, head);
    /* a block's code with its coordinates and no division is cheap enough for LLVM to
     * unroll the loop over blocks as well as copy it for a test the same for every block
     * (loop unswitching): the histogram seed's CPU build took 26 ms instead of 11 with both,
     * 16 with the copies only, and the probe of (16, 16) tiles ran no faster unrolled */
    if (coords)
        tji_keep_rolled(ctx, back);
    LLVMValueRef in_vals[] = {b0, next};
    LLVMBasicBlockRef in_bbs[] = {entry, latch};
    LLVMAddIncoming(blk, in_vals, in_bbs, 2);
    for (int d = 0; coords && d < TJI_MAX_DIMS; d++) {
        LLVMValueRef cv[] = {first[d], cnext[d]};
        LLVMAddIncoming(ec.at[d], cv, in_bbs, 2);
    }
    LLVMPositionBuilderAtEnd(b, exit);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
}

/* The fiber switch of a cooperative barrier: the worker's barrier function. */
static void
emit_fiber_barrier(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef w)
{
    LLVMValueRef fnp = load_worker_field(ctx, b, w, W_BARRIER);
    LLVMTypeRef pt = tji_ptr(ctx);
    LLVMBuildCall2(b, LLVMFunctionType(tji_void(ctx), &pt, 1, 0), fnp, &w, 1, "");
}

static void
define_barrier(tj_context *ctx, LLVMModuleRef m, bool cooperative)
{
    LLVMValueRef hook;
    LLVMBuilderRef b = tji_hook_begin(ctx, m, "tj.hook.barrier", &hook);
    if (!b)
        return;
    if (cooperative) {
        LLVMValueRef ts = LLVMGetParam(hook, 0);
        LLVMValueRef wp = LLVMBuildStructGEP2(b, tji_ts_type(ctx), ts, TJI_TS_WORKER, "");
        emit_fiber_barrier(ctx, b, LLVMBuildLoad2(b, tji_ptr(ctx), wp, ""));
    }
    LLVMBuildRetVoid(b);
    tji_hook_end(b, hook);
}

/* tj.hook.shfl_xor(ts, scratch, v, mask) without hardware shuffles: every lane writes its
 * word to scratch[2 lane + p], waits, and reads scratch[2 (lane ^ mask) + p]. Each lane's p
 * (TJI_TS_SHFL) alternates from one shuffle to the next, so one barrier a shuffle is
 * enough: a lane writes word p again only two shuffles later, after the barrier of the
 * shuffle between, which every lane reaches after its last read of word p. (Lanes run the
 * same shuffles, as on the GPU, so their p agree.) The caller puts a barrier after the last
 * shuffle of a run, before anything else writes the scratch (builtins/reduce.c). The area
 * has two words for each of a multiple of 32 lanes, so the partner's stay inside. */
/* &scratch[2 lane + p]: word p of 'lane' in the shuffle area. */
static LLVMValueRef
shuffle_word(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef scratch, LLVMValueRef lane,
             LLVMValueRef p)
{
    LLVMValueRef w = LLVMBuildOr(b, LLVMBuildShl(b, lane, tji_const_i32(ctx, 1), ""), p, "");
    return LLVMBuildGEP2(b, tji_i32(ctx), scratch, &w, 1, "");
}

static void
define_shuffle(tj_context *ctx, LLVMModuleRef m)
{
    LLVMValueRef hook;
    LLVMBuilderRef b = tji_hook_begin(ctx, m, "tj.hook.shfl_xor", &hook);
    if (!b)
        return;
    LLVMValueRef ts = LLVMGetParam(hook, 0), scratch = LLVMGetParam(hook, 1);
    LLVMValueRef lanep = LLVMBuildStructGEP2(b, tji_ts_type(ctx), ts, TJI_TS_LANE, "");
    LLVMValueRef lane = LLVMBuildLoad2(b, tji_i32(ctx), lanep, "");
    LLVMValueRef pp = LLVMBuildStructGEP2(b, tji_ts_type(ctx), ts, TJI_TS_SHFL, "");
    LLVMValueRef p = LLVMBuildLoad2(b, tji_i32(ctx), pp, "");
    LLVMBuildStore(b, LLVMBuildXor(b, p, tji_const_i32(ctx, 1), ""), pp);
    LLVMBuildStore(b, LLVMGetParam(hook, 2), shuffle_word(ctx, b, scratch, lane, p));
    LLVMValueRef bar = LLVMGetNamedFunction(m, "tj.hook.barrier");
    if (!bar) {
        LLVMTypeRef pt = tji_ptr(ctx);
        bar = LLVMAddFunction(m, "tj.hook.barrier", LLVMFunctionType(tji_void(ctx), &pt, 1, 0));
    }
    LLVMBuildCall2(b, LLVMGlobalGetValueType(bar), bar, &ts, 1, "");
    LLVMValueRef other = LLVMBuildXor(b, lane, LLVMGetParam(hook, 3), "");
    LLVMBuildRet(b, LLVMBuildLoad2(b, tji_i32(ctx), shuffle_word(ctx, b, scratch, other, p), ""));
    tji_hook_end(b, hook);
}

/* Frames of JIT code can be large (register tiles, the local shared memory of width-1
 * blocks) and small launches run on the caller's own stack: every function probes each
 * page of its frame as it grows it, so that an overflow hits the guard page instead of
 * jumping past it. */
static void
probe_stacks(tj_context *ctx, LLVMModuleRef m)
{
    static const char key[] = "probe-stack", value[] = "inline-asm";
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(ctx->llctx, key, sizeof key - 1,
                                                              value, sizeof value - 1));
}

/* About the stack one call of kernel 'self''s entry takes: the static allocas (register
 * tiles, the lane loops' copies, a local arena) of the entry and of every function that is
 * not another kernel's entry, each counted once, before optimisation merges or drops any.
 * An over-estimate, for the launcher's check of the stacks blocks run on. */
static size_t
frame_bytes(LLVMModuleRef m, const tji_kdesc *descs, int n, int self)
{
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
    size_t total = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        int entry = tji_entry_of(descs, n, fn);
        if (entry >= 0 && entry != self)
            continue; /* another kernel's entry (declarations have no blocks) */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
                 in = LLVMGetNextInstruction(in)) {
                if (LLVMGetInstructionOpcode(in) != LLVMAlloca)
                    continue;
                LLVMValueRef count = LLVMGetOperand(in, 0);
                if (!LLVMIsAConstantInt(count))
                    continue;
                total += (size_t)LLVMABISizeOfType(dl, LLVMGetAllocatedType(in)) *
                         (size_t)LLVMConstIntGetZExtValue(count);
            }
    }
    return total;
}

/* Whether every call of the barrier hook is in one of the block functions 'fns'. */
static bool
barriers_in(LLVMModuleRef m, LLVMValueRef const *fns, size_t n)
{
    LLVMValueRef hook = LLVMGetNamedFunction(m, "tj.hook.barrier");
    for (LLVMUseRef u = hook ? LLVMGetFirstUse(hook) : NULL; u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != hook)
            return false;
        LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
        bool ours = false;
        for (size_t i = 0; i < n; i++)
            ours |= fns[i] == f;
        if (!ours)
            return false;
    }
    return true;
}

/* The worker and the argument buffer, which a lane-loop entry or a width-1 entry only reads
 * and which nothing else it reaches can point into: noalias, so that their loads leave the
 * lane loops and the loop over blocks (LICM) whatever the loops store. A fiber entry passes
 * the worker to the barrier function, which writes it. */
static void
mark_invariant_params(tj_context *ctx, LLVMValueRef entry, const tji_kdesc *kd)
{
    static const char *const kinds[] = {"noalias", "nocapture", "readonly", "dereferenceable",
                                        "align"};
    /* the worker's fields that generated code reads (driver.h), and the argument buffer;
     * aligned so that their loads may be hoisted out of code that runs conditionally (the
     * launcher's buffer is 16-byte aligned: jit/launch.c) */
    const uint64_t bytes[2] = {3 * sizeof(void *), kd->args_bytes};
    const uint64_t align[2] = {_Alignof(void *), 16};
    for (unsigned p = 0; p < 2; p++)
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(kinds[i], strlen(kinds[i]));
            uint64_t value = strcmp(kinds[i], "dereferenceable") == 0 ? bytes[p]
                             : strcmp(kinds[i], "align") == 0       ? align[p]
                                                                    : 0;
            LLVMAddAttributeAtIndex(entry, p + 1,
                                    LLVMCreateEnumAttribute(ctx->llctx, kind, value));
        }
}

/* A lane-loop block function runs all of a block's lanes in one call: its shared memory of
 * at most STACK_ARENA_MAX bytes can then be a local array of it, live for the call, as in
 * width-1 mode, instead of the worker's arena. LLVM then drops the stores into it that
 * nothing reads (a tile assigned and stored by the same lanes, builtins/memory.c).
 * alias_scopes.c knows the array by its name, as it knew the arena's load. */
static void
local_arena(tj_context *ctx, LLVMModuleRef m, LLVMValueRef fn, size_t bytes)
{
    if (bytes == 0 || bytes > STACK_ARENA_MAX)
        return;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMValueRef arena = NULL;
    size_t want = strlen(TJI_ARENA_NAME);
    /* every load of the worker's arena (make_block_fn's, or copies of it) */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
            next = LLVMGetNextInstruction(in);
            size_t len;
            const char *name = LLVMGetValueName2(in, &len);
            if (!LLVMIsALoadInst(in) || len < want || memcmp(name, TJI_ARENA_NAME, want) != 0)
                continue;
            if (!arena) {
                LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
                arena = LLVMBuildAlloca(b, LLVMArrayType2(tji_i8(ctx), bytes), "");
                LLVMSetAlignment(arena, ARENA_ALIGN);
                lifetime(ctx, m, b, "llvm.lifetime.start", bytes, arena);
            }
            LLVMReplaceAllUsesWith(in, arena);
            LLVMInstructionEraseFromParent(in);
        }
    if (arena) {
        LLVMSetValueName2(arena, TJI_ARENA_NAME, want);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef r = LLVMGetBasicBlockTerminator(bb);
            if (r && LLVMGetInstructionOpcode(r) == LLVMRet) {
                LLVMPositionBuilderBefore(b, r);
                lifetime(ctx, m, b, "llvm.lifetime.end", bytes, arena);
            }
        }
    }
    LLVMDisposeBuilder(b);
}

/* A partial block starts with its shared memory cleared: fn (a block function) first runs
 * if (n - block * B < B) memset(arena, 0, bytes), where n is the launch's thread count
 * (the argument buffer's first field). Builtins read elements of other lanes from shared
 * memory, and in a partial block those of the lanes that do not run hold what an earlier
 * block left, or nothing (the local array of a lane-loop block is new for each block).
 * The reads are harmless, the values discarded (an axis reduce folds an element only when
 * its lane runs), but their bytes were undefined, and machine code may branch on them
 * before discarding them (x86's cmov conversion turns a min into a branch): valgrind
 * reported it. Zero bytes keep a CPU launch's results a function of its inputs. 'lane0':
 * fn runs once for each lane (fibers), and lane 0, which starts the block before any other
 * lane runs, clears it; lane loops run fn once for the block. Before local_arena, which
 * turns the worker's arena that the memset clears into the local array. The test joins
 * a new entry block, which takes the old one's allocas, so that they stay static. */
static void
clear_partial_arena(tj_context *ctx, LLVMValueRef fn, const tji_kdesc *kd, bool lane0)
{
    if (kd->shared_bytes == 0)
        return;
    LLVMBasicBlockRef old = LLVMGetEntryBasicBlock(fn);
    LLVMBasicBlockRef top = LLVMInsertBasicBlockInContext(ctx->llctx, old, "arena.test");
    LLVMBasicBlockRef clear = LLVMInsertBasicBlockInContext(ctx->llctx, old, "arena.clear");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMPositionBuilderAtEnd(b, top);
    for (LLVMValueRef in = LLVMGetFirstInstruction(old), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (!LLVMIsAAllocaInst(in))
            continue;
        size_t len;
        const char *s = LLVMGetValueName2(in, &len);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        LLVMInstructionRemoveFromParent(in);
        LLVMInsertIntoBuilderWithName(b, in, name);
    }
    LLVMValueRef n = LLVMBuildLoad2(b, tji_i64(ctx), LLVMGetParam(fn, 1), "n");
    LLVMValueRef B = tji_const_i64(ctx, kd->block_width);
    LLVMValueRef left = LLVMBuildSub(b, n, LLVMBuildMul(b, LLVMGetParam(fn, 2), B, ""), "");
    LLVMValueRef partial = LLVMBuildICmp(b, LLVMIntULT, left, B, "block.partial");
    if (lane0)
        partial = LLVMBuildAnd(b, partial, LLVMBuildICmp(b, LLVMIntEQ, LLVMGetParam(fn, 3),
                                                         tji_const_i32(ctx, 0), ""), "");
    LLVMBuildCondBr(b, partial, clear, old);
    LLVMPositionBuilderAtEnd(b, clear);
    LLVMValueRef arena = load_worker_field(ctx, b, LLVMGetParam(fn, 0), W_ARENA);
    LLVMBuildMemSet(b, arena, LLVMConstInt(tji_i8(ctx), 0, 0),
                    tji_const_i64(ctx, (int64_t)kd->shared_bytes), ARENA_ALIGN);
    LLVMBuildBr(b, old);
    LLVMDisposeBuilder(b);
}

/* Cooperative blocks as loops over their lanes (lane_loops.c). The bodies and one-block
 * hooks are already inlined into the block functions. Where every barrier is in them, each
 * barrier call becomes a call of a marker of its own function; scalar replacement then
 * gives the lanes' values as SSA values, and tji_lane_loops runs the function's lanes in
 * turn between the markers. A function it cannot take keeps fibers: its markers become
 * fiber switches.
 * Either way the block function then moves into its entry. */
static tj_status
lower_lanes(tj_context *ctx, LLVMModuleRef m, LLVMValueRef const *fns, size_t n,
            tji_kdesc *descs, LLVMTargetMachineRef tm)
{
    LLVMValueRef hook = LLVMGetNamedFunction(m, "tj.hook.barrier");
    LLVMValueRef *marks = calloc(n + 1, sizeof *marks);
    if (!marks)
        return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    bool try = !ctx->cpu_fibers && barriers_in(m, fns, n);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (size_t i = 0; try && i < n; i++) {
        if (!fns[i])
            continue;
        char name[64];
        snprintf(name, sizeof name, "tj.lanes.barrier.%zu", i);
        marks[i] = LLVMAddFunction(m, name, LLVMFunctionType(tji_void(ctx), NULL, 0, 0));
        tji_add_fn_attr(ctx, marks[i], "convergent");
        for (LLVMUseRef u = hook ? LLVMGetFirstUse(hook) : NULL, next; u; u = next) {
            next = LLVMGetNextUse(u);
            LLVMValueRef call = LLVMGetUser(u);
            if (LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) != fns[i])
                continue;
            LLVMPositionBuilderBefore(b, call);
            LLVMValueRef mark =
                LLVMBuildCall2(b, LLVMGlobalGetValueType(marks[i]), marks[i], NULL, 0, "");
            if (tji_is_sinkable_barrier(call))
                tji_mark_sinkable_barrier(ctx, mark);
            LLVMInstructionEraseFromParent(call);
        }
    }
    tj_status st = TJ_OK;
    if (try) {
        st = tji_run_pipeline(ctx, m, tm, "function(sroa<modify-cfg>)",
                              "scalar replacement before the lane loops");
    }
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (size_t i = 0; i < n; i++) {
        if (!fns[i])
            continue;
        if (st == TJ_OK && marks[i]) {
            tji_sink_barriers(ctx, fns[i], marks[i]);
            descs[i].lane_loops = tji_lane_loops(ctx, fns[i], marks[i], descs[i].block_width);
        }
        clear_partial_arena(ctx, fns[i], &descs[i], !descs[i].lane_loops);
        if (descs[i].lane_loops) {
            mark_invariant_params(ctx, LLVMGetNamedFunction(m, descs[i].entry), &descs[i]);
            local_arena(ctx, m, fns[i], descs[i].shared_bytes);
        }
        /* Markers left (it could not take the function): fiber switches. */
        for (LLVMUseRef u = marks[i] ? LLVMGetFirstUse(marks[i]) : NULL, next; u; u = next) {
            next = LLVMGetNextUse(u);
            LLVMValueRef call = LLVMGetUser(u);
            LLVMPositionBuilderBefore(b, call);
            emit_fiber_barrier(ctx, b, LLVMGetParam(fns[i], 0));
            LLVMInstructionEraseFromParent(call);
        }
        if (marks[i])
            LLVMDeleteFunction(marks[i]);
        LLVMRemoveEnumAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, noinline);
        if (tji_splice_call(fns[i])) /* its one call, from its entry */
            LLVMDeleteFunction(fns[i]);
    }
    LLVMDisposeBuilder(b);
    free(marks);
    return st;
}

/* Half-precision min and max in float. x86 has no half min or max below AVX512-FP16, and
 * LLVM 19 lowers llvm.minnum.f16 and llvm.maxnum.f16 (and their vectors, element by
 * element) to calls of libm's fminf and fmaxf: eight calls for a vector of eight, where
 * float gets one vminps and a blend. The calls also branch on their arguments, which
 * valgrind reported where LLVM computes a min before the test that discards it (the GPU's
 * butterfly run on the CPU, reading a partner's not yet written word). In float the result
 * is the same: extending a half is exact, and the min or max of two values is one of them,
 * so truncating it back is exact too (a NaN stays a NaN). After the pipeline: InstCombine
 * folds the widened form back into the half one. */
static void
widen_half_minmax(tj_context *ctx, LLVMModuleRef m)
{
    const unsigned ids[] = {LLVMLookupIntrinsicID("llvm.minnum", 11),
                            LLVMLookupIntrinsicID("llvm.maxnum", 11)};
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMTypeRef half = LLVMHalfTypeInContext(ctx->llctx);
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        unsigned id = LLVMGetIntrinsicID(f);
        LLVMTypeRef ty = LLVMGetReturnType(LLVMGlobalGetValueType(f));
        bool vec = LLVMGetTypeKind(ty) == LLVMVectorTypeKind;
        if ((id != ids[0] && id != ids[1]) || (vec ? LLVMGetElementType(ty) : ty) != half)
            continue;
        LLVMTypeRef wide = vec ? LLVMVectorType(LLVMFloatTypeInContext(ctx->llctx),
                                                LLVMGetVectorSize(ty))
                               : LLVMFloatTypeInContext(ctx->llctx);
        for (LLVMUseRef u = LLVMGetFirstUse(f), unext; u; u = unext) {
            unext = LLVMGetNextUse(u);
            LLVMValueRef call = LLVMGetUser(u);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f)
                continue;
            LLVMPositionBuilderBefore(b, call);
            LLVMValueRef args[] = {LLVMBuildFPExt(b, LLVMGetOperand(call, 0), wide, ""),
                                   LLVMBuildFPExt(b, LLVMGetOperand(call, 1), wide, "")};
            LLVMValueRef r = tji_build_intrinsic(m, b, id, &wide, 1, args, 2);
            LLVMSetFastMathFlags(r, LLVMGetFastMathFlags(call));
            LLVMReplaceAllUsesWith(call, LLVMBuildFPTrunc(b, r, ty, ""));
            LLVMInstructionEraseFromParent(call);
        }
        if (!LLVMGetFirstUse(f))
            LLVMDeleteFunction(f);
    }
    LLVMDisposeBuilder(b);
}

static tj_status
lower(tj_context *ctx, LLVMModuleRef m, tj_kernel *const *ks, size_t n, tji_kdesc *descs,
      LLVMTargetMachineRef tm)
{
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    bool coop = n > 0 && ks[0]->opts.cpu_mode == TJ_CPU_COOPERATIVE;
    LLVMValueRef *fns = calloc(n + 1, sizeof *fns);
    if (!fns)
        return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    for (size_t i = 0; i < n; i++) {
        if (coop && descs[i].block_width > 1)
            fns[i] = make_block_fn(ctx, m, &descs[i]);
        make_entry(ctx, m, &descs[i], fns[i]);
    }
    define_shuffle(ctx, m); /* first: it may call the barrier hook */
    tj_status st = TJ_OK;
    if (coop) {
        /* Each body moves into its block function (they are internal only after lowering,
         * so tji_inline_simple leaves them), and the barrier hook stays a declaration
         * until the lane loops are made. */
        for (size_t i = 0; i < n; i++) {
            char body[256];
            snprintf(body, sizeof body, TJI_BODY_PREFIX "%s", descs[i].name);
            LLVMValueRef fn = fns[i] ? LLVMGetNamedFunction(m, body) : NULL;
            if (fn && tji_splice_call(fn))
                LLVMDeleteFunction(fn);
        }
        tji_inline_simple(ctx, m);
        st = lower_lanes(ctx, m, fns, n, descs, tm);
        define_barrier(ctx, m, true);
    } else {
        define_barrier(ctx, m, false);
        tji_inline_simple(ctx, m);
        /* Width-1 entries run their blocks in a loop: the argument block's loads leave it. */
        for (size_t i = 0; i < n; i++)
            mark_invariant_params(ctx, LLVMGetNamedFunction(m, descs[i].entry), &descs[i]);
    }
    free(fns);
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef entry = LLVMGetNamedFunction(m, descs[i].entry);
        tji_scope_memory(ctx, entry);
        if (descs[i].lane_loops)
            tji_mark_lane_loads(ctx, entry); /* after the scopes, which it adds to */
    }
    for (size_t i = 0; i < n; i++)
        descs[i].frame_bytes = frame_bytes(m, descs, (int)n, (int)i);
    probe_stacks(ctx, m);
    tji_rename_math(m, "");
    return st;
}

/* After the pipeline: copies into the entry's local arrays (width-1 shared memory, register
 * tiles) move into the branch that reads them (sink_copies.c); a tile computed into a local
 * array and copied out whole gets a path that stores it straight to the array, taken where a
 * run-time test allows (direct_stores.c); loops of pushes and of the
 * lanes' pops get vector loops (compress_push.c, serial_pops.c); lanes whose loop only
 * scatter-adds integers take turns at each trip (interchange.c); lanes folding or copying
 * the rows of a tile read them one after the other (row_order.c); long chains of one
 * reassociable operation become trees (balance.c); a cast's result tested against a range
 * takes that test before its own (range_first.c); the array loads of lanes' loops prefetch
 * a few steps ahead (prefetch.c). */
static tj_status
finish(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, int n, LLVMTargetMachineRef tm)
{
    (void)tm;
    tji_sink_local_copies(m);
    tji_direct_tile_stores(m);
    tji_compress_pushes(ctx, m);
    tji_vectorise_pops(ctx, m);
    tji_interchange_lanes(ctx, m);
    tji_row_order(ctx, m);
    tji_balance_chains(m);
    tji_range_first(ctx, m);
    tji_prefetch_lane_loads(ctx, m, descs, n);
    widen_half_minmax(ctx, m);
    return TJ_OK;
}

const tji_target tji_target_host = {
    .name = "host",
    .kind = TJ_TARGET_CPU,
    .lower = lower,
    .finish = finish,
};
