// Divergence and reconvergence, 3-D indices, and a non-inlined device function.
extern "C" __global__ void diverge(int* out) {
    int t = threadIdx.x;
    int v;
    if (t % 2 == 0) {
        v = t * 10;
        if (t % 4 == 0) {
            v += 1;
        }
    } else {
        v = -t;
    }
    int s = 0;
    for (int k = 0; k < t % 5; k++) {
        s += k + v;
    }
    // after reconvergence every lane sees the whole warp again
    unsigned all = __ballot_sync(0xffffffffu, 1);
    out[t] = s + (all == 0xffffffffu ? 1000000 : 0);
}

extern "C" __global__ void indices(int* out) {
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int g = bx * blockDim.x * blockDim.y * blockDim.z + tx;
    int lane, warp;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%warpid;" : "=r"(warp));
    int* o = out + 8 * g;
    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
    o[3] = blockIdx.x; o[4] = blockIdx.y; o[5] = blockIdx.z;
    o[6] = lane; o[7] = tx / 32 == warp ? gridDim.x * 100 + gridDim.y * 10 + gridDim.z : -1;
}

__device__ __noinline__ float poly(float x, int k, float* side) {
    float r = 1.0f;
    for (int i = 0; i < k; i++) r = r * x + 1.0f;
    *side = r * 2.0f;
    return r;
}

extern "C" __global__ void call_func(const float* x, float* y, float* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float side;
        y[i] = poly(x[i], i % 4, &side);
        z[i] = side;
    }
}
