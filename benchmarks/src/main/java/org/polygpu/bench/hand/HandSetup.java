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

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.Backends;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.TimedOperation;

/**
 * An emulated backend opened for a hand-written benchmark: its devices, one benchmark's kernel module loaded on
 * each, the timeline recorded, and the host segments it allocated (freed on {@link #close()}).
 */
final class HandSetup implements AutoCloseable {
    final Backend backend;
    private final List<ModuleHandle> modules = new ArrayList<>();
    private final List<MemorySegment> hostSegments = new ArrayList<>();

    /** Opens {@code gpus} emulated devices on {@code topology} and loads {@code kernels/<source>.cu} on each. */
    HandSetup(int gpus, String topology, String source) {
        BackendOptions options = BackendOptions.defaults().withEmulatedDevices(gpus).withEmulatedTopology(topology);
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

    /** The kernel {@code name} as loaded on {@code device}. */
    FunctionHandle function(int device, String name) {
        return backend.function(modules.get(device), name);
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
        long first = timeline.stream().mapToLong(TimedOperation::startNanos).min().orElse(0);
        long last = timeline.stream().mapToLong(TimedOperation::endNanos).max().orElse(0);
        return timeline.isEmpty() ? Optional.empty() : Optional.of((last - first) / 1e3);
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
