/*
 * jit/lang/program.c: the public entry points of the kernel-source front end (tj_program_*
 * in tilejit.h): parse and check once, then lower and build per configuration. Errors are
 * kept on the program as "file:line:col: error: ..." text with the source line and a caret.
 * Uses only the public API of tilejit.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

struct tj_program {
    tj_context *ctx;
    char *src;
    char *filename;
    tjl_program lp;
    const tj_type **struct_types;  /* made on the first build (owned by the context) */
    tj_status status;              /* TJ_OK, or why tj_program_create failed */
    char *err_text;                /* the last failure's message */
};

static void
set_error_text(tj_program *p)
{
    free(p->err_text);
    p->err_text = tjl_format_error(p->filename, p->src, p->lp.len, &p->lp.err);
}

static tj_status
fail_plain(tj_program *p, tj_status st, const char *fmt, const char *arg)
{
    p->lp.err = (tjl_error){.set = false};
    p->lp.err.status = st;
    tjl_fail(&p->lp, -1, fmt, arg);
    set_error_text(p);
    return st;
}

tj_status
tj_program_create(tj_context *ctx, const char *source, const char *filename, tj_program **out)
{
    if (!out)
        return TJ_ERR_INVALID;
    *out = NULL;
    if (!ctx || !source)
        return TJ_ERR_INVALID;
    tj_program *p = calloc(1, sizeof *p);
    if (!p)
        return TJ_ERR_NOMEM;
    p->ctx = ctx;
    size_t len = strlen(source);
    p->src = malloc(len + 1);
    p->filename = strdup(filename && *filename ? filename : "<source>");
    if (!p->src || !p->filename) {
        free(p->src);
        free(p->filename);
        free(p);
        return TJ_ERR_NOMEM;
    }
    memcpy(p->src, source, len + 1);
    p->lp.src = p->src;
    p->lp.len = len;
    p->lp.filename = p->filename;
    *out = p;
    if (!tjl_parse(&p->lp) || !tjl_check(&p->lp)) {
        p->status = p->lp.err.status ? p->lp.err.status : TJ_ERR_INVALID;
        set_error_text(p);
        return p->status;
    }
    p->struct_types = calloc((size_t)p->lp.nstructs + 1, sizeof *p->struct_types);
    if (!p->struct_types) {
        p->status = TJ_ERR_NOMEM;
        return fail_plain(p, TJ_ERR_NOMEM, "%s", "out of memory");
    }
    return TJ_OK;
}

void
tj_program_destroy(tj_program *prog)
{
    if (!prog)
        return;
    tjl_arena_release(&prog->lp.arena);
    free(prog->struct_types);
    free(prog->err_text);
    free(prog->src);
    free(prog->filename);
    free(prog);
}

const char *
tj_program_error(const tj_program *prog)
{
    return prog ? prog->err_text : NULL;
}

int
tj_program_get_kernel_count(const tj_program *prog)
{
    int n = 0;
    for (int i = 0; prog && prog->status == TJ_OK && i < prog->lp.nfuncs; i++)
        n += prog->lp.funcs[i]->is_kernel;
    return n;
}

/* The function index of the 'index'-th kernel, or -1. */
static int
kernel_func(const tj_program *prog, int index)
{
    for (int i = 0; prog && prog->status == TJ_OK && i < prog->lp.nfuncs; i++)
        if (prog->lp.funcs[i]->is_kernel && index-- == 0)
            return i;
    return -1;
}

const char *
tj_program_get_kernel_name(const tj_program *prog, int index)
{
    int fi = index >= 0 ? kernel_func(prog, index) : -1;
    return fi >= 0 ? prog->lp.funcs[fi]->name : NULL;
}

int
tj_program_get_kernel_index(const tj_program *prog, const char *name)
{
    for (int i = 0, n = tj_program_get_kernel_count(prog); name && i < n; i++)
        if (strcmp(tj_program_get_kernel_name(prog, i), name) == 0)
            return i;
    return -1;
}

/* ---- building ------------------------------------------------------------------------------ */

static tj_status
begin_build(tj_program *p, const tj_kernel_options *opts, tjl_build *b)
{
    if (p->status != TJ_OK)
        return p->status;
    p->lp.err = (tjl_error){0};
    if (!tjl_build_init(b, &p->lp, p->ctx, p->struct_types, opts)) {
        set_error_text(p);
        tjl_build_release(b);
        return p->lp.err.status ? p->lp.err.status : TJ_ERR_INVALID;
    }
    return TJ_OK;
}

static tj_status
unknown_kernel(tj_program *p, const char *name)
{
    char list[400];
    size_t used = 0;
    list[0] = 0;
    for (int i = 0, n = tj_program_get_kernel_count(p); i < n && used + 80 < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'", i ? ", " : "",
                                 tj_program_get_kernel_name(p, i));
    char msg[600];
    if (used)
        snprintf(msg, sizeof msg, "no kernel named '%.100s' (the kernels are %s)", name, list);
    else
        snprintf(msg, sizeof msg, "no kernel named '%.100s' (the file defines no kernel)", name);
    return fail_plain(p, TJ_ERR_INVALID, "%s", msg);
}

tj_status
tj_program_create_kernel(tj_program *prog, const char *name, const tj_kernel_options *opts,
                         tj_kernel **out)
{
    if (!prog || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    if (prog->status != TJ_OK)
        return prog->status;
    int index = name ? tj_program_get_kernel_index(prog, name) : -1;
    if (index < 0)
        return unknown_kernel(prog, name ? name : "(null)");
    tjl_build b;
    tj_status st = begin_build(prog, opts, &b);
    if (st != TJ_OK)
        return st;
    st = tjl_lower_kernel(&b, kernel_func(prog, index), out);
    if (st != TJ_OK)
        set_error_text(prog);
    tjl_build_release(&b);
    return st;
}

/* The position of the kernel a module-build message names ("kernel 'x': ..."); else that
 * of the only kernel built ('first'), or -1. */
static int
message_pos(const tj_program *p, const char *msg, int nk, int first)
{
    for (int i = 0; msg && i < p->lp.nfuncs; i++) {
        char prefix[300];
        snprintf(prefix, sizeof prefix, "kernel '%s':", p->lp.funcs[i]->name);
        if (strncmp(msg, prefix, strlen(prefix)) == 0)
            return p->lp.funcs[i]->pos;
    }
    return nk == 1 ? p->lp.funcs[kernel_func(p, first)]->pos : -1;
}

tj_status
tj_program_build(tj_program *prog, const char *kernel, const tj_kernel_options *kopts,
                 const tj_build_options *bopts, tj_module **out)
{
    if (!prog || !out)
        return TJ_ERR_INVALID;
    *out = NULL;
    if (prog->status != TJ_OK)
        return prog->status;
    int nk = tj_program_get_kernel_count(prog), first = 0;
    if (kernel) {
        if ((first = tj_program_get_kernel_index(prog, kernel)) < 0)
            return unknown_kernel(prog, kernel);
        nk = 1;
    } else if (nk == 0) {
        return fail_plain(prog, TJ_ERR_INVALID, "%s", "the file defines no kernel (@wp.kernel)");
    }
    tjl_build b;
    tj_status st = begin_build(prog, kopts, &b);
    if (st != TJ_OK)
        return st;
    tj_kernel **ks = calloc((size_t)nk, sizeof *ks);
    if (!ks) {
        tjl_build_release(&b);
        return fail_plain(prog, TJ_ERR_NOMEM, "%s", "out of memory");
    }
    for (int i = 0; st == TJ_OK && i < nk; i++)
        st = tjl_lower_kernel(&b, kernel_func(prog, first + i), &ks[i]);
    if (st != TJ_OK) {
        set_error_text(prog);
    } else if ((st = tj_module_build(prog->ctx, ks, (size_t)nk, bopts, out)) != TJ_OK) {
        const char *msg = tj_context_error(prog->ctx);
        prog->lp.err = (tjl_error){.status = st};
        tjl_fail(&prog->lp, message_pos(prog, msg, nk, first), "%s",
                 msg ? msg : "the build failed");
        set_error_text(prog);
    }
    for (int i = 0; i < nk; i++)
        tj_kernel_destroy(ks[i]);
    free(ks);
    tjl_build_release(&b);
    return st;
}
