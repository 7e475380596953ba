// A __device__ helper kept as a real call (__noinline__, so the PTX has a .func with parameters and a return value):
// evaluates the degree-d Taylor polynomial of e^x by Horner's rule, reading its coefficients from initialised
// __constant__ memory (1/0!, 1/1!, ..., 1/7!). Degrees 0..7.

__constant__ float taylor_exp[8] = {1.0f, 1.0f, 0.5f, 1.0f / 6.0f, 1.0f / 24.0f, 1.0f / 120.0f, 1.0f / 720.0f,
                                    1.0f / 5040.0f};

__device__ __noinline__ float horner(float x, int degree) {
    float result = taylor_exp[degree];
    for (int d = degree - 1; d >= 0; --d) {
        result = result * x + taylor_exp[d];
    }
    return result;
}

extern "C" __global__ void poly_eval(const float *x, float *y, int n, int degree) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = horner(x[i], degree);
    }
}
