package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

class DeviceMemoryTest {
    private static final OperationLabel L = OperationLabel.NONE;

    @Test
    void eachDeviceHasItsOwnMemory() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            MemorySegment host = b.allocateHost(16);
            host.setAtIndex(JAVA_INT, 0, 7);
            DeviceBuffer on0 = b.allocate(0, 16);
            DeviceBuffer on1 = b.allocate(1, 16);
            StreamHandle s0 = b.createStream(0);
            StreamHandle s1 = b.createStream(1);
            b.copyHostToDevice(host, on0, 16, s0, L);
            MemorySegment back = b.allocateHost(16);
            back.setAtIndex(JAVA_INT, 0, -1);
            b.copyDeviceToHost(on1, back, 16, s1, L);
            b.synchronizeAll();
            assertEquals(0, back.getAtIndex(JAVA_INT, 0), "device 1 never received the data");
        }
    }

    @Test
    void peerCopyMovesTheData() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            MemorySegment host = b.allocateHost(16);
            host.setAtIndex(JAVA_INT, 3, 99);
            DeviceBuffer on0 = b.allocate(0, 16);
            DeviceBuffer on1 = b.allocate(1, 16);
            StreamHandle s0 = b.createStream(0);
            StreamHandle s1 = b.createStream(1);
            b.copyHostToDevice(host, on0, 16, s0, L);
            b.synchronizeAll();
            b.copyDeviceToDevice(on0, on1, 16, s1, L);
            MemorySegment back = b.allocateHost(16);
            b.copyDeviceToHost(on1, back, 16, s1, L);
            b.synchronizeAll();
            assertEquals(99, back.getAtIndex(JAVA_INT, 3));
        }
    }

    @Test
    void allocationsAreAccountedAgainstTheModel() {
        DeviceModel small = DeviceModel.V100.withTotalMemory(1 << 20);
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(small).build()) {
            DeviceBuffer a = b.allocate(0, 600_000);
            assertEquals((1 << 20) - 600_000, b.freeMemory(0));
            assertEquals(1 << 20, b.freeMemory(1));
            BackendException e = assertThrows(BackendException.class, () -> b.allocate(0, 600_000));
            assertTrue(e.getMessage().contains("out of memory on device 0"), e.getMessage());
            assertTrue(e.getMessage().contains("requested 600000 bytes, 448576 bytes free"), e.getMessage());
            b.free(a);
            assertEquals(1 << 20, b.freeMemory(0));
            assertEquals(600_000, b.allocate(0, 600_000).bytes());
        }
    }

    @Test
    void fullSizedModelAllocatesOnlyWhatIsRequested() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS).model(DeviceModel.H100)
                .build()) {
            assertEquals(80L << 30, b.deviceProperties(0).totalMemory());
            b.allocate(0, 1 << 20);
            assertEquals((80L << 30) - (1 << 20), b.freeMemory(0));
            assertThrows(BackendException.class, () -> b.allocate(1, (80L << 30) + 1));
        }
    }

    @Test
    void freedBufferIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buf = b.allocate(0, 16);
            b.free(buf);
            MemorySegment host = b.allocateHost(16);
            StreamHandle s = b.createStream(0);
            BackendException copy = assertThrows(BackendException.class,
                    () -> b.copyHostToDevice(host, buf, 16, s, L));
            assertTrue(copy.getMessage().contains("buffer was freed"), copy.getMessage());
            BackendException again = assertThrows(BackendException.class, () -> b.free(buf));
            assertTrue(again.getMessage().contains("buffer was freed"), again.getMessage());
        }
    }

    @Test
    void bufferFreedWhileACopyIsPendingStillReceivesIt() {
        // Work enqueued before a free still runs, as with cuMemFree after an asynchronous copy.
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            MemorySegment host = b.allocateHost(8);
            host.setAtIndex(JAVA_INT, 0, 5);
            DeviceBuffer buf = b.allocate(0, 8);
            StreamHandle s = b.createStream(0);
            MemorySegment back = b.allocateHost(8);
            b.copyHostToDevice(host, buf, 8, s, L);
            b.copyDeviceToHost(buf, back, 8, s, L);
            b.free(buf);
            b.freeHost(host);
            b.synchronizeAll();
            assertEquals(5, back.getAtIndex(JAVA_INT, 0));
            assertEquals(16L << 30, b.freeMemory(0));
        }
    }

    @Test
    void copyLargerThanEitherSideIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buf = b.allocate(0, 16);
            StreamHandle s = b.createStream(0);
            BackendException tooBigForBuffer = assertThrows(BackendException.class,
                    () -> b.copyHostToDevice(b.allocateHost(32), buf, 32, s, L));
            assertTrue(tooBigForBuffer.getMessage().contains("copy of 32 bytes exceeds the 16 bytes"),
                    tooBigForBuffer.getMessage());
            BackendException tooBigForHost = assertThrows(BackendException.class,
                    () -> b.copyDeviceToHost(buf, b.allocateHost(8), 16, s, L));
            assertTrue(tooBigForHost.getMessage().contains("host destination segment"), tooBigForHost.getMessage());
        }
    }

    @Test
    void copyOnAStreamOfAnotherDeviceIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buf = b.allocate(1, 16);
            StreamHandle s0 = b.createStream(0);
            BackendException e = assertThrows(BackendException.class,
                    () -> b.copyHostToDevice(b.allocateHost(16), buf, 16, s0, L));
            assertTrue(e.getMessage().contains("on device 1 but it was enqueued on stream 0 of device 0"),
                    e.getMessage());
        }
    }

    @Test
    void deviceIndexOutOfRangeNamesTheValidRange() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.allocate(2, 8));
            assertEquals("device 2 is out of range: valid devices are 0..1", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> b.createStream(-1));
            assertThrows(IllegalArgumentException.class, () -> b.deviceProperties(5));
        }
    }

    @Test
    void closedBackendRefusesWork() {
        EmulatedBackend b = Fixtures.twoGpusNoHostCost();
        b.close();
        BackendException e = assertThrows(BackendException.class, () -> b.allocate(0, 8));
        assertEquals("the emulated backend is closed", e.getMessage());
    }

    @Test
    void hostMemoryIsZeroedAndFreedOnce() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            MemorySegment host = b.allocateHost(64);
            for (int i = 0; i < 16; i++) {
                assertEquals(0, host.getAtIndex(JAVA_INT, i));
            }
            b.freeHost(host);
            assertThrows(IllegalStateException.class, () -> host.get(JAVA_INT, 0));
            assertThrows(BackendException.class, () -> b.freeHost(host));
        }
    }
}
