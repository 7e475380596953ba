package org.polygpu.nvrtc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Compiles real kernels with NVRTC; skipped where no NVRTC is installed (scripts/test.sh installs one). */
class NvrtcTest {
    private static final String SQUARE = """
            extern "C" __global__ void square(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    x[i] = x[i] * x[i];
                }
            }
            """;
    private static final String TEMPLATE = """
            template <typename T>
            __global__ void inc_kernel(T *data, T delta, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    data[i] += delta;
                }
            }
            """;
    private static final List<String> COMPUTE_70 = List.of("--gpu-architecture=compute_70");

    private static Nvrtc nvrtc;

    @BeforeAll
    static void loadNvrtc() {
        Optional<?> library = NvrtcLibrary.system(null).find();
        Assumptions.assumeTrue(library.isPresent(), "NVRTC is not installed; run scripts/install-nvrtc.sh");
        nvrtc = Nvrtc.load(null);
    }

    @Test
    void versionIsMajorDotMinorAndLoadingTwiceGivesTheSameInstance() {
        assertTrue(nvrtc.version().matches("\\d+\\.\\d+"), nvrtc.version());
        assertTrue(nvrtc.libraryPath().isAbsolute());
        assertSame(nvrtc, Nvrtc.load(nvrtc.libraryPath().toString()));
    }

    @Test
    void simpleKernelCompilesToPtxWithAnEntryAndNoCubin() {
        NvrtcResult result = nvrtc.compile(SQUARE, "square.cu", COMPUTE_70, List.of());
        assertTrue(result.ptx().contains(".entry square("), result.ptx());
        assertTrue(result.ptx().contains(".target sm_70"), result.ptx());
        assertNull(result.cubin());
        assertTrue(result.loweredNames().isEmpty());
    }

    @Test
    void realArchitectureAlsoGivesAnElfCubin() {
        NvrtcResult result = nvrtc.compile(SQUARE, "square.cu", List.of("--gpu-architecture=sm_80"), List.of());
        byte[] cubin = result.cubin();
        assertNotNull(cubin);
        assertTrue(result.ptx().contains(".target sm_80"), result.ptx());
        assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, Arrays.copyOf(cubin, 4));
    }

    @Test
    void nameExpressionInstantiatesTheTemplateAndGivesItsMangledName() {
        NvrtcResult result = nvrtc.compile(TEMPLATE, "inc.cu", COMPUTE_70,
                List.of("inc_kernel<int>", "inc_kernel<float>"));
        String intKernel = result.loweredName("inc_kernel<int>");
        assertTrue(intKernel.startsWith("_Z"), intKernel);
        assertEquals("_Z10inc_kernelIiEvPT_S0_i", intKernel);
        assertEquals(List.of("inc_kernel<int>", "inc_kernel<float>"), List.copyOf(result.loweredNames().keySet()));
        assertTrue(result.ptx().contains(".entry " + intKernel + "("), result.ptx());
        assertTrue(result.ptx().contains(".entry " + result.loweredName("inc_kernel<float>") + "("));
        assertThrows(IllegalArgumentException.class, () -> result.loweredName("inc_kernel<double>"));
    }

    @Test
    void syntaxErrorThrowsWithTheProgramLogNamingFileAndLine() {
        String broken = "extern \"C\" __global__ void k(int *x) {\n    x[0] = undefined_name;\n}\n";
        NvrtcException e = assertThrows(NvrtcException.class,
                () -> nvrtc.compile(broken, "broken.cu", COMPUTE_70, List.of()));
        assertEquals(Optional.of(NvrtcStatus.NVRTC_ERROR_COMPILATION), e.status());
        assertEquals(Optional.of("nvrtcCompileProgram"), e.function());
        assertTrue(e.getMessage().startsWith("nvrtcCompileProgram failed: NVRTC_ERROR_COMPILATION (6)"),
                e.getMessage());
        assertTrue(e.log().contains("broken.cu(2): error: identifier \"undefined_name\" is undefined"), e.log());
        assertTrue(e.getMessage().contains("broken.cu(2): error"), e.getMessage());
    }

    @Test
    void unknownOptionIsRejectedWithItsStatus() {
        NvrtcException e = assertThrows(NvrtcException.class,
                () -> nvrtc.compile(SQUARE, "square.cu", List.of("--no-such-option"), List.of()));
        assertEquals(Optional.of(NvrtcStatus.NVRTC_ERROR_INVALID_OPTION), e.status());
        assertTrue(e.getMessage().contains("NVRTC_ERROR_INVALID_OPTION (5)"), e.getMessage());
    }

    @Test
    void unknownNameExpressionFailsTheCompilationNamingIt() {
        NvrtcException e = assertThrows(NvrtcException.class,
                () -> nvrtc.compile(SQUARE, "square.cu", COMPUTE_70, List.of("no_such_kernel<int>")));
        assertEquals(Optional.of(NvrtcStatus.NVRTC_ERROR_COMPILATION), e.status());
        assertTrue(e.log().contains("identifier \"no_such_kernel\" is undefined"), e.log());
    }

    /** nvcc's implicit host headers give code glibc's {@code uint} and {@code ushort} without an include. */
    @Test
    void systemVTypeNamesNeedNoInclude() {
        String source = """
                #include <sys/types.h>
                extern "C" __global__ void k(uint *x, ushort *y, ulong *z) { x[0] = 1u; y[0] = 2; z[0] = 3ul; }
                """;
        NvrtcResult result = nvrtc.compile(source.replace("#include <sys/types.h>\n", ""), "types.cu", COMPUTE_70,
                List.of());
        assertTrue(result.ptx().contains(".entry k("), result.ptx());
        assertTrue(nvrtc.compile(source, "types.cu", COMPUTE_70, List.of()).ptx().contains(".entry k("));
    }

    @Test
    void warningsOfASuccessfulCompileAreInTheLog() {
        String unused = "extern \"C\" __global__ void k(int *x) { int unused = 3; x[0] = 1; }\n";
        NvrtcResult result = nvrtc.compile(unused, "warn.cu", COMPUTE_70, List.of());
        assertTrue(result.ptx().contains(".entry k("));
        assertTrue(result.log().contains("warn.cu(1): warning"), result.log());
        assertTrue(!result.log().contains("Architectures prior to"), result.log());
    }

    @Test
    void theArchitectureDeprecationNoticeIsInNoLog() {
        // It is about compute_70, which the emulated V100 targets, not about the program.
        assertEquals("", nvrtc.compile(SQUARE, "square.cu", COMPUTE_70, List.of()).log());
        NvrtcException e = assertThrows(NvrtcException.class,
                () -> nvrtc.compile("__global__ void k() { undefined_name = 1; }", "broken.cu", COMPUTE_70, List.of()));
        assertTrue(e.log().startsWith("broken.cu(1): error"), e.log());
        assertTrue(!e.getMessage().contains("Architectures prior to"), e.getMessage());
    }

    /** A name expression that names nothing says so, with the kernels the source declares, before NVRTC's log. */
    @Test
    void aKernelNameMissingFromTheSourceListsTheKernelsFound() {
        String source = """
                extern "C" __global__ void square(float *x) { x[0] = 1; }
                template <typename T> __global__ void __launch_bounds__(256) inc(T *x) { x[0] += 1; }
                """;
        NvrtcException e = assertThrows(NvrtcException.class,
                () -> nvrtc.compile(source, "kernels.cu", COMPUTE_70, List.of("sqare")));
        assertTrue(e.getMessage().startsWith("no kernel named 'sqare' in kernels.cu; the kernels it declares: "
                + "square, inc\n"), e.getMessage());
        assertTrue(e.getMessage().contains("__nv_name_map"), "the log follows: " + e.getMessage());
        assertEquals(NvrtcStatus.NVRTC_ERROR_COMPILATION, e.status().orElseThrow());
    }
}
