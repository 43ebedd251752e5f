/*
 * jit/lang/lexer.c: Python tokens for the kernel language. Produces NEWLINE, INDENT and
 * DEDENT the way Python does (tabs advance to the next multiple of 8; lines inside
 * brackets or after a backslash continue; blank and comment lines produce nothing).
 * Reads only inside [src, src + len); every error names its byte offset.
 */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

enum { MAX_INDENTS = 100, MAX_BRACKETS = 200 };

static const char *const kw_texts[TJL_NKW] = {
    [TJL_KW_AND] = "and",          [TJL_KW_AS] = "as",         [TJL_KW_BREAK] = "break",
    [TJL_KW_CLASS] = "class",      [TJL_KW_CONTINUE] = "continue", [TJL_KW_DEF] = "def",
    [TJL_KW_ELIF] = "elif",        [TJL_KW_ELSE] = "else",     [TJL_KW_FALSE] = "False",
    [TJL_KW_FOR] = "for",          [TJL_KW_FROM] = "from",     [TJL_KW_IF] = "if",
    [TJL_KW_IMPORT] = "import",    [TJL_KW_IN] = "in",         [TJL_KW_IS] = "is",
    [TJL_KW_NONE] = "None",        [TJL_KW_NOT] = "not",       [TJL_KW_OR] = "or",
    [TJL_KW_PASS] = "pass",        [TJL_KW_RETURN] = "return", [TJL_KW_TRUE] = "True",
    [TJL_KW_WHILE] = "while",      [TJL_KW_ASSERT] = "assert", [TJL_KW_ASYNC] = "async",
    [TJL_KW_AWAIT] = "await",      [TJL_KW_DEL] = "del",       [TJL_KW_EXCEPT] = "except",
    [TJL_KW_FINALLY] = "finally",  [TJL_KW_GLOBAL] = "global", [TJL_KW_LAMBDA] = "lambda",
    [TJL_KW_NONLOCAL] = "nonlocal", [TJL_KW_RAISE] = "raise",  [TJL_KW_TRY] = "try",
    [TJL_KW_WITH] = "with",        [TJL_KW_YIELD] = "yield",
};

/* Longest first, so that "**=" wins over "**" and "*". */
static const struct {
    const char *text;
    tjl_punct p;
} puncts[] = {
    {"**=", TJL_P_POW_EQ},     {"//=", TJL_P_FLOORDIV_EQ}, {"<<=", TJL_P_LSHIFT_EQ},
    {">>=", TJL_P_RSHIFT_EQ},  {"->", TJL_P_ARROW},        {"**", TJL_P_DSTAR},
    {"//", TJL_P_DSLASH},      {"<<", TJL_P_LSHIFT},       {">>", TJL_P_RSHIFT},
    {"<=", TJL_P_LE},          {">=", TJL_P_GE},           {"==", TJL_P_EQ},
    {"!=", TJL_P_NE},          {":=", TJL_P_WALRUS},       {"+=", TJL_P_ADD_EQ},
    {"-=", TJL_P_SUB_EQ},      {"*=", TJL_P_MUL_EQ},       {"/=", TJL_P_DIV_EQ},
    {"%=", TJL_P_MOD_EQ},      {"@=", TJL_P_MATMUL_EQ},    {"&=", TJL_P_AND_EQ},
    {"|=", TJL_P_OR_EQ},       {"^=", TJL_P_XOR_EQ},       {"(", TJL_P_LPAREN},
    {")", TJL_P_RPAREN},       {"[", TJL_P_LBRACKET},      {"]", TJL_P_RBRACKET},
    {"{", TJL_P_LBRACE},       {"}", TJL_P_RBRACE},        {",", TJL_P_COMMA},
    {":", TJL_P_COLON},        {".", TJL_P_DOT},           {";", TJL_P_SEMI},
    {"@", TJL_P_AT},           {"=", TJL_P_ASSIGN},        {"+", TJL_P_PLUS},
    {"-", TJL_P_MINUS},        {"*", TJL_P_STAR},          {"/", TJL_P_SLASH},
    {"%", TJL_P_PERCENT},      {"&", TJL_P_AMP},           {"|", TJL_P_PIPE},
    {"^", TJL_P_CARET},        {"~", TJL_P_TILDE},         {"<", TJL_P_LT},
    {">", TJL_P_GT},
};

const char *
tjl_punct_text(int p)
{
    for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++)
        if ((int)puncts[i].p == p)
            return puncts[i].text;
    return "?";
}

const char *
tjl_kw_text(int kw)
{
    return kw >= 0 && kw < TJL_NKW ? kw_texts[kw] : "?";
}

typedef struct lexer {
    tjl_arena *a;
    const char *src;
    size_t len, i;
    tjl_token *toks;
    int ntoks, cap;
    int indents[MAX_INDENTS];
    int nindents;
    int depth;                 /* open brackets */
    tjl_error *err;
} lexer;

static int
peekc(const lexer *l, size_t ahead)
{
    return l->i + ahead < l->len ? (unsigned char)l->src[l->i + ahead] : -1;
}

static tjl_token *
push(lexer *l, int kind, int sub, size_t pos, size_t len)
{
    if (l->ntoks == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        tjl_token *t = tjl_alloc(l->a, (size_t)cap * sizeof *t);
        if (!t) {
            tjl_fail_error(l->err, (int)pos, "out of memory");
            return NULL;
        }
        if (l->ntoks)
            memcpy(t, l->toks, (size_t)l->ntoks * sizeof *t);
        l->toks = t;
        l->cap = cap;
    }
    tjl_token *t = &l->toks[l->ntoks++];
    *t = (tjl_token){.kind = (uint8_t)kind, .sub = (uint8_t)sub, .pos = (int)pos,
                     .len = (int)len};
    return t;
}

static bool
is_name_start(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_name_char(int c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* ---- numbers ------------------------------------------------------------------------------- */

static int
digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Integers in base 2, 8, 10 or 16 with '_' separators; false on overflow of uint64 (the
 * bit pattern is kept: literals above INT64_MAX only fit wp.uint64). */
static bool
parse_int(const char *s, size_t n, int base, int64_t *out)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_')
            continue;
        int d = digit_value((unsigned char)s[i]);
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = (int64_t)v;
    return true;
}

/* strtod on a copy without '_', with '.' replaced by the locale's decimal point. */
static bool
parse_float(const char *s, size_t n, double *out)
{
    char buf[128];
    const char *dp = localeconv()->decimal_point;
    size_t m = 0, dplen = dp && *dp ? strlen(dp) : 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_')
            continue;
        if (m + dplen + 1 >= sizeof buf)
            return false;
        if (s[i] == '.') {
            memcpy(buf + m, dp && *dp ? dp : ".", dplen);
            m += dplen;
        } else {
            buf[m++] = s[i];
        }
    }
    buf[m] = 0;
    errno = 0;
    char *end;
    *out = strtod(buf, &end);
    return end == buf + m;
}

static size_t
scan_digits(const lexer *l, size_t i, int base)
{
    while (i < l->len && (digit_value((unsigned char)l->src[i]) < base || l->src[i] == '_'))
        i++;
    return i;
}

static bool
lex_number(lexer *l)
{
    size_t start = l->i, i = start;
    int base = 10;
    bool is_float = false;
    if (l->src[i] == '0' && i + 1 < l->len && strchr("xXoObB", l->src[i + 1]) && l->src[i + 1]) {
        char c = (char)tolower((unsigned char)l->src[i + 1]);
        base = c == 'x' ? 16 : c == 'o' ? 8 : 2;
        i = scan_digits(l, i + 2, base);
        if (i == start + 2)
            return tjl_fail_error(l->err, (int)start, "expected digits after '0%c'", c);
    } else {
        i = scan_digits(l, i, 10);
        if (i < l->len && l->src[i] == '.') {
            is_float = true;
            i = scan_digits(l, i + 1, 10);
        }
        if (i < l->len && (l->src[i] == 'e' || l->src[i] == 'E')) {
            size_t j = i + 1;
            if (j < l->len && (l->src[j] == '+' || l->src[j] == '-'))
                j++;
            if (j < l->len && isdigit((unsigned char)l->src[j])) {
                is_float = true;
                i = scan_digits(l, j, 10);
            }
        }
    }
    if (i < l->len && (is_name_char((unsigned char)l->src[i]) || l->src[i] == '.'))
        return tjl_fail_error(l->err, (int)i, "invalid character '%c' in a number%s",
                              l->src[i], l->src[i] == 'j' || l->src[i] == 'J'
                                             ? " (complex numbers are not supported)" : "");
    size_t n = i - start;
    tjl_token *t = push(l, is_float ? TJL_TK_FLOAT : TJL_TK_INT, 0, start, n);
    if (!t)
        return false;
    l->i = i;
    if (is_float) {
        if (!parse_float(l->src + start, n, &t->fval))
            return tjl_fail_error(l->err, (int)start, "invalid float literal");
        return true;
    }
    const char *digits = l->src + start + (base == 10 ? 0 : 2);
    size_t nd = n - (base == 10 ? 0 : 2);
    if (base == 10 && nd > 1 && digits[0] == '0') {
        for (size_t k = 0; k < nd; k++)
            if (digits[k] != '0' && digits[k] != '_')
                return tjl_fail_error(l->err, (int)start,
                                      "leading zeros are not allowed in integers (use 0o for "
                                      "octal)");
    }
    if (!parse_int(digits, nd, base, &t->ival))
        return tjl_fail_error(l->err, (int)start, "integer literal is too large for uint64");
    return true;
}

/* ---- strings ------------------------------------------------------------------------------- */

static int
escape_char(int c)
{
    switch (c) {
    case 'n':
        return '\n';
    case 't':
        return '\t';
    case 'r':
        return '\r';
    case '0':
        return 0;
    case '\\':
    case '\'':
    case '"':
        return c;
    default:
        return -1;
    }
}

static bool
lex_string(lexer *l, size_t start, bool raw)
{
    char q = l->src[l->i];
    bool triple = peekc(l, 1) == q && peekc(l, 2) == q;
    size_t i = l->i + (triple ? 3 : 1);
    char *text = tjl_alloc(l->a, l->len - i + 1);
    if (!text)
        return tjl_fail_error(l->err, (int)start, "out of memory");
    size_t n = 0;
    for (;;) {
        if (i >= l->len)
            return tjl_fail_error(l->err, (int)start, "unterminated string literal");
        char c = l->src[i];
        if (c == q && (!triple || (i + 2 < l->len && l->src[i + 1] == q && l->src[i + 2] == q)))
            break;
        if (c == '\n' && !triple)
            return tjl_fail_error(l->err, (int)start, "unterminated string literal");
        if (c == '\\' && !raw && i + 1 < l->len) {
            int e = escape_char((unsigned char)l->src[i + 1]);
            if (l->src[i + 1] == '\n') {
                i += 2;
                continue;
            }
            text[n++] = (char)(e < 0 ? '\\' : e);
            i += e < 0 ? 1 : 2;
            continue;
        }
        text[n++] = c;
        i++;
    }
    i += triple ? 3 : 1;
    tjl_token *t = push(l, TJL_TK_STRING, 0, start, i - start);
    if (!t)
        return false;
    t->text = text;
    l->i = i;
    return true;
}

/* ---- names, operators ---------------------------------------------------------------------- */

static bool
lex_name(lexer *l)
{
    size_t start = l->i, i = start;
    while (i < l->len && is_name_char((unsigned char)l->src[i]))
        i++;
    size_t n = i - start;
    if (i < l->len && (l->src[i] == '\'' || l->src[i] == '"') && n <= 2) {
        char p0 = (char)tolower((unsigned char)l->src[start]);
        if (n != 1 || (p0 != 'r' && p0 != 'u'))
            return tjl_fail_error(l->err, (int)start,
                                  "only plain strings are supported (no f-strings or bytes)");
        l->i = i;
        return lex_string(l, start, p0 == 'r');
    }
    if (i < l->len && ((unsigned char)l->src[i] >= 0x80))
        return tjl_fail_error(l->err, (int)i, "only ASCII names are supported");
    for (int kw = 0; kw < TJL_NKW; kw++) {
        if (strlen(kw_texts[kw]) == n && memcmp(kw_texts[kw], l->src + start, n) == 0) {
            l->i = i;
            return push(l, TJL_TK_KEYWORD, kw, start, n) != NULL;
        }
    }
    tjl_token *t = push(l, TJL_TK_NAME, 0, start, n);
    if (!t || !(t->text = tjl_strndup(l->a, l->src + start, n)))
        return tjl_fail_error(l->err, (int)start, "out of memory");
    l->i = i;
    return true;
}

static bool
lex_punct(lexer *l)
{
    for (size_t k = 0; k < sizeof puncts / sizeof puncts[0]; k++) {
        size_t n = strlen(puncts[k].text);
        if (l->len - l->i < n || memcmp(l->src + l->i, puncts[k].text, n) != 0)
            continue;
        tjl_punct p = puncts[k].p;
        if (p == TJL_P_LPAREN || p == TJL_P_LBRACKET || p == TJL_P_LBRACE) {
            if (++l->depth > MAX_BRACKETS)
                return tjl_fail_error(l->err, (int)l->i, "brackets nest too deeply");
        } else if (p == TJL_P_RPAREN || p == TJL_P_RBRACKET || p == TJL_P_RBRACE) {
            if (l->depth > 0)
                l->depth--;
        }
        if (!push(l, TJL_TK_OP, p, l->i, n))
            return false;
        l->i += n;
        return true;
    }
    int c = (unsigned char)l->src[l->i];
    if (c >= 0x20 && c < 0x7f)
        return tjl_fail_error(l->err, (int)l->i, "unexpected character '%c'", c);
    return tjl_fail_error(l->err, (int)l->i, "unexpected byte 0x%02x", (unsigned)c);
}

/* ---- lines and indentation ----------------------------------------------------------------- */

/* At the start of a logical line: measures the indentation and emits INDENT or DEDENTs.
 * Blank and comment-only lines are skipped. Returns false on error; sets '*eof'. */
static bool
lex_indent(lexer *l, bool *eof)
{
    for (;;) {
        int col = 0;
        size_t i = l->i;
        while (i < l->len && (l->src[i] == ' ' || l->src[i] == '\t' || l->src[i] == '\f')) {
            col = l->src[i] == '\t' ? (col / 8 + 1) * 8 : l->src[i] == ' ' ? col + 1 : 0;
            i++;
        }
        if (i >= l->len) {
            l->i = i;
            *eof = true;
            return true;
        }
        char c = l->src[i];
        if (c == '#') {
            while (i < l->len && l->src[i] != '\n')
                i++;
        }
        if (i < l->len && (l->src[i] == '\n' || l->src[i] == '\r')) {
            l->i = i + 1;
            continue;
        }
        if (i >= l->len) {
            l->i = i;
            *eof = true;
            return true;
        }
        l->i = i;
        int top = l->indents[l->nindents - 1];
        if (col > top) {
            if (l->nindents == MAX_INDENTS)
                return tjl_fail_error(l->err, (int)i, "too many levels of indentation");
            l->indents[l->nindents++] = col;
            return push(l, TJL_TK_INDENT, 0, i, 0) != NULL;
        }
        while (col < l->indents[l->nindents - 1]) {
            l->nindents--;
            if (!push(l, TJL_TK_DEDENT, 0, i, 0))
                return false;
        }
        if (col != l->indents[l->nindents - 1])
            return tjl_fail_error(l->err, (int)i,
                                  "unindent does not match any outer indentation level");
        return true;
    }
}

static bool
lex_all(lexer *l)
{
    bool line_start = true, eof = false;
    for (;;) {
        if (line_start) {
            if (!lex_indent(l, &eof))
                return false;
            line_start = false;
            if (eof)
                break;
        }
        if (l->i >= l->len)
            break;
        int c = (unsigned char)l->src[l->i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
            l->i++;
        } else if (c == '#') {
            while (l->i < l->len && l->src[l->i] != '\n')
                l->i++;
        } else if (c == '\\') {
            size_t j = l->i + 1;
            if (j < l->len && l->src[j] == '\r')
                j++;
            if (j >= l->len || l->src[j] != '\n')
                return tjl_fail_error(l->err, (int)l->i,
                                      "unexpected character after line continuation");
            l->i = j + 1;
        } else if (c == '\n') {
            if (l->depth == 0) {
                if (!push(l, TJL_TK_NEWLINE, 0, l->i, 1))
                    return false;
                line_start = true;
            }
            l->i++;
        } else if (isdigit(c) || (c == '.' && isdigit(peekc(l, 1)))) {
            if (!lex_number(l))
                return false;
        } else if (is_name_start(c)) {
            if (!lex_name(l))
                return false;
        } else if (c == '\'' || c == '"') {
            if (!lex_string(l, l->i, false))
                return false;
        } else if (!lex_punct(l)) {
            return false;
        }
    }
    if (l->depth > 0)
        return tjl_fail_error(l->err, (int)l->len, "unexpected end of file: a bracket is not "
                                                   "closed");
    if (l->ntoks > 0 && l->toks[l->ntoks - 1].kind != TJL_TK_NEWLINE &&
        l->toks[l->ntoks - 1].kind != TJL_TK_DEDENT && !push(l, TJL_TK_NEWLINE, 0, l->len, 0))
        return false;
    while (l->nindents > 1) {
        l->nindents--;
        if (!push(l, TJL_TK_DEDENT, 0, l->len, 0))
            return false;
    }
    return push(l, TJL_TK_EOF, 0, l->len, 0) != NULL;
}

bool
tjl_lex(tjl_arena *a, const char *src, size_t len, tjl_token **out, int *ntokens, tjl_error *err)
{
    lexer l = {.a = a, .src = src, .len = len, .nindents = 1, .err = err};
    if (len > TJL_MAX_SOURCE)
        return tjl_fail_error(err, -1, "the source is larger than %d bytes", TJL_MAX_SOURCE);
    if (!lex_all(&l))
        return false;
    *out = l.toks;
    *ntokens = l.ntoks;
    return true;
}
