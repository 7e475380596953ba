// y = a * x + y on polygpu from JavaScript: bin/polygpu examples/saxpy.js [elements]
const CU = Polyglot.eval('polygpu', 'CU');
const n = arguments.length > 0 ? parseInt(arguments[0]) : 100000;

const saxpy = CU.buildkernel(`
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}`, 'saxpy(a: float, x: in pointer float, y: inout pointer float, n: sint32)');

const x = CU.DeviceArray('float', n);
const y = CU.DeviceArray('float', n);
const host = new Float32Array(n);
for (let i = 0; i < n; i++) host[i] = i % 16;
x.copyFrom(host);        // bulk copy from the typed array
y.copyFrom(host);

const launch = saxpy(64, 256)(2.0, x, y, n);
const out = new Float32Array(n);
y.copyTo(out);           // waits for the kernel
let ok = true;
for (let i = 0; i < n; i++) ok = ok && out[i] === 3 * (i % 16);
console.log(`saxpy of ${n} floats on GPU ${launch.device}: y[${n - 1}] = ${out[n - 1]} ${ok ? 'OK' : 'MISMATCH'}`);
if (!ok) quit(1);
