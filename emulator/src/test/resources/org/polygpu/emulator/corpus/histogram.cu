// Histogram of bytes: counts how often each value 0..255 occurs. Each block counts into a 256-bin __shared__
// histogram with shared-memory atomicAdd, then adds its non-zero bins to the global bins (zeroed before the launch).

#define HISTOGRAM_BINS 256

extern "C" __global__ void histogram256(const unsigned char *data, int n, unsigned int *bins) {
    __shared__ unsigned int local[HISTOGRAM_BINS];
    for (int b = threadIdx.x; b < HISTOGRAM_BINS; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HISTOGRAM_BINS; b += blockDim.x) {
        if (local[b] != 0) {
            atomicAdd(&bins[b], local[b]);
        }
    }
}
