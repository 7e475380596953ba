package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.bench.programs.BlackScholes;
import org.polygpu.bench.programs.ConjugateGradient;
import org.polygpu.bench.programs.MatrixVector;
import org.polygpu.bench.programs.MlEnsemble;
import org.polygpu.bench.programs.PolygpuProgram;
import org.polygpu.bench.programs.Vec;

/**
 * {@code EmulatedExecution=sampled} on the paper's benchmarks (the Java programs, not validated): the same virtual
 * makespan as {@code full} within 5%, and every kernel on the same GPU. The sizes are the smallest at which the
 * launches that carry the work have grids of more than the 8 sampled blocks (VEC, B&S and ML: 64-block grids; CG
 * and MUL: 9-block matvecs on one 2304-row partition, kept to one so that the matrix stays at 21 MB), so that
 * sampling really happens.
 */
class SampledBenchmarksTest {
    private static final Pattern KERNEL = Pattern.compile("\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":[0-9.]+,"
            + "\"dur\":[0-9.]+,\"pid\":(\\d+),\"tid\":\\d+,\"args\":\\{\"computation\":(\\d+)");

    /** One benchmark at a size where sampling applies. */
    record Benchmark(String name, Function<Context, PolygpuProgram> program, int size, int partitions) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** What a run left on the timeline. */
    record Run(double makespanMicros, Map<Integer, Integer> deviceOfComputation) {
    }

    static List<Benchmark> benchmarks() {
        return List.of(
                new Benchmark("vec", Vec::new, 4 * 16384, 4),
                new Benchmark("bs", BlackScholes::new, 4 * 16384, 4),
                new Benchmark("ml", MlEnsemble::new, 4 * 4096, 4),
                new Benchmark("cg", c -> new ConjugateGradient(c, 1), 2304, 1),
                new Benchmark("mul", MatrixVector::new, 2304, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("benchmarks")
    void sampledGivesTheFullMakespanWithinFivePercentAndTheSamePlacement(Benchmark b, @TempDir Path dir)
            throws Exception {
        Polyglot.assumeNvrtc();
        Run full = run(b, "full", dir.resolve("full.json"));
        Run sampled = run(b, "sampled", dir.resolve("sampled.json"));
        assertFalse(full.deviceOfComputation().isEmpty());
        assertEquals(full.deviceOfComputation(), sampled.deviceOfComputation(), "placement");
        double ratio = sampled.makespanMicros() / full.makespanMicros();
        assertTrue(Math.abs(ratio - 1) <= 0.05, b + ": sampled " + sampled.makespanMicros() + " us, full "
                + full.makespanMicros() + " us");
    }

    @Test
    void readingASampledResultFromTheHostFailsSayingWhy() {
        Polyglot.assumeNvrtc();
        try (Context c = Polyglot.context(Map.of("EmulatedDevices", "2", "EmulatedExecution", "sampled"))) {
            PolyglotException e = assertThrows(PolyglotException.class, () -> new Vec(c).run(4 * 16384, 4));
            assertTrue(e.getMessage().contains("EmulatedExecution=sampled"), e.getMessage());
            assertTrue(e.getMessage().contains("not computed"), e.getMessage());
        }
    }

    private static Run run(Benchmark b, String execution, Path trace) throws Exception {
        try (Context c = Polyglot.context(Map.of("EmulatedDevices", "2", "EmulatedExecution", execution,
                "EnableComputationTimers", "true", "ExportTrace", trace.toString()))) {
            b.program().apply(c).withoutValidation().run(b.size(), b.partitions());
        }
        double first = Double.POSITIVE_INFINITY;
        double last = 0;
        for (TraceEvents.Event e : TraceEvents.read(trace)) {
            first = Math.min(first, e.start());
            last = Math.max(last, e.end());
        }
        Map<Integer, Integer> devices = new TreeMap<>();
        Matcher m = KERNEL.matcher(Files.readString(trace));
        while (m.find()) {
            devices.put(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(1)));
        }
        return new Run(last - first, devices);
    }
}
