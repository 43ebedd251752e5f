/*
 * jit/lang/parse_stmt.c: statements, blocks and the top level of a kernel source file
 * (imports, constants, decorated kernels, functions and structs). Expressions are in
 * parser.c; both share parse.h.
 */
#include <stdio.h>
#include <string.h>

#include "lang.h"
#include "parse.h"

/* ---- statements ---------------------------------------------------------------------------- */

static bool parse_block(parser *ps, tjl_block *b, const char *what);

static tjl_stmt *
new_stmt(parser *ps, int kind, int pos)
{
    tjl_stmt *s = tjl_alloc(ps->a, sizeof *s);
    if (!s) {
        tjl_fail(ps->p, pos, "out of memory");
        return NULL;
    }
    s->kind = (uint8_t)kind;
    s->pos = pos;
    return s;
}

static bool
set_targets(parser *ps, tjl_stmt *s, tjl_expr *target)
{
    if (target->kind == TJL_E_TUPLE) {
        for (int k = 0; k < target->nargs; k++)
            if (target->args[k]->kind != TJL_E_NAME)
                return tjl_fail(ps->p, target->args[k]->pos,
                                "only names can be unpacked into ('a, b = ...')");
        s->targets = target->args;
        s->ntargets = target->nargs;
        s->unpack = true;
        return true;
    }
    if (target->kind != TJL_E_NAME && target->kind != TJL_E_ATTR && target->kind != TJL_E_INDEX)
        return tjl_fail(ps->p, target->pos, "cannot assign to this expression (expected a "
                                            "name, an attribute or a subscript)");
    s->targets = tjl_alloc(ps->a, sizeof *s->targets);
    if (!s->targets)
        return tjl_fail(ps->p, target->pos, "out of memory");
    s->targets[0] = target;
    s->ntargets = 1;
    return true;
}

/* expression statement, assignment, augmented or annotated assignment */
static tjl_stmt *
parse_expr_stmt(parser *ps)
{
    int pos = cur(ps)->pos;
    tjl_expr *lhs = tjl_ps_testlist(ps);
    if (!lhs)
        return NULL;
    const tjl_token *t = cur(ps);
    if (t->kind == TJL_TK_OP && t->sub >= TJL_P_ADD_EQ && t->sub <= TJL_P_XOR_EQ) {
        tjl_stmt *s = new_stmt(ps, TJL_S_AUGASSIGN, t->pos);
        static const int ops[] = {TJL_OP_ADD, TJL_OP_SUB, TJL_OP_MUL, TJL_OP_DIV,
                                  TJL_OP_FLOORDIV, TJL_OP_MOD, TJL_OP_POW, TJL_OP_MATMUL,
                                  TJL_OP_LSHIFT, TJL_OP_RSHIFT, TJL_OP_BITAND, TJL_OP_BITOR,
                                  TJL_OP_BITXOR};
        if (!s)
            return NULL;
        s->op = (uint8_t)ops[t->sub - TJL_P_ADD_EQ];
        advance(ps);
        if (lhs->kind == TJL_E_TUPLE) {
            tjl_fail(ps->p, lhs->pos, "an augmented assignment takes one target");
            return NULL;
        }
        if (!set_targets(ps, s, lhs) || !(s->value = tjl_ps_test(ps)))
            return NULL;
        return s;
    }
    if (accept_op(ps, TJL_P_COLON)) {
        tjl_stmt *s = new_stmt(ps, TJL_S_ASSIGN, pos);
        if (!s)
            return NULL;
        if (lhs->kind != TJL_E_NAME) {
            tjl_fail(ps->p, lhs->pos, "only a name can be annotated");
            return NULL;
        }
        if (!set_targets(ps, s, lhs) || !(s->ann = tjl_ps_test(ps)))
            return NULL;
        if (!accept_op(ps, TJL_P_ASSIGN)) {
            tjl_ps_expected(ps, "'=' and a value after the annotation");
            return NULL;
        }
        s->value = tjl_ps_testlist(ps);
        return s->value ? s : NULL;
    }
    if (accept_op(ps, TJL_P_ASSIGN)) {
        tjl_stmt *s = new_stmt(ps, TJL_S_ASSIGN, pos);
        if (!s || !set_targets(ps, s, lhs) || !(s->value = tjl_ps_testlist(ps)))
            return NULL;
        if (is_op(ps, TJL_P_ASSIGN)) {
            tjl_fail(ps->p, cur(ps)->pos, "chained assignment (a = b = c) is not supported");
            return NULL;
        }
        return s;
    }
    tjl_stmt *s = new_stmt(ps, TJL_S_EXPR, pos);
    if (s)
        s->value = lhs;
    return s;
}

static tjl_stmt *
parse_simple(parser *ps)
{
    const tjl_token *t = cur(ps);
    int pos = t->pos;
    if (t->kind == TJL_TK_KEYWORD) {
        switch (t->sub) {
        case TJL_KW_PASS:
            advance(ps);
            return new_stmt(ps, TJL_S_PASS, pos);
        case TJL_KW_BREAK:
            advance(ps);
            return new_stmt(ps, TJL_S_BREAK, pos);
        case TJL_KW_CONTINUE:
            advance(ps);
            return new_stmt(ps, TJL_S_CONTINUE, pos);
        case TJL_KW_RETURN: {
            advance(ps);
            tjl_stmt *s = new_stmt(ps, TJL_S_RETURN, pos);
            if (s && cur(ps)->kind != TJL_TK_NEWLINE && !is_op(ps, TJL_P_SEMI) &&
                cur(ps)->kind != TJL_TK_EOF && !(s->value = tjl_ps_testlist(ps)))
                return NULL;
            return s;
        }
        case TJL_KW_ELIF:
        case TJL_KW_ELSE:
            tjl_fail(ps->p, pos, "'%s' without a matching 'if' (check the indentation)",
                     tjl_kw_text(t->sub));
            return NULL;
        case TJL_KW_DEF:
        case TJL_KW_CLASS:
            tjl_fail(ps->p, pos, "'%s' is only allowed at the top level of the file",
                     tjl_kw_text(t->sub));
            return NULL;
        case TJL_KW_IMPORT:
        case TJL_KW_FROM:
            tjl_fail(ps->p, pos, "imports are only allowed at the top level of the file");
            return NULL;
        default:
            if (t->sub >= TJL_KW_ASSERT) {
                tjl_fail(ps->p, pos, "'%s' is not supported in kernels", tjl_kw_text(t->sub));
                return NULL;
            }
            break;
        }
    }
    if (t->kind == TJL_TK_INDENT) {
        tjl_fail(ps->p, pos, "unexpected indentation");
        return NULL;
    }
    return parse_expr_stmt(ps);
}

/* Simple statements separated by ';' up to the end of the line, appended to 'out'. */
static bool
parse_simple_line(parser *ps, plist *out)
{
    for (;;) {
        tjl_stmt *s = parse_simple(ps);
        if (!s || !tjl_ps_list_add(ps, out, s))
            return false;
        if (!accept_op(ps, TJL_P_SEMI))
            break;
        if (cur(ps)->kind == TJL_TK_NEWLINE)
            break;
    }
    return tjl_ps_expect_newline(ps);
}

static tjl_stmt *
parse_if(parser *ps)
{
    int pos = cur(ps)->pos;
    advance(ps);
    tjl_stmt *s = new_stmt(ps, TJL_S_IF, pos);
    if (!s || !(s->value = tjl_ps_test(ps)))
        return NULL;
    if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after the if condition") ||
        !parse_block(ps, &s->body, "if"))
        return NULL;
    if (is_kw(ps, TJL_KW_ELIF)) {
        /* elif is an if inside the else block */
        if (++ps->blocks > TJL_MAX_BLOCK_DEPTH * 4) {
            tjl_fail(ps->p, cur(ps)->pos, "too many elif branches");
            return NULL;
        }
        tjl_stmt *inner = parse_if(ps);
        ps->blocks--;
        if (!inner || !(s->orelse.stmts = tjl_alloc(ps->a, sizeof(tjl_stmt *)))) {
            if (inner)
                tjl_fail(ps->p, pos, "out of memory");
            return NULL;
        }
        s->orelse.stmts[0] = inner;
        s->orelse.n = 1;
        return s;
    }
    if (accept_kw(ps, TJL_KW_ELSE)) {
        if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after 'else'") ||
            !parse_block(ps, &s->orelse, "else"))
            return NULL;
    }
    return s;
}

/* for NAME in range(...): */
static tjl_stmt *
parse_for(parser *ps)
{
    int pos = cur(ps)->pos;
    advance(ps);
    tjl_stmt *s = new_stmt(ps, TJL_S_FOR, pos);
    if (!s)
        return NULL;
    tjl_expr *target = tjl_ps_primary(ps);
    if (!target)
        return NULL;
    if (target->kind != TJL_E_NAME) {
        tjl_fail(ps->p, target->pos, "a for loop needs one name before 'in'");
        return NULL;
    }
    if (!set_targets(ps, s, target))
        return NULL;
    if (!accept_kw(ps, TJL_KW_IN)) {
        tjl_ps_expected(ps, is_op(ps, TJL_P_COMMA) ? "'in' (a for loop takes one name)" : "'in'");
        return NULL;
    }
    tjl_expr *it = tjl_ps_test(ps);
    if (!it)
        return NULL;
    bool is_range = it->kind == TJL_E_CALL && it->fn->kind == TJL_E_NAME &&
                    strcmp(it->fn->name, "range") == 0;
    if (!is_range) {
        tjl_fail(ps->p, it->pos, "a for loop must iterate over range(...)");
        return NULL;
    }
    if (it->nkw > 0) {
        tjl_fail(ps->p, it->kwpos[0], "range() takes no keyword arguments");
        return NULL;
    }
    if (it->nargs < 1 || it->nargs > 3) {
        tjl_fail(ps->p, it->pos, "range() takes 1 to 3 arguments, got %d", it->nargs);
        return NULL;
    }
    s->range = it->args;
    s->nrange = it->nargs;
    s->range_call = it;
    if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after the range"))
        return NULL;
    if (!parse_block(ps, &s->body, "for"))
        return NULL;
    if (is_kw(ps, TJL_KW_ELSE)) {
        tjl_fail(ps->p, cur(ps)->pos, "'else' after a loop is not supported");
        return NULL;
    }
    return s;
}

static tjl_stmt *
parse_while(parser *ps)
{
    int pos = cur(ps)->pos;
    advance(ps);
    tjl_stmt *s = new_stmt(ps, TJL_S_WHILE, pos);
    if (!s || !(s->value = tjl_ps_test(ps)))
        return NULL;
    if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after the while condition") ||
        !parse_block(ps, &s->body, "while"))
        return NULL;
    if (is_kw(ps, TJL_KW_ELSE)) {
        tjl_fail(ps->p, cur(ps)->pos, "'else' after a loop is not supported");
        return NULL;
    }
    return s;
}

static tjl_stmt *
parse_stmt(parser *ps)
{
    if (is_kw(ps, TJL_KW_IF))
        return parse_if(ps);
    if (is_kw(ps, TJL_KW_FOR))
        return parse_for(ps);
    if (is_kw(ps, TJL_KW_WHILE))
        return parse_while(ps);
    return NULL;
}

/* ':' has been read: an indented block, or simple statements on the same line. */
static bool
parse_block(parser *ps, tjl_block *b, const char *what)
{
    plist stmts = {0};
    if (cur(ps)->kind != TJL_TK_NEWLINE) {
        if (!parse_simple_line(ps, &stmts))
            return false;
    } else {
        advance(ps);
        if (cur(ps)->kind != TJL_TK_INDENT)
            return tjl_ps_expected(ps, "an indented block");
        if (++ps->blocks > TJL_MAX_BLOCK_DEPTH)
            return tjl_fail(ps->p, cur(ps)->pos, "blocks nest more than %d levels deep",
                            TJL_MAX_BLOCK_DEPTH);
        advance(ps);
        while (cur(ps)->kind != TJL_TK_DEDENT && cur(ps)->kind != TJL_TK_EOF) {
            tjl_stmt *s = parse_stmt(ps);
            if (s) {
                if (!tjl_ps_list_add(ps, &stmts, s))
                    return false;
            } else if (ps->p->err.set || !parse_simple_line(ps, &stmts)) {
                return false;
            }
        }
        ps->blocks--;
        advance(ps);
    }
    (void)what;
    b->stmts = (tjl_stmt **)stmts.items;
    b->n = stmts.n;
    return true;
}

/* ---- top level ----------------------------------------------------------------------------- */

static bool
parse_import(parser *ps)
{
    /* import a.b [as c] (, ...)* | from a.b import x [as y] (, ...)* -- all ignored */
    bool from = is_kw(ps, TJL_KW_FROM);
    advance(ps);
    int pos;
    for (;;) {
        if (!tjl_ps_expect_name(ps, "a module name", &pos))
            return false;
        while (accept_op(ps, TJL_P_DOT))
            if (!tjl_ps_expect_name(ps, "a module name after '.'", &pos))
                return false;
        if (from) {
            if (!accept_kw(ps, TJL_KW_IMPORT))
                return tjl_ps_expected(ps, "'import'");
            from = false;
            if (accept_op(ps, TJL_P_STAR))
                break;
            accept_op(ps, TJL_P_LPAREN);
            continue;
        }
        if (accept_kw(ps, TJL_KW_AS) && !tjl_ps_expect_name(ps, "a name after 'as'", &pos))
            return false;
        if (!accept_op(ps, TJL_P_COMMA))
            break;
    }
    accept_op(ps, TJL_P_RPAREN);
    return tjl_ps_expect_newline(ps);
}

typedef enum deco { DECO_NONE, DECO_KERNEL, DECO_FUNC, DECO_STRUCT } deco;

/* '@wp.kernel', '@wp.kernel(...)', '@wp.func', '@wp.struct' (the 'wp.' optional). */
static bool
parse_decorator(parser *ps, deco *out)
{
    int pos = cur(ps)->pos;
    advance(ps);
    int npos;
    char *name = tjl_ps_expect_name(ps, "a decorator name", &npos);
    if (!name)
        return false;
    while (accept_op(ps, TJL_P_DOT))
        if (!(name = tjl_ps_expect_name(ps, "a name after '.'", &npos)))
            return false;
    if (accept_op(ps, TJL_P_LPAREN)) {
        tjl_expr dummy = {.pos = pos};
        if (!tjl_ps_call_args(ps, &dummy))
            return false;
    }
    if (strcmp(name, "kernel") == 0)
        *out = DECO_KERNEL;
    else if (strcmp(name, "func") == 0 || strcmp(name, "function") == 0)
        *out = DECO_FUNC;
    else if (strcmp(name, "struct") == 0)
        *out = DECO_STRUCT;
    else
        return tjl_fail(ps->p, npos, "unknown decorator '%s' (expected @wp.kernel, @wp.func or "
                                     "@wp.struct)", name);
    return tjl_ps_expect_newline(ps);
}

static bool
add_def(parser *ps, void ***list, int *n, void *item)
{
    if ((*n & (*n - 1)) == 0) {  /* grow at powers of two */
        int cap = *n ? 2 * *n : 4;
        void **l = tjl_alloc(ps->a, (size_t)cap * sizeof *l);
        if (!l)
            return tjl_fail(ps->p, -1, "out of memory");
        if (*n)
            memcpy(l, *list, (size_t)*n * sizeof *l);
        *list = l;
    }
    (*list)[(*n)++] = item;
    return true;
}

static bool
parse_params(parser *ps, tjl_func *f)
{
    tjl_param tmp[TJL_MAX_ARGS];
    int n = 0;
    while (!is_op(ps, TJL_P_RPAREN)) {
        if (n == TJL_MAX_ARGS)
            return tjl_fail(ps->p, cur(ps)->pos, "more than %d parameters", TJL_MAX_ARGS);
        if (is_op(ps, TJL_P_STAR) || is_op(ps, TJL_P_DSTAR) || is_op(ps, TJL_P_SLASH))
            return tjl_fail(ps->p, cur(ps)->pos, "*args, **kwargs and '/' are not supported");
        tjl_param *pa = &tmp[n];
        *pa = (tjl_param){0};
        if (!(pa->name = tjl_ps_expect_name(ps, "a parameter name", &pa->pos)))
            return false;
        for (int k = 0; k < n; k++)
            if (strcmp(tmp[k].name, pa->name) == 0)
                return tjl_fail(ps->p, pa->pos, "parameter '%s' is declared twice", pa->name);
        if (!accept_op(ps, TJL_P_COLON))
            return tjl_ps_expected(ps, "':' and the parameter's type (kernel parameters need "
                                     "annotations)");
        if (!(pa->ann = tjl_ps_test(ps)))
            return false;
        if (is_op(ps, TJL_P_ASSIGN))
            return tjl_fail(ps->p, cur(ps)->pos, "default parameter values are not supported");
        n++;
        if (!accept_op(ps, TJL_P_COMMA))
            break;
    }
    if (!tjl_ps_expect_op(ps, TJL_P_RPAREN, "',' or ')' after the parameter"))
        return false;
    f->params = tjl_alloc(ps->a, (size_t)(n ? n : 1) * sizeof *f->params);
    if (!f->params)
        return tjl_fail(ps->p, f->pos, "out of memory");
    memcpy(f->params, tmp, (size_t)n * sizeof *tmp);
    f->nparams = n;
    return true;
}

static bool
parse_def(parser *ps, deco d)
{
    if (!accept_kw(ps, TJL_KW_DEF))
        return tjl_ps_expected(ps, "'def' after the decorator");
    tjl_func *f = tjl_alloc(ps->a, sizeof *f);
    if (!f)
        return tjl_fail(ps->p, cur(ps)->pos, "out of memory");
    if (!(f->name = tjl_ps_expect_name(ps, "the function's name", &f->pos)))
        return false;
    f->is_kernel = d == DECO_KERNEL;
    if (!tjl_ps_expect_op(ps, TJL_P_LPAREN, "'(' after the function's name") ||
        !parse_params(ps, f))
        return false;
    if (accept_op(ps, TJL_P_ARROW) && !(f->ret_ann = tjl_ps_test(ps)))
        return false;
    if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after the function's signature") ||
        !parse_block(ps, &f->body, "def"))
        return false;
    return add_def(ps, (void ***)&ps->p->funcs, &ps->p->nfuncs, f);
}

static bool
parse_class(parser *ps)
{
    if (!accept_kw(ps, TJL_KW_CLASS))
        return tjl_ps_expected(ps, "'class' after @wp.struct");
    tjl_struct *st = tjl_alloc(ps->a, sizeof *st);
    if (!st || !(st->name = tjl_ps_expect_name(ps, "the struct's name", &st->pos)))
        return st ? false : tjl_fail(ps->p, cur(ps)->pos, "out of memory");
    if (accept_op(ps, TJL_P_LPAREN) && !tjl_ps_expect_op(ps, TJL_P_RPAREN, "')' (structs have no "
                                                                    "base classes)"))
        return false;
    if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' after the struct's name"))
        return false;
    if (cur(ps)->kind != TJL_TK_NEWLINE || (advance(ps), cur(ps)->kind != TJL_TK_INDENT))
        return tjl_ps_expected(ps, "an indented block of fields");
    advance(ps);
    tjl_field tmp[TJL_MAX_ARGS];
    int n = 0;
    while (cur(ps)->kind != TJL_TK_DEDENT && cur(ps)->kind != TJL_TK_EOF) {
        if (accept_kw(ps, TJL_KW_PASS) || cur(ps)->kind == TJL_TK_STRING) {
            if (cur(ps)->kind == TJL_TK_STRING)
                advance(ps);
            if (!tjl_ps_expect_newline(ps))
                return false;
            continue;
        }
        if (n == TJL_MAX_ARGS)
            return tjl_fail(ps->p, cur(ps)->pos, "more than %d fields", TJL_MAX_ARGS);
        tjl_field *fl = &tmp[n];
        *fl = (tjl_field){0};
        if (!(fl->name = tjl_ps_expect_name(ps, "a field name", &fl->pos)))
            return false;
        for (int k = 0; k < n; k++)
            if (strcmp(tmp[k].name, fl->name) == 0)
                return tjl_fail(ps->p, fl->pos, "field '%s' is declared twice", fl->name);
        if (!tjl_ps_expect_op(ps, TJL_P_COLON, "':' and the field's type") ||
            !(fl->ann = tjl_ps_test(ps)))
            return false;
        if (is_op(ps, TJL_P_ASSIGN))
            return tjl_fail(ps->p, cur(ps)->pos, "field defaults are not supported");
        if (!tjl_ps_expect_newline(ps))
            return false;
        n++;
    }
    advance(ps);
    if (n == 0)
        return tjl_fail(ps->p, st->pos, "struct '%s' has no fields", st->name);
    st->fields = tjl_alloc(ps->a, (size_t)n * sizeof *st->fields);
    if (!st->fields)
        return tjl_fail(ps->p, st->pos, "out of memory");
    memcpy(st->fields, tmp, (size_t)n * sizeof *tmp);
    st->nfields = n;
    return add_def(ps, (void ***)&ps->p->structs, &ps->p->nstructs, st);
}

/* NAME = EXPR: a module constant (wp.constant(...) or a constant expression). */
static bool
parse_const(parser *ps)
{
    tjl_const *c = tjl_alloc(ps->a, sizeof *c);
    if (!c)
        return tjl_fail(ps->p, cur(ps)->pos, "out of memory");
    c->name = cur(ps)->text;
    c->pos = cur(ps)->pos;
    c->type = tjl_none();
    advance(ps);
    advance(ps); /* '=' */
    if (!(c->expr = tjl_ps_test(ps)) || !tjl_ps_expect_newline(ps))
        return false;
    for (int k = 0; k < ps->p->nconsts; k++)
        if (strcmp(ps->p->consts[k]->name, c->name) == 0)
            return tjl_fail(ps->p, c->pos, "constant '%s' is defined twice", c->name);
    return add_def(ps, (void ***)&ps->p->consts, &ps->p->nconsts, c);
}

static bool
parse_decorated(parser *ps)
{
    deco d = DECO_NONE;
    while (is_op(ps, TJL_P_AT)) {
        deco d2 = DECO_NONE;
        if (!parse_decorator(ps, &d2))
            return false;
        if (d != DECO_NONE && d2 != d)
            return tjl_fail(ps->p, cur(ps)->pos, "conflicting decorators");
        d = d2;
    }
    return d == DECO_STRUCT ? parse_class(ps) : parse_def(ps, d);
}

static bool
parse_top(parser *ps)
{
    const tjl_token *t = cur(ps);
    if (t->kind == TJL_TK_NEWLINE) {
        advance(ps);
        return true;
    }
    if (is_kw(ps, TJL_KW_IMPORT) || is_kw(ps, TJL_KW_FROM))
        return parse_import(ps);
    if (is_op(ps, TJL_P_AT))
        return parse_decorated(ps);
    if (is_kw(ps, TJL_KW_DEF))
        return tjl_fail(ps->p, t->pos, "a function needs @wp.kernel or @wp.func before 'def'");
    if (is_kw(ps, TJL_KW_CLASS))
        return tjl_fail(ps->p, t->pos, "a class needs @wp.struct before 'class'");
    if (t->kind == TJL_TK_STRING) { /* a docstring */
        while (cur(ps)->kind == TJL_TK_STRING)
            advance(ps);
        return tjl_ps_expect_newline(ps);
    }
    if (t->kind == TJL_TK_INDENT)
        return tjl_fail(ps->p, t->pos, "unexpected indentation");
    if (t->kind == TJL_TK_NAME && next_tok(ps)->kind == TJL_TK_OP &&
        next_tok(ps)->sub == TJL_P_ASSIGN)
        return parse_const(ps);
    return tjl_fail(ps->p, t->pos, "expected an import, a constant (NAME = wp.constant(...)), "
                                   "@wp.kernel, @wp.func or @wp.struct at the top level");
}

bool
tjl_parse(tjl_program *p)
{
    parser ps = {.p = p, .a = &p->arena};
    if (!tjl_lex(&p->arena, p->src, p->len, &ps.t, &ps.n, &p->err))
        return false;
    while (cur(&ps)->kind != TJL_TK_EOF)
        if (!parse_top(&ps))
            return false;
    return true;
}
