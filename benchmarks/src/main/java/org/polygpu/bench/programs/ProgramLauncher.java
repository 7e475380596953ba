package org.polygpu.bench.programs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.graalvm.polyglot.Context;

/**
 * Runs one Java benchmark program from the command line: {@code [--polygpu.Option=value ...] [--no-validate]
 * [--first-elements] [size] [partitions] [more]}, prints its verdict and the makespan of its kernels and copies, then
 * exits with 0 on {@code OK}, 1 on {@code FAIL}. With {@code --no-validate} nothing is read back or checked (as
 * {@code EmulatedExecution=sampled} needs); with {@code --first-elements} (B&S) only the first element of each
 * partition, read alone as GrCUDA's benchmarks end. The makespan comes from the timeline of {@code ExportTrace}
 * (written when the context closes; kept where {@code --polygpu.ExportTrace=FILE} asks), since the guest language has
 * no call that reads the clock: on the emulator it is the virtual clock's.
 */
public final class ProgramLauncher {
    private static final Pattern EVENT = Pattern.compile(
            "\"cat\":\"(kernel|copy)\",\"ph\":\"X\",\"ts\":([0-9.]+),\"dur\":([0-9.]+)");

    private ProgramLauncher() {
    }

    static void main(Function<Context, PolygpuProgram> program, String[] args) {
        List<String> positional = new ArrayList<>();
        Context.Builder builder = Context.newBuilder("polygpu").allowAllAccess(true);
        for (String a : args) {
            if (a.startsWith("--") && a.contains("=")) {
                builder.option(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            } else {
                positional.add(a);
            }
        }
        boolean validate = !positional.remove("--no-validate");
        boolean firstElements = positional.remove("--first-elements");
        // A trace the command line asks for is kept; otherwise the makespan is read from a temporary one.
        Path kept = Arrays.stream(args).filter(a -> a.startsWith("--polygpu.ExportTrace=")).findFirst()
                .map(a -> Path.of(a.substring(a.indexOf('=') + 1))).orElse(null);
        Path trace;
        try {
            trace = kept != null ? kept : Files.createTempFile("polygpu-benchmark", ".json");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        builder.option("polygpu.EnableComputationTimers", "true").option("polygpu.ExportTrace", trace.toString());
        Verdict verdict;
        try (Context context = builder.build()) {
            PolygpuProgram p = program.apply(context);
            if (!validate) {
                p.withoutValidation();
            }
            if (firstElements && !p.hasFirstElementsEnding()) {
                System.err.println(p.getClass().getSimpleName() + ": --first-elements is not supported (BlackScholes "
                        + "supports it)");
                System.exit(2);
            }
            if (firstElements) {
                p.withFirstElementsOnly();
            }
            int size = positional.isEmpty() ? p.defaultSize() : Integer.parseInt(positional.get(0));
            int partitions = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 16;
            if (partitions < 1 || size < partitions) {
                System.err.println("usage: " + p.getClass().getSimpleName()
                        + " [--polygpu.Option=value ...] [--no-validate] [--first-elements] [size >= partitions]"
                        + " [partitions >= 1]");
                System.exit(2);
            }
            verdict = p.run(size, partitions);
            System.out.println(verdict.line());
        }
        TraceTimes.of(trace).ifPresent(t -> System.out.println(t.line()));
        try {
            if (kept == null) {
                Files.deleteIfExists(trace);
            }
        } catch (IOException e) {
            // A temporary file left behind is harmless; the verdict stands.
        }
        System.exit(verdict.ok() ? 0 : 1);
    }

    /**
     * What a trace's kernels and copies add up to, in µs: the makespan from the first one's start to the last one's
     * end (on a real GPU this includes the host program's own time between them), and the GPU time of the kernels and
     * of the copies, each summed over its operations (operations that overlap count each), so that a run on a GPU can
     * be compared with one on the emulator.
     */
    record TraceTimes(double makespanMicros, double kernelMicros, int kernels, double copyMicros, int copies) {
        /** The times of the trace in {@code file}; empty when it cannot be read or holds no kernel or copy. */
        static Optional<TraceTimes> of(Path file) {
            String json;
            try {
                json = Files.readString(file);
            } catch (IOException e) {
                return Optional.empty();
            }
            double first = Double.POSITIVE_INFINITY;
            double last = Double.NEGATIVE_INFINITY;
            double[] busy = new double[2];
            int[] count = new int[2];
            Matcher m = EVENT.matcher(json);
            while (m.find()) {
                double start = Double.parseDouble(m.group(2));
                double duration = Double.parseDouble(m.group(3));
                first = Math.min(first, start);
                last = Math.max(last, start + duration);
                int kind = m.group(1).equals("kernel") ? 0 : 1;
                busy[kind] += duration;
                count[kind]++;
            }
            return first <= last
                    ? Optional.of(new TraceTimes(last - first, busy[0], count[0], busy[1], count[1]))
                    : Optional.empty();
        }

        /** {@code makespan 763778.7 us, kernels 1234.5 us in 160, copies 5678.9 us in 48}. */
        String line() {
            return String.format(Locale.ROOT, "makespan %.1f us, kernels %.1f us in %d, copies %.1f us in %d",
                    makespanMicros, kernelMicros, kernels, copyMicros, copies);
        }
    }
}
