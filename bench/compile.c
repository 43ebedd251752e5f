/*
 * bench/compile.c: the compile group. For each kernel of seeds.c: builder → PTX, builder →
 * callable CPU function, builder → loaded CUDA module (GPU only), each in steady state and
 * first in a process, and a cold process whose on-disk cache is warm; beside them NVRTC
 * compiling the same kernel written in CUDA C++ (and loading it, on a GPU). The figures
 * "first in a process" and "disk" come from child processes: this program run again with
 * --child, which times one build and prints it.
 *
 * Steady state: the process compiles with TILEJIT_CACHE=0 (no disk cache), builds a fresh
 * kernel object each time and gives it a new name (seed_s<kind><salt>_<i>), so the module text,
 * hence the in-memory cache key, differs while the code is the same; every build must
 * report tj_module_is_cached() false. The salt (pid and time) keeps the driver's PTX cache
 * from serving the module figures of a later run. Two untimed builds come first.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "reflib.h"
#include "seeds.h"

enum { WARMUP = 2, ROUND = 5 };

typedef enum kind {
    K_PTX,            /* builder → PTX text for sm_90 */
    K_CPU,            /* builder → callable CPU function (width-1) */
    K_MODULE,         /* builder → loaded CUDA module, with its first launch */
    K_NVRTC,          /* CUDA C++ → PTX with NVRTC */
    K_NVRTC_MODULE,   /* NVRTC, then cudaLibraryLoadData */
    K_SOURCE,         /* Warp-syntax source → PTX (tj_program_*) */
} kind;

static const char *const kind_impl[] = {
    [K_PTX] = "tilejit builder->PTX",
    [K_CPU] = "tilejit builder->CPU function",
    [K_MODULE] = "tilejit builder->loaded module",
    [K_NVRTC] = "NVRTC CUDA C++->PTX",
    [K_NVRTC_MODULE] = "NVRTC + cudaLibraryLoadData",
    [K_SOURCE] = "tilejit source->PTX",
};

typedef struct cenv {
    bench_env *e;
    unsigned salt;
    bench_nvrtc *nv;              /* NULL: absent (nv_why) */
    char nv_why[512];
    bench_reflib *ref;            /* GPU only */
    char ref_why[2048];
    double nv_median[2][64];      /* NVRTC steady, first in process, per seed: reused */
} cenv;

/* ---- one measurement ------------------------------------------------------------------------ */

/* The seed's CUDA C++ with KNAME defined as 'kname' (free it). */
static char *
cuda_source(const bench_seed *s, const char *kname)
{
    size_t n = strlen(s->cuda) + strlen(kname) + 32;
    char *src = malloc(n);
    if (src)
        snprintf(src, n, "#define KNAME %s\n%s", kname, s->cuda);
    return src;
}

static bool
ptx_has_entry(const char *ptx, const char *kname, char *why, size_t n)
{
    const char *p = ptx ? strstr(ptx, ".entry") : NULL;
    if (p && strstr(p, kname))
        return true;
    snprintf(why, n, "the PTX has no entry '%s'", kname);
    return false;
}

/* Runs a CPU build of 's' and checks its output. */
static bool
check_cpu(tj_context *ctx, tj_device *cpu, const bench_seed *s, tj_module *m, const char *kname,
          char *why, size_t n)
{
    tj_array *io[BENCH_SEED_MAX_ARRAYS] = {NULL};
    bool ok = s->prepare(ctx, cpu, io);
    if (!ok)
        snprintf(why, n, "cannot make the inputs: %s", tj_device_error(cpu));
    tj_status st = ok ? s->launch(cpu, m, kname, io) : TJ_OK;
    if (ok && st != TJ_OK)
        snprintf(why, n, "launch failed (%s): %s", tj_status_name(st), tj_device_error(cpu));
    ok = ok && st == TJ_OK && s->verify(io, true, why, n);
    bench_seed_release(io);
    return ok;
}

#ifdef TJ_BENCH_HAVE_PROGRAM
/* 'text' with every KNAME replaced by 'kname' (free it). */
static char *
with_name(const char *text, const char *kname)
{
    size_t n = strlen(text) + 1, klen = strlen(kname);
    for (const char *p = strstr(text, "KNAME"); p; p = strstr(p + 5, "KNAME"))
        n += klen;
    char *out = malloc(n), *o = out;
    for (const char *p = text; out && *p;) {
        if (strncmp(p, "KNAME", 5) == 0) {
            memcpy(o, kname, klen);
            o += klen;
            p += 5;
        } else {
            *o++ = *p++;
        }
    }
    if (out)
        *o = 0;
    return out;
}

/* Parses, checks and builds the seed's Warp-syntax source for 'target'. */
static tj_status
build_source(tj_context *ctx, const bench_seed *s, const char *kname, tj_target target,
             tj_module **m, char *why, size_t n)
{
    char *src = with_name(s->source, kname);
    tj_program *prog = NULL;
    tj_status st = src ? tj_program_create(ctx, src, s->name, &prog) : TJ_ERR_NOMEM;
    tj_kernel_options ko = {.target = target, .block_dim = s->block_dim};
    if (st == TJ_OK)
        st = tj_program_build(prog, kname, &ko, NULL, m);
    if (st != TJ_OK)
        snprintf(why, n, "%s", prog && tj_program_error(prog) ? tj_program_error(prog)
                                                                : "out of memory");
    tj_program_destroy(prog);
    free(src);
    return st;
}
#endif

/* One tilejit build of 's' named 'kname' for kind 'k' (K_PTX, K_CPU, K_MODULE): its time
 * (definition, build, and for K_MODULE the first launch and a synchronisation) in '*ms',
 * whether it came from a cache in '*cached'. 'dev' is the CPU for K_CPU (for the check),
 * the GPU for K_MODULE. The result is checked after the clock stops. */
static bool
tj_once(tj_context *ctx, tj_device *dev, const bench_seed *s, kind k, const char *kname,
        double *ms, bool *cached, char *why, size_t n)
{
    tj_array *io[BENCH_SEED_MAX_ARRAYS] = {NULL};
    if (k == K_MODULE && !s->prepare(ctx, dev, io)) {
        snprintf(why, n, "cannot make the inputs: %s", tj_device_error(dev));
        bench_seed_release(io);
        return false;
    }
    tj_kernel_options o = {.target = k == K_CPU ? TJ_TARGET_CPU : TJ_TARGET_CUDA,
                           .block_dim = s->block_dim};
    tj_build_options bo = {.device = k == K_MODULE ? dev : NULL};
    tj_module *m = NULL;
    double t0 = bench_now_ms();
    tj_kernel *kn = NULL;
    tj_status st = TJ_ERR_UNSUPPORTED;
    if (k == K_SOURCE) {
#ifdef TJ_BENCH_HAVE_PROGRAM
        st = build_source(ctx, s, kname, TJ_TARGET_CUDA, &m, why, n);
#endif
    } else {
        kn = s->define(ctx, &o, kname);
        st = kn ? tj_kernel_build(kn, &bo, &m) : TJ_ERR_NOMEM;
    }
    if (st == TJ_OK && k == K_MODULE) {
        st = s->launch(dev, m, kname, io);
        if (st == TJ_OK)
            st = tj_device_synchronize(dev);
    }
    *ms = bench_now_ms() - t0;
    bool ok = st == TJ_OK;
    if (!ok && k != K_SOURCE) {
        const char *msg = kn && tj_kernel_error(kn) ? tj_kernel_error(kn) : NULL;
        if (!msg && dev && k == K_MODULE && m)
            msg = tj_device_error(dev);
        if (!msg)
            msg = tj_context_error(ctx);
        snprintf(why, n, "%s failed (%s): %s", m ? "launch" : "build", tj_status_name(st),
                 msg ? msg : "no message");
    }
    tj_kernel_destroy(kn);
    *cached = ok && tj_module_is_cached(m);
    if (ok && (k == K_PTX || k == K_SOURCE))
        ok = ptx_has_entry(tj_module_get_ptx(m), kname, why, n);
    else if (ok && k == K_CPU)
        ok = check_cpu(ctx, dev, s, m, kname, why, n);
    else if (ok && k == K_MODULE)
        ok = s->verify(io, false, why, n);
    bench_seed_release(io);
    tj_module_destroy(m);
    return ok;
}

/* One NVRTC compile of the seed's CUDA C++, then (with 'ref') its load. */
static bool
nvrtc_once(const bench_nvrtc *nv, const bench_reflib *ref, const bench_seed *s,
           const char *kname, double *ms, char *why, size_t n)
{
    char *src = cuda_source(s, kname);
    if (!src) {
        snprintf(why, n, "out of memory");
        return false;
    }
    double t0 = bench_now_ms();
    char *ptx = bench_nvrtc_compile(nv, src, "compute_90", why, n);
    bool ok = ptx != NULL;
    if (ok && ref && ref->load_ptx(ptx, kname) != 0) {
        snprintf(why, n, "tjref_load_ptx: %s", ref->error());
        ok = false;
    }
    *ms = bench_now_ms() - t0;
    ok = ok && ptx_has_entry(ptx, kname, why, n);
    free(ptx);
    free(src);
    return ok;
}

/* ---- child processes ------------------------------------------------------------------------- */

typedef struct child_result {
    double ms;       /* the build, as the child timed it */
    double ctx_ms;   /* of which tj_context_create */
    double wall_ms;  /* the whole child process, fork to exit */
    int cached;
} child_result;

/* Runs this program with --child 'mode' 'seed' 'kname'. With 'cache_dir' the child uses
 * that disk cache, otherwise TILEJIT_CACHE=0. */
static bool
run_child(const cenv *c, const char *mode, const char *seed, const char *kname,
          const char *cache_dir, child_result *res, char *why, size_t n)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(why, n, "pipe: %s", strerror(errno));
        return false;
    }
    double t0 = bench_now_ms();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (cache_dir) {
            unsetenv("TILEJIT_CACHE");
            setenv("TILEJIT_CACHE_DIR", cache_dir, 1);
        } else {
            setenv("TILEJIT_CACHE", "0", 1);
        }
        execl(c->e->o->self, c->e->o->self, "--child", mode, seed, kname, (char *)NULL);
        fprintf(stderr, "tilejit-bench: exec %s: %s\n", c->e->o->self, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(why, n, "fork: %s", strerror(errno));
        return false;
    }
    char buf[512];
    size_t len = 0;
    ssize_t r;
    while ((r = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)r;
    buf[len] = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    res->wall_ms = bench_now_ms() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, n, "the child process (--child %s %s) %s %d (its message is above)",
                 mode, seed, WIFEXITED(status) ? "exited with" : "died of signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return false;
    }
    if (sscanf(buf, "ms=%lf ctx_ms=%lf cached=%d", &res->ms, &res->ctx_ms, &res->cached) != 3) {
        snprintf(why, n, "the child process printed '%.200s'", buf);
        return false;
    }
    return true;
}

static int
child_fail(const char *mode, const char *seed, const char *why)
{
    fprintf(stderr, "tilejit-bench --child %s %s: %s\n", mode, seed, why);
    return 1;
}

/* The timed part of a tilejit child: context creation and one build. */
static int
child_tilejit(const char *mode, const bench_seed *s, const char *kname)
{
    bool disk = strncmp(mode, "disk-", 5) == 0;
    const char *what = disk ? mode + 5 : mode;
    kind k = strcmp(what, "ptx") == 0      ? K_PTX
             : strcmp(what, "source") == 0 ? K_SOURCE
             : strcmp(what, "cpu") == 0    ? K_CPU
                                           : K_MODULE;
    char why[1024] = "";
    tj_context *ctx = NULL;
    tj_device *dev = NULL;
    double ctx_ms = 0, t0 = bench_now_ms();
    if (tj_context_create(&ctx) != TJ_OK)
        return child_fail(mode, s->name, "tj_context_create failed");
    if (k != K_MODULE)
        ctx_ms = bench_now_ms() - t0;
    tj_device_kind dk = k == K_CPU ? TJ_DEVICE_CPU : TJ_DEVICE_CUDA;
    tj_status st = k == K_PTX || k == K_SOURCE ? TJ_OK : tj_device_create(ctx, dk, 0, &dev);
    if (st != TJ_OK) {
        snprintf(why, sizeof why, "no device (%s): %s", tj_status_name(st),
                 tj_context_error(ctx) ? tj_context_error(ctx) : "");
        tj_context_destroy(ctx);
        return child_fail(mode, s->name, why);
    }
    double ms = 0;
    bool cached = false;
    bool ok = tj_once(ctx, dev, s, k, kname, &ms, &cached, why, sizeof why);
    tj_context_destroy(ctx);
    if (!ok)
        return child_fail(mode, s->name, why);
    printf("ms=%.6f ctx_ms=%.6f cached=%d\n", ms + ctx_ms, ctx_ms, (int)cached);
    return 0;
}

static int
child_nvrtc(const char *mode, const bench_seed *s, const char *kname, const char *self)
{
    char why[2048] = "";
    bench_nvrtc *nv = bench_nvrtc_open(why, sizeof why);
    if (!nv)
        return child_fail(mode, s->name, why);
    bench_reflib *ref = NULL;
    if (strcmp(mode, "nvrtc-module") == 0 && !(ref = bench_reflib_open(self, why, sizeof why)))
        return child_fail(mode, s->name, why);
    double ms = 0;
    bool ok = nvrtc_once(nv, ref, s, kname, &ms, why, sizeof why);
    if (!ok)
        return child_fail(mode, s->name, why);
    printf("ms=%.6f ctx_ms=0 cached=0\n", ms);
    return 0;
}

int
bench_compile_child(int argc, char **argv)
{
    if (argc != 5)
        return child_fail("?", "?", "usage: --child MODE SEED KERNEL_NAME");
    const char *mode = argv[2];
    const bench_seed *s = bench_seed_find(argv[3]);
    if (!s)
        return child_fail(mode, argv[3], "no such kernel");
    if (strncmp(mode, "nvrtc", 5) == 0) {
        char self[4096];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        self[len > 0 ? len : 0] = 0;
        return child_nvrtc(mode, s, argv[4], self);
    }
    static const char *const modes[] = {"ptx", "source", "cpu", "module", "disk-ptx",
                                        "disk-cpu"};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(mode, modes[i]) == 0)
            return child_tilejit(mode, s, argv[4]);
    return child_fail(mode, s->name, "no such mode");
}

/* ---- series ------------------------------------------------------------------------------- */

static bench_row
row_for(const char *figure, const bench_seed *s, const char *impl, const char *device)
{
    char name[64];
    snprintf(name, sizeof name, "compile/%s/%s", figure, s->name);
    return bench_row_new(name, impl, device);
}

/* One steady-state build of kind 'k' (the 'nth' of its run, for a unique name); its time
 * goes to '*ms' unless 'ms' is NULL (untimed). False, with the reason in 'why', when it
 * fails or a cache served it. */
static bool
steady_once(cenv *c, const bench_seed *s, kind k, int nth, double *ms, char *why, size_t n)
{
    tj_device *dev = k == K_CPU ? c->e->cpu : k == K_MODULE ? c->e->gpu : NULL;
    char kname[96];
    /* one letter per kind: a source build may lower to the builder's very module */
    snprintf(kname, sizeof kname, "%s_s%c%08x_%d", s->name, "pcmnls"[k], c->salt, nth);
    double t = 0;
    bool cached = false, ok;
    if (k == K_NVRTC || k == K_NVRTC_MODULE)
        ok = nvrtc_once(c->nv, k == K_NVRTC_MODULE ? c->ref : NULL, s, kname, &t, why, n);
    else
        ok = tj_once(c->e->ctx, dev, s, k, kname, &t, &cached, why, n);
    if (ok && cached) {
        snprintf(why, n, "a cache served steady-state build %d", nth);
        ok = false;
    }
    if (ok && ms)
        *ms = t;
    return ok;
}

/* Steady state in this process, for 'n' kinds (one, or NVRTC and tilejit). Each kind makes
 * WARMUP untimed builds, then the kinds take turns in rounds: per round, each kind makes
 * one untimed build (when there are two kinds) and then up to ROUND timed ones, until each
 * has --repeat. The rounds let both see the same state of a shared machine; the untimed
 * build at the start of each turn keeps the other compiler's traces in the caches out of
 * the figures (timed build by build in turn, each tilejit build came after a 20 ms NVRTC
 * compilation: bench/RESULTS.md, "2026-12-02 (evening)"). Row j gets the times of ks[j],
 * or fails alone (the others go on); oks[j] says which. */
static void
steady(cenv *c, const bench_seed *s, int n, const kind *ks, bench_row *const *rs, bool *oks)
{
    int reps = c->e->o->repeat;
    double *ms = calloc((size_t)reps * (size_t)n, sizeof *ms);
    char why[2][1024] = {"", ""};
    int nth = 0; /* builds of each kind so far, for unique names */
    for (int j = 0; j < n; j++)
        oks[j] = ms != NULL;
    for (; nth < WARMUP; nth++)
        for (int j = 0; j < n; j++)
            oks[j] = oks[j] && steady_once(c, s, ks[j], nth, NULL, why[j], sizeof why[j]);
    for (int done = 0; done < reps;) {
        int m = reps - done < ROUND ? reps - done : ROUND, opening = n > 1;
        for (int j = 0; j < n; j++) {
            if (opening)
                oks[j] = oks[j] && steady_once(c, s, ks[j], nth, NULL, why[j], sizeof why[j]);
            for (int i = 0; i < m && oks[j]; i++)
                oks[j] = steady_once(c, s, ks[j], nth + opening + i,
                                     &ms[(size_t)j * (size_t)reps + (size_t)(done + i)], why[j],
                                     sizeof why[j]);
        }
        nth += opening + m;
        done += m;
    }
    for (int j = 0; j < n; j++) {
        if (oks[j])
            bench_row_set_times(rs[j], ms + (size_t)j * (size_t)reps, reps);
        else
            bench_fail(rs[j]->name, rs[j]->impl, rs[j]->device, "%s",
                       ms ? why[j] : "out of memory");
    }
    free(ms);
}

/* --repeat child processes after one untimed one. With 'cache_dir' the untimed child fills
 * the disk cache (and must not find its kernel there) and the timed ones must hit it. */
static bool
children(cenv *c, const bench_seed *s, const char *mode, const char *cache_dir, bench_row *r)
{
    int reps = c->e->o->repeat;
    double *ms = calloc((size_t)reps, sizeof *ms), ctx_sum = 0, wall_sum = 0;
    char why[1024] = "";
    bool ok = ms != NULL;
    for (int i = -1; ok && i < reps; i++) {
        char kname[96];
        if (cache_dir)
            snprintf(kname, sizeof kname, "%s_d%08x", s->name, c->salt);
        else
            snprintf(kname, sizeof kname, "%s_f%08x_%d", s->name, c->salt, i + 1);
        child_result res;
        ok = run_child(c, mode, s->name, kname, cache_dir, &res, why, sizeof why);
        if (ok && res.cached != (cache_dir && i >= 0)) {
            snprintf(why, sizeof why, "child %d: the module %s from the disk cache", i + 1,
                     res.cached ? "came" : "did not come");
            ok = false;
        }
        if (ok && i >= 0) {
            ms[i] = res.ms;
            ctx_sum += res.ctx_ms;
            wall_sum += res.wall_ms;
        }
    }
    if (!ok) {
        bench_fail(r->name, r->impl, r->device, "%s", ms ? why : "out of memory");
        free(ms);
        return false;
    }
    bench_row_set_times(r, ms, reps);
    if (strncmp(mode, "nvrtc", 5) == 0)
        snprintf(r->note, sizeof r->note,
                 "in a fresh process, after dlopen%s; process wall %.0f ms",
                 strcmp(mode, "nvrtc-module") == 0 ? " and CUDA initialisation" : "",
                 wall_sum / reps);
    else if (strcmp(mode, "module") == 0)
        snprintf(r->note, sizeof r->note,
                 "in a fresh process, after context and CUDA initialisation; process wall %.0f ms",
                 wall_sum / reps);
    else
        snprintf(r->note, sizeof r->note,
                 "in a fresh process, with tj_context_create (mean %.1f ms); process wall %.0f ms",
                 ctx_sum / reps, wall_sum / reps);
    free(ms);
    return true;
}

/* ---- figures -------------------------------------------------------------------------------- */

/* The NVRTC reference of a figure. Returns true when 'nv' is final: reused (for K_NVRTC,
 * from c->nv_median, measured by an earlier figure) or skipped (median NaN); false when it
 * must be measured now. */
static bool
nvrtc_known(cenv *c, int seed, int nvk, bool first, bench_row *nv)
{
    double *cached = nvk == K_NVRTC ? &c->nv_median[first][seed] : NULL;
    if (cached && !isnan(*cached)) {
        nv->median = *cached;
        return true;
    }
    nv->median = NAN;
    if (!c->nv)
        bench_skip(nv->name, nv->impl, nv->device, "%s", c->nv_why);
    else if (nvk == K_NVRTC_MODULE && !c->ref)
        bench_skip(nv->name, nv->impl, nv->device, "%s", c->ref_why);
    else
        return false;
    return true;
}

/* Emits a measured NVRTC row and keeps its median for later figures. */
static void
nvrtc_done(cenv *c, int seed, int nvk, bool first, bench_row *nv, bool ok)
{
    if (!ok) {
        nv->median = NAN;
        return;
    }
    if (!first)
        snprintf(nv->note, sizeof nv->note, "%s", bench_nvrtc_describe(c->nv));
    bench_emit(nv);
    if (nvk == K_NVRTC)
        c->nv_median[first][seed] = nv->median;
}

/* compile/<figure>/<seed>: the NVRTC row (when 'nvk' is not -1), then the tilejit row with
 * it as reference. Steady state (the two alternate when both are measured now), or child
 * processes when 'mode' is set. Returns the tilejit median (NaN when it failed or was
 * skipped). */
static double
figure(cenv *c, int seed, const char *fig, kind tjk, int nvk, const char *mode,
       const char *nvmode)
{
    const bench_seed *s = &bench_seeds[seed];
    char name[64];
    snprintf(name, sizeof name, "compile/%s/%s", fig, s->name);
    if (!bench_wanted(c->e->o, name))
        return NAN;
    bool first = mode != NULL;
    const char *device = tjk == K_MODULE ? "cuda" : tjk == K_CPU ? "cpu" : "host";
    char impl[80];
    snprintf(impl, sizeof impl, "%s%s", kind_impl[tjk], first ? ", first in process" : "");
    bench_row r = row_for(fig, s, impl, device);
    bench_row nv = bench_row_new("", "", device);
    bool measure_nv = false, ok;
    if (nvk >= 0) {
        char nv_impl[80];
        snprintf(nv_impl, sizeof nv_impl, "%s%s", kind_impl[nvk],
                 first ? ", first in process" : "");
        nv = row_for(fig, s, nv_impl, device);
        measure_nv = !nvrtc_known(c, seed, nvk, first, &nv);
    }
    if (first) {
        if (measure_nv)
            nvrtc_done(c, seed, nvk, first, &nv, children(c, s, nvmode, NULL, &nv));
        ok = children(c, s, mode, NULL, &r);
    } else if (measure_nv) {
        kind ks[] = {(kind)nvk, tjk};
        bench_row *rs[] = {&nv, &r};
        bool oks[2];
        steady(c, s, 2, ks, rs, oks);
        nvrtc_done(c, seed, nvk, first, &nv, oks[0]);
        ok = oks[1];
    } else {
        bench_row *rs[] = {&r};
        steady(c, s, 1, &tjk, rs, &ok);
    }
    if (!ok)
        return NAN;
    if (!isnan(nv.median))
        bench_row_set_ref(&r, &nv);
    if (!first)
        snprintf(r.note, sizeof r.note, "steady state: fresh kernel, new name each build, "
                 "TILEJIT_CACHE=0%s", tjk == K_MODULE ? "; includes the first launch"
                 : tjk == K_SOURCE ? "; parse, check, lower, build" : "");
    if (!first && measure_nv) {
        size_t used = strlen(r.note);
        snprintf(r.note + used, sizeof r.note - used,
                 "; in turns with NVRTC, %d timed builds a turn after an untimed one", ROUND);
    }
    bench_emit(&r);
    return r.median;
}

/* compile/disk/<seed>: cold processes with a warm disk cache, against the same kernel's
 * first-in-process figure without a cache ('cold', NaN when unknown). */
static void
disk_figure(cenv *c, const bench_seed *s, kind k, double cold)
{
    char name[64], impl[96];
    snprintf(name, sizeof name, "compile/disk/%s", s->name);
    if (!bench_wanted(c->e->o, name))
        return;
    snprintf(impl, sizeof impl, "tilejit %s, cold process, warm disk cache",
             k == K_PTX ? "builder->PTX" : "builder->CPU function");
    const char *device = k == K_PTX ? "host" : "cpu";
    char dir[] = "/tmp/tilejit-bench-cache.XXXXXX";
    if (!mkdtemp(dir)) {
        bench_fail(name, impl, device, "mkdtemp: %s", strerror(errno));
        return;
    }
    bench_row r = bench_row_new(name, impl, device);
    bool ok = children(c, s, k == K_PTX ? "disk-ptx" : "disk-cpu", dir, &r);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        bench_say("tilejit-bench: could not remove %s", dir);
    if (!ok)
        return;
    bench_row ref = bench_row_new(name, "", device);
    snprintf(ref.impl, sizeof ref.impl, "%s, first in process", kind_impl[k]);
    ref.median = cold;
    if (!isnan(cold))
        bench_row_set_ref(&r, &ref);
    bench_emit(&r);
}

/* ---- the group ------------------------------------------------------------------------------ */

void
bench_compile_list(void (*put)(const char *name, const char *what))
{
    static const struct {
        const char *fig, *what;
    } figs[] = {
        {"ptx", "builder -> PTX, steady state, beside NVRTC"},
        {"ptx-first", "builder -> PTX, first in a process, beside NVRTC"},
        {"cpu", "builder -> callable CPU function, steady state"},
        {"cpu-first", "builder -> callable CPU function, first in a process"},
        {"module", "builder -> loaded CUDA module, steady state, beside NVRTC + load (GPU)"},
        {"module-first", "builder -> loaded CUDA module, first in a process (GPU)"},
        {"disk", "cold process, warm disk cache (PTX and CPU)"},
        {"source", "Warp-syntax source -> PTX (tj_program_*), steady state, beside NVRTC"},
        {"source-first", "Warp-syntax source -> PTX, first in a process, beside NVRTC"},
    };
    for (size_t f = 0; f < sizeof figs / sizeof figs[0]; f++) {
        for (int i = 0; i < bench_nseeds; i++) {
            char name[64], what[160];
            snprintf(name, sizeof name, "compile/%s/%s", figs[f].fig, bench_seeds[i].name);
            snprintf(what, sizeof what, "%s: %s", figs[f].what, bench_seeds[i].what);
            put(name, what);
        }
    }
}

static bool
any_wanted(const bench_opts *o, const char *fig)
{
    for (int i = 0; i < bench_nseeds; i++) {
        char name[64];
        snprintf(name, sizeof name, "compile/%s/%s", fig, bench_seeds[i].name);
        if (bench_wanted(o, name))
            return true;
    }
    return false;
}

static void
run_gpu_figures(cenv *c)
{
    const bench_opts *o = c->e->o;
    if (!any_wanted(o, "module") && !any_wanted(o, "module-first"))
        return;
    if (!bench_gpu(c->e)) {
        for (int i = 0; i < bench_nseeds; i++) {
            char name[64];
            snprintf(name, sizeof name, "compile/module/%s", bench_seeds[i].name);
            if (o->require_gpu)
                bench_fail(name, kind_impl[K_MODULE], "cuda", "TILEJIT_REQUIRE_GPU=1 and %s",
                           c->e->gpu_why);
            else if (bench_wanted(o, name))
                bench_skip(name, kind_impl[K_MODULE], "cuda", "%s", c->e->gpu_why);
        }
        return;
    }
    c->ref = bench_reflib_open(o->self, c->ref_why, sizeof c->ref_why);
    for (int i = 0; i < bench_nseeds; i++)
        figure(c, i, "module", K_MODULE, K_NVRTC_MODULE, NULL, NULL);
    for (int i = 0; i < bench_nseeds; i++)
        figure(c, i, "module-first", K_MODULE, K_NVRTC_MODULE, "module", "nvrtc-module");
    bench_reflib_close(c->ref);
    c->ref = NULL;
}

/* compile/source/<seed>: the seed's Warp-syntax source through tj_program_* to PTX. The
 * source is first built for the CPU and run against the seed's check. */
static void
run_source_figures(cenv *c)
{
    const bench_opts *o = c->e->o;
    for (int i = 0; i < bench_nseeds; i++) {
        const bench_seed *s = &bench_seeds[i];
        char name[64], first_name[64];
        snprintf(name, sizeof name, "compile/source/%s", s->name);
        snprintf(first_name, sizeof first_name, "compile/source-first/%s", s->name);
        if (!bench_wanted(o, name) && !bench_wanted(o, first_name))
            continue;
#ifdef TJ_BENCH_HAVE_PROGRAM
        char why[1024] = "", kname[96];
        snprintf(kname, sizeof kname, "%s_c%08x", s->name, c->salt);
        tj_module *m = NULL;
        tj_device *cpu = bench_cpu(c->e);
        bool ok = cpu && build_source(c->e->ctx, s, kname, TJ_TARGET_CPU, &m, why, sizeof why) ==
                             TJ_OK;
        ok = ok && check_cpu(c->e->ctx, cpu, s, m, kname, why, sizeof why);
        tj_module_destroy(m);
        if (!ok) {
            bench_fail(name, kind_impl[K_SOURCE], "host", "the source built for the CPU: %s",
                       cpu ? why : "no CPU device");
            continue;
        }
        figure(c, i, "source", K_SOURCE, K_NVRTC, NULL, NULL);
        figure(c, i, "source-first", K_SOURCE, K_NVRTC, "source", "nvrtc");
#else
        if (bench_wanted(o, name))
            bench_skip(name, kind_impl[K_SOURCE], "host",
                       "the text front end (tj_program_*) is not in this tilejit.h");
#endif
    }
}

void
bench_compile_run(bench_env *e)
{
    const bench_opts *o = e->o;
    static const char *const figs[] = {"ptx",          "ptx-first", "cpu",    "cpu-first",
                                       "module",       "module-first", "disk", "source",
                                       "source-first"};
    bool any = false;
    for (size_t f = 0; f < sizeof figs / sizeof figs[0]; f++)
        any |= any_wanted(o, figs[f]);
    if (!any)
        return;
    /* Steady state and first-in-process figures never use the disk cache; the throughput
     * figures after them build as users do (tools/cpu_annotate.py reads their objects). */
    const char *was = getenv("TILEJIT_CACHE");
    char *saved = was ? strdup(was) : NULL;
    setenv("TILEJIT_CACHE", "0", 1);
    cenv c = {.e = e, .salt = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL)};
    c.nv = bench_nvrtc_open(c.nv_why, sizeof c.nv_why);
    bench_say("compile: %s; kernels named <seed>_s<kind>%08x_<i> (steady), <seed>_f%08x_<i> "
              "(first in process)", c.nv ? bench_nvrtc_describe(c.nv) : c.nv_why, c.salt, c.salt);
    double ptx_first[64], cpu_first[64];
    for (int i = 0; i < 64; i++)
        ptx_first[i] = cpu_first[i] = c.nv_median[0][i] = c.nv_median[1][i] = NAN;
    for (int i = 0; i < bench_nseeds; i++)
        figure(&c, i, "ptx", K_PTX, K_NVRTC, NULL, NULL);
    for (int i = 0; i < bench_nseeds; i++)
        ptx_first[i] = figure(&c, i, "ptx-first", K_PTX, K_NVRTC, "ptx", "nvrtc");
    if (o->run_cpu && bench_cpu(e)) {
        for (int i = 0; i < bench_nseeds; i++)
            figure(&c, i, "cpu", K_CPU, -1, NULL, NULL);
        for (int i = 0; i < bench_nseeds; i++)
            cpu_first[i] = figure(&c, i, "cpu-first", K_CPU, -1, "cpu", NULL);
    }
    for (int i = 0; i < bench_nseeds; i++) {
        disk_figure(&c, &bench_seeds[i], K_PTX, ptx_first[i]);
        if (o->run_cpu && e->cpu)
            disk_figure(&c, &bench_seeds[i], K_CPU, cpu_first[i]);
    }
    run_source_figures(&c);
    /* last: each first-in-process module figure starts CUDA in a fresh process */
    if (o->run_cuda)
        run_gpu_figures(&c);
    bench_nvrtc_close(c.nv);
    if (saved)
        setenv("TILEJIT_CACHE", saved, 1);
    else if (!was)
        unsetenv("TILEJIT_CACHE"); /* (with no memory for the copy it stays off) */
    free(saved);
}
