/*
 * driver/cpu_launch.c: the CPU launcher (SPEC 1, CPU modes). A pool of persistent threads,
 * the caller included, takes chunks of blocks from an atomic counter. Width-1 mode calls
 * the entry once per chunk; cooperative mode runs each block's lanes as fibers on one
 * worker, in ascending lane order between barriers. No LLVM, no printing here.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "driver.h"
#include "fiber.h"

enum {
    MAX_BLOCK_DIM = 1024,
    MAX_THREADS = 4096,
    INLINE_BLOCKS = 8,        /* width-1 launches this small (in one-lane blocks) run on the
                                 caller alone */
    CHUNKS_PER_THREAD = 8,    /* width-1 chunks: load balance against counter traffic */
    SPIN_ROUNDS = 2048,       /* polls (tens of microseconds) before a waiter sleeps */
    CACHE_LINE = 64,
    /* A lane's stack starts (id % STACK_COLOURS) cache lines below its top. The stacks are
     * whole pages, so uncoloured, the lanes' hot frames, which the barriers visit in turn,
     * would all sit in the same few sets of the L1 and L2 caches (fiber.h). */
    STACK_COLOURS = 64,
    DEFAULT_STACK_KB = 256,
    MIN_STACK_KB = 16,
    MAX_STACK_KB = 1024 * 1024,
    MAPS_PER_LANE = 2,        /* a fiber's stack and its guard page */
    /* Blocks whose code takes more stack than this (register tiles are locals) are checked
     * against the stacks they would run on; STACK_MARGIN is left for the launcher's own
     * frames and the runtime's calls. */
    FRAME_CHECK_BYTES = 64 * 1024,
    WORKER_STACK_BYTES = 8 * 1024 * 1024,
    STACK_MARGIN = 64 * 1024,
    DEFAULT_MAX_MAP_COUNT = 65530,  /* Linux's vm.max_map_count, when it cannot be read */
};

/* The jit layer caps a launch's threads at 2^62 too; below it, the block counter can pass
 * nblocks by a chunk per thread without overflowing. */
#define MAX_NBLOCKS (INT64_C(1) << 62)

typedef struct worker worker;

/* One lane of a cooperative block: its fiber and its links in the ring of the block's
 * unfinished lanes, which is kept in ascending lane order. Following 'next' from the last
 * lane wraps to the first, and that wrap is where a barrier phase ends. */
typedef struct lane {
    tji_fiber fiber;
    worker *worker;
    int32_t id;
    int32_t next;
    int32_t prev;
} lane;

struct worker {
    _Alignas(CACHE_LINE) tji_cpu_worker pub;  /* first: all that generated code sees */
    tji_cpu_pool *pool;
    pthread_t thread;
    void *arena_mem;
    size_t arena_cap;
    const tji_cpu_launch *launch;
    /* cooperative mode */
    tji_fiber home;            /* the thread's own context while its lanes run */
    lane **lanes;              /* MAX_BLOCK_DIM slots; lanes are made when first needed */
    int32_t nlanes;
    int32_t cur;               /* the running lane */
    int32_t nactive;           /* lanes of the block that have not returned */
    int64_t block;
};

struct tji_cpu_pool {
    int nthreads;              /* the caller included */
    int nstarted;              /* background threads started */
    size_t stack_bytes;        /* per fiber */
    size_t thread_stack_bytes; /* per background worker */
    int64_t lane_budget;       /* lanes all workers together keep at most (coop_workers) */
    worker *workers;           /* [0] belongs to the calling thread */
    pthread_mutex_t mu;
    pthread_cond_t wake;       /* 'generation' moved: a run or the end */
    pthread_cond_t done;       /* the last worker left the run */
    int nsleeping;             /* workers waiting on 'wake' (under mu) */
    tj_status status;          /* a worker's failure in this run (under mu) */
    char errmsg[TJI_ERRMSG_BYTES];
    tji_fp_controls fp;        /* the caller's at the current run: every block runs with them */
    /* the current run; the caller writes these before moving 'generation' */
    const tji_cpu_launch *launch;
    int64_t chunk;
    int nworkers;              /* the first ones take blocks, the others wait for the next */
    atomic_bool quit;
    atomic_bool failed;
    atomic_bool busy;          /* a tji_cpu_run is in progress */
    unsigned forks;            /* the process's fork count this pool is up to (adopt) */
    bool orphan;               /* in a child of fork(): no worker threads */
    bool forked_mid_launch;    /* ... forked while the pool ran a launch */
    _Alignas(CACHE_LINE) _Atomic uint64_t generation;
    _Alignas(CACHE_LINE) _Atomic int64_t next_block;
    _Alignas(CACHE_LINE) atomic_int nrunning;
};

static tj_status fail(char *msg, size_t msglen, tj_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static tj_status
fail(char *msg, size_t msglen, tj_status st, const char *fmt, ...)
{
    if (!msg || msglen == 0)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
    return st;
}

static const char *
errno_text(int e)
{
    switch (e) {
    case ENOMEM: return "out of memory (ENOMEM)";
    case EAGAIN: return "resource limit reached (EAGAIN)";
    case EINVAL: return "invalid argument (EINVAL)";
    case EPERM: return "not permitted (EPERM)";
    default: return "unexpected errno";
    }
}

static void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#else
    atomic_signal_fence(memory_order_seq_cst);
#endif
}

static size_t
round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* ---- cooperative lanes ------------------------------------------------------------------ */

static void
noop_barrier(tji_cpu_worker *w)
{
    (void)w;
}

/* A lane arrives at the barrier: run the next unfinished lane. Returning to the first lane
 * (the ring wraps) starts the next phase; a lane alone in its block just continues. */
static void
coop_barrier(tji_cpu_worker *w)
{
    worker *k = (worker *)w;
    lane *ln = k->lanes[k->cur];
    if (ln->next == ln->id)
        return;
    k->cur = ln->next;
    tji_fiber_switch(&ln->fiber, &k->lanes[ln->next]->fiber);
}

/* The lane returned: it leaves the ring, and so every later barrier. The last one hands
 * the thread back to the worker. The fiber stays parked here until the next block. */
static void
finish_lane(worker *k, lane *ln)
{
    lane **lanes = k->lanes;
    lanes[ln->prev]->next = ln->next;
    lanes[ln->next]->prev = ln->prev;
    if (--k->nactive == 0) {
        tji_fiber_switch(&ln->fiber, &k->home);
        return;
    }
    k->cur = ln->next;
    tji_fiber_switch(&ln->fiber, &lanes[ln->next]->fiber);
}

static void
lane_main(void *arg)
{
    lane *ln = arg;
    worker *k = ln->worker;
    for (;;) {
        const tji_cpu_launch *l = k->launch;
        tji_fp_controls_load(&k->pool->fp);
        l->entry(&k->pub, l->args, k->block, k->block + 1, ln->id);
        finish_lane(k, ln);
    }
}

static void
run_coop_block(worker *k, int64_t block)
{
    int32_t n = k->launch->block_dim;
    for (int32_t i = 0; i < n; i++) {
        k->lanes[i]->next = i + 1 == n ? 0 : i + 1;
        k->lanes[i]->prev = i == 0 ? n - 1 : i - 1;
    }
    k->block = block;
    k->nactive = n;
    k->cur = 0;
    tji_fiber_switch(&k->home, &k->lanes[0]->fiber);
}

static void
run_chunk(worker *k, const tji_cpu_launch *l, int64_t b0, int64_t b1)
{
    if (!l->cooperative) {
        l->entry(&k->pub, l->args, b0, b1, 0);
        return;
    }
    for (int64_t b = b0; b < b1; b++) {
        if (l->block_dim == 1)
            l->entry(&k->pub, l->args, b, b + 1, 0);
        else
            run_coop_block(k, b);
    }
}

/* ---- per-worker resources --------------------------------------------------------------- */

static tj_status
ensure_arena(worker *k, size_t bytes, char *msg, size_t msglen)
{
    if (bytes > SIZE_MAX - CACHE_LINE)
        return fail(msg, msglen, TJ_ERR_NOMEM, "tji_cpu_run: an arena of %zu bytes is too large",
                    bytes);
    size_t need = round_up(bytes == 0 ? 1 : bytes, CACHE_LINE);
    if (k->arena_mem && k->arena_cap >= need) {
        k->pub.arena = k->arena_mem;
        return TJ_OK;
    }
    void *mem = aligned_alloc(CACHE_LINE, need);
    if (!mem)
        return fail(msg, msglen, TJ_ERR_NOMEM,
                    "tji_cpu_run: cannot allocate a worker arena of %zu bytes", bytes);
    free(k->arena_mem);
    k->arena_mem = mem;
    k->arena_cap = need;
    k->pub.arena = mem;
    return TJ_OK;
}

static tj_status
add_lane(worker *k, char *msg, size_t msglen)
{
    lane *ln = aligned_alloc(CACHE_LINE, round_up(sizeof *ln, CACHE_LINE));
    if (!ln)
        return fail(msg, msglen, TJ_ERR_NOMEM, "tji_cpu_run: cannot allocate lane %d",
                    (int)k->nlanes);
    *ln = (lane){.worker = k, .id = k->nlanes};
    size_t colour = (size_t)(k->nlanes % STACK_COLOURS) * CACHE_LINE;
    int e = tji_fiber_create(&ln->fiber, k->pool->stack_bytes, colour, lane_main, ln);
    if (e != 0) {
        free(ln);
        return fail(msg, msglen, TJ_ERR_NOMEM,
                    "tji_cpu_run: cannot map a %zu-byte fiber stack for lane %d: %s; each "
                    "lane's stack takes address space and %d of the mappings that "
                    "vm.max_map_count allows", k->pool->stack_bytes, (int)k->nlanes,
                    errno_text(e), MAPS_PER_LANE);
    }
    k->lanes[k->nlanes++] = ln;
    return TJ_OK;
}

/* Frees the lanes from 'keep' on. */
static void
drop_lanes(worker *k, int32_t keep)
{
    while (k->nlanes > keep) {
        lane *ln = k->lanes[--k->nlanes];
        tji_fiber_destroy(&ln->fiber);
        free(ln);
    }
}

static tj_status
ensure_lanes(worker *k, int32_t n, char *msg, size_t msglen)
{
    if (!k->lanes && !(k->lanes = calloc(MAX_BLOCK_DIM, sizeof *k->lanes)))
        return fail(msg, msglen, TJ_ERR_NOMEM, "tji_cpu_run: cannot allocate the lane table");
    int32_t had = k->nlanes;
    while (k->nlanes < n) {
        tj_status st = add_lane(k, msg, msglen);
        if (st != TJ_OK) {
            /* The lanes made for this launch would keep the mappings and address space
             * that ran out, which malloc and threads need as well. */
            drop_lanes(k, had);
            return st;
        }
    }
    return TJ_OK;
}

/* Makes 'k' ready to run blocks of 'l': its arena, its fibers, the fields entry reads. */
static tj_status
prepare_worker(worker *k, const tji_cpu_launch *l, char *msg, size_t msglen)
{
    bool coop = l->cooperative && l->block_dim > 1;
    tj_status st = ensure_arena(k, l->arena_bytes, msg, msglen);
    if (st == TJ_OK && coop)
        st = ensure_lanes(k, l->block_dim, msg, msglen);
    if (st != TJ_OK)
        return st;
    k->launch = l;
    k->pub.err = l->err;
    k->pub.barrier = coop ? coop_barrier : noop_barrier;
    return TJ_OK;
}

static void
free_worker(worker *k)
{
    drop_lanes(k, 0);
    free(k->lanes);
    free(k->arena_mem);
}

/* ---- running a launch ------------------------------------------------------------------- */

/* Records a worker's failure; the first one is the run's result. Others stop taking work. */
static bool
prepare_or_fail(tji_cpu_pool *p, worker *k, const tji_cpu_launch *l)
{
    char msg[TJI_ERRMSG_BYTES];
    tj_status st = prepare_worker(k, l, msg, sizeof msg);
    if (st == TJ_OK)
        return true;
    pthread_mutex_lock(&p->mu);
    if (p->status == TJ_OK) {
        p->status = st;
        snprintf(p->errmsg, sizeof p->errmsg, "%s", msg);
    }
    pthread_mutex_unlock(&p->mu);
    atomic_store_explicit(&p->failed, true, memory_order_relaxed);
    return false;
}

static void
run_share(tji_cpu_pool *p, worker *k)
{
    const tji_cpu_launch *l = p->launch;
    int64_t chunk = p->chunk;
    bool ready = false;
    if (k - p->workers >= p->nworkers) /* not one of this run's (coop_workers) */
        return;
    while (!atomic_load_explicit(&p->failed, memory_order_relaxed)) {
        int64_t b0 = atomic_fetch_add_explicit(&p->next_block, chunk, memory_order_relaxed);
        if (b0 >= l->nblocks)
            return;
        if (!ready && !(ready = prepare_or_fail(p, k, l)))
            return;
        run_chunk(k, l, b0, chunk < l->nblocks - b0 ? b0 + chunk : l->nblocks);
    }
}

static uint64_t
await_generation(tji_cpu_pool *p, uint64_t seen)
{
    uint64_t g;
    for (int i = 0; i < SPIN_ROUNDS; i++) {
        if ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) != seen)
            return g;
        cpu_relax();
    }
    pthread_mutex_lock(&p->mu);
    while ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) == seen) {
        p->nsleeping++;
        pthread_cond_wait(&p->wake, &p->mu);
        p->nsleeping--;
    }
    pthread_mutex_unlock(&p->mu);
    return g;
}

/* The caller waits under 'mu' for nrunning == 0, so the last worker signals under it too. */
static void
leave_run(tji_cpu_pool *p)
{
    if (atomic_fetch_sub_explicit(&p->nrunning, 1, memory_order_acq_rel) != 1)
        return;
    pthread_mutex_lock(&p->mu);
    pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->mu);
}

static void
await_workers(tji_cpu_pool *p)
{
    for (int i = 0; i < SPIN_ROUNDS; i++) {
        if (atomic_load_explicit(&p->nrunning, memory_order_acquire) == 0)
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&p->mu);
    while (atomic_load_explicit(&p->nrunning, memory_order_acquire) != 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* Every background thread takes part in every run (each leaves it exactly once), so the
 * generations a thread sees are consecutive. */
static void *
worker_main(void *arg)
{
    worker *k = arg;
    tji_cpu_pool *p = k->pool;
    uint64_t seen = 0;
    for (;;) {
        seen = await_generation(p, seen);
        if (atomic_load_explicit(&p->quit, memory_order_relaxed))
            return NULL;
        tji_fp_controls_load(&p->fp);
        run_share(p, k);
        leave_run(p);
    }
}

static void
run_parallel(tji_cpu_pool *p, const tji_cpu_launch *l)
{
    int64_t chunk = l->nblocks / ((int64_t)p->nthreads * CHUNKS_PER_THREAD);
    p->launch = l;
    p->chunk = l->cooperative || chunk < 1 ? 1 : chunk;
    p->status = TJ_OK;
    atomic_store_explicit(&p->next_block, 0, memory_order_relaxed);
    atomic_store_explicit(&p->failed, false, memory_order_relaxed);
    atomic_store_explicit(&p->nrunning, p->nthreads - 1, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    if (p->nsleeping > 0)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    run_share(p, &p->workers[0]);
    await_workers(p);
}

/* The workers that run a cooperative launch: the first ones. Each lane keeps its stack, 2
 * mappings, for the pool's lifetime, and vm.max_map_count bounds all the process's mappings,
 * malloc's and the threads' stacks included (1024 lanes on each of 32 workers would take
 * all of the default 65530). As many take part as keeps the lanes of all workers, with those
 * that the launch makes, within a quarter of it; the caller always does. */
static int
coop_workers(const tji_cpu_pool *p, int32_t block_dim)
{
    int64_t lanes = 0;
    for (int i = 0; i < p->nthreads; i++)
        lanes += p->workers[i].nlanes;
    int n = 0;
    for (; n < p->nthreads; n++) {
        int32_t have = p->workers[n].nlanes;
        lanes += have < block_dim ? block_dim - have : 0;
        if (n > 0 && lanes > p->lane_budget)
            break;
    }
    return n;
}

/* Small launches cost less on the caller alone than waking the pool. A block whose entry
 * runs its lanes itself (lane loops) is worth that many one-lane blocks: 8 blocks of 256
 * lanes each running a loop of 512 scatter-adds ran on the caller alone. */
static bool
runs_inline(const tji_cpu_pool *p, const tji_cpu_launch *l)
{
    if (p->nworkers == 1 || l->nblocks <= 1)
        return true;
    int64_t lanes = l->block_lanes > 1 ? l->block_lanes : 1;
    return !l->cooperative && l->nblocks <= INLINE_BLOCKS / lanes;
}

static tj_status
check_launch(const tji_cpu_pool *p, const tji_cpu_launch *l, char *msg, size_t msglen)
{
    if (!p || !l)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_run: the %s is NULL",
                    p ? "launch" : "pool");
    if (!l->entry)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_run: the entry function is NULL");
    if (!l->err)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_run: the error record is NULL");
    if (l->nblocks < 0)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_run: nblocks %" PRId64
                    " is negative", l->nblocks);
    if (l->nblocks > MAX_NBLOCKS)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_run: nblocks %" PRId64
                    " is above the limit of 2^62", l->nblocks);
    if (l->block_dim < 1 || l->block_dim > MAX_BLOCK_DIM)
        return fail(msg, msglen, TJ_ERR_INVALID,
                    "tji_cpu_run: block_dim %d is out of range 1..%d", (int)l->block_dim,
                    MAX_BLOCK_DIM);
    if (!l->cooperative && l->block_dim != 1)
        return fail(msg, msglen, TJ_ERR_INVALID,
                    "tji_cpu_run: block_dim %d needs cooperative mode (width-1 mode runs "
                    "one lane per block)", (int)l->block_dim);
    return TJ_OK;
}

/* The lowest address the main thread's stack may grow to, from its top and RLIMIT_STACK, or
 * NULL when the limit is infinite. glibc bounds the main thread's stack by the limit and by
 * the mapping below it, read from /proc/self/maps; under valgrind, in a child of fork(),
 * that mapping is valgrind's reservation right below the part of the stack touched so far,
 * so glibc's bound is that part (a few hundred KiB) while the stack still grows to the
 * limit. The kernel keeps mmap's own placements below the limit's reach. */
static char *
main_stack_floor(char *top)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_STACK, &r) != 0 || r.rlim_cur == RLIM_INFINITY ||
        r.rlim_cur >= (rlim_t)(uintptr_t)top)
        return NULL;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t floor = (uintptr_t)top - (uintptr_t)r.rlim_cur;
    return (char *)((floor + (uintptr_t)page - 1) & ~((uintptr_t)page - 1)) + page;
}

/* The stack left to the calling thread below this frame, or SIZE_MAX when unknown. A
 * thread's stack bounds are read once (on the main thread glibc reads /proc/self/maps for
 * them: 70 us). */
static size_t
caller_stack_left(void)
{
    static _Thread_local char *base, *top;
    static _Thread_local bool known;
    if (!known) {
        pthread_attr_t a;
        void *b = NULL;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &a) == 0) {
            if (pthread_attr_getstack(&a, &b, &size) == 0 && b) {
                base = b;
                top = (char *)b + size;
            }
            pthread_attr_destroy(&a);
        }
        if (base && gettid() == getpid()) {
            char *floor = main_stack_floor(top);
            if (floor && floor < base)
                base = floor;
        }
        known = true;
    }
    char *here = __builtin_frame_address(0);
    if (!base || here < base || here > top)
        return SIZE_MAX;
    return (size_t)(here - base);
}

/* A block's code keeps its register tiles on the stack it runs on: the thread's (width-1
 * blocks and lane loops; the caller's and the workers') or each lane's fiber. A launch
 * whose blocks would not fit fails here instead of faulting on a guard page. */
static tj_status
check_stack(const tji_cpu_pool *p, const tji_cpu_launch *l, char *msg, size_t msglen)
{
    if (l->frame_bytes <= FRAME_CHECK_BYTES)
        return TJ_OK;
    size_t need = l->frame_bytes + STACK_MARGIN;
    if (l->cooperative && l->block_dim > 1) {
        if (need > p->stack_bytes)
            return fail(msg, msglen, TJ_ERR_LIMIT,
                        "a lane of this kernel takes about %zu KiB of stack (its register "
                        "tiles and locals) and a lane's fiber has %zu KiB "
                        "(TILEJIT_FIBER_STACK_KB); give its large tiles storage=\"shared\"",
                        l->frame_bytes / 1024, p->stack_bytes / 1024);
        return TJ_OK;
    }
    size_t left = caller_stack_left();
    const char *whose = "the calling thread has";
    if (p->nthreads > 1 && !p->orphan && p->thread_stack_bytes < left) {
        left = p->thread_stack_bytes;
        whose = "each worker thread has";
    }
    if (need > left)
        return fail(msg, msglen, TJ_ERR_LIMIT,
                    "a block of this kernel takes about %zu KiB of stack (its register tiles "
                    "and locals) and %s %zu KiB; give its large tiles storage=\"shared\"",
                    l->frame_bytes / 1024, whose, left / 1024);
    return TJ_OK;
}

static tj_status
run_launch(tji_cpu_pool *pool, const tji_cpu_launch *l, char *msg, size_t msglen)
{
    bool coop = l->cooperative && l->block_dim > 1;
    pool->nworkers = pool->orphan ? 1 : coop ? coop_workers(pool, l->block_dim) : pool->nthreads;
    if (runs_inline(pool, l)) {
        worker *k = &pool->workers[0];
        tj_status st = prepare_worker(k, l, msg, msglen);
        if (st == TJ_OK)
            run_chunk(k, l, 0, l->nblocks);
        return st;
    }
    run_parallel(pool, l);
    if (pool->status != TJ_OK)
        fail(msg, msglen, pool->status, "%s", pool->errmsg);
    return pool->status;
}

/* ---- fork() ----------------------------------------------------------------------------- */

static atomic_uint forks;      /* fork() calls this process came out of as the child */

static void
count_fork(void)
{
    atomic_fetch_add_explicit(&forks, 1, memory_order_relaxed);
}

static void
register_fork_handler(void)
{
    pthread_atfork(NULL, NULL, count_fork);
}

/* A child of fork() has its parent's pools in memory but only the thread that forked: none
 * of the worker threads. So in a child a pool runs launches on the calling thread alone,
 * and its destruction joins no thread and leaves the mutex and conditions alone (a worker
 * may have held the mutex at the fork). When the fork came while the pool ran a launch,
 * the pool's lanes are parked in the middle of that launch's kernel: it runs nothing more. */
static void
adopt_after_fork(tji_cpu_pool *p)
{
    unsigned now = atomic_load_explicit(&forks, memory_order_relaxed);
    if (p->forks == now)
        return;
    p->forks = now;
    p->orphan = true;
    p->nstarted = 0;
    p->forked_mid_launch = atomic_load_explicit(&p->busy, memory_order_relaxed);
}

tj_status
tji_cpu_run(tji_cpu_pool *pool, const tji_cpu_launch *l, char *msg, size_t msglen)
{
    tj_status st = check_launch(pool, l, msg, msglen);
    if (st != TJ_OK)
        return st;
    adopt_after_fork(pool);
    if (pool->forked_mid_launch)
        return fail(msg, msglen, TJ_ERR_STATE,
                    "tji_cpu_run: the process forked while this pool ran a launch; a child "
                    "process must make its own context");
    /* A second run, from an entry of this one or from another thread, would take over the
     * workers, their lanes and the run's state in mid-launch (a deadlock, at best). */
    if (atomic_exchange_explicit(&pool->busy, true, memory_order_acquire))
        return fail(msg, msglen, TJ_ERR_INVALID,
                    "tji_cpu_run: the pool is already running a launch");
    if (l->nblocks > 0 && (st = check_stack(pool, l, msg, msglen)) == TJ_OK) {
        tji_fp_controls_save(&pool->fp);
        st = run_launch(pool, l, msg, msglen);
    }
    atomic_store_explicit(&pool->busy, false, memory_order_release);
    return st;
}

/* ---- the pool --------------------------------------------------------------------------- */

static size_t
fiber_stack_bytes(void)
{
    const char *s = getenv("TILEJIT_FIBER_STACK_KB");
    long kb = DEFAULT_STACK_KB;
    if (s && *s) {
        char *end = NULL;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v > 0)
            kb = v < MIN_STACK_KB ? MIN_STACK_KB : v > MAX_STACK_KB ? MAX_STACK_KB : v;
    }
    return (size_t)kb * 1024;
}

static int64_t
lane_budget(int64_t max_map_count)
{
    return max_map_count / 4 / MAPS_PER_LANE;
}

static int64_t
max_map_count(void)
{
    FILE *f = fopen("/proc/sys/vm/max_map_count", "re");
    long long n = 0;
    if (f) {
        if (fscanf(f, "%lld", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n > 0 ? (int64_t)n : DEFAULT_MAX_MAP_COUNT;
}

static int
online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

static bool
init_sync(tji_cpu_pool *p)
{
    if (pthread_mutex_init(&p->mu, NULL) != 0)
        return false;
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        return false;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mu);
        return false;
    }
    return true;
}

static tji_cpu_pool *
new_pool(int nthreads)
{
    tji_cpu_pool *p = aligned_alloc(CACHE_LINE, round_up(sizeof *p, CACHE_LINE));
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->forks = atomic_load_explicit(&forks, memory_order_relaxed);
    p->nthreads = nthreads;
    p->stack_bytes = fiber_stack_bytes();
    p->lane_budget = lane_budget(max_map_count());
    size_t bytes = sizeof *p->workers * (size_t)nthreads;
    p->workers = aligned_alloc(CACHE_LINE, bytes);
    if (!p->workers || !init_sync(p)) {
        free(p->workers);
        free(p);
        return NULL;
    }
    memset(p->workers, 0, bytes);
    for (int i = 0; i < nthreads; i++)
        p->workers[i].pool = p;
    return p;
}

static void
stop_threads(tji_cpu_pool *p)
{
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->quit, true, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i <= p->nstarted; i++)
        pthread_join(p->workers[i].thread, NULL);
    p->nstarted = 0;
}

/* In a child of fork(), the pool runs on the calling thread alone (adopt_after_fork). */
tj_status
tji_cpu_pool_create(int nthreads, tji_cpu_pool **out, char *msg, size_t msglen)
{
    if (!out)
        return fail(msg, msglen, TJ_ERR_INVALID, "tji_cpu_pool_create: 'out' is NULL");
    *out = NULL;
    if (nthreads < 0 || nthreads > MAX_THREADS)
        return fail(msg, msglen, TJ_ERR_INVALID,
                    "tji_cpu_pool_create: nthreads %d is out of range 0..%d", nthreads,
                    MAX_THREADS);
    int n = nthreads == 0 ? online_cores() : nthreads;
    static pthread_once_t fork_handler = PTHREAD_ONCE_INIT;
    pthread_once(&fork_handler, register_fork_handler);
    tji_cpu_pool *p = new_pool(n);
    if (!p)
        return fail(msg, msglen, TJ_ERR_NOMEM,
                    "tji_cpu_pool_create: cannot allocate a pool of %d threads", n);
    /* Workers get at least WORKER_STACK_BYTES, whatever the process's default (the
     * register tiles of a width-1 block are on the stack; check_stack). */
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        tji_cpu_pool_destroy(p);
        return fail(msg, msglen, TJ_ERR_NOMEM, "tji_cpu_pool_create: pthread_attr_init failed");
    }
    size_t deflt = 0;
    if (pthread_attr_getstacksize(&attr, &deflt) != 0)
        deflt = 0;
    size_t stack = deflt < WORKER_STACK_BYTES ? WORKER_STACK_BYTES : deflt;
    p->thread_stack_bytes = pthread_attr_setstacksize(&attr, stack) == 0 ? stack : deflt;
    for (int i = 1; i < p->nthreads; i++) {
        int e = pthread_create(&p->workers[i].thread, &attr, worker_main, &p->workers[i]);
        if (e != 0) {
            pthread_attr_destroy(&attr);
            tji_cpu_pool_destroy(p);
            return fail(msg, msglen, TJ_ERR_NOMEM,
                        "tji_cpu_pool_create: cannot start worker thread %d: %s", i,
                        errno_text(e));
        }
        p->nstarted = i;
    }
    pthread_attr_destroy(&attr);
    *out = p;
    return TJ_OK;
}

void
tji_cpu_pool_destroy(tji_cpu_pool *pool)
{
    if (!pool)
        return;
    adopt_after_fork(pool);
    if (!pool->orphan)
        stop_threads(pool);
    for (int i = 0; i < pool->nthreads; i++)
        free_worker(&pool->workers[i]);
    free(pool->workers);
    if (!pool->orphan) {
        pthread_cond_destroy(&pool->done);
        pthread_cond_destroy(&pool->wake);
        pthread_mutex_destroy(&pool->mu);
    }
    free(pool);
}

int
tji_cpu_pool_threads(const tji_cpu_pool *pool)
{
    return pool ? pool->nthreads : 0;
}

void
tji_cpu_pool_set_max_map_count(tji_cpu_pool *pool, int64_t count)
{
    pool->lane_budget = lane_budget(count);
}
