/*
 * examples/compact_values.c: the seed of tile_stack (seeds/tile_stack.txt).
 *
 *   @wp.kernel
 *   def compact_values(data: wp.array[int], out: wp.array[int], num: wp.array[int]):
 *       _i, lane = wp.tid()
 *       s = wp.tile_stack(capacity=CAPACITY, dtype=int)
 *       for base in range(0, NUM_ITEMS, wp.block_dim()):
 *           i = base + lane
 *           value = int(-1)
 *           keep = False
 *           if i < NUM_ITEMS:
 *               value = data[i]
 *               keep = value > 5
 *           wp.tile_stack_push(s, value, keep)
 *       if lane == 0:
 *           num[0] = wp.tile_stack_count(s)
 *       while wp.tile_stack_count(s) > 0:
 *           value, slot = wp.tile_stack_pop(s)
 *           if slot >= 0:
 *               out[slot] = value
 *
 *   wp.launch_tiled(compact_values, dim=1, inputs=[data], outputs=[out, num], block_dim=4)
 *   print(sorted(out.numpy()[:n].tolist()))
 *
 * Prints [6, 7, 8, 9] on every device and mode.
 */
#include <stdlib.h>

#include "common/tj_example.h"

enum { CAPACITY = 8, NUM_ITEMS = 8 };

static int
compare_ints(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static tj_kernel *
define_kernel(const tjx *x)
{
    const tj_type *i32 = tj_context_get_type(x->ctx, TJ_DTYPE_I32);
    tj_kernel_options o = tjx_options(x, 4);
    tj_kernel *k = tj_kernel_create(x->ctx, "compact_values", &o);
    tj_val *data = tj_param_array(k, "data", i32, 1);
    tj_val *out = tj_param_array(k, "out", i32, 1);
    tj_val *num = tj_param_array(k, "num", i32, 1);
    tj_val *zero = tj_const_int(k, TJ_DTYPE_I32, 0);
    tj_val *nitems = tj_const_int(k, TJ_DTYPE_I32, NUM_ITEMS);
    tj_val *tid[2];
    tj_tid(k, 2, tid);
    tj_val *lane = tid[1];
    tj_val *s = tj_tile_stack(k, CAPACITY, i32);

    tj_val *base = tj_for_begin(k, zero, nitems, tj_block_dim(k));
    tj_val *i = tj_binary(k, TJ_BIN_ADD, base, lane);
    tj_val *value = tj_var_new(k, tj_const_int(k, TJ_DTYPE_I32, -1));
    tj_val *keep = tj_var_new(k, tj_const_bool(k, false));
    tj_if_begin(k, tj_compare(k, TJ_CMP_LT, i, nitems));
    tj_val *v = tj_load(k, data, &i, 1);
    tj_var_set(k, value, v);
    tj_var_set(k, keep, tj_compare(k, TJ_CMP_GT, v, tj_const_int(k, TJ_DTYPE_I32, 5)));
    tj_if_end(k);
    tj_tile_stack_push(k, s, tj_var_get(k, value), tj_var_get(k, keep));
    tj_for_end(k);

    tj_if_begin(k, tj_compare(k, TJ_CMP_EQ, lane, zero));
    tj_store(k, num, &zero, 1, tj_tile_stack_count(k, s));
    tj_if_end(k);

    tj_while_begin(k);
    tj_while_cond(k, tj_compare(k, TJ_CMP_GT, tj_tile_stack_count(k, s), zero));
    tj_val *slot;
    tj_val *popped = tj_tile_stack_pop(k, s, &slot);
    tj_if_begin(k, tj_compare(k, TJ_CMP_GE, slot, zero));
    tj_store(k, out, &slot, 1, popped);
    tj_if_end(k);
    tj_while_end(k);
    return k;
}

int
main(int argc, char **argv)
{
    tjx x;
    tjx_init(&x, argc, argv,
             "Compacts the values above 5 through a shared stack (seeds/tile_stack.txt).");
    tj_module *m = tjx_build(&x, define_kernel(&x));

    int32_t data[NUM_ITEMS] = {1, 8, 3, 7, 2, 9, 4, 6}, out[NUM_ITEMS], num = 0;
    int64_t n = NUM_ITEMS, one = 1;
    tj_array *d_a = tjx_array(&x, TJ_DTYPE_I32, 1, &n, data);
    tj_array *o_a = tjx_array(&x, TJ_DTYPE_I32, 1, &n, NULL);
    tj_array *n_a = tjx_array(&x, TJ_DTYPE_I32, 1, &one, NULL);
    tj_arg args[] = {tj_arg_array(d_a), tj_arg_array(o_a), tj_arg_array(n_a)};
    tjx_check(&x, tj_launch_tiled(x.dev, m, "compact_values", 1, &one, 4, args, 3), "launch");
    tjx_read(&x, o_a, out);
    tjx_read(&x, n_a, &num);
    if (num < 0 || num > NUM_ITEMS) {
        fprintf(stderr, "%s: count %d is out of range\n", argv[0], num);
        return 1;
    }
    qsort(out, (size_t)num, sizeof out[0], compare_ints);
    printf("[");
    for (int j = 0; j < num; j++)
        printf("%s%d", j ? ", " : "", out[j]);
    printf("]\n");
    tj_context_destroy(x.ctx);
    bool ok = num == 4 && out[0] == 6 && out[1] == 7 && out[2] == 8 && out[3] == 9;
    if (!ok)
        fprintf(stderr, "%s: expected [6, 7, 8, 9]\n", argv[0]);
    return ok ? 0 : 1;
}
