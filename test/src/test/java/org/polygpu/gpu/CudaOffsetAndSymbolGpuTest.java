package org.polygpu.gpu;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.StreamHandle;
import org.polygpu.cuda.CudaBackend;

/** The CUDA backend's pointer offsets ({@link BufferOffset}) and module variable writes on a real GPU. */
@Tag("gpu")
class CudaOffsetAndSymbolGpuTest {
    private static final ModuleImage.CudaSource MODULE = new ModuleImage.CudaSource("""
            __constant__ int addend[2];
            extern "C" __global__ void add_const(int *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += addend[0] + addend[1];
            }
            """, "symbols.cu", List.of(), List.of());

    @Test
    void aLaunchThroughAnOffsetSeesTheSymbolWrittenBeforeIt() {
        Gpu.assumeNvrtc();
        try (CudaBackend gpu = Gpu.open(1)) {
            ModuleHandle module = gpu.loadModule(0, MODULE);
            FunctionHandle add = gpu.function(module, "add_const");
            DeviceBuffer d = Gpu.upload(gpu, 0, MemorySegment.ofArray(new int[] {0, 0, 0, 0}));
            StreamHandle s = gpu.createStream(0);
            gpu.writeSymbol(module, "addend", 0, MemorySegment.ofArray(new int[] {5, 2}));
            gpu.launch(add, LaunchConfig.of(1, 32), new Object[] {new BufferOffset(d, 2 * Integer.BYTES), 2}, s,
                    Gpu.LABEL);
            gpu.synchronizeAll();
            assertArrayEquals(new int[] {0, 0, 7, 7}, Gpu.download(gpu, d).toArray(JAVA_INT));
            BackendException e = assertThrows(BackendException.class,
                    () -> gpu.writeSymbol(module, "addend", 4, MemorySegment.ofArray(new int[] {1, 2})));
            assertTrue(e.getMessage().contains("8 bytes at offset 4 do not fit in variable 'addend' of 8 bytes"),
                    e.getMessage());
        }
    }
}
