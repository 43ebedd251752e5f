/*
 * bench/plot.c: the gnuplot script written beside --csv FILE as FILE.gp. It carries its
 * data inline (gnuplot data blocks), so it needs no CSV parsing, and draws into 'outdir'
 * (default "."): throughput_<figure>.png, GB/s against input size per implementation and
 * thread count; ratio_throughput.png and ratio_compile.png, each figure's ratio to its
 * reference (log scale; 1 is parity). tools/plot.sh runs it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static bool
is_ok(const bench_row *r)
{
    return strcmp(r->status, "ok") == 0;
}

/* 'name' with '/' as '_', for file names. */
static void
file_part(char *dst, size_t n, const char *name)
{
    snprintf(dst, n, "%s", name);
    for (char *p = dst; *p; p++)
        if (*p == '/' || *p == ' ' || *p == ',')
            *p = '_';
}

static void
series_label(char *dst, size_t n, const bench_row *r)
{
    if (r->threads)
        snprintf(dst, n, "%s, %d thread%s", r->impl, r->threads, r->threads == 1 ? "" : "s");
    else
        snprintf(dst, n, "%s", r->impl);
}

static bool
same_series(const bench_row *a, const bench_row *b)
{
    return strcmp(a->name, b->name) == 0 && strcmp(a->impl, b->impl) == 0 &&
           a->threads == b->threads;
}

/* The (MiB, GB/s) points of the series of rows[first], by increasing size. */
static void
write_points(FILE *f, const bench_row *rows, int nrows, int first)
{
    double last = -1;
    for (;;) {
        int next = -1;
        for (int j = first; j < nrows; j++) {
            const bench_row *r = &rows[j];
            if (!same_series(r, &rows[first]) || !is_ok(r) || isnan(r->gbps) ||
                (double)r->size_bytes <= last)
                continue;
            if (next < 0 || r->size_bytes < rows[next].size_bytes)
                next = j;
        }
        if (next < 0)
            return;
        last = (double)rows[next].size_bytes;
        for (int j = first; j < nrows; j++) /* every point of that size */
            if (same_series(&rows[j], &rows[first]) && is_ok(&rows[j]) && !isnan(rows[j].gbps) &&
                rows[j].size_bytes == rows[next].size_bytes)
                fprintf(f, "%.6g %.6g\n", last / (1 << 20), rows[j].gbps);
    }
}

/* One chart of GB/s against size for figure rows[first].name. */
static void
throughput_chart(FILE *f, const bench_row *rows, int nrows, int first, int chart)
{
    const char *name = rows[first].name;
    char file[96];
    file_part(file, sizeof file, name);
    fprintf(f, "\n# ---- %s\n", name);
    int nseries = 0;
    int heads[64];
    for (int i = 0; i < nrows && nseries < 64; i++) {
        if (strcmp(rows[i].name, name) != 0 || !is_ok(&rows[i]) || isnan(rows[i].gbps))
            continue;
        bool seen = false;
        for (int s = 0; s < nseries; s++)
            seen |= same_series(&rows[heads[s]], &rows[i]);
        if (seen)
            continue;
        heads[nseries] = i;
        fprintf(f, "$t%d_%d << EOD\n", chart, nseries);
        write_points(f, rows, nrows, i);
        fprintf(f, "EOD\n");
        nseries++;
    }
    fprintf(f, "set output outdir.'/throughput_%s.png'\n", file);
    fprintf(f, "set title '%s: throughput against input size'\n", name);
    fprintf(f, "set xlabel 'input (MiB)'\nset ylabel 'GB/s'\nset logscale x 2\n"
               "unset logscale y\nset key outside right\nset grid\n");
    fprintf(f, "plot ");
    for (int s = 0; s < nseries; s++) {
        char label[160];
        series_label(label, sizeof label, &rows[heads[s]]);
        fprintf(f, "%s$t%d_%d using 1:2 with linespoints title '%s'", s ? ", \\\n     " : "",
                chart, s, label);
    }
    fprintf(f, "\n");
}

static void
ratio_chart(FILE *f, const bench_row *rows, int nrows, bool compile, const char *file)
{
    int count = 0;
    for (int i = 0; i < nrows; i++)
        count += is_ok(&rows[i]) && !isnan(rows[i].ratio) &&
                 (strncmp(rows[i].name, "compile/", 8) == 0) == compile;
    if (count == 0)
        return;
    fprintf(f, "\n# ---- ratios to the reference\n$%s << EOD\n", file);
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (!is_ok(r) || isnan(r->ratio) || (strncmp(r->name, "compile/", 8) == 0) != compile)
            continue;
        char label[200];
        if (compile) /* the figure's name says it all, but for the CPU builds of compile/disk */
            snprintf(label, sizeof label, "%s%s", r->name + 8,
                     strstr(r->impl, "CPU function") ? " (CPU)" : "");
        else
            series_label(label, sizeof label, r);
        fprintf(f, "\"%s%s%s\" %.6g\n", compile ? "" : r->name, compile ? "" : ": ", label,
                r->ratio);
    }
    fprintf(f, "EOD\n");
    fprintf(f, "set output outdir.'/%s.png'\n", file);
    fprintf(f, "set title 'speed relative to the reference (reference time / tilejit time; "
               "above 1: faster)'\n");
    fprintf(f, "unset logscale x\nset logscale y\nset xlabel ''\nset ylabel 'ratio'\n"
               "set style fill solid 0.6\nset boxwidth 0.7\nset xtics rotate by -90 "
               "font ',8'\nunset key\nset grid y\nset bmargin 18\n"
               "set offsets 0.5, 0.5, graph 0.1, 0\n");
    fprintf(f, "plot $%s using 0:2:xtic(1) with boxes, 1 with lines lt 0\n", file);
    fprintf(f, "set xtics norotate font ''\nset bmargin\nset offsets 0, 0, 0, 0\n");
}

bool
bench_write_gnuplot(const char *path, const char *csv, const bench_row *rows, int nrows,
                    const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "# Charts of the tilejit-bench run in %s (%s); the data is inline.\n", csv, title);
    fprintf(f, "# Render: tools/plot.sh %s [OUTDIR], or gnuplot -e \"outdir='OUTDIR'\" %s\n",
            csv, path);
    fprintf(f, "if (!exists('outdir')) outdir = '.'\n");
    fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "    set terminal pngcairo size 1400,800 noenhanced\n"
               "} else {\n"
               "    set terminal png size 1400,800 noenhanced\n"
               "}\n");
    int chart = 0;
    for (int i = 0; i < nrows; i++) {
        if (!is_ok(&rows[i]) || isnan(rows[i].gbps))
            continue;
        bool done = false;
        for (int j = 0; j < i && !done; j++)
            done = strcmp(rows[j].name, rows[i].name) == 0 && is_ok(&rows[j]) &&
                   !isnan(rows[j].gbps);
        if (!done)
            throughput_chart(f, rows, nrows, i, chart++);
    }
    ratio_chart(f, rows, nrows, false, "ratio_throughput");
    ratio_chart(f, rows, nrows, true, "ratio_compile");
    return fclose(f) == 0;
}
