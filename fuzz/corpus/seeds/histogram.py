# The seed of wp.tile_scatter_add (seeds/tile_scatter_add.txt).
#   tilejit run examples/kernels/histogram.py --kernel histogram --tiled 1 --block-dim 8 \
#       --cpu-blocks --arg data='[0.5, 2.0, 3.0, 4.0, 4.5, 5.5, 6.0, 7.0]' \
#       --arg bins_out='zeros(4)'
# prints bins_out = [1.0, 2.0, 3.0, 2.0] on the GPU and with --cpu-blocks; in CPU width-1
# mode the block has one lane and only data[0] is counted: [1.0, 0.0, 0.0, 0.0].
import warp as wp


@wp.kernel
def histogram(data: wp.array[float], bins_out: wp.array[float]):
    _block, i = wp.tid()
    bins = wp.tile_zeros(shape=4, dtype=float, storage="shared")
    # bin values in [0, 8) into four bins of width 2
    b = int(data[i] / 2.0)
    wp.tile_scatter_add(bins, b, 1.0, True)
    wp.tile_store(bins_out, bins)
