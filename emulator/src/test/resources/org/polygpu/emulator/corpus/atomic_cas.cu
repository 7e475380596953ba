// Compare-and-swap loops: the maximum of a float array and of a double array, built from 32-bit and 64-bit atomicCAS
// on the values' bit patterns (CUDA has no floating-point atomicMax). The result must hold -infinity (or any value
// below every element) before the launch; inputs hold no NaN.

__device__ float atomic_max_float(float *address, float value) {
    int *bits = (int *) address;
    int old = *bits;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(bits, assumed, __float_as_int(value));
        if (old == assumed) {
            break;
        }
    }
    return __int_as_float(old);
}

__device__ double atomic_max_double(double *address, double value) {
    unsigned long long *bits = (unsigned long long *) address;
    unsigned long long old = *bits;
    while (__longlong_as_double((long long) old) < value) {
        unsigned long long assumed = old;
        old = atomicCAS(bits, assumed, (unsigned long long) __double_as_longlong(value));
        if (old == assumed) {
            break;
        }
    }
    return __longlong_as_double((long long) old);
}

extern "C" __global__ void max_float(const float *x, int n, float *result) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomic_max_float(result, x[i]);
    }
}

extern "C" __global__ void max_double(const double *x, int n, double *result) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomic_max_double(result, x[i]);
    }
}
