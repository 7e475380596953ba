package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendOptions;
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
    }

    @Test
    void probeSaysWhyNotWithoutAGpu() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        BackendProvider.Availability a = provider.probe(BackendOptions.defaults());
        assertFalse(a.usable());
        assertEquals(CudaDetection.detect().reason(), a.reason());
    }

    @Test
    void backendCudaWithoutAGpuIsAnErrorSayingWhy() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        BackendException e = assertThrows(BackendException.class, () -> Backends.open("cuda", BackendOptions.defaults()));
        assertEquals("Backend=cuda cannot run here: " + CudaDetection.detect().reason(), e.getMessage());
        if (!CudaDetectionTest.driverLoadable()) {
            assertEquals("Backend=cuda cannot run here: no CUDA driver (libcuda.so.1 not found)", e.getMessage());
        }
    }
}
