package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.ModuleImage;
import org.polygpu.nvrtc.KernelCache;
import org.polygpu.nvrtc.NvrtcException;
import org.polygpu.nvrtc.NvrtcLibrary;

/** CUDA source compiled per device architecture by the installed NVRTC (skipped without NVRTC). */
class CudaSourceCompilerTest {
    private static final String SOURCE = """
            template <typename T> __global__ void inc_kernel(T *data, T delta, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) data[i] += delta;
            }
            extern "C" __global__ void scale(float *x, float k, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] *= k;
            }
            """;
    private static final ModuleImage.CudaSource IMAGE = new ModuleImage.CudaSource(SOURCE, "inc.cu",
            List.of("--gpu-architecture=compute_70", "--use_fast_math"), List.of("inc_kernel<int>"));

    @TempDir
    Path cacheDirectory;

    @BeforeEach
    void needsNvrtc() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
    }

    @Test
    void aKnownArchitectureGetsACubinForIt() {
        CudaSourceCompiler.Compiled c = new CudaSourceCompiler(null).compile(IMAGE, 9, 0);
        ModuleImage.Cubin cubin = assertInstanceOf(ModuleImage.Cubin.class, c.image());
        assertEquals("sm_90", cubin.architecture());
        assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, Arrays.copyOf(cubin.image(), 4), "an ELF image");
        assertEquals("_Z10inc_kernelIiEvPT_S0_i", c.loweredNames().get("inc_kernel<int>"));
    }

    @Test
    void anArchitectureNvrtcDoesNotKnowFallsBackToPtxTheDriverCanJit() {
        CudaSourceCompiler.Compiled c = new CudaSourceCompiler(null).compile(IMAGE, 99, 0);
        ModuleImage.Ptx ptx = assertInstanceOf(ModuleImage.Ptx.class, c.image());
        assertTrue(ptx.text().contains(".target sm_"), "PTX for a virtual architecture");
        assertTrue(ptx.text().contains(".entry scale"), "the kernels are there");
    }

    /** A second backend (a second run) finds each architecture's CUBIN in the kernel cache, one entry each. */
    @Test
    void aKernelCacheKeepsOneEntryPerArchitectureAcrossCompilers() throws IOException {
        KernelCache cache = KernelCache.in(cacheDirectory);
        ModuleImage.Cubin sm80 = (ModuleImage.Cubin) new CudaSourceCompiler(null, cache).compile(IMAGE, 8, 0).image();
        new CudaSourceCompiler(null, cache).compile(IMAGE, 9, 0);
        List<Path> entries = entries();
        assertEquals(2, entries.size(), entries.toString());
        Object inode = Files.readAttributes(entries.getFirst(), BasicFileAttributes.class).fileKey();
        CudaSourceCompiler.Compiled again = new CudaSourceCompiler(null, cache).compile(IMAGE, 8, 0);
        assertArrayEquals(sm80.image(), ((ModuleImage.Cubin) again.image()).image());
        assertEquals("_Z10inc_kernelIiEvPT_S0_i", again.loweredNames().get("inc_kernel<int>"));
        assertEquals(entries, entries(), "nothing written");
        assertEquals(inode, Files.readAttributes(entries.getFirst(), BasicFileAttributes.class).fileKey(),
                "the entries were read, not rewritten");
    }

    /** The cache's entries (beside them lies the record of NVRTC's version). */
    private List<Path> entries() throws IOException {
        try (Stream<Path> files = Files.list(cacheDirectory)) {
            return files.filter(f -> f.toString().endsWith(".nvrtc")).sorted().toList();
        }
    }

    @Test
    void eachArchitectureCompilesOnce() {
        CudaSourceCompiler compiler = new CudaSourceCompiler(null);
        assertSame(compiler.compile(IMAGE, 8, 0), compiler.compile(IMAGE, 8, 0));
    }

    @Test
    void aCompileErrorCarriesTheLog() {
        ModuleImage.CudaSource broken = new ModuleImage.CudaSource("__global__ void f() { undefined_name; }",
                "broken.cu", List.of(), List.of());
        NvrtcException e = assertThrows(NvrtcException.class, () -> new CudaSourceCompiler(null).compile(broken, 8, 0));
        assertTrue(e.getMessage().contains("NVRTC_ERROR_COMPILATION"), e.getMessage());
        assertTrue(e.log().contains("broken.cu"), e.log());
    }
}
