// Sum reduction in two levels, the way production reductions are written: each thread adds two elements per
// grid-stride step, the block halves a __shared__ array with __syncthreads() until 64 values remain, and the first
// warp finishes with warp shuffles; thread 0 writes the block's sum to partial[blockIdx.x]. A second launch with one
// block reduces the partial sums. Block size: a power of two, 64 to 1024; dynamic shared memory blockDim.x floats.

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

extern "C" __global__ void reduce_sum(const float *__restrict__ in, float *__restrict__ partial, int n) {
    extern __shared__ float sdata[];
    const unsigned tid = threadIdx.x;
    const unsigned step = blockDim.x * 2 * gridDim.x;
    float sum = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x * 2 + tid; i < n; i += step) {
        sum += in[i];
        if (i + blockDim.x < n) {
            sum += in[i + blockDim.x];
        }
    }
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] = sum = sum + sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid < 32) {
        sum += sdata[tid + 32];
        sum = warp_sum(sum);
        if (tid == 0) {
            partial[blockIdx.x] = sum;
        }
    }
}
