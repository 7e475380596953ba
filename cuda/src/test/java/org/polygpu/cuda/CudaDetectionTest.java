package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Detection's verdict for each thing {@code libcuda.so.1} and {@code cuInit} can say. */
class CudaDetectionTest {
    @Test
    void thisMachineWithoutADriverReportsNoDriverCleanly() {
        Assumptions.assumeFalse(driverLoadable(), "this machine has a CUDA driver");
        CudaDetection.Result r = CudaDetection.detect();
        assertEquals(CudaDetection.State.NO_DRIVER, r.state());
        assertEquals("no CUDA driver (libcuda.so.1 not found)", r.reason());
        assertFalse(r.usable());
        assertEquals(0, r.deviceCount());
    }

    @Test
    void aMissingLibraryIsNoDriver() {
        CudaDetection.Result r = CudaDetection.detect(() -> {
            throw CudaException.unavailable("no CUDA driver (libcuda.so.1 not found)", null);
        });
        assertEquals(CudaDetection.State.NO_DRIVER, r.state());
        assertEquals("no CUDA driver (libcuda.so.1 not found)", r.reason());
    }

    @Test
    void cuInitNoDeviceIsNoDevice() {
        CudaDetection.Result r = CudaDetection.detect(new FakeCudaDriverApi().returning("init", 100)::api);
        assertEquals(CudaDetection.State.NO_DEVICE, r.state());
        assertEquals("the CUDA driver found no GPU (cuInit: CUDA_ERROR_NO_DEVICE (100))", r.reason());
    }

    @Test
    void cuInitStubLibraryIsTheToolkitStub() {
        CudaDetection.Result r = CudaDetection.detect(new FakeCudaDriverApi().returning("init", 34)::api);
        assertEquals(CudaDetection.State.STUB_LIBRARY, r.state());
        assertEquals("libcuda.so.1 is the CUDA toolkit's stub library, not an NVIDIA driver "
                + "(cuInit: CUDA_ERROR_STUB_LIBRARY (34))", r.reason());
    }

    @Test
    void anotherCuInitFailureIsNamed() {
        CudaDetection.Result r = CudaDetection.detect(new FakeCudaDriverApi().returning("init", 803)::api);
        assertEquals(CudaDetection.State.INIT_FAILED, r.state());
        assertTrue(r.reason().endsWith("(cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803))"), r.reason());
    }

    @Test
    void devicesAreCountedWhenCuInitSucceeds() {
        CudaDetection.Result r = CudaDetection.detect(new FakeCudaDriverApi().writingInt("deviceGetCount", 2)
                .writingInt("driverGetVersion", 12080)::api);
        assertEquals(CudaDetection.State.USABLE, r.state());
        assertEquals(2, r.deviceCount());
        assertEquals("12.8", r.driverVersion());
        assertEquals("2 CUDA devices, driver 12.8", r.reason());
        assertTrue(r.usable());
    }

    @Test
    void zeroDevicesAfterCuInitIsNoDevice() {
        CudaDetection.Result r = CudaDetection.detect(new FakeCudaDriverApi().writingInt("deviceGetCount", 0)
                .writingInt("driverGetVersion", 12080)::api);
        assertEquals(CudaDetection.State.NO_DEVICE, r.state());
        assertEquals("the CUDA driver 12.8 found no GPU", r.reason());
    }

    static boolean driverLoadable() {
        try {
            SymbolLookup.libraryLookup("libcuda.so.1", Arena.ofAuto());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
