package org.polygpu.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Per-launch overhead of the {@code polygpu} language seen by a Java host through the polyglot API, next to the
 * scheduler's own cost for the same launches. A small kernel {@code touch(x: inout pointer float, n: sint32)} is
 * launched again and again on one 256-float array (each launch depends on the previous one), after a warm-up.
 *
 * <p>Kernel execution is excluded by running on the {@code no-work} backend ({@link NoWorkProvider}, registered
 * under {@code META-INF/services}; {@code --polygpu.Backend=no-work} when this module's classes are on the class
 * path): it schedules, but copies and launches do nothing. With {@code emulated} as first argument the same loop
 * runs on the emulator, whose PTX interpreter runs the (empty) kernel, for comparison.
 *
 * <p>Run with polygpu's class path and the JIT (see benchmarks/README.md):
 * {@code POLYGPU_JIT=1 POLYGPU_CLASSPATH=benchmarks/target/classes bin/polygpu --java
 * org.polygpu.bench.LanguageLaunchOverhead [no-work|emulated] [warm-up seconds] [rounds]}.
 */
public final class LanguageLaunchOverhead {
    static final String TOUCH = """
            extern "C" __global__ void touch(float *x, int n) {
                if (n < 0) x[0] = 1.0f;
            }
            """;
    static final String SIGNATURE = "touch(x: inout pointer float, n: sint32)";
    private static final int LAUNCHES_PER_ROUND = 100_000;

    private LanguageLaunchOverhead() {
    }

    public static void main(String[] args) {
        String backend = args.length > 0 ? args[0] : "no-work";
        double warmUpSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        System.out.printf(Locale.ROOT, "backend %s, %d launches per round, %d rounds after %.0f s warm-up%n", backend,
                LAUNCHES_PER_ROUND, rounds, warmUpSeconds);
        if (backend.equals("no-work")) {
            try (NoWorkBackend b = new NoWorkBackend(4);
                 ExecutionContext ctx = ExecutionContext.create(b, RuntimeConfig.defaults(),
                         BandwidthMatrixLoader.preset("v100x8"))) {
                Kernel k = ctx.kernel("touch", new ModuleImage.Ptx("// no code"), List.of(
                        Parameter.pointer("x", ElementType.FLOAT, Access.READ_WRITE),
                        Parameter.scalar("n", ElementType.INT)));
                DeviceArray x = ctx.newArray(ElementType.FLOAT, 256);
                LaunchConfig config = LaunchConfig.of(1, 32);
                report("scheduler only (ExecutionContext.launch)", measure(n -> {
                    for (int i = 0; i < n; i++) {
                        ctx.launch(k, config, x, 256);
                    }
                }, warmUpSeconds, rounds));
            }
        }
        try (Context context = Context.newBuilder("polygpu").allowAllAccess(true)
                .option("polygpu.Backend", backend).build()) {
            Value cu = context.eval("polygpu", "CU");
            Value touch = cu.getMember("buildkernel").execute(TOUCH, SIGNATURE);
            Value x = cu.invokeMember("DeviceArray", "float", 256);
            Value configured = touch.execute(1, 32);
            report("Java host: configured(x, n)", measure(n -> {
                for (int i = 0; i < n; i++) {
                    configured.execute(x, 256);
                }
            }, warmUpSeconds, rounds));
            report("Java host: kernel(1, 32)(x, n)", measure(n -> {
                for (int i = 0; i < n; i++) {
                    touch.execute(1, 32).execute(x, 256);
                }
            }, warmUpSeconds, rounds));
            cu.invokeMember("cudaDeviceSynchronize");
        }
    }

    /** Nanoseconds per launch of each round, after launching for {@code warmUpSeconds}. */
    static double[] measure(IntConsumer launches, double warmUpSeconds, int rounds) {
        long warmUpEnd = System.nanoTime() + (long) (warmUpSeconds * 1e9);
        while (System.nanoTime() < warmUpEnd) {
            launches.accept(LAUNCHES_PER_ROUND);
        }
        double[] perLaunch = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            launches.accept(LAUNCHES_PER_ROUND);
            perLaunch[r] = (System.nanoTime() - start) / (double) LAUNCHES_PER_ROUND;
        }
        return perLaunch;
    }

    static void report(String what, double[] perLaunch) {
        double[] sorted = perLaunch.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-42s median %7.0f ns  min %7.0f ns  max %7.0f ns per launch%n", what,
                sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
    }

    /**
     * {@code Backend=no-work}: a {@link NoWorkBackend} of 4 devices with the {@code v100x8} matrix, for measuring
     * launch overhead without kernel execution. Never chosen by {@code Backend=auto} (the emulator comes first).
     */
    public static final class NoWorkProvider implements BackendProvider {
        @Override
        public String name() {
            return "no-work";
        }

        @Override
        public Availability probe(BackendOptions options) {
            return new Availability(true, "the no-work backend runs everywhere");
        }

        @Override
        public int priority() {
            return 2000;
        }

        @Override
        public OpenedBackend open(BackendOptions options) {
            return new OpenedBackend(new NoWorkBackend(4), BandwidthMatrixLoader.preset("v100x8"), "v100x8", false,
                    "using the no-work backend (4 devices; nothing is executed)");
        }
    }
}
