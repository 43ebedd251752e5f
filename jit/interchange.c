/*
 * jit/interchange.c: a cooperative CPU block's lanes taking turns through a loop of
 * scatter-adds (after the pipeline).
 *
 * In a uniform copy of jit/lane_loops.c each lane runs its whole share of a user's loop
 * before the next lane starts. For the bench's cooperative histogram that is 512 iterations
 * a lane, each reading x 1 KiB after the last (the loop steps by block_dim), so the block's
 * data went through the caches 16 times, a lane at a time, and the phase ran at 0.47 of C
 * where the same instructions over contiguous data (width-1) ran at 0.77. When the loop's
 * only writes are integer adds into the block's own shared memory (tile_scatter_add into a
 * shared tile, which no other code of the loop reads), the order of the lanes' iterations
 * cannot be seen: integer adds commute exactly, and nothing else is written. This pass then
 * runs the iterations in the other order, every lane's iteration j before any lane's j + 1,
 * so that the lanes read x's consecutive elements.
 *
 * The shape it takes, as O3 leaves it: the lanes' loop (its latch marked "tj.lanes" by
 * tji_mark_lane_loop) has a head H whose only phi is the lane counter (0, then + 1 up to a
 * constant W, tested in the latch, which does nothing else), and which branches on a
 * condition either to the rest of the copy or to a preheader P of an inner loop F, whose
 * only exit is to the lanes' latch; or always to P, or into F as its preheader itself (the
 * copy of lane_loops.c that takes the loop's range checks to hold, TJI_RANGES_FLAG). F's
 * head has one phi, its counter, which starts at a value from outside the lanes' loop;
 * its next value and F's exit test depend on that counter and on such values alone, so
 * every lane runs F the same number of times. H and P
 * compute without memory (what F takes from them, such as a lane's address, is computed
 * again for each lane before the new loops); F's only stores add an integer into an alloca
 * at the address a load just read (the read used by that add alone), its other loads read
 * anything but those allocas, and it calls only intrinsics that touch no memory. Then,
 * where every lane would take P (tested before: a loop over the lanes of H's condition,
 * which also keeps in small tables, one element a lane, what F takes from H and P), the
 * block runs instead
 *     for each iteration of F: for each lane: F's body for that lane and iteration
 * and the lanes' loop as before otherwise. The lanes go LANE_UNROLL at a time, a copy of
 * F's body each (control.c keeps F rolled, so that an iteration reads one row of the
 * block's data, and lane_loops.c the lanes' loop around it). Where the test also finds a
 * value F takes (an address, an integer) affine in the lane, at the stride that its
 * computation suggests (lane_slope) or else lanes 1's minus 0's, a second form of the
 * loops takes a step's later lanes' values from its first lane's plus their strides, at
 * constant offsets where the stride is a constant.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    MAX_BLOCKS = 64,
    MAX_TAKEN = 64,             /* values F takes from H and P */
    MAX_TABLE_BYTES = 16 << 10, /* their tables, one element a lane */
    /* Lanes a step of the new loops, a copy of F's body each: what LLVM's unroll of F by 4
     * saved (the loop's test and a lane's address once for 4 elements), with the trip
     * counter outermost (control.c keeps F rolled). */
    LANE_UNROLL = 4,
};

typedef struct nest {
    tj_context *ctx;
    LLVMBuilderRef b;
    LLVMBasicBlockRef head, latch, exit, pre; /* the lanes' loop: H, its latch, exit, entry */
    LLVMValueRef iv;                          /* the lane counter */
    unsigned long long width;                 /* W */
    LLVMValueRef cond;                        /* H's branch condition */
    bool cond_true;                           /* whether P is its true successor */
    LLVMBasicBlockRef fpre, fhead, flatch;    /* P, F's head and latch */
    LLVMValueRef fiv, fstart, fnext, fexit;   /* F's counter, its start and next value, the
                                               * latch's condition */
    bool fexit_continues;                     /* whether fexit true means another trip */
    LLVMBasicBlockRef fblocks[MAX_BLOCKS];
    int nf;
    LLVMValueRef taken[MAX_TAKEN];            /* what F takes from H and P, each once */
    int ntaken;
} nest;

static bool
in_blocks(const LLVMBasicBlockRef *bs, int n, LLVMBasicBlockRef bb)
{
    for (int i = 0; i < n; i++)
        if (bs[i] == bb)
            return true;
    return false;
}

static bool
in_f(const nest *s, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && in_blocks(s->fblocks, s->nf, LLVMGetInstructionParent(v));
}

/* Whether 'v' is an instruction of the lanes' loop outside F (H, P or the latch). */
static bool
in_lanes_part(const nest *s, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    return bb == s->head || bb == s->fpre || bb == s->latch;
}

/* Instructions computed again in the new loops: no memory, no trap, no control. */
static bool
recomputable(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMFCmp: case LLVMSelect:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMGetElementPtr: case LLVMFreeze:
    case LLVMBitCast:
        return true;
    default:
        return false;
    }
}

enum { DEPENDS_MAX_NODES = 256 }; /* a value's walk by depends_only_on (a shared one counts
                                   * each time it is reached) */

/* Whether 'v', computed again with 'root' standing for a counter, needs only recomputable
 * instructions of 'part' (in_f or in_lanes_part) and values from outside the lanes' loop;
 * false past '*nodes' instructions (without it a value used twice at each level would be
 * walked 2^depth times). */
static bool
depends_only_on(const nest *s, LLVMValueRef v, LLVMValueRef root,
                bool (*part)(const nest *, LLVMValueRef), int *nodes)
{
    if (v == root || !LLVMIsAInstruction(v))
        return true;
    if (!in_f(s, v) && !in_lanes_part(s, v))
        return true; /* from outside the lanes' loop: it dominates their entry */
    if (--*nodes < 0 || !part(s, v) || LLVMIsAPHINode(v) || !recomputable(v))
        return false;
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        if (!depends_only_on(s, LLVMGetOperand(v, (unsigned)i), root, part, nodes))
            return false;
    return true;
}

/* depends_only_on with a walk of its own */
static bool
depends_only(const nest *s, LLVMValueRef v, LLVMValueRef root,
             bool (*part)(const nest *, LLVMValueRef))
{
    int nodes = DEPENDS_MAX_NODES;
    return depends_only_on(s, v, root, part, &nodes);
}

/* 'v' computed again at the builder, with what 'map' holds for the values it already has
 * (the counter among them). */
static LLVMValueRef
recompute(nest *s, tji_vmap *map, LLVMValueRef v)
{
    if (tji_vmap_has(map, v))
        return tji_vmap_get(map, v);
    if (!LLVMIsAInstruction(v) || (!in_f(s, v) && !in_lanes_part(s, v)))
        return v;
    LLVMValueRef c = LLVMInstructionClone(v);
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        LLVMSetOperand(c, (unsigned)i, recompute(s, map, LLVMGetOperand(v, (unsigned)i)));
    LLVMInsertIntoBuilder(s->b, c);
    tji_vmap_put(map, v, c);
    return c;
}

/* The alloca that 'p' points into (through GEPs and casts), or NULL. */
static LLVMValueRef
alloca_under(LLVMValueRef p)
{
    p = tji_pointer_base(p);
    return LLVMIsAAllocaInst(p) ? p : NULL;
}

static bool
pure_intrinsic(LLVMValueRef call)
{
    static const char *const ok[] = {
        "llvm.x86.sse.cvtt", "llvm.x86.sse2.cvtt", "llvm.fptosi.sat.", "llvm.fptoui.sat.",
        "llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax.", "llvm.abs.", "llvm.fabs.",
        "llvm.expect.",
    };
    return tji_calls_named(call, ok, sizeof ok / sizeof ok[0]);
}

/* Whether 'ld' is the read of an add into an alloca: its one use an integer add, whose one
 * use is a store of it at the same address, in the same block. */
static bool
scatter_add_read(LLVMValueRef ld)
{
    LLVMUseRef u = LLVMGetFirstUse(ld);
    if (!u || LLVMGetNextUse(u))
        return false;
    LLVMValueRef add = LLVMGetUser(u);
    /* wrapping: adds that may not overflow could turn poison in another order */
    if (LLVMGetInstructionOpcode(add) != LLVMAdd || LLVMGetNSW(add) || LLVMGetNUW(add))
        return false;
    LLVMUseRef u2 = LLVMGetFirstUse(add);
    if (!u2 || LLVMGetNextUse(u2))
        return false;
    LLVMValueRef st = LLVMGetUser(u2);
    return LLVMIsAStoreInst(st) && LLVMGetOperand(st, 0) == add &&
           LLVMGetOperand(st, 1) == LLVMGetOperand(ld, 0) && !LLVMGetVolatile(st) &&
           LLVMGetOrdering(st) == LLVMAtomicOrderingNotAtomic &&
           LLVMGetInstructionParent(st) == LLVMGetInstructionParent(ld);
}

/* Instructions that touch no memory and have no effect but their value. */
static bool
no_memory(LLVMValueRef in)
{
    if (recomputable(in) || LLVMIsAPHINode(in))
        return true;
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFNeg: case LLVMFPToSI:
    case LLVMFPToUI: case LLVMSIToFP: case LLVMUIToFP: case LLVMFPExt: case LLVMFPTrunc:
    case LLVMInsertElement: case LLVMExtractElement: case LLVMShuffleVector: case LLVMBr:
        return true;
    case LLVMCall:
        return pure_intrinsic(in);
    default:
        return false;
    }
}

/* Whether store 'st' writes what a scatter-add read just read, plus something. */
static bool
scatter_add_write(LLVMValueRef st)
{
    LLVMValueRef v = LLVMGetOperand(st, 0);
    if (LLVMGetInstructionOpcode(v) != LLVMAdd)
        return false;
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef ld = LLVMGetOperand(v, i);
        if (LLVMIsALoadInst(ld) && scatter_add_read(ld) &&
            LLVMGetOperand(ld, 0) == LLVMGetOperand(st, 1))
            return true;
    }
    return false;
}

/* F's instructions: scatter-adds into allocas, loads of other memory, no other effect, and
 * nothing used after F. */
static bool
body_commutes(const nest *s)
{
    LLVMValueRef targets[MAX_BLOCKS];
    int nt = 0;
    for (int i = 0; i < s->nf; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(s->fblocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u))
                if (!in_f(s, LLVMGetUser(u)))
                    return false;
            if (LLVMIsALoadInst(in)) {
                if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
                    return false;
                if (scatter_add_read(in)) {
                    LLVMValueRef a = alloca_under(LLVMGetOperand(in, 0));
                    if (!a || nt == MAX_BLOCKS)
                        return false;
                    targets[nt++] = a;
                }
            } else if (LLVMIsAStoreInst(in)) {
                if (!scatter_add_write(in))
                    return false;
            } else if (!no_memory(in)) {
                return false;
            }
        }
    /* no other read of an alloca that F adds into */
    for (int i = 0; i < s->nf; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(s->fblocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            if (!LLVMIsALoadInst(in) || scatter_add_read(in))
                continue;
            /* a pointer chosen by a phi or a select may point into a target */
            LLVMValueRef base = tji_pointer_base(LLVMGetOperand(in, 0));
            if (LLVMIsAPHINode(base) || LLVMIsASelectInst(base))
                return false;
            for (int t = 0; t < nt; t++)
                if (base == targets[t])
                    return false;
        }
    return nt > 0;
}

/* The lanes' loop whose latch ends in 'br': H, the counter 0, +1 .. W, the exit. */
static bool
find_lanes(nest *s, LLVMValueRef br)
{
    if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br))
        return false;
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cmp) || LLVMGetInstructionParent(cmp) != s->latch)
        return false;
    LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
    if (pred != LLVMIntEQ && pred != LLVMIntNE)
        return false;
    LLVMValueRef next = LLVMGetOperand(cmp, 0), w = LLVMGetOperand(cmp, 1);
    if (!LLVMIsAConstantInt(w) || LLVMGetInstructionOpcode(next) != LLVMAdd ||
        !LLVMIsAConstantInt(LLVMGetOperand(next, 1)) ||
        LLVMConstIntGetZExtValue(LLVMGetOperand(next, 1)) != 1)
        return false;
    s->iv = LLVMGetOperand(next, 0);
    s->width = LLVMConstIntGetZExtValue(w);
    s->head = LLVMGetSuccessor(br, pred == LLVMIntEQ ? 1 : 0);
    s->exit = LLVMGetSuccessor(br, pred == LLVMIntEQ ? 0 : 1);
    if (!LLVMIsAPHINode(s->iv) || LLVMGetInstructionParent(s->iv) != s->head ||
        LLVMCountIncoming(s->iv) != 2 || s->width < 2 || s->width > 4096)
        return false;
    /* the latch: the counter, its test, the branch */
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->latch); in; in = LLVMGetNextInstruction(in))
        if (in != next && in != cmp && in != br)
            return false;
    /* H: the counter its only phi, from 0 on the one edge from outside */
    LLVMValueRef second = LLVMGetNextInstruction(s->iv);
    if (LLVMGetFirstInstruction(s->head) != s->iv || LLVMIsAPHINode(second))
        return false;
    for (unsigned i = 0; i < 2; i++) {
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(s->iv, i);
        LLVMValueRef v = LLVMGetIncomingValue(s->iv, i);
        if (from == s->latch) {
            if (v != next)
                return false;
        } else {
            if (!LLVMIsAConstantInt(v) || LLVMConstIntGetZExtValue(v) != 0)
                return false;
            s->pre = from;
        }
    }
    /* what the exit's phis take from the latch must not come from the lanes' loop */
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->exit); in && LLVMIsAPHINode(in);
         in = LLVMGetNextInstruction(in))
        for (unsigned i = 0, n = LLVMCountIncoming(in); i < n; i++)
            if (LLVMGetIncomingBlock(in, i) == s->latch &&
                LLVMIsAInstruction(LLVMGetIncomingValue(in, i)))
                return false;
    return s->pre && LLVMGetBasicBlockTerminator(s->pre) &&
           LLVMIsABranchInst(LLVMGetBasicBlockTerminator(s->pre));
}

/* F from the head's successor 'p': its blocks (every path from its head leads back to the
 * head through its latch, or to the lanes' latch from there alone) and its counter. */
static bool
find_inner(nest *s, LLVMBasicBlockRef p)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    if (LLVMGetNumSuccessors(t) != 1 ||
        (p != s->head && LLVMIsAPHINode(LLVMGetFirstInstruction(p))))
        return false;
    s->fpre = p;
    s->fhead = LLVMGetSuccessor(t, 0);
    s->fiv = LLVMGetFirstInstruction(s->fhead);
    if (!LLVMIsAPHINode(s->fiv) || LLVMIsAPHINode(LLVMGetNextInstruction(s->fiv)) ||
        LLVMCountIncoming(s->fiv) != 2)
        return false;
    s->nf = 0;
    s->flatch = NULL;
    s->fblocks[s->nf++] = s->fhead;
    for (int i = 0; i < s->nf; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(s->fblocks[i]);
        if (!LLVMIsABranchInst(term))
            return false;
        for (unsigned k = 0, n = LLVMGetNumSuccessors(term); k < n; k++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, k);
            if (to == s->fhead || to == s->latch) {
                if (s->flatch && s->flatch != s->fblocks[i])
                    return false;
                s->flatch = s->fblocks[i];
            } else if (!in_blocks(s->fblocks, s->nf, to)) {
                if (to == s->head || to == s->fpre || s->nf == MAX_BLOCKS)
                    return false;
                s->fblocks[s->nf++] = to;
            }
        }
    }
    /* the latch: 'br exit?, head, lanes' latch', one edge back, no other way out */
    LLVMValueRef br = tji_cond_br(s->flatch);
    if (!br)
        return false;
    LLVMBasicBlockRef a = LLVMGetSuccessor(br, 0), b = LLVMGetSuccessor(br, 1);
    if (!((a == s->fhead && b == s->latch) || (a == s->latch && b == s->fhead)))
        return false;
    s->fexit = LLVMGetCondition(br);
    s->fexit_continues = a == s->fhead;
    /* every block but the head entered from F alone (a block's uses are the branches to
     * it), the head from P and F's latch, and no cycle but through the head */
    for (int i = 0; i < s->nf; i++)
        for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(s->fblocks[i])); u;
             u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsAInstruction(user))
                return false;
            LLVMBasicBlockRef from = LLVMGetInstructionParent(user);
            if (!in_blocks(s->fblocks, s->nf, from) && !(i == 0 && from == s->fpre))
                return false;
        }
    int indeg[MAX_BLOCKS] = {0}, order[MAX_BLOCKS], done = 0;
    for (int i = 0; i < s->nf; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(s->fblocks[i]);
        for (unsigned k = 0, n = LLVMGetNumSuccessors(term); k < n; k++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, k);
            for (int j = 1; j < s->nf; j++)
                if (s->fblocks[j] == to)
                    indeg[j]++;
        }
        if (i > 0)
            for (LLVMValueRef in = LLVMGetFirstInstruction(s->fblocks[i]);
                 in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in))
                for (unsigned k = 0, n = LLVMCountIncoming(in); k < n; k++)
                    if (!in_blocks(s->fblocks, s->nf, LLVMGetIncomingBlock(in, k)))
                        return false;
    }
    order[done++] = 0;
    for (int i = 0; i < done; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(s->fblocks[order[i]]);
        for (unsigned k = 0, n = LLVMGetNumSuccessors(term); k < n; k++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, k);
            for (int j = 1; j < s->nf; j++)
                if (s->fblocks[j] == to && --indeg[j] == 0)
                    order[done++] = j;
        }
    }
    if (done != s->nf)
        return false;
    for (unsigned i = 0; i < 2; i++) {
        if (LLVMGetIncomingBlock(s->fiv, i) == s->flatch)
            s->fnext = LLVMGetIncomingValue(s->fiv, i);
        else if (LLVMGetIncomingBlock(s->fiv, i) == s->fpre)
            s->fstart = LLVMGetIncomingValue(s->fiv, i);
        else
            return false;
    }
    return true;
}

/* Every condition of the interchange (the file's comment). */
static bool
takes(nest *s)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(s->head);
    if (!LLVMIsABranchInst(br))
        return false;
    bool found = false;
    if (!LLVMIsConditional(br)) {
        /* every lane takes P (lane_loops.c's copy where the loop's range checks hold),
         * which may be H itself */
        s->cond = LLVMConstInt(LLVMInt1TypeInContext(s->ctx->llctx), 1, 0);
        s->cond_true = found = find_inner(s, LLVMGetSuccessor(br, 0)) || find_inner(s, s->head);
    } else {
        s->cond = LLVMGetCondition(br);
        for (unsigned k = 0; k < 2 && !found; k++) {
            found = find_inner(s, LLVMGetSuccessor(br, k));
            s->cond_true = k == 0;
        }
    }
    if (!found || in_f(s, s->fstart) || in_lanes_part(s, s->fstart))
        return false;
    /* H and P: no memory, only values computed again */
    LLVMBasicBlockRef part[] = {s->head, s->fpre};
    for (int i = 0; i < 2; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(part[i]); in;
             in = LLVMGetNextInstruction(in))
            if (in != s->iv && !LLVMIsATerminatorInst(in) && !recomputable(in))
                return false;
    if (!depends_only(s, s->cond, s->iv, in_lanes_part) ||
        !depends_only(s, s->fnext, s->fiv, in_f) || !depends_only(s, s->fexit, s->fiv, in_f))
        return false;
    /* what F takes from H and P, computed again for each lane */
    s->ntaken = 0;
    for (int i = 0; i < s->nf; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(s->fblocks[i]); in;
             in = LLVMGetNextInstruction(in))
            for (int o = 0, n = LLVMGetNumOperands(in); o < n; o++) {
                LLVMValueRef v = LLVMGetOperand(in, (unsigned)o);
                bool seen = false;
                for (int t = 0; t < s->ntaken && !seen; t++)
                    seen = s->taken[t] == v;
                if (!in_lanes_part(s, v) || seen)
                    continue;
                if (s->ntaken == MAX_TAKEN || !depends_only(s, v, s->iv, in_lanes_part))
                    return false;
                s->taken[s->ntaken++] = v;
            }
    return body_commutes(s);
}

/* Instructions of the lanes' loop and F, a bound on what a map of them holds. */
static size_t
count_instructions(const nest *s)
{
    size_t n = 16;
    LLVMBasicBlockRef part[] = {s->head, s->fpre, s->latch};
    for (int i = 0; i < 3 + s->nf; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(i < 3 ? part[i] : s->fblocks[i - 3]);
             in; in = LLVMGetNextInstruction(in))
            n += 2;
    return n + (size_t)s->nf;
}

/* Removes the instructions of 'bs' whose values nothing uses and that have no effect. */
static void
drop_unused(const LLVMBasicBlockRef *bs, int n)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < n; i++)
            for (LLVMValueRef in = LLVMGetFirstInstruction(bs[i]), next; in; in = next) {
                next = LLVMGetNextInstruction(in);
                if (!LLVMGetFirstUse(in) && !LLVMIsATerminatorInst(in) &&
                    (recomputable(in) || (no_memory(in) && !LLVMIsACallInst(in)))) {
                    LLVMInstructionEraseFromParent(in);
                    again = true;
                }
            }
    }
}

/* A phi of type 'ty' at the start of 'bb' with one incoming value so far. */
static LLVMValueRef
phi_from(nest *s, LLVMBasicBlockRef bb, LLVMTypeRef ty, LLVMValueRef v, LLVMBasicBlockRef from,
         const char *name)
{
    LLVMPositionBuilderAtEnd(s->b, bb);
    LLVMValueRef phi = LLVMBuildPhi(s->b, ty, name);
    LLVMAddIncoming(phi, &v, &from, 1);
    return phi;
}

/* Counter 'v' plus 'step' in '*next', and whether that is 'limit'. */
static LLVMValueRef
counter_done(nest *s, LLVMValueRef v, unsigned long long step, unsigned long long limit,
             LLVMValueRef *next)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    *next = LLVMBuildAdd(s->b, v, LLVMConstInt(ty, step, 0), "");
    return LLVMBuildICmp(s->b, LLVMIntEQ, *next, LLVMConstInt(ty, limit, 0), "");
}

/* A guess at how much 'v' grows when the lane counter grows by one, through the adds,
 * multiplies and shifts by constants, casts and GEPs of H and P: false if 'v' is computed
 * otherwise. Only a guess, in wrapping arithmetic (an add may wrap, a cast cut): the test
 * checks every lane's value against it before the new loops use it. */
static bool
lane_slope(const nest *s, LLVMTargetDataRef dl, LLVMValueRef v, unsigned long long *slope,
           int depth)
{
    if (v == s->iv) {
        *slope = 1;
        return true;
    }
    if (!in_lanes_part(s, v)) {
        *slope = 0; /* from outside the lanes' loop, or a constant */
        return true;
    }
    if (depth > 16 || LLVMIsAPHINode(v))
        return false;
    unsigned long long a, b;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    LLVMValueRef y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMAdd: case LLVMSub:
        if (!lane_slope(s, dl, x, &a, depth + 1) || !lane_slope(s, dl, y, &b, depth + 1))
            return false;
        *slope = op == LLVMAdd ? a + b : a - b;
        return true;
    case LLVMMul: case LLVMShl:
        if (!LLVMIsAConstantInt(y) || !lane_slope(s, dl, x, &a, depth + 1))
            return false;
        b = LLVMConstIntGetZExtValue(y);
        if (op == LLVMShl && b > 63)
            return false;
        *slope = op == LLVMMul ? a * b : a << b;
        return true;
    case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMFreeze:
        return lane_slope(s, dl, x, slope, depth + 1);
    case LLVMGetElementPtr: {
        if (LLVMGetNumOperands(v) != 2 || !lane_slope(s, dl, x, &a, depth + 1) ||
            !lane_slope(s, dl, y, &b, depth + 1))
            return false;
        LLVMTypeRef et = LLVMGetGEPSourceElementType(v);
        if (!LLVMTypeIsSized(et))
            return false;
        *slope = a + b * LLVMABISizeOfType(dl, et);
        return true;
    }
    default:
        return false;
    }
}

/* Whether the new loops may take a value F takes from H and P for lane l + u from lane
 * l's plus u strides, once the test has found it affine in the lane: integers (not i1) and
 * pointers. */
static bool
strided_type(LLVMTypeRef ty)
{
    LLVMTypeKind k = LLVMGetTypeKind(ty);
    return k == LLVMPointerTypeKind || (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(ty) > 1);
}

/* 'v' as an integer of type 'ity': itself, or a pointer's address. */
static LLVMValueRef
as_int(nest *s, LLVMValueRef v, LLVMTypeRef ity)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind
               ? LLVMBuildPtrToInt(s->b, v, ity, "")
               : v;
}

/* Where the new loops take the values F takes from H and P. */
typedef struct taking {
    const LLVMValueRef *table;                /* one element a lane, or NULL: computed again */
    LLVMValueRef step[LANE_UNROLL][MAX_TAKEN]; /* [u]: u strides, for copy u, or NULL */
} taking;

/* One copy of F's body in the new loops, entered from 'at' and leaving to 'next', for lane
 * 'lane' + 'u': what F takes from H and P first (the first copy's from the tables or
 * computed again, a later copy's from the first's plus its steps where 'tk' has them),
 * F's counter replaced by the trip counter 'jv'. 'first' holds the first copy's values. */
static bool
copy_body(nest *s, tji_vmap *map, const taking *tk, LLVMValueRef *first,
          LLVMBasicBlockRef at, LLVMBasicBlockRef next, LLVMValueRef lane, int u, LLVMValueRef jv)
{
    LLVMTypeRef ity = LLVMTypeOf(s->iv);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(s->ctx->llctx);
    LLVMPositionBuilderAtEnd(s->b, at);
    if (u > 0)
        lane = LLVMBuildAdd(s->b, lane, LLVMConstInt(ity, (unsigned long long)u, 0), "swap.l");
    tji_vmap_free(map);
    if (!tji_vmap_init(map, count_instructions(s)))
        return false;
    tji_vmap_put(map, s->iv, lane);
    for (int t = 0; t < s->ntaken; t++) {
        LLVMValueRef v, step = tk->step[u][t];
        if (step) {
            v = LLVMGetTypeKind(LLVMTypeOf(first[t])) == LLVMPointerTypeKind
                    ? LLVMBuildGEP2(s->b, i8, first[t], &step, 1, "")
                    : LLVMBuildAdd(s->b, first[t], step, "");
        } else if (tk->table) {
            LLVMTypeRef ty = LLVMGetAllocatedType(tk->table[t]);
            LLVMValueRef idx[] = {LLVMConstInt(ity, 0, 0), lane};
            v = LLVMBuildLoad2(s->b, LLVMTypeOf(s->taken[t]),
                               LLVMBuildInBoundsGEP2(s->b, ty, tk->table[t], idx, 2, ""), "");
        } else {
            v = recompute(s, map, s->taken[t]);
        }
        tji_vmap_put(map, s->taken[t], v);
        if (u == 0)
            first[t] = v;
    }
    tji_vmap_put(map, LLVMBasicBlockAsValue(s->latch), LLVMBasicBlockAsValue(next));
    tji_copy_blocks(s->ctx, s->b, s->fblocks, s->nf, s->head, "swap.body", map, true);
    LLVMBasicBlockRef body[MAX_BLOCKS];
    for (int i = 0; i < s->nf; i++)
        body[i] = LLVMValueAsBasicBlock(tji_vmap_get(map, LLVMBasicBlockAsValue(s->fblocks[i])));
    LLVMValueRef fiv = tji_vmap_get(map, s->fiv);
    LLVMReplaceAllUsesWith(fiv, jv);
    LLVMInstructionEraseFromParent(fiv);
    LLVMBasicBlockRef flatch =
        LLVMValueAsBasicBlock(tji_vmap_get(map, LLVMBasicBlockAsValue(s->flatch)));
    LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(flatch));
    LLVMPositionBuilderAtEnd(s->b, flatch);
    LLVMBuildBr(s->b, next);
    LLVMPositionBuilderAtEnd(s->b, at);
    LLVMBuildBr(s->b, body[0]);
    drop_unused(body, s->nf);
    return true;
}

/* The interchanged loops, entered at 'enter' (empty): for each trip of F, for each lane,
 * 'unroll' lanes a step, F's body. 'stride' (NULL: none) holds the stride of each value F
 * takes from H and P that the test found affine in the lane (else NULL): a step's later
 * lanes then take it from its first lane's. Their exit joins the lanes' loop's. */
static bool
build_nest(nest *s, tji_vmap *map, const LLVMValueRef *table, const LLVMValueRef *stride,
           int unroll, LLVMBasicBlockRef enter)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef ity = LLVMTypeOf(s->iv), jty = LLVMTypeOf(s->fiv);
    LLVMBasicBlockRef jh = LLVMInsertBasicBlockInContext(c, s->head, "swap.head");
    LLVMBasicBlockRef lh = LLVMInsertBasicBlockInContext(c, s->head, "swap.lane");
    LLVMBasicBlockRef ll = LLVMInsertBasicBlockInContext(c, s->head, "swap.lane.next");
    LLVMBasicBlockRef jl = LLVMInsertBasicBlockInContext(c, s->head, "swap.next");
    /* each copy's steps, computed once */
    taking tk = {.table = table};
    LLVMPositionBuilderAtEnd(s->b, enter);
    for (int u = 1; u < unroll; u++)
        for (int t = 0; stride && t < s->ntaken; t++)
            if (stride[t])
                tk.step[u][t] = LLVMBuildMul(
                    s->b, stride[t], LLVMConstInt(LLVMTypeOf(stride[t]), (unsigned long long)u, 0),
                    "swap.step");
    LLVMBuildBr(s->b, jh);
    /* for each trip of F ... */
    LLVMValueRef jv = phi_from(s, jh, jty, s->fstart, enter, "swap.trip");
    LLVMBuildBr(s->b, lh);
    /* ... for each lane */
    LLVMValueRef lane = phi_from(s, lh, ity, LLVMConstInt(ity, 0, 0), jh, "swap.l");
    LLVMValueRef first[MAX_TAKEN];
    LLVMBasicBlockRef at = lh;
    for (int u = 0; u < unroll; u++) {
        LLVMBasicBlockRef next =
            u + 1 < unroll ? LLVMInsertBasicBlockInContext(c, s->head, "swap.lane.more") : ll;
        if (!copy_body(s, map, &tk, first, at, next, lane, u, jv))
            return false;
        at = next;
    }
    LLVMPositionBuilderAtEnd(s->b, ll);
    LLVMValueRef lane2, lanes_done =
        counter_done(s, lane, (unsigned long long)unroll, s->width, &lane2);
    LLVMBuildCondBr(s->b, lanes_done, jl, lh);
    LLVMAddIncoming(lane, &lane2, &ll, 1);
    /* F's next trip and exit test, on the trip counter */
    tji_vmap_free(map);
    if (!tji_vmap_init(map, count_instructions(s)))
        return false;
    tji_vmap_put(map, s->fiv, jv);
    LLVMPositionBuilderAtEnd(s->b, jl);
    LLVMValueRef jn = recompute(s, map, s->fnext), more = recompute(s, map, s->fexit);
    LLVMBuildCondBr(s->b, more, s->fexit_continues ? jh : s->exit,
                    s->fexit_continues ? s->exit : jh);
    LLVMAddIncoming(jv, &jn, &jl, 1);
    tji_phis_take_edge(s->exit, s->latch, jl);
    return true;
}

/* Builds the test and the interchanged loops in front of H (the file's comment). */
static bool
interchange(nest *s)
{
    tj_context *ctx = s->ctx;
    LLVMContextRef c = ctx->llctx;
    LLVMTypeRef ity = LLVMTypeOf(s->iv), i1 = LLVMInt1TypeInContext(c);
    LLVMValueRef fn = LLVMGetBasicBlockParent(s->head);
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    LLVMTypeRef pty = LLVMIntPtrTypeInContext(c, dl);
    int unroll = s->width % LANE_UNROLL == 0 ? LANE_UNROLL : 1;
    tji_vmap map = {0};
    if (!tji_vmap_init(&map, count_instructions(s)))
        return false;
    LLVMBasicBlockRef first = LLVMInsertBasicBlockInContext(c, s->head, "swap.stride");
    LLVMBasicBlockRef chk = LLVMInsertBasicBlockInContext(c, s->head, "swap.test");
    LLVMBasicBlockRef chk_done = LLVMInsertBasicBlockInContext(c, s->head, "swap.tested");
    /* the entry goes to the test; H's counter starts from its end */
    LLVMValueRef t = LLVMGetBasicBlockTerminator(s->pre);
    for (unsigned k = 0, n = LLVMGetNumSuccessors(t); k < n; k++)
        if (LLVMGetSuccessor(t, k) == s->head)
            LLVMSetSuccessor(t, k, first);
    LLVMPositionBuilderBefore(s->b, s->iv);
    LLVMValueRef iv = LLVMBuildPhi(s->b, ity, "");
    for (unsigned i = 0; i < 2; i++) {
        LLVMValueRef v = LLVMGetIncomingValue(s->iv, i);
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(s->iv, i);
        LLVMAddIncoming(iv, &v, from == s->pre ? &chk_done : &from, 1);
    }
    LLVMReplaceAllUsesWith(s->iv, iv);
    LLVMInstructionEraseFromParent(s->iv);
    s->iv = iv;
    /* Lanes 0's and 1's values, and their difference: the stride each lane's must follow
     * for the strided loops (below). */
    LLVMValueRef base[MAX_TAKEN] = {NULL}, stride[MAX_TAKEN] = {NULL};
    int nstrided = 0;
    for (int k = 0; unroll > 1 && k < s->ntaken; k++) {
        LLVMTypeRef ty = LLVMTypeOf(s->taken[k]);
        if (!strided_type(ty))
            continue;
        LLVMTypeRef sty = LLVMGetTypeKind(ty) == LLVMPointerTypeKind ? pty : ty;
        LLVMValueRef v[2];
        for (unsigned l = 0; l < 2; l++) {
            tji_vmap_free(&map);
            if (!tji_vmap_init(&map, count_instructions(s)))
                return false;
            tji_vmap_put(&map, s->iv, LLVMConstInt(ity, l, 0));
            LLVMPositionBuilderAtEnd(s->b, first);
            v[l] = as_int(s, recompute(s, &map, s->taken[k]), sty);
        }
        base[k] = v[0];
        /* a constant stride where the slope gives one: the new loops' later lanes then
         * read at constant offsets (the histogram: one add less an element) */
        unsigned long long slope;
        stride[k] = lane_slope(s, dl, s->taken[k], &slope, 0)
                        ? LLVMConstInt(sty, slope, 0)
                        : LLVMBuildSub(s->b, v[1], v[0], "swap.stride");
        nstrided++;
    }
    LLVMPositionBuilderAtEnd(s->b, first);
    LLVMBuildBr(s->b, chk);
    /* every lane takes P? and are the values strided? */
    LLVMValueRef l = phi_from(s, chk, ity, LLVMConstInt(ity, 0, 0), first, "");
    LLVMValueRef all = phi_from(s, chk, i1, LLVMConstInt(i1, 1, 0), first, "swap.all");
    LLVMValueRef aff = phi_from(s, chk, i1, LLVMConstInt(i1, 1, 0), first, "swap.strided");
    LLVMPositionBuilderAtEnd(s->b, chk);
    tji_vmap_free(&map);
    if (!tji_vmap_init(&map, count_instructions(s)))
        return false;
    tji_vmap_put(&map, s->iv, l);
    LLVMValueRef cond = recompute(s, &map, s->cond);
    if (!s->cond_true)
        cond = LLVMBuildNot(s->b, cond, "");
    LLVMValueRef all2 = LLVMBuildAnd(s->b, all, cond, "");
    /* What F takes from H and P (a lane's address), each lane's computed here once and
     * kept in a table that the new loops read: four instructions less for every lane at
     * every trip in the bench's histogram (11% of its time). A wide block with many values
     * computes them again instead. */
    LLVMValueRef table[MAX_TAKEN];
    unsigned long long bytes = 0;
    for (int k = 0; k < s->ntaken; k++)
        bytes += LLVMABISizeOfType(dl, LLVMTypeOf(s->taken[k])) * s->width;
    bool tables = bytes <= MAX_TABLE_BYTES;
    LLVMValueRef aff2 = aff;
    for (int k = 0; k < s->ntaken; k++) {
        LLVMValueRef v = recompute(s, &map, s->taken[k]);
        if (stride[k]) {
            LLVMTypeRef sty = LLVMTypeOf(stride[k]);
            LLVMValueRef want = LLVMBuildAdd(
                s->b, base[k], LLVMBuildMul(s->b, LLVMBuildIntCast2(s->b, l, sty, false, ""),
                                            stride[k], ""), "");
            aff2 = LLVMBuildAnd(s->b, aff2,
                                LLVMBuildICmp(s->b, LLVMIntEQ, as_int(s, v, sty), want, ""), "");
        }
        if (!tables)
            continue;
        LLVMTypeRef ty = LLVMArrayType2(LLVMTypeOf(s->taken[k]), s->width);
        LLVMValueRef at = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
        LLVMPositionBuilderBefore(s->b, at);
        table[k] = LLVMBuildAlloca(s->b, ty, "swap.table");
        LLVMSetAlignment(table[k], 64);
        LLVMPositionBuilderAtEnd(s->b, chk);
        LLVMValueRef idx[] = {LLVMConstInt(ity, 0, 0), l};
        LLVMBuildStore(s->b, v, LLVMBuildInBoundsGEP2(s->b, ty, table[k], idx, 2, ""));
    }
    LLVMPositionBuilderAtEnd(s->b, chk);
    LLVMValueRef l2, last = counter_done(s, l, 1, s->width, &l2);
    LLVMBuildCondBr(s->b, last, chk_done, chk);
    LLVMAddIncoming(l, &l2, &chk, 1);
    LLVMAddIncoming(all, &all2, &chk, 1);
    LLVMAddIncoming(aff, &aff2, &chk, 1);
    /* Two forms of the new loops where some values may be strided: a step's later lanes take
     * those from its first lane's (the bench's histogram: a lane's address; 0.73 of C on 4
     * MiB with four loads from the tables, 0.85 so), or each lane's from the tables. */
    LLVMBasicBlockRef enter = LLVMInsertBasicBlockInContext(c, s->head, "swap.enter");
    LLVMPositionBuilderAtEnd(s->b, chk_done);
    if (nstrided == 0) {
        LLVMBuildCondBr(s->b, all2, enter, s->head);
    } else {
        LLVMBasicBlockRef pick = LLVMInsertBasicBlockInContext(c, s->head, "swap.pick");
        LLVMBasicBlockRef enter2 = LLVMInsertBasicBlockInContext(c, s->head, "swap.enter");
        LLVMBuildCondBr(s->b, all2, pick, s->head);
        LLVMPositionBuilderAtEnd(s->b, pick);
        LLVMBuildCondBr(s->b, aff2, enter2, enter);
        if (!build_nest(s, &map, tables ? table : NULL, stride, unroll, enter2))
            return false;
    }
    bool ok = build_nest(s, &map, tables ? table : NULL, NULL, unroll, enter);
    tji_vmap_free(&map);
    return ok;
}

int
tji_interchange_lanes(tj_context *ctx, LLVMModuleRef m)
{
    int done = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMBasicBlockRef latches[64];
        int n = tji_lane_loop_latches(ctx, fn, latches, 64);
        for (int i = 0; i < n; i++) {
            nest s = {.ctx = ctx, .b = b, .latch = latches[i]};
            if (find_lanes(&s, LLVMGetBasicBlockTerminator(latches[i])) && takes(&s) &&
                interchange(&s))
                done++;
        }
    }
    LLVMDisposeBuilder(b);
    return done;
}
