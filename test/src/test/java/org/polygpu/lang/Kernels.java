package org.polygpu.lang;

/** CUDA C++ sources of the kernels the polyglot tests build with NVRTC at run time. */
final class Kernels {
    private Kernels() {
    }

    /** {@code out[i] = in[i] + 1}, a template instantiated as {@code inc_kernel<int>}. */
    static final String INC = """
            template <typename T>
            __global__ void inc_kernel(T *out, const T *in, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) out[i] = in[i] + 1;
            }
            """;

    /** {@code x[i] = x[i] * x[i]}. */
    static final String SQUARE = """
            extern "C" __global__ void square(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * x[i];
            }
            """;

    /** {@code y[i] = a * x[i]} over doubles, to test scalars and read-only inputs. */
    static final String SCALE = """
            extern "C" __global__ void scale(const double *x, double *y, double a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = a * x[i];
            }
            """;

    /** {@code out[0] = sum of x}, one thread (read-only input), to run side by side with another reader. */
    static final String SUM = """
            extern "C" __global__ void sum(const float *x, float *out, int n) {
                if (blockIdx.x == 0 && threadIdx.x == 0) {
                    float s = 0;
                    for (int i = 0; i < n; i++) s += x[i];
                    out[0] = s;
                }
            }
            """;

    /** {@code c = a * b} for n×n row-major floats, tiled through dynamic shared memory of 2 × blockDim² floats. */
    static final String MATMUL = """
            extern "C" __global__ void matmul(const float *a, const float *b, float *c, int n) {
                extern __shared__ float tiles[];
                float *ta = tiles;
                float *tb = tiles + blockDim.x * blockDim.y;
                int tx = threadIdx.x, ty = threadIdx.y, w = blockDim.x;
                int row = blockIdx.y * blockDim.y + ty;
                int col = blockIdx.x * blockDim.x + tx;
                float acc = 0;
                for (int t = 0; t < n; t += w) {
                    ta[ty * w + tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
                    tb[ty * w + tx] = (col < n && t + ty < n) ? b[(t + ty) * n + col] : 0.0f;
                    __syncthreads();
                    for (int k = 0; k < w; k++) acc += ta[ty * w + k] * tb[k * w + tx];
                    __syncthreads();
                }
                if (row < n && col < n) c[row * n + col] = acc;
            }
            """;

    /** Adds {@code k} (an unsigned 32-bit scalar) to every element. */
    static final String ADD_UNSIGNED = """
            extern "C" __global__ void add_unsigned(unsigned int *x, unsigned int k, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += k;
            }
            """;
}
