# 2-D tiled matrix multiply with dynamic shared memory: kernel([4, 4], [32, 32], 8192) on 128 x 128 floats.
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
code = """
extern "C" __global__ void matmul(const float *a, const float *b, float *c, int n) {
    extern __shared__ float tiles[];
    float *ta = tiles, *tb = tiles + blockDim.x * blockDim.y;
    int tx = threadIdx.x, ty = threadIdx.y, w = blockDim.x;
    int row = blockIdx.y * blockDim.y + ty, col = blockIdx.x * blockDim.x + tx;
    float acc = 0;
    for (int t = 0; t < n; t += w) {
        ta[ty * w + tx] = a[row * n + t + tx];
        tb[ty * w + tx] = b[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < w; k++) acc += ta[ty * w + k] * tb[k * w + tx];
        __syncthreads();
    }
    c[row * n + col] = acc;
}
"""
matmul = CU.buildkernel(code, "matmul(a: in pointer float, b: in pointer float, c: out pointer float, n: sint32)")
n = 128
a = CU.DeviceArray("float", n, n)
b = CU.DeviceArray("float", n, n)
c = CU.DeviceArray("float", n, n)
import array
a.copyFrom(array.array("f", [(i + j) % 7 for i in range(n) for j in range(n)]))
b.copyFrom(array.array("f", [(i * j) % 5 for i in range(n) for j in range(n)]))
matmul([4, 4], [32, 32], 8192)(a, b, c, n)
row = 37
expected = [sum(((row + k) % 7) * ((k * j) % 5) for k in range(n)) for j in range(n)]
print("c[37][0:4]:", list(c[row])[0:4])
print("row 37 matches:", list(c[row]) == expected)
print("c[127][127]:", c[127][127], "expected", sum(((127 + k) % 7) * ((k * 127) % 5) for k in range(n)))
