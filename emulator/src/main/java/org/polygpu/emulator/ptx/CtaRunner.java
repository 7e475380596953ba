package org.polygpu.emulator.ptx;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.polygpu.backend.BackendException;

/**
 * A worker of a launch: takes CTAs from the {@link LaunchState} and runs each to completion. The warps of a CTA run
 * round-robin, each for up to {@link #QUANTUM} instructions at a time: as on a GPU, whose warps issue in turn, every
 * warp makes progress (warps spinning on each other too), and what all warps do right after a barrier happens before
 * what any warp does much later (code that reads a shared slot after a barrier and rewrites it further on without
 * another barrier works as on the hardware); when no warp can run and some lanes wait at a barrier, the barrier
 * completes (lanes that exited count as arrived). Shared and local memory start zeroed for every CTA, which keeps uninitialised reads deterministic.
 *
 * <p>Owned by one thread.
 */
final class CtaRunner {
    private static final long QUANTUM = 32;
    /** Thread-instructions counted locally before they are charged to the launch's budget. */
    private static final long CHARGE_BATCH = 1 << 16;

    private final LaunchState state;
    private final Warp[] warps;
    private final long[] ctaTemplate;
    private final MemoryContext memory;
    private final Interpreter interpreter;
    private long ctasRun;
    private long uncharged;
    /** Per address, the global atomics of this worker's CTAs on their first atomic's address. */
    private final Map<Long, Long> hotAtomics = new HashMap<>();

    /** A worker of {@code state} whose warps and memories come from {@code buffers}. */
    CtaRunner(LaunchState state, WorkerBuffers buffers) {
        this.state = state;
        KernelProgram p = state.program;
        this.warps = buffers.warps(state.warpsPerCta, p.registers(), p.maxCallDepth());
        this.ctaTemplate = buffers.template(state.template.length);
        System.arraycopy(state.template, 0, ctaTemplate, 0, state.template.length);
        this.memory = new MemoryContext(state.launch.memory(), buffers.params(state.params));
        memory.shared = buffers.shared((state.sharedBytes + 7) / 8 * 8);
        memory.sharedBytes = state.sharedBytes;
        long localBytes = p.kernel().localBytes();
        memory.local = buffers.local((localBytes * warps.length * 32 + 7) / 8 * 8);
        memory.localBytes = localBytes;
        this.interpreter = new Interpreter(p, memory);
        memory.sharedDegree = new int[p.code().length / Op.WIDTH];
    }

    /** Runs CTAs until none is left; a failing CTA is recorded in the launch state. */
    void work() {
        try {
            runCtas();
        } finally {
            memory.flushTouches();
        }
    }

    private void runCtas() {
        for (long cta = state.takeCta(); cta >= 0; cta = state.takeCta()) {
            try {
                run(cta);
                state.completed();
            } catch (BackendException e) {
                state.fail(cta, e);
            } finally {
                if (!interpreter.calls.output.isEmpty()) {
                    state.printed(cta, interpreter.calls.output.toString());
                    interpreter.calls.output.setLength(0);
                }
            }
        }
    }

    /** What this worker's CTAs did (but for the hot atomics, which {@link #hotAtomics} gives per address). */
    KernelCounters counters(InstructionClasses classes) {
        return new KernelCounters(ctasRun, ctasRun * state.warpsPerCta, interpreter.warpInstructions,
                interpreter.threadInstructions, memory.globalSectors, memory.sharedAccesses, memory.atomics,
                interpreter.barriers, memory.sharedWavefronts, 0, classes.mix(interpreter.executions()),
                memory.globalLines);
    }

    /** Per address, the global atomics on it of the CTAs whose first global atomic it was. */
    Map<Long, Long> hotAtomics() {
        return hotAtomics;
    }

    private void run(long cta) {
        ctasRun++;
        start(cta);
        while (true) {
            boolean ran = false;
            for (Warp w : warps) {
                if (w.active != 0) {
                    ran = true;
                    step(cta, w);
                }
            }
            if (!ran) {
                boolean waiting = false;
                for (Warp w : warps) {
                    if (w.blocked != 0) {
                        waiting = true;
                        interpreter.completeBarrier(w);
                        w.release();
                    }
                }
                interpreter.resetBarrier();
                if (!waiting) {
                    charge(cta, warps[0]);
                    if (memory.hotAddress >= 0) {
                        hotAtomics.merge(memory.hotAddress, memory.hotCount, Long::sum);
                    }
                    return;
                }
            }
        }
    }

    private void step(long cta, Warp w) {
        memory.localBase = (long) w.index * 32 * memory.localBytes;
        long before = interpreter.threadInstructions;
        try {
            interpreter.run(w, QUANTUM);
        } catch (MemoryFault f) {
            throw state.memcheck(f, cta, w);
        } catch (RuntimeException e) {
            throw new BackendException("kernel '" + state.kernelName() + "' failed in block " + state.blockOf(cta)
                    + " warp " + w.index + " near " + state.program.where(w.pc) + ": " + e, e);
        }
        uncharged += interpreter.threadInstructions - before;
        if (uncharged >= CHARGE_BATCH) {
            charge(cta, w);
        }
    }

    private void charge(long cta, Warp w) {
        long n = uncharged;
        uncharged = 0;
        if (!state.charge(n)) {
            throw state.budgetExceeded(cta, w);
        }
    }

    private void start(long cta) {
        long gx = state.grid.x();
        long gy = state.grid.y();
        fill(Specials.CTAID_X, cta % gx);
        fill(Specials.CTAID_Y, (cta / gx) % gy);
        fill(Specials.CTAID_Z, cta / (gx * gy));
        fill(Specials.SMID, cta % state.launch.multiprocessors());
        interpreter.resetBarrier();
        memory.hotAddress = -1;
        memory.hotCount = 0;
        Arrays.fill(memory.sharedDegree, 0);
        memory.shared.fill((byte) 0);
        memory.local.fill((byte) 0);
        int bx = state.block.x();
        int by = state.block.y();
        int x = 0;
        int y = 0;
        int z = 0;
        for (int i = 0; i < warps.length; i++) {
            Warp w = warps[i];
            w.start(ctaTemplate, state.template.length, i, Math.min(32, state.threads - i * 32));
            long[] r = w.regs;
            for (int lane = 0; lane < 32; lane++) {
                r[Specials.TID_X * 32 + lane] = x;
                r[Specials.TID_Y * 32 + lane] = y;
                r[Specials.TID_Z * 32 + lane] = z;
                r[Specials.WARPID * 32 + lane] = i;
                if (++x == bx) { // thread i * 32 + lane + 1 in x-fastest order, without a division per thread
                    x = 0;
                    if (++y == by) {
                        y = 0;
                        z++;
                    }
                }
            }
        }
    }

    private void fill(int special, long value) {
        Arrays.fill(ctaTemplate, special * 32, special * 32 + 32, value);
    }
}
