/*
 * jit/prefetch.c: software prefetches for the array loads of a cooperative block's lanes'
 * loops (CPU): marked before the pipeline, prefetched after it.
 *
 * A cooperative block runs its code a phase at a time, each phase a loop over its lanes
 * (lane_loops.c), and a user's loop over a block's elements (a compaction's
 * 'for j in range(0, items, block_dim)') reads one step of them in the phase that loads,
 * then runs its other phases (the pushes) before the next step's loads. From memory the
 * hardware prefetchers do not run far enough ahead across those gaps: on AMD Zen 3 the
 * bench's cooperative compaction read x at about 5 GB/s on 64 MiB (0.75-0.81 of C) and
 * beat C on 4 MiB, from L3 (1.16-1.19). A vector load that came from a lanes' loop, from
 * memory that is not the block's own (not an alloca: an array), gets a prefetch of the
 * address PREFETCH_STEPS steps of W lanes ahead, where the user's loop will read when its
 * address moves with the steps, as it does in a loop over the block's elements (and is only
 * a hint where it does not: a prefetch never faults).
 *
 * "Came from a lanes' loop": LLVM may write such a loop out in one block (on a Zen 4 with
 * 512-bit vectors, the compaction's 256 lanes are 16 vectors, and its loop is gone after the
 * pipeline), so the loads are marked before the pipeline, while the loops are still there
 * (tji_mark_lane_loads). The mark is a scope of the loads' alias.scope list, in a domain of
 * its own that no access's noalias list names, so that it tells LLVM nothing; alias lists
 * are what LLVM's loop vectoriser and unroller carry over to the loads they make, which
 * metadata of a kind of our own is not. The loads that row_order.c makes after the
 * pipeline (the bench's sum and copy) are not marked, and the lanes' turns of interchange.c
 * (its histogram) load scalars: those stream in order already, and prefetches there cost
 * the cooperative sum 0.85 -> 0.70 of C and the copy 0.91 -> 0.76-0.81 on the Zen 4
 * ("2026-12-07 (third session)" in bench/RESULTS.md).
 * Width-1 kernels have no lanes' loops. TILEJIT_CPU_PREFETCH=off, read when a context is
 * created, leaves the prefetches out (to measure).
 */
#include <stdlib.h>

#include "internal.h"

enum {
    PREFETCH_STEPS = 4,        /* steps of the user's loop ahead (measured for the bench's
                                  compaction: 1, 4 and 16 KiB on a Zen 3; 2, 4 and 8 KiB on a
                                  Zen 4) */
    MIN_AHEAD = 1024,          /* bytes */
    MAX_AHEAD = 32 * 1024,
};

/* The scope that marks a lanes' load, in its domain of its own. */
static LLVMMetadataRef
lanes_scope(LLVMContextRef c)
{
    static const char domain[] = "tilejit lanes' loads", name[] = "tilejit lanes' load";
    LLVMMetadataRef d = LLVMMDStringInContext2(c, domain, sizeof domain - 1);
    LLVMMetadataRef ops[] = {LLVMMDStringInContext2(c, name, sizeof name - 1),
                             LLVMMDNodeInContext2(c, &d, 1)};
    return LLVMMDNodeInContext2(c, ops, 2);
}

/* Whether 'ld' is a plain load from memory that is not an alloca, in address space 0 (the
 * prefetch's); a vector load when 'vector'. */
static bool
array_load(LLVMValueRef ld, bool vector)
{
    if (!LLVMIsALoadInst(ld) || LLVMGetVolatile(ld) ||
        LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        (vector && LLVMGetTypeKind(LLVMTypeOf(ld)) != LLVMVectorTypeKind) ||
        LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(ld, 0))) != 0)
        return false;
    LLVMValueRef base = tji_pointer_base(LLVMGetOperand(ld, 0));
    return base && !LLVMIsAAllocaInst(base);
}

/* The alias.scope list of 'ld' into 'ops' (room for 16); how many, -1 for a longer list
 * (tilejit never makes one: such a load is neither marked nor taken as marked). */
static int
scope_list(unsigned kind, LLVMValueRef ld, LLVMValueRef ops[16])
{
    LLVMValueRef list = LLVMGetMetadata(ld, kind);
    unsigned n = list ? LLVMGetMDNodeNumOperands(list) : 0;
    if (n > 16)
        return -1;
    if (n)
        LLVMGetMDNodeOperands(list, ops);
    return (int)n;
}

/* Whether the alias.scope list of 'ld' holds 'scope'. */
static bool
marked(LLVMContextRef c, unsigned kind, LLVMValueRef ld, LLVMMetadataRef scope)
{
    LLVMValueRef ops[16], want = LLVMMetadataAsValue(c, scope);
    int n = scope_list(kind, ld, ops);
    for (int i = 0; i < n; i++)
        if (ops[i] == want)
            return true;
    return false;
}

/* Adds 'scope' to the alias.scope list of 'ld', unless it holds it already or 16 scopes. */
static void
mark(LLVMContextRef c, unsigned kind, LLVMValueRef ld, LLVMMetadataRef scope)
{
    LLVMValueRef ops[16], want = LLVMMetadataAsValue(c, scope);
    int n = scope_list(kind, ld, ops);
    if (n < 0 || n == 16)
        return;
    LLVMMetadataRef mds[17];
    for (int i = 0; i < n; i++) {
        if (ops[i] == want)
            return;
        mds[i] = LLVMValueAsMetadata(ops[i]);
    }
    mds[n] = scope;
    LLVMSetMetadata(ld, kind,
                    LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, mds, (size_t)n + 1)));
}

/* The blocks of the loop closed by 'latch' (its head first: the latch's first successor,
 * as tji_mark_lane_loop's loops have it): those that reach the latch without passing the
 * head, found backwards through the branches, into 'out' (room for every block of 'fn').
 * How many, or 0 where the walk reaches the function's entry (no loop of that head) or runs
 * out of memory. */
static int
loop_blocks(LLVMValueRef fn, LLVMBasicBlockRef latch, LLVMBasicBlockRef *out, size_t room)
{
    LLVMBasicBlockRef head = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(latch), 0);
    tji_vmap seen = {0};
    int n = 0;
    if (!tji_vmap_init(&seen, room))
        goto fail;
    out[n++] = head;
    tji_vmap_put(&seen, LLVMBasicBlockAsValue(head), LLVMBasicBlockAsValue(head));
    if (latch != head) {
        out[n++] = latch;
        tji_vmap_put(&seen, LLVMBasicBlockAsValue(latch), LLVMBasicBlockAsValue(latch));
    }
    for (int next = 1; next < n; next++) {
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(out[next])); u;
             u = LLVMGetNextUse(u)) {
            LLVMValueRef t = LLVMGetUser(u);
            if (!LLVMIsATerminatorInst(t))
                continue;
            LLVMBasicBlockRef pred = LLVMGetInstructionParent(t);
            LLVMValueRef pv = LLVMBasicBlockAsValue(pred);
            if (tji_vmap_has(&seen, pv))
                continue;
            if (pred == LLVMGetEntryBasicBlock(fn) || (size_t)n == room)
                goto fail;
            tji_vmap_put(&seen, pv, pv);
            out[n++] = pred;
        }
    }
    tji_vmap_free(&seen);
    return n;
fail:
    tji_vmap_free(&seen);
    return 0;
}

void
tji_mark_lane_loads(tj_context *ctx, LLVMValueRef fn)
{
    if (ctx->cpu_no_prefetch || !fn)
        return;
    LLVMContextRef c = ctx->llctx;
    LLVMBasicBlockRef latches[64];
    int nl = tji_lane_loop_latches(ctx, fn, latches, 64);
    size_t room = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *loop = nl ? malloc(room * sizeof *loop) : NULL;
    if (!loop)
        return; /* no lanes' loops, or no memory: no prefetches */
    unsigned kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    LLVMMetadataRef scope = lanes_scope(c);
    for (int l = 0; l < nl; l++) {
        int n = loop_blocks(fn, latches[l], loop, room);
        for (int i = 0; i < n; i++)
            for (LLVMValueRef in = LLVMGetFirstInstruction(loop[i]); in;
                 in = LLVMGetNextInstruction(in))
                if (array_load(in, false))
                    mark(c, kind, in, scope);
    }
    free(loop);
}

int
tji_prefetch_lane_loads(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, int n)
{
    if (ctx->cpu_no_prefetch)
        return 0;
    LLVMContextRef c = ctx->llctx;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0), i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    unsigned id = LLVMLookupIntrinsicID("llvm.prefetch", 13);
    unsigned kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    LLVMMetadataRef scope = lanes_scope(c);
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    int done = 0;
    for (int k = 0; k < n; k++) {
        LLVMValueRef fn = descs[k].lane_loops ? LLVMGetNamedFunction(m, descs[k].entry) : NULL;
        unsigned long long lanes = descs[k].block_width;
        for (LLVMBasicBlockRef bb = fn ? LLVMGetFirstBasicBlock(fn) : NULL; bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
                 in = LLVMGetNextInstruction(in)) {
                if (!array_load(in, true) || !marked(c, kind, in, scope))
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
    LLVMDisposeBuilder(b);
    return done;
}
