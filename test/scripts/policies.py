# variant round-robin: --polygpu.DeviceSelectionPolicy=round-robin --polygpu.NumberOfGPUs=2
# variant minmax-transfer-time: --polygpu.DeviceSelectionPolicy=minmax-transfer-time --polygpu.EmulatedDevices=2
# variant minmin-transfer-time: --polygpu.DeviceSelectionPolicy=minmin-transfer-time
# variant min-transfer-size: --polygpu.DeviceSelectionPolicy=min-transfer-size --polygpu.EmulatedDevices=8 --polygpu.EmulatedTopology=a100x8-nvswitch --polygpu.EmulatedDeviceModel=A100
# Three chains (produce, scale) and two combines under each policy: where each launch ran.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void produce(float *x, float v, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = v;
}
extern "C" __global__ void scale(const float *x, float *y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i];
}
extern "C" __global__ void combine(const float *a, const float *b, float *c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) c[i] = a[i] + b[i];
}"""
produce = CU.buildkernel(code, "produce(x: out pointer float, v: float, n: sint32)")
scale = CU.buildkernel(code, "scale(x: in pointer float, y: out pointer float, a: float, n: sint32)")
combine = CU.buildkernel(code, "combine(a: in pointer float, b: in pointer float, c: out pointer float, n: sint32)")
n = 4096
print("policy:", CU.getoptions().DeviceSelectionPolicy, "GPUs:", CU.cudaGetDeviceCount())
ys = []
for chain in range(3):
    x = CU.DeviceArray("float", n)
    y = CU.DeviceArray("float", n)
    p = produce(4, 256)(x, chain + 1.0, n)
    s = scale(4, 256)(x, y, 2.0, n)
    print(f"chain {chain}: produce on GPU {p.device}, scale on GPU {s.device}")
    ys.append(y)
c01 = CU.DeviceArray("float", n)
c = CU.DeviceArray("float", n)
k1 = combine(4, 256)(ys[0], ys[1], c01, n)
k2 = combine(4, 256)(c01, ys[2], c, n)
print(f"combine on GPU {k1.device}, then on GPU {k2.device}")
print("c[0], c[n-1]:", c[0], c[n - 1], "expected", 2.0 * (1 + 2 + 3))
