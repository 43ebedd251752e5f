/*
 * jit/sink_barriers.c: a CPU pop's trailing barrier moved down past the lane's own code
 * (cooperative blocks, before jit/lane_loops.c).
 *
 * On the CPU a block's lanes pop in turn between two barriers (builtins/stack.c's
 * pop_one_at_a_time): the leading one keeps the counter's update from lanes still to read
 * it, the trailing one shows the update to every lane. The code that follows a pop is
 * mostly the lane's own: `if slot >= 0: out[start + slot] = value` (or `2 * value`, what
 * jit/serial_pops.c's drain computes in vector steps: stored_value). That code may run in
 * the pop's phase instead of the next one when it cannot see another lane's pop, that is
 * when it touches no shared memory, calls nothing that could, and meets no barrier: then a
 * lane running it before the next lane pops computes what it would have computed after
 * every lane popped. Its reads and writes of the launch's arrays do not move across
 * anything that orders them: the leading barrier still comes before, and between the
 * two barriers the original phase held the pop alone. So the trailing barrier moves down
 * through such instructions, through blocks that only its block enters, and over an `if`
 * (a triangle or a diamond of single blocks) whose blocks hold only such instructions, to
 * the first instruction that may touch shared memory, or the first branch it cannot pass.
 *
 * The pop and the store then share a phase, one loop over the lanes, which
 * jit/serial_pops.c turns into a copy of the stack's top values to the output (the drain
 * that width-1 blocks run) instead of a loop that keeps each lane's slot and value in
 * per-lane arrays and a second loop that stores them (bench/RESULTS.md).
 */
#include <string.h>

#include "internal.h"

static const char sinkable_md[] = "tj.sinkable_barrier";

void
tji_mark_sinkable_barrier(tj_context *ctx, LLVMValueRef call)
{
    LLVMSetMetadata(call,
                    LLVMGetMDKindIDInContext(ctx->llctx, sinkable_md, sizeof sinkable_md - 1),
                    LLVMMetadataAsValue(ctx->llctx, LLVMMDNodeInContext2(ctx->llctx, NULL, 0)));
}

bool
tji_is_sinkable_barrier(LLVMValueRef call)
{
    LLVMContextRef llctx = LLVMGetTypeContext(LLVMTypeOf(call));
    return LLVMIsACallInst(call) &&
           LLVMGetMetadata(call, LLVMGetMDKindIDInContext(llctx, sinkable_md,
                                                          sizeof sinkable_md - 1)) != NULL;
}

/* Calls that touch no memory: the intrinsics arithmetic lowers to (the elementwise ones that
 * tji_widens takes, and these). */
static bool
pure_call(LLVMValueRef call)
{
    static const char *const more[] = {
        "llvm.abs.", "llvm.ctpop.", "llvm.ctlz.", "llvm.cttz.", "llvm.fma.", "llvm.fmuladd.",
    };
    return tji_widens(call) || tji_calls_named(call, more, TJI_NELEMS(more));
}

/* Whether memory at 'p' is a launch array's: a pointer loaded from the block function's
 * arguments 'args' (not the worker's arena, the block's shared memory). */
static bool
array_memory(LLVMValueRef p, LLVMValueRef args)
{
    LLVMValueRef base = tji_pointer_base(p);
    if (!LLVMIsALoadInst(base))
        return false;
    size_t len, arena = strlen(TJI_ARENA_NAME);
    const char *name = LLVMGetValueName2(base, &len);
    if (len >= arena && strncmp(name, TJI_ARENA_NAME, arena) == 0)
        return false;
    return tji_pointer_base(LLVMGetOperand(base, 0)) == args;
}

/* Whether a lane may run 'in' before the lanes after it have popped: it touches no memory. */
static bool
passable(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMCall:
        return pure_call(in);
    case LLVMLoad:
    case LLVMStore:
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
    case LLVMFence:
    case LLVMInvoke:
    case LLVMAlloca:
    case LLVMVAArg:
        return false;
    default:
        return !LLVMIsATerminatorInst(in);
    }
}

typedef struct walk {
    LLVMValueRef args;
    const tji_lane_shapes *shapes; /* the block function's, for what every lane has alike */
    LLVMValueRef passed[64]; /* the instructions the barrier passed, in order */
    int npassed;
} walk;

static bool
was_passed(const walk *w, LLVMValueRef v)
{
    for (int k = 0; k < w->npassed; k++)
        if (w->passed[k] == v)
            return true;
    return false;
}

enum { CALC_DEPTH = 8 };

/* Whether 'v' is a pop's value: the phi of the marked load of its top slot and zero
 * (builtins/stack.c's pop_one_at_a_time, after scalar replacement). */
static bool
popped(LLVMValueRef v)
{
    for (unsigned k = 0, n = LLVMIsAPHINode(v) ? LLVMCountIncoming(v) : 0; k < n; k++)
        if (tji_is_serial_pop(LLVMGetIncomingValue(v, k)))
            return true;
    return false;
}

/* Whether 'v', stored in arm 'bb', is what jit/serial_pops.c's drain stores from a vector of
 * popped values: made of values from before the barrier, each the popped value or the same
 * in every lane, by arithmetic it repeats lane by lane (tji_drain_arith) in the arm or in
 * what the barrier passed. A lane's own value (its number, what it loaded) would leave the
 * drain a scalar loop, slower than the two phases' vector pops. */
static bool
stored_value(const walk *w, LLVMBasicBlockRef bb, LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v) || (LLVMGetInstructionParent(v) != bb && !was_passed(w, v)))
        return LLVMIsAConstant(v) || popped(v) ||
               tji_lane_shape(w->shapes, v) == TJI_SHAPE_UNIFORM;
    if (depth == 0 || !tji_drain_arith(v)) /* what it takes passes (pure_call) */
        return false;
    int n = LLVMIsACallInst(v) ? (int)LLVMGetNumArgOperands(v) : LLVMGetNumOperands(v);
    for (int k = 0; k < n; k++)
        if (!stored_value(w, bb, LLVMGetOperand(v, (unsigned)k), depth - 1))
            return false;
    return true;
}

/* Whether block 'bb' is an `if`'s arm the barrier may pass: passable instructions and one
 * store into a launch array of a value from before the barrier or computed from such values
 * (stored_value: the store of a popped value, `out[start + slot] = value`, or of what the
 * lane computes from it, `out[start + slot] = 2 * value`). */
static bool
store_arm(LLVMBasicBlockRef bb, const walk *w)
{
    int stores = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (LLVMIsATerminatorInst(in) || passable(in))
            continue;
        if (!LLVMIsAStoreInst(in) || LLVMGetVolatile(in) || stores++ ||
            !array_memory(LLVMGetOperand(in, 1), w->args))
            return false;
        if (!stored_value(w, bb, LLVMGetOperand(in, 0), CALC_DEPTH))
            return false;
    }
    return stores == 1;
}

static int
npreds(LLVMBasicBlockRef bb)
{
    int n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u))
        if (LLVMIsATerminatorInst(LLVMGetUser(u)))
            n++;
    return n;
}

/* Where the code after 'bb''s terminator goes on: in a block that only 'bb' enters, or once
 * the two ways of an `if` with one arm ('bb' -> arm -> merge, 'bb' -> merge) meet again,
 * when the arm is a store_arm; NULL otherwise. */
static LLVMBasicBlockRef
past_terminator(LLVMBasicBlockRef bb, const walk *w)
{
    LLVMBasicBlockRef s = tji_only_succ(bb);
    if (s)
        return npreds(s) == 1 ? s : NULL;
    LLVMValueRef t = tji_cond_br(bb);
    for (unsigned k = 0; t && k < 2; k++) {
        LLVMBasicBlockRef a = LLVMGetSuccessor(t, k), merge = LLVMGetSuccessor(t, 1 - k);
        LLVMBasicBlockRef after = tji_only_succ(a);
        /* tj_if_begin's else block, empty where the `if` has no else */
        if (after && tji_only_succ(merge) == after && npreds(merge) == 1 &&
            LLVMGetFirstInstruction(merge) == LLVMGetBasicBlockTerminator(merge))
            merge = after;
        if (a != merge && a != bb && merge != bb && after == merge && npreds(a) == 1 &&
            npreds(merge) == 2 && store_arm(a, w))
            return merge;
    }
    return NULL;
}

static LLVMValueRef
first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in && LLVMIsAPHINode(in))
        in = LLVMGetNextInstruction(in);
    return in;
}

/* Moves barrier call 'call' down as far as the rules above let it, past one `if` at most
 * (a drain's store; what comes after it is the next phase's). */
static bool
sink_one(LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef args, const tji_lane_shapes *shapes)
{
    walk w = {.args = args, .shapes = shapes};
    int ifs = 0;
    LLVMValueRef at = LLVMGetNextInstruction(call);
    for (;;) {
        if (!at)
            return false; /* a block without a terminator: leave it */
        if (LLVMIsATerminatorInst(at)) {
            LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
            bool cond = tji_cond_br(bb) != NULL;
            LLVMBasicBlockRef next = ifs == 0 || !cond ? past_terminator(bb, &w) : NULL;
            if (!next)
                break;
            ifs += cond;
            at = first_non_phi(next);
            continue;
        }
        if (!passable(at) || w.npassed == (int)TJI_NELEMS(w.passed))
            break;
        w.passed[w.npassed++] = at;
        at = LLVMGetNextInstruction(at);
    }
    if (at == LLVMGetNextInstruction(call) || ifs == 0)
        return false;
    LLVMInstructionRemoveFromParent(call);
    LLVMPositionBuilderBefore(b, at);
    LLVMInsertIntoBuilder(b, call);
    return true;
}

int
tji_sink_barriers(tj_context *ctx, LLVMValueRef fn, LLVMValueRef marker)
{
    LLVMValueRef args = LLVMGetParam(fn, 1);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    tji_lane_shapes *shapes = NULL; /* made for the first marked barrier */
    int moved = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(marker), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef call = LLVMGetUser(u);
        if (!LLVMIsACallInst(call) || !tji_is_sinkable_barrier(call) ||
            LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) != fn)
            continue;
        if (!shapes) /* NULL when out of memory: then only constants count as alike */
            shapes = tji_lane_shapes_of(fn, LLVMGetParam(fn, 3), args, NULL, 0);
        moved += sink_one(b, call, args, shapes);
    }
    tji_lane_shapes_free(shapes);
    LLVMDisposeBuilder(b);
    return moved;
}
