@wp.func
def f0(a: int):
    return f1(a)
@wp.func
def f1(a: int):
    return f2(a)
@wp.func
def f2(a: int):
    return f3(a)
@wp.func
def f3(a: int):
    return f4(a)
@wp.func
def f4(a: int):
    return f5(a)
@wp.func
def f5(a: int):
    return f6(a)
@wp.func
def f6(a: int):
    return f7(a)
@wp.func
def f7(a: int):
    return f8(a)
@wp.func
def f8(a: int):
    return f9(a)
@wp.func
def f9(a: int):
    return a
@wp.kernel
def k(a: int):
    x = f0(a)
