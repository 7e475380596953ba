// Bad input from JavaScript: every error names what is wrong, and the context stays usable.
const CU = Polyglot.eval('polygpu', 'CU');
const inc = CU.buildkernel(`
extern "C" __global__ void inc(int *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}`, 'inc(out: out pointer sint32, in: in pointer sint32, n: sint32)');
const ints = CU.DeviceArray('int', 4);
const floats = CU.DeviceArray('float', 4);
const attempts = [
    ['wrong arity', () => inc(1, 4)(ints)],
    ['float array for sint32 pointer', () => inc(1, 4)(ints, floats, 4)],
    ['scalar out of range', () => inc(1, 4)(ints, ints, 2 ** 40)],
    ['unknown identifier', () => Polyglot.eval('polygpu', 'cuml::linear')],
    ['syntax error', () => Polyglot.eval('polygpu', 'int[2][')],
    ['bad order', () => CU.DeviceArray('int', 2, 2, 'Z')],
];
for (const [what, attempt] of attempts) {
    try {
        attempt();
        console.log(what, '-> no error');
    } catch (e) {
        console.log(what, '->', e.message.split('\n')[0]);
    }
}
inc(1, 4)(ints, ints, 4);
console.log('still usable:', Array.from(ints).join(','));
