// options: --polygpu.DeviceSelectionPolicy=single-gpu --polygpu.RetrieveNewStreamPolicy=always-new
// Under single-gpu every launch runs on GPU 0; independent launches still get their own streams.
const CU = Polyglot.eval('polygpu', 'CU');
const fill = CU.buildkernel(`
extern "C" __global__ void fill(float *x, float v, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = v;
}`, 'fill(x: out pointer float, v: float, n: sint32)');
const arrays = [0, 1, 2, 3].map(() => CU.DeviceArray('float', 1000));
const placed = arrays.map((a, i) => fill(4, 128)(a, i, 1000)).map(k => `GPU ${k.device} stream ${k.stream}`);
console.log('placements:', placed.join(', '));
console.log('values:', arrays.map(a => a[999]).join(', '));
