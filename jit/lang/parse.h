/*
 * jit/lang/parse.h: the parser's state and the helpers shared by parser.c (tokens and
 * expressions) and parse_stmt.c (statements and the top level). Private to those two.
 */
#ifndef TILEJIT_LANG_PARSE_H
#define TILEJIT_LANG_PARSE_H

#include "lang.h"

typedef struct parser {
    tjl_program *p;
    tjl_arena *a;
    tjl_token *t;
    int n, i;
    int depth;           /* expression nesting */
    int blocks;          /* block nesting */
} parser;

/* A growable list of pointers in the arena. */
typedef struct plist {
    void **items;
    int n, cap;
} plist;

static inline const tjl_token *
cur(const parser *ps)
{
    return &ps->t[ps->i];
}

/* The token after the current one (the current one is never EOF when this is asked). */
static inline const tjl_token *
next_tok(const parser *ps)
{
    return &ps->t[ps->i + 1 < ps->n ? ps->i + 1 : ps->i];
}

static inline void
advance(parser *ps)
{
    if (ps->i + 1 < ps->n)
        ps->i++;
}

static inline bool
is_op(const parser *ps, int p)
{
    return cur(ps)->kind == TJL_TK_OP && cur(ps)->sub == p;
}

static inline bool
is_kw(const parser *ps, int kw)
{
    return cur(ps)->kind == TJL_TK_KEYWORD && cur(ps)->sub == kw;
}

static inline bool
accept_op(parser *ps, int p)
{
    if (!is_op(ps, p))
        return false;
    advance(ps);
    return true;
}

static inline bool
accept_kw(parser *ps, int kw)
{
    if (!is_kw(ps, kw))
        return false;
    advance(ps);
    return true;
}

TJL_HIDDEN bool tjl_ps_list_add(parser *ps, plist *l, void *item);
/* "expected 'what', found <the current token>"; returns false. */
TJL_HIDDEN bool tjl_ps_expected(parser *ps, const char *what);
TJL_HIDDEN bool tjl_ps_expect_op(parser *ps, int p, const char *what);
TJL_HIDDEN char *tjl_ps_expect_name(parser *ps, const char *what, int *pos);
TJL_HIDDEN bool tjl_ps_expect_newline(parser *ps);
TJL_HIDDEN tjl_expr *tjl_ps_new_expr(parser *ps, int kind, int pos);
/* test: a full expression (conditional expressions included, no bare tuple). */
TJL_HIDDEN tjl_expr *tjl_ps_test(parser *ps);
/* testlist: tests separated by commas; a tuple when there is a comma. */
TJL_HIDDEN tjl_expr *tjl_ps_testlist(parser *ps);
TJL_HIDDEN tjl_expr *tjl_ps_primary(parser *ps);
/* '(' has been read: the call's arguments up to ')'. */
TJL_HIDDEN bool tjl_ps_call_args(parser *ps, tjl_expr *call);

#endif /* TILEJIT_LANG_PARSE_H */
