package org.polygpu.emulator.timing;

/**
 * The execution time of a PTX launch from its profile, launch cost excluded: the SMs run the grid in waves, each
 * wave as long as its warps' longest chain of memory waits and issue slots or its SM's share of the memory system,
 * and the whole device is bounded by its memory bandwidth and by its atomics.
 *
 * <pre>
 *   chain = exposedLoadsPerWarp * latency + compute(residentWarps)     {@link MemoryTiming}, {@link ComputeTiming}
 *   wave  = max(chain, memory.perSm(residentWarps))
 *   time  = max(waves * wave, memory.device, atomics)                  {@link Occupancy}, {@link AtomicTiming}
 * </pre>
 *
 * A warp waiting for a load issues nothing, so its waits and its instructions add up; the other warps of the SM
 * overlap theirs, which is why more resident warps shorten a wave only up to the issue and memory limits.
 */
public final class KernelTiming {
    private final SmSpec sm;
    private final MemoryTiming memory;
    private final ComputeTiming compute;
    private final AtomicTiming atomics;

    public KernelTiming(SmSpec sm, MemorySpec memory, ComputeSpec compute, AtomicSpec atomics) {
        this.sm = sm;
        this.memory = new MemoryTiming(memory);
        this.compute = new ComputeTiming(sm, compute);
        this.atomics = new AtomicTiming(atomics);
    }

    /** Nanoseconds the launch described by {@code profile} executes, alone on the device. */
    public double nanos(KernelProfile profile) {
        return nanos(profile, 0, 0);
    }

    /**
     * Nanoseconds the launch executes beside kernels keeping {@code otherWarps} warps resident (summed over the SMs)
     * with buffers of {@code otherFootprint} bytes: on the SMs it uses, the warps per SM are its own or the average
     * of all kernels' over every SM, whichever is more (blocks of later kernels go to idle SMs first); beyond an SM's
     * capacity the kernels take turns; the launch fits in L2 only if all their buffers do.
     */
    public double nanos(KernelProfile profile, double otherWarps, long otherFootprint) {
        if (profile.counters().warpInstructions() == 0) {
            return 0;
        }
        Occupancy o = Occupancy.of(sm, profile);
        double own = o.residentWarps();
        double warps = Math.max(own, (own * o.activeSms() + otherWarps) / sm.count());
        double capacity = (double) sm.maxThreadsPerSm() / sm.warpSize();
        double turns = Math.max(1, warps / capacity);
        warps = Math.min(warps, capacity);
        long footprint = profile.footprintBytes() + otherFootprint;
        double chain = profile.perWarp(profile.counters().mix().exposedLoads()) * memory.latencyNs(footprint)
                + compute.waveNs(profile, warps);
        double wave = Math.max(chain, memory.perSmNs(profile, warps));
        return Math.max(o.waves() * wave * turns,
                Math.max(memory.deviceNs(profile, footprint), atomics.nanos(profile)));
    }

    /** How a launch of {@code profile} shares its device with others ({@link DeviceShare}). */
    public DeviceShare share(KernelProfile profile) {
        Occupancy o = Occupancy.of(sm, profile);
        return new DeviceShare() {
            @Override
            public double residentWarps() {
                return o.residentWarps() * o.activeSms();
            }

            @Override
            public long footprint() {
                return profile.footprintBytes();
            }

            @Override
            public double nanos(double otherWarps, long otherFootprint) {
                return KernelTiming.this.nanos(profile, otherWarps, otherFootprint);
            }

            @Override
            public double memoryNanos(long otherFootprint) {
                return memory.deviceNs(profile, profile.footprintBytes() + otherFootprint);
            }
        };
    }

    /** The occupancy of {@code profile}'s launch. */
    public Occupancy occupancy(KernelProfile profile) {
        return Occupancy.of(sm, profile);
    }

}
