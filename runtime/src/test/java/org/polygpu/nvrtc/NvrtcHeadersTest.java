package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The CUDA headers found beside NVRTC, and the C and C++ standard headers, in every compilation. */
class NvrtcHeadersTest {
    @TempDir
    Path dir;

    private Path touch(String relative) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, "");
    }

    @Test
    void besideAWheelAreTheRuntimeAndCcclWheelsIncludeDirectories() throws IOException {
        Path library = touch("site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
        assertEquals(List.of(), NvrtcHeaders.beside(library), "none installed");
        Files.createDirectories(dir.resolve("site/nvidia/cuda_runtime/include"));
        Files.createDirectories(dir.resolve("site/nvidia/cuda_cccl/include"));
        assertEquals(List.of(dir.resolve("site/nvidia/cuda_runtime/include"),
                dir.resolve("site/nvidia/cuda_cccl/include")), NvrtcHeaders.beside(library));
    }

    /** A library in a top-level directory or the root has no directory two levels up: none beside it, no error. */
    @Test
    void aLibraryNearTheRootHasNoHeadersBesideIt() {
        assertEquals(List.of(), NvrtcHeaders.beside(Path.of("/polygpu-absent/libnvrtc.so.12")));
        assertEquals(List.of(), NvrtcHeaders.beside(Path.of("/libnvrtc.so.12")));
    }

    @Test
    void besideAToolkitAreItsIncludeAndCcclDirectories() throws IOException {
        Path library = touch("cuda-13.0/lib64/libnvrtc.so.13");
        Files.createDirectories(dir.resolve("cuda-13.0/include/cccl"));
        assertEquals(List.of(dir.resolve("cuda-13.0/include/cccl"), dir.resolve("cuda-13.0/include")),
                NvrtcHeaders.beside(library));
        Path wheel13 = touch("site/nvidia/cu13/lib/libnvrtc.so.13");
        Files.createDirectories(dir.resolve("site/nvidia/cu13/include"));
        assertEquals(List.of(dir.resolve("site/nvidia/cu13/include")), NvrtcHeaders.beside(wheel13));
    }

    private static Nvrtc nvrtc() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        return Nvrtc.load(null);
    }

    /** NVRTC has printf and assert built in but no header for them: real code's includes must not stop it. */
    @Test
    void cLibraryIncludesForPrintfAndAssertCompile() {
        String source = """
                #include <cstdio>
                #include <stdio.h>
                #include <cassert>
                #include <assert.h>
                extern "C" __global__ void k(const int *a) {
                    std::printf("%d\\n", a[0]);
                    assert(a[0] > 0);
                }
                """;
        String ptx = nvrtc().compile(source, "k.cu", List.of("--gpu-architecture=compute_70"), List.of()).ptx();
        assertTrue(ptx.contains("vprintf") && ptx.contains("__assertfail"), ptx);
    }

    /** Includes as NVIDIA's samples write them; needs the header wheels scripts/install-nvrtc.sh installs. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void cooperativeGroupsHalfBfloatLibcxxAndCubCompile(String arch) {
        Nvrtc nvrtc = nvrtc();
        Assumptions.assumeFalse(nvrtc.includeDirectories().isEmpty(), "no CUDA headers beside NVRTC");
        String source = """
                #include <cooperative_groups.h>
                #include <cooperative_groups/reduce.h>
                #include <cuda_fp16.h>
                #include <cuda_bf16.h>
                #include <cuda/std/cstdint>
                #include <cub/block/block_reduce.cuh>
                namespace cg = cooperative_groups;
                extern "C" __global__ void k(float *out, const float *in) {
                    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
                    typedef cub::BlockReduce<float, 128> Reduce;
                    __shared__ typename Reduce::TempStorage tmp;
                    cuda::std::uint32_t i = threadIdx.x;
                    float v = __half2float(__float2half(in[i])) + __bfloat162float(__float2bfloat16(in[i]));
                    float s = Reduce(tmp).Sum(v) + cg::reduce(warp, v, cg::plus<float>());
                    if (i == 0) out[blockIdx.x] = s;
                }
                """;
        NvrtcResult r = nvrtc.compile(source, "samples.cu", List.of("--gpu-architecture=" + arch), List.of());
        assertTrue(r.ptx().contains(".entry k"), r.log());
    }

    /** The C and C++ standard headers real device code includes, with the names it uses from them. */
    @Test
    void standardLibraryHeadersGiveTheirTypesMacrosAndStdNames() {
        String source = """
                #include <stdint.h>
                #include <stdlib.h>
                #include <string.h>
                #include <math.h>
                #include <float.h>
                #include <limits.h>
                #include <stddef.h>
                #include <cstdint>
                #include <cstdlib>
                #include <cstring>
                #include <cmath>
                #include <cfloat>
                #include <climits>
                #include <cstddef>
                #include <algorithm>
                #include <limits>
                #include <time.h>
                #include <ctime>
                struct Pair { int a; float b; };
                extern "C" __global__ void k(float *out, const std::uint32_t *in) {
                    uint64_t wide = in[0] + (uint64_t) UINT32_MAX;
                    float f = std::sqrt((float) M_PI) + std::fmax(FLT_EPSILON, 0.f) + std::abs(-1.f);
                    int small = std::min(INT_MAX, (int) offsetof(Pair, b));
                    if (std::isnan(f) || f == INFINITY) return;
                    out[0] = f + small + (float) (wide >> 32) + (CHAR_BIT == 8 ? EXIT_SUCCESS : EXIT_FAILURE);
                }
                """;
        String ptx = nvrtc().compile(source, "std.cu", List.of("--gpu-architecture=compute_70"), List.of()).ptx();
        assertTrue(ptx.contains(".entry k"), ptx);
    }

    /** As with nvcc, whose implicit cuda_runtime.h includes the math headers, INFINITY and std::sqrt need none. */
    @Test
    void mathMacrosAndStdMathNeedNoInclude() {
        String source = """
                extern "C" __global__ void k(float *x) { x[0] = x[0] < INFINITY ? std::sqrt(x[0]) * (float) M_PI : 0; }
                """;
        String ptx = nvrtc().compile(source, "implicit.cu", List.of("--gpu-architecture=compute_70"), List.of()).ptx();
        assertTrue(ptx.contains("sqrt"), ptx);
    }

    /** Code written for nvcc declares host functions and variables: the source still compiles, as device ones. */
    @Test
    void hostFunctionDeclarationsCompileAsDeviceDeclarations() {
        String source = """
                extern "C" void scanOnTheHost(unsigned *dst, const unsigned *src, unsigned n);
                unsigned hostChecksum(const unsigned *data, unsigned n);
                int repetitions = 100;
                extern "C" __global__ void k(unsigned *x) { x[threadIdx.x] += 1; }
                """;
        String ptx = nvrtc().compile(source, "decl.cu", List.of("--gpu-architecture=compute_70"), List.of()).ptx();
        assertTrue(ptx.contains(".entry k"), ptx);
        String definition = """
                extern "C" void onTheHost(unsigned *p) { cudaMemset(p, 0, 4); }
                extern "C" __global__ void k(unsigned *x) { x[threadIdx.x] += 1; }
                """;
        NvrtcException e = assertThrows(NvrtcException.class, () -> nvrtc().compile(definition, "host.cu",
                List.of("--gpu-architecture=compute_70"), List.of()));
        assertTrue(e.log().contains("cudaMemset"), e.log());
    }
}
