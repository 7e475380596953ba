package org.polygpu.emulator.timing;

/**
 * What global memory costs a launch. A launch whose buffers fit in L2 ({@code footprint <= l2Bytes}) is served from
 * L2 (its data stays there from launch to launch, as in a loop of kernels over the same arrays); a larger one from
 * device memory.
 *
 * <pre>
 *   latency   = fitsL2 ? l2LatencyNs : dramLatencyNs                 per exposed load of a warp
 *   traffic   = min(sectors * sectorBytes, 2 * footprint)
 *   device    = traffic / (fitsL2 ? l2GBps : dramGBps)                 the whole grid
 *   perSm     = residentWarps * linesPerWarp * 4 * sectorBytes / smGBps  one wave on one SM (L1 wavefronts)
 * </pre>
 */
public final class MemoryTiming {
    private final MemorySpec memory;

    public MemoryTiming(MemorySpec memory) {
        this.memory = memory;
    }

    /** Whether buffers of {@code footprint} bytes (the launch's, and those of kernels beside it) fit in L2. */
    public boolean fitsL2(long footprint) {
        return footprint <= memory.l2Bytes();
    }

    /** Nanoseconds a warp waits for one exposed load when {@code footprint} bytes are in use. */
    public double latencyNs(long footprint) {
        return fitsL2(footprint) ? memory.l2LatencyNs() : memory.dramLatencyNs();
    }

    /**
     * Nanoseconds the whole device needs to move {@code profile}'s traffic, {@code footprint} bytes being in use:
     * its sectors, but at most twice its own footprint (each byte read once and written back once; repeated
     * accesses beyond that hit in the SMs' caches).
     */
    public double deviceNs(KernelProfile profile, long footprint) {
        double bandwidth = fitsL2(footprint) ? memory.l2GBps() : memory.dramGBps();
        return trafficBytes(profile) / bandwidth;
    }

    /** The bytes {@code profile} moves between the SMs and L2 or device memory. */
    public double trafficBytes(KernelProfile profile) {
        return Math.min(profile.counters().globalSectors() * (double) memory.sectorBytes(),
                2.0 * profile.footprintBytes());
    }

    /**
     * Nanoseconds one SM's L1 needs to serve the global accesses of {@code residentWarps} warps of {@code profile}:
     * a warp access takes one wavefront per distinct 128-byte line it touches (four sectors), whatever the sectors
     * it uses in the line.
     */
    public double perSmNs(KernelProfile profile, double residentWarps) {
        return residentWarps * profile.perWarp(profile.counters().globalLines()) * 4.0 * memory.sectorBytes()
                / memory.smGBps();
    }
}
