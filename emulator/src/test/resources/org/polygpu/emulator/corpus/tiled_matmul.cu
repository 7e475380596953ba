// Tiled matrix multiply, C = A B with A m x k, B k x n and C m x n, all row-major. Square thread blocks of T x T
// threads (T = blockDim.x = blockDim.y) stage one T x T tile of A and one of B at a time in dynamic shared memory
// (extern __shared__, 2 * T * T floats = 8 T^2 bytes per launch); out-of-range tile elements are zero.

extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k) {
    extern __shared__ float tiles[];
    const int t = blockDim.x;
    float *a_tile = tiles;
    float *b_tile = tiles + t * t;
    int row = blockIdx.y * t + threadIdx.y;
    int col = blockIdx.x * t + threadIdx.x;
    float sum = 0.0f;
    for (int base = 0; base < k; base += t) {
        int a_col = base + threadIdx.x;
        int b_row = base + threadIdx.y;
        a_tile[threadIdx.y * t + threadIdx.x] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
        b_tile[threadIdx.y * t + threadIdx.x] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < t; ++j) {
            sum += a_tile[threadIdx.y * t + j] * b_tile[j * t + threadIdx.x];
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        c[row * n + col] = sum;
    }
}
