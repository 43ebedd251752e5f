/*
 * examples/scalar_demo.c: builds two scalar kernels with the public API only and checks
 * them against plain C: saxpy (y = a*x + y) and a damped series with a loop, if/else,
 * break, sin/exp/sqrt and a call to a user function. Runs on the GPU or the CPU.
 */
#define _GNU_SOURCE /* getopt_long */

#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilejit.h"

/* Tolerances: |got - ref| <= tol * max(1, |ref|). saxpy is float32 and the GPU may fuse
 * a*x + y into one fma (one rounding fewer than the host), so a few float32 ulps; the series
 * is float64 and its sin/exp/sqrt come from libdevice or the C library, which differ in the
 * last bits, summed over up to SERIES_TERMS terms. */
#define SAXPY_TOL 1e-6
#define SERIES_TOL 1e-12

#define SERIES_TERMS 200     /* the loop's upper bound */
#define SERIES_DECAY 0.9     /* damping factor per term (a parameter, so exact everywhere) */
#define SERIES_CUTOFF 1e-4   /* the loop breaks once the damping is below this * (1 + |t|) */
#define NSHOW 4              /* results printed per kernel */
#define CPU_BLOCK_DIM 64     /* lanes per block with --cpu-blocks */

typedef struct demo {
    tj_context *ctx;
    tj_device *dev;
    tj_kernel_options kopts;
    int64_t n;
} demo;

typedef struct check {
    double max_err;
    int64_t nbad;
} check;

static void
usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [--device cpu|cuda] [--cpu-blocks] [-n COUNT]\n"
            "Builds a saxpy kernel and a damped-series kernel (loop, if/else, break,\n"
            "sin/exp/sqrt, a user function) with tilejit, runs them and compares each\n"
            "result with a host C reference.\n"
            "  -d, --device cpu|cuda  where to run (default: the GPU when present, else CPU)\n"
            "  -b, --cpu-blocks       on the CPU, run blocks of %d lanes (cooperative mode)\n"
            "                         instead of width-1 blocks\n"
            "  -n, --count COUNT      elements per kernel, 1..16777216 (default 100000)\n"
            "  -h, --help             show this help\n"
            "Exit status: 0 all results match, 1 a failure or a mismatch, 2 bad usage.\n",
            prog, CPU_BLOCK_DIM);
}

static bool
is_close(double got, double ref, double tol, double *err)
{
    *err = fabs(got - ref) / fmax(1.0, fabs(ref));
    return *err <= tol;
}

static const tj_type *
f32(const demo *d)
{
    return tj_context_get_type(d->ctx, TJ_DTYPE_F32);
}

static const tj_type *
f64(const demo *d)
{
    return tj_context_get_type(d->ctx, TJ_DTYPE_F64);
}

/* Reports a failed build: the kernel's first builder error, else the context's error. */
static void
report_build(const char *what, const tj_kernel *k, const tj_context *ctx, tj_status st)
{
    const char *msg = k ? tj_kernel_error(k) : NULL;
    if (!msg)
        msg = tj_context_error(ctx);
    fprintf(stderr, "%s: build failed (%s): %s\n", what, tj_status_name(st),
            msg ? msg : "no message");
}

/* Reports a failed runtime call with the device's message. */
static void
report_run(const char *what, const tj_device *dev, tj_status st)
{
    const char *msg = tj_device_error(dev);
    fprintf(stderr, "%s: %s: %s\n", what, tj_status_name(st), msg ? msg : "no message");
}

/* ---- the kernels ---------------------------------------------------------------------- */

/* saxpy(a, x, y): i = tid; if i < len(x): y[i] = a * x[i] + y[i] */
static tj_kernel *
build_saxpy(const demo *d)
{
    tj_kernel *k = tj_kernel_create(d->ctx, "saxpy", &d->kopts);
    tj_val *a = tj_param(k, "a", f32(d));
    tj_val *x = tj_param_array(k, "x", f32(d), 1);
    tj_val *y = tj_param_array(k, "y", f32(d), 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, tj_shape(k, x, 0)));
    tj_val *ax = tj_binary(k, TJ_BIN_MUL, a, tj_load(k, x, &i, 1));
    tj_store(k, y, &i, 1, tj_binary(k, TJ_BIN_ADD, ax, tj_load(k, y, &i, 1)));
    tj_if_end(k);
    return k;
}

/* The user function: envelope(v, t) = v * exp(-t*t / 8) + sqrt(1 + t*t) / 4 */
static tj_func *
build_envelope(const demo *d)
{
    tj_func *f = tj_func_create(d->ctx, "envelope", f64(d), &d->kopts);
    tj_val *v = tj_param(f, "v", f64(d));
    tj_val *t = tj_param(f, "t", f64(d));
    tj_val *tt = tj_binary(f, TJ_BIN_MUL, t, t);
    tj_val *g = tj_unary(f, TJ_UN_EXP,
                         tj_binary(f, TJ_BIN_DIV, tj_unary(f, TJ_UN_NEG, tt),
                                   tj_const_float(f, TJ_DTYPE_F64, 8.0)));
    tj_val *r = tj_unary(f, TJ_UN_SQRT,
                         tj_binary(f, TJ_BIN_ADD, tj_const_float(f, TJ_DTYPE_F64, 1.0), tt));
    tj_val *q = tj_binary(f, TJ_BIN_DIV, r, tj_const_float(f, TJ_DTYPE_F64, 4.0));
    tj_return(f, tj_binary(f, TJ_BIN_ADD, tj_binary(f, TJ_BIN_MUL, v, g), q));
    return f;
}

/*
 * series(decay, t, out, steps): for each i with t = t[i]
 *   sum = 0; damp = 1
 *   for j in range(0, SERIES_TERMS):
 *       term = damp * sin((j + 1) * t) / sqrt(j + 1)
 *       if j % 2 == 0: sum += term else: sum -= term / 2
 *       damp *= decay; steps[i] = j + 1
 *       if damp < SERIES_CUTOFF * (1 + |t|): break
 *   out[i] = envelope(sum, t)
 * The loop's decisions depend only on j and on damp (products of an exact constant), so the
 * device and the host take the same branches even where their sin/exp differ in the last bit.
 */
static tj_kernel *
build_series(const demo *d, tj_func *envelope)
{
    tj_kernel *k = tj_kernel_create(d->ctx, "series", &d->kopts);
    const tj_type *i32 = tj_context_get_type(d->ctx, TJ_DTYPE_I32);
    tj_val *decay = tj_param(k, "decay", f64(d));
    tj_val *ts = tj_param_array(k, "t", f64(d), 1);
    tj_val *out = tj_param_array(k, "out", f64(d), 1);
    tj_val *steps = tj_param_array(k, "steps", i32, 1);
    tj_val *i = NULL;
    tj_tid(k, 1, &i);
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, tj_shape(k, ts, 0)));
    tj_val *t = tj_load(k, ts, &i, 1);
    tj_val *sum = tj_var_new(k, tj_const_float(k, TJ_DTYPE_F64, 0.0));
    tj_val *damp = tj_var_new(k, tj_const_float(k, TJ_DTYPE_F64, 1.0));
    tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0),
                             tj_const_int(k, TJ_DTYPE_I32, SERIES_TERMS),
                             tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *j1 = tj_binary(k, TJ_BIN_ADD, j, tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *fj1 = tj_cast(k, j1, f64(d));
    tj_val *wave = tj_unary(k, TJ_UN_SIN, tj_binary(k, TJ_BIN_MUL, fj1, t));
    tj_val *term = tj_binary(k, TJ_BIN_DIV, tj_binary(k, TJ_BIN_MUL, tj_var_get(k, damp), wave),
                             tj_unary(k, TJ_UN_SQRT, fj1));
    tj_val *even = tj_compare(k, TJ_CMP_EQ,
                              tj_binary(k, TJ_BIN_MOD, j, tj_const_int(k, TJ_DTYPE_I32, 2)),
                              tj_const_int(k, TJ_DTYPE_I32, 0));
    tj_if_begin(k, even);
    tj_var_set(k, sum, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, sum), term));
    tj_else_begin(k);
    tj_val *half = tj_binary(k, TJ_BIN_DIV, term, tj_const_float(k, TJ_DTYPE_F64, 2.0));
    tj_var_set(k, sum, tj_binary(k, TJ_BIN_SUB, tj_var_get(k, sum), half));
    tj_if_end(k);
    tj_var_set(k, damp, tj_binary(k, TJ_BIN_MUL, tj_var_get(k, damp), decay));
    tj_store(k, steps, &i, 1, j1);
    tj_val *cutoff = tj_binary(k, TJ_BIN_MUL, tj_const_float(k, TJ_DTYPE_F64, SERIES_CUTOFF),
                               tj_binary(k, TJ_BIN_ADD, tj_const_float(k, TJ_DTYPE_F64, 1.0),
                                         tj_unary(k, TJ_UN_ABS, t)));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, tj_var_get(k, damp), cutoff));
    tj_break(k);
    tj_if_end(k);
    tj_for_end(k);
    tj_val *args[] = {tj_var_get(k, sum), t};
    tj_store(k, out, &i, 1, tj_call(k, envelope, args, 2));
    tj_if_end(k);
    return k;
}

/* ---- host references -------------------------------------------------------------------- */

static double
envelope_ref(double v, double t)
{
    return v * exp(-(t * t) / 8.0) + sqrt(1.0 + t * t) / 4.0;
}

static double
series_ref(double t, int *steps)
{
    double sum = 0.0, damp = 1.0;
    for (int j = 0; j < SERIES_TERMS; j++) {
        double term = damp * sin((double)(j + 1) * t) / sqrt((double)(j + 1));
        if (j % 2 == 0)
            sum += term;
        else
            sum -= term / 2.0;
        damp *= SERIES_DECAY;
        *steps = j + 1;
        if (damp < SERIES_CUTOFF * (1.0 + fabs(t)))
            break;
    }
    return envelope_ref(sum, t);
}

/* ---- running ---------------------------------------------------------------------------- */

static tj_status
make_array(const demo *d, const tj_type *elem, const void *host, tj_array **out)
{
    tj_status st = tj_array_create(d->dev, elem, 1, &d->n, out);
    if (st == TJ_OK && host)
        st = tj_array_copy_from_host(*out, host, tj_array_get_bytes(*out));
    if (st != TJ_OK)
        report_run("tj_array_create", d->dev, st);
    return st;
}

/* Builds 'k', runs it over d->n threads with 'args' and waits. */
static tj_status
build_and_run(const demo *d, tj_kernel *k, const char *name, const tj_arg *args,
              size_t nargs)
{
    tj_module *m = NULL;
    tj_build_options bopts = {.device = d->dev};
    tj_status st = tj_kernel_build(k, &bopts, &m);
    if (st != TJ_OK) {
        report_build(name, k, d->ctx, st);
        return st;
    }
    st = tj_launch(d->dev, m, name, 1, &d->n, tj_kernel_get_block_dim(k), args, nargs);
    if (st == TJ_OK)
        st = tj_device_synchronize(d->dev);
    if (st != TJ_OK)
        report_run(name, d->dev, st);
    tj_module_destroy(m);
    return st;
}

/* Which elements to print: the first few and the last. */
static bool
shown(int64_t i, int64_t n)
{
    return i < NSHOW - 1 || i == n - 1;
}

static tj_status
run_saxpy(const demo *d, check *c)
{
    size_t n = (size_t)d->n;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *got = malloc(n * sizeof *y);
    tj_array *ax = NULL, *ay = NULL;
    tj_kernel *k = NULL;
    tj_status st = TJ_ERR_NOMEM;
    if (!x || !y || !got) {
        fprintf(stderr, "saxpy: out of host memory\n");
        goto done;
    }
    const float a = 2.5f;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)i / 8.0f - 100.0f;
        y[i] = 1.0f / (float)(1 + i % 97);
    }
    if ((st = make_array(d, f32(d), x, &ax)) != TJ_OK ||
        (st = make_array(d, f32(d), y, &ay)) != TJ_OK)
        goto done;
    k = build_saxpy(d);
    tj_arg args[] = {tj_arg_float(a), tj_arg_array(ax), tj_arg_array(ay)};
    if ((st = build_and_run(d, k, "saxpy", args, 3)) != TJ_OK)
        goto done;
    if ((st = tj_array_copy_to_host(ay, got, n * sizeof *got)) != TJ_OK) {
        report_run("tj_array_copy_to_host", d->dev, st);
        goto done;
    }
    printf("saxpy: y = %.1f * x + y\n%10s %14s %14s %14s\n", a, "i", "x", "y", "reference");
    for (size_t i = 0; i < n; i++) {
        float ref = a * x[i] + y[i];
        double err;
        if (!is_close(got[i], ref, SAXPY_TOL, &err))
            c->nbad++;
        c->max_err = fmax(c->max_err, err);
        if (shown((int64_t)i, d->n))
            printf("%10zu %14.6f %14.6f %14.6f\n", i, x[i], got[i], ref);
    }
done:
    tj_kernel_destroy(k);
    tj_array_destroy(ax);
    tj_array_destroy(ay);
    free(x);
    free(y);
    free(got);
    return st;
}

static tj_status
run_series(const demo *d, check *c)
{
    size_t n = (size_t)d->n;
    double *t = malloc(n * sizeof *t), *got = malloc(n * sizeof *got);
    int32_t *steps = malloc(n * sizeof *steps);
    tj_array *at = NULL, *aout = NULL, *asteps = NULL;
    tj_kernel *k = NULL;
    tj_func *env = NULL;
    tj_status st = TJ_ERR_NOMEM;
    if (!t || !got || !steps) {
        fprintf(stderr, "series: out of host memory\n");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        t[i] = -3.0 + 6.0 * (double)i / (double)n;
    const tj_type *i32 = tj_context_get_type(d->ctx, TJ_DTYPE_I32);
    if ((st = make_array(d, f64(d), t, &at)) != TJ_OK ||
        (st = make_array(d, f64(d), NULL, &aout)) != TJ_OK ||
        (st = make_array(d, i32, NULL, &asteps)) != TJ_OK)
        goto done;
    env = build_envelope(d);
    k = build_series(d, env);
    tj_arg args[] = {tj_arg_float(SERIES_DECAY), tj_arg_array(at), tj_arg_array(aout),
                     tj_arg_array(asteps)};
    if ((st = build_and_run(d, k, "series", args, 4)) != TJ_OK)
        goto done;
    if ((st = tj_array_copy_to_host(aout, got, n * sizeof *got)) != TJ_OK ||
        (st = tj_array_copy_to_host(asteps, steps, n * sizeof *steps)) != TJ_OK) {
        report_run("tj_array_copy_to_host", d->dev, st);
        goto done;
    }
    printf("series: damped sum of sin((j+1)t)/sqrt(j+1), then envelope(sum, t)\n"
           "%10s %10s %20s %20s %6s\n", "i", "t", "result", "reference", "terms");
    for (size_t i = 0; i < n; i++) {
        int ref_steps = 0;
        double ref = series_ref(t[i], &ref_steps), err;
        if (!is_close(got[i], ref, SERIES_TOL, &err) || steps[i] != ref_steps)
            c->nbad++;
        c->max_err = fmax(c->max_err, err);
        if (shown((int64_t)i, d->n))
            printf("%10zu %10.6f %20.15f %20.15f %3d/%d\n", i, t[i], got[i], ref, steps[i],
                   ref_steps);
    }
done:
    tj_kernel_destroy(k);
    tj_func_destroy(env);
    tj_array_destroy(at);
    tj_array_destroy(aout);
    tj_array_destroy(asteps);
    free(t);
    free(got);
    free(steps);
    return st;
}

/* Prints the verdict line for one kernel; returns whether it passed. */
static bool
verdict(const char *name, const demo *d, tj_status st, const check *c, double tol)
{
    if (st != TJ_OK) {
        printf("%s: FAILED (%s)\n", name, tj_status_name(st));
        return false;
    }
    if (c->nbad) {
        printf("%s: FAILED (n=%lld, %lld results off, max error %.3g, tolerance %.0e)\n",
               name, (long long)d->n, (long long)c->nbad, c->max_err, tol);
        fprintf(stderr, "%s: %lld results differ from the host reference\n", name,
                (long long)c->nbad);
        return false;
    }
    printf("%s: OK (n=%lld, max error %.3g, tolerance %.0e)\n", name, (long long)d->n,
           c->max_err, tol);
    return true;
}

/* Parses the command line into 'kind' (-1: default device), 'coop' and 'n'; returns -1 to
 * go on, else the exit status. */
static int
parse_args(int argc, char **argv, int *kind, bool *coop, int64_t *n)
{
    static const struct option longs[] = {
        {"device", required_argument, NULL, 'd'},
        {"cpu-blocks", no_argument, NULL, 'b'},
        {"count", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "d:bn:h", longs, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 'd':
            if (strcmp(optarg, "cpu") == 0)
                *kind = TJ_DEVICE_CPU;
            else if (strcmp(optarg, "cuda") == 0)
                *kind = TJ_DEVICE_CUDA;
            else {
                fprintf(stderr, "%s: unknown device '%s' (cpu or cuda)\n", argv[0], optarg);
                return 2;
            }
            break;
        case 'b':
            *coop = true;
            break;
        case 'n':
            *n = strtoll(optarg, &end, 10);
            if (!*optarg || *end || *n < 1 || *n > (1 << 24)) {
                fprintf(stderr, "%s: bad count '%s' (1..16777216)\n", argv[0], optarg);
                return 2;
            }
            break;
        case 'h':
            usage(stdout, argv[0]);
            return 0;
        default:
            usage(stderr, argv[0]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
        return 2;
    }
    return -1;
}

static tj_status
open_device(demo *d, int kind, bool coop)
{
    tj_status st = kind < 0 ? tj_device_create_default(d->ctx, &d->dev)
                            : tj_device_create(d->ctx, (tj_device_kind)kind, 0, &d->dev);
    if (st != TJ_OK) {
        const char *msg = tj_context_error(d->ctx);
        fprintf(stderr, "scalar_demo: cannot open the %s device (%s): %s\n",
                kind == TJ_DEVICE_CUDA ? "cuda" : kind == TJ_DEVICE_CPU ? "cpu" : "default",
                tj_status_name(st), msg ? msg : "no message");
        return st;
    }
    bool gpu = tj_device_get_kind(d->dev) == TJ_DEVICE_CUDA;
    d->kopts = (tj_kernel_options){.target = gpu ? TJ_TARGET_CUDA : TJ_TARGET_CPU};
    if (!gpu && coop)
        d->kopts = (tj_kernel_options){.target = TJ_TARGET_CPU, .block_dim = CPU_BLOCK_DIM,
                                       .cpu_mode = TJ_CPU_COOPERATIVE};
    printf("tilejit %s on %s: %s (%s)%s\n", tj_version(), gpu ? "cuda" : "cpu",
           tj_device_get_name(d->dev), tj_device_get_arch(d->dev),
           !gpu && coop ? ", cooperative blocks" : "");
    return TJ_OK;
}

int
main(int argc, char **argv)
{
    demo d = {.n = 100000};
    int kind = -1;
    bool coop = false;
    int rc = parse_args(argc, argv, &kind, &coop, &d.n);
    if (rc >= 0)
        return rc;
    tj_status st = tj_context_create(&d.ctx);
    if (st != TJ_OK) {
        fprintf(stderr, "scalar_demo: tj_context_create: %s\n", tj_status_name(st));
        return 1;
    }
    bool ok = false;
    if (open_device(&d, kind, coop) == TJ_OK) {
        check cs = {0}, cr = {0};
        tj_status s1 = run_saxpy(&d, &cs);
        bool ok1 = verdict("saxpy", &d, s1, &cs, SAXPY_TOL);
        tj_status s2 = run_series(&d, &cr);
        bool ok2 = verdict("series", &d, s2, &cr, SERIES_TOL);
        ok = ok1 && ok2;
    }
    tj_device_destroy(d.dev);
    tj_context_destroy(d.ctx);
    return ok ? 0 : 1;
}
