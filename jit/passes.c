/*
 * jit/passes.c: one-time LLVM target setup, the target machines of a context (the host,
 * and NVPTX per architecture), the optimisation pipeline and code emission. LLVM prints to
 * stderr on unknown CPUs, so architectures are checked against our list first.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "internal.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void
init_targets(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    LLVMInitializeX86AsmParser();
}

void
tji_llvm_init(void)
{
    pthread_once(&init_once, init_targets);
}

tj_status
tji_tm_host(tj_context *ctx, LLVMTargetMachineRef *out)
{
    *out = ctx->tm_host;
    if (*out)
        return TJ_OK;
    char *triple = LLVMGetDefaultTargetTriple();
    char *err = NULL;
    LLVMTargetRef t;
    if (LLVMGetTargetFromTriple(triple, &t, &err)) {
        tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED, "no LLVM target for the host (%s): %s", triple,
                     err ? err : "");
        LLVMDisposeMessage(err);
        LLVMDisposeMessage(triple);
        return TJ_ERR_UNSUPPORTED;
    }
    char *cpu = LLVMGetHostCPUName();
    char *features = LLVMGetHostCPUFeatures();
    *out = LLVMCreateTargetMachine(t, triple, cpu, features, LLVMCodeGenLevelAggressive,
                                   LLVMRelocPIC, LLVMCodeModelSmall);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    LLVMDisposeMessage(triple);
    if (!*out)
        return tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED, "cannot create the host target");
    ctx->tm_host = *out;
    ctx->compress = tji_compress_form_for(*out, ctx->compress_cap);
    return TJ_OK;
}

/* The architectures LLVM 19's NVPTX backend knows. */
static const char *const nvptx_archs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
    "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a",
};

tj_status
tji_nvptx_arch_check(tj_context *ctx, const char *arch)
{
    for (size_t i = 0; i < TJI_NELEMS(nvptx_archs); i++)
        if (strcmp(arch, nvptx_archs[i]) == 0)
            return TJ_OK;
    return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                        "tj_module_build: option 'arch': '%s' is not an architecture LLVM 19 "
                        "can target (sm_50 to sm_90a)",
                        arch);
}

const char *
tji_nvptx_features(const char *arch)
{
    return atoi(arch + 3) < 70 ? "+ptx60" : "";
}

tj_status
tji_tm_nvptx(tj_context *ctx, const char *arch, bool full_codegen, LLVMTargetMachineRef *out)
{
    tj_status st = tji_nvptx_arch_check(ctx, arch);
    if (st != TJ_OK)
        return st;
    char name[sizeof ctx->nvptx_arch[0]];
    snprintf(name, sizeof name, "%s%s", arch, full_codegen ? "+" : "");
    size_t slot = TJI_NELEMS(ctx->tm_nvptx);
    for (size_t i = 0; i < TJI_NELEMS(ctx->tm_nvptx); i++) {
        if (ctx->tm_nvptx[i] && strcmp(ctx->nvptx_arch[i], name) == 0) {
            *out = ctx->tm_nvptx[i];
            return TJ_OK;
        }
        if (!ctx->tm_nvptx[i] && slot == TJI_NELEMS(ctx->tm_nvptx))
            slot = i;
    }
    if (slot == TJI_NELEMS(ctx->tm_nvptx)) { /* full: replace the last one */
        slot = TJI_NELEMS(ctx->tm_nvptx) - 1;
        LLVMDisposeTargetMachine(ctx->tm_nvptx[slot]);
        ctx->tm_nvptx[slot] = NULL;
    }
    LLVMTargetRef t;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(TJI_NVPTX_TRIPLE, &t, &err)) {
        tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED, "no NVPTX target in this LLVM: %s", err ? err : "");
        LLVMDisposeMessage(err);
        return TJ_ERR_UNSUPPORTED;
    }
    /* Codegen at level None skips NVPTX's IR passes (address-space inference, slow-division
     * bypass, GVN, load/store vectorising), its DAG combines and machine passes: about a
     * third of a small kernel's build time. The default level gets the parts that matter
     * elsewhere (tj_tid's 32-bit divisions, target_nvptx.c's finish) and ptxas optimises again. */
    LLVMCodeGenOptLevel level = full_codegen ? LLVMCodeGenLevelAggressive : LLVMCodeGenLevelNone;
    ctx->tm_nvptx[slot] = LLVMCreateTargetMachine(t, TJI_NVPTX_TRIPLE, arch,
                                                  tji_nvptx_features(arch), level,
                                                  LLVMRelocDefault, LLVMCodeModelDefault);
    if (!ctx->tm_nvptx[slot])
        return tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED, "cannot create the NVPTX target for %s",
                            arch);
    /* Lowering set TJI_NVPTX_LAYOUT without a machine: it must be this machine's. */
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(ctx->tm_nvptx[slot]);
    char *layout = LLVMCopyStringRepOfTargetData(dl);
    bool same = strcmp(layout, TJI_NVPTX_LAYOUT) == 0;
    if (!same) {
        tji_ctx_fail(ctx, TJ_ERR_LLVM,
                     "internal error: LLVM's NVPTX data layout is '%s', tilejit sets '%s'",
                     layout, TJI_NVPTX_LAYOUT);
        LLVMDisposeTargetMachine(ctx->tm_nvptx[slot]);
        ctx->tm_nvptx[slot] = NULL;
    }
    LLVMDisposeMessage(layout);
    LLVMDisposeTargetData(dl);
    if (!same)
        return TJ_ERR_LLVM;
    snprintf(ctx->nvptx_arch[slot], sizeof ctx->nvptx_arch[slot], "%s", name);
    *out = ctx->tm_nvptx[slot];
    return TJ_OK;
}

/* ---- inlining without the inliner -------------------------------------------------------
 * The GPU pipeline inlines every helper (target_nvptx.c's inline_all), and LLVM's inliner
 * computes block frequencies of both functions for each call it inlines. Most helpers are
 * the targets' hooks, of one block, and the outlined loops of the builtins, called once;
 * both are moved into their callers here for a fraction of that. */

/* The direct calls to 'fn', when every use of it is one from another function. */
static int
direct_calls(LLVMValueRef fn)
{
    int n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn ||
            LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) == fn)
            return -1;
        for (unsigned i = 0, na = (unsigned)LLVMGetNumArgOperands(call); i < na; i++)
            if (LLVMGetArgOperand(call, i) == fn)
                return -1;
        n++;
    }
    return n;
}

enum { CLONE_MAX = 64 };

/* Replaces each call to 'fn', a function of one block and no allocas, with a copy of its
 * instructions. */
static bool
clone_into_calls(LLVMBuilderRef b, LLVMValueRef fn)
{
    LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef ret = LLVMGetBasicBlockTerminator(bb);
    if (LLVMGetNextBasicBlock(bb) || !ret || LLVMGetInstructionOpcode(ret) != LLVMRet)
        return false;
    unsigned np = LLVMCountParams(fn), n = 0;
    if (np > CLONE_MAX)
        return false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != ret; in = LLVMGetNextInstruction(in))
        if (LLVMGetInstructionOpcode(in) == LLVMAlloca || ++n > CLONE_MAX)
            return false;
    LLVMValueRef from[2 * CLONE_MAX], to[2 * CLONE_MAX];
    for (LLVMUseRef u; (u = LLVMGetFirstUse(fn));) {
        LLVMValueRef call = LLVMGetUser(u);
        unsigned nmap = 0;
        for (unsigned i = 0; i < np; i++, nmap++) {
            from[nmap] = LLVMGetParam(fn, i);
            to[nmap] = LLVMGetArgOperand(call, i);
        }
        LLVMPositionBuilderBefore(b, call);
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != ret;
             in = LLVMGetNextInstruction(in), nmap++) {
            LLVMValueRef c = LLVMInstructionClone(in);
            for (int k = 0, nops = LLVMGetNumOperands(c); k < nops; k++) {
                LLVMValueRef op = LLVMGetOperand(c, (unsigned)k);
                for (unsigned j = 0; j < nmap; j++)
                    if (from[j] == op) {
                        LLVMSetOperand(c, (unsigned)k, to[j]);
                        break;
                    }
            }
            LLVMInsertIntoBuilder(b, c);
            from[nmap] = in;
            to[nmap] = c;
        }
        if (LLVMGetNumOperands(ret) > 0) {
            LLVMValueRef v = LLVMGetOperand(ret, 0);
            for (unsigned j = 0; j < nmap; j++)
                if (from[j] == v) {
                    v = to[j];
                    break;
                }
            LLVMReplaceAllUsesWith(call, v);
        }
        LLVMInstructionEraseFromParent(call);
    }
    return true;
}

void
tji_reinsert(LLVMBuilderRef b, LLVMValueRef in)
{
    /* The builder names what it inserts, and LLVMInsertIntoBuilder names it "" */
    size_t len;
    const char *name = LLVMGetValueName2(in, &len);
    char buf[128];
    if (len >= sizeof buf)
        len = 0;
    memcpy(buf, name, len);
    buf[len] = '\0';
    LLVMInstructionRemoveFromParent(in);
    LLVMInsertIntoBuilderWithName(b, in, buf);
}

LLVMBasicBlockRef
tji_split_before(LLVMBuilderRef b, LLVMValueRef at)
{
    LLVMBasicBlockRef tail = LLVMGetInstructionParent(at);
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(at));
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(llctx, tail, "");
    LLVMPositionBuilderAtEnd(b, head);
    for (LLVMValueRef in = LLVMGetFirstInstruction(tail), next; in != at; in = next) {
        next = LLVMGetNextInstruction(in);
        tji_reinsert(b, in);
    }
    /* 'head' takes the branches into the block. Without its terminator for a moment, the
     * block's successors keep it in their phis (a block's RAUW also renames those). */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(tail);
    LLVMInstructionRemoveFromParent(term);
    LLVMReplaceAllUsesWith(LLVMBasicBlockAsValue(tail), LLVMBasicBlockAsValue(head));
    LLVMPositionBuilderAtEnd(b, tail);
    LLVMInsertIntoBuilder(b, term);
    LLVMPositionBuilderAtEnd(b, head);
    return head;
}

void
tji_phis_take_edge(LLVMBasicBlockRef bb, LLVMBasicBlockRef from, LLVMBasicBlockRef also)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
        for (unsigned i = 0, n = LLVMCountIncoming(in); i < n; i++)
            if (LLVMGetIncomingBlock(in, i) == from) {
                LLVMValueRef v = LLVMGetIncomingValue(in, i);
                LLVMAddIncoming(in, &v, &also, 1);
                break;
            }
}

void
tji_copy_blocks(tj_context *ctx, LLVMBuilderRef b, const LLVMBasicBlockRef *blocks, int n,
                LLVMBasicBlockRef at, const char *name, tji_vmap *map, bool drop_outside)
{
    if (n == 0)
        return;
    LLVMValueRef fn = LLVMGetBasicBlockParent(blocks[0]);
    unsigned loop_md = LLVMGetMDKindIDInContext(ctx->llctx, "llvm.loop", 9);
    for (int i = 0; i < n; i++)
        tji_vmap_put(map, LLVMBasicBlockAsValue(blocks[i]),
                     LLVMBasicBlockAsValue(
                         at ? LLVMInsertBasicBlockInContext(ctx->llctx, at, name)
                            : LLVMAppendBasicBlockInContext(ctx->llctx, fn, name)));
    for (int i = 0; i < n; i++) {
        LLVMPositionBuilderAtEnd(b, LLVMValueAsBasicBlock(
                                        tji_vmap_get(map, LLVMBasicBlockAsValue(blocks[i]))));
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            LLVMValueRef c = LLVMIsAPHINode(in) ? LLVMBuildPhi(b, LLVMTypeOf(in), "")
                                                : LLVMInstructionClone(in);
            if (!LLVMIsAPHINode(in)) {
                LLVMInsertIntoBuilder(b, c);
                if (LLVMIsATerminatorInst(c) && LLVMGetMetadata(c, loop_md))
                    tji_keep_rolled(ctx, c);
            }
            /* a loop's tests keep their name, by which lane_loops.c knows them */
            size_t len, want = sizeof TJI_MORE_FLAG - 1;
            const char *nm = LLVMGetValueName2(in, &len);
            if (len >= want && strncmp(nm, TJI_MORE_FLAG, want) == 0)
                LLVMSetValueName2(c, TJI_MORE_FLAG, want);
            tji_vmap_put(map, in, c);
        }
    }
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            LLVMValueRef c = tji_vmap_get(map, in);
            if (LLVMIsAPHINode(in)) {
                for (unsigned j = 0, nj = LLVMCountIncoming(in); j < nj; j++) {
                    LLVMValueRef from = LLVMBasicBlockAsValue(LLVMGetIncomingBlock(in, j));
                    if (drop_outside && !tji_vmap_has(map, from))
                        continue;
                    LLVMValueRef v = tji_vmap_get(map, LLVMGetIncomingValue(in, j));
                    LLVMBasicBlockRef bb = LLVMValueAsBasicBlock(tji_vmap_get(map, from));
                    LLVMAddIncoming(c, &v, &bb, 1);
                }
                continue;
            }
            for (int o = 0, no = LLVMGetNumOperands(c); o < no; o++) {
                LLVMValueRef op = LLVMGetOperand(c, (unsigned)o);
                LLVMValueRef to = op ? tji_vmap_get(map, op) : op;
                if (to != op)
                    LLVMSetOperand(c, (unsigned)o, to);
            }
        }
}

/* The call's block splits in two around it, and the body's blocks go between the halves. */
bool
tji_splice_call(LLVMValueRef fn)
{
    if (direct_calls(fn) != 1 ||
        LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != LLVMVoidTypeKind)
        return false;
    LLVMValueRef call = LLVMGetUser(LLVMGetFirstUse(fn));
    LLVMBasicBlockRef tail = LLVMGetInstructionParent(call);
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
    LLVMBasicBlockRef head = tji_split_before(b, call);
    for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
        LLVMReplaceAllUsesWith(LLVMGetParam(fn, i), LLVMGetArgOperand(call, i));
    LLVMBasicBlockRef first = LLVMGetEntryBasicBlock(fn), after = head;
    for (LLVMBasicBlockRef bb = first, next; bb; bb = next) {
        next = LLVMGetNextBasicBlock(bb);
        LLVMMoveBasicBlockAfter(bb, after);
        after = bb;
        LLVMValueRef r = LLVMGetBasicBlockTerminator(bb);
        if (r && LLVMGetInstructionOpcode(r) == LLVMRet) {
            LLVMInstructionEraseFromParent(r);
            LLVMPositionBuilderAtEnd(b, bb);
            LLVMBuildBr(b, tail);
        }
    }
    LLVMPositionBuilderAtEnd(b, head);
    LLVMBuildBr(b, first);
    LLVMInstructionEraseFromParent(call);
    /* Allocas stay static: at the top of the caller's entry block. */
    LLVMValueRef caller = LLVMGetBasicBlockParent(head);
    LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(caller));
    for (LLVMValueRef in = LLVMGetFirstInstruction(first), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (LLVMGetInstructionOpcode(in) == LLVMAlloca) {
            LLVMPositionBuilderBefore(b, top);
            tji_reinsert(b, in);
        }
    }
    LLVMDisposeBuilder(b);
    return true;
}

int
tji_inline_simple(tj_context *ctx, LLVMModuleRef m)
{
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m), next; fn; fn = next) {
        next = LLVMGetNextFunction(fn);
        if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) != LLVMInternalLinkage ||
            LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinline))
            continue;
        int ncalls = direct_calls(fn);
        if (ncalls < 0)
            continue;
        if (ncalls == 0 || clone_into_calls(b, fn) || tji_splice_call(fn)) {
            LLVMDeleteFunction(fn);
            done++;
        }
    }
    LLVMDisposeBuilder(b);
    return done;
}

/* The default pipeline for the GPU. ptxas optimises the PTX again, so LLVM only has to
 * turn the builtins' allocas and loops into straight-line register code: scalar
 * replacement, inlining, simplification, hoisting and full unrolling. It gives the same
 * PTX quality (registers, no local memory) on the builtins' kernels as O3 in about half
 * the time (bench/RESULTS.md). No instcombine before inlining: it changed no SASS
 * instruction of the bench and seed kernels and cost 4-8% of their builds; no early-cse
 * before inlining and no adce at the end either: the PTX of the six seeds and of the
 * bench's five GPU kernels stayed byte for byte the same without them, and builds took
 * 1.9-3.5% fewer instructions. Before the loops only instsimplify: the instcombine that
 * was there cost 3.4-4.1% of the seeds' builds, and without it the SASS of the seeds and
 * the bench's GPU kernels is the same size (the large kernel's: 2976 instead of 2968); the
 * instcombine after unrolling stays (without it row_products has 8 more SASS
 * instructions: selects it folds). This relies on the NVPTX entry forwarding its argument
 * block (target_nvptx.c's forward_args): pulled apart by scalar replacement instead, the
 * block gives back its pointer parameters through casts that only instcombine folds, and
 * address-space inference then leaves their accesses generic (check_launch's ptx case
 * fails so). Every function but the entries is alwaysinline
 * (target_nvptx.c), so the always-inliner does what the cost-driven one did, for 3-7% less
 * of a build. Full unrolling is the function pass with everything but full unrolling off,
 * not loop-unroll-full, which also weighs peeling each loop (SCEV work on every loop a
 * kernel keeps): 2-4% of compact_values' build, and of the 1928 PTX files the test suites
 * build, 3 changed, by peelings ptxas did not need (2 the same SASS, 1 six instructions
 * smaller). The CPU keeps O3, whose vectoriser matters there. */
static const char gpu_pipeline[] =
    "function(sroa<modify-cfg>,simplifycfg),"
    "always-inline,"
    "function(sroa<modify-cfg>,early-cse,simplifycfg,instsimplify,"
    "loop-mssa(licm),loop-unroll<O3;no-partial;no-peeling;no-runtime;no-upperbound;"
    "no-profile-peeling>,sroa<modify-cfg>,instcombine<no-verify-fixpoint>,"
    "simplifycfg),"
    "globaldce";

tj_status
tji_optimize(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm, tj_opt_level level,
             tj_target target)
{
    static const char *const pipelines[] = {
        [TJ_OPT_DEFAULT] = "default<O3>", [TJ_OPT_O0] = "default<O0>",
        [TJ_OPT_O1] = "default<O1>",      [TJ_OPT_O2] = "default<O2>",
        [TJ_OPT_O3] = "default<O3>",
    };
    const char *pipeline = pipelines[level];
    if (level == TJ_OPT_DEFAULT && target == TJ_TARGET_CUDA)
        pipeline = gpu_pipeline;
    return tji_run_pipeline(ctx, m, tm, pipeline, "optimisation");
}

tj_status
tji_run_pipeline(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm, const char *pipeline,
                 const char *what)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, po);
    LLVMDisposePassBuilderOptions(po);
    return e ? tji_ctx_fail_llvm(ctx, e, what) : TJ_OK;
}

tj_status
tji_emit_code(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm, bool assembly,
              LLVMMemoryBufferRef *out)
{
    char *err = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, assembly ? LLVMAssemblyFile : LLVMObjectFile,
                                            &err, out)) {
        tji_ctx_fail(ctx, TJ_ERR_LLVM, "code generation failed: %s", err ? err : "");
        LLVMDisposeMessage(err);
        return TJ_ERR_LLVM;
    }
    const char *why = tji_llvm_error(ctx); /* diagnosed, and code made all the same */
    if (why) {
        LLVMDisposeMemoryBuffer(*out);
        *out = NULL;
        return tji_ctx_fail(ctx, TJ_ERR_LLVM, "code generation failed: %s", why);
    }
    return TJ_OK;
}
