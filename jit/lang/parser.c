/*
 * jit/lang/parser.c: recursive descent from tokens to the AST (lang.h), for the subset of
 * Python that Warp kernels use. Top level: imports (ignored), constants, decorated kernels,
 * functions and structs. Nesting is bounded (TJL_MAX_EXPR_DEPTH, TJL_MAX_BLOCK_DEPTH) so no
 * input recurses without limit; the first error stops the parse.
 */
#include <stdio.h>
#include <string.h>

#include "lang.h"
#include "parse.h"

bool
tjl_ps_list_add(parser *ps, plist *l, void *item)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        void **items = tjl_alloc(ps->a, (size_t)cap * sizeof *items);
        if (!items)
            return tjl_fail(ps->p, ps->t[ps->i].pos, "out of memory");
        if (l->n)
            memcpy(items, l->items, (size_t)l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = item;
    return true;
}

/* "name 'x'", "newline", "'('"... for "expected X, found Y". */
static const char *
describe(const tjl_token *t, char *buf, size_t n)
{
    switch (t->kind) {
    case TJL_TK_EOF:
        return "the end of the file";
    case TJL_TK_NEWLINE:
        return "the end of the line";
    case TJL_TK_INDENT:
        return "an indented line";
    case TJL_TK_DEDENT:
        return "the end of the block";
    case TJL_TK_NAME:
        snprintf(buf, n, "name '%.40s'", t->text);
        return buf;
    case TJL_TK_INT:
    case TJL_TK_FLOAT:
        return "a number";
    case TJL_TK_STRING:
        return "a string";
    case TJL_TK_KEYWORD:
        snprintf(buf, n, "'%s'", tjl_kw_text(t->sub));
        return buf;
    default:
        snprintf(buf, n, "'%s'", tjl_punct_text(t->sub));
        return buf;
    }
}

bool
tjl_ps_expected(parser *ps, const char *what)
{
    char buf[64];
    return tjl_fail(ps->p, cur(ps)->pos, "expected %s, found %s", what,
                    describe(cur(ps), buf, sizeof buf));
}

bool
tjl_ps_expect_op(parser *ps, int p, const char *what)
{
    if (accept_op(ps, p))
        return true;
    return tjl_ps_expected(ps, what);
}

char *
tjl_ps_expect_name(parser *ps, const char *what, int *pos)
{
    if (cur(ps)->kind != TJL_TK_NAME) {
        tjl_ps_expected(ps, what);
        return NULL;
    }
    *pos = cur(ps)->pos;
    char *name = cur(ps)->text;
    advance(ps);
    return name;
}

bool
tjl_ps_expect_newline(parser *ps)
{
    if (cur(ps)->kind == TJL_TK_NEWLINE) {
        advance(ps);
        return true;
    }
    if (cur(ps)->kind == TJL_TK_EOF)
        return true;
    return tjl_ps_expected(ps, "the end of the line");
}

/* ---- expressions --------------------------------------------------------------------------- */

static tjl_expr *parse_factor(parser *ps);

tjl_expr *
tjl_ps_new_expr(parser *ps, int kind, int pos)
{
    tjl_expr *e = tjl_alloc(ps->a, sizeof *e);
    if (!e) {
        tjl_fail(ps->p, pos, "out of memory");
        return NULL;
    }
    e->kind = (uint8_t)kind;
    e->pos = pos;
    e->ref = -1;
    return e;
}

/* Sets e->depth from its children; fails when the tree is too high to walk safely. */
static bool
set_depth(parser *ps, tjl_expr *e)
{
    int d = 0;
    if (e->fn)
        d = e->fn->depth;
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i] && e->args[i]->depth > d)
            d = e->args[i]->depth;
    for (int i = 0; i < e->nkw; i++)
        if (e->kwargs[i]->depth > d)
            d = e->kwargs[i]->depth;
    if (d + 1 > TJL_MAX_TREE_DEPTH)
        return tjl_fail(ps->p, e->pos, "the expression is too complex (more than %d levels)",
                        TJL_MAX_TREE_DEPTH);
    e->depth = (uint16_t)(d + 1);
    return true;
}

static tjl_expr *
new_node(parser *ps, int kind, int op, int pos, tjl_expr *a, tjl_expr *b)
{
    tjl_expr *e = tjl_ps_new_expr(ps, kind, pos);
    tjl_expr **args = e ? tjl_alloc(ps->a, 2 * sizeof *args) : NULL;
    if (!args) {
        tjl_fail(ps->p, pos, "out of memory");
        return NULL;
    }
    e->op = (uint8_t)op;
    args[0] = a;
    args[1] = b;
    e->args = args;
    e->nargs = b ? 2 : 1;
    return set_depth(ps, e) ? e : NULL;
}

static bool
enter(parser *ps)
{
    if (++ps->depth > TJL_MAX_EXPR_DEPTH)
        return tjl_fail(ps->p, cur(ps)->pos, "the expression nests more than %d levels deep",
                        TJL_MAX_EXPR_DEPTH);
    return true;
}

/* Call arguments: positional, then NAME=value. '(' has been read; reads ')'. */
bool
tjl_ps_call_args(parser *ps, tjl_expr *call)
{
    plist args = {0}, kwn = {0}, kwv = {0};
    int kwpos[TJL_MAX_ARGS];
    while (!is_op(ps, TJL_P_RPAREN)) {
        if (args.n + kwv.n == TJL_MAX_ARGS)
            return tjl_fail(ps->p, cur(ps)->pos, "more than %d arguments", TJL_MAX_ARGS);
        if (is_op(ps, TJL_P_STAR) || is_op(ps, TJL_P_DSTAR))
            return tjl_fail(ps->p, cur(ps)->pos, "argument unpacking (*args, **kwargs) is not "
                                                 "supported");
        bool kw = cur(ps)->kind == TJL_TK_NAME && ps->i + 1 < ps->n &&
                  next_tok(ps)->kind == TJL_TK_OP && next_tok(ps)->sub == TJL_P_ASSIGN;
        if (kw) {
            int pos = cur(ps)->pos;
            for (int k = 0; k < kwn.n; k++)
                if (strcmp(kwn.items[k], cur(ps)->text) == 0)
                    return tjl_fail(ps->p, pos, "keyword argument '%s' is repeated",
                                    cur(ps)->text);
            kwpos[kwn.n] = pos;
            if (!tjl_ps_list_add(ps, &kwn, cur(ps)->text))
                return false;
            advance(ps);
            advance(ps);
            tjl_expr *v = tjl_ps_test(ps);
            if (!v || !tjl_ps_list_add(ps, &kwv, v))
                return false;
        } else {
            if (kwn.n > 0)
                return tjl_fail(ps->p, cur(ps)->pos, "a positional argument follows a keyword "
                                                     "argument");
            tjl_expr *v = tjl_ps_test(ps);
            if (!v || !tjl_ps_list_add(ps, &args, v))
                return false;
        }
        if (!accept_op(ps, TJL_P_COMMA))
            break;
    }
    if (!tjl_ps_expect_op(ps, TJL_P_RPAREN, "',' or ')' in the argument list"))
        return false;
    call->args = (tjl_expr **)args.items;
    call->nargs = args.n;
    call->kwnames = (char **)kwn.items;
    call->kwargs = (tjl_expr **)kwv.items;
    call->nkw = kwn.n;
    if (kwn.n) {
        call->kwpos = tjl_alloc(ps->a, (size_t)kwn.n * sizeof(int));
        if (!call->kwpos)
            return tjl_fail(ps->p, call->pos, "out of memory");
        memcpy(call->kwpos, kwpos, (size_t)kwn.n * sizeof(int));
    }
    return true;
}

/* One subscript entry: an expression or a slice [a]:[b][:[c]]. */
static tjl_expr *
parse_subscript(parser *ps)
{
    int pos = cur(ps)->pos;
    tjl_expr *lo = NULL;
    if (!is_op(ps, TJL_P_COLON)) {
        lo = tjl_ps_test(ps);
        if (!lo || !is_op(ps, TJL_P_COLON))
            return lo;
    }
    tjl_expr *s = tjl_ps_new_expr(ps, TJL_E_SLICE, pos);
    tjl_expr **parts = s ? tjl_alloc(ps->a, 3 * sizeof *parts) : NULL;
    if (!parts) {
        tjl_fail(ps->p, pos, "out of memory");
        return NULL;
    }
    s->args = parts;
    s->nargs = 3;
    parts[0] = lo;
    advance(ps); /* ':' */
    for (int k = 1; k < 3; k++) {
        if (!is_op(ps, TJL_P_COLON) && !is_op(ps, TJL_P_COMMA) && !is_op(ps, TJL_P_RBRACKET)) {
            if (!(parts[k] = tjl_ps_test(ps)))
                return NULL;
        }
        if (k == 1 && !accept_op(ps, TJL_P_COLON))
            break;
    }
    return set_depth(ps, s) ? s : NULL;
}

static bool
parse_index_args(parser *ps, tjl_expr *e)
{
    plist items = {0};
    for (;;) {
        if (items.n == TJL_MAX_ARGS)
            return tjl_fail(ps->p, cur(ps)->pos, "more than %d indices", TJL_MAX_ARGS);
        tjl_expr *s = parse_subscript(ps);
        if (!s || !tjl_ps_list_add(ps, &items, s))
            return false;
        if (!accept_op(ps, TJL_P_COMMA) || is_op(ps, TJL_P_RBRACKET))
            break;
    }
    if (!tjl_ps_expect_op(ps, TJL_P_RBRACKET, "',' or ']' after the index"))
        return false;
    e->args = (tjl_expr **)items.items;
    e->nargs = items.n;
    return true;
}

/* '(' ... ')': a parenthesised expression or a tuple. */
static tjl_expr *
parse_paren(parser *ps, int pos)
{
    plist items = {0};
    bool tuple = false;
    while (!is_op(ps, TJL_P_RPAREN)) {
        if (items.n == TJL_MAX_ARGS) {
            tjl_fail(ps->p, cur(ps)->pos, "more than %d tuple entries", TJL_MAX_ARGS);
            return NULL;
        }
        tjl_expr *v = tjl_ps_test(ps);
        if (!v || !tjl_ps_list_add(ps, &items, v))
            return NULL;
        if (!accept_op(ps, TJL_P_COMMA))
            break;
        tuple = true;
    }
    if (!tjl_ps_expect_op(ps, TJL_P_RPAREN, "',' or ')'"))
        return NULL;
    if (items.n == 1 && !tuple)
        return items.items[0];
    tjl_expr *e = tjl_ps_new_expr(ps, TJL_E_TUPLE, pos);
    if (e) {
        e->args = (tjl_expr **)items.items;
        e->nargs = items.n;
    }
    return e && set_depth(ps, e) ? e : NULL;
}

static tjl_expr *
parse_atom(parser *ps)
{
    const tjl_token *t = cur(ps);
    int pos = t->pos;
    tjl_expr *e = NULL;
    switch (t->kind) {
    case TJL_TK_NAME:
        if ((e = tjl_ps_new_expr(ps, TJL_E_NAME, pos)))
            e->name = t->text;
        advance(ps);
        return e;
    case TJL_TK_INT:
        if ((e = tjl_ps_new_expr(ps, TJL_E_INT, pos)))
            e->ival = t->ival;
        advance(ps);
        return e;
    case TJL_TK_FLOAT:
        if ((e = tjl_ps_new_expr(ps, TJL_E_FLOAT, pos)))
            e->fval = t->fval;
        advance(ps);
        return e;
    case TJL_TK_STRING:
        if ((e = tjl_ps_new_expr(ps, TJL_E_STR, pos)))
            e->name = t->text;
        advance(ps);
        while (e && cur(ps)->kind == TJL_TK_STRING) { /* adjacent literals concatenate */
            size_t n1 = strlen(e->name), n2 = strlen(cur(ps)->text);
            char *s = tjl_alloc(ps->a, n1 + n2 + 1);
            if (!s) {
                tjl_fail(ps->p, pos, "out of memory");
                return NULL;
            }
            memcpy(s, e->name, n1);
            memcpy(s + n1, cur(ps)->text, n2 + 1);
            e->name = s;
            advance(ps);
        }
        return e;
    case TJL_TK_KEYWORD:
        if (t->sub == TJL_KW_TRUE || t->sub == TJL_KW_FALSE) {
            if ((e = tjl_ps_new_expr(ps, TJL_E_BOOL, pos)))
                e->ival = t->sub == TJL_KW_TRUE;
            advance(ps);
            return e;
        }
        if (t->sub == TJL_KW_NONE) {
            advance(ps);
            return tjl_ps_new_expr(ps, TJL_E_NONE, pos);
        }
        if (t->sub == TJL_KW_LAMBDA || t->sub == TJL_KW_YIELD || t->sub == TJL_KW_AWAIT) {
            tjl_fail(ps->p, pos, "'%s' is not supported in kernels", tjl_kw_text(t->sub));
            return NULL;
        }
        break;
    case TJL_TK_OP:
        if (t->sub == TJL_P_LPAREN) {
            advance(ps);
            return parse_paren(ps, pos);
        }
        if (t->sub == TJL_P_LBRACKET || t->sub == TJL_P_LBRACE) {
            tjl_fail(ps->p, pos, "%s are not supported in kernels (use a tuple or a vector)",
                     t->sub == TJL_P_LBRACKET ? "lists" : "dicts and sets");
            return NULL;
        }
        break;
    default:
        break;
    }
    tjl_ps_expected(ps, "an expression");
    return NULL;
}

/* Where an expression starts in the source: a call's errors point there (wp.tile_load). */
static int
expr_start(const tjl_expr *e)
{
    while (e->kind == TJL_E_ATTR || e->kind == TJL_E_INDEX)
        e = e->kind == TJL_E_ATTR ? e->args[0] : e->fn;
    return e->pos;
}

/* atom trailers: calls, subscripts, attributes */
tjl_expr *
tjl_ps_primary(parser *ps)
{
    tjl_expr *e = parse_atom(ps);
    int ntrailers = 0;
    while (e) {
        int pos = cur(ps)->pos;
        if (++ntrailers > 4 * TJL_MAX_EXPR_DEPTH) {
            tjl_fail(ps->p, pos, "too many calls, subscripts and attributes in a row");
            return NULL;
        }
        if (accept_op(ps, TJL_P_LPAREN)) {
            tjl_expr *c = tjl_ps_new_expr(ps, TJL_E_CALL, expr_start(e));
            if (!c || !tjl_ps_call_args(ps, c))
                return NULL;
            c->fn = e;
            if (!set_depth(ps, c))
                return NULL;
            e = c;
        } else if (accept_op(ps, TJL_P_LBRACKET)) {
            tjl_expr *x = tjl_ps_new_expr(ps, TJL_E_INDEX, expr_start(e));
            if (!x || !parse_index_args(ps, x))
                return NULL;
            x->fn = e;
            if (!set_depth(ps, x))
                return NULL;
            e = x;
        } else if (accept_op(ps, TJL_P_DOT)) {
            int npos;
            char *name = tjl_ps_expect_name(ps, "an attribute name after '.'", &npos);
            tjl_expr *x = name ? new_node(ps, TJL_E_ATTR, 0, npos, e, NULL) : NULL;
            if (!x)
                return NULL;
            x->name = name;
            e = x;
        } else {
            break;
        }
    }
    return e;
}

/* power: primary ['**' factor] (right-associative, binds tighter than unary minus on its
 * left: -2**2 is -(2**2)). */
static tjl_expr *
parse_power(parser *ps)
{
    tjl_expr *base = tjl_ps_primary(ps);
    if (!base || !is_op(ps, TJL_P_DSTAR))
        return base;
    int pos = cur(ps)->pos;
    advance(ps);
    if (!enter(ps))
        return NULL;
    tjl_expr *exp = parse_factor(ps);
    ps->depth--;
    return exp ? new_node(ps, TJL_E_BINARY, TJL_OP_POW, pos, base, exp) : NULL;
}

static tjl_expr *
parse_factor(parser *ps)
{
    int op = is_op(ps, TJL_P_MINUS) ? TJL_OP_NEG : is_op(ps, TJL_P_PLUS) ? TJL_OP_POS
           : is_op(ps, TJL_P_TILDE) ? TJL_OP_INVERT : -1;
    if (op < 0)
        return parse_power(ps);
    int pos = cur(ps)->pos;
    advance(ps);
    if (!enter(ps))
        return NULL;
    tjl_expr *a = parse_factor(ps);
    ps->depth--;
    return a ? new_node(ps, TJL_E_UNARY, op, pos, a, NULL) : NULL;
}

/* Binary levels from loosest to tightest: | ^ & shifts + * (then unary and power). */
typedef struct level {
    int puncts[5];
    int ops[5];
    int n;
} level;

static const level levels[] = {
    {{TJL_P_PIPE}, {TJL_OP_BITOR}, 1},
    {{TJL_P_CARET}, {TJL_OP_BITXOR}, 1},
    {{TJL_P_AMP}, {TJL_OP_BITAND}, 1},
    {{TJL_P_LSHIFT, TJL_P_RSHIFT}, {TJL_OP_LSHIFT, TJL_OP_RSHIFT}, 2},
    {{TJL_P_PLUS, TJL_P_MINUS}, {TJL_OP_ADD, TJL_OP_SUB}, 2},
    {{TJL_P_STAR, TJL_P_SLASH, TJL_P_DSLASH, TJL_P_PERCENT, TJL_P_AT},
     {TJL_OP_MUL, TJL_OP_DIV, TJL_OP_FLOORDIV, TJL_OP_MOD, TJL_OP_MATMUL}, 5},
};

static tjl_expr *
parse_binary(parser *ps, int lv)
{
    if (lv == (int)(sizeof levels / sizeof levels[0]))
        return parse_factor(ps);
    tjl_expr *e = parse_binary(ps, lv + 1);
    int chain = 0;
    while (e) {
        int op = -1;
        for (int k = 0; k < levels[lv].n; k++)
            if (is_op(ps, levels[lv].puncts[k]))
                op = levels[lv].ops[k];
        if (op < 0)
            break;
        if (++chain > TJL_MAX_TREE_DEPTH) {
            tjl_fail(ps->p, cur(ps)->pos, "too many operators in one expression");
            return NULL;
        }
        int pos = cur(ps)->pos;
        advance(ps);
        tjl_expr *b = parse_binary(ps, lv + 1);
        e = b ? new_node(ps, TJL_E_BINARY, op, pos, e, b) : NULL;
    }
    return e;
}

static int
compare_op(parser *ps, int *pos)
{
    static const int map[][2] = {{TJL_P_LT, TJL_OP_LT}, {TJL_P_GT, TJL_OP_GT},
                                 {TJL_P_LE, TJL_OP_LE}, {TJL_P_GE, TJL_OP_GE},
                                 {TJL_P_EQ, TJL_OP_EQ}, {TJL_P_NE, TJL_OP_NE}};
    *pos = cur(ps)->pos;
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (is_op(ps, map[k][0]))
            return map[k][1];
    if (is_kw(ps, TJL_KW_IN) || is_kw(ps, TJL_KW_IS) ||
        (is_kw(ps, TJL_KW_NOT) && next_tok(ps)->kind == TJL_TK_KEYWORD &&
         next_tok(ps)->sub == TJL_KW_IN))
        return -2;
    return -1;
}

static tjl_expr *
parse_comparison(parser *ps)
{
    tjl_expr *first = parse_binary(ps, 0);
    int pos, op = first ? compare_op(ps, &pos) : -1;
    if (op == -2) {
        tjl_fail(ps->p, pos, "'in', 'not in' and 'is' are not supported in kernels");
        return NULL;
    }
    if (op < 0)
        return first;
    plist items = {0};
    uint8_t ops[TJL_MAX_ARGS];
    if (!tjl_ps_list_add(ps, &items, first))
        return NULL;
    tjl_expr *e = tjl_ps_new_expr(ps, TJL_E_COMPARE, pos);
    while (e && op >= 0) {
        if (items.n == TJL_MAX_ARGS) {
            tjl_fail(ps->p, pos, "too many chained comparisons");
            return NULL;
        }
        ops[items.n - 1] = (uint8_t)op;
        advance(ps);
        tjl_expr *b = parse_binary(ps, 0);
        if (!b || !tjl_ps_list_add(ps, &items, b))
            return NULL;
        op = compare_op(ps, &pos);
        if (op == -2) {
            tjl_fail(ps->p, pos, "'in', 'not in' and 'is' are not supported in kernels");
            return NULL;
        }
    }
    if (!e || !(e->cmpops = tjl_alloc(ps->a, (size_t)items.n))) {
        tjl_fail(ps->p, first->pos, "out of memory");
        return NULL;
    }
    memcpy(e->cmpops, ops, (size_t)items.n - 1);
    e->args = (tjl_expr **)items.items;
    e->nargs = items.n;
    return set_depth(ps, e) ? e : NULL;
}

static tjl_expr *
parse_not(parser *ps)
{
    if (!is_kw(ps, TJL_KW_NOT))
        return parse_comparison(ps);
    int pos = cur(ps)->pos;
    advance(ps);
    if (!enter(ps))
        return NULL;
    tjl_expr *a = parse_not(ps);
    ps->depth--;
    return a ? new_node(ps, TJL_E_UNARY, TJL_OP_NOT, pos, a, NULL) : NULL;
}

static tjl_expr *
parse_and(parser *ps)
{
    tjl_expr *e = parse_not(ps);
    while (e && is_kw(ps, TJL_KW_AND)) {
        int pos = cur(ps)->pos;
        advance(ps);
        tjl_expr *b = parse_not(ps);
        e = b ? new_node(ps, TJL_E_AND, 0, pos, e, b) : NULL;
    }
    return e;
}

static tjl_expr *
parse_or(parser *ps)
{
    tjl_expr *e = parse_and(ps);
    while (e && is_kw(ps, TJL_KW_OR)) {
        int pos = cur(ps)->pos;
        advance(ps);
        tjl_expr *b = parse_and(ps);
        e = b ? new_node(ps, TJL_E_OR, 0, pos, e, b) : NULL;
    }
    return e;
}

/* test: or_test ['if' or_test 'else' test] */
tjl_expr *
tjl_ps_test(parser *ps)
{
    if (!enter(ps))
        return NULL;
    tjl_expr *e = parse_or(ps);
    if (e && is_kw(ps, TJL_KW_IF)) {
        int pos = cur(ps)->pos;
        advance(ps);
        tjl_expr *cond = parse_or(ps);
        tjl_expr *other = NULL;
        if (cond && (accept_kw(ps, TJL_KW_ELSE) || tjl_ps_expected(ps, "'else' in the "
                                                                     "conditional expression")))
            other = tjl_ps_test(ps);
        tjl_expr *x = other ? tjl_ps_new_expr(ps, TJL_E_IFEXP, pos) : NULL;
        tjl_expr **args = x ? tjl_alloc(ps->a, 3 * sizeof *args) : NULL;
        if (x && !args)
            tjl_fail(ps->p, pos, "out of memory");
        if (args) {
            args[0] = cond;
            args[1] = e;
            args[2] = other;
            x->args = args;
            x->nargs = 3;
        }
        e = args && set_depth(ps, x) ? x : NULL;
    }
    if (e && is_op(ps, TJL_P_WALRUS)) {
        tjl_fail(ps->p, cur(ps)->pos, "':=' is not supported in kernels");
        e = NULL;
    }
    ps->depth--;
    return e;
}

/* testlist: test (',' test)* [','] -- a tuple when there is a comma. */
tjl_expr *
tjl_ps_testlist(parser *ps)
{
    int pos = cur(ps)->pos;
    tjl_expr *first = tjl_ps_test(ps);
    if (!first || !is_op(ps, TJL_P_COMMA))
        return first;
    plist items = {0};
    if (!tjl_ps_list_add(ps, &items, first))
        return NULL;
    while (accept_op(ps, TJL_P_COMMA)) {
        if (cur(ps)->kind == TJL_TK_NEWLINE || is_op(ps, TJL_P_ASSIGN) || is_op(ps, TJL_P_SEMI))
            break;
        if (items.n == TJL_MAX_ARGS) {
            tjl_fail(ps->p, cur(ps)->pos, "more than %d tuple entries", TJL_MAX_ARGS);
            return NULL;
        }
        tjl_expr *v = tjl_ps_test(ps);
        if (!v || !tjl_ps_list_add(ps, &items, v))
            return NULL;
    }
    tjl_expr *e = tjl_ps_new_expr(ps, TJL_E_TUPLE, pos);
    if (e) {
        e->args = (tjl_expr **)items.items;
        e->nargs = items.n;
    }
    return e;
}

