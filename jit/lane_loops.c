/*
 * jit/lane_loops.c: cooperative CPU blocks as loops over their lanes (SPEC 1, CPU modes).
 *
 * A cooperative block's lanes run in ascending order between two barriers. Fibers do that
 * with a context switch per lane and barrier; this pass does it in the code instead, as
 * work-item loops do in OpenCL's CPU compilers: the block function's barriers cut it into
 * regions (the code reachable from the function's start, or from just after a barrier,
 * without crossing another barrier), and each region becomes a loop over the lanes. A lane
 * that reaches a barrier records which one, and after the last lane the block goes on to
 * the code after it; a lane that returns is marked finished and skipped from then on (it
 * leaves every later barrier). A value made in one region and used in another goes through
 * an array with one element per lane; so does a local (alloca) that two regions use.
 *
 * It applies when every barrier of the kernel is in its block function (not in another
 * function) and the regions do not share code: a barrier inside a loop does not qualify,
 * as the loop's head is reached both from before the loop and from the barrier. Such
 * kernels, and those whose per-lane arrays would pass LANE_STORAGE_MAX, keep the fibers.
 * The block function runs once per block on one thread, like a width-1 entry.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum {
    /* Bytes of per-lane arrays a block function may keep on its stack (worker threads
     * and the caller have megabytes; fibers had 256 KiB each). */
    LANE_STORAGE_MAX = 256 * 1024,
};

typedef struct lanes {
    tj_context *ctx;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMValueRef marker;
    uint32_t width;
    LLVMBasicBlockRef setup;        /* allocas and per-lane arrays; branches to region 0 */
    LLVMBasicBlockRef *entry;       /* each region's first block */
    LLVMBasicBlockRef *barrier;     /* the barrier block that leads to region i (0: none) */
    LLVMValueRef *lane;             /* each region's lane counter */
    LLVMBasicBlockRef *latch;
    int nregions;
    tji_vmap region_of;             /* block (as value) -> its region's entry (as value) */
    LLVMValueRef next, alive;       /* the barrier the lanes reached; per-lane "not returned" */
} lanes;

/* Moves the instructions of 'at's block before 'at' into a new block placed before it,
 * which takes over the block's predecessors (and its place as the function's entry). */
static LLVMBasicBlockRef
split_before(lanes *L, LLVMValueRef at)
{
    LLVMBasicBlockRef tail = LLVMGetInstructionParent(at);
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(L->ctx->llctx, tail, "");
    LLVMPositionBuilderAtEnd(L->b, head);
    for (LLVMValueRef in = LLVMGetFirstInstruction(tail), next; in != at; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMInstructionRemoveFromParent(in);
        LLVMInsertIntoBuilder(L->b, in);
    }
    /* Without its terminator for a moment, the block's successors keep it in their phis
     * (a block's RAUW renames those too). */
    LLVMValueRef term = LLVMGetBasicBlockTerminator(tail);
    LLVMInstructionRemoveFromParent(term);
    LLVMReplaceAllUsesWith(LLVMBasicBlockAsValue(tail), LLVMBasicBlockAsValue(head));
    LLVMPositionBuilderAtEnd(L->b, tail);
    LLVMInsertIntoBuilder(L->b, term);
    LLVMPositionBuilderAtEnd(L->b, head);
    LLVMBuildBr(L->b, tail);
    return head;
}

static int
region_index(const lanes *L, LLVMBasicBlockRef bb)
{
    LLVMValueRef v = LLVMBasicBlockAsValue(bb);
    if (!tji_vmap_has(&L->region_of, v))
        return -1;
    LLVMValueRef e = tji_vmap_get(&L->region_of, v);
    for (int r = 0; r < L->nregions; r++)
        if (LLVMBasicBlockAsValue(L->entry[r]) == e)
            return r;
    return -1;
}

static bool
is_barrier_block(const lanes *L, LLVMBasicBlockRef bb)
{
    for (int r = 1; r < L->nregions; r++)
        if (L->barrier[r] == bb)
            return true;
    return false;
}

/* Marks the blocks of region r (reachable from its entry without passing a barrier block);
 * false when one of them belongs to another region already. */
static bool
mark_region(lanes *L, int r, LLVMBasicBlockRef *stack, size_t cap)
{
    LLVMValueRef tag = LLVMBasicBlockAsValue(L->entry[r]);
    size_t n = 0;
    stack[n++] = L->entry[r];
    tji_vmap_put(&L->region_of, tag, tag);
    while (n > 0) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(stack[--n]);
        for (unsigned i = 0, ns = LLVMGetNumSuccessors(term); i < ns; i++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, i);
            if (is_barrier_block(L, s))
                continue;
            LLVMValueRef sv = LLVMBasicBlockAsValue(s);
            LLVMValueRef have = tji_vmap_has(&L->region_of, sv) ? tji_vmap_get(&L->region_of, sv)
                                                                : NULL;
            if (have == tag)
                continue;
            if (have || n == cap)
                return false;
            tji_vmap_put(&L->region_of, LLVMBasicBlockAsValue(s), tag);
            stack[n++] = s;
        }
    }
    return true;
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
        LLVMPositionBuilderBefore(L->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, op)));
    else
        LLVMPositionBuilderBefore(L->b, user);
}

static LLVMValueRef
lane_slot(lanes *L, LLVMTypeRef arrty, LLVMValueRef arr, int r)
{
    LLVMValueRef idx[] = {tji_const_i32(L->ctx, 0), L->lane[r]};
    return LLVMBuildInBoundsGEP2(L->b, arrty, arr, idx, 2, "");
}

static LLVMValueRef
lane_array(lanes *L, LLVMTypeRef ty, LLVMTypeRef *arrty)
{
    *arrty = LLVMArrayType2(ty, L->width);
    LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(L->setup));
    return LLVMBuildAlloca(L->b, *arrty, "lanes");
}

/* The uses of 'v' (by instructions of reachable blocks) whose region is not 'r'. */
typedef struct use_ref {
    LLVMValueRef user;
    unsigned op;
    int region;
} use_ref;

static int
foreign_uses(lanes *L, LLVMValueRef v, int r, use_ref *out, int cap)
{
    int n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            continue;
        for (unsigned op = 0, nops = (unsigned)LLVMGetNumOperands(user); op < nops; op++) {
            if (LLVMGetOperand(user, op) != v)
                continue;
            int ur = region_index(L, use_block(user, op));
            bool seen = false;
            for (int i = 0; i < n; i++)
                seen |= out[i].user == user && out[i].op == op;
            if (ur >= 0 && ur != r && !seen) {
                if (n == cap)
                    return -1;
                out[n++] = (use_ref){user, op, ur};
            }
        }
    }
    return n;
}

/* Bytes of 'width' elements of 'ty'. */
static size_t
lanes_bytes(const lanes *L, LLVMTypeRef ty)
{
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(LLVMGetGlobalParent(L->fn));
    return (size_t)LLVMABISizeOfType(dl, ty) * L->width;
}

/* Whether the uses of alloca 'a' are in more than one region. */
static int
alloca_shared(lanes *L, LLVMValueRef a, use_ref *uses, int cap)
{
    int n = foreign_uses(L, a, -1, uses, cap);
    if (n < 0)
        return -1;
    for (int i = 1; i < n; i++)
        if (uses[i].region != uses[0].region)
            return 1;
    return 0;
}

/* The bytes of per-lane arrays the regions need, or SIZE_MAX when a value's uses cannot be
 * listed. Changes nothing. */
static size_t
storage_needed(lanes *L, LLVMBasicBlockRef *blocks, int nblocks, use_ref *uses, int cap)
{
    size_t bytes = L->width; /* 'alive' */
    for (int i = 0; i < nblocks; i++) {
        int r = region_index(L, blocks[i]);
        for (LLVMValueRef in = r < 0 ? NULL : LLVMGetFirstInstruction(blocks[i]); in;
             in = LLVMGetNextInstruction(in)) {
            if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVoidTypeKind || LLVMIsATerminatorInst(in))
                continue;
            int n = foreign_uses(L, in, r, uses, cap);
            if (n < 0)
                return SIZE_MAX;
            if (n > 0)
                bytes += lanes_bytes(L, LLVMTypeOf(in));
        }
    }
    for (LLVMValueRef in = LLVMGetFirstInstruction(L->setup); in; in = LLVMGetNextInstruction(in)) {
        if (!LLVMIsAAllocaInst(in))
            continue;
        int shared = alloca_shared(L, in, uses, cap);
        if (shared < 0)
            return SIZE_MAX;
        if (shared)
            bytes += lanes_bytes(L, LLVMGetAllocatedType(in));
    }
    return bytes;
}

/* A value of region r used in other regions: stored per lane where it is made, loaded per
 * lane where it is used. */
static void
carry_value(lanes *L, LLVMValueRef v, int r, use_ref *uses, int cap)
{
    int n = foreign_uses(L, v, r, uses, cap);
    if (n <= 0)
        return;
    LLVMTypeRef ty = LLVMTypeOf(v), arrty;
    LLVMValueRef arr = lane_array(L, ty, &arrty);
    LLVMValueRef after = LLVMGetNextInstruction(v);
    while (after && LLVMIsAPHINode(after))
        after = LLVMGetNextInstruction(after);
    LLVMPositionBuilderBefore(L->b, after);
    LLVMBuildStore(L->b, v, lane_slot(L, arrty, arr, r));
    for (int i = 0; i < n; i++) {
        position_for_use(L, uses[i].user, uses[i].op);
        LLVMValueRef x = LLVMBuildLoad2(L->b, ty, lane_slot(L, arrty, arr, uses[i].region), "");
        LLVMSetOperand(uses[i].user, uses[i].op, x);
    }
}

/* A local that more than one region uses becomes one per lane; each use takes its lane's. */
static void
split_alloca(lanes *L, LLVMValueRef a, use_ref *uses, int cap)
{
    if (alloca_shared(L, a, uses, cap) != 1)
        return;
    int n = foreign_uses(L, a, -1, uses, cap);
    LLVMTypeRef arrty;
    LLVMValueRef arr = lane_array(L, LLVMGetAllocatedType(a), &arrty);
    LLVMSetAlignment(arr, LLVMGetAlignment(a) > 16 ? LLVMGetAlignment(a) : 16);
    for (int i = 0; i < n; i++) {
        position_for_use(L, uses[i].user, uses[i].op);
        LLVMSetOperand(uses[i].user, uses[i].op, lane_slot(L, arrty, arr, uses[i].region));
    }
}

/* Region r's loop: pre (next = -1) -> head (lane phi; skip finished lanes) -> the region ->
 * latch -> head, or after the last lane to the region of the barrier the lanes reached. */
static void
build_loop(lanes *L, int r, LLVMBasicBlockRef *pre)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMTypeRef i32 = tji_i32(L->ctx), i8 = tji_i8(L->ctx);
    pre[r] = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.pre");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.head");
    L->latch[r] = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.latch");
    LLVMPositionBuilderAtEnd(L->b, pre[r]);
    LLVMBuildStore(L->b, tji_const_i32(L->ctx, -1), L->next);
    LLVMBuildBr(L->b, head);
    LLVMPositionBuilderAtEnd(L->b, head);
    L->lane[r] = LLVMBuildPhi(L->b, i32, "lane");
    if (r == 0) {
        LLVMBuildBr(L->b, L->entry[r]);
    } else {
        LLVMValueRef idx[] = {tji_const_i32(L->ctx, 0), L->lane[r]};
        LLVMTypeRef at = LLVMArrayType2(i8, L->width);
        LLVMValueRef a = LLVMBuildLoad2(L->b, i8, LLVMBuildInBoundsGEP2(L->b, at, L->alive, idx,
                                                                        2, ""), "");
        LLVMBuildCondBr(L->b, LLVMBuildTrunc(L->b, a, LLVMInt1TypeInContext(c), ""),
                        L->entry[r], L->latch[r]);
    }
}

static void
close_loop(lanes *L, int r, LLVMBasicBlockRef *pre, LLVMBasicBlockRef ret)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMBasicBlockRef head = LLVMGetInstructionParent(L->lane[r]);
    LLVMBasicBlockRef disp = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.next");
    LLVMPositionBuilderAtEnd(L->b, L->latch[r]);
    LLVMValueRef next = LLVMBuildAdd(L->b, L->lane[r], tji_const_i32(L->ctx, 1), "");
    LLVMValueRef more = LLVMBuildICmp(L->b, LLVMIntULT, next, tji_const_i32(L->ctx, L->width), "");
    LLVMBuildCondBr(L->b, more, head, disp);
    LLVMValueRef in_vals[] = {tji_const_i32(L->ctx, 0), next};
    LLVMBasicBlockRef in_bbs[] = {pre[r], L->latch[r]};
    LLVMAddIncoming(L->lane[r], in_vals, in_bbs, 2);
    LLVMPositionBuilderAtEnd(L->b, disp);
    LLVMValueRef which = LLVMBuildLoad2(L->b, tji_i32(L->ctx), L->next, "");
    LLVMValueRef sw = LLVMBuildSwitch(L->b, which, ret, (unsigned)L->nregions - 1);
    for (int t = 1; t < L->nregions; t++)
        LLVMAddCase(sw, tji_const_i32(L->ctx, t), pre[t]);
}

/* Uses of the block function's lane parameter read their region's counter instead. */
static void
replace_lane_param(lanes *L)
{
    LLVMValueRef lane = LLVMGetParam(L->fn, 3);
    for (LLVMUseRef u = LLVMGetFirstUse(lane), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        for (unsigned op = 0, n = (unsigned)LLVMGetNumOperands(user); op < n; op++) {
            if (LLVMGetOperand(user, op) != lane)
                continue;
            int r = region_index(L, use_block(user, op));
            if (r >= 0)
                LLVMSetOperand(user, op, L->lane[r]);
        }
    }
}

/* Region r's exits: an edge into a barrier block records the barrier and ends the lane's
 * turn; a return marks the lane finished. */
static void
reroute_exits(lanes *L, int r, LLVMBasicBlockRef *blocks, int nblocks)
{
    LLVMContextRef c = L->ctx->llctx;
    LLVMTypeRef i8 = tji_i8(L->ctx);
    for (int i = 0; i < nblocks; i++) {
        LLVMBasicBlockRef bb = blocks[i];
        if (region_index(L, bb) != r)
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (LLVMGetInstructionOpcode(term) == LLVMRet) {
            LLVMPositionBuilderBefore(L->b, term);
            LLVMValueRef idx[] = {tji_const_i32(L->ctx, 0), L->lane[r]};
            LLVMTypeRef at = LLVMArrayType2(i8, L->width);
            LLVMBuildStore(L->b, LLVMConstInt(i8, 0, 0),
                           LLVMBuildInBoundsGEP2(L->b, at, L->alive, idx, 2, ""));
            LLVMBuildBr(L->b, L->latch[r]);
            LLVMInstructionEraseFromParent(term);
            continue;
        }
        for (unsigned s = 0, ns = LLVMGetNumSuccessors(term); s < ns; s++) {
            LLVMBasicBlockRef to = LLVMGetSuccessor(term, s);
            for (int t = 1; t < L->nregions; t++) {
                if (L->barrier[t] != to)
                    continue;
                LLVMBasicBlockRef edge = LLVMAppendBasicBlockInContext(c, L->fn, "lanes.wait");
                LLVMPositionBuilderAtEnd(L->b, edge);
                LLVMBuildStore(L->b, tji_const_i32(L->ctx, t), L->next);
                LLVMBuildBr(L->b, L->latch[r]);
                LLVMSetSuccessor(term, s, edge);
            }
        }
    }
}

/* Every edge into a block that only returns gets a block of its own, so that the regions
 * that end in a return (a lane past the end of the launch, and the kernel's last region)
 * share none. */
static void
split_returns(lanes *L)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (unsigned i = 0, n = LLVMGetNumSuccessors(term); i < n; i++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, i);
            LLVMValueRef first = LLVMGetFirstInstruction(s);
            if (LLVMGetInstructionOpcode(first) != LLVMRet || LLVMGetNumOperands(first) != 0)
                continue;
            LLVMBasicBlockRef own = LLVMAppendBasicBlockInContext(L->ctx->llctx, L->fn, "ret");
            LLVMPositionBuilderAtEnd(L->b, own);
            LLVMBuildRetVoid(L->b);
            LLVMSetSuccessor(term, i, own);
        }
    }
}

static int
collect_blocks(LLVMValueRef fn, LLVMBasicBlockRef **out)
{
    int n = (int)LLVMCountBasicBlocks(fn);
    *out = malloc(((size_t)n + 1) * sizeof **out);
    if (!*out)
        return -1;
    LLVMGetBasicBlocks(fn, *out);
    return n;
}

static bool
transform(lanes *L)
{
    /* Allocas into a setup block of their own; it branches to what was the entry. */
    LLVMBasicBlockRef first = LLVMGetEntryBasicBlock(L->fn);
    LLVMValueRef top = LLVMGetFirstInstruction(first);
    while (top && LLVMIsAAllocaInst(top))
        top = LLVMGetNextInstruction(top);
    L->setup = split_before(L, top);
    for (LLVMBasicBlockRef bb = LLVMGetNextBasicBlock(L->setup); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMIsAAllocaInst(in))
                return false; /* a dynamic alloca: not per lane here */

    /* Each barrier alone in a block; the code after it starts a region. */
    int nmarks = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(L->marker); u; u = LLVMGetNextUse(u))
        nmarks++;
    L->nregions = 1 + nmarks;
    L->entry = calloc((size_t)L->nregions, sizeof *L->entry);
    L->barrier = calloc((size_t)L->nregions, sizeof *L->barrier);
    L->lane = calloc((size_t)L->nregions, sizeof *L->lane);
    L->latch = calloc((size_t)L->nregions, sizeof *L->latch);
    LLVMValueRef *calls = calloc((size_t)nmarks + 1, sizeof *calls);
    if (!L->entry || !L->barrier || !L->lane || !L->latch || !calls) {
        free(calls);
        return false;
    }
    int k = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(L->marker); u; u = LLVMGetNextUse(u))
        calls[k++] = LLVMGetUser(u);
    for (int i = 0; i < nmarks; i++) {
        split_before(L, calls[i]);
        L->barrier[i + 1] = split_before(L, LLVMGetNextInstruction(calls[i]));
    }
    /* A later split may move the start of a region into a new block: read them after. */
    L->entry[0] = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(L->setup), 0);
    for (int t = 1; t < L->nregions; t++)
        L->entry[t] = LLVMGetSuccessor(LLVMGetBasicBlockTerminator(L->barrier[t]), 0);
    split_returns(L);
    /* The marker calls stay in their blocks until the loops are built (they mark them). */
    LLVMBasicBlockRef *blocks;
    int nblocks = collect_blocks(L->fn, &blocks);
    LLVMBasicBlockRef *stack = malloc(((size_t)nblocks + 1) * sizeof *stack);
    use_ref *uses = NULL;
    bool ok = nblocks >= 0 && stack && tji_vmap_init(&L->region_of, (size_t)nblocks);
    for (int r = 0; ok && r < L->nregions; r++)
        ok = mark_region(L, r, stack, (size_t)nblocks);
    /* Uses: at most the operands of all instructions. */
    size_t nops = 0;
    for (int i = 0; ok && i < nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(blocks[i]); in;
             in = LLVMGetNextInstruction(in))
            nops += (size_t)LLVMGetNumOperands(in);
    if (ok)
        ok = (uses = malloc((nops + 1) * sizeof *uses)) != NULL;
    ok = ok && storage_needed(L, blocks, nblocks, uses, (int)nops) <= LANE_STORAGE_MAX;
    LLVMBasicBlockRef *pre = ok ? calloc((size_t)L->nregions, sizeof *pre) : NULL;
    if (pre) {
        /* From here on nothing fails. */
        LLVMPositionBuilderBefore(L->b, LLVMGetFirstInstruction(L->setup));
        L->next = LLVMBuildAlloca(L->b, tji_i32(L->ctx), "lanes.next");
        LLVMTypeRef at = LLVMArrayType2(tji_i8(L->ctx), L->width);
        L->alive = LLVMBuildAlloca(L->b, at, "lanes.alive");
        LLVMPositionBuilderBefore(L->b, LLVMGetBasicBlockTerminator(L->setup));
        LLVMBuildMemSet(L->b, L->alive, LLVMConstInt(tji_i8(L->ctx), 1, 0),
                        tji_const_i64(L->ctx, L->width), 1);
        for (int r = 0; r < L->nregions; r++)
            build_loop(L, r, pre);
        replace_lane_param(L);
        /* Locals, then values, that cross regions (the arrays made for values are locals
         * that cross regions too, and are placed before the setup block's first). */
        for (LLVMValueRef in = LLVMGetFirstInstruction(L->setup); in;
             in = LLVMGetNextInstruction(in))
            if (LLVMIsAAllocaInst(in) && in != L->next && in != L->alive)
                split_alloca(L, in, uses, (int)nops);
        for (int i = 0; i < nblocks; i++) {
            int r = region_index(L, blocks[i]);
            for (LLVMValueRef in = r < 0 ? NULL : LLVMGetFirstInstruction(blocks[i]); in;
                 in = LLVMGetNextInstruction(in))
                if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind &&
                    !LLVMIsATerminatorInst(in))
                    carry_value(L, in, r, uses, (int)nops);
        }
        LLVMBasicBlockRef ret = LLVMAppendBasicBlockInContext(L->ctx->llctx, L->fn, "lanes.end");
        LLVMPositionBuilderAtEnd(L->b, ret);
        LLVMBuildRetVoid(L->b);
        for (int r = 0; r < L->nregions; r++)
            reroute_exits(L, r, blocks, nblocks);
        for (int r = 0; r < L->nregions; r++)
            close_loop(L, r, pre, ret);
        LLVMSetSuccessor(LLVMGetBasicBlockTerminator(L->setup), 0, pre[0]);
        for (int i = 0; i < nmarks; i++)
            LLVMInstructionEraseFromParent(calls[i]);
        /* The barrier blocks are now unreachable: empty them. */
        for (int t = 1; t < L->nregions; t++) {
            LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(L->barrier[t]));
            LLVMPositionBuilderAtEnd(L->b, L->barrier[t]);
            LLVMBuildUnreachable(L->b);
        }
    }
    ok = pre != NULL;
    free(pre);
    free(uses);
    free(stack);
    free(blocks);
    free(calls);
    if (L->region_of.key)
        tji_vmap_free(&L->region_of);
    return ok;
}

bool
tji_lane_loops(tj_context *ctx, LLVMValueRef fn, LLVMValueRef marker, uint32_t width)
{
    lanes L = {.ctx = ctx, .fn = fn, .marker = marker, .width = width,
               .b = LLVMCreateBuilderInContext(ctx->llctx)};
    bool ok = transform(&L);
    LLVMDisposeBuilder(L.b);
    free(L.entry);
    free(L.barrier);
    free(L.lane);
    free(L.latch);
    return ok;
}
