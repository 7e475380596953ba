package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;

/** The CUDA provider as {@code Backends} sees it on a machine without a GPU. */
class CudaBackendProviderTest {
    private final CudaBackendProvider provider = new CudaBackendProvider();

    @Test
    void isFoundByTheServiceLoaderBeforeAnyOtherBackend() {
        BackendProvider first = Backends.providers().get(0);
        assertEquals("cuda", first.name());
        assertEquals(0, first.priority());
        assertEquals(java.util.Set.of("MemoryModel", "BandwidthMatrix"), provider.optionNames());
    }

    @Test
    void probeSaysWhyNotWithoutAGpu() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        BackendProvider.Availability a = provider.probe(Map.of());
        assertFalse(a.usable());
        assertEquals(CudaDetection.detect().reason(), a.reason());
    }

    @Test
    void backendCudaWithoutAGpuIsAnErrorSayingWhy() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        BackendException e = assertThrows(BackendException.class, () -> Backends.open("cuda", Map.of()));
        assertEquals("Backend=cuda cannot run here: " + CudaDetection.detect().reason(), e.getMessage());
        if (!CudaDetectionTest.driverLoadable()) {
            assertEquals("Backend=cuda cannot run here: no CUDA driver (libcuda.so.1 not found)", e.getMessage());
        }
    }

    @Test
    void aBadMemoryModelListsTheValidValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> provider.open(Map.of("MemoryModel", "unified")));
        assertEquals("invalid value 'unified' for option MemoryModel; valid values: explicit, managed",
                e.getMessage());
    }

    @Test
    void aBadNumberOfGpusIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> provider.open(Map.of("NumberOfGPUs", "two")));
        assertTrue(e.getMessage().startsWith("invalid value 'two' for option NumberOfGPUs"), e.getMessage());
    }
}
