/* tj-test: */
/*
 * tests/check_alias_scopes.c: the scoped no-alias metadata of CPU entries
 * (jit/alias_scopes.c). A cooperative compaction (the bench's: each lane pushes x[i] when
 * it is below a threshold, in a loop of pushes onto a stack, with a shared tile beside it)
 * is built without optimisation, and the scopes of its accesses are read back from the IR:
 * the array's loads are "array" apart from "shared"; the stack's data, its counter and the
 * tile are shared allocations at their offsets (0, 256 and 272), each apart from the
 * others and from the arrays. Built with the pipeline, the push and pop phases then keep
 * the counter in a register, and the kernel still compacts exactly.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tj_api_test.h"

enum { B = 32, ITEMS = 64, NBLOCKS = 3, N = NBLOCKS * ITEMS - 5, MAX_MD = 4096 };

/* The bench's compaction kernel (bench/kernels.c) at a small size, with a shared tile. */
static tj_kernel *
compaction(void)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = B,
                           .cpu_mode = TJ_CPU_COOPERATIVE};
    tj_kernel *k = tj_kernel_create(tjt.ctx, "compact", &o);
    tj_val *x = tj_param_array(k, "x", f32, 1), *out = tj_param_array(k, "out", f32, 1);
    tj_val *count = tj_param_array(k, "count", i32, 1);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *s = tj_tile_stack(k, ITEMS, f32); /* data at 0, counter at 256 */
    int one = 1;
    tj_val *kept = tj_tile_zeros(k, i32, 1, &one, TJ_STORAGE_SHARED); /* at 272 */
    tjt_push_below_half(k, x, s, tid, ITEMS);
    tj_tile_assign(k, kept, tj_binary(k, TJ_BIN_MUL, tj_tile_ones(k, i32, 1, &one,
                                                                  TJ_STORAGE_REGISTER),
                                      tj_tile_stack_count(k, s)), NULL);
    tj_val *prev = tj_tile_atomic_add(k, count, kept, NULL);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *start = tj_tile_extract(k, prev, &zero, 1);
    tjt_drain(k, s, out, start);
    ck_assert_msg(tj_kernel_error(k) == NULL, "%s", tj_kernel_error(k));
    return k;
}

static tj_module *
build(tj_kernel *k, tj_opt_level level)
{
    tj_module *m = NULL;
    tj_build_options bo = {.device = tjt.cpu, .keep_ir = true, .opt_level = level};
    ck_assert_msg(tj_kernel_build(k, &bo, &m) == TJ_OK, "%s", tj_context_error(tjt.ctx));
    return m;
}

/* The IR's metadata nodes, "!N = <text>", by number. */
typedef struct md_table {
    const char *text[MAX_MD];
} md_table;

static void
read_metadata(const char *ir, md_table *t)
{
    memset(t, 0, sizeof *t);
    for (const char *p = ir; (p = strstr(p, "\n!")); p++) {
        char *end;
        long id = strtol(p + 2, &end, 10);
        if (end != p + 2 && strncmp(end, " = ", 3) == 0 && id >= 0 && id < MAX_MD)
            t->text[id] = end + 3;
    }
}

/* Whether name 'a' (of 'na' bytes) sorts after name 'b'. */
static bool
name_after(const char *a, size_t na, const char *b, size_t nb)
{
    int c = strncmp(a, b, na < nb ? na : nb);
    return c > 0 || (c == 0 && na > nb);
}

/* The names of the scopes in list node 'id' ("!{!1, !3}", each "!{!"name", !domain}"),
 * sorted and joined by '|' into 'out'. */
static void
scope_names(const md_table *t, long id, char *out, size_t n)
{
    const char *names[16];
    size_t len[16];
    int k = 0;
    ck_assert(id >= 0 && id < MAX_MD && t->text[id]);
    const char *p = t->text[id], *eol = strchr(p, '\n');
    for (p = strchr(p, '!'); p && p < eol && k < 16; p = strchr(p + 1, '!')) {
        long ref = strtol(p + 1, NULL, 10);
        if (p[1] < '0' || p[1] > '9' || ref < 0 || ref >= MAX_MD || !t->text[ref])
            continue;
        const char *q = strstr(t->text[ref], "!\"");
        ck_assert_ptr_nonnull(q);
        names[k] = q + 2;
        len[k++] = strcspn(q + 2, "\"");
    }
    for (int a = 1; a < k; a++) /* insertion sort by name */
        for (int b = a; b > 0 && name_after(names[b - 1], len[b - 1], names[b], len[b]); b--) {
            const char *tn = names[b];
            size_t tl = len[b];
            names[b] = names[b - 1], len[b] = len[b - 1];
            names[b - 1] = tn, len[b - 1] = tl;
        }
    size_t at = 0;
    out[0] = '\0';
    for (int a = 0; a < k && at + len[a] + 2 < n; a++)
        at += (size_t)snprintf(out + at, n - at, "%s%.*s", a ? "|" : "", (int)len[a], names[a]);
}

/* Whether some access in 'ir' has exactly the scopes 'scope' and the no-alias list 'noalias'
 * (both as scope_names gives them); how many accesses have scopes at all in '*tagged'. */
static bool
has_access(const char *ir, const char *scope, const char *noalias, int *tagged)
{
    md_table *t = malloc(sizeof *t);
    ck_assert_ptr_nonnull(t);
    read_metadata(ir, t);
    bool found = false;
    *tagged = 0;
    for (const char *p = ir; (p = strstr(p, "!alias.scope !")); p++) {
        const char *line = p;
        while (line > ir && line[-1] != '\n')
            line--;
        if (line[0] == '!')
            continue; /* a metadata node, not an instruction */
        const char *na = strstr(p, "!noalias !");
        ck_assert_msg(na && na < strchr(p, '\n'), "an access with scopes but no noalias list");
        char s[512], a[512];
        scope_names(t, strtol(p + 14, NULL, 10), s, sizeof s);
        scope_names(t, strtol(na + 10, NULL, 10), a, sizeof a);
        (*tagged)++;
        found |= strcmp(s, scope) == 0 && strcmp(a, noalias) == 0;
    }
    free(t);
    return found;
}

START_TEST(test_scopes_of_arrays_and_shared_allocations)
{
    tj_kernel *k = compaction();
    tj_module *m = build(k, TJ_OPT_O0);
    const char *ir = tj_module_get_ir(m);
    int tagged = 0;
    /* x's loads (and out's stores, count's atomic add) */
    ck_assert(has_access(ir, "tilejit array", "tilejit shared", &tagged));
    /* the stack's data, its counter, the shared tile: each apart from the others */
    ck_assert(has_access(
        ir, "tilejit shared|tilejit shared allocation 0",
        "tilejit array|tilejit shared allocation 256|tilejit shared allocation 272", &tagged));
    ck_assert(has_access(ir, "tilejit shared|tilejit shared allocation 256",
                         "tilejit array|tilejit shared allocation 0|tilejit shared allocation 272",
                         &tagged));
    ck_assert(has_access(ir, "tilejit shared|tilejit shared allocation 272",
                         "tilejit array|tilejit shared allocation 0|tilejit shared allocation 256",
                         &tagged));
    ck_assert_int_gt(tagged, 8);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

/* Accesses whose arena offset is not a constant (the builtins' scratch, here tile_extract's
 * from a register tile) are only shared. A width-1 kernel gets no scopes: its shared memory
 * is a local of the entry, which LLVM tells apart itself, and its body is a function of its
 * own (taking the arrays' pointers as parameters) until the pipeline inlines it. */
START_TEST(test_scratch_is_only_shared_and_width1_tags_arrays)
{
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32);
    for (int coop = 0; coop < 2; coop++) {
        tj_kernel_options o = {.target = TJ_TARGET_CPU, .block_dim = coop ? B : 1,
                               .cpu_mode = coop ? TJ_CPU_COOPERATIVE : TJ_CPU_WIDTH1};
        tj_kernel *k = tj_kernel_create(tjt.ctx, "sum", &o);
        tj_val *x = tj_param_array(k, "x", f32, 1), *y = tj_param_array(k, "y", f32, 1);
        tj_val *tid[2];
        tj_tid(k, 2, tid);
        int shape = 64;
        tj_val *off = tj_binary(k, TJ_BIN_MUL, tid[0], tj_const_int(k, TJ_DTYPE_I32, 64));
        tj_val *t = tj_tile_load(k, x, 1, &shape, &off, TJ_STORAGE_SHARED);
        tj_tile_store(k, y, t, &off);
        tj_val *r = tj_tile_load(k, x, 1, &shape, &off, TJ_STORAGE_REGISTER);
        tj_val *at = tj_const_int(k, TJ_DTYPE_I32, 5);
        ck_assert(tj_store(k, y, &tid[0], 1, tj_tile_extract(k, r, &at, 1)));
        tj_module *m = build(k, TJ_OPT_O0);
        const char *ir = tj_module_get_ir(m);
        int tagged = 0;
        ck_assert_int_eq(has_access(ir, "tilejit array", "tilejit shared", &tagged), coop);
        ck_assert_int_eq(has_access(ir, "tilejit shared", "tilejit array", &tagged), coop);
        ck_assert_int_eq(has_access(ir, "tilejit shared|tilejit shared allocation 0",
                                    "tilejit array", &tagged),
                         coop);
        if (!coop)
            ck_assert_int_eq(tagged, 0);
        tj_module_destroy(m);
        tj_kernel_destroy(k);
    }
}
END_TEST

/* The label of the block that holds position 'p' of 'ir'. */
static void
block_of(const char *ir, const char *p, char *label, size_t n)
{
    label[0] = '\0';
    for (const char *q = p; q > ir; q--)
        if (q[-1] == '\n' && *q != ' ' && *q != '\n' && *q != '!' && *q != ';') {
            size_t len = strcspn(q, ":\n");
            snprintf(label, n, "%.*s", (int)len, q);
            return;
        }
}

/* How many stores of a computed value into the stack's counter ("%NAME = getelementptr i8,
 * ptr %tj.arena.., i64 256") are in the uniform copies of the lane loops (blocks
 * "lanes.region..."): the pushes' and the pops' when the counter stays in memory, one per
 * lane; -1 when there is no such counter. The declaration's store of 0 by lane 0 is not one
 * of them (the first phase's copy, whose lanes store no resume point, may be unrolled into
 * a "lanes.region" block). */
static int
counter_stores_in_copies(const char *ir)
{
    int n = 0;
    bool found = false;
    for (const char *p = ir; (p = strstr(p, ", i64 256\n")); p++) {
        const char *line = p;
        while (line > ir && line[-1] != '\n')
            line--;
        char name[64], store[96], label[128];
        int matched = -1;
        /* inbounds where the arena is a local array of a lane-loop block (target_host.c) */
        if ((sscanf(line, " %%%63[^ ] = getelementptr i8, ptr %%tj.arena%n", name, &matched) != 1 ||
             matched < 0) &&
            (sscanf(line, " %%%63[^ ] = getelementptr inbounds i8, ptr %%tj.arena%n", name,
                    &matched) != 1 ||
             matched < 0))
            continue;
        found = true;
        snprintf(store, sizeof store, ", ptr %%%s, align", name);
        for (const char *q = ir; (q = strstr(q, store)); q++) {
            const char *st = q;
            while (st > ir && st[-1] != '\n')
                st--;
            if (strncmp(st, "  store i32 ", 12) != 0 || strncmp(st, "  store i32 0,", 14) == 0)
                continue;
            block_of(ir, st, label, sizeof label);
            n += strncmp(label, "lanes.region", 12) == 0;
        }
    }
    return found ? n : -1;
}

/* With the pipeline: the push and pop phases' loops over the lanes keep the stack's
 * counter in a register and store it once after the loop (LICM promotes it: without the
 * scopes every store into the stack and every load of x might change it, and the pop
 * stores it in every lane, not only in those that got a value), and the compaction is exact: lanes
 * push in ascending order, so out holds, block by block, the kept values of x in order. */
START_TEST(test_compaction_keeps_count_in_register_and_is_exact)
{
    tj_kernel *k = compaction();
    tj_module *m = build(k, TJ_OPT_DEFAULT);
    ck_assert_int_eq(counter_stores_in_copies(tj_module_get_ir(m)), 0);
    const tj_type *f32 = tjt_type(TJ_DTYPE_F32), *i32 = tjt_type(TJ_DTYPE_I32);
    float xs[N], out[N], want[N];
    int32_t zero = 0, got = 0;
    int nwant = 0;
    for (int i = 0; i < N; i++) {
        xs[i] = (float)((i * 37) % 100) / 100.0f;
        if (xs[i] < 0.5f)
            want[nwant++] = xs[i];
    }
    tj_array *xa = tjt_array(tjt.cpu, f32, N, xs), *oa = tjt_array(tjt.cpu, f32, N, NULL);
    tj_array *ca = tjt_array(tjt.cpu, i32, 1, &zero);
    tj_arg args[] = {tj_arg_array(xa), tj_arg_array(oa), tj_arg_array(ca)};
    int64_t nb = NBLOCKS;
    tjt_ok(tjt.cpu, tj_launch_tiled(tjt.cpu, m, "compact", 1, &nb, B, args, 3));
    tjt_ok(tjt.cpu, tj_device_synchronize(tjt.cpu));
    tjt_ok(tjt.cpu, tj_array_copy_to_host(ca, &got, sizeof got));
    ck_assert_int_eq(got, nwant);
    tjt_ok(tjt.cpu, tj_array_copy_to_host(oa, out, sizeof out));
    /* blocks reserve in launch order on one thread; each block's values come out of its
     * stack top first, so compare as multisets */
    int seen[N] = {0};
    for (int i = 0; i < nwant; i++) {
        int hit = -1;
        for (int w = 0; w < nwant && hit < 0; w++)
            if (!seen[w] && out[i] == want[w])
                hit = w;
        ck_assert_msg(hit >= 0, "out[%d] = %g is not a kept value", i, out[i]);
        seen[hit] = 1;
    }
    tj_array_destroy(xa);
    tj_array_destroy(oa);
    tj_array_destroy(ca);
    tj_module_destroy(m);
    tj_kernel_destroy(k);
}
END_TEST

static Suite *
alias_scopes_suite(void)
{
    Suite *s = suite_create("alias_scopes");
    TCase *tc = tcase_create("cpu");
    tcase_add_checked_fixture(tc, tjt_setup, tjt_teardown);
    tcase_add_test(tc, test_scopes_of_arrays_and_shared_allocations);
    tcase_add_test(tc, test_scratch_is_only_shared_and_width1_tags_arrays);
    tcase_add_test(tc, test_compaction_keeps_count_in_register_and_is_exact);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc, char **argv)
{
    return tj_test_main(argc, argv, alias_scopes_suite());
}
