# options: --polygpu.DeviceSelectionPolicy=single-gpu
# Two kernels that only read one array do not wait for each other: on one GPU they go to two streams.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void total(const float *x, float *out, int n) {
    if (threadIdx.x == 0) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; out[0] = s; }
}"""
total = CU.buildkernel(code, "total(x: in pointer float, out: out pointer float, n: sint32)")
x = CU.DeviceArray("float", 1024)
x.copyFrom([1.0] * 1024)
o1 = CU.DeviceArray("float", 1)
o2 = CU.DeviceArray("float", 1)
k1 = total(1, 32)(x, o1, 1024)
k2 = total(1, 32)(x, o2, 1024)
print("first on GPU", k1.device, "stream", k1.stream, "; second on GPU", k2.device, "stream", k2.stream)
print("different streams:", (k1.device, k1.stream) != (k2.device, k2.stream))
print("sums:", o1[0], o2[0])
