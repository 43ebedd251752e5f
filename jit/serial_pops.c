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
 *
 * A drain in one phase (jit/sink_barriers.c moved the pop's barrier below the store of its
 * value) gives another loop (match_drain): the head and the load as above, then a block of
 * c' and the value's phis that branches on got (or slot >= 0) to a store of the value at an
 * address affine in the slot, and a latch that only counts the lanes. The stored value may
 * be computed from the popped one lane by lane (tji_drain_arith, with values from outside
 * the loop): in 'get' from the load (where instcombine moves arithmetic into a phi's way
 * in) and after the phi (lane_calc). Lane vi + k stores what comes of slot c - 1 - k, so VF
 * lanes load the stack's VF values below c, compute from them (tji_widen) and store the
 * results, in order, at the address of slot c - VF where the step's addresses are
 * contiguous: a vector loop in front (vector_loop, with drain_test and drain_step) does that
 * while a run-time test of the step's first and last addresses finds them so, and the
 * scalar loop takes the rest.
 */
#include <stdio.h>
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
    /* a drain (pop and store in one loop): the block of c' and the value's phis, its test
     * of the slot, the block that stores the value, and the store */
    LLVMBasicBlockRef mid, put;
    LLVMValueRef test, store;
    /* and what it computes from the popped value, lane by lane (tji_drain_arith): in 'get',
     * from the load to v's value from there; in mid and put, from v to the stored value */
    LLVMValueRef from_get, *calc;
    int ncalc;
} poploop;

bool
tji_drain_arith(LLVMValueRef v)
{
    switch (LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet) {
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMURem:
    case LLVMSRem:
        return false; /* a partial step computes the lanes without a value too (zeros) */
    default:
        return tji_widens(v);
    }
}

static bool
in_loop(const poploop *p, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    return bb == p->head || bb == p->get || bb == p->latch || (p->mid && bb == p->mid) ||
           (p->put && bb == p->put);
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

/* What the two loop shapes share, with p->head, p->get and p->latch set: the latch's exit,
 * the head's phis (the lane counter i and the count c), got = c > 0, and the marked load at
 * GEP(T, S, ext(top)), top = c - 1, in 'get'. */
static bool
match_head(poploop *p, unsigned bits)
{
    LLVMBasicBlockRef head = p->head;
    LLVMValueRef hterm = LLVMGetBasicBlockTerminator(head);
    LLVMValueRef lterm = tji_cond_br(p->latch);
    if (!lterm)
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
                   (LLVMTypeOf(in) == LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(in))) ||
                    (p->mid && LLVMTypeOf(in) ==
                                   LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(in)))))) {
            p->i = in;
            p->i_next = next;
        } else {
            return false;
        }
    }
    if (!p->i || !p->c2 || !LLVMIsAPHINode(p->c) || LLVMGetInstructionParent(p->c) != head ||
        LLVMTypeOf(p->c) != LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(p->c))))
        return false;
    LLVMBasicBlockRef blocks[] = {head, p->get, p->latch, p->mid, p->put};
    if (!tji_counted_exit(lterm, p->exit, p->i, p->i_next, blocks, 5, &p->limit,
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
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(p->exit)); u; u = LLVMGetNextUse(u))
        if (LLVMGetInstructionParent(LLVMGetUser(u)) != p->latch)
            p->shared_exit = true;
    return p->vf >= 2 && p->vf <= 16;
}

/* Whether every instruction of blocks 'all' is one of 'known' (or a terminator), and used
 * in the loop only, but c', which the exit may use. */
static bool
only_known(const poploop *p, const LLVMBasicBlockRef *all, int nall, const LLVMValueRef *known,
           int nknown)
{
    for (int k = 0; k < nall; k++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(all[k]); in;
             in = LLVMGetNextInstruction(in)) {
            bool ok = LLVMIsATerminatorInst(in);
            for (int j = 0; j < nknown && !ok; j++)
                ok = known[j] && known[j] == in;
            if (!ok)
                return false;
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef user = LLVMGetUser(u);
                if (!in_loop(p, user) &&
                    (in != p->c2 || LLVMGetInstructionParent(user) != p->exit))
                    return false;
            }
        }
    return true;
}

enum { CHAIN_MAX = 32, CALC_MAX = 24 }; /* a drain's address and value */

/* Whether 'v' is 'from', or computed from it lane by lane (tji_drain_arith) in blocks 'bb'
 * (or put, where 'bb' is mid) with values from outside the loop; adds its instructions to
 * p->calc, operands first, while it has room ('depth', the instructions above 'v', bounds the
 * recursion: each of them would take a place too). */
static bool
lane_calc(poploop *p, LLVMValueRef v, LLVMValueRef from, LLVMBasicBlockRef bb, int depth)
{
    if (v == from || !in_loop(p, v))
        return true;
    for (int k = 0; k < p->ncalc; k++)
        if (p->calc[k] == v)
            return true;
    LLVMBasicBlockRef at = LLVMGetInstructionParent(v);
    if ((at != bb && (bb != p->mid || at != p->put)) || depth >= CALC_MAX ||
        !tji_drain_arith(v))
        return false;
    int n = LLVMIsACallInst(v) ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v);
    for (int k = 0; k < n; k++)
        if (!lane_calc(p, LLVMGetOperand(v, (unsigned)k), from, bb, depth + 1))
            return false;
    if (p->ncalc == CALC_MAX)
        return false;
    p->calc[p->ncalc++] = v;
    return true;
}

/* The phis of 'bb', where 'get' and the head meet: c' = (top from get, c from the head),
 * and optionally the value (the load from get, zero from the head) in p->v. A drain's
 * ('calc' set) may take a value computed from the load in get (kept in p->from_get) and
 * any constant from the head (where the lane got nothing, and so stores nothing). */
static bool
value_phis(poploop *p, LLVMBasicBlockRef bb, bool calc)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in)) {
        if (LLVMCountIncoming(in) != 2)
            return false;
        unsigned g = LLVMGetIncomingBlock(in, 0) == p->get ? 0 : 1;
        LLVMValueRef from_get = LLVMGetIncomingValue(in, g);
        LLVMValueRef from_head = LLVMGetIncomingValue(in, 1 - g);
        if (in == p->c2 && from_get == p->top && from_head == p->c)
            continue;
        if (p->v || !LLVMIsAConstant(from_head) ||
            (calc ? !lane_calc(p, from_get, p->load, p->get, 0)
                  : from_get != p->load || !LLVMIsNull(from_head)))
            return false;
        p->v = in;
        p->from_get = from_get;
    }
    return LLVMIsAPHINode(p->c2) && LLVMGetInstructionParent(p->c2) == bb;
}

static bool
match(poploop *p, LLVMBasicBlockRef head, unsigned bits)
{
    memset(p, 0, sizeof *p);
    p->head = head;
    LLVMValueRef hterm = tji_cond_br(head);
    if (!hterm)
        return false;
    p->get = LLVMGetSuccessor(hterm, 0);
    p->latch = LLVMGetSuccessor(hterm, 1);
    if (p->get == head || p->latch == head || p->get == p->latch ||
        tji_only_succ(p->get) != p->latch || !match_head(p, bits))
        return false;
    if (!value_phis(p, p->latch, false))
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
    /* nothing else in the loop, and only c' used after it, in the exit */
    LLVMBasicBlockRef all[] = {head, p->get, p->latch};
    LLVMValueRef known[] = {
        p->i, p->c, p->c2, p->got, p->top, p->slot, p->slot_store, p->load, p->gep, p->ext,
        p->v, p->v_store, p->exit_cmp, p->i_next,
        p->slot_store ? LLVMGetOperand(p->slot_store, 1) : NULL,
        p->v_store ? LLVMGetOperand(p->v_store, 1) : NULL,
    };
    return only_known(p, all, 3, known, (int)TJI_NELEMS(known));
}

/* Whether 'v' is the slot in the block that stores (where got holds, slot = top = c - 1):
 * the slot's select, or top. */
static bool
is_slot(const poploop *p, LLVMValueRef v)
{
    return v == p->top || (p->slot && v == p->slot);
}

/* Whether 'test' holds exactly where the lane got a value: got, c > 0, or slot >= 0. */
static bool
tests_got(const poploop *p, LLVMValueRef test)
{
    if (test == p->got)
        return true;
    if (!LLVMIsAICmpInst(test))
        return false;
    LLVMIntPredicate pr = LLVMGetICmpPredicate(test);
    LLVMValueRef a = LLVMGetOperand(test, 0), k = LLVMGetOperand(test, 1);
    if (a == p->c)
        return pr == LLVMIntSGT && is_const(k, 0);
    return is_slot(p, a) && ((pr == LLVMIntSGT && is_const(k, -1)) ||
                             (pr == LLVMIntSGE && is_const(k, 0)));
}

/* Whether 'v', in the block that stores, is affine in the slot: the slot, a value from
 * outside the loop, or an add, sub, mul, shl, extension or single-index GEP of one such
 * value of the slot and one from outside the loop. Its instructions in the loop are added
 * to 'chain' (capacity 'cap', '*n' so far), operands first ('depth', the instructions above
 * 'v', bounds the recursion). */
static bool
affine_in_slot(const poploop *p, LLVMValueRef v, LLVMValueRef *chain, int cap, int *n,
               int depth)
{
    if (is_slot(p, v) || !in_loop(p, v))
        return true;
    if (LLVMGetInstructionParent(v) != p->put || depth >= cap)
        return false;
    int varying = 0;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
    case LLVMSExt:
    case LLVMZExt:
        break;
    case LLVMGetElementPtr:
        if (LLVMGetNumOperands(v) != 2 || in_loop(p, LLVMGetOperand(v, 0)))
            return false;
        break;
    default:
        return false;
    }
    for (unsigned k = 0, no = (unsigned)LLVMGetNumOperands(v); k < no; k++) {
        LLVMValueRef o = LLVMGetOperand(v, k);
        if (is_slot(p, o) || in_loop(p, o))
            varying++;
        if (!affine_in_slot(p, o, chain, cap, n, depth + 1))
            return false;
    }
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (varying != 1 || *n == cap ||
        (op == LLVMShl && (is_slot(p, LLVMGetOperand(v, 1)) || in_loop(p, LLVMGetOperand(v, 1)))))
        return false;
    chain[(*n)++] = v;
    return true;
}

/* Whether a vector of 't' takes its elements' bytes in memory: floats, doubles and
 * integers of 8 to 64 bits (not a vector of i1, whose elements are bits). */
static bool
byte_sized(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMIntegerTypeKind) {
        unsigned w = LLVMGetIntTypeWidth(t);
        return w == 8 || w == 16 || w == 32 || w == 64;
    }
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* A drain: the pop and a store of its value in one loop (jit/sink_barriers.c moved the pop's
 * barrier below the store), as O3 leaves it. The head as in match; 'get' loads and goes to
 * 'mid', whose phis are c' = (top from get, c from the head) and v = (the value, zero); mid
 * branches on a test that holds where the lane got a value to 'put', which stores v at an
 * address affine in the slot, and to the latch, which only counts the lanes. */
static bool
match_drain(poploop *p, LLVMBasicBlockRef head, unsigned bits, LLVMValueRef *chain,
            int *nchain, LLVMValueRef *calc)
{
    memset(p, 0, sizeof *p);
    p->head = head;
    p->calc = calc;
    LLVMValueRef hterm = tji_cond_br(head), mterm;
    if (!hterm)
        return false;
    p->get = LLVMGetSuccessor(hterm, 0);
    p->mid = LLVMGetSuccessor(hterm, 1);
    if (tji_only_succ(p->get) != p->mid || !(mterm = tji_cond_br(p->mid)))
        return false;
    p->put = LLVMGetSuccessor(mterm, 0);
    p->latch = LLVMGetSuccessor(mterm, 1);
    p->test = LLVMGetCondition(mterm);
    LLVMBasicBlockRef blocks[] = {head, p->get, p->mid, p->put, p->latch};
    for (int a = 0; a < 5; a++)
        for (int b = a + 1; b < 5; b++)
            if (blocks[a] == blocks[b])
                return false;
    if (tji_only_succ(p->put) != p->latch || !match_head(p, bits))
        return false;
    if (!value_phis(p, p->mid, true) || !p->v ||
        LLVMGetFirstInstruction(p->latch) != p->i_next)
        return false;
    /* the slot's select, if any */
    for (LLVMUseRef u = LLVMGetFirstUse(p->top); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!p->slot && LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == p->got &&
            LLVMGetOperand(user, 1) == p->top && is_const(LLVMGetOperand(user, 2), -1))
            p->slot = user;
    }
    if (!tests_got(p, p->test))
        return false;
    /* put: the store of v and its address */
    p->store = LLVMGetFirstInstruction(p->put);
    while (p->store && !LLVMIsAStoreInst(p->store))
        p->store = LLVMGetNextInstruction(p->store);
    if (!p->store || LLVMGetVolatile(p->store) ||
        !lane_calc(p, LLVMGetOperand(p->store, 0), p->v, p->mid, 0) ||
        !byte_sized(LLVMTypeOf(LLVMGetOperand(p->store, 0))))
        return false;
    *nchain = 0;
    LLVMValueRef ptr = LLVMGetOperand(p->store, 1);
    if (!in_loop(p, ptr) || !affine_in_slot(p, ptr, chain, CHAIN_MAX, nchain, 0))
        return false;
    LLVMBasicBlockRef all[] = {head, p->get, p->mid, p->put, p->latch};
    LLVMValueRef known[14 + CHAIN_MAX + CALC_MAX] = {
        p->i, p->c, p->c2, p->got, p->top, p->slot, p->load, p->gep, p->ext,
        p->v, p->exit_cmp, p->i_next, p->test, p->store,
    };
    int nknown = 14;
    for (int k = 0; k < *nchain; k++)
        known[nknown++] = chain[k];
    for (int k = 0; k < p->ncalc; k++)
        known[nknown++] = p->calc[k];
    return only_known(p, all, 5, known, nknown);
}

/* The address the store of a matched drain makes for slot 's' (the chain cloned in front of
 * the builder). */
static LLVMValueRef
address_at(LLVMBuilderRef b, const poploop *p, const LLVMValueRef *chain, int n, LLVMValueRef s)
{
    LLVMValueRef made[CHAIN_MAX];
    for (int k = 0; k < n; k++) {
        LLVMValueRef in = LLVMInstructionClone(chain[k]);
        for (unsigned o = 0, no = (unsigned)LLVMGetNumOperands(in); o < no; o++) {
            LLVMValueRef op = LLVMGetOperand(in, o);
            if (is_slot(p, op))
                LLVMSetOperand(in, o, s);
            for (int j = 0; j < k; j++)
                if (op == chain[j])
                    LLVMSetOperand(in, o, made[j]);
        }
        LLVMInsertIntoBuilder(b, in);
        made[k] = in;
    }
    return n > 0 ? made[n - 1] : s;
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

/* What a kind of vector loop builds (vector_loop): 'test', at the end of the loop's head,
 * the condition for a step (NULL: none), and 'step', the step of lanes vi .. vi + VF - 1
 * where c >= VF ('partial' false) or c < VF, which returns the count after it. */
typedef struct steps steps;
struct steps {
    LLVMValueRef (*test)(steps *s, LLVMBuilderRef b, const tji_vec_front *f);
    LLVMValueRef (*step)(steps *s, LLVMBuilderRef b, const tji_vec_front *f, bool partial);
    LLVMModuleRef m;
    const poploop *p;
    LLVMValueRef iota, rev;     /* <0, 1, .. VF - 1> and <VF - 1, .. 0> */
    const LLVMValueRef *chain;  /* a drain's store address, affine in the slot (address_at) */
    int nchain;
    LLVMValueRef low, at_lo, any; /* a drain's: c - VF, the address of the step's lowest
                                   * slot, c > 0 */
    tji_vmap maps[2];             /* a drain's: scalar -> vector in its full and partial step */
};

/* llvm.masked.load of a vector 'vt' at 'from', the lanes of 'mask', zero elsewhere. */
static LLVMValueRef
masked_load(const steps *s, LLVMBuilderRef b, LLVMTypeRef vt, LLVMValueRef from,
            unsigned align, LLVMValueRef mask)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(vt));
    LLVMTypeRef tys[] = {vt, LLVMTypeOf(from)};
    LLVMValueRef args[] = {from, LLVMConstInt(i32, align, 0), mask, LLVMConstNull(vt)};
    return tji_build_intrinsic(s->m, b, LLVMLookupIntrinsicID("llvm.masked.load", 16), tys, 2,
                               args, 4);
}

/* The pops' step (the loop of match). Where c >= VF: slots c - 1 down to c - VF, the VF
 * values below c in reverse order (one vector load and a shuffle). Where c < VF (the
 * stack's last values, or none): lane vi + k takes slot c - 1 - k and its value where
 * k < c, else -1 and zero; the values come from a masked load of the VF slots below c,
 * whose first VF - c (below the stack's bottom) it does not touch. Returns the count after
 * the step: c - VF, or min(c, 0). */
static LLVMValueRef
lanes_step(steps *s, LLVMBuilderRef b, const tji_vec_front *f, bool partial)
{
    const poploop *p = s->p;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(p->i)));
    LLVMTypeRef i32 = LLVMTypeOf(f->vc);
    unsigned vf = p->vf;
    LLVMValueRef vi = f->vi, zero = LLVMConstInt(i32, 0, 0), iota = s->iota;
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
            vals = masked_load(s, b, vt, from, LLVMGetAlignment(p->load), mask);
        } else {
            vals = LLVMBuildLoad2(b, vt, from, "");
            LLVMSetAlignment(vals, LLVMGetAlignment(p->load));
        }
        vals = LLVMBuildShuffleVector(b, vals, LLVMGetPoison(vt), s->rev, "");
        LLVMValueRef arr = LLVMGetOperand(LLVMGetOperand(p->v_store, 1), 0);
        LLVMValueRef st = LLVMBuildStore(b, vals, LLVMBuildGEP2(b, p->elem, arr, &vi, 1, ""));
        LLVMSetAlignment(st, LLVMGetAlignment(p->load));
    }
    if (!partial)
        return low;
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, f->vc, zero, ""), zero, f->vc, "");
}

/* A drain's test: the step's slots, max(c - VF, 0) up to c - 1, have contiguous addresses
 * where c > 0 (the chain being affine, its first and last addresses (hi - lo) * size
 * apart). Keeps the lowest slot's address for the step. */
static LLVMValueRef
drain_test(steps *s, LLVMBuilderRef b, const tji_vec_front *f)
{
    const poploop *p = s->p;
    LLVMTypeRef i32 = LLVMTypeOf(p->c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(i32));
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMValueRef low = s->low = LLVMBuildSub(b, f->vc, LLVMConstInt(i32, p->vf, 0), "");
    LLVMValueRef lo = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, low, zero, ""), low, zero,
                                      "drain.lo");
    LLVMValueRef hi = LLVMBuildSub(b, f->vc, LLVMConstInt(i32, 1, 0), "");
    s->at_lo = address_at(b, p, s->chain, s->nchain, lo);
    LLVMValueRef at_hi = address_at(b, p, s->chain, s->nchain, hi);
    LLVMValueRef span = LLVMBuildSub(b, LLVMBuildPtrToInt(b, at_hi, i64, ""),
                                     LLVMBuildPtrToInt(b, s->at_lo, i64, ""), "");
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(s->m);
    LLVMTypeRef stored = LLVMTypeOf(LLVMGetOperand(p->store, 0));
    LLVMValueRef want = LLVMBuildMul(
        b, LLVMBuildSExt(b, LLVMBuildSub(b, hi, lo, ""), i64, ""),
        LLVMConstInt(i64, LLVMABISizeOfType(dl, stored), 0), "");
    s->any = LLVMBuildICmp(b, LLVMIntSGT, f->vc, zero, "");
    return LLVMBuildSelect(b, s->any, LLVMBuildICmp(b, LLVMIntEQ, span, want, ""),
                           LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(i32)), 1, 0),
                           "drain.contiguous");
}

/* The stored values of a drain's step from 'vals', the VF values it popped: what the loop
 * computes from each (p->calc), lane by lane. */
static LLVMValueRef
drain_values(steps *s, LLVMBuilderRef b, LLVMValueRef vals, bool partial)
{
    const poploop *p = s->p;
    tji_widen w = {.b = b, .m = s->m, .vf = p->vf, .map = s->maps[partial]};
    tji_vmap_put(&w.map, p->load, vals);
    int k = 0; /* p->calc: get's instructions first (value_phis), then those after v */
    for (; k < p->ncalc && LLVMGetInstructionParent(p->calc[k]) == p->get; k++)
        tji_widen_inst(&w, p->calc[k]);
    tji_vmap_put(&w.map, p->v, tji_widen_value(&w, p->from_get));
    for (; k < p->ncalc; k++)
        tji_widen_inst(&w, p->calc[k]);
    return tji_widen_value(&w, LLVMGetOperand(p->store, 0));
}

/* A drain's step: lane vi + k stores what it computes from the value of slot c - 1 - k at
 * that slot's address, so the step loads the VF values below c (where c < VF, the c values
 * left from the stack's bottom, masked; none where c <= 0), computes from them, and stores
 * the results at the lowest slot's address, in order. */
static LLVMValueRef
drain_step(steps *s, LLVMBuilderRef b, const tji_vec_front *f, bool partial)
{
    const poploop *p = s->p;
    LLVMTypeRef i32 = LLVMTypeOf(p->c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(i32));
    LLVMTypeRef vt = LLVMVectorType(p->elem, p->vf);
    LLVMValueRef stack = LLVMGetOperand(p->gep, 0);
    unsigned lalign = LLVMGetAlignment(p->load), salign = LLVMGetAlignment(p->store);
    if (!partial) {
        LLVMValueRef lowx = LLVMBuildSExt(b, s->low, i64, "");
        LLVMValueRef vals =
            LLVMBuildLoad2(b, vt, LLVMBuildGEP2(b, p->elem, stack, &lowx, 1, ""), "");
        LLVMSetAlignment(vals, lalign);
        LLVMSetAlignment(LLVMBuildStore(b, drain_values(s, b, vals, false), s->at_lo), salign);
        return s->low;
    }
    LLVMValueRef mask =
        LLVMBuildICmp(b, LLVMIntSLT, s->iota, tji_build_splat(b, f->vc, p->vf), "");
    LLVMValueRef left = drain_values(s, b, masked_load(s, b, vt, stack, lalign, mask), true);
    LLVMTypeRef stys[] = {LLVMTypeOf(left), LLVMTypeOf(s->at_lo)};
    LLVMValueRef sargs[] = {left, s->at_lo, LLVMConstInt(i32, salign, 0), mask};
    tji_build_intrinsic(s->m, b, LLVMLookupIntrinsicID("llvm.masked.store", 17), stys, 2, sargs,
                        4);
    return LLVMBuildSelect(b, s->any, LLVMConstInt(i32, 0, 0), f->vc, "");
}

/* Builds the vector loop in front of a matched loop (see the top of the file): VF lanes a
 * step while VF lanes are left (and s->test holds), full steps while c >= VF, then partial
 * ones, so that the scalar loop only takes the last lanes when VF does not divide their
 * number, or the steps the test turns away. */
static void
vector_loop(steps *s, const char *prefix)
{
    const poploop *p = s->p;
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(p->i));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(llctx);
    unsigned vf = p->vf;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
    tji_counted_loop l = {.pre = p->pre, .head = p->head, .latch = p->latch, .exit = p->exit,
                          .i = p->i, .c = p->c, .c2 = p->c2, .limit = p->limit,
                          .limit_on_next = p->limit_on_next};
    tji_vec_front f;
    tji_vec_front_begin(b, &l, vf, prefix, &f);
    LLVMValueRef rev[16], up[16];
    for (unsigned k = 0; k < vf; k++) {
        rev[k] = LLVMConstInt(i32, vf - 1 - k, 0);
        up[k] = LLVMConstInt(i32, k, 0);
    }
    s->iota = LLVMConstVector(up, vf);
    s->rev = LLVMConstVector(rev, vf);
    tji_vec_front_enter(b, &f,
                        s->test ? s->test(s, b, &f)
                                : LLVMConstInt(LLVMInt1TypeInContext(llctx), 1, 0));
    char name[64];
    snprintf(name, sizeof name, "%s.vec.full", prefix);
    LLVMBasicBlockRef full = LLVMInsertBasicBlockInContext(llctx, f.done, name);
    snprintf(name, sizeof name, "%s.vec.part", prefix);
    LLVMBasicBlockRef part = LLVMInsertBasicBlockInContext(llctx, f.done, name);
    snprintf(name, sizeof name, "%s.vec.step", prefix);
    LLVMBasicBlockRef step = LLVMInsertBasicBlockInContext(llctx, f.done, name);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, f.vc, LLVMConstInt(i32, vf, 0), ""), full,
                    part);
    LLVMPositionBuilderAtEnd(b, full);
    LLVMValueRef c_full = s->step(s, b, &f, false);
    LLVMBuildBr(b, step);
    LLVMPositionBuilderAtEnd(b, part);
    LLVMValueRef c_part = s->step(s, b, &f, true);
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
            LLVMValueRef chain[CHAIN_MAX], calc[CALC_MAX];
            int nchain = 0;
            steps s = {.m = m, .p = &p, .chain = chain};
            if (match(&p, bb, bits)) {
                s.step = lanes_step;
            } else if (match_drain(&p, bb, bits, chain, &nchain, calc)) {
                s.test = drain_test;
                s.step = drain_step;
                s.nchain = nchain;
                bool ok = tji_vmap_init(&s.maps[0], 4 * CALC_MAX + 8);
                if (!tji_vmap_init(&s.maps[1], 4 * CALC_MAX + 8) || !ok) {
                    tji_vmap_free(&s.maps[0]);
                    tji_vmap_free(&s.maps[1]);
                    continue; /* out of memory: the scalar loop stays */
                }
            } else {
                continue;
            }
            if (p.shared_exit)
                own_exit(&p);
            vector_loop(&s, s.test ? "drain" : "pop");
            if (s.test) {
                tji_vmap_free(&s.maps[0]);
                tji_vmap_free(&s.maps[1]);
            }
            done++;
        }
    return done;
}
