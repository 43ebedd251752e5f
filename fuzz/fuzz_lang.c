/*
 * fuzz/fuzz_lang.c: the fuzz target of the kernel language: lexes, parses and checks any
 * bytes (up to the first NUL, as tj_program_create sees them), and lowers every kernel of
 * an input that checks for two configurations (width-1 and cooperative CPU blocks), so
 * that no input can crash the front end. Built with libFuzzer when clang has it, else with
 * the deterministic driver of fuzz/driver.c. Compiles jit/lang/ itself (except program.c)
 * and uses libtilejit only through the public builder API.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_INPUT = 1 << 16, CONTEXT_REUSE = 200 };

static tj_context *ctx;
static int ctx_uses;

/* A fresh context now and then: LLVM keeps constants and types for a context's life. */
static tj_context *
context(void)
{
    if (ctx && ++ctx_uses > CONTEXT_REUSE) {
        tj_context_destroy(ctx);
        ctx = NULL;
    }
    if (!ctx) {
        ctx_uses = 0;
        if (tj_context_create(&ctx) != TJ_OK)
            ctx = NULL;
    }
    return ctx;
}

/* Lowers every kernel of 'p' for CPU blocks of 'block_dim' lanes. */
static void
lower_all(tjl_program *p, tj_context *c, uint32_t block_dim)
{
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = block_dim,
                           .cpu_mode = block_dim > 1 ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
    const tj_type **st = calloc((size_t)p->nstructs + 1, sizeof *st);
    tjl_build b;
    p->err = (tjl_error){0};
    if (st && tjl_build_init(&b, p, c, st, &o)) {
        for (int i = 0; i < p->nfuncs; i++) {
            if (!p->funcs[i]->is_kernel)
                continue;
            tj_kernel *k = NULL;
            p->err = (tjl_error){0};
            if (tjl_lower_kernel(&b, i, &k) == TJ_OK)
                tj_kernel_destroy(k);
        }
        tjl_build_release(&b);
    }
    free(st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char *src = malloc(size + 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    src[size] = 0;
    tjl_program p = {.src = src, .len = strlen(src), .filename = "fuzz.py"};
    bool ok = tjl_parse(&p) && tjl_check(&p);
    char *msg = tjl_format_error(p.filename, p.src, p.len, &p.err);
    free(msg);
    tj_context *c = ok && !getenv("TJL_FUZZ_NO_LOWER") ? context() : NULL;
    if (c) {
        lower_all(&p, c, 1);
        lower_all(&p, c, 4);
    }
    tjl_arena_release(&p.arena);
    free(src);
    return 0;
}
