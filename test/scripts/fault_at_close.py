# exit: 1
# A kernel fault that no host access depends on (the kernel writes nothing the script reads) is raised when the
# context closes, as a polygpu error naming kernel, block, thread and PTX line, not as an internal error.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
peek = CU.buildkernel("""
extern "C" __global__ void peek(const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { volatile float v = x[i + 1000000]; }
}""", "peek(x: in pointer float, n: sint32)")
x = CU.DeviceArray("float", 4)
peek(1, 4)(x, 4)
print("launched; x[0] =", x[0])
