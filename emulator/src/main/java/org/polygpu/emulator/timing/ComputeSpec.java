package org.polygpu.emulator.timing;

/**
 * The instruction throughputs of one SM of a device model, in warp instructions per clock cycle ({@link
 * ComputeTiming}): an SM with 128 FP32 lanes completes 4 FP32 warp instructions per cycle, one with 16 special
 * function units half a transcendental warp instruction.
 *
 * @param issuePerClock        warp instructions the SM's schedulers issue per cycle, of any kind
 * @param fp32PerClock         single-precision arithmetic
 * @param fp64PerClock         double-precision arithmetic
 * @param integerPerClock      integer arithmetic, logic and conversions
 * @param sfuPerClock          transcendental and reciprocal functions (ex2, lg2, sin, cos, rsqrt, rcp, sqrt, div)
 * @param dependentIssueCycles cycles between two dependent instructions of one warp (the arithmetic pipeline's
 *                             latency): a warp alone on its scheduler issues at most one instruction per so many
 *                             cycles
 */
public record ComputeSpec(double issuePerClock, double fp32PerClock, double fp64PerClock, double integerPerClock,
                          double sfuPerClock, double dependentIssueCycles) {
    public ComputeSpec {
        Checks.positive("compute.issuePerClock", issuePerClock);
        Checks.positive("compute.fp32PerClock", fp32PerClock);
        Checks.positive("compute.fp64PerClock", fp64PerClock);
        Checks.positive("compute.integerPerClock", integerPerClock);
        Checks.positive("compute.sfuPerClock", sfuPerClock);
        Checks.positive("compute.dependentIssueCycles", dependentIssueCycles);
    }
}
