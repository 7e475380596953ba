"""More data than a GPU holds: arrays that together are four times one emulated GPU's memory, each incremented in
turn, so that polygpu evicts the others (writing the only valid copy back to the host first) and brings them back
when they are used again. Run it with a small emulated GPU (see docs/memory.md):

    bin/polygpu --polygpu.EmulatedDevices=1 --polygpu.EmulatedDeviceMemory=256KiB examples/larger_than_gpu.py [elements]

Add --polygpu.ExportTrace=trace.json to see the evictions as instant events named "evict ...".
"""
import sys
import polyglot

CU = polyglot.eval(language="polygpu", string="CU")
inc = CU.buildkernel("""
extern "C" __global__ void inc(float *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] += 1.0f;
}""", "inc(x: inout pointer float, n: sint32)")

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16 * 1024   # elements per array: 64 KiB of floats by default
arrays = [CU.DeviceArray("float", n) for _ in range(16)]
for round in range(3):
    for a in arrays:
        inc(16, 256)(a, n)
ok = all(a[0] == 3.0 and a[n - 1] == 3.0 for a in arrays)
print(f"{len(arrays)} arrays of {n * 4} bytes, each incremented 3 times: {'OK' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
