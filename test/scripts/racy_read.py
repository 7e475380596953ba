# options: --polygpu.MemoryModel=managed
# A host read that no signature orders after a kernel storing through a `const` pointer (which lands under managed
# memory, as on GrCUDA): polygpu reports the race on standard error (array, kernel, parameter, store) once per kernel
# and parameter, and the read waits for the kernel, so it prints the same values on every run.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void clobber(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { ((float *) x)[i] = 10.0f * i; y[i] = 2.0f; }
}"""
clobber = CU.buildkernel(code, "clobber", "const pointer, pointer, sint32")
x = CU.DeviceArray("float", 4)
y = CU.DeviceArray("float", 4)
x.copyFrom([1.0, 2.0, 3.0, 4.0])
for round in range(2):
    clobber(1, 4)(x, y, 4)
    print("round", round, "x[1] =", x[1], "x[3] =", x[3])
print("x:", list(x), "y:", list(y))
