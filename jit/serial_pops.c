/*
 * jit/serial_pops.c: a cooperative CPU block's lanes popping in turn, vectorised (after the
 * pipeline).
 *
 * Lanes run one at a time on the CPU, so a pop (builtins/stack.c's pop_one_at_a_time) takes
 * the top slot, if any, and lowers the counter in its lane's turn: 'got = c > 0; slot = got
 * ? c - 1 : -1; value = got ? stack[c - 1] : 0; c = got ? c - 1 : c'. The pop ends the
 * lanes' phase with a barrier, so in a uniform copy of jit/lane_loops.c (every lane at the
 * same point) the phase is a loop over the lanes that pops and keeps each lane's slot and
 * value in per-lane arrays for the code after the barrier. The count carries from lane to
 * lane, and LLVM leaves the loop scalar (about a sixth of the bench's cooperative
 * compaction). Yet while c >= VF, VF lanes in a row take the slots c - 1 down to c - VF:
 * their slots are 'c - 1 - k', their values the stack's VF elements below c in reverse
 * order, one vector load and a shuffle, and the count drops by VF. Where c < VF, lanes
 * vi + k with k < c take slot c - 1 - k and the others -1 and zero, which a masked load of
 * the VF slots below c gives (it touches none below the stack's bottom), and the count
 * becomes min(c, 0). That vector loop runs first, VF lanes a step while at least VF are
 * left; the scalar loop takes the last lanes where VF does not divide their number. The
 * bench's cooperative compaction ends each block's drain with a partial round: its lanes
 * that find the stack empty took the scalar loop, a twentieth of the kernel's time on a
 * Zen 4 (bench/RESULTS.md).
 *
 * The loop it takes, as O3 leaves it (lane_loops.c keeps it rolled): the head (the lane
 * counter i, an i64 from a preheader stepping by one to an 'i == L' or 'i + 1 == L' exit, and
 * the count c, an i32, as phis; got = c > 0; top = c - 1; optionally slot = select(got, top,
 * -1) stored at A[0][i]) branching on got to a block that loads the value (the load that
 * tji_mark_serial_pop marked, at GEP(T, S, ext(top)), S outside the loop) and on to the
 * latch, whose phis are c' = (top from the load's block, c from the head) and optionally
 * v = (the value, zero from the head) stored at B[0][i]; A and B per-lane arrays ([N x T]
 * allocas, GEP(arr, 0, i)) other than S's. Nothing else in the loop, and only c' used after
 * it, in the exit, which gets a block of its own where other blocks enter it too (own_exit).
 */
#include <string.h>

#include "internal.h"

static const char pop_md[] = "tj.serial_pop";

void
tji_mark_serial_pop(tj_context *ctx, LLVMValueRef load)
{
    LLVMSetMetadata(load, LLVMGetMDKindIDInContext(ctx->llctx, pop_md, sizeof pop_md - 1),
                    LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, NULL, 0)));
}

bool
tji_is_serial_pop(LLVMValueRef in)
{
    if (!LLVMIsALoadInst(in))
        return false;
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(in));
    return LLVMGetMetadata(in, LLVMGetMDKindIDInContext(llctx, pop_md, sizeof pop_md - 1)) !=
           NULL;
}

typedef struct poploop {
    LLVMBasicBlockRef pre, head, get, latch, exit;
    LLVMValueRef i, i_next, c, c2, got, top, slot, slot_store, load, gep, ext, v, v_store;
    LLVMValueRef exit_cmp, limit;
    bool limit_on_next;
    LLVMTypeRef elem;
    unsigned vf;
    bool shared_exit;         /* the exit has other ways in (own_exit gives it one of its own) */
} poploop;

static bool
in_loop(const poploop *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    return bb == p->head || bb == p->get || bb == p->latch;
}

static bool
is_const(LLVMValueRef v, int64_t want)
{
    return v && LLVMIsAConstantInt(v) && LLVMConstIntGetSExtValue(v) == want;
}

/* The per-lane array a store at GEP([N x T], arr, 0, i) writes, where 'v' is stored; NULL
 * for anything else. */
static LLVMValueRef
lane_store(const poploop *p, LLVMValueRef st, LLVMValueRef v)
{
    if (!st || !LLVMIsAStoreInst(st) || LLVMGetOperand(st, 0) != v || LLVMGetVolatile(st))
        return NULL;
    LLVMValueRef gep = LLVMGetOperand(st, 1);
    if (!LLVMIsAGetElementPtrInst(gep) || LLVMGetNumOperands(gep) != 3 ||
        !is_const(LLVMGetOperand(gep, 1), 0) || LLVMGetOperand(gep, 2) != p->i ||
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(gep)) != LLVMArrayTypeKind)
        return NULL;
    LLVMValueRef arr = LLVMGetOperand(gep, 0);
    return LLVMIsAAllocaInst(arr) ? arr : NULL;
}

/* The one user of 'v', a store in the loop, or NULL. */
static LLVMValueRef
only_store(const poploop *p, LLVMValueRef v)
{
    LLVMValueRef st = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAStoreInst(user) || st || !in_loop(p, user))
            return NULL;
        st = user;
    }
    return st;
}

static bool
match(poploop *p, LLVMBasicBlockRef head, unsigned bits)
{
    memset(p, 0, sizeof *p);
    p->head = head;
    LLVMValueRef hterm = LLVMGetBasicBlockTerminator(head);
    if (!hterm || LLVMGetInstructionOpcode(hterm) != LLVMBr || !LLVMIsConditional(hterm))
        return false;
    p->get = LLVMGetSuccessor(hterm, 0);
    p->latch = LLVMGetSuccessor(hterm, 1);
    LLVMValueRef gterm = LLVMGetBasicBlockTerminator(p->get);
    LLVMValueRef lterm = LLVMGetBasicBlockTerminator(p->latch);
    if (p->get == head || p->latch == head || p->get == p->latch || !gterm || !lterm ||
        LLVMGetInstructionOpcode(gterm) != LLVMBr || LLVMIsConditional(gterm) ||
        LLVMGetSuccessor(gterm, 0) != p->latch || LLVMGetInstructionOpcode(lterm) != LLVMBr ||
        !LLVMIsConditional(lterm))
        return false;
    LLVMBasicBlockRef l0 = LLVMGetSuccessor(lterm, 0), l1 = LLVMGetSuccessor(lterm, 1);
    if ((l0 == head) == (l1 == head))
        return false;
    p->exit = l0 == head ? l1 : l0;
    p->exit_cmp = LLVMGetCondition(lterm);
    /* got = c > 0, top = c - 1 */
    p->got = LLVMGetCondition(hterm);
    if (!LLVMIsAICmpInst(p->got) || LLVMGetICmpPredicate(p->got) != LLVMIntSGT ||
        !is_const(LLVMGetOperand(p->got, 1), 0))
        return false;
    p->c = LLVMGetOperand(p->got, 0);
    /* the head's phis: i and c */
    for (LLVMValueRef in = LLVMGetFirstInstruction(head); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        if (LLVMCountIncoming(in) != 2)
            return false;
        LLVMBasicBlockRef b0 = LLVMGetIncomingBlock(in, 0), b1 = LLVMGetIncomingBlock(in, 1);
        if ((b0 == p->latch) == (b1 == p->latch))
            return false;
        LLVMBasicBlockRef pre = b0 == p->latch ? b1 : b0;
        LLVMValueRef next = LLVMGetIncomingValue(in, b0 == p->latch ? 0 : 1);
        if ((p->pre && pre != p->pre) || pre == head)
            return false;
        p->pre = pre;
        if (in == p->c) {
            p->c2 = next;
        } else if (!p->i && LLVMIsAInstruction(next) && LLVMGetInstructionOpcode(next) == LLVMAdd &&
                   LLVMGetOperand(next, 0) == in && is_const(LLVMGetOperand(next, 1), 1) &&
                   LLVMGetInstructionParent(next) == p->latch &&
                   LLVMTypeOf(in) == LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(in)))) {
            p->i = in;
            p->i_next = next;
        } else {
            return false;
        }
    }
    if (!p->i || !p->c2 || !LLVMIsAPHINode(p->c) || LLVMGetInstructionParent(p->c) != head ||
        LLVMTypeOf(p->c) != LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(p->c))))
        return false;
    LLVMBasicBlockRef blocks[] = {head, p->get, p->latch};
    if (!tji_counted_exit(lterm, p->exit, p->i, p->i_next, blocks, 3, &p->limit,
                          &p->limit_on_next))
        return false;
    /* the load: the marked one, at GEP(T, S, ext(top)) in 'get' */
    p->load = LLVMGetFirstInstruction(p->get);
    while (p->load && !LLVMIsALoadInst(p->load))
        p->load = LLVMGetNextInstruction(p->load);
    if (!p->load || !tji_is_serial_pop(p->load) || LLVMGetVolatile(p->load))
        return false;
    p->elem = LLVMTypeOf(p->load);
    LLVMTypeKind ek = LLVMGetTypeKind(p->elem);
    unsigned eb = ek == LLVMFloatTypeKind    ? 32
                  : ek == LLVMDoubleTypeKind ? 64
                  : ek == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(p->elem)
                                              : 0;
    if (eb != 32 && eb != 64)
        return false;
    p->vf = bits / eb;
    p->gep = LLVMGetOperand(p->load, 0);
    if (!LLVMIsAGetElementPtrInst(p->gep) || LLVMGetNumOperands(p->gep) != 2 ||
        LLVMGetGEPSourceElementType(p->gep) != p->elem || in_loop(p, LLVMGetOperand(p->gep, 0)))
        return false;
    p->ext = LLVMGetOperand(p->gep, 1);
    if (!(LLVMIsAZExtInst(p->ext) || LLVMIsASExtInst(p->ext)))
        return false;
    p->top = LLVMGetOperand(p->ext, 0);
    if (!LLVMIsAInstruction(p->top) || LLVMGetInstructionOpcode(p->top) != LLVMAdd ||
        LLVMGetOperand(p->top, 0) != p->c || !is_const(LLVMGetOperand(p->top, 1), -1) ||
        LLVMGetInstructionParent(p->top) != head)
        return false;
    /* the latch's phis: c' and the value */
    for (LLVMValueRef in = LLVMGetFirstInstruction(p->latch); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        if (LLVMCountIncoming(in) != 2)
            return false;
        unsigned g = LLVMGetIncomingBlock(in, 0) == p->get ? 0 : 1;
        LLVMValueRef from_get = LLVMGetIncomingValue(in, g);
        LLVMValueRef from_head = LLVMGetIncomingValue(in, 1 - g);
        if (in == p->c2 && from_get == p->top && from_head == p->c)
            continue;
        if (p->v || from_get != p->load || !LLVMIsAConstant(from_head) ||
            !LLVMIsNull(from_head))
            return false;
        p->v = in;
    }
    if (!LLVMIsAPHINode(p->c2) || LLVMGetInstructionParent(p->c2) != p->latch)
        return false;
    /* the slot and the value, each stored to a per-lane array at i (or unused) */
    LLVMValueRef slot_arr = NULL, v_arr = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(p->top); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (user == p->ext || user == p->c2)
            continue;
        if (p->slot || !LLVMIsASelectInst(user) || LLVMGetOperand(user, 0) != p->got ||
            LLVMGetOperand(user, 1) != p->top || !is_const(LLVMGetOperand(user, 2), -1))
            return false;
        p->slot = user;
    }
    if (p->slot && !(slot_arr = lane_store(p, p->slot_store = only_store(p, p->slot),
                                           p->slot)))
        return false;
    if (p->v && !(v_arr = lane_store(p, p->v_store = only_store(p, p->v), p->v)))
        return false;
    LLVMValueRef stack = tji_pointer_base(LLVMGetOperand(p->gep, 0));
    if (slot_arr == stack || v_arr == stack || (slot_arr && slot_arr == v_arr))
        return false;
    /* nothing else in the loop, and only c' used after it, in the exit, which only the latch
     * enters */
    LLVMBasicBlockRef all[] = {head, p->get, p->latch};
    for (int k = 0; k < 3; k++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(all[k]); in;
             in = LLVMGetNextInstruction(in)) {
            bool known = in == p->i || in == p->c || in == p->c2 || in == p->got ||
                         in == p->top || in == p->slot || in == p->slot_store ||
                         in == p->load || in == p->gep || in == p->ext || in == p->v ||
                         in == p->v_store || in == p->exit_cmp || in == p->i_next ||
                         (p->slot_store && in == LLVMGetOperand(p->slot_store, 1)) ||
                         (p->v_store && in == LLVMGetOperand(p->v_store, 1)) ||
                         LLVMIsATerminatorInst(in);
            if (!known)
                return false;
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!in_loop(p, user) &&
                    (in != p->c2 || LLVMGetInstructionParent(user) != p->exit))
                    return false;
            }
        }
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(p->exit)); u; u = LLVMGetNextUse(u))
        if (LLVMGetInstructionParent(LLVMGetUser(u)) != p->latch)
            p->shared_exit = true;
    return p->vf >= 2 && p->vf <= 16;
}

/* Gives a matched loop whose exit has other ways in (lane_loops.c's copies leave to the
 * block that all of them share when nothing else comes between) an exit of its own: a block
 * between the latch and the old exit, where c' is frozen for the old exit's phis, so that
 * only the latch enters it and only it uses c' (the vector loop adds its way in there). */
static void
own_exit(poploop *p)
{
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(p->c2));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
    LLVMBasicBlockRef mid = LLVMInsertBasicBlockInContext(llctx, p->exit, "pop.exit");
    LLVMPositionBuilderAtEnd(b, mid);
    LLVMValueRef c2x = LLVMBuildFreeze(b, p->c2, "");
    LLVMBuildBr(b, p->exit);
    /* the old exit's phis take their latch values from 'mid' (phis made again: the C API
     * sets no incoming block) */
    for (LLVMValueRef phi = LLVMGetFirstInstruction(p->exit), next; phi && LLVMIsAPHINode(phi);
         phi = next) {
        next = LLVMGetNextInstruction(phi);
        LLVMPositionBuilderBefore(b, phi);
        LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
        for (unsigned k = 0, n = LLVMCountIncoming(phi); k < n; k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, k);
            LLVMValueRef v = LLVMGetIncomingValue(phi, k);
            if (from == p->latch) {
                from = mid;
                v = v == p->c2 ? c2x : v;
            }
            LLVMAddIncoming(np, &v, &from, 1);
        }
        LLVMReplaceAllUsesWith(phi, np);
        LLVMInstructionEraseFromParent(phi);
    }
    LLVMValueRef lterm = LLVMGetBasicBlockTerminator(p->latch);
    for (unsigned k = 0; k < 2; k++)
        if (LLVMGetSuccessor(lterm, k) == p->exit)
            LLVMSetSuccessor(lterm, k, mid);
    p->exit = mid;
    LLVMDisposeBuilder(b);
}

/* The step of lanes vi .. vi + VF - 1. Where c >= VF ('partial' false): slots c - 1 down to
 * c - VF, the VF values below c in reverse order (one vector load and a shuffle). Where
 * c < VF (the stack's last values, or none): lane vi + k takes slot c - 1 - k and its value
 * where k < c, else -1 and zero; the values come from a masked load of the VF slots below
 * c, whose first VF - c (below the stack's bottom) it does not touch. Returns the count
 * after the step: c - VF, or min(c, 0). */
static LLVMValueRef
lanes_step(LLVMBuilderRef b, LLVMModuleRef m, const poploop *p, const tji_vec_front *f,
           LLVMValueRef iota, LLVMValueRef rev, bool partial)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(p->i)));
    LLVMTypeRef i32 = LLVMTypeOf(f->vc);
    unsigned vf = p->vf;
    LLVMValueRef vi = f->vi, zero = LLVMConstInt(i32, 0, 0);
    LLVMValueRef low = LLVMBuildSub(b, f->vc, LLVMConstInt(i32, vf, 0), "");
    if (p->slot_store) {
        LLVMValueRef top = LLVMBuildSub(b, f->vc, LLVMConstInt(i32, 1, 0), "");
        LLVMValueRef slots = LLVMBuildSub(b, tji_build_splat(b, top, vf), iota, "");
        if (partial)
            slots = LLVMBuildSelect(
                b, LLVMBuildICmp(b, LLVMIntSLT, iota, tji_build_splat(b, f->vc, vf), ""), slots,
                LLVMConstAllOnes(LLVMVectorType(i32, vf)), "");
        LLVMValueRef arr = LLVMGetOperand(LLVMGetOperand(p->slot_store, 1), 0);
        LLVMSetAlignment(LLVMBuildStore(b, slots, LLVMBuildGEP2(b, i32, arr, &vi, 1, "")), 4);
    }
    if (p->v_store) {
        LLVMValueRef lowx = LLVMBuildSExt(b, low, i64, "");
        LLVMValueRef from = LLVMBuildGEP2(b, p->elem, LLVMGetOperand(p->gep, 0), &lowx, 1, "");
        LLVMTypeRef vt = LLVMVectorType(p->elem, vf);
        LLVMValueRef vals;
        if (partial) {
            /* element j of the VF slots below c is slot c - VF + j: a value where j >= VF - c */
            LLVMValueRef skip = LLVMBuildSub(b, LLVMConstInt(i32, vf, 0), f->vc, "");
            LLVMValueRef mask =
                LLVMBuildICmp(b, LLVMIntSGE, iota, tji_build_splat(b, skip, vf), "");
            LLVMTypeRef tys[] = {vt, LLVMTypeOf(from)};
            LLVMValueRef args[] = {from, LLVMConstInt(i32, LLVMGetAlignment(p->load), 0), mask,
                                   LLVMConstNull(vt)};
            vals = tji_build_intrinsic(m, b, LLVMLookupIntrinsicID("llvm.masked.load", 16), tys,
                                       2, args, 4);
        } else {
            vals = LLVMBuildLoad2(b, vt, from, "");
            LLVMSetAlignment(vals, LLVMGetAlignment(p->load));
        }
        vals = LLVMBuildShuffleVector(b, vals, LLVMGetPoison(vt), rev, "");
        LLVMValueRef arr = LLVMGetOperand(LLVMGetOperand(p->v_store, 1), 0);
        LLVMValueRef st = LLVMBuildStore(b, vals, LLVMBuildGEP2(b, p->elem, arr, &vi, 1, ""));
        LLVMSetAlignment(st, LLVMGetAlignment(p->load));
    }
    if (!partial)
        return low;
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, f->vc, zero, ""), zero, f->vc, "");
}

/* Builds the vector loop in front of the matched loop (see the top of the file): VF lanes a
 * step while VF lanes are left, full steps while c >= VF, then partial ones, so that the
 * scalar loop only takes the last lanes when VF does not divide their number. */
static void
vectorise(LLVMModuleRef m, const poploop *p)
{
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(p->i));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(llctx);
    unsigned vf = p->vf;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
    tji_counted_loop l = {.pre = p->pre, .head = p->head, .latch = p->latch, .exit = p->exit,
                          .i = p->i, .c = p->c, .c2 = p->c2, .limit = p->limit,
                          .limit_on_next = p->limit_on_next};
    tji_vec_front f;
    tji_vec_front_begin(b, &l, vf, "pop", &f);
    tji_vec_front_enter(b, &f, LLVMConstInt(LLVMInt1TypeInContext(llctx), 1, 0));
    LLVMValueRef rev[16], up[16];
    for (unsigned k = 0; k < vf; k++) {
        rev[k] = LLVMConstInt(i32, vf - 1 - k, 0);
        up[k] = LLVMConstInt(i32, k, 0);
    }
    LLVMValueRef iota = LLVMConstVector(up, vf), revv = LLVMConstVector(rev, vf);
    LLVMBasicBlockRef full = LLVMInsertBasicBlockInContext(llctx, f.done, "pop.vec.full");
    LLVMBasicBlockRef part = LLVMInsertBasicBlockInContext(llctx, f.done, "pop.vec.part");
    LLVMBasicBlockRef step = LLVMInsertBasicBlockInContext(llctx, f.done, "pop.vec.step");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, f.vc, LLVMConstInt(i32, vf, 0), ""), full,
                    part);
    LLVMPositionBuilderAtEnd(b, full);
    LLVMValueRef c_full = lanes_step(b, m, p, &f, iota, revv, false);
    LLVMBuildBr(b, step);
    LLVMPositionBuilderAtEnd(b, part);
    LLVMValueRef c_part = lanes_step(b, m, p, &f, iota, revv, true);
    LLVMBuildBr(b, step);
    LLVMPositionBuilderAtEnd(b, step);
    LLVMValueRef c_next = LLVMBuildPhi(b, i32, "");
    LLVMAddIncoming(c_next, (LLVMValueRef[]){c_full, c_part}, (LLVMBasicBlockRef[]){full, part},
                    2);
    tji_vec_front_end(b, &l, &f, c_next);
    LLVMDisposeBuilder(b);
}

int
tji_vectorise_pops(tj_context *ctx, LLVMModuleRef m)
{
    tji_compress_form form = tji_host_compress_form(ctx);
    unsigned bits = form == TJI_COMPRESS_AVX512    ? 512
                    : form == TJI_COMPRESS_PERMUTE ? 256
                                                   : 128;
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            poploop p;
            if (match(&p, bb, bits)) {
                if (p.shared_exit)
                    own_exit(&p);
                vectorise(m, &p);
                done++;
            }
        }
    return done;
}
