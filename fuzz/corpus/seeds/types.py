import warp as wp


@wp.struct
class Inner:
    a: int
    b: wp.vec2


@wp.struct
class Particle:
    pos: wp.vec3
    mass: float
    inner: Inner


@wp.kernel
def types(ps: wp.array[Particle], h: wp.array[wp.float16], d: wp.array3d[wp.float64],
          u: wp.array(dtype=wp.uint64, ndim=1), q: wp.quat, m: wp.mat33):
    i, j, l = wp.tid()
    p = ps[i]
    p.pos.x += 1.0
    p.inner.b[1] = 3.0
    ps[i] = p
    h[i] = h[i] * wp.float16(2.0)
    d[i, j, l] = wp.float64(0.1) + d[i, j, l] ** wp.float64(2.0)
    u[0] = wp.uint64(18446744073709551615) >> wp.uint64(3)
    r = q * wp.quat(0.0, 0.0, 0.0, 1.0)
    n = wp.transpose(m) @ wp.vec3(r.x, r.y, r.z)
    x = 7
    x **= 2
    x //= -3
    y = -x % 5 if x < 0 and not x == 3 else x << 2
    c = wp.vec3i(1, 2, 3)[y % 3] + wp.int32(wp.int8(300))
    ps[i].mass = float(c) + wp.length(n) + wp.dot(p.pos, wp.cross(n, p.pos))
