package org.polygpu.sched;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.DeviceArray;

/** Checks of the host memory and byte ranges that bulk copies between an array and the host are given. */
final class HostRanges {
    private HostRanges() {
    }

    static void checkHostRange(DeviceArray array, long byteOffset, long bytes) {
        if (byteOffset < 0 || bytes < 0 || byteOffset > array.byteSize() - bytes) {
            throw new IndexOutOfBoundsException("bytes " + byteOffset + ".." + (byteOffset + bytes) + " are out of "
                    + "range for " + array + " (" + array.byteSize() + " bytes)");
        }
    }

    static void checkHostSize(DeviceArray array, MemorySegment host) {
        if (host.byteSize() < array.byteSize()) {
            throw new IllegalArgumentException("host memory of " + host.byteSize() + " bytes is smaller than "
                    + array + " (" + array.byteSize() + " bytes)");
        }
    }
}
