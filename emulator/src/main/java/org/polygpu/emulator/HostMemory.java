package org.polygpu.emulator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.polygpu.backend.BackendException;

/**
 * Host memory handed out by {@link EmulatedBackend#allocateHost}: one shared {@link Arena} per allocation, closed by
 * {@link #free} or, if copies still use it, when the last of them completes.
 *
 * <p>Allocations are indexed by address so that a copy given a slice of an allocation keeps the whole allocation
 * alive. Segments the backend did not allocate (heap arrays, the caller's own arenas) may be used in copies too;
 * they are the caller's to keep alive.
 */
final class HostMemory {
    private final TreeMap<Long, Allocation> byAddress = new TreeMap<>();

    /** One host allocation; freed only when the caller asked and no copy uses it. */
    static final class Allocation {
        private final Arena arena;
        private final MemorySegment segment;
        private boolean freed;
        private int pendingUses;

        private Allocation(long bytes) {
            this.arena = Arena.ofShared();
            this.segment = arena.allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
        }

        void release() {
            pendingUses--;
            if (pendingUses == 0 && freed) {
                arena.close();
            }
        }
    }

    MemorySegment allocate(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes of host memory");
        }
        Allocation a = new Allocation(bytes);
        byAddress.put(a.segment.address(), a);
        return a.segment;
    }

    void free(MemorySegment segment) {
        Allocation a = byAddress.get(segment.address());
        if (a == null || a.segment.byteSize() != segment.byteSize()) {
            throw new BackendException("freeHost: " + segment + " was not returned by allocateHost or was freed");
        }
        byAddress.remove(segment.address());
        a.freed = true;
        if (a.pendingUses == 0) {
            a.arena.close();
        }
    }

    /**
     * Notes that an enqueued copy uses {@code segment}; returns the allocation to release when the copy completes,
     * or {@code null} when the segment is not one of ours.
     */
    Allocation retain(MemorySegment segment) {
        if (!segment.isNative()) {
            return null;
        }
        Map.Entry<Long, Allocation> e = byAddress.floorEntry(segment.address());
        if (e == null) {
            return null;
        }
        Allocation a = e.getValue();
        if (segment.address() + segment.byteSize() > a.segment.address() + a.segment.byteSize()) {
            return null;
        }
        a.pendingUses++;
        return a;
    }

    /** Closes every allocation; the backend is closing and all work has completed. */
    void releaseAll() {
        for (Allocation a : List.copyOf(byAddress.values())) {
            a.arena.close();
        }
        byAddress.clear();
    }
}
