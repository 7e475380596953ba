package org.polygpu.emulator;

import java.util.Arrays;

/**
 * Where each page of one managed allocation lives: on a device, on the host, or nowhere yet (a page no one touched
 * since the allocation, which CUDA populates where it is first touched, without a transfer).
 *
 * <p><b>Page size.</b> {@value #PAGE_BYTES} bytes (64 KiB). CUDA tracks managed memory in 4 KiB host pages, but
 * its driver services GPU faults in batches and migrates them in 64 KiB blocks (the GPU's big page) where it can,
 * and prefetches in blocks of up to 2 MiB. 64 KiB is the unit a fault moves in this model: 4 KiB would make a kernel
 * that faults a whole array pay the fault latency 16 times as often as the driver does, and 2 MiB would make a kernel
 * that touches one element pay for 2 MiB. Prefetches are charged for the same pages, which is exact for the
 * whole-array prefetches the scheduler issues; the tables stay small (16 entries per MiB).
 *
 * <p>A page is resident in one place at a time: a migration moves it (CUDA's behaviour without the read-mostly
 * advice, which polygpu does not give). Not thread-safe: used at the simulation's events, on the host's thread.
 */
final class PageResidency {
    /** The tracking and migration unit, in bytes. */
    static final long PAGE_BYTES = 64L << 10;
    /** The location of a page not touched yet. */
    static final int UNPOPULATED = -2;
    /** The location of a page on the host. */
    static final int HOST = -1;

    private final long bytes;
    private final int[] location;

    PageResidency(long bytes) {
        this.bytes = bytes;
        this.location = new int[Math.toIntExact(Math.max(1, (bytes + PAGE_BYTES - 1) / PAGE_BYTES))];
        Arrays.fill(location, UNPOPULATED);
    }

    /** How many pages the allocation has. */
    int pages() {
        return location.length;
    }

    /** Where page {@code page} lives: a device, {@link #HOST} or {@link #UNPOPULATED}. */
    int location(int page) {
        return location[page];
    }

    /**
     * Moves the pages overlapping bytes {@code offset..offset+count} to {@code destination} (a device or
     * {@link #HOST}) and says what moved: for each source location, the pages and bytes that came from it (a page's
     * bytes are those of the allocation it holds, so the last page may be short). Untouched pages are populated at
     * the destination without a transfer.
     */
    Moves moveTo(long offset, long count, int destination, int deviceCount) {
        Moves moves = new Moves(deviceCount);
        if (count <= 0) {
            return moves;
        }
        int first = Math.toIntExact(offset / PAGE_BYTES);
        int last = Math.toIntExact(Math.min(offset + count - 1, bytes - 1) / PAGE_BYTES);
        for (int p = first; p <= last; p++) {
            int from = location[p];
            if (from != destination && from != UNPOPULATED) {
                long start = p * PAGE_BYTES;
                moves.add(from, Math.min(PAGE_BYTES, bytes - start));
            }
            location[p] = destination;
        }
        return moves;
    }

    /**
     * Pages and bytes moved, by source location: devices {@code 0..n-1}, the host at {@code n}. Listing sources in
     * that order makes every migration's legs, and so its timing, deterministic.
     */
    static final class Moves {
        private final long[] pages;
        private final long[] bytes;

        Moves(int deviceCount) {
            pages = new long[deviceCount + 1];
            bytes = new long[deviceCount + 1];
        }

        private void add(int from, long pageBytes) {
            int index = from == HOST ? pages.length - 1 : from;
            pages[index]++;
            bytes[index] += pageBytes;
        }

        /** Source locations as indices: devices, then the host at {@link #host()}. */
        int locations() {
            return pages.length;
        }

        int host() {
            return pages.length - 1;
        }

        long pages(int location) {
            return pages[location];
        }

        long bytes(int location) {
            return bytes[location];
        }

        long totalPages() {
            return Arrays.stream(pages).sum();
        }

        long totalBytes() {
            return Arrays.stream(bytes).sum();
        }
    }
}
