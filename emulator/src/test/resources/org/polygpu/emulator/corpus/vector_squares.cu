// Vector squares (the paper's VEC benchmark): square two vectors element by element, then sum the differences of
// the squares. The sum is reduced within each warp by __shfl_down_sync and added to the result by one float
// atomicAdd per warp. Block sizes must be multiples of 32 so every warp is full at the shuffle.

extern "C" __global__ void square(const float *x, float *y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = x[i] * x[i];
    }
}

__device__ __forceinline__ float warp_sum(float value) {
    for (int offset = 16; offset > 0; offset /= 2) {
        value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    return value;
}

extern "C" __global__ void reduce_diff(const float *x, const float *y, float *z, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += x[i] - y[i];
    }
    sum = warp_sum(sum);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(z, sum);
    }
}
