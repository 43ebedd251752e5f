/*
 * builtins/stack.c: tile_stack(capacity, dtype) and push, pop, count, clear (SPEC 4).
 * A stack is 'capacity' elements plus a 16-byte counter in shared memory (on the CPU a
 * local of the kernel when a block has one lane: width-1 mode, or block_dim 1). Every lane must
 * reach the declaration, push, pop and clear, which end with a barrier, and but for the
 * GPU's default pop start with one (other lanes may still be reading the count or the
 * data); count may be called from one lane.
 *   push: each lane with a value reserves a slot (on the GPU one atomic add on the counter
 *         per warp, the lanes ranked by a ballot); slots past the capacity are dropped
 *         (-1), and a warp that passed it lowers the counter to it with an atomic min
 *         (two barriers a push, one in a run of pushes). On the CPU, where a block's lanes
 *         run one at a time, a plain branch-free update, whose store is marked for
 *         jit/compress_push.c (loops of them vectorised where the host has AVX-512 or AVX2).
 *   pop:  the running lanes take the top min(count, running) slots, lane 0 the topmost;
 *         the counter drops by that many. So values of a later push come out first, and
 *         draining hands out the slots 0..count-1 once each. On the GPU lane 0 lowers the
 *         counter between two barriers, after every lane read it; on the CPU each lane
 *         takes its slot and lowers the counter in its turn, after a leading barrier; on
 *         the GPU under TILEJIT_GPU_POP=warp, one atomic per warp after a leading barrier.
 *         Two barriers each.
 * In CPU cooperative mode lanes run in order, so slots are deterministic there.
 */
#include <stdio.h>

#include "tilejit.h"
#include "builtins.h"

static LLVMValueRef
i32c(tj_kernel *k, int64_t v)
{
    return tji_const_i32(k->ctx, v);
}

/* Runs the code between lane0_begin and lane0_end in lane 0 only. */
static void
lane0_begin(tj_kernel *k, tji_cond *c)
{
    tji_emit_cond_begin(k, LLVMBuildICmp(k->llb, LLVMIntEQ, tji_lane(k), i32c(k, 0), ""), c);
}

static bool
check_stack(tj_kernel *k, const char *fn, tj_val *s)
{
    char d[64];
    if (!tji_use(k, s, fn, "s"))
        return false;
    if (s->kind != TJ_VAL_STACK)
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument 's': %s is not a stack", fn,
                        tji_val_describe(s, d, sizeof d));
    return true;
}

tj_val *
tj_tile_stack(tj_kernel *k, int64_t capacity, const tj_type *elem)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STACK);
    if (!tji_enter(k, fn))
        return NULL;
    if (capacity < 1 || capacity > TJI_MAX_TILE_ELEMS) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'capacity': %lld is not a positive constant "
                 "up to %lld", fn, (long long)capacity, (long long)TJI_MAX_TILE_ELEMS);
        return NULL;
    }
    if (!elem || elem->kind == TJ_TYPE_VOID) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'dtype' is not a type", fn);
        return NULL;
    }
    if (!tji_check_type_ctx(k, fn, "dtype", elem))
        return NULL;
    tji_shared_write_fence(k);
    tj_val *s = tji_val_new(k, TJ_VAL_STACK, elem, NULL);
    if (!s)
        return NULL;
    s->u.stack.capacity = capacity;
    s->u.stack.data = tji_shared_alloc(k, (size_t)capacity * elem->size);
    /* The counter's 16 bytes count against the budget in every mode (SPEC 3), but on the
     * CPU a block of one lane shares the counter with nobody: it is then a local of the
     * kernel, which LLVM keeps in a register. In the arena it stays in memory, as LLVM
     * cannot tell it apart from a push's store at a variable slot of the same allocation.
     * (The GPU's push adds to the counter atomically, which PTX defines on global and
     * shared memory only.) */
    LLVMValueRef in_arena = tji_shared_alloc(k, 16);
    bool one_lane = k->block_dim == 1 && !tji_lanes_run_concurrently(k);
    s->u.stack.count = one_lane ? tji_alloca_uninit(k, tji_i32(k->ctx), "stack.count") : in_arena;
    /* The data's allocation (rounded up to 16 bytes) is followed by the counter's 16 bytes,
     * unused when the counter is a local: an element of up to 16 bytes fits at slot
     * 'capacity' then, and a push may store there when the stack is full. */
    s->u.stack.spare_slot = one_lane && elem->size <= 16;
    tji_cond c;
    lane0_begin(k, &c);
    LLVMBuildStore(k->llb, i32c(k, 0), s->u.stack.count);
    tji_emit_cond_end(k, &c);
    tji_emit_barrier(k);
    return s;
}

static LLVMValueRef
slot_ptr(tj_kernel *k, const tj_val *s, LLVMValueRef slot)
{
    return LLVMBuildGEP2(k->llb, s->type->llmem, s->u.stack.data, &slot, 1, "");
}

/* Push where a block's lanes run one at a time (the CPU): no atomic, and no branch on
 * has_value (random data mispredicts it). Every lane stores its value into slot 'count',
 * pushing or not: a lane that does not push leaves it beyond the count, where the next
 * push overwrites it. With a spare slot that store needs no branch on whether the stack
 * has room (a full stack's slot 'capacity' is the spare: 8% of a CPU compaction's time);
 * without, it is made while it has. The counter grows only when a value went in, and
 * never passes the capacity. */
static tj_val *
push_one_at_a_time(tj_kernel *k, tj_val *s, tj_val *value, tj_val *has_value)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    /* The leading barrier orders the pushes (all lanes' earlier pushes, then this one's in
     * lane order) and stands for a barrier still owed. */
    k->barrier_pending = false;
    tji_emit_barrier(k);
    k->serial_pushes++;
    LLVMValueRef n = LLVMBuildLoad2(b, tji_i32(c), s->u.stack.count, "count");
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntSLT, n, i32c(k, s->u.stack.capacity), "");
    LLVMValueRef ok = LLVMBuildAnd(b, has_value->ll, fits, "");
    tji_cond room;
    if (!s->u.stack.spare_slot)
        tji_emit_cond_begin(k, fits, &room);
    tji_emit_store(k, s->type, value->ll, slot_ptr(k, s, n));
    LLVMValueRef last = LLVMGetLastInstruction(LLVMGetInsertBlock(b));
    if (last && LLVMIsAStoreInst(last))
        tji_mark_serial_push(c, last, s->u.stack.capacity);
    if (!s->u.stack.spare_slot)
        tji_emit_cond_end(k, &room);
    /* min(count + has_value, capacity): the same as count + (has_value && fits) while the
     * count stays at most the capacity, but a push waits for the previous one's add only,
     * not for its compare, and and add (about 5 cycles a push in a loop). The min is a
     * branch that LLVM is told is rarely taken: as a select (umin), x86 makes it a cmov
     * in that chain where the store has no branch on room (6% of a CPU compaction). */
    LLVMValueRef more = LLVMBuildAdd(b, n, LLVMBuildZExt(b, has_value->ll, tji_i32(c), ""), "");
    LLVMBuildStore(b, more, s->u.stack.count);
    tji_cond full;
    tji_emit_cold_begin(k, LLVMBuildICmp(b, LLVMIntUGT, more, i32c(k, s->u.stack.capacity), ""),
                        &full);
    LLVMBuildStore(b, i32c(k, s->u.stack.capacity), s->u.stack.count);
    tji_emit_cond_end(k, &full);
    LLVMValueRef slot = LLVMBuildSelect(b, ok, n, i32c(k, -1), "slot");
    /* In a block of one lane the barrier is owed, not emitted: the next call that reads
     * shared memory or branches emits it, and the next push's leading barrier stands for
     * it, so a loop of pushes synchronises once a push (the push itself does not count as
     * such a call: tj_for_end). A cooperative block makes it here, after the slot (a value
     * nobody uses does not cross it): the lanes' phase between a push's two barriers then
     * only pushes, a loop over the lanes that jit/compress_push.c vectorises as it does
     * width-1's loop of pushes (the bench's compaction: 0.30 of C against 0.27). */
    if (k->block_dim > 1)
        tji_emit_barrier(k);
    else
        tji_defer_barrier(k);
    return tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), slot);
}

/* The GPU push's leading barrier under TILEJIT_GPU_PUSH=fence. It keeps the push's updates
 * from lanes that may still read the stack (a count, a pop's slots) and from an earlier
 * push's reservations (values of a later push go above). Both are done by any barrier
 * after the last read of the stack, as the previous push's trailing one is when the code
 * between only loads from global memory and computes (the next values in a loop of
 * pushes): so it stays a call of TJI_PUSH_FENCE through the pipeline (convergent and
 * opaque, as a barrier is), and target_nvptx.c's finish makes it a barrier only where a
 * path from the last barrier may touch shared memory. Only the push's own code follows it
 * before its trailing barrier, so user code keeps the barriers it had around it. Not the
 * default: without a barrier before its vote ptxas no longer knows the warp converged
 * there and adds divergence checks (the bench compaction's loop of 4 pushes: 5 BAR.SYNC and
 * 251 SASS instructions, 4 and 263 with it); only the GPU can tell which is faster. */
static void
push_fence(tj_kernel *k)
{
    tj_context *c = k->ctx;
    LLVMTypeRef fty = LLVMFunctionType(tji_void(c), NULL, 0, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(k->llmod, TJI_PUSH_FENCE);
    if (!fn) {
        fn = LLVMAddFunction(k->llmod, TJI_PUSH_FENCE, fty);
        tji_add_fn_attr(c, fn, "convergent");
        tji_add_fn_attr(c, fn, "nocallback");
        tji_add_fn_attr(c, fn, "nounwind");
    }
    LLVMBuildCall2(k->llb, fty, fn, NULL, 0, "");
    k->barriers++;
}

/* A warp's vote on 'want' (every running lane of the warp must reach it): this lane's rank
 * among the lanes that want, their number, and the last of them (-1 when none): 31 minus
 * the ballot's leading zeros, one FLO in SASS, where the first (its trailing zeros) took
 * three instructions. */
typedef struct warp_vote {
    LLVMValueRef rank, total, leader;
} warp_vote;

static warp_vote
vote(tj_kernel *k, LLVMValueRef want)
{
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef i32t = tji_i32(k->ctx);
    LLVMValueRef ballot = tji_emit_ballot(k, want);
    LLVMValueRef below = LLVMBuildAnd(b, ballot, tji_emit_lanemask_lt(k), "");
    LLVMValueRef ctlz_args[] = {ballot, LLVMConstInt(tji_i1(k->ctx), 0, 0)};
    LLVMValueRef lz = tji_emit_intrinsic(k, "llvm.ctlz", &i32t, 1, ctlz_args, 2);
    return (warp_vote){
        .rank = tji_emit_intrinsic(k, "llvm.ctpop", &i32t, 1, &below, 1),
        .total = tji_emit_intrinsic(k, "llvm.ctpop", &i32t, 1, &ballot, 1),
        .leader = LLVMBuildSub(b, i32c(k, 31), lz, ""),
    };
}

/* The counter's value before the warp's leader added 'delta' to it (an atomic add), in
 * every lane of the warp; 'bound' (an atomic min or max with 'limit') runs in the leader
 * when its new value passed 'limit'. */
static LLVMValueRef
add_per_warp(tj_kernel *k, const tj_val *s, const warp_vote *v, LLVMValueRef delta,
             tji_atom_op bound, int32_t limit)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMTypeRef i32t = tji_i32(c);
    LLVMValueRef lane_in_warp = LLVMBuildAnd(b, tji_lane(k), i32c(k, 31), "");
    LLVMValueRef basev = tji_alloca(k, i32t, "warp.base");
    tji_cond lead;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, LLVMIntEQ, lane_in_warp, v->leader, ""), &lead);
    const tj_type *i32 = tji_type_scalar(c, TJ_DTYPE_I32);
    LLVMValueRef old = tji_emit_atomic(k, TJI_ATOM_ADD, i32, s->u.stack.count, delta);
    LLVMBuildStore(b, old, basev);
    LLVMValueRef after = LLVMBuildAdd(b, old, delta, "");
    tji_cond past;
    tji_emit_cond_begin(k, LLVMBuildICmp(b, bound == TJI_ATOM_MIN ? LLVMIntSGT : LLVMIntSLT,
                                         after, i32c(k, limit), ""),
                        &past);
    tji_emit_atomic(k, bound, i32, s->u.stack.count, i32c(k, limit));
    tji_emit_cond_end(k, &past);
    tji_emit_cond_end(k, &lead);
    /* no lane voted: leader is -1, the shuffle reads lane 31, which may not run (an
     * undefined value then), and nobody uses the result */
    LLVMValueRef src = LLVMBuildAnd(b, v->leader, i32c(k, 31), "");
    return tji_emit_shfl_idx32(k, LLVMBuildLoad2(b, i32t, basev, ""), src);
}

/* Slots for the lanes whose 'want' holds, with one atomic per warp: a ballot counts the
 * warp's lanes that push, the last of them reserves that many slots, and each takes the
 * base plus its rank among them. Every running lane of the warp must reach it.
 * A leader whose reservation passes the capacity then lowers the counter to it with an
 * atomic min, after its own add. So once every warp is done the counter is exactly
 * min(count + pushed, capacity): the last operation on it is either such a min, or an add
 * that stayed within the capacity (one that passed it is followed by its own min); and
 * once it reaches the capacity it never drops below, so no slot under the capacity is
 * handed out twice. This takes the place of a clamp in lane 0 between two more barriers. */
static LLVMValueRef
reserve_per_warp(tj_kernel *k, const tj_val *s, LLVMValueRef want)
{
    warp_vote v = vote(k, want);
    LLVMValueRef base = add_per_warp(k, s, &v, v.total, TJI_ATOM_MIN, s->u.stack.capacity);
    return LLVMBuildAdd(k->llb, base, v.rank, "slot");
}

tj_val *
tj_tile_stack_push(tj_kernel *k, tj_val *s, tj_val *value, tj_val *has_value)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STACK_PUSH);
    char d[64];
    /* deferring: the CPU's push emits its own leading barrier (push_one_at_a_time) */
    if (!tji_enter_deferring(k, fn) || !check_stack(k, fn, s) || !tji_use(k, value, fn, "value") ||
        !tji_use(k, has_value, fn, "has_value"))
        return NULL;
    if (value->kind != TJ_VAL_SCALAR || value->type != s->type) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'value': %s, the stack holds %s", fn,
                 tji_val_describe(value, d, sizeof d), s->type->name);
        return NULL;
    }
    if (has_value->kind != TJ_VAL_SCALAR || !tji_type_is_scalar(has_value->type) ||
        has_value->type->dtype != TJ_DTYPE_BOOL) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'has_value': %s is not bool", fn,
                 tji_val_describe(has_value, d, sizeof d));
        return NULL;
    }
    if (!tji_lanes_run_concurrently(k))
        return push_one_at_a_time(k, s, value, has_value);
    tji_flush_barrier(k);
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    const tj_type *i32 = tji_type_scalar(c, TJ_DTYPE_I32);
    LLVMValueRef slotv = tji_alloca(k, tji_i32(c), "slot");
    LLVMBuildStore(b, i32c(k, -1), slotv);
    if (k->ctx->gpu_push_fence)
        push_fence(k);
    else
        tji_emit_barrier(k);
    LLVMValueRef slot = reserve_per_warp(k, s, has_value->ll);
    tji_cond cond;
    tji_emit_cond_begin(k, has_value->ll, &cond);
    LLVMValueRef fits = LLVMBuildICmp(b, LLVMIntSLT, slot, i32c(k, s->u.stack.capacity), "");
    tji_cond store;
    tji_emit_cond_begin(k, fits, &store);
    tji_emit_store(k, s->type, value->ll, slot_ptr(k, s, slot));
    LLVMBuildStore(b, slot, slotv);
    tji_emit_cond_end(k, &store);
    tji_emit_cond_end(k, &cond);
    /* the values and the counter, visible to every lane; a push that follows at once
     * shares it as its leading barrier (drop_repeated_barriers, jit/target_nvptx.c) */
    tji_emit_barrier(k);
    return tji_scalar(k, i32, LLVMBuildLoad2(b, tji_i32(c), slotv, "slot"));
}

/* Pop where a block's lanes run one at a time (the CPU): each lane in its turn takes the
 * top slot, if any, and lowers the counter, so lane L takes slot count - 1 - L as on the
 * GPU, and no barrier is needed between the lanes' reads of the counter and its update.
 * The leading barrier keeps the update from lanes still to read the counter before the
 * call (a loop on the count), the trailing one shows it to every lane. */
static tj_val *
pop_one_at_a_time(tj_kernel *k, tj_val *s, tj_val **slot_out)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    tji_emit_barrier(k);
    LLVMValueRef n = LLVMBuildLoad2(b, tji_i32(c), s->u.stack.count, "count");
    LLVMValueRef got = LLVMBuildICmp(b, LLVMIntSGT, n, i32c(k, 0), "");
    LLVMValueRef top = LLVMBuildSub(b, n, i32c(k, 1), "");
    LLVMValueRef slot = LLVMBuildSelect(b, got, top, i32c(k, -1), "slot");
    /* lanes in turn take slots one less each (while the stack has them): jit/lane_loops.c */
    if (LLVMIsAInstruction(slot))
        tji_mark_descending(c, slot);
    LLVMValueRef vslot = tji_alloca(k, s->type->llreg, "popped");
    LLVMBuildStore(b, LLVMConstNull(s->type->llreg), vslot);
    tji_cond cond;
    tji_emit_cond_begin(k, got, &cond);
    LLVMValueRef got_value = tji_emit_load(k, s->type, slot_ptr(k, s, top));
    if (LLVMIsALoadInst(got_value))
        tji_mark_serial_pop(c, got_value); /* for jit/serial_pops.c */
    LLVMBuildStore(b, got_value, vslot);
    tji_emit_cond_end(k, &cond);
    /* Stored whether or not a value went (an empty stack keeps 0): a store every lane
     * makes lets LLVM keep the counter in a register over a loop of lanes. */
    LLVMBuildStore(b, LLVMBuildSelect(b, got, top, n, ""), s->u.stack.count);
    LLVMValueRef value = LLVMBuildLoad2(b, s->type->llreg, vslot, "value");
    tji_emit_barrier(k);
    /* the lane's own code after the pop may join its phase: jit/sink_barriers.c */
    tji_mark_sinkable_barrier(c, LLVMGetLastInstruction(LLVMGetInsertBlock(b)));
    if (slot_out)
        *slot_out = tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), slot);
    return tji_scalar(k, s->type, value);
}

/* The value at 'slot' for a lane that 'got' one, the zero value for the others. */
static LLVMValueRef
read_slot(tj_kernel *k, const tj_val *s, LLVMValueRef got, LLVMValueRef slot)
{
    LLVMBuilderRef b = k->llb;
    LLVMValueRef vslot = tji_alloca(k, s->type->llreg, "popped");
    /* zeroed here, not only at entry: a pop in a loop must not hand out an earlier value */
    LLVMBuildStore(b, LLVMConstNull(s->type->llreg), vslot);
    tji_cond cond;
    tji_emit_cond_begin(k, got, &cond);
    LLVMBuildStore(b, tji_emit_load(k, s->type, slot_ptr(k, s, slot)), vslot);
    tji_emit_cond_end(k, &cond);
    return LLVMBuildLoad2(b, s->type->llreg, vslot, "value");
}

/* Pop with one atomic per warp (the GPU, under TILEJIT_GPU_POP=warp; not yet timed on the
 * GPU, bench/RESULTS.md): the warp's leader subtracts the number of its running lanes from
 * the counter, and lane r of them takes slot old - 1 - r when that is not negative. A
 * leader whose subtraction took the counter below 0 raises it to 0 with an atomic max.
 * Once every warp is done the counter is max(count - running lanes, 0): the last
 * subtraction in the counter's order either stayed at 0 or above, or went below and is
 * followed by its own max; a max only runs when the value went below 0, when every slot
 * down to 0 has been handed out, and no later subtraction starts above 0; so the warps
 * share out the top min(count, running) slots, once each. Two barriers, as the default
 * pop has, and atomics it does without. */
static tj_val *
pop_per_warp(tj_kernel *k, tj_val *s, tj_val **slot_out)
{
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    tji_emit_barrier(k);
    warp_vote v = vote(k, LLVMConstInt(tji_i1(c), 1, 0));
    LLVMValueRef old = add_per_warp(k, s, &v, LLVMBuildNeg(b, v.total, ""), TJI_ATOM_MAX, 0);
    LLVMValueRef mine = LLVMBuildSub(b, LLVMBuildSub(b, old, i32c(k, 1), ""), v.rank, "");
    LLVMValueRef got = LLVMBuildICmp(b, LLVMIntSGE, mine, i32c(k, 0), "");
    LLVMValueRef slot = LLVMBuildSelect(b, got, mine, i32c(k, -1), "slot");
    LLVMValueRef value = read_slot(k, s, got, slot);
    tji_emit_barrier(k);
    if (slot_out)
        *slot_out = tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), slot);
    return tji_scalar(k, s->type, value);
}

tj_val *
tj_tile_stack_pop(tj_kernel *k, tj_val *s, tj_val **slot_out)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STACK_POP);
    if (!tji_enter(k, fn) || !check_stack(k, fn, s))
        return NULL;
    if (!tji_lanes_run_concurrently(k))
        return pop_one_at_a_time(k, s, slot_out);
    if (k->ctx->gpu_warp_pop)
        return pop_per_warp(k, s, slot_out);
    /* No leading barrier: every write of the counter and the data (the declaration, a
     * push, pop or clear) is followed by a barrier of every lane, so the reads below see
     * it, and the only write here, lane 0's, waits for the barrier after every lane's read
     * of the counter and of its slot, here or before the call (a loop's test of the
     * count). The drain of the bench's compaction: two barriers a pop, from three. */
    tj_context *c = k->ctx;
    LLVMBuilderRef b = k->llb;
    LLVMValueRef n = LLVMBuildLoad2(b, tji_i32(c), s->u.stack.count, "count");
    LLVMValueRef lane = tji_lane(k);
    /* lane L takes slot n - 1 - L when L < n */
    LLVMValueRef got = LLVMBuildICmp(b, LLVMIntSLT, lane, n, "");
    LLVMValueRef slot = LLVMBuildSelect(b, got, LLVMBuildSub(b, LLVMBuildSub(b, n, i32c(k, 1), ""),
                                                             lane, ""),
                                        i32c(k, -1), "slot");
    LLVMValueRef value = read_slot(k, s, got, slot);
    tji_emit_barrier(k);
    tji_cond l0;
    lane0_begin(k, &l0);
    LLVMValueRef taken = tji_emit_nactive(k);
    LLVMValueRef left = LLVMBuildSub(b, n, taken, "");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, left, i32c(k, 0), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, neg, i32c(k, 0), left, ""), s->u.stack.count);
    tji_emit_cond_end(k, &l0);
    tji_emit_barrier(k);
    if (slot_out)
        *slot_out = tji_scalar(k, tji_type_scalar(c, TJ_DTYPE_I32), slot);
    return tji_scalar(k, s->type, value);
}

tj_val *
tj_tile_stack_count(tj_kernel *k, tj_val *s)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STACK_COUNT);
    if (!tji_enter(k, fn) || !check_stack(k, fn, s))
        return NULL;
    /* Other lanes write the counter only before barriers, which LLVM does not move loads
     * across (an opaque call on the CPU, bar.sync on the GPU). */
    LLVMValueRef n = LLVMBuildLoad2(k->llb, tji_i32(k->ctx), s->u.stack.count, "count");
    tji_mark_alike(k->ctx, n); /* uniform across the block (SPEC 4): jit/divergence.c */
    return tji_scalar(k, tji_type_scalar(k->ctx, TJ_DTYPE_I32), n);
}

bool
tj_tile_stack_clear(tj_kernel *k, tj_val *s)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_STACK_CLEAR);
    if (!tji_enter(k, fn) || !check_stack(k, fn, s))
        return false;
    tji_emit_barrier(k);
    tji_cond c;
    lane0_begin(k, &c);
    LLVMBuildStore(k->llb, i32c(k, 0), s->u.stack.count);
    tji_emit_cond_end(k, &c);
    tji_emit_barrier(k);
    return true;
}
