package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.BufferOffset;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.LibraryRoutine;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.blas.BlasFunction;

/**
 * The CUDA backend's library routines: BLAS functions run by cuBLAS, loaded on first use ({@link CublasLibrary}), with
 * one handle per device in device pointer mode, set to the stream of each call. Not thread-safe (the backend's single
 * caller). Lifecycle: handles are created on first use on their device and destroyed by {@link #close()}.
 */
final class CudaBlas {
    private final CudaDevices devices;
    private final CudaRegistry registry;
    private final CudaTimeline timeline;
    private final Supplier<FfmCublas> loader;
    private final MemorySegment[] handles;
    private FfmCublas cublas;

    /** @param loader loads cuBLAS when a first BLAS function is called */
    CudaBlas(CudaDevices devices, CudaRegistry registry, CudaTimeline timeline, Supplier<FfmCublas> loader) {
        this.devices = devices;
        this.registry = registry;
        this.timeline = timeline;
        this.loader = loader;
        this.handles = new MemorySegment[devices.count()];
    }

    /** cuBLAS from the system ({@link CublasLibrary}). */
    static Supplier<FfmCublas> systemLibrary() {
        return () -> FfmCublas.load(CublasLibrary.system().locate());
    }

    /** Enqueues {@code routine}, a BLAS function, on {@code stream}. */
    void launch(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        if (!(routine instanceof BlasFunction f)) {
            throw new BackendException("the CUDA backend cannot run " + routine.name());
        }
        CudaHandles.Stream s = registry.stream(stream);
        Object[] onDevice = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            Object a = arguments[i];
            onDevice[i] = a instanceof DeviceBuffer || a instanceof BufferOffset
                    ? registry.kernelPointer(f.name(), i, a, s.device) : a;
        }
        devices.current(s.device);
        MemorySegment handle = handle(s.device);
        cublas.setStream(handle, s.handle);
        MemorySegment start = timeline.begin(s.device, s.handle);
        cublas.call(f, handle, onDevice);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.KERNEL, label, 0, s.device);
    }

    /** The handle of {@code device}, whose context is current. */
    private MemorySegment handle(int device) {
        if (cublas == null) {
            cublas = loader.get();
        }
        if (handles[device] == null) {
            MemorySegment h = cublas.create();
            cublas.setPointerMode(h, FfmCublas.POINTER_MODE_DEVICE);
            handles[device] = h;
        }
        return handles[device];
    }

    /** Destroys the handles (each in its device's context) and unloads cuBLAS. */
    void close() {
        if (cublas == null) {
            return;
        }
        try {
            for (int d = 0; d < handles.length; d++) {
                if (handles[d] != null) {
                    devices.current(d);
                    cublas.destroy(handles[d]);
                    handles[d] = null;
                }
            }
        } finally {
            cublas.close();
            cublas = null;
        }
    }
}
