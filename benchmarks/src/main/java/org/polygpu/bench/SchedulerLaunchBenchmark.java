package org.polygpu.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.polygpu.sched.Computation;

/**
 * The scheduler's own cost per kernel launch, on a {@link org.polygpu.backend.testing.NoWorkBackend} of 8 devices
 * with {@code minmax-transfer-time} (or the {@link #policy} given) and the {@code v100x8} matrix (the launch stream of {@link LaunchWorkload}), with
 * the backend completing work at once ({@code inFlight=0}) or {@code inFlight} events behind.
 *
 * <ul>
 *   <li>{@link #launch}: steady state. One context per trial, {@link #preissued} launches issued before
 *       measuring, then every invocation is one more launch; reported as average and sampled time per launch.
 *       The count keeps growing during the run, by millions of launches.</li>
 *   <li>{@link #launchAfterPreissued}: the cost at a fixed history length. Every iteration builds a fresh
 *       context, issues {@link #preissued} launches, collects garbage, then times the next
 *       {@value #BATCH} launches; the score is per launch. Comparing {@code preissued=1000} with
 *       {@code 1000000} shows whether the cost grows with the number of launches issued.</li>
 * </ul>
 *
 * <p>The fork pre-touches a fixed 1 GiB heap: without it, the first write to each fresh heap page after the young
 * generation grows costs a page fault (about 11 µs on the 2-core machine of the README, one per ~6 launches),
 * which measures the operating system rather than the scheduler.
 *
 * <p>JMH needs benchmark and state classes public and not final.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class SchedulerLaunchBenchmark {
    /** Launches timed per iteration of {@link #launchAfterPreissued}. */
    static final int BATCH = 10_000;

    /** Launches issued on the context before measuring. */
    @Param({"1000", "1000000"})
    public int preissued;

    /** The backend's in-flight window: 0 completes every launch at once, 32 keeps work and dependencies live. */
    @Param({"0", "32"})
    public int inFlight;

    /** The device-selection policy; {@code -p policy=a,b} compares policies in one run. */
    @Param({"minmax-transfer-time"})
    public String policy;

    private static int preissued(BenchmarkParams params) {
        return Integer.parseInt(params.getParam("preissued"));
    }

    private static LaunchWorkload workload(BenchmarkParams params) {
        return new LaunchWorkload(Integer.parseInt(params.getParam("inFlight")), params.getParam("policy"));
    }

    /** One context for the whole trial, {@code preissued} launches issued first. */
    @State(Scope.Thread)
    public static class Steady {
        LaunchWorkload workload;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            workload = workload(params);
            for (int i = preissued(params); i > 0; i--) {
                workload.launchNext();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            workload.close();
        }
    }

    /**
     * A fresh context per iteration with exactly {@code preissued} launches issued, and the heap collected. The
     * trial starts with {@value #WARM_UP_CONTEXTS} short contexts of {@value #WARM_UP_LAUNCHES} launches, so the
     * code is compiled for both a context's start and its steady state before the first timed batch (a few
     * single-shot warm-up iterations alone leave it still compiling).
     */
    @State(Scope.Thread)
    public static class Fresh {
        static final int WARM_UP_CONTEXTS = 40;
        static final int WARM_UP_LAUNCHES = 50_000;

        LaunchWorkload workload;

        @Setup(Level.Trial)
        public void warmUp(BenchmarkParams params) {
            for (int c = 0; c < WARM_UP_CONTEXTS; c++) {
                try (LaunchWorkload w = workload(params)) {
                    for (int i = 0; i < WARM_UP_LAUNCHES; i++) {
                        w.launchNext();
                    }
                }
            }
        }

        @Setup(Level.Iteration)
        public void setUp(BenchmarkParams params) {
            workload = workload(params);
            for (int i = preissued(params); i > 0; i--) {
                workload.launchNext();
            }
            System.gc();
        }

        @TearDown(Level.Iteration)
        public void tearDown() {
            workload.close();
        }
    }

    /** One launch on a context that has issued {@link #preissued} launches and more since. */
    @Benchmark
    @BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    public Computation launch(Steady steady) {
        return steady.workload.launchNext();
    }

    /** {@value #BATCH} launches right after {@link #preissued} ones on a fresh context; scored per launch. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 10)
    @Measurement(iterations = 10)
    public void launchAfterPreissued(Fresh fresh, Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            bh.consume(fresh.workload.launchNext());
        }
    }
}
