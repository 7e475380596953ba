// Host values of the wrong kind from JavaScript: each error names the parameter or element, what was expected and
// what was received; JavaScript catches every one, and the next correct launch gives the right answer.
const CU = Polyglot.eval('polygpu', 'CU');
const scale = CU.buildkernel(`
extern "C" __global__ void scale(const double *x, double *y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}`, 'scale(x: in pointer double, y: out pointer double, a: double, n: sint32)');
const x = CU.DeviceArray('double', 4);
const y = CU.DeviceArray('double', 4);
const longs = CU.DeviceArray('long', 2);
const attempts = [
    ['array for a pointer', () => scale(1, 4)([1, 2, 3, 4], y, 2, 4)],
    ['null for a pointer', () => scale(1, 4)(null, y, 2, 4)],
    ['undefined for a pointer', () => scale(1, 4)(undefined, y, 2, 4)],
    ['object for a scalar', () => scale(1, 4)(x, y, {}, 4)],
    ['2n ** 70n for a sint32', () => scale(1, 4)(x, y, 2, 2n ** 70n)],
    ['string for a scalar', () => scale(1, 4)(x, y, '2', 4)],
    ['array as an element', () => { x[0] = [1]; }],
    ['null as an element', () => { x[0] = null; }],
    ['2n ** 64n + 5n into a long', () => { longs[0] = 2n ** 64n + 5n; }],
    ['copyFrom(null)', () => x.copyFrom(null)],
    ['copyFrom an array holding null', () => longs.copyFrom([1, null])],
    ['size null', () => CU.DeviceArray('float', null)],
    ['size 2n ** 70n', () => CU.DeviceArray('float', 2n ** 70n)],
];
for (const [what, attempt] of attempts) {
    try {
        attempt();
        console.log(what, '-> no error');
    } catch (e) {
        console.log(what, '->', e.message.split('\n')[0]);
    }
}
x.copyFrom([1, 2, 3, 4]);
scale(1, 4)(x, y, 3, 4);
console.log('still usable:', Array.from(y).join(','), Array.from(longs).join(','));
