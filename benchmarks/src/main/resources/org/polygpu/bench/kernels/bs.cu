// B&S: European call prices with the Black-Scholes formula, one independent kernel per partition of the prices.

// Cumulative normal distribution, the Abramowitz-Stegun polynomial (26.2.17); the CPU references use the same one.
__device__ float cnd(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = 0.3989422804f * expf(-0.5f * d * d) * poly;
    return d > 0 ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes(const float *price, float *call, int n, float strike, float rate,
                                         float volatility, float years) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float s = price[i];
        float spread = volatility * sqrtf(years);
        float d1 = (logf(s / strike) + (rate + 0.5f * volatility * volatility) * years) / spread;
        float d2 = d1 - spread;
        call[i] = s * cnd(d1) - strike * expf(-rate * years) * cnd(d2);
    }
}
