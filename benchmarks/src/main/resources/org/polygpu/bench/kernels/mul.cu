// MUL: dense matrix times dense vector; each partition multiplies its block of rows by the whole vector.

// z = a x for a row-major block a of rows x cols.
extern "C" __global__ void matvec(const float *a, const float *x, float *z, int rows, int cols) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
        float sum = 0;
        for (int j = 0; j < cols; j++)
            sum += a[(long) r * cols + j] * x[j];
        z[r] = sum;
    }
}
