/*
 * bench/reflib.c: loads libtjref.so with dlopen and checks its ABI version, so that the
 * bench builds and runs without the CUDA toolkit (the GPU figures then have no reference).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reflib.h"

static void *
find_lib(const char *self, char *path, size_t n, char *tried, size_t ntried)
{
    const char *env = getenv("TILEJIT_BENCH_REFLIB");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", self);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    char cands[3][4200];
    int nc = 0;
    if (env && *env)
        snprintf(cands[nc++], sizeof cands[0], "%.4000s", env);
    snprintf(cands[nc++], sizeof cands[0], "%.4000s/libtjref.so", dir);
    snprintf(cands[nc++], sizeof cands[0], "libtjref.so");
    tried[0] = 0;
    for (int i = 0; i < nc; i++) {
        void *h = dlopen(cands[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(path, n, "%.4000s", cands[i]);
            return h;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, ntried - used, "%s%s", used ? ", " : "", dlerror());
    }
    return NULL;
}

bench_reflib *
bench_reflib_open(const char *self, char *why, size_t n)
{
    bench_reflib *r = calloc(1, sizeof *r);
    char tried[2048];
    if (!r || !(r->lib = find_lib(self, r->path, sizeof r->path, tried, sizeof tried))) {
        snprintf(why, n, "no libtjref.so (built by nvcc; set TILEJIT_BENCH_REFLIB): %.1500s",
                 r ? tried : "out of memory");
        free(r);
        return NULL;
    }
    tjref_abi_version_fn *abi;
    *(void **)&abi = dlsym(r->lib, "tjref_abi_version");
    struct {
        void **slot;
        const char *name;
    } syms[] = {
        {(void **)&r->describe, "tjref_describe"},
        {(void **)&r->error, "tjref_error"},
        {(void **)&r->init, "tjref_init"},
        {(void **)&r->copy, "tjref_copy"},
        {(void **)&r->reduce_sum, "tjref_reduce_sum"},
        {(void **)&r->histogram_even, "tjref_histogram_even"},
        {(void **)&r->histogram_shared, "tjref_histogram_shared"},
        {(void **)&r->select_less, "tjref_select_less"},
        {(void **)&r->launch_empty, "tjref_launch_empty"},
        {(void **)&r->load_ptx, "tjref_load_ptx"},
        {(void **)&r->device_slots, "tjref_device_slots"},
    };
    bool ok = abi && abi() == TJREF_ABI_VERSION;
    for (size_t i = 0; ok && i < sizeof syms / sizeof syms[0]; i++)
        ok = (*syms[i].slot = dlsym(r->lib, syms[i].name)) != NULL;
    if (!ok) {
        snprintf(why, n, "%s is not libtjref ABI %d", r->path, TJREF_ABI_VERSION);
        bench_reflib_close(r);
        return NULL;
    }
    if (r->init(r->gpu, sizeof r->gpu) != 0) {
        snprintf(why, n, "%s: tjref_init: %s", r->path, r->error());
        bench_reflib_close(r);
        return NULL;
    }
    return r;
}

void
bench_reflib_close(bench_reflib *r)
{
    if (!r)
        return;
    /* Not dlclose'd: the CUDA runtime inside registers exit handlers. */
    free(r);
}
