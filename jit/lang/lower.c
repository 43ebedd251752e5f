/*
 * jit/lang/lower.c: turns a checked kernel (and the functions it reaches) into builder
 * calls for one build configuration (target, block width, CPU mode, debug), so tile
 * shapes that depend on the block width come out right. Functions are made first (all
 * parameters declared), then their bodies, then the kernel. Locals bind directly to values
 * or, when check.c says so, to variables: hoisted to the start with a zero value, or for
 * tiles made at their first assignment.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"

static int void_marker;
tj_val *const tjl_void_val = (tj_val *)&void_marker;

bool
tjl_lower_ok(tjl_lower *L, int pos)
{
    if (L->p->err.set)
        return false;
    if (tj_kernel_status(L->k) == TJ_OK)
        return true;
    const char *msg = tj_kernel_error(L->k);
    L->p->err.status = tj_kernel_status(L->k);
    tjl_fail(L->p, pos, "%s", msg ? msg : "the builder failed");
    return false;
}

tj_val *
tjl_lower_fail(tjl_lower *L, int pos, const char *fmt, ...)
{
    if (L->p->err.set)
        return NULL;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    L->p->err.status = TJ_ERR_INVALID;
    tjl_fail(L->p, pos, "%s", msg);
    return NULL;
}

const tj_type *
tjl_lib_type(tjl_build *b, tjl_type t)
{
    tjl_type v = t.kind == TJL_T_ARRAY || t.kind == TJL_T_TILE || t.kind == TJL_T_STACK ||
                         t.kind == TJL_T_TYPE
                     ? tjl_elem(t) : t;
    switch (v.kind) {
    case TJL_T_SCALAR:
        return tj_context_get_type(b->ctx, (tj_dtype)v.dtype);
    case TJL_T_VECTOR:
        return tj_context_get_vector_type(b->ctx, (tj_dtype)v.dtype, v.rows);
    case TJL_T_MATRIX:
        return tj_context_get_matrix_type(b->ctx, (tj_dtype)v.dtype, v.rows, v.cols);
    case TJL_T_QUAT:
        return tj_context_get_quat_type(b->ctx, (tj_dtype)v.dtype);
    case TJL_T_STRUCT:
        return v.sid >= 0 && v.sid < b->p->nstructs ? b->struct_types[v.sid] : NULL;
    default:
        return NULL;
    }
}

bool
tjl_build_init(tjl_build *b, tjl_program *p, tj_context *ctx, const tj_type **struct_types,
               const tj_kernel_options *opts)
{
    *b = (tjl_build){.p = p, .ctx = ctx, .struct_types = struct_types};
    if (opts)
        b->opts = *opts;
    for (int s = 0; s < p->nstructs; s++) {
        if (struct_types[s])
            continue;
        const tjl_struct *st = p->structs[s];
        tj_field fields[TJL_MAX_ARGS];
        for (int i = 0; i < st->nfields; i++)
            fields[i] = (tj_field){.name = st->fields[i].name,
                                   .type = tjl_lib_type(b, st->fields[i].type)};
        struct_types[s] = tj_context_new_struct_type(ctx, st->name, fields, (size_t)st->nfields);
        if (!struct_types[s]) {
            p->err.status = TJ_ERR_INVALID;
            const char *m = tj_context_error(ctx);
            return tjl_fail(p, st->pos, "%s", m ? m : "cannot make the struct type");
        }
    }
    b->funcs = calloc((size_t)p->nfuncs + 1, sizeof *b->funcs);
    if (!b->funcs) {
        p->err.status = TJ_ERR_NOMEM;
        return tjl_fail(p, -1, "out of memory");
    }
    return true;
}

void
tjl_build_release(tjl_build *b)
{
    for (int i = 0; b->funcs && i < b->p->nfuncs; i++)
        tj_func_destroy(b->funcs[i]);
    free(b->funcs);
    b->funcs = NULL;
}

tj_func *
tjl_lower_func_of(tjl_lower *L, int fi)
{
    return fi >= 0 && fi < L->p->nfuncs ? L->b->funcs[fi] : NULL;
}

/* ---- locals -------------------------------------------------------------------------------- */

tj_val *
tjl_lower_local(tjl_lower *L, int i, int pos)
{
    const tjl_local *l = &L->f->locals[i];
    tj_val *v = L->vals[i];
    if (!v)
        return tjl_lower_fail(L, pos, "internal error: '%s' has no value here", l->name);
    if (!l->is_var)
        return v;
    tj_val *r = tj_var_get(L->k, v);
    return tjl_lower_ok(L, pos) ? r : NULL;
}

static bool
set_local(tjl_lower *L, int i, tj_val *v, int pos)
{
    const tjl_local *l = &L->f->locals[i];
    if (!v)
        return false;
    if (l->type.kind == TJL_T_FUNC || l->type.kind == TJL_T_TYPE)
        return true; /* resolved statically through the type */
    if (v == tjl_void_val)
        return tjl_lower_fail(L, pos, "internal error: '%s' gets no value", l->name) != NULL;
    if (!l->is_var) {
        L->vals[i] = v;
        return true;
    }
    if (!L->vals[i]) {
        L->vals[i] = tj_var_new(L->k, v);
        return tjl_lower_ok(L, pos);
    }
    tj_var_set(L->k, L->vals[i], v);
    return tjl_lower_ok(L, pos);
}

/* ---- stores -------------------------------------------------------------------------------- */

static bool store_to(tjl_lower *L, tjl_expr *target, tj_val *v);

/* A copy of composite 'obj' with component 'idx' (a runtime index: one select per
 * component) replaced by 'x'. */
static tj_val *
insert_at(tjl_lower *L, tj_val *obj, tjl_type ot, tjl_expr *index, tj_val *x)
{
    tj_kernel *k = L->k;
    int n = ot.kind == TJL_T_MATRIX ? ot.rows : ot.kind == TJL_T_QUAT ? 4 : ot.rows;
    if (index->is_const) {
        int64_t i = index->ival < 0 ? index->ival + n : index->ival;
        if (i < 0 || i >= n)
            return tjl_lower_fail(L, index->pos, "index %lld is out of range for %d components",
                                  (long long)index->ival, n);
        return tj_insert(k, obj, (int)i, x);
    }
    tj_val *iv = tjl_lower_index(L, index);
    if (!iv)
        return NULL;
    for (int c = 0; c < n && obj; c++) {
        tj_val *hit = tj_compare(k, TJ_CMP_EQ, iv, tj_const_int(k, TJ_DTYPE_I32, c));
        obj = tj_insert(k, obj, c, tj_select(k, hit, x, tj_extract(k, obj, c)));
    }
    return obj;
}

/* A numeric tile element write t[i, j] = v: a (1, ..., 1) tile holding 'v' (lane 0's)
 * assigned at the index. */
static bool
store_tile_elem(tjl_lower *L, tjl_expr *target, tj_val *t, tj_val *v)
{
    tjl_type tt = target->fn->type;
    if (!tjl_is_numeric(tjl_elem(tt)))
        return tjl_lower_fail(L, target->pos, "tile elements of %s cannot be assigned one by one",
                              "a struct type") != NULL;
    int ones[TJL_MAX_DIMS] = {1, 1, 1, 1};
    tj_val *idx[TJL_MAX_DIMS];
    for (int i = 0; i < target->nargs; i++) {
        tjl_expr *x = target->args[i];
        if (x->is_const && x->ival < 0)
            idx[i] = tj_const_int(L->k, TJ_DTYPE_I32, x->ival + tj_tile_get_shape(t, i));
        else if (!(idx[i] = tjl_lower_index(L, x)))
            return false;
    }
    const tj_type *et = tjl_lib_type(L->b, tjl_elem(tt));
    tj_val *one = tj_tile_zeros(L->k, et, tt.ndim, ones, TJ_STORAGE_REGISTER);
    tj_val *src = tj_binary(L->k, TJ_BIN_ADD, one, v);
    tj_tile_assign(L->k, t, src, idx);
    return tjl_lower_ok(L, target->pos);
}

static bool
store_index(tjl_lower *L, tjl_expr *target, tj_val *v)
{
    tjl_expr *obj = target->fn;
    tjl_type ot = obj->type;
    tj_val *o = tjl_lower_expr(L, obj);
    if (!o)
        return false;
    if (ot.kind == TJL_T_ARRAY) {
        tj_val *idx[TJL_MAX_DIMS];
        for (int i = 0; i < target->nargs; i++)
            if (!(idx[i] = tjl_lower_index(L, target->args[i])))
                return false;
        tj_store(L->k, o, idx, target->nargs, v);
        return tjl_lower_ok(L, target->pos);
    }
    if (ot.kind == TJL_T_TILE) /* a tile variable holds a copy: store the changed tile back */
        return store_tile_elem(L, target, o, v) &&
               (obj->kind != TJL_E_NAME || store_to(L, obj, o));
    tj_val *nv;
    if (ot.kind == TJL_T_MATRIX && target->nargs == 2) {
        tjl_type rt = {.kind = TJL_T_VECTOR, .dtype = ot.dtype, .rows = ot.cols, .cols = 1};
        tj_val *r = tjl_lower_extract_at(L, o, ot, target->args[0]);
        tj_val *r2 = r ? insert_at(L, r, rt, target->args[1], v) : NULL;
        nv = r2 ? insert_at(L, o, ot, target->args[0], r2) : NULL;
    } else {
        nv = insert_at(L, o, ot, target->args[0], v);
    }
    if (!nv || !tjl_lower_ok(L, target->pos))
        return false;
    return store_to(L, obj, nv);
}

static bool
store_to(tjl_lower *L, tjl_expr *target, tj_val *v)
{
    if (!v)
        return false;
    if (target->kind == TJL_E_NAME)
        return set_local(L, target->ref, v, target->pos);
    if (target->kind == TJL_E_INDEX)
        return store_index(L, target, v);
    tjl_expr *obj = target->args[0];
    tj_val *o = tjl_lower_expr(L, obj);
    if (!o)
        return false;
    tj_val *nv = target->refkind == TJL_R_FIELD ? tj_set_field(L->k, o, target->name, v)
                                                : tj_insert(L->k, o, target->ref, v);
    if (!tjl_lower_ok(L, target->pos))
        return false;
    return store_to(L, obj, nv);
}

/* ---- statements ---------------------------------------------------------------------------- */

static bool lower_block(tjl_lower *L, const tjl_block *b);

static bool
lower_unpack(tjl_lower *L, tjl_stmt *s)
{
    tjl_expr *call = s->value;
    tj_val *outs[TJL_MAX_DIMS] = {0};
    if (call->fn->type.sid == TJL_B_TID) {
        tj_tid(L->k, s->ntargets, outs);
    } else {
        tj_val *st = tjl_lower_expr(L, call->bound[0]);
        if (!st)
            return false;
        outs[0] = tj_tile_stack_pop(L->k, st, &outs[1]);
    }
    if (!tjl_lower_ok(L, call->pos))
        return false;
    for (int i = 0; i < s->ntargets; i++)
        if (!set_local(L, s->targets[i]->ref, outs[i], s->targets[i]->pos))
            return false;
    return true;
}

static bool
lower_augassign(tjl_lower *L, tjl_stmt *s)
{
    tjl_expr *target = s->targets[0];
    tj_val *v = tjl_lower_expr(L, s->value);
    if (!v)
        return false;
    if (target->kind == TJL_E_INDEX && target->fn->type.kind == TJL_T_ARRAY &&
        (s->op == TJL_OP_ADD || s->op == TJL_OP_SUB)) {
        /* arr[i] += v is atomic, as in Warp */
        tj_val *arr = tjl_lower_expr(L, target->fn), *idx[TJL_MAX_DIMS];
        if (!arr)
            return false;
        for (int i = 0; i < target->nargs; i++)
            if (!(idx[i] = tjl_lower_index(L, target->args[i])))
                return false;
        if (s->op == TJL_OP_SUB)
            v = tj_unary(L->k, TJ_UN_NEG, v);
        tj_atomic_add(L->k, arr, idx, target->nargs, v);
        return tjl_lower_ok(L, s->pos);
    }
    tj_val *cur = tjl_lower_expr(L, target);
    if (!cur)
        return false;
    tj_val *r = tjl_lower_binop(L, s->op, cur, target->type, v, s->value->type, s->pos,
                               s->value);
    return r && store_to(L, target, r);
}

static bool
lower_for(tjl_lower *L, tjl_stmt *s)
{
    tj_kernel *k = L->k;
    tjl_type t = s->range[0]->type;
    tj_val *start, *stop, *step;
    if (s->nrange == 1) {
        start = tjl_lower_const(L, t, 0, 0);
        stop = tjl_lower_expr(L, s->range[0]);
    } else {
        start = tjl_lower_expr(L, s->range[0]);
        stop = start ? tjl_lower_expr(L, s->range[1]) : NULL;
    }
    step = s->nrange == 3 ? tjl_lower_expr(L, s->range[2]) : tjl_lower_const(L, t, 1, 0);
    if (!start || !stop || !step)
        return false;
    tj_val *i = tj_for_begin(k, start, stop, step);
    if (!tjl_lower_ok(L, s->pos) || !set_local(L, s->targets[0]->ref, i, s->targets[0]->pos) ||
        !lower_block(L, &s->body))
        return false;
    tj_for_end(k);
    return tjl_lower_ok(L, s->pos);
}

static bool
lower_if(tjl_lower *L, tjl_stmt *s)
{
    tj_val *c = tjl_lower_expr(L, s->value);
    c = c ? tjl_lower_bool(L, c, s->value->type) : NULL;
    if (!c)
        return false;
    tj_if_begin(L->k, c);
    if (!tjl_lower_ok(L, s->pos) || !lower_block(L, &s->body))
        return false;
    if (s->orelse.n > 0) {
        tj_else_begin(L->k);
        if (!lower_block(L, &s->orelse))
            return false;
    }
    tj_if_end(L->k);
    return tjl_lower_ok(L, s->pos);
}

static bool
lower_while(tjl_lower *L, tjl_stmt *s)
{
    tj_while_begin(L->k);
    tj_val *c = tjl_lower_expr(L, s->value);
    c = c ? tjl_lower_bool(L, c, s->value->type) : NULL;
    if (!c)
        return false;
    tj_while_cond(L->k, c);
    if (!tjl_lower_ok(L, s->pos) || !lower_block(L, &s->body))
        return false;
    tj_while_end(L->k);
    return tjl_lower_ok(L, s->pos);
}

static bool
lower_stmt(tjl_lower *L, tjl_stmt *s)
{
    switch (s->kind) {
    case TJL_S_EXPR:
        if (s->value->kind == TJL_E_STR)
            return true;
        return tjl_lower_expr(L, s->value) != NULL;
    case TJL_S_ASSIGN:
        if (s->unpack)
            return lower_unpack(L, s);
        return store_to(L, s->targets[0], tjl_lower_expr(L, s->value));
    case TJL_S_AUGASSIGN:
        return lower_augassign(L, s);
    case TJL_S_IF:
        return lower_if(L, s);
    case TJL_S_FOR:
        return lower_for(L, s);
    case TJL_S_WHILE:
        return lower_while(L, s);
    case TJL_S_BREAK:
        tj_break(L->k);
        return tjl_lower_ok(L, s->pos);
    case TJL_S_CONTINUE:
        tj_continue(L->k);
        return tjl_lower_ok(L, s->pos);
    case TJL_S_RETURN: {
        tj_val *v = NULL;
        if (s->value && !(v = tjl_lower_expr(L, s->value)))
            return false;
        tj_return(L->k, v);
        return tjl_lower_ok(L, s->pos);
    }
    default:
        return true;
    }
}

static bool
lower_block(tjl_lower *L, const tjl_block *b)
{
    for (int i = 0; i < b->n; i++)
        if (!lower_stmt(L, b->stmts[i]) || !tjl_lower_ok(L, b->stmts[i]->pos))
            return false;
    return true;
}

/* ---- functions and kernels ------------------------------------------------------------------ */

static bool
declare_params(tjl_lower *L)
{
    for (int i = 0; i < L->f->nparams; i++) {
        const tjl_param *pa = &L->f->params[i];
        const tj_type *t = tjl_lib_type(L->b, pa->type);
        L->vals[i] = pa->type.kind == TJL_T_ARRAY ? tj_param_array(L->k, pa->name, t, pa->type.ndim)
                                                  : tj_param(L->k, pa->name, t);
        if (!tjl_lower_ok(L, pa->pos))
            return false;
    }
    return true;
}

/* Variables of value types live from the start: parameters that are assigned get their
 * value, other locals zero. Tile variables are made at their first assignment. */
static bool
hoist_vars(tjl_lower *L)
{
    for (int i = 0; i < L->f->nlocals; i++) {
        const tjl_local *l = &L->f->locals[i];
        if (!l->is_var || !tjl_is_value(l->type))
            continue;
        tj_val *init = l->is_param ? L->vals[i] : tj_zero(L->k, tjl_lib_type(L->b, l->type));
        L->vals[i] = tj_var_new(L->k, init);
        if (!tjl_lower_ok(L, l->pos))
            return false;
    }
    return true;
}

/* Lowers the body of function 'fi' into 'k'; 'vals' (one per local) holds the declared
 * parameters. */
static bool
lower_body(tjl_build *b, int fi, tj_kernel *k, tj_val **vals)
{
    tjl_func *f = b->p->funcs[fi];
    tjl_lower L = {.b = b, .p = b->p, .f = f, .k = k, .vals = vals};
    return hoist_vars(&L) && lower_block(&L, &f->body) && tjl_lower_ok(&L, f->pos);
}

/* The locals' value slots of function 'fi' with its parameters declared on 'k'; NULL on
 * failure (the error is set). */
static tj_val **
begin_function(tjl_build *b, int fi, tj_kernel *k)
{
    tjl_func *f = b->p->funcs[fi];
    tj_val **vals = calloc((size_t)f->nlocals + 1, sizeof *vals);
    if (!vals) {
        b->p->err.status = TJ_ERR_NOMEM;
        tjl_fail(b->p, f->pos, "out of memory");
        return NULL;
    }
    tjl_lower L = {.b = b, .p = b->p, .f = f, .k = k, .vals = vals};
    if (!declare_params(&L)) {
        free(vals);
        return NULL;
    }
    return vals;
}

/* Marks in 'seen' every user function that expression 'e' refers to. */
static void
refs_expr(const tjl_expr *e, bool *seen, int nfuncs)
{
    if (!e)
        return;
    if (e->type.kind == TJL_T_FUNC && e->type.sid < 0 && -e->type.sid - 1 < nfuncs)
        seen[-e->type.sid - 1] = true;
    refs_expr(e->fn, seen, nfuncs);
    for (int i = 0; i < e->nargs; i++)
        refs_expr(e->args[i], seen, nfuncs);
    for (int i = 0; i < e->nkw; i++)
        refs_expr(e->kwargs[i], seen, nfuncs);
}

static void
refs_block(const tjl_block *b, bool *seen, int nfuncs)
{
    for (int i = 0; i < b->n; i++) {
        const tjl_stmt *s = b->stmts[i];
        refs_expr(s->value, seen, nfuncs);
        for (int t = 0; t < s->ntargets; t++)
            refs_expr(s->targets[t], seen, nfuncs);
        for (int r = 0; r < s->nrange; r++)
            refs_expr(s->range[r], seen, nfuncs);
        refs_block(&s->body, seen, nfuncs);
        refs_block(&s->orelse, seen, nfuncs);
    }
}

/* Makes (parameters declared) every function kernel 'fi' reaches, then their bodies. */
static bool
make_funcs(tjl_build *b, int fi)
{
    tjl_program *p = b->p;
    bool *seen = calloc((size_t)p->nfuncs + 1, sizeof *seen);
    int *todo = calloc((size_t)p->nfuncs + 1, sizeof *todo), ntodo = 0;
    bool ok = seen && todo;
    if (!ok) {
        p->err.status = TJ_ERR_NOMEM;
        tjl_fail(p, -1, "out of memory");
    }
    if (ok)
        refs_block(&p->funcs[fi]->body, seen, p->nfuncs);
    for (bool grew = true; ok && grew;) { /* the closure over calls */
        grew = false;
        for (int g = 0; g < p->nfuncs; g++) {
            if (!seen[g] || b->funcs[g] || p->funcs[g]->is_kernel)
                continue;
            const tjl_func *f = p->funcs[g];
            tjl_type rt = f->ret;
            b->funcs[g] = tj_func_create(b->ctx, f->name,
                                         rt.kind == TJL_T_NONE ? NULL : tjl_lib_type(b, rt),
                                         &b->opts);
            if (!b->funcs[g]) {
                p->err.status = TJ_ERR_NOMEM;
                ok = tjl_fail(p, f->pos, "out of memory");
                break;
            }
            todo[ntodo++] = g;
            refs_block(&f->body, seen, p->nfuncs);
            grew = true;
        }
    }
    tj_val ***vals = ok ? calloc((size_t)ntodo + 1, sizeof *vals) : NULL;
    if (ok && !vals) {
        p->err.status = TJ_ERR_NOMEM;
        ok = tjl_fail(p, -1, "out of memory");
    }
    for (int i = 0; ok && i < ntodo; i++) /* parameters first: calls may come before bodies */
        ok = (vals[i] = begin_function(b, todo[i], b->funcs[todo[i]])) != NULL;
    for (int i = 0; ok && i < ntodo; i++)
        ok = lower_body(b, todo[i], b->funcs[todo[i]], vals[i]);
    for (int i = 0; vals && i < ntodo; i++)
        free(vals[i]);
    free(vals);
    free(seen);
    free(todo);
    return ok;
}

tj_status
tjl_lower_kernel(tjl_build *b, int fi, tj_kernel **out)
{
    tjl_program *p = b->p;
    *out = NULL;
    if (!make_funcs(b, fi))
        return p->err.status ? p->err.status : TJ_ERR_INVALID;
    tj_kernel *k = tj_kernel_create(b->ctx, p->funcs[fi]->name, &b->opts);
    if (!k) {
        p->err.status = TJ_ERR_NOMEM;
        tjl_fail(p, -1, "out of memory");
        return TJ_ERR_NOMEM;
    }
    if (tj_kernel_status(k) != TJ_OK) {  /* bad options */
        p->err.status = tj_kernel_status(k);
        tjl_fail(p, -1, "%s", tj_kernel_error(k));
        tj_kernel_destroy(k);
        return p->err.status;
    }
    tj_val **vals = begin_function(b, fi, k);
    bool ok = vals && lower_body(b, fi, k, vals);
    free(vals);
    if (!ok) {
        tj_kernel_destroy(k);
        return p->err.status ? p->err.status : TJ_ERR_INVALID;
    }
    *out = k;
    return TJ_OK;
}
