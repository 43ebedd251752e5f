/*
 * tools/tilejit.c: the tilejit command. Builds kernels written in Warp's Python kernel
 * syntax (tj_program_*) and prints their PTX or LLVM IR, or runs one and prints its array
 * parameters as JSON. The only code of the project that prints and exits: 0 on success,
 * 1 when a build or a run fails, 2 on bad usage (STYLE 2.8).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { EXIT_BUILD = 1, EXIT_USAGE = 2, MAX_ARGS = 64 };

static const char usage_text[] =
    "usage: tilejit COMMAND FILE [options]\n"
    "Builds tile kernels written in NVIDIA Warp's Python kernel syntax.\n"
    "\n"
    "commands:\n"
    "  ptx FILE [--kernel NAME] [--block-dim B] [--arch sm_XX] [--debug] [-o OUT]\n"
    "      print the PTX of the file's kernels (or of one), built for CUDA\n"
    "      (block_dim 256 and sm_90 by default)\n"
    "  ir FILE [--kernel NAME] [--target cpu|cuda] [--block-dim B] [--unoptimized]\n"
    "      [--cpu-blocks] [--debug]\n"
    "      print the LLVM IR after optimisation (--unoptimized: before; target cpu by\n"
    "      default; --cpu-blocks: of cooperative CPU blocks)\n"
    "  run FILE --kernel NAME (--dim N[,N..] | --tiled N[,N..]) [--block-dim B]\n"
    "      [--device cpu|cuda] [--cpu-blocks] [--debug] [--arg NAME=VALUE]...\n"
    "      launch a kernel (--tiled: N blocks of B threads each) and print each array\n"
    "      parameter as NAME = <JSON list>, in parameter order\n"
    "\n"
    "options:\n"
    "  --kernel NAME      the kernel (ptx and ir: every kernel when not given)\n"
    "  --block-dim B      threads per block, 1-1024 (default 256 on CUDA, 1 on the CPU)\n"
    "  --arch sm_XX       the GPU architecture of the PTX (default sm_90)\n"
    "  -o OUT             write the PTX to OUT instead of stdout\n"
    "  --target cpu|cuda  what the IR is built for (default cpu)\n"
    "  --unoptimized      the IR as tilejit emits it, before optimisation\n"
    "  --dim N[,N..]      launch N threads (1 to 4 dimensions)\n"
    "  --tiled N[,N..]    launch N blocks (1 to 3 dimensions), like wp.launch_tiled\n"
    "  --device cpu|cuda  where to run (default: the GPU when there is one)\n"
    "  --cpu-blocks       on the CPU, run every lane of a block (cooperative mode)\n"
    "  --debug            check array and tile indices while running (ptx, ir: the\n"
    "                     code of such a build)\n"
    "  --arg NAME=VALUE   a parameter: a JSON number or bool for a scalar (a list of\n"
    "                     components for a vector or matrix); for an array a JSON\n"
    "                     (nested) list, zeros(SHAPE) such as zeros(8) or zeros(4,4),\n"
    "                     or @PATH.npy\n"
    "  -h, --help         print this help and exit\n"
    "  --version          print the version and exit\n"
    "\n"
    "exit status: 0 success, 1 the build or the run failed, 2 bad usage\n";

typedef struct opts {
    const char *cmd;
    const char *file;
    const char *kernel;
    const char *arch;
    const char *out;
    const char *target;
    const char *device;
    uint32_t block_dim;
    bool unoptimized, cpu_blocks, debug, tiled;
    int ndim;
    int64_t dims[4];
    const char *args[MAX_ARGS];
    int nargs;
} opts;

static int
usage_error(const char *fmt, const char *arg)
{
    fputs("tilejit: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(tilejit --help shows the usage)\n", stderr);
    return EXIT_USAGE;
}

/* ---- option values ------------------------------------------------------------------------- */

static bool
parse_uint(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool
parse_dims(const char *s, int max, opts *o)
{
    o->ndim = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        long long v;
        if (o->ndim == max || !parse_uint(tok, 0, INT32_MAX, &v))
            return false;
        o->dims[o->ndim++] = v;
    }
    return o->ndim > 0;
}

static bool
valid_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) != 0 || !s[3])
        return false;
    for (const char *p = s + 3; *p; p++)
        if (!isdigit((unsigned char)*p) && !(p[1] == 0 && (*p == 'a' || *p == 'f')))
            return false;
    return true;
}

enum { O_KERNEL = 256, O_BLOCK, O_ARCH, O_TARGET, O_UNOPT, O_DIM, O_TILED, O_DEVICE,
       O_CPUBLOCKS, O_DEBUG, O_ARG, O_VERSION };

static const struct option longs[] = {
    {"kernel", required_argument, NULL, O_KERNEL},
    {"block-dim", required_argument, NULL, O_BLOCK},
    {"arch", required_argument, NULL, O_ARCH},
    {"target", required_argument, NULL, O_TARGET},
    {"unoptimized", no_argument, NULL, O_UNOPT},
    {"dim", required_argument, NULL, O_DIM},
    {"tiled", required_argument, NULL, O_TILED},
    {"device", required_argument, NULL, O_DEVICE},
    {"cpu-blocks", no_argument, NULL, O_CPUBLOCKS},
    {"debug", no_argument, NULL, O_DEBUG},
    {"arg", required_argument, NULL, O_ARG},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, O_VERSION},
    {NULL, 0, NULL, 0},
};

static bool
allows(const int *allowed, int c)
{
    for (; *allowed; allowed++)
        if (*allowed == c)
            return true;
    return false;
}

/* Options of one command; 'allowed' lists the option values it takes (0-terminated).
 * Returns 0, -1 after --help or --version, or the usage exit status. */
static int
parse_options(int argc, char **argv, opts *o, const int *allowed)
{
    int c;
    long long v;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return -1;
        }
        if (c == O_VERSION) {
            printf("tilejit %s\n", tj_version());
            return -1;
        }
        if (c == '?')
            return usage_error("bad option for '%s'", o->cmd);
        if (!allows(allowed, c)) {
            const char *name = "o";
            for (const struct option *l = longs; l->name; l++)
                if (l->val == c)
                    name = l->name;
            fprintf(stderr, "tilejit: '%s' does not take %s%s\n", o->cmd,
                    c == 'o' ? "-" : "--", name);
            return usage_error("%s", "bad option");
        }
        switch (c) {
        case 'o': o->out = optarg; break;
        case O_KERNEL: o->kernel = optarg; break;
        case O_BLOCK:
            if (!parse_uint(optarg, 1, 1024, &v))
                return usage_error("--block-dim takes 1 to 1024, not '%s'", optarg);
            o->block_dim = (uint32_t)v;
            break;
        case O_ARCH:
            if (!valid_arch(optarg))
                return usage_error("--arch takes sm_XX (such as sm_90), not '%s'", optarg);
            o->arch = optarg;
            break;
        case O_TARGET:
            if (strcmp(optarg, "cpu") && strcmp(optarg, "cuda"))
                return usage_error("--target takes cpu or cuda, not '%s'", optarg);
            o->target = optarg;
            break;
        case O_DEVICE:
            if (strcmp(optarg, "cpu") && strcmp(optarg, "cuda"))
                return usage_error("--device takes cpu or cuda, not '%s'", optarg);
            o->device = optarg;
            break;
        case O_UNOPT: o->unoptimized = true; break;
        case O_CPUBLOCKS: o->cpu_blocks = true; break;
        case O_DEBUG: o->debug = true; break;
        case O_DIM:
        case O_TILED:
            if (o->ndim)
                return usage_error("%s", "give one of --dim and --tiled, once");
            o->tiled = c == O_TILED;
            if (!parse_dims(optarg, o->tiled ? 3 : 4, o))
                return usage_error("bad launch dimensions '%s' (N[,N..]: up to 4 for --dim, "
                                   "3 for --tiled)", optarg);
            break;
        case O_ARG:
            if (o->nargs == MAX_ARGS)
                return usage_error("%s", "too many --arg options");
            if (!strchr(optarg, '='))
                return usage_error("--arg takes NAME=VALUE, not '%s'", optarg);
            o->args[o->nargs++] = optarg;
            break;
        default:
            break;
        }
    }
    if (optind >= argc)
        return usage_error("'%s' needs a FILE", o->cmd);
    if (optind + 1 < argc)
        return usage_error("unexpected argument '%s'", argv[optind + 1]);
    o->file = argv[optind];
    return 0;
}

/* ---- building ------------------------------------------------------------------------------ */

static char *
read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tilejit: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= ((size_t)1 << 26))
            break;
        char *nb = realloc(buf, 2 * cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "tilejit: cannot read '%s'\n", path);
        return NULL;
    }
    buf[n] = 0;
    if (strlen(buf) != n) {
        free(buf);
        fprintf(stderr, "tilejit: '%s' contains a NUL byte; it is not a kernel source file\n",
                path);
        return NULL;
    }
    return buf;
}

/* A context and the program of 'o->file'; prints why and returns the exit status on
 * failure. */
static int
open_program(const opts *o, tj_context **ctx, tj_program **prog)
{
    char *src = read_source(o->file);
    if (!src)
        return EXIT_BUILD;
    if (tj_context_create(ctx) != TJ_OK) {
        free(src);
        fputs("tilejit: cannot create a tilejit context (no memory or no host target)\n",
              stderr);
        return EXIT_BUILD;
    }
    tj_status st = tj_program_create(*ctx, src, o->file, prog);
    free(src);
    if (st != TJ_OK) {
        const char *msg = *prog ? tj_program_error(*prog) : NULL;
        fputs(msg ? msg : "tilejit: out of memory\n", stderr);
        return EXIT_BUILD;
    }
    if (o->kernel && tj_program_get_kernel_index(*prog, o->kernel) < 0) {
        tj_module *m = NULL; /* tj_program_build gives the message naming the kernels */
        tj_program_build(*prog, o->kernel, NULL, NULL, &m);
        fputs(tj_program_error(*prog), stderr);
        return EXIT_BUILD;
    }
    return 0;
}

static int
build(tj_program *prog, const opts *o, const tj_kernel_options *ko, const tj_build_options *bo,
      tj_module **m)
{
    tj_status st = tj_program_build(prog, o->kernel, ko, bo, m);
    if (st == TJ_OK)
        return 0;
    const char *msg = tj_program_error(prog);
    fprintf(stderr, "%s", msg ? msg : "tilejit: the build failed\n");
    if (msg && msg[0] && msg[strlen(msg) - 1] != '\n')
        fputc('\n', stderr);
    return EXIT_BUILD;
}

/* ---- ptx and ir ---------------------------------------------------------------------------- */

static int
cmd_ptx(const opts *o)
{
    tj_context *ctx = NULL;
    tj_program *prog = NULL;
    tj_module *m = NULL;
    int rc = open_program(o, &ctx, &prog);
    tj_kernel_options ko = {.target = TJ_TARGET_CUDA, .block_dim = o->block_dim, .debug = o->debug};
    tj_build_options bo = {.arch = o->arch};
    if (rc == 0)
        rc = build(prog, o, &ko, &bo, &m);
    if (rc == 0) {
        FILE *f = o->out ? fopen(o->out, "w") : stdout;
        if (!f) {
            fprintf(stderr, "tilejit: cannot write '%s': %s\n", o->out, strerror(errno));
            rc = EXIT_BUILD;
        } else {
            fputs(tj_module_get_ptx(m), f);
            if ((o->out && fclose(f) != 0) || (!o->out && fflush(f) != 0)) {
                fprintf(stderr, "tilejit: writing the PTX failed\n");
                rc = EXIT_BUILD;
            }
        }
    }
    tj_program_destroy(prog);
    tj_context_destroy(ctx);
    return rc;
}

static int
cmd_ir(const opts *o)
{
    tj_context *ctx = NULL;
    tj_program *prog = NULL;
    tj_module *m = NULL;
    bool cuda = o->target && strcmp(o->target, "cuda") == 0;
    if (cuda && o->cpu_blocks)
        return usage_error("%s", "--cpu-blocks is for --target cpu");
    int rc = open_program(o, &ctx, &prog);
    tj_kernel_options ko = {.target = cuda ? TJ_TARGET_CUDA : TJ_TARGET_CPU,
                            .block_dim = o->block_dim, .debug = o->debug,
                            .cpu_mode = o->cpu_blocks ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
    tj_build_options bo = {.keep_ir = true, .opt_level = o->unoptimized ? TJ_OPT_O0
                                                                        : TJ_OPT_DEFAULT};
    if (rc == 0)
        rc = build(prog, o, &ko, &bo, &m);
    if (rc == 0)
        fputs(tj_module_get_ir(m), stdout);
    tj_program_destroy(prog);
    tj_context_destroy(ctx);
    return rc;
}

/* ---- run ----------------------------------------------------------------------------------- */

typedef struct run_state {
    tj_context *ctx;
    tj_program *prog;
    tj_device *dev;
    tj_module *m;
    int nparams;
    tj_param_info params[MAX_ARGS];
    tj_arg args[MAX_ARGS];
    tj_array *arrays[MAX_ARGS];
    cli_buffer bufs[MAX_ARGS];
    unsigned char scalars[MAX_ARGS][128];
} run_state;

static int
open_device(const opts *o, run_state *r)
{
    tj_status st;
    if (!o->device)
        st = tj_device_create_default(r->ctx, &r->dev);
    else
        st = tj_device_create(r->ctx, strcmp(o->device, "cuda") == 0 ? TJ_DEVICE_CUDA
                                                                      : TJ_DEVICE_CPU, 0, &r->dev);
    if (st == TJ_OK)
        return 0;
    const char *msg = tj_context_error(r->ctx);
    fprintf(stderr, "tilejit: cannot open the %s device (%s): %s\n",
            o->device ? o->device : "default", tj_status_name(st), msg ? msg : "no message");
    return EXIT_BUILD;
}

/* The VALUE of --arg NAME=VALUE for parameter 'name', or NULL. */
static const char *
arg_value(const opts *o, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < o->nargs; i++)
        if (strncmp(o->args[i], name, n) == 0 && o->args[i][n] == '=')
            return o->args[i] + n + 1;
    return NULL;
}

static int
check_arg_names(const opts *o, const run_state *r)
{
    for (int i = 0; i < o->nargs; i++) {
        size_t n = (size_t)(strchr(o->args[i], '=') - o->args[i]);
        bool known = false;
        for (int p = 0; p < r->nparams && !known; p++)
            known = strlen(r->params[p].name) == n &&
                    strncmp(r->params[p].name, o->args[i], n) == 0;
        if (!known) {
            fprintf(stderr, "tilejit: kernel '%s' has no parameter '%.*s'\n", o->kernel, (int)n,
                    o->args[i]);
            return EXIT_USAGE;
        }
        for (int j = 0; j < i; j++)
            if (strncmp(o->args[j], o->args[i], n + 1) == 0) {
                fprintf(stderr, "tilejit: --arg %.*s is given twice\n", (int)n, o->args[i]);
                return EXIT_USAGE;
            }
    }
    return 0;
}

/* Makes the launch arguments from the --arg values. */
static int
make_args(const opts *o, run_state *r)
{
    char err[CLI_ERR];
    for (int i = 0; i < r->nparams; i++) {
        const tj_param_info *pi = &r->params[i];
        const char *v = arg_value(o, pi->name);
        if (!v) {
            fprintf(stderr, "tilejit: missing --arg %s=VALUE (%s%s%s)\n", pi->name,
                    pi->is_array ? "an array of " : "", tj_type_get_name(pi->type),
                    pi->is_array ? "" : "");
            return EXIT_USAGE;
        }
        if (!pi->is_array) {
            if (!cli_parse_scalar(v, pi->type, &r->args[i], r->scalars[i], err, sizeof err)) {
                fprintf(stderr, "tilejit: --arg %s: %s\n", pi->name, err);
                return EXIT_USAGE;
            }
            continue;
        }
        cli_buffer *b = &r->bufs[i];
        if (!cli_parse_array(v, pi->type, pi->ndim, b, err, sizeof err)) {
            fprintf(stderr, "tilejit: --arg %s: %s\n", pi->name, err);
            return EXIT_USAGE;
        }
        tj_status st = tj_array_create(r->dev, pi->type, pi->ndim, b->shape, &r->arrays[i]);
        if (st == TJ_OK && b->nleaves)
            st = tj_array_copy_from_host(r->arrays[i], b->data, tj_array_get_bytes(r->arrays[i]));
        if (st != TJ_OK) {
            const char *msg = tj_device_error(r->dev);
            fprintf(stderr, "tilejit: --arg %s: %s\n", pi->name, msg ? msg : tj_status_name(st));
            return EXIT_BUILD;
        }
        r->args[i] = tj_arg_array(r->arrays[i]);
    }
    return 0;
}

static int
launch_and_print(const opts *o, run_state *r)
{
    uint32_t bd = tj_module_get_block_dim(r->m, o->kernel);
    tj_status st = o->tiled ? tj_launch_tiled(r->dev, r->m, o->kernel, o->ndim, o->dims, bd,
                                              r->args, (size_t)r->nparams)
                            : tj_launch(r->dev, r->m, o->kernel, o->ndim, o->dims, bd, r->args,
                                        (size_t)r->nparams);
    if (st == TJ_OK)
        st = tj_device_synchronize(r->dev);
    for (int i = 0; st == TJ_OK && i < r->nparams; i++)
        if (r->arrays[i] && r->bufs[i].nleaves)
            st = tj_array_copy_to_host(r->arrays[i], r->bufs[i].data,
                                       tj_array_get_bytes(r->arrays[i]));
    if (st != TJ_OK) {
        const char *msg = tj_device_error(r->dev);
        fprintf(stderr, "tilejit: running '%s' failed (%s): %s\n", o->kernel,
                tj_status_name(st), msg ? msg : "no message");
        return EXIT_BUILD;
    }
    for (int i = 0; i < r->nparams; i++) {
        if (!r->params[i].is_array)
            continue;
        printf("%s = ", r->params[i].name);
        cli_print_json(stdout, &r->bufs[i]);
        putchar('\n');
    }
    return fflush(stdout) == 0 ? 0 : EXIT_BUILD;
}

static int
cmd_run(const opts *o)
{
    if (!o->kernel)
        return usage_error("%s", "run needs --kernel NAME");
    if (!o->ndim)
        return usage_error("%s", "run needs --dim N[,N..] or --tiled N[,N..]");
    run_state *r = calloc(1, sizeof *r);
    if (!r) {
        fputs("tilejit: out of memory\n", stderr);
        return EXIT_BUILD;
    }
    int rc = open_program(o, &r->ctx, &r->prog);
    if (rc == 0)
        rc = open_device(o, r);
    bool cuda = rc == 0 && tj_device_get_kind(r->dev) == TJ_DEVICE_CUDA;
    tj_kernel_options ko = {.target = cuda ? TJ_TARGET_CUDA : TJ_TARGET_CPU,
                            .block_dim = o->block_dim, .debug = o->debug,
                            .cpu_mode = o->cpu_blocks ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
    tj_build_options bo = {.device = r->dev};
    if (rc == 0)
        rc = build(r->prog, o, &ko, &bo, &r->m);
    if (rc == 0) {
        r->nparams = tj_module_get_param_count(r->m, o->kernel);
        if (r->nparams > MAX_ARGS)
            r->nparams = MAX_ARGS;
        for (int i = 0; i < r->nparams; i++)
            tj_module_get_param(r->m, o->kernel, i, &r->params[i]);
        rc = check_arg_names(o, r);
    }
    if (rc == 0)
        rc = make_args(o, r);
    if (rc == 0)
        rc = launch_and_print(o, r);
    for (int i = 0; i < MAX_ARGS; i++) {
        tj_array_destroy(r->arrays[i]);
        cli_buffer_free(&r->bufs[i]);
    }
    tj_module_destroy(r->m);
    tj_device_destroy(r->dev);
    tj_program_destroy(r->prog);
    tj_context_destroy(r->ctx);
    free(r);
    return rc;
}

/* ---- main ---------------------------------------------------------------------------------- */

int
main(int argc, char **argv)
{
    static const int ptx_opts[] = {O_KERNEL, O_BLOCK, O_ARCH, O_DEBUG, 'o', 0};
    static const int ir_opts[] = {O_KERNEL, O_BLOCK, O_TARGET, O_UNOPT, O_CPUBLOCKS, O_DEBUG, 0};
    static const int run_opts[] = {O_KERNEL, O_BLOCK, O_DIM, O_TILED, O_DEVICE, O_CPUBLOCKS,
                                   O_DEBUG, O_ARG, 0};
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("tilejit %s\n", tj_version());
        return 0;
    }
    const int *allowed = strcmp(cmd, "ptx") == 0 ? ptx_opts : strcmp(cmd, "ir") == 0 ? ir_opts
                       : strcmp(cmd, "run") == 0 ? run_opts : NULL;
    if (!allowed)
        return usage_error("unknown command '%s' (expected ptx, ir or run)", cmd);
    char progname[32];
    snprintf(progname, sizeof progname, "tilejit %s", cmd);
    argv[1] = progname;
    opts o = {.cmd = cmd};
    int rc = parse_options(argc - 1, argv + 1, &o, allowed);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (strcmp(cmd, "ptx") == 0)
        return cmd_ptx(&o);
    if (strcmp(cmd, "ir") == 0)
        return cmd_ir(&o);
    return cmd_run(&o);
}
