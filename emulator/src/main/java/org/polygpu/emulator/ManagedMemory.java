package org.polygpu.emulator;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.polygpu.emulator.ptx.GlobalMemory;
import org.polygpu.sched.spi.LocationSet;

/**
 * The managed memory of one emulated backend ({@code MemoryModel=managed}): allocations that every device's kernels
 * and the host address, each with the {@link PageResidency} of its pages, and the counts of what migrated.
 *
 * <p>Managed memory is host memory that pages migrate out of and into, so it is not charged against any device's
 * capacity: like CUDA's, it oversubscribes the devices by itself. Addresses start at {@link #FIRST_ADDRESS}, above
 * every device's range ({@link DeviceMemory} gives device {@code d} the range at {@code d * 2^40}), and are handed
 * out as a device's are: 256-byte aligned, with a gap after each buffer, never reused.
 *
 * <p>Not thread-safe: used on the host's thread and at the simulation's events.
 */
final class ManagedMemory {
    /** The first managed address: past the ranges of the most devices a runtime may have. */
    static final long FIRST_ADDRESS = GlobalMemory.FIRST_ADDRESS + ((long) LocationSet.MAX_DEVICES << 40);
    private static final long ALIGNMENT = 256;

    private final Set<EmulatedBuffer> buffers = new LinkedHashSet<>();
    private long nextAddress = FIRST_ADDRESS;
    private long prefetches;
    private long prefetchedBytes;
    private long faultedPages;
    private long faultedBytes;

    EmulatedBuffer allocate(Object owner, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        EmulatedBuffer b = EmulatedBuffer.managed(owner, bytes, nextAddress, new PageResidency(bytes));
        nextAddress += (bytes + 2 * ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        buffers.add(b);
        return b;
    }

    void free(EmulatedBuffer buffer) {
        buffer.free();
        buffers.remove(buffer);
    }

    /** A migration ({@link MigrationOperation}) moved {@code bytes}. */
    void prefetched(long bytes) {
        prefetches++;
        prefetchedBytes += bytes;
    }

    /** A kernel faulted {@code pages} pages of {@code bytes} in total onto its device. */
    void faulted(long pages, long bytes) {
        faultedPages += pages;
        faultedBytes += bytes;
    }

    /** What migrated so far. */
    ManagedMigrations migrations() {
        return new ManagedMigrations(prefetches, prefetchedBytes, faultedPages, faultedBytes);
    }

    /** Releases every buffer still allocated; the backend is closing and all work has completed. */
    void releaseAll() {
        for (EmulatedBuffer b : List.copyOf(buffers)) {
            b.releaseMemory();
        }
        buffers.clear();
    }
}
