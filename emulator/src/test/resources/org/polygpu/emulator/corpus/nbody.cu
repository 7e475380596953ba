// All-pairs n-body accelerations: body i at pos[i] = (x, y, z, mass) gets acc[i] = sum over j of
// mass_j * r_ij / (|r_ij|^2 + softening2)^(3/2), with r_ij = pos[j] - pos[i] (j = i adds nothing). Each block stages
// blockDim.x bodies at a time in a __shared__ float4 tile (cooperative load, then __syncthreads()), and the inner loop
// over the tile is unrolled by 4 and uses rsqrtf. acc[i].w is 0. Any block size up to 256; any n.

#define MAX_TILE 256

__device__ __forceinline__ float3 body_body(float4 bi, float4 bj, float3 a, float softening2) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + softening2;
    float inv = rsqrtf(dist2);
    float s = bj.w * inv * inv * inv;
    a.x += r.x * s;
    a.y += r.y * s;
    a.z += r.z * s;
    return a;
}

extern "C" __global__ void nbody_accel(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n,
                                       float softening2) {
    __shared__ float4 tile[MAX_TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int start = 0; start < n; start += blockDim.x) {
        int j = start + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < blockDim.x; ++k) {
            a = body_body(me, tile[k], a, softening2);
        }
        __syncthreads();
    }
    if (i < n) {
        acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
    }
}
