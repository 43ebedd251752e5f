# The second seed of wp.tile_reduce (seeds/tile_reduce.txt): the axis form.
#   tilejit run examples/kernels/row_products.py --kernel row_products --tiled 1 \
#       --block-dim 4 --arg x='[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]' --arg p='zeros(2)'
# prints p = [6.0, 6000.0]
import warp as wp


@wp.kernel
def row_products(x: wp.array2d[float], p: wp.array[float]):
    t = wp.tile_load(x, shape=(2, 3))
    wp.tile_store(p, wp.tile_reduce(wp.mul, t, axis=1))
