package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/** What the emulated backend says of itself through the SPI: its clock, the images it takes, prefetch, topology. */
class CapabilitiesTest {
    @Test
    void itsClockIsVirtual() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertEquals(Backend.Clock.VIRTUAL, b.clock());
        }
    }

    @Test
    void itAcceptsPtxCudaSourceAndJavaKernelsButNotCubins() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertTrue(b.accepts(new ModuleImage.Ptx(".version 7.0")));
            assertTrue(b.accepts(new ModuleImage.CudaSource("", "k.cu", List.of(), List.of())));
            assertTrue(b.accepts(Fixtures.module()));
            assertFalse(b.accepts(new ModuleImage.Cubin(new byte[4], "sm_70")));
        }
    }

    /** Each virtual device has its own memory, so a prefetch moves nothing: the data stays where it was copied. */
    @Test
    void prefetchLeavesTheDataWhereItIs() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buffer = b.allocate(0, 16);
            StreamHandle stream = b.createStream(0);
            b.copyHostToDevice(MemorySegment.ofArray(new int[] {1, 2, 3, 4}), buffer, 16, stream,
                    OperationLabel.NONE);
            b.prefetch(buffer, 1, stream);
            b.prefetch(buffer, -1, stream);
            MemorySegment back = b.allocateHost(16);
            b.copyDeviceToHost(buffer, back, 16, stream, OperationLabel.NONE);
            b.synchronizeAll();
            assertArrayEquals(new int[] {1, 2, 3, 4}, back.toArray(JAVA_INT));
        }
    }

    @Test
    void prefetchStillRefusesAFreedBufferAndAMissingDevice() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buffer = b.allocate(0, 16);
            StreamHandle stream = b.createStream(0);
            assertThrows(IllegalArgumentException.class, () -> b.prefetch(buffer, 2, stream));
            b.free(buffer);
            assertThrows(BackendException.class, () -> b.prefetch(buffer, 0, stream));
        }
    }

    /** An emulated topology is configured, not measured: the commands keep it apart from this machine's matrix. */
    @Test
    void itsTopologyIsNotAMeasuredOne() {
        OpenedBackend opened = new EmulatedBackendProvider().open(BackendOptions.defaults().withEmulatedDevices(2));
        try {
            assertFalse(opened.measuredTopology());
        } finally {
            opened.backend().close();
        }
    }
}
