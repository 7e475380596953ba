package org.polygpu.it;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.polygpu.backend.BackendOptions;
import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.Backends;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.Dim3;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.MemoryModel;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.cuda.CudaDetection;
import org.polygpu.cuda.CudaException;
import org.polygpu.lang.launcher.commands.InfoCommand;
import org.polygpu.lang.launcher.commands.ProfileInterconnectCommand;
import org.polygpu.sched.ExecutionContext;
import org.polygpu.sched.Kernel;
import org.polygpu.sched.Parameter;
import org.polygpu.sched.UserEvent;
import org.polygpu.sched.UserStream;
import org.polygpu.sched.UserStreams;
import org.polygpu.lang.ContextOptions;
import org.polygpu.lang.launcher.commands.InfoCommand;
import org.polygpu.lang.launcher.commands.ProfileInterconnectCommand;

/**
 * The child-JVM half of {@link FakeDriverTest}: with {@code libcuda.so.1} resolving to the fake driver
 * ({@code fakecuda.c}), it drives CUDA detection, the commands, the CUDA backend and the scheduler through the public
 * API and prints one {@code key: value} line per observation for the test to assert on. An unexpected exception ends
 * it with a stack trace and a non-zero status.
 *
 * <p>Arguments: {@code usable DIR}, with a working fake driver (the bandwidth CSV is written to DIR), or
 * {@code init-failure}, with the fake's {@code cuInit} failing.
 */
final class FakeDriverProbe {
    /** The fake's kernels by name; the driver recognises the {@code .entry} names, the bodies are never run. */
    static final String PTX = """
            .version 8.0
            .target sm_90
            .address_size 64

            .visible .entry add_one(.param .u64 x, .param .u32 n) { ret; }
            .visible .entry scale(.param .u64 x, .param .u64 y, .param .u32 n, .param .f32 k) { ret; }
            .visible .entry record_args(.param .u64 out, .param .f64 d, .param .u16 s, .param .u8 c, .param .u64 l,
                    .param .f32 f, .param .u32 n) { ret; }
            """;
    static final int N = 1000;

    private FakeDriverProbe() {
    }

    public static void main(String[] args) {
        switch (args[0]) {
            case "usable" -> usable(Path.of(args[1]));
            case "init-failure" -> initFailure();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    private static void print(String key, Object value) {
        System.out.println(key + ": " + String.valueOf(value).replace("\n", "\\n"));
    }

    private static void usable(Path dir) {
        CudaDetection.Result r = CudaDetection.detect();
        print("detection", r.state() + ", " + r.deviceCount() + " devices, driver " + r.driverVersion());
        Path csv = dir.resolve("bandwidth.csv");
        print("profile-interconnect status", command("profile-interconnect", ProfileInterconnectCommand::run,
                List.of("--out", csv.toString(), "--size", "1M", "--repeats", "3"), Map.of("Backend", "cuda")));
        try {
            Backends.open("cuda", BackendOptions.defaults().withBandwidthMatrix(csv.toString()).withNumberOfGpus(3))
                    .backend().close();
            print("three of two GPUs", "opened");
        } catch (IllegalArgumentException e) {
            print("three of two GPUs", e.getMessage());
        }
        OpenedBackend opened = Backends.open("cuda", BackendOptions.defaults().withBandwidthMatrix(csv.toString()));
        try (Backend cuda = opened.backend()) {
            print("notice", opened.notice());
            print("matrix", Arrays.deepToString(opened.bandwidth().toArray()));
            RuntimeConfig config = RuntimeConfig.defaults().withDeviceSelectionPolicy("round-robin")
                    .withRecording(false, true);
            try (ExecutionContext ctx = ExecutionContext.create(cuda, config, opened.bandwidth())) {
                DeviceArray x = kernels(ctx);
                timeline(ctx);
                errors(ctx, cuda, x);
            }
            try (ExecutionContext ctx = ExecutionContext.create(cuda, RuntimeConfig.defaults(), opened.bandwidth())) {
                print("program streams", programStreams(ctx));
            }
            DeviceBuffer fresh = cuda.allocate(1, 4096);
            print("fresh buffer", zeroBytes(cuda, fresh) + "/4096 bytes zero");
            cuda.free(fresh);
            print("free memory", cuda.freeMemory(0) + " " + cuda.freeMemory(1));
            print("replica memory", cuda.replicaMemory(0) + " " + cuda.replicaMemory(1));
        }
        OpenedBackend managed = Backends.open("cuda", BackendOptions.defaults().withBandwidthMatrix(csv.toString())
                .withMemoryModel(MemoryModel.MANAGED));
        try (ExecutionContext ctx = ExecutionContext.create(managed.backend(),
                RuntimeConfig.defaults().withDeviceSelectionPolicy("round-robin"), managed.bandwidth())) {
            print("managed", addOneTenTimes(ctx, freshInts(ctx), 0));
            print("managed replica memory", managed.backend().replicaMemory(0));
        } finally {
            managed.backend().close();
        }
        print("info status", command("info", InfoCommand::run, List.of(), Map.of("Backend", "cuda", "BandwidthMatrix",
                csv.toString())));
    }

    private static void initFailure() {
        CudaDetection.Result r = CudaDetection.detect();
        print("detection", r.state() + ": " + r.reason());
        try {
            Backends.open("cuda", BackendOptions.defaults().withBandwidthMatrix("unmeasured")).backend().close();
            print("open", "opened");
        } catch (BackendException e) {
            print("open", e.getMessage());
        }
    }

    /** Runs kernels of every argument type over both devices; returns an array of {@link #ints} plus 10. */
    private static DeviceArray kernels(ExecutionContext ctx) {
        DeviceArray x = freshInts(ctx);
        print("add_one", addOneTenTimes(ctx, x, 0));

        DeviceArray copy = ctx.newArray(ElementType.INT, N);
        ctx.copy(x, copy);
        int[] copied = new int[N];
        ctx.copyToHost(copy, MemorySegment.ofArray(copied));
        print("copy", right(copied, 10) + "/" + N + " right");

        Kernel scale = ctx.kernel("scale", new ModuleImage.Ptx(PTX), List.of(
                Parameter.pointer("x", ElementType.FLOAT, Access.READ),
                Parameter.pointer("y", ElementType.FLOAT, Access.WRITE),
                Parameter.scalar("n", ElementType.INT), Parameter.scalar("k", ElementType.FLOAT)));
        DeviceArray xs = ctx.newArray(ElementType.FLOAT, N);
        DeviceArray ys = ctx.newArray(ElementType.FLOAT, N);
        float[] in = new float[N];
        for (int i = 0; i < N; i++) {
            in[i] = i * 0.5f;
        }
        ctx.copyFromHost(xs, MemorySegment.ofArray(in));
        List<Integer> devices = new ArrayList<>();
        devices.add(ctx.launch(scale, LaunchConfig.of(8, 128), xs, ys, N, 2.5f).device());
        ctx.poll();
        devices.add(ctx.launch(scale, LaunchConfig.of(8, 128), ys, xs, N, 2f).device());
        float[] out = new float[N];
        ctx.copyToHost(xs, MemorySegment.ofArray(out));
        int right = 0;
        for (int i = 0; i < N; i++) {
            right += out[i] == in[i] * 5 ? 1 : 0;
        }
        print("scale", "devices " + devices + ", " + right + "/" + N + " right");

        Kernel recordArgs = ctx.kernel("record_args", new ModuleImage.Ptx(PTX), List.of(
                Parameter.pointer("out", ElementType.DOUBLE, Access.WRITE), Parameter.scalar("d", ElementType.DOUBLE),
                Parameter.scalar("s", ElementType.SHORT), Parameter.scalar("c", ElementType.CHAR),
                Parameter.scalar("l", ElementType.LONG), Parameter.scalar("f", ElementType.FLOAT),
                Parameter.scalar("n", ElementType.INT)));
        DeviceArray recorded = ctx.newArray(ElementType.DOUBLE, 13);
        ctx.launch(recordArgs, new LaunchConfig(new Dim3(2, 3, 4), new Dim3(5, 6, 7), 96), recorded, 1.5, -2, -3,
                1L << 40, 0.25f, 7);
        double[] values = new double[13];
        ctx.copyToHost(recorded, MemorySegment.ofArray(values));
        print("record_args", Arrays.toString(values));
        return x;
    }

    /**
     * Launches {@code add_one} on a program stream of device 1, then, after an event recorded there, on one of
     * device 0; returns the devices and the result, {@link #ints()} plus 2.
     */
    private static String programStreams(ExecutionContext ctx) {
        Kernel addOne = ctx.kernel("add_one", new ModuleImage.Ptx(PTX), List.of(
                Parameter.pointer("x", ElementType.INT, Access.READ_WRITE), Parameter.scalar("n", ElementType.INT)));
        UserStreams streams = ctx.streams();
        streams.setCurrentDevice(1);
        UserStream s1 = streams.createStream();
        UserEvent done = streams.createEvent();
        streams.setCurrentDevice(0);
        UserStream s0 = streams.createStream();
        DeviceArray x = freshInts(ctx);
        List<Integer> devices = new ArrayList<>();
        devices.add(ctx.launch(addOne, LaunchConfig.of(4, 256), s1, x, N).device());
        streams.record(done, s1);
        streams.waitFor(s0, done);
        devices.add(ctx.launch(addOne, LaunchConfig.of(4, 256), s0, x, N).device());
        streams.synchronize(s0);
        streams.destroy(s0);
        streams.destroy(s1);
        streams.destroy(done);
        int[] out = new int[N];
        ctx.copyToHost(x, MemorySegment.ofArray(out));
        return "devices " + devices + ", " + right(out, 2) + "/" + N + " right";
    }

    /** A new array holding {@link #ints()}. */
    private static DeviceArray freshInts(ExecutionContext ctx) {
        DeviceArray x = ctx.newArray(ElementType.INT, N);
        ctx.copyFromHost(x, MemorySegment.ofArray(ints()));
        return x;
    }

    /**
     * Launches {@code add_one} ten times (alternating devices under round-robin) on {@code x}, which holds
     * {@link #ints()} plus {@code before}, and reads the result back.
     */
    private static String addOneTenTimes(ExecutionContext ctx, DeviceArray x, int before) {
        Kernel addOne = ctx.kernel("add_one", new ModuleImage.Ptx(PTX), List.of(
                Parameter.pointer("x", ElementType.INT, Access.READ_WRITE), Parameter.scalar("n", ElementType.INT)));
        List<Integer> devices = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            devices.add(ctx.launch(addOne, LaunchConfig.of(4, 256), x, N).device());
            // The fake completes work at once; retiring it now (the CUDA backend's computations share completion
            // events, polled every few launches) lets the policy place the next launch instead of its parent's stream.
            ctx.poll();
        }
        int[] out = new int[N];
        ctx.copyToHost(x, MemorySegment.ofArray(out));
        return "devices " + devices + ", " + right(out, before + 10) + "/" + N + " right";
    }

    /** The operations the timeline recorded, by kind, the peer copies among them, and the kernels' durations. */
    private static void timeline(ExecutionContext ctx) {
        ctx.synchronize();
        Map<TimedOperation.Kind, Integer> kinds = new TreeMap<>();
        TreeSet<Long> kernelNanos = new TreeSet<>();
        int peer = 0;
        for (TimedOperation op : ctx.timeline()) {
            kinds.merge(op.kind(), 1, Integer::sum);
            if (op.kind() == TimedOperation.Kind.KERNEL) {
                kernelNanos.add(op.endNanos() - op.startNanos());
            }
            peer += op.kind() == TimedOperation.Kind.COPY_DEVICE_TO_DEVICE && op.source() != op.device() ? 1 : 0;
        }
        print("timeline", kinds);
        print("peer copies", peer);
        print("kernel nanos", kernelNanos);
    }

    /** Errors from the driver, each followed by work that must still succeed. */
    private static void errors(ExecutionContext ctx, Backend cuda, DeviceArray x) {
        print("oom", message(() -> cuda.allocate(0, 128L << 20)));
        // The array fits a device (an array larger than the device is refused when it is made), but not the memory
        // that other allocations leave free, so the driver refuses it when the launch allocates it.
        List<DeviceBuffer> hogs = new java.util.ArrayList<>();
        for (int d = 0; d < cuda.deviceCount(); d++) {
            hogs.add(cuda.allocate(d, 40L << 20));
        }
        print("oom in a launch", message(() -> {
            DeviceArray big = ctx.newArray(ElementType.INT, 8L << 20);
            Kernel addOne = ctx.kernel("add_one", new ModuleImage.Ptx(PTX), List.of(
                    Parameter.pointer("x", ElementType.INT, Access.READ_WRITE),
                    Parameter.scalar("n", ElementType.INT)));
            ctx.launch(addOne, LaunchConfig.of(1, 32), big, 32);
            ctx.synchronize();
        }));
        hogs.forEach(cuda::free);
        print("unknown kernel", message(() -> ctx.kernel("missing", new ModuleImage.Ptx(PTX), List.of())));
        print("ptx too new", message(() -> ctx.kernel("add_one",
                new ModuleImage.Ptx(PTX.replace(".version 8.0", ".version 9.9")), List.of())));
        FunctionHandle addOne = cuda.function(cuda.loadModule(0, new ModuleImage.Ptx(PTX)), "add_one");
        DeviceBuffer buffer = cuda.allocate(0, 16);
        StreamHandle stream = cuda.createStream(0);
        print("block too large", message(() -> cuda.launch(addOne, LaunchConfig.of(1, 2048), new Object[] {buffer, 4},
                stream, OperationLabel.NONE)));
        cuda.destroyStream(stream);
        cuda.free(buffer);
        print("after errors", addOneTenTimes(ctx, x, 10));
    }

    /** What {@code action} threw: the CUDA error's message, or a line saying it threw none or something else. */
    private static String message(Runnable action) {
        try {
            action.run();
            return "no exception";
        } catch (CudaException e) {
            return e.getMessage();
        } catch (RuntimeException e) {
            return "not a CudaException: " + e;
        }
    }

    /** How many bytes of {@code buffer} read back as zero. */
    private static long zeroBytes(Backend cuda, DeviceBuffer buffer) {
        StreamHandle stream = cuda.createStream(buffer.device());
        MemorySegment host = cuda.allocateHost(buffer.bytes());
        host.fill((byte) 1);
        cuda.copyDeviceToHost(buffer, host, buffer.bytes(), stream, OperationLabel.NONE);
        cuda.synchronizeAll();
        long zero = 0;
        for (long i = 0; i < buffer.bytes(); i++) {
            zero += host.get(JAVA_BYTE, i) == 0 ? 1 : 0;
        }
        cuda.freeHost(host);
        cuda.destroyStream(stream);
        return zero;
    }

    private static int[] ints() {
        int[] v = new int[N];
        for (int i = 0; i < N; i++) {
            v[i] = i * 3 - 7;
        }
        return v;
    }

    /** How many of {@code values} equal {@link #ints()} plus {@code added}. */
    private static int right(int[] values, int added) {
        int[] expected = ints();
        int right = 0;
        for (int i = 0; i < N; i++) {
            right += values[i] == expected[i] + added ? 1 : 0;
        }
        return right;
    }

    private interface Command {
        int run(List<String> args, String backend, BackendOptions options, PrintStream out, PrintStream err);
    }

    /** Runs a command, printing its output lines under the keys {@code NAME out} and {@code NAME err}. */
    private static int command(String name, Command command, List<String> args, Map<String, String> options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            ContextOptions parsed = ContextOptions.parse(options);
            status = command.run(args, parsed.backend(), parsed.backendOptions(), o, e);
        }
        out.toString(StandardCharsets.UTF_8).lines().forEach(line -> print(name + " out", line));
        err.toString(StandardCharsets.UTF_8).lines().forEach(line -> print(name + " err", line));
        return status;
    }
}
