package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The device memory a kernel may touch: every allocation of its device, each at a device address, as the kernel
 * sees them through pointers. Addresses of allocations start at {@link #FIRST_ADDRESS}; below lie the shared and
 * local windows of the generic address space, so a null or small pointer is never valid.
 *
 * <p>Each region may refuse stores and atomics, with the reason a fault gives: {@code .const} variables, and for one
 * launch the buffers passed for parameters declared read-only ({@link #withStoresRefused}).
 *
 * <p>Immutable once built; lookups are a binary search over the sorted regions and are thread-safe.
 */
public final class GlobalMemory {
    /** The lowest address a device allocation may have. */
    public static final long FIRST_ADDRESS = 0x7000_0000_0000L;

    private final long[] starts;
    private final long[] ends;
    private final MemorySegment[] segments;
    private final boolean[] readOnly;
    private final String[] descriptions;
    /** Why a store to each region is refused, or {@code null} where stores are allowed. */
    private final String[] storeRefusals;
    /** Where the spans a launch touches in tracked regions go, or null when no region is tracked. */
    private final TouchedRanges touches;
    /** The device's heap for {@code malloc} and {@code free}, one of the regions; or null. */
    private final DeviceHeap heap;

    /**
     * One allocation.
     *
     * @param address     its device address, at least {@link #FIRST_ADDRESS}
     * @param segment     its memory, exactly its size
     * @param readOnly    whether it is {@code .const} memory (stores and atomics are refused)
     * @param description what it is, for memcheck messages, e.g. {@code buffer of 4096 bytes on device 0}
     */
    public record Region(long address, MemorySegment segment, boolean readOnly, String description) {
        public Region {
            Objects.requireNonNull(segment, "segment");
            Objects.requireNonNull(description, "description");
            if (address < FIRST_ADDRESS) {
                throw new IllegalArgumentException("address 0x" + Long.toHexString(address) + " is below "
                        + "the first device address 0x" + Long.toHexString(FIRST_ADDRESS));
            }
        }
    }

    /** @throws IllegalArgumentException if two regions overlap */
    public GlobalMemory(List<Region> regions) {
        this(regions, null);
    }

    /**
     * The regions and, unless {@code heap} is null, the device heap that kernels' {@code malloc} and {@code free}
     * use.
     *
     * @throws IllegalArgumentException if two regions overlap
     */
    public GlobalMemory(List<Region> regions, DeviceHeap heap) {
        this.heap = heap;
        List<Region> sorted = new ArrayList<>(regions);
        if (heap != null) {
            sorted.add(heap.region());
        }
        sorted.sort(Comparator.comparingLong(Region::address));
        int n = sorted.size();
        starts = new long[n];
        ends = new long[n];
        segments = new MemorySegment[n];
        readOnly = new boolean[n];
        descriptions = new String[n];
        storeRefusals = new String[n];
        for (int i = 0; i < n; i++) {
            Region r = sorted.get(i);
            starts[i] = r.address();
            ends[i] = r.address() + r.segment().byteSize();
            segments[i] = r.segment();
            readOnly[i] = r.readOnly();
            descriptions[i] = r.description();
            storeRefusals[i] = r.readOnly() ? "it lies in read-only .const memory" : null;
            if (i > 0 && starts[i] < ends[i - 1]) {
                throw new IllegalArgumentException("regions overlap at 0x" + Long.toHexString(starts[i]));
            }
        }
        touches = null;
    }

    private GlobalMemory(GlobalMemory from, String[] storeRefusals, TouchedRanges touches) {
        this.starts = from.starts;
        this.ends = from.ends;
        this.segments = from.segments;
        this.readOnly = from.readOnly;
        this.descriptions = from.descriptions;
        this.storeRefusals = storeRefusals;
        this.touches = touches;
        this.heap = from.heap;
    }

    /** The device heap, or null when this memory has none. */
    DeviceHeap heap() {
        return heap;
    }

    /**
     * This memory with the spans that accesses touch in the regions {@code touches} tracks recorded there, for one
     * launch.
     */
    public GlobalMemory withTouchesRecorded(TouchedRanges touches) {
        return new GlobalMemory(this, storeRefusals, touches);
    }

    /** Whether accesses to {@code region} are recorded ({@link #withTouchesRecorded}). */
    boolean tracked(int region) {
        return touches != null && touches.tracks(starts[region]);
    }

    /** Records that bytes {@code lo..hi-1} of tracked {@code region} were touched. */
    void touched(int region, long lo, long hi) {
        touches.add(starts[region], lo, hi);
    }

    /**
     * This memory with stores refused to the regions starting at the keys of {@code refusals}, each value saying
     * why (e.g. the read-only parameter the buffer was passed for); other keys are ignored. The lookup arrays are
     * shared, so a launch pays one array copy.
     */
    public GlobalMemory withStoresRefused(Map<Long, String> refusals) {
        if (refusals.isEmpty()) {
            return this;
        }
        String[] refused = storeRefusals.clone();
        refusals.forEach((address, why) -> {
            int region = find(address);
            if (region >= 0 && starts[region] == address) {
                refused[region] = why;
            }
        });
        return new GlobalMemory(this, refused, touches);
    }

    /** The index of the region holding {@code address}, or -1. */
    int find(long address) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= address) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return hi >= 0 && address < ends[hi] ? hi : -1;
    }

    long start(int region) {
        return starts[region];
    }

    long end(int region) {
        return ends[region];
    }

    MemorySegment segment(int region) {
        return segments[region];
    }

    boolean readOnly(int region) {
        return readOnly[region];
    }

    /** Why a store to {@code region} is refused, or {@code null} where stores are allowed. */
    String storeRefusal(int region) {
        return storeRefusals[region];
    }

    /** Where {@code address} lies relative to the allocations, for a memcheck message. */
    String explain(long address, int size) {
        int lo = 0;
        int hi = starts.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= address) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (hi >= 0 && address < ends[hi]) {
            return "the access runs " + (address + size - ends[hi]) + " bytes past the end of the "
                    + descriptions[hi] + " at 0x" + Long.toHexString(starts[hi]);
        }
        if (hi >= 0 && address - ends[hi] < (1 << 20)) {
            return "it is " + (address - ends[hi]) + " bytes past the end of the " + descriptions[hi] + " at 0x"
                    + Long.toHexString(starts[hi]);
        }
        if (lo < starts.length && starts[lo] - address < (1 << 20)) {
            return "it is " + (starts[lo] - address) + " bytes before the " + descriptions[lo] + " at 0x"
                    + Long.toHexString(starts[lo]);
        }
        return "it is not in any allocation of the device";
    }
}
