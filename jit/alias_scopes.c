/*
 * jit/alias_scopes.c: tells LLVM which memory accesses of a CPU entry cannot overlap
 * (scoped no-alias metadata), before the pipeline.
 *
 * On the CPU a block's shared memory is an arena of the worker, reached through a pointer
 * the entry loads from the worker (TJI_ARENA_NAME), and the arrays' data through pointers it
 * loads from the argument buffer (its parameter 1). LLVM cannot tell such loaded pointers
 * apart, so every store to shared memory might change an array and the reverse: in a loop
 * of stack pushes (the lanes of a cooperative block in turn) the stack's counter is stored
 * and reloaded around every array read and every store of a value into the stack. Yet:
 *  - the arena is the runtime's own memory, which no array holds: shared accesses and
 *    array accesses never overlap (two arrays may, the same array passed twice);
 *  - each shared allocation of the kernel (tji_shared_alloc: the arena plus a constant) is
 *    its own bytes, and a valid access stays inside its allocation (a tile or a view inside
 *    its tile, a stack's slots below its capacity, its counter; SPEC 4 makes indices out of
 *    range invalid). Accesses based on the arena with an offset that is not a constant (the
 *    builtins' scratch, a called function's arena) are only known to be shared.
 * Two domains say that: "space" (shared, array) and "allocation" (one scope per constant
 * offset). An access whose address comes through anything but GEPs (a phi, a select, a
 * pointer read from memory other than the argument buffer) gets no metadata: it may alias
 * anything, as before.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { MAX_ALLOCS = 256 };

typedef enum { SPACE_UNKNOWN, SPACE_SHARED, SPACE_ARRAY } space;

typedef struct scopes {
    LLVMContextRef c;
    LLVMValueRef fn;
    unsigned scope_kind, noalias_kind;
    LLVMMetadataRef alloc_domain, shared, array;
    int64_t offsets[MAX_ALLOCS];    /* the allocations (constant arena offsets) seen */
    LLVMMetadataRef alloc[MAX_ALLOCS];
    int nalloc;
} scopes;

/* Whether 'v' is the entry's load of the worker's arena pointer (or an inlined copy), or the
 * local array that stands for it in a lane-loop block. */
static bool
is_arena(LLVMValueRef v)
{
    size_t len, want = strlen(TJI_ARENA_NAME);
    if (!LLVMIsALoadInst(v) && !LLVMIsAAllocaInst(v)) /* target_host.c: local_arena */
        return false;
    const char *name = LLVMGetValueName2(v, &len);
    return len >= want && strncmp(name, TJI_ARENA_NAME, want) == 0;
}

/* Strips GEPs and casts from 'p'; '*first_gep' is the GEP applied to what is left (the
 * last one stripped), or NULL. */
static LLVMValueRef
strip(LLVMValueRef p, LLVMValueRef *first_gep)
{
    *first_gep = NULL;
    for (int depth = 0; depth < 64; depth++) {
        if (LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p)) {
            if (LLVMIsAGetElementPtrInst(p))
                *first_gep = p;
            p = LLVMGetOperand(p, 0);
        } else {
            return p;
        }
    }
    return NULL;
}

/* Where pointer 'p' points; for shared memory, the arena offset of its allocation in
 * '*offset' when that is a constant (else -1). */
static space
classify(const scopes *s, LLVMValueRef p, int64_t *offset)
{
    *offset = -1;
    LLVMValueRef gep, base = strip(p, &gep);
    if (!base)
        return SPACE_UNKNOWN;
    if (is_arena(base)) {
        /* gep: the one right on the arena, 'arena + offset' (tji_shared_alloc) */
        if (gep && LLVMGetNumOperands(gep) == 2 && LLVMIsAConstantInt(LLVMGetOperand(gep, 1)) &&
            LLVMGetGEPSourceElementType(gep) == LLVMInt8TypeInContext(s->c))
            *offset = LLVMConstIntGetSExtValue(LLVMGetOperand(gep, 1));
        return SPACE_SHARED;
    }
    if (LLVMIsALoadInst(base) && LLVMTypeOf(base) == LLVMPointerTypeInContext(s->c, 0)) {
        LLVMValueRef g, from = strip(LLVMGetOperand(base, 0), &g);
        if (from == LLVMGetParam(s->fn, 1))
            return SPACE_ARRAY; /* a pointer from the argument buffer: an array's data */
    }
    return SPACE_UNKNOWN;
}

/* The pointer operand of a memory access, or NULL. */
static LLVMValueRef
address_of(LLVMValueRef in)
{
    if (LLVMIsALoadInst(in) || LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in))
        return LLVMGetOperand(in, 0);
    if (LLVMIsAStoreInst(in))
        return LLVMGetOperand(in, 1);
    return NULL;
}

static LLVMMetadataRef
node(scopes *s, LLVMMetadataRef *ops, size_t n)
{
    return LLVMMDNodeInContext2(s->c, ops, n);
}

static LLVMMetadataRef
scope(scopes *s, const char *name, LLVMMetadataRef domain)
{
    LLVMMetadataRef ops[] = {LLVMMDStringInContext2(s->c, name, strlen(name)), domain};
    return node(s, ops, 2);
}

/* The allocation at 'offset', recorded on first sight; -1 when there are too many. */
static int
alloc_index(scopes *s, int64_t offset)
{
    for (int i = 0; i < s->nalloc; i++)
        if (s->offsets[i] == offset)
            return i;
    if (s->nalloc == MAX_ALLOCS)
        return -1;
    char name[64];
    snprintf(name, sizeof name, "tilejit shared allocation %lld", (long long)offset);
    s->offsets[s->nalloc] = offset;
    s->alloc[s->nalloc] = scope(s, name, s->alloc_domain);
    return s->nalloc++;
}

static void
tag(scopes *s, LLVMValueRef in, LLVMMetadataRef scope_list, LLVMMetadataRef noalias_list)
{
    LLVMSetMetadata(in, s->scope_kind, LLVMMetadataAsValue(s->c, scope_list));
    LLVMSetMetadata(in, s->noalias_kind, LLVMMetadataAsValue(s->c, noalias_list));
}

static void
tag_access(scopes *s, LLVMValueRef in, space sp, int a)
{
    if (sp == SPACE_ARRAY) {
        tag(s, in, node(s, &s->array, 1), node(s, &s->shared, 1));
        return;
    }
    if (a < 0) {
        tag(s, in, node(s, &s->shared, 1), node(s, &s->array, 1));
        return;
    }
    LLVMMetadataRef mine[] = {s->shared, s->alloc[a]};
    LLVMMetadataRef others[MAX_ALLOCS + 1];
    size_t n = 0;
    others[n++] = s->array;
    for (int i = 0; i < s->nalloc; i++)
        if (i != a)
            others[n++] = s->alloc[i];
    tag(s, in, node(s, mine, 2), node(s, others, n));
}

/* Visits each memory access of the function: records the shared allocations, then
 * ('tagging') tags each access with its scopes. */
static void
walk(scopes *s, bool tagging)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef p = address_of(in);
            int64_t offset;
            space sp = p ? classify(s, p, &offset) : SPACE_UNKNOWN;
            if (sp == SPACE_UNKNOWN)
                continue;
            int a = sp == SPACE_SHARED && offset >= 0 ? alloc_index(s, offset) : -1;
            if (tagging)
                tag_access(s, in, sp, a);
        }
}

void
tji_scope_memory(tj_context *ctx, LLVMValueRef entry)
{
    if (!entry || LLVMCountParams(entry) < 2)
        return;
    LLVMContextRef c = ctx->llctx;
    scopes s = {.c = c, .fn = entry,
                .scope_kind = LLVMGetMDKindIDInContext(c, "alias.scope", 11),
                .noalias_kind = LLVMGetMDKindIDInContext(c, "noalias", 7)};
    LLVMMetadataRef d1 = LLVMMDStringInContext2(c, "tilejit space", 13);
    LLVMMetadataRef d2 = LLVMMDStringInContext2(c, "tilejit allocation", 18);
    LLVMMetadataRef space_domain = node(&s, &d1, 1);
    s.alloc_domain = node(&s, &d2, 1);
    s.shared = scope(&s, "tilejit shared", space_domain);
    s.array = scope(&s, "tilejit array", space_domain);
    walk(&s, false); /* every allocation first: an access's noalias names all the others */
    walk(&s, true);
}
