/* tests/tj_test.c: suite runner, GPU probe and ptxas helper. No libtilejit calls here. */
#include "tj_test.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_retain_fn)(void **, int);
typedef int (*cu_release_fn)(int);

/* A symbol of the driver as a function pointer (ISO C forbids casting dlsym's object
 * pointer to one under -Wpedantic, so copy the bits as the driver's loader does). */
#define TJT_SYM(lib, name, fn)                                                                 \
    do {                                                                                       \
        void *sym_ = dlsym((lib), (name));                                                     \
        memcpy(&(fn), &sym_, sizeof sym_);                                                     \
    } while (0)

static int
probe_in_child(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    cu_init_fn init = NULL;
    cu_count_fn count = NULL;
    TJT_SYM(lib, "cuInit", init);
    TJT_SYM(lib, "cuDeviceGetCount", count);
    int n = 0;
    if (!init || !count || init(0) != 0 || count(&n) != 0)
        n = 0;
    return n > 100 ? 100 : n;
}

int
tj_test_gpu_count(void)
{
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0)
        _exit(probe_in_child());
    int st = 0;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
        return 0;
    return WEXITSTATUS(st);
}

static bool
require_gpu(void)
{
    const char *v = getenv("TILEJIT_REQUIRE_GPU");
    return v && *v && strcmp(v, "0") != 0;
}

/*
 * The primary context of device 0, held for a whole unforked --cuda run. Each test makes
 * and destroys its own tj_device; without this hold the last release would destroy the
 * primary context and the next test would create it again (not measured apart from the
 * unforking: together they took the 23 GPU suites on the H200 from over 150 s to 42-49 s).
 * Returns the driver's handle to pass to release_primary_context, or NULL (then the tests
 * create it as usual).
 */
static void *
hold_primary_context(int *dev)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return NULL;
    cu_init_fn init = NULL;
    cu_device_get_fn get = NULL;
    cu_retain_fn retain = NULL;
    TJT_SYM(lib, "cuInit", init);
    TJT_SYM(lib, "cuDeviceGet", get);
    TJT_SYM(lib, "cuDevicePrimaryCtxRetain", retain);
    void *ctx = NULL;
    if (!init || !get || !retain || init(0) != 0 || get(dev, 0) != 0 || retain(&ctx, *dev) != 0) {
        dlclose(lib);
        return NULL;
    }
    return lib;
}

static void
release_primary_context(void *lib, int dev)
{
    if (!lib)
        return;
    cu_release_fn release = NULL;
    TJT_SYM(lib, "cuDevicePrimaryCtxRelease_v2", release);
    if (release)
        release(dev);
    dlclose(lib);
}

int
tj_test_main(int argc, char **argv, Suite *s)
{
    bool cuda = argc > 1 && strcmp(argv[1], "--cuda") == 0;
    /* Suites compile from scratch unless they ask for the on-disk cache themselves. */
    setenv("TILEJIT_CACHE", "0", 0);
    if (cuda && tj_test_gpu_count() == 0) {
        if (require_gpu()) {
            fprintf(stderr, "FAIL: TILEJIT_REQUIRE_GPU=1 but no CUDA device was found "
                            "(no libcuda.so.1, a stub driver, or no GPU)\n");
            srunner_free(srunner_create(s));
            return 1;
        }
        printf("SKIP: no CUDA device (no libcuda.so.1, a stub driver, or no GPU); "
               "set TILEJIT_REQUIRE_GPU=1 to make this a failure\n");
        srunner_free(srunner_create(s));
        return 77;
    }
    SRunner *sr = srunner_create(s);
    if (cuda) {
        /* Unforked (CK_FORK=no, as CTest runs the _cuda suites), one process makes every
         * test's device: hold the context between them. Forked, the parent must not touch
         * CUDA (a child cannot use a context inherited through fork). */
        int dev = 0;
        void *held = srunner_fork_status(sr) == CK_NOFORK ? hold_primary_context(&dev) : NULL;
        srunner_run_tagged(sr, NULL, NULL, "cuda", NULL, CK_ENV);
        release_primary_context(held, dev);
    } else {
        srunner_run_tagged(sr, NULL, NULL, NULL, "cuda", CK_ENV);
    }
    int failed = srunner_ntests_failed(sr);
    int run = srunner_ntests_run(sr);
    srunner_free(sr);
    if (run == 0 && !cuda)
        return 77;
    return failed == 0 ? 0 : 1;
}

const char *
tj_test_fake_libdevice(const char *test)
{
#ifdef TJ_FAKE_LIBDEVICE
    if (access(TJ_FAKE_LIBDEVICE, R_OK) == 0)
        return TJ_FAKE_LIBDEVICE;
    /* The device kit (tools/device_pack.sh) puts it beside the suites. */
    static char beside[4096];
    ssize_t len = readlink("/proc/self/exe", beside, sizeof beside - 32);
    char *slash = len > 0 ? memrchr(beside, '/', (size_t)len) : NULL;
    if (slash) {
        strcpy(slash + 1, "fake_libdevice.bc");
        if (access(beside, R_OK) == 0)
            return beside;
    }
#endif
    fprintf(stderr, "%s: no fake libdevice (tests/fake_libdevice.ll, assembled by llvm-as "
                    "when the build found it): the test checks nothing\n", test);
    return NULL;
}

const char *
tj_test_ptxas_path(void)
{
    static char path[4096];
    const char *env = getenv("TILEJIT_PTXAS");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(path, sizeof path, "%s/bin/ptxas", home);
        if (access(path, X_OK) == 0)
            return path;
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
        return "/usr/local/cuda/bin/ptxas";
    const char *p = getenv("PATH");
    while (p && *p) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        snprintf(path, sizeof path, "%.*s/ptxas", (int)n, p);
        if (n > 0 && access(path, X_OK) == 0)
            return path;
        p = e ? e + 1 : NULL;
    }
    return NULL;
}

bool
tj_test_ptxas(const char *ptx, const char *arch, bool *ran, char *log, size_t nlog)
{
    if (ran)
        *ran = false;
    if (log && nlog)
        log[0] = 0;
    const char *ptxas = tj_test_ptxas_path();
    if (!ptxas)
        return true;
    char dir[] = "/tmp/tj_ptxas_XXXXXX";
    if (!mkdtemp(dir))
        return false;
    char in[64], out[64], cmd[8192];
    snprintf(in, sizeof in, "%s/k.ptx", dir);
    snprintf(out, sizeof out, "%s/k.cubin", dir);
    FILE *f = fopen(in, "w");
    if (!f)
        return false;
    fputs(ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -arch=%s -o %s %s 2>&1", ptxas, arch ? arch : "sm_90",
             out, in);
    FILE *p = popen(cmd, "r");
    size_t used = 0;
    if (p) {
        char buf[512];
        while (fgets(buf, sizeof buf, p)) {
            size_t n = strlen(buf);
            if (log && used + n + 1 < nlog) {
                memcpy(log + used, buf, n + 1);
                used += n;
            }
        }
    }
    int st = p ? pclose(p) : -1;
    unlink(in);
    unlink(out);
    rmdir(dir);
    if (ran)
        *ran = true;
    return st == 0;
}

bool
tj_test_close(double a, double b, double tol)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    double m = fmax(1.0, fmax(fabs(a), fabs(b)));
    return fabs(a - b) <= tol * m;
}
