/*
 * jit/prefetch.c: software prefetches for the array loads of a cooperative block's lanes'
 * loops (CPU, after the pipeline).
 *
 * A cooperative block runs its code a phase at a time, each phase a loop over its lanes
 * (lane_loops.c), and a user's loop over a block's elements (a compaction's
 * 'for j in range(0, items, block_dim)') reads one step of them in the phase that loads,
 * then runs its other phases (the pushes) before the next step's loads. From memory the
 * hardware prefetchers do not run far enough ahead across those gaps: on AMD Zen 3 the
 * bench's cooperative compaction read x at about 5 GB/s on 64 MiB (0.75-0.81 of C) and
 * beat C on 4 MiB, from L3 (1.16-1.19). A vector load in a lanes' loop (one block, its
 * latch 'next == W') from memory that is not the block's own (not an alloca: an array)
 * gets a prefetch of the address PREFETCH_STEPS steps of W lanes ahead, where the user's
 * loop will read when its address moves with the steps, as it does in a loop over the
 * block's elements (and is only a hint where it does not: a prefetch never faults). Such
 * loads are rare outside those phases: the bench's sum, copy and histogram have none left
 * after row_order.c and interchange.c, and width-1 kernels have no lanes' loops.
 * TILEJIT_CPU_PREFETCH=off, read when a context is created, leaves them out (to measure).
 */
#include "internal.h"

enum {
    PREFETCH_STEPS = 4,        /* steps of the user's loop ahead (measured: 1, 4, 16 KiB) */
    MIN_AHEAD = 1024,          /* bytes */
    MAX_AHEAD = 32 * 1024,
};

/* The lanes of loop 'bb' (a lanes' loop of one block: its latch 'icmp eq next, W' back to
 * itself), or 0. */
static unsigned long long
lanes_of(LLVMBasicBlockRef bb)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (!br || !LLVMIsConditional(br) ||
        (LLVMGetSuccessor(br, 0) != bb && LLVMGetSuccessor(br, 1) != bb))
        return 0;
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cmp) || !LLVMIsAConstantInt(LLVMGetOperand(cmp, 1)))
        return 0;
    return LLVMConstIntGetZExtValue(LLVMGetOperand(cmp, 1));
}

/* Whether 'ld' is a plain vector load from memory that is not an alloca (in address space
 * 0, the prefetch's). */
static bool
array_load(LLVMValueRef ld)
{
    if (!LLVMIsALoadInst(ld) || LLVMGetVolatile(ld) ||
        LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        LLVMGetTypeKind(LLVMTypeOf(ld)) != LLVMVectorTypeKind ||
        LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(ld, 0))) != 0)
        return false;
    LLVMValueRef base = tji_pointer_base(LLVMGetOperand(ld, 0));
    return base && !LLVMIsAAllocaInst(base);
}

int
tji_prefetch_lane_loads(tj_context *ctx, LLVMModuleRef m)
{
    if (ctx->cpu_no_prefetch)
        return 0;
    LLVMContextRef c = ctx->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMBasicBlockRef found[64];
        int n = tji_lane_loop_latches(ctx, fn, found, 64);
        for (int i = 0; i < n; i++) {
            unsigned long long lanes = lanes_of(found[i]);
            for (LLVMValueRef in = LLVMGetFirstInstruction(found[i]); lanes && in;
                 in = LLVMGetNextInstruction(in)) {
                if (!array_load(in))
                    continue;
                LLVMTypeRef elem = LLVMGetElementType(LLVMTypeOf(in));
                unsigned long long ahead = PREFETCH_STEPS * lanes * LLVMABISizeOfType(dl, elem);
                ahead = ahead < MIN_AHEAD ? MIN_AHEAD : ahead > MAX_AHEAD ? MAX_AHEAD : ahead;
                LLVMPositionBuilderBefore(b, in);
                LLVMValueRef off = LLVMConstInt(i64, ahead, 0);
                /* read, keep in every cache level, data */
                LLVMValueRef args[] = {LLVMBuildGEP2(b, i8, LLVMGetOperand(in, 0), &off, 1, ""),
                                       LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 3, 0),
                                       LLVMConstInt(i32, 1, 0)};
                tji_build_intrinsic(m, b, id, &ptr, 1, args, 4);
                done++;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return done;
}
