/*
 * jit/cache.c: compiled code, keyed by a 128-bit hash of the lowered module and the
 * options (module.c), owned by the context: PTX text for CUDA, loaded objects for the CPU.
 * Also the context's ORC LLJIT, whose only external symbols are the runtime helpers bound
 * below as absolute addresses (no search of the process's symbols).
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Error.h>
#include <llvm-c/Object.h>

#include "internal.h"

/* ---- hashing: MurmurHash3 x64 128 ------------------------------------------------------ */

static uint64_t
rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t
fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= UINT64_C(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= UINT64_C(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return k;
}

static uint64_t
read64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

void
tji_hash128(const void *data, size_t n, const uint8_t *seed16, uint8_t out[16])
{
    const uint64_t c1 = UINT64_C(0x87c37b91114253d5), c2 = UINT64_C(0x4cf5ad432745937f);
    const uint8_t *p = data;
    uint64_t h1 = seed16 ? read64(seed16) : 0x9e3779b97f4a7c15u;
    uint64_t h2 = seed16 ? read64(seed16 + 8) : 0x6a09e667f3bcc909u;
    size_t nblocks = n / 16;
    for (size_t i = 0; i < nblocks; i++) {
        uint64_t k1 = read64(p + 16 * i), k2 = read64(p + 16 * i + 8);
        k1 = rotl(k1 * c1, 31) * c2;
        h1 = (rotl(h1 ^ k1, 27) + h2) * 5 + 0x52dce729;
        k2 = rotl(k2 * c2, 33) * c1;
        h2 = (rotl(h2 ^ k2, 31) + h1) * 5 + 0x38495ab5;
    }
    uint8_t tail[16] = {0};
    memcpy(tail, p + 16 * nblocks, n & 15);
    uint64_t k1 = read64(tail), k2 = read64(tail + 8);
    h2 ^= rotl(k2 * c2, 33) * c1;
    h1 ^= rotl(k1 * c1, 31) * c2;
    h1 ^= n;
    h2 ^= n;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    memcpy(out, &h1, 8);
    memcpy(out + 8, &h2, 8);
}

/* ---- entries ---------------------------------------------------------------------------- */

tji_cache_entry *
tji_cache_find(tj_context *ctx, const uint8_t key[16])
{
    for (tji_cache_entry *e = ctx->cache; e; e = e->next)
        if (memcmp(e->key, key, 16) == 0)
            return e;
    return NULL;
}

tji_cache_entry *
tji_cache_add(tj_context *ctx, const uint8_t key[16], tj_target target)
{
    tji_cache_entry *e = tji_calloc(ctx, 1, sizeof *e);
    if (!e)
        return NULL;
    memcpy(e->key, key, 16);
    e->target = target;
    e->next = ctx->cache;
    ctx->cache = e;
    return e;
}

static void
free_entry(tji_cache_entry *e)
{
    if (e->rt) {
        LLVMErrorRef err = LLVMOrcResourceTrackerRemove(e->rt);
        if (err)
            LLVMConsumeError(err);
        LLVMOrcReleaseResourceTracker(e->rt);
    }
    for (int i = 0; i < e->nsymbols; i++)
        free(e->symbols[i]);
    free(e->symbols);
    free(e->addrs);
    free(e->ptx);
    free(e);
}

void
tji_cache_remove(tj_context *ctx, tji_cache_entry *e)
{
    for (tji_cache_entry **p = &ctx->cache; *p; p = &(*p)->next) {
        if (*p == e) {
            *p = e->next;
            free_entry(e);
            return;
        }
    }
}

void
tji_cache_release(tj_context *ctx)
{
    tji_cache_entry *e = ctx->cache;
    while (e) {
        tji_cache_entry *next = e->next;
        free_entry(e);
        e = next;
    }
    ctx->cache = NULL;
}

/* ---- the JIT ---------------------------------------------------------------------------- */

/* Runtime helpers defined in driver/cpu_runtime.c. */
TJI_HIDDEN float tji_rt_extendhfsf2(uint16_t h);
TJI_HIDDEN uint16_t tji_rt_truncsfhf2(float f);
TJI_HIDDEN uint16_t tji_rt_truncdfhf2(double d);
/* The same with the x86-64 ABI LLVM uses for 'half' (in XMM registers). */
TJI_HIDDEN float tji_rt_jit_extendhfsf2(float h);
TJI_HIDDEN float tji_rt_jit_truncsfhf2(float f);
TJI_HIDDEN float tji_rt_jit_truncdfhf2(double d);

/* Every external symbol CPU kernel code may call: libm (tj_unary/tj_binary math and what
 * LLVM turns it into), memory intrinsics, and float16 conversions. */
static const struct {
    const char *name;
    void *addr;
} runtime_symbols[] = {
#define M(x) {#x, (void *)(uintptr_t)&x}, {#x "f", (void *)(uintptr_t)&x##f}
    M(exp), M(exp2), M(exp10), M(expm1), M(log), M(log2), M(log10), M(log1p), M(sin), M(cos),
    M(tan), M(tanh), M(sinh), M(cosh), M(asin), M(acos), M(atan), M(atan2), M(pow), M(fmod),
    M(floor), M(ceil), M(trunc), M(round), M(rint), M(nearbyint), M(sqrt), M(fabs), M(fma),
    M(fmin), M(fmax), M(cbrt), M(ldexp), M(hypot), M(remainder), M(copysign),
#undef M
    {"sincos", (void *)(uintptr_t)&sincos},
    {"sincosf", (void *)(uintptr_t)&sincosf},
    {"memcpy", (void *)(uintptr_t)&memcpy},
    {"memmove", (void *)(uintptr_t)&memmove},
    {"memset", (void *)(uintptr_t)&memset},
    {"__extendhfsf2", (void *)(uintptr_t)&tji_rt_jit_extendhfsf2},
    {"__truncsfhf2", (void *)(uintptr_t)&tji_rt_jit_truncsfhf2},
    {"__truncdfhf2", (void *)(uintptr_t)&tji_rt_jit_truncdfhf2},
};

static tj_status
define_runtime(tj_context *ctx, LLVMOrcLLJITRef jit)
{
    enum { N = TJI_NELEMS(runtime_symbols) };
    LLVMOrcCSymbolMapPair pairs[N];
    for (size_t i = 0; i < N; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, runtime_symbols[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)runtime_symbols[i].addr;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, N); /* takes the names */
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
    return e ? tji_ctx_fail_llvm(ctx, e, "binding the CPU runtime") : TJ_OK;
}

/* ORC reports some failures (a symbol that cannot be resolved) through the session rather
 * than through the call that caused them; by default it prints them. Keep them as the
 * context's error instead: the library never prints. */
static void
report_jit_error(void *ctx, LLVMErrorRef e)
{
    tji_ctx_fail_llvm(ctx, e, "the CPU JIT");
}

tj_status
tji_jit_get(tj_context *ctx, LLVMOrcLLJITRef *out)
{
    if (!ctx->jit) {
        LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
        LLVMErrorRef e = LLVMOrcCreateLLJIT(&ctx->jit, b); /* takes 'b' over */
        if (e) {
            ctx->jit = NULL;
            return tji_ctx_fail_llvm(ctx, e, "creating the CPU JIT");
        }
        LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(ctx->jit),
                                                report_jit_error, ctx);
        tj_status st = define_runtime(ctx, ctx->jit);
        if (st != TJ_OK) {
            LLVMOrcDisposeLLJIT(ctx->jit);
            ctx->jit = NULL;
            return st;
        }
    }
    *out = ctx->jit;
    return TJ_OK;
}

/* The sizes of the functions 'names' in object file 'obj' (0 where it has none). */
static void
symbol_sizes(LLVMMemoryBufferRef obj, const char *const *names, int n, uint64_t *sizes)
{
    char *err = NULL;
    LLVMBinaryRef bin = LLVMCreateBinary(obj, NULL, &err); /* reads 'obj', keeps it */
    LLVMDisposeMessage(err);
    LLVMSymbolIteratorRef it = bin ? LLVMObjectFileCopySymbolIterator(bin) : NULL;
    for (; it && !LLVMObjectFileIsSymbolIteratorAtEnd(bin, it); LLVMMoveToNextSymbol(it)) {
        const char *name = LLVMGetSymbolName(it);
        for (int i = 0; name && i < n; i++)
            if (strcmp(name, names[i]) == 0)
                sizes[i] = LLVMGetSymbolSize(it);
    }
    if (it)
        LLVMDisposeSymbolIterator(it);
    if (bin)
        LLVMDisposeBinary(bin);
}

/* Appends "START SIZE NAME" lines for the loaded entries to /tmp/perf-<pid>.map, where
 * perf looks up the names of JIT code (one write per line, with O_APPEND, so that threads
 * and contexts do not interleave). Best effort: a map that cannot be written is left. */
static void
write_perf_map(const tji_cache_entry *e, const uint64_t *sizes)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    for (int i = 0; i < e->nsymbols; i++) {
        char line[512];
        int len = snprintf(line, sizeof line, "%llx %llx %s\n", (unsigned long long)e->addrs[i],
                           (unsigned long long)sizes[i], e->symbols[i]);
        if (sizes[i] > 0 && len > 0 && (size_t)len < sizeof line &&
            write(fd, line, (size_t)len) != len)
            break;
    }
    close(fd);
}

tj_status
tji_cache_load_object(tj_context *ctx, tji_cache_entry *e, LLVMMemoryBufferRef obj,
                      const char *const *names, int nnames)
{
    LLVMOrcLLJITRef jit;
    tj_status st = tji_jit_get(ctx, &jit);
    if (st != TJ_OK) {
        LLVMDisposeMemoryBuffer(obj);
        return st;
    }
    e->symbols = calloc((size_t)nnames + 1, sizeof *e->symbols);
    e->addrs = calloc((size_t)nnames + 1, sizeof *e->addrs);
    if (!e->symbols || !e->addrs) {
        LLVMDisposeMemoryBuffer(obj);
        return tji_ctx_fail(ctx, TJ_ERR_NOMEM, "tj_module_build: out of memory");
    }
    uint64_t *sizes = ctx->perf_map ? calloc((size_t)nnames + 1, sizeof *sizes) : NULL;
    if (sizes)
        symbol_sizes(obj, names, nnames, sizes);
    e->rt = LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(jit));
    LLVMErrorRef err = LLVMOrcLLJITAddObjectFileWithRT(jit, e->rt, obj); /* takes 'obj' */
    if (err) {
        free(sizes);
        return tji_ctx_fail_llvm(ctx, err, "loading the CPU object");
    }
    for (int i = 0; i < nnames; i++) {
        LLVMOrcExecutorAddress addr = 0;
        err = LLVMOrcLLJITLookup(jit, &addr, names[i]);
        if (err) {
            free(sizes);
            return tji_ctx_fail_llvm(ctx, err, "looking up a CPU kernel entry");
        }
        e->symbols[i] = strdup(names[i]);
        e->addrs[i] = addr;
        e->nsymbols = i + 1;
    }
    if (sizes)
        write_perf_map(e, sizes);
    free(sizes);
    return TJ_OK;
}
