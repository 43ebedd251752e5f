/*
 * bench/nvrtc.c: NVRTC, the reference of the compile group, loaded with dlopen at run time
 * so that the bench needs no CUDA toolkit to build. Declares the few entry points it
 * calls with NVRTC's C ABI (nvrtc.h); no other CUDA here.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef int nvrtc_result;       /* nvrtcResult: 0 is NVRTC_SUCCESS */
typedef struct nvrtc_prog *nvrtc_program;

struct bench_nvrtc {
    void *lib;
    char desc[600];
    const char *(*error_string)(nvrtc_result r);
    nvrtc_result (*version)(int *major, int *minor);
    nvrtc_result (*create)(nvrtc_program *prog, const char *src, const char *name,
                           int nheaders, const char *const *headers,
                           const char *const *include_names);
    nvrtc_result (*destroy)(nvrtc_program *prog);
    nvrtc_result (*compile)(nvrtc_program prog, int nopts, const char *const *opts);
    nvrtc_result (*ptx_size)(nvrtc_program prog, size_t *size);
    nvrtc_result (*ptx)(nvrtc_program prog, char *ptx);
    nvrtc_result (*log_size)(nvrtc_program prog, size_t *size);
    nvrtc_result (*log)(nvrtc_program prog, char *log);
};

static void *
open_lib(char *path, size_t n)
{
    static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
                                        "libnvrtc.so.11.2"};
    const char *home = getenv("CUDA_HOME");
    const char *dirs[] = {home && *home ? home : NULL, "/usr/local/cuda", NULL};
    for (int d = 0; d < 3; d++) {
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            if (d < 2 && !dirs[d])
                continue;
            if (d < 2)
                snprintf(path, n, "%s/lib64/%s", dirs[d], names[i]);
            else
                snprintf(path, n, "%s", names[i]);
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (h)
                return h;
        }
    }
    return NULL;
}

bench_nvrtc *
bench_nvrtc_open(char *why, size_t n)
{
    char path[512];
    void *lib = open_lib(path, sizeof path);
    if (!lib) {
        snprintf(why, n, "no libnvrtc.so in $CUDA_HOME/lib64, /usr/local/cuda/lib64 or the "
                 "loader's path");
        return NULL;
    }
    bench_nvrtc *nv = calloc(1, sizeof *nv);
    if (!nv) {
        dlclose(lib);
        snprintf(why, n, "out of memory");
        return NULL;
    }
    nv->lib = lib;
    struct {
        void **slot;
        const char *name;
    } syms[] = {
        {(void **)&nv->error_string, "nvrtcGetErrorString"},
        {(void **)&nv->version, "nvrtcVersion"},
        {(void **)&nv->create, "nvrtcCreateProgram"},
        {(void **)&nv->destroy, "nvrtcDestroyProgram"},
        {(void **)&nv->compile, "nvrtcCompileProgram"},
        {(void **)&nv->ptx_size, "nvrtcGetPTXSize"},
        {(void **)&nv->ptx, "nvrtcGetPTX"},
        {(void **)&nv->log_size, "nvrtcGetProgramLogSize"},
        {(void **)&nv->log, "nvrtcGetProgramLog"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) {
            snprintf(why, n, "%s has no %s", path, syms[i].name);
            bench_nvrtc_close(nv);
            return NULL;
        }
    }
    int major = 0, minor = 0;
    nv->version(&major, &minor);
    Dl_info info;
    const char *where = dladdr((void *)(uintptr_t)nv->version, &info) && info.dli_fname
                            ? info.dli_fname
                            : path;
    snprintf(nv->desc, sizeof nv->desc, "NVRTC %d.%d (%s)", major, minor, where);
    return nv;
}

void
bench_nvrtc_close(bench_nvrtc *nv)
{
    if (!nv)
        return;
    /* Not dlclose'd: the libstdc++ linked into NVRTC allocates its exception pool (72704
     * bytes) when loaded and never frees it; unloaded, LeakSanitizer reports it as a leak. */
    free(nv);
}

const char *
bench_nvrtc_describe(const bench_nvrtc *nv)
{
    return nv ? nv->desc : "NVRTC (absent)";
}

char *
bench_nvrtc_compile(const bench_nvrtc *nv, const char *src, const char *arch, char *why,
                    size_t n)
{
    char archopt[64];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    const char *opts[] = {archopt};
    nvrtc_program prog = NULL;
    nvrtc_result r = nv->create(&prog, src, "bench.cu", 0, NULL, NULL);
    if (r != 0) {
        snprintf(why, n, "nvrtcCreateProgram: %s", nv->error_string(r));
        return NULL;
    }
    char *ptx = NULL;
    size_t size = 0;
    r = nv->compile(prog, 1, opts);
    if (r == 0)
        r = nv->ptx_size(prog, &size);
    if (r == 0 && (ptx = malloc(size + 1)) != NULL)
        r = nv->ptx(prog, ptx);
    if (r != 0 || !ptx) {
        size_t loglen = 0;
        char log[1024] = "";
        if (nv->log_size(prog, &loglen) == 0 && loglen > 0) {
            char *full = malloc(loglen + 1);
            if (full && nv->log(prog, full) == 0)
                snprintf(log, sizeof log, "%s", full);
            free(full);
        }
        snprintf(why, n, "nvrtcCompileProgram: %s: %s", r ? nv->error_string(r) : "out of memory",
                 log);
        free(ptx);
        ptx = NULL;
    } else {
        ptx[size] = 0;
    }
    nv->destroy(&prog);
    return ptx;
}
