/*
 * examples/common/tj_example.h: what the seed example programs share: the command line
 * (--device cpu|cuda, --cpu-blocks, --help), opening the device, kernel options that
 * match it, building with messages, and printing arrays the way NumPy prints them, so that
 * stdout is exactly the seed's output. Uses only tilejit.h. Header-only (static).
 */
#ifndef TJ_EXAMPLE_H
#define TJ_EXAMPLE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilejit.h"

typedef struct tjx {
    const char *prog;
    tj_context *ctx;
    tj_device *dev;
    bool cpu_blocks;      /* cooperative CPU mode: real lanes and barriers */
} tjx;

static inline void
tjx_usage(FILE *f, const char *prog, const char *what)
{
    fprintf(f,
            "usage: %s [--device cpu|cuda] [--cpu-blocks]\n"
            "%s\n"
            "  --device cpu|cuda  where to run (default: the GPU when one is present)\n"
            "  --cpu-blocks       on the CPU, run every lane of a block (cooperative mode)\n"
            "                     instead of width-1 blocks\n",
            prog, what);
}

/* Exits 1 with the library's message when 'st' is not TJ_OK. */
static inline void
tjx_check(const tjx *x, tj_status st, const char *what)
{
    if (st == TJ_OK)
        return;
    const char *msg = x->dev ? tj_device_error(x->dev) : NULL;
    if (!msg)
        msg = tj_context_error(x->ctx);
    fprintf(stderr, "%s: %s failed (%s): %s\n", x->prog, what, tj_status_name(st),
            msg ? msg : "no message");
    exit(1);
}

/* Parses the command line and opens the device; exits 2 on bad usage. */
static inline void
tjx_init(tjx *x, int argc, char **argv, const char *what)
{
    memset(x, 0, sizeof *x);
    x->prog = argv[0];
    const char *device = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            tjx_usage(stdout, argv[0], what);
            exit(0);
        } else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            device = argv[++i];
        } else if (strncmp(argv[i], "--device=", 9) == 0) {
            device = argv[i] + 9;
        } else if (strcmp(argv[i], "--cpu-blocks") == 0) {
            x->cpu_blocks = true;
        } else {
            fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], argv[i]);
            tjx_usage(stderr, argv[0], what);
            exit(2);
        }
    }
    if (device && strcmp(device, "cpu") != 0 && strcmp(device, "cuda") != 0) {
        fprintf(stderr, "%s: --device takes cpu or cuda, not '%s'\n", argv[0], device);
        exit(2);
    }
    if (tj_context_create(&x->ctx) != TJ_OK) {
        fprintf(stderr, "%s: cannot create a tilejit context\n", argv[0]);
        exit(1);
    }
    tj_status st;
    if (!device)
        st = tj_device_create_default(x->ctx, &x->dev);
    else
        st = tj_device_create(x->ctx, strcmp(device, "cuda") == 0 ? TJ_DEVICE_CUDA : TJ_DEVICE_CPU,
                              0, &x->dev);
    tjx_check(x, st, "opening the device");
    fprintf(stderr, "%s: running on %s%s\n", x->prog, tj_device_get_name(x->dev),
            tj_device_get_kind(x->dev) == TJ_DEVICE_CPU
                ? (x->cpu_blocks ? ", cooperative CPU blocks" : ", width-1 CPU blocks")
                : "");
}

static inline tj_kernel_options
tjx_options(const tjx *x, uint32_t block_dim)
{
    bool cuda = tj_device_get_kind(x->dev) == TJ_DEVICE_CUDA;
    return (tj_kernel_options){.target = cuda ? TJ_TARGET_CUDA : TJ_TARGET_CPU,
                               .block_dim = block_dim,
                               .cpu_mode = x->cpu_blocks ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
}

static inline tj_module *
tjx_build(const tjx *x, tj_kernel *k)
{
    tj_build_options o = {.device = x->dev};
    tj_module *m = NULL;
    tj_status st = tj_kernel_build(k, &o, &m);
    if (st != TJ_OK) {
        fprintf(stderr, "%s: building kernel failed (%s): %s\n", x->prog, tj_status_name(st),
                tj_context_error(x->ctx) ? tj_context_error(x->ctx) : "no message");
        exit(1);
    }
    return m;
}

static inline tj_array *
tjx_array(const tjx *x, tj_dtype dt, int ndim, const int64_t *shape, const void *host)
{
    tj_array *a = NULL;
    tjx_check(x, tj_array_create(x->dev, tj_context_get_type(x->ctx, dt), ndim, shape, &a),
              "allocating an array");
    if (host)
        tjx_check(x, tj_array_copy_from_host(a, host, tj_array_get_bytes(a)),
                  "copying to the device");
    return a;
}

static inline void
tjx_read(const tjx *x, const tj_array *a, void *host)
{
    tjx_check(x, tj_array_copy_to_host(a, host, tj_array_get_bytes(a)), "copying to the host");
}

/* ---- NumPy's print format ------------------------------------------------------------ */

/* Formats one element; integral floats print as "6." like NumPy. */
static inline void
tjx_format(char *buf, size_t n, double v, bool is_float)
{
    if (!is_float) {
        snprintf(buf, n, "%lld", (long long)v);
    } else if (isnan(v)) {
        snprintf(buf, n, "nan");
    } else if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
    } else if (v == floor(v) && fabs(v) < 1e16) {
        snprintf(buf, n, "%.0f.", v);
    } else {
        for (int p = 1; p <= 17; p++) { /* the shortest text that reads back the same */
            snprintf(buf, n, "%.*g", p, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
}

/* Prints a 1-D or 2-D array of 'rows' x 'cols' values as NumPy's print() does for arrays
 * this small (no line wrapping): elements right-aligned to the widest. */
static inline void
tjx_print_array(const double *v, int rows, int cols, bool is_float, bool two_d)
{
    char buf[64];
    int width = 0;
    for (int i = 0; i < rows * cols; i++) {
        tjx_format(buf, sizeof buf, v[i], is_float);
        int len = (int)strlen(buf);
        width = len > width ? len : width;
    }
    printf(two_d ? "[" : "");
    for (int r = 0; r < rows; r++) {
        printf("%s[", r == 0 ? "" : " ");
        for (int c = 0; c < cols; c++) {
            tjx_format(buf, sizeof buf, v[r * cols + c], is_float);
            printf("%s%*s", c ? " " : "", width, buf);
        }
        printf("]%s", r + 1 < rows ? "\n" : "");
    }
    printf(two_d ? "]\n" : "\n");
}

#endif /* TJ_EXAMPLE_H */
