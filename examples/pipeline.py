"""Two independent branches joined by a third kernel: the DAG polygpu infers from in/out/inout, the GPUs and streams
it picks, and the copy it makes when the join runs where only one branch's result is. scripts/docs-pictures.sh
draws docs/pictures/pipeline-dag.svg and pipeline-timeline.svg from this program's exports:

    bin/polygpu --polygpu.ExportDAG=dag --polygpu.ExportTrace=trace.json examples/pipeline.py [elements]
"""
import sys
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
CODE = """
extern "C" __global__ void fill(float *x, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v * (i % 10);
}
extern "C" __global__ void square(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
extern "C" __global__ void add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
fill = CU.buildkernel(CODE, "fill(x: out pointer float, v: float, n: sint32)")
square = CU.buildkernel(CODE, "square(x: in pointer float, y: out pointer float, n: sint32)")
add = CU.buildkernel(CODE, "add(a: in pointer float, b: in pointer float, c: out pointer float, n: sint32)")

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
blocks = (n + 255) // 256
x, y, x2, y2, z = (CU.DeviceArray("float", n) for _ in range(5))
launches = [fill(blocks, 256)(x, 1.0, n), fill(blocks, 256)(y, 2.0, n),
            square(blocks, 256)(x, x2, n), square(blocks, 256)(y, y2, n),
            add(blocks, 256)(x2, y2, z, n)]
print("z[9] =", z[9])  # waits for add, which waits for both branches
for name, k in zip(["fill x", "fill y", "square x", "square y", "add"], launches):
    print(f"{name}: GPU {k.device}, stream {k.stream}")
sys.exit(0 if z[9] == 81.0 + 324.0 else 1)
