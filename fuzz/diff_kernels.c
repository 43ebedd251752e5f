/*
 * fuzz/diff_kernels.c: differential testing of the back ends. Generates random tile kernels
 * in Warp's syntax from a seed (loads, element-wise maps, reductions, views and assigns,
 * scatter-adds into shared tiles, stacks (cleared at times), per-lane code, uniform loops and
 * branches, sums stored over the tiles they were read from), runs each on the CPU in every
 * way the library can run it (lanes as fibers, as a switch and as lane loops; optimisation
 * levels; the butterfly reduction; without prefetches; debug builds; width-1 blocks and
 * another block width where the kernel does not depend on it) and compares every output
 * with the first way's. Each kernel is also
 * built for CUDA and, where ptxas is found, assembled; where a CUDA device opens, kernels
 * of tiled launches also run on the GPU (the default pipeline, O3, a debug build, warp
 * pops, fenced pushes; not partial blocks, whose shared elements of lanes that do not run
 * the GPU leaves unspecified). Values are small integers (also in float tiles), so sums in
 * any order are exact; floats compare by value (min and max may give 0 or -0); a stack's
 * slots are compared as a set per block.
 *
 *   diff_kernels [--seed S] [--count N] [--seconds T] [--keep DIR] [--print] [--times]
 *                [--file F.py] [--cuda]
 *
 * --cuda: the GPU's ways against the first way only; without a GPU it prints SKIP and exits
 * 77, or FAIL and 1 when TILEJIT_REQUIRE_GPU=1.
 *
 * A kernel that some ways build and others do not, outputs that differ, a launch that fails
 * (a debug build's report among them) or a CUDA build that fails, fail the run: the kernel's
 * source and the first difference are printed, the source is written to DIR/diff-SEED.py
 * (DIR: --keep, else the current folder) and, beside it, DIR/diff-SEED/ holds the inputs as
 * .npy files and run.sh, which runs the failing way with `tilejit run`. `--seed S --file
 * F.py` runs F.py (an edited copy, when reducing one) with the arrays and block width of
 * seed S. A kernel that no way builds counts as invalid (the generator's mistake, not the
 * library's); more than a tenth of them (of 20 or more) fails the run. --print prints each
 * kernel, --times each way's build and launch time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tilejit.h"

enum { MAX_VARS = 96, MAX_REGIONS = 96, MAX_SRC = 1 << 16, ARRAYS = 9 };

/* ---- the generator ----------------------------------------------------------------------- */

typedef enum dkind { D_INT, D_FLOAT } dkind;

typedef struct tvar {
    char name[12];
    dkind dt;
    int ndim;
    int shape[2];
    int64_t bound;  /* |every element| <= bound */
    int root;       /* the tile it aliases (itself unless a view) */
    bool view;      /* not dense: no reshape */
    bool lanes;     /* from tile(): its extent is the block width, not a number */
    int depth;      /* loop/branch depth where it was made */
} tvar;

/* The output arrays (a kernel parameter each) and how a region of them is compared. */
enum { A_OI, A_OF, A_OI2, A_OF2, A_AI, NOUT };
static const char *const out_names[NOUT] = {"oi", "of", "oi2", "of2", "ai"};
typedef enum rkind { R_EXACT, R_SET, R_IGNORE } rkind;

typedef struct region {
    int array;
    int64_t base, size; /* elements (rows of 16 for the 2D outputs) per block */
    rkind kind;
} region;

enum { OUT2_COLS = 16 };

typedef struct gen {
    uint64_t s;
    char src[MAX_SRC];
    size_t len;
    int indent;
    tvar v[MAX_VARS];
    int nv;
    region r[MAX_REGIONS];
    int nr;
    int64_t used[NOUT]; /* elements (rows for 2D) handed out */
    int B, nblocks, nx, r2, c2, ai_size;
    bool lane_free; /* the outputs do not depend on the block width */
    int64_t threads; /* > 0: a launch of this many threads, the last block partial; 0: tiled */
    int depth, ntmp;
    bool overflow;
} gen;

static uint64_t
rnd(gen *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int
pick(gen *g, int n)
{
    return n <= 1 ? 0 : (int)(rnd(g) % (uint64_t)n);
}

static int
range(gen *g, int lo, int hi) /* inclusive */
{
    return lo + pick(g, hi - lo + 1);
}

static bool
chance(gen *g, int percent)
{
    return pick(g, 100) < percent;
}

static void
emit(gen *g, const char *fmt, ...)
{
    if (g->len + 1 >= sizeof g->src) {
        g->overflow = true;
        return;
    }
    int n = snprintf(g->src + g->len, sizeof g->src - g->len, "%*s", g->indent * 4, "");
    g->len += (size_t)n;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(g->src + g->len, sizeof g->src - g->len, fmt, ap);
    va_end(ap);
    if (n < 0 || g->len + (size_t)n + 1 >= sizeof g->src) {
        g->overflow = true;
        g->len = sizeof g->src - 1;
        return;
    }
    g->len += (size_t)n;
    g->src[g->len++] = '\n';
    g->src[g->len] = 0;
}

static int64_t
elems(const tvar *t)
{
    return t->ndim == 1 ? t->shape[0] : (int64_t)t->shape[0] * t->shape[1];
}

static const char *
dtname(dkind dt)
{
    return dt == D_INT ? "int" : "float";
}

/* A new variable (not yet written) like 'like' with its own root. */
static tvar *
new_var(gen *g, dkind dt, int ndim, const int *shape, int64_t bound)
{
    if (g->nv == MAX_VARS)
        return NULL;
    tvar *t = &g->v[g->nv];
    *t = (tvar){.dt = dt, .ndim = ndim, .bound = bound, .root = g->nv, .depth = g->depth};
    snprintf(t->name, sizeof t->name, "t%d", g->ntmp++);
    t->shape[0] = shape[0];
    t->shape[1] = ndim == 2 ? shape[1] : 1;
    g->nv++;
    return t;
}

/* A random extent up to 'max', the block width a quarter of the time. */
static int
extent(gen *g, int max)
{
    static const int common[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 32, 33, 64, 100, 128, 256};
    for (;;) {
        int e = chance(g, 25) ? g->B : common[pick(g, (int)(sizeof common / sizeof *common))];
        if (e <= max)
            return e;
    }
}

static void
random_shape(gen *g, int *ndim, int *shape)
{
    *ndim = chance(g, 60) ? 1 : 2;
    if (*ndim == 1) {
        shape[0] = extent(g, 256);
    } else {
        shape[0] = extent(g, 16);
        shape[1] = extent(g, OUT2_COLS);
    }
}

static const char *
storage(gen *g)
{
    return chance(g, 30) ? ", storage=\"shared\"" : "";
}

/* An offset expression for a load along an array of 'n' elements, 'e' at a time: mostly in
 * the block's own part, sometimes across either end (those elements read zero). */
static void
offset_expr(gen *g, char *buf, size_t n, int e, int len)
{
    switch (pick(g, 5)) {
    case 0:
        snprintf(buf, n, "%d", range(g, -e, len));
        break;
    case 1:
        snprintf(buf, n, "blk * %d + %d", range(g, 0, e), range(g, -e, e));
        break;
    default:
        snprintf(buf, n, "blk * %d", e);
        break;
    }
}

static tvar *
gen_load(gen *g, dkind dt, int ndim, const int *shape)
{
    static const int64_t bound1[2] = {50, 8};
    tvar *t = new_var(g, dt, ndim, shape, bound1[dt]);
    if (!t)
        return NULL;
    char o0[64], o1[64];
    if (ndim == 1) {
        offset_expr(g, o0, sizeof o0, shape[0], g->nx);
        emit(g, "%s = wp.tile_load(x%s, shape=%d, offset=%s%s)", t->name, dt ? "f" : "i",
             shape[0], o0, storage(g));
    } else {
        offset_expr(g, o0, sizeof o0, shape[0], g->r2);
        snprintf(o1, sizeof o1, "%d", chance(g, 70) ? 0 : range(g, -shape[1], g->c2));
        emit(g, "%s = wp.tile_load(x%s2, shape=(%d, %d), offset=(%s, %s)%s)", t->name,
             dt ? "f" : "i", shape[0], shape[1], o0, o1, storage(g));
    }
    return t;
}

/* A tile made from nothing: zeros, ones or a range. */
static tvar *
gen_const(gen *g, dkind dt, int ndim, const int *shape)
{
    int k = pick(g, 3);
    int64_t n = ndim == 1 ? shape[0] : (int64_t)shape[0] * shape[1];
    tvar *t = new_var(g, dt, ndim, shape, k == 2 ? n : 1);
    if (!t)
        return NULL;
    char sh[32];
    if (ndim == 1)
        snprintf(sh, sizeof sh, "%d", shape[0]);
    else
        snprintf(sh, sizeof sh, "(%d, %d)", shape[0], shape[1]);
    if (k < 2)
        emit(g, "%s = wp.tile_%s(shape=%s, dtype=%s%s)", t->name, k ? "ones" : "zeros", sh,
             dtname(dt), storage(g));
    else if (ndim == 1)
        emit(g, "%s = wp.tile_arange(%" PRId64 ", dtype=%s%s)", t->name, n, dtname(dt),
             storage(g));
    else
        emit(g, "%s = wp.tile_reshape(wp.tile_arange(%" PRId64 ", dtype=%s), shape=%s)",
             t->name, n, dtname(dt), sh);
    return t;
}

static tvar *
gen_fresh(gen *g, dkind dt, int ndim, const int *shape)
{
    return chance(g, 75) ? gen_load(g, dt, ndim, shape) : gen_const(g, dt, ndim, shape);
}

/* What a use of a tile rules out. */
enum { ANY = 0, NO_LANES = 1 };

static bool
usable(const gen *g, const tvar *t, int rule)
{
    return t->depth <= g->depth && !(rule & NO_LANES && t->lanes);
}

/* A variable usable here (made at this depth or outside) under 'rule', or NULL. */
static tvar *
any_var(gen *g, int rule)
{
    int idx[MAX_VARS], n = 0;
    for (int i = 0; i < g->nv; i++)
        if (usable(g, &g->v[i], rule))
            idx[n++] = i;
    return n ? &g->v[idx[pick(g, n)]] : NULL;
}

static tvar *
var_like(gen *g, dkind dt, int ndim, const int *shape, int rule)
{
    int idx[MAX_VARS], n = 0;
    for (int i = 0; i < g->nv; i++) {
        const tvar *t = &g->v[i];
        if (usable(g, t, rule) && t->dt == dt && t->ndim == ndim && t->shape[0] == shape[0] &&
            (ndim == 1 || t->shape[1] == shape[1]))
            idx[n++] = i;
    }
    if (n && chance(g, 70))
        return &g->v[idx[pick(g, n)]];
    return gen_fresh(g, dt, ndim, shape);
}

/* A tile to work on: an existing one or a fresh one. */
static tvar *
some_tile(gen *g, int rule)
{
    tvar *t = chance(g, 80) ? any_var(g, rule) : NULL;
    if (t)
        return t;
    int ndim, shape[2];
    random_shape(g, &ndim, shape);
    return gen_fresh(g, chance(g, 50) ? D_INT : D_FLOAT, ndim, shape);
}

static const int64_t LIMIT = 1 << 22; /* float sums stay exact below 2^24 */

static int64_t
pow2_above(int64_t b)
{
    int64_t p = 1;
    while (p <= b)
        p <<= 1;
    return p;
}

static void
gen_map(gen *g)
{
    tvar *a = some_tile(g, ANY);
    if (!a)
        return;
    if (chance(g, 25)) {
        const char *op = chance(g, 50) ? "neg" : "abs";
        tvar *t = new_var(g, a->dt, a->ndim, a->shape, a->bound);
        if (!t)
            return;
        t->lanes = a->lanes;
        emit(g, "%s = wp.tile_map(wp.%s, %s)", t->name, op, a->name);
        return;
    }
    tvar *b = var_like(g, a->dt, a->ndim, a->shape, ANY);
    if (!b)
        return;
    int64_t ba = a->bound, bb = b->bound;
    const char *op;
    int64_t bound;
    int k = pick(g, a->dt == D_INT ? 9 : 6);
    switch (k) {
    case 0: op = "add"; bound = ba + bb; break;
    case 1: op = "sub"; bound = ba + bb; break;
    case 2: op = "min"; bound = ba > bb ? ba : bb; break;
    case 3: op = "max"; bound = ba > bb ? ba : bb; break;
    case 4: op = "mul"; bound = ba * bb; break;
    case 5: op = a->dt == D_INT ? "uadd" : "faddf"; bound = ba + bb; break;
    case 6: op = "bit_and"; bound = pow2_above(ba > bb ? ba : bb); break;
    case 7: op = "bit_or"; bound = pow2_above(ba > bb ? ba : bb); break;
    default: op = "bit_xor"; bound = pow2_above(ba > bb ? ba : bb); break;
    }
    if (bound > LIMIT) {
        op = "min";
        bound = ba > bb ? ba : bb;
    }
    tvar *t = new_var(g, a->dt, a->ndim, a->shape, bound);
    if (!t)
        return;
    t->lanes = a->lanes || b->lanes;
    emit(g, "%s = wp.tile_map(%s%s, %s, %s)", t->name, k == 5 ? "" : "wp.", op, a->name,
         b->name);
}

static void
gen_reduce(gen *g)
{
    tvar *a = some_tile(g, ANY);
    if (!a)
        return;
    int axis = a->ndim == 2 && chance(g, 50) ? pick(g, 2) : -1;
    int64_t n = axis < 0 ? elems(a) : a->shape[axis];
    int64_t b = a->bound;
    const char *op;
    int64_t bound = b;
    bool user = false;
    switch (pick(g, a->dt == D_INT ? 7 : 5)) {
    case 0: op = "add"; bound = n * b; break;
    case 1: op = "min"; break;
    case 2: op = "max"; break;
    case 3: /* a user operator; none in partial blocks, whose empty slices it cannot fill */
        op = g->threads ? "add" : a->dt == D_INT ? "uadd" : "faddf";
        bound = n * b;
        user = !g->threads;
        break;
    case 4: op = "sum"; bound = n * b; break;
    case 5: op = "bit_or"; bound = pow2_above(b); break;
    default: op = "bit_xor"; bound = pow2_above(b); break;
    }
    if (bound > LIMIT) {
        op = "max";
        bound = b;
        user = false;
    }
    int shape[2] = {1, 1};
    if (axis >= 0)
        shape[0] = a->shape[1 - axis];
    tvar *t = new_var(g, a->dt, 1, shape, bound);
    if (!t)
        return;
    char ax[16] = "";
    if (axis >= 0)
        snprintf(ax, sizeof ax, ", axis=%d", axis);
    if (strcmp(op, "sum") == 0)
        emit(g, "%s = wp.tile_sum(%s%s)", t->name, a->name, ax);
    else if (!user && chance(g, 30) && (strcmp(op, "min") == 0 || strcmp(op, "max") == 0))
        emit(g, "%s = wp.tile_%s(%s%s)", t->name, op, a->name, ax);
    else
        emit(g, "%s = wp.tile_reduce(%s%s, %s%s)", t->name, user ? "" : "wp.", op, a->name, ax);
}

/* Raises the bound of every tile that shares 'root' to at least 'b'. */
static void
raise_bound(gen *g, int root, int64_t b)
{
    for (int i = 0; i < g->nv; i++)
        if (g->v[i].root == root && g->v[i].bound < b)
            g->v[i].bound = b;
}

static void
gen_view(gen *g)
{
    tvar *a = some_tile(g, ANY);
    if (!a)
        return;
    int w[2], o[2];
    char off[2][64];
    for (int d = 0; d < a->ndim; d++) {
        w[d] = range(g, 1, a->shape[d]);
        o[d] = range(g, 0, a->shape[d] - w[d]);
        if (chance(g, 20) && a->shape[d] > w[d])
            snprintf(off[d], sizeof off[d], "blk %% %d", a->shape[d] - w[d] + 1);
        else
            snprintf(off[d], sizeof off[d], "%d", o[d]);
    }
    tvar *t = new_var(g, a->dt, a->ndim, w, a->bound);
    if (!t)
        return;
    t->root = a->root;
    t->view = true;
    if (a->ndim == 1)
        emit(g, "%s = wp.tile_view(%s, offset=(%s,), shape=(%d,))", t->name, a->name, off[0],
             w[0]);
    else
        emit(g, "%s = wp.tile_view(%s, offset=(%s, %s), shape=(%d, %d))", t->name, a->name,
             off[0], off[1], w[0], w[1]);
}

/* One dimension of a subscript of extent 'n': a slice (Python's rules; empty ones are
 * avoided) into 'buf', its length returned; or, with 'index', a constant index (wrapping
 * once when negative), 0 returned. */
static int
slice_of(gen *g, int n, bool index, char *buf, size_t len)
{
    if (index) {
        int i = range(g, -n, n - 1);
        snprintf(buf, len, "%d", i);
        return 0;
    }
    switch (pick(g, 4)) {
    case 0:
        snprintf(buf, len, ":");
        return n;
    case 1: { /* start:stop */
        int a = range(g, 0, n - 1), b = range(g, a + 1, n);
        snprintf(buf, len, "%d:%d", a, b);
        return b - a;
    }
    case 2: { /* start::step */
        int a = range(g, 0, n - 1), st = range(g, 1, 3);
        snprintf(buf, len, "%d::%d", a, st);
        return (n - a + st - 1) / st;
    }
    default: { /* reversed: start down to the front, by step */
        int st = range(g, 1, 2), a = range(g, 0, n - 1);
        snprintf(buf, len, "%d::-%d", a, st);
        return a / st + 1;
    }
    }
}

/* A view by subscript: t[a:b], t[::-1], t[i, :], t[:, j], t[a:b, c:d]... */
static void
gen_slice(gen *g)
{
    tvar *a = some_tile(g, ANY);
    if (!a)
        return;
    char sub[2][48];
    int w[2], nd = 0;
    bool index[2] = {false, false};
    if (a->ndim == 2 && chance(g, 40))
        index[pick(g, 2)] = true;
    for (int d = 0; d < a->ndim; d++) {
        int n = slice_of(g, a->shape[d], index[d], sub[d], sizeof sub[d]);
        if (!index[d])
            w[nd++] = n;
    }
    tvar *t = new_var(g, a->dt, nd, w, a->bound);
    if (!t)
        return;
    t->root = a->root;
    t->view = true;
    if (a->ndim == 1)
        emit(g, "%s = %s[%s]", t->name, a->name, sub[0]);
    else
        emit(g, "%s = %s[%s, %s]", t->name, a->name, sub[0], sub[1]);
}

static void
gen_assign(gen *g)
{
    tvar *d = some_tile(g, ANY);
    if (!d)
        return;
    int w[2] = {1, 1}, o[2] = {0, 0};
    for (int k = 0; k < d->ndim; k++) {
        w[k] = range(g, 1, d->shape[k]);
        o[k] = range(g, 0, d->shape[k] - w[k]);
    }
    tvar *s = var_like(g, d->dt, d->ndim, w, ANY);
    if (!s)
        return;
    if (d->ndim == 1)
        emit(g, "wp.tile_assign(%s, %s, offset=(%d,))", d->name, s->name, o[0]);
    else
        emit(g, "wp.tile_assign(%s, %s, offset=(%d, %d))", d->name, s->name, o[0], o[1]);
    raise_bound(g, d->root, s->bound);
}

static region *
new_region(gen *g, int array, int64_t size, rkind kind)
{
    if (g->nr == MAX_REGIONS)
        return NULL;
    region *r = &g->r[g->nr++];
    *r = (region){.array = array, .base = g->used[array], .size = size, .kind = kind};
    g->used[array] += size * g->nblocks;
    return r;
}

static void
gen_store(gen *g, tvar *t)
{
    bool two = t->ndim == 2 && (t->view || chance(g, 50));
    if (two) {
        region *r = new_region(g, t->dt == D_INT ? A_OI2 : A_OF2, t->shape[0], R_EXACT);
        if (r)
            emit(g, "wp.tile_store(%s, %s, offset=(%" PRId64 " + blk * %d, 0))",
                 out_names[r->array], t->name, r->base, t->shape[0]);
        return;
    }
    region *r = new_region(g, t->dt == D_INT ? A_OI : A_OF, elems(t), R_EXACT);
    if (!r)
        return;
    if (t->ndim == 1)
        emit(g, "wp.tile_store(%s, %s, offset=%" PRId64 " + blk * %" PRId64 ")",
             out_names[r->array], t->name, r->base, elems(t));
    else
        emit(g, "wp.tile_store(%s, wp.tile_reshape(%s, shape=%" PRId64 "), offset=%" PRId64
                " + blk * %" PRId64 ")",
             out_names[r->array], t->name, elems(t), r->base, elems(t));
}

/* Reads a fresh region of an output array (its sentinels), adds a tile to it and stores the
 * sum where it was read: a computed tile stored over a tile it was computed from (width-1
 * CPU code stores it straight into the array, jit/direct_stores.c). Each element is read
 * and written by the lane that owns it, so no way races. */
static void
gen_update(gen *g)
{
    tvar *u = some_tile(g, NO_LANES);
    if (!u || u->bound > LIMIT / 2 || (u->ndim == 2 && u->shape[1] > OUT2_COLS))
        return;
    bool two = u->ndim == 2;
    int array = two ? (u->dt == D_INT ? A_OI2 : A_OF2) : (u->dt == D_INT ? A_OI : A_OF);
    region *r = new_region(g, array, two ? u->shape[0] : elems(u), R_EXACT);
    tvar *t = r ? new_var(g, u->dt, u->ndim, u->shape, 777777 + u->bound) : NULL;
    if (!t)
        return;
    const char *a = out_names[array];
    if (two) {
        emit(g, "%s = wp.tile_load(%s, shape=(%d, %d), offset=(%" PRId64 " + blk * %d, 0))",
             t->name, a, u->shape[0], u->shape[1], r->base, u->shape[0]);
        emit(g, "wp.tile_store(%s, %s + %s, offset=(%" PRId64 " + blk * %d, 0))", a, t->name,
             u->name, r->base, u->shape[0]);
    } else {
        emit(g, "%s = wp.tile_load(%s, shape=%d, offset=%" PRId64 " + blk * %d)", t->name, a,
             u->shape[0], r->base, u->shape[0]);
        emit(g, "wp.tile_store(%s, %s + %s, offset=%" PRId64 " + blk * %d)", a, t->name,
             u->name, r->base, u->shape[0]);
    }
}

static void
gen_atomic(gen *g)
{
    tvar *t = some_tile(g, ANY);
    if (!t || t->dt != D_INT || t->ndim != 1 || t->shape[0] > g->ai_size ||
        t->bound * g->nblocks > LIMIT)
        return;
    emit(g, "wp.tile_atomic_add(ai, %s, offset=%d)", t->name,
         range(g, 0, g->ai_size - t->shape[0]));
}

/* A per-lane int expression with |value| <= 60 + 2 * B, in 'buf'. */
static void
lane_int(gen *g, char *buf, size_t n)
{
    switch (pick(g, 4)) {
    case 0:
        snprintf(buf, n, "xi[(blk * %d + lane * %d) %% %d]", range(g, 1, 300), range(g, 1, 5),
                 g->nx);
        break;
    case 1:
        snprintf(buf, n, "lane * %d - %d", range(g, -2, 2), range(g, 0, 9));
        break;
    case 2:
        snprintf(buf, n, "(lane + blk) %% %d", range(g, 1, 9));
        break;
    default:
        snprintf(buf, n, "xi[(lane + %d) %% %d] + lane", range(g, 0, 50), g->nx);
        break;
    }
}

static void
gen_scatter(gen *g)
{
    dkind dt = chance(g, 50) ? D_INT : D_FLOAT;
    int two = chance(g, 30);
    int sh[2] = {range(g, 1, two ? 8 : 64), range(g, 1, 8)};
    tvar *t = new_var(g, dt, two ? 2 : 1, sh, (int64_t)g->B * (dt == D_INT ? 50 : 8));
    if (!t)
        return;
    char idx[2][160], val[200];
    for (int d = 0; d <= two; d++) {
        char e[128];
        lane_int(g, e, sizeof e);
        snprintf(idx[d], sizeof idx[d], "abs(%s) %% %d", e, sh[d]);
    }
    if (dt == D_INT)
        snprintf(val, sizeof val, "xi[(blk + lane * 3) %% %d]", g->nx);
    else
        snprintf(val, sizeof val, "xf[(blk * 7 + lane) %% %d]", g->nx);
    char bylane[64];
    snprintf(bylane, sizeof bylane, "xi[lane %% %d] > 0", g->nx);
    const char *cond[] = {"True", "lane % 3 != 1", bylane, "lane < 5"};
    if (two)
        emit(g, "%s = wp.tile_zeros(shape=(%d, %d), dtype=%s, storage=\"shared\")", t->name,
             sh[0], sh[1], dtname(dt));
    else
        emit(g, "%s = wp.tile_zeros(shape=%d, dtype=%s, storage=\"shared\")", t->name, sh[0],
             dtname(dt));
    if (!two && chance(g, 25))
        emit(g, "wp.tile_scatter_add(%s, lane %% %d, %s, lane < %d, atomic=False)", t->name,
             sh[0], val, sh[0]);
    else if (two)
        emit(g, "wp.tile_scatter_add(%s, %s, %s, %s, %s)", t->name, idx[0], idx[1], val,
             cond[pick(g, 4)]);
    else
        emit(g, "wp.tile_scatter_add(%s, %s, %s, %s)", t->name, idx[0], val, cond[pick(g, 4)]);
}

/* tile() of a per-lane value, untile() of a block-wide tile, per-lane writes. */
static void
gen_lanes(gen *g)
{
    char e[160];
    lane_int(g, e, sizeof e);
    int shape[2] = {g->B, 1};
    tvar *u = NULL;
    for (int i = 0; i < g->nv; i++)
        if (g->v[i].depth <= g->depth && g->v[i].ndim == 1 && g->v[i].shape[0] == g->B &&
            chance(g, 50))
            u = &g->v[i];
    if (!u) {
        dkind dt = chance(g, 60) ? D_INT : D_FLOAT;
        u = new_var(g, dt, 1, shape, 60 + 2 * (int64_t)g->B);
        if (!u)
            return;
        u->lanes = true;
        emit(g, "%s = wp.tile(%s(%s))", u->name, dt == D_INT ? "" : "float", e);
    }
    region *r = new_region(g, u->dt == D_INT ? A_OI : A_OF, g->B, R_EXACT);
    if (!r)
        return;
    char w[96] = "True";
    if (chance(g, 40))
        snprintf(w, sizeof w, "lane %% %d == %d", range(g, 2, 4), range(g, 0, 1));
    emit(g, "s%d = wp.untile(%s)", g->ntmp, u->name);
    emit(g, "if %s:", w);
    g->indent++;
    emit(g, "%s[%" PRId64 " + blk * %d + lane] = s%d * %s(3) + %s(lane)", out_names[r->array],
         r->base, g->B, g->ntmp, dtname(u->dt), dtname(u->dt));
    g->indent--;
    g->ntmp++;
}

static void
gen_extract(gen *g)
{
    tvar *t = some_tile(g, ANY);
    if (!t)
        return;
    region *r = new_region(g, t->dt == D_INT ? A_OI : A_OF, 1, R_EXACT);
    if (!r)
        return;
    char at[32];
    if (t->ndim == 1)
        snprintf(at, sizeof at, "%d", range(g, 0, t->shape[0] - 1));
    else
        snprintf(at, sizeof at, "%d, %d", range(g, 0, t->shape[0] - 1),
                 range(g, 0, t->shape[1] - 1));
    if (chance(g, 50))
        emit(g, "e%d = %s[%s]", g->ntmp, t->name, at);
    else
        emit(g, "e%d = wp.tile_extract(%s, %s)", g->ntmp, t->name, at);
    emit(g, "if lane == %d:", g->lane_free ? 0 : pick(g, g->B));
    g->indent++;
    emit(g, "%s[%" PRId64 " + blk] = e%d", out_names[r->array], r->base, g->ntmp);
    g->indent--;
    g->ntmp++;
}

static void
gen_stack(gen *g)
{
    int steps = range(g, 1, 3);
    dkind dt = chance(g, 70) ? D_INT : D_FLOAT;
    int need = steps * g->B;
    int cap = chance(g, 80) ? range(g, need, need + 8) : range(g, 1, need);
    region *cnt = new_region(g, A_OI, 1, R_EXACT);
    region *r = new_region(g, dt == D_INT ? A_OI : A_OF, cap, cap >= need ? R_SET : R_IGNORE);
    if (!cnt || !r)
        return;
    int id = g->ntmp++;
    /* Sometimes a step empties the stack first: what is left is the later steps' pushes. */
    int clear_at = chance(g, 30) ? range(g, 0, steps - 1) : -1;
    emit(g, "st%d = wp.tile_stack(capacity=%d, dtype=%s)", id, cap, dtname(dt));
    emit(g, "for step in range(%d):", steps);
    g->indent++;
    if (clear_at >= 0) {
        emit(g, "if step == %d:", clear_at);
        emit(g, "    wp.tile_stack_clear(st%d)", id);
    }
    emit(g, "v%d = %s(xi[(blk * %d + step * %d + lane) %% %d])", id, dtname(dt), need, g->B,
         g->nx);
    emit(g, "wp.tile_stack_push(st%d, v%d, v%d > %s(%d))", id, id, id, dtname(dt),
         range(g, -40, 40));
    g->indent--;
    emit(g, "if lane == 0:");
    g->indent++;
    emit(g, "oi[%" PRId64 " + blk] = wp.tile_stack_count(st%d)", cnt->base, id);
    g->indent--;
    emit(g, "while wp.tile_stack_count(st%d) > 0:", id);
    g->indent++;
    emit(g, "p%d, slot%d = wp.tile_stack_pop(st%d)", id, id, id);
    emit(g, "if slot%d >= 0:", id);
    g->indent++;
    /* The popped value, or what the lane computes from it (a drain in one phase computes it
     * in vector steps, jit/serial_pops.c; a lane's number keeps the pops' phase). */
    char val[96];
    const char *t = dtname(dt);
    switch (chance(g, 50) ? range(g, 0, 3) : -1) {
    case 0:
        snprintf(val, sizeof val, "p%d * %s(%d) + %s(%d)", id, t, range(g, -3, 3), t,
                 range(g, -9, 9));
        break;
    case 1:
        snprintf(val, sizeof val, "wp.max(p%d, %s(%d))", id, t, range(g, -20, 20));
        break;
    case 2:
        snprintf(val, sizeof val, "p%d + %s(lane)", id, t);
        break;
    case 3:
        snprintf(val, sizeof val, "-p%d", id);
        break;
    default:
        snprintf(val, sizeof val, "p%d", id);
    }
    emit(g, "%s[%" PRId64 " + blk * %d + slot%d] = %s", out_names[r->array], r->base, cap, id,
         val);
    g->indent -= 2;
}

static void gen_stmt(gen *g);

/* A uniform loop whose body adds fresh loads into a tile each trip. */
static void
gen_loop(gen *g)
{
    tvar *a = some_tile(g, NO_LANES);
    if (!a || a->view || a->depth != g->depth)
        return;
    int trips = range(g, 1, 4);
    char name[16];
    snprintf(name, sizeof name, "j%d", g->ntmp++);
    int64_t b = a->bound;
    emit(g, "for %s in range(%d):", name, trips);
    g->indent++;
    g->depth++;
    const tvar *x = a;
    int64_t bx = x->dt == D_INT ? 50 : 8;
    if (x->ndim == 1)
        emit(g, "%s = wp.tile_map(wp.add, %s, wp.tile_load(x%s, shape=%d, offset=blk * %d + "
                "%s * %d))",
             x->name, x->name, x->dt ? "f" : "i", x->shape[0], x->shape[0], name,
             range(g, 1, 9));
    else
        emit(g, "%s = wp.tile_map(wp.add, %s, wp.tile_load(x%s2, shape=(%d, %d), offset=(%s, "
                "blk)))",
             x->name, x->name, x->dt ? "f" : "i", x->shape[0], x->shape[1], name);
    int more = range(g, 0, 2);
    for (int i = 0; i < more; i++)
        gen_stmt(g);
    g->depth--;
    g->indent--;
    /* what the body made is out of scope now; the tile grew */
    while (g->nv > 0 && g->v[g->nv - 1].depth > g->depth)
        g->nv--;
    raise_bound(g, a->root, b + trips * bx);
    for (int i = 0; i < g->nv; i++)
        if (g->v[i].bound > LIMIT)
            g->v[i].bound = LIMIT; /* kept exact by the later ops' limits */
}

/* A branch on a block-uniform value, with tile work inside. */
static void
gen_branch(gen *g)
{
    tvar *t = some_tile(g, ANY);
    if (!t)
        return;
    emit(g, "if wp.tile_extract(%s, 0%s) > %s(%d):", t->name, t->ndim == 2 ? ", 0" : "",
         dtname(t->dt), range(g, -5, 5));
    g->indent++;
    g->depth++;
    int n = range(g, 1, 3);
    size_t before = g->len;
    for (int i = 0; i < n; i++)
        gen_stmt(g);
    if (g->len == before)
        emit(g, "pass");
    g->depth--;
    g->indent--;
    while (g->nv > 0 && g->v[g->nv - 1].depth > g->depth)
        g->nv--;
}

static void
gen_stmt(gen *g)
{
    int k = pick(g, 100);
    if (g->depth > 0 && k >= 70)
        k = pick(g, 70); /* no stacks, loops or branches nested in loops and branches */
    if (k < 14)
        gen_map(g);
    else if (k < 26)
        gen_reduce(g);
    else if (k < 30)
        gen_view(g);
    else if (k < 34)
        gen_slice(g);
    else if (k < 42)
        gen_assign(g);
    else if (k < 49) {
        tvar *t = some_tile(g, ANY);
        if (t)
            gen_store(g, t);
    } else if (k < 52)
        gen_update(g);
    else if (k < 56)
        gen_atomic(g);
    else if (k < 62)
        gen_extract(g);
    else if (k < 66) {
        if (!g->lane_free)
            gen_lanes(g);
    } else if (k < 70) {
        if (!g->lane_free)
            gen_scatter(g);
    } else if (k < 80)
        gen_loop(g);
    else if (k < 88)
        gen_branch(g);
    else if (k < 92) {
        if (!g->lane_free)
            gen_stack(g);
    } else {
        int ndim, shape[2];
        random_shape(g, &ndim, shape);
        gen_fresh(g, chance(g, 50) ? D_INT : D_FLOAT, ndim, shape);
    }
}

static const int block_widths[] = {2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 128, 256};

static void
generate(gen *g, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->s = seed * 0x2545f4914f6cdd1dull + 1;
    g->B = block_widths[pick(g, (int)(sizeof block_widths / sizeof *block_widths))];
    g->nblocks = range(g, 1, 5);
    g->nx = range(g, 40, 700);
    g->r2 = range(g, 8, 48);
    g->c2 = range(g, 4, 20);
    g->ai_size = range(g, 16, 300);
    if (chance(g, 25))
        g->threads = (int64_t)g->nblocks * g->B - range(g, 1, g->B - 1);
    g->lane_free = !g->threads && chance(g, 40);
    emit(g, "import warp as wp");
    emit(g, "");
    emit(g, "@wp.func");
    emit(g, "def uadd(a: int, b: int) -> int:");
    emit(g, "    return a + b");
    emit(g, "");
    emit(g, "@wp.func");
    emit(g, "def faddf(a: float, b: float) -> float:");
    emit(g, "    return a + b");
    emit(g, "");
    emit(g, "@wp.kernel");
    emit(g, "def k(xi: wp.array[int], xf: wp.array[float], xi2: wp.array2d[int], "
            "xf2: wp.array2d[float], oi: wp.array[int], of: wp.array[float], "
            "oi2: wp.array2d[int], of2: wp.array2d[float], ai: wp.array[int]):");
    g->indent = 1;
    if (g->threads) {
        emit(g, "i = wp.tid()");
        emit(g, "blk = i // wp.block_dim()");
        emit(g, "lane = i %% wp.block_dim()");
    } else {
        emit(g, "blk, lane = wp.tid()");
    }
    int n = range(g, 3, 22);
    for (int i = 0; i < n && !g->overflow; i++)
        gen_stmt(g);
    /* make most of what was computed visible */
    int nv = g->nv;
    for (int i = 0; i < nv; i++)
        if (chance(g, 40))
            gen_store(g, &g->v[i]);
    if (g->nr == 0 && nv > 0)
        gen_store(g, &g->v[nv - 1]);
}

/* ---- running a kernel -------------------------------------------------------------------- */

typedef struct config {
    const char *name;
    const char *lanes;    /* TILEJIT_CPU_LANES */
    const char *reduce;   /* TILEJIT_CPU_REDUCE */
    const char *prefetch; /* TILEJIT_CPU_PREFETCH */
    const char *pop;      /* TILEJIT_GPU_POP */
    const char *push;     /* TILEJIT_GPU_PUSH */
    tj_opt_level opt;
    bool debug;
    int width; /* 0: the kernel's block width; 1: width-1 blocks; 2: another width */
    bool cuda; /* built for the GPU and launched there (tiled launches only) */
} config;

/* The first way is the reference the others are compared with. */
static const config configs[] = {
    {.name = "fibers", .lanes = "fibers"},
    {.name = "fibers -O0", .lanes = "fibers", .opt = TJ_OPT_O0},
    {.name = "switch", .lanes = "switch"},
    {.name = "lane loops"},
    {.name = "lane loops -O1", .opt = TJ_OPT_O1},
    {.name = "lane loops -O2", .opt = TJ_OPT_O2},
    {.name = "lane loops, butterfly reduce", .reduce = "butterfly"},
    {.name = "lane loops, no prefetch", .prefetch = "off"},
    {.name = "lane loops, debug", .debug = true},
    {.name = "width-1", .width = 1},
    {.name = "width-1 -O0", .opt = TJ_OPT_O0, .width = 1},
    {.name = "another block width", .width = 2},
    {.name = "cuda", .cuda = true},
    {.name = "cuda -O3", .opt = TJ_OPT_O3, .cuda = true},
    {.name = "cuda, debug", .debug = true, .cuda = true},
    {.name = "cuda, warp pops", .pop = "warp", .cuda = true},
    {.name = "cuda, fenced pushes", .push = "fence", .cuda = true},
};
enum { NCONFIGS = (int)(sizeof configs / sizeof *configs) };

typedef struct outputs {
    bool built;
    char msg[2048];
    void *data[NOUT];
    size_t bytes[NOUT];
} outputs;

static void
set_env(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

/* The environment a context made next reads for way 'c' (NULL: the library's defaults). */
static void
use_env(const config *c)
{
    set_env("TILEJIT_CPU_LANES", c ? c->lanes : NULL);
    set_env("TILEJIT_CPU_REDUCE", c ? c->reduce : NULL);
    set_env("TILEJIT_CPU_PREFETCH", c ? c->prefetch : NULL);
    set_env("TILEJIT_GPU_POP", c ? c->pop : NULL);
    set_env("TILEJIT_GPU_PUSH", c ? c->push : NULL);
}

/* The block width way 'c' builds and launches the kernel of 'g' with. */
static uint32_t
way_width(const gen *g, const config *c)
{
    if (c->width == 1)
        return 1;
    if (c->width == 2)
        return g->B == 32 ? 7 : 32;
    return (uint32_t)g->B;
}

static const int32_t SENTINEL_I = -777777;
static const float SENTINEL_F = -777777.0f;

/* The inputs, the same for every way of running one kernel. */
typedef struct inputs {
    int32_t *xi, *xi2;
    float *xf, *xf2;
} inputs;

static void
make_inputs(const gen *g, uint64_t seed, inputs *in)
{
    gen r = {.s = seed ^ 0x5bd1e995u};
    size_t n2 = (size_t)g->r2 * (size_t)g->c2;
    in->xi = malloc(sizeof(int32_t) * (size_t)g->nx);
    in->xf = malloc(sizeof(float) * (size_t)g->nx);
    in->xi2 = malloc(sizeof(int32_t) * n2);
    in->xf2 = malloc(sizeof(float) * n2);
    if (!in->xi || !in->xf || !in->xi2 || !in->xf2)
        abort();
    for (int i = 0; i < g->nx; i++) {
        in->xi[i] = range(&r, -50, 50);
        in->xf[i] = (float)range(&r, -8, 8);
    }
    for (size_t i = 0; i < n2; i++) {
        in->xi2[i] = range(&r, -50, 50);
        in->xf2[i] = (float)range(&r, -8, 8);
    }
}

static void
free_inputs(inputs *in)
{
    free(in->xi);
    free(in->xf);
    free(in->xi2);
    free(in->xf2);
}

/* The elements of output 'a' before a launch: a value no kernel writes, or the index (the
 * atomic adds' array). */
static void
fill_output(int a, void *data, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a == A_AI)
            ((int32_t *)data)[i] = (int32_t)i;
        else if (a == A_OF || a == A_OF2)
            ((float *)data)[i] = SENTINEL_F;
        else
            ((int32_t *)data)[i] = SENTINEL_I;
    }
}

/* Output 'a''s extent (rows for the 2D ones). */
static int64_t
output_rows(const gen *g, int a)
{
    return a == A_AI ? g->ai_size : g->used[a] > 0 ? g->used[a] : 1;
}

static void
free_outputs(outputs *o)
{
    for (int a = 0; a < NOUT; a++)
        free(o->data[a]);
    memset(o, 0, sizeof *o);
}

static tj_array *
array_of(tj_context *ctx, tj_device *dev, tj_dtype dt, int ndim, int64_t d0, int64_t d1,
         const void *host, size_t elem)
{
    int64_t shape[2] = {d0, d1};
    tj_array *a = NULL;
    if (tj_array_create(dev, tj_context_get_type(ctx, dt), ndim, shape, &a) != TJ_OK)
        return NULL;
    if (host && tj_array_copy_from_host(a, host, (size_t)(d0 * (ndim == 2 ? d1 : 1)) * elem) !=
                    TJ_OK) {
        tj_array_destroy(a);
        return NULL;
    }
    return a;
}

/* Builds and runs the kernel of 'g' the way 'c' says, into 'o'. False when the library
 * misbehaved in a way the comparison cannot see (a launch failure after a build). */
static bool
run_config(const gen *g, const inputs *in, const config *c, outputs *o)
{
    memset(o, 0, sizeof *o);
    use_env(c);
    tj_context *ctx = NULL;
    tj_device *dev = NULL;
    tj_program *p = NULL;
    tj_module *m = NULL;
    tj_array *arr[ARRAYS] = {NULL};
    bool ok = false;
    if (tj_context_create(&ctx) != TJ_OK) {
        snprintf(o->msg, sizeof o->msg, "tj_context_create failed");
        goto done;
    }
    if (tj_device_create(ctx, c->cuda ? TJ_DEVICE_CUDA : TJ_DEVICE_CPU, 0, &dev) != TJ_OK) {
        snprintf(o->msg, sizeof o->msg, "tj_device_create: %s", tj_context_error(ctx));
        goto done;
    }
    uint32_t B = way_width(g, c);
    tj_kernel_options ko = {.target = c->cuda ? TJ_TARGET_CUDA : TJ_TARGET_CPU, .block_dim = B,
                            .cpu_mode = B > 1 ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1,
                            .debug = c->debug};
    tj_build_options bo = {.opt_level = c->opt, .device = c->cuda ? dev : NULL};
    if (tj_program_create(ctx, g->src, "diff.py", &p) != TJ_OK ||
        tj_program_build(p, "k", &ko, &bo, &m) != TJ_OK) {
        snprintf(o->msg, sizeof o->msg, "%s", p && tj_program_error(p) ? tj_program_error(p)
                                                                       : "no program");
        ok = true; /* a build error: compared by the caller */
        goto done;
    }
    o->built = true;
    int64_t rows[NOUT];
    for (int a = 0; a < NOUT; a++)
        rows[a] = output_rows(g, a);
    arr[0] = array_of(ctx, dev, TJ_DTYPE_I32, 1, g->nx, 0, in->xi, 4);
    arr[1] = array_of(ctx, dev, TJ_DTYPE_F32, 1, g->nx, 0, in->xf, 4);
    arr[2] = array_of(ctx, dev, TJ_DTYPE_I32, 2, g->r2, g->c2, in->xi2, 4);
    arr[3] = array_of(ctx, dev, TJ_DTYPE_F32, 2, g->r2, g->c2, in->xf2, 4);
    for (int a = 0; a < NOUT; a++) {
        bool two = a == A_OI2 || a == A_OF2;
        bool isf = a == A_OF || a == A_OF2;
        size_t n = (size_t)rows[a] * (two ? OUT2_COLS : 1);
        o->bytes[a] = n * 4;
        o->data[a] = malloc(o->bytes[a]);
        if (!o->data[a])
            abort();
        fill_output(a, o->data[a], n);
        arr[4 + a] = array_of(ctx, dev, isf ? TJ_DTYPE_F32 : TJ_DTYPE_I32, two ? 2 : 1, rows[a],
                              OUT2_COLS, o->data[a], 4);
    }
    tj_arg args[ARRAYS];
    for (int a = 0; a < ARRAYS; a++) {
        if (!arr[a]) {
            snprintf(o->msg, sizeof o->msg, "array %d: %s", a, tj_device_error(dev));
            goto done;
        }
        args[a] = tj_arg_array(arr[a]);
    }
    int64_t nb = g->nblocks;
    tj_status st = g->threads ? tj_launch(dev, m, "k", 1, &g->threads, B, args, ARRAYS)
                              : tj_launch_tiled(dev, m, "k", 1, &nb, B, args, ARRAYS);
    if (st != TJ_OK ||
        tj_device_synchronize(dev) != TJ_OK) {
        snprintf(o->msg, sizeof o->msg, "launch: %s", tj_device_error(dev));
        goto done;
    }
    for (int a = 0; a < NOUT; a++)
        if (tj_array_copy_to_host(arr[4 + a], o->data[a], o->bytes[a]) != TJ_OK) {
            snprintf(o->msg, sizeof o->msg, "copy: %s", tj_device_error(dev));
            goto done;
        }
    ok = true;
done:
    for (int a = 0; a < ARRAYS; a++)
        tj_array_destroy(arr[a]);
    tj_module_destroy(m);
    tj_program_destroy(p);
    tj_device_destroy(dev);
    tj_context_destroy(ctx);
    return ok;
}

/* Builds the kernel for CUDA (the PTX of the library's default architecture) and, with
 * ptxas, assembles it. Returns false with 'why' on a failure the CPU builds did not have. */
static bool
check_ptx(const gen *g, const char *ptxas, char *why, size_t n)
{
    use_env(NULL);
    tj_context *ctx = NULL;
    tj_program *p = NULL;
    tj_module *m = NULL;
    bool ok = false;
    if (tj_context_create(&ctx) != TJ_OK) {
        snprintf(why, n, "tj_context_create failed");
        return false;
    }
    tj_kernel_options ko = {.target = TJ_TARGET_CUDA, .block_dim = (uint32_t)g->B};
    if (tj_program_create(ctx, g->src, "diff.py", &p) != TJ_OK ||
        tj_program_build(p, "k", &ko, NULL, &m) != TJ_OK) {
        snprintf(why, n, "CUDA build: %s", p && tj_program_error(p) ? tj_program_error(p) : "?");
        goto done;
    }
    ok = true;
    if (ptxas) {
        char path[] = "/tmp/diff_kernels_XXXXXX";
        int fd = mkstemp(path);
        const char *ptx = tj_module_get_ptx(m);
        if (fd < 0 || write(fd, ptx, strlen(ptx)) != (ssize_t)strlen(ptx)) {
            snprintf(why, n, "cannot write the PTX to %s", path);
            ok = false;
        } else {
            char cmd[1200];
            snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -o /dev/null '%s' 2>&1", ptxas, path);
            FILE *f = popen(cmd, "r");
            char log[1024] = "";
            size_t got = f ? fread(log, 1, sizeof log - 1, f) : 0;
            log[got] = 0;
            int st = f ? pclose(f) : -1;
            if (st != 0) {
                snprintf(why, n, "ptxas rejected the PTX: %s", log);
                ok = false;
            }
        }
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
    }
done:
    tj_module_destroy(m);
    tj_program_destroy(p);
    tj_context_destroy(ctx);
    return ok;
}

static int
cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static int
cmp_f32(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Sorts each block's part of the regions compared as sets; blanks the ignored ones. */
static void
canonical(const gen *g, outputs *o)
{
    for (int i = 0; i < g->nr; i++) {
        const region *r = &g->r[i];
        bool isf = r->array == A_OF || r->array == A_OF2;
        for (int b = 0; b < g->nblocks; b++) {
            char *p = (char *)o->data[r->array] + (size_t)(r->base + b * r->size) * 4;
            if (r->kind == R_SET)
                qsort(p, (size_t)r->size, 4, isf ? cmp_f32 : cmp_i32);
            else if (r->kind == R_IGNORE)
                memset(p, 0, (size_t)r->size * 4);
        }
    }
}

/* The first element where 'a' and 'b' differ, described in 'why'; false when they agree. */
static bool
differ(const outputs *a, const outputs *b, char *why, size_t n)
{
    for (int k = 0; k < NOUT; k++) {
        bool isf = k == A_OF || k == A_OF2;
        size_t cnt = a->bytes[k] / 4;
        for (size_t i = 0; i < cnt; i++) {
            const void *pa = (const char *)a->data[k] + i * 4;
            const void *pb = (const char *)b->data[k] + i * 4;
            /* floats by value: min and max of 0 and -0 may give either (fmin, fmax) */
            if (isf ? *(const float *)pa == *(const float *)pb : memcmp(pa, pb, 4) == 0)
                continue;
            if (isf)
                snprintf(why, n, "%s[%zu%s] = %g against %g", out_names[k],
                         k == A_OF2 ? i / OUT2_COLS : i, k == A_OF2 ? "/16" : "",
                         (double)*(const float *)pa, (double)*(const float *)pb);
            else
                snprintf(why, n, "%s[%zu] = %d against %d", out_names[k], i,
                         *(const int32_t *)pa, *(const int32_t *)pb);
            return true;
        }
    }
    return false;
}

/* Writes 'n' 32-bit elements ('isf': float32, else int32) of 'dims' as NumPy's .npy. */
static bool
write_npy(const char *path, const void *data, bool isf, int ndim, const int64_t *dims)
{
    char shape[64], hdr[128];
    if (ndim == 1)
        snprintf(shape, sizeof shape, "(%" PRId64 ",)", dims[0]);
    else
        snprintf(shape, sizeof shape, "(%" PRId64 ", %" PRId64 ")", dims[0], dims[1]);
    int len = snprintf(hdr, sizeof hdr, "{'descr': '<%s4', 'fortran_order': False, "
                                        "'shape': %s, }", isf ? "f" : "i", shape);
    int total = 10 + len + 1;
    int pad = (64 - total % 64) % 64;
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    uint16_t hl = (uint16_t)(len + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(hl & 0xff, f);
    fputc(hl >> 8, f);
    fprintf(f, "%s%*s\n", hdr, pad, "");
    size_t n = (size_t)dims[0] * (size_t)(ndim == 2 ? dims[1] : 1);
    bool ok = fwrite(data, 4, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Writes the inputs of the kernel of 'g' as .npy files and a script that runs the kernel
 * with `tilejit run` the way 'c' says, into DIR/diff-SEED/. */
static void
write_replay(const gen *g, const inputs *in, uint64_t seed, const char *dir, const config *c)
{
    char base[1024], path[1200];
    snprintf(base, sizeof base, "%s/diff-%" PRIu64, dir, seed);
    if (mkdir(base, 0755) != 0 && errno != EEXIST)
        return;
    int64_t d1[1] = {g->nx}, d2[2] = {g->r2, g->c2};
    const void *data[4] = {in->xi, in->xf, in->xi2, in->xf2};
    static const char *const names[4] = {"xi", "xf", "xi2", "xf2"};
    for (int a = 0; a < 4; a++) {
        snprintf(path, sizeof path, "%s/%s.npy", base, names[a]);
        write_npy(path, data[a], a & 1, a < 2 ? 1 : 2, a < 2 ? d1 : d2);
    }
    char script[1200];
    snprintf(script, sizeof script, "%s/run.sh", base);
    FILE *f = fopen(script, "w");
    if (!f)
        return;
    uint32_t B = way_width(g, c);
    fprintf(f, "#!/bin/sh\n# seed %" PRIu64 ", the way '%s'%s\ncd \"$(dirname \"$0\")\"\n",
            seed, c->name,
            c->opt != TJ_OPT_DEFAULT ? " (but at the default optimisation level: the "
                                       "command has no option for it)"
                                     : "");
    char launch[64];
    if (g->threads)
        snprintf(launch, sizeof launch, "--dim %" PRId64, g->threads);
    else
        snprintf(launch, sizeof launch, "--tiled %d", g->nblocks);
    char env[256] = "TILEJIT_CACHE=0 ";
    static const char *const vars[] = {"TILEJIT_CPU_LANES", "TILEJIT_CPU_REDUCE",
                                       "TILEJIT_CPU_PREFETCH", "TILEJIT_GPU_POP",
                                       "TILEJIT_GPU_PUSH"};
    const char *values[] = {c->lanes, c->reduce, c->prefetch, c->pop, c->push};
    for (int v = 0; v < 5; v++)
        if (values[v])
            snprintf(env + strlen(env), sizeof env - strlen(env), "%s=%s ", vars[v], values[v]);
    fprintf(f, "%s${TILEJIT:-tilejit} run ../diff-%" PRIu64 ".py --kernel k %s --block-dim %u "
               "--device %s%s%s \\\n",
            env, seed, launch, B, c->cuda ? "cuda" : "cpu",
            !c->cuda && B > 1 ? " --cpu-blocks" : "", c->debug ? " --debug" : "");
    fprintf(f, "    --arg xi=@xi.npy --arg xf=@xf.npy --arg xi2=@xi2.npy --arg xf2=@xf2.npy \\\n");
    for (int a = 0; a < NOUT; a++) {
        bool two = a == A_OI2 || a == A_OF2;
        int64_t dims[2] = {output_rows(g, a), OUT2_COLS};
        size_t n = (size_t)dims[0] * (two ? OUT2_COLS : 1);
        void *data = malloc(n * 4);
        if (!data)
            break;
        fill_output(a, data, n);
        snprintf(path, sizeof path, "%s/%s.npy", base, out_names[a]);
        write_npy(path, data, a == A_OF || a == A_OF2, two ? 2 : 1, dims);
        free(data);
        fprintf(f, "    --arg %s=@%s.npy%s\n", out_names[a], out_names[a],
                a + 1 < NOUT ? " \\" : "");
    }
    fclose(f);
    chmod(script, 0755);
    fprintf(stderr, "(inputs and a script running '%s': %s/)\n", c->name, base);
}

typedef struct stats {
    int kernels, invalid, failed, ptx_checked, gpu_compared;
} stats;

static void
report(const gen *g, const inputs *in, const config *c, uint64_t seed, const char *keep,
       const char *what)
{
    fprintf(stderr, "diff_kernels: seed %" PRIu64 " (block width %d, %d blocks%s): %s\n", seed,
            g->B, g->nblocks, g->threads ? ", the last partial" : "", what);
    fprintf(stderr, "---- the kernel ----\n%s----\n", g->src);
    char path[1024];
    snprintf(path, sizeof path, "%s/diff-%" PRIu64 ".py", keep ? keep : ".", seed);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(g->src, f);
        fclose(f);
        fprintf(stderr, "(written to %s)\n", path);
    }
    if (in && c)
        write_replay(g, in, seed, keep ? keep : ".", c);
}

/* What a run asks for besides the kernels' seeds. */
typedef struct run_opts {
    const char *keep;  /* where failures go */
    const char *ptxas; /* NULL: PTX not assembled */
    const char *file;  /* a source to run instead of the generated one */
    bool print, times;
    bool gpu;       /* a CUDA device opens: the GPU's ways run */
    bool cuda_only; /* --cuda: the GPU's ways and the reference way only */
} run_opts;

/* Whether the GPU's ways run the kernel of 'g': where a GPU is, for tiled launches (in a
 * partial block the GPU leaves the shared elements of lanes that do not run unspecified:
 * README). */
static bool
gpu_takes(const gen *g, const run_opts *ro)
{
    return ro->gpu && !g->threads;
}

/* Whether way 'c' runs the kernel of 'g': another block width only where the outputs do not
 * depend on it; the GPU's ways as gpu_takes says; with --cuda, the CPU's reference way and
 * the GPU's. */
static bool
way_applies(const gen *g, const config *c, const run_opts *ro)
{
    if (c->cuda)
        return gpu_takes(g, ro);
    if (ro->cuda_only && c != configs)
        return false;
    return c->width == 0 || g->lane_free;
}

static double
ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Runs the kernel of 'seed' every way that applies, compares, and builds it for CUDA. */
static void
one_kernel(uint64_t seed, const run_opts *ro, stats *st)
{
    static gen g;
    generate(&g, seed);
    if (ro->file) {
        FILE *f = fopen(ro->file, "r");
        size_t n = f ? fread(g.src, 1, sizeof g.src - 1, f) : 0;
        g.src[n] = 0;
        g.len = n;
        if (f)
            fclose(f);
        else
            fprintf(stderr, "diff_kernels: cannot read %s\n", ro->file);
    }
    st->kernels++;
    if (ro->print)
        printf("# seed %" PRIu64 ": block width %d, %d blocks%s\n%s\n", seed, g.B, g.nblocks,
               g.threads ? ", the last partial" : "", g.src);
    if (g.overflow) {
        st->invalid++;
        return;
    }
    if (ro->cuda_only && !gpu_takes(&g, ro))
        return; /* no GPU way runs it: nothing to compare */
    inputs in;
    make_inputs(&g, seed, &in);
    outputs ref = {0}, cur = {0};
    static char why[4096], unbuilt_msg[2048];
    const config *unbuilt = NULL, *first = NULL; /* the first that did not build, did build */
    const config *c = configs;
    for (; c < configs + NCONFIGS; c++) {
        if (!way_applies(&g, c, ro))
            continue;
        outputs *o = first ? &cur : &ref;
        struct timespec t0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        bool ok = run_config(&g, &in, c, o);
        if (ro->times)
            fprintf(stderr, "%" PRIu64 " %-30s %.1f ms\n", seed, c->name, ms_since(&t0));
        if (!ok) {
            snprintf(why, sizeof why, "%s: %s", c->name, o->msg);
            goto fail;
        }
        if (!o->built && !unbuilt) {
            unbuilt = c;
            snprintf(unbuilt_msg, sizeof unbuilt_msg, "%s", o->msg);
        }
        if (!o->built && first) {
            snprintf(why, sizeof why, "'%s' does not build (others do): %s", c->name, o->msg);
            goto fail;
        }
        if (o->built && unbuilt) {
            snprintf(why, sizeof why, "'%s' builds, '%s' did not: %s", c->name, unbuilt->name,
                     unbuilt_msg);
            goto fail;
        }
        if (!o->built)
            continue;
        canonical(&g, o);
        if (!first) {
            first = c;
            continue;
        }
        char d[512];
        if (differ(o, &ref, d, sizeof d)) {
            snprintf(why, sizeof why, "'%s' differs from '%s': %s", c->name, first->name, d);
            goto fail;
        }
        free_outputs(&cur);
    }
    free_outputs(&ref);
    free_inputs(&in);
    if (!first) {
        st->invalid++;
        printf("diff_kernels: seed %" PRIu64 " builds nowhere: %s\n", seed, unbuilt_msg);
        return;
    }
    if (!check_ptx(&g, ro->ptxas, why, sizeof why)) {
        report(&g, NULL, NULL, seed, ro->keep, why);
        st->failed++;
        return;
    }
    st->ptx_checked += ro->ptxas != NULL;
    st->gpu_compared += gpu_takes(&g, ro);
    return;
fail:
    report(&g, &in, c, seed, ro->keep, why);
    st->failed++;
    free_outputs(&cur);
    free_outputs(&ref);
    free_inputs(&in);
}

/* A CUDA device held open for the whole run: it keeps the GPU's primary context, so the
 * ways' own devices do not start CUDA again (the library retains the primary context). */
typedef struct gpu_hold {
    tj_context *ctx;
    tj_device *dev;
} gpu_hold;

/* Opens device 0 into 'h'; false with the reason in 'why' when no CUDA device opens. */
static bool
hold_gpu(gpu_hold *h, char *why, size_t n)
{
    use_env(NULL);
    memset(h, 0, sizeof *h);
    if (tj_context_create(&h->ctx) != TJ_OK) {
        snprintf(why, n, "tj_context_create failed");
        return false;
    }
    if (tj_device_create(h->ctx, TJ_DEVICE_CUDA, 0, &h->dev) == TJ_OK)
        return true;
    snprintf(why, n, "%s", tj_context_error(h->ctx) ? tj_context_error(h->ctx) : "no device");
    tj_context_destroy(h->ctx);
    h->ctx = NULL;
    return false;
}

static const char *
find_ptxas(void)
{
    static char path[1024];
    const char *cuda = getenv("CUDA_PATH");
    const char *dirs[] = {cuda, "/usr/local/cuda", NULL};
    for (int i = 0; i < 2; i++) {
        if (!dirs[i])
            continue;
        snprintf(path, sizeof path, "%s/bin/ptxas", dirs[i]);
        if (access(path, X_OK) == 0)
            return path;
    }
    return NULL;
}

int
main(int argc, char **argv)
{
    uint64_t seed = 1;
    long count = 100;
    double seconds = 0;
    run_opts ro = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = strtod(argv[++i], NULL);
        else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            ro.keep = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc)
            ro.file = argv[++i];
        else if (strcmp(argv[i], "--print") == 0)
            ro.print = true;
        else if (strcmp(argv[i], "--times") == 0)
            ro.times = true;
        else if (strcmp(argv[i], "--cuda") == 0)
            ro.cuda_only = true;
        else {
            fprintf(stderr, "usage: diff_kernels [--seed S] [--count N] [--seconds T] "
                            "[--keep DIR] [--print] [--times] [--file F.py] [--cuda]\n");
            return 2;
        }
    }
    setenv("TILEJIT_CACHE", "0", 1);
    ro.ptxas = find_ptxas();
    char no_gpu[512] = "";
    gpu_hold held;
    ro.gpu = hold_gpu(&held, no_gpu, sizeof no_gpu);
    if (ro.cuda_only && !ro.gpu) {
        const char *req = getenv("TILEJIT_REQUIRE_GPU");
        if (req && strcmp(req, "1") == 0) {
            printf("FAIL: TILEJIT_REQUIRE_GPU=1 but no CUDA device opened: %s\n", no_gpu);
            return 1;
        }
        printf("SKIP: no CUDA device (%s); set TILEJIT_REQUIRE_GPU=1 to make this a failure\n",
               no_gpu);
        return 77;
    }
    int ncpu = 0, ngpu = 0;
    for (int i = 0; i < NCONFIGS; i++)
        configs[i].cuda ? ngpu++ : ncpu++;
    char gpu_ways[600];
    if (ro.gpu)
        snprintf(gpu_ways, sizeof gpu_ways, "%d on the GPU (tiled launches)", ngpu);
    else
        snprintf(gpu_ways, sizeof gpu_ways, "none on the GPU (%s)", no_gpu);
    printf("diff_kernels: from seed %" PRIu64 ", %s; %d ways on the CPU%s, %s; CUDA builds%s\n",
           seed, seconds > 0 ? "for a time" : "a count", ro.cuda_only ? 1 : ncpu,
           ro.cuda_only ? " (the reference)" : "", gpu_ways,
           ro.ptxas ? " assembled by ptxas" : " (no ptxas: not assembled)");
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    stats st = {0};
    for (long i = 0;; i++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
        if (seconds > 0 ? el >= seconds : i >= count)
            break;
        one_kernel(seed + (uint64_t)i, &ro, &st);
        fflush(stdout);
    }
    tj_device_destroy(held.dev);
    tj_context_destroy(held.ctx);
    printf("diff_kernels: %d kernels, %d invalid, %d failed, %d PTX assembled, %d compared on the "
           "GPU\n", st.kernels, st.invalid, st.failed, st.ptx_checked, st.gpu_compared);
    if (st.failed)
        return 1;
    if (st.kernels >= 20 && st.invalid * 10 > st.kernels) {
        printf("diff_kernels: more than a tenth of the kernels did not build anywhere: the "
               "generator is wrong (--print shows them)\n");
        return 1;
    }
    return 0;
}
