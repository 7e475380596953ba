// Conversions with rounding and saturation, integer bit operations, and double precision.
extern "C" __global__ void conversions(const float* x, int* o) {
    int t = threadIdx.x;
    float v = x[t];
    int* r = o + 12 * t;
    r[0] = __float2int_rn(v);
    r[1] = __float2int_rz(v);
    r[2] = __float2int_rd(v);
    r[3] = __float2int_ru(v);
    r[4] = (int) __float2uint_rn(v);
    r[5] = (int) v;
    r[6] = __float_as_int(__saturatef(v));
    r[7] = __float_as_int((float) (long long) v);
    r[8] = (int) (short) (int) v;
    r[9] = __float_as_int(__int2float_rz(t * 16777217));
    r[10] = (int) (unsigned char) (int) v;
    r[11] = __float_as_int((float) ((double) v * 3.0));
}

extern "C" __global__ void bits(const unsigned* x, unsigned* o) {
    int t = threadIdx.x;
    unsigned v = x[t];
    unsigned* r = o + 10 * t;
    r[0] = __popc(v);
    r[1] = __clz(v);
    r[2] = __brev(v);
    r[3] = __byte_perm(v, 0x01234567u, 0x5140);
    r[4] = (v >> 3) & 0x1f;
    r[5] = __umulhi(v, 0x9e3779b9u);
    r[6] = (unsigned) __mulhi((int) v, -7);
    r[7] = ((int) v) / 7 + ((int) v) % 7;
    r[8] = v / 13u + v % 13u;
    r[9] = (unsigned) min((int) v, 5) + max(v, 9u) + (unsigned) abs((int) v);
}

extern "C" __global__ void dscale(const double* x, double* y, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        y[i] = sqrt(a * v * v + 1.0) / (v + 2.0) + fma(v, a, -1.0);
    }
}

__device__ int table[4] = {10, 20, 30, 40};
__constant__ float coef[4] = {0.5f, 1.5f, 2.5f, 3.5f};

extern "C" __global__ void module_data(float* out) {
    int t = threadIdx.x;
    out[t] = coef[t % 4] * table[t % 4];
    table[t % 4] += 0;
}
