/*
 * fuzz/driver.c: a main() for fuzz_lang.c where libFuzzer is missing (gcc builds): replays
 * every file of the corpus directories given, then, with --seconds N, mutates them for N
 * seconds with a fixed-seed generator (byte flips, token insertions, deletions,
 * duplications, splices), so a run is reproducible. An input that crashes is written to
 * ./crash-<hash> first (signal handler and sanitizer death callback), like libFuzzer does.
 *   fuzz_lang_driver [--seconds N] [--seed S] DIR_OR_FILE...
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define HAVE_SANITIZER_CALLBACK 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_INPUT = 1 << 16, FUZZ_MAX_CORPUS = 4096 };

typedef struct input {
    uint8_t *data;
    size_t size;
} input;

static input corpus[FUZZ_MAX_CORPUS];
static int ncorpus;
static const uint8_t *current;
static size_t current_size;

static uint64_t
hash(const uint8_t *d, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 1099511628211ULL;
    return h;
}

/* Writes the input being run to crash-<hash> (async-signal-safe). */
static void
save_current(void)
{
    if (!current)
        return;
    char name[40] = "crash-";
    uint64_t h = hash(current, current_size);
    for (int i = 0; i < 16; i++)
        name[6 + i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
    name[22] = 0;
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, current, current_size);
        (void)w;
        close(fd);
    }
    static const char msg[] = "fuzz_lang_driver: the crashing input is in ./crash-*\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    current = NULL;
}

static void
on_signal(int sig)
{
    save_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void
run(const uint8_t *d, size_t n)
{
    current = d;
    current_size = n;
    LLVMFuzzerTestOneInput(d, n);
    current = NULL;
}

static void
add_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || ncorpus == FUZZ_MAX_CORPUS) {
        if (f)
            fclose(f);
        return;
    }
    uint8_t *buf = malloc(FUZZ_MAX_INPUT);
    size_t n = buf ? fread(buf, 1, FUZZ_MAX_INPUT, f) : 0;
    fclose(f);
    if (!buf)
        return;
    corpus[ncorpus++] = (input){.data = buf, .size = n};
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds a file, or every file of a directory in name order (for a stable order). */
static void
add_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        add_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        return;
    char *names[FUZZ_MAX_CORPUS];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < FUZZ_MAX_CORPUS;)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        add_file(full);
        free(names[i]);
    }
}

/* ---- mutations ----------------------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const tokens[] = {
    "(", ")", "[", "]", ":", ",", ".", "=", "\n", "    ", "\t", "wp.", "tile_", "def ",
    "@wp.kernel\n", "@wp.func\n", "@wp.struct\n", "class ", "if ", "elif ", "else:", "for ",
    " in range(", "while ", "return ", "break", "continue", "pass", "and ", "or ", "not ",
    "True", "False", "None", "int", "float", "bool", "wp.vec3", "wp.mat22", "wp.quat",
    "wp.array[float]", "wp.array2d[int]", "wp.tid()", "wp.tile_load(", "wp.tile_reduce(wp.add, ",
    "shape=", "axis=", "dtype=", "offset=", "storage=\"shared\"", "capacity=", "atomic=",
    "1", "0", "-1", "2.5", "1e30", "0x7fffffff", "18446744073709551615", "**", "//", "%",
    "<<", ">>", "&", "|", "^", "~", "==", "<", "+=", "'", "\"\"\"", "#", "\\\n", "wp.tile(",
    "wp.untile(", "wp.tile_view(", "slice(", "::-1", "wp.tile_stack(", "wp.tile_map(",
    "wp.tile_scatter_add(", "wp.atomic_add(", "x", "y", "t", "s", "a", "i", "_", "wp.constant(",
};

static size_t
mutate(uint8_t *buf, size_t n, size_t cap)
{
    int kind = (int)(next() % 6);
    size_t at = n ? (size_t)(next() % (n + 1)) : 0;
    switch (kind) {
    case 0: /* flip a byte */
        if (n)
            buf[at % n] ^= (uint8_t)(1u << (next() % 8));
        return n;
    case 1: { /* insert a token */
        const char *t = tokens[next() % (sizeof tokens / sizeof tokens[0])];
        size_t len = strlen(t);
        if (n + len > cap)
            return n;
        memmove(buf + at + len, buf + at, n - at);
        memcpy(buf + at, t, len);
        return n + len;
    }
    case 2: { /* delete a range */
        if (!n)
            return n;
        size_t len = 1 + (size_t)(next() % 16);
        if (at + len > n)
            len = n - at;
        memmove(buf + at, buf + at + len, n - at - len);
        return n - len;
    }
    case 3: { /* duplicate a range */
        if (!n)
            return n;
        size_t from = (size_t)(next() % n), len = 1 + (size_t)(next() % 64);
        if (from + len > n)
            len = n - from;
        if (n + len > cap)
            return n;
        uint8_t tmp[64];
        memcpy(tmp, buf + from, len);
        memmove(buf + at + len, buf + at, n - at);
        memcpy(buf + at, tmp, len);
        return n + len;
    }
    case 4: { /* splice in part of another input */
        const input *o = &corpus[next() % (uint64_t)ncorpus];
        if (!o->size)
            return n;
        size_t from = (size_t)(next() % o->size), len = 1 + (size_t)(next() % 128);
        if (from + len > o->size)
            len = o->size - from;
        if (n + len > cap)
            return n;
        memmove(buf + at + len, buf + at, n - at);
        memcpy(buf + at, o->data + from, len);
        return n + len;
    }
    default: /* a random byte */
        if (n)
            buf[at % n] = (uint8_t)next();
        return n;
    }
}

int
main(int argc, char **argv)
{
    double seconds = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            rng = strtoull(argv[++i], NULL, 0) | 1;
        else
            add_path(argv[i]);
    }
    signal(SIGSEGV, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    signal(SIGILL, on_signal);
#ifdef HAVE_SANITIZER_CALLBACK
    __sanitizer_set_death_callback(save_current);
#endif
    for (int i = 0; i < ncorpus; i++)
        run(corpus[i].data, corpus[i].size);
    printf("fuzz_lang_driver: replayed %d inputs\n", ncorpus);
    if (seconds <= 0 || ncorpus == 0)
        return 0;
    uint8_t *buf = malloc(FUZZ_MAX_INPUT);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long runs = 0;
    for (;;) {
        const input *in = &corpus[next() % (uint64_t)ncorpus];
        size_t n = in->size;
        memcpy(buf, in->data, n);
        int k = 1 + (int)(next() % 8);
        for (int i = 0; i < k; i++)
            n = mutate(buf, n, FUZZ_MAX_INPUT);
        run(buf, n);
        runs++;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) >= seconds)
            break;
    }
    printf("fuzz_lang_driver: %ld mutated inputs in %.0f s, no crash\n", runs, seconds);
    free(buf);
    return 0;
}
