package org.polygpu.bench.fidelity;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.topology.BandwidthMatrix;

/**
 * Runs what a calibration directory measured on one emulated GPU of a model: the study kernels alone (their profile
 * and duration), one kernel on several streams at once, and copies. Kernels run sampled ({@value #SAMPLED_BLOCKS}
 * blocks of each larger grid, counters extrapolated), which times them as full execution does for the study's
 * uniform grid-stride kernels. The GPU's links are the model's own: the host link at the pinned bandwidth of each
 * direction, on-device copies at the model's device-to-device bandwidth.
 */
public final class EmulatedRuns {
    static final int SAMPLED_BLOCKS = 16;
    private final DeviceModel model;
    private final Map<String, String> sources = new HashMap<>();

    public EmulatedRuns(DeviceModel model) {
        this.model = model;
    }

    /** A kernel's profile and its duration alone (launch cost included), in nanoseconds. */
    public record KernelRun(KernelProfile profile, long nanos) {
    }

    /** {@code launch} with {@code grid} blocks of {@code block} threads, alone on the device. */
    public KernelRun kernel(StudyLaunch launch, int grid, int block) {
        try (EmulatedBackend b = backend()) {
            b.recordTimeline(true);
            StreamHandle s = b.createStream(0);
            b.launch(function(b, launch), LaunchConfig.of(grid, block), arguments(b, launch), s,
                    new OperationLabel(1, launch.function()));
            b.synchronizeAll();
            TimedOperation op = b.timeline().stream().filter(t -> t.kind() == TimedOperation.Kind.KERNEL)
                    .findFirst().orElseThrow();
            return new KernelRun(b.profile(1).orElseThrow(), op.endNanos() - op.startNanos());
        }
    }

    /** Nanoseconds from the first launch to the last completion of {@code launch} on {@code streams} streams. */
    public long concurrent(StudyLaunch launch, int grid, int block, int streams) {
        try (EmulatedBackend b = backend()) {
            FunctionHandle f = function(b, launch);
            List<StreamHandle> handles = new ArrayList<>();
            List<Object[]> args = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                handles.add(b.createStream(0));
                args.add(arguments(b, launch));
            }
            b.synchronizeAll();
            long start = b.hostNanos();
            for (int i = 0; i < streams; i++) {
                b.launch(f, LaunchConfig.of(grid, block), args.get(i), handles.get(i), OperationLabel.NONE);
            }
            b.synchronizeAll();
            return b.hostNanos() - start;
        }
    }

    /** Nanoseconds a copy of {@code bytes} and a synchronize take ({@code h2d}, {@code d2h}, {@code d2d}). */
    public long copy(String direction, boolean pinned, long bytes) {
        try (EmulatedBackend b = backend(); Arena arena = Arena.ofConfined()) {
            StreamHandle s = b.createStream(0);
            DeviceBuffer d = b.allocate(0, bytes);
            MemorySegment host = direction.equals("d2d") ? null
                    : pinned ? b.allocateHost(bytes) : arena.allocate(bytes, 64);
            long start = b.hostNanos();
            switch (direction) {
                case "h2d" -> b.copyHostToDevice(host, d, bytes, s, OperationLabel.NONE);
                case "d2h" -> b.copyDeviceToHost(d, host, bytes, s, OperationLabel.NONE);
                case "d2d" -> b.copyDeviceToDevice(d, b.allocate(0, bytes), bytes, s, OperationLabel.NONE);
                default -> throw new IllegalArgumentException("unknown copy direction '" + direction + "'");
            }
            b.synchronizeAll();
            return b.hostNanos() - start;
        }
    }

    private EmulatedBackend backend() {
        double[][] links = {
            {model.copies().deviceToDevice().bandwidthGBps(), model.copies().deviceToHostPinned().bandwidthGBps()},
            {model.copies().hostToDevicePinned().bandwidthGBps(), 0}};
        return EmulatedBackend.builder().topology(new BandwidthMatrix(links)).model(model).parallelism(2)
                .execution(EmulatedExecution.SAMPLED).sampledBlocks(SAMPLED_BLOCKS).build();
    }

    private FunctionHandle function(EmulatedBackend b, StudyLaunch launch) {
        String source = sources.computeIfAbsent(launch.file(), EmulatedRuns::source);
        ModuleImage.CudaSource image = new ModuleImage.CudaSource(source, launch.file() + ".cu",
                List.of("-std=c++17"), List.of());
        return b.function(b.loadModule(0, image), launch.function());
    }

    /** The launch's arguments: each buffer allocated and filled with its value, scalars as they are. */
    private static Object[] arguments(EmulatedBackend b, StudyLaunch launch) {
        List<Object> out = new ArrayList<>();
        StreamHandle s = b.createStream(0);
        for (Object a : launch.arguments()) {
            if (a instanceof StudyLaunch.Buffer buffer) {
                DeviceBuffer d = b.allocate(0, buffer.bytes());
                MemorySegment host = b.allocateHost(buffer.bytes());
                if (buffer.doubles()) {
                    host.elements(ValueLayout.JAVA_DOUBLE).forEach(e -> e.set(ValueLayout.JAVA_DOUBLE, 0,
                            buffer.value()));
                } else {
                    host.elements(ValueLayout.JAVA_FLOAT).forEach(e -> e.set(ValueLayout.JAVA_FLOAT, 0,
                            buffer.value()));
                }
                b.copyHostToDevice(host, d, buffer.bytes(), s, OperationLabel.NONE);
                out.add(d);
            } else {
                out.add(a);
            }
        }
        b.synchronizeAll();
        return out.toArray();
    }

    private static String source(String file) {
        String path = "/org/polygpu/bench/kernels/" + file + ".cu";
        try (InputStream in = EmulatedRuns.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no study kernel source " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
