/*
 * jit/compress_push.c: loops of serial stack pushes, vectorised with a compress (CPU, after
 * the pipeline, where the host has AVX-512 or AVX2).
 *
 * In width-1 mode a compaction's loop pushes one element per iteration: 'v = x[i]; keep =
 * f(v); stack[count] = v; count += keep' (builtins/stack.c's push_one_at_a_time). The count
 * carries from one iteration to the next and picks the store's address, so LLVM's loop
 * vectoriser leaves the loop scalar (LLVM 19 vectorises no compress). Yet VF iterations are
 * one vector step: load VF elements, compute VF flags, pack the kept values to the front
 * of a vector and store it at stack + count, then add the number of flags set. On the
 * bench's compaction either form is 1.0-1.4 times the one-pass C loop (as fast as memory
 * lets C be) where the scalar pushes reach 0.61-0.69 of it (bench/RESULTS.md). The pack
 * has two forms (ctx->compress):
 *  - AVX-512F: vcompress into a register, 512-bit vectors (16 floats or ints, 8 doubles or
 *    longs);
 *  - AVX2, which has no compress: the flags as an integer pick a row of a constant table
 *    (2 KiB for 8 elements, 128 bytes for 4) of eight 32-bit lane numbers, and a vpermd by
 *    that row moves the kept elements to the front (a 64-bit element is two lanes);
 *    256-bit vectors.
 * $TILEJIT_CPU_COMPRESS ("avx2", "off") lowers the form the host would get, for tests and
 * measurements of the other forms; the cache key holds the form.
 *
 * tj_for_end keeps such a loop rolled (llvm.loop.unroll.disable) where this pass will run,
 * so that after O3 it is still three blocks: the head (the counter i and the count c as
 * phis, the body, the push's store and 'more = c + zext(keep)'), the cold block the
 * push's clamp 'more > capacity' branches to, and the latch (c' = phi(capacity, more), the
 * exit test on i, i + 1). A cooperative block's lanes push in turn, and the phase between a
 * push's two barriers is the same loop over the lanes (jit/lane_loops.c keeps it rolled),
 * i the lane, its loads at GEP([N x T], per-lane array, 0, i) (an i1 there is a byte), and
 * the store guarded: an arena stack has no spare slot, so the head branches on 'fits = c <
 * capacity' to a block that stores and on to the block with the add and the clamp's branch
 * (in the vector loop the guard holds for every element, see below). A loop of that shape
 * is vectorised when:
 *  - the store is the loop's only instruction with a side effect, not volatile, of a 32- or
 *    64-bit integer or float, at GEP(S, ext(c)) with S outside the loop and based on an
 *    alloca whose address goes only to GEPs, loads, stores (as the address), lifetime
 *    markers and memory intrinsics;
 *  - the stored value and the flag are computed from loop invariants, i, and loads at
 *    GEP(base, i) of their own type with 'base' outside the loop and not based on that
 *    alloca, by arithmetic, comparisons, casts, selects and elementwise intrinsics;
 *  - i is an i64 that starts outside the loop and steps by one to an 'i == L' or
 *    'i + 1 == L' exit, and the loop's only value used after it is c', by phis of the exit
 *    or, where the latch is the only way into the exit, by anything there.
 *  - the store carries tji_mark_serial_push's mark, with the clamp's capacity (so the slots
 *    up to the capacity are the stack's own).
 * The vector loop runs first, while at least VF iterations remain and c <= capacity - VF:
 * then each scalar iteration would have stored at slots below the capacity and the clamp
 * would not have fired, and the vector store writes the kept values to the same slots in
 * the same order. Slots from the new count to c + VF - 1 get zeros (AVX-512) or other
 * elements of the step (AVX2) instead of the scalar loop's leftovers: beyond the count,
 * where nothing reads a stack (SPEC 4). The scalar loop then finishes from where the
 * vector loop stopped.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { SLICE_MAX = 64 };

/* Whether features string 'f' enables 'name' ("+name" as a whole token). */
static bool
has_feature(const char *f, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = f; at && (at = strstr(at, name)); at++)
        if (at > f && at[-1] == '+' && (at - 1 == f || at[-2] == ',') &&
            (at[n] == ',' || at[n] == 0))
            return true;
    return false;
}

tji_compress_form
tji_compress_cap(const char *want)
{
    return !want                        ? TJI_COMPRESS_AVX512
           : strcmp(want, "off") == 0  ? TJI_COMPRESS_NONE
           : strcmp(want, "avx2") == 0 ? TJI_COMPRESS_PERMUTE
                                       : TJI_COMPRESS_AVX512;
}

tji_compress_form
tji_compress_form_for(LLVMTargetMachineRef tm, tji_compress_form cap)
{
    char *f = LLVMGetTargetMachineFeatureString(tm);
    tji_compress_form form = has_feature(f, "avx512f") ? TJI_COMPRESS_AVX512
                             : has_feature(f, "avx2")  ? TJI_COMPRESS_PERMUTE
                                                       : TJI_COMPRESS_NONE;
    LLVMDisposeMessage(f);
    return form < cap ? form : cap;
}

tji_compress_form
tji_host_compress_form(tj_context *ctx)
{
    if (ctx->tm_host)
        return ctx->compress;
    /* A failure is the CPU build's to report (module.c); the context's error stays. */
    tj_status status = ctx->status;
    char err[sizeof ctx->err];
    memcpy(err, ctx->err, sizeof err);
    LLVMTargetMachineRef tm;
    if (tji_tm_host(ctx, &tm) != TJ_OK) {
        ctx->status = status;
        memcpy(ctx->err, err, sizeof err);
        return TJI_COMPRESS_NONE;
    }
    return ctx->compress;
}

bool
tji_host_compresses(tj_context *ctx)
{
    return tji_host_compress_form(ctx) != TJI_COMPRESS_NONE;
}

static const char push_md[] = "tj.serial_push";

void
tji_mark_serial_push(tj_context *ctx, LLVMValueRef store, int64_t capacity)
{
    LLVMMetadataRef cap = LLVMValueAsMetadata(
        LLVMConstInt(LLVMInt64TypeInContext(ctx->llctx), (uint64_t)capacity, 1));
    LLVMSetMetadata(store, LLVMGetMDKindIDInContext(ctx->llctx, push_md, sizeof push_md - 1),
                    LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, &cap, 1)));
}

/* The capacity a serial push's store was marked with, or -1. */
static int64_t
marked_capacity(LLVMValueRef store)
{
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(store));
    LLVMValueRef md = LLVMGetMetadata(store,
                                      LLVMGetMDKindIDInContext(llctx, push_md, sizeof push_md - 1));
    if (!md || LLVMGetMDNodeNumOperands(md) != 1)
        return -1;
    LLVMValueRef op;
    LLVMGetMDNodeOperands(md, &op);
    return op && LLVMIsAConstantInt(op) ? LLVMConstIntGetSExtValue(op) : -1;
}

bool
tji_is_serial_push(LLVMValueRef in)
{
    return LLVMIsAStoreInst(in) && marked_capacity(in) >= 0;
}

typedef struct pushloop {
    LLVMBasicBlockRef pre, head, cold, latch, exit;
    /* Where the store is guarded by 'fits' (c < capacity: a stack with no spare slot), the
     * block that stores and the one it and head go to (else both are head). */
    LLVMBasicBlockRef put, mid;
    LLVMValueRef fits;
    bool exit_uses;               /* c2 has users in exit besides its phis (exit's only way in
                                   * is the latch) */
    LLVMValueRef i, c, c2;        /* the counter, the count, the count after the clamp */
    LLVMValueRef store, value, keep, more, over, exit_cmp, i_next;
    LLVMValueRef limit;           /* L of the exit test */
    bool limit_on_next;           /* the test is i + 1 == L (else i == L) */
    int64_t capacity;
    tji_compress_form form;
    unsigned vf;                  /* elements a vector step */
    LLVMTypeRef elem;             /* the stored type */
    LLVMValueRef stack;           /* S */
    LLVMValueRef slice[SLICE_MAX]; /* the body's instructions that value and keep need */
    int nslice;
} pushloop;

static bool
in_loop(const pushloop *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    return bb == p->head || bb == p->put || bb == p->mid || bb == p->cold || bb == p->latch;
}

/* Whether 'bb' is one of the blocks that run every iteration before the clamp's branch, or
 * the guarded store's (whose loads the vector loop may make: it runs only while every
 * iteration would pass the guard). */
static bool
in_body(const pushloop *p, LLVMBasicBlockRef bb)
{
    return bb == p->head || bb == p->put || bb == p->mid;
}

/* The element type a lane-or-counter indexed load reads through 'gep': GEP(base, i) of that
 * type, or GEP([N x T], base, 0, i) (a per-lane array of jit/lane_loops.c); NULL for other
 * addresses. */
static LLVMTypeRef
indexed_by(LLVMValueRef gep, LLVMValueRef i)
{
    if (!LLVMIsAGetElementPtrInst(gep))
        return NULL;
    LLVMTypeRef src = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    if (n == 2 && LLVMGetOperand(gep, 1) == i)
        return src;
    LLVMValueRef zero = n == 3 ? LLVMGetOperand(gep, 1) : NULL;
    if (zero && LLVMGetOperand(gep, 2) == i && LLVMGetTypeKind(src) == LLVMArrayTypeKind &&
        LLVMIsAConstantInt(zero) && LLVMConstIntGetZExtValue(zero) == 0)
        return LLVMGetElementType(src);
    return NULL;
}

static bool
is_elementwise_intrinsic(LLVMValueRef call)
{
    static const char *const names[] = {
        "llvm.fabs.",    "llvm.smin.",    "llvm.smax.",     "llvm.umin.",     "llvm.umax.",
        "llvm.minnum.",  "llvm.maxnum.",  "llvm.minimum.",  "llvm.maximum.",  "llvm.copysign.",
        "llvm.sqrt.",    "llvm.floor.",   "llvm.ceil.",     "llvm.trunc.",    "llvm.rint.",
        "llvm.nearbyint.", "llvm.round.", "llvm.roundeven.",
    };
    return tji_calls_named(call, names, TJI_NELEMS(names));
}

static bool
is_add(LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAdd;
}

static bool
in_slice(const pushloop *p, LLVMValueRef v)
{
    for (int i = 0; i < p->nslice; i++)
        if (p->slice[i] == v)
            return true;
    return false;
}

/* Adds what 'v' needs to the slice, operands first, while it has room; false for anything it
 * cannot widen. 'depth', the instructions above 'v', bounds the recursion (each of them
 * would take a place too). */
static bool
add_to_slice(pushloop *p, LLVMValueRef v, LLVMValueRef alloca, int depth)
{
    if (!in_loop(p, v) || v == p->i || in_slice(p, v))
        return true;
    if (!in_body(p, LLVMGetInstructionParent(v)) || p->nslice == SLICE_MAX ||
        depth >= SLICE_MAX)
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMLoad) {
        LLVMValueRef gep = LLVMGetOperand(v, 0);
        if (LLVMGetVolatile(v) || LLVMGetOrdering(v) != LLVMAtomicOrderingNotAtomic ||
            indexed_by(gep, p->i) != LLVMTypeOf(v) || in_loop(p, LLVMGetOperand(gep, 0)) ||
            tji_pointer_base(LLVMGetOperand(gep, 0)) == alloca)
            return false;
        p->slice[p->nslice++] = v;
        return true;
    }
    if (!tji_widens(v))
        return false;
    int n = op == LLVMCall ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v);
    for (int k = 0; k < n; k++)
        if (!add_to_slice(p, LLVMGetOperand(v, (unsigned)k), alloca, depth + 1))
            return false;
    if (p->nslice == SLICE_MAX)
        return false;
    p->slice[p->nslice++] = v;
    return true;
}

/* Whether 'v' is only the address of loads of the slice. */
static bool
slice_address(const pushloop *p, LLVMValueRef v)
{
    if (!LLVMIsAGetElementPtrInst(v))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u))
        if (!LLVMIsALoadInst(LLVMGetUser(u)) || !in_slice(p, LLVMGetUser(u)))
            return false;
    return true;
}

/* 'a' is an operand of 'add' besides 'b'. */
static LLVMValueRef
other_operand(LLVMValueRef add, LLVMValueRef b)
{
    LLVMValueRef x = LLVMGetOperand(add, 0), y = LLVMGetOperand(add, 1);
    return x == b ? y : y == b ? x : NULL;
}

/* Whether the terminator of 'from' is the only one that branches to 'bb'. */
static bool
only_from(LLVMBasicBlockRef bb, LLVMBasicBlockRef from)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(user) || LLVMGetInstructionParent(user) != from)
            return false;
    }
    return true;
}

/* Recognises the loop whose head is 'head' (see the top of the file). */
static bool
match(pushloop *p, LLVMBasicBlockRef head, tji_compress_form form)
{
    memset(p, 0, sizeof *p);
    p->head = head;
    p->form = form;
    LLVMValueRef hterm = tji_cond_br(head);
    if (!hterm)
        return false;
    /* head -> cold -> latch and head -> latch, latch -> head and exit; or, with the store
     * guarded, head -> put -> mid and head -> mid, then mid -> cold -> latch and mid -> latch */
    LLVMBasicBlockRef s0 = LLVMGetSuccessor(hterm, 0), s1 = LLVMGetSuccessor(hterm, 1);
    LLVMValueRef mterm = hterm;
    p->mid = head;
    if (tji_only_succ(s0) == s1 && LLVMGetFirstInstruction(s0) != LLVMGetBasicBlockTerminator(s0) &&
        s0 != head && s1 != head) {
        p->put = s0;
        p->mid = s1;
        p->fits = LLVMGetCondition(hterm);
        if (!(mterm = tji_cond_br(s1)))
            return false;
        s0 = LLVMGetSuccessor(mterm, 0);
        s1 = LLVMGetSuccessor(mterm, 1);
        if (s0 == head || s1 == head || s0 == p->put || s1 == p->put)
            return false;
    }
    if (tji_only_succ(s0) != s1 || LLVMGetFirstInstruction(s0) != LLVMGetBasicBlockTerminator(s0))
        return false;
    p->cold = s0;
    p->latch = s1;
    LLVMValueRef lterm = tji_cond_br(p->latch);
    if (!lterm)
        return false;
    LLVMBasicBlockRef l0 = LLVMGetSuccessor(lterm, 0), l1 = LLVMGetSuccessor(lterm, 1);
    if ((l0 == head) == (l1 == head))
        return false;
    p->exit = l0 == head ? l1 : l0;
    if (p->exit == p->cold || p->exit == p->latch || p->exit == p->put || p->exit == p->mid)
        return false;
    p->over = LLVMGetCondition(mterm);
    p->exit_cmp = LLVMGetCondition(lterm);
    /* the clamp: over = more > capacity, c2 = phi(capacity from cold, more from head) */
    if (!LLVMIsAICmpInst(p->over) || LLVMGetICmpPredicate(p->over) != LLVMIntUGT ||
        !LLVMIsAConstantInt(LLVMGetOperand(p->over, 1)))
        return false;
    p->more = LLVMGetOperand(p->over, 0);
    p->capacity = LLVMConstIntGetSExtValue(LLVMGetOperand(p->over, 1));
    for (LLVMValueRef in = LLVMGetFirstInstruction(p->latch); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        if (p->c2 || LLVMCountIncoming(in) != 2)
            return false;
        p->c2 = in;
    }
    if (!p->c2)
        return false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(p->c2, k);
        LLVMValueRef v = LLVMGetIncomingValue(p->c2, k);
        if (from == p->cold ? !(LLVMIsAConstantInt(v) &&
                                LLVMConstIntGetSExtValue(v) == p->capacity)
                            : (from != p->mid || v != p->more))
            return false;
    }
    /* the head's phis: i and c, each from one preheader and the latch */
    for (LLVMValueRef in = LLVMGetFirstInstruction(head); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        if (LLVMCountIncoming(in) != 2)
            return false;
        LLVMBasicBlockRef b0 = LLVMGetIncomingBlock(in, 0), b1 = LLVMGetIncomingBlock(in, 1);
        LLVMBasicBlockRef pre = b0 == p->latch ? b1 : b0;
        LLVMValueRef next = LLVMGetIncomingValue(in, b0 == p->latch ? 0 : 1);
        if ((b0 == p->latch) == (b1 == p->latch) || (p->pre && pre != p->pre))
            return false;
        p->pre = pre;
        if (next == p->c2 && !p->c)
            p->c = in;
        else if (!p->i && is_add(next) && LLVMGetOperand(next, 0) == in &&
                 LLVMIsAConstantInt(LLVMGetOperand(next, 1)) &&
                 LLVMConstIntGetZExtValue(LLVMGetOperand(next, 1)) == 1 &&
                 LLVMGetInstructionParent(next) == p->latch &&
                 LLVMTypeOf(in) == LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(in))))
            p->i = in, p->i_next = next;
        else
            return false;
    }
    LLVMTypeRef ct = p->c ? LLVMTypeOf(p->c) : NULL;
    if (!p->i || !p->c || p->pre == head || LLVMGetTypeKind(ct) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(ct) != 32)
        return false;
    LLVMBasicBlockRef blocks[] = {head, p->put, p->mid, p->cold, p->latch};
    if (!tji_counted_exit(lterm, p->exit, p->i, p->i_next, blocks, 5, &p->limit,
                          &p->limit_on_next))
        return false;
    /* more = c + zext(keep), keep an i1 */
    LLVMValueRef z = is_add(p->more) ? other_operand(p->more, p->c) : NULL;
    if (!z || !LLVMIsAZExtInst(z) ||
        (LLVMGetInstructionParent(z) != head && LLVMGetInstructionParent(z) != p->mid))
        return false;
    /* keep, an i1, or 'x & 1' of a wider integer (a flag a lane kept in a byte, once
     * instcombine folded its trunc and the zext) */
    p->keep = LLVMGetOperand(z, 0);
    LLVMValueRef one = LLVMIsAInstruction(p->keep) && LLVMGetInstructionOpcode(p->keep) == LLVMAnd
                           ? LLVMGetOperand(p->keep, 1)
                           : NULL;
    if (LLVMTypeOf(p->keep) != LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(z))) &&
        !(one && LLVMIsAConstantInt(one) && LLVMConstIntGetZExtValue(one) == 1))
        return false;
    /* the one store: value at GEP(S, ext(c)), in 'put' where there is one */
    LLVMBasicBlockRef body[] = {head, p->put, p->mid == head ? NULL : p->mid};
    for (int k = 0; k < 3; k++)
        for (LLVMValueRef in = body[k] ? LLVMGetFirstInstruction(body[k]) : NULL; in;
             in = LLVMGetNextInstruction(in))
            if (LLVMIsAStoreInst(in)) {
                if (p->store || body[k] != (p->put ? p->put : head))
                    return false;
                p->store = in;
            }
    /* the guard: fits = c < capacity */
    if (p->put && !(LLVMIsAICmpInst(p->fits) && LLVMGetInstructionParent(p->fits) == head &&
                    LLVMGetOperand(p->fits, 0) == p->c &&
                    (LLVMGetICmpPredicate(p->fits) == LLVMIntSLT ||
                     LLVMGetICmpPredicate(p->fits) == LLVMIntULT) &&
                    LLVMIsAConstantInt(LLVMGetOperand(p->fits, 1)) &&
                    LLVMConstIntGetSExtValue(LLVMGetOperand(p->fits, 1)) == p->capacity))
        return false;
    if (!p->store || marked_capacity(p->store) != p->capacity || LLVMGetVolatile(p->store) ||
        LLVMGetOrdering(p->store) != LLVMAtomicOrderingNotAtomic)
        return false;
    p->value = LLVMGetOperand(p->store, 0);
    LLVMValueRef sp = LLVMGetOperand(p->store, 1);
    p->elem = LLVMTypeOf(p->value);
    LLVMTypeKind ek = LLVMGetTypeKind(p->elem);
    bool int_ok = ek == LLVMIntegerTypeKind &&
                  (LLVMGetIntTypeWidth(p->elem) == 32 || LLVMGetIntTypeWidth(p->elem) == 64);
    if (!(int_ok || ek == LLVMFloatTypeKind || ek == LLVMDoubleTypeKind) ||
        !LLVMIsAGetElementPtrInst(sp) || LLVMGetNumOperands(sp) != 2 ||
        LLVMGetGEPSourceElementType(sp) != p->elem || !in_body(p, LLVMGetInstructionParent(sp)))
        return false;
    LLVMValueRef ext = LLVMGetOperand(sp, 1);
    if (!(LLVMIsASExtInst(ext) || LLVMIsAZExtInst(ext)) || LLVMGetOperand(ext, 0) != p->c ||
        !in_body(p, LLVMGetInstructionParent(ext)))
        return false;
    p->stack = LLVMGetOperand(sp, 0);
    LLVMValueRef alloca = tji_pointer_base(p->stack);
    if (in_loop(p, p->stack) || !LLVMIsAAllocaInst(alloca) ||
        !tji_address_stays_local(alloca, NULL, NULL))
        return false;
    unsigned bits = ek == LLVMFloatTypeKind    ? 32
                    : ek == LLVMDoubleTypeKind ? 64
                                               : LLVMGetIntTypeWidth(p->elem);
    p->vf = (form == TJI_COMPRESS_AVX512 ? 512 : 256) / bits;
    if (p->capacity < p->vf || p->capacity > INT32_MAX)
        return false;
    if (!add_to_slice(p, p->value, alloca, 0) || !add_to_slice(p, p->keep, alloca, 0))
        return false;
    /* nothing else in the loop, and only c2 used after it, in the exit: by its phis, or by
     * anything there when the latch is the only way in */
    LLVMBasicBlockRef all[] = {head, p->put, p->mid == head ? NULL : p->mid, p->cold, p->latch};
    for (int k = 0; k < 5; k++) {
        for (LLVMValueRef in = all[k] ? LLVMGetFirstInstruction(all[k]) : NULL; in;
             in = LLVMGetNextInstruction(in)) {
            bool known = in == p->i || in == p->c || in == p->c2 || in == p->store ||
                         in == sp || in == ext || in == z || in == p->more || in == p->over ||
                         in == p->exit_cmp || in == p->i_next || (in == p->fits && p->put) ||
                         in_slice(p, in) || slice_address(p, in) || LLVMIsATerminatorInst(in);
            if (!known)
                return false;
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (in_loop(p, user))
                    continue;
                if (in != p->c2 || LLVMGetInstructionParent(user) != p->exit)
                    return false;
                if (!LLVMIsAPHINode(user))
                    p->exit_uses = true;
            }
        }
    }
    if (p->exit_uses && !only_from(p->exit, p->latch))
        return false;
    /* the exit's phis take c2 or values from outside the loop from the latch */
    for (LLVMValueRef in = LLVMGetFirstInstruction(p->exit); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
        for (unsigned k = 0, n = LLVMCountIncoming(in); k < n; k++)
            if (LLVMGetIncomingBlock(in, k) == p->latch) {
                LLVMValueRef v = LLVMGetIncomingValue(in, k);
                if (v != p->c2 && in_loop(p, v))
                    return false;
            }
    return true;
}

LLVMValueRef
tji_build_splat(LLVMBuilderRef b, LLVMValueRef v, unsigned vf)
{
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), vf);
    LLVMValueRef i0 = LLVMConstInt(LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v))), 0, 0);
    LLVMValueRef one = LLVMBuildInsertElement(b, LLVMGetPoison(vt), v, i0, "");
    return LLVMBuildShuffleVector(b, one, LLVMGetPoison(vt),
                                  LLVMConstNull(LLVMVectorType(LLVMTypeOf(i0), vf)), "");
}

bool
tji_widens(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    bool ok = LLVMIsABinaryOperator(v) || LLVMIsACmpInst(v) || LLVMIsACastInst(v) ||
              op == LLVMSelect || op == LLVMFNeg || op == LLVMFreeze ||
              (op == LLVMCall && LLVMGetNumArgOperands(v) <= 3 && is_elementwise_intrinsic(v));
    return ok && !LLVMIsAAddrSpaceCastInst(v) && !LLVMIsAPtrToIntInst(v) &&
           !LLVMIsAIntToPtrInst(v) && LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind;
}

LLVMValueRef
tji_widen_value(tji_widen *w, LLVMValueRef v)
{
    if (tji_vmap_has(&w->map, v))
        return tji_vmap_get(&w->map, v);
    LLVMValueRef r;
    if (w->i && v == w->i) {
        LLVMTypeRef ity = LLVMTypeOf(v);
        LLVMValueRef steps[16];
        for (unsigned k = 0; k < w->vf; k++)
            steps[k] = LLVMConstInt(ity, k, 0);
        r = LLVMBuildAdd(w->b, tji_build_splat(w->b, w->vi, w->vf),
                         LLVMConstVector(steps, w->vf), "");
    } else {
        r = tji_build_splat(w->b, v, w->vf); /* defined outside the loop */
    }
    tji_vmap_put(&w->map, v, r);
    return r;
}

LLVMValueRef
tji_widen_inst(tji_widen *w, LLVMValueRef in)
{
    LLVMBuilderRef b = w->b;
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(in), w->vf);
    LLVMValueRef a = LLVMGetNumOperands(in) > 0 ? tji_widen_value(w, LLVMGetOperand(in, 0))
                                                : NULL;
    LLVMValueRef r;
    if (LLVMIsABinaryOperator(in))
        r = LLVMBuildBinOp(b, op, a, tji_widen_value(w, LLVMGetOperand(in, 1)), "");
    else if (LLVMIsACastInst(in))
        r = LLVMBuildCast(b, op, a, vt, "");
    else if (op == LLVMICmp)
        r = LLVMBuildICmp(b, LLVMGetICmpPredicate(in), a,
                          tji_widen_value(w, LLVMGetOperand(in, 1)), "");
    else if (op == LLVMFCmp)
        r = LLVMBuildFCmp(b, LLVMGetFCmpPredicate(in), a,
                          tji_widen_value(w, LLVMGetOperand(in, 1)), "");
    else if (op == LLVMSelect)
        r = LLVMBuildSelect(b, a, tji_widen_value(w, LLVMGetOperand(in, 1)),
                            tji_widen_value(w, LLVMGetOperand(in, 2)), "");
    else if (op == LLVMFNeg)
        r = LLVMBuildFNeg(b, a, "");
    else if (op == LLVMFreeze)
        r = LLVMBuildFreeze(b, a, "");
    else { /* an elementwise intrinsic, overloaded on its type */
        LLVMValueRef args[3];
        unsigned n = (unsigned)LLVMGetNumArgOperands(in);
        for (unsigned k = 0; k < n; k++) /* at most 3 (tji_widens) */
            args[k] = tji_widen_value(w, LLVMGetOperand(in, k));
        r = tji_build_intrinsic(w->m, b, tji_intrinsic_of(in), &vt, 1, args, n);
    }
    tji_vmap_put(&w->map, in, r);
    return r;
}

/* The vector form of slice instruction 'in' (a load at the lane counter, or what
 * tji_widens takes), whose operands are widened already. */
static LLVMValueRef
widen_one(tji_widen *w, LLVMValueRef in)
{
    if (LLVMGetInstructionOpcode(in) != LLVMLoad)
        return tji_widen_inst(w, in);
    LLVMBuilderRef b = w->b;
    LLVMTypeRef t = LLVMTypeOf(in), vt = LLVMVectorType(t, w->vf);
    LLVMValueRef gep = LLVMGetOperand(in, 0);
    LLVMValueRef at = LLVMBuildGEP2(b, t, LLVMGetOperand(gep, 0), &w->vi, 1, "");
    /* an i1 takes a byte in memory, where a vector of i1 takes a bit */
    bool bit = LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 1;
    LLVMTypeRef mt = bit ? LLVMVectorType(LLVMInt8TypeInContext(LLVMGetTypeContext(t)), w->vf)
                         : vt;
    LLVMValueRef r = LLVMBuildLoad2(b, mt, at, "");
    LLVMSetAlignment(r, LLVMGetAlignment(in));
    r = bit ? LLVMBuildTrunc(b, r, vt, "") : r;
    tji_vmap_put(&w->map, in, r);
    return r;
}

/* AVX-512: the kept elements of 'vals' packed to the front, zeros after them. */
static LLVMValueRef
compress(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef vals, LLVMValueRef keep)
{
    LLVMTypeRef vt = LLVMTypeOf(vals);
    LLVMValueRef args[] = {vals, LLVMConstNull(vt), keep};
    static const char name[] = "llvm.x86.avx512.mask.compress";
    return tji_build_intrinsic(m, b, LLVMLookupIntrinsicID(name, sizeof name - 1), &vt, 1,
                               args, 3);
}

/* AVX2's table for 'vf' elements of 256 / vf bits: row 'mask' holds the eight 32-bit lane
 * numbers, one a byte (lowest first), that move the elements 'mask' keeps to the front, in
 * order (an element of 64 bits is two lanes); the rest are lane 0. */
static LLVMValueRef
permute_table(LLVMModuleRef m, unsigned vf)
{
    const char *name = vf == 8 ? "tj.permute.8" : "tj.permute.4";
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
    unsigned lanes = 8 / vf, n = 1u << vf;
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    if (g && LLVMGlobalGetValueType(g) == LLVMArrayType2(i64, n) && LLVMIsGlobalConstant(g) &&
        LLVMGetLinkage(g) == LLVMPrivateLinkage)
        return g; /* this pass's, for an earlier loop (another global gets a new name) */
    LLVMValueRef rows[256];
    for (unsigned mask = 0; mask < n; mask++) {
        uint64_t row = 0;
        unsigned at = 0;
        for (unsigned e = 0; e < vf; e++)
            if (mask >> e & 1)
                for (unsigned l = 0; l < lanes; l++)
                    row |= (uint64_t)(e * lanes + l) << (8 * at++);
        rows[mask] = LLVMConstInt(i64, row, 0);
    }
    g = LLVMAddGlobal(m, LLVMArrayType2(i64, n), name);
    LLVMSetInitializer(g, LLVMConstArray2(i64, rows, n));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    LLVMSetAlignment(g, 8);
    return g;
}

/* AVX2: the kept elements of 'vals' ('bits': its mask as an integer) packed to the front by
 * a vpermd with the table's row, other elements after them. */
static LLVMValueRef
permute(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef vals, LLVMValueRef bits, unsigned vf)
{
    LLVMContextRef llctx = LLVMGetModuleContext(m);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(llctx);
    LLVMTypeRef v8i32 = LLVMVectorType(LLVMInt32TypeInContext(llctx), 8);
    LLVMValueRef row = LLVMBuildZExt(b, bits, i64, "");
    LLVMValueRef at = LLVMBuildGEP2(b, i64, permute_table(m, vf), &row, 1, "");
    LLVMValueRef idx = LLVMBuildLoad2(b, LLVMVectorType(LLVMInt8TypeInContext(llctx), 8), at, "");
    LLVMSetAlignment(idx, 8);
    LLVMValueRef args[] = {LLVMBuildBitCast(b, vals, v8i32, ""),
                           LLVMBuildZExt(b, idx, v8i32, "")};
    static const char name[] = "llvm.x86.avx2.permd";
    LLVMValueRef r = tji_build_intrinsic(m, b, LLVMLookupIntrinsicID(name, sizeof name - 1),
                                         NULL, 0, args, 2);
    return LLVMBuildBitCast(b, r, LLVMTypeOf(vals), "");
}

/* ---- a vector loop in front of a counted loop (here and in serial_pops.c) ---------------- */

static bool
in_blocks(LLVMValueRef v, const LLVMBasicBlockRef *blocks, int n)
{
    for (int k = 0; LLVMIsAInstruction(v) && k < n; k++)
        if (blocks[k] && LLVMGetInstructionParent(v) == blocks[k])
            return true;
    return false;
}

bool
tji_counted_exit(LLVMValueRef lterm, LLVMBasicBlockRef exit, LLVMValueRef i, LLVMValueRef i_next,
                 const LLVMBasicBlockRef *blocks, int nblocks, LLVMValueRef *limit,
                 bool *limit_on_next)
{
    LLVMValueRef cmp = LLVMGetCondition(lterm);
    if (!LLVMIsAICmpInst(cmp))
        return false;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
    if (!((pred == LLVMIntEQ && LLVMGetSuccessor(lterm, 0) == exit) ||
          (pred == LLVMIntNE && LLVMGetSuccessor(lterm, 1) == exit)))
        return false;
    LLVMValueRef a = LLVMGetOperand(cmp, 0), b = LLVMGetOperand(cmp, 1);
    if (in_blocks(b, blocks, nblocks) && !in_blocks(a, blocks, nblocks)) {
        LLVMValueRef t = a;
        a = b;
        b = t;
    }
    if ((a != i && a != i_next) || in_blocks(b, blocks, nblocks))
        return false;
    *limit = b;
    *limit_on_next = a == i_next;
    return true;
}

void
tji_vec_front_begin(LLVMBuilderRef b, const tji_counted_loop *l, unsigned vf,
                    const char *prefix, tji_vec_front *f)
{
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(l->i));
    LLVMTypeRef ity = LLVMTypeOf(l->i); /* the counter's type: i64, or i32 */
    char name[64];
    f->vf = vf;
    /* the exit gets a second way in: its other uses of c2 take a phi of it (the phis get
     * the vector loop's count in tji_vec_front_end) */
    LLVMValueRef cx = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(l->c2), next; u; u = next) {
        LLVMValueRef user = LLVMGetUser(u);
        next = tji_use_past_user(u, user);
        if (LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != l->exit || user == cx)
            continue;
        if (!cx) {
            LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(l->exit));
            cx = LLVMBuildPhi(b, LLVMTypeOf(l->c2), "");
            LLVMAddIncoming(cx, (LLVMValueRef[]){l->c2}, (LLVMBasicBlockRef[]){l->latch}, 1);
        }
        for (int k = 0, n = LLVMGetNumOperands(user); k < n; k++)
            if (LLVMGetOperand(user, (unsigned)k) == l->c2)
                LLVMSetOperand(user, (unsigned)k, cx);
    }
    f->i0 = LLVMGetIncomingValue(l->i, LLVMGetIncomingBlock(l->i, 0) == l->pre ? 0 : 1);
    f->c0 = LLVMGetIncomingValue(l->c, LLVMGetIncomingBlock(l->c, 0) == l->pre ? 0 : 1);
    /* E: the counter's value once no iteration is left */
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(l->pre));
    f->end = l->limit_on_next ? l->limit : LLVMBuildAdd(b, l->limit, LLVMConstInt(ity, 1, 0), "");
    snprintf(name, sizeof name, "%s.vec.head", prefix);
    f->head = LLVMInsertBasicBlockInContext(llctx, l->head, name);
    snprintf(name, sizeof name, "%s.vec.body", prefix);
    f->body = LLVMInsertBasicBlockInContext(llctx, l->head, name);
    snprintf(name, sizeof name, "%s.vec.done", prefix);
    f->done = LLVMInsertBasicBlockInContext(llctx, l->head, name);
    /* the preheader enters the vector loop instead */
    LLVMValueRef pterm = LLVMGetBasicBlockTerminator(l->pre);
    for (unsigned k = 0, n = LLVMGetNumSuccessors(pterm); k < n; k++)
        if (LLVMGetSuccessor(pterm, k) == l->head)
            LLVMSetSuccessor(pterm, k, f->head);
    LLVMPositionBuilderAtEnd(b, f->head);
    snprintf(name, sizeof name, "%s.i", prefix);
    f->vi = LLVMBuildPhi(b, ity, name);
    snprintf(name, sizeof name, "%s.count", prefix);
    f->vc = LLVMBuildPhi(b, LLVMTypeOf(l->c), name);
}

void
tji_vec_front_enter(LLVMBuilderRef b, tji_vec_front *f, LLVMValueRef ok)
{
    LLVMTypeRef i64 = LLVMTypeOf(f->vi);
    LLVMValueRef room = LLVMBuildICmp(b, LLVMIntUGE, LLVMBuildSub(b, f->end, f->vi, ""),
                                      LLVMConstInt(i64, f->vf, 0), "");
    LLVMBuildCondBr(b, LLVMBuildAnd(b, room, ok, ""), f->body, f->done);
    LLVMPositionBuilderAtEnd(b, f->body);
}

void
tji_vec_front_end(LLVMBuilderRef b, const tji_counted_loop *l, tji_vec_front *f,
                  LLVMValueRef vc_next)
{
    LLVMTypeRef i64 = LLVMTypeOf(f->vi);
    LLVMBasicBlockRef from_body = LLVMGetInsertBlock(b);
    LLVMValueRef vi_next = LLVMBuildAdd(b, f->vi, LLVMConstInt(i64, f->vf, 0), "");
    LLVMBuildBr(b, f->head);
    LLVMValueRef in_v[] = {f->i0, vi_next}, in_c[] = {f->c0, vc_next};
    LLVMBasicBlockRef from[] = {l->pre, from_body};
    LLVMAddIncoming(f->vi, in_v, from, 2);
    LLVMAddIncoming(f->vc, in_c, from, 2);
    /* all done (at least one vector step, and none left), or on in the scalar loop */
    LLVMPositionBuilderAtEnd(b, f->done);
    LLVMValueRef done = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, f->vi, f->end, ""),
                                     LLVMBuildICmp(b, LLVMIntNE, f->vi, f->i0, ""), "");
    LLVMBuildCondBr(b, done, l->exit, l->head);
    /* the scalar loop starts where the vector loop stopped */
    LLVMValueRef phis[] = {l->i, l->c}, starts[] = {f->vi, f->vc};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef next = LLVMGetIncomingValue(
            phis[k], LLVMGetIncomingBlock(phis[k], 0) == l->latch ? 0 : 1);
        /* a new phi: LLVM-C cannot change a phi's incoming block */
        LLVMPositionBuilderBefore(b, phis[k]);
        LLVMValueRef repl = LLVMBuildPhi(b, LLVMTypeOf(phis[k]), "");
        LLVMValueRef vals2[] = {starts[k], next};
        LLVMBasicBlockRef blocks2[] = {f->done, l->latch};
        LLVMAddIncoming(repl, vals2, blocks2, 2);
        LLVMReplaceAllUsesWith(phis[k], repl);
        LLVMInstructionEraseFromParent(phis[k]);
    }
    /* the exit's phis: what they took from the latch, the vector loop's count for c2 */
    for (LLVMValueRef in = LLVMGetFirstInstruction(l->exit); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        LLVMValueRef v = NULL;
        for (unsigned k = 0, n = LLVMCountIncoming(in); k < n && !v; k++)
            if (LLVMGetIncomingBlock(in, k) == l->latch)
                v = LLVMGetIncomingValue(in, k);
        if (v) {
            LLVMValueRef nv = v == l->c2 ? f->vc : v;
            LLVMAddIncoming(in, &nv, &f->done, 1);
        }
    }
}

static tji_counted_loop
counted(const pushloop *p)
{
    return (tji_counted_loop){.pre = p->pre, .head = p->head, .latch = p->latch,
                              .exit = p->exit, .i = p->i, .c = p->c, .c2 = p->c2,
                              .limit = p->limit, .limit_on_next = p->limit_on_next};
}

/* Builds the vector loop in front of the matched loop (see the top of the file). */
static bool
vectorise(LLVMModuleRef m, const pushloop *p)
{
    tji_widen w = {.m = m, .i = p->i};
    if (!tji_vmap_init(&w.map, 4 * SLICE_MAX)) {
        tji_vmap_free(&w.map);
        return false;
    }
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(p->i));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(llctx), i32 = LLVMInt32TypeInContext(llctx);
    unsigned vf = p->vf;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
    tji_counted_loop l = counted(p);
    tji_vec_front f;
    tji_vec_front_begin(b, &l, vf, "push", &f);
    tji_vec_front_enter(b, &f, LLVMBuildICmp(b, LLVMIntULE, f.vc,
                                             LLVMConstInt(i32, (uint64_t)(p->capacity - vf), 0),
                                             ""));
    w.b = b;
    w.vf = vf;
    w.vi = f.vi;
    for (int k = 0; k < p->nslice; k++)
        widen_one(&w, p->slice[k]);
    LLVMValueRef vals = tji_widen_value(&w, p->value);
    LLVMValueRef keep = tji_widen_value(&w, p->keep);
    LLVMTypeRef bits = LLVMVectorType(LLVMInt1TypeInContext(llctx), vf);
    if (LLVMTypeOf(keep) != bits) /* x & 1 */
        keep = LLVMBuildTrunc(b, keep, bits, "");
    tji_vmap_free(&w.map);
    LLVMTypeRef mask_int = LLVMIntTypeInContext(llctx, vf);
    LLVMValueRef bitsv = LLVMBuildBitCast(b, keep, mask_int, "");
    LLVMValueRef packed = p->form == TJI_COMPRESS_AVX512 ? compress(m, b, vals, keep)
                                                         : permute(m, b, vals, bitsv, vf);
    LLVMValueRef at = LLVMBuildSExt(b, f.vc, i64, "");
    LLVMValueRef st = LLVMBuildStore(b, packed, LLVMBuildGEP2(b, p->elem, p->stack, &at, 1, ""));
    LLVMSetAlignment(st, LLVMGetAlignment(p->store));
    LLVMValueRef kept = tji_build_intrinsic(m, b, LLVMLookupIntrinsicID("llvm.ctpop", 10),
                                            &mask_int, 1, &bitsv, 1);
    tji_vec_front_end(b, &l, &f, LLVMBuildAdd(b, f.vc, LLVMBuildZExt(b, kept, i32, ""), ""));
    LLVMDisposeBuilder(b);
    return true;
}

int
tji_compress_pushes(tj_context *ctx, LLVMModuleRef m)
{
    if (!tji_host_compresses(ctx))
        return 0;
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            pushloop p;
            if (match(&p, bb, ctx->compress) && vectorise(m, &p))
                done++;
        }
    return done;
}
