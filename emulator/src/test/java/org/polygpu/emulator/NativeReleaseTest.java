package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;

import org.junit.jupiter.api.Test;
import org.polygpu.topology.BandwidthMatrixLoader;

/** The safety net for a backend that is never closed: its native memory is released once it is unreachable. */
class NativeReleaseTest {
    @Test
    void closingReleasesTheHostMemoryAtOnce() {
        EmulatedBackend backend = backend();
        MemorySegment host = backend.allocateHost(1024);
        backend.close();
        assertFalse(host.scope().isAlive());
    }

    @Test
    void anUnreachableUnclosedBackendIsReleasedByTheCleaner() throws InterruptedException {
        MemorySegment host = leakedBackendHostMemory();
        for (int i = 0; i < 200 && host.scope().isAlive(); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertFalse(host.scope().isAlive(), "the cleaner released the host memory of the lost backend");
    }

    @Test
    void theCleanerDoesNotKeepTheBackendReachable() throws InterruptedException {
        WeakReference<EmulatedBackend> ref = new WeakReference<>(backend());
        for (int i = 0; i < 200 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get());
    }

    private static MemorySegment leakedBackendHostMemory() {
        EmulatedBackend backend = backend();
        backend.allocate(0, 4096);
        return backend.allocateHost(1024);
    }

    private static EmulatedBackend backend() {
        return EmulatedBackend.builder().devices(1).topology(BandwidthMatrixLoader.preset("h100x1"))
                .model(DeviceModel.H100).build();
    }
}
