// Matrix transpose out = in^T for a height x width row-major matrix, through a 32 x 33 __shared__ tile (the padding
// column keeps the column reads free of bank conflicts). Blocks of 32 x 8 threads, each thread moving 4 elements;
// grid ceil(width / 32) x ceil(height / 32).

#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int width, int height) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        if (x < width && y + j < height) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
        if (x < height && y + j < width) {
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}
