package org.polygpu.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;

/**
 * A benchmark program checking that the scheduler's cost per launch stays flat and its memory bounded over a
 * million launches: it issues the {@link LaunchWorkload} stream on a {@link NoWorkBackend}, times every launch with
 * {@link System#nanoTime()}, and prints one row per decade of launches (up to 10^3, 10^4, 10^5, 10^6): median, p90,
 * p99 and mean nanoseconds per launch, the largest and the final number of live DAG vertices in the window, and the
 * heap used after a collection at the window's end.
 *
 * <p>A separate context first runs a warm-up stream so that the measured one starts with compiled code; timings
 * include one {@code nanoTime} call (its cost is printed). Usage: {@code LaunchScaling [launches [warm-up]]}.
 */
public final class LaunchScaling {
    private LaunchScaling() {
    }

    public static void main(String[] args) {
        int launches = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        PrintStream out = System.out;
        out.printf("LaunchScaling: %d launches (after %d warm-up launches on another context), %d devices,"
                + " %d arrays of %d floats, minmax-transfer-time, v100x8%n", launches, warmUp,
                LaunchWorkload.DEVICES, LaunchWorkload.ARRAYS, LaunchWorkload.ELEMENTS);
        out.printf("java %s (%s), %d processors%n", System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors());
        try (LaunchWorkload w = new LaunchWorkload()) {
            for (int i = 0; i < warmUp; i++) {
                w.launchNext();
            }
        }
        out.printf("nanoTime cost: %d ns (median of back-to-back calls)%n", nanoTimeCost());
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        out.printf("heap used before the measured context: %.1f MiB%n", mib(memory.getHeapMemoryUsage().getUsed()));
        out.printf("%-22s %10s %9s %9s %9s %9s %10s %10s %12s%n", "launches", "count", "median", "p90", "p99",
                "mean", "maxLiveV", "liveV", "heapMiB");
        long[] nanos = new long[launches];
        try (LaunchWorkload w = new LaunchWorkload()) {
            int from = 0;
            for (int end = 1000; from < launches; end = (int) Math.min((long) end * 10, launches)) {
                int to = Math.min(end, launches);
                int maxLive = 0;
                for (int i = from; i < to; i++) {
                    long t0 = System.nanoTime();
                    w.launchNext();
                    nanos[i] = System.nanoTime() - t0;
                    maxLive = Math.max(maxLive, w.dag().vertexCount());
                }
                int live = w.dag().vertexCount();
                System.gc();
                long heap = memory.getHeapMemoryUsage().getUsed();
                long[] window = Arrays.copyOfRange(nanos, from, to);
                Arrays.sort(window);
                out.printf("%-22s %10d %9d %9d %9d %9.0f %10d %10d %12.1f%n", "(" + from + ", " + to + "]",
                        window.length, percentile(window, 0.5), percentile(window, 0.9), percentile(window, 0.99),
                        Arrays.stream(window).average().orElse(0), maxLive, live, mib(heap));
                from = to;
            }
            long[] all = nanos.clone();
            Arrays.sort(all);
            out.printf("%-22s %10d %9d %9d %9d %9.0f%n", "all", all.length, percentile(all, 0.5),
                    percentile(all, 0.9), percentile(all, 0.99), Arrays.stream(all).average().orElse(0));
            out.printf("backend saw %d launches and %d copies; the DAG tracks %d arrays%n",
                    w.backend().launchCount(), w.backend().copyCount(), w.dag().trackedArrayCount());
        }
    }

    private static long percentile(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
    }

    private static long nanoTimeCost() {
        long[] d = new long[100_001];
        for (int i = 0; i < d.length; i++) {
            long t0 = System.nanoTime();
            d[i] = System.nanoTime() - t0;
        }
        Arrays.sort(d);
        return d[d.length / 2];
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
