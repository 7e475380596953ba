// Warp votes: count_positive records, for each warp, the __ballot_sync mask of its lanes holding a positive element
// and adds __popc of the mask to a global count; warp_vote records __any_sync and __all_sync of "element is
// non-zero" per warp. Lanes past n vote false. Block sizes must be multiples of 32; warp w covers elements
// 32 w .. 32 w + 31 of the global thread index.

extern "C" __global__ void count_positive(const float *x, int n, unsigned int *warp_masks, unsigned int *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool positive = i < n && x[i] > 0.0f;
    unsigned int mask = __ballot_sync(0xffffffffu, positive);
    if ((threadIdx.x & 31) == 0) {
        warp_masks[i / 32] = mask;
        atomicAdd(count, (unsigned int) __popc(mask));
    }
}

extern "C" __global__ void warp_vote(const int *x, int n, int *any_nonzero, int *all_nonzero) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nonzero = i < n && x[i] != 0;
    int any = __any_sync(0xffffffffu, nonzero);
    int all = __all_sync(0xffffffffu, nonzero);
    if ((threadIdx.x & 31) == 0) {
        any_nonzero[i / 32] = any != 0;
        all_nonzero[i / 32] = all != 0;
    }
}
