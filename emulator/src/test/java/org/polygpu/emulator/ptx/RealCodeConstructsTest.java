package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.nvrtc.Nvrtc;

/**
 * Constructs that kernels of well-known CUDA projects use as they are written, each in a small kernel of its own,
 * compiled for every modeled architecture and checked against a Java reference.
 */
class RealCodeConstructsTest {
    private static void assumeHeaders() {
        Assumptions.assumeFalse(Nvrtc.load(null).includeDirectories().isEmpty(), "no CUDA headers beside NVRTC");
    }

    private static PtxModule compile(String source, String arch) {
        assumeHeaders();
        return PtxModule.parse(CudaCompiler.ptx(source, "construct.cu", List.of("--gpu-architecture=" + arch),
                List.of()));
    }

    private static final String MULTI_WARP_TILES = """
            #include <cooperative_groups.h>
            #include <cooperative_groups/reduce.h>
            namespace cg = cooperative_groups;
            extern "C" __global__ void tile_sums(int *out, const int *in) {
                __shared__ cg::block_tile_memory<256> scratch;
                cg::thread_block block = cg::this_thread_block(scratch);
                auto tile = cg::tiled_partition<64>(block);
                int v = in[blockIdx.x * blockDim.x + threadIdx.x];
                int sum = cg::reduce(tile, v, cg::plus<int>());
                tile.sync();
                if (tile.thread_rank() == 0) out[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = sum;
            }
            """;

    /**
     * Tiles wider than a warp keep their scratch in the block's reserved shared memory from compute_80
     * ({@code %reserved_smem_offset_1}), in the user's {@code block_tile_memory} before.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void multiWarpTilesReduceIntoReservedSharedMemory(String arch) {
        PtxModule m = compile(MULTI_WARP_TILES, arch);
        int blocks = 3;
        int threads = 256;
        int[] in = new int[blocks * threads];
        for (int i = 0; i < in.length; i++) {
            in[i] = i * 37 % 101 - 50;
        }
        int[] expected = new int[blocks * threads / 64];
        for (int i = 0; i < in.length; i++) {
            expected[i / 64] += in[i];
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.ints(new int[expected.length]);
            d.launch(m, "tile_sums", blocks, threads, out, d.ints(in));
            assertArrayEquals(expected, d.intsAt(out, expected.length), arch);
        }
    }

    private static final String ADDRESS_INITIALISERS = """
            const char *sampleName = "transpose";
            int repetitions = 3;
            __device__ int table[4] = {10, 20, 30, 40};
            __device__ int *second = table + 1;
            extern "C" __global__ void names(int *out) {
                int i = threadIdx.x;
                out[i] = i < 9 ? sampleName[i] : second[i - 9] * repetitions;
            }
            """;

    /**
     * A pointer variable initialised with the address of a string literal or of another variable (a sample's
     * {@code const char *sSDKsample = "..."}, compiled as a device variable): the loader writes the addresses.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void pointerVariablesInitialisedWithAddressesPointThere(String arch) {
        PtxModule m = compile(ADDRESS_INITIALISERS, arch);
        int[] expected = new int[12];
        String name = "transpose";
        for (int i = 0; i < 9; i++) {
            expected[i] = name.charAt(i);
        }
        for (int i = 9; i < 12; i++) {
            expected[i] = 10 * (i - 7) * 3;
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.ints(new int[12]);
            d.launch(m, "names", 1, 12, out);
            assertArrayEquals(expected, d.intsAt(out, 12), arch);
        }
    }
}
