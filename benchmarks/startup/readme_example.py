"""The Python example of the README before docs/ ("Using polygpu from Python"), with the kernel source it leaves out: what the start-up
figures of benchmarks/README.md time as "the README example". Prints y[999] (998001.0)."""
import array, polyglot

code = """
extern "C" __global__ void square(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
"""
CU = polyglot.eval(language="polygpu", string="CU")
square = CU.buildkernel(code, "square(x: in pointer float, y: out pointer float, n: sint32)")  # NVRTC
x, y = CU.DeviceArray("float", 1000), polyglot.eval(language="polygpu", string="float[1000]")
x.copyFrom(array.array("f", range(1000)))
square(4, 256)(x, y, 1000)   # returns at once; polygpu picks the GPU and stream
print(y[999])                # waits only for what y depends on
