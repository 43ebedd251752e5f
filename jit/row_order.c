/*
 * jit/row_order.c: a cooperative CPU block's lanes reading the rows of a tile one after
 * the other (after the pipeline).
 *
 * A register tile of a cooperative block gives lane l the elements l, l + W, l + 2W, ... of
 * a row-major tile (SPEC 3), so a lane reads one element of every row: the vectorised
 * lanes' loop of a tile_load reads the block's tile a column of vectors at a time, R rows,
 * R streams W elements apart. From L3 that costs little; from memory the hardware
 * prefetchers do not follow R streams: on 64 MiB the bench's cooperative sum ran at
 * 0.53-0.58 of C and its copy at 0.43-0.65 (0.80 and 0.82 on 4 MiB). C models of the sum's
 * 4096-element blocks (bench/RESULTS.md, "2026-12-05 (day)"): on 64 MiB 3.4-4.4 ms a column
 * of vectors at a time, 1.8-2.6 row by row with the partials in registers, C's own loop
 * 1.8-2.6; on 4 MiB 48-49 us, 42.1-42.5 and 41.7-42.0. Two forms of such a loop change.
 *
 * The lanes' loop is, as O3 and the vectoriser leave it, one block B (tj.lanes) with an i64
 * counter j from 0 by a constant step to W, of vectors of VF lanes.
 *
 * Folds (the whole-tile tile_reduce of tile_load's values): each store of B puts a vector
 * into a per-lane array A ([W x T] alloca, GEP(A, 0, j') with j' the counter plus a
 * constant: one per copy of the unrolled body) and its value is a left fold
 *     op(...op(op(L_0, L_1), L_2)..., L_{R-1})
 * of one binary operation (no division), each L_r a vector load at GEP(T, P_r, j') from a
 * pointer P_r from outside the loop (a row), P_r not into a per-lane array of B; besides,
 * B may only store vectors from outside into other per-lane arrays (the lanes' resume
 * points). Where the W / VF vectors of lanes fit the registers (MAX_GROUPS), B becomes
 *     part[g] = L_0(g VF) for each g
 *     for r in 1 .. R - 1: part[g] = op(part[g], L_r(g VF)) for each g (P_r: rows_table)
 *     A[g VF] = part[g] for each g; the other stores, for every lane
 * and where they do not (AVX2's 32 vectors of 8 at W = 256), the partials stay in A:
 *     A[j] = op(L_0(j), L_1(j)) for each vector j of lanes
 *     for r in 2 .. R - 1: A[j] = op(A[j], L_r(j)) for each j; the other stores
 * which reads the rows in order, one stream (on AMD Zen 3, 64 MiB: the bench's cooperative
 * sum 4.3-5.4 ms a column of vectors at a time, 3.9-5.1 so; 4 MiB, from L3, alike).
 * Every lane folds the same elements in the same order (the same value, to the bit); with a
 * reassociable operation the rows' order may be their order in memory instead (rows_table).
 * But where A is read only as one total of all its elements (a tile_reduce's lanes in turn:
 * tji_turn_fold_op) the stores to A and back cost a quarter of that loop's time, and the
 * whole tile is folded as one instead (fold_whole): for each row, in order, a loop over
 * the lanes adding into four vector accumulators; then A's first vector is their total
 * and every other lane's element the identity (64 MiB, same host: 0.67-0.83 of C ->
 * 0.84-0.88).
 *
 * Copies (tile_load, then tile_store or tile_assign of the same elements): B's stores each
 * put a row's vector load, at GEP(T, Q, j + c_r [+ s]) from GEP(T, P, j + c_r [+ t]) (P, Q,
 * s, t from outside, the same for every row), one vector a step, the rows' c_r W apart at
 * least (no store overwrites another's element), and the vectoriser's scopes say that no
 * load reads what a store writes (it tested the arrays apart before the loop). B becomes
 *     for each row r: for j (four vectors a step): Q[j + c_r + s] = P[j + c_r + t]
 * The same stores of the same values; the loads see no store either way.
 */
#include <stdint.h>
#include <string.h>

#include "internal.h"

enum {
    MIN_ROWS = 4,     /* fewer rows a fold: few streams */
    MAX_ROWS = 64,
    MAX_STORES = 8,   /* copies of the unrolled body */
    /* vectors of lanes whose partials the new loop keeps in registers (x86-64 has 16 or 32
     * vector registers); wider blocks keep their loop */
    MAX_GROUPS = 16,
    COPY_UNROLL = 4,  /* vectors a step of a row's copy */
    GROUP_UNROLL = 4, /* vectors a step of a fold's loop over the lanes in memory */
    MAX_IDENTITY_LANES = 64, /* of a whole fold's vectors (AVX-512 has 64 bytes) */
};

typedef struct fold {
    LLVMValueRef store;             /* the store, of the fold's value */
    LLVMValueRef index;             /* its element of A: the counter plus a constant */
    LLVMValueRef ops[MAX_ROWS];     /* ops[r]: the operation that adds row r (r >= 1) */
} fold;

typedef struct rows {
    tj_context *ctx;
    LLVMBuilderRef b;
    LLVMBasicBlockRef body, pre, exit;
    LLVMValueRef iv, next, cond;
    unsigned long long step, width;
    LLVMOpcode op;
    LLVMValueRef array;             /* A */
    LLVMTypeRef elem;               /* T, the loads' element type */
    LLVMValueRef row[MAX_ROWS];     /* P_r */
    int nrows;
    fold folds[MAX_STORES];
    int nfolds;
    LLVMTypeRef vty;                /* the folds' vectors (the first fold's) */
    unsigned aalign;                /* and their stores' alignment */
    LLVMValueRef fills[MAX_STORES]; /* stores of a value from outside into a per-lane array */
    int nfills;
    /* copies: row k's load and store, at the counter plus off[k] plus 'inv' */
    LLVMValueRef cload[MAX_ROWS], cstore[MAX_ROWS];
    unsigned long long off[MAX_ROWS];
    LLVMValueRef inv, sinv, src, dst; /* inv, sinv: the loads' and stores' value, or NULL */
    int ncopies;
    long long stride;               /* bytes from each P_r to the next, where it is one
                                     * constant (row_stride), else 0 */
} rows;

/* The lanes a vector of the folds holds. */
static unsigned
fold_vf(const rows *s)
{
    return LLVMGetVectorSize(s->vty);
}

static bool
is_const(LLVMValueRef v, unsigned long long *out)
{
    if (!LLVMIsAConstantInt(v))
        return false;
    *out = LLVMConstIntGetZExtValue(v);
    return true;
}

/* Whether 'v' is the counter, or the counter plus a constant (an add, or an or of bits the
 * counter's steps leave clear). */
static bool
counter_plus(const rows *s, LLVMValueRef v)
{
    if (v == s->iv)
        return true;
    unsigned long long c;
    LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet;
    if ((op != LLVMAdd && op != LLVMOr) || LLVMGetInstructionParent(v) != s->body ||
        LLVMGetOperand(v, 0) != s->iv || !is_const(LLVMGetOperand(v, 1), &c) || c >= s->step)
        return false;
    /* an or adds where the counter's steps, a power of two, leave the bits clear */
    return op == LLVMAdd || (s->step & (s->step - 1)) == 0;
}

/* The constant that index 'v' (counter_plus) adds to the counter. */
static unsigned long long
offset_of(const rows *s, LLVMValueRef v)
{
    return v == s->iv ? 0 : LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1));
}

/* Whether the stores 'st' (n of them, of vectors of 'vf' lanes into one array) write every
 * lane of a step once: their offsets are 0, vf, 2 vf, ... up to the step. */
static bool
cover_a_step(const rows *s, const LLVMValueRef *st, int n, unsigned vf)
{
    if ((unsigned long long)n * vf != s->step)
        return false;
    unsigned long long seen = 0; /* a bit for each of at most MAX_STORES vectors */
    for (int i = 0; i < n; i++) {
        unsigned long long off = offset_of(s, LLVMGetOperand(LLVMGetOperand(st[i], 1), 2));
        if (off % vf != 0 || (seen >> (off / vf) & 1))
            return false;
        seen |= 1ull << (off / vf);
    }
    return true;
}

/* Whether 'v' is defined outside the loop (it dominates it: the loop's preheader is its
 * only way in). */
static bool
outside(const rows *s, LLVMValueRef v)
{
    return !LLVMIsAInstruction(v) || LLVMGetInstructionParent(v) != s->body;
}

/* The row pointer of load 'ld', read at element 'j' of 'elem': GEP(elem, P, j) with P from
 * outside, not into 'array'; NULL otherwise. */
static LLVMValueRef
row_of(const rows *s, LLVMValueRef ld, LLVMTypeRef elem, LLVMValueRef j, LLVMValueRef array)
{
    if (!LLVMIsALoadInst(ld) || LLVMGetVolatile(ld) ||
        LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        LLVMGetInstructionParent(ld) != s->body || !LLVMGetFirstUse(ld) ||
        LLVMGetNextUse(LLVMGetFirstUse(ld)))
        return NULL;
    LLVMValueRef g = LLVMGetOperand(ld, 0);
    if (!LLVMIsAGetElementPtrInst(g) || LLVMGetNumOperands(g) != 2 ||
        LLVMGetGEPSourceElementType(g) != elem || LLVMGetOperand(g, 1) != j ||
        !outside(s, LLVMGetOperand(g, 0)))
        return NULL;
    LLVMValueRef p = LLVMGetOperand(g, 0);
    return tji_pointer_base(p) == array ? NULL : p;
}

/* The operations a fold may repeat: no division (nothing that traps). */
static bool
fold_op(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMFAdd: case LLVMFSub: case LLVMFMul:
        return true;
    default:
        return false;
    }
}

/* Whether operations 'a' and 'b' carry the same flags, so that one clone does for both. */
static bool
same_flags(LLVMValueRef a, LLVMValueRef b)
{
    if (LLVMCanValueUseFastMathFlags(a))
        return LLVMGetFastMathFlags(a) == LLVMGetFastMathFlags(b);
    switch (LLVMGetInstructionOpcode(a)) { /* the operations with wrap flags (and, or, xor: none) */
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        return LLVMGetNSW(a) == LLVMGetNSW(b) && LLVMGetNUW(a) == LLVMGetNUW(b);
    default:
        return true;
    }
}

/* Matches store 'st' and its fold (the file's comment) into s->folds[s->nfolds]; changes
 * nothing in 's' otherwise. */
static bool
match_fold(rows *s, LLVMValueRef st)
{
    if (s->nfolds == MAX_STORES || LLVMGetVolatile(st) ||
        LLVMGetOrdering(st) != LLVMAtomicOrderingNotAtomic)
        return false;
    fold f = {.store = st};
    LLVMValueRef dst = LLVMGetOperand(st, 1), v = LLVMGetOperand(st, 0);
    unsigned long long zero;
    if (!LLVMIsAGetElementPtrInst(dst) || LLVMGetNumOperands(dst) != 3 ||
        !LLVMIsAAllocaInst(LLVMGetOperand(dst, 0)) || !is_const(LLVMGetOperand(dst, 1), &zero) ||
        zero != 0 || !counter_plus(s, LLVMGetOperand(dst, 2)) ||
        LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind)
        return false;
    LLVMValueRef a = LLVMGetOperand(dst, 0);
    if (s->array && s->array != a)
        return false;
    f.index = LLVMGetOperand(dst, 2);
    /* down the left operands, from the last row to the first two */
    int r = 0;
    LLVMOpcode op = s->op;
    LLVMValueRef rev[MAX_ROWS];
    while (LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == s->body &&
           LLVMIsABinaryOperator(v)) {
        LLVMOpcode o = LLVMGetInstructionOpcode(v);
        if (r == MAX_ROWS - 1 || !fold_op(o) || (op && op != o) || !LLVMGetFirstUse(v) ||
            LLVMGetNextUse(LLVMGetFirstUse(v)) || (r > 0 && !same_flags(v, rev[0])))
            return false;
        op = o;
        rev[r++] = v;
        v = LLVMGetOperand(v, 0);
    }
    if (r + 1 < MIN_ROWS || (s->nrows && s->nrows != r + 1))
        return false;
    LLVMTypeRef elem = LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(st, 0)));
    if (s->elem && s->elem != elem)
        return false;
    /* rev[r - 1] = op(L_0, L_1), rev[0] = op(..., L_R-1) */
    LLVMValueRef row[MAX_ROWS];
    for (int k = 0; k <= r; k++) {
        LLVMValueRef ld = k == 0 ? LLVMGetOperand(rev[r - 1], 0) : LLVMGetOperand(rev[r - k], 1);
        row[k] = row_of(s, ld, elem, f.index, a);
        if (!row[k] || (s->nrows && s->row[k] != row[k]))
            return false;
        if (k > 0)
            f.ops[k] = rev[r - k];
    }
    memcpy(s->row, row, sizeof row[0] * (size_t)(r + 1));
    s->nrows = r + 1;
    s->op = op;
    s->elem = elem;
    s->array = a;
    if (s->nfolds == 0) {
        s->vty = LLVMTypeOf(LLVMGetOperand(st, 0));
        s->aalign = LLVMGetAlignment(st);
    }
    s->folds[s->nfolds++] = f;
    return true;
}

/* A store of a vector from outside the loop into another per-lane array, at the counter
 * plus a constant (the lanes' resume points): the new loop's exit fills that array. */
static bool
match_fill(rows *s, LLVMValueRef st)
{
    LLVMValueRef dst = LLVMGetOperand(st, 1), v = LLVMGetOperand(st, 0);
    unsigned long long zero;
    if (s->nfills == MAX_STORES || LLVMGetVolatile(st) ||
        LLVMGetOrdering(st) != LLVMAtomicOrderingNotAtomic || !outside(s, v) ||
        LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind ||
        s->width % LLVMGetVectorSize(LLVMTypeOf(v)) != 0 || !LLVMIsAGetElementPtrInst(dst) ||
        LLVMGetNumOperands(dst) != 3 || !LLVMIsAAllocaInst(LLVMGetOperand(dst, 0)) ||
        !is_const(LLVMGetOperand(dst, 1), &zero) || zero != 0 ||
        !counter_plus(s, LLVMGetOperand(dst, 2)))
        return false;
    s->fills[s->nfills++] = st;
    return true;
}

/* Whether 'in' belongs to a matched fold: its store, operations, loads or their GEPs. */
static bool
in_folds(const rows *s, LLVMValueRef in)
{
    for (int i = 0; i < s->nfills; i++) {
        LLVMValueRef dst = LLVMGetOperand(s->fills[i], 1);
        if (in == s->fills[i] || in == dst || in == LLVMGetOperand(dst, 2))
            return true;
    }
    for (int i = 0; i < s->nfolds; i++) {
        const fold *f = &s->folds[i];
        if (in == f->store || in == f->index || in == LLVMGetOperand(f->store, 1))
            return true;
        for (int k = 1; k < s->nrows; k++) {
            LLVMValueRef op = f->ops[k];
            if (in == op)
                return true;
            for (unsigned o = 0; o < 2; o++) {
                LLVMValueRef ld = LLVMGetOperand(op, o);
                if (LLVMIsALoadInst(ld) && (in == ld || in == LLVMGetOperand(ld, 0)))
                    return true;
            }
        }
    }
    return false;
}

/* B's loop control: one phi, the counter from 0 (from the preheader) and 'next' = counter
 * + step from B; the latch 'next == W' to the exit, else B. */
static bool
match_loop(rows *s, LLVMBasicBlockRef bb)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(bb);
    if (!br || !LLVMIsABranchInst(br) || !LLVMIsConditional(br) ||
        LLVMGetSuccessor(br, 1) != bb || LLVMGetSuccessor(br, 0) == bb)
        return false;
    s->body = bb;
    s->exit = LLVMGetSuccessor(br, 0);
    s->cond = LLVMGetCondition(br);
    s->iv = LLVMGetFirstInstruction(bb);
    if (!LLVMIsAPHINode(s->iv) || LLVMCountIncoming(s->iv) != 2 ||
        LLVMIsAPHINode(LLVMGetNextInstruction(s->iv)))
        return false;
    unsigned long long start = 1;
    for (unsigned i = 0; i < 2; i++) {
        LLVMBasicBlockRef from = LLVMGetIncomingBlock(s->iv, i);
        LLVMValueRef v = LLVMGetIncomingValue(s->iv, i);
        if (from == bb)
            s->next = v;
        else if (!is_const(v, &start))
            return false;
        else
            s->pre = from;
    }
    if (start != 0 || !s->pre || !s->next || !LLVMIsAInstruction(s->next) ||
        LLVMGetInstructionOpcode(s->next) != LLVMAdd || LLVMGetOperand(s->next, 0) != s->iv ||
        !is_const(LLVMGetOperand(s->next, 1), &s->step) || s->step == 0)
        return false;
    if (!LLVMIsAICmpInst(s->cond) || LLVMGetICmpPredicate(s->cond) != LLVMIntEQ ||
        LLVMGetOperand(s->cond, 0) != s->next ||
        !is_const(LLVMGetOperand(s->cond, 1), &s->width) || s->width % s->step != 0)
        return false;
    /* the exit takes nothing from B */
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        for (LLVMUseRef u = LLVMGetFirstUse(in); u; u = LLVMGetNextUse(u))
            if (LLVMGetInstructionParent(LLVMGetUser(u)) != bb)
                return false;
    return true;
}

static bool
takes(rows *s, LLVMBasicBlockRef bb)
{
    if (!match_loop(s, bb))
        return false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAStoreInst(in) && !match_fold(s, in) && !match_fill(s, in))
            return false;
    if (s->nfolds == 0)
        return false;
    /* the rows read no per-lane array that the loop writes */
    for (int i = 0; i < s->nfills; i++)
        for (int r = 0; r < s->nrows; r++)
            if (tji_pointer_base(s->row[r]) == LLVMGetOperand(LLVMGetOperand(s->fills[i], 1), 0))
                return false;
    unsigned vf = fold_vf(s);
    if (s->width % vf != 0)
        return false;
    /* the new loop writes every lane's element of each array: so must B */
    LLVMValueRef st[MAX_STORES];
    for (int i = 0; i < s->nfolds; i++)
        st[i] = s->folds[i].store;
    if (!cover_a_step(s, st, s->nfolds, vf))
        return false;
    for (int i = 0; i < s->nfills; i++) {
        LLVMValueRef arr = LLVMGetOperand(LLVMGetOperand(s->fills[i], 1), 0);
        int n = 0;
        for (int k = 0; k < s->nfills; k++)
            if (LLVMGetOperand(LLVMGetOperand(s->fills[k], 1), 0) == arr)
                st[n++] = s->fills[k];
        if (!cover_a_step(s, st, n, LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(s->fills[i], 0)))))
            return false;
    }
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (in != s->iv && in != s->next && in != s->cond &&
            in != LLVMGetBasicBlockTerminator(bb) && !in_folds(s, in))
            return false;
    return true;
}

/* The phis of 'bb' without their edges from 'from': each built again without them. */
static void
drop_incoming(rows *s, LLVMBasicBlockRef bb, LLVMBasicBlockRef from)
{
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in && LLVMIsAPHINode(in)) {
        LLVMValueRef next = LLVMGetNextInstruction(in);
        LLVMPositionBuilderBefore(s->b, in);
        LLVMValueRef phi = LLVMBuildPhi(s->b, LLVMTypeOf(in), "");
        for (unsigned i = 0, n = LLVMCountIncoming(in); i < n; i++) {
            LLVMBasicBlockRef at = LLVMGetIncomingBlock(in, i);
            LLVMValueRef v = LLVMGetIncomingValue(in, i);
            if (at != from)
                LLVMAddIncoming(phi, &v, &at, 1);
        }
        size_t len;
        const char *name = LLVMGetValueName2(in, &len);
        LLVMReplaceAllUsesWith(in, phi);
        LLVMSetValueName2(phi, name, len);
        LLVMInstructionEraseFromParent(in);
        in = next;
    }
}

/* Puts the new code from 'first' to 'last' (which goes on to the exit) in B's place: the
 * preheader enters it, the exit's phis take it for B, and B goes (its values have no uses
 * outside it: match_loop). */
static void
replace_loop(rows *s, LLVMBasicBlockRef first, LLVMBasicBlockRef last)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(s->pre);
    for (unsigned k = 0, n = LLVMGetNumSuccessors(t); k < n; k++)
        if (LLVMGetSuccessor(t, k) == s->body)
            LLVMSetSuccessor(t, k, first);
    tji_phis_take_edge(s->exit, s->body, last);
    for (LLVMValueRef in = LLVMGetFirstInstruction(s->body); in; in = LLVMGetNextInstruction(in))
        if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind)
            LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
    drop_incoming(s, s->exit, s->body);
    LLVMDeleteBasicBlock(s->body);
}

/* A table of 'n' elements of type 'elem' in the function's entry (an alloca); table_at:
 * the address of its element 'k', at the builder. */
static LLVMValueRef
entry_table(rows *s, LLVMTypeRef elem, int n, const char *name)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(s->body);
    LLVMPositionBuilderBefore(s->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
    return LLVMBuildAlloca(s->b, LLVMArrayType2(elem, (unsigned)n), name);
}

static LLVMValueRef
table_at(rows *s, LLVMValueRef table, LLVMValueRef k)
{
    LLVMValueRef idx[] = {LLVMConstInt(LLVMTypeOf(k), 0, 0), k};
    return LLVMBuildInBoundsGEP2(s->b, LLVMGetAllocatedType(table), table, idx, 2, "");
}

/* Whether a and b differ by a constant: the same base and the same variable terms. */
static bool
same_terms(const tji_address *a, const tji_address *b)
{
    if (a->base != b->base || a->nvars != b->nvars)
        return false;
    bool used[TJI_ADDRESS_TERMS] = {false};
    for (int i = 0; i < a->nvars; i++) {
        int j = 0;
        while (j < b->nvars && (used[j] || b->var[j] != a->var[i] || b->scale[j] != a->scale[i]))
            j++;
        if (j == b->nvars)
            return false;
        used[j] = true;
    }
    return true;
}

/* The bytes from each row's pointer to the next, where row r is at row 0 plus r times one
 * constant (a tile's rows); else 0. A fold by a reassociable operation (balance.c) may
 * combine its rows in any order: its rows are first put in their order in memory (LLVM's
 * passes may have reordered the operands of an integer sum). */
static long long
row_stride(rows *s)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(s->body);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    tji_address at[MAX_ROWS];
    if (s->nrows < 2)
        return 0;
    for (int r = 0; r < s->nrows; r++) {
        tji_split_address(td, s->row[r], TJI_ADDRESS_TERMS, &at[r]);
        if (!same_terms(&at[0], &at[r]))
            return 0;
    }
    if (tji_reassociable(s->folds[0].ops[1]))
        for (int i = 1; i < s->nrows; i++)
            for (int j = i; j > 0 && at[j].off < at[j - 1].off; j--) {
                tji_address a = at[j];
                at[j] = at[j - 1];
                at[j - 1] = a;
                LLVMValueRef p = s->row[j];
                s->row[j] = s->row[j - 1];
                s->row[j - 1] = p;
            }
    long long d = at[1].off - at[0].off;
    for (int r = 1; r < s->nrows; r++)
        if (d == 0 || at[r].off - at[0].off != d * r)
            return 0;
    return d;
}

/* The rows' pointers from row 'from' on, for the loop over the rows (row_at): where they are
 * evenly apart (row_stride), computed from row 0 ('*table' NULL); else in a table in the
 * function's entry ('*table'). Returns a new block "rows.first", which stores the table, the
 * builder at its end. Through the table each row's loads depend on a
 * load: the bench's cooperative sum ran at 0.72-0.87 of C on 64 MiB with it and 0.92-1.06
 * without (4 MiB: 0.81, 0.87-0.88; alternating runs on an AMD Zen 4, bench/RESULTS.md). */
static LLVMBasicBlockRef
rows_table(rows *s, int from, LLVMValueRef *table)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(s->ctx->llctx);
    s->stride = row_stride(s);
    *table = s->stride ? NULL : entry_table(s, LLVMTypeOf(s->row[0]), s->nrows, "rows.table");
    LLVMBasicBlockRef first = LLVMInsertBasicBlockInContext(s->ctx->llctx, s->exit, "rows.first");
    LLVMPositionBuilderAtEnd(s->b, first);
    for (int r = from; *table && r < s->nrows; r++)
        LLVMBuildStore(s->b, s->row[r], table_at(s, *table, LLVMConstInt(i32, (unsigned)r, 0)));
    return first;
}

/* At the builder: the address of element 'at' (of the counter's type) of per-lane array
 * 'arr' (A or another). */
static LLVMValueRef
lanes_at(rows *s, LLVMValueRef arr, LLVMValueRef at)
{
    LLVMValueRef ai[] = {LLVMConstInt(LLVMTypeOf(at), 0, 0), at};
    return LLVMBuildInBoundsGEP2(s->b, LLVMGetAllocatedType(arr), arr, ai, 2, "");
}

/* At the builder: the element of the k-th vector of a step at 'j' (j + k VF). */
static LLVMValueRef
step_at(rows *s, LLVMValueRef j, unsigned k)
{
    return LLVMBuildAdd(s->b, j,
                        LLVMConstInt(LLVMTypeOf(j), (unsigned long long)k * fold_vf(s), 0), "");
}

/* At the builder: stores vector 'v' at A's element 'at', as B stored its folds. */
static void
store_lanes(rows *s, LLVMValueRef v, LLVMValueRef at)
{
    LLVMSetAlignment(LLVMBuildStore(s->b, v, lanes_at(s, s->array, at)), s->aalign);
}

/* At the builder: row 'r''s pointer, from row 0 and the stride or from the rows' table
 * (rows_table). */
static LLVMValueRef
row_at(rows *s, LLVMValueRef table, LLVMValueRef r)
{
    if (!table) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(s->ctx->llctx);
        LLVMValueRef off = LLVMBuildMul(s->b, LLVMBuildZExt(s->b, r, i64, ""),
                                        LLVMConstInt(i64, (unsigned long long)s->stride, 1), "");
        return LLVMBuildGEP2(s->b, LLVMInt8TypeInContext(s->ctx->llctx), s->row[0], &off, 1,
                             "rows.row");
    }
    return LLVMBuildLoad2(s->b, LLVMTypeOf(s->row[0]), table_at(s, table, r), "rows.row");
}

/* At the builder: the vector of row 'row' at element 'at', with the alignment of B's row
 * loads. */
static LLVMValueRef
row_vector(rows *s, LLVMValueRef row, LLVMValueRef at)
{
    LLVMValueRef ld = LLVMBuildLoad2(s->b, s->vty, LLVMBuildGEP2(s->b, s->elem, row, &at, 1, ""),
                                     "rows.load");
    LLVMSetAlignment(ld, LLVMGetAlignment(LLVMGetOperand(s->folds[0].ops[1], 1)));
    return ld;
}

/* At the builder: op(a, b), the fold's operation with its flags. */
static LLVMValueRef
apply_fold(rows *s, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef op = LLVMInstructionClone(s->folds[0].ops[1]);
    LLVMSetOperand(op, 0, a);
    LLVMSetOperand(op, 1, b);
    LLVMInsertIntoBuilder(s->b, op);
    return op;
}

/* B's fills, after the new loop ('done', the builder at its end): each array's first
 * fill, at every lane. */
static void
fill_lanes(rows *s)
{
    LLVMTypeRef ity = LLVMTypeOf(s->iv);
    for (int i = 0; i < s->nfills; i++) {
        LLVMValueRef fill = s->fills[i], arr = LLVMGetOperand(LLVMGetOperand(fill, 1), 0);
        bool again = false;
        for (int k = 0; k < i && !again; k++)
            again = LLVMGetOperand(LLVMGetOperand(s->fills[k], 1), 0) == arr;
        LLVMValueRef v = LLVMGetOperand(fill, 0);
        unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
        for (unsigned long long e = 0; !again && e < s->width; e += n) {
            LLVMValueRef st = LLVMBuildStore(s->b, v, lanes_at(s, arr, LLVMConstInt(ity, e, 0)));
            LLVMSetAlignment(st, LLVMGetAlignment(fill));
        }
    }
}

/* A loop over the lanes entered from 'from' (the builder at its end), GROUP_UNROLL
 * vectors a step where they divide the lanes, the step's first at element '*j' (a phi; '*u'
 * vectors a step): the loop's block, the builder there. close_lanes ends it, going on to
 * 'to'. */
static LLVMBasicBlockRef
open_lanes(rows *s, LLVMBasicBlockRef from, const char *name, LLVMValueRef *j, unsigned *u)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef ity = LLVMTypeOf(s->iv);
    LLVMBasicBlockRef loop = LLVMInsertBasicBlockInContext(c, s->exit, name);
    LLVMBuildBr(s->b, loop);
    LLVMPositionBuilderAtEnd(s->b, loop);
    *j = LLVMBuildPhi(s->b, ity, "rows.j");
    LLVMValueRef zero = LLVMConstInt(ity, 0, 0);
    LLVMAddIncoming(*j, &zero, &from, 1);
    *u = s->width / fold_vf(s) % GROUP_UNROLL == 0 ? GROUP_UNROLL : 1;
    return loop;
}

static void
close_lanes(rows *s, LLVMBasicBlockRef loop, LLVMValueRef j, unsigned u, LLVMBasicBlockRef to)
{
    LLVMTypeRef ity = LLVMTypeOf(s->iv);
    LLVMValueRef j2 =
        LLVMBuildAdd(s->b, j, LLVMConstInt(ity, (unsigned long long)u * fold_vf(s), 0), "");
    LLVMBuildCondBr(s->b, LLVMBuildICmp(s->b, LLVMIntEQ, j2, LLVMConstInt(ity, s->width, 0), ""),
                    to, loop);
    LLVMAddIncoming(j, &j2, &loop, 1);
}

/* Replaces B, where its vectors of lanes are more than the registers hold (MAX_GROUPS), by
 * loops that keep the partials in A: A = op(row 0, row 1), then for each further row r, A =
 * op(A, row r), a loop over the lanes each (MIN_ROWS >= 3). The rows are read in order,
 * each from its start to its end, one stream; every lane folds its elements in B's order. */
static void
fold_in_memory(rows *s)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMValueRef table;
    LLVMBasicBlockRef first = rows_table(s, 2, &table);
    /* A = op(row 0, row 1) */
    LLVMValueRef j;
    unsigned u;
    LLVMBasicBlockRef init = open_lanes(s, first, "rows.init", &j, &u);
    for (unsigned k = 0; k < u; k++) {
        LLVMValueRef at = step_at(s, j, k);
        LLVMValueRef l0 = row_vector(s, s->row[0], at);
        store_lanes(s, apply_fold(s, l0, row_vector(s, s->row[1], at)), at);
    }
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(c, s->exit, "rows.row");
    close_lanes(s, init, j, u, head);
    /* for each further row, in order */
    LLVMPositionBuilderAtEnd(s->b, head);
    LLVMValueRef r = LLVMBuildPhi(s->b, i32, "rows.r");
    LLVMValueRef one = LLVMConstInt(i32, 1, 0), two = LLVMConstInt(i32, 2, 0);
    LLVMAddIncoming(r, &two, &init, 1);
    LLVMValueRef row = row_at(s, table, r);
    LLVMBasicBlockRef loop = open_lanes(s, head, "rows.fold", &j, &u);
    for (unsigned k = 0; k < u; k++) {
        LLVMValueRef at = step_at(s, j, k);
        LLVMValueRef part = LLVMBuildLoad2(s->b, s->vty, lanes_at(s, s->array, at), "rows.part");
        LLVMSetAlignment(part, s->aalign);
        store_lanes(s, apply_fold(s, part, row_vector(s, row, at)), at);
    }
    LLVMBasicBlockRef latch = LLVMInsertBasicBlockInContext(c, s->exit, "rows.next");
    close_lanes(s, loop, j, u, latch);
    LLVMPositionBuilderAtEnd(s->b, latch);
    LLVMValueRef r2 = LLVMBuildAdd(s->b, r, one, "");
    LLVMBasicBlockRef done = LLVMInsertBasicBlockInContext(c, s->exit, "rows.done");
    LLVMBuildCondBr(s->b, LLVMBuildICmp(s->b, LLVMIntULT, r2,
                                        LLVMConstInt(i32, (unsigned)s->nrows, 0), ""),
                    head, done);
    LLVMAddIncoming(r, &r2, &latch, 1);
    LLVMPositionBuilderAtEnd(s->b, done);
    fill_lanes(s);
    LLVMBuildBr(s->b, s->exit);
    replace_loop(s, first, done);
}

/* Whether A is read only as one total of all its elements by B's operation (the lanes'
 * turns at a tile_reduce, lane_loops.c's tji_turn_fold_op), an operation that is
 * associative and commutative as B uses it (floats with reassoc). */
static bool
read_as_one_total(const rows *s)
{
    return tji_turn_fold_op(s->array) == s->op && fold_vf(s) <= MAX_IDENTITY_LANES &&
           tji_reassociable(s->folds[0].ops[1]);
}

/* The identity of B's operation (read_as_one_total's), a vector of type 'vty'. */
static LLVMValueRef
identity(const rows *s, LLVMTypeRef vty)
{
    LLVMTypeRef t = LLVMGetElementType(vty);
    LLVMValueRef e;
    switch (s->op) {
    case LLVMMul: e = LLVMConstInt(t, 1, 0); break;
    case LLVMAnd: e = LLVMConstAllOnes(t); break;
    case LLVMFAdd: e = LLVMConstReal(t, -0.0); break; /* x + -0.0 is x, -0.0 too */
    case LLVMFMul: e = LLVMConstReal(t, 1.0); break;
    default: e = LLVMConstNull(t); break;
    }
    unsigned n = LLVMGetVectorSize(vty);
    LLVMValueRef el[MAX_IDENTITY_LANES];
    for (unsigned i = 0; i < n; i++)
        el[i] = e;
    return LLVMConstVector(el, n);
}

/* At the builder: op(a, b) as apply_fold, in an order other than B's (tji_forget_order). */
static LLVMValueRef
apply_reordered(rows *s, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef op = apply_fold(s, a, b);
    tji_forget_order(op);
    return op;
}

/* Replaces B, where A is read only as one total of all its elements (read_as_one_total), by
 * one fold of the whole tile: for each row in order, for each step of the lanes, acc[k] =
 * op(acc[k], row r (j + k VF)), GROUP_UNROLL accumulators from the identity; then A's first
 * VF lanes = op(op(acc[0], acc[1]), ...) and the others the identity. The rows are read in
 * order with nothing stored between them, as a C loop over the block's elements does: the
 * lanes' partials are not each lane's own any more, but their total is the tile's, combined
 * in another order (which the operation allows: SPEC 4). */
static void
fold_whole(rows *s)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ity = LLVMTypeOf(s->iv), vty = s->vty;
    unsigned vf = fold_vf(s);
    LLVMValueRef id = identity(s, vty);
    LLVMValueRef table;
    LLVMBasicBlockRef first = rows_table(s, 0, &table);
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(c, s->exit, "rows.row");
    LLVMBuildBr(s->b, head);
    /* for each row, in order: its loads into the accumulators */
    LLVMPositionBuilderAtEnd(s->b, head);
    LLVMValueRef r = LLVMBuildPhi(s->b, i32, "rows.r");
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMAddIncoming(r, &zero, &first, 1);
    LLVMValueRef acc[GROUP_UNROLL], part[GROUP_UNROLL], next[GROUP_UNROLL];
    unsigned u = s->width / vf % GROUP_UNROLL == 0 ? GROUP_UNROLL : 1;
    for (unsigned k = 0; k < u; k++) {
        acc[k] = LLVMBuildPhi(s->b, vty, "rows.acc");
        LLVMAddIncoming(acc[k], &id, &first, 1);
    }
    LLVMValueRef row = row_at(s, table, r);
    LLVMValueRef j;
    unsigned uu;
    LLVMBasicBlockRef loop = open_lanes(s, head, "rows.whole", &j, &uu);
    for (unsigned k = 0; k < u; k++) {
        part[k] = LLVMBuildPhi(s->b, vty, "rows.part");
        LLVMAddIncoming(part[k], &acc[k], &head, 1);
    }
    for (unsigned k = 0; k < u; k++) {
        LLVMValueRef at = step_at(s, j, k);
        next[k] = apply_reordered(s, part[k], row_vector(s, row, at));
        LLVMAddIncoming(part[k], &next[k], &loop, 1);
    }
    LLVMBasicBlockRef latch = LLVMInsertBasicBlockInContext(c, s->exit, "rows.next");
    close_lanes(s, loop, j, uu, latch);
    LLVMPositionBuilderAtEnd(s->b, latch);
    LLVMValueRef r2 = LLVMBuildAdd(s->b, r, LLVMConstInt(i32, 1, 0), "");
    LLVMBasicBlockRef done = LLVMInsertBasicBlockInContext(c, s->exit, "rows.done");
    LLVMBuildCondBr(s->b, LLVMBuildICmp(s->b, LLVMIntULT, r2,
                                        LLVMConstInt(i32, (unsigned)s->nrows, 0), ""),
                    head, done);
    LLVMAddIncoming(r, &r2, &latch, 1);
    for (unsigned k = 0; k < u; k++)
        LLVMAddIncoming(acc[k], &next[k], &latch, 1);
    /* the accumulators, in pairs, into A's first lanes; the identity in the others */
    LLVMPositionBuilderAtEnd(s->b, done);
    for (unsigned n = u; n > 1; n /= 2)
        for (unsigned k = 0; k < n / 2; k++)
            next[k] = apply_reordered(s, next[2 * k], next[2 * k + 1]);
    for (unsigned long long e = 0; e < s->width; e += vf)
        store_lanes(s, e == 0 ? next[0] : id, LLVMConstInt(ity, e, 0));
    fill_lanes(s);
    LLVMBuildBr(s->b, s->exit);
    replace_loop(s, first, done);
}

/* Replaces B by the loops of the file's comment, between the preheader and the exit. */
static void
fold_by_rows(rows *s)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ity = LLVMTypeOf(s->iv);
    LLVMTypeRef vty = s->vty;
    unsigned vf = fold_vf(s);
    int groups = (int)(s->width / vf);
    LLVMValueRef table;
    LLVMBasicBlockRef first = rows_table(s, 1, &table);
    LLVMBasicBlockRef loop = LLVMInsertBasicBlockInContext(c, s->exit, "rows.fold");
    LLVMBasicBlockRef done = LLVMInsertBasicBlockInContext(c, s->exit, "rows.done");
    LLVMPositionBuilderAtEnd(s->b, first);
    /* row 0: each group's vector of lanes */
    LLVMValueRef acc[MAX_GROUPS], part[MAX_GROUPS];
    for (int g = 0; g < groups; g++)
        acc[g] = row_vector(s, s->row[0], LLVMConstInt(ity, (unsigned long long)g * vf, 0));
    LLVMBuildBr(s->b, loop);
    /* rows 1 .. R - 1, one after the other: the partials in registers */
    LLVMPositionBuilderAtEnd(s->b, loop);
    LLVMValueRef r = LLVMBuildPhi(s->b, i32, "rows.r");
    LLVMValueRef one = LLVMConstInt(i32, 1, 0);
    LLVMAddIncoming(r, &one, &first, 1);
    for (int g = 0; g < groups; g++) {
        part[g] = LLVMBuildPhi(s->b, vty, "rows.part");
        LLVMAddIncoming(part[g], &acc[g], &first, 1);
    }
    LLVMValueRef row = row_at(s, table, r);
    for (int g = 0; g < groups; g++)
        acc[g] = apply_fold(
            s, part[g], row_vector(s, row, LLVMConstInt(ity, (unsigned long long)g * vf, 0)));
    LLVMValueRef r2 = LLVMBuildAdd(s->b, r, one, "");
    LLVMValueRef more = LLVMBuildICmp(s->b, LLVMIntULT, r2,
                                      LLVMConstInt(i32, (unsigned)s->nrows, 0), "");
    LLVMBuildCondBr(s->b, more, loop, done);
    LLVMAddIncoming(r, &r2, &loop, 1);
    for (int g = 0; g < groups; g++)
        LLVMAddIncoming(part[g], &acc[g], &loop, 1);
    /* each lane's fold into A, as B stored it */
    LLVMPositionBuilderAtEnd(s->b, done);
    for (int g = 0; g < groups; g++)
        store_lanes(s, acc[g], LLVMConstInt(ity, (unsigned long long)g * vf, 0));
    fill_lanes(s);
    LLVMBuildBr(s->b, s->exit);
    replace_loop(s, first, done);
}

/* ---- copies ---------------------------------------------------------------------------- */

/* Whether 'list' (an access's !alias.scope or !noalias, as a value) and 'other' share a
 * scope. */
static bool
share_scope(LLVMValueRef list, LLVMValueRef other)
{
    if (!list || !other)
        return false;
    unsigned n = LLVMGetMDNodeNumOperands(list), m = LLVMGetMDNodeNumOperands(other);
    LLVMValueRef a[16], b[16];
    if (n > 16 || m > 16)
        return false;
    LLVMGetMDNodeOperands(list, a);
    LLVMGetMDNodeOperands(other, b);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < m; k++)
            if (a[i] && a[i] == b[k])
                return true;
    return false;
}

/* Whether store 'st' may not alias load 'ld' by their scoped metadata: the store is noalias
 * to a scope of the load's (as the vectoriser marks the accesses of a loop whose runtime
 * checks found its arrays apart). */
static bool
apart(const rows *s, LLVMValueRef ld, LLVMValueRef st)
{
    LLVMContextRef c = s->ctx->llctx;
    unsigned scope = LLVMGetMDKindIDInContext(c, "alias.scope", 11);
    unsigned noalias = LLVMGetMDKindIDInContext(c, "noalias", 7);
    return share_scope(LLVMGetMetadata(st, noalias), LLVMGetMetadata(ld, scope)) ||
           share_scope(LLVMGetMetadata(ld, noalias), LLVMGetMetadata(st, scope));
}

/* Index 'v' of a copy: the counter, plus a constant or not, plus a value from outside or
 * not; the constant in '*off', the value in '*inv' (NULL: none). */
static bool
copy_index(const rows *s, LLVMValueRef v, unsigned long long *off, LLVMValueRef *inv)
{
    *off = 0;
    *inv = NULL;
    if (v != s->iv && LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == s->body &&
        LLVMGetInstructionOpcode(v) == LLVMAdd && outside(s, LLVMGetOperand(v, 1)) &&
        !LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
        *inv = LLVMGetOperand(v, 1);
        v = LLVMGetOperand(v, 0);
    }
    if (v == s->iv)
        return true;
    return LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == s->body &&
           LLVMGetInstructionOpcode(v) == LLVMAdd && LLVMGetOperand(v, 0) == s->iv &&
           is_const(LLVMGetOperand(v, 1), off);
}

/* A row's copy: store 'st' of a vector load, at GEP(T, pointer from outside, copy_index)
 * each, with the same constant; every row's load with the same pointer and value from
 * outside, and every row's store. */
static bool
match_copy(rows *s, LLVMValueRef st)
{
    LLVMValueRef ld = LLVMGetOperand(st, 0), q = LLVMGetOperand(st, 1);
    if (s->ncopies == MAX_ROWS || LLVMGetVolatile(st) ||
        LLVMGetOrdering(st) != LLVMAtomicOrderingNotAtomic || !LLVMIsALoadInst(ld) ||
        LLVMGetInstructionParent(ld) != s->body || LLVMGetVolatile(ld) ||
        LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic ||
        LLVMGetTypeKind(LLVMTypeOf(ld)) != LLVMVectorTypeKind ||
        LLVMGetNextUse(LLVMGetFirstUse(ld)))
        return false;
    LLVMValueRef p = LLVMGetOperand(ld, 0);
    if (!LLVMIsAGetElementPtrInst(p) || !LLVMIsAGetElementPtrInst(q) ||
        LLVMGetNumOperands(p) != 2 || LLVMGetNumOperands(q) != 2 ||
        LLVMGetGEPSourceElementType(p) != LLVMGetGEPSourceElementType(q) ||
        !outside(s, LLVMGetOperand(p, 0)) || !outside(s, LLVMGetOperand(q, 0)))
        return false;
    unsigned long long off, soff;
    LLVMValueRef inv, sinv;
    if (!copy_index(s, LLVMGetOperand(p, 1), &off, &inv) ||
        !copy_index(s, LLVMGetOperand(q, 1), &soff, &sinv) || off != soff)
        return false;
    if (s->ncopies > 0 && (s->src != LLVMGetOperand(p, 0) || s->dst != LLVMGetOperand(q, 0) ||
                           s->inv != inv || s->sinv != sinv ||
                           s->elem != LLVMGetGEPSourceElementType(p)))
        return false;
    s->src = LLVMGetOperand(p, 0);
    s->dst = LLVMGetOperand(q, 0);
    s->inv = inv;
    s->sinv = sinv;
    s->elem = LLVMGetGEPSourceElementType(p);
    s->cload[s->ncopies] = ld;
    s->cstore[s->ncopies] = st;
    s->off[s->ncopies++] = off;
    return true;
}

/* Whether 'in' is the index of access 'mem' (a load or store) or a part of it. */
static bool
index_part(LLVMValueRef in, LLVMValueRef mem)
{
    LLVMValueRef g = LLVMGetOperand(mem, LLVMIsALoadInst(mem) ? 0 : 1);
    LLVMValueRef idx = LLVMGetOperand(g, 1);
    return in == g || in == idx ||
           (LLVMIsAInstruction(idx) && LLVMGetNumOperands(idx) == 2 &&
            in == LLVMGetOperand(idx, 0));
}

/* B copies rows (the file's comment): every store a row's copy, one vector a step (no
 * unrolled body), each row's elements W apart at least from every other row's (no store
 * overwrites another), every load apart from every store by their scopes, and nothing else
 * in B but the indices, addresses and loop control. */
static bool
takes_copies(rows *s, LLVMBasicBlockRef bb)
{
    if (!match_loop(s, bb))
        return false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAStoreInst(in) && !match_copy(s, in))
            return false;
    if (s->ncopies < MIN_ROWS ||
        LLVMGetVectorSize(LLVMTypeOf(s->cload[0])) != s->step)
        return false;
    for (int k = 0; k < s->ncopies; k++) {
        if (LLVMTypeOf(s->cload[k]) != LLVMTypeOf(s->cload[0]))
            return false;
        for (int l = 0; l < s->ncopies; l++) {
            unsigned long long d = s->off[k] > s->off[l] ? s->off[k] - s->off[l]
                                                         : s->off[l] - s->off[k];
            if ((l != k && d < s->width) || !apart(s, s->cload[k], s->cstore[l]))
                return false;
        }
    }
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (in == s->iv || in == s->next || in == s->cond || in == LLVMGetBasicBlockTerminator(bb))
            continue;
        bool known = false;
        for (int k = 0; k < s->ncopies && !known; k++)
            known = in == s->cload[k] || in == s->cstore[k] || index_part(in, s->cload[k]) ||
                    index_part(in, s->cstore[k]);
        if (!known)
            return false;
    }
    return true;
}

/* Replaces B by a loop over its rows, each copied with a loop over the lanes. */
static void
copy_by_rows(rows *s)
{
    LLVMContextRef c = s->ctx->llctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), ity = LLVMTypeOf(s->iv);
    LLVMTypeRef vty = LLVMTypeOf(s->cload[0]);
    LLVMValueRef table = entry_table(s, ity, s->ncopies, "rows.offsets");
    LLVMBasicBlockRef first = LLVMInsertBasicBlockInContext(c, s->exit, "rows.first");
    LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(c, s->exit, "rows.row");
    LLVMBasicBlockRef loop = LLVMInsertBasicBlockInContext(c, s->exit, "rows.copy");
    LLVMBasicBlockRef latch = LLVMInsertBasicBlockInContext(c, s->exit, "rows.next");
    LLVMPositionBuilderAtEnd(s->b, first);
    for (int k = 0; k < s->ncopies; k++)
        LLVMBuildStore(s->b, LLVMConstInt(ity, s->off[k], 0),
                       table_at(s, table, LLVMConstInt(i32, (unsigned)k, 0)));
    LLVMBuildBr(s->b, head);
    /* for each row, in B's order */
    LLVMPositionBuilderAtEnd(s->b, head);
    LLVMValueRef r = LLVMBuildPhi(s->b, i32, "rows.r");
    LLVMValueRef zero32 = LLVMConstInt(i32, 0, 0), zero = LLVMConstInt(ity, 0, 0);
    LLVMAddIncoming(r, &zero32, &first, 1);
    LLVMValueRef row = LLVMBuildLoad2(s->b, ity, table_at(s, table, r), "rows.offset");
    LLVMValueRef from = s->inv ? LLVMBuildAdd(s->b, row, s->inv, "") : row;
    LLVMValueRef to = s->sinv ? LLVMBuildAdd(s->b, row, s->sinv, "") : row;
    LLVMBuildBr(s->b, loop);
    /* for each vector of lanes */
    LLVMPositionBuilderAtEnd(s->b, loop);
    LLVMValueRef j = LLVMBuildPhi(s->b, ity, "rows.j");
    LLVMAddIncoming(j, &zero, &head, 1);
    /* COPY_UNROLL vectors a step where they divide the row: the lanes' loop B did many */
    unsigned long long per = s->width / s->step % COPY_UNROLL == 0 ? COPY_UNROLL : 1;
    LLVMValueRef v[COPY_UNROLL];
    for (unsigned long long u = 0; u < per; u++) { /* the loads first, as B had them */
        LLVMValueRef ju = LLVMBuildAdd(s->b, j, LLVMConstInt(ity, u * s->step, 0), "");
        LLVMValueRef at = LLVMBuildAdd(s->b, ju, from, "");
        v[u] = LLVMBuildLoad2(s->b, vty, LLVMBuildGEP2(s->b, s->elem, s->src, &at, 1, ""),
                              "rows.load");
        LLVMSetAlignment(v[u], LLVMGetAlignment(s->cload[0]));
    }
    for (unsigned long long u = 0; u < per; u++) {
        LLVMValueRef ju = LLVMBuildAdd(s->b, j, LLVMConstInt(ity, u * s->step, 0), "");
        LLVMValueRef at = LLVMBuildAdd(s->b, ju, to, "");
        LLVMValueRef st =
            LLVMBuildStore(s->b, v[u], LLVMBuildGEP2(s->b, s->elem, s->dst, &at, 1, ""));
        LLVMSetAlignment(st, LLVMGetAlignment(s->cstore[0]));
    }
    LLVMValueRef j2 = LLVMBuildAdd(s->b, j, LLVMConstInt(ity, per * s->step, 0), "");
    LLVMBuildCondBr(s->b, LLVMBuildICmp(s->b, LLVMIntEQ, j2, LLVMConstInt(ity, s->width, 0), ""),
                    latch, loop);
    LLVMAddIncoming(j, &j2, &loop, 1);
    LLVMPositionBuilderAtEnd(s->b, latch);
    LLVMValueRef r2 = LLVMBuildAdd(s->b, r, LLVMConstInt(i32, 1, 0), "");
    LLVMBuildCondBr(s->b, LLVMBuildICmp(s->b, LLVMIntULT, r2,
                                        LLVMConstInt(i32, (unsigned)s->ncopies, 0), ""),
                    head, s->exit);
    LLVMAddIncoming(r, &r2, &latch, 1);
    replace_loop(s, first, latch);
}

int
tji_row_order(tj_context *ctx, LLVMModuleRef m)
{
    int done = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx->llctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMBasicBlockRef found[64];
        int n = tji_lane_loop_latches(ctx, fn, found, 64);
        for (int i = 0; i < n; i++) {
            rows s = {.ctx = ctx, .b = b}, c = s;
            if (takes(&s, found[i])) {
                if (s.width / fold_vf(&s) <= MAX_GROUPS)
                    fold_by_rows(&s);
                else if (read_as_one_total(&s))
                    fold_whole(&s);
                else
                    fold_in_memory(&s);
                done++;
            } else if (takes_copies(&c, found[i])) {
                copy_by_rows(&c);
                done++;
            }
        }
    }
    LLVMDisposeBuilder(b);
    return done;
}
