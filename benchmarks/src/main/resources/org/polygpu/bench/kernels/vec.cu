// VEC: the sum of the differences of two squared vectors, one partition of each vector per chain.
// square(x), square(y), then diff_sum(x, y, acc) adds sum(x[i] - y[i]) to acc[0].

extern "C" __global__ void square(float *x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = x[i] * x[i];
}

// Accumulates in double, one atomic per thread: acc must hold its start value (declared inout).
extern "C" __global__ void diff_sum(const float *x, const float *y, double *acc, int n) {
    double sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] - y[i];
    atomicAdd(acc, sum);
}
