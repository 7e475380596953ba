// The template kernel from JavaScript with the legacy signature: inc_kernel<int>, out[i] == i + 1.
const buildkernel = Polyglot.eval('polygpu', 'buildkernel');
const inc = buildkernel(`
template <typename T>
__global__ void inc_kernel(T *out, const T *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}`, 'inc_kernel<int>', 'pointer, const pointer, sint32');
const n = 1000;
const src = Polyglot.eval('polygpu', `int[${n}]`);
const dst = Polyglot.eval('polygpu', `int[${n}]`);
src.copyFrom(Int32Array.from({length: n}, (_, i) => i));
console.log(inc.name, 'launches:', inc.launchCount);
inc([8], [128])(dst, src, n);
console.log('launches:', inc.launchCount);
const out = new Int32Array(n);
dst.copyTo(out);
console.log('out[0], out[999]:', out[0], out[999]);
console.log('all out[i] == i + 1:', out.every((v, i) => v === i + 1));
