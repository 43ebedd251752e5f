/*
 * jit/module.c: building a module from sealed kernels.
 *
 *   kernels ──seal──▶ clone + link into one LLVM module, with every function they call
 *     ──target.lower──▶ kernel entries, hook bodies, math symbols ──▶ 128-bit key (the
 *     module's bitcode, the options, and target.key_extra: which libdevice file)
 *     ──▶ in-memory cache hit? ──▶ on-disk cache hit (disk_cache.c)?
 *     ──target.link (libdevice, lazily), the target machine (NVPTX: made only now),
 *     verify (a status, never an abort), optimise, target.finish (host: verified again)
 *     ──▶ PTX text (NVPTX) | object file ──▶ ORC LLJIT (host); written to both caches
 *
 * A module keeps a descriptor per kernel (parameters, argument-buffer layout, block
 * width, shared bytes, debug check sites) and refers to compiled code that the context's
 * cache owns; it keeps nothing of the kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "internal.h"

/* ---- checks ---------------------------------------------------------------------------- */

static tj_status
check_kernels(tj_context *ctx, tj_kernel *const *ks, size_t n)
{
    if (!ks || n == 0)
        return tji_ctx_fail(ctx, TJ_ERR_INVALID, "tj_module_build: no kernels given");
    for (size_t i = 0; i < n; i++) {
        const tj_kernel *k = ks[i];
        if (!k)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID, "tj_module_build: kernels[%zu] is NULL", i);
        if (k->ctx != ctx)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_module_build: kernels[%zu] ('%s') is a kernel of another "
                                "context",
                                i, k->name);
        if (k->is_func)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_module_build: kernels[%zu] ('%s') is a function (made by "
                                "tj_func_create); modules are built from kernels, which call it",
                                i, k->name);
        if (k->status != TJ_OK)
            return tji_ctx_fail(ctx, k->status, "kernel '%s': %s", k->name, k->err);
        if (k->opts.target != ks[0]->opts.target ||
            (k->opts.target == TJ_TARGET_CPU && k->opts.cpu_mode != ks[0]->opts.cpu_mode))
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_module_build: kernels '%s' and '%s' have different targets "
                                "or CPU modes; build them into separate modules",
                                ks[0]->name, k->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(ks[j]->name, k->name) == 0)
                return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                    "tj_module_build: two kernels are named '%s'", k->name);
    }
    return TJ_OK;
}

/* A kernel whose call graph has shared memory in a recursion cannot be given a budget. */
static tj_status
check_recursion(tj_context *ctx, const tj_kernel *k)
{
    const tj_kernel *f;
    tji_kernel_budget(k, &f);
    if (!f)
        return TJ_OK;
    return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                        "kernel '%s': function '%s' has %zu bytes of shared memory and is "
                        "called recursively (or nested more than 64 calls deep); each level "
                        "would need its own, so the block's budget has no bound",
                        k->name, f->name, f->shared_bytes + f->scratch_bytes);
}

/* Seals a kernel and, depth first, the functions it calls. */
static tj_status
seal_tree(tj_context *ctx, tj_kernel *k)
{
    if (k->sealed && k->status == TJ_OK)
        return TJ_OK;
    if (!tji_kernel_seal(k))
        return tji_ctx_fail(ctx, k->status, "%s '%s': %s", k->is_func ? "function" : "kernel",
                            k->name, k->err);
    for (int i = 0; i < k->ncallees; i++) {
        tj_status st = seal_tree(ctx, k->callees[i]);
        if (st != TJ_OK)
            return st;
    }
    return TJ_OK;
}

/* ---- descriptors and the argument buffer ------------------------------------------------ */

static size_t
align_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static bool
push_slot(tji_kdesc *kd, int *cap, size_t offset, tj_dtype dt)
{
    if (kd->nslots == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        tji_slot *s = realloc(kd->slots, (size_t)*cap * sizeof *s);
        if (!s)
            return false;
        kd->slots = s;
    }
    kd->slots[kd->nslots++] = (tji_slot){.offset = offset, .dtype = dt};
    return true;
}

/* The scalar leaves of a value of 'type' stored at 'base'. */
static bool
push_leaves(tji_kdesc *kd, int *cap, const tj_type *type, size_t base)
{
    if (type->kind == TJ_TYPE_STRUCT) {
        for (size_t i = 0; i < type->nfields; i++)
            if (!push_leaves(kd, cap, type->fields[i].type, base + type->fields[i].offset))
                return false;
        return true;
    }
    size_t esz = type->size / (size_t)type->ncomp;
    for (int i = 0; i < type->ncomp; i++)
        if (!push_slot(kd, cap, base + (size_t)i * esz, type->dtype))
            return false;
    return true;
}

/* Lays out the argument buffer: n (i64), four dims (i32), then each parameter. */
static bool
layout_args(tji_kdesc *kd)
{
    int cap = 0;
    static const tj_dtype hidden[TJI_HIDDEN_SLOTS] = {TJ_DTYPE_I64, TJ_DTYPE_I32, TJ_DTYPE_I32,
                                                      TJ_DTYPE_I32, TJ_DTYPE_I32};
    size_t off = 0;
    for (int i = 0; i < TJI_HIDDEN_SLOTS; i++) {
        if (!push_slot(kd, &cap, off, hidden[i]))
            return false;
        off += i == 0 ? 8 : 4;
    }
    for (int i = 0; i < kd->nparams; i++) {
        tji_kparam *p = &kd->params[i];
        p->first_slot = kd->nslots;
        if (p->is_array) {
            off = align_up(off, 8);
            if (!push_slot(kd, &cap, off, 0))
                return false;
            off += 8;
            for (int d = 0; d < p->ndim; d++, off += 4)
                if (!push_slot(kd, &cap, off, TJ_DTYPE_I32))
                    return false;
            off = align_up(off, 8);
            for (int d = 0; d < p->ndim; d++, off += 8)
                if (!push_slot(kd, &cap, off, TJ_DTYPE_I64))
                    return false;
        } else {
            off = align_up(off, p->type->align);
            if (!push_leaves(kd, &cap, p->type, off))
                return false;
            off += p->type->size;
        }
        p->nslots = kd->nslots - p->first_slot;
    }
    kd->args_bytes = align_up(off, 16);
    return true;
}

static void
free_desc(tji_kdesc *kd)
{
    free(kd->name);
    free(kd->entry);
    for (int i = 0; i < kd->nparams; i++)
        free(kd->params[i].name);
    free(kd->params);
    free(kd->slots);
    for (int i = 0; i < kd->nsites; i++)
        free(kd->sites[i]);
    free(kd->sites);
}

static bool
fill_desc(tji_kdesc *kd, const tj_kernel *k)
{
    *kd = (tji_kdesc){.target = k->opts.target, .block_dim = k->opts.block_dim,
                      .block_width = k->block_dim,
                      .cooperative = k->opts.target == TJ_TARGET_CPU &&
                                     k->opts.cpu_mode == TJ_CPU_COOPERATIVE,
                      .debug = k->opts.debug, .max_tid = k->max_tid,
                      .shared_bytes = tji_kernel_budget(k, NULL), .nparams = k->nparams,
                      .nsites = k->nsites};
    kd->name = strdup(k->name);
    kd->entry = strdup(k->name);
    kd->params = calloc((size_t)k->nparams + 1, sizeof *kd->params);
    kd->sites = calloc((size_t)k->nsites + 1, sizeof *kd->sites);
    if (!kd->name || !kd->entry || !kd->params || !kd->sites)
        return false;
    for (int i = 0; i < k->nparams; i++) {
        const tji_param *p = &k->params[i];
        kd->params[i] = (tji_kparam){.name = strdup(p->name), .is_array = p->kind == TJ_VAL_ARRAY,
                                     .type = p->type, .ndim = p->ndim};
        if (!kd->params[i].name)
            return false;
    }
    for (int i = 0; i < k->nsites; i++)
        if (!(kd->sites[i] = strdup(k->sites[i].what)))
            return false;
    return layout_args(kd);
}

/* ---- linking ---------------------------------------------------------------------------- */

/* Links a copy of 'src' into '*dst'; the first copy becomes '*dst' itself, which saves
 * linking it into an empty module. */
static bool
link_clone(LLVMModuleRef *dst, LLVMModuleRef src)
{
    LLVMModuleRef clone = LLVMCloneModule(src);
    if (*dst)
        return !LLVMLinkModules2(*dst, clone); /* takes 'clone' over */
    LLVMSetModuleIdentifier(clone, "tilejit", 7);
    LLVMSetSourceFileName(clone, "tilejit", 7);
    *dst = clone;
    return true;
}

static bool
in_list(tj_kernel *const *list, int n, const tj_kernel *k)
{
    for (int i = 0; i < n; i++)
        if (list[i] == k)
            return true;
    return false;
}

/* Links each kernel and, once each, every function reachable from them, into a new '*m'. */
static tj_status
link_all(tj_context *ctx, LLVMModuleRef *m, tj_kernel *const *ks, size_t n)
{
    tj_kernel *seen[256];
    int nseen = 0;
    tj_kernel *todo[256];
    int ntodo = 0;
    for (size_t i = 0; i < n; i++)
        todo[ntodo++] = ks[i];
    while (ntodo > 0) {
        tj_kernel *k = todo[--ntodo];
        if (in_list(seen, nseen, k))
            continue;
        if (nseen == (int)TJI_NELEMS(seen))
            return tji_ctx_fail(ctx, TJ_ERR_LIMIT, "tj_module_build: more than %d functions",
                                (int)TJI_NELEMS(seen));
        seen[nseen++] = k;
        /* seal_tree() stops at a sealed kernel, so a callee may still be open or in error
         * when an earlier build failed on it or on another callee: check it here. */
        if (!tji_kernel_seal(k))
            return tji_ctx_fail(ctx, k->status, "%s '%s': %s",
                                k->is_func ? "function" : "kernel", k->name, k->err);
        if (!link_clone(m, k->llmod))
            return tji_ctx_fail(ctx, TJ_ERR_LLVM, "internal error: linking '%s' failed",
                                k->name);
        for (int i = 0; i < k->ncallees; i++)
            if (!in_list(seen, nseen, k->callees[i]) && ntodo < (int)TJI_NELEMS(todo))
                todo[ntodo++] = k->callees[i];
    }
    /* Canonical names, so that equal kernels give equal text and equal cache keys. Only
     * after every link: a module linked later still declares its callees by symbol. */
    for (int i = 0; i < nseen; i++) {
        const tj_kernel *k = seen[i];
        char canon[256];
        if (k->is_func)
            snprintf(canon, sizeof canon, "tjf.%d.%s", i + 1, k->name);
        else
            snprintf(canon, sizeof canon, "tjk.%s", k->name);
        LLVMValueRef body = LLVMGetNamedFunction(*m, k->symbol);
        if (body)
            LLVMSetValueName2(body, canon, strlen(canon));
        /* and the layout globals named after it (tji_kernel_layout_global) */
        size_t symlen = strlen(k->symbol);
        for (int w = 0; w < 2; w++) {
            if (!k->layout_globals[w])
                continue;
            size_t nlen;
            const char *name = LLVMGetValueName2(k->layout_globals[w], &nlen);
            LLVMValueRef g = LLVMGetNamedGlobal(*m, name);
            char gname[300];
            int len = snprintf(gname, sizeof gname, "%s%s", canon, name + symlen);
            if (g && len > 0 && (size_t)len < sizeof gname)
                LLVMSetValueName2(g, gname, (size_t)len);
        }
    }
    return TJ_OK;
}

int
tji_entry_of(const tji_kdesc *descs, int n, LLVMValueRef fn)
{
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    for (int i = 0; i < n; i++)
        if (strcmp(name, descs[i].entry) == 0)
            return i;
    return -1;
}

/* Everything but the entries becomes internal, so unused code disappears. */
static void
internalize(LLVMModuleRef m, const tji_kdesc *descs, int n)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && tji_entry_of(descs, n, f) < 0)
            LLVMSetLinkage(f, LLVMInternalLinkage);
}

/* ---- entries (shared by the targets) --------------------------------------------------- */

/* Loads parameter 'p' of 'kd' from the argument buffer into body arguments 'out'. */
static unsigned
load_param(tj_kernel *kb, const tji_kdesc *kd, const tji_kparam *p, LLVMValueRef args,
           LLVMValueRef *out)
{
    tj_context *c = kb->ctx;
    LLVMBuilderRef b = kb->llb;
    unsigned n = 0;
    for (int s = 0; s < (p->is_array ? p->nslots : 1); s++) {
        const tji_slot *sl = &kd->slots[p->first_slot + s];
        LLVMValueRef off = tji_const_i64(c, (int64_t)sl->offset);
        LLVMValueRef ptr = LLVMBuildGEP2(b, tji_i8(c), args, &off, 1, "");
        if (!p->is_array)
            out[n++] = tji_emit_load(kb, p->type, ptr);
        else
            out[n++] = LLVMBuildLoad2(b, sl->dtype ? tji_dtype_llvm(c, sl->dtype) : tji_ptr(c),
                                      ptr, "");
    }
    return n;
}

LLVMValueRef
tji_emit_launch_dim(tj_context *ctx, LLVMBuilderRef b, LLVMValueRef args, int d)
{
    LLVMValueRef off = tji_const_i64(ctx, 8 + 4 * d); /* after n (i64): layout_args */
    return LLVMBuildLoad2(b, tji_i32(ctx), LLVMBuildGEP2(b, tji_i8(ctx), args, &off, 1, ""),
                          "dim");
}

void
tji_emit_entry_common(tj_context *ctx, LLVMModuleRef m, LLVMBuilderRef b, const tji_kdesc *kd,
                      LLVMValueRef ts, LLVMValueRef args,
                      const LLVMValueRef fields[TJI_TS_LANE + 1], const LLVMValueRef *coords)
{
    /* A throwaway kernel shell lets the load helpers of emit.c work on this builder. */
    tj_kernel shell = {.ctx = ctx, .llmod = m, .llb = b};
    LLVMTypeRef tsty = tji_ts_type(ctx);
    LLVMValueRef n = LLVMBuildLoad2(b, tji_i64(ctx), args, "n");
    for (int f = TJI_TS_WORKER; f <= TJI_TS_LANE; f++) {
        LLVMValueRef v = f == TJI_TS_N ? n : fields[f];
        LLVMBuildStore(b, v, LLVMBuildStructGEP2(b, tsty, ts, (unsigned)f, ""));
    }
    for (int d = 0; d < TJI_MAX_DIMS; d++) {
        LLVMValueRef dv = tji_emit_launch_dim(ctx, b, args, d);
        LLVMBuildStore(b, dv, LLVMBuildStructGEP2(b, tsty, ts, (unsigned)(TJI_TS_DIM0 + d), ""));
        if (coords)
            LLVMBuildStore(b, coords[d],
                           LLVMBuildStructGEP2(b, tsty, ts, (unsigned)(TJI_TS_COORD0 + d), ""));
    }
    LLVMBuildStore(b, tji_const_i32(ctx, 0), LLVMBuildStructGEP2(b, tsty, ts, TJI_TS_SHFL, ""));
    char body_sym[256];
    snprintf(body_sym, sizeof body_sym, TJI_BODY_PREFIX "%s", kd->name);
    LLVMValueRef fn = LLVMGetNamedFunction(m, body_sym);
    LLVMValueRef bargs[1 + 64 * 9];
    unsigned na = 0;
    bargs[na++] = ts;
    for (int i = 0; i < kd->nparams; i++)
        na += load_param(&shell, kd, &kd->params[i], args, bargs + na);
    /* Lanes past the end of the launch (a partial last block) do nothing. */
    LLVMValueRef lin = LLVMBuildMul(b, fields[TJI_TS_BLOCK],
                                    tji_const_i64(ctx, kd->block_width), "");
    lin = LLVMBuildAdd(b, lin, LLVMBuildZExt(b, fields[TJI_TS_LANE], tji_i64(ctx), ""), "");
    LLVMValueRef live = LLVMBuildICmp(b, LLVMIntULT, lin, n, TJI_LIVE_FLAG);
    LLVMValueRef cur = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
    LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(ctx->llctx, cur, "run");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx->llctx, cur, "done");
    LLVMBuildCondBr(b, live, run, done);
    LLVMPositionBuilderAtEnd(b, run);
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, bargs, na, "");
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
}

LLVMBuilderRef
tji_hook_begin(tj_context *ctx, LLVMModuleRef m, const char *name, LLVMValueRef *hook)
{
    *hook = LLVMGetNamedFunction(m, name);
    if (!*hook || !LLVMIsDeclaration(*hook))
        return NULL;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx->llctx, *hook, "entry"));
    return b;
}

void
tji_hook_end(LLVMBuilderRef b, LLVMValueRef hook)
{
    LLVMDisposeBuilder(b);
    LLVMSetLinkage(hook, LLVMInternalLinkage);
}

int
tji_rename_math(LLVMModuleRef m, const char *prefix)
{
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (strncmp(name, "tj.math.", 8) != 0 || len < 13)
            continue;
        char target[64];
        bool f32 = strcmp(name + len - 4, ".f32") == 0;
        snprintf(target, sizeof target, "%s%.*s%s", prefix, (int)(len - 12), name + 8,
                 f32 ? "f" : "");
        LLVMSetValueName2(f, target, strlen(target));
        n++;
    }
    return n;
}

/* ---- the build -------------------------------------------------------------------------- */

static tj_status
resolve_target(tj_context *ctx, tj_target target, const tj_build_options *o,
               LLVMTargetMachineRef *tm, const char **arch)
{
    if (target == TJ_TARGET_CPU) {
        if (o->device && tj_device_get_kind(o->device) != TJ_DEVICE_CPU)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_module_build: option 'device' is a GPU, the kernels are "
                                "built for the CPU");
        *arch = "host";
        return tji_tm_host(ctx, tm);
    }
    *arch = o->arch ? o->arch : "sm_90";
    if (!o->arch && o->device) {
        if (tj_device_get_kind(o->device) != TJ_DEVICE_CUDA)
            return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                                "tj_module_build: option 'device' is the CPU, the kernels are "
                                "built for CUDA");
        *arch = tj_device_get_arch(o->device);
    }
    *tm = NULL; /* made by prepare(), for a build the cache does not answer */
    return tji_nvptx_arch_check(ctx, *arch);
}

static tj_status
verify(tj_context *ctx, LLVMModuleRef m, const char *when)
{
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        tji_ctx_fail(ctx, TJ_ERR_LLVM, "internal error: the module does not verify %s: %.400s",
                     when, msg ? msg : "");
        LLVMDisposeMessage(msg);
        return TJ_ERR_LLVM;
    }
    LLVMDisposeMessage(msg);
    return TJ_OK;
}

/* The cache key: the lowered module's bitcode (deterministic, and written several times
 * faster than its text) plus everything else that changes the code (library and LLVM
 * versions and the build-ids of their binaries, target, CPU and features, optimisation
 * level, on the CPU the compress form, which $TILEJIT_CPU_COMPRESS may lower, and
 * whether $TILEJIT_CPU_PREFETCH=off leaves the prefetches out, and what the target links
 * after the key: on the GPU, which libdevice file). */
static void
module_key(tj_context *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm, const char *arch,
           const tj_build_options *o, const tji_target *tgt, uint8_t key[16])
{
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
    bool cpu = tgt->kind == TJ_TARGET_CPU;
    /* An NVPTX machine is made for "arch" and its features, when it is made at all. */
    char *cpu_name = cpu ? LLVMGetTargetMachineCPU(tm) : NULL;
    char *features = cpu ? LLVMGetTargetMachineFeatureString(tm) : NULL;
    char linked[4400] = "";
    if (tgt->key_extra)
        tgt->key_extra(ctx, m, linked, sizeof linked);
    char extra[16384];
    snprintf(extra, sizeof extra, "tilejit %s|%s|codegen %d|%d|%s|%s|opt%d|compress%d|pf%d|%s",
             tj_version(), tji_build_identity(), TJI_CODEGEN_VERSION, (int)tgt->kind,
             cpu ? cpu_name : arch, cpu ? features : tji_nvptx_features(arch), (int)o->opt_level,
             cpu ? (int)ctx->compress : 0, cpu && !ctx->cpu_no_prefetch, linked);
    LLVMDisposeMessage(cpu_name);
    LLVMDisposeMessage(features);
    uint8_t seed[16];
    tji_hash128(extra, strlen(extra), NULL, seed);
    tji_hash128(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), seed, key);
    LLVMDisposeMemoryBuffer(bc);
}

typedef struct build {
    tj_context *ctx;
    tj_target target;
    const tj_build_options *o;
    LLVMTargetMachineRef tm;
    const char *arch;
    LLVMModuleRef m;
    tji_kdesc *descs;
    int n;
    uint8_t key[16];
    char *ir;                     /* keep_ir: the optimised IR, before code generation */
    const tji_target *tgt;
} build;

/* What a build the cache does not answer adds after the key: the target's linked code,
 * its target machine (NVPTX: made now), and a check that the module verifies. */
static tj_status
prepare(build *bd)
{
    tj_context *ctx = bd->ctx;
    tj_status st = TJ_OK;
    if (bd->tgt->link && (st = bd->tgt->link(ctx, bd->m)) == TJ_OK)
        internalize(bd->m, bd->descs, bd->n); /* what it linked: dropped once inlined */
    if (st == TJ_OK && !bd->tm)
        st = tji_tm_nvptx(ctx, bd->arch, bd->o->opt_level != TJ_OPT_DEFAULT, &bd->tm);
    return st == TJ_OK ? verify(ctx, bd->m, "after lowering") : st;
}

/* The optimisation pipeline, then the target's last IR steps. The CPU's are tilejit's own
 * passes over the optimised IR: what they make is verified (under 0.5% of a CPU build), so
 * that a mistake of theirs fails the build instead of reaching code generation. */
static tj_status
optimize(build *bd)
{
    tj_status st = tji_optimize(bd->ctx, bd->m, bd->tm, bd->o->opt_level, bd->target);
    if (st == TJ_OK && bd->tgt->finish)
        st = bd->tgt->finish(bd->ctx, bd->m, bd->descs, bd->n, bd->tm);
    if (st == TJ_OK && bd->target == TJ_TARGET_CPU)
        st = verify(bd->ctx, bd->m, "after the CPU's IR passes");
    return st;
}

static void
entry_symbols(build *bd)
{
    if (bd->target != TJ_TARGET_CPU)
        return;
    /* CPU entries share the JIT's namespace: name them after the key. */
    for (int i = 0; i < bd->n; i++) {
        char sym[256];
        snprintf(sym, sizeof sym, "tj_%02x%02x%02x%02x%02x%02x%02x%02x_%s", bd->key[0],
                 bd->key[1], bd->key[2], bd->key[3], bd->key[4], bd->key[5], bd->key[6],
                 bd->key[7], bd->descs[i].name);
        LLVMValueRef f = LLVMGetNamedFunction(bd->m, bd->descs[i].entry);
        LLVMSetValueName2(f, sym, strlen(sym));
        char *s = strdup(sym);
        if (s) {
            free(bd->descs[i].entry);
            bd->descs[i].entry = s;
        }
    }
}

/* Fills cache entry 'e' with compiled code 'buf' (taken over): PTX text, or a CPU object
 * loaded into the JIT. */
static tj_status
fill_entry(build *bd, tji_cache_entry *e, LLVMMemoryBufferRef buf)
{
    tj_context *ctx = bd->ctx;
    if (bd->target == TJ_TARGET_CUDA) {
        size_t len = LLVMGetBufferSize(buf);
        e->ptx = malloc(len + 1);
        if (e->ptx) {
            memcpy(e->ptx, LLVMGetBufferStart(buf), len);
            e->ptx[len] = 0;
            e->ptx_len = len;
        }
        LLVMDisposeMemoryBuffer(buf);
        return e->ptx ? TJ_OK : tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    }
    const char *names[64];
    for (int i = 0; i < bd->n && i < 64; i++)
        names[i] = bd->descs[i].entry;
    return tji_cache_load_object(ctx, e, buf, names, bd->n); /* takes 'buf' over */
}

/* Code for the key from the on-disk cache, when a valid file is there. */
static tji_cache_entry *
from_disk(build *bd)
{
    size_t len;
    uint8_t *payload = tji_disk_cache_read(bd->key, bd->target, &len);
    if (!payload)
        return NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)payload, len,
                                                                        "tilejit-cache");
    free(payload);
    tji_cache_entry *e = tji_cache_add(bd->ctx, bd->key, bd->target);
    if (!e) {
        LLVMDisposeMemoryBuffer(buf);
        return NULL;
    }
    if (fill_entry(bd, e, buf) != TJ_OK) {
        tji_cache_remove(bd->ctx, e); /* unusable: compile instead */
        tji_ctx_clear_error(bd->ctx);
        return NULL;
    }
    return e;
}

static tj_status
compile(build *bd, tji_cache_entry **out)
{
    tj_context *ctx = bd->ctx;
    tj_status st = optimize(bd);
    if (st != TJ_OK)
        return st;
    if (bd->o->keep_ir) {
        /* Now: code generation changes the module (CodeGenPrepare), and a cache hit keeps
         * the IR as it is here. */
        char *ir = LLVMPrintModuleToString(bd->m);
        bd->ir = ir ? strdup(ir) : NULL;
        LLVMDisposeMessage(ir);
    }
    LLVMMemoryBufferRef buf = NULL;
    st = tji_emit_code(ctx, bd->m, bd->tm, bd->target == TJ_TARGET_CUDA, &buf);
    if (st != TJ_OK)
        return st;
    tji_cache_entry *e = tji_cache_add(ctx, bd->key, bd->target);
    if (!e) {
        LLVMDisposeMemoryBuffer(buf);
        return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    }
    tji_disk_cache_write(bd->key, bd->target, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf));
    st = fill_entry(bd, e, buf); /* takes 'buf' over */
    if (st != TJ_OK) {
        tji_cache_remove(ctx, e); /* never leave a half-made entry to be found */
        return st;
    }
    *out = e;
    return TJ_OK;
}

static tj_status
finish_module(build *bd, tji_cache_entry *e, bool cached, tj_module **out)
{
    tj_module *mod = calloc(1, sizeof *mod);
    if (!mod)
        return tji_ctx_fail(bd->ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    mod->ctx = bd->ctx;
    mod->target = bd->target;
    mod->kernels = bd->descs;
    mod->nkernels = bd->n;
    mod->code = e;
    mod->cached = cached;
    memcpy(mod->key, bd->key, sizeof mod->key);
    if (bd->target == TJ_TARGET_CPU)
        for (int i = 0; i < bd->n; i++)
            mod->kernels[i].cpu_entry = (tji_cpu_entry)(uintptr_t)e->addrs[i];
    if (bd->o->keep_ir && !bd->ir) {
        char *ir = LLVMPrintModuleToString(bd->m);
        bd->ir = ir ? strdup(ir) : NULL;
        LLVMDisposeMessage(ir);
    }
    mod->ir = bd->ir;
    bd->ir = NULL;
    bd->descs = NULL;
    TJI_LIST_ADD(bd->ctx->modules, mod);
    *out = mod;
    return TJ_OK;
}

static tj_status
build_run(build *bd, tj_kernel *const *ks, size_t n, tj_module **out)
{
    tj_context *ctx = bd->ctx;
    bd->tgt = bd->target == TJ_TARGET_CUDA ? &tji_target_nvptx : &tji_target_host;
    tj_status st = link_all(ctx, &bd->m, ks, n);
    if (st == TJ_OK)
        st = bd->tgt->lower(ctx, bd->m, ks, n, bd->descs, bd->tm);
    if (st != TJ_OK)
        return st;
    internalize(bd->m, bd->descs, bd->n);
    module_key(ctx, bd->m, bd->tm, bd->arch, bd->o, bd->tgt, bd->key);
    entry_symbols(bd);
    tji_cache_entry *e = tji_cache_find(ctx, bd->key);
    if (!e)
        e = from_disk(bd);
    bool cached = e != NULL;
    /* Only modules that reach LLVM's passes are linked and verified, and need a target
     * machine: a cached one compiled before. */
    if ((!e || bd->o->keep_ir) && (st = prepare(bd)) != TJ_OK)
        return st;
    if (e && bd->o->keep_ir)
        st = optimize(bd);
    else if (!e)
        st = compile(bd, &e);
    if (st != TJ_OK)
        return st;
    return finish_module(bd, e, cached, out);
}

tj_status
tj_module_build(tj_context *ctx, tj_kernel *const *kernels, size_t nkernels,
                const tj_build_options *opts, tj_module **out)
{
    if (!ctx || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    tji_ctx_clear_error(ctx);
    ctx->llvm_error[0] = 0;
    tj_build_options zero = {0};
    build bd = {.ctx = ctx, .o = opts ? opts : &zero, .n = (int)nkernels};
    tj_status st = check_kernels(ctx, kernels, nkernels);
    for (size_t i = 0; st == TJ_OK && i < nkernels; i++)
        st = seal_tree(ctx, kernels[i]);
    for (size_t i = 0; st == TJ_OK && i < nkernels; i++)
        st = check_recursion(ctx, kernels[i]);
    if (st != TJ_OK)
        return st;
    if (nkernels > 64)
        return tji_ctx_fail(ctx, TJ_ERR_LIMIT, "tj_module_build: more than 64 kernels");
    if ((unsigned)bd.o->opt_level > TJ_OPT_O3)
        return tji_ctx_fail(ctx, TJ_ERR_INVALID,
                            "tj_module_build: option 'opt_level': %d is not a tj_opt_level",
                            (int)bd.o->opt_level);
    bd.target = kernels[0]->opts.target;
    if ((st = resolve_target(ctx, bd.target, bd.o, &bd.tm, &bd.arch)) != TJ_OK)
        return st;
    bd.descs = calloc(nkernels, sizeof *bd.descs);
    bool ok = bd.descs != NULL;
    for (size_t i = 0; ok && i < nkernels; i++)
        ok = fill_desc(&bd.descs[i], kernels[i]);
    st = ok ? build_run(&bd, kernels, nkernels, out)
            : tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    LLVMDisposeModule(bd.m);
    free(bd.ir);
    for (int i = 0; bd.descs && i < bd.n; i++)
        free_desc(&bd.descs[i]);
    free(bd.descs);
    return st;
}

tj_status
tj_kernel_build(tj_kernel *k, const tj_build_options *opts, tj_module **out)
{
    if (!k || !out)
        return TJ_ERR_INVALID;
    if (k->is_func) {
        *out = NULL;
        tji_ctx_clear_error(k->ctx);
        return tji_ctx_fail(k->ctx, TJ_ERR_INVALID,
                            "tj_kernel_build: '%s' is a function (made by tj_func_create); "
                            "build the kernels that call it",
                            k->name);
    }
    return tj_module_build(k->ctx, &k, 1, opts, out);
}

void
tj_module_destroy(tj_module *m)
{
    if (!m)
        return;
    TJI_LIST_REMOVE(m->ctx->modules, m);
    for (int i = 0; i < m->nkernels; i++)
        free_desc(&m->kernels[i]);
    free(m->kernels);
    free(m->ir);
    free(m);
}

tj_target
tj_module_get_target(const tj_module *m)
{
    return m ? m->target : TJ_TARGET_CPU;
}

const char *
tj_module_get_ptx(const tj_module *m)
{
    return m && m->target == TJ_TARGET_CUDA ? m->code->ptx : NULL;
}

const char *
tj_module_get_ir(const tj_module *m)
{
    return m ? m->ir : NULL;
}

bool
tj_module_is_cached(const tj_module *m)
{
    return m && m->cached;
}

const tji_kdesc *
tji_module_find(const tj_module *m, const char *name, int *index)
{
    for (int i = 0; m && name && i < m->nkernels; i++) {
        if (strcmp(m->kernels[i].name, name) == 0) {
            if (index)
                *index = i;
            return &m->kernels[i];
        }
    }
    return NULL;
}

/* ---- introspection ---------------------------------------------------------------------- */

int
tj_module_get_kernel_count(const tj_module *m)
{
    return m ? m->nkernels : 0;
}

const char *
tj_module_get_kernel_name(const tj_module *m, int index)
{
    return m && index >= 0 && index < m->nkernels ? m->kernels[index].name : NULL;
}

uint32_t
tj_module_get_block_dim(const tj_module *m, const char *kernel)
{
    const tji_kdesc *kd = tji_module_find(m, kernel, NULL);
    return kd ? kd->block_dim : 0;
}

int
tj_module_get_param_count(const tj_module *m, const char *kernel)
{
    const tji_kdesc *kd = tji_module_find(m, kernel, NULL);
    return kd ? kd->nparams : -1;
}

tj_status
tj_module_get_param(const tj_module *m, const char *kernel, int index, tj_param_info *out)
{
    const tji_kdesc *kd = tji_module_find(m, kernel, NULL);
    if (!out || !kd || index < 0 || index >= kd->nparams)
        return TJ_ERR_INVALID;
    const tji_kparam *p = &kd->params[index];
    *out = (tj_param_info){.name = p->name, .is_array = p->is_array, .type = p->type,
                           .ndim = p->is_array ? p->ndim : 0};
    return TJ_OK;
}
