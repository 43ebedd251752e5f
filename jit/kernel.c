/*
 * jit/kernel.c: kernels and functions being built: creation and options, parameters, the
 * body function, the sticky error model (STYLE 2.5), value handles and scope checks, and
 * sealing. Each kernel owns one LLVM module holding its body function, whose first
 * argument is the thread state (internal.h); module.c adds the target's entry at build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

#include "internal.h"

bool
tji_fail(tj_kernel *k, tj_status st, const char *fmt, ...)
{
    if (!k || k->status != TJ_OK)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->err, sizeof k->err, fmt, ap);
    va_end(ap);
    k->status = st;
    return false;
}

int
tji_scope_current(const tj_kernel *k)
{
    return k->nscopes > 0 ? k->scopes[k->nscopes - 1].id : 0;
}

static bool
scope_visible(const tj_kernel *k, int id)
{
    if (id < 0)
        return true;
    for (int i = k->nscopes - 1; i >= 0; i--)
        if (k->scopes[i].id == id)
            return true;
    return id == 0;
}

bool
tji_use(tj_kernel *k, const tj_val *v, const char *fn, const char *arg)
{
    if (!v) /* an earlier failure elsewhere, or a mistake: never a call dropped quietly */
        return tji_fail(k, TJ_ERR_INVALID, "%s: argument '%s' is NULL", fn, arg);
    if (v->k != k) {
        const char *owner = v->k ? v->k->name : "?";
        return tji_fail(k, TJ_ERR_INVALID,
                        "%s: argument '%s': the value belongs to %s '%s', not to '%s'", fn,
                        arg, v->k && v->k->is_func ? "function" : "kernel", owner, k->name);
    }
    if (!scope_visible(k, v->scope))
        return tji_fail(k, TJ_ERR_STATE,
                        "%s: argument '%s': the value was made inside a block that has ended "
                        "(use a variable to carry it out)",
                        fn, arg);
    return true;
}

tj_val *
tji_val_new(tj_kernel *k, tj_val_kind kind, const tj_type *type, LLVMValueRef ll)
{
    tj_val *v = tji_arena_alloc(&k->arena, sizeof *v);
    if (!v) {
        tji_fail(k, TJ_ERR_NOMEM, "out of memory");
        return NULL;
    }
    v->k = k;
    v->kind = kind;
    v->type = type;
    v->ll = ll;
    v->scope = tji_scope_current(k);
    return v;
}

tj_val *
tji_scalar(tj_kernel *k, const tj_type *t, LLVMValueRef ll)
{
    return tji_val_new(k, TJ_VAL_SCALAR, t, ll);
}

/* An alloca in the entry block; 'zero' also stores zero there (so no path reads undef). */
static LLVMValueRef
entry_alloca(tj_kernel *k, LLVMTypeRef ty, const char *name, bool zero)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(k->ctx->llctx);
    LLVMValueRef term = LLVMGetBasicBlockTerminator(k->alloca_bb);
    if (term)
        LLVMPositionBuilderBefore(b, term);
    else
        LLVMPositionBuilderAtEnd(b, k->alloca_bb);
    LLVMValueRef a = LLVMBuildAlloca(b, ty, name);
    if (zero)
        LLVMBuildStore(b, LLVMConstNull(ty), a);
    LLVMDisposeBuilder(b);
    return a;
}

LLVMValueRef
tji_alloca(tj_kernel *k, LLVMTypeRef ty, const char *name)
{
    return entry_alloca(k, ty, name, true);
}

LLVMValueRef
tji_alloca_uninit(tj_kernel *k, LLVMTypeRef ty, const char *name)
{
    return entry_alloca(k, ty, name, false);
}

static void
apply_defaults(tj_kernel_options *o)
{
    if (o->block_dim == 0)
        o->block_dim = o->target == TJ_TARGET_CUDA ? 256 : 1;
}

static bool
check_options(tj_kernel *k, const char *fn)
{
    const tj_kernel_options *o = &k->opts;
    if (o->target != TJ_TARGET_CPU && o->target != TJ_TARGET_CUDA)
        return tji_fail(k, TJ_ERR_INVALID, "%s: option 'target': %d is not a target", fn,
                        (int)o->target);
    if (o->block_dim > TJI_MAX_BLOCK_DIM)
        return tji_fail(k, TJ_ERR_LIMIT,
                        "%s: option 'block_dim': %u is above the maximum of %d", fn,
                        o->block_dim, TJI_MAX_BLOCK_DIM);
    if (o->cpu_mode != TJ_CPU_WIDTH1 && o->cpu_mode != TJ_CPU_COOPERATIVE)
        return tji_fail(k, TJ_ERR_INVALID, "%s: option 'cpu_mode': %d is not a CPU mode", fn,
                        (int)o->cpu_mode);
    return true;
}

static tj_kernel *
kernel_new(tj_context *ctx, const char *name, const tj_kernel_options *opts, bool is_func,
           const tj_type *ret)
{
    const char *fn = is_func ? "tj_func_create" : "tj_kernel_create";
    tj_kernel *k = tji_calloc(ctx, 1, sizeof *k);
    if (!k)
        return NULL;
    k->ctx = ctx;
    k->is_func = is_func;
    k->refs = 1;
    k->arena.ctx = ctx;
    k->opts = opts ? *opts : (tj_kernel_options){0};
    apply_defaults(&k->opts);
    bool coop = k->opts.target == TJ_TARGET_CUDA || k->opts.cpu_mode == TJ_CPU_COOPERATIVE;
    k->block_dim = coop ? k->opts.block_dim : 1;
    k->ret = ret ? ret : tji_type_void(ctx);
    k->reachable = true;
    k->name = tji_strdup(ctx, tji_is_identifier(name) ? name : "invalid");
    char sym[256];
    snprintf(sym, sizeof sym, "%s.%llu.%s", is_func ? "tjf" : "tjk",
             (unsigned long long)ctx->next_id++, k->name ? k->name : "");
    k->symbol = tji_strdup(ctx, sym);
    if (!k->name || !k->symbol || !k->ret) {
        tji_free(k->name);
        tji_free(k->symbol);
        tji_free(k);
        return NULL;
    }
    k->llmod = LLVMModuleCreateWithNameInContext(k->symbol, ctx->llctx);
    k->llb = LLVMCreateBuilderInContext(ctx->llctx);
    TJI_LIST_ADD(ctx->kernels, k);
    char why[160];
    if (tji_name_error(name, why, sizeof why))
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'name': %s", fn, why);
    else if (ret && (ret->kind == TJ_TYPE_VOID && ret != tji_type_void(ctx)))
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'ret': not a type", fn);
    else if (!tji_check_type_ctx(k, fn, "ret", ret))
        k->ret = tji_type_void(ctx); /* the body must not build with another context's type */
    else
        check_options(k, fn);
    return k;
}

tj_kernel *
tj_kernel_create(tj_context *ctx, const char *name, const tj_kernel_options *opts)
{
    if (!ctx)
        return NULL;
    return kernel_new(ctx, name, opts, false, NULL);
}

tj_func *
tj_func_create(tj_context *ctx, const char *name, const tj_type *ret,
               const tj_kernel_options *opts)
{
    if (!ctx)
        return NULL;
    return kernel_new(ctx, name, opts, true, ret);
}

void
tji_kernel_free(tj_kernel *k)
{
    tj_context *ctx = k->ctx;
    TJI_LIST_REMOVE(ctx->kernels, k);
    for (int i = 0; i < k->ncallees; i++) {
        tj_kernel *f = k->callees[i];
        /* Only drop references to functions still alive (context teardown frees all). */
        for (tj_kernel *p = ctx->kernels; p; p = p->next)
            if (p == f) {
                tji_func_release(f);
                break;
            }
    }
    tji_free(k->callees);
    for (int i = 0; i < k->nparams; i++)
        tji_free(k->params[i].name);
    tji_free(k->params);
    for (int i = 0; i < k->nsites; i++)
        tji_free(k->sites[i].what);
    tji_free(k->sites);
    if (k->ir_text)
        LLVMDisposeMessage(k->ir_text);
    LLVMDisposeBuilder(k->llb);
    LLVMDisposeModule(k->llmod);
    tji_arena_release(&k->arena);
    tji_free(k->name);
    tji_free(k->symbol);
    tji_free(k);
}

void
tji_func_release(tj_kernel *f)
{
    if (--f->refs == 0)
        tji_kernel_free(f);
}

void
tj_kernel_destroy(tj_kernel *k)
{
    if (!k)
        return;
    if (k->is_func) {
        tj_func_destroy(k);
        return;
    }
    tji_kernel_free(k);
}

void
tj_func_destroy(tj_func *f)
{
    if (!f || f->user_released)
        return;
    f->user_released = true;
    tji_func_release(f);
}

tj_status
tj_kernel_status(const tj_kernel *k)
{
    return k ? k->status : TJ_ERR_INVALID;
}

const char *
tj_kernel_error(const tj_kernel *k)
{
    return k && k->status != TJ_OK ? k->err : NULL;
}

uint32_t
tj_kernel_get_block_dim(const tj_kernel *k)
{
    return k ? k->block_dim : 0;
}

size_t
tj_kernel_get_shared_bytes(const tj_kernel *k)
{
    return k ? tji_kernel_budget(k, NULL) : 0;
}

/* ---- parameters and the body function ------------------------------------------------- */

static tj_val *
add_param(tj_kernel *k, const char *fn, const char *name, const tj_type *type,
          tj_val_kind kind, int ndim, int64_t capacity)
{
    bool is_array = kind == TJ_VAL_ARRAY;
    if (!k || k->status != TJ_OK)
        return NULL;
    if (k->sealed) {
        tji_fail(k, TJ_ERR_STATE, "%s: '%s' has been built; it takes no more calls", fn,
                 k->name);
        return NULL;
    }
    if (k->body_started) {
        tji_fail(k, TJ_ERR_STATE, "%s: parameter '%s' comes after the body has started", fn,
                 name ? name : "(null)");
        return NULL;
    }
    char why[160];
    if (tji_name_error(name, why, sizeof why)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: argument 'name': %s", fn, why);
        return NULL;
    }
    for (int i = 0; i < k->nparams; i++)
        if (strcmp(k->params[i].name, name) == 0) {
            tji_fail(k, TJ_ERR_INVALID, "%s: parameter '%s' is declared twice", fn, name);
            return NULL;
        }
    if (!type || type->kind == TJ_TYPE_VOID) {
        tji_fail(k, TJ_ERR_INVALID, "%s: parameter '%s': argument 'type' is not a type", fn,
                 name);
        return NULL;
    }
    if (!tji_check_type_ctx(k, fn, "type", type))
        return NULL;
    if (is_array && (ndim < 1 || ndim > TJI_MAX_DIMS)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: parameter '%s': argument 'ndim': %d is not in [1, 4]",
                 fn, name, ndim);
        return NULL;
    }
    if (k->nparams == 64) { /* begin_body()'s limit, reported by the call that passes it */
        tji_fail(k, TJ_ERR_LIMIT, "%s: parameter '%s': '%s' already has 64 parameters, the most "
                 "allowed", fn, name, k->name);
        return NULL;
    }
    if (kind == TJ_VAL_STACK && (!k->is_func || capacity < 1)) {
        tji_fail(k, TJ_ERR_INVALID, "%s: parameter '%s': %s", fn, name,
                 k->is_func ? "argument 'capacity' must be positive"
                            : "only functions take stacks (a kernel declares its own)");
        return NULL;
    }
    if (k->nparams == k->cap_params) {
        int cap = k->cap_params ? 2 * k->cap_params : 8;
        tji_param *p = tji_realloc(k->ctx, k->params, (size_t)cap * sizeof *p);
        if (!p) {
            tji_fail(k, TJ_ERR_NOMEM, "%s: out of memory", fn);
            return NULL;
        }
        k->params = p;
        k->cap_params = cap;
    }
    tji_param *p = &k->params[k->nparams];
    *p = (tji_param){.name = tji_strdup(k->ctx, name), .kind = kind, .type = type,
                     .ndim = ndim, .capacity = capacity};
    p->val = tji_val_new(k, kind, type, NULL);
    if (!p->name || !p->val) {
        tji_free(p->name);
        tji_fail(k, TJ_ERR_NOMEM, "%s: out of memory", fn);
        return NULL;
    }
    p->val->scope = -1;
    if (is_array) {
        p->val->u.arr.ndim = ndim;
        p->val->u.arr.name = p->name;
    }
    if (kind == TJ_VAL_STACK)
        p->val->u.stack.capacity = capacity;
    k->nparams++;
    return p->val;
}

tj_val *
tj_param(tj_kernel *k, const char *name, const tj_type *type)
{
    return add_param(k, "tj_param", name, type, TJ_VAL_SCALAR, 0, 0);
}

tj_val *
tj_param_array(tj_kernel *k, const char *name, const tj_type *elem, int ndim)
{
    return add_param(k, "tj_param_array", name, elem, TJ_VAL_ARRAY, ndim, 0);
}

tj_val *
tj_param_stack(tj_kernel *k, const char *name, const tj_type *elem, int64_t capacity)
{
    return add_param(k, "tj_param_stack", name, elem, TJ_VAL_STACK, 0, capacity);
}

/* LLVM parameter types of the body: ts, then each parameter flattened. */
static int
body_param_types(tj_kernel *k, LLVMTypeRef *tys, int cap)
{
    tj_context *c = k->ctx;
    int n = 0;
    tys[n++] = tji_ptr(c);
    for (int i = 0; i < k->nparams && n < cap; i++) {
        const tji_param *p = &k->params[i];
        if (p->kind == TJ_VAL_SCALAR) {
            tys[n++] = p->type->llreg;
            continue;
        }
        if (p->kind == TJ_VAL_STACK) {
            tys[n++] = tji_ptr(c); /* data */
            tys[n++] = tji_ptr(c); /* count */
            continue;
        }
        tys[n++] = tji_ptr(c);
        for (int d = 0; d < p->ndim; d++)
            tys[n++] = tji_i32(c);
        for (int d = 0; d < p->ndim; d++)
            tys[n++] = tji_i64(c);
    }
    return n;
}

static void
bind_params(tj_kernel *k)
{
    unsigned a = 1;
    for (int i = 0; i < k->nparams; i++) {
        tji_param *p = &k->params[i];
        if (p->kind == TJ_VAL_SCALAR) {
            p->val->ll = LLVMGetParam(k->llfn, a++);
            LLVMSetValueName2(p->val->ll, p->name, strlen(p->name));
            continue;
        }
        if (p->kind == TJ_VAL_STACK) {
            p->val->u.stack.data = LLVMGetParam(k->llfn, a++);
            p->val->u.stack.count = LLVMGetParam(k->llfn, a++);
            continue;
        }
        tji_array_val *arr = &p->val->u.arr;
        arr->data = p->val->ll = LLVMGetParam(k->llfn, a++);
        LLVMSetValueName2(arr->data, p->name, strlen(p->name));
        for (int d = 0; d < p->ndim; d++)
            arr->shape[d] = LLVMGetParam(k->llfn, a++);
        for (int d = 0; d < p->ndim; d++)
            arr->strides[d] = LLVMGetParam(k->llfn, a++);
    }
}

static bool
begin_body(tj_kernel *k)
{
    enum { MAXP = 1 + 64 * 9 };
    LLVMTypeRef tys[MAXP];
    if (k->nparams > 64)
        return tji_fail(k, TJ_ERR_LIMIT, "'%s' has %d parameters; the limit is 64", k->name,
                        k->nparams);
    int n = body_param_types(k, tys, MAXP);
    LLVMTypeRef fty = LLVMFunctionType(k->ret->llreg, tys, (unsigned)n, 0);
    k->llfn = LLVMAddFunction(k->llmod, k->symbol, fty);
    k->ts = LLVMGetParam(k->llfn, 0);
    LLVMSetValueName2(k->ts, "ts", 2);
    tj_context *c = k->ctx;
    k->alloca_bb = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "entry");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, k->llfn, "body");
    LLVMPositionBuilderAtEnd(k->llb, k->alloca_bb);
    LLVMBuildBr(k->llb, body);
    LLVMPositionBuilderAtEnd(k->llb, body);
    bind_params(k);
    k->body_started = true;
    k->next_scope_id = 1;
    return true;
}

/* The four entry guards (internal.h): 'writes' bumps the memory epoch, 'flush' emits a
 * deferred barrier. */
static bool
enter(tj_kernel *k, const char *fn, bool writes, bool flush)
{
    if (!k || k->status != TJ_OK)
        return false;
    if (k->sealed)
        return tji_fail(k, TJ_ERR_STATE, "%s: '%s' has been built; it takes no more calls", fn,
                        k->name);
    if (!k->body_started && !begin_body(k))
        return false;
    /* Any call but a scalar one may read a filled shared tile, or branch around it: its
     * fill stays, but for calls that read no shared memory (tji_fill_survives). */
    if ((writes || flush) && k->fill_guard && !tji_fill_survives(fn)) {
        k->fill_guard = NULL;
        k->fill_barrier = NULL;
    }
    if (writes)
        k->mem_epoch++;
    if (flush)
        tji_flush_barrier(k);
    return true;
}

bool
tji_enter(tj_kernel *k, const char *fn)
{
    return enter(k, fn, true, true);
}

bool
tji_enter_pure(tj_kernel *k, const char *fn)
{
    return enter(k, fn, false, true);
}

bool
tji_enter_local(tj_kernel *k, const char *fn)
{
    return enter(k, fn, false, false);
}

bool
tji_enter_deferring(tj_kernel *k, const char *fn)
{
    return enter(k, fn, true, false);
}

void
tji_flush_barrier(tj_kernel *k)
{
    k->shared_calls++;
    if (!k->barrier_pending)
        return;
    k->barrier_pending = false;
    k->owed_for = NULL;
    tji_emit_barrier(k);
}

void
tji_defer_barrier(tj_kernel *k)
{
    k->barrier_pending = true;
    k->owed_for = NULL;
}

void
tji_defer_barrier_for(tj_kernel *k, const tj_val *t, const tj_val *values)
{
    /* a barrier owed already orders other writes too */
    k->owed_for = k->barrier_pending ? NULL : t;
    k->owed_values = k->barrier_pending ? NULL : values;
    k->barrier_pending = true;
}

/* 'p' without the GEPs of offset zero over it (a view of a whole tile). */
static LLVMValueRef
strip_zero_geps(LLVMValueRef p)
{
    while (p && LLVMIsAGetElementPtrInst(p)) {
        unsigned n = (unsigned)LLVMGetNumOperands(p);
        for (unsigned i = 1; i < n; i++) {
            LLVMValueRef idx = LLVMGetOperand(p, i);
            if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) != 0)
                return p;
        }
        p = LLVMGetOperand(p, 0);
    }
    return p;
}

bool
tji_barrier_owed_for(const tj_kernel *k, const tj_val *t)
{
    const tj_val *w = k->owed_for;
    if (!k->barrier_pending || !w)
        return false;
    const tji_tile *a = &w->u.tile, *b = &t->u.tile;
    if (t->type != w->type || b->storage != TJ_STORAGE_SHARED || b->replicated ||
        strip_zero_geps(b->base) != strip_zero_geps(a->base) || b->rank != a->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (b->shape[d] != a->shape[d] || b->strides[d] != a->strides[d])
            return false;
    return true;
}

const tj_val *
tji_owner_values(const tj_kernel *k, const tj_val *t)
{
    return k->owed_values && tji_barrier_owed_for(k, t) ? k->owed_values : t;
}

static void fill_layout_globals(tj_kernel *k);

/* ---- sealing -------------------------------------------------------------------------- */

static const char *
scope_name(tji_scope_kind kind)
{
    switch (kind) {
    case TJI_SCOPE_THEN:
        return "tj_if_begin";
    case TJI_SCOPE_ELSE:
        return "tj_else_begin";
    case TJI_SCOPE_FOR:
        return "tj_for_begin";
    case TJI_SCOPE_WHILE_COND:
    case TJI_SCOPE_WHILE_BODY:
        return "tj_while_begin";
    default:
        return "?";
    }
}

bool
tji_kernel_seal(tj_kernel *k)
{
    if (k->sealed)
        return k->status == TJ_OK;
    if (k->status != TJ_OK)
        return false;
    if (k->nscopes > 0)
        return tji_fail(k, TJ_ERR_STATE, "'%s' has an unterminated block: %s without its end",
                        k->name, scope_name(k->scopes[k->nscopes - 1].kind));
    if (!k->body_started && !begin_body(k))
        return false;
    /* A barrier owed at a kernel's end orders nothing: no code of the block follows. A
     * function's caller may read what it wrote. */
    if (k->is_func)
        tji_flush_barrier(k);
    k->barrier_pending = false;
    if (k->ret->kind == TJ_TYPE_VOID)
        LLVMBuildRetVoid(k->llb);
    else
        LLVMBuildRet(k->llb, LLVMConstNull(k->ret->llreg));
    LLVMSetLinkage(k->llfn, LLVMExternalLinkage);
    fill_layout_globals(k);
    k->sealed = true;
    char *msg = NULL;
    if (LLVMVerifyModule(k->llmod, LLVMReturnStatusAction, &msg)) {
        tji_fail(k, TJ_ERR_LLVM, "internal error: the IR of '%s' does not verify: %.300s",
                 k->name, msg ? msg : "");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMDisposeMessage(msg);
    return true;
}

LLVMValueRef
tji_kernel_layout_global(tj_kernel *k, int which)
{
    if (!k->layout_globals[which]) {
        char name[300];
        snprintf(name, sizeof name, "%s.%s", k->symbol, which ? "callee_arena" : "owned");
        LLVMValueRef g = LLVMAddGlobal(k->llmod, tji_i64(k->ctx), name);
        LLVMSetInitializer(g, tji_const_i64(k->ctx, 0));
        LLVMSetLinkage(g, LLVMInternalLinkage);
        k->layout_globals[which] = g;
    }
    return k->layout_globals[which];
}

static void
fill_layout_globals(tj_kernel *k)
{
    int64_t vals[2] = {(int64_t)k->shared_bytes, (int64_t)(k->shared_bytes + k->scratch_bytes)};
    for (int i = 0; i < 2; i++) {
        if (!k->layout_globals[i])
            continue;
        LLVMSetInitializer(k->layout_globals[i], tji_const_i64(k->ctx, vals[i]));
        LLVMSetGlobalConstant(k->layout_globals[i], 1);
    }
}

static size_t
own_bytes(const tj_kernel *k)
{
    return k->shared_bytes + k->scratch_bytes;
}

/* 'path' holds 'k' and its callers; a call back into one of them (recursion, direct or
 * mutual) adds nothing, so that the walk ends, but every function of that cycle that has
 * shared memory of its own is reported in '*bad': each level of the recursion places its
 * callee's arena after its own, beyond any budget. So is a chain nested past MAX_DEPTH. */
static size_t
budget_below(const tj_kernel *k, const tj_kernel **path, int depth, const tj_kernel **bad)
{
    enum { MAX_DEPTH = 64 };
    size_t callee = 0;
    path[depth] = k;
    if (k->calls_itself && own_bytes(k) && !*bad)
        *bad = k;
    for (int i = 0; i < k->ncallees; i++) {
        const tj_kernel *f = k->callees[i];
        int cycle = -1;
        for (int d = 0; d <= depth && cycle < 0; d++)
            cycle = path[d] == f ? d : -1;
        if (cycle >= 0) { /* path[cycle..depth] call one another in a circle */
            for (int d = cycle; d <= depth && !*bad; d++)
                if (own_bytes(path[d]))
                    *bad = path[d];
            continue;
        }
        if (depth + 1 >= MAX_DEPTH) {
            *bad = *bad ? *bad : f;
            continue;
        }
        size_t b = budget_below(f, path, depth + 1, bad);
        if (b > callee)
            callee = b;
    }
    return own_bytes(k) + callee;
}

size_t
tji_kernel_budget(const tj_kernel *k, const tj_kernel **recursive)
{
    const tj_kernel *path[64], *bad = NULL;
    size_t n = budget_below(k, path, 0, &bad);
    if (recursive)
        *recursive = bad;
    return n;
}

LLVMValueRef
tji_outline_begin(tj_kernel *k, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    tj_context *c = k->ctx;
    TJI_ASSERT(!k->saved_fn);
    LLVMTypeRef ps[] = {tji_ptr(c), tji_ptr(c), tji_ptr(c)};
    LLVMTypeRef fty = LLVMFunctionType(tji_void(c), ps, 3, 0);
    LLVMValueRef fn = LLVMAddFunction(k->llmod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMValueRef args[] = {k->ts, a, b};
    k->saved_call = LLVMBuildCall2(k->llb, fty, fn, args, 3, "");
    k->saved_fn = k->llfn;
    k->saved_ts = k->ts;
    k->saved_alloca_bb = k->alloca_bb;
    k->llfn = fn;
    k->ts = LLVMGetParam(fn, 0);
    k->alloca_bb = LLVMAppendBasicBlockInContext(c->llctx, fn, "entry");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, fn, "body");
    LLVMPositionBuilderAtEnd(k->llb, k->alloca_bb);
    LLVMBuildBr(k->llb, body);
    LLVMPositionBuilderAtEnd(k->llb, body);
    return fn;
}

void
tji_outline_end(tj_kernel *k)
{
    LLVMBuildRetVoid(k->llb);
    k->llfn = k->saved_fn;
    k->ts = k->saved_ts;
    k->alloca_bb = k->saved_alloca_bb;
    LLVMValueRef next = LLVMGetNextInstruction(k->saved_call);
    if (next)
        LLVMPositionBuilderBefore(k->llb, next);
    else
        LLVMPositionBuilderAtEnd(k->llb, LLVMGetInstructionParent(k->saved_call));
    k->saved_fn = k->saved_ts = k->saved_call = NULL;
    k->saved_alloca_bb = NULL;
}

int
tji_kernel_add_site(tj_kernel *k, const char *fmt, ...)
{
    if (k->nsites == k->cap_sites) {
        int cap = k->cap_sites ? 2 * k->cap_sites : 8;
        tji_site *s = tji_realloc(k->ctx, k->sites, (size_t)cap * sizeof *s);
        if (!s)
            return -1;
        k->sites = s;
        k->cap_sites = cap;
    }
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    k->sites[k->nsites].what = tji_strdup(k->ctx, buf);
    if (!k->sites[k->nsites].what)
        return -1;
    return k->nsites++;
}

const char *
tj_kernel_get_ir(tj_kernel *k)
{
    if (!k || k->status != TJ_OK)
        return NULL;
    if (k->ir_text)
        LLVMDisposeMessage(k->ir_text);
    k->ir_text = LLVMPrintModuleToString(k->llmod);
    return k->ir_text;
}
