# options: --polygpu.EmulatedDevices=4 --polygpu.DeviceSelectionPolicy=round-robin
# variant managed: --polygpu.MemoryModel=managed
# variant explicit: --polygpu.MemoryModel=explicit
# A GrCUDA-style partitioned matrix-vector product, as GrCUDA's multi-GPU linear-algebra benchmark writes it: each of
# four partitions' kernels writes its rows of y through a pointer its signature declares `const`. Under managed
# memory the writes land and y normalised matches the CPU reference. Under explicit such a write is refused, and the
# fault is sticky: the program's next host access raises it (here the copy of the next partition's rows, an array the
# faulted kernel does not use), instead of the program going on with a y of zeros to a ZeroDivisionError far from the
# cause.
import math
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
mv_part = CU.buildkernel("""
extern "C" __global__ void mv_part(const float *a, const float *x, const float *y, int offset, int rows, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        float s = 0;
        for (int k = 0; k < n; k++) s += a[i * n + k] * x[k];
        ((float *) y)[offset + i] = s;
    }
}""", "mv_part", "const pointer, const pointer, const pointer, sint32, sint32, sint32")

N, PARTS = 64, 4
part = N // PARTS
a_rows = [[((i * 7 + k * 3) % 11 - 5) / 5.0 for k in range(N)] for i in range(N)]
x_values = [(k % 5 + 1) / 5.0 for k in range(N)]
x = CU.DeviceArray("float", N)
x.copyFrom(x_values)
y = CU.DeviceArray("float", N)
try:
    for p in range(PARTS):
        a = CU.DeviceArray("float", part * N)
        a.copyFrom([v for row in a_rows[p * part:(p + 1) * part] for v in row])
        mv_part(4, 32)(a, x, y, p * part, part, N)
    values = list(y)
    norm = math.sqrt(sum(v * v for v in values))
    expected = [sum(r[k] * x_values[k] for k in range(N)) for r in a_rows]
    reference = math.sqrt(sum(v * v for v in expected))
    print("normalised y matches the CPU reference:",
          all(abs(v / norm - e / reference) < 1e-4 for v, e in zip(values, expected)))
except polyglot.ForeignException as e:
    print("failed:", str(e).splitlines()[0])
