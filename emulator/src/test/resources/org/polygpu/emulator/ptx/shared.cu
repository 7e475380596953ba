// Shared memory: a static tile reduction with barriers, dynamic extern shared memory, and out-of-bounds accesses.
extern "C" __global__ void block_sum(const int* in, int* out) {
    __shared__ int tile[256];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tile[0];
}

extern "C" __global__ void reverse_dynamic(const float* in, float* out) {
    extern __shared__ float buf[];
    int t = threadIdx.x;
    int n = blockDim.x;
    buf[t] = in[blockIdx.x * n + t];
    __syncthreads();
    out[blockIdx.x * n + t] = buf[n - 1 - t];
}

extern "C" __global__ void shared_oob(int* out, int k) {
    __shared__ int tile[64];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + k];
}

extern "C" __global__ void local_oob(int* out, int k) {
    int a[8];
    for (int i = 0; i < 8; i++) a[i] = out[i] * i;
    out[threadIdx.x] = a[threadIdx.x + k];
}
