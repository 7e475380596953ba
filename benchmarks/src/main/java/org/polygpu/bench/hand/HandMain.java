package org.polygpu.bench.hand;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.polygpu.bench.programs.Verdict;

/** The command line of the hand-optimized baselines and the verdicts they print, with the makespan. */
final class HandMain {
    private HandMain() {
    }

    /**
     * Arguments: [--sampled] [--no-validate] [--device-model=V100] [size] [partitions=16] [gpus=4] [topology=v100x8]
     * [iterations, CG only]; prints the verdict and the run's totals, exits 0 on OK, 1 on FAIL, 2 on bad arguments.
     */
    static void run(String benchmark, String[] args) {
        List<String> positional = new ArrayList<>(List.of(args));
        boolean sampled = positional.remove("--sampled");
        boolean validate = !positional.remove("--no-validate");
        String model = HandRun.DEFAULT_DEVICE_MODEL;
        for (String a : List.copyOf(positional)) {
            if (a.startsWith("--device-model=")) {
                model = a.substring("--device-model=".length());
                positional.remove(a);
            }
        }
        HandRun run;
        try {
            int size = positional.size() > 0 ? Integer.parseInt(positional.get(0))
                    : HandBaselines.defaultSize(benchmark);
            int partitions = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 16;
            int gpus = positional.size() > 2 ? Integer.parseInt(positional.get(2)) : 4;
            String topology = positional.size() > 3 ? positional.get(3) : "v100x8";
            run = HandRun.of(benchmark, size, partitions, gpus, topology).withDeviceModel(model);
            if (positional.size() > 4) {
                run = run.withIterations(Integer.parseInt(positional.get(4)));
            }
            run = sampled ? run.sampled() : validate ? run : run.withoutValidation();
        } catch (IllegalArgumentException e) {
            usage(e);
            return;
        }
        HandResult r;
        try {
            r = HandBaselines.run(run);
        } catch (IllegalArgumentException e) {
            usage(e);
            return;
        }
        System.out.println(r.verdict().line());
        System.out.printf(Locale.ROOT, "makespan %.1f us, bytes h2d %d d2d %d d2h %d, kernel time %.1f us in %d "
                + "kernels, critical path %.1f us%n", r.makespanMicros(), r.bytesHostToDevice(),
                r.bytesDeviceToDevice(), r.bytesDeviceToHost(), r.kernelMicros(), r.kernels(),
                r.criticalPathMicros());
        System.exit(r.verdict().ok() ? 0 : 1);
    }

    private static void usage(IllegalArgumentException e) {
        System.err.println(e.getMessage());
        System.err.println("usage: [--sampled] [--no-validate] [--device-model=V100|A100|H100] "
                + "[size >= partitions] [partitions >= 1] [gpus >= 1] [topology] [iterations (cg)]");
        System.exit(2);
    }

    /** The verdict of a hand-optimized run, its makespan (first operation to last) in the detail. */
    static Verdict verdict(HandRun run, HandSetup setup, boolean ok, String detail) {
        setup.backend.synchronizeAll();
        String makespan = setup.makespanMicros().map(us -> String.format(Locale.ROOT, ", makespan %.1f us", us))
                .orElse("");
        return new Verdict(run.benchmark() + " (hand-optimized)", run.size(), run.partitions(), setup.gpus(), ok,
                detail + makespan);
    }

    /** The verdict of a run without validation: OK, saying that nothing was checked. */
    static Verdict unchecked(HandRun run, HandSetup setup) {
        return verdict(run, setup, true, "not validated, results left on the GPUs");
    }
}
