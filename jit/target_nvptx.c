/*
 * jit/target_nvptx.c: the NVPTX target. Lowers a linked kernel module for the GPU: one
 * ptx_kernel entry per kernel (reading %ctaid.x and %tid.x), the hook bodies (barrier),
 * the block's dynamic shared memory and the kernel-error record as globals, and math calls
 * resolved to libdevice. No CUDA driver calls here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Transforms/PassBuilder.h>

#include "internal.h"

#define SMEM_NAME "__tj_smem"
#define ERR_NAME "__tj_err"

/* Calls the intrinsic 'name' that takes no arguments (special registers, barriers). */
static LLVMValueRef
call0(LLVMModuleRef m, LLVMBuilderRef b, const char *name)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, NULL, 0, "");
}

static LLVMTypeRef
slot_type(tj_context *ctx, const tji_slot *s)
{
    if (!s->dtype)
        return tji_ptr(ctx);
    return s->dtype == TJ_DTYPE_BOOL ? tji_i8(ctx) : tji_dtype_llvm(ctx, s->dtype);
}

/* Moves the body of kernel 'kd' into its entry, in place of the one call to it: what the
 * inliner would do, without cloning the body. A body with any other use is left to the
 * inliner. */
static void
splice_body(LLVMModuleRef m, const tji_kdesc *kd)
{
    char sym[256];
    snprintf(sym, sizeof sym, TJI_BODY_PREFIX "%s", kd->name);
    LLVMValueRef body = LLVMGetNamedFunction(m, sym);
    if (body && !LLVMIsDeclaration(body) && tji_splice_call(body))
        LLVMDeleteFunction(body);
}

/* Whether 'in', an access at byte 'off' of the entry's argument block, is a load of
 * parameter slot 'off' with the parameter's type, or the entry's store of that parameter;
 * with 'rewrite', replaces the load with the parameter, or drops the store. */
static bool
forward_access(LLVMValueRef fn, const tji_kdesc *kd, LLVMValueRef in, LLVMValueRef addr,
               int64_t off, bool rewrite)
{
    int i = 0;
    while (i < kd->nslots && (int64_t)kd->slots[i].offset != off)
        i++;
    if (i == kd->nslots)
        return false;
    LLVMValueRef param = LLVMGetParam(fn, (unsigned)i);
    if (LLVMIsALoadInst(in) && LLVMTypeOf(in) == LLVMTypeOf(param) &&
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(in)) == fn) {
        if (rewrite)
            LLVMReplaceAllUsesWith(in, param);
    } else if (!LLVMIsAStoreInst(in) || LLVMGetOperand(in, 0) != param ||
               LLVMGetOperand(in, 1) != addr) {
        return false;
    }
    if (rewrite)
        LLVMInstructionEraseFromParent(in);
    return true;
}

/* Walks every access to 'args' (itself or a GEP of i8 at a constant index), checking or,
 * with 'rewrite', forwarding each (forward_access). */
static bool
forward_all(LLVMValueRef fn, const tji_kdesc *kd, LLVMValueRef args, bool rewrite)
{
    for (LLVMUseRef u = LLVMGetFirstUse(args), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAGetElementPtrInst(user)) {
            if (!forward_access(fn, kd, user, args, 0, rewrite))
                return false;
            continue;
        }
        LLVMValueRef idx = LLVMGetNumOperands(user) == 2 ? LLVMGetOperand(user, 1) : NULL;
        if (LLVMGetOperand(user, 0) != args || LLVMGetGEPSourceElementType(user) !=
                                                   LLVMInt8TypeInContext(LLVMGetTypeContext(
                                                       LLVMTypeOf(args))) ||
            !idx || !LLVMIsAConstantInt(idx))
            return false;
        int64_t off = LLVMConstIntGetSExtValue(idx);
        for (LLVMUseRef g = LLVMGetFirstUse(user), gnext; g; g = gnext) {
            gnext = LLVMGetNextUse(g);
            if (!forward_access(fn, kd, LLVMGetUser(g), user, off, rewrite))
                return false;
        }
        if (rewrite)
            LLVMInstructionEraseFromParent(user);
    }
    return true;
}

/* The entry stores the kernel's parameters into an argument block and reads them back for
 * the body (tji_emit_entry_common, shared with the CPU, whose entries get a pointer to
 * such a block). When those are its only uses, each read becomes the parameter it reads
 * and the block goes: scalar replacement no longer has to take it apart. */
static void
forward_args(LLVMValueRef fn, const tji_kdesc *kd, LLVMValueRef args)
{
    if (forward_all(fn, kd, args, false)) {
        forward_all(fn, kd, args, true);
        LLVMInstructionEraseFromParent(args);
    }
}

/* The field of thread state 'ts' that 'gep' addresses, or -1. */
static int
ts_field_of(LLVMValueRef gep, LLVMValueRef ts)
{
    if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetNumOperands(gep) != 3 ||
        LLVMGetOperand(gep, 0) != ts ||
        LLVMGetGEPSourceElementType(gep) != LLVMGetAllocatedType(ts))
        return -1;
    LLVMValueRef zero = LLVMGetOperand(gep, 1), f = LLVMGetOperand(gep, 2);
    if (!LLVMIsAConstantInt(zero) || LLVMConstIntGetZExtValue(zero) != 0 ||
        !LLVMIsAConstantInt(f) || LLVMConstIntGetZExtValue(f) >= TJI_TS_NFIELDS)
        return -1;
    return (int)LLVMConstIntGetZExtValue(f);
}

/* The entry's thread state the same way: each field is stored once, in the entry block, by
 * tji_emit_entry_common, and the body and the hooks read it. When they only read it (no
 * call takes it, as a function's or a report's does), each read becomes the stored value,
 * which the entry block computes and so dominates the reads. The state is the entry block's
 * alloca of its type. Three passes over the uses: the stores, then a check of the loads,
 * then the rewrite. */
static void
forward_ts(tj_context *ctx, LLVMValueRef fn)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef ts = LLVMGetFirstInstruction(entry);
    while (ts && !(LLVMIsAAllocaInst(ts) && LLVMGetAllocatedType(ts) == tji_ts_type(ctx)))
        ts = LLVMGetNextInstruction(ts);
    if (!ts)
        return;
    LLVMValueRef vals[TJI_TS_NFIELDS] = {0};
    for (int pass = 0; pass < 3; pass++) {
        for (LLVMUseRef u = LLVMGetFirstUse(ts), next; u; u = next) {
            next = LLVMGetNextUse(u);
            LLVMValueRef gep = LLVMGetUser(u);
            int f = ts_field_of(gep, ts);
            if (f < 0)
                return;
            for (LLVMUseRef g = LLVMGetFirstUse(gep), gnext; g; g = gnext) {
                gnext = LLVMGetNextUse(g);
                LLVMValueRef in = LLVMGetUser(g);
                bool here = LLVMGetInstructionParent(in) == entry;
                bool store = LLVMIsAStoreInst(in) && here && LLVMGetOperand(in, 1) == gep;
                if (pass == 0 && store) {
                    if (vals[f])
                        return; /* stored twice */
                    vals[f] = LLVMGetOperand(in, 0);
                } else if (pass == 1 && !store &&
                           (!LLVMIsALoadInst(in) || here || !vals[f] ||
                            LLVMTypeOf(in) != LLVMTypeOf(vals[f]))) {
                    return;
                } else if (pass == 2) {
                    if (!store)
                        LLVMReplaceAllUsesWith(in, vals[f]);
                    LLVMInstructionEraseFromParent(in);
                }
            }
            if (pass == 2)
                LLVMInstructionEraseFromParent(gep);
        }
    }
    LLVMInstructionEraseFromParent(ts);
}

/* The kernel's entry: one parameter per scalar leaf of the argument buffer (a struct or
 * matrix parameter gives many), stored into an argument block for the shared entry code.
 * False when out of memory. */
static bool
make_entry(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *kd, LLVMValueRef smem,
           LLVMValueRef err)
{
    LLVMTypeRef *tys = malloc((size_t)kd->nslots * sizeof *tys);
    if (!tys)
        return false;
    for (int i = 0; i < kd->nslots; i++)
        tys[i] = slot_type(ctx, &kd->slots[i]);
    LLVMTypeRef fty = LLVMFunctionType(tji_void(ctx), tys, (unsigned)kd->nslots, 0);
    free(tys);
    LLVMValueRef fn = LLVMAddFunction(m, kd->entry, fty);
    tji_compat_mark_kernel(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx->llctx, fn, "entry"));
    LLVMValueRef ts = LLVMBuildAlloca(b, tji_ts_type(ctx), "ts");
    LLVMValueRef args = LLVMBuildArrayAlloca(b, tji_i8(ctx),
                                             tji_const_i64(ctx, (int64_t)kd->args_bytes), "args");
    LLVMSetAlignment(args, 16);
    for (int i = 0; i < kd->nslots; i++) {
        LLVMValueRef off = tji_const_i64(ctx, (int64_t)kd->slots[i].offset);
        LLVMValueRef p = LLVMBuildGEP2(b, tji_i8(ctx), args, &off, 1, "");
        LLVMBuildStore(b, LLVMGetParam(fn, (unsigned)i), p);
    }
    LLVMValueRef fields[TJI_TS_LANE + 1] = {
        [TJI_TS_WORKER] = LLVMConstNull(tji_ptr(ctx)),
        [TJI_TS_ARENA] = LLVMConstAddrSpaceCast(smem, tji_ptr(ctx)),
        [TJI_TS_ERR] = LLVMConstAddrSpaceCast(err, tji_ptr(ctx)),
        [TJI_TS_BLOCK] = LLVMBuildZExt(b, call0(m, b, "llvm.nvvm.read.ptx.sreg.ctaid.x"),
                                       tji_i64(ctx), "block"),
        [TJI_TS_LANE] = call0(m, b, "llvm.nvvm.read.ptx.sreg.tid.x"),
    };
    /* Every launch runs blocks of exactly block_dim threads (launch.c checks it), so the
     * lane is below it: then a tile's guards such as lane + 15 * 256 < 4096 fold away, and
     * the lane + k they compare need not stay live. */
    tji_compat_set_return_range(fields[TJI_TS_LANE], 0, kd->block_dim);
    tji_emit_entry_common(ctx, m, b, kd, ts, args, fields, NULL);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    forward_args(fn, kd, args);
    splice_body(m, kd);
    return true;
}

static void
define_barrier(tj_context *ctx, LLVMModuleRef m)
{
    LLVMValueRef hook;
    LLVMBuilderRef b = tji_hook_begin(ctx, m, "tj.hook.barrier", &hook);
    if (!b)
        return;
    call0(m, b, tji_compat_barrier_intrinsic());
    LLVMBuildRetVoid(b);
    tji_hook_end(b, hook);
}

static LLVMValueRef
ts_field(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef ts, int field)
{
    LLVMTypeRef tsty = tji_ts_type(ctx);
    LLVMValueRef p = LLVMBuildStructGEP2(b, tsty, ts, (unsigned)field, "");
    return LLVMBuildLoad2(b, LLVMStructGetTypeAtIndex(tsty, (unsigned)field), p, "");
}

/* The member mask of the shuffles and votes: the lanes of this warp that run, that is those
 * of the block below its number of running lanes (fewer in a partial last block, whose
 * other lanes returned at entry). Every cooperative builtin makes all of them reach the
 * call, and shfl.sync / vote.sync then wait for exactly them. %activemask would name only
 * the lanes converged at that moment: after a branch that only some lanes took (the push's
 * leader reserving slots), the others could shuffle without it. */
static LLVMValueRef
running_mask(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef ts)
{
    LLVMTypeRef i64 = tji_i64(ctx);
    LLVMValueRef bdim = LLVMBuildZExt(b, call0(m, b, "llvm.nvvm.read.ptx.sreg.ntid.x"), i64, "");
    LLVMValueRef lane = LLVMBuildZExt(b, call0(m, b, "llvm.nvvm.read.ptx.sreg.tid.x"), i64, "");
    LLVMValueRef warp0 = LLVMBuildAnd(b, lane, tji_const_i64(ctx, ~(int64_t)31), "");
    LLVMValueRef start = LLVMBuildMul(b, ts_field(ctx, b, ts, TJI_TS_BLOCK), bdim, "");
    LLVMValueRef first = LLVMBuildAdd(b, start, warp0, "");
    /* this lane runs, so both counts are at least 1 */
    LLVMValueRef in_launch = LLVMBuildSub(b, ts_field(ctx, b, ts, TJI_TS_N), first, "");
    LLVMValueRef in_block = LLVMBuildSub(b, bdim, warp0, "");
    LLVMValueRef n = LLVMBuildSelect(
        b, LLVMBuildICmp(b, LLVMIntULT, in_launch, in_block, ""), in_launch, in_block, "");
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntUGE, n, tji_const_i64(ctx, 32), "");
    LLVMValueRef bits = LLVMBuildSub(b, LLVMBuildShl(b, tji_const_i64(ctx, 1), n, ""),
                                     tji_const_i64(ctx, 1), "");
    return LLVMBuildTrunc(b, LLVMBuildSelect(b, full, tji_const_i64(ctx, 0xffffffff), bits, ""),
                          tji_i32(ctx), "running");
}

/* Calls the warp intrinsic 'name' with the running mask as its first argument (args[0] is
 * filled in). The mask stays in a register even when the whole warp runs: ptxas then emits
 * WARPSYNC R and the SHFL or VOTE, where a branch to a copy with the constant full mask
 * (which this used to make) cost a convergence region (BSSY, BSYNC), the branch, and ptxas'
 * divergence check before the constant-mask call (UMOV, BRA.DIV): a bench sum's butterfly
 * took 2 SASS instructions a shuffle instead of 7, and the bench compaction's kernel 880
 * instead of 1352 (ptxas 11.8; 13.0: 1000 instead of 1304). */
static LLVMValueRef
call_warp(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef hook,
          const char *name, LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    args[0] = running_mask(ctx, m, b, LLVMGetParam(hook, 0));
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, nargs, "");
}

/* tj.hook.shfl_xor(ts, scratch, v, mask): shfl.sync.bfly among the warp's running lanes. */
static void
define_shuffle(tj_context *ctx, LLVMModuleRef m)
{
    LLVMValueRef hook;
    LLVMBuilderRef b = tji_hook_begin(ctx, m, "tj.hook.shfl_xor", &hook);
    if (!b)
        return;
    LLVMValueRef args[] = {NULL, LLVMGetParam(hook, 2), LLVMGetParam(hook, 3),
                           tji_const_i32(ctx, 31)};
    LLVMBuildRet(b,
                 call_warp(ctx, m, b, hook, "llvm.nvvm.shfl.sync.bfly.i32", args, 4));
    tji_hook_end(b, hook);
}

/* Warp votes (tji_emit_ballot and friends), over the warp's running lanes. */
static void
define_votes(tj_context *ctx, LLVMModuleRef m)
{
    LLVMValueRef hook;
    LLVMBuilderRef b = tji_hook_begin(ctx, m, "tj.hook.ballot", &hook);
    if (b) {
        LLVMValueRef args[] = {NULL, LLVMBuildICmp(b, LLVMIntNE, LLVMGetParam(hook, 1),
                                                   tji_const_i32(ctx, 0), "")};
        LLVMBuildRet(
            b, call_warp(ctx, m, b, hook, "llvm.nvvm.vote.ballot.sync", args, 2));
        tji_hook_end(b, hook);
    }
    if ((b = tji_hook_begin(ctx, m, "tj.hook.lanemask_lt", &hook))) {
        LLVMBuildRet(b, call0(m, b, "llvm.nvvm.read.ptx.sreg.lanemask.lt"));
        tji_hook_end(b, hook);
    }
    if ((b = tji_hook_begin(ctx, m, "tj.hook.shfl_idx", &hook))) {
        LLVMValueRef args[] = {NULL, LLVMGetParam(hook, 1), LLVMGetParam(hook, 2),
                               tji_const_i32(ctx, 31)};
        LLVMBuildRet(
            b, call_warp(ctx, m, b, hook, "llvm.nvvm.shfl.sync.idx.i32", args, 4));
        tji_hook_end(b, hook);
    }
}

/* Marks every function defined in 'm' but the entries (and the cold report helper, which
 * is noinline) alwaysinline. GPU code runs fastest inlined, and the always-inliner costs
 * a fraction of the cost-driven one: the default GPU pipeline uses it alone (passes.c).
 * The cost-driven inliner also left the body of a large kernel out of line, as a call
 * with its arguments in local memory. Recursive functions stay calls. */
static void
inline_all(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, size_t n)
{
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) ||
            LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline))
            continue;
        bool entry = false;
        for (size_t i = 0; i < n && !entry; i++)
            entry = strcmp(LLVMGetValueName(fn), descs[i].entry) == 0;
        if (!entry)
            tji_add_fn_attr(ctx, fn, "alwaysinline");
    }
}

static tj_status
lower(tj_context *ctx, LLVMModuleRef m, tj_kernel *const *ks, size_t n, tji_kdesc *descs,
      LLVMTargetMachineRef tm)
{
    LLVMSetTarget(m, TJI_NVPTX_TRIPLE);
    LLVMSetDataLayout(m, TJI_NVPTX_LAYOUT); /* tji_tm_nvptx checks it against the machine's */
    LLVMValueRef smem =
        LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(tji_i8(ctx), 0), SMEM_NAME, 3);
    LLVMSetLinkage(smem, LLVMExternalLinkage);
    LLVMSetAlignment(smem, 16);
    LLVMValueRef err = LLVMAddGlobalInAddressSpace(m, tji_errrec_type(ctx), ERR_NAME, 1);
    LLVMSetInitializer(err, LLVMConstNull(tji_errrec_type(ctx)));
    LLVMSetAlignment(err, 8);
    for (size_t i = 0; i < n; i++)
        if (!make_entry(ctx, m, &descs[i], smem, err))
            return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "out of memory making '%s''s entry",
                                descs[i].name);
    define_barrier(ctx, m);
    define_shuffle(ctx, m);
    define_votes(ctx, m);
    tji_inline_simple(ctx, m);
    for (size_t i = 0; i < n; i++) /* once the hooks read it inline */
        forward_ts(ctx, LLVMGetNamedFunction(m, descs[i].entry));
    inline_all(ctx, m, descs, n);
    LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                      LLVMValueAsMetadata(tji_const_i32(ctx, 0)));
    tji_rename_math(m, "__nv_"); /* linked after the key (link below) */
    (void)ks;
    (void)tm;
    return TJ_OK;
}

/* Makes every use of pointer parameter 'p' of a kernel entry go through a cast to the
 * global address space and back, as NVPTXLowerArgs does: kernel pointers address global
 * memory. */
static void
mark_global(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef p)
{
    LLVMUseRef use = LLVMGetFirstUse(p);
    if (!use)
        return;
    LLVMValueRef g = LLVMBuildAddrSpaceCast(b, p, LLVMPointerTypeInContext(ctx->llctx, 1), "");
    LLVMValueRef q = LLVMBuildAddrSpaceCast(b, g, tji_ptr(ctx), "");
    for (LLVMUseRef next; use; use = next) {
        LLVMValueRef user = LLVMGetUser(use);
        next = tji_use_past_user(use, user);
        if (user == g)
            continue;
        for (int i = 0, nops = LLVMGetNumOperands(user); i < nops; i++)
            if (LLVMGetOperand(user, (unsigned)i) == p)
                LLVMSetOperand(user, (unsigned)i, q);
    }
}

/* What NVPTX's code generator runs above level None that matters, which the default build
 * skips for speed (passes.c): address-space inference (ld/st.global and ld/st.shared instead
 * of generic accesses) and the splitting of constant offsets out of addresses, which lets
 * instruction selection fold them into [reg+imm]. With these alone the SASS of the bench
 * and seed kernels is as large as with the full code generator, or within 8 instructions;
 * its other straight-line passes (slsr, nary-reassociate) changed no instruction there. */
static const char finish_pipeline[] =
    "function(infer-address-spaces,separate-const-offset-from-gep,early-cse)";

/* Whether 'i' may read or write memory or synchronise: what a barrier orders. The rest
 * (arithmetic, compares, selects, casts, address arithmetic) is the thread's own. */
static bool
orders_with_barriers(LLVMValueRef i)
{
    return LLVMIsALoadInst(i) || LLVMIsAStoreInst(i) || LLVMIsACallInst(i) ||
           LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
           LLVMIsAVAArgInst(i);
}

/* Whether 'i' is a call of function 'fn'. */
static bool
is_call_of(LLVMValueRef i, LLVMValueRef fn)
{
    return LLVMIsACallInst(i) && LLVMGetCalledValue(i) == fn;
}

/* Removes every barrier that follows another with only the thread's own arithmetic
 * between them: no memory access came between, so the second waits for nothing. Builtins
 * fence on both sides (a view's write fence, then the assign's own barrier; a stack push's
 * trailing barrier, then the next push's leading one, with the next value's compare
 * between), so once the code between them is folded away they meet. */
static void
drop_repeated_barriers(LLVMModuleRef m)
{
    LLVMValueRef bar = LLVMGetNamedFunction(m, tji_compat_barrier_intrinsic());
    if (!bar)
        return;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            bool after_barrier = false;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                bool is_barrier = is_call_of(i, bar);
                if (is_barrier && after_barrier)
                    LLVMInstructionEraseFromParent(i);
                else if (is_barrier)
                    after_barrier = true;
                else if (orders_with_barriers(i))
                    after_barrier = false;
            }
        }
}

/* ---- the stack push's leading barrier -------------------------------------------------- */

enum { FENCE_MAX_BLOCKS = 512 };

typedef struct fence_scan {
    LLVMValueRef bar, fence;
    unsigned memory_kind; /* the enum attribute "memory" */
    LLVMBasicBlockRef seen[FENCE_MAX_BLOCKS], work[FENCE_MAX_BLOCKS];
    int nseen, nwork;
} fence_scan;

/* Whether 'i' may touch shared memory: an access not known to be global, constant or local
 * (address spaces 1, 4, 5), an atomic, a fence, or a call, but of another push fence or of
 * an intrinsic that touches no memory but what LLVM calls inaccessible (the warp's votes
 * and shuffles, the special registers). */
static bool
may_touch_shared(const fence_scan *s, LLVMValueRef i)
{
    LLVMValueRef ptr = NULL;
    if (LLVMIsALoadInst(i))
        ptr = LLVMGetOperand(i, 0);
    else if (LLVMIsAStoreInst(i))
        ptr = LLVMGetOperand(i, 1);
    else if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
             LLVMIsAVAArgInst(i))
        return true;
    else if (LLVMIsACallInst(i)) {
        LLVMValueRef fn = LLVMGetCalledValue(i);
        if (fn == s->fence)
            return false;
        if (!LLVMIsAFunction(fn) || !LLVMGetIntrinsicID(fn))
            return true;
        LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                                         s->memory_kind);
        /* two bits a location: argument memory, inaccessible memory (bits 2-3), the rest */
        return !a || (LLVMGetEnumAttributeValue(a) & ~(uint64_t)0xc) != 0;
    }
    if (!ptr)
        return false;
    unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
    return as != 1 && as != 4 && as != 5;
}

/* From 'i' backwards in its block: 1 when a barrier comes first, -1 when something that
 * may touch shared memory does, 0 at the block's start. */
static int
scan_back(const fence_scan *s, LLVMValueRef i)
{
    for (; i; i = LLVMGetPreviousInstruction(i)) {
        if (is_call_of(i, s->bar))
            return 1;
        if (may_touch_shared(s, i))
            return -1;
    }
    return 0;
}

/* Queues the predecessors of 'bb' not seen yet; false when one is not a branch's block
 * (a block address) or there are too many blocks to follow. */
static bool
queue_preds(fence_scan *s, LLVMBasicBlockRef bb)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            return false;
        LLVMBasicBlockRef p = LLVMGetInstructionParent(user);
        bool seen = false;
        for (int j = 0; j < s->nseen && !seen; j++)
            seen = s->seen[j] == p;
        if (seen)
            continue;
        if (s->nseen == FENCE_MAX_BLOCKS)
            return false;
        s->seen[s->nseen++] = p;
        s->work[s->nwork++] = p;
    }
    return true;
}

/* Whether a push fence must be a barrier: whether some path to it from the function's
 * entry or from a barrier (other push fences do not count: they may go) may touch shared
 * memory after the last barrier. */
static bool
fence_needed(fence_scan *s, LLVMValueRef call)
{
    s->nseen = s->nwork = 0;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
    int r = scan_back(s, LLVMGetPreviousInstruction(call));
    if (r)
        return r < 0;
    if (bb == LLVMGetEntryBasicBlock(fn) || !queue_preds(s, bb))
        return true;
    while (s->nwork > 0) {
        bb = s->work[--s->nwork];
        r = scan_back(s, LLVMGetLastInstruction(bb));
        if (r < 0)
            return true;
        if (r == 0 && (bb == LLVMGetEntryBasicBlock(fn) || !queue_preds(s, bb)))
            return true;
    }
    return false;
}

/* Makes each push fence (builtins/stack.c) a barrier where fence_needed says so and drops
 * the others: in a loop of pushes whose trips load their values from global memory, the
 * previous push's trailing barrier stands for it (one barrier a push, from two). A fence
 * made a barrier is one when the next is decided; one dropped never counted. */
static void
place_push_fences(tj_context *ctx, LLVMModuleRef m)
{
    fence_scan s = {.fence = LLVMGetNamedFunction(m, TJI_PUSH_FENCE)};
    if (!s.fence)
        return;
    const char *bar = tji_compat_barrier_intrinsic();
    s.bar = LLVMGetIntrinsicDeclaration(m, LLVMLookupIntrinsicID(bar, strlen(bar)), NULL, 0);
    s.memory_kind = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (LLVMUseRef u; (u = LLVMGetFirstUse(s.fence));) {
        LLVMValueRef call = LLVMGetUser(u);
        if (fence_needed(&s, call)) {
            LLVMPositionBuilderBefore(b, call);
            LLVMBuildCall2(b, LLVMGlobalGetValueType(s.bar), s.bar, NULL, 0, "");
        }
        LLVMInstructionEraseFromParent(call);
    }
    LLVMDisposeBuilder(b);
    LLVMDeleteFunction(s.fence);
}

/* Removes the loop metadata: the only loop metadata a GPU module has is control.c's mark
 * that keeps LLVM from unrolling a loop, which the asm printer would pass on to ptxas as
 * .pragma "nounroll". ptxas decides for itself. */
static void
unmark_loops(tj_context *ctx, LLVMModuleRef m)
{
    unsigned kind = LLVMGetMDKindIDInContext(ctx->llctx, "llvm.loop", 9);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
            if (t && LLVMGetMetadata(t, kind))
                LLVMSetMetadata(t, kind, NULL);
        }
}

/* ---- one register for the shared window's base ------------------------------------------ */

enum { REBASE_MAX_INDICES = 8, REBASE_MEMO = 64 };

/* A function's base: the freeze of the global at its entry, and the constant expressions of
 * the global already rebuilt from it there. */
typedef struct smem_base {
    LLVMValueRef g, base;
    LLVMValueRef key[REBASE_MEMO], val[REBASE_MEMO];
    int n;
} smem_base;

/* Whether 'v' is the global or a constant GEP or cast of it, which rebase rebuilds. */
static bool
rebasable(LLVMValueRef v, LLVMValueRef g)
{
    if (v == g)
        return true;
    if (!LLVMIsAConstantExpr(v))
        return false;
    LLVMOpcode op = LLVMGetConstOpcode(v);
    bool gep = op == LLVMGetElementPtr && LLVMGetNumOperands(v) <= 1 + REBASE_MAX_INDICES;
    return (gep || op == LLVMAddrSpaceCast || op == LLVMBitCast || op == LLVMPtrToInt) &&
           rebasable(LLVMGetOperand(v, 0), g);
}

/* 'v' (rebasable) computed from the base instead, by instructions built at 'b' (the entry,
 * after the base), once a function. */
static LLVMValueRef
rebase(LLVMBuilderRef b, smem_base *sb, LLVMValueRef v)
{
    if (v == sb->g)
        return sb->base;
    for (int i = 0; i < sb->n; i++)
        if (sb->key[i] == v)
            return sb->val[i];
    /* a constant whose chain the memo has no room for stays as it is: rebuilt for each use,
     * a phi's two ways in from one block would get two values */
    int levels = 0;
    for (LLVMValueRef c = v; c != sb->g; c = LLVMGetOperand(c, 0))
        levels++;
    if (sb->n + levels > REBASE_MEMO)
        return v;
    LLVMOpcode op = LLVMGetConstOpcode(v);
    LLVMValueRef p = rebase(b, sb, LLVMGetOperand(v, 0)), r;
    if (op != LLVMGetElementPtr) {
        r = LLVMBuildCast(b, op, p, LLVMTypeOf(v), "");
    } else {
        unsigned n = (unsigned)LLVMGetNumOperands(v) - 1;
        LLVMValueRef idx[REBASE_MAX_INDICES];
        for (unsigned i = 0; i < n; i++)
            idx[i] = LLVMGetOperand(v, i + 1);
        LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
        r = LLVMIsInBounds(v) ? LLVMBuildInBoundsGEP2(b, t, p, idx, n, "")
                              : LLVMBuildGEP2(b, t, p, idx, n, "");
    }
    sb->key[sb->n] = v;
    sb->val[sb->n++] = r;
    return r;
}

/* Each function takes the address of __tj_smem once, at its entry, through a freeze that
 * code generation cannot see through in the other blocks, and computes the shared
 * addresses that are constants there too: at level None the NVPTX backend materialises the
 * symbol again in every block that uses it (mov.u64 %rd, __tj_smem), and ptxas then
 * computes the shared window's base again for each (S2R SR_CgaCtaId, MOV, PRMT: 20 times in
 * the bench compaction); from one register it keeps it in a uniform one. The bench
 * compaction's kernel: 863 -> 807 SASS instructions (ptxas 11.8), 3 instructions less for
 * a push's store and as many for its leader's atomic. Runs after the last IR pass, which
 * would fold the freeze of a constant away. */
static void
one_smem_base(tj_context *ctx, LLVMModuleRef m)
{
    smem_base sb = {.g = LLVMGetNamedGlobal(m, SMEM_NAME)};
    if (!sb.g || !LLVMGetFirstUse(sb.g))
        return;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        LLVMValueRef first = LLVMGetFirstInstruction(entry);
        sb.base = NULL;
        sb.n = 0;
        for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = bb == entry ? first : LLVMGetFirstInstruction(bb); in;
                 in = LLVMGetNextInstruction(in))
                for (int i = 0, n = LLVMGetNumOperands(in); i < n; i++) {
                    LLVMValueRef op = LLVMGetOperand(in, (unsigned)i);
                    if (!rebasable(op, sb.g))
                        continue;
                    LLVMPositionBuilderBefore(b, first); /* after the base and its kin */
                    if (!sb.base)
                        sb.base = LLVMBuildFreeze(b, sb.g, "smem");
                    LLVMSetOperand(in, (unsigned)i, rebase(b, &sb, op));
                }
    }
    LLVMDisposeBuilder(b);
}

/* After optimisation: pointer parameters are global (what NVPTXLowerArgs says), then the
 * passes above. Also right for full code generation, which repeats them. */
static tj_status
finish(tj_context *ctx, LLVMModuleRef m, const tji_kdesc *descs, int n, LLVMTargetMachineRef tm)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (int i = 0; i < n; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(m, descs[i].entry);
        if (!fn)
            continue;
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
        for (unsigned j = 0, np = LLVMCountParams(fn); j < np; j++) {
            LLVMValueRef p = LLVMGetParam(fn, j);
            if (LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMPointerTypeKind)
                mark_global(ctx, b, p);
        }
    }
    LLVMDisposeBuilder(b);
    drop_repeated_barriers(m);
    unmark_loops(ctx, m);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, finish_pipeline, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e)
        return tji_ctx_fail_llvm(ctx, e, "address-space inference");
    place_push_fences(ctx, m);
    one_smem_base(ctx, m);
    return TJ_OK;
}

const tji_target tji_target_nvptx = {
    .name = "nvptx",
    .kind = TJ_TARGET_CUDA,
    .lower = lower,
    .key_extra = tji_libdevice_identity,
    .link = tji_libdevice_link,
    .finish = finish,
};
