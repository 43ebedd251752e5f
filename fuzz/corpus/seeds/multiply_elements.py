# The first seed of wp.tile_reduce (seeds/tile_reduce.txt).
#   tilejit run examples/kernels/multiply_elements.py --kernel multiply_elements --tiled 1 \
#       --block-dim 2 --arg x='[3, 7, 4, 9]' --arg out='zeros(1)'
# prints x = [3, 7, 4, 9] and out = [756]
import warp as wp


@wp.kernel
def multiply_elements(x: wp.array[int], out: wp.array[int]):
    t = wp.tile_load(x, shape=4)
    wp.tile_store(out, wp.tile_reduce(wp.mul, t))
