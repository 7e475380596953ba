package org.polygpu.demo;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.sched.Computation;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.spi.DeviceSelectionPolicies;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * The demo: the paper's vector-squares workload, sum(x² − y²) over partitioned vectors, scheduled by polygpu over
 * emulated GPUs. Prints the device and stream of every computation, its virtual start and end, the result
 * checked against a plain Java computation, and the simulated makespan; {@code --compare} runs every policy.
 */
public final class MultiGpuDemo {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private MultiGpuDemo() {
    }

    public static void main(String[] args) {
        DemoOptions o;
        try {
            o = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("demo: " + e.getMessage());
            System.err.println(DemoOptions.USAGE);
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.println(DemoOptions.USAGE);
            return;
        }
        PrintStream out = System.out;
        BandwidthMatrix topology = BandwidthMatrixLoader.resolve(o.topology());
        DeviceModel model = DeviceModel.preset(o.model());
        out.printf(Locale.ROOT, "polygpu demo: sum(x^2 - y^2) over %d partitions of %d floats on %d emulated %s%n",
                o.partitions(), o.elements(), o.devices(), model.name());
        out.printf(Locale.ROOT, "topology %s, DeviceSelectionPolicy %s%n%n", o.topology(), o.policy());
        Result r = run(o, topology, model, o.policy(), true, out);
        if (!r.correct()) {
            System.exit(1);
        }
        if (o.compare()) {
            out.printf(Locale.ROOT, "%nmakespan by DeviceSelectionPolicy (same workload):%n");
            for (String policy : DeviceSelectionPolicies.names()) {
                Result p = run(o, topology, model, policy, false, out);
                out.printf(Locale.ROOT, "  %-22s %10.1f us%s%n", policy, p.makespanNanos() / 1e3,
                        p.correct() ? "" : "  WRONG RESULT");
            }
        }
    }

    private record Result(boolean correct, long makespanNanos) {
    }

    private static Result run(DemoOptions o, BandwidthMatrix topology, DeviceModel model, String policy,
                              boolean print, PrintStream out) {
        try (EmulatedBackend backend = EmulatedBackend.builder().devices(o.devices()).topology(topology)
                .model(model).build();
             ExecutionContext ctx = ExecutionContext.create(backend, RuntimeConfig.defaults()
                     .withDeviceSelectionPolicy(policy).withRecording(true, true), backend.topology());
             Arena arena = Arena.ofConfined()) {
            Kernel square = DemoKernels.square(ctx);
            Kernel diff = DemoKernels.diff(ctx);
            Kernel reduce = DemoKernels.reduce(ctx);
            int n = o.elements();
            int parts = o.partitions();
            DeviceArray sums = ctx.newArray(ElementType.FLOAT, parts);
            MemorySegment host = arena.allocate((long) n * Float.BYTES);
            List<Computation> launched = new ArrayList<>();
            Map<Long, String> labels = new HashMap<>();
            double expected = 0;
            for (int p = 0; p < parts; p++) {
                DeviceArray x = ctx.newArray(ElementType.FLOAT, n);
                DeviceArray y = ctx.newArray(ElementType.FLOAT, n);
                DeviceArray z = ctx.newArray(ElementType.FLOAT, n);
                expected += fill(ctx, x, host, p, 1) - fill(ctx, y, host, p, 2);
                label(labels, launched, ctx.launch(square, o.launch(), x, n), "square x" + p);
                label(labels, launched, ctx.launch(square, o.launch(), y, n), "square y" + p);
                label(labels, launched, ctx.launch(diff, o.launch(), x, y, z, n), "diff z" + p + " = x" + p + " - y" + p);
                label(labels, launched, ctx.launch(reduce, o.launch(), z, sums, n, p), "reduce z" + p);
            }
            double total = 0;
            for (int p = 0; p < parts; p++) {
                total += (Float) ctx.read(sums, p);
            }
            ctx.synchronize();
            boolean correct = Math.abs(total - expected) <= 1e-3 * Math.max(1, Math.abs(expected));
            if (print) {
                printSchedule(out, launched, labels, ctx.timeline());
                out.printf(Locale.ROOT, "%nresult %.6g, expected %.6g: %s%n", total, expected,
                        correct ? "correct" : "WRONG");
                out.printf(Locale.ROOT, "simulated makespan: %.1f us%n", backend.makespanNanos() / 1e3);
                for (int d = 0; d < ctx.deviceCount(); d++) {
                    final int device = d;
                    long count = launched.stream().filter(c -> c.device() == device).count();
                    out.printf(Locale.ROOT, "  device %d ran %d kernels on %d streams%n", d, count,
                            ctx.streamCount(d));
                }
                if (o.dotFile() != null) {
                    ctx.exportDag(Path.of(o.dotFile()));
                    out.println("DAG written to " + o.dotFile());
                }
                if (o.traceFile() != null) {
                    ctx.exportTrace(Path.of(o.traceFile()));
                    out.println("timeline written to " + o.traceFile() + " (open it in Perfetto)");
                }
            }
            return new Result(correct, backend.makespanNanos());
        }
    }

    private static void label(Map<Long, String> labels, List<Computation> launched, Computation c, String text) {
        labels.put(c.id(), text);
        launched.add(c);
    }

    /** Fills {@code a} with small values of partition {@code p}; returns the sum of their squares. */
    private static double fill(ExecutionContext ctx, DeviceArray a, MemorySegment host, int p, int salt) {
        double sumOfSquares = 0;
        long n = a.elementCount();
        for (long i = 0; i < n; i++) {
            float v = ((i * 7 + p * 13 + salt * 5) % 17) / 16f;
            host.setAtIndex(F, i, v);
            sumOfSquares += v * v;
        }
        ctx.copyFromHost(a, host);
        return sumOfSquares;
    }

    private static void printSchedule(PrintStream out, List<Computation> launched, Map<Long, String> labels,
                                      List<TimedOperation> timeline) {
        Map<Long, long[]> span = new HashMap<>();
        Map<Long, Long> copied = new HashMap<>();
        for (TimedOperation op : timeline) {
            long id = op.label().computationId();
            if (op.kind() == TimedOperation.Kind.KERNEL) {
                span.put(id, new long[] {op.startNanos(), op.endNanos()});
            } else {
                copied.merge(id, op.bytes(), Long::sum);
            }
        }
        out.printf(Locale.ROOT, "%-24s %6s %6s %12s %12s %12s%n", "computation", "device", "stream", "start us",
                "end us", "copied in");
        for (Computation c : launched) {
            long[] s = span.getOrDefault(c.id(), new long[] {0, 0});
            long bytes = copied.getOrDefault(c.id(), 0L);
            out.printf(Locale.ROOT, "%-24s %6d %6d %12.1f %12.1f %12s%n", labels.get(c.id()), c.device(),
                    c.streamId(), s[0] / 1e3, s[1] / 1e3, bytes == 0 ? "-" : humanBytes(bytes));
        }
    }

    private static String humanBytes(long bytes) {
        if (bytes >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
        }
        return bytes >= 1 << 10 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0) : bytes + " B";
    }
}
