// Conjugate gradient building blocks (the paper's CG benchmark): a sparse matrix-vector product over a CSR matrix,
// a dot product reduced in shared memory then added to the result with one atomicAdd per block, and axpy.
// dot needs a power-of-two block size of at most 256 threads and a result zeroed before the launch.

extern "C" __global__ void spmv_csr(const int *row_ptr, const int *cols, const float *vals, const float *x, float *y,
                                    int rows) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        float sum = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
            sum += vals[k] * x[cols[k]];
        }
        y[r] = sum;
    }
}

#define DOT_MAX_BLOCK 256

extern "C" __global__ void dot(const float *a, const float *b, float *result, int n) {
    __shared__ float partial[DOT_MAX_BLOCK];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        sum += a[i] * b[i];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            partial[threadIdx.x] += partial[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(result, partial[0]);
    }
}

extern "C" __global__ void axpy(float alpha, const float *x, const float *y, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = alpha * x[i] + y[i];
    }
}
