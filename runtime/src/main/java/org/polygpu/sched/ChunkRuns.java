package org.polygpu.sched;

import java.util.function.LongPredicate;

/** Runs of consecutive host chunks of an array, as byte ranges: what one copy moves. Stateless. */
final class ChunkRuns {
    /** What is done with one run: its first byte and its length in bytes. */
    @FunctionalInterface
    interface Range {
        void accept(long offset, long bytes);
    }

    private ChunkRuns() {
    }

    /**
     * Calls {@code range} for each maximal run of chunks {@code k} in {@code from..to-1} for which {@code selected}
     * holds, in order; chunks are {@code chunkBytes} long, the last one clipped to {@code arrayBytes}.
     */
    static void forEach(long from, long to, LongPredicate selected, long chunkBytes, long arrayBytes, Range range) {
        long run = -1;
        for (long k = from; k <= to; k++) {
            boolean in = k < to && selected.test(k);
            if (in && run < 0) {
                run = k;
            } else if (!in && run >= 0) {
                long offset = run * chunkBytes;
                range.accept(offset, Math.min(k * chunkBytes, arrayBytes) - offset);
                run = -1;
            }
        }
    }

    /** The number of chunks of {@code chunkBytes} an array of {@code arrayBytes} has. */
    static long count(long arrayBytes, long chunkBytes) {
        return (arrayBytes + chunkBytes - 1) / chunkBytes;
    }
}
