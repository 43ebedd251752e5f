/*
 * jit/target_host.c: the host CPU target. Lowers a linked kernel module to one entry per
 * kernel with the signature of tji_cpu_entry (driver.h): it loops over its range of blocks
 * for one lane. The barrier hook is empty in width-1 mode and calls the worker's barrier
 * (a fiber switch) in cooperative mode. Math calls become libm calls, bound as absolute
 * symbols in the JIT (cache.c).
 */
#include <stdio.h>
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
    return LLVMBuildLoad2(b, tji_ptr(ctx), p, "");
}

/* void entry(ptr w, ptr args, i64 b0, i64 b1, i32 lane): for b in [b0, b1) run the body. */
static void
make_entry(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *kd)
{
    LLVMTypeRef tys[] = {tji_ptr(ctx), tji_ptr(ctx), tji_i64(ctx), tji_i64(ctx), tji_i32(ctx)};
    LLVMValueRef fn = LLVMAddFunction(m, kd->entry, LLVMFunctionType(tji_void(ctx), tys, 5, 0));
    LLVMValueRef w = LLVMGetParam(fn, 0), args = LLVMGetParam(fn, 1);
    LLVMValueRef b0 = LLVMGetParam(fn, 2), b1 = LLVMGetParam(fn, 3), lane = LLVMGetParam(fn, 4);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "entry");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "body");
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(ctx->llctx, fn, "exit");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef ts = LLVMBuildAlloca(b, tji_ts_type(ctx), "ts");
    bool local = !kd->cooperative && kd->shared_bytes > 0 && kd->shared_bytes <= STACK_ARENA_MAX;
    LLVMValueRef arena;
    if (local) {
        LLVMTypeRef at = LLVMArrayType2(tji_i8(ctx), kd->shared_bytes);
        arena = LLVMBuildAlloca(b, at, "shared");
        LLVMSetAlignment(arena, ARENA_ALIGN);
    } else {
        arena = load_worker_field(ctx, b, w, W_ARENA);
    }
    LLVMValueRef err = load_worker_field(ctx, b, w, W_ERR);
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef blk = LLVMBuildPhi(b, tji_i64(ctx), "block");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, blk, b1, ""), body, exit);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef fields[TJI_TS_LANE + 1] = {
        [TJI_TS_WORKER] = w, [TJI_TS_ARENA] = arena, [TJI_TS_ERR] = err,
        [TJI_TS_BLOCK] = blk, [TJI_TS_LANE] = lane,
    };
    if (local)
        lifetime(ctx, m, b, "llvm.lifetime.start", kd->shared_bytes, arena);
    tji_emit_entry_common(ctx, m, b, kd, ts, args, fields);
    if (local)
        lifetime(ctx, m, b, "llvm.lifetime.end", kd->shared_bytes, arena);
    LLVMValueRef next = LLVMBuildAdd(b, blk, tji_const_i64(ctx, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
    LLVMBuildBr(b, head);
    LLVMValueRef in_vals[] = {b0, next};
    LLVMBasicBlockRef in_bbs[] = {entry, latch};
    LLVMAddIncoming(blk, in_vals, in_bbs, 2);
    LLVMPositionBuilderAtEnd(b, exit);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
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
        LLVMValueRef w = LLVMBuildLoad2(b, tji_ptr(ctx), wp, "");
        LLVMValueRef fnp = load_worker_field(ctx, b, w, W_BARRIER);
        LLVMTypeRef pt = tji_ptr(ctx);
        LLVMBuildCall2(b, LLVMFunctionType(tji_void(ctx), &pt, 1, 0), fnp, &w, 1, "");
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
    for (size_t i = 0; i < n; i++)
        make_entry(ctx, m, &descs[i]);
    probe_stacks(ctx, m);
    define_shuffle(ctx, m); /* first: it may call the barrier hook */
    define_barrier(ctx, m, n > 0 && ks[0]->opts.cpu_mode == TJ_CPU_COOPERATIVE);
    tji_inline_simple(ctx, m);
    tji_rename_math(m, "");
    return TJ_OK;
}

/* After the pipeline: copies into the entry's local arrays (width-1 shared memory, register
 * tiles) move into the branch that reads them (sink_copies.c). */
static tj_status
finish(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, int n, LLVMTargetMachineRef tm)
{
    (void)descs, (void)n, (void)tm;
    tji_sink_local_copies(m);
    tji_compress_pushes(ctx, m);
    return TJ_OK;
}

const tji_target tji_target_host = {
    .name = "host",
    .kind = TJ_TARGET_CPU,
    .lower = lower,
    .finish = finish,
};
