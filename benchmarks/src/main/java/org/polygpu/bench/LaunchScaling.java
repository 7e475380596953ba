package org.polygpu.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;

/**
 * A benchmark program checking that the scheduler's cost per launch stays flat and its memory bounded over a
 * million launches: it issues the {@link LaunchWorkload} stream on a
 * {@link org.polygpu.backend.testing.NoWorkBackend}, times every launch with {@link System#nanoTime()}, and prints
 * one row per decade of launches (up to 10^3, 10^4, 10^5, 10^6): median, p90, p99 and mean nanoseconds per launch,
 * the largest and the final number of live DAG vertices in the window, and the heap used after a collection at the
 * window's end. It runs once per in-flight window given.
 *
 * <p>Warm-up first runs the same stream for a few seconds on short-lived contexts of {@value #WARM_UP_CONTEXT}
 * launches each, so the measured context starts with compiled code whose profile covers both a context's start
 * (fresh arrays, new streams) and its steady state; warming up on one long context instead leaves code that
 * deoptimizes when the next context starts. Timings include one {@code nanoTime} call (its cost is printed).
 * Run it with a fixed, pre-touched heap ({@code -Xms1g -Xmx1g -XX:+AlwaysPreTouch}), or the page faults of a
 * growing heap show up as launch time.
 * Usage: {@code LaunchScaling [launches [inFlight,inFlight,... [warm-up seconds]]]}, by default
 * {@code 1000000 0,32 5}.
 */
public final class LaunchScaling {
    private static final PrintStream OUT = System.out;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    /** Launches per warm-up context. */
    private static final int WARM_UP_CONTEXT = 50_000;

    private LaunchScaling() {
    }

    public static void main(String[] args) {
        int launches = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int[] windows = Arrays.stream((args.length > 1 ? args[1] : "0,32").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        OUT.printf("LaunchScaling: %d launches after %d s of warm-up on other contexts; %d devices, %d"
                + " arrays of %d floats in %d groups, minmax-transfer-time, v100x8%n", launches, warmUp,
                LaunchWorkload.DEVICES, LaunchWorkload.ARRAYS, LaunchWorkload.ELEMENTS, LaunchWorkload.GROUPS);
        OUT.printf("java %s (%s), %d processors, max heap %.0f MiB%n", System.getProperty("java.version"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                mib(Runtime.getRuntime().maxMemory()));
        for (int inFlight : windows) {
            run(launches, inFlight, warmUp);
        }
    }

    private static void run(int launches, int inFlight, int warmUpSeconds) {
        OUT.printf("%nin-flight window %d%n", inFlight);
        long until = System.nanoTime() + warmUpSeconds * 1_000_000_000L;
        long warmUpLaunches = 0;
        while (System.nanoTime() < until) {
            try (LaunchWorkload w = new LaunchWorkload(inFlight)) {
                for (int i = 0; i < WARM_UP_CONTEXT; i++) {
                    w.launchNext();
                }
                warmUpLaunches += w.issued();
            }
        }
        OUT.printf("warm-up: %d launches on %d contexts%n", warmUpLaunches, warmUpLaunches / WARM_UP_CONTEXT);
        OUT.printf("nanoTime cost: %d ns (median of back-to-back calls)%n", nanoTimeCost());
        System.gc();
        OUT.printf("heap used before the measured context: %.1f MiB%n", mib(MEMORY.getHeapMemoryUsage().getUsed()));
        OUT.printf("%-20s %8s %8s %8s %8s %8s %9s %7s %8s%n", "launches", "count", "median", "p90", "p99",
                "mean", "maxLiveV", "liveV", "heapMiB");
        long[] nanos = new long[launches];
        try (LaunchWorkload w = new LaunchWorkload(inFlight)) {
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
                long heap = MEMORY.getHeapMemoryUsage().getUsed();
                long[] window = Arrays.copyOfRange(nanos, from, to);
                row("(" + from + ", " + to + "]", window);
                OUT.printf(" %9d %7d %8.1f%n", maxLive, live, mib(heap));
                from = to;
            }
            row("all", nanos.clone());
            OUT.println();
            OUT.printf("backend: %d launches, %d copies; %d streams; live DAG %d vertices, %d edges; %d arrays"
                    + " tracked%n", w.backend().launchCount(), w.backend().copyCount(), w.streamCount(),
                    w.dag().vertexCount(), w.dag().edgeCount(), w.dag().trackedArrayCount());
        }
    }

    private static void row(String label, long[] window) {
        Arrays.sort(window);
        OUT.printf("%-20s %8d %8d %8d %8d %8.0f", label, window.length, percentile(window, 0.5),
                percentile(window, 0.9), percentile(window, 0.99), Arrays.stream(window).average().orElse(0));
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
