// Double precision: the normal probability density of each element, exp(-(x - mean)^2 / (2 variance)) /
// sqrt(2 pi variance), with double exp, sqrt and division; and a sum reduced by one double atomicAdd per thread.

extern "C" __global__ void normal_pdf(const double *x, double *y, int n, double mean, double variance) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        double centred = x[i] - mean;
        y[i] = exp(-centred * centred / (2.0 * variance)) / sqrt(2.0 * 3.14159265358979323846 * variance);
    }
}

extern "C" __global__ void sum_double(const double *x, double *sum, int n) {
    double partial = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        partial += x[i];
    }
    atomicAdd(sum, partial);
}
