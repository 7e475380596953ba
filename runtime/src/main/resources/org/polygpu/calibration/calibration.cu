// The microbenchmark kernels of `polygpu calibrate` (org.polygpu.calibration.CalibrationSuite), compiled with NVRTC
// for the device they measure. Inputs are zero-filled device buffers: the tests that keep results alive
// (`if (acc == -1) out[t] = acc;`) are never true, so only the loads, the arithmetic and the atomics are timed.

// A stable scramble of an index, for scattered accesses (one sector per lane).
__device__ __forceinline__ unsigned long long scramble(unsigned long long x) {
    x ^= x >> 17;
    x *= 0xed5ad4bbULL;
    x ^= x >> 11;
    x *= 0xac4c1b51ULL;
    x ^= x >> 15;
    return x;
}

// Thread t loads in[(t + k * threads) * stride] for k < iters (stride 0: a scrambled element below mask + 1).
extern "C" __global__ void load_stride(const float *in, float *out, long long threads, int stride, int iters,
                                       unsigned long long mask) {
    long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    float acc = 0;
    for (int k = 0; k < iters; k++) {
        unsigned long long j = (unsigned long long) (t + k * threads);
        acc += in[stride == 0 ? scramble(j) & mask : j * stride];
    }
    if (acc == -1.0f) out[t] = acc;
}

// Thread t stores to out[(t + k * threads) * stride] for k < iters (stride 0: scrambled, as load_stride).
extern "C" __global__ void store_stride(float *out, long long threads, int stride, int iters,
                                        unsigned long long mask) {
    long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    for (int k = 0; k < iters; k++) {
        unsigned long long j = (unsigned long long) (t + k * threads);
        out[stride == 0 ? scramble(j) & mask : j * stride] = (float) k;
    }
}

// One block: thread t loads the float4 in[t + k * blockDim.x] for k < iters (a multiple of 8), eight independent
// loads per step: 512-byte warp accesses, few instructions per byte, enough in flight for one SM's bandwidth to bound it.
extern "C" __global__ void load_block4(const float4 *in, float *out, int iters) {
    float acc = 0;
#pragma unroll 1
    for (int k = 0; k < iters; k += 8) {
        float4 v[8];
#pragma unroll
        for (int u = 0; u < 8; u++) {
            v[u] = in[threadIdx.x + (k + u) * blockDim.x];
        }
#pragma unroll
        for (int u = 0; u < 8; u++) {
            acc += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    }
    if (acc == -1.0f) out[threadIdx.x] = acc;
}

// One block: thread t stores the float4 out[t + k * blockDim.x] for k < iters.
extern "C" __global__ void store_block4(float4 *out, int iters) {
    for (int k = 0; k < iters; k++) {
        float f = (float) k;
        out[threadIdx.x + k * blockDim.x] = make_float4(f, f, f, f);
    }
}

// Thread t loads in[t + k * threads] for k < iters (a multiple of 8), `passes` times over (bypassing L1): a buffer
// that stays in L2 read a few times. Eight independent loads per step keep enough in flight, and a pointer that steps
// keeps the addressing cheap, for the bandwidth, not the latency or the issue rate, to bound it.
extern "C" __global__ void load_passes(const float *in, float *out, long long threads, int iters, int passes) {
    long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    float acc = 0;
#pragma unroll 1
    for (int p = 0; p < passes; p++) {
        const float *q = in + t;
#pragma unroll 1
        for (int k = 0; k < iters; k += 8) {
            float v[8];
#pragma unroll
            for (int u = 0; u < 8; u++) {
                v[u] = __ldcg(q + u * threads);
            }
#pragma unroll
            for (int u = 0; u < 8; u++) {
                acc += v[u];
            }
            q += 8 * threads;
        }
    }
    if (acc == -1.0f) out[t] = acc;
}

// next[i] = (i + step) & mask: a pointer chain through the buffer, one hop per `step` elements.
extern "C" __global__ void chase_init(unsigned *next, long long n, unsigned step, unsigned mask) {
    long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) next[i] = (unsigned) ((i + step) & mask);
}

// One thread follows the chain for `steps` dependent loads (bypassing L1): the load-to-use latency. With `resume`
// it starts where the previous launch stopped (state[0]) and leaves its end there, so that every launch loads
// elements no launch loaded before (device memory, not L2); without, every launch loads the same ones (L2).
extern "C" __global__ void chase(const unsigned *next, unsigned *state, int steps, int resume) {
    unsigned j = resume ? state[0] : 0;
    for (int k = 0; k < steps; k++) j = __ldcg(&next[j]);
    if (resume || j == 0xffffffffu) state[0] = j;
}

// Each thread adds 1 to counters[t % addresses] `iters` times: atomics on `addresses` addresses.
extern "C" __global__ void atomic_add(float *counters, long long threads, int iters, int addresses) {
    long long t = (long long) blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    float *c = &counters[t % addresses];
    for (int k = 0; k < iters; k++) atomicAdd(c, 1.0f);
}

#define CHAIN8(OP) OP(x0) OP(x1) OP(x2) OP(x3) OP(x4) OP(x5) OP(x6) OP(x7)
#define DEP8(OP) OP(x0) OP(x0) OP(x0) OP(x0) OP(x0) OP(x0) OP(x0) OP(x0)

// Eight chains per thread of 8 operations per iteration (independent: throughput), or one chain of 32 operations
// per iteration (dependent: latency; long enough that the loop's own instructions hide behind the chain).
#define CHAIN_KERNEL(NAME, T, STEP)                                                                            \
extern "C" __global__ void NAME##_independent(T *out, int iters, T a, T b) {                                  \
    T x0 = a, x1 = a + b, x2 = a - b, x3 = a * b, x4 = b, x5 = a + a, x6 = b + b, x7 = a * a;                  \
    for (int k = 0; k < iters; k++) { CHAIN8(STEP) }                                                           \
    T acc = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;                                                             \
    if (acc == (T) -1) out[threadIdx.x] = acc;                                                                 \
}                                                                                                              \
extern "C" __global__ void NAME##_dependent(T *out, int iters, T a, T b) {                                    \
    T x0 = a;                                                                                                  \
    for (int k = 0; k < iters; k++) { DEP8(STEP) DEP8(STEP) DEP8(STEP) DEP8(STEP) }                            \
    if (x0 == (T) -1) out[threadIdx.x] = x0;                                                                   \
}

#define FMA_STEP(x) x = x * a + b;
#define SFU_STEP(x) x = rsqrtf(x);

CHAIN_KERNEL(fp32, float, FMA_STEP)
CHAIN_KERNEL(fp64, double, FMA_STEP)
CHAIN_KERNEL(int32, int, FMA_STEP)
CHAIN_KERNEL(sfu, float, SFU_STEP)

// Each thread reads and writes shared word (lane * stride) % 2048 of its warp's slice `iters` times (two warps of a
// block share a slice): stride 1 has no bank conflict, strides 32 and 64 put the 32 lanes on 32 words of one bank.
extern "C" __global__ void shared_stride(float *out, int iters, int stride) {
    __shared__ float words[4][2048];
    float *w = words[(threadIdx.x / 32) % 4];
    int lane = threadIdx.x % 32;
    for (int i = lane; i < 2048; i += 32) w[i] = 0;
    __syncwarp();
    int j = (lane * stride) % 2048;
    volatile float *v = w;
    for (int k = 0; k < iters; k++) v[j] = v[j] + 1.0f;
    if (v[j] == -1.0f) out[threadIdx.x] = v[j];
}

// Does nothing: the cost of a launch.
extern "C" __global__ void empty() {
}
