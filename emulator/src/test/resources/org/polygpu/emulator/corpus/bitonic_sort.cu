// Bitonic sort in shared memory: each block sorts its own segment of 2 * blockDim.x unsigned keys ascending (keys
// past n count as 0xffffffff and are not written back). Each thread loads two keys, then every stage of the bitonic
// network compares and swaps one pair per thread between __syncthreads(). Block size: a power of two; dynamic shared
// memory 2 * blockDim.x unsigned ints.

__device__ __forceinline__ void compare_swap(unsigned &a, unsigned &b, bool ascending) {
    if ((a > b) == ascending) {
        unsigned t = a;
        a = b;
        b = t;
    }
}

extern "C" __global__ void bitonic_sort_shared(unsigned *keys, int n) {
    extern __shared__ unsigned s[];
    const unsigned tid = threadIdx.x;
    const unsigned segment = 2 * blockDim.x;
    const unsigned base = blockIdx.x * segment;
    s[tid] = base + tid < n ? keys[base + tid] : 0xffffffffu;
    s[tid + blockDim.x] = base + tid + blockDim.x < n ? keys[base + tid + blockDim.x] : 0xffffffffu;
    for (unsigned size = 2; size <= segment; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * tid - (tid & (stride - 1));
            compare_swap(s[pos], s[pos + stride], (pos & size) == 0);
        }
    }
    __syncthreads();
    if (base + tid < n) {
        keys[base + tid] = s[tid];
    }
    if (base + tid + blockDim.x < n) {
        keys[base + tid + blockDim.x] = s[tid + blockDim.x];
    }
}
