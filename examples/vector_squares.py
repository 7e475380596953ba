"""Squares of a vector on several GPUs with polygpu (GrCUDA's API: change the language id to port GrCUDA code).

The vector is split into partitions; each partition is initialised, squared and summed by its own kernels. The
runtime infers the dependencies, picks a GPU and a stream for each launch and copies data where it is needed; the
host code below never names a device. Run it with bin/polygpu (4 emulated GPUs when no GPU is present):

    bin/polygpu examples/vector_squares.py [elements] [partitions]
"""
import sys
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")

KERNELS = """
extern "C" __global__ void init(float *x, int offset, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = (float) ((offset + i) % 100);
}
extern "C" __global__ void square(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[i] * x[i];
}
extern "C" __global__ void sum(const float *y, double *out, int n) {
    double acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += y[i];
    atomicAdd(out, acc);
}
"""

elements = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
partitions = int(sys.argv[2]) if len(sys.argv) > 2 else 4
size = (elements + partitions - 1) // partitions

init = CU.buildkernel(KERNELS, "init(x: out pointer float, offset: sint32, n: sint32)")
square = CU.buildkernel(KERNELS, "square(x: in pointer float, y: out pointer float, n: sint32)")
total = CU.buildkernel(KERNELS, "sum(y: in pointer float, out: inout pointer double, n: sint32)")

devices = CU.getdevices()
print(f"polygpu: squares of {elements} numbers in {partitions} partitions, {len(devices)} GPUs available")
for d in devices:
    print(f"  GPU {d.id}: {d.deviceName}, {d.totalDeviceMemory // 2**20} MiB")

placement = []
sums = []
for p in range(partitions):
    first = p * size
    n = min(size, elements - first)
    x = CU.DeviceArray("float", n)
    y = CU.DeviceArray("float", n)
    s = CU.DeviceArray("double", 1)
    where = [init(32, 256)(x, first, n), square(32, 256)(x, y, n), total(32, 256)(y, s, n)]
    placement.append((first, n, [(k.device, k.stream) for k in where]))
    sums.append(s)

result = 0.0
for (first, n, where), s in zip(placement, sums):
    value = s[0]  # waits only for this partition's kernels
    result += value
    steps = ", ".join(f"{name} on GPU {dev} stream {stream}"
                      for name, (dev, stream) in zip(("init", "square", "sum"), where))
    print(f"partition {first}..{first + n - 1}: sum of squares {value:.0f} ({steps})")

expected = float((elements // 100) * sum(k * k for k in range(100)) + sum(k * k for k in range(elements % 100)))
print(f"total: {result:.0f} (expected {expected:.0f}) {'OK' if result == expected else 'MISMATCH'}")
used = sorted({dev for _, _, where in placement for dev, _ in where})
print(f"GPUs used: {', '.join(str(d) for d in used)}")
sys.exit(0 if result == expected else 1)
