/* tj-test: */
/*
 * tests/check_lanes.c: cooperative CPU blocks as loops over their lanes (jit/lane_loops.c).
 * Each kernel is built three times: by default, where its IR must call no barrier function
 * (the fibers' switch is an indirect call of the worker's barrier) and must hold the
 * uniform phases' own loops ("lanes.uniform", for tiled launches: "lanes.pick.tiled");
 * with TILEJIT_CPU_LANES=switch, without them; and with TILEJIT_CPU_LANES=fibers, where it
 * must call the barrier. All three must give the exact expected values, on tiled launches
 * and on others (which take the general loop). The lane loops' scan of the resume points
 * at the start of each phase stays a rolled loop. A tiled sum and a tiled copy check what
 * the uniform loops know before the lanes (a tiled launch's whole blocks, tid() across
 * barriers, the tiles' tests of lying inside their arrays) and that LLVM vectorises them.
 * Barriers outside loops on a partial block, a barrier in a loop of pushes, and a barrier
 * that tilejit flushes inside an `if` on the lane (some lanes pass it by). A partial block's
 * shared memory reads as zero where no running lane wrote it. Narrow blocks keep the lanes'
 * loops around loops of a lane's elements rolled. A kernel whose
 * per-lane arrays would pass 256 KiB keeps the fibers, and so does a module with a barrier
 * in a function its kernels call. The other suites' cooperative cases run every builtin
 * this way too, and four of them run again with fibers (tests/CMakeLists.txt).
 */
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { B = 32, NTHREADS = 100 }; /* four blocks, the last with 4 active lanes */

/* How cooperative blocks run: TILEJIT_CPU_LANES unset, "switch" or "fibers". */
typedef enum form { LOOPS, SWITCH, FIBERS, NFORMS } form;
static const char *const form_env[NFORMS] = {NULL, "switch", "fibers"};
static const char *const form_name[NFORMS] = {"lane loops", "lane loops (switch)", "fibers"};

/* A cooperative kernel of B lanes named 'name', in a new context (returned in '*ctx') with
 * its CPU device; TILEJIT_CPU_LANES is set for form 'f' while the context is made. */
/* Whether coop_kernel makes debug kernels (array and tile indices checked). */
static bool g_debug;

static tj_kernel *
coop_kernel(form f, const char *name, int block_dim, tj_context **ctx, tj_device **cpu)
{
    if (form_env[f])
        ck_assert_int_eq(setenv("TILEJIT_CPU_LANES", form_env[f], 1), 0);
    ck_assert_int_eq(tj_context_create(ctx), TJ_OK);
    unsetenv("TILEJIT_CPU_LANES");
    ck_assert_int_eq(tj_device_create(*ctx, TJ_DEVICE_CPU, 0, cpu), TJ_OK);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = (uint32_t)block_dim,
                           .cpu_mode = TJ_CPU_COOPERATIVE, .debug = g_debug};
    return tj_kernel_create(*ctx, name, &o);
}

/* Builds 'k' for 'cpu', keeping its IR. */
static tj_module *
build(tj_context *ctx, tj_device *cpu, tj_kernel *k)
{
    ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    tj_module *m = NULL;
    tj_build_options bo = {.device = cpu, .keep_ir = true};
    ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
    return m;
}

static int
fiber_switches(const tj_module *m)
{
    int n = 0;
    for (const char *p = tj_module_get_ir(m); (p = strstr(p, "call void %")); p++)
        n++;
    return n;
}

static const char *unoptimised_ir(tj_context *ctx, tj_device *cpu, tj_kernel *k);

/* Whether the last run_top_level kernel's unoptimised IR held a loop kept rolled: the lane
 * loops' scan of the resume points (the kernel has no loop of its own). */
static bool g_rolled;

/* A cooperative kernel of B lanes named 'name' (coop_kernel) with int32 arrays x and y and
 * a tid() of one coordinate. */
typedef struct xy_kernel {
    const char *name;
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k;
    tj_val *x, *y, *tid;
} xy_kernel;

static xy_kernel
xy_begin(form f, const char *name)
{
    xy_kernel r = {.name = name};
    r.k = coop_kernel(f, name, B, &r.ctx, &r.cpu);
    const tj_type *i32 = tj_context_get_type(r.ctx, TJ_DTYPE_I32);
    r.x = tj_param_array(r.k, "x", i32, 1);
    r.y = tj_param_array(r.k, "y", i32, 1);
    tj_tid(r.k, 1, &r.tid);
    return r;
}

/* Builds the kernel and launches NTHREADS threads (four blocks, the last partial) on x =
 * 'xs' ('nx' elements); reads y into 'out' and returns the fiber switches in its IR. */
static int
xy_run(xy_kernel *r, const int32_t *xs, int nx, int32_t *out)
{
    tj_module *m = build(r->ctx, r->cpu, r->k);
    const tj_type *i32 = tj_context_get_type(r->ctx, TJ_DTYPE_I32);
    tj_array *xa = tjt_array(r->cpu, i32, nx, xs), *ya = tjt_array(r->cpu, i32, NTHREADS, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya)};
    int64_t n = NTHREADS;
    tjt_ok(r->cpu, tj_launch(r->cpu, m, r->name, 1, &n, B, args, 2));
    tjt_ok(r->cpu, tj_device_synchronize(r->cpu));
    tjt_ok(r->cpu, tj_array_copy_to_host(ya, out, NTHREADS * sizeof *out));
    return fiber_switches(m);
}

/* out[i] = 1000 * (the active lanes of i's block) + (the sum of x over them) + 100000 * (i's
 * lane): two whole-tile reductions, so values cross three barriers. Builds and runs it on a
 * launch of NTHREADS threads; returns the fiber switches in its IR. */
static int
run_top_level(form f, int32_t *out)
{
    xy_kernel r = xy_begin(f, "top");
    tj_kernel *k = r.k;
    tj_val *lane = tj_binary(k, TJ_BIN_MOD, r.tid, tj_block_dim(k));
    tj_val *v = tj_load(k, r.x, &r.tid, 1);
    tj_val *count =
        tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, tj_tile(k, tj_const_int(k, TJ_DTYPE_I32, 1), false));
    tj_val *sum = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, tj_tile(k, v, false));
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *c = tj_tile_extract(k, count, &zero, 1), *s = tj_tile_extract(k, sum, &zero, 1);
    tj_val *res =
        tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, c, tj_const_int(k, TJ_DTYPE_I32, 1000)),
                  tj_binary(k, TJ_BIN_ADD, s,
                            tj_binary(k, TJ_BIN_MUL, lane, tj_const_int(k, TJ_DTYPE_I32, 100000))));
    tj_store(k, r.y, &r.tid, 1, res);
    int32_t xs[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        xs[i] = i;
    int switches = xy_run(&r, xs, NTHREADS, out);
    g_rolled = strstr(unoptimised_ir(r.ctx, r.cpu, k), "llvm.loop.unroll.disable") != NULL;
    tj_context_destroy(r.ctx);
    return switches;
}

/* Whether form 'f' gave 'switches' fiber switches as it should. */
static void
check_switches(form f, int switches)
{
    if (f == FIBERS)
        ck_assert_msg(switches > 0, "fibers: no fiber switch in the IR");
    else
        ck_assert_msg(switches == 0, "%s: %d fiber switches in the IR", form_name[f], switches);
}

/* The whole blocks' phases are uniform (every lane at the same barrier); in the partial
 * last block the lanes past the launch return at once, so its later phases are not. */
START_TEST(test_lanes_barriers_outside_loops_run_without_fibers)
{
    for (form f = LOOPS; f < NFORMS; f++) {
        int32_t out[NTHREADS];
        check_switches(f, run_top_level(f, out));
        /* the scan that starts each phase stays a loop (unrolled, it cost more to build) */
        ck_assert_msg(g_rolled == (f != FIBERS), "%s: the scan of resume points %s rolled",
                      form_name[f], g_rolled ? "kept" : "not kept");
        for (int i = 0; i < NTHREADS; i++) {
            int first = i / B * B, active = NTHREADS - first < B ? NTHREADS - first : B;
            int sum = 0;
            for (int j = first; j < first + active; j++)
                sum += j;
            int want = active * 1000 + sum + (i % B) * 100000;
            ck_assert_msg(out[i] == want, "%s: out[%d] = %d, expected %d", form_name[f], i,
                          out[i], want);
        }
    }
}
END_TEST

/* Each block loads its S elements from x[block * B] and each lane stores element B - 1,
 * which lane B - 1 owns: in the partial last block (4 lanes) it does not run. A shared
 * tile holds every element all the same (lane 0 loads those of the lanes that do not run:
 * tji_foreach_unowned); a register tile's element of such a lane has no value and reads
 * as zero, not as what the block before left in the scratch (target_host.c,
 * clear_partial_arena). x[i] = i + 1, so no loaded value is zero. S = B and S = 16384
 * (64 KiB: lane loops take the worker's arena, not a local array), a shared tile, and a
 * register tile, whose extract goes through the scratch; and a register tile whose element
 * 1 (lane 1's, which runs) was extracted just before: the scratch then held x[first + 1],
 * which the extract of element B - 1 gave (found by fuzz/diff_kernels). */
START_TEST(test_lanes_partial_block_reads_every_shared_element)
{
    static const struct {
        int size;
        tj_storage storage;
        bool after; /* extract element 1 first: the scratch then holds x[first + 1] */
    } rows[] = {{B, TJ_STORAGE_SHARED, false},
                {16384, TJ_STORAGE_SHARED, false},
                {B, TJ_STORAGE_REGISTER, false},
                {B, TJ_STORAGE_REGISTER, true}};
    for (form f = LOOPS; f < NFORMS; f++)
        for (int row = 0; row < (int)(sizeof rows / sizeof rows[0]); row++) {
            xy_kernel r = xy_begin(f, "unwritten");
            tj_kernel *k = r.k;
            tj_val *bd = tj_const_int(k, TJ_DTYPE_I32, B);
            tj_val *at = tj_binary(k, TJ_BIN_MUL, tj_binary(k, TJ_BIN_DIV, r.tid, bd), bd);
            tj_val *t = tj_tile_load(k, r.x, 1, &rows[row].size, &at, rows[row].storage);
            tj_val *last = tj_const_int(k, TJ_DTYPE_I32, B - 1);
            tj_val *one = tj_const_int(k, TJ_DTYPE_I32, 1);
            tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
            tj_val *before = rows[row].after ? tj_tile_extract(k, t, &one, 1) : zero;
            tj_val *flag = tj_select(k, tj_compare(k, TJ_CMP_GT, before, zero),
                                     tj_const_int(k, TJ_DTYPE_I32, 100000), zero);
            tj_store(k, r.y, &r.tid, 1, tj_binary(k, TJ_BIN_ADD, tj_tile_extract(k, t, &last, 1),
                                                  flag));
            int nx = 3 * B + rows[row].size;
            int32_t *xs = malloc((size_t)nx * sizeof *xs), out[NTHREADS];
            ck_assert_ptr_nonnull(xs);
            for (int i = 0; i < nx; i++)
                xs[i] = i + 1;
            check_switches(f, xy_run(&r, xs, nx, out));
            for (int i = 0; i < NTHREADS; i++) {
                int first = i / B * B;
                bool shared = rows[row].storage == TJ_STORAGE_SHARED;
                int want = first + B <= NTHREADS || shared ? first + B : 0; /* x[first+B-1] */
                want += rows[row].after ? 100000 : 0;             /* x[first + 1] > 0 */
                ck_assert_msg(out[i] == want, "%s, %s tile of %d: y[%d] = %d, expected %d",
                              form_name[f], rows[row].storage == TJ_STORAGE_SHARED ? "shared"
                                                                                   : "register",
                              rows[row].size, i, out[i], want);
            }
            free(xs);
            tj_context_destroy(r.ctx);
        }
}
END_TEST

/* A histogram's bins made again on each trip of a loop (tile_zeros in shared memory), one
 * count added at bin B - 1, which belongs to a lane that does not run in the partial last
 * block (4 lanes): each trip reads 1 there. Before tji_foreach_unowned only the lanes that
 * run zeroed their bins, and the partial block read 1, 2, 3 (found by fuzz/diff_kernels).
 * y[i] = 100 * trips + the count on the last trip, for every thread. */
START_TEST(test_lanes_partial_block_fills_every_element_each_trip)
{
    enum { TRIPS = 3 };
    for (form f = LOOPS; f < NFORMS; f++) {
        xy_kernel r = xy_begin(f, "refill");
        tj_kernel *k = r.k;
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
        tj_val *lane = tj_binary(k, TJ_BIN_MOD, r.tid, tj_block_dim(k));
        tj_val *last = tj_const_int(k, TJ_DTYPE_I32, B - 1);
        tj_val *sum = tj_var_new(k, zero);
        tj_val *got = tj_var_new(k, zero);
        tj_for_begin(k, zero, tj_const_int(k, TJ_DTYPE_I32, TRIPS), one);
        int shape[] = {B};
        tj_val *bins = tj_tile_zeros(k, tj_context_get_type(r.ctx, TJ_DTYPE_I32), 1, shape,
                                     TJ_STORAGE_SHARED);
        tj_tile_scatter_add(k, bins, &last, 1, one, tj_compare(k, TJ_CMP_EQ, lane, zero), NULL);
        tj_val *c = tj_tile_extract(k, bins, &last, 1);
        tj_var_set(k, got, c);
        tj_var_set(k, sum, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, sum), c));
        tj_for_end(k);
        tj_store(k, r.y, &r.tid, 1,
                 tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, tj_var_get(k, sum),
                                                    tj_const_int(k, TJ_DTYPE_I32, 100)),
                           tj_var_get(k, got)));
        int32_t xs[1] = {0}, out[NTHREADS];
        check_switches(f, xy_run(&r, xs, 1, out));
        for (int i = 0; i < NTHREADS; i++)
            ck_assert_msg(out[i] == 100 * TRIPS + 1, "%s: y[%d] = %d, expected %d",
                          form_name[f], i, out[i], 100 * TRIPS + 1);
        tj_context_destroy(r.ctx);
    }
}
END_TEST

/* The IR of 'k' built for 'cpu' without optimisation, where the lane loops' blocks keep
 * their names. */
static const char *
unoptimised_ir(tj_context *ctx, tj_device *cpu, tj_kernel *k)
{
    tj_module *m0 = NULL;
    tj_build_options o0 = {.device = cpu, .keep_ir = true, .opt_level = TJ_OPT_O0};
    ck_assert_msg(tj_kernel_build(k, &o0, &m0) == TJ_OK, "%s", tj_context_error(ctx));
    return tj_module_get_ir(m0);
}

/* One block of B lanes of a kernel whose one parameter is an int32 array y. */
typedef struct one_block {
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k;
    tj_val *y, *lane;
} one_block;

/* The kernel and its parameter y; 'lane' is left NULL. */
static one_block
y_kernel(form f, const char *name)
{
    one_block r = {.lane = NULL};
    r.k = coop_kernel(f, name, B, &r.ctx, &r.cpu);
    r.y = tj_param_array(r.k, "y", tj_context_get_type(r.ctx, TJ_DTYPE_I32), 1);
    return r;
}

/* y_kernel, and the lane from a tid() of two coordinates. */
static one_block
one_block_begin(form f, const char *name)
{
    one_block r = y_kernel(f, name);
    tj_val *tid[2];
    tj_tid(r.k, 2, tid);
    r.lane = tid[1];
    return r;
}

/* Whether the last one_block_end's kernel had uniform loops in its unoptimised IR, and
 * whether a phase chose them only for tiled launches (the kernels call tid()); how many
 * uniform loops it had, and how many of them go straight to the next phase's decision. */
static bool g_uniform, g_tiled;
static int g_copies, g_direct, g_running;

static int count_of(const char *s, const char *what);

/* The uniform loops of unoptimised IR 'ir' ('*copies'), and how many of them, all of whose
 * lanes can stop at one point only, go straight to "lanes.decide" without the scan (their
 * latches among its predecessors). */
static int
direct_copies(const char *ir, int *copies)
{
    *copies = count_of(ir, "\nlanes.uniform.latch");
    const char *d = strstr(ir, "\nlanes.decide:");
    if (!d)
        return 0;
    int n = 0;
    const char *eol = strchr(d + 1, '\n');
    for (const char *p = d; (p = strstr(p, "%lanes.uniform.latch")) && p < eol; p++)
        n++;
    return n;
}

/* Builds the kernel, launches one block on a y of 'n' zeros, reads y into 'out' and returns
 * the fiber switches in the kernel's IR. */
static int
one_block_end(one_block *r, const char *name, int n, int32_t *out)
{
    tj_module *m = build(r->ctx, r->cpu, r->k);
    const char *ir = unoptimised_ir(r->ctx, r->cpu, r->k);
    g_uniform = strstr(ir, "lanes.uniform") != NULL;
    g_tiled = strstr(ir, "lanes.pick.tiled") != NULL;
    g_direct = direct_copies(ir, &g_copies);
    g_running = count_of(ir, "%lanes.alike = icmp");
    tj_array *ya = tjt_array(r->cpu, tj_context_get_type(r->ctx, TJ_DTYPE_I32), n, NULL);
    tj_arg arg = tj_arg_array(ya);
    int64_t nb = 1;
    tjt_ok(r->cpu, tj_launch_tiled(r->cpu, m, name, 1, &nb, B, &arg, 1));
    tjt_ok(r->cpu, tj_device_synchronize(r->cpu));
    tjt_ok(r->cpu, tj_array_copy_to_host(ya, out, (size_t)n * sizeof *out));
    int switches = fiber_switches(m);
    tj_context_destroy(r->ctx);
    return switches;
}

/* Each lane pushes j for j in 0..3 when its lane is odd: a loop of pushes, each with its
 * barriers; then every lane reads the count. With 'loaded', the loop stops at 4 + y[0]
 * (y is zeros), a value that divergence.c cannot show alike in every lane. Returns the
 * fiber switches in its IR. */
static int
run_pushes(form f, bool loaded, int32_t *out)
{
    one_block r = one_block_begin(f, "pushes");
    tj_kernel *k = r.k;
    tj_val *lane = r.lane;
    tj_val *s = tj_tile_stack(k, 4 * B, tj_context_get_type(r.ctx, TJ_DTYPE_I32));
    tj_val *stop = tj_const_int(k, TJ_DTYPE_I32, 4);
    if (loaded) {
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
        stop = tj_binary(k, TJ_BIN_ADD, stop, tj_load(k, r.y, &zero, 1));
    }
    tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0), stop,
                             tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *two = tj_const_int(k, TJ_DTYPE_I32, 2), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_val *odd = tj_compare(k, TJ_CMP_EQ, tj_binary(k, TJ_BIN_MOD, lane, two), one);
    tj_tile_stack_push(k, s, j, odd);
    tj_for_end(k);
    tj_store(k, r.y, &lane, 1, tj_tile_stack_count(k, s));
    return one_block_end(&r, "pushes", B, out);
}

/* Only the default form has the uniform phases' own loops, taken under launch_tiled. */
static void
check_uniform(form f)
{
    ck_assert_msg(g_uniform == (f == LOOPS), "%s: uniform loops %s", form_name[f],
                  g_uniform ? "present" : "missing");
    ck_assert_msg(g_tiled == (f == LOOPS), "%s: the test of a tiled launch %s", form_name[f],
                  g_tiled ? "present" : "missing");
}

START_TEST(test_lanes_a_barrier_in_a_loop)
{
    for (form f = LOOPS; f < NFORMS; f++)
        for (int loaded = 0; loaded < 2; loaded++) {
            int32_t out[B];
            check_switches(f, run_pushes(f, loaded, out));
            check_uniform(f);
            /* The loop's region may stop at its push or after the loop, and goes to the
             * decision without the scan, as do the copies that stop at one point. Where the
             * loop's stop is alike in every lane (divergence.c) so is where the lanes stop,
             * and the copy takes the last lane's point; else it keeps the least and the
             * greatest ("lanes.alike" compares them). */
            if (f == LOOPS) {
                ck_assert_msg(g_copies > 0 && g_direct == g_copies,
                              "%d of %d uniform loops direct", g_direct, g_copies);
                ck_assert_msg((g_running > 0) == loaded, "%s stop: %d running decisions",
                              loaded ? "loaded" : "constant", g_running);
            }
            for (int i = 0; i < B; i++)
                ck_assert_msg(out[i] == 4 * B / 2, "%s: lane %d read a count of %d, expected %d",
                              form_name[f], i, out[i], 4 * B / 2);
        }
}
END_TEST

/* Every lane adds 1 into bin lane % 4 of a shared tile (its trailing barrier is owed), and
 * lane 0 alone reads the bins: the owed barrier comes inside `if lane == 0`, which the
 * other lanes pass by, as with fibers. y[0..3] = the bins, y[4 + lane] = lane. */
static int
run_owed_barrier(form f, int32_t *out)
{
    one_block r = one_block_begin(f, "owed");
    tj_kernel *k = r.k;
    tj_val *y = r.y, *lane = r.lane;
    const tj_type *i32 = tj_context_get_type(r.ctx, TJ_DTYPE_I32);
    int nbins = 4;
    tj_val *bins = tj_tile_zeros(k, i32, 1, &nbins, TJ_STORAGE_SHARED);
    tj_val *bin = tj_binary(k, TJ_BIN_MOD, lane, tj_const_int(k, TJ_DTYPE_I32, nbins));
    tj_tile_scatter_add(k, bins, &bin, 1, tj_const_int(k, TJ_DTYPE_I32, 1), tj_const_bool(k, true),
                        tj_const_bool(k, true));
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, tj_const_int(k, TJ_DTYPE_I32, 0)));
    for (int b = 0; b < nbins; b++) {
        tj_val *at = tj_const_int(k, TJ_DTYPE_I32, b);
        tj_store(k, y, &at, 1, tj_tile_extract(k, bins, &at, 1));
    }
    tj_if_end(k);
    tj_store(k, y, (tj_val *[]){tj_binary(k, TJ_BIN_ADD, lane, tj_const_int(k, TJ_DTYPE_I32, 4))},
             1, lane);
    return one_block_end(&r, "owed", B + 4, out);
}

START_TEST(test_lanes_a_barrier_that_some_lanes_pass_by)
{
    for (form f = LOOPS; f < NFORMS; f++) {
        int32_t out[B + 4];
        check_switches(f, run_owed_barrier(f, out));
        check_uniform(f);
        for (int i = 0; i < B + 4; i++) {
            int want = i < 4 ? B / 4 : i - 4;
            ck_assert_msg(out[i] == want, "%s: y[%d] = %d, expected %d", form_name[f], i, out[i],
                          want);
        }
    }
}
END_TEST

/* Lane 0 alone adds 1 into bin 0 (its owed barrier comes inside `if lane == 0`), then every
 * lane runs a loop of 4 trips whose scatter-add into bin 1 has a barrier: lane 0 reaches
 * that barrier a trip behind the others, so where every lane next stops at it, the lanes
 * are on different trips and their counters differ, though each is computed alike. Each
 * lane adds 1 to y[4 + lane] a trip; y[0..3] = the bins, read after the loop. */
static int
run_loop_after_owed_barrier(form f, int32_t *out)
{
    one_block r = one_block_begin(f, "behind");
    tj_kernel *k = r.k;
    tj_val *y = r.y, *lane = r.lane;
    const tj_type *i32 = tj_context_get_type(r.ctx, TJ_DTYPE_I32);
    int nbins = 4;
    tj_val *bins = tj_tile_zeros(k, i32, 1, &nbins, TJ_STORAGE_SHARED);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0), *one = tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_val *yi = tj_binary(k, TJ_BIN_ADD, lane, tj_const_int(k, TJ_DTYPE_I32, 4));
    tj_store(k, y, &yi, 1, zero);
    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
    tj_tile_scatter_add(k, bins, &zero, 1, one, tj_const_bool(k, true), tj_const_bool(k, true));
    tj_if_end(k);
    tj_for_begin(k, zero, tj_const_int(k, TJ_DTYPE_I32, 4), one);
    tj_tile_scatter_add(k, bins, &one, 1, one, tj_const_bool(k, true), tj_const_bool(k, true));
    tj_store(k, y, &yi, 1, tj_binary(k, TJ_BIN_ADD, tj_load(k, y, &yi, 1), one));
    tj_for_end(k);
    for (int b = 0; b < nbins; b++) {
        tj_val *at = tj_const_int(k, TJ_DTYPE_I32, b);
        tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
        tj_store(k, y, &at, 1, tj_tile_extract(k, bins, &at, 1));
        tj_if_end(k);
    }
    return one_block_end(&r, "behind", B + 4, out);
}

START_TEST(test_lanes_a_loop_after_a_barrier_that_some_lanes_pass_by)
{
    for (form f = LOOPS; f < NFORMS; f++) {
        int32_t out[B + 4];
        check_switches(f, run_loop_after_owed_barrier(f, out));
        for (int i = 0; i < B + 4; i++) {
            int want = i == 0 ? 1 : i == 1 ? 4 * B : i < 4 ? 0 : 4;
            ck_assert_msg(out[i] == want, "%s: y[%d] = %d, expected %d", form_name[f], i, out[i],
                          want);
        }
    }
}
END_TEST

/* A register tile of 64 float32 a lane over 1024 lanes (256 KiB) lives across the
 * reduction's barriers: its per-lane copies would pass the limit, so fibers run it. */
START_TEST(test_lanes_past_the_storage_limit_keep_fibers)
{
    enum { WIDE = 1024, N = WIDE * 64 };
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k = coop_kernel(LOOPS, "big", WIDE, &ctx, &cpu);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
    tj_val *sum = tj_param_array(k, "sum", f32, 1);
    int n = N;
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *t = tj_tile_load(k, x, 1, &n, &zero, TJ_STORAGE_REGISTER);
    tj_tile_store(k, sum, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, t), &zero);
    tj_tile_store(k, y, t, &zero);
    tj_module *m = build(ctx, cpu, k);
    ck_assert_int_gt(fiber_switches(m), 0);
    float *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys), total = 0;
    ck_assert_ptr_nonnull(xs);
    ck_assert_ptr_nonnull(ys);
    for (int i = 0; i < N; i++)
        total += xs[i] = (float)(i % 16);
    tj_array *xa = tjt_array(cpu, f32, N, xs), *ya = tjt_array(cpu, f32, N, NULL);
    tj_array *sa = tjt_array(cpu, f32, 1, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya), tj_arg_array(sa)};
    int64_t nb = 1;
    tjt_ok(cpu, tj_launch_tiled(cpu, m, "big", 1, &nb, WIDE, args, 3));
    tjt_ok(cpu, tj_device_synchronize(cpu));
    float got;
    tjt_ok(cpu, tj_array_copy_to_host(ya, ys, N * sizeof *ys));
    tjt_ok(cpu, tj_array_copy_to_host(sa, &got, sizeof got));
    ck_assert_msg(got == total, "sum %g, expected %g", got, total);
    ck_assert_int_eq(memcmp(xs, ys, N * sizeof *xs), 0);
    free(xs);
    free(ys);
    tj_context_destroy(ctx);
}
END_TEST

/* A module of two kernels: "direct" sums tile(lane) itself; "called" does it twice through
 * a function, which stays a function (two calls) with the reduction's barriers in it. A
 * barrier outside the kernels' own code keeps the fibers for the whole module, and both
 * kernels give their sums (y[0] = 0 + 1 + ... + 31, y[1] = twice that). */
START_TEST(test_lanes_a_barrier_in_a_called_function_keeps_fibers)
{
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *ks[2];
    ks[0] = coop_kernel(LOOPS, "direct", B, &ctx, &cpu);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = B,
                           .cpu_mode = TJ_CPU_COOPERATIVE};
    ks[1] = tj_kernel_create(ctx, "called", &o);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_func *f = tj_func_create(ctx, "block_sum", i32, &o);
    tj_val *fx = tj_param(f, "x", i32);
    tj_val *zero = tj_const_int(f, TJ_DTYPE_I32, 0);
    tj_return(f, tj_tile_extract(f, tj_tile_reduce(f, TJ_REDUCE_ADD, NULL, tj_tile(f, fx, false)),
                                 &zero, 1));
    tj_val *sums[2];
    for (int i = 0; i < 2; i++) {
        tj_kernel *k = ks[i];
        tj_val *y = tj_param_array(k, "y", i32, 1);
        tj_val *tid[2];
        tj_tid(k, 2, tid);
        tj_val *lane = tid[1];
        if (i == 0) {
            tj_val *z = tj_const_int(k, TJ_DTYPE_I32, 0);
            sums[i] = tj_tile_extract(k, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL,
                                                        tj_tile(k, lane, false)), &z, 1);
        } else {
            sums[i] = tj_binary(k, TJ_BIN_ADD, tj_call(k, f, &lane, 1), tj_call(k, f, &lane, 1));
        }
        tj_val *at = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, at));
        tj_store(k, y, &at, 1, sums[i]);
        tj_if_end(k);
        ck_assert_msg(tj_kernel_error(k) == NULL, "builder error: %s", tj_kernel_error(k));
    }
    tj_func_destroy(f);
    tj_module *m = NULL;
    tj_build_options bo = {.device = cpu, .keep_ir = true};
    ck_assert_msg(tj_module_build(ctx, ks, 2, &bo, &m) == TJ_OK, "%s", tj_context_error(ctx));
    ck_assert_int_gt(fiber_switches(m), 0);
    for (int i = 0; i < 2; i++) {
        tj_array *ya = tjt_array(cpu, i32, 1, NULL);
        tj_arg arg = tj_arg_array(ya);
        int64_t nb = 1;
        tjt_ok(cpu, tj_launch_tiled(cpu, m, i ? "called" : "direct", 1, &nb, B, &arg, 1));
        tjt_ok(cpu, tj_device_synchronize(cpu));
        int32_t got;
        tjt_ok(cpu, tj_array_copy_to_host(ya, &got, sizeof got));
        int want = (i + 1) * B * (B - 1) / 2;
        ck_assert_msg(got == want, "kernel %d: sum %d, expected %d", i, got, want);
    }
    tj_context_destroy(ctx);
}
END_TEST

/* tid() in cooperative CPU blocks: under launch_tiled (the last launch dimension is the
 * block width) (block) and (block, lane) take a path without divisions ("tid.tiled");
 * other launches unravel the thread index as before. y[3 t + 0..2] = (tid(1), tid(2)[0],
 * tid(2)[1]) of linear thread t. */
START_TEST(test_lanes_tid_of_tiled_and_other_launches)
{
    one_block r = y_kernel(LOOPS, "coords");
    tj_context *ctx = r.ctx;
    tj_device *cpu = r.cpu;
    tj_kernel *k = r.k;
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_val *y = r.y;
    tj_val *one, *two[2];
    tj_tid(k, 1, &one);
    tj_tid(k, 2, two);
    tj_val *t = tj_binary(
        k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_MUL, two[0], tj_const_int(k, TJ_DTYPE_I32, B)), two[1]);
    tj_val *at = tj_binary(k, TJ_BIN_MUL, t, tj_const_int(k, TJ_DTYPE_I32, 3));
    tj_val *vals[3] = {one, two[0], two[1]};
    for (int i = 0; i < 3; i++)
        tj_store(k, y, (tj_val *[]){tj_binary(k, TJ_BIN_ADD, at, tj_const_int(k, TJ_DTYPE_I32, i))},
                 1, vals[i]);
    tj_module *m = build(ctx, cpu, k);
    ck_assert_ptr_nonnull(strstr(unoptimised_ir(ctx, cpu, k), "tid.tiled"));
    /* y has room for tid(2) = (t0, t1) with t0 < N / 16 and t1 < B */
    enum { NB = 3, N = NB * B, NY = 3 * (N / 16) * B };
    int32_t out[NY];
    tj_array *ya = tjt_array(cpu, i32, NY, NULL);
    tj_arg arg = tj_arg_array(ya);
    for (int launch = 0; launch < 2; launch++) {
        /* launch_tiled(dim=[NB]): dims (NB, B), so tid(1) = t / B and tid(2) = (t / B, t % B);
         * launch(dim=[N / 16, 16]): tid(1) = t / 16 and tid(2) = (t / 16, t % 16). */
        int64_t nb = NB, dims2[2] = {N / 16, 16};
        if (launch == 0)
            tjt_ok(cpu, tj_launch_tiled(cpu, m, "coords", 1, &nb, B, &arg, 1));
        else
            tjt_ok(cpu, tj_launch(cpu, m, "coords", 2, dims2, B, &arg, 1));
        tjt_ok(cpu, tj_device_synchronize(cpu));
        tjt_ok(cpu, tj_array_copy_to_host(ya, out, sizeof out));
        for (int i = 0; i < N; i++) {
            int d1 = launch == 0 ? B : 16;
            int want[3] = {i / d1, i / d1, i % d1};
            /* y is indexed by tid(2)'s (t0 * B + t1), which is i only for the tiled launch */
            int slot = launch == 0 ? i : (i / 16) * B + i % 16;
            for (int c = 0; c < 3; c++)
                ck_assert_msg(out[3 * slot + c] == want[c],
                              "launch %d, thread %d, coordinate %d: %d, expected %d", launch, i,
                              c, out[3 * slot + c], want[c]);
        }
    }
    tj_context_destroy(ctx);
}
END_TEST

/* Occurrences of 'what' in 's'. */
static int
count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* The stores into lanes.resume in 'ir': "store i32 V, ptr %G, align" where %G indexes it. */
static int
resume_stores(const char *ir)
{
    char geps[64][32];
    int ngeps = 0, n = 0;
    for (const char *p = ir; ngeps < 64 && (p = strstr(p, ", ptr %lanes.resume, ")); p++) {
        const char *line = p;
        while (line > ir && line[-1] != '\n')
            line--;
        if (sscanf(line, " %31s = getelementptr", geps[ngeps]) == 1)
            ngeps++;
    }
    for (const char *p = ir; (p = strstr(p, "\n  store i32 ")); p++) {
        const char *ptr = strstr(p, ", ptr %"), *eol = strchr(p + 1, '\n');
        char name[32];
        if (!ptr || (eol && ptr > eol) || sscanf(ptr + 6, "%31[^,]", name) != 1)
            continue;
        for (int i = 0; i < ngeps; i++)
            n += strcmp(name, geps[i]) == 0;
    }
    return n;
}

/* Whether the block named 'label' in 'ir' ends in a conditional branch. */
static bool
ends_in_cond_br(const char *ir, const char *label)
{
    const char *p = strstr(ir, label);
    if (!p)
        return false;
    const char *br = strstr(p, "\n  br ");
    return br && strncmp(br, "\n  br i1 ", 9) == 0;
}

/* A tiled cooperative kernel of B lanes over float32 arrays x and y, in form 'f', whose
 * block b has loaded x[b * PER .. (b + 1) * PER) into a register tile 't' ('off' = b * PER);
 * NB blocks run it. */
enum { NB = 3, PER = 16 * B };
typedef struct tiled_block {
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k;
    const tj_type *f32;
    tj_val *y, *blk, *off, *t;
} tiled_block;

static tiled_block
tiled_begin(form f, const char *name)
{
    tiled_block r;
    r.k = coop_kernel(f, name, B, &r.ctx, &r.cpu);
    r.f32 = tj_context_get_type(r.ctx, TJ_DTYPE_F32);
    tj_val *x = tj_param_array(r.k, "x", r.f32, 1);
    r.y = tj_param_array(r.k, "y", r.f32, 1);
    tj_val *tid[2];
    tj_tid(r.k, 2, tid);
    r.blk = tid[0];
    int shape = PER;
    r.off = tj_binary(r.k, TJ_BIN_MUL, r.blk, tj_const_int(r.k, TJ_DTYPE_I32, PER));
    r.t = tj_tile_load(r.k, x, 1, &shape, &r.off, TJ_STORAGE_REGISTER);
    return r;
}

/* Launches module 'm' of 'r' (kernel 'name') on NB blocks with x = 'xs' (NB * PER) and a y of
 * 'ny' elements, which it reads into 'out'. */
static void
tiled_run(const tiled_block *r, tj_module *m, const char *name, const float *xs, int ny,
          float *out)
{
    tj_array *xa = tjt_array(r->cpu, r->f32, NB * PER, xs);
    tj_array *ya = tjt_array(r->cpu, r->f32, ny, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya)};
    int64_t nb = NB;
    tjt_ok(r->cpu, tj_launch_tiled(r->cpu, m, name, 1, &nb, B, args, 2));
    tjt_ok(r->cpu, tj_device_synchronize(r->cpu));
    tjt_ok(r->cpu, tj_array_copy_to_host(ya, out, (size_t)ny * sizeof *out));
}

/* A whole-tile sum under launch_tiled, as the bench's cooperative sum: each lane loads 16
 * elements (tile_load), tile_reduce adds them up, y[b] = block b's sum (exact: small
 * integers). In the default form the first phase's copy is a loop that LLVM vectorises
 * across lanes: the scratch of the reduction's running total is uniform (its offset, a
 * constant global, is read before the lanes), the entry's test that a lane is inside the
 * launch, true under a tiled launch, is left out of the copies, and the phase picks
 * between two copies by tile_load's test that the tile is inside the array, computed
 * before the lanes ("lanes.enter"); with AVX2 the loads are added as vectors. */
START_TEST(test_lanes_tiled_sum_vectorises)
{
    for (form f = LOOPS; f < NFORMS; f++) {
        tiled_block r = tiled_begin(f, "tsum");
        tj_tile_store(r.k, r.y, tj_tile_reduce(r.k, TJ_REDUCE_ADD, NULL, r.t), &r.blk);
        tj_module *m = build(r.ctx, r.cpu, r.k);
        const char *ir0 = unoptimised_ir(r.ctx, r.cpu, r.k);
        if (f != FIBERS) /* no pointer is carried from lane to lane: the scratch's is uniform */
            ck_assert_msg(strstr(ir0, " x ptr], align") == NULL, "%s: a lane array of pointers",
                          form_name[f]);
        ck_assert_msg(ends_in_cond_br(ir0, "\nlanes.enter:") == (f == LOOPS),
                      "%s: the first phase %s its copies by the tile's test", form_name[f],
                      f == LOOPS ? "does not pick" : "picks");
        if (f == LOOPS) {
            /* the lane.live compare of the general loop, and none in the copies */
            ck_assert_int_eq(count_of(ir0, ", %n\n"), 1);
            if (__builtin_cpu_supports("avx2"))
                ck_assert_ptr_nonnull(strstr(tj_module_get_ir(m), "fadd reassoc <"));
        }
        float xs[NB * PER], out[NB], want[NB] = {0};
        for (int i = 0; i < NB * PER; i++) {
            xs[i] = (float)(i % 7 - 3) + (float)(i / PER);
            want[i / PER] += xs[i];
        }
        tiled_run(&r, m, "tsum", xs, NB, out);
        for (int b = 0; b < NB; b++)
            ck_assert_msg(out[b] == want[b], "%s: block %d: %g, expected %g", form_name[f], b,
                          out[b], want[b]);
        tj_context_destroy(r.ctx);
    }
}
END_TEST

/* A cooperative kernel 'name' of block_dim 'w' (in a new context, on its CPU device) that
 * reduces its block's tile of 'per' elements of x (dtype 'dt') with 'op' into y[block]:
 * tile_load at block * per, tile_reduce, tile_store. TJ_REDUCE_FUNC reduces with a user
 * function add(a, b) = a + b. Built. */
static tj_module *
reduce_rows(const char *name, int w, int per, tj_dtype dt, tj_reduce_op op, tj_context **ctx,
            tj_device **cpu)
{
    tj_kernel *k = coop_kernel(LOOPS, name, w, ctx, cpu);
    const tj_type *t = tj_context_get_type(*ctx, dt);
    tj_val *x = tj_param_array(k, "x", t, 1), *y = tj_param_array(k, "y", t, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, per));
    tj_val *tile = tj_tile_load(k, x, 1, &per, &off, TJ_STORAGE_REGISTER);
    tj_func *f = NULL;
    if (op == TJ_REDUCE_FUNC) {
        tj_kernel_options fo = {.target = TJ_TARGET_CPU, .block_dim = (uint32_t)w,
                                .cpu_mode = TJ_CPU_COOPERATIVE};
        f = tj_func_create(*ctx, "add", t, &fo);
        tj_val *a = tj_param(f, "a", t), *b = tj_param(f, "b", t);
        tj_return(f, tj_binary(f, TJ_BIN_ADD, a, b));
    }
    tj_tile_store(k, y, tj_tile_reduce(k, op, f, tile), &tid[0]);
    return build(*ctx, *cpu, k);
}

/* A cooperative int32 kernel 'name' (form f, block_dim w) with arrays x and out, a block's
 * tid()s, its start (block * per) and a stack of 'per' elements: the drains below. */
typedef struct keeper {
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k;
    const tj_type *i32;
    tj_val *x, *out, *tid[2], *start, *s;
} keeper;

static keeper
keeper_begin(form f, const char *name, int w, int per)
{
    keeper q;
    q.k = coop_kernel(f, name, w, &q.ctx, &q.cpu);
    q.i32 = tj_context_get_type(q.ctx, TJ_DTYPE_I32);
    q.x = tj_param_array(q.k, "x", q.i32, 1);
    q.out = tj_param_array(q.k, "out", q.i32, 1);
    tj_tid(q.k, 2, q.tid);
    q.start = tj_binary(q.k, TJ_BIN_MUL, q.tid[0], tj_const_int(q.k, TJ_DTYPE_I32, per));
    q.s = tj_tile_stack(q.k, per, q.i32);
    return q;
}

static int
cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* A compaction's loop over its block's elements, a step of W lanes at a time (load x where
 * it is in the array, push what is kept), as the bench's: between two steps the block runs
 * its pushes, so the lanes' loop that loads x prefetches 4 steps ahead (jit/prefetch.c:
 * 4 * W * 4 bytes; none under TILEJIT_CPU_PREFETCH=off), and the blocks keep the same
 * values either way (the multiset of each block's values >= 0). W = 256, the bench's, whose
 * lanes' loop LLVM writes out in one block of 16 vectors on a host with 512-bit vectors
 * (the loads are marked before the pipeline), and 1024, a loop on every host. */
START_TEST(test_lanes_loads_prefetch_later_steps)
{
    enum { WMAX = 1024, NBLK = 3, NXMAX = NBLK * 4 * WMAX };
    const int W = _i ? 1024 : 256, ITEMS = 4 * W, NX = NBLK * ITEMS;
    char at[32];
    snprintf(at, sizeof at, ", i64 %d", 4 * W * 4);
    for (int off = 0; off < 2; off++) { /* TILEJIT_CPU_PREFETCH=off: none */
        if (off)
            ck_assert_int_eq(setenv("TILEJIT_CPU_PREFETCH", "off", 1), 0);
        keeper q = keeper_begin(LOOPS, "keep", W, ITEMS);
        unsetenv("TILEJIT_CPU_PREFETCH");
        tj_kernel *k = q.k;
        tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0),
                                 tj_const_int(k, TJ_DTYPE_I32, ITEMS), tj_block_dim(k));
        tj_val *i = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, q.start, j), q.tid[1]);
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_val *has = tj_compare(k, TJ_CMP_LT, i, tj_shape(k, q.x, 0));
        tj_val *safe = tj_select(k, has, i, zero);
        tj_val *v = tj_load(k, q.x, &safe, 1);
        tj_val *keep = tj_binary(k, TJ_BIN_AND, has, tj_compare(k, TJ_CMP_GE, v, zero));
        tj_tile_stack_push(k, q.s, v, keep);
        tj_for_end(k);
        tjt_drain(k, q.s, q.out, q.start);
        tj_module *m = build(q.ctx, q.cpu, k);
        const char *ir = tj_module_get_ir(m);
        bool ahead = false;
        for (const char *p = ir; !ahead && (p = strstr(p, "= getelementptr i8, ptr ")); p++) {
            const char *eol = strchr(p, '\n');
            size_t n = strlen(at);
            ahead = eol && (size_t)(eol - p) > n && strncmp(eol - n, at, n) == 0;
        }
        bool prefetches = strstr(ir, "call void @llvm.prefetch") != NULL;
        ck_assert_msg(prefetches == !off, "W %d: %s prefetch", W, off ? "a" : "no");
        ck_assert_msg(ahead == !off, "W %d: %s address %d bytes ahead", W, off ? "an" : "no",
                      4 * W * 4);
        static int32_t xs[NXMAX], outs[NXMAX];
        for (int e = 0; e < NX; e++)
            xs[e] = (e * 7919) % 201 - 100;
        tj_array *xa = tjt_array(q.cpu, q.i32, NX, xs), *oa = tjt_array(q.cpu, q.i32, NX, NULL);
        tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
        int64_t nb = NBLK;
        tjt_ok(q.cpu, tj_launch_tiled(q.cpu, m, "keep", 1, &nb, W, args, 2));
        tjt_ok(q.cpu, tj_device_synchronize(q.cpu));
        tjt_ok(q.cpu, tj_array_copy_to_host(oa, outs, (size_t)NX * sizeof outs[0]));
        for (int b = 0; b < NBLK; b++) {
            int32_t want[4 * WMAX];
            int n = 0;
            for (int e = 0; e < ITEMS; e++)
                if (xs[b * ITEMS + e] >= 0)
                    want[n++] = xs[b * ITEMS + e];
            qsort(want, (size_t)n, sizeof want[0], cmp_i32);
            qsort(outs + b * ITEMS, (size_t)n, sizeof outs[0], cmp_i32);
            ck_assert_msg(n > 0 &&
                              memcmp(want, outs + b * ITEMS, (size_t)n * sizeof want[0]) == 0,
                          "block %d: its %d kept values differ", b, n);
        }
        tj_context_destroy(q.ctx);
    }
}
END_TEST

/* A whole-tile fold of R rows of W lanes under launch_tiled (tile_load, tile_reduce,
 * tile_store of y[b]), cooperative, in the default form. The lanes' loop that folds each
 * lane's R elements (one of every row) reads the rows one after the other
 * (jit/row_order.c) at W = 256 and R = 16, the bench's sum: with AVX-512 (16 vectors of 16
 * lanes) the partials stay in registers ("rows.fold"); with AVX2 (32 vectors of 8, more than
 * the registers hold) the lanes' partials, which the lanes only fold into one total in turn,
 * become one fold of the whole tile into four vectors ("rows.whole", the operation's
 * identity in the other lanes' partials; at R = 5 LLVM unrolls the loop fully), but a user
 * function's partials, which the lanes fold in their order, stay each lane's own, in the
 * lanes' array ("rows.init"). Each row's address is its offset from the first (the rows are
 * evenly apart), not a pointer from a table. The same results in every case: float32 sums of small
 * integers (exact), int32 sums, products, and bitwise and, or and xor (exact, wrapping; the
 * identities 0, 1, all ones) and sums by a user function, at W = 64, 256 and 512 and R = 5
 * and 16. */
START_TEST(test_lanes_tile_rows_fold_one_after_the_other)
{
    enum { NBL = 3, NOPS = 7 };
    static const int widths[] = {64, 256, 512}, heights[] = {5, 16};
    static const tj_reduce_op ops[] = {TJ_REDUCE_ADD,     TJ_REDUCE_ADD,    TJ_REDUCE_MUL,
                                       TJ_REDUCE_BIT_AND, TJ_REDUCE_BIT_OR, TJ_REDUCE_BIT_XOR,
                                       TJ_REDUCE_FUNC};
    static const tj_dtype dts[] = {TJ_DTYPE_F32, TJ_DTYPE_I32, TJ_DTYPE_I32, TJ_DTYPE_I32,
                                   TJ_DTYPE_I32, TJ_DTYPE_I32, TJ_DTYPE_I32};
    for (int wi = 0; wi < 3; wi++)
        for (int hi = 0; hi < 2; hi++)
            for (int oi = 0; oi < NOPS; oi++) {
                int w = widths[wi], per = heights[hi] * w;
                tj_context *ctx;
                tj_device *cpu;
                tj_module *m = reduce_rows("rows", w, per, dts[oi], ops[oi], &ctx, &cpu);
                const tj_type *t = tj_context_get_type(ctx, dts[oi]);
                bool f = ops[oi] == TJ_REDUCE_FUNC;
                bool avx512 = __builtin_cpu_supports("avx512f");
                if (w == 256 && heights[hi] == 16 && (avx512 || __builtin_cpu_supports("avx2"))) {
                    const char *ir = tj_module_get_ir(m), *form = avx512 ? "rows.fold"
                                                                  : f      ? "rows.init"
                                                                           : "rows.whole";
                    ck_assert_msg(strstr(ir, form) != NULL,
                                  "W %d, R %d, op %d: the rows not folded one after the other "
                                  "(%s)", w, heights[hi], oi, form);
                    ck_assert_msg(!strstr(ir, f ? "rows.whole" : "rows.init"),
                                  "W %d, R %d, op %d: the partials %s", w, heights[hi], oi,
                                  f ? "folded as one" : "in memory");
                    /* rows read in order stream: only lanes' loops prefetch (prefetch.c) */
                    ck_assert_msg(!strstr(ir, "@llvm.prefetch"), "W %d, R %d, op %d: the "
                                  "rows prefetched", w, heights[hi], oi);
                    /* a tile's rows are evenly apart: each row's address is computed, not
                     * loaded from a table (row_order.c's rows_table) */
                    ck_assert_msg(!strstr(ir, "rows.table"), "W %d, R %d, op %d: the rows' "
                                  "pointers in a table", w, heights[hi], oi);
                }
                int n = NBL * per;
                float *xf = malloc((size_t)n * sizeof *xf);
                int32_t *xi = malloc((size_t)n * sizeof *xi);
                double wantf[NBL] = {0};
                uint32_t wanti[NBL];
                tj_reduce_op op = ops[oi];
                for (int b = 0; b < NBL; b++)
                    wanti[b] = op == TJ_REDUCE_MUL ? 1u : op == TJ_REDUCE_BIT_AND ? ~0u : 0u;
                for (int e = 0; e < n; e++) {
                    xf[e] = (float)(e % 11 - 5);
                    xi[e] = (e * 7919) % 97 - 40;
                    if (op == TJ_REDUCE_BIT_AND) /* each clears one of bits 0-30 */
                        xi[e] = ~(1 << (e * 13 % 31));
                    else if (op == TJ_REDUCE_BIT_OR) /* one of bits 0-28 each */
                        xi[e] = 1 << (e * 7 % 29);
                    else if (op == TJ_REDUCE_BIT_XOR)
                        xi[e] = e % 4093 == 5 ? -2 : 1 << (e * 7 % 29);
                    uint32_t v = (uint32_t)xi[e], *acc = &wanti[e / per];
                    wantf[e / per] += xf[e];
                    bool add = op == TJ_REDUCE_ADD || op == TJ_REDUCE_FUNC;
                    *acc = op == TJ_REDUCE_MUL       ? *acc * v
                           : add                     ? *acc + v
                           : op == TJ_REDUCE_BIT_AND ? *acc & v
                           : op == TJ_REDUCE_BIT_OR  ? *acc | v
                                                     : *acc ^ v;
                }
                bool fl = dts[oi] == TJ_DTYPE_F32;
                tj_array *xa = tjt_array(cpu, t, n, fl ? (const void *)xf : (const void *)xi);
                tj_array *ya = tjt_array(cpu, t, NBL, NULL);
                tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya)};
                int64_t nb = NBL;
                tjt_ok(cpu, tj_launch_tiled(cpu, m, "rows", 1, &nb, w, args, 2));
                tjt_ok(cpu, tj_device_synchronize(cpu));
                float yf[NBL];
                int32_t yi[NBL];
                tjt_ok(cpu, tj_array_copy_to_host(ya, fl ? (void *)yf : (void *)yi, sizeof yf));
                for (int b = 0; b < NBL; b++)
                    if (fl)
                        ck_assert_msg(yf[b] == (float)wantf[b], "W %d, R %d: block %d sums to %g, "
                                      "expected %g", w, heights[hi], b, yf[b], wantf[b]);
                    else
                        ck_assert_msg(yi[b] == (int32_t)wanti[b], "W %d, R %d, op %d: block %d "
                                      "gives %d, expected %d", w, heights[hi], oi, b, yi[b],
                                      (int32_t)wanti[b]);
                free(xf);
                free(xi);
                tj_context_destroy(ctx);
            }
}
END_TEST

/* Launches kernel 'name' of 'm' over 'nbl' blocks of 'w' lanes with arguments (x, y), y a
 * new array of 'nbl' elements of 'f32', and copies y into 'out'. */
static void
launch_x_y(tj_device *cpu, tj_module *m, const char *name, int w, const tj_type *f32,
           tj_array *x, int nbl, float *out)
{
    tj_array *y = tjt_array(cpu, f32, nbl, NULL);
    tj_arg args[] = {tj_arg_array(x), tj_arg_array(y)};
    int64_t nb = nbl;
    tjt_ok(cpu, tj_launch_tiled(cpu, m, name, 1, &nb, (uint32_t)w, args, 2));
    tjt_ok(cpu, tj_device_synchronize(cpu));
    tjt_ok(cpu, tj_array_copy_to_host(y, out, (size_t)nbl * sizeof *out));
}

/* A whole-tile fold of a (16, 256) tile of a 2-D array whose row pitch is the array's, known
 * only at launch: the rows' pointers are not a constant apart, so the loop over the rows
 * (jit/row_order.c) reads them from a table ("rows.table"; with AVX-512, where the partials
 * stay in registers). The sums are exact (small integers), for pitches of 256, 264 and 300
 * elements, with the table's pointers built once per block. */
START_TEST(test_lanes_tile_rows_fold_of_a_pitched_array)
{
    enum { W = 256, R = 16, NBL = 3 };
    static const int pitches[] = {256, 264, 300};
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k = coop_kernel(LOOPS, "pitched", W, &ctx, &cpu);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    tj_val *x = tj_param_array(k, "x", f32, 2), *y = tj_param_array(k, "y", f32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    int shape[] = {R, W};
    tj_val *at[] = {tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, R)),
                    tj_const_int(k, TJ_DTYPE_I32, 0)};
    tj_val *tile = tj_tile_load(k, x, 2, shape, at, TJ_STORAGE_REGISTER);
    tj_tile_store(k, y, tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, tile), &tid[0]);
    tj_module *m = build(ctx, cpu, k);
    if (__builtin_cpu_supports("avx512f")) {
        const char *ir = tj_module_get_ir(m);
        ck_assert_msg(strstr(ir, "rows.fold") != NULL, "the rows not folded one after the other");
        ck_assert_msg(strstr(ir, "rows.table") != NULL, "no table of the rows' pointers");
    }
    for (int pi = 0; pi < 3; pi++) {
        int pitch = pitches[pi];
        int64_t dims[] = {NBL * R, pitch};
        float *xs = malloc((size_t)(NBL * R * pitch) * sizeof *xs);
        double want[NBL] = {0};
        for (int i = 0; i < NBL * R; i++)
            for (int j = 0; j < pitch; j++) {
                xs[i * pitch + j] = (float)((i * 31 + j * 7) % 23 - 11);
                if (j < W)
                    want[i / R] += xs[i * pitch + j];
            }
        tj_array *xa = NULL;
        tjt_ok(cpu, tj_array_create(cpu, f32, 2, dims, &xa));
        tjt_ok(cpu, tj_array_copy_from_host(xa, xs, tj_array_get_bytes(xa)));
        float ys[NBL];
        launch_x_y(cpu, m, "pitched", W, f32, xa, NBL, ys);
        for (int b = 0; b < NBL; b++)
            ck_assert_msg(ys[b] == (float)want[b], "pitch %d: block %d sums to %g, expected %g",
                          pitch, b, ys[b], want[b]);
        free(xs);
    }
    tj_context_destroy(ctx);
}
END_TEST

/* The longest path of dependent float adds in the optimised IR 'ir' (each 'fadd' one step
 * more than the deeper of its operands; anything else starts again at 0). */
static int
fadd_depth(const char *ir)
{
    enum { MAXN = 4096 };
    static char names[MAXN][48];
    static int depth[MAXN];
    int n = 0, deepest = 0;
    for (const char *line = ir, *nl; line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        char def[48], a[48], b[48];
        if (n == MAXN ||
            sscanf(line, " %%%47[^ ] = fadd %*[^%%]%%%47[^,], %%%47[^ \n,]", def, a, b) != 3)
            continue;
        int d = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], a) == 0 || strcmp(names[i], b) == 0)
                d = depth[i] > d ? depth[i] : d;
        snprintf(names[n], sizeof names[n], "%s", def);
        depth[n++] = d + 1;
        deepest = d + 1 > deepest ? d + 1 : deepest;
    }
    return deepest;
}

/* A cooperative block's lanes fold their tile_reduce partials into one total in turn; LLVM
 * vectorises that lanes' loop with one accumulator and unrolls it, a chain of W / VF - 1
 * dependent adds (31 with AVX2 at W = 256, 15 with AVX-512), then the scalar tail's.
 * jit/balance.c makes such chains trees: no path of more than 8 dependent float adds in
 * the kernel (5 for 32 vectors), and the block totals exact (sums of small integers). */
START_TEST(test_lanes_turns_total_as_a_tree)
{
    enum { W = 256, PER = 16 * W, NBL = 2 };
    tj_context *ctx;
    tj_device *cpu;
    tj_module *m = reduce_rows("turns", W, PER, TJ_DTYPE_F32, TJ_REDUCE_ADD, &ctx, &cpu);
    const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
    int depth = fadd_depth(tj_module_get_ir(m));
    ck_assert_msg(depth >= 1 && depth <= 8, "a path of %d dependent float adds", depth);
    static float xf[NBL * PER];
    double want[NBL] = {0};
    for (int e = 0; e < NBL * PER; e++) {
        xf[e] = (float)(e % 13 - 6) * (e % 2 ? 1.0f : 0.5f);
        want[e / PER] += xf[e];
    }
    float yf[NBL];
    launch_x_y(cpu, m, "turns", W, f32, tjt_array(cpu, f32, NBL * PER, xf), NBL, yf);
    for (int b = 0; b < NBL; b++)
        ck_assert_msg(yf[b] == (float)want[b], "block %d sums to %g, expected %g", b, yf[b],
                      want[b]);
    tj_context_destroy(ctx);
}
END_TEST

/* A copy of R rows of 256 lanes under launch_tiled: tile_load of x at b * 256 R, tile_store
 * at b * 256 R + shift into y, cooperative. With AVX-512 the lanes' loop of loads and stores
 * copies the rows one after the other ("rows.copy": jit/row_order.c) where the vectoriser
 * found x and y apart; the results are those of the lane loops without uniform copies
 * (TILEJIT_CPU_LANES=switch), which never take that form: y = x for separate arrays, and
 * whatever the lanes' order gives when y is x and the shift 8 (a tile's rows overlap the
 * rows it reads). R = 5 and 16. */
START_TEST(test_lanes_tile_rows_copy_one_after_the_other)
{
    enum { W = 256, NBL = 3 };
    static const int heights[] = {5, 16};
    for (int hi = 0; hi < 2; hi++)
        for (int same = 0; same < 2; same++) {
            int per = heights[hi] * W, n = NBL * per + 8;
            float *xs = malloc((size_t)n * sizeof *xs), *out[2];
            for (int e = 0; e < n; e++)
                xs[e] = (float)(e % 13) + (float)e / 4096.0f;
            for (form f = LOOPS; f <= SWITCH; f++) {
                tj_context *ctx;
                tj_device *cpu;
                tj_kernel *k = coop_kernel(f, "rows", W, &ctx, &cpu);
                const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
                const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
                tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
                tj_val *shift = tj_param(k, "shift", i32);
                tj_val *tid[2];
                tj_tid(k, 2, tid);
                tj_val *off = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, per));
                tj_val *tile = tj_tile_load(k, x, 1, &per, &off, TJ_STORAGE_REGISTER);
                tj_val *to = tj_binary(k, TJ_BIN_ADD, off, shift);
                tj_tile_store(k, y, tile, &to);
                tj_module *m = build(ctx, cpu, k);
                if (f == LOOPS && heights[hi] == 16 && __builtin_cpu_supports("avx512f")) {
                    ck_assert_msg(strstr(tj_module_get_ir(m), "rows.copy") != NULL,
                                  "R %d: the rows not copied one after the other", heights[hi]);
                    ck_assert_msg(!strstr(tj_module_get_ir(m), "@llvm.prefetch"),
                                  "R %d: the rows prefetched", heights[hi]);
                }
                if (f == SWITCH)
                    ck_assert_ptr_null(strstr(tj_module_get_ir(m), "rows."));
                tj_array *xa = tjt_array(cpu, f32, n, xs);
                tj_array *ya = same ? xa : tjt_array(cpu, f32, n, NULL);
                tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya), tj_arg_int(same ? 8 : 0)};
                int64_t nb = NBL;
                /* with y = x, a block writes the first rows the next block reads: blocks in
                 * turn, as concurrent ones make that a race (valgrind's scheduling lost it) */
                if (same)
                    tjt_ok(cpu, tj_device_set_cpu_threads(cpu, 1));
                tjt_ok(cpu, tj_launch_tiled(cpu, m, "rows", 1, &nb, W, args, 3));
                tjt_ok(cpu, tj_device_synchronize(cpu));
                out[f] = malloc((size_t)n * sizeof *out[f]);
                tjt_ok(cpu, tj_array_copy_to_host(ya, out[f], (size_t)n * sizeof *out[f]));
                tj_context_destroy(ctx);
            }
            for (int e = 0; e < n; e++) {
                ck_assert_msg(out[LOOPS][e] == out[SWITCH][e], "R %d, same %d: y[%d] = %g, with "
                              "lane loops without copies %g", heights[hi], same, e,
                              out[LOOPS][e], out[SWITCH][e]);
                if (!same && e < NBL * per)
                    ck_assert_msg(out[LOOPS][e] == xs[e], "R %d: y[%d] = %g, expected %g",
                                  heights[hi], e, out[LOOPS][e], xs[e]);
            }
            free(out[LOOPS]);
            free(out[SWITCH]);
            free(xs);
        }
}
END_TEST

/* How many of the blocks whose names start with 'label' end in a conditional branch. */
static int
cond_br_blocks(const char *ir, const char *label)
{
    int n = 0;
    for (const char *p = ir; (p = strstr(p, label)); p += strlen(label))
        n += ends_in_cond_br(p, label);
    return n;
}

/* A copy through a shared tile under launch_tiled, as the bench's cooperative copy: tile_load
 * of 16 elements a lane, tile_zeros of a shared tile, tile_assign of all of it, tile_store,
 * y = x exactly. The assign drops the fill, and with it the fill's barrier and its own
 * barrier before (builtins/memory.c, drop_fill); each lane then stores the elements it
 * wrote itself, which needs no barrier after the assign either (tji_barrier_owed_for), and
 * reads them in its registers. So the kernel has no barrier left: one phase, whose copies
 * know tid() is (block, lane) and pick by the tests that the tiles are inside the arrays,
 * and stop at the return, going to the decision without the scan. Nothing reads the shared
 * tile, and the block's shared memory is a local array of it (target_host.c, local_arena):
 * LLVM drops the stores into it, and the optimised IR has no shared memory left. */
START_TEST(test_lanes_tiled_copy_knows_tid_across_barriers)
{
    for (form f = LOOPS; f < NFORMS; f++) {
        tiled_block r = tiled_begin(f, "tcopy");
        int shape = PER;
        tj_val *buf = tj_tile_zeros(r.k, r.f32, 1, &shape, TJ_STORAGE_SHARED);
        tj_view_index all = tj_view_slice(TJ_SLICE_NONE, TJ_SLICE_NONE, TJ_SLICE_NONE);
        tj_val *view = tj_tile_view(r.k, buf, &all, 1, NULL, 0);
        tj_tile_assign(r.k, view, r.t, NULL);
        tj_tile_store(r.k, r.y, view, &r.off);
        tj_module *m = build(r.ctx, r.cpu, r.k);
        const char *ir0 = unoptimised_ir(r.ctx, r.cpu, r.k);
        int picks = cond_br_blocks(ir0, "\nlanes.enter");
        ck_assert_msg(picks == (f == LOOPS ? 1 : 0), "%s: %d phases pick their copies",
                      form_name[f], picks);
        if (f == LOOPS) {
            ck_assert_int_eq(count_of(ir0, "\nlanes.enter"), 1);
            /* both copies stop at the return: neither needs the scan after it */
            int copies, direct = direct_copies(ir0, &copies);
            ck_assert_int_eq(copies, 2);
            ck_assert_int_eq(direct, 2);
            /* Nothing reads the resume points after a copy that decides directly, nor at
             * the start, where every lane is at point 0: only the general loop's return
             * stores one, and no memset clears them (the memsets are the partial
             * block's clear of its shared memory, and the dropped fill's, which clears
             * the tile where lanes do not run: gone once optimised). */
            ck_assert_int_eq(resume_stores(ir0), 1);
            for (const char *p = ir0; (p = strstr(p, "call void @llvm.memset")); p++) {
                const char *eol = strchr(p, '\n');
                int n = eol ? (int)(eol - p) : (int)strlen(p);
                ck_assert_msg(!memmem(p, (size_t)n, "%lanes.", 7), "a memset of per-lane "
                              "state: %.*s", n, p);
            }
            ck_assert_int_eq(count_of(ir0, "call void @llvm.memset.p0.i64(ptr align 64 %tj.arena,"),
                             1);
            ck_assert_msg(strstr(tj_module_get_ir(m), "call void @llvm.memset") == NULL,
                          "the optimised IR still clears shared memory");
            ck_assert_msg(strstr(tj_module_get_ir(m), "%tj.arena") == NULL,
                          "the optimised IR still uses shared memory");
        }
        float xs[NB * PER], out[NB * PER];
        for (int i = 0; i < NB * PER; i++)
            xs[i] = (float)i * 0.5f - 7.0f;
        tiled_run(&r, m, "tcopy", xs, NB * PER, out);
        for (int i = 0; i < NB * PER; i++)
            ck_assert_msg(out[i] == xs[i], "%s: y[%d] = %g, expected %g", form_name[f], i,
                          out[i], xs[i]);
        tj_context_destroy(r.ctx);
    }
}
END_TEST

/* A kernel without barriers: y[t] = 2 t for even t, and odd lanes return first, on a launch
 * of NTHREADS threads whose last block is partial. With TILEJIT_CPU_LANES=switch it takes
 * one pass over the lanes (no phases, "lanes.phase" is not in its IR); by default its one
 * phase has copies, as a phase after a barrier does (they know tid() under a tiled launch
 * and pick by the tiles' tests; lane_loops.c), each going straight to the decision after
 * its last lane, every lane having returned. */
START_TEST(test_lanes_without_barriers)
{
    for (form f = LOOPS; f <= SWITCH; f++) {
        one_block r = y_kernel(f, "evens");
        tj_context *ctx = r.ctx;
        tj_device *cpu = r.cpu;
        tj_kernel *k = r.k;
        const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
        tj_val *y = r.y;
        tj_val *t;
        tj_tid(k, 1, &t);
        tj_val *one = tj_const_int(k, TJ_DTYPE_I32, 1);
        tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, tj_binary(k, TJ_BIN_BIT_AND, t, one), one));
        tj_return(k, NULL);
        tj_if_end(k);
        tj_store(k, y, &t, 1, tj_binary(k, TJ_BIN_MUL, t, tj_const_int(k, TJ_DTYPE_I32, 2)));
        tj_module *m = build(ctx, cpu, k);
        const char *ir = unoptimised_ir(ctx, cpu, k);
        ck_assert_ptr_nonnull(strstr(ir, "lanes.head"));
        int copies, direct = direct_copies(ir, &copies);
        if (f == SWITCH) {
            ck_assert_ptr_null(strstr(ir, "lanes.phase"));
            ck_assert_int_eq(copies, 0);
        } else {
            ck_assert_int_eq(copies, 1);
            ck_assert_int_eq(direct, 1);
        }
        int32_t init[NTHREADS], out[NTHREADS];
        for (int i = 0; i < NTHREADS; i++)
            init[i] = -1;
        tj_array *ya = tjt_array(cpu, i32, NTHREADS, init);
        tj_arg arg = tj_arg_array(ya);
        int64_t n = NTHREADS;
        tjt_ok(cpu, tj_launch(cpu, m, "evens", 1, &n, B, &arg, 1));
        tjt_ok(cpu, tj_device_synchronize(cpu));
        tjt_ok(cpu, tj_array_copy_to_host(ya, out, sizeof out));
        for (int i = 0; i < NTHREADS; i++)
            ck_assert_msg(out[i] == (i % 2 ? -1 : 2 * i), "%s: y[%d] = %d", form_name[f], i,
                          out[i]);
        tj_context_destroy(ctx);
    }
}
END_TEST

/* The largest step of a vector loop's index in 'ir' ("%index.next = add nuw i64 %index, K"). */
static int
largest_index_step(const char *ir)
{
    int most = 0;
    for (const char *p = ir; (p = strstr(p, " = add nuw i64 %index")); p++) {
        const char *comma = strchr(p, ','), *eol = strchr(p, '\n');
        if (comma && (!eol || comma < eol) && atoi(comma + 1) > most)
            most = atoi(comma + 1);
    }
    return most;
}

static int
by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The bench's cooperative compaction (bench/kernels.c) at 256 lanes, 1024 elements a block:
 * for j in range(0, 1024, 256), push x[base + j + lane] when below 0.5; one tile_atomic_add
 * of the count per block, which lane 0 alone does; then the lanes drain the stack into out.
 * LLVM peels lane 0 off the loop phase's uniform copy to drop its test, leaving 255 lanes:
 * the copies ask for one vector per iteration (llvm.loop.interleave.count 1), so that fewer
 * than one vector's worth of lanes run in the scalar remainder (four vectors of 8 per
 * iteration left 31, which took as long as the vector loop). The copies for lanes that agree
 * on the loop's counter (the facts' copies) take the loop's tests, computed from lane 0's
 * counter before the lanes, as true: the loop's way out, with lane 0's tile_atomic_add, is
 * then in the other copies only, which a phase takes on the last trip, and LLVM has no lane
 * to peel off the copy that every other trip runs. Exact in every form: the count, and out
 * holds the kept values; with AVX2 no vector loop steps by more than 16 lanes. */
START_TEST(test_lanes_one_lanes_action_leaves_a_short_remainder)
{
    enum { W = 256, ITEMS = 4 * W, NBL = 3, N = NBL * ITEMS - 100 };
    static float xs[N], out[N], want[N];
    int nwant = 0;
    for (int i = 0; i < N; i++) {
        xs[i] = (float)((i * 37) % 101) / 100.0f;
        if (xs[i] < 0.5f)
            want[nwant++] = xs[i];
    }
    qsort(want, (size_t)nwant, sizeof *want, by_value);
    for (form f = LOOPS; f < NFORMS; f++) {
        tj_context *ctx;
        tj_device *cpu;
        tj_kernel *k = coop_kernel(f, "compact", W, &ctx, &cpu);
        const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
        const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
        tj_val *x = tj_param_array(k, "x", f32, 1), *o = tj_param_array(k, "out", f32, 1);
        tj_val *count = tj_param_array(k, "count", i32, 1);
        tj_val *two[2];
        tj_tid(k, 2, two);
        tj_val *s = tj_tile_stack(k, ITEMS, f32);
        tjt_push_below_half(k, x, s, two, ITEMS);
        int one = 1;
        tj_val *kept = tj_binary(k, TJ_BIN_MUL, tj_tile_ones(k, i32, 1, &one, TJ_STORAGE_REGISTER),
                                 tj_tile_stack_count(k, s));
        tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
        tj_val *start = tj_tile_extract(k, tj_tile_atomic_add(k, count, kept, NULL), &zero, 1);
        tjt_drain(k, s, o, start);
        tj_module *m = build(ctx, cpu, k);
        if (f == LOOPS) {
            const char *ir0 = unoptimised_ir(ctx, cpu, k);
            ck_assert_ptr_nonnull(strstr(ir0, "!\"llvm.loop.interleave.count\", i32 1}"));
            /* the head's and the latch's test, in the facts' copies of the loop's phases, the
             * test that the loop's range checks hold (loop.ranges), in the two copies of the
             * phase that enters the loop that take it as true, and the drain's 'slot >= 0' in
             * the facts' copies of its two phases that store */
            int known = count_of(ir0, "br i1 true,");
            ck_assert_msg(known == 12, "%d branches on true, expected 12", known);
            /* the loop's index, lane 0's plus the lane by construction, is that in the copies
             * that do not take the loop's tests as true too (its last trip: 26 lane 0's
             * plus the lane in all, 10 in the facts' copies alone) */
            int ups = count_of(ir0, "%lanes.up");
            ck_assert_msg(ups >= 20, "%d uses of lane 0's index plus the lane, expected 26", ups);
            if (__builtin_cpu_supports("avx2")) {
                int step = largest_index_step(tj_module_get_ir(m));
                ck_assert_msg(step > 0 && step <= 16,
                              "the lanes' vector loops step by up to %d lanes", step);
            }
        }
        tj_array *xa = tjt_array(cpu, f32, N, xs), *oa = tjt_array(cpu, f32, N, NULL);
        tj_array *ca = tjt_array(cpu, i32, 1, NULL);
        tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa), tj_arg_array(ca)};
        int64_t nb = NBL;
        int32_t got = -1;
        tjt_ok(cpu, tj_launch_tiled(cpu, m, "compact", 1, &nb, W, args, 3));
        tjt_ok(cpu, tj_device_synchronize(cpu));
        tjt_ok(cpu, tj_array_copy_to_host(ca, &got, sizeof got));
        ck_assert_msg(got == nwant, "%s: count %d, expected %d", form_name[f], got, nwant);
        tjt_ok(cpu, tj_array_copy_to_host(oa, out, sizeof out));
        qsort(out, (size_t)got, sizeof *out, by_value);
        ck_assert_msg(memcmp(out, want, (size_t)nwant * sizeof *want) == 0,
                      "%s: out does not hold the kept values", form_name[f]);
        tj_context_destroy(ctx);
    }
}
END_TEST

/* What a histogram test kernel does in its loop besides the scatter-add. */
typedef enum hist_kind {
    HIST_INT,
    HIST_FLOAT,
    HIST_ALSO_STORES,
    HIST_LANE_SQUARES, /* lane l adds 1 at bin int(x) + l * l % 4 */
    HIST_LANE_EIGHTHS, /* lane l adds 1 at bin int(x) + uint8(8 * l) / 64 */
    NHIST
} hist_kind;

/* What lane 'l' adds to its bins in a histogram of this kind. */
static int
hist_shift(hist_kind kind, int l)
{
    return kind == HIST_LANE_SQUARES ? l * l % 4
           : kind == HIST_LANE_EIGHTHS ? (uint8_t)(8 * l) / 64
                                       : 0;
}

/* The bench's cooperative histogram (bench/kernels.c) at 64 lanes and 64 elements a lane
 * (LLVM unrolls a loop of a few trips fully, which leaves nothing to interchange):
 * for j in range(0, 4096, block_dim()), bins[int(x[blk * 4096 + j + lane])] += 1 where the
 * element is inside x (tile_scatter_add into a shared tile of 16 bins, which skips bins
 * outside it), then tile_atomic_add of the bins into hist. HIST_FLOAT adds 1.0 into float
 * bins; HIST_ALSO_STORES also writes y[i] = bin in the loop; HIST_LANE_SQUARES and
 * HIST_LANE_EIGHTHS shift the bin by a value computed in the loop from the lane
 * (hist_shift). Returns the module. */
static tj_module *
hist_kernel(form f, hist_kind kind, tj_context **ctx, tj_device **cpu)
{
    enum { W = 64, ITEMS = 64 * W, NBINS = 16 };
    tj_kernel *k = coop_kernel(f, "hist", W, ctx, cpu);
    const tj_type *f32 = tj_context_get_type(*ctx, TJ_DTYPE_F32);
    const tj_type *i32 = tj_context_get_type(*ctx, TJ_DTYPE_I32);
    const tj_type *bt = kind == HIST_FLOAT ? f32 : i32;
    tj_val *x = tj_param_array(k, "x", f32, 1), *hist = tj_param_array(k, "hist", bt, 1);
    tj_val *y = tj_param_array(k, "y", i32, 1);
    tj_val *two[2];
    tj_tid(k, 2, two);
    int nbins = NBINS;
    tj_val *bins = tj_tile_zeros(k, bt, 1, &nbins, TJ_STORAGE_SHARED);
    tj_val *i, *has;
    tj_val *bin = tj_cast(k, tjt_items_loop(k, x, two, ITEMS, &i, &has), i32);
    tj_val *l = two[1];
    if (kind == HIST_LANE_SQUARES)
        bin = tj_binary(k, TJ_BIN_ADD, bin,
                        tj_binary(k, TJ_BIN_BIT_AND, tj_binary(k, TJ_BIN_MUL, l, l),
                                  tj_const_int(k, TJ_DTYPE_I32, 3)));
    if (kind == HIST_LANE_EIGHTHS) {
        const tj_type *u8 = tj_context_get_type(*ctx, TJ_DTYPE_U8);
        tj_val *e = tj_cast(k, tj_binary(k, TJ_BIN_MUL, l, tj_const_int(k, TJ_DTYPE_I32, 8)), u8);
        bin = tj_binary(k, TJ_BIN_ADD, bin,
                        tj_binary(k, TJ_BIN_DIV, tj_cast(k, e, i32),
                                  tj_const_int(k, TJ_DTYPE_I32, 64)));
    }
    tj_val *one = kind == HIST_FLOAT ? tj_const_float(k, TJ_DTYPE_F32, 1.0)
                                     : tj_const_int(k, TJ_DTYPE_I32, 1);
    tj_tile_scatter_add(k, bins, &bin, 1, one, has, tj_const_bool(k, true));
    if (kind == HIST_ALSO_STORES) {
        tj_if_begin(k, has);
        tj_store(k, y, &i, 1, bin);
        tj_if_end(k);
    }
    tj_for_end(k);
    tj_tile_atomic_add(k, hist, bins, NULL);
    return build(*ctx, *cpu, k);
}

/* Cooperative scatter-adds of integers, the lanes taking turns at each trip of the loop
 * (jit/interchange.c): exact in every form, for x whose blocks are whole (every lane's
 * column inside x: the interchanged loops run) and with a last block in part (they do
 * not); values below 0, at and past the 16 bins, and too large for an int32 (skipped). In
 * the default form the optimised IR has the interchanged loops ("swap.trip"), not with
 * float bins (float adds do not commute exactly) nor with a store in the loop; the user's
 * loop kept rolled ("tj.adds": a row a trip) and the lanes 4 a step ("swap.lane.more");
 * and two forms of those loops ("swap.pick"): a step's later lanes reading at their stride
 * from the first's address and values, which HIST_INT's lanes take, or each lane's own
 * from the tables, which the lanes of HIST_LANE_SQUARES (bin shifts not at one stride) and
 * HIST_LANE_EIGHTHS (at one, 0, up to lane 7 only) must take: with the strided form, they
 * would count in other bins. */
START_TEST(test_lanes_scatter_adds_take_turns_at_each_trip)
{
    enum { W = 64, ITEMS = 64 * W, NBINS = 16, NBL = 3, NMAX = NBL * ITEMS };
    static float xs[NMAX];
    for (int e = 0; e < NMAX; e++)
        xs[e] = e % 97 == 0 ? 3e10f : (float)((e * 7919) % 23) - 3.5f;
    for (hist_kind kind = HIST_INT; kind < NHIST; kind++)
        for (form f = LOOPS; f < NFORMS; f++) {
            tj_context *ctx;
            tj_device *cpu;
            tj_module *m = hist_kernel(f, kind, &ctx, &cpu);
            bool swaps = f == LOOPS && kind != HIST_FLOAT && kind != HIST_ALSO_STORES;
            if (f != FIBERS) {
                const char *ir = tj_module_get_ir(m);
                ck_assert_msg((strstr(ir, "swap.trip") != NULL) == swaps,
                              "%s, kind %d: the interchange %s", form_name[f], (int)kind,
                              swaps ? "missing" : "made");
                ck_assert_msg((strstr(ir, "swap.pick") != NULL) == swaps,
                              "%s, kind %d: the strided form %s", form_name[f], (int)kind,
                              swaps ? "missing" : "made");
                /* the loop kept rolled for it (a row a trip), its lanes 4 a step */
                if (swaps)
                    ck_assert_msg(strstr(ir, "!\"tj.adds\"") && strstr(ir, "swap.lane.more"),
                                  "kind %d: the scatter-adds' loop unrolled, or the lanes not "
                                  "4 a step", (int)kind);
            }
            const tj_type *f32 = tj_context_get_type(ctx, TJ_DTYPE_F32);
            const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
            for (int partial = 0; partial < 2; partial++) {
                int n = partial ? NMAX - ITEMS / 2 - 3 : NMAX;
                int32_t want[NBINS] = {0}, got[NBINS];
                for (int blk = 0; blk < NBL; blk++)
                    for (int j = 0; j < ITEMS; j += W)
                        for (int l = 0; l < W; l++) {
                            int e = blk * ITEMS + j + l;
                            int64_t b = e >= n ? -1 : (int64_t)xs[e];
                            /* the kernel's int32 add wraps; int(3e10) is INT32_MIN */
                            if (b > INT32_MAX || b < INT32_MIN)
                                b = INT32_MIN;
                            b = e < n ? (int32_t)((uint32_t)b + (uint32_t)hist_shift(kind, l))
                                      : -1;
                            if (b >= 0 && b < NBINS)
                                want[b]++;
                        }
                tj_array *xa = tjt_array(cpu, f32, n, xs);
                tj_array *ha = tjt_array(cpu, kind == HIST_FLOAT ? f32 : i32, NBINS, NULL);
                tj_array *ya = tjt_array(cpu, i32, NMAX, NULL);
                tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ha), tj_arg_array(ya)};
                int64_t nb = NBL;
                tjt_ok(cpu, tj_launch_tiled(cpu, m, "hist", 1, &nb, W, args, 3));
                tjt_ok(cpu, tj_device_synchronize(cpu));
                if (kind == HIST_FLOAT) {
                    float fg[NBINS];
                    tjt_ok(cpu, tj_array_copy_to_host(ha, fg, sizeof fg));
                    for (int b = 0; b < NBINS; b++)
                        got[b] = (int32_t)fg[b];
                } else {
                    tjt_ok(cpu, tj_array_copy_to_host(ha, got, sizeof got));
                }
                for (int b = 0; b < NBINS; b++)
                    ck_assert_msg(got[b] == want[b], "%s, kind %d, n %d: bin %d = %d, expected %d",
                                  form_name[f], (int)kind, n, b, got[b], want[b]);
            }
            tj_context_destroy(ctx);
        }
}
END_TEST

/* Values that every lane carries alike across barriers, or alike but for the lane (jit/
 * lane_loops.c, facts): under launch_tiled, for j in range(0, 4 * B, B) each lane loads
 * v = x[base + j + lane] (j carried per lane, base + lane too), pushes it (two barriers), then
 * writes y[i] = v + 1000 * t[idx] + (100000 if big), where idx = t[blk * B + lane] was
 * loaded before the loop and big = v > 50, a bool, was computed before the push. The
 * uniform copies test at their entry whether j's and idx's elements are alike and base +
 * lane's lane 0's plus the lane ("lanes.facts", "lanes.up"), and carry the bool in bytes
 * (no lane array of i1). With t all 5 (idx alike in every lane) the copies that know the
 * facts run; with t[b * B + l] = B - 1 - l they do not (idx differs from lane to lane);
 * both exact, in every form. y[NB * 4 * B + b] = block b's count of pushes (4 * B). Then
 * the lanes drain the stack, each popping in turn, whose slots are one less from lane to
 * lane ("lanes.down"): y[NX + NBLK + b * 4 * B + slot] = the value, which is x[b * 4 * B +
 * slot] (the lanes pushed in the order of x). */
START_TEST(test_lanes_values_every_lane_carries_alike)
{
    enum { ITEMS = 4 * B, NBLK = 3, NX = NBLK * ITEMS };
    for (form f = LOOPS; f < NFORMS; f++) {
        for (int alike = 0; alike < 2; alike++) {
            tj_context *ctx;
            tj_device *cpu;
            tj_kernel *k = coop_kernel(f, "alike", B, &ctx, &cpu);
            const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
            tj_val *x = tj_param_array(k, "x", i32, 1), *t = tj_param_array(k, "t", i32, 1);
            tj_val *y = tj_param_array(k, "y", i32, 1);
            tj_val *tid[2];
            tj_tid(k, 2, tid);
            tj_val *blk = tid[0], *lane = tid[1];
            tj_val *base = tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, ITEMS));
            tj_val *at = tj_binary(k, TJ_BIN_ADD,
                                   tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, B)),
                                   lane);
            tj_val *idx = tj_load(k, t, &at, 1);
            tj_val *s = tj_tile_stack(k, ITEMS, i32);
            tj_val *j = tj_for_begin(k, tj_const_int(k, TJ_DTYPE_I32, 0),
                                     tj_const_int(k, TJ_DTYPE_I32, ITEMS), tj_block_dim(k));
            tj_val *i = tj_binary(k, TJ_BIN_ADD, tj_binary(k, TJ_BIN_ADD, base, j), lane);
            tj_val *v = tj_load(k, x, &i, 1);
            tj_val *big = tj_compare(k, TJ_CMP_GT, v, tj_const_int(k, TJ_DTYPE_I32, 50));
            tj_tile_stack_push(k, s, v, tj_const_bool(k, true));
            tj_val *r = tj_binary(k, TJ_BIN_ADD, v,
                                  tj_binary(k, TJ_BIN_MUL, tj_load(k, t, &idx, 1),
                                            tj_const_int(k, TJ_DTYPE_I32, 1000)));
            r = tj_binary(k, TJ_BIN_ADD, r,
                          tj_select(k, big, tj_const_int(k, TJ_DTYPE_I32, 100000),
                                    tj_const_int(k, TJ_DTYPE_I32, 0)));
            tj_store(k, y, &i, 1, r);
            tj_for_end(k);
            tj_val *cat = tj_binary(k, TJ_BIN_ADD, tj_const_int(k, TJ_DTYPE_I32, NX), blk);
            tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
            tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
            tj_store(k, y, &cat, 1, tj_tile_stack_count(k, s));
            tj_if_end(k);
            tj_val *drained = tj_binary(k, TJ_BIN_ADD, tj_const_int(k, TJ_DTYPE_I32, NX + NBLK),
                                        base);
            tjt_drain_phases(k, s, y, drained, true);
            tj_module *m = build(ctx, cpu, k);
            const char *ir0 = unoptimised_ir(ctx, cpu, k);
            bool tests = strstr(ir0, "\nlanes.facts") && strstr(ir0, "%lanes.up") &&
                         strstr(ir0, "%lanes.down");
            ck_assert_msg(tests == (f == LOOPS), "%s: the copies' tests of the values alike %s",
                          form_name[f], f == LOOPS ? "missing" : "present");
            if (f != FIBERS)
                ck_assert_msg(strstr(ir0, " x i1], align") == NULL,
                              "%s: a lane array of i1", form_name[f]);
            int32_t xs[NX], ts[NBLK * B], ys[2 * NX + NBLK];
            for (int e = 0; e < NX; e++)
                xs[e] = (e * 37) % 101;
            for (int e = 0; e < NBLK * B; e++)
                ts[e] = alike ? 5 : B - 1 - e % B;
            tj_array *xa = tjt_array(cpu, i32, NX, xs), *ta = tjt_array(cpu, i32, NBLK * B, ts);
            tj_array *ya = tjt_array(cpu, i32, 2 * NX + NBLK, NULL);
            tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ta), tj_arg_array(ya)};
            int64_t nb = NBLK;
            tjt_ok(cpu, tj_launch_tiled(cpu, m, "alike", 1, &nb, B, args, 3));
            tjt_ok(cpu, tj_device_synchronize(cpu));
            tjt_ok(cpu, tj_array_copy_to_host(ya, ys, sizeof ys));
            for (int e = 0; e < NX; e++) {
                int l = e % B, idxv = ts[(e / ITEMS) * B + l];
                int want = xs[e] + 1000 * ts[idxv] + (xs[e] > 50 ? 100000 : 0);
                ck_assert_msg(ys[e] == want, "%s, t %s: y[%d] = %d, expected %d", form_name[f],
                              alike ? "alike" : "by lane", e, ys[e], want);
            }
            for (int b = 0; b < NBLK; b++)
                ck_assert_msg(ys[NX + b] == ITEMS, "%s: block %d pushed %d, expected %d",
                              form_name[f], b, ys[NX + b], ITEMS);
            for (int e = 0; e < NX; e++)
                ck_assert_msg(ys[NX + NBLK + e] == xs[e], "%s: slot %d of block %d drained %d, "
                              "expected %d", form_name[f], e % ITEMS, e / ITEMS,
                              ys[NX + NBLK + e], xs[e]);
            tj_context_destroy(ctx);
        }
    }
}
END_TEST

/* Values that every lane carries alike, or lane 0's plus the lane, by construction
 * (jit/divergence.c): the block's base u = 3 blk + 1, i = B blk + lane, the int64 lane + u,
 * and what every lane reads of shared memory (tji_mark_alike): a tile_reduce's total, lane
 * 5's element of a register tile (tile_extract) and a stack's count, carried across a
 * tile_reduce's barriers to steer loads, a store and comparisons, need no test at the
 * copies' entry; nor does a pop's slot, which lanes take in turn, beyond lane 0's being
 * at least B - 1 (every lane got one: B pushed; with 7 pushed, in block 1, lanes from 7 get
 * -1, which a copy that took it as lane 0's minus the lane would get wrong, as z shows);
 * with only those the unoptimised IR has no "lanes.facts" loop, yet the facts' copy
 * ("lanes.up"). Values that differ, which a test that took them alike would get wrong,
 * keep theirs: w = 9 for lanes below 3, else 5 (a phi where an if on the lane meets), and
 * j counted up to lane % 4 (a loop that lanes leave at different trips). Exact in every
 * form: y[i] = x[u] + 100 (w > 6) + 1000 x[j] + 10000 (lanes in the block) + 3 (they are
 * B) + 20 (lane 5's element is 5) + 40 (7 lanes pushed) + 1000000 x[lane + u]. */
START_TEST(test_lanes_values_alike_by_construction_are_not_tested)
{
    enum { NBLK = 3, NX = NBLK * B };
    for (form f = LOOPS; f < NFORMS; f++)
        for (int varied = 0; varied < 2; varied++) {
            tj_context *ctx;
            tj_device *cpu;
            tj_kernel *k = coop_kernel(f, "shaped", B, &ctx, &cpu);
            const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
            tj_val *x = tj_param_array(k, "x", i32, 1), *y = tj_param_array(k, "y", i32, 1);
            tj_val *z = tj_param_array(k, "z", i32, 1);
            tj_val *tid[2];
            tj_tid(k, 2, tid);
            tj_val *blk = tid[0], *lane = tid[1];
            tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
            tj_val *i = tj_binary(k, TJ_BIN_ADD,
                                  tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, B)),
                                  lane);
            /* lanes that push: 7, or B but in block 1 (where lanes from 7 pop nothing) */
            tj_val *seven = tj_const_int(k, TJ_DTYPE_I32, 7);
            tj_val *npush = varied ? seven
                                   : tj_select(k, tj_compare(k, TJ_CMP_EQ, blk,
                                                             tj_const_int(k, TJ_DTYPE_I32, 1)),
                                               seven, tj_const_int(k, TJ_DTYPE_I32, B));
            tj_val *u = tj_binary(k, TJ_BIN_ADD,
                                  tj_binary(k, TJ_BIN_MUL, blk, tj_const_int(k, TJ_DTYPE_I32, 3)),
                                  tj_const_int(k, TJ_DTYPE_I32, 1));
            const tj_type *i64 = tj_context_get_type(ctx, TJ_DTYPE_I64);
            tj_val *wide = tj_binary(k, TJ_BIN_ADD, tj_cast(k, lane, i64), tj_cast(k, u, i64));
            tj_val *w = NULL, *j = NULL;
            if (varied) {
                w = tj_var_new(k, tj_const_int(k, TJ_DTYPE_I32, 5));
                tj_if_begin(k, tj_compare(k, TJ_CMP_LT, lane, tj_const_int(k, TJ_DTYPE_I32, 3)));
                tj_var_set(k, w, tj_const_int(k, TJ_DTYPE_I32, 9));
                tj_if_end(k);
                j = tj_var_new(k, zero);
                tj_val *quarter = tj_binary(k, TJ_BIN_MOD, lane, tj_const_int(k, TJ_DTYPE_I32, 4));
                tj_while_begin(k);
                tj_while_cond(k, tj_compare(k, TJ_CMP_LT, tj_var_get(k, j), quarter));
                tj_var_set(k, j, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, j),
                                           tj_const_int(k, TJ_DTYPE_I32, 1)));
                tj_while_end(k);
            }
            /* lane 5's element of a register tile, and a stack's count: alike in every lane */
            tj_val *five = tj_const_int(k, TJ_DTYPE_I32, 5);
            tj_val *fifth = tj_tile_extract(k, tj_tile(k, lane, false), &five, 1);
            tj_val *s = tj_tile_stack(k, B, i32);
            tj_tile_stack_push(k, s, lane,
                               tj_compare(k, TJ_CMP_LT, lane, npush));
            tj_val *kept = tj_tile_stack_count(k, s);
            tj_val *slot = NULL;
            tj_tile_stack_pop(k, s, &slot);
            tj_val *one = tj_tile(k, tj_const_int(k, TJ_DTYPE_I32, 1), false);
            tj_val *n = tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, one);
            tj_val *lanes = tj_tile_extract(k, n, &zero, 1); /* B, read by every lane */
            tj_tile_reduce(k, TJ_REDUCE_ADD, NULL, one);    /* more barriers */
            tj_val *r = tj_binary(k, TJ_BIN_ADD, tj_load(k, x, &u, 1),
                                  tj_binary(k, TJ_BIN_MUL, lanes,
                                            tj_const_int(k, TJ_DTYPE_I32, 10000)));
            r = tj_binary(k, TJ_BIN_ADD, r,
                          tj_select(k, tj_compare(k, TJ_CMP_EQ, lanes,
                                                  tj_const_int(k, TJ_DTYPE_I32, B)),
                                    tj_const_int(k, TJ_DTYPE_I32, 3), zero));
            r = tj_binary(k, TJ_BIN_ADD, r,
                          tj_select(k, tj_compare(k, TJ_CMP_EQ, fifth, five),
                                    tj_const_int(k, TJ_DTYPE_I32, 20), zero));
            r = tj_binary(k, TJ_BIN_ADD, r,
                          tj_select(k, tj_compare(k, TJ_CMP_EQ, kept, npush),
                                    tj_const_int(k, TJ_DTYPE_I32, 40), zero));
            /* the slot, through a comparison that steers nothing but makes it a fact */
            tj_val *huge = tj_compare(k, TJ_CMP_GT, slot, tj_const_int(k, TJ_DTYPE_I32, 1000));
            tj_store(k, z, &i, 1, tj_select(k, huge, zero, slot));
            r = tj_binary(k, TJ_BIN_ADD, r,
                          tj_binary(k, TJ_BIN_MUL, tj_load(k, x, &wide, 1),
                                    tj_const_int(k, TJ_DTYPE_I32, 1000000)));
            if (varied) {
                tj_val *wv = tj_var_get(k, w), *jv = tj_var_get(k, j);
                tj_val *big = tj_compare(k, TJ_CMP_GT, wv, tj_const_int(k, TJ_DTYPE_I32, 6));
                r = tj_binary(k, TJ_BIN_ADD, r,
                              tj_select(k, big, tj_const_int(k, TJ_DTYPE_I32, 100), zero));
                r = tj_binary(k, TJ_BIN_ADD, r,
                              tj_binary(k, TJ_BIN_MUL, tj_load(k, x, &jv, 1),
                                        tj_const_int(k, TJ_DTYPE_I32, 1000)));
            }
            tj_store(k, y, &i, 1, r);
            tj_module *m = build(ctx, cpu, k);
            if (f == LOOPS) {
                const char *ir0 = unoptimised_ir(ctx, cpu, k);
                bool tested = strstr(ir0, "\nlanes.facts") != NULL;
                ck_assert_msg(tested == (varied == 1), "%s: the copies' tests %s",
                              varied ? "w and j" : "u, i, lane + u and the shared reads",
                              varied ? "missing" : "made");
                ck_assert_msg(strstr(ir0, "%lanes.up") != NULL, "no facts' copy");
            }
            int32_t xs[NX], ys[NX], zs[NX];
            for (int e = 0; e < NX; e++)
                xs[e] = (e * 37) % 101;
            tj_array *xa = tjt_array(cpu, i32, NX, xs), *ya = tjt_array(cpu, i32, NX, NULL);
            tj_array *za = tjt_array(cpu, i32, NX, NULL);
            tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya), tj_arg_array(za)};
            int64_t nb = NBLK;
            tjt_ok(cpu, tj_launch_tiled(cpu, m, "shaped", 1, &nb, B, args, 3));
            tjt_ok(cpu, tj_device_synchronize(cpu));
            tjt_ok(cpu, tj_array_copy_to_host(ya, ys, sizeof ys));
            tjt_ok(cpu, tj_array_copy_to_host(za, zs, sizeof zs));
            for (int e = 0; e < NX; e++) {
                int b = e / B, l = e % B;
                int want = xs[3 * b + 1] + 10000 * B + 3 + 20 + 40 + 1000000 * xs[3 * b + 1 + l];
                if (varied)
                    want += (l < 3 ? 100 : 0) + 1000 * xs[l % 4];
                ck_assert_msg(ys[e] == want, "%s, %s: y[%d] = %d, expected %d", form_name[f],
                              varied ? "varied" : "shaped", e, ys[e], want);
                /* lane l pops slot np - 1 - l while there is one */
                int np = varied || b == 1 ? 7 : B;
                int zwant = l < np ? np - 1 - l : -1;
                ck_assert_msg(zs[e] == zwant, "%s, %s: slot of lane %d = %d, expected %d",
                              form_name[f], varied ? "varied" : "shaped", l, zs[e], zwant);
            }
            tj_context_destroy(ctx);
        }
}
END_TEST

/* A keeper (keeper_begin) of 'per' * B elements a block whose lanes push x's values that
 * are at least zero, 'per' steps of a value a lane, then drain the stack into out at the
 * block's start: in one phase (tjt_drain: the pop and the store, jit/sink_barriers.c) or in
 * two (tjt_drain_phases: the slots cross a barrier in per-lane arrays). */
static keeper
drain_kernel(form f, const char *name, int per, bool two_phases)
{
    keeper q = keeper_begin(f, name, B, per * B);
    tj_kernel *k = q.k;
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    for (int e = 0; e < per; e++) {
        tj_val *i = tj_binary(k, TJ_BIN_ADD, q.start,
                              tj_binary(k, TJ_BIN_ADD, q.tid[1],
                                        tj_const_int(k, TJ_DTYPE_I32, e * B)));
        tj_val *v = tj_load(k, q.x, &i, 1);
        tj_tile_stack_push(k, q.s, v, tj_compare(k, TJ_CMP_GE, v, zero));
    }
    tjt_drain_phases(k, q.s, q.out, q.start, two_phases);
    return q;
}

/* A drain as the bench's compaction has it: while the stack holds values, every lane pops
 * and stores its value at the block's start plus its slot if it got one. Where lane 0's
 * slot is at least B - 1 every lane gets one, so the copy that knows it (lane 0's slot
 * minus the lane) has no 'slot >= 0' test left (it held a masked store). Blocks keep from
 * none to all of their 3 * B values, so the last pops of most are partial. */
START_TEST(test_lanes_pops_that_every_lane_gets_need_no_test)
{
    enum { PER = 3, NBLK = 5, NX = NBLK * PER * B };
    for (form f = LOOPS; f < NFORMS; f++) {
        keeper q = drain_kernel(f, "drain", PER, true);
        tj_kernel *k = q.k;
        tj_context *ctx = q.ctx;
        tj_device *cpu = q.cpu;
        tj_module *m = build(ctx, cpu, k);
        if (f == LOOPS) {
            const char *ir0 = unoptimised_ir(ctx, cpu, k);
            int downs = 0;
            for (const char *p = ir0; (p = strstr(p, "%lanes.down")); p++) {
                const char *eol = strchr(p, '\n'), *bol = p;
                while (bol > ir0 && bol[-1] != '\n')
                    bol--;
                char line[256];
                snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - bol : 200), bol);
                if (strstr(line, "= sub ")) {
                    downs++;
                    ck_assert_msg(strstr(line, "sub nuw nsw") != NULL, "slot without flags: %s",
                                  line);
                }
                ck_assert_msg(!strstr(line, "icmp"), "a test of a slot every lane gets: %s",
                              line);
            }
            ck_assert_msg(downs > 0, "no copy that knows the slots");
        }
        int32_t xs[NX], outs[NX];
        int kept[NBLK] = {0};
        for (int b = 0; b < NBLK; b++)
            for (int e = 0; e < PER * B; e++) {
                /* block b keeps about b / 4 of its values: none in block 0, all in block 4 */
                int v = (b * 1009 + e * 37) % 97;
                xs[b * PER * B + e] = (e * 4) % (PER * B) < b * PER * B / 4 ? v : -1 - v;
                kept[b] += xs[b * PER * B + e] >= 0;
            }
        ck_assert_int_eq(kept[0], 0);
        ck_assert_int_eq(kept[NBLK - 1], PER * B);
        tj_array *xa = tjt_array(cpu, q.i32, NX, xs), *oa = tjt_array(cpu, q.i32, NX, NULL);
        for (int e = 0; e < NX; e++)
            outs[e] = -7;
        tjt_ok(cpu, tj_array_copy_from_host(oa, outs, sizeof outs));
        tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
        int64_t nb = NBLK;
        tjt_ok(cpu, tj_launch_tiled(cpu, m, "drain", 1, &nb, B, args, 2));
        tjt_ok(cpu, tj_device_synchronize(cpu));
        tjt_ok(cpu, tj_array_copy_to_host(oa, outs, sizeof outs));
        for (int b = 0; b < NBLK; b++) {
            /* the block's kept values, as a multiset, then untouched slots */
            int want[97] = {0}, got[97] = {0};
            for (int e = 0; e < PER * B; e++) {
                int xv = xs[b * PER * B + e], ov = outs[b * PER * B + e];
                if (xv >= 0)
                    want[xv]++;
                if (e < kept[b]) {
                    ck_assert_msg(ov >= 0 && ov < 97, "%s: out[%d] = %d", form_name[f],
                                  b * PER * B + e, ov);
                    got[ov]++;
                } else {
                    ck_assert_msg(ov == -7, "%s: out[%d] = %d past block %d's %d kept",
                                  form_name[f], b * PER * B + e, ov, b, kept[b]);
                }
            }
            for (int v = 0; v < 97; v++)
                ck_assert_msg(got[v] == want[v], "%s: block %d holds %d of %d, kept %d",
                              form_name[f], b, got[v], v, want[v]);
        }
        tj_context_destroy(ctx);
    }
}
END_TEST

/* A drain whose last pop leaves one lane without a value (blocks keeping B - 1, 2B - 1 and
 * 3B - 1 values): every lane's slot is then lane 0's less the lane, -1 included, so the copy
 * that tests the slots against lane 0's may run; it may drop 'slot >= 0' only where lane
 * 0's slot is at least B - 1 (else the last lane stores its zero one before the block's
 * values). Debug builds, whose pops' slots lane_loops.c does not know by construction
 * (the index checks), took that copy without the test: block 0's last lane failed the
 * launch with "index -1 is out of range", the others overwrote the block before's last
 * element. Found by fuzz/diff_kernels. Release and debug builds, every form, the drain in
 * two phases and in one. */
START_TEST(test_lanes_a_pop_that_one_lane_misses)
{
    enum { PER = 3, NBLK = 5, NX = NBLK * PER * B };
    static const int keep[NBLK] = {B - 1, 2 * B - 1, 3 * B - 1, B, 1};
    for (int debug = 0; debug < 4; debug++)
        for (form f = LOOPS; f < NFORMS; f++) {
            g_debug = debug & 1;
            keeper q = drain_kernel(f, "drain1", PER, debug < 2);
            g_debug = false;
            tj_module *m = build(q.ctx, q.cpu, q.k);
            int32_t xs[NX], outs[NX];
            for (int b = 0; b < NBLK; b++)
                for (int e = 0; e < PER * B; e++)
                    xs[b * PER * B + e] = e < keep[b] ? 1 + (b * 31 + e * 7) % 90 : -1 - e;
            tj_array *xa = tjt_array(q.cpu, q.i32, NX, xs);
            tj_array *oa = tjt_array(q.cpu, q.i32, NX, NULL);
            for (int e = 0; e < NX; e++)
                outs[e] = -7;
            tjt_ok(q.cpu, tj_array_copy_from_host(oa, outs, sizeof outs));
            tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa)};
            int64_t nb = NBLK;
            tjt_ok(q.cpu, tj_launch_tiled(q.cpu, m, "drain1", 1, &nb, B, args, 2));
            tjt_ok(q.cpu, tj_device_synchronize(q.cpu));
            tjt_ok(q.cpu, tj_array_copy_to_host(oa, outs, sizeof outs));
            for (int b = 0; b < NBLK; b++) {
                int32_t *o = outs + b * PER * B;
                qsort(o, (size_t)keep[b], sizeof *o, cmp_i32);
                int32_t want[PER * B];
                memcpy(want, xs + b * PER * B, sizeof want);
                qsort(want, (size_t)keep[b], sizeof *want, cmp_i32);
                for (int e = 0; e < PER * B; e++)
                    ck_assert_msg(o[e] == (e < keep[b] ? want[e] : -7),
                                  "%s%s: block %d (keeps %d): out[%d] = %d, expected %d",
                                  form_name[f], debug ? ", debug" : "", b, keep[b], e, o[e],
                                  e < keep[b] ? want[e] : -7);
            }
            tj_context_destroy(q.ctx);
        }
}
END_TEST

/* The name ("!12") of the metadata node of one string 'str' in IR 'ir', in 'out' ("" if none). */
static void
string_node(const char *ir, const char *str, char *out, size_t size)
{
    char def[96];
    snprintf(def, sizeof def, " = !{!\"%s\"}", str);
    const char *p = strstr(ir, def), *q = p;
    while (p && q > ir && q[-1] != '\n')
        q--;
    snprintf(out, size, "%.*s", p ? (int)(p - q) : 0, q ? q : "");
}

/* Whether metadata line 'line' lists node 'node' ("!12") as an operand. */
static bool
lists_node(const char *line, const char *node)
{
    char op[40];
    snprintf(op, sizeof op, "%s,", node);
    if (*node && strstr(line, op))
        return true;
    snprintf(op, sizeof op, "%s}", node);
    return *node && strstr(line, op);
}

/* The lanes' loops of unoptimised IR 'ir' (loop ids with "tj.lanes") in '*all', and how many
 * of them LLVM may not unroll (also "llvm.loop.unroll.disable"). */
static int
rolled_lane_loops(const char *ir, int *all)
{
    char lanes[32], rolled[32];
    string_node(ir, "tj.lanes", lanes, sizeof lanes);
    string_node(ir, "llvm.loop.unroll.disable", rolled, sizeof rolled);
    int n = 0;
    *all = 0;
    for (const char *p = ir; (p = strstr(p, " = distinct !{")); p++) {
        char line[256];
        const char *eol = strchr(p, '\n');
        snprintf(line, sizeof line, "%.*s", eol ? (int)(eol - p) : (int)strlen(p), p);
        bool is_lanes = lists_node(line, lanes);
        *all += is_lanes;
        n += is_lanes && lists_node(line, rolled);
    }
    return n;
}

enum { NARROW_BLOCKS = 3, NARROW_PER = 250, NARROW_TRIPS = 5 };

/* A kernel 'name' of 'w' lanes with int32 arrays x and y, which y = narrow_body() fills. */
typedef void (*narrow_body)(tj_kernel *k, tj_val *x, tj_val *y, tj_val *const *tid);

/* Builds it: checks that 'rolled' of its lanes' loops are kept rolled (-1: some, and a
 * lanes' loop is left after optimisation), and that a tiled launch of NARROW_BLOCKS blocks
 * on x[i] = i * 7 % 1000 - 500 ('nx' of them) gives y[i] = want(xs, i). */
static void
check_narrow(const char *name, int w, narrow_body body, int rolled, int nx,
             int32_t (*want)(const int32_t *xs, int i))
{
    tj_context *ctx;
    tj_device *cpu;
    tj_kernel *k = coop_kernel(LOOPS, name, w, &ctx, &cpu);
    const tj_type *i32 = tj_context_get_type(ctx, TJ_DTYPE_I32);
    tj_val *x = tj_param_array(k, "x", i32, 1), *y = tj_param_array(k, "y", i32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    body(k, x, y, tid);
    int all, got = rolled_lane_loops(unoptimised_ir(ctx, cpu, k), &all);
    ck_assert_msg(all > 0, "%s, %d lanes: no lanes' loop", name, w);
    ck_assert_msg(rolled < 0 ? got > 0 : got == rolled,
                  "%s, %d lanes: %d of %d lanes' loops rolled", name, w, got, all);
    tj_module *m = build(ctx, cpu, k);
    if (rolled < 0) /* and LLVM keeps them */
        ck_assert_msg(strstr(tj_module_get_ir(m), "!{!\"tj.lanes\"}") != NULL,
                      "%s, %d lanes: LLVM unrolled every lanes' loop", name, w);
    int32_t *xs = malloc((size_t)nx * sizeof *xs), *ys = malloc((size_t)nx * sizeof *ys);
    ck_assert(xs && ys);
    for (int i = 0; i < nx; i++)
        xs[i] = i * 7 % 1000 - 500;
    tj_array *xa = tjt_array(cpu, i32, nx, xs), *ya = tjt_array(cpu, i32, nx, NULL);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(ya)};
    int64_t nb = NARROW_BLOCKS;
    tjt_ok(cpu, tj_launch_tiled(cpu, m, name, 1, &nb, (uint32_t)w, args, 2));
    tjt_ok(cpu, tj_device_synchronize(cpu));
    tjt_ok(cpu, tj_array_copy_to_host(ya, ys, (size_t)nx * sizeof *ys));
    for (int i = 0; i < nx; i++)
        ck_assert_msg(ys[i] == want(xs, i), "%s, %d lanes: y[%d] = %d, expected %d", name, w, i,
                      ys[i], want(xs, i));
    free(xs);
    free(ys);
    tj_context_destroy(ctx);
}

/* y = x, a shared tile of NARROW_PER elements a block */
static void
copy_tile(tj_kernel *k, tj_val *x, tj_val *y, tj_val *const *tid)
{
    int per = NARROW_PER;
    tj_val *off = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, per));
    tj_tile_store(k, y, tj_tile_load(k, x, 1, &per, &off, TJ_STORAGE_SHARED), &off);
}

static int32_t
same(const int32_t *xs, int i)
{
    return xs[i];
}

/* y[i] = x[i] + x[i + W] + ... (NARROW_TRIPS of them, W = 4) for the block's lanes, through a
 * tile: a loop of the user's that every lane runs alike. */
static void
sum_lanes_rows(tj_kernel *k, tj_val *x, tj_val *y, tj_val *const *tid)
{
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *base =
        tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, 4 * NARROW_TRIPS));
    tj_val *sum = tj_var_new(k, zero);
    tj_val *j = tj_for_begin(k, zero, tj_const_int(k, TJ_DTYPE_I32, NARROW_TRIPS),
                             tj_const_int(k, TJ_DTYPE_I32, 1));
    tj_val *at = tj_binary(k, TJ_BIN_ADD, base, tj_binary(k, TJ_BIN_ADD, tid[1],
                           tj_binary(k, TJ_BIN_MUL, j, tj_const_int(k, TJ_DTYPE_I32, 4))));
    tj_var_set(k, sum, tj_binary(k, TJ_BIN_ADD, tj_var_get(k, sum), tj_load(k, x, &at, 1)));
    tj_for_end(k);
    tj_val *off = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, 4));
    tj_tile_store(k, y, tj_tile(k, tj_var_get(k, sum), false), &off);
}

static int32_t
rows_sum(const int32_t *xs, int i)
{
    int32_t s = 0;
    if (i >= 4 * NARROW_BLOCKS)
        return 0;
    for (int j = 0; j < NARROW_TRIPS; j++)
        s += xs[i / 4 * 4 * NARROW_TRIPS + j * 4 + i % 4];
    return s;
}

/* Blocks of 4 and 32 lanes copy a shared tile of 250 int32 (tile_load, tile_store): each lane
 * loops over its elements, 63 or 62 of them at 4 lanes, so lanes run that loop a different
 * number of times. Under 32 lanes the lanes' loop around it stays rolled: at 4, LLVM unrolled
 * it in full and then each copy's loop, the lane being known there (4327 lines of optimised
 * IR in 0.36 s, against 2477 in 0.18 s kept rolled); a kernel of random tiles at 7 lanes
 * built in 4.6 s (bench/RESULTS.md). At 32 lanes the lanes' loops are LLVM's to unroll,
 * which it cannot. A loop that every lane runs alike (the user's, 5 trips) leaves its lanes'
 * loop to LLVM at 4 lanes too: it unrolls that loop first. The results must be exact. */
START_TEST(test_lanes_narrow_blocks_keep_loops_of_elements_rolled)
{
    check_narrow("narrow_copy", 4, copy_tile, -1, NARROW_BLOCKS * NARROW_PER, same);
    check_narrow("narrow_copy", 32, copy_tile, 0, NARROW_BLOCKS * NARROW_PER, same);
    check_narrow("narrow_rows", 4, sum_lanes_rows, 0, 4 * NARROW_BLOCKS * NARROW_TRIPS,
                 rows_sum);
}
END_TEST

static Suite *
lanes_suite(void)
{
    Suite *s = suite_create("lanes");
    TCase *tc = tcase_create("cpu");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_lanes_barriers_outside_loops_run_without_fibers);
    tcase_add_test(tc, test_lanes_partial_block_reads_every_shared_element);
    tcase_add_test(tc, test_lanes_partial_block_fills_every_element_each_trip);
    tcase_add_test(tc, test_lanes_a_barrier_in_a_loop);
    tcase_add_test(tc, test_lanes_a_barrier_that_some_lanes_pass_by);
    tcase_add_test(tc, test_lanes_a_loop_after_a_barrier_that_some_lanes_pass_by);
    tcase_add_test(tc, test_lanes_past_the_storage_limit_keep_fibers);
    tcase_add_test(tc, test_lanes_a_barrier_in_a_called_function_keeps_fibers);
    tcase_add_test(tc, test_lanes_tid_of_tiled_and_other_launches);
    tcase_add_test(tc, test_lanes_without_barriers);
    tcase_add_test(tc, test_lanes_tiled_sum_vectorises);
    tcase_add_test(tc, test_lanes_tile_rows_fold_one_after_the_other);
    tcase_add_test(tc, test_lanes_tile_rows_fold_of_a_pitched_array);
    tcase_add_test(tc, test_lanes_turns_total_as_a_tree);
    tcase_add_loop_test(tc, test_lanes_loads_prefetch_later_steps, 0, 2);
    tcase_add_test(tc, test_lanes_tile_rows_copy_one_after_the_other);
    tcase_add_test(tc, test_lanes_tiled_copy_knows_tid_across_barriers);
    tcase_add_test(tc, test_lanes_values_every_lane_carries_alike);
    tcase_add_test(tc, test_lanes_values_alike_by_construction_are_not_tested);
    tcase_add_test(tc, test_lanes_one_lanes_action_leaves_a_short_remainder);
    tcase_add_test(tc, test_lanes_scatter_adds_take_turns_at_each_trip);
    tcase_add_test(tc, test_lanes_pops_that_every_lane_gets_need_no_test);
    tcase_add_test(tc, test_lanes_a_pop_that_one_lane_misses);
    tcase_add_test(tc, test_lanes_narrow_blocks_keep_loops_of_elements_rolled);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, lanes_suite());
}
