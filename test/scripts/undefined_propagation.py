# What a kernel or device copy computes from an array that a faulted kernel left undefined is undefined too: the first
# read of it raises the original fault, later reads say through which computation it was derived. The outcome does not
# depend on whether the fault was known when the consumer was launched (here: launched at once, before anything waits).
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void overrun(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i + 1000000] = 1.0f;
}
extern "C" __global__ void twice(const float *x, float *z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = 2.0f * x[i];
}"""
overrun = CU.buildkernel(code, "overrun(y: out pointer float, n: sint32)")
twice = CU.buildkernel(code, "twice(x: in pointer float, z: out pointer float, n: sint32)")
y = CU.DeviceArray("float", 4)
z = CU.DeviceArray("float", 4)
w = CU.DeviceArray("float", 4)
overrun(1, 4)(y, 4)
twice(1, 4)(y, z, 4)
CU.cudaMemcpy(w, z, 16)
for name, array in [("w", w), ("w", w), ("z", z)]:
    try:
        print(name, array[0])
    except polyglot.ForeignException as e:
        print(name, "->", str(e).splitlines()[0])
y.copyFrom([1.0, 2.0, 3.0, 4.0])
twice(1, 4)(y, z, 4)
print("defined again:", list(z))
