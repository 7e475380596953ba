package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.junit.jupiter.api.io.TempDir;
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
import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * The paper's five benchmarks with a working set three times one device's memory: each is first run with enough
 * memory to learn its working set (the bytes of every array it makes), then on 4 emulated GPUs whose
 * {@code EmulatedDeviceMemory} is a third of that, under every device-selection policy. Each must still validate
 * against its CPU reference. Under {@code single-gpu}, which keeps everything on one device, the trace must show
 * evictions; the other policies may spread the arrays over the four devices' memories (together 4/3 of the working
 * set) and evict less, or nothing.
 */
class BenchmarksBeyondDeviceMemoryTest {
    private static final int PARTITIONS = 8;
    private static final int GPUS = 4;

    /** One benchmark and the size it runs at: large enough for its arrays to dwarf the smallest allocation. */
    private record Benchmark(String name, Function<Context, PolygpuProgram> program, int size) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Benchmark> BENCHMARKS = List.of(
            new Benchmark("vec", Vec::new, 8192),
            new Benchmark("bs", BlackScholes::new, 8192),
            new Benchmark("ml", MlEnsemble::new, 256),
            new Benchmark("cg", c -> new ConjugateGradient(c, 2), 128),
            new Benchmark("mul", MatrixVector::new, 128));

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (Benchmark b : BENCHMARKS) {
            for (String policy : DeviceSelectionPolicies.names()) {
                runs.add(Arguments.of(b, policy));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("runs")
    void validatesWithAThirdOfItsWorkingSetPerDevice(Benchmark benchmark, String policy, @TempDir Path dir)
            throws Exception {
        Polyglot.assumeNvrtc();
        long workingSet;
        try (Context context = Polyglot.context(Map.of("EmulatedDevices", "1"))) {
            PolygpuProgram program = benchmark.program().apply(context);
            Verdict enough = program.run(benchmark.size(), PARTITIONS);
            assertTrue(enough.ok(), enough.line());
            workingSet = program.arrayBytes();
        }
        long memory = workingSet / 3;
        Path trace = dir.resolve("trace.json");
        Verdict tight;
        try (Context context = Polyglot.context(Map.of("EmulatedDevices", Integer.toString(GPUS),
                "DeviceSelectionPolicy", policy, "EmulatedDeviceMemory", Long.toString(memory),
                "ExportTrace", trace.toString()))) {
            tight = benchmark.program().apply(context).run(benchmark.size(), PARTITIONS);
        }
        assertTrue(tight.ok(), tight.line() + " (working set " + workingSet + " bytes, " + memory + " per device)");
        List<String> evictions = EvictionProgramTest.evictions(Files.readString(trace));
        assertTrue(!policy.equals("single-gpu") || !evictions.isEmpty(), "no eviction with " + memory + " bytes per device for a working set of "
                + workingSet + " bytes");
    }
}
