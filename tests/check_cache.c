/* tj-test: */
/*
 * tests/check_cache.c: the compile caches (SPEC 6). The in-memory cache of a context, and
 * the on-disk cache: where it lives, what it refuses to load (corrupt, truncated,
 * foreign-owned files; directories others can write; a FIFO at an entry's name; a file
 * size limit), stale temporary files, the size limit of the directory, TILEJIT_CACHE=0; the
 * CPU's compress form, the library's build-id and the libdevice file in the key; processes
 * building the same module at once. Also the perf map of loaded CPU code (TILEJIT_PERF_MAP).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tj_api_test.h"

static char dir[256];

static int child_build(const char *cache_dir);

static void
setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/tj_cache_test_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    unsetenv("TILEJIT_CACHE");
    setenv("TILEJIT_CACHE_DIR", dir, 1);
    tjt_setup();
}

static void
teardown(void)
{
    tjt_teardown();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* y[i] = 3 * x[i] + i for the given target. */
static tj_kernel *
make_kernel(tj_context *ctx, tj_target target)
{
    tj_kernel_options o = {.target = target};
    tj_kernel *k = tj_kernel_create(ctx, "triple", &o);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_val *x = tj_param_array(k, "x", i32, 1), *y = tj_param_array(k, "y", i32, 1);
    tj_val *i;
    tj_tid(k, 1, &i);
    tj_val *v = tj_binary(k, TJ_BIN_MUL, tj_load(k, x, &i, 1), tj_const_int(k, TJ_DTYPE_I32, 3));
    tj_store(k, y, &i, 1, tj_binary(k, TJ_BIN_ADD, v, i));
    return k;
}

/* Builds the CPU kernel in a fresh context; runs it and checks the result. */
static bool
build_and_run_fresh(void)
{
    tj_context *ctx;
    tj_device *dev;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    ck_assert_int_eq(tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev), TJ_OK);
    tj_module *m = NULL;
    ck_assert_int_eq(tj_kernel_build(make_kernel(ctx, TJ_TARGET_CPU), NULL, &m), TJ_OK);
    bool cached = tj_module_is_cached(m);
    int32_t in[100], out[100];
    for (int j = 0; j < 100; j++)
        in[j] = j - 50;
    int64_t n = 100;
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_array *x, *y;
    ck_assert_int_eq(tj_array_create(dev, i32, 1, &n, &x), TJ_OK);
    ck_assert_int_eq(tj_array_create(dev, i32, 1, &n, &y), TJ_OK);
    ck_assert_int_eq(tj_array_copy_from_host(x, in, sizeof in), TJ_OK);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(y)};
    ck_assert_int_eq(tj_launch(dev, m, "triple", 1, &n, 1, args, 2), TJ_OK);
    ck_assert_int_eq(tj_array_copy_to_host(y, out, sizeof out), TJ_OK);
    for (int j = 0; j < 100; j++)
        ck_assert_int_eq(out[j], 3 * in[j] + j);
    tj_context_destroy(ctx);
    return cached;
}

/* The files in 'dir' whose name ends with 'part' ('suffix') or contains it; the path of the
 * first in 'name' (unless NULL). */
static int
count_matching(const char *part, bool suffix, char *name, size_t n)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), pl = strlen(part);
        bool match = suffix ? len > pl && strcmp(e->d_name + len - pl, part) == 0
                            : strstr(e->d_name, part) != NULL;
        if (match && count++ == 0 && name)
            snprintf(name, n, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return count;
}

/* The cache files with suffix 'sfx' (".o" or ".ptx"); the first path in 'name'. */
static int
count_files(const char *sfx, char *name, size_t n)
{
    return count_matching(sfx, true, name, n);
}

/* The files whose name contains 'part'. */
static int
count_containing(const char *part)
{
    return count_matching(part, false, NULL, 0);
}

START_TEST(test_memory_cache_reuses_code_for_equal_kernels)
{
    setenv("TILEJIT_CACHE", "0", 1);
    tj_module *a, *b, *c;
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CPU), NULL, &a), TJ_OK);
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CPU), NULL, &b), TJ_OK);
    tj_build_options o0 = {.opt_level = TJ_OPT_O1};
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CPU), &o0, &c), TJ_OK);
    ck_assert(!tj_module_is_cached(a));
    ck_assert(tj_module_is_cached(b)); /* another kernel object, the same code */
    ck_assert(!tj_module_is_cached(c)); /* other options */
    ck_assert_int_eq(count_files(".o", NULL, 0), 0);
}
END_TEST

/* y[i] = f(x[i]) + i, with f(v) = 3 * v a function: the module holds globals named after
 * the kernel's and the function's symbols, which carry the context's running object
 * number. */
static tj_kernel *
make_calling_kernel(tj_context *ctx)
{
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_func *f = tj_func_create(ctx, "f", i32, NULL);
    tj_val *v = tj_param(f, "v", i32);
    tj_return(f, tj_binary(f, TJ_BIN_MUL, v, tj_const_int(f, TJ_DTYPE_I32, 3)));
    tj_kernel *k = tj_kernel_create(ctx, "calls", NULL);
    tj_val *x = tj_param_array(k, "x", i32, 1), *y = tj_param_array(k, "y", i32, 1);
    tj_val *i;
    tj_tid(k, 1, &i);
    tj_val *fx = tj_load(k, x, &i, 1);
    tj_store(k, y, &i, 1, tj_binary(k, TJ_BIN_ADD, tj_call(k, f, &fx, 1), i));
    tj_func_destroy(f);
    return k;
}

/* Equal kernels with calls get equal keys, whatever was made in the context before them. */
START_TEST(test_memory_cache_key_ignores_what_was_made_before)
{
    setenv("TILEJIT_CACHE", "0", 1);
    tj_module *a, *b;
    ck_assert_int_eq(tj_kernel_build(make_calling_kernel(tjt.ctx), NULL, &a), TJ_OK);
    for (int i = 0; i < 3; i++)
        make_kernel(tjt.ctx, TJ_TARGET_CPU);
    ck_assert_int_eq(tj_kernel_build(make_calling_kernel(tjt.ctx), NULL, &b), TJ_OK);
    ck_assert(!tj_module_is_cached(a));
    ck_assert_msg(tj_module_is_cached(b), "an equal kernel made later got another key");
}
END_TEST

START_TEST(test_disk_cache_serves_a_new_context)
{
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 1);
    ck_assert(build_and_run_fresh());
    tj_module *m;
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CUDA), NULL, &m), TJ_OK);
    ck_assert_int_eq(count_files(".ptx", NULL, 0), 1);
    tj_context *ctx2;
    ck_assert_int_eq(tj_context_create(&ctx2), TJ_OK);
    tj_module *m2;
    ck_assert_int_eq(tj_kernel_build(make_kernel(ctx2, TJ_TARGET_CUDA), NULL, &m2), TJ_OK);
    ck_assert(tj_module_is_cached(m2));
    ck_assert_str_eq(tj_module_get_ptx(m2), tj_module_get_ptx(m));
    tj_context_destroy(ctx2);
}
END_TEST

/* Whether [start, start + size) lies in an executable mapping of this process. */
static bool
executable(unsigned long long start, unsigned long long size)
{
    FILE *f = fopen("/proc/self/maps", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long long lo, hi;
        char perms[8];
        if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) == 3)
            found = perms[2] == 'x' && lo <= start && start + size <= hi;
    }
    fclose(f);
    return found;
}

/* With TILEJIT_PERF_MAP=1 (read by tj_context_create), each CPU module's entries are
 * appended to /tmp/perf-<pid>.map as "START SIZE NAME", where perf finds the names of JIT
 * code: built, and served by the disk cache to a second context; the ranges are the
 * loaded code. Without it no map is written. */
START_TEST(test_perf_map_lists_cpu_entries)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%ld.map", (long)getpid());
    unlink(path);
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(access(path, F_OK), -1); /* not asked for */
    ck_assert_int_eq(setenv("TILEJIT_PERF_MAP", "1", 1), 0);
    tj_context *ctx[2];
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(tj_context_create(&ctx[i]), TJ_OK);
        tj_module *m = NULL;
        ck_assert_int_eq(tj_kernel_build(make_kernel(ctx[i], TJ_TARGET_CPU), NULL, &m), TJ_OK);
        ck_assert(tj_module_is_cached(m)); /* from the disk: the first build above */
    }
    unsetenv("TILEJIT_PERF_MAP");
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long start, size;
        char name[256];
        ck_assert_msg(sscanf(line, "%llx %llx %255s", &start, &size, name) == 3, "%s", line);
        ck_assert_msg(strstr(name, "triple") != NULL, "%s", line);
        ck_assert_msg(size > 0 && executable(start, size), "%s: not loaded code", line);
        n++;
    }
    fclose(f);
    ck_assert_int_eq(n, 2);
    tj_context_destroy(ctx[0]);
    tj_context_destroy(ctx[1]);
    unlink(path);
}
END_TEST

/* The CPU's compress form (TILEJIT_CPU_COMPRESS, read by tj_context_create) is part of the
 * key: code built for one form is not served to a context of another. */
START_TEST(test_disk_cache_keeps_cpu_compress_forms_apart)
{
    bool avx2 = __builtin_cpu_supports("avx2"), avx512 = __builtin_cpu_supports("avx512f");
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(setenv("TILEJIT_CPU_COMPRESS", "off", 1), 0);
    ck_assert(build_and_run_fresh() == !avx2); /* without AVX2 the host's form is "off" */
    ck_assert(build_and_run_fresh());
    ck_assert_int_eq(setenv("TILEJIT_CPU_COMPRESS", "avx2", 1), 0);
    ck_assert(build_and_run_fresh() == !avx512); /* without AVX-512 it is the host's form */
    ck_assert(build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 1 + avx2 + avx512);
    unsetenv("TILEJIT_CPU_COMPRESS");
    ck_assert(build_and_run_fresh());
}
END_TEST

/* So is whether the lanes' loops prefetch (TILEJIT_CPU_PREFETCH=off leaves them out). */
START_TEST(test_disk_cache_keeps_cpu_prefetch_forms_apart)
{
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(setenv("TILEJIT_CPU_PREFETCH", "off", 1), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert(build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 2);
    unsetenv("TILEJIT_CPU_PREFETCH");
    ck_assert(build_and_run_fresh());
}
END_TEST

/* y[0] = exp(x[0]) for the GPU, built in a fresh context: the status; whether the disk cache
 * answered it ('cached'); its PTX and, with 'ir', its optimised IR, in 'text'. */
static tj_status
build_math_fresh(bool ir, bool *cached, char *text, size_t n)
{
    tj_context *ctx;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    tj_kernel_options o = {.target = TJ_TARGET_CUDA};
    tj_kernel *k = tj_kernel_create(ctx, "expo", &o);
    tj_val *x = tj_param_array(k, "x", tj_context_get_type(ctx, TJ_DTYPE_F32), 1);
    tj_val *y = tj_param_array(k, "y", tj_context_get_type(ctx, TJ_DTYPE_F32), 1);
    tj_val *i = tj_const_int(k, TJ_DTYPE_I32, 0);
    ck_assert(tj_store(k, y, &i, 1, tj_unary(k, TJ_UN_EXP, tj_load(k, x, &i, 1))));
    tj_build_options bo = {.keep_ir = ir};
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, &bo, &m);
    *cached = st == TJ_OK && tj_module_is_cached(m);
    snprintf(text, n, "%s", st != TJ_OK ? tj_context_error(ctx)
                            : ir         ? tj_module_get_ir(m)
                                         : tj_module_get_ptx(m));
    tj_context_destroy(ctx);
    return st;
}

/* Copies file 'from' to 'to'. */
static void
copy_file(const char *from, const char *to)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", from, to);
    ck_assert_int_eq(system(cmd), 0);
}

/* A GPU kernel's math functions come from libdevice, which a build links after the key: the
 * key names the file (path, size, modification time) instead of holding its functions, so a
 * build the cache answers never reads it, and a file with another time builds again. With
 * tests/fake_libdevice.ll, whose expf is x * 3 (0f40400000 in PTX). */
START_TEST(test_disk_cache_names_the_libdevice_file)
{
    const char *fake = tj_test_fake_libdevice("test_disk_cache_names_the_libdevice_file");
    if (!fake)
        return;
    char lib[400], text[65536];
    snprintf(lib, sizeof lib, "%s/libdevice.10.bc", dir);
    copy_file(fake, lib);
    ck_assert_int_eq(setenv("TILEJIT_LIBDEVICE", lib, 1), 0);
    bool cached;
    ck_assert_int_eq(build_math_fresh(false, &cached, text, sizeof text), TJ_OK);
    ck_assert(!cached);
    ck_assert_msg(strstr(text, "0f40400000"), "no linked expf in:\n%s", text);
    ck_assert_int_eq(build_math_fresh(false, &cached, text, sizeof text), TJ_OK);
    ck_assert(cached);
    ck_assert_int_eq(build_math_fresh(true, &cached, text, sizeof text), TJ_OK);
    ck_assert(cached); /* the IR of a cached build links libdevice too */
    ck_assert_msg(strstr(text, "fmul float") && strstr(text, "3.000000e+00"), "%s", text);

    /* The same size and time, other bytes: the key is the same, and the file is not read. */
    struct stat st;
    ck_assert_int_eq(stat(lib, &st), 0);
    FILE *f = fopen(lib, "r+");
    ck_assert_ptr_nonnull(f);
    for (off_t j = 0; j < st.st_size; j++)
        fputc('x', f);
    ck_assert_int_eq(fclose(f), 0);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    ck_assert_int_eq(utimensat(AT_FDCWD, lib, times, 0), 0);
    ck_assert_int_eq(build_math_fresh(false, &cached, text, sizeof text), TJ_OK);
    ck_assert(cached);

    /* Another time: another key, so the build reads the file. */
    times[1].tv_sec += 10;
    ck_assert_int_eq(utimensat(AT_FDCWD, lib, times, 0), 0);
    ck_assert_int_eq(build_math_fresh(false, &cached, text, sizeof text), TJ_ERR_IO);
    ck_assert_str_eq(text, "libdevice.10.bc is not valid bitcode: file doesn't start with "
                           "bitcode header");
    copy_file(fake, lib); /* a third time (set: the copy's own may equal the first's) */
    times[1].tv_sec += 10;
    ck_assert_int_eq(utimensat(AT_FDCWD, lib, times, 0), 0);
    ck_assert_int_eq(build_math_fresh(false, &cached, text, sizeof text), TJ_OK);
    ck_assert(!cached);
    ck_assert_int_eq(count_files(".ptx", NULL, 0), 2);
    unsetenv("TILEJIT_LIBDEVICE");
}
END_TEST

START_TEST(test_disk_cache_directory_is_made_private)
{
    char nested[400];
    snprintf(nested, sizeof nested, "%s/a/b/tilejit", dir);
    setenv("TILEJIT_CACHE_DIR", nested, 1);
    build_and_run_fresh();
    struct stat st;
    ck_assert_int_eq(stat(nested, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
}
END_TEST

START_TEST(test_disk_cache_uses_xdg_cache_home)
{
    unsetenv("TILEJIT_CACHE_DIR");
    setenv("XDG_CACHE_HOME", dir, 1);
    build_and_run_fresh();
    char sub[400];
    snprintf(sub, sizeof sub, "%s/tilejit", dir);
    struct stat st;
    ck_assert_int_eq(stat(sub, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
}
END_TEST

/* Damages the cache file in one of three ways; the next build must ignore and rewrite it. */
static const char *const damages[] = {"flip a payload byte", "truncate", "foreign owner"};

/* Builds the kernel once into the empty cache: its one entry's path and status. */
static void
only_entry(char *path, size_t n, struct stat *st)
{
    build_and_run_fresh();
    ck_assert_int_eq(count_files(".o", path, n), 1);
    ck_assert_int_eq(stat(path, st), 0);
}

/* A FIFO at an entry's name: the build neither waits on it (the alarm would end the test)
 * nor loads it, compiles, and puts a real entry in its place. */
START_TEST(test_fifo_at_an_entry_name_is_not_waited_on)
{
    char path[600];
    struct stat st;
    only_entry(path, sizeof path, &st);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    alarm(60);
    ck_assert(!build_and_run_fresh());
    alarm(0);
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert(build_and_run_fresh());
}
END_TEST

/* An entry that would pass RLIMIT_FSIZE is not written (the write would raise SIGXFSZ and
 * end the process): the build succeeds and leaves nothing behind. The limit is set in a
 * child without Check, whose own message file the limit would stop too. */
START_TEST(test_file_size_limit_skips_the_write)
{
    char path[600];
    struct stat st;
    only_entry(path, sizeof path, &st);
    ck_assert_int_eq(unlink(path), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit rl;
        getrlimit(RLIMIT_FSIZE, &rl);
        rl.rlim_cur = (rlim_t)st.st_size - 1; /* the entry does not fit */
        _exit(setrlimit(RLIMIT_FSIZE, &rl) == 0 ? child_build(dir) : 13);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 11,
                  "the build under a file size limit ended with status %#x", status);
    ck_assert_int_eq(count_containing(".o"), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert(build_and_run_fresh());
}
END_TEST

START_TEST(test_damaged_entry_is_ignored_and_rebuilt)
{
    char path[600];
    struct stat st;
    only_entry(path, sizeof path, &st);
    if (_i == 0) {
        FILE *f = fopen(path, "r+b");
        ck_assert_ptr_nonnull(f);
        fseek(f, st.st_size - 10, SEEK_SET);
        int c = fgetc(f);
        fseek(f, st.st_size - 10, SEEK_SET);
        fputc(c ^ 0x5a, f);
        fclose(f);
    } else if (_i == 1) {
        ck_assert_int_eq(truncate(path, st.st_size / 2), 0);
    } else {
        if (geteuid() != 0)
            return; /* only root can give a file away */
        ck_assert_int_eq(chown(path, 65534, 65534), 0);
    }
    ck_assert_msg(!build_and_run_fresh(), "a damaged entry (%s) was loaded", damages[_i]);
    if (_i < 2)
        ck_assert_msg(build_and_run_fresh(), "the entry was not rewritten after: %s", damages[_i]);
}
END_TEST

START_TEST(test_directory_writable_by_others_is_not_used)
{
    ck_assert_int_eq(chmod(dir, 0777), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 0);
}
END_TEST

START_TEST(test_cache_off_writes_nothing)
{
    setenv("TILEJIT_CACHE", "0", 1);
    ck_assert(!build_and_run_fresh());
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 0);
}
END_TEST

START_TEST(test_processes_building_at_once_share_the_cache)
{
    enum { N = 4 };
    if (TJ_TEST_TSAN) /* the children of a process with threads (tj_test.h) */
        return;
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        ck_assert_int_ge(pids[i], 0);
        if (pids[i] == 0) {
            build_and_run_fresh();
            _exit(0);
        }
    }
    for (int i = 0; i < N; i++) {
        int st;
        ck_assert_int_eq(waitpid(pids[i], &st, 0), pids[i]);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    ck_assert_int_eq(count_files(".o", NULL, 0), 1);
    ck_assert_int_eq(count_containing(".tmp."), 0); /* "<name>.tmp.<pid>.<ns>" */
    ck_assert(build_and_run_fresh());
}
END_TEST

/* ---- the library's build in the key ------------------------------------------------------ */

/* This test program run again: "--child-build DIR" builds the kernel in a fresh context with
 * the disk cache in DIR and exits 10 when the cache served it, 11 when it was compiled. */
static const char *self_exe;

static int
child_build(const char *cache_dir)
{
    /* no ck_assert here: outside a running test Check would exit */
    setenv("TILEJIT_CACHE_DIR", cache_dir, 1);
    unsetenv("TILEJIT_CACHE");
    tj_context *ctx = NULL;
    tj_module *m = NULL;
    if (tj_context_create(&ctx) != TJ_OK ||
        tj_kernel_build(make_kernel(ctx, TJ_TARGET_CPU), NULL, &m) != TJ_OK) {
        fprintf(stderr, "child build failed: %s\n", ctx ? tj_context_error(ctx) : "no context");
        return 12;
    }
    int rc = tj_module_is_cached(m) ? 10 : 11;
    tj_context_destroy(ctx);
    return rc;
}

/* Runs the child with 'lib' preloaded, where it stands in for libtilejit.so (same soname),
 * or with the library it was linked with when 'lib' is NULL. The child runs natively even
 * when this process runs under valgrind, whose CPU (other features) gets other keys. */
static int
run_child_with(const char *lib)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (lib)
            setenv("LD_PRELOAD", lib, 1);
        execl(self_exe, self_exe, "--child-build", dir, (char *)NULL);
        _exit(127);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && (WEXITSTATUS(st) == 10 || WEXITSTATUS(st) == 11),
                  "the child with %s preloaded ended with status %#x", lib ? lib : "nothing", st);
    return WEXITSTATUS(st);
}

/* The descriptor of the GNU build-id note in the ELF image 'b' (an x86-64 or other 64-bit
 * little-endian shared object), or NULL. */
static uint8_t *
build_id_note(uint8_t *b, size_t n, Elf64_Nhdr **hdr)
{
    Elf64_Ehdr eh;
    ck_assert_uint_ge(n, sizeof eh);
    memcpy(&eh, b, sizeof eh);
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, b + eh.e_phoff + (size_t)i * eh.e_phentsize, sizeof ph);
        if (ph.p_type != PT_NOTE)
            continue;
        for (size_t off = ph.p_offset; off + sizeof(Elf64_Nhdr) <= ph.p_offset + ph.p_filesz;) {
            Elf64_Nhdr *nh = (Elf64_Nhdr *)(b + off);
            size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;
            if (nh->n_type == NT_GNU_BUILD_ID && memcmp(b + off + sizeof *nh, "GNU", 4) == 0) {
                *hdr = nh;
                return b + off + sizeof *nh + name;
            }
            off += sizeof *nh + name + desc;
        }
    }
    return NULL;
}

/* Copies libtilejit.so (the object that holds tj_version) to 'out', changed by 'how':
 * 0 unchanged, 1 one byte of its build-id flipped, 2 the build-id note turned into another
 * note type (no build-id: the library is known by a hash of its read-only segments), 3 as 2
 * with one byte of the former build-id flipped too. */
static void
copy_library(const char *out, int how)
{
    Dl_info info;
    ck_assert(dladdr((void *)(uintptr_t)&tj_version, &info) && info.dli_fname);
    FILE *f = fopen(info.dli_fname, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", info.dli_fname);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    ck_assert_int_gt(n, 0);
    rewind(f);
    uint8_t *b = malloc((size_t)n);
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    Elf64_Nhdr *nh = NULL;
    uint8_t *id = build_id_note(b, (size_t)n, &nh);
    ck_assert_msg(id != NULL, "%s has no GNU build-id note (CMakeLists.txt links it with "
                  "--build-id)", info.dli_fname);
    if (how == 1 || how == 3)
        id[0] ^= 0x5a;
    if (how >= 2)
        nh->n_type = 0x7a6a; /* not NT_GNU_BUILD_ID */
    f = fopen(out, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(b, 1, (size_t)n, f), (size_t)n);
    ck_assert_int_eq(fclose(f), 0);
    free(b);
}

/* A library binary that differs from the one that filled the cache (a rebuild, an upgrade)
 * compiles again instead of loading the other build's code; the same binary, wherever it
 * lies, is served. */
START_TEST(test_disk_cache_keeps_library_builds_apart)
{
    char libs[4][320];
    for (int how = 0; how < 4; how++) {
        snprintf(libs[how], sizeof libs[how], "%s.lib%d.so", dir, how);
        copy_library(libs[how], how);
    }
    ck_assert_int_eq(run_child_with(libs[0]), 11);
    ck_assert_int_eq(run_child_with(libs[0]), 10);
    ck_assert_msg(run_child_with(NULL) == 10, "an exact copy of the library is another build");
    ck_assert_msg(run_child_with(libs[1]) == 11, "a library with another build-id was served "
                  "the code of this one");
    ck_assert_int_eq(run_child_with(libs[1]), 10);
    ck_assert_msg(run_child_with(libs[2]) == 11, "a library without a build-id was served the "
                  "code of one with it");
    ck_assert_int_eq(run_child_with(libs[2]), 10);
    ck_assert_msg(run_child_with(libs[3]) == 11, "two libraries without build-ids whose bytes "
                  "differ share their code");
    ck_assert_int_eq(count_files(".o", NULL, 0), 4);
    for (int how = 0; how < 4; how++)
        unlink(libs[how]);
}
END_TEST

/* Writes 'name' in the cache directory and dates its last change 'age' seconds back. */
static void
put_file(const char *name, time_t age)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("half a cache entry", f);
    fclose(f);
    struct timeval tv[2] = {{.tv_sec = time(NULL) - age}, {.tv_sec = time(NULL) - age}};
    ck_assert_int_eq(utimes(path, tv), 0);
}

/* Temporary files that killed writers left behind go at the next process's first write,
 * once over an hour old; younger ones may belong to a writer at work and stay, and so do
 * files of other names (the directory may be the user's own). */
START_TEST(test_stale_temporary_files_are_removed)
{
    put_file("0123456789abcdef0123456789abcdef.o.tmp.99999.12345", 2 * 3600);
    put_file("456789abcdef0123456789abcdef0123.ptx.tmp.99998.12345", 2 * 3600);
    put_file("89abcdef0123456789abcdef01234567.o.tmp.99997.12345", 60);
    put_file("notes.txt", 2 * 3600);
    put_file("notes.tmp.txt", 2 * 3600);
    put_file("0123.o.tmp.99999.12345", 2 * 3600);
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_containing(".tmp."), 3);
    ck_assert_int_eq(count_containing("89abcdef0123456789abcdef01234567.o.tmp."), 1);
    ck_assert_int_eq(count_containing("notes.tmp.txt"), 1);
    ck_assert_int_eq(count_containing("0123.o.tmp."), 1);
    ck_assert_int_eq(count_containing("notes.txt"), 1);
}
END_TEST

/* ---- the size limit (TILEJIT_CACHE_MAXSIZE) ---------------------------------------------- */

/* The path of the entry named after 'digit' (32 of it) with 'sfx'. */
static void
entry_path(char *path, size_t n, char digit, const char *sfx)
{
    char name[40];
    memset(name, digit, 32);
    snprintf(name + 32, sizeof name - 32, "%s", sfx);
    snprintf(path, n, "%s/%s", dir, name);
}

/* Sets the access and change times of 'path' to 'age' seconds back. Both: under relatime
 * a read marks a file accessed when its access time is before its change time. */
static void
date_file(const char *path, time_t age)
{
    struct timespec ts[2] = {{.tv_sec = time(NULL) - age}, {.tv_sec = time(NULL) - age}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* A file of 'bytes' (sparse: only its length counts) at 'path', dated 'age' seconds back. */
static void
put_sized(const char *path, off_t bytes, time_t age)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, bytes), 0);
    close(fd);
    date_file(path, age);
}

/* Marks 'path' accessed and changed now. */
static void
touch_now(const char *path)
{
    struct timespec ts[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_NOW}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* Sleeps past the granularity of file times (a clock tick). */
static void
nap(void)
{
    struct timespec ts = {.tv_nsec = 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* The bytes of the triple kernel's PTX, built with the cache off. */
static off_t
ptx_bytes(void)
{
    ck_assert_int_eq(setenv("TILEJIT_CACHE", "0", 1), 0);
    tj_context *ctx;
    ck_assert_int_eq(tj_context_create(&ctx), TJ_OK);
    tj_module *m;
    ck_assert_int_eq(tj_kernel_build(make_kernel(ctx, TJ_TARGET_CUDA), NULL, &m), TJ_OK);
    off_t n = (off_t)strlen(tj_module_get_ptx(m));
    tj_context_destroy(ctx);
    unsetenv("TILEJIT_CACHE");
    return n;
}

static bool
exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static off_t
file_bytes(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return st.st_size;
}

/* Over the limit, the least recently used entries go until the rest is within nine tenths
 * of it; the entry just written, younger ones and files that are not entries stay. A disk
 * hit counts as a use. (With G = S bytes for the touched entry and a limit of 2 S + P,
 * removing either of the two older entries brings the rest within 0.9 of the limit while
 * S > 70 + P / 8.) */
START_TEST(test_size_limit_removes_least_recently_used_entries)
{
    const off_t F = 64 << 10;
    char e[4][600], notes[600], x[600];
    for (int i = 0; i < 4; i++) {
        entry_path(e[i], sizeof e[i], (char)('1' + i), ".ptx");
        put_sized(e[i], F, 4000 - 1000 * i);
    }
    snprintf(notes, sizeof notes, "%s/notes.txt", dir);
    put_sized(notes, F, 9000);
    /* 3.5 F: four fakes and the new entry pass it; without the oldest they are within
     * 0.9 x 3.5 F while the new entry has under 0.15 F */
    ck_assert_int_eq(setenv("TILEJIT_CACHE_MAXSIZE", "224K", 1), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", x, sizeof x), 1);
    off_t S = file_bytes(x);
    ck_assert_msg(S < 9 << 10, "the CPU entry has %lld bytes; the test needs under 9 KiB",
                  (long long)S);
    ck_assert_msg(!exists(e[0]), "the least recently used entry was kept");
    for (int i = 1; i < 4; i++)
        ck_assert_msg(exists(e[i]), "entry %d of 4 went, though the rest was within the limit",
                      i + 1);
    ck_assert(exists(notes));

    /* A disk hit marks its entry used, also where relatime would not (a read within a day
     * of the last one, with no change since): an entry of S bytes touched between two hits
     * on x goes when y's write passes the limit, and x stays. */
    unlink(e[2]);
    unlink(e[3]);
    off_t P = ptx_bytes();
    ck_assert_msg(S > 70 + P / 8, "entries of %lld and %lld bytes: the sizes below do not work",
                  (long long)S, (long long)P);
    put_sized(e[1], S, 0);
    nap();
    ck_assert(build_and_run_fresh());
    nap();
    touch_now(e[1]);
    nap();
    ck_assert(build_and_run_fresh());
    char limit[32];
    snprintf(limit, sizeof limit, "%lld", (long long)(2 * S + P));
    ck_assert_int_eq(setenv("TILEJIT_CACHE_MAXSIZE", limit, 1), 0);
    tj_module *m;
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CUDA), NULL, &m), TJ_OK);
    ck_assert_msg(exists(x), "the entry of the last disk hit went before an older one");
    ck_assert(!exists(e[1]));
    ck_assert_int_eq(count_files(".ptx", NULL, 0), 1);
    unsetenv("TILEJIT_CACHE_MAXSIZE");
}
END_TEST

/* The default limit is 256 MiB; 0 means none; a value that is not a size gives the
 * default. The entries here are sparse files of 200 MiB. */
START_TEST(test_size_limit_default_and_none)
{
    char e1[600], e2[600];
    entry_path(e1, sizeof e1, 'a', ".ptx");
    entry_path(e2, sizeof e2, 'b', ".o");
    put_sized(e1, (off_t)200 << 20, 2000);
    put_sized(e2, (off_t)200 << 20, 1000);
    ck_assert_int_eq(setenv("TILEJIT_CACHE_MAXSIZE", "0", 1), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert_msg(exists(e1) && exists(e2), "TILEJIT_CACHE_MAXSIZE=0 removed an entry");
    ck_assert_int_eq(setenv("TILEJIT_CACHE_MAXSIZE", "12Q", 1), 0);
    tj_module *m;
    ck_assert_int_eq(tj_kernel_build(make_kernel(tjt.ctx, TJ_TARGET_CUDA), NULL, &m), TJ_OK);
    ck_assert_msg(!exists(e1), "400 MiB of entries passed the default limit and stayed");
    ck_assert(exists(e2));
    unsetenv("TILEJIT_CACHE_MAXSIZE");
}
END_TEST

/* An entry larger than the whole limit is not written. */
START_TEST(test_entry_larger_than_the_limit_is_not_written)
{
    ck_assert_int_eq(setenv("TILEJIT_CACHE_MAXSIZE", "100", 1), 0);
    ck_assert(!build_and_run_fresh());
    ck_assert_int_eq(count_files(".o", NULL, 0), 0);
    ck_assert(!build_and_run_fresh());
    unsetenv("TILEJIT_CACHE_MAXSIZE");
}
END_TEST

static Suite *
cache_suite(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("api");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_memory_cache_reuses_code_for_equal_kernels);
    tcase_add_test(tc, test_memory_cache_key_ignores_what_was_made_before);
    tcase_add_test(tc, test_disk_cache_serves_a_new_context);
    tcase_add_test(tc, test_perf_map_lists_cpu_entries);
    tcase_add_test(tc, test_disk_cache_keeps_cpu_compress_forms_apart);
    tcase_add_test(tc, test_disk_cache_keeps_cpu_prefetch_forms_apart);
    tcase_add_test(tc, test_disk_cache_names_the_libdevice_file);
    tcase_add_test(tc, test_disk_cache_directory_is_made_private);
    tcase_add_test(tc, test_disk_cache_uses_xdg_cache_home);
    tcase_add_loop_test(tc, test_damaged_entry_is_ignored_and_rebuilt, 0, 3);
    tcase_add_test(tc, test_directory_writable_by_others_is_not_used);
    tcase_add_test(tc, test_cache_off_writes_nothing);
    tcase_add_test(tc, test_processes_building_at_once_share_the_cache);
    tcase_add_test(tc, test_disk_cache_keeps_library_builds_apart);
    tcase_add_test(tc, test_fifo_at_an_entry_name_is_not_waited_on);
    tcase_add_test(tc, test_file_size_limit_skips_the_write);
    tcase_add_test(tc, test_stale_temporary_files_are_removed);
    tcase_add_test(tc, test_size_limit_removes_least_recently_used_entries);
    tcase_add_test(tc, test_size_limit_default_and_none);
    tcase_add_test(tc, test_entry_larger_than_the_limit_is_not_written);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    self_exe = argv[0];
    if (argc == 3 && strcmp(argv[1], "--child-build") == 0)
        return child_build(argv[2]);
    return tj_test_main(argc, argv, cache_suite());
}
