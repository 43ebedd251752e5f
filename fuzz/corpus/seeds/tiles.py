import warp as wp

TILE = wp.constant(8)


@wp.func
def clamp01(a: float) -> float:
    return wp.min(wp.max(a, 0.0), 1.0)


@wp.func
def bigger(a: int, b: int) -> int:
    return wp.max(a, b)


@wp.kernel
def tiles(x: wp.array2d[float], k: wp.array[int], out: wp.array2d[float]):
    b, lane = wp.tid()
    t = wp.tile_load(x, shape=(4, TILE), offset=(b * 4, 0), storage="shared")
    v = wp.tile_view(t, offset=(1, slice(0, 4)))
    w = t[1:3, ::-1]
    r = wp.tile_reduce(wp.add, t, axis=1)
    m = wp.tile_map(clamp01, t * 2.0 - 1.0)
    acc = wp.tile_zeros(shape=(4, TILE), dtype=float)
    for j in range(3):
        acc = acc + m
    acc[0, 0] = r[0] + v[1] + w[0, 0]
    s = wp.tile_stack(capacity=16, dtype=int)
    slot = wp.tile_stack_push(s, k[lane % 4], lane % 2 == 0)
    while wp.tile_stack_count(s) > 0:
        value, got = wp.tile_stack_pop(s)
        if got >= 0:
            wp.atomic_add(k, 0, value)
    h = wp.tile_zeros(shape=4, dtype=int, storage="shared")
    wp.tile_scatter_add(h, lane % 4, 1, True, atomic=False)
    q = wp.tile_reduce(bigger, h)
    tv = wp.tile(wp.vec3(1.0, float(lane), 2.0))
    u = wp.untile(tv)
    e = wp.tile_extract(t, 0, 1) + wp.tile_sum(t)[0] + u.y + float(q[0] + slot)
    wp.tile_store(out, acc, offset=(b * 4, 0))
    wp.tile_atomic_add(out, wp.tile_reshape(wp.tile_ones(shape=TILE, dtype=float) * e, shape=(1, -1)))
