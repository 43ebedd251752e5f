# The seed of wp.tile (seeds/tile.txt).
#   tilejit run examples/kernels/store_doubled_thread_indices.py \
#       --kernel store_doubled_thread_indices --dim 16 --block-dim 16 --cpu-blocks \
#       --arg out='zeros(16)'
# prints out = [0, 2, 4, ..., 30] (in CPU width-1 mode, without --cpu-blocks, each thread
# is a block of one lane and only out[0] is written).
import warp as wp


@wp.kernel
def store_doubled_thread_indices(out: wp.array[int]):
    i = wp.tid()
    t = wp.tile(i * 2)
    wp.tile_store(out, t)
