package org.polygpu.emulator.timing;

/**
 * How a grid spreads over the SMs: blocks go to distinct SMs first, each SM holds as many blocks at once as its
 * threads, blocks and shared memory allow, and the blocks beyond run in later waves.
 *
 * <pre>
 *   residentBlocks = min(maxBlocksPerSm, maxThreadsPerSm / threadsPerBlock (whole warps),
 *                        sharedMemoryPerSm / sharedBytes)                        at least 1
 *   activeSms      = min(sm.count, blocks)
 *   concurrent     = min(blocks / activeSms, residentBlocks)   blocks an SM runs at once
 *   waves          = (blocks / activeSms) / concurrent         at least 1
 *   residentWarps  = concurrent * warpsPerBlock
 * </pre>
 *
 * Fractional waves stand for the uneven last wave averaged over the SMs (registers are not known to the
 * interpreter: PTX registers are virtual, so they do not limit residency here).
 *
 * @param activeSms      SMs the grid uses
 * @param residentBlocks blocks one SM can hold at once
 * @param waves          rounds of blocks each SM runs
 * @param residentWarps  warps an SM runs at once
 */
public record Occupancy(int activeSms, int residentBlocks, double waves, double residentWarps) {
    /** The occupancy of a launch of {@code profile}'s shape on SMs {@code sm}. */
    public static Occupancy of(SmSpec sm, KernelProfile profile) {
        int warpsPerBlock = (profile.threadsPerBlock() + sm.warpSize() - 1) / sm.warpSize();
        long byThreads = sm.maxThreadsPerSm() / ((long) warpsPerBlock * sm.warpSize());
        long byShared = profile.sharedBytes() == 0 ? Long.MAX_VALUE : sm.sharedMemoryPerSm() / profile.sharedBytes();
        int resident = (int) Math.max(1, Math.min(sm.maxBlocksPerSm(), Math.min(byThreads, byShared)));
        int active = (int) Math.min(sm.count(), profile.blocks());
        double perSm = (double) profile.blocks() / active;
        double concurrent = Math.min(perSm, resident);
        return new Occupancy(active, resident, Math.max(1, perSm / concurrent), concurrent * warpsPerBlock);
    }

    /** The fraction of the device's SMs the grid occupies while it runs, in (0, 1]. */
    public double smShare(SmSpec sm) {
        return (double) activeSms / sm.count();
    }
}
