package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A device's heap for {@code malloc} and {@code free} in kernels, as CUDA's: a fixed region of device memory (CUDA's
 * default {@code cudaLimitMallocHeapSize} is 8 MiB) whose allocations outlive the kernel that made them until a
 * kernel frees them; {@code malloc} returns null when no free block is large enough. First fit over the free blocks,
 * 16-byte aligned (CUDA guarantees 16), neighbours merged on free.
 *
 * <p>Thread-safe: the CTAs of a launch run on several workers.
 */
public final class DeviceHeap {
    /** CUDA's default heap size. */
    public static final long DEFAULT_BYTES = 8L << 20;
    private static final long ALIGNMENT = 16;

    private final long address;
    private final MemorySegment segment;
    /** Offset to size of each free block. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    /** Offset to size of each live allocation. */
    private final Map<Long, Long> live = new HashMap<>();

    /**
     * @param address its device address, at least {@link GlobalMemory#FIRST_ADDRESS} and 16-byte aligned
     * @param segment its memory
     */
    public DeviceHeap(long address, MemorySegment segment) {
        if (address % ALIGNMENT != 0) {
            throw new IllegalArgumentException("heap address 0x" + Long.toHexString(address) + " is not "
                    + ALIGNMENT + "-byte aligned");
        }
        this.address = address;
        this.segment = segment;
        long usable = segment.byteSize() / ALIGNMENT * ALIGNMENT;
        if (usable > 0) {
            free.put(0L, usable);
        }
    }

    /** The heap as a region of device memory. */
    GlobalMemory.Region region() {
        return new GlobalMemory.Region(address, segment, false, "device heap (malloc) of " + segment.byteSize()
                + " bytes");
    }

    /** The address of a new block of at least {@code bytes}, or 0 (null) when none is free or {@code bytes} is 0. */
    synchronized long allocate(long bytes) {
        if (bytes <= 0 || bytes > segment.byteSize()) {
            return 0;
        }
        long size = (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        for (Map.Entry<Long, Long> block : free.entrySet()) {
            if (block.getValue() >= size) {
                long offset = block.getKey();
                free.remove(offset);
                if (block.getValue() > size) {
                    free.put(offset + size, block.getValue() - size);
                }
                live.put(offset, size);
                return address + offset;
            }
        }
        return 0;
    }

    /**
     * Frees the block at {@code pointer}; freeing null does nothing.
     *
     * @return false when {@code pointer} is not a live block of this heap (never returned, or freed already)
     */
    synchronized boolean free(long pointer) {
        if (pointer == 0) {
            return true;
        }
        Long size = live.remove(pointer - address);
        if (size == null) {
            return false;
        }
        long offset = pointer - address;
        long end = offset + size;
        Map.Entry<Long, Long> before = free.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue() == offset) {
            offset = before.getKey();
            free.remove(offset);
        }
        Long after = free.remove(end);
        if (after != null) {
            end += after;
        }
        free.put(offset, end - offset);
        return true;
    }

    /** Bytes in live allocations (their sizes rounded up to the alignment). */
    synchronized long used() {
        return live.values().stream().mapToLong(Long::longValue).sum();
    }
}
