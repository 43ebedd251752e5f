/* tj-test: INTERNAL */
/*
 * tests/check_cpu_launch.c: the CPU launcher (driver/cpu_launch.c) driven by hand-written
 * entry functions: every block runs once in width-1 mode, the cooperative schedule (lane
 * order, barriers, early returns, isolated blocks), pools side by side, arenas, errors.
 * Entries never call Check: they count contract violations that the test then asserts.
 */
#include <check.h>
#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "fiber.h"
#include "tj_test.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#define UNDER_ASAN TJI_FIBER_ASAN /* fiber.h's detection */
/* Sanitizers abort on absurd allocations and map shadow memory of their own. */
#define UNDER_SANITIZER (TJI_FIBER_ASAN || TJI_FIBER_TSAN)
#if UNDER_ASAN
#include <sanitizer/asan_interface.h>
#endif

enum { TIMEOUT_S = 120 };

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- helpers ---------------------------------------------------------------------------- */

static tji_cpu_pool *
make_pool(int nthreads)
{
    tji_cpu_pool *p = NULL;
    char msg[TJI_ERRMSG_BYTES] = "";
    tj_status st = tji_cpu_pool_create(nthreads, &p, msg, sizeof msg);
    ck_assert_msg(st == TJ_OK, "tji_cpu_pool_create(%d): %d: %s", nthreads, (int)st, msg);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void
run_ok(tji_cpu_pool *p, const tji_cpu_launch *l)
{
    char msg[TJI_ERRMSG_BYTES] = "";
    tj_status st = tji_cpu_run(p, l, msg, sizeof msg);
    ck_assert_msg(st == TJ_OK, "tji_cpu_run: %d: %s", (int)st, msg);
}

static void *
xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool
is_aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

/* With detect_stack_use_after_return, AddressSanitizer moves locals whose address is taken
 * to a fake stack of its own: their addresses then say nothing about the fiber's stack. */
static bool
locals_on_fake_stack(void)
{
#if UNDER_ASAN
    return __asan_get_current_fake_stack() != NULL;
#else
    return false;
#endif
}

/* ---- width-1 mode: every block once ----------------------------------------------------- */

typedef struct count_args {
    atomic_int *counts;        /* per block */
    atomic_int *bad;           /* contract violations seen by the entry */
    int64_t nblocks;
    tji_error_record *err;
} count_args;

static void
count_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const count_args *a = args;
    if (lane != 0 || w->err != a->err || !is_aligned16(w->arena) || b0 < 0 || b0 >= b1 ||
        b1 > a->nblocks)
        atomic_fetch_add(a->bad, 1);
    w->barrier(w); /* width-1 mode: a no-op */
    for (int64_t b = b0; b < b1 && b < a->nblocks && b >= 0; b++)
        atomic_fetch_add(&a->counts[b], 1);
}

static const struct {
    int64_t nblocks;
    int nthreads;
} width1_rows[] = {
    {0, 1},    {0, 2},     {1, 1},      {1, 2},       {1, 0},  {2, 2},
    {8, 2},    {9, 2},     {9, 1},      {3, 0},       {33, 4}, {64, 0},
    {100, 1},  {1000, 2},  {1000, 0},   {4097, 3},    {100000, 2}, {100000, 0},
};

START_TEST(test_width1_runs_every_block_once)
{
    int64_t n = width1_rows[_i].nblocks;
    tji_cpu_pool *p = make_pool(width1_rows[_i].nthreads);
    tji_error_record err = {0};
    atomic_int bad = 0;
    count_args a = {.counts = xcalloc((size_t)n + 1, sizeof(atomic_int)), .bad = &bad,
                    .nblocks = n, .err = &err};
    tji_cpu_launch l = {.entry = count_entry, .args = &a, .nblocks = n, .block_dim = 1,
                        .arena_bytes = 64, .err = &err};
    for (int run = 1; run <= 3; run++) {
        run_ok(p, &l);
        for (int64_t b = 0; b < n; b++)
            ck_assert_msg(a.counts[b] == run, "block %lld ran %d times after %d runs",
                          (long long)b, (int)a.counts[b], run);
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(err.flag, 0);
    free(a.counts);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- cooperative mode: lane order between barriers -------------------------------------- */

enum { TRACE_PHASES = 3 };

/* The arena holds a count and the trace of lane ids, in the order the lanes ran. */
typedef struct trace_args {
    int32_t *out;              /* per block: the trace */
    int32_t block_dim;
    atomic_int *bad;
} trace_args;

static void
trace_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const trace_args *a = args;
    int32_t *arena = w->arena;
    if (b1 != b0 + 1 || lane < 0 || lane >= a->block_dim)
        atomic_fetch_add(a->bad, 1);
    if (lane == 0)
        arena[0] = 0;
    for (int p = 0; p < TRACE_PHASES; p++) {
        arena[1 + arena[0]++] = lane;
        w->barrier(w);
    }
    size_t ntrace = (size_t)TRACE_PHASES * (size_t)a->block_dim;
    if (lane == 0) /* first after the last barrier: every lane has recorded everything */
        memcpy(&a->out[(size_t)b0 * ntrace], &arena[1], ntrace * sizeof *arena);
}

static const int32_t coop_dims[] = {1, 2, 31, 32, 33, 64, 256, 1024};

START_TEST(test_coop_lanes_run_in_ascending_order_between_barriers)
{
    int32_t bd = coop_dims[_i];
    int64_t nblocks = 5;
    size_t ntrace = (size_t)TRACE_PHASES * (size_t)bd;
    tji_cpu_pool *p = make_pool(2);
    tji_error_record err = {0};
    atomic_int bad = 0;
    trace_args a = {.out = xcalloc((size_t)nblocks * ntrace, sizeof(int32_t)),
                    .block_dim = bd, .bad = &bad};
    tji_cpu_launch l = {.entry = trace_entry, .args = &a, .nblocks = nblocks, .block_dim = bd,
                        .cooperative = true, .arena_bytes = (ntrace + 1) * sizeof(int32_t),
                        .err = &err};
    run_ok(p, &l);
    for (int64_t b = 0; b < nblocks; b++)
        for (size_t i = 0; i < ntrace; i++)
            ck_assert_msg(a.out[(size_t)b * ntrace + i] == (int32_t)(i % (size_t)bd),
                          "block %lld, trace entry %zu: lane %d, expected %d", (long long)b, i,
                          (int)a.out[(size_t)b * ntrace + i], (int)(i % (size_t)bd));
    ck_assert_int_eq(bad, 0);
    free(a.out);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- cooperative mode: barriers separate phases ------------------------------------------ */

/* Each round every lane writes its slot, waits, reads its right neighbour's slot, and waits
 * again before anyone overwrites a slot. The values name the block and the round. */
typedef struct exchange_args {
    int64_t *out;              /* per block and lane: the last value read */
    int32_t block_dim;
    int rounds;
    atomic_int *bad;
} exchange_args;

static int64_t
exchange_value(int64_t block, int round, int32_t lane)
{
    return block * 1000000007LL + (int64_t)round * 4099 + lane + 1;
}

static void
exchange_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const exchange_args *a = args;
    int64_t *slot = w->arena;
    int32_t right = (lane + 1) % a->block_dim;
    int64_t got = 0;
    for (int r = 0; r < a->rounds; r++) {
        slot[lane] = exchange_value(b0, r, lane);
        w->barrier(w);
        got = slot[right];
        if (got != exchange_value(b0, r, right))
            atomic_fetch_add(a->bad, 1);
        w->barrier(w);
    }
    a->out[b0 * a->block_dim + lane] = got;
}

static void
check_exchange(int32_t bd, int rounds, int64_t nblocks, int nthreads)
{
    tji_cpu_pool *p = make_pool(nthreads);
    tji_error_record err = {0};
    atomic_int bad = 0;
    exchange_args a = {.out = xcalloc((size_t)(nblocks * bd), sizeof(int64_t)),
                       .block_dim = bd, .rounds = rounds, .bad = &bad};
    tji_cpu_launch l = {.entry = exchange_entry, .args = &a, .nblocks = nblocks,
                        .block_dim = bd, .cooperative = true,
                        .arena_bytes = (size_t)bd * sizeof(int64_t), .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(bad, 0);
    for (int64_t b = 0; b < nblocks; b++)
        for (int32_t ln = 0; ln < bd; ln++)
            ck_assert_msg(a.out[b * bd + ln] == exchange_value(b, rounds - 1, (ln + 1) % bd),
                          "block %lld lane %d read %lld", (long long)b, (int)ln,
                          (long long)a.out[b * bd + ln]);
    free(a.out);
    tji_cpu_pool_destroy(p);
}

START_TEST(test_coop_barrier_separates_write_and_read_phases)
{
    check_exchange(coop_dims[_i], 1, 7, 2);
}
END_TEST

START_TEST(test_coop_barriers_in_a_loop_keep_phases_apart)
{
    check_exchange(coop_dims[_i], 40, 3, 2);
}
END_TEST

/* Many blocks reuse each worker's arena: stale data from another block would show. */
START_TEST(test_coop_blocks_do_not_see_each_others_arena_writes)
{
    check_exchange(33, 3, 500, 3);
}
END_TEST

START_TEST(test_coop_many_blocks_on_many_threads_give_exact_results)
{
    check_exchange(32, 2, 3000, 0);
    check_exchange(64, 2, 1000, 4);
}
END_TEST

/* ---- cooperative mode: lanes that return early ------------------------------------------- */

enum { EARLY_PHASES = 4 };

/* Lane L records its id in each phase; lanes >= k return right after recording in phase
 * 'exit_phase' (before its barrier), the others go through every barrier. */
typedef struct early_args {
    int32_t *out;              /* per block: the trace */
    int32_t block_dim;
    int32_t k;
    int exit_phase;
    int32_t ntrace;
} early_args;

static int32_t
early_trace_length(int32_t bd, int32_t k, int exit_phase)
{
    return (exit_phase + 1) * bd + (EARLY_PHASES - exit_phase - 1) * k;
}

static void
early_record(int32_t *arena, const early_args *a, int64_t b, int32_t lane)
{
    arena[1 + arena[0]++] = lane;
    if (arena[0] == a->ntrace)
        memcpy(&a->out[b * a->ntrace], &arena[1], (size_t)a->ntrace * sizeof *arena);
}

static void
early_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const early_args *a = args;
    int32_t *arena = w->arena;
    if (lane == 0)
        arena[0] = 0;
    for (int p = 0; p < EARLY_PHASES; p++) {
        early_record(arena, a, b0, lane);
        if (p == a->exit_phase && lane >= a->k)
            return;
        if (p + 1 < EARLY_PHASES)
            w->barrier(w);
    }
}

static const struct {
    int32_t block_dim, k;
    int exit_phase;
} early_rows[] = {
    {2, 1, 1},     {2, 0, 1},     {2, 1, 0},    {31, 30, 1},   {32, 16, 1},  {33, 1, 1},
    {33, 5, 0},    {64, 0, 1},    {64, 63, 1},  {64, 32, 2},   {256, 100, 1}, {256, 7, 0},
    {1024, 512, 1}, {1024, 1, 1}, {1024, 1023, 0},
};

static int32_t
early_expected(int32_t bd, int32_t k, int exit_phase, int32_t i)
{
    int32_t full = (exit_phase + 1) * bd;
    return i < full ? i % bd : (i - full) % k;
}

START_TEST(test_coop_early_returning_lanes_leave_later_barriers)
{
    int32_t bd = early_rows[_i].block_dim, k = early_rows[_i].k;
    int xp = early_rows[_i].exit_phase;
    int64_t nblocks = 4;
    tji_cpu_pool *p = make_pool(2);
    tji_error_record err = {0};
    early_args a = {.block_dim = bd, .k = k, .exit_phase = xp,
                    .ntrace = early_trace_length(bd, k, xp)};
    a.out = xcalloc((size_t)(nblocks * a.ntrace), sizeof(int32_t));
    tji_cpu_launch l = {.entry = early_entry, .args = &a, .nblocks = nblocks, .block_dim = bd,
                        .cooperative = true,
                        .arena_bytes = (size_t)(a.ntrace + 1) * sizeof(int32_t), .err = &err};
    run_ok(p, &l);
    run_ok(p, &l); /* the parked lanes start over cleanly */
    for (int64_t b = 0; b < nblocks; b++)
        for (int32_t i = 0; i < a.ntrace; i++)
            ck_assert_msg(a.out[b * a.ntrace + i] == early_expected(bd, k, xp, i),
                          "block %lld, trace entry %d: lane %d, expected %d", (long long)b,
                          (int)i, (int)a.out[b * a.ntrace + i],
                          (int)early_expected(bd, k, xp, i));
    free(a.out);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- several threads and several pools at once ------------------------------------------ */

/* Lane 0 of each call waits until 'need' calls have arrived: this ends only when blocks
 * really run on several threads at the same time. */
typedef struct rendezvous_args {
    atomic_int *arrived;
    atomic_int *bad;
    int need;
} rendezvous_args;

static void
rendezvous_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const rendezvous_args *a = args;
    if (lane == 0) {
        atomic_fetch_add(a->arrived, 1);
        double give_up = now_s() + 20.0;
        while (atomic_load(a->arrived) < a->need && now_s() < give_up)
            sched_yield();
        if (atomic_load(a->arrived) < a->need)
            atomic_fetch_add(a->bad, 1);
    }
    w->barrier(w);
}

/* The last row: two width-1 blocks whose entries run 256 lanes each (lane loops) are worth
 * more than the launches that stay on the caller. */
static const struct {
    bool cooperative;
    int32_t block_dim;
    int64_t nblocks;
    int32_t block_lanes;
} rendezvous_rows[] = {{false, 1, 64, 0}, {true, 4, 2, 0}, {true, 1, 2, 0}, {false, 1, 2, 256}};

START_TEST(test_blocks_run_on_several_threads_at_once)
{
    tji_cpu_pool *p = make_pool(2);
    tji_error_record err = {0};
    atomic_int arrived = 0, bad = 0;
    rendezvous_args a = {.arrived = &arrived, .bad = &bad, .need = 2};
    tji_cpu_launch l = {.entry = rendezvous_entry, .args = &a,
                        .nblocks = rendezvous_rows[_i].nblocks,
                        .block_dim = rendezvous_rows[_i].block_dim,
                        .cooperative = rendezvous_rows[_i].cooperative,
                        .block_lanes = rendezvous_rows[_i].block_lanes, .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(bad, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

typedef struct pool_job {
    int nthreads;
    int nruns;
    int failures;              /* written by the job's thread, read after join */
} pool_job;

static int
pool_job_round(tji_cpu_pool *p, int64_t n, atomic_int *counts, int64_t *out, int run)
{
    tji_error_record err = {0};
    atomic_int bad = 0;
    count_args ca = {.counts = counts, .bad = &bad, .nblocks = n, .err = &err};
    tji_cpu_launch l1 = {.entry = count_entry, .args = &ca, .nblocks = n, .block_dim = 1,
                         .err = &err};
    exchange_args ea = {.out = out, .block_dim = 33, .rounds = 2, .bad = &bad};
    tji_cpu_launch lc = {.entry = exchange_entry, .args = &ea, .nblocks = 20, .block_dim = 33,
                         .cooperative = true, .arena_bytes = 33 * sizeof(int64_t), .err = &err};
    int failures = tji_cpu_run(p, &l1, NULL, 0) != TJ_OK;
    failures += tji_cpu_run(p, &lc, NULL, 0) != TJ_OK;
    for (int64_t b = 0; b < n; b++)
        failures += counts[b] != run;
    return failures + bad;
}

static void *
pool_job_main(void *arg)
{
    pool_job *job = arg;
    enum { N = 1000 };
    tji_cpu_pool *p = NULL;
    atomic_int *counts = calloc(N, sizeof *counts);
    int64_t *out = calloc(20 * 33, sizeof *out);
    if (!counts || !out || tji_cpu_pool_create(job->nthreads, &p, NULL, 0) != TJ_OK) {
        job->failures = 1;
    } else {
        for (int run = 1; run <= job->nruns; run++)
            job->failures += pool_job_round(p, N, counts, out, run);
    }
    tji_cpu_pool_destroy(p);
    free(counts);
    free(out);
    return NULL;
}

START_TEST(test_several_pools_run_at_once)
{
    enum { NJOBS = 3 };
    pthread_t threads[NJOBS];
    pool_job jobs[NJOBS];
    for (int i = 0; i < NJOBS; i++) {
        jobs[i] = (pool_job){.nthreads = i + 1, .nruns = 30};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, pool_job_main, &jobs[i]), 0);
    }
    for (int i = 0; i < NJOBS; i++) {
        pthread_join(threads[i], NULL);
        ck_assert_msg(jobs[i].failures == 0, "pool %d: %d failures", i, jobs[i].failures);
    }
}
END_TEST

/* ---- how many workers a cooperative launch takes ---------------------------------------- */

/* Lane 0 of each block waits for 'need' blocks to run at once, on as many workers: up to
 * 20 s for all but one, then a second for the last, once in all. With 'need' one more than
 * the workers that may run blocks, those all do, each one block until the wait ends. */
typedef struct crowd_args {
    atomic_int *arrived;
    atomic_bool *gave_up;
    int need;
    tji_cpu_worker **seen;     /* per block: the worker that ran it */
} crowd_args;

static void
crowd_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const crowd_args *a = args;
    if (lane == 0) {
        a->seen[b0] = w;
        atomic_fetch_add(a->arrived, 1);
        double until = now_s() + 20.0;
        bool last = false;
        while (atomic_load(a->arrived) < a->need && !atomic_load(a->gave_up)) {
            if (!last && atomic_load(a->arrived) >= a->need - 1) {
                last = true;
                until = now_s() + 1.0;
            }
            if (now_s() > until)
                atomic_store(a->gave_up, true);
            else
                sched_yield();
        }
    }
    w->barrier(w);
}

/* A worker of 4 takes part while the lanes of all, with those the launch makes, stay within
 * a quarter of vm.max_map_count, 2 mappings each: 1024 / 4 / 2 = 128 lanes, of which the
 * caller has 'before' from a launch of its own. */
static const struct {
    int64_t max_map_count;
    int32_t before, block_dim;
    int nworkers;
} crowd_rows[] = {
    {1024, 0, 64, 2}, {1024, 0, 32, 4}, {1024, 96, 32, 2}, {1024, 0, 128, 1}, {8, 0, 64, 1},
    {1 << 20, 0, 1024, 4},
};

START_TEST(test_coop_launches_take_as_many_workers_as_the_map_count_allows)
{
    enum { NTHREADS = 4, NBLOCKS = 12 };
    tji_cpu_pool *p = make_pool(NTHREADS);
    tji_cpu_pool_set_max_map_count(p, crowd_rows[_i].max_map_count);
    tji_error_record err = {0};
    atomic_int arrived = 0;
    atomic_bool gave_up = true;
    tji_cpu_worker *seen[NBLOCKS] = {0};
    crowd_args a = {.arrived = &arrived, .gave_up = &gave_up, .seen = seen};
    tji_cpu_launch l = {.entry = crowd_entry, .args = &a, .nblocks = 1,
                        .block_dim = crowd_rows[_i].before, .cooperative = true, .err = &err};
    if (l.block_dim > 0)
        run_ok(p, &l); /* on the caller */
    gave_up = false;
    a.need = crowd_rows[_i].nworkers + 1;
    l.nblocks = NBLOCKS;
    l.block_dim = crowd_rows[_i].block_dim;
    run_ok(p, &l);
    int distinct = 0;
    for (int i = 0; i < NBLOCKS; i++) {
        int j = 0;
        while (j < i && seen[j] != seen[i])
            j++;
        distinct += j == i;
    }
    ck_assert_int_eq(distinct, crowd_rows[_i].nworkers);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- the floating-point environment ----------------------------------------------------- */

/* 1/25 rounds differently upward and to nearest, in float (SSE) and in long double (x87). */
typedef struct quotients {
    float f;
    long double ld;
} quotients;

static __attribute__((noinline)) quotients
fp_quotients(void)
{
    volatile float f1 = 1.0f, f25 = 25.0f;
    volatile long double ld1 = 1.0L, ld25 = 25.0L;
    return (quotients){f1 / f25, ld1 / ld25};
}

/* After a rendezvous of two calls (so blocks run on two threads) and its barrier (so lanes
 * have switched), every call computes the quotients, which must be the caller's. */
typedef struct fp_args {
    rendezvous_args meet;
    quotients want;
    pthread_t caller;
    atomic_int *off_caller;    /* calls on another thread */
} fp_args;

static void
fp_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const fp_args *a = args;
    rendezvous_entry(w, &a->meet, b0, b1, lane);
    quotients got = fp_quotients();
    if (got.f != a->want.f || got.ld != a->want.ld)
        atomic_fetch_add(a->meet.bad, 1);
    if (!pthread_equal(pthread_self(), a->caller))
        atomic_fetch_add(a->off_caller, 1);
}

/* Returns the number of calls that did not compute the caller's quotients. */
static int
run_fp(tji_cpu_pool *p, bool coop, int *off_caller)
{
    tji_error_record err = {0};
    atomic_int arrived = 0, bad = 0, off = 0;
    fp_args a = {.meet = {.arrived = &arrived, .bad = &bad, .need = 2}, .want = fp_quotients(),
                 .caller = pthread_self(), .off_caller = &off};
    tji_cpu_launch l = {.entry = fp_entry, .args = &a, .nblocks = coop ? 4 : 64,
                        .block_dim = coop ? 8 : 1, .cooperative = coop, .err = &err};
    run_ok(p, &l);
    *off_caller = off;
    return bad;
}

/* Background threads keep the mode they started with and fibers the one they were made
 * with, here to nearest: after fesetround(FE_UPWARD), every block must round upward too,
 * and the caller keeps its mode. */
START_TEST(test_blocks_run_with_the_callers_rounding_mode)
{
    quotients nearest = fp_quotients();
    tji_cpu_pool *p = make_pool(2);
    int off[4], bad[4];
    bad[0] = run_fp(p, true, &off[0]); /* lanes on both threads, made rounding to nearest */
    ck_assert_int_eq(fesetround(FE_UPWARD), 0);
    quotients upward = fp_quotients();
    bad[1] = run_fp(p, false, &off[1]);
    bad[2] = run_fp(p, true, &off[2]);
    bad[3] = run_fp(p, false, &off[3]);
    int mode = fegetround();
    quotients after = fp_quotients();
    fesetround(FE_TONEAREST);
    tji_cpu_pool_destroy(p);
    if (upward.f == nearest.f || upward.ld == nearest.ld)
        return; /* rounding modes not honoured (an emulator): nothing to see */
    ck_assert_int_eq(mode, FE_UPWARD);
    ck_assert(after.f == upward.f && after.ld == upward.ld);
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(bad[i] == 0, "launch %d: %d calls rounded otherwise", i, bad[i]);
        ck_assert_msg(off[i] > 0, "launch %d ran on the caller alone", i);
    }
}
END_TEST

/* ---- what the entry receives ------------------------------------------------------------ */

typedef struct passthrough_args {
    const void *self;
    tji_error_record *err;
    atomic_int *bad;
    int64_t fail_block;
    int32_t fail_lane;
} passthrough_args;

/* Claims the error record the way generated code does (SPEC 5): CAS on 'flag', then fill. */
static void
passthrough_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const passthrough_args *a = args;
    if (args != a->self || w->err != a->err)
        atomic_fetch_add(a->bad, 1);
    for (int64_t b = b0; b < b1; b++) {
        if (b != a->fail_block || lane != a->fail_lane)
            continue;
        int32_t zero = 0;
        if (__atomic_compare_exchange_n(&w->err->flag, &zero, 1, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST)) {
            w->err->block = b;
            w->err->lane = lane;
            w->err->value = 42;
        }
    }
}

static const struct {
    bool cooperative;
    int32_t block_dim;
    int nthreads;
    int32_t fail_lane;
} passthrough_rows[] = {{false, 1, 1, 0}, {false, 1, 3, 0}, {true, 1, 2, 0}, {true, 8, 2, 5},
                        {true, 64, 0, 63}};

START_TEST(test_entry_receives_args_and_error_record)
{
    tji_cpu_pool *p = make_pool(passthrough_rows[_i].nthreads);
    tji_error_record err = {0};
    atomic_int bad = 0;
    passthrough_args a = {.err = &err, .bad = &bad, .fail_block = 37,
                          .fail_lane = passthrough_rows[_i].fail_lane};
    a.self = &a;
    tji_cpu_launch l = {.entry = passthrough_entry, .args = &a, .nblocks = 100,
                        .block_dim = passthrough_rows[_i].block_dim,
                        .cooperative = passthrough_rows[_i].cooperative, .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(err.flag, 1);
    ck_assert_int_eq(err.block, 37);
    ck_assert_int_eq(err.lane, a.fail_lane);
    ck_assert_int_eq(err.value, 42);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* Launches of one block (or on a one-thread pool) run on the caller without waking anyone. */
typedef struct where_args {
    pthread_t caller;
    atomic_int *elsewhere;
} where_args;

static void
where_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const where_args *a = args;
    if (!pthread_equal(pthread_self(), a->caller))
        atomic_fetch_add(a->elsewhere, 1);
}

/* A pool of 'nthreads' and a launch of 'nblocks' blocks of 'block_dim' lanes (width-1:
 * each running 'block_lanes' itself). */
typedef struct launch_row {
    int nthreads;
    bool cooperative;
    int32_t block_dim;
    int64_t nblocks;
    int32_t block_lanes;
} launch_row;

static const launch_row inline_rows[] = {{4, false, 1, 1, 0},  {4, false, 1, 5, 0},
                                         {4, true, 32, 1, 0},  {1, false, 1, 1000, 0},
                                         {1, true, 16, 50, 0}, {4, false, 1, 4, 2}};

START_TEST(test_small_launches_run_on_the_calling_thread)
{
    tji_cpu_pool *p = make_pool(inline_rows[_i].nthreads);
    tji_error_record err = {0};
    atomic_int elsewhere = 0;
    where_args a = {.caller = pthread_self(), .elsewhere = &elsewhere};
    tji_cpu_launch l = {.entry = where_entry, .args = &a, .nblocks = inline_rows[_i].nblocks,
                        .block_dim = inline_rows[_i].block_dim,
                        .cooperative = inline_rows[_i].cooperative,
                        .block_lanes = inline_rows[_i].block_lanes, .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(elsewhere, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- arenas ----------------------------------------------------------------------------- */

/* Lane L fills its share of the arena with a byte naming the block and the lane, waits,
 * then checks its right neighbour's share. */
typedef struct fill_args {
    size_t arena_bytes;
    int32_t block_dim;
    atomic_int *bad;
} fill_args;

static uint8_t
fill_byte(int64_t b, int32_t lane)
{
    return (uint8_t)(b * 7 + lane * 13 + 1);
}

static void
fill_share(const fill_args *a, int32_t lane, size_t *lo, size_t *hi)
{
    *lo = a->arena_bytes * (size_t)lane / (size_t)a->block_dim;
    *hi = a->arena_bytes * (size_t)(lane + 1) / (size_t)a->block_dim;
}

static void
fill_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const fill_args *a = args;
    uint8_t *arena = w->arena;
    if (!is_aligned16(arena))
        atomic_fetch_add(a->bad, 1);
    for (int64_t b = b0; b < b1; b++) {
        size_t lo, hi;
        fill_share(a, lane, &lo, &hi);
        memset(arena + lo, fill_byte(b, lane), hi - lo);
        w->barrier(w);
        int32_t right = (lane + 1) % a->block_dim;
        fill_share(a, right, &lo, &hi);
        for (size_t i = lo; i < hi; i++)
            if (arena[i] != fill_byte(b, right)) {
                atomic_fetch_add(a->bad, 1);
                break;
            }
        w->barrier(w);
    }
}

static const struct {
    size_t arena_bytes;
    bool cooperative;
    int32_t block_dim;
} arena_rows[] = {
    {0, false, 1},          {0, true, 64},          {1, false, 1},     {24, true, 3},
    {200 * 1024, false, 1}, {200 * 1024, true, 64}, {200 * 1024, true, 1024},
};

static void
run_fill(tji_cpu_pool *p, size_t bytes, bool coop, int32_t bd, int64_t nblocks)
{
    tji_error_record err = {0};
    atomic_int bad = 0;
    fill_args a = {.arena_bytes = bytes, .block_dim = bd, .bad = &bad};
    tji_cpu_launch l = {.entry = fill_entry, .args = &a, .nblocks = nblocks, .block_dim = bd,
                        .cooperative = coop, .arena_bytes = bytes, .err = &err};
    run_ok(p, &l);
    ck_assert_msg(bad == 0, "arena of %zu bytes, block_dim %d: %d bad shares", bytes, (int)bd,
                  (int)bad);
}

START_TEST(test_arena_holds_arena_bytes_per_block)
{
    tji_cpu_pool *p = make_pool(2);
    run_fill(p, arena_rows[_i].arena_bytes, arena_rows[_i].cooperative,
             arena_rows[_i].block_dim, 24);
    tji_cpu_pool_destroy(p);
}
END_TEST

START_TEST(test_arena_grows_between_launches)
{
    tji_cpu_pool *p = make_pool(3);
    static const size_t sizes[] = {16, 4096, 64, 300 * 1024, 0, 1 << 20, 100};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        run_fill(p, sizes[i], false, 1, 50);
        run_fill(p, sizes[i], true, 16, 50);
    }
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- fiber stacks and the cost of a barrier --------------------------------------------- */

typedef struct deep_args {
    size_t use_bytes;
    atomic_int *bad;
} deep_args;

/* Recurses in 16 KiB frames, waits at the bottom (so every lane's stack is deep at once),
 * then checks its frames on the way back. Returns the number of damaged frames. */
static int
deep_fill(tji_cpu_worker *w, int depth, int32_t lane)
{
    volatile uint8_t buf[16 * 1024];
    for (size_t i = 0; i < sizeof buf; i += 256)
        buf[i] = (uint8_t)(lane + depth + i / 256);
    int bad = 0;
    if (depth > 0)
        bad = deep_fill(w, depth - 1, lane);
    else
        w->barrier(w);
    for (size_t i = 0; i < sizeof buf; i += 256)
        if (buf[i] != (uint8_t)(lane + depth + i / 256))
            return bad + 1;
    return bad;
}

static void
deep_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const deep_args *a = args;
    int bad = deep_fill(w, (int)(a->use_bytes / (16 * 1024)), lane);
    if (bad != 0)
        atomic_fetch_add(a->bad, bad);
}

static const struct {
    const char *stack_kb;      /* TILEJIT_FIBER_STACK_KB, or NULL for the default */
    size_t use_bytes;
} stack_rows[] = {{NULL, 160 * 1024}, {"1024", 700 * 1024}};

START_TEST(test_fiber_stacks_follow_tilejit_fiber_stack_kb)
{
    if (stack_rows[_i].stack_kb)
        setenv("TILEJIT_FIBER_STACK_KB", stack_rows[_i].stack_kb, 1);
    else
        unsetenv("TILEJIT_FIBER_STACK_KB");
    tji_cpu_pool *p = make_pool(2);
    unsetenv("TILEJIT_FIBER_STACK_KB");
    tji_error_record err = {0};
    atomic_int bad = 0;
    deep_args a = {.use_bytes = stack_rows[_i].use_bytes, .bad = &bad};
    tji_cpu_launch l = {.entry = deep_entry, .args = &a, .nblocks = 4, .block_dim = 4,
                        .cooperative = true, .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(bad, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

typedef struct colour_args {
    uintptr_t *where;          /* per lane: the address of a local, at the first barrier */
} colour_args;

static void
colour_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const colour_args *a = args;
    volatile int local = lane;
    a->where[lane] = (uintptr_t)&local;
    w->barrier(w);
    (void)local;
}

/* The lanes' stacks are whole pages; each lane starts (lane % 64) cache lines below the top
 * of its own (cpu_launch.c's STACK_COLOURS), so at the same point of the kernel 64
 * consecutive lanes have their frames at 64 different cache-line offsets of a page, and
 * lanes 64 apart at the same one. */
START_TEST(test_coop_lane_stacks_start_at_different_cache_lines)
{
    enum { NLANES = 128 };
    tji_cpu_pool *p = make_pool(1);
    tji_error_record err = {0};
    uintptr_t where[NLANES] = {0};
    colour_args a = {.where = where};
    tji_cpu_launch l = {.entry = colour_entry, .args = &a, .nblocks = 1, .block_dim = NLANES,
                        .cooperative = true, .err = &err};
    run_ok(p, &l);
    for (int i = 0; i < NLANES && !locals_on_fake_stack(); i++) {
        uintptr_t off = where[i] % 4096, off0 = where[i % 64] % 4096;
        ck_assert_msg((where[0] % 4096 - off) % 4096 == (uintptr_t)(i % 64) * 64,
                      "lane %d: its local sits at page offset %ju, lane 0's at %ju", i,
                      (uintmax_t)off, (uintmax_t)(where[0] % 4096));
        ck_assert_uint_eq(off, off0);
    }
    tji_cpu_pool_destroy(p);
}
END_TEST

typedef struct colour_fiber {
    tji_fiber self, home;
    uintptr_t where;
} colour_fiber;

static void
note_and_return(void *arg)
{
    colour_fiber *c = arg;
    volatile int local = 0;
    c->where = (uintptr_t)&local;
    for (;;)
        tji_fiber_switch(&c->self, &c->home);
}

/* A colour must leave at least a page of the stack: else EINVAL, and nothing mapped. */
START_TEST(test_fiber_create_rejects_a_colour_that_leaves_less_than_a_page)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    colour_fiber c = {0};
    tji_fiber *f = &c.self;
    memset(f, 0xa5, sizeof *f);
    ck_assert_int_eq(tji_fiber_create(f, 4 * page, 3 * page + 1, note_and_return, &c), EINVAL);
    ck_assert_ptr_null(f->map);
    ck_assert_int_eq(tji_fiber_create(f, 4 * page, 5 * page, note_and_return, &c), EINVAL);
    ck_assert_ptr_null(f->map);
    /* the largest colour: the fiber runs in the last page */
    ck_assert_int_eq(tji_fiber_create(f, 4 * page, 3 * page, note_and_return, &c), 0);
    ck_assert_ptr_nonnull(f->map);
    tji_fiber_switch(&c.home, f);
    if (!locals_on_fake_stack()) {
        ck_assert_uint_ge(c.where, (uintptr_t)f->stack);
        ck_assert_uint_lt(c.where, (uintptr_t)f->stack + page);
    }
    tji_fiber_destroy(f);
    ck_assert_ptr_null(f->map);
}
END_TEST

/* The rule is on the stack as mapped, in whole pages: a page and a byte maps two pages, of
 * which a colour may take all but one; under a page (16 KiB with 64 KiB pages) maps one
 * page, of which a colour must leave what was asked for. */
START_TEST(test_fiber_create_checks_the_colour_against_the_page_rounded_stack)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const struct {
        size_t stack_bytes, colour;
        int result;
    } rows[] = {
        {3 * page + 1, 3 * page, 0},           {3 * page + 1, 3 * page + 1, EINVAL},
        {page / 4, 0, 0},                      {page / 4, page / 2, 0},
        {page / 4, page - page / 4, 0},        {page / 4, page - page / 4 + 1, EINVAL},
        {page / 4, page + 1, EINVAL},          {0, 0, EINVAL},
    };
    for (int i = 0; i < NROWS(rows); i++) {
        colour_fiber c = {0};
        tji_fiber *f = &c.self;
        int e = tji_fiber_create(f, rows[i].stack_bytes, rows[i].colour, note_and_return, &c);
        ck_assert_msg(e == rows[i].result, "stack %zu, colour %zu: %d, expected %d",
                      rows[i].stack_bytes, rows[i].colour, e, rows[i].result);
        if (e != 0) {
            ck_assert_ptr_null(f->map);
            continue;
        }
        ck_assert_uint_eq(f->stack_bytes, (rows[i].stack_bytes + page - 1) / page * page);
        tji_fiber_switch(&c.home, f);
        if (!locals_on_fake_stack()) {
            ck_assert_uint_ge(c.where, (uintptr_t)f->stack);
            ck_assert_uint_lt(c.where, (uintptr_t)f->stack + f->stack_bytes - rows[i].colour);
        }
        tji_fiber_destroy(f);
    }
}
END_TEST

typedef struct spin_args {
    int nbarriers;
    atomic_int *bad;
} spin_args;

static void
spin_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const spin_args *a = args;
    int64_t *phase = w->arena;
    if (lane == 0)
        *phase = 0;
    for (int i = 0; i < a->nbarriers; i++) {
        if (*phase != i + (lane != 0))
            atomic_fetch_add(a->bad, 1);
        if (lane == 0)
            ++*phase;
        w->barrier(w);
    }
}

/* No timing assertion: 10^5 barriers of a 32-lane block end well inside the timeout only
 * when a switch costs nanoseconds, not a system call. */
START_TEST(test_coop_hundred_thousand_barriers_finish_quickly)
{
    tji_cpu_pool *p = make_pool(1);
    tji_error_record err = {0};
    atomic_int bad = 0;
    spin_args a = {.nbarriers = 100000, .bad = &bad};
    tji_cpu_launch l = {.entry = spin_entry, .args = &a, .nblocks = 1, .block_dim = 32,
                        .cooperative = true, .arena_bytes = sizeof(int64_t), .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(bad, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- fork() ----------------------------------------------------------------------------- */

/* In the child (no Check calls there): a width-1 launch of 'n' blocks and a cooperative one
 * on the parent's pool, each block counted once, then the pool destroyed. 0 when all is
 * well. */
static int
child_runs_on(tji_cpu_pool *p, int64_t n)
{
    alarm(10); /* a run waiting for workers that are not there would hang */
    tji_error_record err = {0};
    atomic_int bad = 0;
    count_args a = {.counts = calloc((size_t)n + 1, sizeof(atomic_int)), .bad = &bad,
                    .nblocks = n, .err = &err};
    if (!a.counts)
        return 2;
    tji_cpu_launch l = {.entry = count_entry, .args = &a, .nblocks = n, .block_dim = 1,
                        .arena_bytes = 64, .err = &err};
    char msg[TJI_ERRMSG_BYTES] = "";
    if (tji_cpu_run(p, &l, msg, sizeof msg) != TJ_OK)
        return 3;
    if (bad != 0)
        return 6;
    l.cooperative = true; /* lanes 1-7 count as 'bad' to count_entry: not checked */
    l.block_dim = 8;
    if (tji_cpu_run(p, &l, msg, sizeof msg) != TJ_OK)
        return 4;
    for (int64_t b = 0; b < n; b++)
        if (a.counts[b] != 1 + 8)
            return 5;
    tji_cpu_pool_destroy(p);
    free(a.counts);
    return 0;
}

static int
wait_child(pid_t pid)
{
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "the child ended with signal %d",
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return WEXITSTATUS(st);
}

/* A child of fork() has none of the pool's worker threads: it runs on the pool with its own
 * thread alone, and destroys it without joining threads that are not there. */
START_TEST(test_child_of_fork_runs_on_the_pool_alone)
{
    tji_cpu_pool *p = make_pool(3);
    tji_error_record err = {0};
    atomic_int bad = 0;
    count_args a = {.counts = xcalloc(1001, sizeof(atomic_int)), .bad = &bad, .nblocks = 1000,
                    .err = &err};
    tji_cpu_launch l = {.entry = count_entry, .args = &a, .nblocks = 1000, .block_dim = 1,
                        .err = &err};
    run_ok(p, &l); /* the workers are up and have run */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(child_runs_on(p, 1000));
    ck_assert_int_eq(wait_child(pid), 0);
    run_ok(p, &l); /* the parent's pool is untouched */
    for (int b = 0; b < 1000; b++)
        ck_assert_int_eq(a.counts[b], 2);
    ck_assert_int_eq(bad, 0);
    tji_cpu_pool_destroy(p);
    free(a.counts);
}
END_TEST

typedef struct fork_args {
    tji_cpu_pool *pool;
    int child_status;
} fork_args;

/* Forks from inside a launch; the child tries to run on the same pool. */
static void
fork_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    (void)w, (void)b0, (void)b1, (void)lane;
    fork_args *a = (fork_args *)args;
    pid_t pid = fork();
    if (pid == 0) {
        tji_error_record err = {0};
        tji_cpu_launch l = {.entry = count_entry, .nblocks = 1, .block_dim = 1, .err = &err};
        char msg[TJI_ERRMSG_BYTES] = "";
        tj_status st = tji_cpu_run(a->pool, &l, msg, sizeof msg);
        _exit(st == TJ_ERR_STATE &&
                      strcmp(msg, "tji_cpu_run: the process forked while this pool ran a "
                                  "launch; a child process must make its own context") == 0
                  ? 0
                  : 1);
    }
    int st = 0;
    a->child_status = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st)
                          ? WEXITSTATUS(st)
                          : -1;
}

/* Forked in the middle of a launch, the child's copy of the pool has that launch's state:
 * a run there fails with TJ_ERR_STATE instead of resuming the parent's lanes. */
START_TEST(test_child_forked_mid_launch_gets_an_error)
{
    tji_cpu_pool *p = make_pool(2);
    fork_args a = {.pool = p, .child_status = -2};
    tji_error_record err = {0};
    tji_cpu_launch l = {.entry = fork_entry, .args = &a, .nblocks = 1, .block_dim = 1,
                        .err = &err};
    run_ok(p, &l);
    ck_assert_int_eq(a.child_status, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- the pool and invalid calls --------------------------------------------------------- */

START_TEST(test_pool_threads_counts_the_caller_and_defaults_to_online_cores)
{
    tji_cpu_pool *p = make_pool(0);
    ck_assert_int_eq(tji_cpu_pool_threads(p), (int)sysconf(_SC_NPROCESSORS_ONLN));
    tji_cpu_pool_destroy(p);
    p = make_pool(3);
    ck_assert_int_eq(tji_cpu_pool_threads(p), 3);
    tji_cpu_pool_destroy(p);
    ck_assert_int_eq(tji_cpu_pool_threads(NULL), 0);
    tji_cpu_pool_destroy(NULL);
}
END_TEST

START_TEST(test_pool_create_rejects_bad_arguments)
{
    char msg[TJI_ERRMSG_BYTES] = "";
    tji_cpu_pool *p = (tji_cpu_pool *)&msg; /* any non-NULL value: it must be cleared */
    ck_assert_int_eq(tji_cpu_pool_create(-1, &p, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(msg, "tji_cpu_pool_create: nthreads -1 is out of range 0..4096");
    ck_assert_int_eq(tji_cpu_pool_create(5000, &p, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_int_eq(tji_cpu_pool_create(2, NULL, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_str_eq(msg, "tji_cpu_pool_create: 'out' is NULL");
    ck_assert_int_eq(tji_cpu_pool_create(-1, &p, NULL, 0), TJ_ERR_INVALID);
}
END_TEST

static void
never_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    atomic_fetch_add((atomic_int *)(uintptr_t)args, 1);
}

static const struct {
    bool no_entry, no_err, cooperative;
    int64_t nblocks;
    int32_t block_dim;
    const char *msg;
} invalid_rows[] = {
    {true, false, false, 4, 1, "tji_cpu_run: the entry function is NULL"},
    {false, true, false, 4, 1, "tji_cpu_run: the error record is NULL"},
    {false, false, false, -1, 1, "tji_cpu_run: nblocks -1 is negative"},
    {false, false, false, INT64_MAX, 1,
     "tji_cpu_run: nblocks 9223372036854775807 is above the limit of 2^62"},
    {false, false, true, ((int64_t)1 << 62) + 1, 4,
     "tji_cpu_run: nblocks 4611686018427387905 is above the limit of 2^62"},
    {false, false, true, 4, 0, "tji_cpu_run: block_dim 0 is out of range 1..1024"},
    {false, false, true, 4, 1025, "tji_cpu_run: block_dim 1025 is out of range 1..1024"},
    {false, false, false, 4, -3, "tji_cpu_run: block_dim -3 is out of range 1..1024"},
    {false, false, false, 4, 2,
     "tji_cpu_run: block_dim 2 needs cooperative mode (width-1 mode runs one lane per block)"},
};

START_TEST(test_run_rejects_invalid_launches)
{
    tji_cpu_pool *p = make_pool(2);
    tji_error_record err = {0};
    atomic_int calls = 0;
    tji_cpu_launch l = {.entry = invalid_rows[_i].no_entry ? NULL : never_entry,
                        .args = &calls, .nblocks = invalid_rows[_i].nblocks,
                        .block_dim = invalid_rows[_i].block_dim,
                        .cooperative = invalid_rows[_i].cooperative,
                        .err = invalid_rows[_i].no_err ? NULL : &err};
    char msg[TJI_ERRMSG_BYTES] = "";
    ck_assert_int_eq(tji_cpu_run(p, &l, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_str_eq(msg, invalid_rows[_i].msg);
    ck_assert_int_eq(tji_cpu_run(p, &l, NULL, 0), TJ_ERR_INVALID);
    char small[8];
    ck_assert_int_eq(tji_cpu_run(p, &l, small, sizeof small), TJ_ERR_INVALID);
    ck_assert_str_eq(small, "tji_cpu");
    ck_assert_int_eq(calls, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

START_TEST(test_run_rejects_null_pool_and_launch)
{
    tji_error_record err = {0};
    atomic_int calls = 0;
    tji_cpu_launch l = {.entry = never_entry, .args = &calls, .nblocks = 1, .block_dim = 1,
                        .err = &err};
    char msg[TJI_ERRMSG_BYTES] = "";
    ck_assert_int_eq(tji_cpu_run(NULL, &l, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_str_eq(msg, "tji_cpu_run: the pool is NULL");
    tji_cpu_pool *p = make_pool(1);
    ck_assert_int_eq(tji_cpu_run(p, NULL, msg, sizeof msg), TJ_ERR_INVALID);
    ck_assert_str_eq(msg, "tji_cpu_run: the launch is NULL");
    ck_assert_int_eq(calls, 0);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* Every call of the entry tries a launch of its own, of the same form, on the pool that runs
 * it: the pool is busy, so that fails and runs nothing. */
typedef struct nested_args {
    tji_cpu_pool *pool;
    tji_cpu_launch inner;
    atomic_int *calls;
    atomic_int *bad;           /* nested runs that did not fail as they should */
} nested_args;

static void
nested_entry(tji_cpu_worker *w, const void *args, int64_t b0, int64_t b1, int32_t lane)
{
    const nested_args *a = args;
    char msg[TJI_ERRMSG_BYTES] = "";
    tj_status st = tji_cpu_run(a->pool, &a->inner, msg, sizeof msg);
    if (st != TJ_ERR_INVALID || strcmp(msg, "tji_cpu_run: the pool is already running a launch"))
        atomic_fetch_add(a->bad, 1);
    atomic_fetch_add(a->calls, 1);
    w->barrier(w);
}

static const launch_row nested_rows[] = {{1, false, 1, 4, 0}, {2, false, 1, 50, 0},
                                         {1, true, 8, 3, 0},   {3, true, 4, 12, 0},
                                         {2, true, 1, 6, 0}};

START_TEST(test_run_rejects_a_launch_on_a_pool_that_is_running_one)
{
    tji_cpu_pool *p = make_pool(nested_rows[_i].nthreads);
    tji_error_record err = {0};
    atomic_int calls = 0, inner_calls = 0, bad = 0;
    int32_t bd = nested_rows[_i].block_dim;
    nested_args a = {.pool = p, .calls = &calls, .bad = &bad,
                     .inner = {.entry = never_entry, .args = &inner_calls,
                               .nblocks = nested_rows[_i].nblocks, .block_dim = bd,
                               .cooperative = nested_rows[_i].cooperative, .err = &err}};
    tji_cpu_launch l = a.inner;
    l.entry = nested_entry;
    l.args = &a;
    run_ok(p, &l);
    int64_t ncalls = nested_rows[_i].cooperative ? nested_rows[_i].nblocks * bd : 0;
    if (ncalls > 0)
        ck_assert_int_eq(calls, ncalls);
    else
        ck_assert_int_ge(calls, 1);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(inner_calls, 0);
    run_fill(p, 4096, true, 8, 10); /* the pool still works */
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- allocation failures ----------------------------------------------------------------- */

START_TEST(test_run_reports_nomem_for_an_arena_it_cannot_allocate)
{
    if (UNDER_SANITIZER)
        return;
    static const struct {
        size_t bytes;
        const char *msg;
    } rows[] = {
        {SIZE_MAX, "tji_cpu_run: an arena of 18446744073709551615 bytes is too large"},
        {(size_t)1 << 46, "tji_cpu_run: cannot allocate a worker arena of 70368744177664 bytes"},
    };
    tji_cpu_pool *p = make_pool(2);
    tji_error_record err = {0};
    atomic_int calls = 0;
    for (int i = 0; i < NROWS(rows); i++) {
        tji_cpu_launch l = {.entry = never_entry, .args = &calls, .nblocks = 100,
                            .block_dim = 1, .arena_bytes = rows[i].bytes, .err = &err};
        char msg[TJI_ERRMSG_BYTES] = "";
        ck_assert_int_eq(tji_cpu_run(p, &l, msg, sizeof msg), TJ_ERR_NOMEM);
        ck_assert_str_eq(msg, rows[i].msg);
    }
    ck_assert_int_eq(calls, 0);
    run_fill(p, 4096, true, 8, 10); /* the pool still works */
    tji_cpu_pool_destroy(p);
}
END_TEST

static size_t
mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static const struct {
    int nthreads;
    int64_t nblocks;
} nomem_rows[] = {{1, 3}, {2, 1}, {2, 6}};

/* 1024 lanes need 1024 stacks of 256 KiB: more than the 160 MiB of address space left. The
 * headroom covers a worker thread's first malloc, for which glibc reserves a 64 MiB arena;
 * with less, the lane table could fail first (seen on a 2-core machine). */
START_TEST(test_run_reports_nomem_when_fiber_stacks_cannot_be_mapped)
{
    if (UNDER_SANITIZER || RUNNING_ON_VALGRIND || mapped_bytes() == 0)
        return;
    unsetenv("TILEJIT_FIBER_STACK_KB");
    tji_cpu_pool *p = make_pool(nomem_rows[_i].nthreads);
    tji_error_record err = {0};
    atomic_int calls = 0;
    tji_cpu_launch l = {.entry = never_entry, .args = &calls,
                        .nblocks = nomem_rows[_i].nblocks, .block_dim = 1024,
                        .cooperative = true, .err = &err};
    char msg[TJI_ERRMSG_BYTES] = "";
    struct rlimit old, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    lim = (struct rlimit){.rlim_cur = mapped_bytes() + (160u << 20), .rlim_max = old.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    tj_status st = tji_cpu_run(p, &l, msg, sizeof msg);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    ck_assert_int_eq(st, TJ_ERR_NOMEM);
    /* With two workers, one may find the address space taken by the other's stacks when it
     * allocates a lane rather than when it maps the lane's stack. */
    bool lane = strstr(msg, "tji_cpu_run: cannot allocate lane ") == msg;
    if (!lane || nomem_rows[_i].nthreads == 1) {
        ck_assert_msg(strstr(msg, "tji_cpu_run: cannot map a 262144-byte fiber stack for lane ")
                          == msg, "message: %s", msg);
        ck_assert_msg(strstr(msg, ": out of memory (ENOMEM); each lane's stack takes address "
                                  "space and 2 of the mappings that vm.max_map_count allows"),
                      "message: %s", msg);
    }
    ck_assert_int_eq(calls, 0);
    run_fill(p, 4096, true, 8, 10); /* the pool still works */
    tji_cpu_pool_destroy(p);
}
END_TEST

/* The lanes made for a launch that cannot have them all are freed (else they would keep
 * the mappings and address space that ran out); those from before stay and still work. */
START_TEST(test_run_frees_the_lanes_of_a_launch_that_cannot_map_them_all)
{
    if (UNDER_SANITIZER || RUNNING_ON_VALGRIND || mapped_bytes() == 0)
        return;
    unsetenv("TILEJIT_FIBER_STACK_KB");
    tji_cpu_pool *p = make_pool(1);
    run_fill(p, 4096, true, 8, 10);
    tji_error_record err = {0};
    atomic_int calls = 0;
    tji_cpu_launch l = {.entry = never_entry, .args = &calls, .nblocks = 2, .block_dim = 1024,
                        .cooperative = true, .err = &err};
    size_t before = mapped_bytes();
    struct rlimit old, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    lim = (struct rlimit){.rlim_cur = before + (160u << 20), .rlim_max = old.rlim_max};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    tj_status st = tji_cpu_run(p, &l, NULL, 0);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    size_t after = mapped_bytes();
    ck_assert_int_eq(st, TJ_ERR_NOMEM);
    ck_assert_msg(after < before + (16u << 20), "%zu bytes more mapped after the failed launch",
                  after - before);
    run_fill(p, 4096, true, 8, 10);
    run_ok(p, &l); /* and with the address space back, all of them */
    ck_assert_int_eq(calls, 2 * 1024);
    tji_cpu_pool_destroy(p);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------ */

/* Valgrind runs scale the timeout (CK_TIMEOUT_MULTIPLIER, tests/CMakeLists.txt). */
static TCase *
new_case(const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, TIMEOUT_S);
    return tc;
}

static Suite *
cpu_launch_suite(void)
{
    Suite *s = suite_create("cpu_launch");
    TCase *api = new_case("api");
    tcase_add_test(api, test_pool_threads_counts_the_caller_and_defaults_to_online_cores);
    tcase_add_loop_test(api, test_entry_receives_args_and_error_record, 0,
                        NROWS(passthrough_rows));
    tcase_add_loop_test(api, test_small_launches_run_on_the_calling_thread, 0,
                        NROWS(inline_rows));
    tcase_add_loop_test(api, test_blocks_run_on_several_threads_at_once, 0,
                        NROWS(rendezvous_rows));
    tcase_add_test(api, test_several_pools_run_at_once);
    tcase_add_test(api, test_blocks_run_with_the_callers_rounding_mode);
    tcase_add_loop_test(api, test_coop_launches_take_as_many_workers_as_the_map_count_allows,
                        0, NROWS(crowd_rows));
    tcase_add_loop_test(api, test_arena_holds_arena_bytes_per_block, 0, NROWS(arena_rows));
    tcase_add_test(api, test_arena_grows_between_launches);
    suite_add_tcase(s, api);

    TCase *errors = new_case("errors");
    tcase_add_test(errors, test_pool_create_rejects_bad_arguments);
    tcase_add_loop_test(errors, test_run_rejects_invalid_launches, 0, NROWS(invalid_rows));
    tcase_add_test(errors, test_run_rejects_null_pool_and_launch);
    tcase_add_loop_test(errors, test_run_rejects_a_launch_on_a_pool_that_is_running_one, 0,
                        NROWS(nested_rows));
    tcase_add_test(errors, test_run_reports_nomem_for_an_arena_it_cannot_allocate);
    tcase_add_loop_test(errors, test_run_reports_nomem_when_fiber_stacks_cannot_be_mapped, 0,
                        NROWS(nomem_rows));
    tcase_add_test(errors, test_run_frees_the_lanes_of_a_launch_that_cannot_map_them_all);
    suite_add_tcase(s, errors);

    TCase *cpu1 = new_case("cpu1");
    tcase_add_loop_test(cpu1, test_width1_runs_every_block_once, 0, NROWS(width1_rows));
    suite_add_tcase(s, cpu1);

    TCase *coop = new_case("coop");
    tcase_add_loop_test(coop, test_coop_lanes_run_in_ascending_order_between_barriers, 0,
                        NROWS(coop_dims));
    tcase_add_loop_test(coop, test_coop_barrier_separates_write_and_read_phases, 0,
                        NROWS(coop_dims));
    tcase_add_loop_test(coop, test_coop_barriers_in_a_loop_keep_phases_apart, 0,
                        NROWS(coop_dims));
    tcase_add_test(coop, test_coop_blocks_do_not_see_each_others_arena_writes);
    tcase_add_test(coop, test_coop_many_blocks_on_many_threads_give_exact_results);
    tcase_add_loop_test(coop, test_coop_early_returning_lanes_leave_later_barriers, 0,
                        NROWS(early_rows));
    tcase_add_loop_test(coop, test_fiber_stacks_follow_tilejit_fiber_stack_kb, 0,
                        NROWS(stack_rows));
    tcase_add_test(coop, test_coop_hundred_thousand_barriers_finish_quickly);
    tcase_add_test(coop, test_coop_lane_stacks_start_at_different_cache_lines);
    tcase_add_test(coop, test_fiber_create_rejects_a_colour_that_leaves_less_than_a_page);
    tcase_add_test(coop, test_fiber_create_checks_the_colour_against_the_page_rounded_stack);
    suite_add_tcase(s, coop);

    TCase *forks = new_case("fork");
    tcase_add_test(forks, test_child_of_fork_runs_on_the_pool_alone);
    tcase_add_test(forks, test_child_forked_mid_launch_gets_an_error);
    suite_add_tcase(s, forks);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, cpu_launch_suite());
}
