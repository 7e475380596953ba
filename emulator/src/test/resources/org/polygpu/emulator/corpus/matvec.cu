// Dense matrix-vector multiply on a row partition (the paper's MV benchmark): the matrix is split into row blocks,
// each its own array, and one launch per block computes that block's slice of y = A x. One thread per row,
// row-major with 64-bit offsets.

extern "C" __global__ void matvec_rows(const float *a, const float *x, float *y, int rows, int cols) {
    for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
        const float *row = a + (size_t) r * cols;
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c) {
            sum += row[c] * x[c];
        }
        y[r] = sum;
    }
}
