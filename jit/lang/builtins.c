/*
 * jit/lang/builtins.c: the builtins a kernel can call: the name table (tile builtins from
 * builtins/builtins.def, the rest from builtins_lang.def), binding of positional and
 * keyword arguments to parameters, and argument helpers (integers, constants, shapes,
 * types, storage strings) shared with the builtins' type rules in builtins_check.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins_check.h"

static const char *const names[TJL_NBUILTINS] = {
#define TJI_BUILTIN(id, name, family, coop) [TJL_B_##id] = name,
#include "builtins.def"
#undef TJI_BUILTIN
#define TJL_BUILTIN(id, name, spec) [TJL_B_##id] = name,
#include "builtins_lang.def"
#undef TJL_BUILTIN
};

/* Parameters of the tile builtins (the mini-language of builtins_lang.def). */
static const char *const specs[TJL_NBUILTINS] = {
    [TJL_B_TILE_ZEROS] = "shape,dtype?,storage?",
    [TJL_B_TILE_ONES] = "shape,dtype?,storage?",
    [TJL_B_TILE_ARANGE] = "*args,dtype?,storage?",
    [TJL_B_TILE_LOAD] = "a,shape,offset?,storage?",
    [TJL_B_TILE_STORE] = "a,t,offset?",
    [TJL_B_TILE_RESHAPE] = "t,shape",
    [TJL_B_TILE_ASSIGN] = "dst,src,offset?",
    [TJL_B_TILE_EXTRACT] = "a,*i",
    [TJL_B_TILE_ATOMIC_ADD] = "a,t,offset?",
    [TJL_B_TILE] = "x,preserve_type?",
    [TJL_B_UNTILE] = "a",
    [TJL_B_TILE_VIEW] = "t,offset,shape?",
    [TJL_B_TILE_MAP] = "op,*args",
    [TJL_B_TILE_REDUCE] = "op,a,axis?",
    [TJL_B_TILE_SCATTER_ADD] = "a,*i,value,has_value,atomic?",
    [TJL_B_TILE_STACK] = "capacity,dtype",
    [TJL_B_TILE_STACK_PUSH] = "s,value,has_value",
    [TJL_B_TILE_STACK_POP] = "s",
    [TJL_B_TILE_STACK_COUNT] = "s",
    [TJL_B_TILE_STACK_CLEAR] = "s",
#define TJL_BUILTIN(id, name, spec) [TJL_B_##id] = spec,
#include "builtins_lang.def"
#undef TJL_BUILTIN
};

const char *
tjl_builtin_name(int id)
{
    return id >= 0 && id < TJL_NBUILTINS && names[id] ? names[id] : "?";
}

int
tjl_builtin_find(const char *name)
{
    for (int i = 0; i < TJL_NBUILTINS; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* ---- argument binding ----------------------------------------------------------------------- */

typedef struct param {
    char name[32];
    bool optional, variadic;
} param;

static int
parse_spec(const char *spec, param *ps, int max)
{
    int n = 0;
    while (spec && *spec && n < max) {
        const char *end = strchr(spec, ',');
        size_t len = end ? (size_t)(end - spec) : strlen(spec);
        param *p = &ps[n++];
        *p = (param){0};
        p->variadic = spec[0] == '*';
        size_t from = p->variadic ? 1 : 0;
        p->optional = len > 0 && spec[len - 1] == '?';
        size_t nlen = len - from - (p->optional ? 1 : 0);
        if (nlen >= sizeof p->name)
            nlen = sizeof p->name - 1;
        memcpy(p->name, spec + from, nlen);
        spec = end ? end + 1 : NULL;
    }
    return n;
}

static bool
fail_arity(tjl_checker *c, tjl_expr *e, const char *fn, const param *ps, int np)
{
    char sig[256];
    size_t used = 0;
    sig[0] = 0;
    for (int i = 0; i < np && used + 40 < sizeof sig; i++)
        used += (size_t)snprintf(sig + used, sizeof sig - used, "%s%s%s%s", i ? ", " : "",
                                 ps[i].variadic ? "*" : "", ps[i].name,
                                 ps[i].optional ? "=..." : "");
    return tjl_fail(tjl_checker_program(c), e->pos, "%s() takes %s%s%s", fn,
                    np ? "(" : "no arguments", sig, np ? ")" : "");
}

/* Binds e's arguments to builtin 'id's parameters: e->bound gets the fixed parameters in
 * order (NULL when absent), e->vargs what the variadic one took. Parameters after the
 * variadic one come from the end of the positional arguments unless given by keyword;
 * optional ones only by keyword. */
static bool
bind_args(tjl_checker *c, tjl_expr *e, int id)
{
    tjl_program *p = tjl_checker_program(c);
    const char *fn = tjl_builtin_name(id);
    param ps[8];
    int np = parse_spec(specs[id], ps, 8), nfixed = 0, var = -1;
    for (int i = 0; i < np; i++)
        if (ps[i].variadic)
            var = i;
        else
            nfixed++;
    tjl_expr *byparam[8] = {0};
    for (int k = 0; k < e->nkw; k++) {
        int i = 0;
        while (i < np && (ps[i].variadic || strcmp(ps[i].name, e->kwnames[k]) != 0))
            i++;
        if (i == np) {
            char list[200];
            size_t used = 0;
            list[0] = 0;
            for (int j = 0; j < np && used + 40 < sizeof list; j++)
                if (!ps[j].variadic)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                             used ? ", " : "", ps[j].name);
            return tjl_fail(p, e->kwpos[k], "%s() got an unexpected keyword argument '%s' "
                                            "(expected %s%s)", fn, e->kwnames[k],
                            used ? "one of " : "none", list);
        }
        byparam[i] = e->kwargs[k];
    }
    int lo = 0, hi = e->nargs; /* positional arguments not yet taken */
    for (int i = 0; i < (var < 0 ? np : var); i++) {
        if (lo < hi && byparam[i])
            return tjl_fail(p, byparam[i]->pos, "%s() got multiple values for argument '%s'",
                            fn, ps[i].name);
        if (!byparam[i] && lo < hi)
            byparam[i] = e->args[lo++];
    }
    for (int i = np - 1; var >= 0 && i > var; i--)
        if (!byparam[i] && !ps[i].optional && lo < hi)
            byparam[i] = e->args[--hi];
    if (var < 0 && lo < hi)
        return fail_arity(c, e, fn, ps, np);
    for (int i = 0; i < np; i++)
        if (!ps[i].variadic && !ps[i].optional && !byparam[i])
            return tjl_fail(p, e->pos, "%s() is missing the argument '%s'", fn, ps[i].name);
    e->bound = tjl_alloc(&p->arena, (size_t)(nfixed + 1) * sizeof *e->bound);
    if (!e->bound)
        return tjl_fail(p, e->pos, "out of memory");
    for (int i = 0, j = 0; i < np; i++)
        if (!ps[i].variadic)
            e->bound[j++] = byparam[i];
    if (var >= 0) {
        e->vargs = e->nargs > 0 ? e->args + lo : NULL; /* a call without arguments has none */
        e->nvargs = hi - lo;
    }
    return true;
}

/* ---- argument helpers ----------------------------------------------------------------------- */

bool
tjl_arg_fail(tjl_checker *c, const tjl_expr *e, int id, const char *arg, const char *fmt, ...)
{
    char why[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return tjl_fail(tjl_checker_program(c), e->pos, "%s: argument '%s' %s", tjl_builtin_name(id),
                    arg, why);
}

bool
tjl_arg_int(tjl_checker *c, tjl_expr *e, int id, const char *arg)
{
    char b1[96];
    if (!tjl_check_expr(c, e))
        return false;
    if (!tjl_is_int(e->type))
        return tjl_arg_fail(c, e, id, arg, "must be an integer, got %s",
                            tjl_type_name(tjl_checker_program(c), e->type, b1, sizeof b1));
    return true;
}

bool
tjl_arg_bool(tjl_checker *c, tjl_expr *e, int id, const char *arg)
{
    char b1[96];
    if (!tjl_check_expr(c, e))
        return false;
    if (!tjl_is_bool(e->type))
        return tjl_arg_fail(c, e, id, arg, "must be a bool, got %s",
                            tjl_type_name(tjl_checker_program(c), e->type, b1, sizeof b1));
    return true;
}

bool
tjl_arg_kind(tjl_checker *c, tjl_expr *e, int id, const char *arg, int kind, const char *what)
{
    char b1[96];
    if (!tjl_check_expr(c, e))
        return false;
    if (e->type.kind != kind)
        return tjl_arg_fail(c, e, id, arg, "must be %s, got %s", what,
                            tjl_type_name(tjl_checker_program(c), e->type, b1, sizeof b1));
    return true;
}

/* A value of exactly type 't' (literals convert). */
bool
tjl_arg_as(tjl_checker *c, tjl_expr *e, int id, const char *arg, tjl_type t)
{
    char b1[96], b2[96];
    tjl_program *p = tjl_checker_program(c);
    if (t.kind == TJL_T_SCALAR && tjl_is_literal(e)) {
        if (!tjl_literal_fits(e, t.dtype, b2, sizeof b2))
            return tjl_arg_fail(c, e, id, arg, "must be %s, got %s",
                                tjl_type_name(p, t, b1, sizeof b1), b2);
        return tjl_check_literal_as(c, e, t.dtype);
    }
    if (!tjl_check_expr(c, e))
        return false;
    if (!tjl_type_eq(e->type, t))
        return tjl_arg_fail(c, e, id, arg, "must be %s, got %s", tjl_type_name(p, t, b1, sizeof b1),
                            tjl_type_name(p, e->type, b2, sizeof b2));
    return true;
}

/* An integer constant, or with 'want_bool' a bool constant (the literals 0 and 1 too). */
static bool
const_int(tjl_checker *c, tjl_expr *e, const char *fn, const char *what, int64_t *out,
          bool want_bool)
{
    char b1[96];
    tjl_program *p = tjl_checker_program(c);
    if (want_bool && tjl_is_literal(e)) {
        if (!tjl_literal_fits(e, TJ_DTYPE_BOOL, b1, sizeof b1))
            return tjl_fail(p, e->pos, "%s: %s must be a bool, got %s", fn, what, b1);
        if (!tjl_check_literal_as(c, e, TJ_DTYPE_BOOL))
            return false;
    } else if (!tjl_check_expr(c, e)) {
        return false;
    }
    if (want_bool ? !tjl_is_bool(e->type) : !tjl_is_int(e->type))
        return tjl_fail(p, e->pos, "%s: %s must be %s, got %s", fn, what,
                        want_bool ? "a bool" : "an integer",
                        tjl_type_name(p, e->type, b1, sizeof b1));
    if (!e->is_const)
        return tjl_fail(p, e->pos, "%s: %s must be a compile-time constant (a literal or a "
                                   "wp.constant), not a runtime value", fn, what);
    *out = e->ival;
    return true;
}

bool
tjl_const_int_arg(tjl_checker *c, tjl_expr *e, const char *fn, const char *what, int64_t *out)
{
    return const_int(c, e, fn, what, out, false);
}

bool
tjl_const_bool_arg(tjl_checker *c, tjl_expr *e, int id, const char *arg, bool *out)
{
    char what[64];
    snprintf(what, sizeof what, "argument '%s'", arg);
    int64_t v = 0;
    if (!const_int(c, e, tjl_builtin_name(id), what, &v, true))
        return false;
    *out = v != 0;
    return true;
}

bool
tjl_const_shape_arg(tjl_checker *c, tjl_expr *e, const char *fn, const char *what, int *rank,
                    int32_t *shape)
{
    tjl_program *p = tjl_checker_program(c);
    char w[64];
    if (e->kind != TJL_E_TUPLE) {
        int64_t v = 0;
        if (!tjl_const_int_arg(c, e, fn, what, &v))
            return false;
        if (v < -1 || v > INT32_MAX)
            return tjl_fail(p, e->pos, "%s: %s: extent %lld is out of range", fn, what,
                            (long long)v);
        *rank = 1;
        shape[0] = (int32_t)v;
        return true;
    }
    if (e->nargs < 1 || e->nargs > TJL_MAX_DIMS)
        return tjl_fail(p, e->pos, "%s: %s must have 1 to 4 entries, got %d", fn, what,
                        e->nargs);
    for (int i = 0; i < e->nargs; i++) {
        int64_t v = 0;
        snprintf(w, sizeof w, "entry %d of %s", i, what);
        if (!tjl_const_int_arg(c, e->args[i], fn, w, &v))
            return false;
        if (v < -1 || v > INT32_MAX)
            return tjl_fail(p, e->args[i]->pos, "%s: %s: extent %lld is out of range", fn, what,
                            (long long)v);
        shape[i] = (int32_t)v;
    }
    *rank = e->nargs;
    return true;
}

/* A positive shape (no -1). */
bool
tjl_arg_shape(tjl_checker *c, tjl_expr *e, int id, const char *arg, int *rank, int32_t *shape)
{
    char what[64];
    snprintf(what, sizeof what, "argument '%s'", arg);
    if (!tjl_const_shape_arg(c, e, tjl_builtin_name(id), what, rank, shape))
        return false;
    int64_t n = 1;
    for (int i = 0; i < *rank; i++) {
        if (shape[i] < 1)
            return tjl_arg_fail(c, e, id, arg, "has the extent %d; extents must be positive",
                                (int)shape[i]);
        if ((n *= shape[i]) > TJL_MAX_TILE_ELEMS)
            return tjl_arg_fail(c, e, id, arg, "has more than %d elements", TJL_MAX_TILE_ELEMS);
    }
    return true;
}

bool
tjl_arg_dtype(tjl_checker *c, tjl_expr *e, int id, const char *arg, tjl_type *out)
{
    char b1[96];
    tjl_program *p = tjl_checker_program(c);
    if (!e) {
        *out = tjl_scalar(TJ_DTYPE_F32);
        return true;
    }
    /* A name or an attribute that is not a type: said here, with the builtin and argument;
     * the type expressions (wp.array[float], calls) get tjl_check_type_expr's messages. */
    if (e->kind == TJL_E_NONE || e->kind == TJL_E_STR)
        return tjl_arg_fail(c, e, id, arg, "must be a type, got %s",
                            e->kind == TJL_E_NONE ? "None" : "a string");
    if (e->kind != TJL_E_INDEX && e->kind != TJL_E_CALL) {
        if (!tjl_check_expr(c, e))
            return false;
        if (e->type.kind != TJL_T_TYPE)
            return tjl_arg_fail(c, e, id, arg, "must be a type, got %s",
                                tjl_type_name(p, e->type, b1, sizeof b1));
    }
    if (!tjl_check_type_expr(c, e, out))
        return false;
    if (!tjl_is_value(*out))
        return tjl_arg_fail(c, e, id, arg, "must be a value type, got %s",
                            tjl_type_name(p, *out, b1, sizeof b1));
    return true;
}

bool
tjl_arg_storage(tjl_checker *c, tjl_expr *e, int id)
{
    if (!e)
        return true;
    if (e->kind != TJL_E_STR || (strcmp(e->name, "register") != 0 && strcmp(e->name, "shared")))
        return tjl_arg_fail(c, e, id, "storage", "must be \"register\" or \"shared\"");
    e->type = tjl_simple(TJL_T_STR);
    return true;
}

/* An offset: one integer, or a tuple of 'rank' integers (runtime values allowed). */
bool
tjl_arg_offset(tjl_checker *c, tjl_expr *e, int id, int rank)
{
    if (!e)
        return true;
    if (e->kind != TJL_E_TUPLE) {
        if (rank != 1)
            return tjl_arg_fail(c, e, id, "offset", "must be a tuple of %d integers", rank);
        return tjl_arg_int(c, e, id, "offset");
    }
    if (e->nargs != rank)
        return tjl_arg_fail(c, e, id, "offset", "has %d entries; the tile has %d dimension%s",
                            e->nargs, rank, rank == 1 ? "" : "s");
    for (int i = 0; i < e->nargs; i++)
        if (!tjl_arg_int(c, e->args[i], id, "offset"))
            return false;
    return true;
}

int
tjl_slice_length(int64_t n, int64_t start, int64_t stop, int64_t step)
{
    /* Python's slice.indices(n) with INT64_MIN for an omitted bound */
    if (step == INT64_MIN)
        step = 1;
    if (step == 0 || n < 0)
        return 0;
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
    if (start == INT64_MIN) {
        start = step < 0 ? hi : lo;
    } else {
        if (start < 0)
            start = start < -n ? lo : start + n;
        if (start > hi)
            start = hi;
    }
    if (stop == INT64_MIN) {
        stop = step < 0 ? lo : hi;
    } else {
        if (stop < 0)
            stop = stop < -n ? lo : stop + n;
        if (stop > hi)
            stop = hi;
    }
    /* start and stop are in [-1, n] here; step may be anything but 0 and INT64_MIN */
    int64_t len = step > 0 ? (stop > start ? (stop - start - 1) / step + 1 : 0)
                           : (start > stop ? (start - stop - 1) / -step + 1 : 0);
    return len > 0 && len <= INT32_MAX ? (int)len : 0;
}

bool
tjl_check_builtin_call(tjl_checker *c, tjl_expr *e, int id)
{
    if (id < 0 || id >= TJL_NBUILTINS)
        return tjl_fail(tjl_checker_program(c), e->pos, "internal error: builtin %d", id);
    if (!bind_args(c, e, id))
        return false;
    e->type = tjl_none();
    return tjl_check_builtin(c, e, id);
}
