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
}
