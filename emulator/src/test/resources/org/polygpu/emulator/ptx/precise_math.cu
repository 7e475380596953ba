// Transcendental functions in full precision: NVRTC's library code (range reduction uses local memory).
extern "C" __global__ void precise_math(const float* x, float* o, int n) {
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
        r[7] = powf(v, 1.5f);
    }
}

extern "C" __global__ void precise_double(const double* x, double* o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        double* r = o + 4 * i;
        r[0] = exp(v);
        r[1] = log(v);
        r[2] = sin(v);
        r[3] = 1.0 / v;
    }
}
