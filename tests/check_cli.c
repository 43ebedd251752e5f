/* tj-test: */
/*
 * tests/check_cli.c: the tilejit command, run as a child process (the binary next to the
 * tests folder of the build, or $TILEJIT_CLI): --help and --version, the exit codes (0,
 * 1 for build and run failures, 2 for bad usage), ptx (assembled by ptxas when present),
 * ir, and run with every argument form, printing the six seed outputs. $TILEJIT_CLI_WRAPPER
 * runs each command under another (CTest's valgrind_cli: valgrind).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tj_lang_test.h"

enum { TIMEOUT_S = 300, OUT_BYTES = 1 << 20 };

static char out_text[OUT_BYTES], err_text[OUT_BYTES];

static const char *
cli_path(void)
{
    static char path[4096];
    const char *env = getenv("TILEJIT_CLI");
    if (env && *env)
        return env;
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 32);
    ck_assert(n > 0);
    path[n] = 0;
    char *slash = strrchr(path, '/');
    ck_assert_ptr_nonnull(slash);
    strcpy(slash, "/../tilejit");
    return path;
}

static void
slurp(const char *path, char *buf)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, OUT_BYTES - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

/* The words of $TILEJIT_CLI_WRAPPER (such as "valgrind --error-exitcode=99 -q"), which
 * run_cli puts before the command: CTest's valgrind_cli checks the command's own leaks and
 * errors that way. Returns how many it put in argv (at most 'max'). */
static int
wrapper_words(const char **argv, int max)
{
    static char words[1024];
    const char *env = getenv("TILEJIT_CLI_WRAPPER");
    int n = 0;
    if (!env || !*env)
        return 0;
    ck_assert_msg(strlen(env) < sizeof words, "TILEJIT_CLI_WRAPPER is too long");
    strcpy(words, env);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w && n < max;
         w = strtok_r(NULL, " ", &save))
        argv[n++] = w;
    return n;
}

/* Runs the command with the NULL-terminated arguments after argv[0]; returns its exit
 * status with stdout and stderr in out_text and err_text. */
static int
run_cli(const char *first, ...)
{
    const char *argv[64];
    int argc = wrapper_words(argv, 16);
    argv[argc++] = cli_path();
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    char so[] = "/tmp/tj_cli_out_XXXXXX", se[] = "/tmp/tj_cli_err_XXXXXX";
    int fo = mkstemp(so), fe = mkstemp(se);
    ck_assert(fo >= 0 && fe >= 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        setenv("TILEJIT_CACHE", "0", 1);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    close(fo);
    close(fe);
    slurp(so, out_text);
    slurp(se, err_text);
    unlink(so);
    unlink(se);
    ck_assert_msg(WIFEXITED(st), "tilejit died (signal %d); stderr:\n%s",
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0, err_text);
    ck_assert_msg(WEXITSTATUS(st) != 127, "cannot run %s", argv[0]);
    return WEXITSTATUS(st);
}

static const char *
seed(const char *name)
{
    static char path[8][1024];
    static int next;
    char rel[256];
    snprintf(rel, sizeof rel, "../examples/kernels/%s.py", name);
    char *p = path[next++ % 8];
    tjl_source_path(p, 1024, rel);
    return p;
}

/* The files write_temp made in this test, removed by its teardown. */
enum { TEMP_MAX = 8 };
static char temp_path[TEMP_MAX][64];
static int ntemp;

static const char *
write_temp(const char *text, size_t n)
{
    ck_assert_int_lt(ntemp, TEMP_MAX);
    char *p = temp_path[ntemp];
    strcpy(p, "/tmp/tj_cli_src_XXXXXX");
    int fd = mkstemp(p);
    ck_assert(fd >= 0);
    ntemp++;
    bool written = write(fd, text, n) == (ssize_t)n;
    close(fd);
    ck_assert(written);
    return p;
}

static void
remove_temps(void)
{
    for (int i = 0; i < ntemp; i++)
        unlink(temp_path[i]);
    ntemp = 0;
}

#define assert_rc(rc, want)                                                                   \
    ck_assert_msg((rc) == (want), "exit status %d, want %d; stderr:\n%s\nstdout:\n%.2000s",  \
                  (rc), (want), err_text, out_text)

/* ---- usage --------------------------------------------------------------------------------- */

START_TEST(test_help_goes_to_stdout_and_exits_zero)
{
    assert_rc(run_cli("--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "usage: tilejit COMMAND FILE"));
    ck_assert_str_eq(err_text, "");
    assert_rc(run_cli("-h", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "run FILE --kernel NAME"));
    assert_rc(run_cli("run", "--help", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "--arg NAME=VALUE"));
    assert_rc(run_cli("--version", NULL), 0);
    ck_assert_msg(strncmp(out_text, "tilejit 0.1.0 (LLVM 19", 22) == 0, "%s", out_text);
}
END_TEST

START_TEST(test_bad_usage_exits_two_with_a_message_on_stderr)
{
    const char *hist = seed("histogram");
    assert_rc(run_cli(NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "usage:"));
    ck_assert_str_eq(out_text, "");
    assert_rc(run_cli("compile", hist, NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "unknown command 'compile'"));
    assert_rc(run_cli("ptx", NULL), 2);
    assert_rc(run_cli("ptx", hist, "--frobnicate", NULL), 2);
    assert_rc(run_cli("ptx", hist, "--dim", "4", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "'ptx' does not take --dim"));
    assert_rc(run_cli("ptx", hist, "--block-dim", "2000", NULL), 2);
    assert_rc(run_cli("ptx", hist, "--arch", "volta", NULL), 2);
    assert_rc(run_cli("ir", hist, "--target", "tpu", NULL), 2);
    assert_rc(run_cli("run", hist, "--dim", "8", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "run needs --kernel NAME"));
    assert_rc(run_cli("run", hist, "--kernel", "histogram", NULL), 2);
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--dim", "8", "--tiled", "1", NULL),
              2);
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--dim", "x", NULL), 2);
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--dim", "8", "--arg", "data", NULL),
              2);
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--tiled", "1", "--arg",
                      "data=zeros(8)", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "missing --arg bins_out=VALUE"));
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--tiled", "1", "--arg",
                      "data=zeros(8)", "--arg", "bins_out=zeros(4)", "--arg", "bins=1", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "has no parameter 'bins'"));
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--tiled", "1", "--arg",
                      "data=[1, 2", "--arg", "bins_out=zeros(4)", NULL), 2);
    assert_rc(run_cli("run", hist, "--kernel", "histogram", "--tiled", "1", "--arg",
                      "data=[[1], [2]]", "--arg", "bins_out=zeros(4)", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "the parameter needs 1"));
}
END_TEST

START_TEST(test_build_and_run_failures_exit_one)
{
    const char *bad = "import warp as wp\n@wp.kernel\ndef k(a: wp.array[float]):\n"
                      "    a[0] = 1\n";
    const char *path = write_temp(bad, strlen(bad));
    assert_rc(run_cli("ptx", path, NULL), 1);
    char want[256];
    snprintf(want, sizeof want, "%s:4:5: error: cannot assign int32 to an element of type "
                                "float32\n    a[0] = 1\n    ^\n", path);
    ck_assert_str_eq(err_text, want);
    assert_rc(run_cli("ptx", "/nonexistent/k.py", NULL), 1);
    ck_assert_ptr_nonnull(strstr(err_text, "cannot open '/nonexistent/k.py'"));
    assert_rc(run_cli("ir", seed("histogram"), "--kernel", "nope", NULL), 1);
    ck_assert_ptr_nonnull(strstr(err_text, "no kernel named 'nope'"));
    /* a failed index check in a debug build */
    const char *oob = "@wp.kernel\ndef k(a: wp.array[float]):\n    i = wp.tid()\n"
                      "    a[i + 10] = 1.0\n";
    path = write_temp(oob, strlen(oob));
    assert_rc(run_cli("run", path, "--kernel", "k", "--dim", "2", "--debug", "--device", "cpu",
                      "--arg", "a=zeros(4)", NULL), 1);
    ck_assert_ptr_nonnull(strstr(err_text, "running 'k' failed (TJ_ERR_KERNEL)"));
}
END_TEST

/* ---- ptx and ir ---------------------------------------------------------------------------- */

START_TEST(test_ptx_of_every_seed_assembles)
{
    static const char *const names[] = {"store_doubled_thread_indices", "replace_rows",
                                        "multiply_elements", "row_products", "histogram",
                                        "compact_values"};
    for (size_t i = 0; i < 6; i++) {
        assert_rc(run_cli("ptx", seed(names[i]), NULL), 0);
        ck_assert_ptr_nonnull(strstr(out_text, ".visible .entry"));
        ck_assert_ptr_nonnull(strstr(out_text, names[i]));
        tjt_check_ptx(out_text);
    }
    char out[] = "/tmp/tj_cli_ptx_XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    assert_rc(run_cli("ptx", seed("row_products"), "--kernel", "row_products", "--block-dim",
                      "64", "--arch", "sm_80", "-o", out, NULL), 0);
    ck_assert_str_eq(out_text, "");
    slurp(out, out_text);
    unlink(out);
    ck_assert_ptr_nonnull(strstr(out_text, ".target sm_80"));
    char log[4096];
    ck_assert_msg(tj_test_ptxas(out_text, "sm_80", NULL, log, sizeof log), "%s", log);
}
END_TEST

START_TEST(test_ir_before_and_after_optimisation)
{
    assert_rc(run_cli("ir", seed("multiply_elements"), NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "target triple = \"x86_64"));
    size_t optimised = strlen(out_text);
    assert_rc(run_cli("ir", seed("multiply_elements"), "--unoptimized", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "tjk.multiply_elements"));
    ck_assert_uint_ne(strlen(out_text), optimised);
    assert_rc(run_cli("ir", seed("histogram"), "--target", "cuda", "--block-dim", "32", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "nvptx64"));
    /* Cooperative CPU blocks run their lanes in loops (jit/lane_loops.c: the lane counter
     * is the phi of block "lanes.head"); width-1 blocks have one lane. */
    assert_rc(run_cli("ir", seed("compact_values"), "--block-dim", "4", NULL), 0);
    ck_assert_ptr_null(strstr(out_text, "lanes.head"));
    assert_rc(run_cli("ir", seed("compact_values"), "--block-dim", "4", "--cpu-blocks", NULL),
              0);
    ck_assert_ptr_nonnull(strstr(out_text, "lanes.head"));
    assert_rc(run_cli("ir", seed("histogram"), "--target", "cuda", "--cpu-blocks", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "--cpu-blocks is for --target cpu"));
}
END_TEST

/* --debug gives ir and ptx the code of a debug build: the index checks' reports
 * (tj.report in the IR; the error record __tj_err written, not only declared, in the PTX). */
START_TEST(test_ir_and_ptx_of_debug_builds)
{
    assert_rc(run_cli("ir", seed("compact_values"), "--block-dim", "4", "--cpu-blocks", NULL),
              0);
    ck_assert_ptr_null(strstr(out_text, "tj.report"));
    assert_rc(run_cli("ir", seed("compact_values"), "--block-dim", "4", "--cpu-blocks",
                      "--debug", NULL),
              0);
    ck_assert_ptr_nonnull(strstr(out_text, "call fastcc void @tj.report"));
    int uses[2];
    for (int debug = 0; debug < 2; debug++) {
        assert_rc(run_cli("ptx", seed("compact_values"), debug ? "--debug" : NULL, NULL), 0);
        tjt_check_ptx(out_text);
        uses[debug] = 0;
        for (const char *p = out_text; (p = strstr(p, "__tj_err")); p++)
            uses[debug]++;
    }
    ck_assert_int_eq(uses[0], 1); /* the declaration */
    ck_assert_int_gt(uses[1], 1);
}
END_TEST

/* ---- run ----------------------------------------------------------------------------------- */

START_TEST(test_run_prints_the_seed_outputs)
{
    assert_rc(run_cli("run", seed("store_doubled_thread_indices"), "--kernel",
                      "store_doubled_thread_indices", "--dim", "16", "--block-dim", "16",
                      "--device", "cpu", "--cpu-blocks", "--arg", "out=zeros(16)", NULL), 0);
    ck_assert_str_eq(out_text, "out = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, "
                               "30]\n");
    assert_rc(run_cli("run", seed("replace_rows"), "--kernel", "replace_rows", "--tiled", "1",
                      "--block-dim", "8", "--device", "cpu", "--arg",
                      "a=[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15]]", "--arg",
                      "out=zeros(4,4)", NULL), 0);
    ck_assert_str_eq(out_text,
                     "a = [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], "
                     "[12.0, 13.0, 14.0, 15.0]]\n"
                     "out = [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], "
                     "[100.0, 101.0, 102.0, 103.0], [104.0, 105.0, 106.0, 107.0]]\n");
    assert_rc(run_cli("run", seed("multiply_elements"), "--kernel", "multiply_elements",
                      "--tiled", "1", "--block-dim", "2", "--device", "cpu", "--cpu-blocks",
                      "--arg", "x=[3, 7, 4, 9]", "--arg", "out=zeros(1)", NULL), 0);
    ck_assert_str_eq(out_text, "x = [3, 7, 4, 9]\nout = [756]\n");
    assert_rc(run_cli("run", seed("row_products"), "--kernel", "row_products", "--tiled", "1",
                      "--block-dim", "4", "--device", "cpu", "--cpu-blocks", "--arg",
                      "x=[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]", "--arg", "p=zeros(2)", NULL), 0);
    ck_assert_str_eq(out_text, "x = [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]\np = [6.0, 6000.0]\n");
    assert_rc(run_cli("run", seed("histogram"), "--kernel", "histogram", "--tiled", "1",
                      "--block-dim", "8", "--device", "cpu", "--cpu-blocks", "--arg",
                      "data=[0.5, 2.0, 3.0, 4.0, 4.5, 5.5, 6.0, 7.0]", "--arg",
                      "bins_out=zeros(4)", NULL), 0);
    ck_assert_str_eq(out_text, "data = [0.5, 2.0, 3.0, 4.0, 4.5, 5.5, 6.0, 7.0]\n"
                               "bins_out = [1.0, 2.0, 3.0, 2.0]\n");
    /* width-1 CPU blocks give the CPU answer of the seed (SPEC 1) */
    assert_rc(run_cli("run", seed("histogram"), "--kernel", "histogram", "--tiled", "1",
                      "--block-dim", "8", "--device", "cpu", "--arg",
                      "data=[0.5, 2.0, 3.0, 4.0, 4.5, 5.5, 6.0, 7.0]", "--arg",
                      "bins_out=zeros(4)", NULL), 0);
    ck_assert_ptr_nonnull(strstr(out_text, "bins_out = [1.0, 0.0, 0.0, 0.0]\n"));
    assert_rc(run_cli("run", seed("compact_values"), "--kernel", "compact_values", "--tiled",
                      "1", "--block-dim", "4", "--device", "cpu", "--cpu-blocks", "--arg",
                      "data=[1, 8, 3, 7, 2, 9, 4, 6]", "--arg", "out=zeros(8)", "--arg",
                      "num=zeros(1)", NULL), 0);
    int v[8], num;
    const char *o = strstr(out_text, "\nout = [");
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(sscanf(o, "\nout = [%d, %d, %d, %d, %d, %d, %d, %d]", &v[0], &v[1], &v[2],
                            &v[3], &v[4], &v[5], &v[6], &v[7]), 8);
    ck_assert_ptr_nonnull(strstr(out_text, "num = [4]\n"));
    num = 4;
    int seen = 0;
    for (int i = 0; i < num; i++)
        seen |= v[i] >= 6 && v[i] <= 9 ? 1 << (v[i] - 6) : 0;
    ck_assert_int_eq(seen, 15);  /* sorted(out[:4]) == [6, 7, 8, 9] */
    for (int i = num; i < 8; i++)
        ck_assert_int_eq(v[i], 0);
}
END_TEST

/* A .npy v1 (or v2) file of 'n' elements of 'descr' with 'shape' ("(2, 3)"). */
static const char *
write_npy(int version, const char *descr, const char *shape, const void *data, size_t nbytes)
{
    char hdr[256], buf[4096];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                      descr, shape);
    size_t pre = version == 1 ? 10 : 12;
    size_t total = (pre + (size_t)hl + 1 + 63) / 64 * 64;
    memset(buf, ' ', total);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (char)version;
    buf[7] = 0;
    size_t hlen = total - pre;
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)(hlen >> 8);
    if (version == 2)
        buf[10] = buf[11] = 0;
    memcpy(buf + pre, hdr, (size_t)hl);
    buf[total - 1] = '\n';
    memcpy(buf + total, data, nbytes);
    return write_temp(buf, total + nbytes);
}

START_TEST(test_run_argument_forms_and_output_formats)
{
    const char *src = "import warp as wp\n"
                      "@wp.kernel\n"
                      "def k(x: wp.array2d[float], y: wp.array[wp.int64], v: wp.vec3, s: float,\n"
                      "      n: int, flag: bool, b: wp.array[bool], h: wp.array[wp.float16],\n"
                      "      d: wp.array[wp.float64], pts: wp.array[wp.vec2]):\n"
                      "    i, j = wp.tid()\n"
                      "    x[i, j] = x[i, j] * s + v.z\n"
                      "    if i == 0 and j == 0:\n"
                      "        y[0] = y[0] + wp.int64(n)\n"
                      "        b[0] = flag\n"
                      "        h[0] = h[0] * wp.float16(2.0)\n"
                      "        d[0] = d[0] / wp.float64(3.0)\n"
                      "        pts[1] = pts[1] + wp.vec2(0.5, 0.25)\n";
    const char *path = write_temp(src, strlen(src));
    float xf[6] = {1, 2, 3, 4, 5, 6};
    int64_t yv[2] = {9000000000LL, -1};
    const char *xnpy = write_npy(1, "<f4", "(2, 3)", xf, sizeof xf);
    const char *ynpy = write_npy(2, "<i8", "(2,)", yv, sizeof yv);
    char xarg[300], yarg[300];
    snprintf(xarg, sizeof xarg, "x=@%s", xnpy);
    snprintf(yarg, sizeof yarg, "y=@%s", ynpy);
    assert_rc(run_cli("run", path, "--kernel", "k", "--dim", "2,3", "--device", "cpu", "--arg",
                      xarg, "--arg", yarg, "--arg", "v=[0, 0, 0.5]", "--arg", "s=0.1", "--arg",
                      "n=7", "--arg", "flag=true", "--arg", "b=[false, false]", "--arg",
                      "h=[1.5]", "--arg", "d=[1]", "--arg", "pts=[[1, 2], [3, 4]]", NULL), 0);
    ck_assert_str_eq(out_text,
                     "x = [[0.6, 0.7, 0.8], [0.9, 1.0, 1.1]]\n"
                     "y = [9000000007, -1]\n"
                     "b = [true, false]\n"
                     "h = [3.0]\n"
                     "d = [0.3333333333333333]\n"
                     "pts = [[1.0, 2.0], [3.5, 4.25]]\n");
    /* values that do not fit are usage errors */
    assert_rc(run_cli("run", path, "--kernel", "k", "--dim", "1", "--device", "cpu", "--arg",
                      xarg, "--arg", yarg, "--arg", "v=[0, 0]", "--arg", "s=0.1", "--arg", "n=7",
                      "--arg", "flag=true", "--arg", "b=[false]", "--arg", "h=[1.5]", "--arg",
                      "d=[1]", "--arg", "pts=zeros(2)", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "--arg v: vec3f needs 3 components, got 2"));
    assert_rc(run_cli("run", path, "--kernel", "k", "--dim", "1", "--device", "cpu", "--arg",
                      xarg, "--arg", yarg, "--arg", "v=[0, 0, 0]", "--arg", "s=0.1", "--arg",
                      "n=3000000000", "--arg", "flag=true", "--arg", "b=[false]", "--arg",
                      "h=[1.5]", "--arg", "d=[1]", "--arg", "pts=zeros(2)", NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "--arg n: 3000000000 does not fit in int32"));
}
END_TEST

static Suite *
cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, TIMEOUT_S);
    tcase_add_checked_fixture(tc, NULL, remove_temps);
    tcase_add_test(tc, test_help_goes_to_stdout_and_exits_zero);
    tcase_add_test(tc, test_bad_usage_exits_two_with_a_message_on_stderr);
    tcase_add_test(tc, test_build_and_run_failures_exit_one);
    tcase_add_test(tc, test_ptx_of_every_seed_assembles);
    tcase_add_test(tc, test_ir_before_and_after_optimisation);
    tcase_add_test(tc, test_ir_and_ptx_of_debug_builds);
    tcase_add_test(tc, test_run_prints_the_seed_outputs);
    tcase_add_test(tc, test_run_argument_forms_and_output_formats);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, cli_suite());
}
