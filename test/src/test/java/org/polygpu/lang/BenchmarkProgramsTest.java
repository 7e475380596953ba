package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.bench.programs.BlackScholes;
import org.polygpu.bench.programs.ConjugateGradient;
import org.polygpu.bench.programs.MatrixVector;
import org.polygpu.bench.programs.MlEnsemble;
import org.polygpu.bench.programs.PolygpuProgram;
import org.polygpu.bench.programs.Vec;
import org.polygpu.bench.programs.Verdict;
import org.polygpu.lang.launcher.Launcher;
import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * The paper's five benchmark programs (benchmarks/programs and org.polygpu.bench.programs) validate against their
 * CPU references in every host language they exist in, under every device-selection policy, on 1, 2 and 4
 * emulated GPUs, at sizes small enough for the interpreter (8 partitions, so that partitions outnumber GPUs).
 */
class BenchmarkProgramsTest {
    private static final Path PROGRAMS = Path.of("..", "benchmarks", "programs");
    private static final int PARTITIONS = 8;
    private static final int CG_ITERATIONS = 2;

    /** One benchmark: its program name, its Java class and the size the tests run it at. */
    private record Benchmark(String name, Function<Context, PolygpuProgram> java, int size, boolean inJavaScript) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Benchmark> BENCHMARKS = List.of(
            new Benchmark("vec", Vec::new, 256, true),
            new Benchmark("bs", BlackScholes::new, 128, true),
            new Benchmark("ml", MlEnsemble::new, 32, false),
            new Benchmark("cg", c -> new ConjugateGradient(c, CG_ITERATIONS), 32, false),
            new Benchmark("mul", MatrixVector::new, 32, false));

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (Benchmark b : BENCHMARKS) {
            for (String host : b.inJavaScript() ? List.of("python", "java", "js") : List.of("python", "java")) {
                for (String policy : DeviceSelectionPolicies.names()) {
                    for (int gpus : new int[] {1, 2, 4}) {
                        runs.add(Arguments.of(b, host, policy, gpus));
                    }
                }
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0} in {1}, {2}, {3} GPUs")
    @MethodSource("runs")
    void validatesAgainstItsCpuReference(Benchmark benchmark, String host, String policy, int gpus) throws Exception {
        Polyglot.assumeNvrtc();
        String line = host.equals("java") ? runJava(benchmark, policy, gpus) : runScript(benchmark, host, policy,
                gpus);
        Pattern verdict = Pattern.compile(benchmark.name() + " size=" + benchmark.size() + " partitions=" + PARTITIONS
                + " gpus=" + gpus + ": .* OK");
        assertTrue(verdict.matcher(line).find(), line);
    }

    private static String runJava(Benchmark benchmark, String policy, int gpus) {
        try (Context context = Polyglot.context(Map.of("EmulatedDevices", Integer.toString(gpus),
                "DeviceSelectionPolicy", policy))) {
            Verdict v = benchmark.java().apply(context).run(benchmark.size(), PARTITIONS);
            return v.line();
        }
    }

    /** Runs the Python or JavaScript program through the launcher's code path, on the shared engine. */
    private static String runScript(Benchmark benchmark, String host, String policy, int gpus) throws Exception {
        Path script = PROGRAMS.resolve(host).resolve(benchmark.name() + (host.equals("python") ? ".py" : ".js"));
        assertTrue(Files.exists(script), script.toString());
        List<String> args = new ArrayList<>(List.of("--polygpu.Backend=emulated", "--polygpu.EmulatedDevices=" + gpus,
                "--polygpu.DeviceSelectionPolicy=" + policy, script.toString(), Integer.toString(benchmark.size()),
                Integer.toString(PARTITIONS)));
        if (benchmark.name().equals("cg")) {
            args.add(Integer.toString(CG_ITERATIONS));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Launcher.run(args, new ByteArrayInputStream(new byte[0]), o, e, Polyglot.ENGINE);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, script + " exit status; stdout:\n" + stdout + "\nstderr:\n"
                + err.toString(StandardCharsets.UTF_8));
        return stdout;
    }
}
