# The seed of wp.tile_stack (seeds/tile_stack.txt).
#   tilejit run examples/kernels/compact_values.py --kernel compact_values --tiled 1 \
#       --block-dim 4 --cpu-blocks --arg data='[1, 8, 3, 7, 2, 9, 4, 6]' \
#       --arg out='zeros(8)' --arg num='zeros(1)'
# prints num = [4] and the values above 5 (6, 7, 8, 9, in an unspecified order) at the
# start of out; the seed prints sorted(out[:num]) = [6, 7, 8, 9].
import warp as wp

CAPACITY = wp.constant(8)
NUM_ITEMS = wp.constant(8)


@wp.kernel
def compact_values(data: wp.array[int], out: wp.array[int], num: wp.array[int]):
    _i, lane = wp.tid()
    s = wp.tile_stack(capacity=CAPACITY, dtype=int)

    # one item per lane per step, so the kernel works for any block size
    for base in range(0, NUM_ITEMS, wp.block_dim()):
        i = base + lane
        value = int(-1)
        keep = False
        if i < NUM_ITEMS:
            value = data[i]
            keep = value > 5
        wp.tile_stack_push(s, value, keep)

    if lane == 0:
        num[0] = wp.tile_stack_count(s)

    while wp.tile_stack_count(s) > 0:
        value, slot = wp.tile_stack_pop(s)
        if slot >= 0:
            out[slot] = value
