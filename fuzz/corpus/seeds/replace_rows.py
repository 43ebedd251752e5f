# The seed of wp.tile_view (seeds/tile_view.txt).
#   tilejit run examples/kernels/replace_rows.py --kernel replace_rows --tiled 1 \
#       --block-dim 8 --arg a='[[0,1,2,3],[4,5,6,7],[8,9,10,11],[12,13,14,15]]' \
#       --arg out='zeros(4,4)'
# prints out = [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [100.0, ...], [104.0, ...]]
import warp as wp


@wp.kernel
def replace_rows(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(4, 4))

    # the view aliases t, so writing through it updates t
    rows = wp.tile_view(t, offset=(2, 0), shape=(2, 4))
    values = wp.tile_arange(100.0, 108.0, 1.0, dtype=float)
    wp.tile_assign(rows, wp.tile_reshape(values, shape=(2, 4)))

    wp.tile_store(out, t)
