package org.polygpu.emulator;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.polygpu.backend.BackendException;

/**
 * The memory of one virtual device: accounting against the model's capacity and the set of live buffers.
 *
 * <p>Only the bytes requested are allocated on the host (no alignment padding is charged), so a device of 80 GiB
 * costs nothing until used.
 */
final class DeviceMemory {
    private final int device;
    private final long capacity;
    private final Set<EmulatedBuffer> buffers = new LinkedHashSet<>();
    private long used;

    DeviceMemory(int device, long capacity) {
        this.device = device;
        this.capacity = capacity;
    }

    EmulatedBuffer allocate(Object owner, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        if (bytes > capacity - used) {
            throw new BackendException("out of memory on device " + device + ": requested " + bytes
                    + " bytes, " + (capacity - used) + " bytes free of " + capacity);
        }
        EmulatedBuffer buffer = new EmulatedBuffer(owner, device, bytes);
        used += bytes;
        buffers.add(buffer);
        return buffer;
    }

    void free(EmulatedBuffer buffer) {
        buffer.free();
        buffers.remove(buffer);
        used -= buffer.bytes();
    }

    long free() {
        return capacity - used;
    }

    /** Releases every buffer still allocated; the backend is closing and all work has completed. */
    void releaseAll() {
        for (EmulatedBuffer b : List.copyOf(buffers)) {
            b.releaseMemory();
        }
        buffers.clear();
        used = 0;
    }
}
