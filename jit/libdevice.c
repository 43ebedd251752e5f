/*
 * jit/libdevice.c: GPU math from libdevice ($CUDA_HOME/nvvm/libdevice/libdevice.10.bc),
 * read once per context and linked lazily: each build parses only the function index of
 * the bitcode, drops the __nv_ functions the module does not call (no __nv_ function calls
 * another), and links the rest, so only used bodies are materialised.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

#include "internal.h"

/* $TILEJIT_LIBDEVICE names the file (and only it is tried); else the toolkit's copy under
 * $CUDA_HOME, $CUDA_PATH or /usr/local/cuda. */
static bool
find_libdevice(char *path, size_t n)
{
    const char *file = getenv("TILEJIT_LIBDEVICE");
    if (file && *file) {
        snprintf(path, n, "%s", file);
        return access(path, R_OK) == 0;
    }
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; i < TJI_NELEMS(homes); i++) {
        if (!homes[i] || !*homes[i])
            continue;
        snprintf(path, n, "%s/nvvm/libdevice/libdevice.10.bc", homes[i]);
        if (access(path, R_OK) == 0)
            return true;
    }
    return false;
}

/* Names the file at 'path' by its path, size and modification time. */
static void
file_identity(const char *path, char *buf, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0)
        snprintf(buf, n, "libdevice %s unreadable", path);
    else
        snprintf(buf, n, "libdevice %s %lld %lld.%09ld", path, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

static tj_status
load_buffer(tj_context *ctx, const char *first_fn)
{
    if (ctx->libdevice)
        return TJ_OK;
    char path[4096];
    if (ctx->libdevice_missing || !find_libdevice(path, sizeof path)) {
        ctx->libdevice_missing = true;
        return tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED,
                            "the kernel calls %s, which needs libdevice on the GPU, and "
                            "libdevice.10.bc was not found (at $TILEJIT_LIBDEVICE, else under "
                            "nvvm/libdevice of $CUDA_HOME, $CUDA_PATH or /usr/local/cuda)",
                            first_fn);
    }
    char *msg = NULL;
    file_identity(path, ctx->libdevice_id, sizeof ctx->libdevice_id);
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &ctx->libdevice, &msg)) {
        tji_ctx_fail(ctx, TJ_ERR_IO, "cannot read %s: %s", path, msg ? msg : "");
        LLVMDisposeMessage(msg);
        ctx->libdevice = NULL;
        return TJ_ERR_IO;
    }
    return TJ_OK;
}

static bool
is_needed(LLVMModuleRef m, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    return f && LLVMIsDeclaration(f);
}

static const char *
first_math_decl(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && strncmp(name, "__nv_", 5) == 0)
            return name;
    }
    return NULL;
}

void
tji_libdevice_identity(tj_context *ctx, LLVMModuleRef m, char *buf, size_t n)
{
    char path[4096];
    if (!first_math_decl(m))
        snprintf(buf, n, "%s", "");
    else if (ctx->libdevice) /* what this context links, even if the file changed since */
        snprintf(buf, n, "%s", ctx->libdevice_id);
    else if (ctx->libdevice_missing || !find_libdevice(path, sizeof path))
        snprintf(buf, n, "%s", "libdevice none");
    else
        file_identity(path, buf, n);
}

tj_status
tji_libdevice_link(tj_context *ctx, LLVMModuleRef m)
{
    const char *first = first_math_decl(m);
    if (!first)
        return TJ_OK;
    tj_status st = load_buffer(ctx, first + 5);
    if (st != TJ_OK)
        return st;
    LLVMMemoryBufferRef view = LLVMCreateMemoryBufferWithMemoryRange(
        LLVMGetBufferStart(ctx->libdevice), LLVMGetBufferSize(ctx->libdevice), "libdevice", 0);
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(ctx->llctx, view, &lib)) {
        LLVMDisposeMemoryBuffer(view);
        const char *why = tji_llvm_error(ctx);
        return tji_ctx_fail(ctx, TJ_ERR_IO, "libdevice.10.bc is not valid bitcode: %s",
                            why ? why : "no message");
    }
    /* 'lib' owns 'view' now. Drop every unused __nv_ function before materialising. */
    LLVMValueRef f = LLVMGetFirstFunction(lib);
    while (f) {
        LLVMValueRef next = LLVMGetNextFunction(f);
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (strncmp(name, "__nv_", 5) == 0 && !is_needed(m, name))
            LLVMDeleteFunction(f);
        f = next;
    }
    LLVMSetTarget(lib, LLVMGetTarget(m));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
    if (LLVMLinkModules2(m, lib)) { /* takes 'lib' over */
        const char *why = tji_llvm_error(ctx);
        return tji_ctx_fail(ctx, TJ_ERR_IO, "linking libdevice.10.bc failed: %s",
                            why ? why : "no message");
    }
    const char *missing = first_math_decl(m);
    if (missing)
        return tji_ctx_fail(ctx, TJ_ERR_UNSUPPORTED, "libdevice has no function %s", missing);
    return TJ_OK;
}

void
tji_libdevice_release(tj_context *ctx)
{
    if (ctx->libdevice)
        LLVMDisposeMemoryBuffer(ctx->libdevice);
    ctx->libdevice = NULL;
}
