/* A probe of a plain kernel (bench/RESULTS.md, 2026-12-06, ninth session):
 * i = wp.tid(); y[i] = 2.0 * x[i] + y[i] over 4 Mi threads in width-1 mode on one CPU
 * thread, beside the C loop; five runs. IR=1 prints the optimised IR. */
#include "tilejit.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
int main(void) {
    tj_context *ctx;
    tj_context_create(&ctx);
    tj_device *dev;
    tj_device_create(ctx, TJ_DEVICE_CPU, 0, &dev);
    tj_device_set_cpu_threads(dev, 1);
    const char *src = "import warp as wp\n\n@wp.kernel\ndef saxpy(x: wp.array[float], y: "
                      "wp.array[float]):\n    i = wp.tid()\n    y[i] = 2.0 * x[i] + y[i]\n";
    tj_program *p;
    tj_program_create(ctx, src, "b.py", &p);
    tj_module *m;
    tj_kernel_options ko = {.target = TJ_TARGET_CPU};
    tj_build_options bo = {.keep_ir = true};
    if (tj_program_build(p, "saxpy", &ko, &bo, &m)) {
        fputs(tj_program_error(p), stderr);
        return 1;
    }
    if (getenv("IR"))
        puts(tj_module_get_ir(m));
    int64_t n = 1 << 22;
    tj_array *a, *b;
    const tj_type *f = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_array_create(dev, f, 1, &n, &a);
    tj_array_create(dev, f, 1, &n, &b);
    tj_arg arg[2] = {tj_arg_array(a), tj_arg_array(b)};
    float *x = malloc(n * 4), *y = malloc(n * 4);
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 1;
    }
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        tj_launch(dev, m, "saxpy", 1, &n, 1, arg, 2);
        tj_device_synchronize(dev);
        double t = now() - t0;
        double t1 = now();
        for (int i = 0; i < n; i++)
            y[i] = 2.0f * x[i] + y[i];
        double tc = now() - t1;
        printf("tilejit %.2f ns/elem, C %.2f ns/elem\n", t * 1e6 / n, tc * 1e6 / n);
    }
    return 0;
}
