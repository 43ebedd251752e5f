X = wp.int64(1e300) + wp.int64(-1e300)
Y = wp.uint64(18446744073709551615) >> wp.uint64(63)
Z = wp.int8(-1e30) * wp.int8(1e30)
W = wp.int64(-9223372036854775807) - wp.int64(1)
V = W // wp.int64(-1) + W % wp.int64(-1)
@wp.kernel
def k(a: wp.array[wp.int64]):
    a[0] = X + W + V + wp.int64(Y) + wp.int64(Z)
    b = a[0] // wp.int64(-1)
