// options: --polygpu.DeviceSelectionPolicy=round-robin --polygpu.EmulatedDevices=3
// Round-robin from JavaScript over 3 emulated GPUs: independent launches rotate over the devices.
const CU = Polyglot.eval('polygpu', 'CU');
const fill = CU.buildkernel(`
extern "C" __global__ void fill(float *x, float v, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = v;
}`, 'fill(x: out pointer float, v: float, n: sint32)');
const arrays = [0, 1, 2, 3, 4].map(() => CU.DeviceArray('float', 1000));
const placed = arrays.map((a, i) => fill(4, 128)(a, i, 1000).device);
console.log('devices:', placed.join(', '));
console.log('values:', arrays.map(a => a[0]).join(', '));
