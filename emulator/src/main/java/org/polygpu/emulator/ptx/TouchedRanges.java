package org.polygpu.emulator.ptx;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The span of addresses one launch touched in each of some allocations (managed memory, whose pages migrate to where
 * they are used): from the lowest byte any load, store or atomic reached to the highest, per allocation.
 *
 * <p>A span, not a set of pages: a kernel that touches two distant parts of an allocation is charged for what lies
 * between. The kernels this serves (partitions of arrays, grid-stride loops) touch one contiguous part each, where
 * the span is exact. Each worker keeps its own spans while it runs CTAs and merges them here once, at its end, so the
 * interpreter's accesses pay two comparisons and no synchronisation. Thread-safe.
 */
public final class TouchedRanges {
    private final Set<Long> tracked;
    private final Map<Long, long[]> spans = new HashMap<>();

    /** @param allocationStarts the start address of each allocation to track */
    public TouchedRanges(Set<Long> allocationStarts) {
        this.tracked = Set.copyOf(allocationStarts);
    }

    /** Whether the allocation starting at {@code start} is tracked. */
    boolean tracks(long start) {
        return tracked.contains(start);
    }

    /** Bytes {@code lo..hi-1} of the allocation starting at {@code start} were touched. */
    synchronized void add(long start, long lo, long hi) {
        long[] span = spans.get(start);
        if (span == null) {
            spans.put(start, new long[] {lo, hi});
        } else {
            span[0] = Math.min(span[0], lo);
            span[1] = Math.max(span[1], hi);
        }
    }

    /** The touched span {@code [lo, hi)} of the allocation starting at {@code start}, as addresses; empty if none. */
    public synchronized Optional<long[]> span(long start) {
        long[] span = spans.get(start);
        return span == null ? Optional.empty() : Optional.of(span.clone());
    }
}
