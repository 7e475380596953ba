package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.ReadOnlyParameters;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.backend.VirtualTimeline;

/**
 * A backend whose every call holds one lock, so that the several threads of a rank (the command thread, one thread
 * per stream, the threads serving other ranks) may share a backend made for one thread at a time. Synchronising an
 * event on a real clock polls the event, taking the lock for each query only, so that the other threads keep
 * enqueueing while one waits; on a virtual clock (the emulator) the call runs the simulation itself and holds the
 * lock throughout. Owns the backend it wraps.
 */
final class LockedBackend implements Backend {
    /** Pause between two queries of an event being waited for on a real clock. */
    private static final long POLL_NANOS = 20_000;

    private final Backend backend;

    LockedBackend(Backend backend) {
        this.backend = backend;
    }

    @Override
    public synchronized String name() {
        return backend.name();
    }

    @Override
    public synchronized Clock clock() {
        return backend.clock();
    }

    @Override
    public synchronized long hostNanos() {
        return backend.hostNanos();
    }

    @Override
    public synchronized DeviceAddressing deviceAddressing() {
        return backend.deviceAddressing();
    }

    @Override
    public synchronized MemorySegment devicePointer(DeviceBuffer buffer) {
        return backend.devicePointer(buffer);
    }

    @Override
    public synchronized boolean accepts(ModuleImage image) {
        return backend.accepts(image);
    }

    @Override
    public synchronized int deviceCount() {
        return backend.deviceCount();
    }

    @Override
    public synchronized DeviceProperties deviceProperties(int device) {
        return backend.deviceProperties(device);
    }

    @Override
    public synchronized DeviceBuffer allocate(int device, long bytes) {
        return backend.allocate(device, bytes);
    }

    @Override
    public synchronized void free(DeviceBuffer buffer) {
        backend.free(buffer);
    }

    @Override
    public synchronized void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        backend.prefetch(buffer, device, stream);
    }

    @Override
    public synchronized void prefetch(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream,
                                      OperationLabel label) {
        backend.prefetch(buffer, offset, bytes, device, stream, label);
    }

    @Override
    public synchronized DeviceBuffer allocateManaged(long bytes) {
        return backend.allocateManaged(bytes);
    }

    @Override
    public synchronized MemorySegment hostView(DeviceBuffer buffer) {
        return backend.hostView(buffer);
    }

    @Override
    public synchronized void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                              OperationLabel label) {
        backend.copyHostToDevice(src, dst, bytes, stream, label);
    }

    @Override
    public synchronized void copyDeviceToHost(DeviceBuffer src, MemorySegment dst, long bytes, StreamHandle stream,
                                              OperationLabel label) {
        backend.copyDeviceToHost(src, dst, bytes, stream, label);
    }

    @Override
    public synchronized boolean checksReadOnlyStores() {
        return backend.checksReadOnlyStores();
    }

    @Override
    public synchronized boolean managedMemory() {
        return backend.managedMemory();
    }

    @Override
    public synchronized long freeMemory(int device) {
        return backend.freeMemory(device);
    }

    @Override
    public synchronized long replicaMemory(int device) {
        return backend.replicaMemory(device);
    }

    @Override
    public synchronized MemorySegment allocateHost(long bytes) {
        return backend.allocateHost(bytes);
    }

    @Override
    public synchronized void freeHost(MemorySegment host) {
        backend.freeHost(host);
    }

    @Override
    public synchronized StreamHandle createStream(int device) {
        return backend.createStream(device);
    }

    @Override
    public synchronized void destroyStream(StreamHandle stream) {
        backend.destroyStream(stream);
    }

    @Override
    public synchronized EventHandle createEvent(int device) {
        return backend.createEvent(device);
    }

    @Override
    public synchronized void destroyEvent(EventHandle event) {
        backend.destroyEvent(event);
    }

    @Override
    public synchronized void recordEvent(EventHandle event, StreamHandle stream) {
        backend.recordEvent(event, stream);
    }

    @Override
    public synchronized void streamWaitEvent(StreamHandle stream, EventHandle event) {
        backend.streamWaitEvent(stream, event);
    }

    @Override
    public synchronized boolean queryEvent(EventHandle event) {
        return backend.queryEvent(event);
    }

    @Override
    public void synchronizeEvent(EventHandle event) {
        if (clock() == Clock.VIRTUAL) {
            synchronized (this) {
                backend.synchronizeEvent(event);
            }
            return;
        }
        while (!queryEvent(event)) {
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /**
     * The wrapped backend's {@link VirtualTimeline}, each call holding the lock as the others do, or {@code null} when
     * the backend has none (a real clock).
     */
    VirtualTimeline virtualTimeline() {
        if (!(backend instanceof VirtualTimeline t)) {
            return null;
        }
        return new VirtualTimeline() {
            @Override
            public long completedAt(EventHandle event) {
                synchronized (LockedBackend.this) {
                    return t.completedAt(event);
                }
            }

            @Override
            public void holdUntil(StreamHandle stream, long nanos) {
                synchronized (LockedBackend.this) {
                    t.holdUntil(stream, nanos);
                }
            }

            @Override
            public void holdHostUntil(long nanos) {
                synchronized (LockedBackend.this) {
                    t.holdHostUntil(nanos);
                }
            }
        };
    }

    @Override
    public synchronized void synchronizeAll() {
        backend.synchronizeAll();
    }

    @Override
    public synchronized double elapsedMillis(EventHandle start, EventHandle end) {
        return backend.elapsedMillis(start, end);
    }

    @Override
    public synchronized void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes,
                                              StreamHandle stream, OperationLabel label) {
        backend.copyHostToDevice(src, dst, dstOffset, bytes, stream, label);
    }

    @Override
    public synchronized void copyDeviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes,
                                              StreamHandle stream, OperationLabel label) {
        backend.copyDeviceToHost(src, srcOffset, dst, bytes, stream, label);
    }

    @Override
    public synchronized void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                                OperationLabel label) {
        backend.copyDeviceToDevice(src, dst, bytes, stream, label);
    }

    @Override
    public synchronized ModuleHandle loadModule(int device, ModuleImage image) {
        return backend.loadModule(device, image);
    }

    @Override
    public synchronized FunctionHandle function(ModuleHandle module, String name) {
        return backend.function(module, name);
    }

    @Override
    public synchronized Optional<String> ptx(ModuleHandle module) {
        return backend.ptx(module);
    }

    @Override
    public synchronized void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        backend.writeSymbol(module, symbol, offset, src);
    }

    @Override
    public synchronized void launch(FunctionHandle function, LaunchConfig config, Object[] arguments,
                                    StreamHandle stream, OperationLabel label) {
        backend.launch(function, config, arguments, stream, label);
    }

    @Override
    public synchronized void launch(FunctionHandle function, LaunchConfig config, Object[] arguments,
                                    StreamHandle stream, OperationLabel label, ReadOnlyParameters readOnly) {
        backend.launch(function, config, arguments, stream, label, readOnly);
    }

    @Override
    public synchronized void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream,
                                           OperationLabel label) {
        backend.launchLibrary(routine, arguments, stream, label);
    }

    @Override
    public synchronized Optional<BackendException> takeFault(long computationId) {
        return backend.takeFault(computationId);
    }

    @Override
    public synchronized boolean hasPendingFaults() {
        return backend.hasPendingFaults();
    }

    @Override
    public synchronized int computationsPerCompletionEvent() {
        return backend.computationsPerCompletionEvent();
    }

    @Override
    public synchronized void recordTimeline(boolean enabled) {
        backend.recordTimeline(enabled);
    }

    @Override
    public synchronized List<TimedOperation> timeline() {
        return backend.timeline();
    }

    @Override
    public synchronized void close() {
        backend.close();
    }

    @Override
    public synchronized void cancel() {
        backend.cancel();
    }
}
