package org.polygpu.emulator.timing;

import java.util.Objects;
import org.polygpu.emulator.ptx.KernelCounters;

/**
 * What the timing model knows of one PTX launch: its shape, the bytes of the buffers it was passed, and the
 * interpreter's counters of what it executed ({@link KernelCounters}, extrapolated to the whole grid in sampled
 * execution).
 *
 * @param blocks          thread blocks in the grid
 * @param threadsPerBlock threads in one block
 * @param sharedBytes     shared memory one block uses (static and dynamic)
 * @param footprintBytes  bytes of the distinct buffers passed to the launch: what it may touch in device memory
 * @param counters        what the grid executed
 */
public record KernelProfile(long blocks, int threadsPerBlock, long sharedBytes, long footprintBytes,
                            KernelCounters counters) {
    public KernelProfile {
        Objects.requireNonNull(counters, "counters");
        if (blocks < 1 || threadsPerBlock < 1 || sharedBytes < 0 || footprintBytes < 0) {
            throw new IllegalArgumentException("invalid kernel profile: " + blocks + " blocks of " + threadsPerBlock
                    + " threads, " + sharedBytes + " shared bytes, footprint " + footprintBytes);
        }
    }

    /** Warps of the whole grid (at least 1). */
    double warps() {
        return Math.max(1, counters.warps());
    }

    /** {@code count} per warp of the grid. */
    double perWarp(long count) {
        return count / warps();
    }
}
