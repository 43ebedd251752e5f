/*
 * jit/control.c: structured control flow as begin/end pairs: if/else, for-range, while,
 * break, continue, return, and calls to user functions. Each begin opens a scope; values
 * made inside a scope are not usable after it ends (kernel.c checks). After a break,
 * continue or return the builder continues in a fresh block that nothing reaches, so
 * later calls in the same scope are harmless dead code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "internal.h"

static LLVMBasicBlockRef
new_block(tj_kernel *k, const char *name)
{
    return LLVMAppendBasicBlockInContext(k->ctx->llctx, k->llfn, name);
}

/* Ends the current block with a jump and continues in a block nothing reaches. */
static void
jump_and_continue_dead(tj_kernel *k, LLVMBasicBlockRef to)
{
    if (to)
        LLVMBuildBr(k->llb, to);
    LLVMPositionBuilderAtEnd(k->llb, new_block(k, "dead"));
    k->reachable = false;
}

static tji_scope *
push_scope(tj_kernel *k, const char *fn, tji_scope_kind kind)
{
    if (k->nscopes == TJI_MAX_SCOPES) {
        tji_fail(k, TJ_ERR_LIMIT, "%s: blocks nest deeper than %d", fn, TJI_MAX_SCOPES);
        return NULL;
    }
    tji_scope *s = &k->scopes[k->nscopes++];
    *s = (tji_scope){.kind = kind, .id = k->next_scope_id++, .reachable_at_start = k->reachable};
    return s;
}

static tji_scope *
top_scope(tj_kernel *k, const char *fn, tji_scope_kind a, tji_scope_kind b, const char *need)
{
    tji_scope *s = k->nscopes ? &k->scopes[k->nscopes - 1] : NULL;
    if (!s || (s->kind != a && s->kind != b)) {
        tji_fail(k, TJ_ERR_STATE, "%s: no open %s to close here", fn, need);
        return NULL;
    }
    return s;
}

static bool
check_bool(tj_kernel *k, const char *fn, tj_val *cond)
{
    char d[64];
    if (!tji_use(k, cond, fn, "cond"))
        return false;
    if (cond->kind != TJ_VAL_SCALAR || cond->type->kind != TJ_TYPE_SCALAR ||
        cond->type->dtype != TJ_DTYPE_BOOL)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'cond': %s is not bool", fn,
                        tji_val_describe(cond, d, sizeof d));
    return true;
}

/* ---- if/else --------------------------------------------------------------------------- */

bool
tj_if_begin(tj_kernel *k, tj_val *cond)
{
    if (!tji_enter(k, "tj_if_begin") || !check_bool(k, "tj_if_begin", cond))
        return false;
    tji_scope *s = push_scope(k, "tj_if_begin", TJI_SCOPE_THEN);
    if (!s)
        return false;
    LLVMBasicBlockRef then = new_block(k, "if.then");
    s->other = new_block(k, "if.else");
    s->merge = new_block(k, "if.end");
    LLVMBuildCondBr(k->llb, cond->ll, then, s->other);
    LLVMPositionBuilderAtEnd(k->llb, then);
    return true;
}

bool
tj_else_begin(tj_kernel *k)
{
    if (!tji_enter(k, "tj_else_begin"))
        return false;
    tji_scope *s = top_scope(k, "tj_else_begin", TJI_SCOPE_THEN, TJI_SCOPE_THEN, "tj_if_begin");
    if (!s)
        return false;
    LLVMBuildBr(k->llb, s->merge);
    s->then_reachable = k->reachable;
    s->kind = TJI_SCOPE_ELSE;
    s->id = k->next_scope_id++; /* then-branch values are not visible in the else-branch */
    LLVMPositionBuilderAtEnd(k->llb, s->other);
    k->reachable = s->reachable_at_start;
    return true;
}

bool
tj_if_end(tj_kernel *k)
{
    if (!tji_enter(k, "tj_if_end"))
        return false;
    tji_scope *s = top_scope(k, "tj_if_end", TJI_SCOPE_THEN, TJI_SCOPE_ELSE, "tj_if_begin");
    if (!s)
        return false;
    LLVMBuildBr(k->llb, s->merge);
    if (s->kind == TJI_SCOPE_THEN) {
        /* no else: the else block just falls through */
        LLVMPositionBuilderAtEnd(k->llb, s->other);
        LLVMBuildBr(k->llb, s->merge);
        k->reachable = true;
    } else {
        k->reachable = k->reachable || s->then_reachable;
    }
    k->reachable = k->reachable && s->reachable_at_start;
    LLVMPositionBuilderAtEnd(k->llb, s->merge);
    k->nscopes--;
    return true;
}

/* ---- for-range ------------------------------------------------------------------------- */

static bool
check_range(tj_kernel *k, tj_val *start, tj_val *stop, tj_val *step)
{
    static const char *fn = "tj_for_begin";
    char d[64];
    if (!tji_use(k, start, fn, "start") || !tji_use(k, stop, fn, "stop") ||
        !tji_use(k, step, fn, "step"))
        return false;
    tj_val *vs[] = {start, stop, step};
    const char *names[] = {"start", "stop", "step"};
    for (int i = 0; i < 3; i++) {
        const tj_type *t = vs[i]->type;
        if (vs[i]->kind != TJ_VAL_SCALAR || !tji_type_is_scalar(t) || !tji_dtype_is_int(t->dtype))
            return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s': %s is not an integer", fn,
                            names[i], tji_val_describe(vs[i], d, sizeof d));
        if (t != start->type)
            return tji_fail(k, TJ_ERR_INVALID,
                            "%s: argument '%s': %s differs from 'start' (%s)", fn, names[i],
                            t->name, start->type->name);
    }
    int64_t c;
    if (tji_val_const_int(step, &c) && c == 0)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 'step': the step is 0", fn);
    return true;
}

/* ---- which loops stay rolled on the GPU ---------------------------------------------------
 * LLVM fully unrolls every loop of known small trip count, and on the GPU each unrolled
 * copy costs code generation time in proportion (the compaction seed's two iterations of a
 * push: 13% of its build). A loop that synchronises the block in every iteration gains
 * nothing measurable from it at run time, except where the loop's counter indexes
 * kernel-local memory (a register tile's slots): only unrolling makes those indices constant,
 * so that the tile stays in registers instead of local memory. So a for loop whose body
 * emits a barrier, and whose counter reaches no such index, is marked not to be unrolled;
 * target_nvptx.c removes the mark before code generation, so that ptxas still decides for
 * itself. The walk below follows the counter's value through arithmetic and through the
 * kernel-local variables it is stored into; where it cannot follow (a call, a pointer of
 * unknown origin) it answers yes, which leaves the loop as LLVM would have it. */

enum { TAINT_MAX = 512 };

typedef struct taint {
    LLVMValueRef vals[TAINT_MAX];   /* values that follow the counter */
    LLVMValueRef mems[TAINT_MAX];   /* allocas holding such values */
    int nvals, nmems, todo;         /* vals[todo..] are still to be visited */
    bool local_index;               /* found one, or gave up */
} taint;

static bool
in(LLVMValueRef const *set, int n, LLVMValueRef v)
{
    for (int i = 0; i < n; i++)
        if (set[i] == v)
            return true;
    return false;
}

static void
taint_value(taint *t, LLVMValueRef v)
{
    if (in(t->vals, t->nvals, v))
        return;
    if (t->nvals == TAINT_MAX)
        t->local_index = true;
    else
        t->vals[t->nvals++] = v;
}

/* What a pointer is an offset of: through GEPs and casts, instructions or constants. */
LLVMValueRef
tji_pointer_base(LLVMValueRef p)
{
    for (;;) {
        LLVMOpcode op = LLVMIsAInstruction(p)    ? LLVMGetInstructionOpcode(p)
                        : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                                 : LLVMRet;
        if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast)
            return p;
        p = LLVMGetOperand(p, 0);
    }
}

LLVMBasicBlockRef
tji_only_succ(LLVMBasicBlockRef bb)
{
    LLVMValueRef t = bb ? LLVMGetBasicBlockTerminator(bb) : NULL;
    return t && LLVMGetInstructionOpcode(t) == LLVMBr && !LLVMIsConditional(t)
               ? LLVMGetSuccessor(t, 0)
               : NULL;
}

LLVMValueRef
tji_cond_br(LLVMBasicBlockRef bb)
{
    LLVMValueRef t = bb ? LLVMGetBasicBlockTerminator(bb) : NULL;
    return t && LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t) ? t : NULL;
}

LLVMUseRef
tji_use_past_user(LLVMUseRef u, LLVMValueRef user)
{
    while (u && LLVMGetUser(u) == user)
        u = LLVMGetNextUse(u);
    return u;
}

static bool
is_gep(LLVMValueRef p)
{
    return LLVMIsAGetElementPtrInst(p) ||
           (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
}

void
tji_split_address(LLVMTargetDataRef td, LLVMValueRef p, int max_vars, tji_address *a)
{
    *a = (tji_address){.base = p};
    if (max_vars > TJI_ADDRESS_TERMS)
        max_vars = TJI_ADDRESS_TERMS;
    for (; is_gep(p); p = LLVMGetOperand(p, 0)) {
        LLVMTypeRef ty = LLVMGetGEPSourceElementType(p);
        if (!LLVMTypeIsSized(ty))
            break;
        long long here = 0;
        LLVMValueRef var = NULL;
        int n = LLVMGetNumOperands(p), i = 1;
        for (; i < n; i++) {
            LLVMValueRef idx = LLVMGetOperand(p, (unsigned)i);
            if (i == 1) {
                long long size = (long long)LLVMABISizeOfType(td, ty);
                if (LLVMIsAConstantInt(idx))
                    here += LLVMConstIntGetSExtValue(idx) * size;
                else if (a->nvars < max_vars)
                    var = idx;
                else
                    break;
                continue;
            }
            if (!LLVMIsAConstantInt(idx))
                break;
            long long v = LLVMConstIntGetSExtValue(idx);
            if (LLVMGetTypeKind(ty) == LLVMArrayTypeKind) {
                ty = LLVMGetElementType(ty);
                here += v * (long long)LLVMABISizeOfType(td, ty);
            } else if (LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
                here += (long long)LLVMOffsetOfElement(td, ty, (unsigned)v);
                ty = LLVMStructGetTypeAtIndex(ty, (unsigned)v);
            } else {
                break; /* vector indices: not in the shapes met */
            }
        }
        if (i < n)
            break; /* this GEP is the base */
        if (var) {
            a->var[a->nvars] = var;
            a->scale[a->nvars++] =
                (long long)LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(p));
        }
        a->off += here;
        a->base = LLVMGetOperand(p, 0);
    }
}

/* Whether p may point into kernel-local memory: anything but a global (shared memory), a
 * pointer loaded from memory, or a parameter of the body after the thread state (an
 * array's or a stack's data, kernel.c's bind_params). */
static bool
may_be_local(LLVMValueRef p)
{
    p = tji_pointer_base(p);
    if (LLVMIsAArgument(p))
        return p == LLVMGetFirstParam(LLVMGetParamParent(p));
    return !LLVMIsAGlobalValue(p) && !LLVMIsALoadInst(p);
}

/* The alloca a now holds values that follow the counter: so do its loads. */
static void
taint_memory(taint *t, LLVMValueRef a)
{
    if (in(t->mems, t->nmems, a))
        return;
    if (t->nmems == TAINT_MAX) {
        t->local_index = true;
        return;
    }
    t->mems[t->nmems++] = a;
    LLVMValueRef ptrs[TAINT_MAX] = {a};
    for (int n = 1; n > 0 && !t->local_index;) {
        LLVMValueRef p = ptrs[--n];
        for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            switch (LLVMIsAInstruction(user) ? LLVMGetInstructionOpcode(user) : LLVMRet) {
            case LLVMLoad:
                taint_value(t, user);
                break;
            case LLVMStore:
                if (LLVMGetOperand(user, 0) == p) /* the pointer itself escapes */
                    t->local_index = true;
                break;
            case LLVMGetElementPtr:
            case LLVMBitCast:
            case LLVMAddrSpaceCast:
                if (n == TAINT_MAX)
                    t->local_index = true;
                else
                    ptrs[n++] = user;
                break;
            default: /* a call, a phi or select of pointers: not followed */
                t->local_index = true;
                break;
            }
        }
    }
}

/* Whether a call only computes a value from its operands: an intrinsic without pointers. */
static bool
pure_call(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
        return false;
    for (int i = 0, n = LLVMGetNumArgOperands(call); i < n; i++)
        if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(call, (unsigned)i))) ==
            LLVMPointerTypeKind)
            return false;
    return true;
}

/* One use of v, a value that follows the counter, by 'user'. */
static void
visit_use(taint *t, LLVMValueRef v, LLVMValueRef user)
{
    switch (LLVMGetInstructionOpcode(user)) {
    case LLVMLoad:
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
        /* as an address: an index into local memory; else only the data moves */
        if (LLVMGetOperand(user, 0) == v && may_be_local(v))
            t->local_index = true;
        break;
    case LLVMStore: {
        LLVMValueRef ptr = LLVMGetOperand(user, 1);
        if (ptr == v) {
            if (may_be_local(v))
                t->local_index = true;
        } else if (LLVMIsAAllocaInst(tji_pointer_base(ptr))) {
            taint_memory(t, tji_pointer_base(ptr));
        } else if (may_be_local(ptr)) {
            t->local_index = true;
        }
        break;
    }
    case LLVMCall:
        if (!pure_call(user))
            t->local_index = true;
        else
            taint_value(t, user);
        break;
    case LLVMBr:
    case LLVMSwitch:
    case LLVMRet:
        break;
    default: /* arithmetic, compares, selects, casts, phis, GEPs */
        taint_value(t, user);
        break;
    }
}

static bool
counter_reaches_local_index(LLVMValueRef counter)
{
    taint *t = calloc(1, sizeof *t);
    if (!t)
        return true;
    taint_memory(t, counter);
    while (t->todo < t->nvals && !t->local_index) {
        LLVMValueRef v = t->vals[t->todo++];
        for (LLVMUseRef u = LLVMGetFirstUse(v); u && !t->local_index; u = LLVMGetNextUse(u))
            visit_use(t, v, LLVMGetUser(u));
    }
    bool r = t->local_index;
    free(t);
    return r;
}

/* Gives the loop of this latch an identity, {itself, props[0], ...}. */
static void
set_loop_id(tj_context *c, LLVMValueRef latch, const LLVMMetadataRef *props, int n)
{
    LLVMMetadataRef ops[4] = {LLVMTemporaryMDNode(c->llctx, NULL, 0)};
    for (int i = 0; i < n && i < 3; i++)
        ops[i + 1] = props[i];
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c->llctx, ops, (size_t)n + 1);
    LLVMMetadataReplaceAllUsesWith(ops[0], loop); /* the loop id names itself; frees ops[0] */
    LLVMSetMetadata(latch, LLVMGetMDKindIDInContext(c->llctx, "llvm.loop", 9),
                    LLVMMetadataAsValue(c->llctx, loop));
}

/* A property of one string. */
static LLVMMetadataRef
loop_flag(tj_context *c, const char *name)
{
    LLVMMetadataRef str = LLVMMDStringInContext2(c->llctx, name, strlen(name));
    return LLVMMDNodeInContext2(c->llctx, &str, 1);
}

/* Marks the loop of this latch not to be unrolled (llvm.loop.unroll.disable). */
void
tji_keep_rolled(tj_context *c, LLVMValueRef latch)
{
    LLVMMetadataRef props[] = {loop_flag(c, "llvm.loop.unroll.disable")};
    set_loop_id(c, latch, props, 1);
}

/* Keeps LLVM's loop vectoriser off the loop of this latch (llvm.loop.vectorize.enable
 * false): a loop over rows whose loop over a row's elements, unrolled, is to be vectorised
 * instead (by the SLP vectoriser), not the rows across. */
void
tji_keep_unvectorised(tj_context *c, LLVMValueRef latch)
{
    LLVMMetadataRef off[] = {
        LLVMMDStringInContext2(c->llctx, "llvm.loop.vectorize.enable", 26),
        LLVMValueAsMetadata(LLVMConstInt(tji_i1(c), 0, 0))};
    LLVMMetadataRef props[] = {LLVMMDNodeInContext2(c->llctx, off, 2)};
    set_loop_id(c, latch, props, 1);
}

/* Marks the loop of this latch as a cooperative block's loop over its lanes ("tj.lanes",
 * which jit/interchange.c looks for) and asks LLVM's vectoriser for one vector per
 * iteration (llvm.loop.interleave.count 1), so that its scalar remainder is under one
 * vector. */
void
tji_mark_lane_loop(tj_context *c, LLVMValueRef latch, bool rolled)
{
    LLVMMetadataRef count[] = {
        LLVMMDStringInContext2(c->llctx, "llvm.loop.interleave.count", 26),
        LLVMValueAsMetadata(tji_const_i32(c, 1))};
    LLVMMetadataRef props[] = {LLVMMDNodeInContext2(c->llctx, count, 2),
                               loop_flag(c, TJI_LANES_MD),
                               loop_flag(c, "llvm.loop.unroll.disable")};
    set_loop_id(c, latch, props, rolled ? 3 : 2);
}

void
tji_mark_adds_loop(tj_context *c, LLVMValueRef latch)
{
    LLVMMetadataRef props[] = {loop_flag(c, "llvm.loop.unroll.disable"),
                               loop_flag(c, TJI_ADDS_MD)};
    set_loop_id(c, latch, props, 2);
}

bool
tji_calls_named(LLVMValueRef v, const char *const *prefixes, size_t n)
{
    LLVMValueRef fn = v && LLVMIsACallInst(v) ? LLVMGetCalledValue(v) : NULL;
    if (!fn || !LLVMIsAFunction(fn))
        return false;
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    for (size_t i = 0; i < n; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

bool
tji_loop_flag(tj_context *c, LLVMValueRef t, const char *flag)
{
    LLVMValueRef id = LLVMGetMetadata(t, LLVMGetMDKindIDInContext(c->llctx, "llvm.loop", 9));
    if (!id)
        return false;
    unsigned n = LLVMGetMDNodeNumOperands(id);
    LLVMValueRef ops[16];
    if (n > 16)
        return false;
    LLVMGetMDNodeOperands(id, ops);
    for (unsigned i = 1; i < n; i++) {
        if (!ops[i] || LLVMGetMDNodeNumOperands(ops[i]) != 1)
            continue;
        LLVMValueRef name;
        LLVMGetMDNodeOperands(ops[i], &name);
        unsigned len = 0;
        const char *str = name ? LLVMGetMDString(name, &len) : NULL;
        if (str && len == strlen(flag) && memcmp(str, flag, len) == 0)
            return true;
    }
    return false;
}

int
tji_lane_loop_latches(tj_context *c, LLVMValueRef fn, LLVMBasicBlockRef *out, int max)
{
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && n < max;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t && LLVMIsABranchInst(t) && tji_loop_flag(c, t, TJI_LANES_MD))
            out[n++] = bb;
    }
    return n;
}

tj_val *
tj_for_begin(tj_kernel *k, tj_val *start, tj_val *stop, tj_val *step)
{
    if (!tji_enter(k, "tj_for_begin") || !check_range(k, start, stop, step))
        return NULL;
    tji_scope *s = push_scope(k, "tj_for_begin", TJI_SCOPE_FOR);
    if (!s)
        return NULL;
    LLVMBuilderRef b = k->llb;
    const tj_type *t = start->type;
    bool sg = tji_dtype_is_signed(t->dtype);
    s->counter = tji_alloca(k, t->llreg, "for.i");
    s->counter_type = t;
    s->step = step->ll;
    s->stop = stop->ll;
    s->start = start->ll;
    s->barriers_at_start = k->barriers;
    s->shared_calls_at_start = k->shared_calls;
    s->serial_pushes_at_start = k->serial_pushes;
    s->shared_adds_at_start = k->shared_adds;
    LLVMBuildStore(b, start->ll, s->counter);
    LLVMBasicBlockRef head = new_block(k, "for.head"), body = new_block(k, "for.body");
    s->other = head;
    s->cont = new_block(k, "for.next");
    s->merge = new_block(k, "for.end");
    s->enter = LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef i = LLVMBuildLoad2(b, t->llreg, s->counter, "i");
    s->ivar = i;
    /* Python's range: step > 0 runs while i < stop, step < 0 while i > stop. */
    LLVMValueRef zero = LLVMConstNull(t->llreg);
    LLVMValueRef up = LLVMBuildICmp(b, sg ? LLVMIntSGT : LLVMIntNE, step->ll, zero, "");
    LLVMValueRef lt = LLVMBuildICmp(b, sg ? LLVMIntSLT : LLVMIntULT, i, stop->ll, "");
    LLVMValueRef gt = LLVMBuildICmp(b, sg ? LLVMIntSGT : LLVMIntUGT, i, stop->ll, "");
    LLVMValueRef down = LLVMBuildICmp(b, LLVMIntSLT, step->ll, zero, "");
    LLVMValueRef go = LLVMBuildSelect(b, up, lt, LLVMBuildAnd(b, down, gt, ""), TJI_MORE_FLAG);
    LLVMBuildCondBr(b, go, body, s->merge);
    LLVMPositionBuilderAtEnd(b, body);
    return tji_scalar(k, t, i);
}

bool
tj_for_end(tj_kernel *k)
{
    if (!tji_enter_deferring(k, "tj_for_end"))
        return false;
    tji_scope *s = top_scope(k, "tj_for_end", TJI_SCOPE_FOR, TJI_SCOPE_FOR, "tj_for_begin");
    if (!s)
        return false;
    /* A body of local calls and barrier-deferring builtins (a loop of atomic scatter-adds)
     * owes its barrier once, after the loop: its iterations only add atomically. */
    if (k->shared_calls != s->shared_calls_at_start)
        tji_flush_barrier(k);
    LLVMBuilderRef b = k->llb;
    LLVMBuildBr(b, s->cont);
    LLVMPositionBuilderAtEnd(b, s->cont);
    LLVMValueRef i = LLVMBuildLoad2(b, s->counter_type->llreg, s->counter, "");
    /* Leave when i + step would reach or pass 'stop', so that the counter never wraps
     * (range(250, 255, 2) over uint8 runs 3 times). In the body i is inside the range, so
     * the distances below are exact as unsigned numbers. */
    bool sg = tji_dtype_is_signed(s->counter_type->dtype);
    LLVMValueRef zero = LLVMConstNull(s->counter_type->llreg);
    LLVMValueRef up = LLVMBuildICmp(b, sg ? LLVMIntSGT : LLVMIntNE, s->step, zero, "");
    LLVMValueRef more_up = LLVMBuildICmp(b, LLVMIntUGT, LLVMBuildSub(b, s->stop, i, ""),
                                         s->step, "");
    LLVMValueRef more_down = LLVMBuildICmp(b, LLVMIntUGT, LLVMBuildSub(b, i, s->stop, ""),
                                           LLVMBuildNeg(b, s->step, ""), "");
    LLVMValueRef more = LLVMBuildSelect(b, up, more_up, more_down, TJI_MORE_FLAG);
    LLVMBuildStore(b, LLVMBuildAdd(b, i, s->step, ""), s->counter);
    LLVMValueRef latch = LLVMBuildCondBr(b, more, s->other, s->merge);
    if (k->opts.target == TJ_TARGET_CUDA && k->barriers != s->barriers_at_start &&
        !counter_reaches_local_index(s->counter))
        tji_keep_rolled(k->ctx, latch);
    /* A cooperative CPU loop of scatter-adds into shared tiles, without a barrier, stays
     * rolled (and so does the lanes' loop around it, jit/lane_loops.c): jit/interchange.c
     * runs such a loop's trips in turn, every lane's trip j before any lane's trip j + 1,
     * and unrolls the loop over the lanes itself. Unrolled by LLVM (by 4), a trip read 4
     * rows of the block's data, a lane at a time, 1 KiB apart: the bench's cooperative
     * histogram ran at 0.62 of C on 64 MiB against 0.84 on 4 MiB. */
    if (k->opts.target == TJ_TARGET_CPU && k->block_dim > 1 &&
        k->barriers == s->barriers_at_start && k->shared_adds != s->shared_adds_at_start)
        tji_mark_adds_loop(k->ctx, latch);
    /* A loop of serial pushes stays rolled where compress_push.c vectorises it. */
    if (k->opts.target == TJ_TARGET_CPU && k->block_dim == 1 &&
        k->serial_pushes != s->serial_pushes_at_start && tji_host_compresses(k->ctx))
        tji_keep_rolled(k->ctx, latch);
    tji_version_loop(k, s);
    LLVMPositionBuilderAtEnd(b, s->merge);
    k->reachable = s->reachable_at_start;
    k->nscopes--;
    return true;
}

/* ---- while ----------------------------------------------------------------------------- */

bool
tj_while_begin(tj_kernel *k)
{
    if (!tji_enter(k, "tj_while_begin"))
        return false;
    tji_scope *s = push_scope(k, "tj_while_begin", TJI_SCOPE_WHILE_COND);
    if (!s)
        return false;
    s->cont = new_block(k, "while.cond");
    s->merge = new_block(k, "while.end");
    s->enter = LLVMBuildBr(k->llb, s->cont);
    LLVMPositionBuilderAtEnd(k->llb, s->cont);
    return true;
}

bool
tj_while_cond(tj_kernel *k, tj_val *cond)
{
    if (!tji_enter(k, "tj_while_cond"))
        return false;
    tji_scope *s = top_scope(k, "tj_while_cond", TJI_SCOPE_WHILE_COND, TJI_SCOPE_WHILE_COND,
                             "tj_while_begin");
    if (!s || !check_bool(k, "tj_while_cond", cond))
        return false;
    LLVMBasicBlockRef body = new_block(k, "while.body");
    LLVMBuildCondBr(k->llb, cond->ll, body, s->merge);
    LLVMPositionBuilderAtEnd(k->llb, body);
    s->kind = TJI_SCOPE_WHILE_BODY;
    return true;
}

bool
tj_while_end(tj_kernel *k)
{
    if (!tji_enter(k, "tj_while_end"))
        return false;
    if (k->nscopes > 0 && k->scopes[k->nscopes - 1].kind == TJI_SCOPE_WHILE_COND)
        return tji_fail(k, TJ_ERR_STATE,
                        "tj_while_end: the loop has no condition yet (call tj_while_cond)");
    tji_scope *s = top_scope(k, "tj_while_end", TJI_SCOPE_WHILE_BODY, TJI_SCOPE_WHILE_BODY,
                             "tj_while_begin");
    if (!s)
        return false;
    LLVMBuildBr(k->llb, s->cont);
    tji_version_loop(k, s);
    LLVMPositionBuilderAtEnd(k->llb, s->merge);
    k->reachable = s->reachable_at_start;
    k->nscopes--;
    return true;
}

/* ---- break, continue, return ----------------------------------------------------------- */

static tji_scope *
innermost_loop(tj_kernel *k, const char *fn)
{
    for (int i = k->nscopes - 1; i >= 0; i--) {
        tji_scope *s = &k->scopes[i];
        if (s->kind == TJI_SCOPE_WHILE_COND) {
            tji_fail(k, TJ_ERR_STATE,
                     "%s: not allowed in a while condition (before tj_while_cond)", fn);
            return NULL;
        }
        if (s->kind == TJI_SCOPE_FOR || s->kind == TJI_SCOPE_WHILE_BODY)
            return s;
    }
    tji_fail(k, TJ_ERR_STATE, "%s: not inside a loop", fn);
    return NULL;
}

bool
tj_break(tj_kernel *k)
{
    if (!tji_enter(k, "tj_break"))
        return false;
    tji_scope *s = innermost_loop(k, "tj_break");
    if (!s)
        return false;
    jump_and_continue_dead(k, s->merge);
    return true;
}

bool
tj_continue(tj_kernel *k)
{
    if (!tji_enter(k, "tj_continue"))
        return false;
    tji_scope *s = innermost_loop(k, "tj_continue");
    if (!s)
        return false;
    jump_and_continue_dead(k, s->cont);
    return true;
}

bool
tj_return(tj_kernel *k, tj_val *value)
{
    char d[64];
    if (!tji_enter(k, "tj_return"))
        return false;
    bool is_void = k->ret->kind == TJ_TYPE_VOID;
    if (is_void && value)
        return tji_fail(k, TJ_ERR_INVALID, "tj_return: '%s' returns nothing, got a value",
                        k->name);
    if (!is_void) {
        if (!value)
            return tji_fail(k, TJ_ERR_INVALID, "tj_return: '%s' returns %s, got no value",
                            k->name, k->ret->name);
        if (!tji_use(k, value, "tj_return", "value"))
            return false;
        if (value->kind != TJ_VAL_SCALAR || value->type != k->ret)
            return tji_fail(k, TJ_ERR_INVALID, "tj_return: argument 'value': %s, '%s' returns %s",
                            tji_val_describe(value, d, sizeof d), k->name, k->ret->name);
    }
    if (is_void)
        LLVMBuildRetVoid(k->llb);
    else
        LLVMBuildRet(k->llb, value->ll);
    jump_and_continue_dead(k, NULL);
    return true;
}

/* ---- calls ----------------------------------------------------------------------------- */

static bool
same_options(const tj_kernel *a, const tj_kernel *b)
{
    return a->opts.target == b->opts.target && a->block_dim == b->block_dim &&
           a->opts.cpu_mode == b->opts.cpu_mode && a->opts.debug == b->opts.debug;
}

static bool
check_call(tj_kernel *k, tj_func *f, tj_val *const *args, size_t nargs)
{
    char d[64];
    if (!f || !f->is_func || f->ctx != k->ctx)
        return tji_fail(k, TJ_ERR_INVALID, "tj_call: argument 'f' is not a function of this "
                        "context");
    if (!same_options(k, f))
        return tji_fail(k, TJ_ERR_INVALID,
                        "tj_call: function '%s' was created with other options than '%s' "
                        "(target, block_dim, CPU mode and debug must match)",
                        f->name, k->name);
    if (nargs && !args)
        return tji_fail(k, TJ_ERR_INVALID, "tj_call: argument 'args' is NULL");
    if (nargs != (size_t)f->nparams)
        return tji_fail(k, TJ_ERR_INVALID, "tj_call: function '%s' takes %d arguments, got %zu",
                        f->name, f->nparams, nargs);
    for (size_t i = 0; i < nargs; i++) {
        const tji_param *p = &f->params[i];
        if (!tji_use(k, args[i], "tj_call", p->name))
            return false;
        bool ok = args[i]->kind == p->kind && args[i]->type == p->type &&
                  (p->kind != TJ_VAL_ARRAY || args[i]->u.arr.ndim == p->ndim) &&
                  (p->kind != TJ_VAL_STACK || args[i]->u.stack.capacity == p->capacity);
        char rank[32] = ""; /* an array's rank, as tji_val_describe() shows the argument's */
        if (p->kind == TJ_VAL_ARRAY)
            snprintf(rank, sizeof rank, " (%d dim%s)", p->ndim, p->ndim == 1 ? "" : "s");
        if (!ok)
            return tji_fail(k, TJ_ERR_INVALID,
                            "tj_call: function '%s': argument '%s': %s, expected %s%s%s",
                            f->name, p->name, tji_val_describe(args[i], d, sizeof d),
                            p->kind == TJ_VAL_ARRAY   ? "an array of "
                            : p->kind == TJ_VAL_STACK ? "a stack of "
                                                      : "",
                            p->type->name, rank);
    }
    return true;
}

static bool
add_callee(tj_kernel *k, tj_func *f)
{
    for (int i = 0; i < k->ncallees; i++)
        if (k->callees[i] == f)
            return true;
    if (k->ncallees == k->cap_callees) {
        int cap = k->cap_callees ? 2 * k->cap_callees : 4;
        tj_kernel **c = tji_realloc(k->ctx, k->callees, (size_t)cap * sizeof *c);
        if (!c)
            return tji_fail(k, TJ_ERR_NOMEM, "tj_call: out of memory");
        k->callees = c;
        k->cap_callees = cap;
    }
    k->callees[k->ncallees++] = f;
    f->refs++;
    return true;
}

/* The callee's thread state: the caller's, with the arena moved past the caller's own
 * shared memory and scratch (SPEC 3: a call adds the callee's budget). */
static LLVMValueRef
callee_ts(tj_kernel *k)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef tsty = tji_ts_type(c);
    LLVMValueRef ts = tji_alloca(k, tsty, "callee.ts");
    LLVMBuildStore(b, LLVMBuildLoad2(b, tsty, k->ts, ""), ts);
    LLVMValueRef off = LLVMBuildLoad2(b, tji_i64(c), tji_kernel_layout_global(k, 1), "");
    LLVMValueRef arena =
        LLVMBuildGEP2(b, tji_i8(c), tji_emit_ts_load(k, TJI_TS_ARENA), &off, 1, "");
    LLVMBuildStore(b, arena, LLVMBuildStructGEP2(b, tsty, ts, TJI_TS_ARENA, ""));
    return ts;
}

tj_val *
tj_call(tj_kernel *k, tj_func *f, tj_val *const *args, size_t nargs)
{
    if (!tji_enter(k, "tj_call") || !check_call(k, f, args, nargs))
        return NULL;
    if (f == k)
        k->calls_itself = true;
    else if (!add_callee(k, f))
        return NULL;
    if (!f->body_started && f->status == TJ_OK && !tji_enter(f, "tj_call"))
        return NULL;
    if (f->status != TJ_OK) {
        tji_fail(k, f->status, "tj_call: function '%s' has an error: %s", f->name, f->err);
        return NULL;
    }
    LLVMTypeRef fty = LLVMGlobalGetValueType(f->llfn);
    LLVMValueRef callee = LLVMGetNamedFunction(k->llmod, f->symbol);
    if (!callee)
        callee = LLVMAddFunction(k->llmod, f->symbol, fty);
    LLVMValueRef llargs[1 + 64 * 9];
    unsigned n = 0;
    llargs[n++] = callee_ts(k);
    for (size_t i = 0; i < nargs; i++) {
        if (args[i]->kind == TJ_VAL_STACK) {
            llargs[n++] = args[i]->u.stack.data;
            llargs[n++] = args[i]->u.stack.count;
            continue;
        }
        if (args[i]->kind != TJ_VAL_ARRAY) {
            llargs[n++] = args[i]->ll;
            continue;
        }
        const tji_array_val *a = &args[i]->u.arr;
        llargs[n++] = a->data;
        for (int d = 0; d < a->ndim; d++)
            llargs[n++] = a->shape[d];
        for (int d = 0; d < a->ndim; d++)
            llargs[n++] = a->strides[d];
    }
    LLVMValueRef r = LLVMBuildCall2(k->llb, fty, callee, llargs, n, "");
    if (f->ret->kind == TJ_TYPE_VOID)
        return tji_val_new(k, TJ_VAL_VOID, f->ret, NULL);
    return tji_scalar(k, f->ret, r);
}
