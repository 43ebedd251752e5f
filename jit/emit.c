/*
 * jit/emit.c: LLVM-C helpers shared by jit/ and builtins/: common types and constants,
 * intrinsic and named calls, loads and stores between memory and register forms, the
 * thread state, barriers, conditional regions and kernel-error reports. Everything here
 * emits target-neutral IR: what differs per target is a hook (tj.hook.*) that
 * target_*.c defines.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

LLVMTypeRef
tji_i1(tj_context *c)
{
    return LLVMInt1TypeInContext(c->llctx);
}

LLVMTypeRef
tji_i8(tj_context *c)
{
    return LLVMInt8TypeInContext(c->llctx);
}

LLVMTypeRef
tji_i32(tj_context *c)
{
    return LLVMInt32TypeInContext(c->llctx);
}

LLVMTypeRef
tji_i64(tj_context *c)
{
    return LLVMInt64TypeInContext(c->llctx);
}

LLVMTypeRef
tji_ptr(tj_context *c)
{
    return LLVMPointerTypeInContext(c->llctx, 0);
}

LLVMTypeRef
tji_void(tj_context *c)
{
    return LLVMVoidTypeInContext(c->llctx);
}

LLVMValueRef
tji_const_i32(tj_context *c, int64_t v)
{
    return LLVMConstInt(tji_i32(c), (unsigned long long)v, 1);
}

LLVMValueRef
tji_const_i64(tj_context *c, int64_t v)
{
    return LLVMConstInt(tji_i64(c), (unsigned long long)v, 1);
}

void
tji_add_fn_attr(tj_context *c, LLVMValueRef fn, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->llctx, kind, 0));
}

LLVMTypeRef
tji_ts_type(tj_context *c)
{
    LLVMTypeRef p = tji_ptr(c), i64 = tji_i64(c), i32 = tji_i32(c);
    LLVMTypeRef fields[TJI_TS_NFIELDS] = {p,   p,   p,   i64, i64, i32, i32, i32,
                                          i32, i32, i32, i32, i32, i32, i32};
    return LLVMStructTypeInContext(c->llctx, fields, TJI_TS_NFIELDS, 0);
}

LLVMTypeRef
tji_errrec_type(tj_context *c)
{
    LLVMTypeRef i32 = tji_i32(c), i64 = tji_i64(c);
    LLVMTypeRef fields[] = {i32, i32, i64, i64, i64, i64, i32, i32};
    static_assert(sizeof(tji_error_record) == 48, "tji_error_record layout");
    return LLVMStructTypeInContext(c->llctx, fields, TJI_NELEMS(fields), 0);
}

LLVMValueRef
tji_build_intrinsic(LLVMModuleRef m, LLVMBuilderRef b, unsigned id, LLVMTypeRef *tys,
                    unsigned ntys, LLVMValueRef *args, unsigned nargs)
{
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, tys, ntys);
    LLVMTypeRef fty = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, tys, ntys);
    return LLVMBuildCall2(b, fty, fn, args, nargs, "");
}

LLVMValueRef
tji_emit_intrinsic(tj_kernel *k, const char *name, LLVMTypeRef *tys, unsigned ntys,
                   LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    TJI_ASSERT(id != 0);
    return tji_build_intrinsic(k->llmod, k->llb, id, tys, ntys, args, nargs);
}

LLVMValueRef
tji_emit_call_named(tj_kernel *k, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                    unsigned nargs)
{
    LLVMTypeRef tys[8];
    TJI_ASSERT(nargs <= 8);
    for (unsigned i = 0; i < nargs; i++)
        tys[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, tys, nargs, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(k->llmod, name);
    if (!fn)
        fn = LLVMAddFunction(k->llmod, name, fty);
    return LLVMBuildCall2(k->llb, fty, fn, args, nargs, "");
}

LLVMValueRef
tji_emit_load(tj_kernel *k, const tj_type *type, LLVMValueRef ptr)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (type->kind == TJ_TYPE_SCALAR) {
        LLVMValueRef v = LLVMBuildLoad2(b, type->llmem, ptr, "");
        if (type->dtype == TJ_DTYPE_BOOL)
            v = LLVMBuildICmp(b, LLVMIntNE, v, LLVMConstInt(tji_i8(c), 0, 0), "");
        return v;
    }
    if (type->kind == TJ_TYPE_STRUCT) {
        LLVMValueRef agg = LLVMGetUndef(type->llreg);
        for (size_t i = 0; i < type->nfields; i++) {
            LLVMValueRef fp = LLVMBuildStructGEP2(b, type->llmem, ptr, (unsigned)i, "");
            LLVMValueRef fv = tji_emit_load(k, type->fields[i].type, fp);
            agg = LLVMBuildInsertValue(b, agg, fv, (unsigned)i, "");
        }
        return agg;
    }
    LLVMTypeRef el = tji_dtype_llvm(c, type->dtype);
    LLVMValueRef vec = LLVMGetUndef(type->llreg);
    for (int i = 0; i < type->ncomp; i++) {
        LLVMValueRef idx[] = {tji_const_i32(c, i)};
        LLVMValueRef ep = LLVMBuildGEP2(b, el, ptr, idx, 1, "");
        LLVMValueRef ev = LLVMBuildLoad2(b, el, ep, "");
        vec = LLVMBuildInsertElement(b, vec, ev, tji_const_i32(c, i), "");
    }
    return vec;
}

void
tji_emit_store(tj_kernel *k, const tj_type *type, LLVMValueRef value, LLVMValueRef ptr)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (type->kind == TJ_TYPE_SCALAR) {
        if (type->dtype == TJ_DTYPE_BOOL)
            value = LLVMBuildZExt(b, value, tji_i8(c), "");
        LLVMBuildStore(b, value, ptr);
        return;
    }
    if (type->kind == TJ_TYPE_STRUCT) {
        for (size_t i = 0; i < type->nfields; i++) {
            LLVMValueRef fp = LLVMBuildStructGEP2(b, type->llmem, ptr, (unsigned)i, "");
            LLVMValueRef fv = LLVMBuildExtractValue(b, value, (unsigned)i, "");
            tji_emit_store(k, type->fields[i].type, fv, fp);
        }
        return;
    }
    LLVMTypeRef el = tji_dtype_llvm(c, type->dtype);
    for (int i = 0; i < type->ncomp; i++) {
        LLVMValueRef idx[] = {tji_const_i32(c, i)};
        LLVMValueRef ep = LLVMBuildGEP2(b, el, ptr, idx, 1, "");
        LLVMBuildStore(b, LLVMBuildExtractElement(b, value, tji_const_i32(c, i), ""), ep);
    }
}

LLVMValueRef
tji_emit_ts_load(tj_kernel *k, int field)
{
    tj_context *c = k->ctx;
    LLVMTypeRef tsty = tji_ts_type(c);
    LLVMValueRef p = LLVMBuildStructGEP2(k->llb, tsty, k->ts, (unsigned)field, "");
    return LLVMBuildLoad2(k->llb, LLVMStructGetTypeAtIndex(tsty, (unsigned)field), p, "");
}

LLVMValueRef
tji_emit_linear_tid(tj_kernel *k)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef block = tji_emit_ts_load(k, TJI_TS_BLOCK);
    LLVMValueRef lane = LLVMBuildZExt(b, tji_emit_ts_load(k, TJI_TS_LANE), tji_i64(k->ctx), "");
    LLVMValueRef base = LLVMBuildMul(b, block, tji_const_i64(k->ctx, k->block_dim), "");
    return LLVMBuildAdd(b, base, lane, "");
}

void
tji_emit_barrier(tj_kernel *k)
{
    LLVMValueRef args[] = {k->ts};
    tji_emit_call_named(k, "tj.hook.barrier", tji_void(k->ctx), args, 1);
    k->barriers++;
}

bool
tji_has_native_shuffle(const tj_kernel *k)
{
    return k->opts.target == TJ_TARGET_CUDA;
}

bool
tji_lanes_run_concurrently(const tj_kernel *k)
{
    return k->opts.target == TJ_TARGET_CUDA;
}

size_t
tji_shuffle_scratch_bytes(const tj_kernel *k)
{
    if (tji_has_native_shuffle(k) || k->block_dim == 1)
        return 0;
    return ((size_t)k->block_dim + 31) / 32 * 32 * 8; /* two words a lane */
}

LLVMValueRef
tji_emit_shfl_xor32(tj_kernel *k, LLVMValueRef v, int mask, LLVMValueRef scratch)
{
    tj_context *c = k->ctx;
    LLVMValueRef args[] = {k->ts, scratch ? scratch : LLVMConstNull(tji_ptr(c)), v,
                           tji_const_i32(c, mask)};
    return tji_emit_call_named(k, "tj.hook.shfl_xor", tji_i32(c), args, 4);
}

LLVMValueRef
tji_emit_shfl_xor(tj_kernel *k, const tj_type *t, LLVMValueRef v, int mask, LLVMValueRef scratch)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    size_t words = (t->size + 3) / 4;
    LLVMTypeRef wty = LLVMArrayType2(tji_i32(c), words);
    LLVMValueRef buf = tji_alloca(k, wty, "shfl");
    tji_emit_store(k, t, v, buf);
    for (size_t i = 0; i < words; i++) {
        LLVMValueRef idx[] = {tji_const_i32(c, 0), tji_const_i32(c, (int64_t)i)};
        LLVMValueRef p = LLVMBuildGEP2(b, wty, buf, idx, 2, "");
        LLVMValueRef w = LLVMBuildLoad2(b, tji_i32(c), p, "");
        LLVMBuildStore(b, tji_emit_shfl_xor32(k, w, mask, scratch), p);
    }
    return tji_emit_load(k, t, buf);
}

LLVMValueRef
tji_emit_ballot(tj_kernel *k, LLVMValueRef pred)
{
    TJI_ASSERT(tji_lanes_run_concurrently(k));
    LLVMValueRef args[] = {k->ts, LLVMBuildZExt(k->llb, pred, tji_i32(k->ctx), "")};
    return tji_emit_call_named(k, "tj.hook.ballot", tji_i32(k->ctx), args, 2);
}

LLVMValueRef
tji_emit_lanemask_lt(tj_kernel *k)
{
    TJI_ASSERT(tji_lanes_run_concurrently(k));
    return tji_emit_call_named(k, "tj.hook.lanemask_lt", tji_i32(k->ctx), &k->ts, 1);
}

LLVMValueRef
tji_emit_shfl_idx32(tj_kernel *k, LLVMValueRef v, LLVMValueRef src)
{
    TJI_ASSERT(tji_lanes_run_concurrently(k));
    LLVMValueRef args[] = {k->ts, v, src};
    return tji_emit_call_named(k, "tj.hook.shfl_idx", tji_i32(k->ctx), args, 3);
}

LLVMValueRef
tji_emit_nactive(tj_kernel *k)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    if (k->block_dim == 1)
        return tji_const_i32(c, 1); /* a block of one lane that runs */
    LLVMValueRef B = tji_const_i64(c, k->block_dim);
    LLVMValueRef first = LLVMBuildMul(b, tji_emit_ts_load(k, TJI_TS_BLOCK), B, "");
    LLVMValueRef left = LLVMBuildSub(b, tji_emit_ts_load(k, TJI_TS_N), first, "");
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntUGE, left, B, "");
    return LLVMBuildTrunc(b, LLVMBuildSelect(b, full, B, left, ""), tji_i32(c), "nactive");
}

void
tji_emit_cond_begin(tj_kernel *k, LLVMValueRef cond, tji_cond *c)
{
    c->from_bb = LLVMGetInsertBlock(k->llb);
    c->then_bb = LLVMAppendBasicBlockInContext(k->ctx->llctx, k->llfn, "cond.then");
    c->done_bb = LLVMAppendBasicBlockInContext(k->ctx->llctx, k->llfn, "cond.done");
    LLVMBuildCondBr(k->llb, cond, c->then_bb, c->done_bb);
    LLVMPositionBuilderAtEnd(k->llb, c->then_bb);
}

void
tji_emit_cold_begin(tj_kernel *k, LLVMValueRef cond, tji_cond *c)
{
    LLVMTypeRef i1t = tji_i1(k->ctx);
    LLVMValueRef args[] = {cond, LLVMConstInt(i1t, 0, 0)};
    tji_emit_cond_begin(k, tji_emit_intrinsic(k, "llvm.expect", &i1t, 1, args, 2), c);
}

void
tji_emit_cond_end(tj_kernel *k, tji_cond *c)
{
    c->then_bb = LLVMGetInsertBlock(k->llb); /* the region may have added blocks */
    LLVMBuildBr(k->llb, c->done_bb);
    LLVMPositionBuilderAtEnd(k->llb, c->done_bb);
}

LLVMValueRef
tji_emit_count_begin(tj_kernel *k, tji_count *lp, LLVMValueRef first, const char *var,
                     const char *load, const char *name)
{
    LLVMContextRef c = k->ctx->llctx;
    char label[64];
    lp->var = tji_alloca(k, tji_i32(k->ctx), var);
    LLVMBuildStore(k->llb, first, lp->var);
    snprintf(label, sizeof label, "%s.head", name);
    lp->head = LLVMAppendBasicBlockInContext(c, k->llfn, label);
    snprintf(label, sizeof label, "%s.body", name);
    lp->body = LLVMAppendBasicBlockInContext(c, k->llfn, label);
    snprintf(label, sizeof label, "%s.done", name);
    lp->done = LLVMAppendBasicBlockInContext(c, k->llfn, label);
    LLVMBuildBr(k->llb, lp->head);
    LLVMPositionBuilderAtEnd(k->llb, lp->head);
    return LLVMBuildLoad2(k->llb, tji_i32(k->ctx), lp->var, load);
}

void
tji_emit_count_test(tj_kernel *k, tji_count *lp, LLVMValueRef go)
{
    LLVMBuildCondBr(k->llb, go, lp->body, lp->done);
    LLVMPositionBuilderAtEnd(k->llb, lp->body);
}

void
tji_emit_count_end(tj_kernel *k, tji_count *lp, LLVMValueRef i, int64_t step, bool nuw)
{
    LLVMValueRef by = tji_const_i32(k->ctx, step);
    LLVMValueRef next = nuw ? LLVMBuildNUWAdd(k->llb, i, by, "") : LLVMBuildAdd(k->llb, i, by, "");
    LLVMBuildStore(k->llb, next, lp->var);
    LLVMBuildBr(k->llb, lp->head);
    LLVMPositionBuilderAtEnd(k->llb, lp->done);
}

static bool
is_int(LLVMValueRef v, unsigned long long n)
{
    return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == n;
}

LLVMValueRef
tji_emit_add(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool nuw)
{
    if (is_int(y, 0))
        return x;
    if (is_int(x, 0))
        return y;
    return nuw ? LLVMBuildNUWAdd(b, x, y, "") : LLVMBuildAdd(b, x, y, "");
}

LLVMValueRef
tji_emit_mul(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y, bool nuw)
{
    if (is_int(y, 1) || is_int(x, 0))
        return x;
    if (is_int(x, 1) || is_int(y, 0))
        return y;
    return nuw ? LLVMBuildNUWMul(b, x, y, "") : LLVMBuildMul(b, x, y, "");
}

LLVMValueRef
tji_emit_phi2(LLVMBuilderRef b, LLVMValueRef v1, LLVMBasicBlockRef bb1, LLVMValueRef v2,
              LLVMBasicBlockRef bb2)
{
    LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(v1), "");
    LLVMValueRef vals[] = {v1, v2};
    LLVMBasicBlockRef bbs[] = {bb1, bb2};
    LLVMAddIncoming(phi, vals, bbs, 2);
    return phi;
}

LLVMValueRef
tji_emit_cond_value(tj_kernel *k, tji_cond *c, LLVMValueRef v)
{
    tji_emit_cond_end(k, c);
    return tji_emit_phi2(k->llb, v, c->then_bb, LLVMConstNull(LLVMTypeOf(v)), c->from_bb);
}

/* The report helper, defined once per module: claims the record with a compare-and-swap
 * and fills it. Cold and out of line so that checks cost little code. */
static LLVMValueRef
report_fn(tj_kernel *k)
{
    static const char name[] = "tj.report";
    tj_context *c = k->ctx;
    LLVMValueRef fn = LLVMGetNamedFunction(k->llmod, name);
    if (fn)
        return fn;
    LLVMTypeRef i32 = tji_i32(c), i64 = tji_i64(c);
    LLVMTypeRef ps[] = {tji_ptr(c), i32, i64, i64, i64, i32};
    fn = LLVMAddFunction(k->llmod, name, LLVMFunctionType(tji_void(c), ps, 6, 0));
    LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    tji_add_fn_attr(c, fn, "noinline");
    tji_add_fn_attr(c, fn, "cold");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, fn, "entry");
    LLVMBasicBlockRef fill = LLVMAppendBasicBlockInContext(c->llctx, fn, "fill");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, fn, "done");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMTypeRef tsty = tji_ts_type(c), recty = tji_errrec_type(c);
    LLVMValueRef ts = LLVMGetParam(fn, 0);
    LLVMValueRef errp = LLVMBuildLoad2(b, tji_ptr(c),
                                       LLVMBuildStructGEP2(b, tsty, ts, TJI_TS_ERR, ""), "");
    LLVMValueRef cas = LLVMBuildAtomicCmpXchg(b, errp, LLVMConstInt(i32, 0, 0),
                                              LLVMConstInt(i32, 1, 0),
                                              LLVMAtomicOrderingMonotonic,
                                              LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef won = LLVMBuildExtractValue(b, cas, 1, "");
    LLVMBuildCondBr(b, won, fill, done);
    LLVMPositionBuilderAtEnd(b, fill);
    /* record fields: flag, site, value, lo, hi, block, lane, dim */
    LLVMValueRef block = LLVMBuildLoad2(b, i64,
                                        LLVMBuildStructGEP2(b, tsty, ts, TJI_TS_BLOCK, ""), "");
    LLVMValueRef lane = LLVMBuildLoad2(b, i32,
                                       LLVMBuildStructGEP2(b, tsty, ts, TJI_TS_LANE, ""), "");
    LLVMValueRef vals[] = {NULL, LLVMGetParam(fn, 1), LLVMGetParam(fn, 2), LLVMGetParam(fn, 3),
                           LLVMGetParam(fn, 4), block, lane, LLVMGetParam(fn, 5)};
    for (unsigned i = 1; i < TJI_NELEMS(vals); i++) {
        LLVMValueRef fp = LLVMBuildStructGEP2(b, recty, errp, i, "");
        LLVMValueRef st = LLVMBuildStore(b, vals[i], fp);
        LLVMSetVolatile(st, 1);
    }
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return fn;
}

void
tji_emit_report(tj_kernel *k, LLVMValueRef bad, int site, LLVMValueRef value, LLVMValueRef lo,
                LLVMValueRef hi, int dim)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef fn = report_fn(k);
    tji_cond cond;
    tji_emit_cond_begin(k, bad, &cond);
    LLVMValueRef args[] = {k->ts, tji_const_i32(c, site),
                           LLVMBuildSExt(b, value, tji_i64(c), ""),
                           LLVMBuildSExt(b, lo, tji_i64(c), ""),
                           LLVMBuildSExt(b, hi, tji_i64(c), ""), tji_const_i32(c, dim)};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, 6, "");
    tji_emit_cond_end(k, &cond);
}
