// Atomics on global and shared memory, 32 and 64 bit, integer and floating point.
extern "C" __global__ void global_atomics(int* i, unsigned* u, unsigned long long* l, float* f, double* d) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i[0], 1);
    atomicSub(&i[1], 2);
    atomicMin(&i[2], -t);
    atomicMax(&i[3], t);
    atomicAnd(&u[0], ~(1u << (t % 32)));
    atomicOr(&u[1], 1u << (t % 32));
    atomicXor(&u[2], 1u << (t % 32));
    atomicInc(&u[3], 9u);
    atomicDec(&u[4], 9u);
    atomicExch(&u[5], 7u);
    atomicAdd(&l[0], 1ull << 33);
    atomicMin(&l[1], (unsigned long long) t + 5);
    atomicMax(&l[2], (unsigned long long) t << 40);
    atomicCAS(&l[3], 0ull, (unsigned long long) t + 1);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&d[0], 0.25);
    atomicExch(&f[1], 3.0f);
}

extern "C" __global__ void cas_add(float* x, float v) {
    // atomicAdd on float written as an atomicCAS loop
    unsigned* p = (unsigned*) x;
    unsigned old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __float_as_uint(__uint_as_float(assumed) + v));
    } while (assumed != old);
}

extern "C" __global__ void histogram(const unsigned char* in, unsigned* bins, int n) {
    __shared__ unsigned local[16];
    __shared__ unsigned long long total;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(&local[in[i] % 16], 1u);
        atomicAdd(&total, (unsigned long long) in[i]);
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
    if (threadIdx.x == 0) atomicAdd((unsigned long long*) &bins[16], total);
}
