/*
 * jit/disk_cache.c: the on-disk compile cache (SPEC 6). One file per module key in
 * $TILEJIT_CACHE_DIR, else $XDG_CACHE_HOME/tilejit, else ~/.cache/tilejit (made with mode
 * 0700); TILEJIT_CACHE=0 turns it off. A file is
 *
 *   magic "TJCACHE1" | u32 format | u32 target | key[16] | u64 payload bytes |
 *   payload hash[16] | payload (PTX text or a CPU object file)
 *
 * written to a unique temporary name and renamed into place, so readers in other
 * processes see a whole file or none. A file is used only if it is a regular file owned by
 * us and not writable by others, in a directory owned by us and not writable by others
 * (CPU objects are executable code), and if its header, key, length and hash all match;
 * otherwise it is ignored and the module is compiled (and the file rewritten). Failures to
 * read or write the cache never fail a build: a file that would pass RLIMIT_FSIZE is not
 * written, and a FIFO at a file's name is not waited on. A process killed while writing
 * leaves its "<name>.tmp.<pid>.<ns>" file behind: the first write of each later process
 * removes those over an hour old.
 *
 * The entries of a directory are kept within $TILEJIT_CACHE_MAXSIZE bytes (256 MiB unless
 * set; a number with an optional K, M or G; 0: no limit), like the CUDA driver's JIT cache
 * (CUDA_CACHE_MAXSIZE). A hit marks its entry used (its access time). A process lists the
 * directory at its first write there, and again whenever the bytes it has seen there since
 * (that listing plus its own writes) pass the limit; a listing that finds the entries over
 * the limit removes the least recently used until they are within nine tenths of it. So
 * the limit holds approximately while several processes write at once; an entry larger
 * than the limit is not written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define MAGIC "TJCACHE1"
#define FORMAT 1u
#define HEADER_BYTES (8 + 4 + 4 + 16 + 8 + 16)
#define MAX_PAYLOAD ((uint64_t)1 << 30)

/* Makes 'path' (and missing parents) with mode 0700. */
static bool
make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* Owned by us and not writable by group or others. */
static bool
is_private(const struct stat *st)
{
    return st->st_uid == geteuid() && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* The cache directory, made if missing; false when the cache is off or unsafe. */
static bool
cache_dir(char *dir, size_t n)
{
    const char *off = getenv("TILEJIT_CACHE");
    if (off && strcmp(off, "0") == 0)
        return false;
    const char *d = getenv("TILEJIT_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int len;
    if (d && *d)
        len = snprintf(dir, n, "%s", d);
    else if (xdg && *xdg)
        len = snprintf(dir, n, "%s/tilejit", xdg);
    else if (home && *home)
        len = snprintf(dir, n, "%s/.cache/tilejit", home);
    else
        return false;
    if (len <= 0 || (size_t)len >= n || !make_dirs(dir))
        return false;
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && is_private(&st);
}

static void
file_name(char *path, size_t n, const char *dir, const uint8_t key[16], tj_target target)
{
    char hex[33];
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", key[i]);
    snprintf(path, n, "%s/%s.%s", dir, hex, target == TJ_TARGET_CUDA ? "ptx" : "o");
}

static void
put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void
put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

/* The size limit of a directory's entries in bytes; 0: none. A value that is not a
 * number with an optional K, M or G gives the default. */
#define DEFAULT_MAX_BYTES ((uint64_t)256 << 20)
static uint64_t
max_bytes(void)
{
    const char *v = getenv("TILEJIT_CACHE_MAXSIZE");
    if (!v || !*v)
        return DEFAULT_MAX_BYTES;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (errno || *v < '0' || *v > '9' || *end || n > (UINT64_MAX >> shift))
        return DEFAULT_MAX_BYTES;
    return (uint64_t)n << shift;
}

/* Whether 'name' is an entry's: 32 hexadecimal digits, then ".ptx" or ".o". */
static bool
is_entry_name(const char *name)
{
    for (int i = 0; i < 32; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return strcmp(name + 32, ".ptx") == 0 || strcmp(name + 32, ".o") == 0;
}

/* A writer's temporary file: an entry's name, then ".tmp.<pid>.<ns>" (write_entry). */
static bool
is_temp_name(const char *name)
{
    const char *t = strstr(name, ".tmp.");
    char head[40];
    size_t n = t ? (size_t)(t - name) : 0;
    if (!t || n >= sizeof head)
        return false;
    memcpy(head, name, n);
    head[n] = 0;
    return is_entry_name(head);
}

static bool
read_all(int fd, uint8_t *buf, size_t n)
{
    while (n > 0) {
        ssize_t r = read(fd, buf, n);
        if (r <= 0)
            return false;
        buf += r;
        n -= (size_t)r;
    }
    return true;
}

static bool
write_all(int fd, const uint8_t *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w <= 0)
            return false;
        buf += w;
        n -= (size_t)w;
    }
    return true;
}

/* Checks a header against what this build expects; the payload length in '*len'. */
static bool
header_ok(const uint8_t *h, const uint8_t key[16], tj_target target, uint64_t *len)
{
    uint32_t format, tgt;
    memcpy(&format, h + 8, 4);
    memcpy(&tgt, h + 12, 4);
    memcpy(len, h + 32, 8);
    return memcmp(h, MAGIC, 8) == 0 && format == FORMAT && tgt == (uint32_t)target &&
           memcmp(h + 16, key, 16) == 0 && *len > 0 && *len <= MAX_PAYLOAD;
}

uint8_t *
tji_disk_cache_read(const uint8_t key[16], tj_target target, size_t *len_out)
{
    char dir[3072], path[4096];
    if (!cache_dir(dir, sizeof dir))
        return NULL;
    file_name(path, sizeof path, dir, key, target);
    /* O_NONBLOCK: a FIFO put at this name must not stop the build in open(); fstat then
     * turns down anything but a regular file. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    uint8_t h[HEADER_BYTES], digest[16];
    uint64_t len = 0;
    uint8_t *payload = NULL;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && is_private(&st) &&
              read_all(fd, h, sizeof h) && header_ok(h, key, target, &len) &&
              (uint64_t)st.st_size == HEADER_BYTES + len;
    if (ok) {
        payload = malloc((size_t)len + 1);
        ok = payload && read_all(fd, payload, (size_t)len);
    }
    if (ok) {
        tji_hash128(payload, (size_t)len, NULL, digest);
        ok = memcmp(digest, h + 40, 16) == 0;
    }
    if (ok) {
        /* used now: the size limit removes the least recently used entries first (a
         * read-only directory keeps the old time) */
        const struct timespec times[2] = {{.tv_nsec = UTIME_NOW}, {.tv_nsec = UTIME_OMIT}};
        (void)futimens(fd, times);
    }
    close(fd);
    if (!ok) {
        free(payload);
        return NULL;
    }
    payload[len] = 0; /* PTX is text */
    *len_out = (size_t)len;
    return payload;
}

/* Whether a file of 'bytes' stays within RLIMIT_FSIZE: a write past it would raise
 * SIGXFSZ, which ends the process unless handled. */
static bool
fits_file_size_limit(uint64_t bytes)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
           bytes <= (uint64_t)rl.rlim_cur;
}

#define TMP_MAX_AGE 3600 /* seconds; a write takes milliseconds */

typedef struct entry_use {
    struct timespec used;
    uint64_t bytes;
    char name[40];
} entry_use;

/* Least recently used first; equal times by name, so that the order is the same for all. */
static int
by_use(const void *a, const void *b)
{
    const entry_use *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec)
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    if (x->used.tv_nsec != y->used.tv_nsec)
        return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Lists 'dir': removes the temporary files that writers killed before their rename left
 * there once over TMP_MAX_AGE seconds old, and when its entries (our own regular files
 * with an entry's name) pass 'limit' bytes (0: none), removes the least recently used
 * but 'keep' until they are within nine tenths of it. Returns the bytes of the entries
 * left. */
static uint64_t
scan_dir(const char *dir, uint64_t limit, const char *keep)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    time_t now = time(NULL);
    entry_use *es = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        bool tmp = is_temp_name(e->d_name);
        if ((!tmp && !is_entry_name(e->d_name)) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode) || st.st_uid != geteuid())
            continue;
        if (tmp) {
            if (now - st.st_mtime > TMP_MAX_AGE)
                unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        total += (uint64_t)st.st_size;
        if (!limit || strcmp(e->d_name, keep) == 0)
            continue;
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            entry_use *grown = realloc(es, ncap * sizeof *es);
            if (!grown)
                break; /* prune what was listed */
            es = grown;
            cap = ncap;
        }
        es[n].used = st.st_atim;
        es[n].bytes = (uint64_t)st.st_size;
        memcpy(es[n].name, e->d_name, strlen(e->d_name) + 1); /* an entry's name: 35 at most */
        n++;
    }
    if (limit && total > limit) {
        qsort(es, n, sizeof *es, by_use);
        uint64_t low = limit / 10 * 9;
        for (size_t i = 0; i < n && total > low; i++)
            if (unlinkat(dirfd(d), es[i].name, 0) == 0 || errno == ENOENT)
                total -= es[i].bytes;
    }
    free(es);
    closedir(d);
    return total;
}

/* What this process knows of the directory it last wrote into: the bytes of its entries
 * at the last listing plus those it has written since. */
static struct {
    pthread_mutex_t mu;
    char dir[3072];
    uint64_t bytes;
} usage = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* After an entry of 'bytes' named 'name' was written into 'dir': lists the directory when
 * it is the first write there or the entries may have passed 'limit'. */
static void
account_write(const char *dir, const char *name, uint64_t bytes, uint64_t limit)
{
    pthread_mutex_lock(&usage.mu);
    bool first = strcmp(usage.dir, dir) != 0, list = first;
    if (first) {
        snprintf(usage.dir, sizeof usage.dir, "%s", dir);
        usage.bytes = 0;
    } else {
        usage.bytes += bytes;
        list = limit && usage.bytes > limit;
    }
    pthread_mutex_unlock(&usage.mu);
    if (!list)
        return;
    uint64_t left = scan_dir(dir, limit, name);
    pthread_mutex_lock(&usage.mu);
    if (strcmp(usage.dir, dir) == 0)
        usage.bytes = left;
    pthread_mutex_unlock(&usage.mu);
}

void
tji_disk_cache_write(const uint8_t key[16], tj_target target, const void *data, size_t len)
{
    char dir[3072], path[4096], tmp[4200];
    uint64_t limit = max_bytes(), bytes = HEADER_BYTES + (uint64_t)len;
    if (len == 0 || len > MAX_PAYLOAD || !fits_file_size_limit(bytes) ||
        (limit && bytes > limit) || !cache_dir(dir, sizeof dir))
        return;
    file_name(path, sizeof path, dir, key, target);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%ld", path, (long)getpid(), (long)ts.tv_nsec);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    uint8_t h[HEADER_BYTES];
    memcpy(h, MAGIC, 8);
    put32(h + 8, FORMAT);
    put32(h + 12, (uint32_t)target);
    memcpy(h + 16, key, 16);
    put64(h + 32, (uint64_t)len);
    tji_hash128(data, len, NULL, h + 40);
    bool ok = write_all(fd, h, sizeof h) && write_all(fd, data, len);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return;
    }
    account_write(dir, strrchr(path, '/') + 1, bytes, limit);
}
