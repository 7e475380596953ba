package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.Dim3;

/**
 * One launch as its workers share it: the register template with launch-wide values filled in, the parameter
 * buffer, the CTA dispenser, the instruction budget, and the first failure.
 *
 * <p>Failures are deterministic for race-free kernels: CTAs are handed out in increasing order, and once CTA k fails
 * no CTA after k starts, while those before it (already started) finish; the failure of the lowest CTA is reported.
 *
 * <p>Thread-safe.
 */
final class LaunchState {
    final KernelProgram program;
    final PtxLaunch launch;
    final long[] template;
    final MemorySegment params;
    final Dim3 grid;
    final Dim3 block;
    final long ctas;
    /** CTAs that run: all of them, or an evenly spread sample ({@link #ctaAt}). */
    final long sampled;
    final int threads;
    final int warpsPerCta;
    final long sharedBytes;
    private final AtomicLong next = new AtomicLong();
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private volatile long stopAt = Long.MAX_VALUE;
    private long failedCta = Long.MAX_VALUE;
    private BackendException failure;
    private final Map<Long, String> printed = new TreeMap<>();

    /** The launch, of which at most {@code sampleCtas} CTAs run. */
    LaunchState(KernelProgram program, PtxLaunch launch, long sampleCtas) {
        this.program = program;
        this.launch = launch;
        this.grid = launch.config().grid();
        this.block = launch.config().block();
        this.ctas = grid.count();
        this.sampled = Math.min(ctas, sampleCtas);
        this.threads = (int) block.count();
        this.warpsPerCta = (threads + 31) / 32;
        this.sharedBytes = program.dynamicSharedOffset() + (long) launch.config().sharedMemoryBytes();
        this.params = MemorySegment.ofArray(launch.params().clone());
        this.template = program.template().clone();
        fill(Specials.NTID_X, block.x());
        fill(Specials.NTID_Y, block.y());
        fill(Specials.NTID_Z, block.z());
        fill(Specials.NCTAID_X, grid.x());
        fill(Specials.NCTAID_Y, grid.y());
        fill(Specials.NCTAID_Z, grid.z());
        fill(Specials.NWARPID, warpsPerCta);
        fill(Specials.NSMID, launch.multiprocessors());
        fill(Specials.DYNAMIC_SMEM_SIZE, launch.config().sharedMemoryBytes());
        fill(Specials.TOTAL_SMEM_SIZE, sharedBytes);
        fill(Specials.ENVREG, 0); // no cooperative launch: no grid workspace
        for (KernelProgram.GlobalSymbol s : program.globalSymbols()) {
            Long address = launch.variables().get(s.variable());
            if (address == null) {
                throw new BackendException("kernel '" + program.kernel().name() + "' uses module variable '"
                        + s.variable() + "', which was not allocated on the device");
            }
            Arrays.fill(template, s.register() * 32, s.register() * 32 + 32, address + s.offset());
        }
    }

    private void fill(int special, long value) {
        Arrays.fill(template, special * 32, special * 32 + 32, value);
    }

    String kernelName() {
        return program.kernel().name();
    }

    /** The next CTA to run, in increasing order, or -1 when none is left or the launch failed. */
    long takeCta() {
        long i = next.getAndIncrement();
        if (i >= sampled) {
            return -1;
        }
        long cta = ctaAt(i);
        return cta < stopAt ? cta : -1;
    }

    /**
     * The {@code i}-th CTA that runs: {@code i} itself when all run, otherwise the middle CTA of the {@code i}-th of
     * {@link #sampled} equal stretches of the grid, so that the sample covers the grid evenly and always the same.
     */
    long ctaAt(long i) {
        return sampled == ctas ? i : Math.min(ctas - 1, (long) ((i + 0.5) * ctas / sampled));
    }

    /** Adds thread-instructions to the launch; false once the budget is exhausted. */
    boolean charge(long threadInstructions) {
        return used.addAndGet(threadInstructions) <= launch.instructionBudget();
    }

    /** Counts a CTA that ran to its end, which tells a launch too large for the budget from an endless one. */
    void completed() {
        completed.incrementAndGet();
    }

    synchronized void fail(long cta, BackendException e) {
        if (cta < failedCta) {
            failedCta = cta;
            failure = e;
            stopAt = cta + 1;
        }
    }

    /** Keeps what CTA {@code cta} printed. */
    synchronized void printed(long cta, String text) {
        printed.put(cta, text);
    }

    /** What the CTAs printed, in CTA order, so that the output does not depend on how the workers interleaved. */
    synchronized String output() {
        return String.join("", printed.values());
    }

    synchronized BackendException failure() {
        return failure;
    }

    /** Block coordinates of CTA {@code cta}, e.g. {@code (1, 0, 0)}. */
    String blockOf(long cta) {
        return "(" + cta % grid.x() + ", " + (cta / grid.x()) % grid.y() + ", " + cta / ((long) grid.x() * grid.y())
                + ")";
    }

    /** Thread coordinates of thread {@code thread} of a CTA. */
    String threadOf(int thread) {
        return "(" + thread % block.x() + ", " + (thread / block.x()) % block.y() + ", "
                + thread / (block.x() * block.y()) + ")";
    }

    BackendException memcheck(MemoryFault f, long cta, Warp w) {
        return new BackendException(f.kind + ": kernel '" + kernelName() + "' block " + blockOf(cta) + " thread "
                + threadOf(w.index * 32 + f.lane) + ": " + f.getMessage() + " (" + program.where(Math.max(f.pc, 0))
                + ")");
    }

    /**
     * The budget ran out in CTA {@code cta}. When no CTA completed, the kernel may never terminate; when some did,
     * the launch is more likely too large for the budget, and the message says what the whole grid would need.
     */
    BackendException budgetExceeded(long cta, Warp w) {
        long done = completed.get();
        String why;
        if (done == 0) {
            why = "it may never terminate (an endless loop, or a spin-wait on data nothing changes)";
        } else {
            long perCta = Math.max(1, used.get() / done);
            String need = perCta > Long.MAX_VALUE / ctas ? "more than 2^63" : "about " + perCta * ctas;
            why = "the launch is likely too large rather than endless: " + done + " of its " + ctas
                    + " blocks completed, at about " + perCta + " thread-instructions each, so the grid needs " + need
                    + " (use a smaller grid, or a larger budget)";
        }
        return new BackendException("kernel '" + kernelName() + "' exceeded its instruction budget of "
                + launch.instructionBudget() + " thread-instructions and was stopped; " + why + ". Block "
                + blockOf(cta) + " warp " + w.index + " was at " + program.where(w.pc));
    }
}
