/*
 * jit/lang/arena.c: the front end's allocation (one arena per program: the AST, tokens and
 * names die together) and its error messages: "file:line:col: error: message", the source
 * line and a caret under the column. Prints nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

struct tjl_chunk {
    tjl_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

enum { CHUNK_BYTES = 64 * 1024 };

void *
tjl_alloc(tjl_arena *a, size_t bytes)
{
    size_t align = sizeof(max_align_t);
    bytes = (bytes + align - 1) / align * align;
    if (bytes == 0)
        bytes = align;
    tjl_chunk *c = a->head;
    if (!c || c->cap - c->used < bytes) {
        size_t cap = bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        if (a->head && bytes > CHUNK_BYTES / 4) {
            /* a big block goes behind the current chunk, which keeps filling */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    memset(p, 0, bytes);
    return p;
}

char *
tjl_strndup(tjl_arena *a, const char *s, size_t n)
{
    char *d = tjl_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void
tjl_arena_release(tjl_arena *a)
{
    tjl_chunk *c = a->head;
    while (c) {
        tjl_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
}

/* ---- errors ------------------------------------------------------------------------------ */

static bool
vfail(tjl_error *e, int pos, const char *fmt, va_list ap)
{
    if (e->set)
        return false;
    e->set = true;
    e->pos = pos;
    if (e->status == TJ_OK)
        e->status = TJ_ERR_INVALID;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return false;
}

bool
tjl_fail_error(tjl_error *e, int pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(e, pos, fmt, ap);
    va_end(ap);
    return false;
}

bool
tjl_fail(tjl_program *p, int pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(&p->err, pos, fmt, ap);
    va_end(ap);
    return false;
}

static bool
is_continuation(unsigned char c)
{
    return (c & 0xc0) == 0x80;
}

void
tjl_line_col(const char *src, size_t len, int pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    if (pos < 0)
        return;
    size_t end = (size_t)pos < len ? (size_t)pos : len;
    for (size_t i = 0; i < end; i++) {
        if (src[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (!is_continuation((unsigned char)src[i])) {
            ++*col;
        }
    }
}

/* Appends the line holding 'pos' (control characters shown as '?') and a caret line. */
static void
append_excerpt(char *out, size_t n, const char *src, size_t len, int pos)
{
    size_t p = (size_t)pos < len ? (size_t)pos : len;
    size_t start = p, end = p;
    while (start > 0 && src[start - 1] != '\n')
        start--;
    while (end < len && src[end] != '\n' && src[end] != '\r')
        end++;
    if (end - start > 400) {  /* keep a long line's excerpt short, around the column */
        size_t from = p > start + 200 ? p - 200 : start;
        start = from;
        end = end - start > 400 ? start + 400 : end;
    }
    size_t used = strlen(out);
    for (size_t i = start; i < end && used + 2 < n; i++) {
        unsigned char c = (unsigned char)src[i];
        out[used++] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
    }
    if (used + 2 < n)
        out[used++] = '\n';
    for (size_t i = start; i < p && used + 3 < n; i++) {
        unsigned char c = (unsigned char)src[i];
        if (is_continuation(c))
            continue;
        out[used++] = c == '\t' ? '\t' : ' ';
    }
    if (used + 2 < n) {
        out[used++] = '^';
        out[used++] = '\n';
    }
    out[used < n ? used : n - 1] = 0;
}

char *
tjl_format_error(const char *filename, const char *src, size_t len, const tjl_error *err)
{
    size_t n = 2 * sizeof err->msg + 1024;
    char *out = malloc(n);
    if (!out)
        return NULL;
    const char *file = filename && *filename ? filename : "<source>";
    if (err->pos < 0) {
        snprintf(out, n, "%s: error: %s\n", file, err->msg);
        return out;
    }
    int line, col;
    tjl_line_col(src, len, err->pos, &line, &col);
    snprintf(out, n, "%.300s:%d:%d: error: %s\n", file, line, col, err->msg);
    append_excerpt(out, n, src, len, err->pos);
    return out;
}
