/*
 * bench/main.c: tilejit-bench's command line, the order of the groups (compile latency,
 * CPU throughput, GPU throughput), and the output: one TSV line per figure on stdout as it
 * is measured, progress on stderr, and at the end --csv (with a gnuplot script beside it)
 * and --json. The only file of the bench that exits.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bench.h"

/* Everything printed, for --csv and --json. */
static struct {
    bench_row *rows;
    int nrows, cap;
    bool failed;
    char command[2048];
    char date[64];
    char cpu_model[256];
    char gpu_name[300];
    char load_start[64], load_end[64];   /* /proc/loadavg: other work skews the figures */
} out;

static void
usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [options] [FILTER...]\n"
            "Measures tilejit's compile latency and kernel throughput beside their references\n"
            "(NVRTC; CUB and the CUDA runtime from libtjref.so; C at -O3 -march=native). Each\n"
            "figure is checked against its reference, warmed up, then timed --repeat times.\n"
            "Prints one TSV line per figure on stdout (times in milliseconds).\n"
            "  --list               list the figures and exit\n"
            "  --device cpu|cuda    cpu: compile latency (PTX, CPU, NVRTC, disk cache) and CPU\n"
            "                       throughput; cuda: PTX and module compile latency, NVRTC and\n"
            "                       GPU throughput. Default: both (GPU figures are skipped\n"
            "                       without a GPU)\n"
            "  --size LIST          input bytes of the throughput figures, comma-separated,\n"
            "                       with K, M or G (default 64M on the CPU, 2G on the GPU)\n"
            "  --repeat N           timed runs per figure (default %d)\n"
            "  --threads LIST       CPU thread counts, e.g. 1,2 or all (default 1,2,all)\n"
            "  --csv FILE           also write the figures as CSV, and FILE.gp for gnuplot\n"
            "                       (tools/plot.sh FILE renders it)\n"
            "  --json FILE          also write the figures as JSON\n"
            "  --seed N             seed of the random inputs (default 1)\n"
            "  --ir DIR             also write the optimised IR of each CPU throughput kernel\n"
            "                       to DIR/cpu-OP-MODE.ll (DIR made if missing;\n"
            "                       tools/cpu_annotate.py reads it)\n"
            "  -h, --help           show this help\n"
            "A figure runs when its name contains one of the FILTERs (none: every figure).\n"
            "Environment: TILEJIT_REQUIRE_GPU=1 makes a missing GPU a failure;\n"
            "TILEJIT_BENCH_REFLIB names libtjref.so (default: beside this program).\n"
            "Exit status: 0 every figure ran and checked (or was skipped), 1 a check or a run\n"
            "failed, 2 bad usage.\n",
            prog, BENCH_DEFAULT_REPEAT);
}

static void
die_usage(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    usage(stderr, prog);
    exit(2);
}

/* ---- rows --------------------------------------------------------------------------------- */

bench_row
bench_row_new(const char *name, const char *impl, const char *device)
{
    bench_row r = {.median = NAN, .min = NAN, .max = NAN, .gbps = NAN, .ref_median = NAN,
                   .ratio = NAN, .speedup = NAN};
    snprintf(r.name, sizeof r.name, "%s", name);
    snprintf(r.impl, sizeof r.impl, "%s", impl);
    snprintf(r.device, sizeof r.device, "%s", device);
    snprintf(r.status, sizeof r.status, "ok");
    return r;
}

void
bench_row_set_times(bench_row *r, double *ms, int n)
{
    bench_stats(ms, n, &r->median, &r->min, &r->max);
    r->runs = n;
    if (r->moved_bytes > 0 && r->median > 0)
        r->gbps = (double)r->moved_bytes / (r->median * 1e-3) / 1e9;
}

void
bench_row_set_ref(bench_row *r, const bench_row *ref)
{
    snprintf(r->ref, sizeof r->ref, "%s", ref->impl);
    r->ref_median = ref->median;
    if (r->median > 0 && ref->median > 0)
        r->ratio = ref->median / r->median;
}

static void
put_num(FILE *f, double v, const char *sep)
{
    if (isnan(v))
        fprintf(f, "%s", sep[0] == ',' ? "" : "-");
    else
        fprintf(f, "%.6g", v);
}

static const char *columns[] = {"name",     "impl",   "device",  "threads", "size_bytes",
                                "runs",     "median_ms", "min_ms", "max_ms",  "gbps",
                                "ref",      "ref_median_ms", "ratio", "speedup", "status",
                                "note"};

static void
print_row(FILE *f, const bench_row *r, const char *sep)
{
    bool csv = sep[0] == ',';
    const char *q = csv ? "\"" : "";
    fprintf(f, "%s%s%s%s%s%s%s%s%s%s%s%s%d%s%lld%s%d%s", q, r->name, q, sep, q, r->impl, q, sep,
            q, r->device, q, sep, r->threads, sep, (long long)r->size_bytes, sep, r->runs, sep);
    double nums[] = {r->median, r->min, r->max, r->gbps};
    for (int i = 0; i < 4; i++) {
        put_num(f, nums[i], sep);
        fprintf(f, "%s", sep);
    }
    fprintf(f, "%s%s%s%s", q, r->ref[0] ? r->ref : (csv ? "" : "-"), q, sep);
    put_num(f, r->ref_median, sep);
    fprintf(f, "%s", sep);
    put_num(f, r->ratio, sep);
    fprintf(f, "%s", sep);
    put_num(f, r->speedup, sep);
    fprintf(f, "%s%s%s%s%s", sep, q, r->status, q, sep);
    /* notes never hold the separator or quotes */
    char note[sizeof r->note];
    snprintf(note, sizeof note, "%s", r->note);
    for (char *p = note; *p; p++)
        if (*p == '\t' || *p == '"' || *p == '\n' || (csv && *p == ','))
            *p = csv && *p == ',' ? ';' : ' ';
    fprintf(f, "%s%s%s\n", q, note, q);
}

void
bench_emit(const bench_row *r)
{
    if (out.nrows == out.cap) {
        int cap = out.cap ? 2 * out.cap : 64;
        bench_row *rows = realloc(out.rows, (size_t)cap * sizeof *rows);
        if (!rows) {
            fprintf(stderr, "tilejit-bench: out of memory\n");
            exit(1);
        }
        out.rows = rows;
        out.cap = cap;
    }
    out.rows[out.nrows++] = *r;
    if (strcmp(r->status, "FAILED") == 0)
        out.failed = true;
    print_row(stdout, r, "\t");
    fflush(stdout);
    if (strcmp(r->status, "ok") == 0) {
        char med[32], lo[32], hi[32];
        bench_format_ms(med, sizeof med, r->median);
        bench_format_ms(lo, sizeof lo, r->min);
        bench_format_ms(hi, sizeof hi, r->max);
        fprintf(stderr, "  %-34s %-34s", r->name, r->impl);
        if (r->threads)
            fprintf(stderr, " %2dT", r->threads);
        fprintf(stderr, " %s [%s, %s]", med, lo, hi);
        if (!isnan(r->gbps))
            fprintf(stderr, " %.1f GB/s", r->gbps);
        if (!isnan(r->ratio))
            fprintf(stderr, " x%.3g vs ref", r->ratio);
        if (!isnan(r->speedup))
            fprintf(stderr, " speedup %.2f", r->speedup);
        fprintf(stderr, "\n");
    }
}

static void
emit_status(const char *status, const char *name, const char *impl, const char *device,
            const char *fmt, va_list ap)
{
    bench_row r = bench_row_new(name, impl, device);
    snprintf(r.status, sizeof r.status, "%s", status);
    vsnprintf(r.note, sizeof r.note, fmt, ap);
    if (strcmp(status, "FAILED") == 0)
        fprintf(stderr, "tilejit-bench: FAILED: %s (%s): %s\n", name, impl, r.note);
    else
        fprintf(stderr, "  %-34s %-34s skipped: %s\n", name, impl, r.note);
    bench_emit(&r);
}

void
bench_skip(const char *name, const char *impl, const char *device, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_status("skipped", name, impl, device, fmt, ap);
    va_end(ap);
}

void
bench_fail(const char *name, const char *impl, const char *device, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_status("FAILED", name, impl, device, fmt, ap);
    va_end(ap);
}

void
bench_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

bool
bench_wanted(const bench_opts *o, const char *name)
{
    if (o->nfilters == 0)
        return true;
    for (int i = 0; i < o->nfilters; i++)
        if (strstr(name, o->filters[i]))
            return true;
    return false;
}

/* ---- devices ------------------------------------------------------------------------------ */

const char *
bench_error(const bench_env *e, const tj_device *dev)
{
    const char *msg = dev ? tj_device_error(dev) : NULL;
    if (!msg)
        msg = tj_context_error(e->ctx);
    return msg ? msg : "no message";
}

tj_device *
bench_cpu(bench_env *e)
{
    if (e->cpu)
        return e->cpu;
    tj_status st = tj_device_create(e->ctx, TJ_DEVICE_CPU, 0, &e->cpu);
    if (st != TJ_OK)
        bench_say("tilejit-bench: cannot open the CPU device (%s): %s", tj_status_name(st),
                  bench_error(e, NULL));
    return e->cpu;
}

tj_device *
bench_gpu(bench_env *e)
{
    if (e->gpu_tried)
        return e->gpu;
    e->gpu_tried = true;
    tj_status st = tj_device_create(e->ctx, TJ_DEVICE_CUDA, 0, &e->gpu);
    if (st != TJ_OK) {
        snprintf(e->gpu_why, sizeof e->gpu_why, "no GPU (%s: %s)", tj_status_name(st),
                 bench_error(e, NULL));
        e->gpu = NULL;
    } else {
        snprintf(out.gpu_name, sizeof out.gpu_name, "%s (%s)", tj_device_get_name(e->gpu),
                 tj_device_get_arch(e->gpu));
    }
    return e->gpu;
}

/* ---- options ------------------------------------------------------------------------------ */

static bool
parse_size(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno)
        return false;
    switch (*end) {
    case 'k': case 'K': x *= 1024; end++; break;
    case 'm': case 'M': x *= 1024 * 1024; end++; break;
    case 'g': case 'G': x *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' && end[1] == 'B')
        end += 2;
    else if (*end == 'B')
        end++;
    /* arrays hold at most INT32_MAX float32 elements */
    if (*end || x < 4096 || x > 4.0 * INT32_MAX)
        return false;
    *v = (int64_t)x;
    return true;
}

static int
cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static bool
parse_threads(const char *s, bench_opts *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    o->nthreads = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int t;
        if (strcmp(tok, "all") == 0) {
            t = bench_ncpu();
        } else {
            char *end;
            long v = strtol(tok, &end, 10);
            if (*end || v < 1 || v > 4096)
                return false;
            t = (int)v;
        }
        bool dup = false;
        for (int i = 0; i < o->nthreads; i++)
            dup |= o->threads[i] == t;
        if (!dup) {
            if (o->nthreads == BENCH_MAX_THREADS)
                return false;
            o->threads[o->nthreads++] = t;
        }
    }
    qsort(o->threads, (size_t)o->nthreads, sizeof o->threads[0], cmp_int);
    return o->nthreads > 0;
}

static void
parse_args(int argc, char **argv, bench_opts *o, bool *list, const char **csv,
           const char **json)
{
    enum { O_LIST = 256, O_DEVICE, O_SIZE, O_REPEAT, O_THREADS, O_CSV, O_JSON, O_SEED, O_IR };
    static const struct option longs[] = {
        {"list", no_argument, NULL, O_LIST},       {"device", required_argument, NULL, O_DEVICE},
        {"size", required_argument, NULL, O_SIZE}, {"repeat", required_argument, NULL, O_REPEAT},
        {"threads", required_argument, NULL, O_THREADS},
        {"csv", required_argument, NULL, O_CSV},   {"json", required_argument, NULL, O_JSON},
        {"seed", required_argument, NULL, O_SEED}, {"ir", required_argument, NULL, O_IR},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *prog = argv[0];
    const char *threads = "1,2,all";
    int c;
    while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
        switch (c) {
        case 'h':
            usage(stdout, prog);
            exit(0);
        case O_LIST:
            *list = true;
            break;
        case O_DEVICE:
            if (strcmp(optarg, "cpu") != 0 && strcmp(optarg, "cuda") != 0)
                die_usage(prog, "--device takes cpu or cuda, not '%s'", optarg);
            o->run_cpu = strcmp(optarg, "cpu") == 0;
            o->run_cuda = !o->run_cpu;
            break;
        case O_SIZE: {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", optarg);
            o->nsizes = 0;
            for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
                if (o->nsizes == BENCH_MAX_SIZES || !parse_size(tok, &o->sizes[o->nsizes]))
                    die_usage(prog, "--size: '%s' is not a size from 4K to 8G (at most %d)",
                              tok, BENCH_MAX_SIZES);
                o->nsizes++;
            }
            break;
        }
        case O_REPEAT: {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 100000)
                die_usage(prog, "--repeat takes a count from 1 to 100000, not '%s'", optarg);
            o->repeat = (int)v;
            break;
        }
        case O_THREADS:
            threads = optarg;
            break;
        case O_CSV:
            *csv = optarg;
            break;
        case O_JSON:
            *json = optarg;
            break;
        case O_SEED:
            o->seed = strtoull(optarg, NULL, 0);
            break;
        case O_IR:
            o->ir_dir = optarg;
            break;
        default:
            usage(stderr, prog);
            exit(2);
        }
    }
    if (!parse_threads(threads, o))
        die_usage(prog, "--threads takes counts such as 1,2 or all, not '%s'", threads);
    for (int i = optind; i < argc; i++) {
        if (o->nfilters == BENCH_MAX_FILTERS)
            die_usage(prog, "at most %d filters", BENCH_MAX_FILTERS);
        o->filters[o->nfilters++] = argv[i];
    }
}

/* ---- listing and files -------------------------------------------------------------------- */

/* --ir's folder, made if missing (a run, not --list); one that is a file or cannot be made
 * is a usage error. */
static void
make_ir_dir(const char *prog, const char *dir)
{
    struct stat st;
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || stat(dir, &st) != 0 ||
        !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: --ir: '%s' is not a folder and cannot be made one: %s\n", prog,
                dir, errno == EEXIST ? strerror(ENOTDIR) : strerror(errno));
        exit(2);
    }
}

static const bench_opts *list_opts;

static void
list_one(const char *name, const char *what)
{
    if (bench_wanted(list_opts, name))
        printf("%-36s %s\n", name, what);
}

/* A filter that names no figure is a usage error, not a run that measures nothing. */
static const char *probe;
static int probe_hits;

static void
count_hit(const char *name, const char *what)
{
    (void)what;
    probe_hits += strstr(name, probe) != NULL;
}

static void
check_filters(const bench_opts *o, const char *prog)
{
    for (int i = 0; i < o->nfilters; i++) {
        probe = o->filters[i];
        probe_hits = 0;
        bench_compile_list(count_hit);
        if (o->run_cpu)
            bench_cpu_list(count_hit);
        if (o->run_cuda)
            bench_gpu_list(count_hit);
        if (probe_hits == 0)
            die_usage(prog, "no figure's name contains '%s'%s (--list shows them)", probe,
                      o->run_cuda ? "" : " on the CPU");
    }
}

static void
read_load(char *buf, size_t n)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double a = 0, b = 0, c = 0;
    if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
        snprintf(buf, n, "%.2f %.2f %.2f", a, b, c);
    else
        snprintf(buf, n, "unknown");
    if (f)
        fclose(f);
}

static void
read_machine(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(out.cpu_model, sizeof out.cpu_model, "unknown CPU");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + strspn(p + 1, " \t");
                p[strcspn(p, "\n")] = 0;
                snprintf(out.cpu_model, sizeof out.cpu_model, "%s", p);
            }
            break;
        }
    }
    if (f)
        fclose(f);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out.date, sizeof out.date, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static void
json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void
json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fprintf(f, "null");
    else
        fprintf(f, "%.6g", v);
}

static bool
write_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "{\n  \"tool\": \"tilejit-bench\",\n  \"version\": ");
    json_str(f, tj_version());
    fprintf(f, ",\n  \"date\": ");
    json_str(f, out.date);
    fprintf(f, ",\n  \"command\": ");
    json_str(f, out.command);
    fprintf(f, ",\n  \"cpu\": ");
    json_str(f, out.cpu_model);
    fprintf(f, ",\n  \"cores\": %d,\n  \"load_average_start\": ", bench_ncpu());
    json_str(f, out.load_start);
    fprintf(f, ",\n  \"load_average_end\": ");
    json_str(f, out.load_end);
    fprintf(f, ",\n  \"gpu\": ");
    json_str(f, out.gpu_name[0] ? out.gpu_name : "none");
    fprintf(f, ",\n  \"rows\": [\n");
    for (int i = 0; i < out.nrows; i++) {
        const bench_row *r = &out.rows[i];
        fprintf(f, "    {\"name\": ");
        json_str(f, r->name);
        fprintf(f, ", \"impl\": ");
        json_str(f, r->impl);
        fprintf(f, ", \"device\": ");
        json_str(f, r->device);
        fprintf(f, ", \"threads\": %d, \"size_bytes\": %lld, \"runs\": %d", r->threads,
                (long long)r->size_bytes, r->runs);
        const char *keys[] = {"median_ms", "min_ms", "max_ms", "gbps"};
        double vals[] = {r->median, r->min, r->max, r->gbps};
        for (int k = 0; k < 4; k++) {
            fprintf(f, ", \"%s\": ", keys[k]);
            json_num(f, vals[k]);
        }
        fprintf(f, ", \"ref\": ");
        json_str(f, r->ref);
        fprintf(f, ", \"ref_median_ms\": ");
        json_num(f, r->ref_median);
        fprintf(f, ", \"ratio\": ");
        json_num(f, r->ratio);
        fprintf(f, ", \"speedup\": ");
        json_num(f, r->speedup);
        fprintf(f, ", \"status\": ");
        json_str(f, r->status);
        fprintf(f, ", \"note\": ");
        json_str(f, r->note);
        fprintf(f, "}%s\n", i + 1 < out.nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f) == 0;
}

static bool
write_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        fprintf(f, "%s%s", columns[i], i + 1 < sizeof columns / sizeof columns[0] ? "," : "\n");
    for (int i = 0; i < out.nrows; i++)
        print_row(f, &out.rows[i], ",");
    return fclose(f) == 0;
}


/* ---- main --------------------------------------------------------------------------------- */

static void
print_header(void)
{
    printf("# tilejit-bench, tilejit %s\n", tj_version());
    printf("# date: %s\n", out.date);
    printf("# machine: %s, %d cores; load average at the start %s\n", out.cpu_model,
           bench_ncpu(), out.load_start);
    printf("# command: %s\n", out.command);
    printf("# times in milliseconds; ratio = reference median / this median (above 1: faster "
           "than the reference); speedup = 1-thread median / this median\n");
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
        printf("%s%s", columns[i], i + 1 < sizeof columns / sizeof columns[0] ? "\t" : "\n");
    fflush(stdout);
}

/* Writes --csv (and its gnuplot script) and --json; false when one could not be written. */
static bool
write_files(const char *csv, const char *json)
{
    bool ok = true;
    if (csv) {
        char gp[4200];
        snprintf(gp, sizeof gp, "%s.gp", csv);
        if (!write_csv(csv) || !bench_write_gnuplot(gp, csv, out.rows, out.nrows, out.cpu_model)) {
            fprintf(stderr, "tilejit-bench: cannot write %s or %s: %s\n", csv, gp,
                    strerror(errno));
            ok = false;
        }
    }
    if (json && !write_json(json)) {
        fprintf(stderr, "tilejit-bench: cannot write %s: %s\n", json, strerror(errno));
        ok = false;
    }
    return ok;
}

static void
record_command(int argc, char **argv)
{
    size_t used = 0;
    for (int i = 0; i < argc && used + 2 < sizeof out.command; i++)
        used += (size_t)snprintf(out.command + used, sizeof out.command - used, "%s%s",
                                 i ? " " : "", argv[i]);
}

int
main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return bench_compile_child(argc, argv);
    bench_opts o = {.run_cpu = true, .run_cuda = true, .repeat = BENCH_DEFAULT_REPEAT,
                    .seed = 1};
    bool list = false;
    const char *csv = NULL, *json = NULL;
    parse_args(argc, argv, &o, &list, &csv, &json);
    const char *req = getenv("TILEJIT_REQUIRE_GPU");
    o.require_gpu = req && strcmp(req, "1") == 0;
    check_filters(&o, argv[0]);
    ssize_t len = readlink("/proc/self/exe", o.self, sizeof o.self - 1);
    if (len <= 0)
        snprintf(o.self, sizeof o.self, "%s", argv[0]);
    else
        o.self[len] = 0;
    if (list) {
        list_opts = &o;
        bench_compile_list(list_one);
        if (o.run_cpu)
            bench_cpu_list(list_one);
        if (o.run_cuda)
            bench_gpu_list(list_one);
        return 0;
    }
    if (o.ir_dir)
        make_ir_dir(argv[0], o.ir_dir);
    record_command(argc, argv);
    read_machine();
    read_load(out.load_start, sizeof out.load_start);
    print_header();

    bench_env e = {.o = &o};
    tj_status st = tj_context_create(&e.ctx);
    if (st != TJ_OK) {
        fprintf(stderr, "tilejit-bench: cannot create a context (%s)\n", tj_status_name(st));
        return 1;
    }
    /* The GPU first: on the GPU machine its figures are the scarce ones. */
    if (o.run_cuda)
        bench_gpu_run(&e);
    bench_compile_run(&e);
    if (o.run_cpu)
        bench_cpu_run(&e);
    tj_context_destroy(e.ctx);
    read_load(out.load_end, sizeof out.load_end);
    if (!write_files(csv, json))
        out.failed = true;
    int nfailed = 0, nskipped = 0;
    for (int i = 0; i < out.nrows; i++) {
        nfailed += strcmp(out.rows[i].status, "FAILED") == 0;
        nskipped += strcmp(out.rows[i].status, "skipped") == 0;
    }
    bench_say("tilejit-bench: %d figures, %d failed, %d skipped; load average %s at the start, "
              "%s at the end", out.nrows, nfailed, nskipped, out.load_start, out.load_end);
    free(out.rows);
    return out.failed ? 1 : 0;
}
