package org.polygpu.bench.programs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
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
            "\"cat\":\"(?:kernel|copy)\",\"ph\":\"X\",\"ts\":([0-9.]+),\"dur\":([0-9.]+)");

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
        OptionalDouble makespan = makespanMicros(trace);
        makespan.ifPresent(us -> System.out.printf(Locale.ROOT, "makespan %.1f us%n", us));
        try {
            if (kept == null) {
                Files.deleteIfExists(trace);
            }
        } catch (IOException e) {
            // A temporary file left behind is harmless; the verdict stands.
        }
        System.exit(verdict.ok() ? 0 : 1);
    }

    /** From the first kernel or copy's start to the last one's end, in µs; empty without events. */
    static OptionalDouble makespanMicros(Path trace) {
        String json;
        try {
            json = Files.readString(trace);
        } catch (IOException e) {
            return OptionalDouble.empty();
        }
        double first = Double.POSITIVE_INFINITY;
        double last = Double.NEGATIVE_INFINITY;
        Matcher m = EVENT.matcher(json);
        while (m.find()) {
            double start = Double.parseDouble(m.group(1));
            first = Math.min(first, start);
            last = Math.max(last, start + Double.parseDouble(m.group(2)));
        }
        return first <= last ? OptionalDouble.of(last - first) : OptionalDouble.empty();
    }
}
