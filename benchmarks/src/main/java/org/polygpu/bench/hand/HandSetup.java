package org.polygpu.bench.hand;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * An emulated backend opened for one {@link HandRun}: its devices in the run's execution mode, the benchmark's kernel
 * module loaded on each, the timeline recorded, and the host segments it allocated (freed on {@link #close()}).
 * Copies and launches go through it so that their data dependencies are noted ({@link Dataflow}) and each has a
 * label of its own.
 */
final class HandSetup implements AutoCloseable {
    final Backend backend;
    private final String source;
    private final List<ModuleHandle> modules = new ArrayList<>();
    private final List<MemorySegment> hostSegments = new ArrayList<>();
    private final Dataflow dataflow = new Dataflow();

    /** Opens the run's emulated devices and loads {@code kernels/<benchmark>.cu} on each. */
    HandSetup(HandRun run) {
        source = run.benchmark();
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(run.gpus())
                .withEmulatedTopology(run.topology()).withEmulatedExecution(run.execution())
                .withEmulatedDeviceModel(run.deviceModel());
        backend = Backends.open("emulated", options).backend();
        ModuleImage image = new ModuleImage.CudaSource(kernelSource(source), source + ".cu", List.of(), List.of());
        for (int d = 0; d < backend.deviceCount(); d++) {
            modules.add(backend.loadModule(d, image));
        }
        backend.recordTimeline(true);
    }

    int gpus() {
        return backend.deviceCount();
    }

    /** Launches {@code kernel} of the benchmark's source on {@code stream}, whose device is {@code device}. */
    void launch(int device, String kernel, LaunchConfig config, StreamHandle stream, Object... arguments) {
        Set<Integer> written = WrittenParameters.of(source, kernel);
        List<DeviceBuffer> reads = new ArrayList<>();
        List<DeviceBuffer> writes = new ArrayList<>();
        for (int i = 0; i < arguments.length; i++) {
            DeviceBuffer buffer = arguments[i] instanceof BufferOffset o ? o.buffer()
                    : arguments[i] instanceof DeviceBuffer b ? b : null;
            if (buffer != null) {
                (written.contains(i) ? writes : reads).add(buffer);
            }
        }
        FunctionHandle function = backend.function(modules.get(device), kernel);
        backend.launch(function, config, arguments, stream, label(reads, writes, kernel));
    }

    /** Copies {@code bytes} of {@code src} to {@code dst} over the host link. */
    void copyIn(MemorySegment src, DeviceBuffer dst, long bytes, StreamHandle stream, String name) {
        backend.copyHostToDevice(src, dst, bytes, stream, label(List.of(), List.of(dst), name));
    }

    /** Copies {@code bytes} of {@code src} back to the host. */
    void copyOut(DeviceBuffer src, MemorySegment dst, long bytes, StreamHandle stream, String name) {
        backend.copyDeviceToHost(src, dst, bytes, stream, label(List.of(src), List.of(), name));
    }

    /** Copies all of {@code src} to {@code dst} on another GPU; {@code stream} belongs to {@code dst}'s device. */
    void copyPeer(DeviceBuffer src, DeviceBuffer dst, StreamHandle stream, String name) {
        backend.copyDeviceToDevice(src, dst, src.bytes(), stream, label(List.of(src), List.of(dst), name));
    }

    /** The longest chain of kernels through the data dependencies of what went through this setup, copies free. */
    double criticalPathMicros(List<TimedOperation> timeline) {
        return dataflow.criticalPathMicros(timeline);
    }

    private OperationLabel label(List<DeviceBuffer> reads, List<DeviceBuffer> writes, String name) {
        return new OperationLabel(dataflow.add(reads, writes), name);
    }

    /** A host segment holding {@code values}, alive until {@link #close()} (copies read it asynchronously). */
    MemorySegment host(float[] values) {
        MemorySegment s = backend.allocateHost((long) values.length * Float.BYTES);
        MemorySegment.copy(values, 0, s, ValueLayout.JAVA_FLOAT, 0, values.length);
        hostSegments.add(s);
        return s;
    }

    /** A host segment of {@code bytes} zero bytes, alive until {@link #close()}. */
    MemorySegment host(long bytes) {
        MemorySegment s = backend.allocateHost(bytes).fill((byte) 0);
        hostSegments.add(s);
        return s;
    }

    /** From the first operation's start to the last one's end, in µs of the backend's clock; empty if none ran. */
    Optional<Double> makespanMicros() {
        List<TimedOperation> timeline = backend.timeline();
        return timeline.isEmpty() ? Optional.empty() : Optional.of(TimelineTotals.of(timeline).makespanMicros());
    }

    @Override
    public void close() {
        backend.synchronizeAll();
        hostSegments.forEach(backend::freeHost);
        backend.close();
    }

    private static String kernelSource(String source) {
        String resource = "/org/polygpu/bench/kernels/" + source + ".cu";
        try (InputStream in = HandSetup.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("kernel source " + resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
