package org.polygpu.emulator.timing;

/**
 * The streaming multiprocessors of a device model: how many, how fast, and the limits that decide how many thread
 * blocks one SM holds at once ({@link Occupancy}).
 *
 * @param count                   number of SMs
 * @param clockMhz                SM clock in MHz (the boost clock the timing model runs at)
 * @param warpSize                threads per warp
 * @param maxThreadsPerBlock      threads in one block at most
 * @param maxSharedMemoryPerBlock shared-memory bytes one block may request at most (without opting in to more)
 * @param maxThreadsPerSm         resident threads per SM at most
 * @param maxBlocksPerSm          resident blocks per SM at most
 * @param registersPerSm          32-bit registers per SM
 * @param sharedMemoryPerSm       shared-memory bytes per SM that resident blocks divide among themselves
 */
public record SmSpec(int count, double clockMhz, int warpSize, int maxThreadsPerBlock, int maxSharedMemoryPerBlock,
                     int maxThreadsPerSm, int maxBlocksPerSm, int registersPerSm, int sharedMemoryPerSm) {
    public SmSpec {
        Checks.positive("sm.count", count);
        Checks.positive("sm.clockMhz", clockMhz);
        Checks.positive("sm.warpSize", warpSize);
        Checks.positive("sm.maxThreadsPerBlock", maxThreadsPerBlock);
        Checks.nonNegative("sm.maxSharedMemoryPerBlock", maxSharedMemoryPerBlock);
        Checks.positive("sm.maxThreadsPerSm", maxThreadsPerSm);
        Checks.positive("sm.maxBlocksPerSm", maxBlocksPerSm);
        Checks.positive("sm.registersPerSm", registersPerSm);
        Checks.nonNegative("sm.sharedMemoryPerSm", sharedMemoryPerSm);
        if (maxThreadsPerBlock > maxThreadsPerSm) {
            throw new IllegalArgumentException("sm.maxThreadsPerBlock (" + maxThreadsPerBlock
                    + ") exceeds sm.maxThreadsPerSm (" + maxThreadsPerSm + ")");
        }
    }

    /** Clock cycles per nanosecond. */
    public double cyclesPerNano() {
        return clockMhz / 1000;
    }
}
