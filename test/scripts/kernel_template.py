# A template kernel built with a NIDL signature: inc_kernel<int> over 1000 ints, out[i] == i + 1.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
template <typename T>
__global__ void inc_kernel(T *out, const T *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}
"""
inc = CU.buildkernel(code, "inc_kernel<int>(out: out pointer sint32, in: in pointer sint32, n: sint32)")
n = 1000
src = CU.DeviceArray("int", n)
dst = CU.DeviceArray("int", n)
for i in range(n):
    src[i] = i
print(inc.name, "launches:", inc.launchCount)
inc(8, 128)(dst, src, n)
print("launches:", inc.launchCount)
print("out[0], out[999]:", dst[0], dst[999])
print("all out[i] == i + 1:", all(dst[i] == i + 1 for i in range(n)))
print("ptx has the entry:", ".entry" in inc.ptx)
