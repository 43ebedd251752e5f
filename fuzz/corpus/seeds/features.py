import warp as wp

SCALE = wp.constant(2.5)
N = wp.constant(4)

@wp.struct
class Particle:
    pos: wp.vec3
    mass: float

@wp.func
def sq(a: float) -> float:
    return a * a

@wp.func
def addf(a: float, b: float):
    return a + b

@wp.func
def fact(n: int) -> int:
    r = 1
    for j in range(2, n + 1):
        r *= j
    return r

@wp.kernel
def many(x: wp.array[float], k: wp.array[int], out: wp.array[float], outi: wp.array[int]):
    i = wp.tid()
    v = x[i]
    y = sq(v) + SCALE
    if v > 2.0:
        y = -y
    elif v > 1.0:
        y = y * 2.0
    else:
        y += 1.0
    out[i] = y
    n = k[i]
    acc = 0
    for j in range(n):
        if j == 3:
            continue
        if j > 6:
            break
        acc += j
    outi[i] = acc * 100 + fact(n % 5) + (-7 // 2) * 0 + (7 % 3)
    p = Particle()
    p.pos = wp.vec3(1.0, 2.0, v)
    p.mass = 2.0
    p.pos.x = 5.0
    w = p.pos * p.mass
    out[i] += wp.dot(w, wp.vec3(0.0, 0.0, 1.0)) * 0.0 + wp.length(wp.vec3(3.0, 4.0, 0.0)) - 5.0
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    q = m @ wp.vec2(1.0, 1.0)
    outi[i] += int(q[1]) * 0 + int(m[1, 1])
    cnt = 0
    while cnt < 3:
        cnt += 1
    outi[i] += cnt * 1000
    z = wp.float64(0.1) + wp.float64(x[i])
    bits = wp.uint8(250) + wp.uint8(10)
    outi[i] += int(bits) * 10000
    t = wp.tile_ones(shape=(2, 3), dtype=float)
    s = wp.tile_reduce(addf, t)
    outi[i] += int(s[0]) * 100000
