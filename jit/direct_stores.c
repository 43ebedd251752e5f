/*
 * jit/direct_stores.c: a tile computed into a local array and then copied out whole writes
 * its values to the array instead (CPU, after the pipeline and copy sinking).
 *
 * In width-1 mode a register tile is a local array of the entry. `tile_store(y, a * 2.0 +
 * b)` computes the tile into that array, and tile_store's path for a tile wholly inside
 * its array copies it out: after O3 and jit/sink_copies.c, a block B that computes the
 * values and stores them into the array A, ending in `br whole, S1, S2`, where S1 is
 * `memcpy(D, A + c, n); br X` and S2 is the element-by-element path that reads A. Every
 * value goes through memory twice more than a C loop's (the store into A, and the copy's
 * load and store): with a 1 KiB tile held in L1 a row took about 1.5 times C's loop.
 *
 * When the shape allows it (below), B's body is copied into a new block B1 whose stores
 * into A store the same values into D + (offset - c) instead, and which goes straight to X.
 * B keeps its phis and branches to B1 when the copy's test holds and the arrays B reads
 * allow the new order of reads and writes (at run time: each base that B loads from is
 * either disjoint from [D, D + n) or, where the order of B's accesses allows it, D itself,
 * which is y in y = f(x, y)); else to B2, which holds B's body as it was, S1 and S2 intact.
 * The test and D are computed again at B's top, from copies of the pure instructions of
 * B's body and S1 that make them; the arrays' part of the test is a select on the copy's
 * own test, so that a D made only for the copy (poison where it would not run) is not read.
 *
 * The shape:
 *  - S1 holds the memcpy (constant size, not volatile) from a constant offset c of an
 *    alloca A of the entry block, then an unconditional branch to X, after pure
 *    instructions used only in S1 (copy sinking brings the GEP of D down with the copy);
 *    S1 has no phis and is reached only from B, by one edge; B's other successor S2 has no
 *    phis; neither is B.
 *  - B's branch condition and D are made outside B's body and S1, or by pure instructions
 *    there from such values (so they can be computed at B's top); every value B's body
 *    makes is used only by instructions of that body (so B1 and B2 can each have their
 *    own copy), none by a phi.
 *  - B's body stores into A at constant offsets, plain stores that cover [c, c + n) exactly,
 *    each byte once, and stores nothing else; it loads from other memory at constant offsets
 *    of at most MAX_BASES bases made outside its body; its calls touch no memory.
 *  - A is dead after S1: from X, no block that accesses A is reached before one that ends
 *    its lifetime (the markers that width-1 entries put around each block's arrays).
 * Then in B1 the values reach D in the order they reached A, and D's bytes are the memcpy's.
 * Loads of B1 that come after a store to D read, by the run-time test, either other memory
 * or, for a base equal to D, bytes that no earlier store in B1 wrote (checked here, in B's
 * order; a base whose loads do not pass must be disjoint from D).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { MAX_BASES = 8 };

/* A base that B's body loads from: bytes [lo, hi) of it; 'same': B1 may run when the base
 * is D itself. */
typedef struct base_use {
    LLVMValueRef base;
    int64_t lo, hi;
    bool same;
} base_use;

/* A store of B's body into A: bytes [off, off + size) of A. */
typedef struct piece {
    LLVMValueRef store;
    int64_t off, size;
} piece;

typedef struct shape {
    LLVMTargetDataRef td;
    LLVMBasicBlockRef b, s1, s2, x;
    LLVMValueRef copy, alloca, dst, cond;
    bool s1_on_true;
    int64_t c, n;
    base_use bases[MAX_BASES];
    int nbases;
    piece *pieces;
    int npieces, cap;
    unsigned memory_kind;
} shape;

/* 'p' as base + a constant byte offset, through GEPs of constant indices. */
static LLVMValueRef
split_address(LLVMTargetDataRef td, LLVMValueRef p, int64_t *off)
{
    tji_address a;
    tji_split_address(td, p, 0, &a);
    *off = a.off;
    return a.base;
}

static bool
in_block(LLVMValueRef v, LLVMBasicBlockRef bb)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == bb;
}

/* In bb, after its phis. */
static bool
in_body(LLVMValueRef v, LLVMBasicBlockRef bb)
{
    return in_block(v, bb) && !LLVMIsAPHINode(v);
}

/* Whether 'in' neither touches memory nor has other effects (a GEP, a cast, arithmetic). */
static bool
is_pure(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMGetElementPtr: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMAdd: case LLVMSub: case LLVMMul:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMICmp: case LLVMSelect: case LLVMFreeze:
        return true;
    default:
        return false;
    }
}

/* Whether 'bb' is `pure instructions; memcpy(D, A + c, n); br X` with A an alloca of the
 * entry block, the pure ones used only in 'bb' (they compute D: copy sinking moves a GEP of
 * the destination down with the copy); fills the copy's part of 's'. */
static bool
copy_block(shape *s, LLVMBasicBlockRef bb, LLVMBasicBlockRef entry, unsigned memcpy_id)
{
    LLVMValueRef call = LLVMGetFirstInstruction(bb);
    for (; call && !LLVMIsACallInst(call); call = LLVMGetNextInstruction(call)) {
        if (!is_pure(call))
            return false;
        for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u))
            if (!in_body(LLVMGetUser(u), bb))
                return false;
    }
    if (!call || tji_intrinsic_of(call) != memcpy_id)
        return false;
    LLVMValueRef br = LLVMGetNextInstruction(call);
    if (!br || !LLVMIsABranchInst(br) || LLVMIsConditional(br))
        return false;
    LLVMValueRef size = LLVMGetArgOperand(call, 2), vol = LLVMGetArgOperand(call, 3);
    if (!LLVMIsAConstantInt(size) || !LLVMIsAConstantInt(vol) || LLVMConstIntGetZExtValue(vol))
        return false;
    LLVMValueRef a = split_address(s->td, LLVMGetArgOperand(call, 1), &s->c);
    if (!LLVMIsAAllocaInst(a) || LLVMGetInstructionParent(a) != entry)
        return false;
    s->copy = call;
    s->alloca = a;
    s->dst = LLVMGetArgOperand(call, 0);
    s->n = (int64_t)LLVMConstIntGetZExtValue(size);
    s->s1 = bb;
    s->x = LLVMGetSuccessor(br, 0);
    return s->n > 0;
}

/* Whether 'v' can be computed at B's top: made outside B's body and S1, or by a pure
 * instruction there (the test often is, and D in S1) from such values. */
static bool
hoistable(const shape *s, LLVMValueRef v, int depth)
{
    if (!in_body(v, s->b) && !in_block(v, s->s1))
        return true;
    if (depth == 8 || !is_pure(v))
        return false;
    for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
        if (!hoistable(s, LLVMGetOperand(v, (unsigned)i), depth + 1))
            return false;
    return true;
}

/* B: the only predecessor of S1, through one edge, ending in `br cond, S1, S2`. */
static bool
branch_block(shape *s)
{
    LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(s->s1));
    if (!u || LLVMGetNextUse(u))
        return false;
    LLVMValueRef term = LLVMGetUser(u);
    if (!LLVMIsABranchInst(term) || !LLVMIsConditional(term))
        return false;
    LLVMBasicBlockRef t = LLVMGetSuccessor(term, 0), f = LLVMGetSuccessor(term, 1);
    if (t == f)
        return false;
    s->b = LLVMGetInstructionParent(term);
    s->s1_on_true = t == s->s1;
    s->s2 = s->s1_on_true ? f : t;
    s->cond = LLVMGetCondition(term);
    LLVMValueRef first2 = LLVMGetFirstInstruction(s->s2);
    return s->s2 != s->b && s->s1 != s->b && !(first2 && LLVMIsAPHINode(first2)) &&
           hoistable(s, s->cond, 0) && hoistable(s, s->dst, 0);
}

static base_use *
base_of(shape *s, LLVMValueRef base)
{
    for (int i = 0; i < s->nbases; i++)
        if (s->bases[i].base == base)
            return &s->bases[i];
    if (s->nbases == MAX_BASES)
        return NULL;
    base_use *u = &s->bases[s->nbases++];
    *u = (base_use){.base = base, .lo = INT64_MAX, .hi = INT64_MIN, .same = true};
    return u;
}

/* A load of bytes [off, off + size) of 'base': its extent, and whether it comes after a
 * store to D that a base equal to D would see (then the base must be disjoint from D). */
static bool
note_load(shape *s, LLVMValueRef base, int64_t off, int64_t size)
{
    /* A's address reaches nothing but GEPs and accesses (dead_after checks it), so only a
     * GEP of it, at any index, reads it. */
    LLVMValueRef root = base;
    while (LLVMIsAGetElementPtrInst(root))
        root = LLVMGetOperand(root, 0);
    if (root == s->alloca || in_body(base, s->b))
        return false;
    base_use *u = base_of(s, base);
    if (!u)
        return false;
    u->lo = off < u->lo ? off : u->lo;
    u->hi = off + size > u->hi ? off + size : u->hi;
    for (int i = 0; i < s->npieces; i++) {
        int64_t o = s->pieces[i].off - s->c;
        if (off < o + s->pieces[i].size && o < off + size)
            u->same = false;
    }
    return true;
}

static bool
note_store(shape *s, LLVMValueRef st)
{
    int64_t off;
    if (split_address(s->td, LLVMGetOperand(st, 1), &off) != s->alloca || LLVMGetVolatile(st))
        return false;
    int64_t size = (int64_t)LLVMStoreSizeOfType(s->td, LLVMTypeOf(LLVMGetOperand(st, 0)));
    if (off < s->c || off + size > s->c + s->n)
        return false;
    if (s->npieces == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        piece *grown = realloc(s->pieces, (size_t)s->cap * sizeof *grown);
        if (!grown)
            return false;
        s->pieces = grown;
    }
    s->pieces[s->npieces++] = (piece){.store = st, .off = off, .size = size};
    return true;
}

/* Whether a call of B's body touches no memory (memory(none)), or is a masked load. */
static bool
note_call(shape *s, LLVMValueRef call, unsigned mload_id)
{
    if (tji_intrinsic_of(call) == mload_id) {
        int64_t off;
        LLVMValueRef base = split_address(s->td, LLVMGetArgOperand(call, 0), &off);
        return note_load(s, base, off, (int64_t)LLVMStoreSizeOfType(s->td, LLVMTypeOf(call)));
    }
    LLVMValueRef fn = LLVMGetCalledValue(call);
    if (!fn || !LLVMIsAFunction(fn))
        return false;
    LLVMAttributeRef mem = LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                                       s->memory_kind);
    return mem && LLVMGetEnumAttributeValue(mem) == 0;
}

static int
by_offset(const void *pa, const void *pb)
{
    const piece *a = pa, *b = pb;
    return (a->off > b->off) - (a->off < b->off);
}

/* Reads B's body: its loads, its stores into A, and that its values stay in it. */
static bool
read_body(shape *s, unsigned mload_id)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(s->b);
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->b); in; in = LLVMGetNextInstruction(in)) {
        if (LLVMIsAPHINode(in) || in == term)
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!in_body(user, s->b))
                return false;
        }
        bool ok = true;
        switch (LLVMGetInstructionOpcode(in)) {
        case LLVMLoad: {
            int64_t off;
            LLVMValueRef base = split_address(s->td, LLVMGetOperand(in, 0), &off);
            ok = !LLVMGetVolatile(in) && LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic &&
                 note_load(s, base, off, (int64_t)LLVMStoreSizeOfType(s->td, LLVMTypeOf(in)));
            break;
        }
        case LLVMStore:
            ok = LLVMGetOrdering(in) == LLVMAtomicOrderingNotAtomic && note_store(s, in);
            break;
        case LLVMCall:
            ok = note_call(s, in, mload_id);
            break;
        case LLVMInvoke: case LLVMCallBr: case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
        case LLVMFence: case LLVMVAArg:
            ok = false;
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    if (s->npieces == 0)
        return false;
    qsort(s->pieces, (size_t)s->npieces, sizeof *s->pieces, by_offset);
    int64_t at = s->c;
    for (int i = 0; i < s->npieces; i++) {
        if (s->pieces[i].off != at)
            return false;
        at += s->pieces[i].size;
    }
    return at == s->c + s->n;
}

/* The blocks holding lifetime markers of 'p' (an alloca, or GEPs of it). */
static void
marker_blocks(LLVMValueRef p, unsigned start_id, unsigned end_id, tji_vmap *kills)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAGetElementPtrInst(user)) {
            marker_blocks(user, start_id, end_id, kills);
        } else if (LLVMIsACallInst(user)) {
            unsigned id = tji_intrinsic_of(user);
            if (id && (id == start_id || id == end_id)) {
                LLVMValueRef bb = LLVMBasicBlockAsValue(LLVMGetInstructionParent(user));
                tji_vmap_put(kills, bb, bb);
            }
        }
    }
}

/* Whether A is dead after the copy: from X, no block that accesses A (other than by its
 * lifetime markers) is reached before one with a marker. */
static bool
dead_after(shape *s, size_t nblocks, unsigned start_id, unsigned end_id)
{
    tji_vmap uses = {0}, kills = {0}, seen = {0};
    LLVMBasicBlockRef *work = malloc(nblocks * sizeof *work);
    bool ok = work && tji_vmap_init(&uses, nblocks) && tji_vmap_init(&kills, nblocks) &&
              tji_vmap_init(&seen, nblocks) && tji_address_stays_local(s->alloca, NULL, &uses);
    if (ok)
        marker_blocks(s->alloca, start_id, end_id, &kills);
    size_t top = 0;
    if (ok) {
        work[top++] = s->x;
        tji_vmap_put(&seen, LLVMBasicBlockAsValue(s->x), LLVMBasicBlockAsValue(s->x));
    }
    while (ok && top > 0) {
        LLVMBasicBlockRef bb = work[--top];
        LLVMValueRef v = LLVMBasicBlockAsValue(bb);
        if (tji_vmap_has(&uses, v)) {
            ok = false;
            break;
        }
        if (tji_vmap_has(&kills, v))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        for (unsigned i = 0, n = t ? LLVMGetNumSuccessors(t) : 0; i < n; i++) {
            LLVMValueRef next = LLVMBasicBlockAsValue(LLVMGetSuccessor(t, i));
            if (tji_vmap_has(&seen, next))
                continue;
            tji_vmap_put(&seen, next, next);
            work[top++] = LLVMGetSuccessor(t, i);
        }
    }
    free(work);
    tji_vmap_free(&uses);
    tji_vmap_free(&kills);
    tji_vmap_free(&seen);
    return ok;
}

static LLVMValueRef
as_int(LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef p)
{
    return LLVMBuildPtrToInt(bld, p, LLVMInt64TypeInContext(c), "");
}

/* At the end of B: the copy's own test, and for each base that it is disjoint from [D,
 * D + n), or D itself where its loads allow. The bases' tests are a select's value on the
 * copy's test: where the copy would not run, D may be poison (an inbounds GEP past the
 * array), which an 'and' would pass on. */
static LLVMValueRef
run_time_test(shape *s, LLVMBuilderRef bld, LLVMContextRef c, LLVMValueRef dst)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMValueRef copies = s->s1_on_true ? s->cond : LLVMBuildNot(bld, s->cond, "");
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(c), 1, 0);
    LLVMValueRef d = as_int(bld, c, dst);
    LLVMValueRef d_end = LLVMBuildAdd(bld, d, LLVMConstInt(i64, (uint64_t)s->n, 0), "");
    for (int i = 0; i < s->nbases; i++) {
        const base_use *u = &s->bases[i];
        LLVMValueRef p = as_int(bld, c, u->base);
        LLVMValueRef lo = LLVMBuildAdd(bld, p, LLVMConstInt(i64, (uint64_t)u->lo, 1), "");
        LLVMValueRef hi = LLVMBuildAdd(bld, p, LLVMConstInt(i64, (uint64_t)u->hi, 1), "");
        LLVMValueRef apart = LLVMBuildOr(bld, LLVMBuildICmp(bld, LLVMIntULE, hi, d, ""),
                                         LLVMBuildICmp(bld, LLVMIntULE, d_end, lo, ""), "");
        if (u->same)
            apart = LLVMBuildOr(bld, apart, LLVMBuildICmp(bld, LLVMIntEQ, p, d, ""), "");
        ok = LLVMBuildAnd(bld, ok, apart, "");
    }
    return LLVMBuildSelect(bld, copies, ok, LLVMConstInt(LLVMInt1TypeInContext(c), 0, 0),
                           "direct.ok");
}

/* Unsigned alignment of D + off, from the memcpy's alignment of D. */
static unsigned
dst_align(const shape *s, unsigned align_kind, int64_t off)
{
    LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(s->copy, 1, align_kind);
    uint64_t al = a ? LLVMGetEnumAttributeValue(a) : 1;
    while (al > 1 && off % (int64_t)al)
        al /= 2;
    return (unsigned)(al ? al : 1);
}

/* Copies 'in' at the builder's place, its operands through 'map' (which then takes it). */
static void
clone_into(LLVMBuilderRef bld, tji_vmap *map, LLVMValueRef in)
{
    LLVMValueRef copy = LLVMInstructionClone(in);
    for (int i = 0, n = LLVMGetNumOperands(copy); i < n; i++)
        LLVMSetOperand(copy, (unsigned)i, tji_vmap_get(map, LLVMGetOperand(copy, (unsigned)i)));
    LLVMInsertIntoBuilder(bld, copy);
    tji_vmap_put(map, in, copy);
}

/* 'v' at B's top (hoistable): copies of what B's body or S1 made, through 'top'. */
static LLVMValueRef
hoist(const shape *s, LLVMBuilderRef bld, tji_vmap *top, LLVMValueRef v)
{
    if (!in_body(v, s->b) && !in_block(v, s->s1))
        return v;
    if (!tji_vmap_has(top, v)) {
        for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++)
            hoist(s, bld, top, LLVMGetOperand(v, (unsigned)i));
        clone_into(bld, top, v);
    }
    return tji_vmap_get(top, v);
}

static void
rewrite(shape *s, LLVMBuilderRef bld, LLVMValueRef fn)
{
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMBasicBlockRef b1 = LLVMAppendBasicBlockInContext(c, fn, "direct");
    LLVMBasicBlockRef b2 = LLVMAppendBasicBlockInContext(c, fn, "through");
    LLVMMoveBasicBlockAfter(b2, s->b);
    LLVMMoveBasicBlockAfter(b1, s->b);
    /* B's body (and terminator) moves to B2 as it is; B1 gets a copy of the body. */
    size_t nbody = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->b); in; in = LLVMGetNextInstruction(in))
        nbody++;
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->s1); in; in = LLVMGetNextInstruction(in))
        nbody++;
    tji_vmap map = {0}, top = {0};
    if (!tji_vmap_init(&map, nbody) || !tji_vmap_init(&top, nbody)) {
        tji_vmap_free(&map);
        tji_vmap_free(&top);
        return; /* out of memory: nothing changed */
    }
    LLVMValueRef first = LLVMGetFirstInstruction(s->b);
    while (first && LLVMIsAPHINode(first))
        first = LLVMGetNextInstruction(first);
    /* B keeps its phis and copies of what makes the test and D, made before the body moves
     * (hoist copies what is in B's body or S1), in front of it so that they stay. */
    LLVMPositionBuilderBefore(bld, first);
    LLVMValueRef dst = hoist(s, bld, &top, s->dst);
    s->cond = hoist(s, bld, &top, s->cond);
    LLVMPositionBuilderAtEnd(bld, b1);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(s->b);
    for (LLVMValueRef in = first; in != term; in = LLVMGetNextInstruction(in))
        clone_into(bld, &map, in);
    LLVMBuildBr(bld, s->x);
    LLVMPositionBuilderAtEnd(bld, b2);
    for (LLVMValueRef in = first, next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMInstructionRemoveFromParent(in);
        LLVMInsertIntoBuilder(bld, in);
    }
    /* and the test */
    LLVMPositionBuilderAtEnd(bld, s->b);
    LLVMBuildCondBr(bld, run_time_test(s, bld, c, dst), b1, b2);
    /* B1's stores into A store into D. */
    unsigned align_kind = LLVMGetEnumAttributeKindForName("align", 5);
    unsigned kinds[] = {LLVMGetMDKindIDInContext(c, "alias.scope", 11),
                        LLVMGetMDKindIDInContext(c, "noalias", 7),
                        LLVMGetMDKindIDInContext(c, "tbaa", 4)};
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), i64 = LLVMInt64TypeInContext(c);
    for (int i = 0; i < s->npieces; i++) {
        LLVMValueRef st = tji_vmap_get(&map, s->pieces[i].store);
        int64_t off = s->pieces[i].off - s->c;
        LLVMPositionBuilderBefore(bld, st);
        LLVMValueRef idx = LLVMConstInt(i64, (uint64_t)off, 1);
        LLVMValueRef p = off ? LLVMBuildGEP2(bld, i8, dst, &idx, 1, "") : dst;
        LLVMSetOperand(st, 1, p);
        LLVMSetAlignment(st, dst_align(s, align_kind, off));
        for (size_t k = 0; k < TJI_NELEMS(kinds); k++)
            LLVMSetMetadata(st, kinds[k], NULL);
    }
    /* X's phis: what they took from S1 they take from B1 too. */
    for (LLVMValueRef phi = LLVMGetFirstInstruction(s->x); phi && LLVMIsAPHINode(phi);
         phi = LLVMGetNextInstruction(phi))
        for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n; i++)
            if (LLVMGetIncomingBlock(phi, i) == s->s1) {
                LLVMValueRef v = LLVMGetIncomingValue(phi, i);
                v = tji_vmap_has(&top, v) ? tji_vmap_get(&top, v) : tji_vmap_get(&map, v);
                LLVMAddIncoming(phi, &v, &b1, 1);
                break;
            }
    tji_vmap_free(&map);
    tji_vmap_free(&top);
}

int
tji_direct_tile_stores(LLVMModuleRef m)
{
    unsigned memcpy_id = LLVMLookupIntrinsicID("llvm.memcpy", 11);
    unsigned mload_id = LLVMLookupIntrinsicID("llvm.masked.load", 16);
    unsigned start_id = LLVMLookupIntrinsicID("llvm.lifetime.start", 19);
    unsigned end_id = LLVMLookupIntrinsicID("llvm.lifetime.end", 17);
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        size_t nblocks = LLVMCountBasicBlocks(fn);
        LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
        /* The candidates first: the rewrite adds blocks. */
        size_t ncand = 0;
        LLVMBasicBlockRef *cand = malloc(nblocks * sizeof *cand);
        for (LLVMBasicBlockRef bb = entry; cand && bb; bb = LLVMGetNextBasicBlock(bb)) {
            shape s = {.td = td};
            if (copy_block(&s, bb, entry, memcpy_id))
                cand[ncand++] = bb;
        }
        for (size_t i = 0; i < ncand; i++) {
            shape s = {.td = td, .memory_kind = LLVMGetEnumAttributeKindForName("memory", 6)};
            bool ok = copy_block(&s, cand[i], entry, memcpy_id) && branch_block(&s) &&
                      read_body(&s, mload_id) &&
                      dead_after(&s, LLVMCountBasicBlocks(fn), start_id, end_id);
            if (ok) {
                rewrite(&s, bld, fn);
                done++;
            }
            free(s.pieces);
        }
        free(cand);
    }
    LLVMDisposeBuilder(bld);
    return done;
}
