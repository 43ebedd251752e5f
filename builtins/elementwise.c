/*
 * builtins/elementwise.c: element-wise tile operations. tj_unary, tj_binary and
 * tj_compare (jit/arith.c) come here when an operand is a tile, and tj_tile_map applies a
 * user function. Tile operands have one shape; other operands are broadcast. Each lane
 * applies the scalar operation to the elements it owns, so nothing is shared: the result
 * is a register tile (replicated when every tile operand is, as reduction results are).
 * The scalar operation's own checks give the messages for element types.
 */
#include <stdio.h>
#include <string.h>

#include "tilejit.h"
#include "builtins.h"

typedef struct apply {
    tj_val *const *args;
    int nargs;
    const tj_val *out;
    tji_elem_op op;
    void *ud;
    LLVMTypeRef want;          /* the result element's LLVM type, checked per element */
} apply;

static tj_val *
element_of(tj_kernel *k, tj_val *arg, LLVMValueRef slot, LLVMValueRef e)
{
    if (arg->kind != TJ_VAL_TILE)
        return arg;
    return tji_scalar(k, arg->type, tji_tile_get(k, arg, slot, e));
}

static void
apply_elem(tj_kernel *k, LLVMValueRef slot, LLVMValueRef e, void *ud)
{
    const apply *a = ud;
    tj_val *elems[8] = {NULL}; /* only nargs are read; GCC cannot see that for unary ops */
    for (int i = 0; i < a->nargs; i++)
        elems[i] = element_of(k, a->args[i], slot, e);
    tj_val *r = a->op(k, elems, a->ud);
    if (r)
        tji_tile_set(k, a->out, slot, e, r->ll);
}

/* The result type of the operation, found by applying it once to placeholder elements in
 * a block that is then deleted (so its checks and messages are the scalar operation's). */
static const tj_type *
result_type(tj_kernel *k, tj_val *const *args, int nargs, tji_elem_op op, void *ud)
{
    LLVMBasicBlockRef here = LLVMGetInsertBlock(k->llb);
    LLVMBasicBlockRef probe = LLVMAppendBasicBlockInContext(k->ctx->llctx, k->llfn, "probe");
    LLVMPositionBuilderAtEnd(k->llb, probe);
    tj_val *elems[8] = {NULL}; /* only nargs are read; GCC cannot see that for unary ops */
    for (int i = 0; i < nargs; i++)
        elems[i] = args[i]->kind == TJ_VAL_TILE
                       ? tji_scalar(k, args[i]->type, LLVMGetUndef(args[i]->type->llreg))
                       : args[i];
    tj_val *r = k->status == TJ_OK ? op(k, elems, ud) : NULL;
    LLVMDeleteBasicBlock(probe);
    LLVMPositionBuilderAtEnd(k->llb, here);
    if (r && r->kind != TJ_VAL_SCALAR) {
        tji_fail(k, TJ_ERR_INVALID, "the element operation must return a value");
        return NULL;
    }
    return r ? r->type : NULL;
}

static const tj_val *
shape_source(tj_kernel *k, const char *fn, tj_val *const *args, int nargs, bool *replicated)
{
    char d1[64], d2[64];
    int first = -1;
    *replicated = true;
    for (int i = 0; i < nargs; i++) {
        if (args[i]->kind != TJ_VAL_TILE)
            continue;
        *replicated = *replicated && args[i]->u.tile.replicated;
        if (first < 0) {
            first = i;
            continue;
        }
        const tji_tile *a = &args[first]->u.tile, *b = &args[i]->u.tile;
        if (a->rank != b->rank || memcmp(a->shape, b->shape, (size_t)a->rank * sizeof(int))) {
            tji_fail(k, TJ_ERR_INVALID, "%s: operand %d is %s and operand %d %s; tile operands "
                     "must have one shape", fn, first + 1,
                     tji_val_describe(args[first], d1, sizeof d1), i + 1,
                     tji_val_describe(args[i], d2, sizeof d2));
            return NULL;
        }
    }
    return first < 0 ? NULL : args[first];
}

static tj_val *call_elem(tj_kernel *k, tj_val *const *elems, void *ud);

tj_val *
tji_tile_apply(tj_kernel *k, const char *fn, tj_val *const *args, int nargs, tji_elem_op op,
               void *ud)
{
    char d[64];
    TJI_ASSERT(nargs <= 8);
    for (int i = 0; i < nargs; i++) {
        TJI_ASSERT(args[i]); /* the callers' tji_use, which names the argument, passed it */
        if (args[i]->kind != TJ_VAL_TILE && args[i]->kind != TJ_VAL_SCALAR) {
            tji_fail(k, TJ_ERR_INVALID, "%s: operand %d: %s is neither a tile nor a value", fn,
                     i + 1, tji_val_describe(args[i], d, sizeof d));
            return NULL;
        }
    }
    bool replicated;
    const tj_val *shape = shape_source(k, fn, args, nargs, &replicated);
    /* The callers (tj_binary and the like) leave a deferred barrier owed, as for values: a
     * shared operand emits it, unless it orders only this lane's own writes of the
     * elements it reads (operands have one shape, each lane reads the elements it owns). */
    for (int i = 0; shape && i < nargs; i++)
        if (args[i]->kind == TJ_VAL_TILE && args[i]->u.tile.storage == TJ_STORAGE_SHARED &&
            !tji_barrier_owed_for(k, args[i]))
            tji_flush_barrier(k);
    const tj_type *rt = shape ? result_type(k, args, nargs, op, ud) : NULL;
    if (!rt)
        return NULL;
    tj_val *out = tji_tile_new(k, rt, shape->u.tile.rank, shape->u.tile.shape,
                               TJ_STORAGE_REGISTER);
    if (!out)
        return NULL;
    out->u.tile.replicated = replicated;
    apply a = {.args = args, .nargs = nargs, .out = out, .op = op, .ud = ud};
    if (replicated)
        apply_elem(k, tji_const_i32(k->ctx, 0), tji_const_i32(k->ctx, 0), &a);
    else if (op == call_elem)
        tji_foreach_owned(k, out->u.tile.size, apply_elem, &a); /* may write memory */
    else
        tji_foreach_fused(k, out->u.tile.size, out, apply_elem, &a);
    tji_tile_mark(k, out);
    return k->status == TJ_OK ? out : NULL;
}

static tj_val *
call_elem(tj_kernel *k, tj_val *const *elems, void *ud)
{
    tj_func *f = ud;
    return tj_call(k, f, elems, (size_t)f->nparams);
}

tj_val *
tj_tile_map(tj_kernel *k, tj_func *f, tj_val *const *tiles, size_t ntiles)
{
    const char *fn = tji_builtin_name(TJI_B_TILE_MAP);
    if (!tji_enter(k, fn))
        return NULL;
    if (!f || !f->is_func || ntiles == 0 || ntiles > 8 || !tiles) {
        tji_fail(k, TJ_ERR_INVALID, "%s: needs a function and 1 to 8 tiles", fn);
        return NULL;
    }
    if ((size_t)f->nparams != ntiles) {
        tji_fail(k, TJ_ERR_INVALID, "%s: function '%s' takes %d arguments, got %zu tiles", fn,
                 f->name, f->nparams, ntiles);
        return NULL;
    }
    if (f->ret->kind == TJ_TYPE_VOID) {
        tji_fail(k, TJ_ERR_INVALID, "%s: function '%s' returns nothing", fn, f->name);
        return NULL;
    }
    for (size_t i = 0; i < ntiles; i++)
        if (!tji_use(k, tiles[i], fn, "tiles"))
            return NULL;
    return tji_tile_apply(k, fn, tiles, (int)ntiles, call_elem, f);
}

/* ---- tj_unary, tj_binary and tj_compare on tiles ------------------------------------------- */

typedef struct opcode {
    int which;                 /* 0 unary, 1 binary, 2 compare */
    int op;
} opcode;

static tj_val *
scalar_op(tj_kernel *k, tj_val *const *e, void *ud)
{
    const opcode *o = ud;
    if (o->which == 0)
        return tj_unary(k, (tj_unop)o->op, e[0]);
    if (o->which == 1)
        return tj_binary(k, (tj_binop)o->op, e[0], e[1]);
    return tj_compare(k, (tj_cmp)o->op, e[0], e[1]);
}

tj_val *
tji_tile_unary(tj_kernel *k, tj_unop op, tj_val *a)
{
    tj_val *args[] = {a};
    return tji_tile_apply(k, "tj_unary", args, 1, scalar_op, &(opcode){0, op});
}

tj_val *
tji_tile_binary(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b)
{
    tj_val *args[] = {a, b};
    return tji_tile_apply(k, "tj_binary", args, 2, scalar_op, &(opcode){1, op});
}

tj_val *
tji_tile_compare(tj_kernel *k, tj_cmp op, tj_val *a, tj_val *b)
{
    tj_val *args[] = {a, b};
    return tji_tile_apply(k, "tj_compare", args, 2, scalar_op, &(opcode){2, op});
}
