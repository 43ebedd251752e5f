/*
 * tests/tj_view_ref.h: the reference of tile_view for the view suites (check_tile_view.c,
 * check_tile_view_writes.c), written from SPEC 4 and Python's rules rather than from
 * builtins/view.c: slice.indices as CPython's _PySlice_GetLongIndices computes it,
 * enumerated with range(); integers that remove leading dimensions; windows with a shape
 * and the parent's strides; slices that keep their dimension with stride * step. Views are
 * strided maps onto the parent's dense elements, so views of views compose. Also the
 * builder of the same views from a table row, and their description for messages.
 */
#ifndef TJ_VIEW_REF_H
#define TJ_VIEW_REF_H

#include "tj_tile_test.h"

/* ---- the reference: Python slices ------------------------------------------------------------ */

/* The indices range(*slice(start, stop, step).indices(len)) selects, in order; returns
 * their count. Omitted bounds are TJ_SLICE_NONE. Written from CPython's
 * _PySlice_GetLongIndices. */
static inline int
py_slice(int64_t len, int64_t start, int64_t stop, int64_t step, int64_t *idx, int cap)
{
    if (step == TJ_SLICE_NONE)
        step = 1;
    int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? len - 1 : len;
    if (start == TJ_SLICE_NONE) {
        start = step < 0 ? upper : lower;
    } else if (start < 0) {
        start += len;
        if (start < lower)
            start = lower;
    } else if (start > upper) {
        start = upper;
    }
    if (stop == TJ_SLICE_NONE) {
        stop = step < 0 ? lower : upper;
    } else if (stop < 0) {
        stop += len;
        if (stop < lower)
            stop = lower;
    } else if (stop > upper) {
        stop = upper;
    }
    int n = 0;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (n < cap)
            idx[n] = i;
        n++;
    }
    return n;
}

/* ---- the reference: views -------------------------------------------------------------------- */

/* One offset entry: a constant integer 'a'; a runtime integer (r[a] + b) % c, where r are
 * the kernel's runtime parameters; or a slice a:b:c. */
typedef struct ventry {
    char kind;             /* 'i', 'r' or 's' */
    int64_t a, b, c;
} ventry;

typedef struct vspec {
    int n;                 /* offset entries */
    ventry e[4];
    int nshape;            /* 0, or a window of this many extents */
    int shape[4];
} vspec;

/* A strided view of the parent's dense elements. */
typedef struct rview {
    int rank;
    int shape[4];
    int64_t stride[4];
    int64_t off;
} rview;

enum { VT_NRUNTIME = 2 };

static inline int64_t
entry_value(const ventry *e, const int *r)
{
    return e->kind == 'i' ? e->a : (r[e->a] + e->b) % e->c;
}

/* The view 's' of 'p' as SPEC 4 defines it; false when the view is invalid (empty, rank 0,
 * out of range), which the value tests avoid. */
static inline bool
ref_view(const rview *p, const vspec *s, const int *r, rview *out)
{
    rview v = {.off = p->off};
    if (s->n > p->rank)
        return false;
    if (s->nshape) { /* window: origin 'offset' (missing entries 0), the parent's strides */
        if (s->nshape != p->rank)
            return false;
        for (int d = 0; d < p->rank; d++) {
            if (d < s->n && s->e[d].kind == 's')
                return false;
            int64_t o = d < s->n ? entry_value(&s->e[d], r) : 0;
            if (s->shape[d] < 1 || o < 0 || o + s->shape[d] > p->shape[d])
                return false;
            v.off += o * p->stride[d];
            v.shape[v.rank] = s->shape[d];
            v.stride[v.rank++] = p->stride[d];
        }
        *out = v;
        return true;
    }
    for (int d = 0; d < p->rank; d++) {
        const ventry *e = d < s->n ? &s->e[d] : NULL;
        if (!e) {
            v.shape[v.rank] = p->shape[d];
            v.stride[v.rank++] = p->stride[d];
        } else if (e->kind != 's') { /* an integer removes its dimension */
            int64_t o = entry_value(e, r);
            if (o < 0 || o >= p->shape[d])
                return false;
            v.off += o * p->stride[d];
        } else {
            int64_t idx[64];
            int64_t step = e->c == TJ_SLICE_NONE ? 1 : e->c;
            if (step == 0)
                return false;
            int n = py_slice(p->shape[d], e->a, e->b, e->c, idx, 64);
            if (n == 0)
                return false;
            v.off += idx[0] * p->stride[d];
            v.shape[v.rank] = n;
            v.stride[v.rank++] = n == 1 ? p->stride[d] : p->stride[d] * step; /* no overflow */
        }
    }
    if (v.rank == 0)
        return false;
    *out = v;
    return true;
}

static inline rview
dense_view(int rank, const int *shape)
{
    rview v = {.rank = rank};
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        v.shape[d] = shape[d];
        v.stride[d] = s;
        s *= shape[d];
    }
    return v;
}

/* The parent element that element 'e' (row-major) of view 'v' reads. */
static inline int64_t
view_elem(const rview *v, int64_t e)
{
    int c[4];
    tt_unravel(e, v->rank, v->shape, c);
    int64_t at = v->off;
    for (int d = 0; d < v->rank; d++)
        at += c[d] * v->stride[d];
    return at;
}

/* Builds view 's' of tile 't' with the kernel's runtime parameters 'rp'. */
static inline tj_val *
build_view(tj_kernel *k, tj_val *t, const vspec *s, tj_val *const *rp)
{
    tj_view_index o[4];
    for (int j = 0; j < s->n; j++) {
        const ventry *e = &s->e[j];
        if (e->kind == 's') {
            o[j] = tj_view_slice(e->a, e->b, e->c);
        } else if (e->kind == 'i') {
            o[j] = tj_view_at(tt_i32(k, e->a));
        } else {
            tj_val *x = tj_binary(k, TJ_BIN_ADD, rp[e->a], tt_i32(k, e->b));
            o[j] = tj_view_at(tj_binary(k, TJ_BIN_MOD, x, tt_i32(k, e->c)));
        }
    }
    return tj_tile_view(k, t, s->n ? o : NULL, s->n, s->nshape ? s->shape : NULL, s->nshape);
}

static inline void
describe_spec(const vspec *s, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "(");
    for (int j = 0; j < s->n && len < n; j++) {
        const ventry *e = &s->e[j];
        char a[24] = "", b[24] = "", c[24] = "";
        if (e->kind == 's') {
            if (e->a != TJ_SLICE_NONE)
                snprintf(a, sizeof a, "%lld", (long long)e->a);
            if (e->b != TJ_SLICE_NONE)
                snprintf(b, sizeof b, "%lld", (long long)e->b);
            if (e->c != TJ_SLICE_NONE)
                snprintf(c, sizeof c, ":%lld", (long long)e->c);
            len += (size_t)snprintf(buf + len, n - len, "%s%s:%s%s", j ? ", " : "", a, b, c);
        } else if (e->kind == 'i') {
            len += (size_t)snprintf(buf + len, n - len, "%s%lld", j ? ", " : "", (long long)e->a);
        } else {
            len += (size_t)snprintf(buf + len, n - len, "%s(r%lld+%lld)%%%lld", j ? ", " : "",
                                    (long long)e->a, (long long)e->b, (long long)e->c);
        }
    }
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, ")");
    for (int d = 0; d < s->nshape && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d%s", d ? ", " : " shape (",
                                s->shape[d], d == s->nshape - 1 ? ")" : "");
}

/* Applies the views s[0..n) one after the other (asserting each is valid). */
static inline void
chain_ref(const rview *p, const vspec *s, int n, const int *rt, rview *out)
{
    rview v = *p;
    for (int j = 0; j < n; j++) {
        bool ok = ref_view(&v, &s[j], rt, out);
        ck_assert_msg(ok, "invalid view in the table");
        v = *out;
    }
    *out = v;
}


/* Table shorthands: a constant integer, a slice, a runtime integer (r[p] + b) % m. */
#define VR_I(x) {'i', x, 0, 0}
#define VR_S(a, b, c) {'s', a, b, c}
#define VR_R(p, b, m) {'r', p, b, m}

#endif /* TJ_VIEW_REF_H */
