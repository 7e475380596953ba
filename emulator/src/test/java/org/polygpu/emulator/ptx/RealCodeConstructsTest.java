package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.backend.Dim3;
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

    private static final String SLOT_REUSED = """
            __device__ float warpMax(float v) {
                for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
                return v;
            }
            __device__ float warpSum(float v) {
                for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
                return v;
            }
            extern "C" __global__ void normalise(float *out, const float *in, int n) {
                extern __shared__ float slots[];
                int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
                const float *row = in + blockIdx.x * n;
                float m = -INFINITY;
                for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i]);
                m = warpMax(m);
                if (lane == 0) slots[warp] = m;
                __syncthreads();
                if (threadIdx.x == 0) {
                    for (int w = 1; w < blockDim.x / 32; w++) slots[0] = fmaxf(slots[0], slots[w]);
                }
                __syncthreads();
                float top = slots[0];
                float s = 0;
                for (int i = threadIdx.x; i < n; i += blockDim.x) s += row[i] - top;
                s = warpSum(s);
                if (lane == 0) slots[warp] = s; // no barrier since slots[0] was read: as written in real code
                __syncthreads();
                for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = row[i] - top;
            }
            """;

    /**
     * Warps interleave finely, as on a GPU: every warp reads the slot written before a barrier before any warp
     * reaches its next write to it, so code that omits the barrier between the two (a common row-softmax shape)
     * computes what the hardware computes.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void sharedSlotReadAfterABarrierIsReadBeforeWarpsRewriteIt(String arch) {
        PtxModule m = compile(SLOT_REUSED, arch);
        int rows = 3;
        int n = 256;
        float[] in = new float[rows * n];
        for (int i = 0; i < in.length; i++) {
            in[i] = (i * 29 % 97) / 8f;
        }
        float[] expected = new float[in.length];
        for (int r = 0; r < rows; r++) {
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                max = Math.max(max, in[r * n + i]);
            }
            for (int i = 0; i < n; i++) {
                expected[r * n + i] = in[r * n + i] - max;
            }
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * in.length);
            d.launch(m, "normalise", new Dim3(rows, 1, 1), new Dim3(128, 1, 1),
                    4 * 4, out, d.floats(in), n);
            assertArrayEquals(expected, d.floatsAt(out, in.length), arch);
        }
    }

    private static final String HALVES = """
            #include <cuda_fp16.h>
            #include <cuda_bf16.h>
            extern "C" __global__ void halves(float *out, const float *in) {
                int i = threadIdx.x;
                float x = in[i], y = in[i + 64];
                __half hx = __float2half(x), hy = __float2half(y);
                __half2 q = __hfma2(__floats2half2_rn(x, y), __floats2half2_rn(x, y), __float2half2_rn(0.5f));
                __nv_bfloat16 bx = __float2bfloat16(x), by = __float2bfloat16(y);
                __nv_bfloat162 bp = __floats2bfloat162_rn(x, y);
                __nv_bfloat162 bq = __hmul2(bp, bp);
                float *o = out + 9 * i;
                o[0] = __half2float(__hadd(hx, hy));
                o[1] = __half2float(__hfma(hx, hy, hx));
                o[2] = __half2float(__hmax(hx, hy));
                o[3] = __low2float(q);
                o[4] = __high2float(q);
            #if __CUDA_ARCH__ >= 800
                o[5] = __bfloat162float(__hfma(bx, by, bx));
            #else
                o[5] = __bfloat162float(__float2bfloat16(fmaf(__bfloat162float(bx), __bfloat162float(by),
                        __bfloat162float(bx))));
            #endif
                o[6] = __low2float(bq);
                o[7] = __high2float(bq);
                o[8] = __half2float(hexp(__hmul(hx, __float2half(0.25f))));
            }
            """;

    private static float half(double v) {
        return Float.float16ToFloat(Float.floatToFloat16((float) v));
    }

    private static float bfloat(double v) {
        int bits = Float.floatToRawIntBits((float) v);
        return Float.intBitsToFloat(((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16) << 16);
    }

    /**
     * Half and bfloat16 arithmetic, scalar and packed, as cuda_fp16.h and cuda_bf16.h emit it for each architecture
     * ({@code fma.rn.bf16x2}, {@code cvt.rn.f16x2.f32}, {@code max.f16} and inline assembly with {@code .reg.b32}
     * from compute_80), each result rounded to its format as the hardware does.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void halfAndBfloat16ArithmeticRoundsToItsFormat(String arch) {
        PtxModule m = compile(HALVES, arch);
        float[] in = new float[128];
        for (int i = 0; i < in.length; i++) {
            in[i] = (i * 37 % 61 - 30) / 8f; // few significant bits: every exact result is a float
        }
        float[] expected = new float[9 * 64];
        for (int i = 0; i < 64; i++) {
            double x = in[i];
            double y = in[i + 64];
            double hx = half(x);
            double hy = half(y);
            double bx = bfloat(x);
            double by = bfloat(y);
            expected[9 * i] = half(hx + hy);
            expected[9 * i + 1] = half(hx * hy + hx);
            expected[9 * i + 2] = (float) Math.max(hx, hy);
            expected[9 * i + 3] = half(hx * hx + 0.5);
            expected[9 * i + 4] = half(hy * hy + 0.5);
            expected[9 * i + 5] = bfloat(bx * by + bx);
            expected[9 * i + 6] = bfloat(bx * bx);
            expected[9 * i + 7] = bfloat(by * by);
            expected[9 * i + 8] = half(Math.exp(half(hx * 0.25)));
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * expected.length);
            d.launch(m, "halves", 1, 64, out, d.floats(in));
            float[] got = d.floatsAt(out, expected.length);
            for (int i = 0; i < expected.length; i++) {
                float tolerance = i % 9 == 8 ? 2e-3f * Math.abs(expected[i]) : 0; // hexp is approximate
                assertEquals(expected[i], got[i], tolerance, arch + " output " + i);
            }
        }
    }

    private static final String HALF_ATOMICS = """
            #include <cuda_fp16.h>
            #include <cuda_bf16.h>
            extern "C" __global__ void sums(float *out, __half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2) {
                __shared__ __half sh;
                __shared__ __nv_bfloat162 sb2;
                if (threadIdx.x == 0) {
                    sh = __float2half(0.f);
                    sb2 = __floats2bfloat162_rn(0.f, 0.f);
                }
                __syncthreads();
                atomicAdd(&sh, __float2half(1.f));
                atomicAdd(&sb2, __floats2bfloat162_rn(1.f, 2.f));
                atomicAdd(h, __float2half(0.5f));
                atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
                atomicAdd(b, __float2bfloat16(1.f));
                atomicAdd(b2, __floats2bfloat162_rn(2.f, 1.f));
                __syncthreads();
                if (threadIdx.x == 0) {
                    out[0] = __half2float(sh);
                    out[1] = __low2float(sb2);
                    out[2] = __high2float(sb2);
                }
            }
            """;

    /**
     * atomicAdd on half, half2, bfloat16 and bfloat162 in shared and global memory: {@code atom.add.noftz.f16},
     * {@code .f16x2}, {@code .bf16}, {@code .bf16x2} from their architectures, a 16-bit compare-and-swap loop before.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void halfAndBfloat16AtomicAddsSumEveryThread(String arch) {
        PtxModule m = compile(HALF_ATOMICS, arch);
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(12);
            long h = d.ints(0);
            long h2 = d.ints(0);
            long b = d.ints(0);
            long b2 = d.ints(0);
            d.launch(m, "sums", 1, 64, out, h, h2, b, b2);
            assertArrayEquals(new float[] {64, 64, 128}, d.floatsAt(out, 3), arch);
            int[] words = {d.intsAt(h, 1)[0], d.intsAt(h2, 1)[0], d.intsAt(b, 1)[0], d.intsAt(b2, 1)[0]};
            assertEquals(32f, Float.float16ToFloat((short) words[0]), arch);
            assertEquals(64f, Float.float16ToFloat((short) words[1]), arch);
            assertEquals(128f, Float.float16ToFloat((short) (words[1] >>> 16)), arch);
            assertEquals(64f, Float.intBitsToFloat(words[2] << 16), arch);
            assertEquals(128f, Float.intBitsToFloat(words[3] << 16), arch);
            assertEquals(64f, Float.intBitsToFloat(words[3] & 0xFFFF0000), arch);
        }
    }

    private static final String TILE_COLLECTIVES = """
            #include <cooperative_groups.h>
            #include <cooperative_groups/reduce.h>
            namespace cg = cooperative_groups;
            extern "C" __global__ void tiles(int *out) {
                auto t = cg::tiled_partition<8>(cg::this_thread_block());
                int r = t.thread_rank();
                int *o = out + 5 * threadIdx.x;
                o[0] = __popc(t.ballot(r < 3));
                o[1] = t.any(r == 5 && t.meta_group_rank() == 1);
                o[2] = t.all(r < 8);
                o[3] = __popc(t.match_any(r / 4));
                o[4] = cg::reduce(t, (int) threadIdx.x, cg::plus<int>());
            }
            """;

    /**
     * Collectives of a tile narrower than a warp take only the tile's lanes (the membermask): ballot, any, all,
     * match_any and reduce ({@code redux.sync} from compute_80) over 8 lanes, not over the warp.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void tileCollectivesTakeOnlyTheTilesLanes(String arch) {
        PtxModule m = compile(TILE_COLLECTIVES, arch);
        int[] expected = new int[5 * 64];
        for (int i = 0; i < 64; i++) {
            int tile = i / 8;
            expected[5 * i] = 3;
            expected[5 * i + 1] = tile == 1 ? 1 : 0;
            expected[5 * i + 2] = 1;
            expected[5 * i + 3] = 4;
            expected[5 * i + 4] = 8 * (8 * tile) + 28;
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.ints(new int[expected.length]);
            d.launch(m, "tiles", 1, 64, out);
            assertArrayEquals(expected, d.intsAt(out, expected.length), arch);
        }
    }
}
