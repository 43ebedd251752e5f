/*
 * jit/context.c: the context, every allocation of the library (one function, so tests can
 * make the Nth one fail), arenas, and context-level errors. No CUDA here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>

#include "internal.h"

/* Test hook, not in the public header: make the Nth allocation from now on fail. */
TJ_API void tj_test_fail_alloc_after(tj_context *ctx, long n);

void
tj_test_fail_alloc_after(tj_context *ctx, long n)
{
    if (ctx)
        ctx->fail_alloc_after = n;
}

static bool
alloc_should_fail(tj_context *ctx)
{
    if (!ctx || ctx->fail_alloc_after <= 0)
        return false;
    return --ctx->fail_alloc_after == 0;
}

void *
tji_alloc(tj_context *ctx, size_t bytes)
{
    if (alloc_should_fail(ctx))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

void *
tji_calloc(tj_context *ctx, size_t n, size_t bytes)
{
    if (alloc_should_fail(ctx))
        return NULL;
    return calloc(n ? n : 1, bytes ? bytes : 1);
}

void *
tji_realloc(tj_context *ctx, void *p, size_t bytes)
{
    if (alloc_should_fail(ctx))
        return NULL;
    return realloc(p, bytes ? bytes : 1);
}

char *
tji_strdup(tj_context *ctx, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tji_alloc(ctx, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void
tji_free(void *p)
{
    free(p);
}

struct tji_arena_chunk {
    tji_arena_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

void *
tji_arena_alloc(tji_arena *a, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    tji_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < bytes) {
        size_t cap = bytes > 16384 ? bytes : 16384;
        c = tji_alloc(a->ctx, sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    memset(p, 0, bytes);
    return p;
}

char *
tji_arena_strdup(tji_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = tji_arena_alloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void
tji_arena_release(tji_arena *a)
{
    tji_arena_chunk *c = a->head;
    while (c) {
        tji_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
}

tj_status
tji_ctx_fail(tj_context *ctx, tj_status st, const char *fmt, ...)
{
    if (!ctx)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    ctx->status = st;
    return st;
}

void
tji_ctx_clear_error(tj_context *ctx)
{
    ctx->status = TJ_OK;
    ctx->err[0] = 0;
}

tj_status
tji_ctx_fail_llvm(tj_context *ctx, LLVMErrorRef e, const char *what)
{
    char *msg = LLVMGetErrorMessage(e); /* consumes 'e' */
    tji_ctx_fail(ctx, TJ_ERR_LLVM, "%s: %s", what, msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
    return TJ_ERR_LLVM;
}

/* Whether 's' is an identifier, of any length. */
static bool
identifier_chars(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return false;
    return true;
}

bool
tji_is_identifier(const char *s)
{
    return identifier_chars(s) && strlen(s) <= TJI_MAX_NAME;
}

const char *
tji_name_error(const char *s, char *buf, size_t n)
{
    size_t len = s ? strlen(s) : 0;
    bool ident = identifier_chars(s);
    if (ident && len <= TJI_MAX_NAME)
        return NULL;
    if (ident)
        snprintf(buf, n, "'%.32s...' has %zu characters; a name has at most %d", s, len,
                 TJI_MAX_NAME);
    else if (len > 64)
        snprintf(buf, n, "'%.32s...' (%zu characters) is not an identifier", s, len);
    else
        snprintf(buf, n, "'%s' is not an identifier", s ? s : "(null)");
    return buf;
}

/* LLVM reports some errors (unreadable bitcode, a failed link, some code generation errors)
 * through its context's diagnostic handler, and the default one prints them and exits the
 * process. This one keeps the first error for the build to report (tji_llvm_error) and
 * drops warnings, remarks and notes, which a library has no business printing. */
static void
diagnose(LLVMDiagnosticInfoRef di, void *arg)
{
    tj_context *ctx = arg;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || ctx->llvm_error[0])
        return;
    char *msg = LLVMGetDiagInfoDescription(di);
    snprintf(ctx->llvm_error, sizeof ctx->llvm_error, "%s",
             msg && *msg ? msg : "an error without a message");
    LLVMDisposeMessage(msg);
}

const char *
tji_llvm_error(tj_context *ctx)
{
    return ctx->llvm_error[0] ? ctx->llvm_error : NULL;
}

tj_status
tj_context_create(tj_context **out)
{
    if (!out)
        return TJ_ERR_INVALID;
    *out = NULL;
    tji_llvm_init();
    tj_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return TJ_ERR_NOMEM;
    ctx->llctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx->llctx, diagnose, ctx);
    ctx->next_id = 1;
    ctx->compress_cap = tji_compress_cap(getenv("TILEJIT_CPU_COMPRESS"));
    const char *lanes = getenv("TILEJIT_CPU_LANES");
    ctx->cpu_fibers = lanes && strcmp(lanes, "fibers") == 0;
    ctx->cpu_lanes_switch = lanes && strcmp(lanes, "switch") == 0;
    const char *reduce = getenv("TILEJIT_CPU_REDUCE");
    ctx->cpu_butterfly = reduce && strcmp(reduce, "butterfly") == 0;
    const char *pop = getenv("TILEJIT_GPU_POP");
    ctx->gpu_warp_pop = pop && strcmp(pop, "warp") == 0;
    const char *push = getenv("TILEJIT_GPU_PUSH");
    ctx->gpu_push_fence = push && strcmp(push, "fence") == 0;
    const char *prefetch = getenv("TILEJIT_CPU_PREFETCH");
    ctx->cpu_no_prefetch = prefetch && strcmp(prefetch, "off") == 0;
    const char *fusion = getenv("TILEJIT_CPU_FUSION");
    ctx->cpu_no_fusion = fusion && strcmp(fusion, "off") == 0;
    const char *perf = getenv("TILEJIT_PERF_MAP");
    ctx->perf_map = perf && strcmp(perf, "1") == 0;
    *out = ctx;
    return TJ_OK;
}

void
tj_context_destroy(tj_context *ctx)
{
    if (!ctx)
        return;
    while (ctx->modules)
        tj_module_destroy(ctx->modules);
    while (ctx->devices)
        tj_device_destroy(ctx->devices);
    while (ctx->kernels)
        tji_kernel_free(ctx->kernels);
    tji_cache_release(ctx);
    if (ctx->jit)
        LLVMOrcDisposeLLJIT(ctx->jit);
    tji_libdevice_release(ctx);
    for (size_t i = 0; i < TJI_NELEMS(ctx->tm_nvptx); i++)
        if (ctx->tm_nvptx[i])
            LLVMDisposeTargetMachine(ctx->tm_nvptx[i]);
    if (ctx->tm_host)
        LLVMDisposeTargetMachine(ctx->tm_host);
    tji_types_release(ctx);
    LLVMContextDispose(ctx->llctx);
    free(ctx);
}

const char *
tj_context_error(const tj_context *ctx)
{
    if (!ctx || ctx->status == TJ_OK)
        return NULL;
    return ctx->err;
}
