@wp.kernel
def k(a: wp.array[float]):
    t = wp.tile_load(a, shape=4)
    r = wp.tile_reshape(t, shape=(2147483647, 2147483647, 2147483647, -1))
    s = t[0:4:9223372036854775807]
    u = t[::-9223372036854775807]
