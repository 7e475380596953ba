// Exclusive prefix sum of ints over many blocks, in three launches: scan_blocks scans each block's segment of
// 2 * blockDim.x elements with the work-efficient (Blelloch) up-sweep / down-sweep in dynamic shared memory
// (2 * blockDim.x ints) and writes each segment's total to block_sums (when not null); scan_blocks again, with one
// block, scans the block sums; add_block_offsets adds each segment's scanned offset. Block size: a power of two.

extern "C" __global__ void scan_blocks(const int *in, int *out, int *block_sums, int n) {
    extern __shared__ int temp[];
    const int tid = threadIdx.x;
    const int segment = 2 * blockDim.x;
    const int base = blockIdx.x * segment;
    temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
    temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
    int offset = 1;
    for (int d = segment >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        if (block_sums != nullptr) {
            block_sums[blockIdx.x] = temp[segment - 1];
        }
        temp[segment - 1] = 0;
    }
    for (int d = 1; d < segment; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n) {
        out[base + 2 * tid] = temp[2 * tid];
    }
    if (base + 2 * tid + 1 < n) {
        out[base + 2 * tid + 1] = temp[2 * tid + 1];
    }
}

extern "C" __global__ void add_block_offsets(int *out, const int *offsets, int n) {
    __shared__ int offset;
    if (threadIdx.x == 0) {
        offset = offsets[blockIdx.x];
    }
    __syncthreads();
    const int base = blockIdx.x * 2 * blockDim.x;
    for (int i = threadIdx.x; i < 2 * blockDim.x && base + i < n; i += blockDim.x) {
        out[base + i] += offset;
    }
}
