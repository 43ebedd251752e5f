/*
 * jit/divergence.c: which values of a cooperative CPU block function are alike in every
 * lane, or a value alike in every lane plus the lane (for jit/lane_loops.c).
 *
 * lane_loops.c carries a value that a barrier separates from its uses through an array of
 * one element a lane, and its copies for lanes that agree ("facts") test, on entering each
 * phase, whether every element is lane 0's (a loop counter) or lane 0's plus the lane (an
 * index such as base + j + lane): 16 vector loads, compares and ORs an array at 256 lanes,
 * 8-14% of the bench's cooperative compaction. Where this analysis shows that the value is
 * so by construction, the test is left out.
 *
 * It is a divergence analysis in the manner of GPU compilers', on the block function before
 * its lanes become loops (one lane's code, whose lane number is parameter 3). A value is
 *  - UNIFORM: made from constants, the parameters other than the lane, loads of the
 *    argument buffer (parameter 1, which the kernel does not write) through GEPs of uniform
 *    indices, loads that a builtin marked as reading what every lane reads (tji_mark_alike:
 *    one word of shared memory that no lane writes in that phase), and uniform values by
 *    instructions without memory or calls, and phis of uniform values where no lanes'
 *    paths part and meet again (below);
 *  - LANE_PLUS: u + lane in its own type (u uniform): the lane, an add of a uniform value to
 *    one, one minus a uniform value, its truncation, and the lane extended (it is below
 *    2^31; tid()'s lane is a select of it on a tiled test);
 *  - VARIES: anything else.
 * A conditional branch or switch on a value that is not uniform parts the lanes; the blocks
 * it reaches before its immediate post-dominator (where its paths meet) are run by some
 * lanes and not others, or a different number of times (a loop with such an exit), so their
 * values VARY to the code after them, and the phis of the meeting block do too. Blocks with
 * no post-dominator (an endless loop) count as reached to the end. The shapes start UNIFORM
 * and only move towards VARIES, until nothing changes.
 *
 * The tests that a launch is tiled (TJI_TILED_FLAG) and that a lane is inside the launch
 * (TJI_LIVE_FLAG, under tiled launches) are taken as true, as lane_loops.c's copies take
 * them, and a select on a tiled test is its first value: the shapes hold in those copies,
 * the only place that asks. lane_loops.c also asks which blocks every lane runs alike
 * (tji_lane_runs_alike): a copy whose barriers and returns all are stops every lane at one
 * point, and a pop there hands its slots to the lanes in turn.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef enum {
    UNIFORM = TJI_SHAPE_UNIFORM,
    LANE_PLUS = TJI_SHAPE_LANE_PLUS,
    VARIES = TJI_SHAPE_VARIES
} shape;

struct tji_lane_shapes {
    LLVMValueRef lane;                /* the lane parameter */
    LLVMValueRef args;                /* the argument buffer parameter */
    const LLVMValueRef *flags;        /* true in the copies */
    int nflags;
    int n;                            /* blocks */
    LLVMBasicBlockRef *blocks;
    tji_vmap index;                   /* block (as value) -> its index (i32 constant) */
    int *succ_start, *succ;           /* CSR */
    int *pred_start, *pred;
    int *ipdom;                       /* -1: none; n: the exit */
    unsigned char *parted;            /* reached from a parting branch before its meeting */
    unsigned char *meets;             /* where a parting branch's paths meet */
    tji_vmap shapes;                  /* instruction -> i8 constant: its shape */
    LLVMValueRef shape_const[3];
    size_t ninst;
};

static int
block_of(const tji_lane_shapes *s, LLVMBasicBlockRef bb)
{
    LLVMValueRef v = LLVMBasicBlockAsValue(bb);
    return tji_vmap_has(&s->index, v) ? (int)LLVMConstIntGetZExtValue(tji_vmap_get(&s->index, v))
                                      : -1;
}

static bool
is_flag(const tji_lane_shapes *s, LLVMValueRef v)
{
    for (int i = 0; i < s->nflags; i++)
        if (s->flags[i] == v)
            return true;
    return false;
}

/* The blocks, their successors and predecessors. */
static bool
index_cfg(tji_lane_shapes *s, LLVMValueRef fn)
{
    s->n = (int)LLVMCountBasicBlocks(fn);
    s->blocks = malloc(((size_t)s->n + 1) * sizeof *s->blocks);
    if (!s->blocks || !tji_vmap_init(&s->index, (size_t)s->n))
        return false;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    int i = 0;
    size_t nedges = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        s->blocks[i] = bb;
        tji_vmap_put(&s->index, LLVMBasicBlockAsValue(bb), LLVMConstInt(i32, (unsigned)i++, 0));
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        nedges += t ? LLVMGetNumSuccessors(t) : 0;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            s->ninst++;
    }
    s->succ_start = calloc((size_t)s->n + 1, sizeof *s->succ_start);
    s->pred_start = calloc((size_t)s->n + 2, sizeof *s->pred_start);
    s->succ = malloc((nedges + 1) * sizeof *s->succ);
    s->pred = malloc((nedges + 1) * sizeof *s->pred);
    if (!s->succ_start || !s->pred_start || !s->succ || !s->pred)
        return false;
    int e = 0;
    for (int b = 0; b < s->n; b++) {
        s->succ_start[b] = e;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(s->blocks[b]);
        for (unsigned k = 0, m = t ? LLVMGetNumSuccessors(t) : 0; k < m; k++) {
            int to = block_of(s, LLVMGetSuccessor(t, k));
            if (to < 0)
                return false;
            s->succ[e++] = to;
            s->pred_start[to + 2]++;
        }
    }
    s->succ_start[s->n] = e;
    for (int b = 0; b < s->n; b++)
        s->pred_start[b + 2] += s->pred_start[b + 1];
    for (int b = 0; b < s->n; b++)
        for (int k = s->succ_start[b]; k < s->succ_start[b + 1]; k++)
            s->pred[s->pred_start[s->succ[k] + 1]++] = b;
    return true;
}

/* Immediate post-dominators (Cooper, Harvey and Kennedy's iteration on the reversed graph,
 * from a virtual exit 'n' that follows every block without successors). */
static bool
post_dominators(tji_lane_shapes *s)
{
    int n = s->n;
    int *order = malloc(((size_t)n + 1) * sizeof *order); /* reverse postorder: [0] exit */
    int *num = malloc(((size_t)n + 1) * sizeof *num);     /* a node's postorder number */
    int *stack = malloc(((size_t)n + 1) * 2 * sizeof *stack);
    s->ipdom = malloc(((size_t)n + 1) * sizeof *s->ipdom);
    if (!order || !num || !stack || !s->ipdom) {
        free(order);
        free(num);
        free(stack);
        return false;
    }
    for (int b = 0; b <= n; b++)
        num[b] = -1, s->ipdom[b] = -1;
    /* depth first on the reversed graph: a node's next are its predecessors (the exit's:
     * the blocks without successors); a stack entry is a node and its next edge */
    int sp = 0, count = 0;
    stack[0] = n, stack[1] = 0;
    num[n] = -2; /* on the stack */
    while (sp >= 0) {
        int x = stack[2 * sp], *k = &stack[2 * sp + 1], next = -1;
        if (x == n) {
            while (*k < n && next < 0) {
                int b = (*k)++;
                if (s->succ_start[b] == s->succ_start[b + 1] && num[b] == -1)
                    next = b;
            }
        } else {
            while (s->pred_start[x] + *k < s->pred_start[x + 1] && next < 0) {
                int p = s->pred[s->pred_start[x] + (*k)++];
                if (num[p] == -1)
                    next = p;
            }
        }
        if (next >= 0) {
            num[next] = -2;
            sp++;
            stack[2 * sp] = next, stack[2 * sp + 1] = 0;
        } else {
            num[x] = count++;
            sp--;
        }
    }
    for (int b = 0; b <= n; b++)
        if (num[b] >= 0)
            order[count - 1 - num[b]] = b;
    s->ipdom[n] = n;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 1; i < count; i++) {
            int b = order[i], best = -1;
            int lo = s->succ_start[b], hi = s->succ_start[b + 1];
            for (int k = lo; k <= hi; k++) {
                int p = k < hi ? s->succ[k] : (lo == hi ? n : -1);
                if (p < 0 || s->ipdom[p] < 0 || num[p] < 0)
                    continue;
                if (best < 0) {
                    best = p;
                    continue;
                }
                int a = p, c = best;
                while (a != c) {
                    while (num[a] < num[c])
                        a = s->ipdom[a];
                    while (num[c] < num[a])
                        c = s->ipdom[c];
                }
                best = a;
            }
            if (best >= 0 && s->ipdom[b] != best) {
                s->ipdom[b] = best;
                changed = true;
            }
        }
    }
    free(order);
    free(num);
    free(stack);
    return true;
}

/* Marks the blocks that branch 'b' parts (reached before its post-dominator) and where its
 * paths meet; 'seen' and 'work' are scratch of n entries. */
static void
mark_parted(tji_lane_shapes *s, int b, unsigned char *seen, int *work)
{
    int stop = s->ipdom[b], nw = 0;
    memset(seen, 0, (size_t)s->n);
    for (int k = s->succ_start[b]; k < s->succ_start[b + 1]; k++)
        if (s->succ[k] != stop && !seen[s->succ[k]])
            seen[s->succ[k]] = 1, work[nw++] = s->succ[k];
    while (nw > 0) {
        int x = work[--nw];
        s->parted[x] = 1;
        for (int k = s->succ_start[x]; k < s->succ_start[x + 1]; k++)
            if (s->succ[k] != stop && !seen[s->succ[k]])
                seen[s->succ[k]] = 1, work[nw++] = s->succ[k];
    }
    if (stop >= 0 && stop < s->n)
        s->meets[stop] = 1;
}

static shape
shape_of(const tji_lane_shapes *s, LLVMValueRef v)
{
    if (v == s->lane)
        return LANE_PLUS;
    if (!LLVMIsAInstruction(v))
        return LLVMIsAArgument(v) || LLVMIsAConstant(v) ? UNIFORM : VARIES;
    if (is_flag(s, v))
        return UNIFORM; /* true in the copies */
    int b = block_of(s, LLVMGetInstructionParent(v));
    if (b < 0 || s->parted[b] || !tji_vmap_has(&s->shapes, v))
        return VARIES;
    return (shape)LLVMConstIntGetZExtValue(tji_vmap_get(&s->shapes, v));
}

/* Whether 'v' is the lane (below 2^31: its extensions are lane plus 0), or a select of it on
 * a flag. */
static bool
is_lane(const tji_lane_shapes *s, LLVMValueRef v)
{
    return v == s->lane || (LLVMIsASelectInst(v) && is_flag(s, LLVMGetOperand(v, 0)) &&
                            is_lane(s, LLVMGetOperand(v, 1)));
}

/* Whether 'p' is the argument buffer through GEPs of uniform indices. */
static bool
reads_arguments(const tji_lane_shapes *s, LLVMValueRef p, int depth)
{
    if (p == s->args)
        return true;
    if (depth > 8 || !LLVMIsAGetElementPtrInst(p))
        return false;
    for (int i = 1, n = LLVMGetNumOperands(p); i < n; i++)
        if (shape_of(s, LLVMGetOperand(p, (unsigned)i)) != UNIFORM)
            return false;
    return reads_arguments(s, LLVMGetOperand(p, 0), depth + 1);
}

static shape
all_uniform(const tji_lane_shapes *s, LLVMValueRef in)
{
    for (int i = 0, n = LLVMGetNumOperands(in); i < n; i++)
        if (shape_of(s, LLVMGetOperand(in, (unsigned)i)) != UNIFORM)
            return VARIES;
    return UNIFORM;
}

static const char alike_md[] = "tj.alike";

void
tji_mark_alike(tj_context *ctx, LLVMValueRef v)
{
    if (!LLVMIsALoadInst(v))
        return;
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(ctx->llctx, alike_md, sizeof alike_md - 1),
                    LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, NULL, 0)));
}

bool
tji_marked_alike(LLVMValueRef v)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(v));
    return LLVMIsALoadInst(v) &&
           LLVMGetMetadata(v, LLVMGetMDKindIDInContext(c, alike_md, sizeof alike_md - 1));
}

/* The shape the rules give 'in' from its operands' shapes now. */
static shape
rule(const tji_lane_shapes *s, LLVMValueRef in, int block)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    switch (op) {
    case LLVMPHI:
        if (s->meets[block])
            return VARIES;
        for (unsigned i = 0, n = LLVMCountIncoming(in); i < n; i++)
            if (shape_of(s, LLVMGetIncomingValue(in, i)) != UNIFORM)
                return VARIES;
        return UNIFORM;
    case LLVMSelect:
        if (is_flag(s, LLVMGetOperand(in, 0)))
            return shape_of(s, LLVMGetOperand(in, 1));
        return all_uniform(s, in);
    case LLVMAdd:
    case LLVMSub: {
        shape a = shape_of(s, LLVMGetOperand(in, 0)), b = shape_of(s, LLVMGetOperand(in, 1));
        if (a == VARIES || b == VARIES || (a == LANE_PLUS && b == LANE_PLUS) ||
            (op == LLVMSub && b == LANE_PLUS))
            return VARIES;
        return a == LANE_PLUS || b == LANE_PLUS ? LANE_PLUS : UNIFORM;
    }
    case LLVMTrunc:
        return shape_of(s, LLVMGetOperand(in, 0));
    case LLVMZExt:
    case LLVMSExt:
        return is_lane(s, LLVMGetOperand(in, 0)) ? LANE_PLUS : all_uniform(s, in);
    case LLVMLoad:
        if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
            return VARIES;
        if (tji_marked_alike(in))
            return UNIFORM; /* shared memory that every lane reads at one address */
        return reads_arguments(s, LLVMGetOperand(in, 0), 0) ? UNIFORM : VARIES;
    case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    case LLVMICmp: case LLVMFCmp: case LLVMGetElementPtr: case LLVMBitCast:
    case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc:
    case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMExtractElement:
    case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue:
    case LLVMInsertValue: case LLVMFreeze:
        return all_uniform(s, in);
    default:
        return VARIES; /* calls, allocas, atomics, stores */
    }
}

/* One pass: the parted blocks from the branches on values not uniform, then every
 * instruction's shape; whether a shape changed. */
static bool
settle(tji_lane_shapes *s, unsigned char *seen, int *work)
{
    memset(s->parted, 0, (size_t)s->n);
    memset(s->meets, 0, (size_t)s->n);
    for (int b = 0; b < s->n; b++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(s->blocks[b]);
        LLVMValueRef cond = !t                                           ? NULL
                            : LLVMIsABranchInst(t) && LLVMIsConditional(t) ? LLVMGetCondition(t)
                            : LLVMIsASwitchInst(t)                       ? LLVMGetOperand(t, 0)
                                                                         : NULL;
        bool parts = cond ? shape_of(s, cond) != UNIFORM
                          : t && !LLVMIsABranchInst(t) && !LLVMIsAReturnInst(t) &&
                                LLVMGetNumSuccessors(t) > 1;
        if (parts)
            mark_parted(s, b, seen, work);
    }
    bool changed = false;
    for (int b = 0; b < s->n; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[b]); in;
             in = LLVMGetNextInstruction(in)) {
            if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVoidTypeKind)
                continue;
            shape was = (shape)LLVMConstIntGetZExtValue(tji_vmap_get(&s->shapes, in));
            shape now = rule(s, in, b);
            if (now > was) {
                tji_vmap_put(&s->shapes, in, s->shape_const[now]);
                changed = true;
            }
        }
    return changed;
}

tji_lane_shapes *
tji_lane_shapes_of(LLVMValueRef fn, LLVMValueRef lane, LLVMValueRef args,
                   const LLVMValueRef *flags, int nflags)
{
    tji_lane_shapes *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    *s = (tji_lane_shapes){.lane = lane, .args = args, .flags = flags, .nflags = nflags};
    LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
    for (int k = 0; k < 3; k++)
        s->shape_const[k] = LLVMConstInt(i8, (unsigned)k, 0);
    unsigned char *seen = NULL;
    int *work = NULL;
    bool ok = index_cfg(s, fn) && post_dominators(s);
    size_t nb = (size_t)s->n + 1;
    ok = ok && (s->parted = calloc(nb, 1)) && (s->meets = calloc(nb, 1)) &&
         (seen = calloc(nb, 1)) && (work = malloc(nb * sizeof *work)) &&
         tji_vmap_init(&s->shapes, s->ninst);
    if (ok) {
        for (int b = 0; b < s->n; b++)
            for (LLVMValueRef in = LLVMGetFirstInstruction(s->blocks[b]); in;
                 in = LLVMGetNextInstruction(in))
                if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
                    tji_vmap_put(&s->shapes, in, s->shape_const[UNIFORM]);
        while (settle(s, seen, work))
            ;
    }
    free(seen);
    free(work);
    if (!ok) {
        tji_lane_shapes_free(s);
        return NULL;
    }
    return s;
}

int
tji_lane_shape(const tji_lane_shapes *s, LLVMValueRef v)
{
    return s ? (int)shape_of(s, v) : VARIES;
}

bool
tji_lane_runs_alike(const tji_lane_shapes *s, LLVMValueRef v)
{
    if (!s || !LLVMIsAInstruction(v))
        return false;
    int b = block_of(s, LLVMGetInstructionParent(v));
    return b >= 0 && !s->parted[b];
}

void
tji_lane_shapes_free(tji_lane_shapes *s)
{
    if (!s)
        return;
    free(s->blocks);
    tji_vmap_free(&s->index); /* zeroed where never made: free(NULL) */
    tji_vmap_free(&s->shapes);
    free(s->succ_start);
    free(s->succ);
    free(s->pred_start);
    free(s->pred);
    free(s->ipdom);
    free(s->parted);
    free(s->meets);
    free(s);
}
