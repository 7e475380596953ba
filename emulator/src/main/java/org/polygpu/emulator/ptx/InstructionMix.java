package org.polygpu.emulator.ptx;

/**
 * The warp instructions of a launch by the unit that executes them, as the timing model charges them: each count is
 * of issued warp instructions (once per warp, whatever the active lanes).
 *
 * @param fp32         single-precision (and half-precision) arithmetic and comparisons
 * @param fp64         double-precision arithmetic and comparisons
 * @param integer      integer arithmetic, logic, comparisons, selects and warp shuffles
 * @param sfu          transcendental and reciprocal functions, divisions and square roots, and conversions between
 *                     integer and floating-point types or between float widths
 * @param globalLoads  loads from global (or generic) memory, including {@code cp.async}
 * @param exposedLoads the global loads whose latency a warp waits for: in each basic block, the first global load,
 *                     and each load whose address depends on a load earlier in the block (the others are issued
 *                     while the first is in flight)
 * @param globalStores stores to global (or generic) memory
 * @param shared       shared-memory loads and stores
 * @param other        everything else (moves, branches, barriers, atomics, parameter and local accesses)
 */
public record InstructionMix(long fp32, long fp64, long integer, long sfu, long globalLoads, long exposedLoads,
                             long globalStores, long shared, long other) {
    /** No instructions. */
    public static final InstructionMix NONE = new InstructionMix(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Every instruction of the mix once. */
    public long total() {
        return fp32 + fp64 + integer + sfu + globalLoads + globalStores + shared + other;
    }

    InstructionMix plus(InstructionMix o) {
        return new InstructionMix(fp32 + o.fp32, fp64 + o.fp64, integer + o.integer, sfu + o.sfu,
                globalLoads + o.globalLoads, exposedLoads + o.exposedLoads, globalStores + o.globalStores,
                shared + o.shared, other + o.other);
    }

    InstructionMix scaled(double f) {
        return new InstructionMix(Math.round(fp32 * f), Math.round(fp64 * f), Math.round(integer * f),
                Math.round(sfu * f), Math.round(globalLoads * f), Math.round(exposedLoads * f),
                Math.round(globalStores * f), Math.round(shared * f), Math.round(other * f));
    }
}
