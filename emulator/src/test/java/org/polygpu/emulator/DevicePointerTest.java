package org.polygpu.emulator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.config.MemoryModel;

/** An emulated device buffer's device pointer is its own memory, host memory of this process. */
class DevicePointerTest {
    private static final OperationLabel L = OperationLabel.NONE;

    @Test
    void theEmulatorsDevicePointersAddressHostMemory() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            assertEquals(Backend.DeviceAddressing.HOST_MEMORY, b.deviceAddressing());
        }
    }

    /** Bytes written through the pointer are what copies and kernels read, and a kernel's stores show through it. */
    @Test
    void theSegmentIsTheBuffersMemoryForCopiesAndKernels() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buffer = b.allocate(1, 64);
            MemorySegment pointer = b.devicePointer(buffer);
            assertEquals(64, pointer.byteSize());
            pointer.setAtIndex(JAVA_INT, 5, 41);
            StreamHandle s = b.createStream(1);
            MemorySegment back = b.allocateHost(64);
            b.copyDeviceToHost(buffer, back, 64, s, L);
            b.synchronizeAll();
            assertEquals(41, back.getAtIndex(JAVA_INT, 5));
            FunctionHandle store = b.function(b.loadModule(1, Fixtures.module()), "store");
            b.launch(store, LaunchConfig.of(1, 1), new Object[] {buffer, 17}, s, L);
            b.synchronizeAll();
            assertEquals(17, pointer.getAtIndex(JAVA_INT, 0));
        }
    }

    @Test
    void aFreedOrForeignBufferIsRefused() {
        try (EmulatedBackend b = Fixtures.twoGpusNoHostCost(); EmulatedBackend other = Fixtures.twoGpusNoHostCost()) {
            DeviceBuffer buffer = b.allocate(0, 16);
            BackendException foreign = assertThrows(BackendException.class,
                    () -> other.devicePointer(buffer));
            assertTrue(foreign.getMessage().contains("was not allocated by this emulated backend"),
                    foreign.getMessage());
            b.free(buffer);
            BackendException freed = assertThrows(BackendException.class, () -> b.devicePointer(buffer));
            assertTrue(freed.getMessage().contains("device pointer"), freed.getMessage());
            assertTrue(freed.getMessage().contains("buffer was freed"), freed.getMessage());
        }
    }

    @Test
    void managedMemoryHasNoDevicePointer() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(Fixtures.TWO_GPUS)
                .memoryModel(MemoryModel.MANAGED).build()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> b.devicePointer(b.allocateManaged(64)));
            assertTrue(e.getMessage().contains("is managed memory, which has no device pointer of one device"),
                    e.getMessage());
        }
    }
}
