package org.polygpu.sched;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.polygpu.array.DeviceArray;

/**
 * The host memory available for new host replicas, checked before one is allocated: a replica larger than what the
 * machine has would otherwise fail deep in the allocator ("Unable to allocate ... bytes") or swap for minutes.
 * Stateless and thread-safe.
 */
final class HostMemory {
    private static final Path MEMINFO = Path.of("/proc/meminfo");

    private HostMemory() {
    }

    /** @throws IllegalStateException naming the array, its size and what is available, when it does not fit */
    static void checkAvailable(long bytes, DeviceArray array) {
        long available = available();
        if (bytes > available) {
            throw new IllegalStateException("the host copy of " + array + " needs " + bytes + " bytes, more than the "
                    + available + " bytes of host memory available");
        }
    }

    /**
     * Bytes of host memory available to a new allocation: Linux's {@code MemAvailable} (free memory plus the caches
     * it can drop); elsewhere unknown, and no limit is checked.
     */
    static long available() {
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("MemAvailable:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or an unexpected format: unknown.
        }
        return Long.MAX_VALUE;
    }
}
