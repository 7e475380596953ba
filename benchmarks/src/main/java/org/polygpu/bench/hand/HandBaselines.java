package org.polygpu.bench.hand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.polygpu.backend.TimedOperation;
import org.polygpu.bench.programs.Verdict;

/**
 * The hand-optimized baselines by benchmark name, the names of the polygpu programs ({@code vec}, {@code bs},
 * {@code ml}, {@code cg}, {@code mul}), and the one way to run them: {@link #run(HandRun)}.
 */
public final class HandBaselines {
    /** One baseline: issues its copies and launches through {@code setup} and returns its verdict. */
    interface Baseline {
        Verdict run(HandRun run, HandSetup setup);
    }

    /** A baseline and the size its command line uses when given none (the polygpu program's default). */
    private record Entry(Baseline baseline, int defaultSize) {
    }

    private static final Map<String, Entry> BASELINES = registry();

    private HandBaselines() {
    }

    private static Map<String, Entry> registry() {
        Map<String, Entry> m = new LinkedHashMap<>();
        m.put("vec", new Entry(HandVec::run, 100_000));
        m.put("bs", new Entry(HandBlackScholes::run, 100_000));
        m.put("ml", new Entry(HandMlEnsemble::run, 20_000));
        m.put("cg", new Entry(HandConjugateGradient::run, 2000));
        m.put("mul", new Entry(HandMatrixVector::run, 2000));
        return m;
    }

    /** The benchmarks that have a baseline, in the paper's order. */
    public static List<String> names() {
        return List.copyOf(BASELINES.keySet());
    }

    /** The default size of {@code benchmark}, as its polygpu program's. */
    public static int defaultSize(String benchmark) {
        return entry(benchmark).defaultSize();
    }

    /**
     * Runs {@code run} on a fresh emulated backend and adds up its timeline. With {@link HandRun#validate()} the
     * results are copied back and checked; without, nothing is copied back.
     *
     * @throws IllegalArgumentException naming the option when the emulator refuses the run's topology, GPU count
     *                                  (more than the topology has) or device model
     * @throws org.polygpu.backend.BackendException when a device runs out of memory
     */
    public static HandResult run(HandRun run) {
        Baseline baseline = entry(run.benchmark()).baseline();
        try (HandSetup setup = new HandSetup(run)) {
            Verdict verdict = baseline.run(run, setup);
            setup.backend.synchronizeAll();
            List<TimedOperation> timeline = setup.backend.timeline();
            return HandResult.of(run, verdict, TimelineTotals.of(timeline), setup.criticalPathMicros(timeline));
        }
    }

    private static Entry entry(String benchmark) {
        Entry e = BASELINES.get(benchmark);
        if (e == null) {
            throw new IllegalArgumentException("benchmark must be one of " + names() + ", got " + benchmark);
        }
        return e;
    }
}
