# A kernel whose PTX writes through a pointer its signature declares read-only (a legacy `const pointer`, an NIDL
# `in` pointer) gets that parameter as inout, with a warning on standard error, so that the write is kept as
# GrCUDA's unified memory keeps it; an atomic through such a pointer too. (A write the PTX analysis cannot see still
# faults on the emulator, naming kernel, parameter, block, thread and address.)
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void clobber(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { ((float *) x)[i] = 0.0f; y[i] = 2.0f; }
}
extern "C" __global__ void tally(int *counts, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { atomicAdd(counts, 1); y[i] = 1.0f; }
}
extern "C" __global__ void copy(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}"""
clobber = CU.buildkernel(code, "clobber", "const pointer, pointer, sint32")
tally = CU.buildkernel(code, "tally(counts: in pointer sint32, y: out pointer float, n: sint32)")
copy = CU.buildkernel(code, "copy(x: in pointer float, y: out pointer float, n: sint32)")
x = CU.DeviceArray("float", 4)
y = CU.DeviceArray("float", 4)
counts = CU.DeviceArray("int", 1)
x.copyFrom([1.0, 2.0, 3.0, 4.0])
for name, launch in [("clobber", lambda: clobber(1, 4)(x, y, 4)), ("tally", lambda: tally(1, 4)(counts, y, 4))]:
    launch()
    try:
        print(name, "y[0] =", y[0])
    except polyglot.ForeignException as e:
        print(name, "->", str(e).splitlines()[0])
print("x:", list(x), "counts:", list(counts))
copy(1, 4)(x, y, 4)
print("still usable:", list(y))
