package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.topology.BandwidthMatrix;

class EmulatedBackendBuilderTest {
    @Test
    void fewerDevicesRestrictTheTopologyAndKeepTheHostLinks() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).devices(1).hostApiNanos(0)
                .build()) {
            assertEquals(1, b.deviceCount());
            assertEquals("emulated", b.name());
            assertEquals(new BandwidthMatrix(new double[][] {{100, 8}, {10, 0}}), b.topology());
            b.copyDeviceToHost(b.allocate(0, 8_000), b.allocateHost(8_000), 8_000, b.createStream(0),
                    OperationLabel.NONE);
            b.synchronizeAll();
            assertEquals(1_000 + 2_000, b.makespanNanos());
        }
    }

    @Test
    void defaultsAreEveryGpuOfTheTopologyAndAV100() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).build()) {
            assertEquals(2, b.deviceCount());
            assertEquals("Tesla V100-SXM2-16GB (emulated)", b.deviceProperties(1).name());
            assertEquals("7.0", b.deviceProperties(1).computeCapability());
            assertEquals(48 << 10, b.deviceProperties(0).maxSharedMemoryPerBlock());
        }
    }

    @Test
    void moreDevicesThanTheTopologyDescribesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).devices(4).build());
        assertEquals("the topology describes 2 GPUs; cannot emulate 4", e.getMessage());
        assertThrows(IllegalStateException.class, () -> EmulatedBackend.builder().devices(1).build());
    }

    @Test
    void copyOverALinkWithoutBandwidthIsRefused() {
        BandwidthMatrix noPeer = new BandwidthMatrix(new double[][] {{100, 0, 10}, {0, 100, 10}, {10, 10, 0}});
        try (EmulatedBackend b = EmulatedBackend.builder().topology(noPeer).build()) {
            BackendException e = assertThrows(BackendException.class, () -> b.copyDeviceToDevice(b.allocate(0, 8),
                    b.allocate(1, 8), 8, b.createStream(1), OperationLabel.NONE));
            assertEquals("no copy is possible from device 0 to device 1: the topology gives that link a bandwidth "
                    + "of 0", e.getMessage());
        }
    }
}
