package org.polygpu.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;

/**
 * Where the start-up of a polygpu Python program goes, phase by phase, in one process: the JVM until {@code main}
 * (with the launcher script, when {@code POLYGPU_LAUNCHED_NS} holds the epoch nanoseconds it was started at), the
 * polyglot engine and context, GraalPy's core, {@code print(1)}, the polygpu language (options checked), the first
 * use of polygpu (backend opened), building the README example's kernel (NVRTC, or the kernel cache), and the rest of
 * that example. Prints one line {@code phase milliseconds} per phase.
 *
 * <p>Run through the launcher, so that its class path, JIT and AOT settings apply (see benchmarks/README.md):
 * {@code POLYGPU_LAUNCHED_NS=$(date +%s%N) POLYGPU_CLASSPATH=benchmarks/target/classes bin/polygpu [--no-jit]
 * --java org.polygpu.bench.StartupPhases [--polygpu.Option=value ...]}; the script is
 * {@code benchmarks/startup/readme_example.py}.
 */
public final class StartupPhases {
    private static final Path EXAMPLE = Path.of("benchmarks/startup/readme_example.py");

    private long last;

    private StartupPhases(long start) {
        this.last = start;
    }

    public static void main(String[] args) throws IOException {
        String launched = System.getenv("POLYGPU_LAUNCHED_NS");
        long now = System.currentTimeMillis() * 1_000_000L;
        StartupPhases phases = new StartupPhases(System.nanoTime());
        if (launched != null) {
            System.out.printf(Locale.ROOT, "%-34s %8.0f%n", "launcher and JVM until main",
                    (now - Long.parseLong(launched.strip())) / 1e6);
        }
        String example = Files.readString(EXAMPLE);
        int split = example.indexOf("square = CU.buildkernel");
        Context.Builder builder = Context.newBuilder().allowAllAccess(true);
        for (String a : args) {
            if (!a.startsWith("--polygpu.") || !a.contains("=")) {
                throw new IllegalArgumentException("expected --polygpu.Option=value, got '" + a + "'");
            }
            builder.option(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        }
        try (Context context = builder.build()) {
            phases.mark("polyglot engine and context");
            context.initialize("python");
            phases.mark("GraalPy core initialised");
            context.eval("python", "print(1)");
            phases.mark("print(1)");
            context.initialize("polygpu");
            phases.mark("polygpu language (options)");
            context.eval(Source.create("python", example.substring(0, split)));
            phases.mark("first use: backend opened");
            int end = example.indexOf('\n', split);
            context.eval(Source.create("python", example.substring(split, end)));
            phases.mark("buildkernel (NVRTC or cache)");
            context.eval(Source.create("python", example.substring(end)));
            phases.mark("arrays, launch, read back");
        }
        phases.mark("context closed");
    }

    private void mark(String phase) {
        long now = System.nanoTime();
        System.out.printf(Locale.ROOT, "%-34s %8.0f%n", phase, (now - last) / 1e6);
        last = now;
    }
}
