package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.nvrtc.NvrtcException;
import org.polygpu.nvrtc.NvrtcLibrary;

/** CUDA source loaded on the emulator, which compiles it to PTX with NVRTC (tests needing NVRTC skip without it). */
class CudaSourceTest {
    private static final String SOURCE = """
            template <typename T> __global__ void inc_kernel(T *data, T delta, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) data[i] += delta;
            }
            """;
    private static final ModuleImage.CudaSource INC = new ModuleImage.CudaSource(SOURCE, "inc.cu",
            List.of("--use_fast_math"), List.of("inc_kernel<int>"));

    private static void needsNvrtc() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
    }

    @Test
    void aTemplateKernelIsFoundByItsNameExpressionAndRuns() {
        needsNvrtc();
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            FunctionHandle inc = b.function(b.loadModule(1, INC), "inc_kernel<int>");
            DeviceBuffer data = b.allocate(1, 16);
            StreamHandle stream = b.createStream(1);
            b.copyHostToDevice(MemorySegment.ofArray(new int[] {1, 2, 3, 4}), data, 16, stream, OperationLabel.NONE);
            b.launch(inc, LaunchConfig.of(1, 32), new Object[] {data, 10, 3}, stream, OperationLabel.NONE);
            MemorySegment back = b.allocateHost(16);
            b.copyDeviceToHost(data, back, 16, stream, OperationLabel.NONE);
            b.synchronizeAll();
            assertArrayEquals(new int[] {11, 12, 13, 4}, back.toArray(JAVA_INT));
        }
    }

    /** The source's own architecture gives way to the device model's virtual one. */
    @Test
    void thePtxIsForTheModelsVirtualArchitectureAndCompiledOnce() {
        needsNvrtc();
        ModuleImage.CudaSource forVolta = new ModuleImage.CudaSource(SOURCE, "inc.cu",
                List.of("--gpu-architecture=compute_70"), List.of("inc_kernel<int>"));
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(DeviceModel.H100)
                .build()) {
            assertEquals("compute_90", DeviceModel.H100.ptxArchitecture());
            String ptx = b.ptx(b.loadModule(0, forVolta)).orElseThrow();
            assertTrue(ptx.contains(".target sm_90"), ptx);
            assertTrue(ptx.contains(".entry _Z10inc_kernelIiEvPT_S0_i"), ptx);
            assertSame(ptx, b.ptx(b.loadModule(1, forVolta)).orElseThrow(), "the second device reuses the PTX");
        }
    }

    @Test
    void eachModelCompilesForItsOwnComputeCapability() {
        assertEquals(List.of("compute_70", "compute_80", "compute_90"), DeviceModel.presetNames().stream()
                .map(n -> DeviceModel.preset(n).ptxArchitecture()).toList());
    }

    private static final ModuleImage.CudaSource WARP_SUM = new ModuleImage.CudaSource("""
            extern "C" __global__ void warp_sum(unsigned *data) {
                data[threadIdx.x] = __reduce_add_sync(0xffffffff, data[threadIdx.x]);
            }
            """, "warp_sum.cu", List.of(), List.of());

    /** __reduce_add_sync exists from compute capability 8.0: it runs on A100 and H100 and does not compile on V100. */
    @Test
    void architectureSpecificIntrinsicsWorkWhereTheModeledGpuHasThem() {
        needsNvrtc();
        for (DeviceModel model : List.of(DeviceModel.A100, DeviceModel.H100)) {
            try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(model).build()) {
                FunctionHandle sum = b.function(b.loadModule(0, WARP_SUM), "warp_sum");
                DeviceBuffer data = b.allocate(0, 128);
                StreamHandle stream = b.createStream(0);
                int[] values = new int[32];
                java.util.Arrays.setAll(values, i -> i * i);
                b.copyHostToDevice(MemorySegment.ofArray(values), data, 128, stream, OperationLabel.NONE);
                b.launch(sum, LaunchConfig.of(1, 32), new Object[] {data}, stream, OperationLabel.NONE);
                MemorySegment back = b.allocateHost(128);
                b.copyDeviceToHost(data, back, 128, stream, OperationLabel.NONE);
                b.synchronizeAll();
                int[] expected = new int[32];
                java.util.Arrays.fill(expected, 10416); // the sum of i * i for i < 32
                assertArrayEquals(expected, back.toArray(JAVA_INT), model.name());
            }
        }
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(DeviceModel.V100)
                .build()) {
            NvrtcException e = assertThrows(NvrtcException.class, () -> b.loadModule(0, WARP_SUM));
            assertTrue(e.log().contains("identifier \"__reduce_add_sync\" is undefined"), e.log());
        }
    }

    @Test
    void aNameThatIsNeitherAKernelNorANameExpressionListsBoth() {
        needsNvrtc();
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            ModuleHandle module = b.loadModule(0, INC);
            BackendException e = assertThrows(BackendException.class, () -> b.function(module, "inc_kernel<float>"));
            assertEquals("no kernel 'inc_kernel<float>' in the PTX module; its kernels are [_Z10inc_kernelIiEvPT_S0_i]"
                    + " and its name expressions [inc_kernel<int>]", e.getMessage());
        }
    }

    @Test
    void aCompileErrorCarriesTheNvrtcLog() {
        needsNvrtc();
        ModuleImage.CudaSource broken = new ModuleImage.CudaSource("__global__ void f() { undefined_name; }",
                "broken.cu", List.of(), List.of());
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            NvrtcException e = assertThrows(NvrtcException.class, () -> b.loadModule(0, broken));
            assertTrue(e.getMessage().startsWith("nvrtcCompileProgram failed: NVRTC_ERROR_COMPILATION (6)"),
                    e.getMessage());
            assertTrue(e.log().contains("broken.cu") && e.log().contains("undefined_name"), e.log());
        }
    }

    /** The NvrtcLibrary option is read when source is first loaded, not before: PTX loads without NVRTC. */
    @Test
    void aMissingNvrtcLibraryIsReportedWhenSourceIsLoaded() {
        String missing = "/nonexistent/polygpu/libnvrtc.so.12";
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).nvrtcLibrary(missing)
                .build()) {
            String ptx = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k() { ret; }\n";
            assertEquals(Optional.of(ptx), b.ptx(b.loadModule(0, new ModuleImage.Ptx(ptx))));
            NvrtcException e = assertThrows(NvrtcException.class, () -> b.loadModule(0, INC));
            assertTrue(e.getMessage().contains(missing + ", which does not exist"), e.getMessage());
        }
    }

    @Test
    void javaKernelsHaveNoPtx() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertEquals(Optional.empty(), b.ptx(b.loadModule(0, Fixtures.module())));
        }
    }
}
