package org.polygpu.bench.hand;

import java.util.Locale;

import org.polygpu.bench.programs.Verdict;

/** The command line of the hand-optimized baselines and the verdict they print, with the makespan. */
final class HandMain {
    /** One baseline: size, partitions, GPUs, topology to its verdict. */
    interface Baseline {
        Verdict run(int size, int partitions, int gpus, String topology);
    }

    private HandMain() {
    }

    /** Arguments: [size] [partitions=16] [gpus=4] [topology=v100x8]; exits 0 on OK, 1 on FAIL. */
    static void run(String[] args, int defaultSize, Baseline baseline) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : defaultSize;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int gpus = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        String topology = args.length > 3 ? args[3] : "v100x8";
        if (partitions < 1 || size < partitions || gpus < 1) {
            System.err.println("usage: [size >= partitions] [partitions >= 1] [gpus >= 1] [topology]");
            System.exit(2);
        }
        Verdict v = baseline.run(size, partitions, gpus, topology);
        System.out.println(v.line());
        System.exit(v.ok() ? 0 : 1);
    }

    /** The verdict of a hand-optimized run, its makespan (first operation to last) in the detail. */
    static Verdict verdict(String name, int size, int partitions, HandSetup setup, boolean ok, String detail) {
        String makespan = setup.makespanMicros().map(us -> String.format(Locale.ROOT, ", makespan %.1f us", us))
                .orElse("");
        return new Verdict(name + " (hand-optimized)", size, partitions, setup.gpus(), ok, detail + makespan);
    }
}
