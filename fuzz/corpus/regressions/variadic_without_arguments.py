import warp as wp


@wp.kernel
def empty_call(h: wp.array[float]):
    i = wp.tid()
    h[i] = h[i] * wp.tile_arange()
