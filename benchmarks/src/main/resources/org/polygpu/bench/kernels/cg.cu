// CG: conjugate gradient on a dense symmetric positive definite matrix split in blocks of rows. Each partition
// owns its rows of A and its slices of x and r; the search direction p is one vector that every partition reads
// whole and updates in its own slice, and the scalars travel in one-element arrays, so no host read is needed
// until the end. Launch the reductions (dot_slice, norm2) with one block of 256 threads.

// y = a p for a row-major block a of rows x n.
extern "C" __global__ void matvec(const float *a, const float *p, float *y, int rows, int n) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        float sum = 0;
        for (int j = 0; j < n; j++)
            sum += a[(long) r * n + j] * p[j];
        y[r] = sum;
    }
}

// The sum of one block's threads' values, in thread 0.
__device__ float block_sum(float value) {
    __shared__ float partial[256];
    partial[threadIdx.x] = value;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    return partial[0];
}

// out[0] = sum_i p[offset + i] * y[i]
extern "C" __global__ void dot_slice(const float *p, int offset, const float *y, float *out, int rows) {
    float sum = 0;
    for (int i = threadIdx.x; i < rows; i += blockDim.x)
        sum += p[offset + i] * y[i];
    float total = block_sum(sum);
    if (threadIdx.x == 0)
        out[0] = total;
}

// out[0] = sum_i r[i] * r[i]
extern "C" __global__ void norm2(const float *r, float *out, int rows) {
    float sum = 0;
    for (int i = threadIdx.x; i < rows; i += blockDim.x)
        sum += r[i] * r[i];
    float total = block_sum(sum);
    if (threadIdx.x == 0)
        out[0] = total;
}

// total[0] = part[0] for the first partition, total[0] + part[0] for the next ones (one thread).
extern "C" __global__ void accumulate(const float *part, float *total, int first) {
    total[0] = (first ? 0.0f : total[0]) + part[0];
}

// x += alpha p and r -= alpha a p on this partition's slice, with alpha = rr / pap.
extern "C" __global__ void update_xr(float *x, float *r, const float *p, int offset, const float *y,
                                     const float *rr, const float *pap, int rows) {
    float alpha = rr[0] / pap[0];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x) {
        x[i] += alpha * p[offset + i];
        r[i] -= alpha * y[i];
    }
}

// p = r + beta p on this partition's slice, with beta = rr_new / rr.
extern "C" __global__ void update_p(float *p, int offset, const float *r, const float *rr_new, const float *rr,
                                    int rows) {
    float beta = rr_new[0] / rr[0];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += gridDim.x * blockDim.x)
        p[offset + i] = r[i] + beta * p[offset + i];
}
