// Gaussian blur (the image-processing kernel of the paper's IMG benchmark): a 5 x 5 weighted sum around each pixel
// of a width x height single-channel float image, with edges clamped. Each 16 x 16 block first stages its
// 20 x 20 neighbourhood in a static __shared__ tile. Blocks must be exactly 16 x 16 threads.

#define BLUR_BLOCK 16
#define BLUR_RADIUS 2
#define BLUR_SIDE (2 * BLUR_RADIUS + 1)
#define BLUR_TILE (BLUR_BLOCK + 2 * BLUR_RADIUS)

extern "C" __global__ void gaussian_blur(const float *in, float *out, int width, int height, const float *weights) {
    __shared__ float tile[BLUR_TILE][BLUR_TILE];
    int x0 = blockIdx.x * BLUR_BLOCK - BLUR_RADIUS;
    int y0 = blockIdx.y * BLUR_BLOCK - BLUR_RADIUS;
    for (int ty = threadIdx.y; ty < BLUR_TILE; ty += BLUR_BLOCK) {
        for (int tx = threadIdx.x; tx < BLUR_TILE; tx += BLUR_BLOCK) {
            int gx = min(max(x0 + tx, 0), width - 1);
            int gy = min(max(y0 + ty, 0), height - 1);
            tile[ty][tx] = in[gy * width + gx];
        }
    }
    __syncthreads();
    int x = blockIdx.x * BLUR_BLOCK + threadIdx.x;
    int y = blockIdx.y * BLUR_BLOCK + threadIdx.y;
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < BLUR_SIDE; ++dy) {
            for (int dx = 0; dx < BLUR_SIDE; ++dx) {
                sum += weights[dy * BLUR_SIDE + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
            }
        }
        out[y * width + x] = sum;
    }
}
