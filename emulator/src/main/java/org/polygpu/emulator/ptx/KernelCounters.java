package org.polygpu.emulator.ptx;

import java.util.Objects;

/**
 * What one kernel launch did on the emulator, counted by the interpreter. Deterministic for a race-free kernel.
 *
 * @param ctas               CTAs (blocks) launched
 * @param warps              warps launched (per CTA: threads rounded up to 32)
 * @param warpInstructions   instructions issued, once per warp
 * @param threadInstructions instructions executed by active lanes, guard predicate regardless (as CUDA's
 *                           {@code thread_inst_executed})
 * @param globalSectors      32-byte sectors of device memory read or written by loads, stores and atomics
 * @param sharedAccesses     shared-memory instructions, once per warp (and one per lane of a shared atomic)
 * @param atomics            atomic operations, once per lane
 * @param barriers           barrier instructions, once per warp
 * @param sharedWavefronts   shared-memory wavefronts: each shared instruction times its bank-conflict degree (one
 *                           per lane of a shared atomic)
 * @param hotAtomics         global atomics on the busiest address (as each CTA's first atomic address sees it):
 *                           those serialise whatever the grid
 * @param mix                the warp instructions by executing unit
 * @param globalLines        distinct 128-byte lines of each warp's global accesses (the L1's wavefronts), summed
 */
public record KernelCounters(long ctas, long warps, long warpInstructions, long threadInstructions,
                             long globalSectors, long sharedAccesses, long atomics, long barriers,
                             long sharedWavefronts, long hotAtomics, InstructionMix mix, long globalLines) {
    /** Counters of nothing. */
    public static final KernelCounters ZERO = new KernelCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, InstructionMix.NONE,
            0);

    public KernelCounters {
        Objects.requireNonNull(mix, "mix");
    }

    /** Active lanes per issued instruction over 32: 1 when no lane ever idles, lower under divergence. */
    public double simdEfficiency() {
        return warpInstructions == 0 ? 1.0 : threadInstructions / (32.0 * warpInstructions);
    }

    /**
     * These counters, of {@code ran} CTAs of a grid of {@code gridCtas}, extrapolated to the whole grid: CTAs and
     * warps become the grid's, every other count is multiplied by {@code gridCtas / ran} and rounded.
     */
    KernelCounters scaledTo(long ran, long gridCtas) {
        if (ran == gridCtas || ran == 0) {
            return this;
        }
        double f = (double) gridCtas / ran;
        return new KernelCounters(gridCtas, warps / ran * gridCtas, Math.round(warpInstructions * f),
                Math.round(threadInstructions * f), Math.round(globalSectors * f), Math.round(sharedAccesses * f),
                Math.round(atomics * f), Math.round(barriers * f), Math.round(sharedWavefronts * f),
                Math.round(hotAtomics * f), mix.scaled(f), Math.round(globalLines * f));
    }

    /** The sum of two workers' counters; the hot atomics are set once all are summed ({@link #withHotAtomics}). */
    KernelCounters plus(KernelCounters o) {
        return new KernelCounters(ctas + o.ctas, warps + o.warps, warpInstructions + o.warpInstructions,
                threadInstructions + o.threadInstructions, globalSectors + o.globalSectors,
                sharedAccesses + o.sharedAccesses, atomics + o.atomics, barriers + o.barriers,
                sharedWavefronts + o.sharedWavefronts, hotAtomics + o.hotAtomics, mix.plus(o.mix),
                globalLines + o.globalLines);
    }

    KernelCounters withHotAtomics(long n) {
        return new KernelCounters(ctas, warps, warpInstructions, threadInstructions, globalSectors, sharedAccesses,
                atomics, barriers, sharedWavefronts, n, mix, globalLines);
    }
}
