package org.polygpu.emulator.timing;

import org.polygpu.emulator.ptx.InstructionMix;

/**
 * What executing its instructions costs one wave of warps on one SM. Each class of instruction has its own
 * throughput (FP32, FP64, integer, special functions; shared memory serves one wavefront per cycle), every
 * instruction takes an issue slot, and one warp alone issues dependent instructions {@code dependentIssueCycles}
 * apart:
 *
 * <pre>
 *   throughput = max(I / issuePerClock, fp32 / fp32PerClock, fp64 / fp64PerClock, integer / integerPerClock,
 *                    sfu / sfuPerClock, sharedWavefronts / 1)                       per warp, in cycles
 *   cycles     = max(I * dependentIssueCycles, residentWarps * throughput)
 *   time       = cycles / clock
 * </pre>
 *
 * where the counts are per warp of the grid (averaged).
 */
public final class ComputeTiming {
    private final SmSpec sm;
    private final ComputeSpec compute;

    public ComputeTiming(SmSpec sm, ComputeSpec compute) {
        this.sm = sm;
        this.compute = compute;
    }

    /** Nanoseconds {@code residentWarps} warps of {@code profile} take to issue their instructions on one SM. */
    public double waveNs(KernelProfile profile, double residentWarps) {
        InstructionMix m = profile.counters().mix();
        double instructions = profile.perWarp(profile.counters().warpInstructions());
        double throughput = Math.max(instructions / compute.issuePerClock(), Math.max(
                Math.max(profile.perWarp(m.fp32()) / compute.fp32PerClock(),
                        profile.perWarp(m.fp64()) / compute.fp64PerClock()),
                Math.max(Math.max(profile.perWarp(m.integer()) / compute.integerPerClock(),
                        profile.perWarp(m.sfu()) / compute.sfuPerClock()),
                        profile.perWarp(profile.counters().sharedWavefronts()))));
        double cycles = Math.max(instructions * compute.dependentIssueCycles(), residentWarps * throughput);
        return cycles / sm.cyclesPerNano();
    }
}
