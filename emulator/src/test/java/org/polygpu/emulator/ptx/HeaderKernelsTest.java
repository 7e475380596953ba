package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.nvrtc.Nvrtc;
import org.polygpu.nvrtc.NvrtcLibrary;

/**
 * A kernel written as NVIDIA's samples write them, with cooperative groups, CUB, half and bfloat16 from the CUDA
 * headers, compiled for each modeled architecture and run on the interpreter against a Java reference. Skipped
 * without NVRTC or without the header wheels beside it ({@code scripts/install-nvrtc.sh} installs them).
 */
class HeaderKernelsTest {
    private static final String SOURCE = """
            #include <cooperative_groups.h>
            #include <cooperative_groups/reduce.h>
            #include <cuda_fp16.h>
            #include <cuda_bf16.h>
            #include <cub/block/block_reduce.cuh>
            #include <cstdio>
            #include <cassert>
            namespace cg = cooperative_groups;
            extern "C" __global__ void sums(float *out, const float *in) {
                cg::thread_block block = cg::this_thread_block();
                cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
                typedef cub::BlockReduce<float, 128> Reduce;
                __shared__ typename Reduce::TempStorage tmp;
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float v = __half2float(__float2half(in[i])) + __bfloat162float(__float2bfloat16(in[i]));
                float total = Reduce(tmp).Sum(v);
                float lanes = cg::reduce(warp, v, cg::plus<float>());
                assert(warp.size() == 32);
                if (block.thread_rank() == 0) out[2 * blockIdx.x] = total;
                if (warp.thread_rank() == 0) atomicAdd(&out[2 * blockIdx.x + 1], lanes);
            }
            """;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void cooperativeGroupsCubHalfAndBfloat16MatchAJavaReference(String arch) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        Assumptions.assumeFalse(Nvrtc.load(null).includeDirectories().isEmpty(), "no CUDA headers beside NVRTC");
        PtxModule m = PtxModule.parse(CudaCompiler.ptx(SOURCE, "sums.cu", List.of("--gpu-architecture=" + arch),
                List.of()));
        int blocks = 4;
        float[] in = new float[blocks * 128];
        for (int i = 0; i < in.length; i++) {
            in[i] = (i * 7 % 29 - 14) / 4f; // exact in half and bfloat16, so every order of summation agrees
        }
        float[] expected = new float[2 * blocks];
        for (int i = 0; i < in.length; i++) {
            expected[2 * (i / 128)] += 2 * in[i];
            expected[2 * (i / 128) + 1] += 2 * in[i];
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.floats(new float[2 * blocks]);
            d.launch(m, "sums", blocks, 128, out, d.floats(in));
            assertArrayEquals(expected, d.floatsAt(out, 2 * blocks), arch);
        }
    }

    private static final String ASYNC = """
            #include <cuda_pipeline.h>
            #include <cuda/barrier>
            #include <cooperative_groups.h>
            #include <cooperative_groups/memcpy_async.h>
            namespace cg = cooperative_groups;
            extern "C" __global__ void pipeline(float *out, const float *in) {
                __shared__ float tile[128];
                __pipeline_memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(float));
                __pipeline_commit();
                __pipeline_wait_prior(0);
                __syncthreads();
                out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
            }
            extern "C" __global__ void group_copy(float *out, const float *in) {
                __shared__ float tile[128];
                cg::thread_block block = cg::this_thread_block();
                cg::memcpy_async(block, tile, in + blockIdx.x * 128, sizeof(float) * 128);
                cg::wait(block);
                out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x] * 2;
            }
            extern "C" __global__ void barrier_copy(float *out, const float *in) {
                __shared__ float tile[128];
                #pragma nv_diag_suppress static_var_with_dynamic_init
                __shared__ cuda::barrier<cuda::thread_scope_block> barrier;
                if (threadIdx.x == 0) init(&barrier, blockDim.x);
                __syncthreads();
                cuda::memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(float), barrier);
                barrier.arrive_and_wait();
                out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x] + 1;
            }
            """;

    /**
     * Asynchronous copies to shared memory: cp.async and, for cuda::barrier, mbarrier from compute_80, plain loads
     * and stores before.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void pipelineAndCooperativeGroupsAsynchronousCopiesReverseEachBlock(String arch) {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        Assumptions.assumeFalse(Nvrtc.load(null).includeDirectories().isEmpty(), "no CUDA headers beside NVRTC");
        PtxModule m = PtxModule.parse(CudaCompiler.ptx(ASYNC, "async.cu", List.of("--gpu-architecture=" + arch),
                List.of()));
        float[] in = new float[256];
        float[] reversed = new float[256];
        float[] doubled = new float[256];
        for (int i = 0; i < in.length; i++) {
            in[i] = i * 0.5f;
        }
        for (int i = 0; i < in.length; i++) {
            reversed[i] = in[i / 128 * 128 + 127 - i % 128];
            doubled[i] = 2 * reversed[i];
        }
        try (TestDevice d = new TestDevice()) {
            long x = d.floats(in);
            long out = d.allocate(4L * in.length);
            d.launch(m, "pipeline", 2, 128, out, x);
            assertArrayEquals(reversed, d.floatsAt(out, in.length), arch);
            d.launch(m, "group_copy", 2, 128, out, x);
            assertArrayEquals(doubled, d.floatsAt(out, in.length), arch);
            d.launch(m, "barrier_copy", 2, 128, out, x);
            for (int i = 0; i < in.length; i++) {
                reversed[i] += 1;
            }
            assertArrayEquals(reversed, d.floatsAt(out, in.length), arch);
        }
    }
}
