package org.polygpu.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.config.MemoryModel;

/** A CUDA buffer's device pointer is its {@code CUdeviceptr}, for a CUDA-aware library; no GPU needed. */
class DevicePointerTest {
    private static final long ADDRESS = 0x7f00_0000_1000L;

    /** One device whose {@code cuMemAlloc} and {@code cuMemAllocManaged} give {@link #ADDRESS}. */
    private static CudaBackend open(MemoryModel model) {
        FakeCudaDriverApi fake = new FakeCudaDriverApi().writingInt("deviceGetCount", 1)
                .writingInt("deviceGetAttribute", 32).on("memAlloc", DevicePointerTest::address)
                .on("memAllocManaged", DevicePointerTest::address);
        return CudaBackend.open(new CudaDriver(fake.api()), 1, model, null);
    }

    private static int address(Object[] args) {
        ((MemorySegment) args[0]).reinterpret(8).set(ValueLayout.JAVA_LONG, 0, ADDRESS);
        return 0;
    }

    @Test
    void itsDevicePointersAddressDeviceMemory() {
        try (CudaBackend b = open(MemoryModel.EXPLICIT)) {
            assertEquals(Backend.DeviceAddressing.DEVICE_MEMORY, b.deviceAddressing());
        }
    }

    @Test
    void aBuffersDevicePointerIsItsAllocationOfItsSize() {
        try (CudaBackend b = open(MemoryModel.EXPLICIT)) {
            MemorySegment pointer = b.devicePointer(b.allocate(0, 4096));
            assertEquals(ADDRESS, pointer.address());
            assertEquals(4096, pointer.byteSize());
        }
    }

    @Test
    void aFreedBufferOrManagedMemoryIsRefused() {
        try (CudaBackend b = open(MemoryModel.MANAGED)) {
            BackendException managed = assertThrows(BackendException.class,
                    () -> b.devicePointer(b.allocateManaged(64)));
            assertTrue(managed.getMessage().contains("is managed memory, which has no device pointer of one device"),
                    managed.getMessage());
        }
        try (CudaBackend b = open(MemoryModel.EXPLICIT)) {
            DeviceBuffer buffer = b.allocate(0, 64);
            b.free(buffer);
            BackendException freed = assertThrows(BackendException.class, () -> b.devicePointer(buffer));
            assertTrue(freed.getMessage().startsWith("device pointer: the buffer of 64 bytes on device 0 was freed"),
                    freed.getMessage());
        }
    }
}
