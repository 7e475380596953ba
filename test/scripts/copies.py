# copyFrom/copyTo with Python host values, and their ordering with pending kernels.
import polyglot
import array

CU = polyglot.eval(language="polygpu", string="CU")
a = CU.DeviceArray("float", 4)
a.copyFrom(array.array("f", [1.5, 2.5, 3.5, 4.5]))
b = CU.DeviceArray("float", 4)
b.copyFrom(memoryview(array.array("f", [5, 6, 7, 8])))
c = CU.DeviceArray("int", 3)
c.copyFrom([7, 8, 9])
d = CU.DeviceArray("float", 4)
d.copyFrom(a)
print("from array:", list(a), "from memoryview:", list(b), "from list:", list(c), "from device:", list(d))
out = array.array("f", [0] * 4)
a.copyTo(out)
raw = bytearray(16)
b.copyTo(raw)
lst = [0, 0, 0]
c.copyTo(lst)
print("to array:", list(out), "to bytearray:", list(array.array("f", bytes(raw))), "to list:", lst)
part = CU.DeviceArray("float", 4)
part.copyFrom([9, 9], 2)
print("partial:", list(part))

scale = CU.buildkernel("""
extern "C" __global__ void scale(const double *x, double *y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}""", "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)")
n = 2048
x = CU.DeviceArray("double", n)
x.copyFrom(array.array("d", range(n)))
y = CU.DeviceArray("double", n)
scale(8, 256)(x, y, 2.0, n)
x.copyFrom(array.array("d", [0.0] * n))   # waits for the kernel still reading x
ys = array.array("d", [0.0] * n)
y.copyTo(ys)                               # waits for the kernel writing y
print("y == 2 * old x:", all(ys[i] == 2.0 * i for i in range(n)), "x now zero:", sum(x) == 0)
