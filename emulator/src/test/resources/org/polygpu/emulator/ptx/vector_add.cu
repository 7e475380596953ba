// Element-wise kernels over float arrays: the end-to-end and throughput fixtures.
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void square(const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = x[i] * x[i];
    }
}

extern "C" __global__ void vadd4(const float4* a, const float4* b, float4* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void oob_read(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i];
}

extern "C" __global__ void spin(int* flag) {
    while (*(volatile int*) flag == 0) {
    }
}
