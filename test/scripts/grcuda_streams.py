# options: --polygpu.NumberOfGPUs=2 --polygpu.DeviceSelectionPolicy=single-gpu
# GrCUDA's device, stream and event functions from Python, isMemoryFreed read as GrCUDA programs read it, and the
# GrCUDA functions polygpu does not provide.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
SQUARE = """
extern "C" __global__ void square(float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
"""
square = CU.buildkernel(SQUARE, "square", "pointer, pointer, sint32")
n = 64
x, y, z = CU.DeviceArray("float", n), CU.DeviceArray("float", n), CU.DeviceArray("float", n)
for i in range(n):
    x[i] = 3

CU.cudaSetDevice(1)
print("current device:", CU.cudaGetDevice(), [d.isCurrent() for d in CU.getdevices()])
s1 = CU.cudaStreamCreate()
s2 = CU.cudaStreamCreate()
print("streams on device", s1.device, "and", s2.device)
k1 = square(2, 32, s1)(x, y, n)
e = CU.cudaEventCreate()
CU.cudaEventRecord(e, s1)
CU.cudaStreamWaitEvent(s2, e)
k2 = square(2, 32, 0, s2)(y, z, n)
CU.cudaStreamSynchronize(s2)
print("on device", k1.device, "and", k2.device, "->", y[0], z[n - 1])
CU.cudaStreamDestroy(s1)
CU.cudaStreamDestroy(s2)
CU.cudaEventDestroy(e)

CU.getdevice(0).setCurrent()
k3 = square(2, 32)(z, y, n)
print("after setCurrent(0): device", k3.device, "->", y[0])

print("isMemoryFreed before free:", bool(x.isMemoryFreed), x.isMemoryFreed())
x.free()
print("isMemoryFreed after free:", bool(x.isMemoryFreed), x.isMemoryFreed())

for call in [lambda: CU.ML.cumlSpDbscanFit(1, 2), lambda: polyglot.eval(language="polygpu", string="shred")(x),
             lambda: CU.TRT.createInferRuntime()]:
    try:
        call()
    except polyglot.ForeignException as err:
        print(err)
