// Transcendental functions; compiled with --use_fast_math, so they become approx instructions.
extern "C" __global__ void fast_math(const float* x, float* o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        float* r = o + 8 * i;
        r[0] = expf(v);
        r[1] = logf(v);
        r[2] = sinf(v);
        r[3] = cosf(v);
        r[4] = rsqrtf(v);
        r[5] = sqrtf(v);
        r[6] = 1.0f / v;
        r[7] = exp2f(v) + log2f(v);
    }
}
