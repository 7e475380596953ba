# A kernel fault is sticky: the next host access raises it once, whatever array it reads, naming kernel, block,
# thread, address and PTX line; the context stays usable after that, the array the kernel wrote is undefined until
# written whole, unrelated arrays and later launches are unaffected.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
overrun = CU.buildkernel("""
extern "C" __global__ void overrun(float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i + 1000000] = 1.0f;
}""", "overrun(y: out pointer float, n: sint32)")
inc = CU.buildkernel("""
extern "C" __global__ void inc(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}""", "inc(x: inout pointer float, n: sint32)")
y = CU.DeviceArray("float", 4)
u = CU.DeviceArray("float", 4)
overrun(1, 4)(y, 4)
inc(1, 4)(u, 4)
for attempt in range(2):
    try:
        print("unrelated:", list(u))
    except polyglot.ForeignException as e:
        print("read", attempt, "->", str(e).splitlines()[0])
try:
    print(y[0])
except polyglot.ForeignException as e:
    print("written by the kernel ->", str(e).splitlines()[0])
y.copyFrom([1.0, 2.0, 3.0, 4.0])
inc(1, 4)(y, 4)
print("defined again:", list(y))
y.free()
CU.cudaDeviceSynchronize()
print("synchronised")
