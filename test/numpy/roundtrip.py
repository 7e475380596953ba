"""numpy arrays through polygpu device arrays and a kernel, as bin/polygpu runs it with the GraalPy environment of
scripts/numpy.sh (NumpyLauncherTest runs it; its output must be roundtrip.py.out)."""
import numpy as np
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
SAXPY = """
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
n = 10_000
rng = np.random.default_rng(7)
a = rng.standard_normal(n, dtype=np.float32)
b = rng.standard_normal(n, dtype=np.float32)

# ndarray -> device array -> ndarray, each copy one memory copy through the ndarray's __array_interface__.
x = CU.DeviceArray("float", n)
x.copyFrom(a)
back = np.empty(n, dtype=np.float32)
x.copyTo(back)
print("copyFrom/copyTo:", np.array_equal(a, back), x[n - 1] == a[n - 1])

# A kernel between them: y = 2x + y, compared with numpy's own float32 result.
saxpy = CU.buildkernel(SAXPY, "saxpy(x: in pointer float, y: inout pointer float, a: float, n: sint32)")
y = CU.DeviceArray("float", n)
y.copyFrom(b)
saxpy((n + 255) // 256, 256)(x, y, 2.0, n)
result = np.empty(n, dtype=np.float32)
y.copyTo(result)
expected = np.float32(2.0) * a + b
print("kernel:", result.dtype, np.allclose(result, expected, rtol=1e-6, atol=1e-6),
      float(np.max(np.abs(result - expected))) <= 1e-6)

# GrCUDA's idiom: the ndarray's address and a count.
c = np.linspace(0, 1, n, dtype=np.float32)
x.copyFrom(c.ctypes.data, n)
d = np.zeros(n, dtype=np.float32)
x.copyTo(d.ctypes.data, n)
print("ctypes.data:", np.array_equal(c, d))

# Slices that are contiguous are memory too; a strided one, or another dtype, is converted element by element.
x.copyFrom(np.concatenate([b, a])[n:])
part = np.zeros(2 * n, dtype=np.float32)
x.copyTo(part[n:])
print("contiguous slice:", np.array_equal(part[n:], a), not part[:n].any())
small = CU.DeviceArray("float", 4)
small.copyFrom(np.arange(8, dtype=np.float32)[::2])
print("strided:", list(small))
small.copyFrom(np.array([1.5, 2.5, 3.5, 4.5]))
print("float64 into float:", list(small))
ints = CU.DeviceArray("int", 3)
ints.copyFrom(np.array([-1, 0, 7], dtype=np.int32))
print("int32:", list(ints))

# numpy's scalars are numbers to polygpu (Python's numeric protocol): element stores and scalar kernel arguments.
ints[0] = np.int64(5)
small[1] = np.float32(0.25)
twos = CU.DeviceArray("float", 4)
twos.copyFrom(np.full(4, 2.0, dtype=np.float32))
saxpy(1, 32)(twos, small, np.float32(3.0), np.int32(4))
print("numpy scalars:", list(ints), list(small))

# JavaScript beside numpy in one context, as GrCUDA's benchmarks initialise arrays: a JS function fills a device array.
fill = polyglot.eval(language="js", string="(x, n) => { for (let i = 0; i < n; i++) { x[i] = i * 0.5; } }")
filled = CU.DeviceArray("float", 4)
fill(filled, 4)
print("js beside numpy:", list(filled), np.asarray(filled).sum())

# numpy.asarray reads a device array as the sequence it is in Python (a copy, element by element).
print("asarray:", np.asarray(small, dtype=np.float32).tolist(), np.asarray(ints).dtype.kind)

# A read-only ndarray cannot be a destination.
frozen = np.zeros(4, dtype=np.float32)
frozen.flags.writeable = False
try:
    small.copyTo(frozen)
except polyglot.ForeignException as e:  # GraalPy: errors from other languages derive from BaseException
    print("read-only:", "read-only" in str(e), frozen.tolist())
