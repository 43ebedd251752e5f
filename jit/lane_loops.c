/*
 * jit/lane_loops.c: cooperative CPU blocks as loops over their lanes (SPEC 1, CPU modes).
 *
 * A cooperative block's lanes run in ascending order between barriers. Fibers do that with
 * a context switch per lane and barrier; this pass does it in the code, as the work-item
 * loops of OpenCL's CPU compilers do. The block function runs in phases: a phase is a loop
 * over the lanes, and each lane runs from where it stopped (the start, or just after a
 * barrier) to its next barrier, where it records which one, or to its return, after which
 * it is finished and skipped. Phases repeat while a lane has not returned. That is the
 * fibers' schedule exactly: a barrier waits for every lane that has not returned, whichever
 * barrier each is at (a barrier that tilejit flushes inside an `if` on the lane, which some
 * lanes pass by, behaves as with fibers).
 *
 * That general loop switches on each lane's resume point. Most phases find every lane at
 * the same point, so each point also gets a loop of its own: a copy of the code from there
 * to the next barriers and returns, with nothing at its head but the lane counter, which
 * LLVM's loop vectoriser can take. A phase goes there when every lane's resume point is
 * lane 0's and, in a kernel that calls tid(), the launch is tiled: the copies take tid()'s
 * test of that as true, so that tid() is (block, lane), affine in the lane
 * (TILEJIT_CPU_LANES=switch leaves these copies out). It enters a copy through a block that
 * computes what the copy can know before the lanes run: values every lane carried across
 * the barrier alike, which the copy uses instead of reloading them, and the tiles' tests of
 * lying wholly inside their arrays, on which it picks between two copies (uniform_loop).
 * A copy whose lanes can stop at one point only (its region reaches one barrier, or only
 * returns) goes from its last lane straight to the next phase's decision: no scan of the
 * resume points (region_stop). A barrier right after another is dropped first
 * (drop_repeated_barriers). Per-lane arrays whose elements are alike in every lane, or lane
 * 0's plus or minus the lane, which the entry tests, give a third copy that uses lane 0's
 * element (and the lane) instead of the loads (facts); that copy also takes as true a for
 * loop's tests to go on (TJI_MORE_FLAG) when its entry finds them true from lane 0's
 * values, so that the loop's way out is only in the copies taken on the last trip. A copy
 * that may stop at several points keeps the least and the greatest as its lanes stop, and
 * decides without the scan (decide_as_lanes_stop). Under 32 lanes, a copy's loop over the
 * lanes around a loop that lanes run a different number of times (a lane's elements of a
 * tile) is kept rolled (holds_lane_loop): unrolled, it cost narrow blocks seconds to build.
 *
 * A value used on the far side of a barrier from where it was made (a path from its
 * definition to a use passes a barrier block) goes through an array with one element per
 * lane; so does a local (alloca) whose contents a barrier separates. Everything else stays
 * in SSA form: its uses are still dominated by its definition once the lanes loop.
 *
 * It applies when every barrier of the kernel is in its block function (not in a function it
 * calls), and while the per-lane arrays fit in LANE_STORAGE_MAX; else the kernel keeps the
 * fibers. The block function then runs once per block on one thread, like a width-1 entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    /* Bytes of per-lane arrays a block function may keep on its stack (worker threads
     * and the caller have megabytes; fibers had 256 KiB each). */
    LANE_STORAGE_MAX = 256 * 1024,
    /* a carried value's shape beside divergence.c's: a pop's slot that every lane takes in
     * turn (tji_mark_descending) */
    POP_SLOT = TJI_SHAPE_VARIES + 1,
};

typedef struct lanes {
    tj_context *ctx;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMValueRef marker;
    uint32_t width;
    LLVMBasicBlockRef setup;        /* allocas and per-lane arrays; then the phases */
    LLVMValueRef *calls;            /* the barrier calls */
    LLVMBasicBlockRef *barrier;     /* [t]: the block that holds calls[t] alone */
    int nbar;
    /* the blocks of the lane code, and their predecessors (CSR) */
    LLVMBasicBlockRef *blocks;
    int nblocks;
    tji_vmap index;                 /* block (as value) -> its index, an i32 constant */
    int *pred_start, *preds;
    unsigned char *is_barrier, *seen, *has_use;
    int *stack;
    LLVMValueRef lane;              /* the lane counter (a phi of the lane loop) */
    /* With barriers: where each resume point starts ([0]: the start, [t + 1]: after barrier
     * t); where a phase starts, the general loop's latch, the return. */
    LLVMBasicBlockRef *resume_at;
    LLVMBasicBlockRef phase, latch, end;
    LLVMValueRef pick;              /* switch on the lanes' common resume point */
    LLVMBasicBlockRef decide;       /* whether all lanes stopped at one point (the phis) */
    LLVMValueRef at, same;          /* phis of 'decide': lane 0's resume point, whether all
                                     * lanes' is that one (from the scan or a uniform loop) */
    LLVMValueRef resume;            /* resume[lane], of type resty */
    LLVMTypeRef resty;
    /* tj_tid's tests whether the launch is tiled, in the setup block: true in the uniform
     * loops, which only tiled launches take (there tid() is affine in the lane) */
    LLVMValueRef tiled[8];
    int ntiled;
    LLVMValueRef live;         /* the entry's test that the lane is inside the launch */
    tji_vmap reloads;          /* each load of a value carried across a barrier -> the value */
    size_t nreloads, reload_cap;
    /* per-lane arrays of carried values alike in every lane (step 0) or lane 0's plus the
     * lane (step 1) by construction (divergence.c), whose facts need no test, and of pops'
     * slots that every lane takes in turn (step -1), whose facts hold when lane 0's slot is
     * at least width - 1 */
    LLVMValueRef *shaped_arr;
    int *shaped_step;
    int nshaped;
    /* whether every lane runs every barrier's block alike, and every return's (divergence.c):
     * a uniform loop whose exits are all such stops all its lanes at one point */
    bool alike_barriers, alike_return;
    /* per block of the lane code: whether every lane runs it alike (none where the analysis
     * could not run) */
    unsigned char *alike_block;
} lanes;

/* tji_split_before, the new block ending in a branch to the rest. */
static LLVMBasicBlockRef
split_before(lanes *L, LLVMValueRef at)
{
    LLVMBasicBlockRef tail = LLVMGetInstructionParent(at);
    LLVMBasicBlockRef head = tji_split_before(L->b, at);
    LLVMBuildBr(L->b, tail);
    return head;
}

static int
block_index(const lanes *L, LLVMBasicBlockRef bb)
{
    LLVMValueRef v = LLVMBasicBlockAsValue(bb);
    if (!tji_vmap_has(&L->index, v))
        return -1;
    return (int)LLVMConstIntGetZExtValue(tji_vmap_get(&L->index, v));
}

/* The block where a use of a value by 'user' (operand 'op') happens: a phi's incoming block. */
static LLVMBasicBlockRef
use_block(LLVMValueRef user, unsigned op)
{
    return LLVMIsAPHINode(user) ? LLVMGetIncomingBlock(user, op) : LLVMGetInstructionParent(user);
}

/* Positions the builder where a use by 'user' (operand 'op') can read a new value. */
static void
position_for_use(lanes *L, LLVMValueRef user, unsigned op)
{
    if (LLVMIsAPHINode(user))
        LLVMPositionBuilderBefore(L->b,
                                  LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, op)));
    else
        LLVMPositionBuilderBefore(L->b, user);
}

/* Lists the function's blocks, indexes them and their predecessors. */
static bool
index_blocks(lanes *L)
{
    int n = (int)LLVMCountBasicBlocks(L->fn);
    LLVMBasicBlockRef *all = malloc(((size_t)n + 1) * sizeof *all);
    L->blocks = all;
    L->pred_start = calloc((size_t)n + 2, sizeof *L->pred_start);
    L->is_barrier = calloc((size_t)n + 1, 1);
    L->seen = calloc((size_t)n + 1, 1);
    L->has_use = calloc((size_t)n + 1, 1);
    L->stack = malloc(((size_t)n * 2 + 1) * sizeof *L->stack);
    if (!all || !L->pred_start || !L->is_barrier || !L->seen || !L->has_use || !L->stack ||
        !tji_vmap_init(&L->index, (size_t)n))
        return false;
    LLVMGetBasicBlocks(L->fn, all);
    L->nblocks = n;
    LLVMTypeRef i32 = tji_i32(L->ctx);
    for (int i = 0; i < n; i++)
        tji_vmap_put(&L->index, LLVMBasicBlockAsValue(all[i]), LLVMConstInt(i32, (unsigned)i, 0));
    for (int t = 0; t < L->nbar; t++)
        L->is_barrier[block_index(L, L->barrier[t])] = 1;
    /* Count, then fill, each block's predecessors. */
    int total = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (int i = 0, sum = 0; i <= n; i++) {
                int c = L->pred_start[i];
                L->pred_start[i] = sum;
                sum += c;
            }
            L->preds = malloc(((size_t)total + 1) * sizeof *L->preds);
            if (!L->preds)
                return false;
        }
        int *fill = pass == 1 ? calloc((size_t)n + 1, sizeof *fill) : NULL;
        if (pass == 1 && !fill)
            return false;
        for (int i = 0; i < n; i++) {
            LLVMValueRef term = LLVMGetBasicBlockTerminator(all[i]);
            for (unsigned s = 0, ns = LLVMGetNumSuccessors(term); s < ns; s++) {
                int j = block_index(L, LLVMGetSuccessor(term, s));
                if (pass == 0) {
                    L->pred_start[j]++;
                    total++;
                } else {
                    L->preds[L->pred_start[j] + fill[j]++] = i;
                }
            }
        }
        free(fill);
    }
    return true;
}

/* Pushes the predecessors of block i not seen yet; 'flag' (0 or 1) picks the seen bit. */
static int
push_preds(lanes *L, int i, int flag, int n)
{
    for (int p = L->pred_start[i]; p < L->pred_start[i + 1]; p++) {
        int j = L->preds[p];
        if (!(L->seen[j] & (1 << flag))) {
            L->seen[j] |= (unsigned char)(1 << flag);
            L->stack[n++] = j * 2 + flag;
        }
    }
    return n;
}

/* Whether some path from the definition of 'v' (in block 'def') to one of its uses passes a
 * barrier: walking back from each use, before reaching 'def'. */
static bool
value_crosses(lanes *L, LLVMValueRef v, int def)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            continue;
        for (unsigned op = 0, nops = (unsigned)LLVMGetNumOperands(user); op < nops; op++) {
            if (LLVMGetOperand(user, op) != v)
                continue;
            int ub = block_index(L, use_block(user, op));
            if (ub < 0 || ub == def)
                continue; /* after the definition in its own block */
            memset(L->seen, 0, (size_t)L->nblocks);
            int n = 0;
            if (LLVMIsAPHINode(user)) {
                L->seen[ub] = 1; /* the use is at the end of the incoming block */
                L->stack[n++] = ub * 2;
            } else {
                n = push_preds(L, ub, 0, n);
            }
            while (n > 0) {
                int x = L->stack[--n] / 2;
                if (L->is_barrier[x])
                    return true;
                if (x != def)
                    n = push_preds(L, x, 0, n);
            }
        }
    }
    return false;
}

/* Whether a barrier separates two uses of local 'a' (or one use from itself, in a loop):
 * walking back from each use, past a barrier, to a block that uses it. */
static bool
alloca_crosses(lanes *L, LLVMValueRef a)
{
    memset(L->has_use, 0, (size_t)L->nblocks);
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        for (unsigned op = 0, nops = (unsigned)LLVMGetNumOperands(user); op < nops; op++) {
            int ub = LLVMGetOperand(user, op) == a ? block_index(L, use_block(user, op)) : -1;
            if (ub >= 0)
                L->has_use[ub] = 1;
        }
    }
    for (int start = 0; start < L->nblocks; start++) {
        if (!L->has_use[start])
            continue;
        memset(L->seen, 0, (size_t)L->nblocks);
        int n = push_preds(L, start, 0, 0);
        while (n > 0) {
            int x = L->stack[--n] / 2, passed = L->stack[n] % 2;
            if (L->is_barrier[x])
                passed = 1;
            if (passed && L->has_use[x])
                return true;
            n = push_preds(L, x, passed, n);
        }
    }
    return false;
}

/* Whether 'v' is there before any lane runs, the same for every lane: a constant, a
 * parameter other than the lane, or an instruction of the setup block other than a local
 * (a lane's own memory, which may become one per lane). */
static bool
available(const lanes *L, LLVMValueRef v)
{
    if (LLVMIsAArgument(v))
        return v != LLVMGetParam(L->fn, 3);
    if (LLVMIsAInstruction(v))
        return LLVMGetInstructionParent(v) == L->setup && !LLVMIsAAllocaInst(v);
    return LLVMIsConstant(v);
}

/* Whether pointer 'p' points into the worker or the argument buffer (parameters 0 and 1,
 * through GEPs), which nothing writes while a block runs and which can always be read, or
 * is a constant global (a kernel's layout, such as where its scratch starts). */
static bool
invariant_memory(const lanes *L, LLVMValueRef p)
{
    while (LLVMIsAGetElementPtrInst(p))
        p = LLVMGetOperand(p, 0);
    if (LLVMIsAGlobalVariable(p))
        return LLVMIsGlobalConstant(p) && LLVMGetInitializer(p) && !LLVMIsExternallyInitialized(p);
    return p == LLVMGetParam(L->fn, 0) || p == LLVMGetParam(L->fn, 1);
}

/* Whether instruction 'in' is arithmetic that cannot trap nor touch memory: a division only
 * by a constant other than 0 (and -1, signed); calls, stores and phis stay. */
static bool
hoistable_op(LLVMValueRef in)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    switch (op) {
    case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
    case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMICmp:
    case LLVMSelect: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt:
    case LLVMIntToPtr: case LLVMBitCast:
        return true;
    case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem: {
        LLVMValueRef d = LLVMGetOperand(in, 1);
        if (!LLVMIsAConstantInt(d) || LLVMConstIntGetZExtValue(d) == 0)
            return false;
        return op == LLVMUDiv || op == LLVMURem || LLVMConstIntGetSExtValue(d) != -1;
    }
    default:
        return false;
    }
}

static bool
hoistable(const lanes *L, LLVMValueRef in)
{
    if (LLVMGetInstructionOpcode(in) == LLVMLoad) {
        if (LLVMGetVolatile(in) || !invariant_memory(L, LLVMGetOperand(in, 0)))
            return false;
    } else if (!hoistable_op(in)) {
        return false;
    }
    for (int i = 0, n = LLVMGetNumOperands(in); i < n; i++)
        if (!available(L, LLVMGetOperand(in, (unsigned)i)))
            return false;
    return true;
}

/* Values the same for every lane (the launch's arguments, the block's shared memory, and
 * arithmetic on them) move into the setup block: computed once a block instead of once a
 * lane, and never carried across a barrier. They cannot trap or write anything. */
static void
hoist_uniform(lanes *L)
{
    LLVMValueRef at = LLVMGetBasicBlockTerminator(L->setup);
    for (bool moved = true; moved;) {
        moved = false;
        for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(L->setup); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
                next = LLVMGetNextInstruction(in);
                if (!hoistable(L, in))
                    continue;
                LLVMPositionBuilderBefore(L->b, at);
                tji_reinsert(L->b, in);
                moved = true;
            }
    }
}

/* Whether 'in' is an i1 whose name starts with 'prefix' (LLVM appends a number to repeats). */
static bool
named(const lanes *L, LLVMValueRef in, const char *prefix)
{
    size_t len, want = strlen(prefix);
    const char *name = LLVMGetValueName2(in, &len);
    return len >= want && strncmp(name, prefix, want) == 0 &&
           LLVMTypeOf(in) == LLVMInt1TypeInContext(L->ctx->llctx);
}

/* tj_tid's tiled-launch tests that are in the setup block (hoist_uniform moved them), and
 * the entry's test that a lane is inside the launch. */
static void
find_flags(lanes *L)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(L->setup); in && L->ntiled < 8;
         in = LLVMGetNextInstruction(in))
        if (named(L, in, TJI_TILED_FLAG))
            L->tiled[L->ntiled++] = in;
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(L->setup); bb && !L->live;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && !L->live;
             in = LLVMGetNextInstruction(in))
            if (LLVMGetInstructionOpcode(in) == LLVMICmp && named(L, in, TJI_LIVE_FLAG))
                L->live = in;
}

static size_t
lanes_bytes(const lanes *L, LLVMTypeRef ty)
{
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(LLVMGetGlobalParent(L->fn));
    return (size_t)LLVMABISizeOfType(dl, ty) * L->width;
}

static LLVMValueRef
lane_array(lanes *L, LLVMTypeRef ty, LLVMTypeRef *arrty, const char *name)
{
    *arrty = LLVMArrayType2(ty, L->width);
    LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(L->setup));
    LLVMValueRef arr = LLVMBuildAlloca(L->b, *arrty, name);
    /* At least the elements' own alignment, which the loads and stores of them assume
     * (a <4 x double> is stored with vmovapd); at least 16 for the vectoriser. */
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(LLVMGetGlobalParent(L->fn));
    unsigned align = LLVMPreferredAlignmentOfType(dl, ty);
    LLVMSetAlignment(arr, align > 16 ? align : 16);
    return arr;
}

static LLVMValueRef
lane_slot(lanes *L, LLVMTypeRef arrty, LLVMValueRef arr)
{
    LLVMValueRef idx[] = {tji_const_i32(L->ctx, 0), L->lane};
    return LLVMBuildInBoundsGEP2(L->b, arrty, arr, idx, 2, "");
}

static const char turn_md[] = "tj.turn";

static unsigned
turn_kind(LLVMContextRef c)
{
    return LLVMGetMDKindIDInContext(c, turn_md, sizeof turn_md - 1);
}

void
tji_mark_turn_fold(tj_context *ctx, LLVMValueRef partial, LLVMOpcode op)
{
    LLVMMetadataRef n = LLVMValueAsMetadata(
        LLVMConstInt(LLVMInt32TypeInContext(ctx->llctx), (unsigned long long)op, 0));
    LLVMValueRef node = LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, &n, 1));
    for (LLVMUseRef u = LLVMGetFirstUse(partial); u; u = LLVMGetNextUse(u))
        LLVMSetMetadata(LLVMGetUser(u), turn_kind(ctx->llctx), node);
}

LLVMOpcode
tji_turn_fold_op(LLVMValueRef array)
{
    if (!LLVMIsAAllocaInst(array))
        return 0;
    LLVMValueRef node = LLVMGetMetadata(array, turn_kind(LLVMGetTypeContext(LLVMTypeOf(array))));
    if (!node || LLVMGetMDNodeNumOperands(node) != 1)
        return 0;
    LLVMValueRef op;
    LLVMGetMDNodeOperands(node, &op);
    return op && LLVMIsAConstantInt(op) ? (LLVMOpcode)LLVMConstIntGetZExtValue(op) : 0;
}

/* Whether every user of 'v' is a turn fold's (tji_mark_turn_fold): then the lanes' array
 * that carries it takes the mark, for row_order.c. */
static LLVMValueRef
turn_mark_of_users(LLVMValueRef v)
{
    unsigned kind = turn_kind(LLVMGetTypeContext(LLVMTypeOf(v)));
    LLVMValueRef mark = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef m = LLVMGetMetadata(LLVMGetUser(u), kind);
        if (!m || (mark && m != mark))
            return NULL;
        mark = m;
    }
    return mark;
}

/* 'v' is stored per lane where it is made and loaded per lane where it is used. */
static void
carry_value(lanes *L, LLVMValueRef v, int shape)
{
    LLVMTypeRef ty = LLVMTypeOf(v), arrty;
    /* An i1 goes through bytes: a vector of i1 in memory is bits, so the vectoriser would
     * store a lane loop's flags one by one, each under its own branch. */
    LLVMTypeRef i1 = LLVMInt1TypeInContext(L->ctx->llctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx->llctx);
    bool bit = ty == i1;
    LLVMValueRef arr = lane_array(L, bit ? i8 : ty, &arrty, "lanes.value");
    LLVMValueRef turn = turn_mark_of_users(v);
    if (turn)
        LLVMSetMetadata(arr, turn_kind(L->ctx->llctx), turn);
    if (shape != TJI_SHAPE_VARIES && L->shaped_arr) {
        L->shaped_arr[L->nshaped] = arr;
        L->shaped_step[L->nshaped++] = shape == POP_SLOT        ? -1
                                       : shape == TJI_SHAPE_LANE_PLUS ? 1
                                                                      : 0;
    }
    /* The users first: the loads and the store below are uses too. */
    size_t n = 0, cap = 8;
    LLVMValueRef *users = malloc(cap * sizeof *users);
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && users; u = LLVMGetNextUse(u)) {
        if (n == cap) {
            LLVMValueRef *grown = realloc(users, 2 * cap * sizeof *users);
            if (!grown)
                break;
            users = grown;
            cap *= 2;
        }
        users[n++] = LLVMGetUser(u);
    }
    LLVMValueRef after = LLVMGetNextInstruction(v);
    while (LLVMIsAPHINode(after))
        after = LLVMGetNextInstruction(after);
    LLVMPositionBuilderBefore(L->b, after);
    LLVMBuildStore(L->b, bit ? LLVMBuildZExt(L->b, v, i8, "") : v, lane_slot(L, arrty, arr));
    int def = block_index(L, LLVMGetInstructionParent(v));
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef user = users[i];
        if (i > 0 && users[i - 1] == user)
            continue; /* one user, two uses: its operands are all done below */
        for (unsigned op = 0, nops = (unsigned)LLVMGetNumOperands(user); op < nops; op++) {
            if (LLVMGetOperand(user, op) != v || block_index(L, use_block(user, op)) == def)
                continue;
            position_for_use(L, user, op);
            LLVMValueRef load = LLVMBuildLoad2(L->b, bit ? i8 : ty, lane_slot(L, arrty, arr), "");
            if (bit)
                load = LLVMBuildTrunc(L->b, load, i1, "");
            LLVMSetOperand(user, op, load);
            if (L->nreloads < L->reload_cap) {
                tji_vmap_put(&L->reloads, load, v);
                L->nreloads++;
            }
        }
    }
    free(users);
}

/* Local 'a' becomes one per lane: each use takes its lane's. */
static void
split_alloca(lanes *L, LLVMValueRef a)
{
    LLVMTypeRef arrty;
    LLVMValueRef arr = lane_array(L, LLVMGetAllocatedType(a), &arrty, "lanes.local");
    if (LLVMGetAlignment(a) > LLVMGetAlignment(arr))
        LLVMSetAlignment(arr, LLVMGetAlignment(a));
    for (LLVMUseRef u; (u = LLVMGetFirstUse(a));) {
        LLVMValueRef user = LLVMGetUser(u);
        for (unsigned op = 0, nops = (unsigned)LLVMGetNumOperands(user); op < nops; op++) {
            if (LLVMGetOperand(user, op) != a)
                continue;
            position_for_use(L, user, op);
            LLVMSetOperand(user, op, lane_slot(L, arrty, arr));
        }
    }
    LLVMInstructionEraseFromParent(a);
}

/* The values and locals that cross a barrier (their lists in 'vals' and 'locs'), and the
 * bytes of their per-lane arrays. */
static size_t
find_crossings(lanes *L, LLVMValueRef *vals, int *nvals, LLVMValueRef *locs, int *nlocs)
{
    size_t bytes = 0;
    *nvals = *nlocs = 0;
    for (int i = 0; i < L->nblocks; i++)
        for (LLVMValueRef in = L->blocks[i] == L->setup ? NULL
                                                        : LLVMGetFirstInstruction(L->blocks[i]);
             in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind && value_crosses(L, in, i)) {
                vals[(*nvals)++] = in;
                bytes += lanes_bytes(L, LLVMTypeOf(in));
            }
    for (LLVMValueRef in = LLVMGetFirstInstruction(L->setup); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAAllocaInst(in) && alloca_crosses(L, in)) {
            locs[(*nlocs)++] = in;
            bytes += lanes_bytes(L, LLVMGetAllocatedType(in));
        }
    return bytes;
}

/* Every return of the lane code ends the lane's turn: it stores -1, the lane's resume
 * point once finished (when there are resume points), and goes to 'latch'. */
static void
end_returns(lanes *L, LLVMBasicBlockRef latch, LLVMTypeRef resty, LLVMValueRef resume)
{
    for (int i = 0; i < L->nblocks; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(L->blocks[i]);
        if (LLVMGetInstructionOpcode(term) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(L->b, term);
        if (resume)
            LLVMBuildStore(L->b, tji_const_i32(L->ctx, -1), lane_slot(L, resty, resume));
        LLVMBuildBr(L->b, latch);
        LLVMInstructionEraseFromParent(term);
    }
}

/* latch: the next lane, back to 'head' (the lane counter starts at 0 from 'first'), or after
 * the last lane to 'after'. */
static LLVMValueRef
close_lane_loop(lanes *L, LLVMValueRef lane, LLVMBasicBlockRef first, LLVMBasicBlockRef head,
                LLVMBasicBlockRef latch, LLVMBasicBlockRef after)
{
    LLVMPositionBuilderAtEnd(L->b, latch);
    LLVMValueRef next = LLVMBuildAdd(L->b, lane, tji_const_i32(L->ctx, 1), "");
    LLVMValueRef more = LLVMBuildICmp(L->b, LLVMIntULT, next, tji_const_i32(L->ctx, L->width), "");
    LLVMValueRef br = LLVMBuildCondBr(L->b, more, head, after);
    LLVMValueRef in_vals[] = {tji_const_i32(L->ctx, 0), next};
    LLVMBasicBlockRef in_bbs[] = {first, latch};
    LLVMAddIncoming(lane, in_vals, in_bbs, 2);
    return br;
}

/* Without barriers: one pass over the lanes, each from the start to its return. */
static void
build_one_pass(lanes *L, LLVMBasicBlockRef start)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.head");
    LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.latch");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.end");
    LLVMSetSuccessor(LLVMGetBasicBlockTerminator(L->setup), 0, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    L->lane = LLVMBuildPhi(L->b, tji_i32(L->ctx), "lane");
    LLVMBuildBr(L->b, start);
    end_returns(L, latch, NULL, NULL);
    close_lane_loop(L, L->lane, L->setup, head, latch, end);
    LLVMPositionBuilderAtEnd(L->b, end);
    LLVMBuildRetVoid(L->b);
}

/* A phase starts here: whether every lane stopped at the same point (lane 0's) and the
 * launch is tiled. Then to that point's own loop ('pick', whose cases uniform_loop adds), to
 * the end when every lane has returned, or else to the general loop, in which each lane
 * resumes where it stopped. A uniform loop whose lanes can stop at one point only goes
 * straight to 'decide', without the scan (region_loop). */
static void
build_dispatch(lanes *L, LLVMBasicBlockRef general)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMTypeRef i32 = tji_i32(L->ctx), i1 = LLVMInt1TypeInContext(c);
    LLVMValueRef zero = tji_const_i32(L->ctx, 0), yes = LLVMConstInt(i1, 1, 0);
    LLVMBasicBlockRef scan = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.scan");
    LLVMBasicBlockRef decide = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.decide");
    LLVMBasicBlockRef pick = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.pick");
    LLVMPositionBuilderAtEnd(L->b, L->phase);
    LLVMValueRef idx0[] = {zero, zero};
    LLVMValueRef r0 = LLVMBuildLoad2(
        L->b, i32, LLVMBuildInBoundsGEP2(L->b, L->resty, L->resume, idx0, 2, ""), "resume0");
    LLVMBuildBr(L->b, scan);
    LLVMPositionBuilderAtEnd(L->b, scan);
    LLVMValueRef same = yes;
    if (L->width > 1) {
        LLVMValueRef i = LLVMBuildPhi(L->b, i32, "");
        LLVMValueRef acc = LLVMBuildPhi(L->b, i1, "");
        LLVMValueRef idx[] = {zero, i};
        LLVMValueRef v = LLVMBuildLoad2(
            L->b, i32, LLVMBuildInBoundsGEP2(L->b, L->resty, L->resume, idx, 2, ""), "");
        same = LLVMBuildAnd(L->b, acc, LLVMBuildICmp(L->b, LLVMIntEQ, v, r0, ""), "same");
        LLVMValueRef next = LLVMBuildAdd(L->b, i, tji_const_i32(L->ctx, 1), "");
        LLVMValueRef more =
            LLVMBuildICmp(L->b, LLVMIntULT, next, tji_const_i32(L->ctx, L->width), "");
        /* rolled: unrolled, its vector form's 32 steps cost more to build than to run */
        tji_keep_rolled(L->ctx, LLVMBuildCondBr(L->b, more, scan, decide));
        LLVMValueRef iv[] = {tji_const_i32(L->ctx, 1), next}, av[] = {yes, same};
        LLVMBasicBlockRef from[] = {L->phase, scan};
        LLVMAddIncoming(i, iv, from, 2);
        LLVMAddIncoming(acc, av, from, 2);
    } else {
        LLVMBuildBr(L->b, decide);
    }
    LLVMPositionBuilderAtEnd(L->b, decide);
    L->decide = decide;
    L->at = LLVMBuildPhi(L->b, i32, "lanes.at");
    L->same = LLVMBuildPhi(L->b, i1, "lanes.same");
    LLVMAddIncoming(L->at, &r0, &scan, 1);
    LLVMAddIncoming(L->same, &same, &scan, 1);
    r0 = L->at;
    LLVMBuildCondBr(L->b, L->same, pick, general);
    LLVMPositionBuilderAtEnd(L->b, pick);
    LLVMValueRef done = tji_const_i32(L->ctx, -1);
    if (L->ntiled > 0) {
        LLVMBasicBlockRef tiled = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.pick.tiled");
        LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.pick.loop");
        LLVMAddCase(LLVMBuildSwitch(L->b, r0, tiled, 1), done, L->end);
        LLVMPositionBuilderAtEnd(L->b, tiled);
        LLVMValueRef all = L->tiled[0];
        for (int i = 1; i < L->ntiled; i++)
            all = LLVMBuildAnd(L->b, all, L->tiled[i], "");
        LLVMBuildCondBr(L->b, all, go, general);
        LLVMPositionBuilderAtEnd(L->b, go);
        L->pick = LLVMBuildSwitch(L->b, r0, general, (unsigned)L->nbar + 1);
    } else {
        L->pick = LLVMBuildSwitch(L->b, r0, general, (unsigned)L->nbar + 2);
        LLVMAddCase(L->pick, done, L->end);
    }
}

/* The phases: setup -> phase (build_dispatch) -> a uniform loop (uniform_loop), or the
 * general loop: head (the lane counter; a switch on its resume point) -> the lane's code ->
 * latch -> head, and after the last lane back to phase. resume[lane]: 0 the start, t + 1
 * after barrier t, -1 returned. */
static void
build_phases(lanes *L, LLVMBasicBlockRef start)
{
    if (L->nbar == 0 && L->ctx->cpu_lanes_switch) {
        build_one_pass(L, start);
        return;
    }
    LLVMContextRef c = L->ctx->llctx;
    LLVMTypeRef i32 = tji_i32(L->ctx);
    L->resume = lane_array(L, i32, &L->resty, "lanes.resume");
    L->phase = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.phase");
    LLVMBasicBlockRef general = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.general");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.head");
    L->latch = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.latch");
    L->end = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.end");
    build_dispatch(L, general);
    /* Every lane starts at point 0: the first phase decides without reading resume[]. */
    LLVMValueRef setup_term = LLVMGetBasicBlockTerminator(L->setup);
    LLVMSetSuccessor(setup_term, 0, L->decide);
    LLVMValueRef zero = tji_const_i32(L->ctx, 0);
    LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
    LLVMAddIncoming(L->at, &zero, &L->setup, 1);
    LLVMAddIncoming(L->same, &yes, &L->setup, 1);
    LLVMPositionBuilderAtEnd(L->b, general);
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    L->lane = LLVMBuildPhi(L->b, i32, "lane");
    /* resume[] holds every lane's point only after a phase that scans it: where the phase
     * decided that all lanes are at one point ('same'), that point is 'at', and the slots
     * may be stale (a uniform loop that decides directly stores none; region_loop). */
    LLVMBasicBlockRef read = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.read");
    LLVMBasicBlockRef resumed = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.resume");
    LLVMBuildCondBr(L->b, L->same, resumed, read);
    LLVMPositionBuilderAtEnd(L->b, read);
    LLVMValueRef stored = LLVMBuildLoad2(L->b, i32, lane_slot(L, L->resty, L->resume), "");
    LLVMBuildBr(L->b, resumed);
    LLVMPositionBuilderAtEnd(L->b, resumed);
    LLVMValueRef at = LLVMBuildPhi(L->b, i32, "resume");
    LLVMValueRef at_vals[] = {L->at, stored};
    LLVMBasicBlockRef at_bbs[] = {head, read};
    LLVMAddIncoming(at, at_vals, at_bbs, 2);
    LLVMValueRef sw = LLVMBuildSwitch(L->b, at, L->latch, (unsigned)L->nbar + 1);
    L->resume_at[0] = start;
    for (int t = 0; t < L->nbar; t++)
        L->resume_at[t + 1] = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(L->barrier[t]), 0);
    for (int t = 0; t <= L->nbar; t++)
        LLVMAddCase(sw, tji_const_i32(L->ctx, t), L->resume_at[t]);
    /* A barrier: the lane stops there. */
    for (int t = 0; t < L->nbar; t++) {
        LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(L->barrier[t]));
        LLVMInstructionEraseFromParent(L->calls[t]);
        LLVMPositionBuilderAtEnd(L->b, L->barrier[t]);
        LLVMBuildStore(L->b, tji_const_i32(L->ctx, t + 1), lane_slot(L, L->resty, L->resume));
        LLVMBuildBr(L->b, L->latch);
    }
    /* A return: the lane is finished. */
    end_returns(L, L->latch, L->resty, L->resume);
    close_lane_loop(L, L->lane, general, head, L->latch, L->phase);
    LLVMPositionBuilderAtEnd(L->b, L->end);
    LLVMBuildRetVoid(L->b);
}

/* The blocks a lane runs from resume point 't' to its next barrier or return (into 'out',
 * which has room for twice the lane code's blocks; 'in' marks them); their count. */
static int
region_blocks(lanes *L, int t, LLVMBasicBlockRef *out, tji_vmap *in)
{
    int n = 0, top = 0;
    LLVMBasicBlockRef *stack = out + L->nblocks;
    stack[top++] = L->resume_at[t];
    tji_vmap_put(in, LLVMBasicBlockAsValue(L->resume_at[t]),
                 LLVMBasicBlockAsValue(L->resume_at[t]));
    while (top > 0) {
        LLVMBasicBlockRef bb = stack[--top];
        out[n++] = bb;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (unsigned s = 0, ns = LLVMGetNumSuccessors(term); s < ns; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            LLVMValueRef sv = LLVMBasicBlockAsValue(succ);
            if (succ == L->latch || tji_vmap_has(in, sv))
                continue;
            tji_vmap_put(in, sv, sv);
            stack[top++] = succ;
        }
    }
    return n;
}

/* Loads of per-lane integer arrays that a uniform copy takes from lane 0's element, where a
 * test at its entry finds every lane's element alike (uniform: a loop counter every lane
 * carries) or lane 0's plus the lane (affine: an index such as base + lane). A copy that
 * knows them has uniform branches and consecutive addresses, which LLVM's vectoriser takes;
 * as values every lane carries, they were loads it could only gather (half of the bench's
 * cooperative compaction went to such a phase, each lane advancing its own copy of the
 * loop counter). */
enum { FACTS_MAX = 16 };
/* A pop's slots that every lane takes in turn, in any copy: lane 0's less the lane, or -1
 * where that is negative (the lanes that found the stack empty). The copy the facts' test
 * enters knows lane 0's to be at least width - 1 and takes lane 0's less the lane (step -1);
 * on AVX-512 the other copies (sure_facts) take this, so that a drain's last pop, which
 * leaves some lanes without a value, stores with a mask instead of scattering. With AVX2
 * they keep their loads: there the masked store would be a vmaskmovps, microcoded on AMD
 * (fold_nonnegative_tests), where the last pop's lanes now store one at a time. */
enum { STEP_DOWN_TO_NONE = -2 };

typedef struct facts {
    int n, narr;
    LLVMValueRef load[FACTS_MAX];   /* in the region */
    int arr_of[FACTS_MAX];          /* its array, an index into arr */
    LLVMValueRef arr[FACTS_MAX];
    int step[FACTS_MAX];            /* per array: the guess the entry tests, lane 0's element
                                     * plus step * the lane (0: alike), or STEP_DOWN_TO_NONE */
    LLVMValueRef a0[FACTS_MAX];     /* per array: lane 0's element, loaded at the entry */
    bool shaped[FACTS_MAX];         /* per array: the guess holds by construction, so its
                                     * test is none (step >= 0) or lane 0's slot at least
                                     * width - 1 (a pop's, step -1) */
} facts;

/* 'v' computed at the builder's position, before the lanes of a tiled phase (where tj_tid's
 * tests of a tiled launch are true, and a select on one is its first value), or NULL when
 * it needs something a lane computes or reads: constants, uniform values and the
 * arithmetic that hoistable() allows on them, each copied once ('memo'). With facts 'f'
 * (known to hold, the builder after their test), also a load they name alike in every
 * lane (lane 0's element), and a phi of 'region' (a set of blocks) with one incoming
 * value from there, the one a copy of the region keeps. */
static LLVMValueRef
before_lanes(lanes *L, LLVMValueRef v, tji_vmap *memo, const facts *f, const tji_vmap *region,
             int depth)
{
    for (int i = 0; i < L->ntiled; i++)
        if (v == L->tiled[i])
            return LLVMConstInt(LLVMInt1TypeInContext(L->ctx->llctx), 1, 0);
    if (available(L, v))
        return v;
    if (!LLVMIsAInstruction(v) || depth > 64)
        return NULL;
    if (tji_vmap_has(memo, v))
        return tji_vmap_get(memo, v);
    for (int i = 0; f && i < f->n; i++)
        if (f->load[i] == v && f->step[f->arr_of[i]] == 0)
            return f->a0[f->arr_of[i]];
    if (tji_vmap_has(&L->reloads, v)) /* every lane stored the same value */
        return before_lanes(L, tji_vmap_get(&L->reloads, v), memo, f, region, depth + 1);
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMPHI && f) {
        LLVMValueRef only = NULL;
        for (unsigned i = 0, n = LLVMCountIncoming(v); i < n; i++) {
            if (!tji_vmap_has(region, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(v, i))))
                continue;
            if (only && only != LLVMGetIncomingValue(v, i))
                return NULL;
            only = LLVMGetIncomingValue(v, i);
        }
        return only ? before_lanes(L, only, memo, f, region, depth + 1) : NULL;
    }
    if (op == LLVMSelect) {
        LLVMValueRef c = before_lanes(L, LLVMGetOperand(v, 0), memo, f, region, depth + 1);
        if (c && LLVMIsAConstantInt(c))
            return before_lanes(L, LLVMGetOperand(v, LLVMConstIntGetZExtValue(c) ? 1 : 2), memo,
                                f, region, depth + 1);
    }
    if (op == LLVMLoad || !hoistable_op(v))
        return NULL;
    int n = LLVMGetNumOperands(v);
    LLVMValueRef ops[8];
    if (n > 8)
        return NULL;
    for (int i = 0; i < n; i++)
        if (!(ops[i] = before_lanes(L, LLVMGetOperand(v, (unsigned)i), memo, f, region, depth + 1)))
            return NULL;
    LLVMValueRef c = LLVMInstructionClone(v);
    LLVMInsertIntoBuilder(L->b, c);
    for (int i = 0; i < n; i++)
        LLVMSetOperand(c, (unsigned)i, ops[i]);
    tji_vmap_put(memo, v, c);
    return c;
}

/* The store of a constant resume point right before 'term', a branch to the latch and
 * nowhere else (a barrier's block stores t + 1, a return -1), or NULL. */
static LLVMValueRef
exit_store(LLVMValueRef term)
{
    LLVMValueRef st = LLVMGetNumSuccessors(term) == 1 ? LLVMGetPreviousInstruction(term) : NULL;
    return st && LLVMIsAStoreInst(st) && LLVMIsAConstantInt(LLVMGetOperand(st, 0)) ? st : NULL;
}

/* Where every lane of a uniform loop stops: the resume point that the exits reachable from
 * 'first' store before branching to 'latch' (a barrier's block stores t + 1, a return -1),
 * when they all store the same one; else INT32_MIN (a loop that may stop at one barrier or
 * another, a return on some paths). A branch on a constant (the flags the copy takes as
 * true) goes one way only. 'n': at least the blocks reachable. */
static int32_t
region_stop(LLVMBasicBlockRef first, LLVMBasicBlockRef latch, int n)
{
    int32_t stop = INT32_MIN;
    bool one = true;
    tji_vmap seen = {0};
    LLVMBasicBlockRef *stack = malloc(((size_t)n + 1) * sizeof *stack);
    if (!stack || !tji_vmap_init(&seen, (size_t)n + 1)) {
        free(stack);
        return INT32_MIN;
    }
    int top = 0;
    stack[top++] = first;
    tji_vmap_put(&seen, LLVMBasicBlockAsValue(first), LLVMBasicBlockAsValue(first));
    while (top > 0 && one) {
        LLVMBasicBlockRef bb = stack[--top];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = LLVMGetNumSuccessors(term), s0 = 0;
        if (LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
            LLVMIsAConstantInt(LLVMGetCondition(term))) {
            s0 = LLVMConstIntGetZExtValue(LLVMGetCondition(term)) ? 0 : 1;
            ns = s0 + 1;
        }
        for (unsigned k = s0; k < ns && one; k++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, k);
            if (to == latch) {
                LLVMValueRef st = exit_store(term);
                one = st != NULL;
                int32_t r = one ? (int32_t)LLVMConstIntGetSExtValue(LLVMGetOperand(st, 0)) : 0;
                one = one && (stop == INT32_MIN || r == stop);
                stop = r;
            } else if (!tji_vmap_has(&seen, LLVMBasicBlockAsValue(to))) {
                one = top < n; /* more blocks than the region has: give up */
                tji_vmap_put(&seen, LLVMBasicBlockAsValue(to), LLVMBasicBlockAsValue(to));
                if (one)
                    stack[top++] = to;
            }
        }
    }
    tji_vmap_free(&seen);
    free(stack);
    return one ? stop : INT32_MIN;
}

/* Erases the resume points that the exits of a uniform loop store before branching to its
 * 'latch' (exit_store, into resume[]). */
static void
drop_resume_stores(lanes *L, LLVMBasicBlockRef latch)
{
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(latch)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef br = LLVMGetUser(u), st = LLVMIsABranchInst(br) ? exit_store(br) : NULL;
        LLVMValueRef p = st ? LLVMGetOperand(st, 1) : NULL;
        if (p && LLVMIsAGetElementPtrInst(p) && LLVMGetOperand(p, 0) == L->resume)
            LLVMInstructionEraseFromParent(st);
    }
}

/* Whether the region ('n' blocks of 'buf') pushes onto a stack serially and keeps nothing
 * per lane but its resume point: the phase between a push's barriers, whose loop over the
 * lanes compress_push.c can vectorise (its other stores are to shared memory: the stack's
 * counter). */
static bool
pushes_only(const lanes *L, const LLVMBasicBlockRef *buf, int n)
{
    int pushes = 0;
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in;
             in = LLVMGetNextInstruction(in)) {
            if (tji_is_serial_push(in)) {
                pushes++;
                continue;
            }
            LLVMValueRef base = LLVMIsAStoreInst(in) ? tji_pointer_base(LLVMGetOperand(in, 1))
                                                      : NULL;
            if (base && base != L->resume && LLVMIsAAllocaInst(base))
                return false;
        }
    return pushes > 0;
}

/* Whether every way into a uniform loop's 'latch' stores a constant resume point into
 * resume[] just before (exit_store): each lane's point is then known where it reaches the
 * latch. */
static bool
exits_store_points(const lanes *L, LLVMBasicBlockRef latch)
{
    bool any = false;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(latch)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef br = LLVMGetUser(u), st = LLVMIsABranchInst(br) ? exit_store(br) : NULL;
        LLVMValueRef p = st ? LLVMGetOperand(st, 1) : NULL;
        if (!p || !LLVMIsAGetElementPtrInst(p) || LLVMGetOperand(p, 0) != L->resume)
            return false;
        any = true;
    }
    return any;
}

/* A phi at the start of a uniform loop's 'latch' of the point each lane stops at. */
static LLVMValueRef
lane_stop(lanes *L, LLVMBasicBlockRef latch)
{
    LLVMPositionBuilderAtEnd(L->b, latch);
    LLVMValueRef mine = LLVMBuildPhi(L->b, tji_i32(L->ctx), "lanes.stop");
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(latch)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef br = LLVMGetUser(u);
        if (LLVMIsAPHINode(br))
            continue;
        LLVMValueRef point = LLVMGetOperand(exit_store(br), 0);
        LLVMBasicBlockRef pred = LLVMGetInstructionParent(br);
        LLVMAddIncoming(mine, &point, &pred, 1);
    }
    return mine;
}

/* Whether every lane of a uniform loop stops where the last one does: each exit into its
 * 'latch' stores the point of a barrier or a return whose block every lane runs alike
 * (divergence.c). Lanes that start a phase at one point then part only at branches on
 * values not alike, and the blocks up to where such paths meet are not run alike. */
static bool
exits_alike(const lanes *L, LLVMBasicBlockRef latch)
{
    if (!L->alike_barriers)
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(latch)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef br = LLVMGetUser(u), st = LLVMIsABranchInst(br) ? exit_store(br) : NULL;
        int64_t point = st ? LLVMConstIntGetSExtValue(LLVMGetOperand(st, 0)) : 0;
        if (point == -1 ? !L->alike_return
                        : point < 1 || point > L->nbar)
            return false;
    }
    return true;
}

/* For a uniform loop whose lanes may stop at different points (a loop phase whose lanes go
 * round to its barrier or leave the loop): the least and the greatest point the lanes stop
 * at, kept as they run (a min and a max, reductions that LLVM vectorises with the loop), for
 * the next phase's decision instead of the scan of resume[] after the loop, whose vector
 * loads waited for the lanes' stores just before (a store-forwarding stall: 23% of the
 * cooperative compaction once its loop phase was vector code). The lanes still store their
 * points, which the general loop reads where they differ. 'head' is the loop's head, entered
 * from 'from'; returns the values after the last lane in '*at' (the least point) and
 * '*same' (whether the greatest is the same). */
static void
decide_as_lanes_stop(lanes *L, LLVMBasicBlockRef head, LLVMBasicBlockRef from,
                     LLVMBasicBlockRef latch, LLVMValueRef *at, LLVMValueRef *same)
{
    LLVMTypeRef i32 = tji_i32(L->ctx);
    LLVMValueRef mine = lane_stop(L, latch);
    if (exits_alike(L, latch)) {
        /* the last lane's point is every lane's: no min and max, no points stored */
        *at = mine;
        *same = LLVMConstInt(LLVMInt1TypeInContext(L->ctx->llctx), 1, 0);
        drop_resume_stores(L, latch);
        return;
    }
    LLVMPositionBuilderBefore(L->b, LLVMGetBasicBlockTerminator(head));
    LLVMValueRef lo = LLVMBuildPhi(L->b, i32, "lanes.least");
    LLVMValueRef hi = LLVMBuildPhi(L->b, i32, "lanes.most");
    LLVMPositionBuilderAtEnd(L->b, latch);
    LLVMValueRef lo2 = tji_build_intrinsic(LLVMGetGlobalParent(L->fn), L->b,
                                           LLVMLookupIntrinsicID("llvm.smin", 9), &i32, 1,
                                           (LLVMValueRef[]){lo, mine}, 2);
    LLVMValueRef hi2 = tji_build_intrinsic(LLVMGetGlobalParent(L->fn), L->b,
                                           LLVMLookupIntrinsicID("llvm.smax", 9), &i32, 1,
                                           (LLVMValueRef[]){hi, mine}, 2);
    LLVMValueRef lv[] = {tji_const_i32(L->ctx, INT32_MAX), lo2};
    LLVMValueRef hv[] = {tji_const_i32(L->ctx, INT32_MIN), hi2};
    LLVMBasicBlockRef in[] = {from, latch};
    LLVMAddIncoming(lo, lv, in, 2);
    LLVMAddIncoming(hi, hv, in, 2);
    *at = lo2;
    *same = LLVMBuildICmp(L->b, LLVMIntEQ, lo2, hi2, "lanes.alike");
}

/* Whether the region ('n' blocks of 'buf') holds a loop of scatter-adds that control.c
 * keeps rolled: its lanes' loop stays rolled too, for jit/interchange.c, which takes only a
 * lanes' loop around one such loop (LLVM unrolled it by 2 when that loop was small). */
static bool
has_adds_loop(const lanes *L, const LLVMBasicBlockRef *buf, int n)
{
    for (int i = 0; i < n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(buf[i]);
        if (t && tji_loop_flag(L->ctx, t, TJI_ADDS_MD))
            return true;
    }
    return false;
}

/* Whether the region ('n' blocks of 'buf', of the lane code) holds a loop that lanes run a
 * different number of times, such as a loop over a lane's elements of a tile (ceil((n -
 * lane) / B) of them). A lanes' loop around one stays rolled: of a narrow block (B = 2-8),
 * LLVM fully unrolled it, and then, the lane being known in each copy, such loops inside
 * too, into blocks of thousands of instructions whose SLP vectorising took seconds
 * (bench/RESULTS.md, "2026-12-06 (fourth session)"). Only under 32 lanes: LLVM unrolls in
 * full a loop of more than 10 trips only within 300 instructions (O3), which no lanes' loop
 * around another loop fits at 32 lanes; above, the mark changed nothing but LLVM's peeling
 * of some lanes (row_products at 256). A loop whose trip count every lane shares (a row of
 * 3 elements) is LLVM's to unroll first, which leaves the lanes' loop innermost, for the
 * vectoriser. A depth-first search of the region, whose back edges lead to the loops'
 * heads. */
static bool
holds_lane_loop(const lanes *L, const LLVMBasicBlockRef *buf, int n)
{
    /* per block of the lane code: 0 outside the region, 1 in it, 2 on the search's path,
     * 3 searched */
    unsigned char *state = calloc((size_t)L->nblocks + 1, 1);
    int *path = malloc(((size_t)n + 1) * sizeof *path);
    unsigned *next = malloc(((size_t)n + 1) * sizeof *next);
    bool found = false;
    for (int i = 0; state && i < n; i++) {
        int j = block_index(L, buf[i]);
        if (j >= 0)
            state[j] = 1;
    }
    for (int i = 0; state && path && next && i < n && !found; i++) {
        int top = 0;
        path[0] = block_index(L, buf[i]);
        if (path[0] < 0 || state[path[0]] != 1)
            continue;
        state[path[0]] = 2;
        next[0] = 0;
        while (top >= 0 && !found) {
            LLVMValueRef term = LLVMGetBasicBlockTerminator(L->blocks[path[top]]);
            if (next[top] == LLVMGetNumSuccessors(term)) {
                state[path[top--]] = 3;
                continue;
            }
            int h = block_index(L, LLVMGetSuccessor(term, next[top]++));
            if (h >= 0 && state[h] == 2) /* a loop's head */
                found = !L->alike_block || !L->alike_block[h];
            if (h >= 0 && state[h] == 1) {
                state[h] = 2;
                path[++top] = h;
                next[top] = 0;
            }
        }
    }
    free(state);
    free(path);
    free(next);
    return found;
}

/* Whether the region ('n' blocks of 'buf') pops from a stack serially. */
static bool
pops(const LLVMBasicBlockRef *buf, int n)
{
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in;
             in = LLVMGetNextInstruction(in))
            if (tji_is_serial_pop(in))
                return true;
    return false;
}

/* The per-lane array (lane_array's, not the resume points) that 'p' is this lane's slot of,
 * or NULL. */
static LLVMValueRef
slot_array(const lanes *L, LLVMValueRef p)
{
    if (!LLVMIsAGetElementPtrInst(p) || LLVMGetNumOperands(p) != 3 ||
        LLVMGetOperand(p, 2) != L->lane)
        return NULL;
    LLVMValueRef arr = LLVMGetOperand(p, 0), zero = LLVMGetOperand(p, 1);
    if (!LLVMIsAAllocaInst(arr) || arr == L->resume || LLVMGetInstructionParent(arr) != L->setup ||
        !LLVMIsAConstantInt(zero) || LLVMConstIntGetZExtValue(zero) != 0)
        return NULL;
    LLVMTypeRef t = LLVMGetAllocatedType(arr);
    return LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetArrayLength2(t) == L->width ? arr
                                                                                        : NULL;
}

/* Whether 'in' may write into 'arr': a store through it, or a call given a pointer into it
 * (a memory intrinsic). */
static bool
writes(LLVMValueRef in, LLVMValueRef arr)
{
    if (LLVMIsAStoreInst(in))
        return tji_pointer_base(LLVMGetOperand(in, 1)) == arr;
    if (!LLVMIsACallInst(in))
        return false;
    for (int k = 0, n = (int)LLVMGetNumArgOperands(in); k < n; k++) {
        LLVMValueRef a = LLVMGetOperand(in, (unsigned)k);
        if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind && tji_pointer_base(a) == arr)
            return true;
    }
    return false;
}

/* Whether a write into 'arr' may come before 'load' in a lane's run of the region ('n'
 * blocks of 'buf'): earlier in its block, or in a block from which the region reaches it. */
static bool
stored_before(const LLVMBasicBlockRef *buf, int n, LLVMValueRef arr, LLVMValueRef load)
{
    enum { MAXB = 64 };
    /* each block goes on the stack at most twice: as a writer, and once seen */
    LLVMBasicBlockRef lb = LLVMGetInstructionParent(load), todo[2 * MAXB + 1], seen[MAXB];
    int ntodo = 0, nseen = 0;
    if (n > MAXB)
        return true;
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in;
             in = LLVMGetNextInstruction(in)) {
            if (buf[i] == lb && in == load)
                break; /* later writes of its block reach it only round a loop: below */
            if (writes(in, arr)) {
                if (buf[i] == lb)
                    return true;
                todo[ntodo++] = buf[i];
                break;
            }
        }
    /* a write after the load in its block, reaching it round a loop of the region */
    for (LLVMValueRef in = LLVMGetNextInstruction(load); in; in = LLVMGetNextInstruction(in))
        if (writes(in, arr)) {
            todo[ntodo++] = lb;
            break;
        }
    while (ntodo > 0) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(todo[--ntodo]);
        for (unsigned s = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; s < ns; s++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, s);
            bool inside = false, was = false;
            for (int i = 0; i < n; i++)
                inside |= buf[i] == to;
            for (int i = 0; i < nseen; i++)
                was |= seen[i] == to;
            if (!inside || was)
                continue;
            if (to == lb)
                return true;
            seen[nseen++] = to;
            todo[ntodo++] = to;
        }
    }
    return false;
}

/* Whether 'v' goes, by integer arithmetic and casts, into an address or a comparison. */
static bool
steers(LLVMValueRef v, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAGetElementPtrInst(user) ? LLVMGetOperand(user, 0) != v
                                           : LLVMIsAICmpInst(user) != NULL)
            return true;
        if (depth > 0 && (LLVMIsABinaryOperator(user) || LLVMIsACastInst(user) ||
                          LLVMIsASelectInst(user)) &&
            steers(user, depth - 1))
            return true;
    }
    return false;
}

static bool stored_from_lane(const lanes *L, LLVMValueRef arr, int depth);

/* Whether 'v' is computed from the lane counter: by instructions other than phis, calls and
 * loads but those of a per-lane array that such a value was stored into. */
static bool
from_lane(const lanes *L, LLVMValueRef v, int depth)
{
    if (v == L->lane)
        return true;
    if (depth == 0 || !LLVMIsAInstruction(v) || LLVMIsAPHINode(v) || LLVMIsACallInst(v))
        return false;
    if (LLVMIsALoadInst(v)) {
        LLVMValueRef arr = slot_array(L, LLVMGetOperand(v, 0));
        return arr && stored_from_lane(L, arr, depth - 1);
    }
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        if (from_lane(L, LLVMGetOperand(v, (unsigned)i), depth - 1))
            return true;
    return false;
}

/* Whether a value stored into per-lane array 'arr' carries tji_mark_descending's mark: one
 * less from lane to lane (the slots that lanes popping in turn take). */
static const char descending_md[] = "tj.descending";

static bool
marked_descending(LLVMValueRef v)
{
    return LLVMIsAInstruction(v) &&
           LLVMGetMetadata(v, LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(v)),
                                                       descending_md, sizeof descending_md - 1));
}

static bool
stored_descending(LLVMValueRef arr)
{
    for (LLVMUseRef u = LLVMGetFirstUse(arr); u; u = LLVMGetNextUse(u))
        for (LLVMUseRef w = LLVMGetFirstUse(LLVMGetUser(u)); w; w = LLVMGetNextUse(w)) {
            LLVMValueRef st = LLVMGetUser(w);
            LLVMValueRef v = LLVMIsAStoreInst(st) ? LLVMGetOperand(st, 0) : NULL;
            if (v && LLVMGetOperand(st, 1) == LLVMGetUser(u) && marked_descending(v))
                return true;
        }
    return false;
}

void
tji_mark_descending(tj_context *ctx, LLVMValueRef v)
{
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(ctx->llctx, descending_md,
                                                sizeof descending_md - 1),
                    LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, NULL, 0)));
}

/* a0 + step * lane, 'lane' an i32 of a lane number. */
static LLVMValueRef
lane_step(LLVMBuilderRef b, LLVMValueRef a0, int step, LLVMValueRef lane)
{
    if (step == 0)
        return a0;
    LLVMValueRef l = LLVMBuildZExt(b, lane, LLVMTypeOf(a0), "");
    return step > 0 ? LLVMBuildAdd(b, a0, l, "lanes.up") : LLVMBuildSub(b, a0, l, "lanes.down");
}

/* The comparisons of 'v', known to be at least zero, with a constant that this decides,
 * folded: a pop's slot in the copy that took lane 0's as at least width - 1 ('slot >= 0'
 * there held a masked store in the compaction's drain, which LLVM could not drop: on AVX2
 * a microcoded vmaskmovps on AMD, half of the cooperative compaction's time). */
static void
fold_nonnegative_tests(LLVMValueRef v)
{
    LLVMUseRef u = LLVMGetFirstUse(v);
    while (u) {
        LLVMValueRef cmp = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        while (u && LLVMGetUser(u) == cmp)
            u = LLVMGetNextUse(u);
        if (!LLVMIsAICmpInst(cmp))
            continue;
        LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
        LLVMValueRef k = LLVMGetOperand(cmp, 1);
        if (LLVMGetOperand(cmp, 0) != v) { /* constant on the left: 'k p v' is 'v p' k' */
            k = LLVMGetOperand(cmp, 0);
            p = p == LLVMIntSGT ? LLVMIntSLT : p == LLVMIntSGE ? LLVMIntSLE
              : p == LLVMIntSLT ? LLVMIntSGT : p == LLVMIntSLE ? LLVMIntSGE : p;
        }
        if (!LLVMIsAConstantInt(k))
            continue;
        long long c = LLVMConstIntGetSExtValue(k);
        int known = p == LLVMIntSGT && c < 0 ? 1 : p == LLVMIntSGE && c <= 0 ? 1
                  : p == LLVMIntSLT && c <= 0 ? 0 : p == LLVMIntSLE && c < 0 ? 0
                  : p == LLVMIntEQ && c < 0 ? 0 : p == LLVMIntNE && c < 0 ? 1 : -1;
        if (known < 0)
            continue;
        LLVMReplaceAllUsesWith(cmp, LLVMConstInt(LLVMTypeOf(cmp), (unsigned long long)known, 0));
        LLVMInstructionEraseFromParent(cmp);
    }
}

/* Whether a value stored into per-lane array 'arr' comes from the lane counter. */
static bool
stored_from_lane(const lanes *L, LLVMValueRef arr, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(arr); u; u = LLVMGetNextUse(u))
        for (LLVMUseRef w = LLVMGetFirstUse(LLVMGetUser(u)); w; w = LLVMGetNextUse(w)) {
            LLVMValueRef st = LLVMGetUser(w);
            if (LLVMIsAStoreInst(st) && LLVMGetOperand(st, 1) == LLVMGetUser(u) &&
                from_lane(L, LLVMGetOperand(st, 0), depth))
                return true;
        }
    return false;
}

/* The region's loads that 'f' can name (see facts): of i32 or i64 per-lane arrays, not
 * after a store into the array and not among the 'nfix' loads 'fix' the copies replace
 * already, of arrays that at least one such load reads to steer an address or a
 * comparison. Each array's guess: affine where a value stored into it comes from the lane
 * counter, else uniform. */
static void
find_facts(const lanes *L, const LLVMBasicBlockRef *buf, int n, const LLVMValueRef *fix,
           int nfix, facts *f)
{
    bool steering[FACTS_MAX] = {false};
    f->n = f->narr = 0;
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in && f->n < FACTS_MAX;
             in = LLVMGetNextInstruction(in)) {
            LLVMValueRef arr = LLVMIsALoadInst(in) ? slot_array(L, LLVMGetOperand(in, 0)) : NULL;
            LLVMTypeRef t = LLVMTypeOf(in);
            if (!arr || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
                (LLVMGetIntTypeWidth(t) != 32 && LLVMGetIntTypeWidth(t) != 64) ||
                LLVMGetVolatile(in) || stored_before(buf, n, arr, in))
                continue;
            bool fixed = false;
            for (int k = 0; k < nfix && !fixed; k++)
                fixed = fix[k] == in;
            if (fixed)
                continue;
            int a = 0;
            while (a < f->narr && f->arr[a] != arr)
                a++;
            if (a == f->narr) {
                int k = 0;
                while (k < L->nshaped && L->shaped_arr[k] != arr)
                    k++;
                f->arr[f->narr] = arr;
                f->shaped[f->narr] = k < L->nshaped;
                f->step[f->narr++] = k < L->nshaped              ? L->shaped_step[k]
                                     : stored_from_lane(L, arr, 12) ? 1
                                     : stored_descending(arr)      ? -1
                                                                   : 0;
            }
            steering[a] |= steers(in, 6);
            f->arr_of[f->n] = a;
            f->load[f->n++] = in;
        }
    /* only the steering arrays, renumbered */
    int map[FACTS_MAX], narr = 0, nload = 0;
    for (int a = 0; a < f->narr; a++) {
        map[a] = steering[a] ? narr : -1;
        if (steering[a]) {
            f->arr[narr] = f->arr[a];
            f->shaped[narr] = f->shaped[a];
            f->step[narr++] = f->step[a];
        }
    }
    for (int i = 0; i < f->n; i++)
        if (map[f->arr_of[i]] >= 0) {
            f->load[nload] = f->load[i];
            f->arr_of[nload++] = map[f->arr_of[i]];
        }
    f->n = nload;
    f->narr = narr;
}

/* At the end of 'enter': each array's lane 0 element (into 'f'), and a loop over the other
 * lanes that tests the guesses that do not hold by construction; returns the block after it
 * (the builder at its end) and in '*ok' whether every guess holds. */
static LLVMBasicBlockRef
test_facts(lanes *L, LLVMBasicBlockRef enter, facts *f, LLVMValueRef *ok)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMTypeRef i32 = tji_i32(L->ctx);
    LLVMValueRef zero = tji_const_i32(L->ctx, 0), acc[FACTS_MAX], next[FACTS_MAX];
    LLVMPositionBuilderAtEnd(L->b, enter);
    int ntested = 0;
    for (int a = 0; a < f->narr; a++) {
        LLVMTypeRef at = LLVMGetAllocatedType(f->arr[a]);
        LLVMValueRef idx[] = {zero, zero};
        f->a0[a] = LLVMBuildLoad2(L->b, LLVMGetElementType(at),
                                  LLVMBuildInBoundsGEP2(L->b, at, f->arr[a], idx, 2, ""), "lane0");
        ntested += !f->shaped[a];
    }
    /* Slots descending from lane 0's, by construction (shaped) or as tested below, are all
     * at least zero only where lane 0's is at least width - 1, which region_loop's copy
     * takes for granted (fold_nonnegative_tests) */
    *ok = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
    for (int a = 0; a < f->narr; a++)
        if (f->step[a] < 0)
            *ok = LLVMBuildAnd(L->b, *ok,
                               LLVMBuildICmp(L->b, LLVMIntSGE, f->a0[a],
                                             LLVMConstInt(LLVMTypeOf(f->a0[a]), L->width - 1, 0),
                                             ""),
                               "");
    LLVMValueRef top = *ok;
    if (ntested == 0)
        return enter;
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.facts");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.facts.done");
    LLVMBuildBr(L->b, loop);
    LLVMPositionBuilderAtEnd(L->b, loop);
    LLVMValueRef l = LLVMBuildPhi(L->b, i32, "");
    for (int a = 0; a < f->narr; a++)
        acc[a] = f->shaped[a] ? NULL : LLVMBuildPhi(L->b, LLVMTypeOf(f->a0[a]), "");
    for (int a = 0; a < f->narr; a++) {
        if (f->shaped[a])
            continue;
        LLVMTypeRef t = LLVMTypeOf(f->a0[a]);
        LLVMTypeRef at = LLVMGetAllocatedType(f->arr[a]);
        LLVMValueRef idx[] = {zero, l};
        LLVMValueRef x =
            LLVMBuildLoad2(L->b, t, LLVMBuildInBoundsGEP2(L->b, at, f->arr[a], idx, 2, ""), "");
        LLVMValueRef want = lane_step(L->b, f->a0[a], f->step[a], l);
        /* an OR of the differences: no chain of tests, so LLVM vectorises it plainly */
        next[a] = LLVMBuildOr(L->b, acc[a], LLVMBuildXor(L->b, x, want, ""), "");
    }
    LLVMValueRef l1 = LLVMBuildAdd(L->b, l, tji_const_i32(L->ctx, 1), "");
    LLVMBuildCondBr(L->b, LLVMBuildICmp(L->b, LLVMIntULT, l1, tji_const_i32(L->ctx, L->width), ""),
                    loop, done);
    /* from lane 0, which passes: a trip count of the block width, which the vectoriser's
     * steps divide (from lane 1, LLVM unrolled a remainder of 31 scalar steps) */
    LLVMValueRef lv[] = {zero, l1};
    LLVMBasicBlockRef lb[] = {enter, loop};
    LLVMAddIncoming(l, lv, lb, 2);
    LLVMPositionBuilderAtEnd(L->b, done);
    *ok = NULL;
    for (int a = 0; a < f->narr; a++) {
        if (f->shaped[a])
            continue;
        LLVMValueRef av[] = {LLVMConstNull(LLVMTypeOf(f->a0[a])), next[a]};
        LLVMAddIncoming(acc[a], av, lb, 2);
        LLVMValueRef same =
            LLVMBuildICmp(L->b, LLVMIntEQ, next[a], LLVMConstNull(LLVMTypeOf(next[a])), "");
        *ok = *ok ? LLVMBuildAnd(L->b, *ok, same, "") : same;
    }
    if (!LLVMIsAConstantInt(top)) /* a pop's slot tested by lane 0's */
        *ok = LLVMBuildAnd(L->b, *ok, top, "");
    return done;
}

/* In '*out', the facts of 'f' that hold by construction, untested (alike, or lane 0's plus
 * the lane, and with 'slots_down' a pop's slots as STEP_DOWN_TO_NONE), when 'tested'
 * (test_facts loaded lane 0's elements); else none. */
static void
sure_facts(const facts *f, bool tested, bool slots_down, facts *out)
{
    out->n = out->narr = 0;
    int map[FACTS_MAX];
    for (int a = 0; a < f->narr; a++) {
        bool sure = tested && f->shaped[a] && (f->step[a] >= 0 || slots_down);
        map[a] = sure ? out->narr : -1;
        if (sure) {
            out->arr[out->narr] = f->arr[a];
            out->step[out->narr] = f->step[a] < 0 ? STEP_DOWN_TO_NONE : f->step[a];
            out->a0[out->narr] = f->a0[a];
            out->shaped[out->narr++] = true;
        }
    }
    for (int i = 0; i < f->n; i++)
        if (map[f->arr_of[i]] >= 0) {
            out->load[out->n] = f->load[i];
            out->arr_of[out->n++] = map[f->arr_of[i]];
        }
}

/* How the loops over the lanes of a region's copies are marked. A loop of the lanes' serial
 * pushes stays rolled where compress_push.c vectorises it, and one of their pops for
 * serial_pops.c (FORM_ROLLED). Others are lanes' loops with one vector per iteration: LLVM
 * peels lane 0 from a loop that tests for it (a tile_atomic_add's one lane), and of the 255
 * lanes left, four vectors of 8 per iteration left 31 to a scalar remainder, which took as
 * long as the vector loop in the cooperative compaction's loop phase; the mark also tells
 * jit/interchange.c that the loop is one over lanes. They stay rolled around a loop of
 * scatter-adds (has_adds_loop) and, under 32 lanes, one that lanes run a different number of
 * times (holds_lane_loop): FORM_LANES_ROLLED. */
typedef enum { FORM_ROLLED, FORM_LANES, FORM_LANES_ROLLED } loop_form;

static loop_form
region_form(const lanes *L, const LLVMBasicBlockRef *buf, int n)
{
    if ((tji_host_compresses(L->ctx) && pushes_only(L, buf, n)) || pops(buf, n))
        return FORM_ROLLED;
    bool rolled = has_adds_loop(L, buf, n) || (L->width < 32 && holds_lane_loop(L, buf, n));
    return rolled ? FORM_LANES_ROLLED : FORM_LANES;
}

/* A loop over the lanes running a copy of a region ('n' blocks of 'buf'), entered from
 * 'from', marked as 'form' says; the copies of the 'nfix' flags 'fix' become 'to'. Its head,
 * or NULL (no memory). 'count': at least the lane code's blocks and instructions, and 8. */
static LLVMBasicBlockRef
region_loop(lanes *L, const LLVMBasicBlockRef *buf, int n, loop_form form, size_t count,
            LLVMBasicBlockRef from, const LLVMValueRef *fix, const LLVMValueRef *to, int nfix,
            const facts *f)
{
    LLVMContextRef c = L->ctx->llctx;
    tji_vmap map = {0};
    if (!tji_vmap_init(&map, count))
        return NULL;
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.uniform");
    LLVMBasicBlockRef latch = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.uniform.latch");
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMValueRef lane = LLVMBuildPhi(L->b, tji_i32(L->ctx), "lane");
    tji_vmap_put(&map, L->lane, lane);
    tji_vmap_put(&map, LLVMBasicBlockAsValue(L->latch), LLVMBasicBlockAsValue(latch));
    for (int i = 0; i < L->ntiled; i++)
        tji_vmap_put(&map, L->tiled[i], LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0));
    tji_copy_blocks(L->ctx, L->b, buf, n, latch, "lanes.region", &map, true);
    for (int i = 0; i < nfix; i++) {
        LLVMValueRef copy = tji_vmap_get(&map, fix[i]);
        if (copy != fix[i]) {
            LLVMReplaceAllUsesWith(copy, to[i]);
            LLVMInstructionEraseFromParent(copy);
        }
    }
    /* lane 0's element for a uniform array's loads, plus or minus the lane for the others */
    for (int i = 0; f && i < f->n; i++) {
        LLVMValueRef copy = tji_vmap_get(&map, f->load[i]);
        int a = f->arr_of[i];
        if (copy == f->load[i])
            continue;
        LLVMPositionBuilderBefore(L->b, copy);
        LLVMValueRef v;
        if (f->step[a] == STEP_DOWN_TO_NONE) {
            LLVMValueRef l = LLVMBuildZExt(L->b, lane, LLVMTypeOf(f->a0[a]), "");
            LLVMValueRef down = LLVMBuildSub(L->b, f->a0[a], l, "lanes.below");
            LLVMValueRef none = LLVMConstAllOnes(LLVMTypeOf(down));
            v = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntSGT, down, none, ""), down,
                                none, "lanes.slot");
        } else {
            v = lane_step(L->b, f->a0[a], f->step[a], lane);
        }
        LLVMReplaceAllUsesWith(copy, v);
        LLVMInstructionEraseFromParent(copy);
        if (f->step[a] == -1 && LLVMIsABinaryOperator(v)) {
            /* entered where lane 0's slot is at least width - 1 (test_facts): each lane's
             * slot, lane 0's less the lane, lies in [0, lane 0's] */
            LLVMSetNUW(v, 1);
            LLVMSetNSW(v, 1);
            fold_nonnegative_tests(v);
        }
    }
    LLVMBasicBlockRef first =
        LLVMValueAsBasicBlock(tji_vmap_get(&map, LLVMBasicBlockAsValue(buf[0])));
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMBuildBr(L->b, first);
    /* After the last lane: straight to 'decide' where every lane stops at one point, which
     * the next phase then need not find by scanning the lanes' resume points. */
    int32_t stop = region_stop(first, latch, n);
    LLVMValueRef at = NULL, same = NULL;
    if (stop == INT32_MIN && exits_store_points(L, latch))
        decide_as_lanes_stop(L, head, from, latch, &at, &same);
    LLVMValueRef br = close_lane_loop(L, lane, from, head, latch,
                                      stop == INT32_MIN && !at ? L->phase : L->decide);
    if (at) {
        LLVMAddIncoming(L->at, &at, &latch, 1);
        LLVMAddIncoming(L->same, &same, &latch, 1);
    }
    if (form == FORM_ROLLED)
        tji_keep_rolled(L->ctx, br);
    else
        tji_mark_lane_loop(L->ctx, br, form == FORM_LANES_ROLLED);
    if (stop != INT32_MIN) {
        /* nothing reads the lanes' resume points after this loop (build_phases) */
        drop_resume_stores(L, latch);
        LLVMValueRef at = tji_const_i32(L->ctx, stop);
        LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
        LLVMAddIncoming(L->at, &at, &latch, 1);
        LLVMAddIncoming(L->same, &yes, &latch, 1);
    }
    tji_vmap_free(&map);
    return head;
}

/* Resume point 't''s own loop: a copy of its region, which every lane runs in turn with no
 * switch at the head, so that LLVM's loop vectoriser can take it. A phase goes there when
 * every lane stopped at 't' (build_dispatch), through a block ("lanes.enter") that computes
 * what the copy can know before the lanes (before_lanes): the values that every lane
 * carried across the barrier alike (such as tid() under a tiled launch), which the copy uses
 * instead of its loads, and the region's tile.whole tests. Where there are such tests,
 * a second copy takes them as true (the tiles lie wholly inside their arrays), and the
 * block picks one copy: the vectoriser would otherwise run both of each access's paths,
 * with masks. In a tiled phase the entry's test that a lane is inside the launch is true
 * (the blocks are whole). 'count': at least the lane code's blocks and instructions, and 8. */
static void
uniform_loop(lanes *L, int t, LLVMBasicBlockRef *buf, size_t count)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMValueRef yes = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
    tji_vmap seen = {0}, memo = {0};
    LLVMValueRef *fix = malloc(2 * count * sizeof *fix), whole[8], more[8];
    if (!fix || !tji_vmap_init(&seen, (size_t)L->nblocks + 1) ||
        !tji_vmap_init(&memo, count)) {
        free(fix);
        tji_vmap_free(&seen);
        return;
    }
    LLVMValueRef *to = fix + count;
    int n = region_blocks(L, t, buf, &seen);
    LLVMBasicBlockRef enter = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.enter");
    LLVMPositionBuilderAtEnd(L->b, enter);
    int nfix = 0, nwhole = 0;
    LLVMValueRef all = NULL;
    if (L->live && L->ntiled > 0) {
        fix[nfix] = L->live;
        to[nfix++] = yes;
    }
    for (int i = 0; i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in;
             in = LLVMGetNextInstruction(in)) {
            bool reload = tji_vmap_has(&L->reloads, in);
            bool test = !reload && nwhole < 8 &&
                        (named(L, in, TJI_WHOLE_FLAG) || named(L, in, TJI_RANGES_FLAG));
            LLVMValueRef v = reload || test ? before_lanes(L, in, &memo, NULL, NULL, 0) : NULL;
            if (v && reload && (size_t)nfix < count - 8) {
                fix[nfix] = in;
                to[nfix++] = v;
            } else if (v && test && !LLVMIsAConstantInt(v)) {
                whole[nwhole++] = in;
                all = all ? LLVMBuildAnd(L->b, all, v, "") : v;
            }
        }
    facts f;
    find_facts(L, buf, n, fix, nfix, &f);
    LLVMValueRef known = NULL;
    LLVMBasicBlockRef last = f.narr > 0 && L->width > 1 ? test_facts(L, enter, &f, &known) : enter;
    /* A loop's tests to go on that the facts make alike in every lane: the facts' copy takes
     * them as true too, so that the loop's way out, taken once, is not in the copy that runs
     * every other trip (with a tile_atomic_add's lane there, LLVM peeled lane 0 off the
     * loop, and every vector access of the lanes then began one element past a line). */
    int nmore = 0;
    for (int i = 0; known && i < n; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(buf[i]); in && nmore < 8;
             in = LLVMGetNextInstruction(in)) {
            LLVMValueRef v = named(L, in, TJI_MORE_FLAG)
                                 ? before_lanes(L, in, &memo, &f, &seen, 0) : NULL;
            if (v && (size_t)(nfix + nwhole + nmore) < count - 8 &&
                !(LLVMIsAConstantInt(v) && !LLVMConstIntGetZExtValue(v))) {
                more[nmore++] = in;
                if (!LLVMIsAConstantInt(v))
                    known = LLVMBuildAnd(L->b, known, v, "");
            }
        }
    /* where the tiles are whole and the facts known: the facts' copy, else the whole tiles' */
    LLVMBasicBlockRef split =
        all && known ? LLVMAppendBasicBlockInContext(c, L->fn, "lanes.facts.whole") : last;
    /* the facts that hold by construction hold in the other copies too (the loop's last
     * trip: without them its loads of x were gathers) */
    facts sure;
    sure_facts(&f, known != NULL, tji_host_compress_form(L->ctx) == TJI_COMPRESS_AVX512, &sure);
    loop_form form = region_form(L, buf, n);
    LLVMBasicBlockRef head = region_loop(L, buf, n, form, count, last, fix, to, nfix, &sure);
    LLVMBasicBlockRef in = NULL, fast = NULL;
    for (int i = 0; i < nwhole; i++) {
        fix[nfix + i] = whole[i];
        to[nfix + i] = yes;
    }
    if (all)
        in = region_loop(L, buf, n, form, count, split, fix, to, nfix + nwhole, &sure);
    for (int i = 0; i < nmore; i++) {
        fix[nfix + nwhole + i] = more[i];
        to[nfix + nwhole + i] = yes;
    }
    if (known)
        fast = region_loop(L, buf, n, form, count, split, fix, to, nfix + nwhole + nmore, &f);
    LLVMBasicBlockRef other = head ? head : LLVMGetSwitchDefaultDest(L->pick);
    if (split != last) {
        LLVMPositionBuilderAtEnd(L->b, last);
        LLVMBuildCondBr(L->b, all, split, other);
        LLVMPositionBuilderAtEnd(L->b, split);
        if (in && fast)
            LLVMBuildCondBr(L->b, known, fast, in);
        else
            LLVMBuildBr(L->b, in ? in : fast ? fast : other);
    } else if (in || fast) {
        LLVMPositionBuilderAtEnd(L->b, last);
        LLVMBuildCondBr(L->b, in ? all : known, in ? in : fast, other);
    } else {
        LLVMPositionBuilderAtEnd(L->b, last);
        LLVMBuildBr(L->b, other);
    }
    LLVMAddCase(L->pick, tji_const_i32(L->ctx, t), enter);
    tji_vmap_free(&seen);
    tji_vmap_free(&memo);
    free(fix);
}

/* Whether 'br', an unconditional branch, is the only way into its successor. */
static bool
only_way_in(LLVMValueRef br)
{
    LLVMValueRef to = LLVMBasicBlockAsValue(LLVMGetSuccessor(br, 0));
    for (LLVMUseRef u = LLVMGetFirstUse(to); u; u = LLVMGetNextUse(u))
        if (LLVMGetUser(u) != br)
            return false;
    return true;
}

/* The barrier that follows barrier 'call' with nothing between them but unconditional
 * branches, each the only way into the next block, or NULL. */
static LLVMValueRef
next_barrier(const lanes *L, LLVMValueRef call)
{
    LLVMValueRef in = LLVMGetNextInstruction(call);
    for (int steps = 0; in && steps < 64; steps++) {
        if (LLVMIsACallInst(in) && LLVMGetCalledValue(in) == L->marker)
            return in;
        if (LLVMGetInstructionOpcode(in) != LLVMBr || LLVMIsConditional(in) || !only_way_in(in))
            return NULL;
        in = LLVMGetFirstInstruction(LLVMGetSuccessor(in, 0));
    }
    return NULL;
}

/* Removes each barrier that directly follows another (as target_nvptx.c does for the GPU):
 * nothing happened between them, so the second waits for nothing, and here each barrier
 * costs a phase (tile_zeros' barrier, then tile_assign's fence, in the bench's copy). */
static void
drop_repeated_barriers(const lanes *L)
{
    for (bool again = true; again;) {
        again = false;
        for (LLVMUseRef u = LLVMGetFirstUse(L->marker); u && !again; u = LLVMGetNextUse(u)) {
            LLVMValueRef second = next_barrier(L, LLVMGetUser(u));
            if (second) {
                LLVMInstructionEraseFromParent(second);
                again = true;
            }
        }
    }
}

/* The shape of each of the 'n' values 'vals' carried across barriers (divergence.c), with
 * the copies' flags true: the tiled-launch tests and, under them, the lane's test of lying
 * inside the launch; all TJI_SHAPE_VARIES when the analysis cannot run. */
static void
shape_values(lanes *L, const LLVMValueRef *vals, int n, int *shapes)
{
    for (int i = 0; shapes && i < n; i++)
        shapes[i] = TJI_SHAPE_VARIES;
    if (!shapes || L->ctx->cpu_lanes_switch)
        return;
    LLVMValueRef flags[9];
    int nflags = 0;
    for (int i = 0; i < L->ntiled; i++)
        flags[nflags++] = L->tiled[i];
    if (L->live && L->ntiled > 0)
        flags[nflags++] = L->live;
    tji_lane_shapes *s = tji_lane_shapes_of(L->fn, LLVMGetParam(L->fn, 3), LLVMGetParam(L->fn, 1),
                                            flags, nflags);
    /* The shapes hold where the lanes meet every barrier together. Past a barrier that only
     * some lanes reach (one flushed inside an `if` on the lane), lanes that stop at the same
     * point later may be on different trips of a loop: nothing is alike then. */
    for (int t = 0; s && t < L->nbar; t++)
        if (!tji_lane_runs_alike(s, L->calls[t])) {
            tji_lane_shapes_free(s);
            s = NULL;
        }
    L->alike_barriers = s != NULL;
    L->alike_return = s != NULL;
    L->alike_block = s ? calloc((size_t)L->nblocks + 1, 1) : NULL;
    for (int b = 0; L->alike_block && b < L->nblocks; b++)
        L->alike_block[b] = tji_lane_runs_alike(s, LLVMGetBasicBlockTerminator(L->blocks[b]));
    for (int b = 0; s && b < L->nblocks; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(L->blocks[b]);
        if (term && LLVMIsAReturnInst(term) && !tji_lane_runs_alike(s, term))
            L->alike_return = false;
    }
    for (int i = 0; s && i < n; i++) {
        shapes[i] = tji_lane_shape(s, vals[i]);
        if (shapes[i] == TJI_SHAPE_VARIES && marked_descending(vals[i]) &&
            tji_lane_runs_alike(s, vals[i]))
            shapes[i] = POP_SLOT;
    }
    tji_lane_shapes_free(s);
}

static bool
transform(lanes *L)
{
    /* Allocas into a setup block of their own; it branches to what was the entry. */
    LLVMValueRef top = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(L->fn));
    while (LLVMIsAAllocaInst(top))
        top = LLVMGetNextInstruction(top);
    L->setup = split_before(L, top);
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(L->setup); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMIsAAllocaInst(in))
                return false; /* a dynamic alloca: not per lane here */
    /* Each barrier alone in a block (once uniform values are out of the way). */
    hoist_uniform(L);
    drop_repeated_barriers(L);
    for (LLVMUseRef u = LLVMGetFirstUse(L->marker); u; u = LLVMGetNextUse(u))
        L->nbar++;
    L->calls = calloc((size_t)L->nbar + 1, sizeof *L->calls);
    L->barrier = calloc((size_t)L->nbar + 1, sizeof *L->barrier);
    L->resume_at = calloc((size_t)L->nbar + 1, sizeof *L->resume_at);
    if (!L->calls || !L->barrier || !L->resume_at)
        return false;
    int k = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(L->marker); u; u = LLVMGetNextUse(u))
        L->calls[k++] = LLVMGetUser(u);
    for (int t = 0; t < L->nbar; t++) {
        split_before(L, L->calls[t]);
        L->barrier[t] = split_before(L, LLVMGetNextInstruction(L->calls[t]));
    }
    LLVMBasicBlockRef start = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(L->setup), 0);
    if (!L->ctx->cpu_lanes_switch)
        find_flags(L);
    if (!index_blocks(L))
        return false;
    /* Nothing above changed what the function does (hoisting moves only what cannot trap);
     * below, nothing fails. */
    size_t ninstr = 0;
    for (int i = 0; i < L->nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(L->blocks[i]); in;
             in = LLVMGetNextInstruction(in))
            ninstr++;
    LLVMValueRef *vals = malloc((ninstr + 1) * sizeof *vals);
    LLVMValueRef *locs = malloc((ninstr + 1) * sizeof *locs);
    int *shapes = malloc((ninstr + 1) * sizeof *shapes);
    L->shaped_arr = malloc((ninstr + 1) * sizeof *L->shaped_arr);
    L->shaped_step = malloc((ninstr + 1) * sizeof *L->shaped_step);
    if (!L->shaped_arr || !L->shaped_step) {
        free(L->shaped_arr);
        free(L->shaped_step);
        L->shaped_arr = NULL;
        L->shaped_step = NULL;
    }
    int nvals = 0, nlocs = 0;
    L->reload_cap = ninstr + 8;
    bool ok = vals && locs && tji_vmap_init(&L->reloads, L->reload_cap) &&
              find_crossings(L, vals, &nvals, locs, &nlocs) + L->width * 4 <= LANE_STORAGE_MAX;
    if (ok)
        shape_values(L, vals, nvals, shapes);
    if (ok) {
        build_phases(L, start);
        /* The lane parameter: the lane counter. */
        LLVMReplaceAllUsesWith(LLVMGetParam(L->fn, 3), L->lane);
        for (int i = 0; i < nvals; i++)
            carry_value(L, vals[i], shapes ? shapes[i] : TJI_SHAPE_VARIES);
        for (int i = 0; i < nlocs; i++)
            split_alloca(L, locs[i]);
        if (!L->ctx->cpu_lanes_switch) {
            /* the lane code as it is now, with its per-lane loads and stores */
            size_t count = 8;
            for (int i = 0; i < L->nblocks; i++)
                for (LLVMValueRef in = LLVMGetFirstInstruction(L->blocks[i]); in;
                     in = LLVMGetNextInstruction(in))
                    count++;
            LLVMBasicBlockRef *buf = malloc(((size_t)L->nblocks * 2 + 1) * sizeof *buf);
            for (int t = 0; buf && t <= L->nbar; t++)
                uniform_loop(L, t, buf, count + (size_t)L->nblocks);
            free(buf);
        }
    }
    free(vals);
    free(locs);
    free(shapes);
    return ok;
}

bool
tji_lane_loops(tj_context *ctx, LLVMValueRef fn, LLVMValueRef marker, uint32_t width)
{
    lanes L = {.ctx = ctx, .fn = fn, .marker = marker, .width = width,
               .b = LLVMCreateBuilderInContext(ctx->llctx)};
    bool ok = transform(&L);
    LLVMDisposeBuilder(L.b);
    free(L.shaped_arr);
    free(L.shaped_step);
    free(L.alike_block);
    free(L.calls);
    free(L.barrier);
    free(L.resume_at);
    free(L.blocks);
    free(L.pred_start);
    free(L.preds);
    free(L.is_barrier);
    free(L.seen);
    free(L.has_use);
    free(L.stack);
    if (L.index.key)
        tji_vmap_free(&L.index);
    tji_vmap_free(&L.reloads);
    return ok;
}
