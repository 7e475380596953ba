// A templated kernel: adds delta to every element. Its instantiations have C++-mangled names, obtained from NVRTC
// with the name expressions inc_kernel<int>, inc_kernel<float> and inc_kernel<double> (see ptx/templated.names).

template <typename T>
__global__ void inc_kernel(T *data, T delta, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        data[i] += delta;
    }
}
