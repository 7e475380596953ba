// Warp-level primitives: every shuffle mode with widths, votes, and a warp reduction.
extern "C" __global__ void shuffles(const int* in, int* out, int delta, int width) {
    int t = threadIdx.x;
    int v = in[t];
    int* o = out + 4 * t;
    o[0] = __shfl_up_sync(0xffffffffu, v, delta, width);
    o[1] = __shfl_down_sync(0xffffffffu, v, delta, width);
    o[2] = __shfl_xor_sync(0xffffffffu, v, delta, width);
    o[3] = __shfl_sync(0xffffffffu, v, delta, width);
}

extern "C" __global__ void votes(const int* in, unsigned* out) {
    int t = threadIdx.x;
    int p = in[t];
    unsigned* o = out + 5 * t;
    o[0] = __ballot_sync(0xffffffffu, p);
    o[1] = __any_sync(0xffffffffu, p);
    o[2] = __all_sync(0xffffffffu, p);
    o[3] = __popc(__ballot_sync(0xffffffffu, p));
    unsigned uni;
    asm("{ .reg .pred q, u; setp.ne.s32 q, %1, 0; vote.sync.uni.pred u, q, 0xffffffff; selp.u32 %0, 1, 0, u; }"
        : "=r"(uni) : "r"(p));
    o[4] = uni;
}

extern "C" __global__ void warp_sum(const float* in, float* out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
