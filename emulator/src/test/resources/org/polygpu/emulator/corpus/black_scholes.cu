// Black-Scholes (the paper's B&S benchmark): the price of a European call and put option for each element, in
// single precision, with expf, logf, sqrtf and the Abramowitz-Stegun polynomial approximation of the standard
// normal cumulative distribution function (formula 26.2.17, absolute error below 7.5e-8).

__device__ __forceinline__ float normal_cdf(float d) {
    const float a1 = 0.319381530f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float tail = inv_sqrt_2pi * expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - tail : tail;
}

extern "C" __global__ void black_scholes(const float *spot, const float *strike, const float *years, float *call,
                                         float *put, int n, float rate, float volatility) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = spot[i];
        float k = strike[i];
        float t = years[i];
        float vol_sqrt_t = volatility * sqrtf(t);
        float d1 = (logf(s / k) + (rate + 0.5f * volatility * volatility) * t) / vol_sqrt_t;
        float d2 = d1 - vol_sqrt_t;
        float discounted_strike = k * expf(-rate * t);
        call[i] = s * normal_cdf(d1) - discounted_strike * normal_cdf(d2);
        put[i] = discounted_strike * normal_cdf(-d2) - s * normal_cdf(-d1);
    }
}
