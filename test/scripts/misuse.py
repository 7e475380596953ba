# Host values of the wrong kind from Python: each error names the parameter or element, what was expected and the
# Python type received; Python catches every one, and the next correct launch gives the right answer.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
scale = CU.buildkernel("""
extern "C" __global__ void scale(const double *x, double *y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}""", "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)")
x = CU.DeviceArray("double", 4)
y = CU.DeviceArray("double", 4)
longs = CU.DeviceArray("long", 2)
attempts = [
    ("list for a pointer", lambda: scale(1, 4)([1.0] * 4, y, 2.0, 4)),
    ("None for a pointer", lambda: scale(1, 4)(None, y, 2.0, 4)),
    ("dict for a pointer", lambda: scale(1, 4)({"a": 1}, y, 2.0, 4)),
    ("complex for a scalar", lambda: scale(1, 4)(x, y, 1j, 4)),
    ("2**64 for a sint32", lambda: scale(1, 4)(x, y, 2.0, 2**64)),
    ("2**70 for a sint32", lambda: scale(1, 4)(x, y, 2.0, 2**70)),
    ("list for a grid", lambda: scale([1, None], 4)),
    ("list as an element", lambda: x.__setitem__(0, [1])),
    ("None as an element", lambda: x.__setitem__(0, None)),
    ("2**64 + 5 into a long", lambda: longs.__setitem__(0, 2**64 + 5)),
    ("copyFrom(None)", lambda: x.copyFrom(None)),
    ("copyFrom a list holding None", lambda: longs.copyFrom([1, None])),
    ("size None", lambda: CU.DeviceArray("float", None)),
    ("size 2**70", lambda: CU.DeviceArray("float", 2**70)),
    ("deep nesting", lambda: polyglot.eval(language="polygpu", string="int[" + "(" * 500 + "1" + ")" * 500 + "]")),
]
for what, attempt in attempts:
    try:
        attempt()
        print(what, "-> no error")
    except polyglot.ForeignException as e:
        print(what, "->", str(e).splitlines()[0])
x.copyFrom([1.0, 2.0, 3.0, 4.0])
scale(1, 4)(x, y, 3.0, 4)
print("still usable:", list(y), list(longs))
