/*
 * jit/sink_copies.c: moves a copy into a local array down into the branch that reads it
 * (CPU, after the pipeline).
 *
 * In width-1 mode a block's shared memory and its register tiles are local arrays of the
 * entry. A kernel that assigns a tile into a shared tile and stores the shared tile out
 * (the copy through tile_view / tile_assign) leaves, after O3, a memcpy into the shared
 * array ahead of tile_store's branch: its fast path (the whole tile in bounds, unit stride)
 * is one memmove, which memcpyopt has made read straight from where the copied data came
 * from; only its element-by-element path still reads the shared array. LLVM keeps the
 * memcpy above the branch: dead-store elimination removes a store that is dead on every
 * path, not on one, and its sinking pass moves no instruction that writes memory. So every
 * block paid a 16 KiB copy that nothing read.
 *
 * A call to llvm.memcpy, llvm.memmove or llvm.memset that is not volatile, of a constant
 * size, into a constant offset of an alloca of the entry block, moves from the end of its
 * block B to the top of the successor S of B when:
 *  - nothing after the call in B touches memory, and B is S's only predecessor (so the
 *    call runs on the edge B -> S exactly as before, on the same memory);
 *  - the alloca's address goes only to GEPs, loads, stores (as the address), memory
 *    intrinsics, masked loads and stores and lifetime markers (so every access to it is in
 *    sight);
 *  - no block reachable from B's other successors without passing S accesses the array.
 * Then a call that no longer runs (B went another way) wrote bytes that nothing accesses
 * before the next time B goes to S, where the call writes the same bytes again (constant
 * offset and size): removing it changes nothing anyone reads. A moved call is tried again
 * from its new block.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The intrinsics that touch a local array without letting its address out. */
typedef struct mem_ids {
    unsigned memcpy_id, memmove_id, memset_id, start_id, end_id, mload_id, mstore_id;
} mem_ids;

static mem_ids
mem_ids_get(void)
{
    return (mem_ids){
        .memcpy_id = LLVMLookupIntrinsicID("llvm.memcpy", 11),
        .memmove_id = LLVMLookupIntrinsicID("llvm.memmove", 12),
        .memset_id = LLVMLookupIntrinsicID("llvm.memset", 11),
        .start_id = LLVMLookupIntrinsicID("llvm.lifetime.start", 19),
        .end_id = LLVMLookupIntrinsicID("llvm.lifetime.end", 17),
        .mload_id = LLVMLookupIntrinsicID("llvm.masked.load", 16),
        .mstore_id = LLVMLookupIntrinsicID("llvm.masked.store", 17),
    };
}

typedef struct sinker {
    mem_ids ids;
    tji_vmap uses;              /* blocks that access the array (block -> itself) */
    tji_vmap seen;              /* the walk of the other successors */
    LLVMBasicBlockRef *work;    /* that walk's stack: one slot per block of the function */
} sinker;

unsigned
tji_intrinsic_of(LLVMValueRef call)
{
    LLVMValueRef fn = LLVMGetCalledValue(call);
    return fn && LLVMIsAFunction(fn) ? LLVMGetIntrinsicID(fn) : 0;
}

static bool
is_mem_intrinsic(const mem_ids *ids, unsigned id)
{
    return id && (id == ids->memcpy_id || id == ids->memmove_id || id == ids->memset_id);
}

/* 'p' without GEPs of constant indices; NULL when a GEP has a variable one. */
static LLVMValueRef
constant_base(LLVMValueRef p)
{
    while (LLVMIsAGetElementPtrInst(p)) {
        for (int i = 1, n = LLVMGetNumOperands(p); i < n; i++)
            if (!LLVMIsAConstantInt(LLVMGetOperand(p, (unsigned)i)))
                return NULL;
        p = LLVMGetOperand(p, 0);
    }
    return p;
}

typedef struct local_walk {
    mem_ids ids;
    LLVMValueRef skip;
    tji_vmap *blocks;
} local_walk;

static bool
walk_local(const local_walk *w, LLVMValueRef p)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (user == w->skip)
            continue;
        if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p) {
            if (!walk_local(w, user))
                return false;
            continue;
        }
        bool access = LLVMIsALoadInst(user) ||
                      (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == p &&
                       LLVMGetOperand(user, 0) != p);
        if (!access && LLVMIsACallInst(user)) {
            unsigned id = tji_intrinsic_of(user);
            if (id && (id == w->ids.start_id || id == w->ids.end_id))
                continue;
            /* the vectoriser's masked loads and stores at the address (not of it) */
            access = is_mem_intrinsic(&w->ids, id) ||
                     (id && id == w->ids.mload_id && LLVMGetOperand(user, 0) == p) ||
                     (id && id == w->ids.mstore_id && LLVMGetOperand(user, 1) == p &&
                      LLVMGetOperand(user, 0) != p);
        }
        if (!access)
            return false;
        if (w->blocks) {
            LLVMValueRef bb = LLVMBasicBlockAsValue(LLVMGetInstructionParent(user));
            tji_vmap_put(w->blocks, bb, bb);
        }
    }
    return true;
}

bool
tji_address_stays_local(LLVMValueRef p, LLVMValueRef skip, tji_vmap *blocks)
{
    local_walk w = {.ids = mem_ids_get(), .skip = skip, .blocks = blocks};
    return walk_local(&w, p);
}

/* True when nothing between 'call' and its block's terminator reads or writes memory. */
static bool
quiet_tail(LLVMValueRef call)
{
    for (LLVMValueRef in = LLVMGetNextInstruction(call); in; in = LLVMGetNextInstruction(in)) {
        switch (LLVMGetInstructionOpcode(in)) {
        case LLVMLoad: case LLVMStore: case LLVMCall: case LLVMInvoke: case LLVMCallBr:
        case LLVMAtomicRMW: case LLVMAtomicCmpXchg: case LLVMFence: case LLVMVAArg:
            return false;
        default:
            break;
        }
    }
    return true;
}

/* True when 'b' is the only predecessor of 'to', through one edge. */
static bool
only_edge(LLVMBasicBlockRef b, LLVMBasicBlockRef to)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(to)); u; u = LLVMGetNextUse(u))
        if (LLVMGetUser(u) != term)
            return false;
    int edges = 0;
    for (unsigned i = 0, n = LLVMGetNumSuccessors(term); i < n; i++)
        edges += LLVMGetSuccessor(term, i) == to;
    return edges == 1;
}

/* True when no block reachable from b's successors other than 'to', without passing
 * 'to', is in s->uses. */
static bool
others_never_access(sinker *s, LLVMBasicBlockRef b, LLVMBasicBlockRef to, size_t nblocks)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    memset(s->seen.key, 0, s->seen.cap * sizeof *s->seen.key);
    size_t top = 0;
    LLVMValueRef tv = LLVMBasicBlockAsValue(to);
    tji_vmap_put(&s->seen, tv, tv);
    for (unsigned i = 0, n = LLVMGetNumSuccessors(term); i < n; i++) {
        LLVMValueRef v = LLVMBasicBlockAsValue(LLVMGetSuccessor(term, i));
        if (!tji_vmap_has(&s->seen, v)) {
            tji_vmap_put(&s->seen, v, v);
            s->work[top++] = LLVMGetSuccessor(term, i);
        }
    }
    while (top > 0) {
        LLVMBasicBlockRef bb = s->work[--top];
        if (tji_vmap_has(&s->uses, LLVMBasicBlockAsValue(bb)))
            return false;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        for (unsigned i = 0, n = t ? LLVMGetNumSuccessors(t) : 0; i < n; i++) {
            LLVMBasicBlockRef next = LLVMGetSuccessor(t, i);
            LLVMValueRef v = LLVMBasicBlockAsValue(next);
            if (tji_vmap_has(&s->seen, v))
                continue;
            if (top == nblocks) /* each block goes on the stack once: cannot happen */
                return false;
            tji_vmap_put(&s->seen, v, v);
            s->work[top++] = next;
        }
    }
    return true;
}

/* The successor of call's block that the call can move to, or NULL. */
static LLVMBasicBlockRef
target_of(sinker *s, LLVMValueRef call, size_t nblocks)
{
    LLVMBasicBlockRef b = LLVMGetInstructionParent(call);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
    if (!term || LLVMGetNumSuccessors(term) < 2 || !quiet_tail(call))
        return NULL;
    for (unsigned i = 0, n = LLVMGetNumSuccessors(term); i < n; i++) {
        LLVMBasicBlockRef to = LLVMGetSuccessor(term, i);
        if (only_edge(b, to) && others_never_access(s, b, to, nblocks))
            return to;
    }
    return NULL;
}

/* The alloca of the entry block that 'call' (a memory intrinsic) fills at a constant offset
 * with a constant size, not volatile; NULL for any other call. */
static LLVMValueRef
filled_array(const sinker *s, LLVMValueRef call, LLVMBasicBlockRef entry)
{
    unsigned id = tji_intrinsic_of(call);
    if (!is_mem_intrinsic(&s->ids, id) || LLVMGetNumArgOperands(call) != 4)
        return NULL;
    LLVMValueRef size = LLVMGetArgOperand(call, 2), vol = LLVMGetArgOperand(call, 3);
    if (!LLVMIsAConstantInt(size) || !LLVMIsAConstantInt(vol) || LLVMConstIntGetZExtValue(vol))
        return NULL;
    LLVMValueRef a = constant_base(LLVMGetArgOperand(call, 0));
    if (!a || !LLVMIsAAllocaInst(a) || LLVMGetInstructionParent(a) != entry)
        return NULL;
    if (id != s->ids.memset_id && constant_base(LLVMGetArgOperand(call, 1)) == a)
        return NULL; /* a copy within the array */
    return a;
}

/* Moves 'call' as far down as it can go; true when it moved. */
static bool
sink_call(sinker *s, LLVMBuilderRef bld, LLVMValueRef call, LLVMValueRef array, size_t nblocks)
{
    memset(s->uses.key, 0, s->uses.cap * sizeof *s->uses.key);
    if (!tji_address_stays_local(array, call, &s->uses))
        return false;
    bool moved = false;
    for (LLVMBasicBlockRef to; (to = target_of(s, call, nblocks));) {
        LLVMValueRef at = LLVMGetFirstInstruction(to);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        LLVMInstructionRemoveFromParent(call);
        LLVMPositionBuilderBefore(bld, at);
        LLVMInsertIntoBuilder(bld, call);
        moved = true;
    }
    return moved;
}

static int
sink_function(sinker *s, LLVMBuilderRef bld, LLVMValueRef fn)
{
    size_t nblocks = LLVMCountBasicBlocks(fn);
    if (nblocks < 2)
        return 0;
    memset(&s->uses, 0, sizeof s->uses);
    memset(&s->seen, 0, sizeof s->seen);
    s->work = malloc(nblocks * sizeof *s->work);
    bool ok = s->work && tji_vmap_init(&s->uses, nblocks) && tji_vmap_init(&s->seen, nblocks);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    /* The calls and their arrays, found first: a moved call goes to a later block, where the
     * walk would meet it again. */
    size_t ncalls = 0, cap = 0;
    LLVMValueRef(*found)[2] = NULL;
    for (LLVMBasicBlockRef bb = entry; ok && bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); ok && in;
             in = LLVMGetNextInstruction(in)) {
            LLVMValueRef a = LLVMIsACallInst(in) ? filled_array(s, in, entry) : NULL;
            if (!a)
                continue;
            if (ncalls == cap) {
                cap = cap ? 2 * cap : 8;
                LLVMValueRef(*grown)[2] = realloc(found, cap * sizeof *found);
                ok = grown != NULL;
                found = ok ? grown : found;
            }
            if (ok) {
                found[ncalls][0] = in;
                found[ncalls++][1] = a;
            }
        }
    int moved = 0;
    for (size_t i = 0; ok && i < ncalls; i++)
        moved += sink_call(s, bld, found[i][0], found[i][1], nblocks);
    free(found);
    free(s->work);
    tji_vmap_free(&s->uses);
    tji_vmap_free(&s->seen);
    return moved;
}

int
tji_sink_local_copies(LLVMModuleRef m)
{
    sinker s = {.ids = mem_ids_get()};
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    int moved = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn))
            moved += sink_function(&s, bld, fn);
    LLVMDisposeBuilder(bld);
    return moved;
}
