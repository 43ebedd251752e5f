/*
 * tools/cli_values.c: the values of `tilejit run --arg NAME=VALUE`: a JSON number or bool
 * for a scalar parameter (a JSON list of components for a vector, matrix or quaternion),
 * and for an array a JSON nested list, zeros(N[,N..]) or @PATH.npy (NumPy .npy format
 * versions 1 to 3, read here: C order, any byte order). Values convert to the parameter's
 * element type when they fit exactly (integers in range, floats rounded).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { MAX_DEPTH = CLI_MAX_DIMS };

/* One scalar read from the text or a file. */
typedef struct leaf {
    enum { L_INT, L_FLOAT, L_BOOL } kind;
    bool neg;               /* L_INT: the sign */
    uint64_t mag;           /* L_INT: the magnitude */
    double f;               /* L_FLOAT (also set for L_INT) */
    bool b;
} leaf;

typedef struct leaves {
    leaf *v;
    size_t n, cap;
} leaves;

static bool
failf(char *err, size_t nerr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, nerr, fmt, ap);
    va_end(ap);
    return false;
}

static bool
push_leaf(leaves *l, leaf x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        leaf *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return true;
}

/* ---- JSON ---------------------------------------------------------------------------------- */

typedef struct json {
    const char *s;
    leaves *out;
    int64_t shape[MAX_DEPTH];
    int depth;              /* nesting seen so far: -1 until the first leaf */
    char *err;
    size_t nerr;
} json;

static void
skip_ws(json *j)
{
    while (isspace((unsigned char)*j->s))
        j->s++;
}

static bool
parse_number(json *j, leaf *x)
{
    const char *s = j->s;
    if (strncmp(s, "NaN", 3) == 0 || strncmp(s, "Infinity", 8) == 0 ||
        strncmp(s, "-Infinity", 9) == 0) {
        *x = (leaf){.kind = L_FLOAT, .f = s[0] == 'N' ? NAN : s[0] == '-' ? -INFINITY : INFINITY};
        j->s += s[0] == 'N' ? 3 : s[0] == '-' ? 9 : 8;
        return true;
    }
    const char *p = s;
    bool neg = *p == '-';
    p += neg;
    if (!isdigit((unsigned char)*p))
        return failf(j->err, j->nerr, "expected a number, true, false or '[' at '%.20s'", s);
    while (isdigit((unsigned char)*p))
        p++;
    bool integral = *p != '.' && *p != 'e' && *p != 'E';
    char *end;
    errno = 0;
    double f = strtod(s, &end);
    if (end == s)
        return failf(j->err, j->nerr, "bad number at '%.20s'", s);
    *x = (leaf){.kind = L_FLOAT, .f = f};
    if (integral) {
        errno = 0;
        unsigned long long mag = strtoull(s + neg, NULL, 10);
        if (errno == 0) {
            x->kind = L_INT;
            x->neg = neg && mag != 0;
            x->mag = mag;
        }
    }
    j->s = end;
    return true;
}

static bool parse_value(json *j, int level);

static bool
parse_list(json *j, int level)
{
    if (level >= MAX_DEPTH)
        return failf(j->err, j->nerr, "lists nest deeper than %d levels", MAX_DEPTH);
    j->s++; /* '[' */
    int64_t n = 0;
    skip_ws(j);
    if (*j->s == ']') {
        j->s++;
    } else {
        for (;;) {
            if (!parse_value(j, level + 1))
                return false;
            n++;
            skip_ws(j);
            if (*j->s == ']') {
                j->s++;
                break;
            }
            if (*j->s != ',')
                return failf(j->err, j->nerr, "expected ',' or ']' at '%.20s'", j->s);
            j->s++;
        }
    }
    if (j->shape[level] < 0)
        j->shape[level] = n;
    else if (j->shape[level] != n)
        return failf(j->err, j->nerr, "the lists are ragged: %lld and %lld entries at depth %d",
                     (long long)j->shape[level], (long long)n, level + 1);
    if (n == 0 && j->depth < 0)
        j->depth = level + 1;
    return true;
}

static bool
parse_value(json *j, int level)
{
    skip_ws(j);
    if (*j->s == '[')
        return parse_list(j, level);
    leaf x;
    if (strncmp(j->s, "true", 4) == 0 || strncmp(j->s, "false", 5) == 0) {
        x = (leaf){.kind = L_BOOL, .b = j->s[0] == 't', .f = j->s[0] == 't'};
        j->s += x.b ? 4 : 5;
    } else if (!parse_number(j, &x)) {
        return false;
    }
    if (j->depth < 0)
        j->depth = level;
    else if (j->depth != level)
        return failf(j->err, j->nerr, "the lists are ragged: numbers at depths %d and %d",
                     j->depth, level);
    if (!push_leaf(j->out, x))
        return failf(j->err, j->nerr, "out of memory");
    return true;
}

/* Parses JSON text into leaves and a shape of '*ndim' dims. */
static bool
parse_json(const char *text, leaves *out, int64_t *shape, int *ndim, char *err, size_t nerr)
{
    json j = {.s = text, .out = out, .depth = -1, .err = err, .nerr = nerr};
    for (int i = 0; i < MAX_DEPTH; i++)
        j.shape[i] = -1;
    if (!parse_value(&j, 0))
        return false;
    skip_ws(&j);
    if (*j.s)
        return failf(err, nerr, "unexpected text after the value: '%.20s'", j.s);
    *ndim = j.depth < 0 ? 0 : j.depth;
    for (int i = 0; i < *ndim; i++)
        shape[i] = j.shape[i] < 0 ? 0 : j.shape[i];
    return true;
}

/* ---- encoding ------------------------------------------------------------------------------ */

static bool
int_fits(const leaf *x, tj_dtype dt, bool sg, int bits)
{
    (void)dt;
    if (sg) {
        uint64_t lim = UINT64_C(1) << (bits - 1);
        return x->neg ? x->mag <= lim : x->mag < lim;
    }
    if (x->neg)
        return false;
    return bits == 64 || x->mag < (UINT64_C(1) << bits);
}

/* Writes leaf 'x' as a 'dt' at 'p'. */
static bool
encode(const leaf *x, tj_dtype dt, void *p, char *err, size_t nerr)
{
    size_t sz = cli_dtype_size(dt);
    if (dt == TJ_DTYPE_BOOL) {
        if (x->kind == L_BOOL || (x->kind == L_INT && x->mag <= 1 && !x->neg)) {
            uint8_t v = x->kind == L_BOOL ? x->b : (uint8_t)x->mag;
            memcpy(p, &v, 1);
            return true;
        }
        return failf(err, nerr, "expected true or false for a bool");
    }
    if (dt == TJ_DTYPE_F16 || dt == TJ_DTYPE_F32 || dt == TJ_DTYPE_F64) {
        if (x->kind == L_BOOL)
            return failf(err, nerr, "expected a number for %s, got a bool", cli_dtype_name(dt));
        double f = x->kind == L_INT ? (x->neg ? -(double)x->mag : (double)x->mag) : x->f;
        if (dt == TJ_DTYPE_F64) {
            memcpy(p, &f, 8);
        } else if (dt == TJ_DTYPE_F32) {
            float v = (float)f;
            memcpy(p, &v, 4);
        } else {
            uint16_t h = cli_half_from_double(f);
            memcpy(p, &h, 2);
        }
        return true;
    }
    leaf y = *x;
    if (y.kind == L_FLOAT && isfinite(y.f) && y.f == trunc(y.f) && fabs(y.f) < 1.8e19) {
        y.kind = L_INT;
        y.neg = y.f < 0;
        y.mag = (uint64_t)fabs(y.f);
    }
    bool sg = dt >= TJ_DTYPE_I8 && dt <= TJ_DTYPE_I64;
    if (y.kind != L_INT || !int_fits(&y, dt, sg, (int)sz * 8))
        return failf(err, nerr, "%s%.17g does not fit in %s",
                     y.kind == L_BOOL ? "a bool " : "", x->kind == L_INT && x->neg
                                                            ? -(double)x->mag : x->kind == L_INT
                                                            ? (double)x->mag : x->f,
                     cli_dtype_name(dt));
    uint64_t v = y.neg ? (uint64_t)0 - y.mag : y.mag;
    memcpy(p, &v, sz); /* little-endian: the low bytes */
    return true;
}

static bool
encode_all(const leaves *l, cli_buffer *b, char *err, size_t nerr)
{
    size_t sz = cli_dtype_size(b->dtype);
    b->data = calloc(l->n ? l->n : 1, sz);
    if (!b->data)
        return failf(err, nerr, "out of memory");
    b->nleaves = l->n;
    for (size_t i = 0; i < l->n; i++)
        if (!encode(&l->v[i], b->dtype, (char *)b->data + i * sz, err, nerr))
            return false;
    return true;
}

/* ---- zeros(...) and .npy ------------------------------------------------------------------- */

/* zeros(N[, N..]) or zeros((N, N)) as NumPy writes it. */
static bool
parse_zeros(const char *text, int64_t *shape, int *ndim, char *err, size_t nerr)
{
    char buf[256];
    const char *s = text + 6; /* after "zeros(" */
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 0 || len >= sizeof buf || s[len - 1] != ')')
        return failf(err, nerr, "zeros(): expected extents such as zeros(8) or zeros(4,4)");
    memcpy(buf, s, len - 1);
    buf[len - 1] = 0;
    char *p = buf, *end = buf + strlen(buf);
    while (isspace((unsigned char)*p))
        p++;
    while (end > p && isspace((unsigned char)end[-1]))
        *--end = 0;
    if (*p == '(' && end > p && end[-1] == ')') {
        p++;
        *--end = 0;
    }
    *ndim = 0;
    while (*p) {
        char *q;
        errno = 0;
        long long v = strtoll(p, &q, 10);
        if (q == p || errno || v < 0 || v > INT32_MAX)
            return failf(err, nerr, "zeros(): expected extents such as zeros(8) or zeros(4,4)");
        if (*ndim == CLI_MAX_DIMS)
            return failf(err, nerr, "zeros(): too many extents");
        shape[(*ndim)++] = v;
        p = q;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == ',')
            p++;
        else if (*p)
            return failf(err, nerr, "zeros(): unexpected text '%.20s'", p);
        while (isspace((unsigned char)*p))
            p++;
    }
    if (*ndim == 0)
        return failf(err, nerr, "zeros(): expected extents such as zeros(8) or zeros(4,4)");
    return true;
}

static char *
read_file(const char *path, size_t *len, char *err, size_t nerr)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        failf(err, nerr, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = cap < ((size_t)1 << 34) ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        failf(err, nerr, "cannot read '%s'", path);
        return NULL;
    }
    *len = n;
    return buf;
}

/* The value of key 'key' in a .npy header dict (after "'key':"), or NULL. */
static const char *
npy_key(const char *hdr, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(hdr, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ' || *p == ':')
        p++;
    return p;
}

typedef struct npy {
    char order;             /* '<', '>' or '|' */
    char kind;              /* 'b', 'i', 'u', 'f' */
    int size;
    int ndim;
    int64_t shape[CLI_MAX_DIMS];
    const unsigned char *data;
    size_t nbytes;
} npy;

static bool
npy_header(const char *buf, size_t len, npy *h, char *err, size_t nerr)
{
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return failf(err, nerr, "not a .npy file (no \\x93NUMPY magic)");
    int major = (unsigned char)buf[6];
    size_t hlen, start;
    if (major == 1) {
        hlen = (unsigned char)buf[8] | ((size_t)(unsigned char)buf[9] << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12)
            return failf(err, nerr, "truncated .npy header");
        hlen = (unsigned char)buf[8] | ((size_t)(unsigned char)buf[9] << 8) |
               ((size_t)(unsigned char)buf[10] << 16) | ((size_t)(unsigned char)buf[11] << 24);
        start = 12;
    } else {
        return failf(err, nerr, ".npy version %d is not supported", major);
    }
    if (hlen > len - start || hlen > 65536)
        return failf(err, nerr, "truncated .npy header");
    char hdr[65537];
    memcpy(hdr, buf + start, hlen);
    hdr[hlen] = 0;
    const char *d = npy_key(hdr, "descr"), *fo = npy_key(hdr, "fortran_order");
    const char *sh = npy_key(hdr, "shape");
    if (!d || !fo || !sh || (*d != '\'' && *d != '"'))
        return failf(err, nerr, "the .npy header lacks descr, fortran_order or shape");
    if (strncmp(fo, "True", 4) == 0)
        return failf(err, nerr, "Fortran-order .npy files are not supported (save a "
                                "C-order array)");
    h->order = d[1];
    h->kind = d[2];
    h->size = atoi(d + 3);
    if (!strchr("<>|=", h->order) || !strchr("biuf", h->kind) ||
        !(h->size == 1 || h->size == 2 || h->size == 4 || h->size == 8) ||
        (h->kind == 'f' && h->size == 1) || (h->kind == 'b' && h->size != 1))
        return failf(err, nerr, "the .npy dtype %.8s is not supported (bool, ints, floats)", d);
    if (*sh != '(')
        return failf(err, nerr, "bad shape in the .npy header");
    h->ndim = 0;
    for (const char *p = sh + 1; *p && *p != ')';) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 0 || h->ndim == CLI_MAX_DIMS)
            return failf(err, nerr, "bad shape in the .npy header");
        h->shape[h->ndim++] = v;
        p = end;
    }
    h->data = (const unsigned char *)buf + start + hlen;
    h->nbytes = len - start - hlen;
    return true;
}

static leaf
npy_leaf(const npy *h, const unsigned char *p)
{
    unsigned char b[8];
    bool swap = h->order == '>';
    for (int i = 0; i < h->size; i++)
        b[i] = swap ? p[h->size - 1 - i] : p[i];
    uint64_t u = 0;
    memcpy(&u, b, (size_t)h->size);
    leaf x = {.kind = L_INT};
    if (h->kind == 'b')
        return (leaf){.kind = L_BOOL, .b = u != 0, .f = u != 0};
    if (h->kind == 'f') {
        x.kind = L_FLOAT;
        if (h->size == 2) {
            x.f = cli_half_to_double((uint16_t)u);
        } else if (h->size == 4) {
            float f;
            memcpy(&f, b, 4);
            x.f = f;
        } else {
            memcpy(&x.f, b, 8);
        }
        return x;
    }
    int bits = h->size * 8;
    if (h->kind == 'i' && bits < 64 && (u >> (bits - 1)))
        u |= ~((UINT64_C(1) << bits) - 1);
    bool neg = h->kind == 'i' && (int64_t)u < 0;
    x.neg = neg;
    x.mag = neg ? (uint64_t)0 - u : u;
    return x;
}

static bool
parse_npy(const char *path, leaves *out, int64_t *shape, int *ndim, char *err, size_t nerr)
{
    size_t len;
    char *buf = read_file(path, &len, err, nerr);
    if (!buf)
        return false;
    npy h;
    bool ok = npy_header(buf, len, &h, err, nerr);
    size_t n = 1;
    for (int i = 0; ok && i < h.ndim; i++) {
        if (h.shape[i] && n > SIZE_MAX / 16 / (size_t)h.shape[i])
            ok = failf(err, nerr, "the .npy array is too large");
        n *= (size_t)h.shape[i];
    }
    if (ok && n * (size_t)h.size > h.nbytes)
        ok = failf(err, nerr, "'%s' is truncated: %zu data bytes for %zu elements", path,
                   h.nbytes, n);
    for (size_t i = 0; ok && i < n; i++)
        if (!push_leaf(out, npy_leaf(&h, h.data + i * (size_t)h.size)))
            ok = failf(err, nerr, "out of memory");
    if (ok) {
        *ndim = h.ndim;
        memcpy(shape, h.shape, sizeof h.shape);
    }
    free(buf);
    return ok;
}

/* ---- the entry points ---------------------------------------------------------------------- */

void
cli_buffer_free(cli_buffer *b)
{
    free(b->data);
    b->data = NULL;
}

bool
cli_parse_array(const char *text, const tj_type *elem, int ndim, cli_buffer *out, char *err,
                size_t nerr)
{
    *out = (cli_buffer){.dtype = tj_type_get_dtype(elem), .ndim = ndim};
    int64_t comp[2];
    if (!cli_elem_dims(elem, &out->ncomp_dims, comp))
        return failf(err, nerr, "arrays of %s (a struct) cannot be passed from the command line",
                     tj_type_get_name(elem));
    int want = ndim + out->ncomp_dims, got = 0;
    int64_t shape[CLI_MAX_DIMS] = {0};
    leaves l = {0};
    bool ok;
    if (strncmp(text, "zeros(", 6) == 0) {
        ok = parse_zeros(text, shape, &got, err, nerr);
        if (ok && got != ndim)
            ok = failf(err, nerr, "zeros() has %d extent%s; the parameter has %d dimension%s",
                       got, got == 1 ? "" : "s", ndim, ndim == 1 ? "" : "s");
        for (int i = 0; ok && i < out->ncomp_dims; i++)
            shape[got++] = comp[i];
        size_t n = 1;
        for (int i = 0; ok && i < got; i++)
            n *= (size_t)shape[i];
        for (size_t i = 0; ok && i < n; i++)
            ok = push_leaf(&l, (leaf){.kind = L_INT}) || failf(err, nerr, "out of memory");
    } else if (text[0] == '@') {
        ok = parse_npy(text + 1, &l, shape, &got, err, nerr);
    } else {
        ok = parse_json(text, &l, shape, &got, err, nerr);
        if (ok && got == 0)
            ok = failf(err, nerr, "expected a list, zeros(SHAPE) or @FILE.npy for an array");
    }
    if (ok && got != want)
        ok = failf(err, nerr, "the value has %d dimension%s; the parameter needs %d (%d for the "
                              "array%s)", got, got == 1 ? "" : "s", want, ndim,
                   out->ncomp_dims ? " and the rest for each element's components" : "");
    for (int i = 0; ok && i < out->ncomp_dims; i++)
        if (shape[ndim + i] != comp[i])
            ok = failf(err, nerr, "each element of %s needs %lld components in the last "
                                  "dimension, got %lld", tj_type_get_name(elem),
                       (long long)comp[i], (long long)shape[ndim + i]);
    for (int i = 0; ok && i < ndim; i++)
        if (shape[i] > INT32_MAX)
            ok = failf(err, nerr, "extent %lld is too large", (long long)shape[i]);
    if (ok) {
        memcpy(out->shape, shape, sizeof shape);
        ok = encode_all(&l, out, err, nerr);
    }
    free(l.v);
    if (!ok)
        cli_buffer_free(out);
    return ok;
}

bool
cli_parse_scalar(const char *text, const tj_type *t, tj_arg *arg, void *storage, char *err,
                 size_t nerr)
{
    tj_dtype dt = tj_type_get_dtype(t);
    int ncd;
    int64_t comp[2];
    if (!cli_elem_dims(t, &ncd, comp))
        return failf(err, nerr, "a struct (%s) cannot be passed from the command line",
                     tj_type_get_name(t));
    leaves l = {0};
    int64_t shape[CLI_MAX_DIMS];
    int got;
    bool ok = parse_json(text, &l, shape, &got, err, nerr);
    if (ok && got != ncd)
        ok = failf(err, nerr, "expected %s for %s", ncd ? "a list of components" : "a number or "
                                                                               "a bool",
                   tj_type_get_name(t));
    for (int i = 0; ok && i < ncd; i++)
        if (shape[i] != comp[i])
            ok = failf(err, nerr, "%s needs %lld components, got %lld", tj_type_get_name(t),
                       (long long)comp[i], (long long)shape[i]);
    if (ok && l.n * cli_dtype_size(dt) > 128)
        ok = failf(err, nerr, "the value is too large");
    for (size_t i = 0; ok && i < l.n; i++)
        ok = encode(&l.v[i], dt, (char *)storage + i * cli_dtype_size(dt), err, nerr);
    free(l.v);
    if (ok)
        *arg = tj_arg_bytes(t, storage);
    return ok;
}
