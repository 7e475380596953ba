package org.polygpu.cuda;

import org.polygpu.config.MemoryModel;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;
import org.polygpu.nvrtc.KernelCache;

/**
 * The backend over real GPUs: the CUDA driver API through FFM ({@link CudaDriver}), one retained primary context per
 * device, non-blocking streams, timing events, and peer access enabled between every pair of devices that supports
 * it (copies between the others go through the host, as {@code cuMemcpyPeerAsync} does by itself).
 *
 * <p>A façade: it owns the lifecycle and checks that the backend is open, then hands each call to the part for its
 * concept: {@link CudaDevices} (contexts, properties, peer access), {@link CudaMemory} (device buffers, explicit or
 * managed, and pinned host memory), {@link CudaStreams} (streams and events), {@link CudaTransfers} (copies),
 * {@link CudaKernels} (PTX, CUBIN and CUDA source modules; launches) or {@link CudaTimeline}; {@link CudaRegistry}
 * holds every handle given out.
 *
 * <p>Thread-safety: one caller at a time, as the SPI says; it may be a different thread each time (contexts are made
 * current on the calling thread before each call). Ownership: every buffer, host allocation, stream, event and
 * module is released by {@link #close()} if the caller did not release it.
 */
public final class CudaBackend implements Backend {
    /** Whether the backend may be used: {@code OPEN} → {@code CLOSED} by {@link #close()}, once. */
    private enum Lifecycle { OPEN, CLOSED }

    /** Streams and events per device made ready when the backend opens ({@link CudaStreams#prepare}). */
    private static final int PREPARED_STREAMS = 4;
    private static final int PREPARED_EVENTS = 32;
    private static final int COMPUTATIONS_PER_COMPLETION_EVENT = 16;

    private final CudaDriver driver;
    private final MemoryModel memoryModel;
    private final CudaDevices devices;
    private final CudaRegistry registry;
    private final CudaTimeline timeline;
    private final CudaTransfers transfers;
    private final CudaMemory memory;
    private final CudaStreams streams;
    private final CudaKernels kernels;
    private final CudaBlas blas;
    private Lifecycle lifecycle = Lifecycle.OPEN;

    private CudaBackend(CudaDriver driver, int deviceCount, MemoryModel memoryModel, String nvrtcLibrary,
            KernelCache kernelCache) {
        this.driver = driver;
        this.memoryModel = memoryModel;
        this.devices = new CudaDevices(driver, deviceCount);
        this.registry = new CudaRegistry(this, devices);
        this.timeline = new CudaTimeline(driver, devices, System.nanoTime());
        this.transfers = new CudaTransfers(devices, driver, registry, timeline);
        this.memory = new CudaMemory(this, driver, devices, registry, memoryModel);
        this.streams = new CudaStreams(this, driver, devices, registry);
        this.kernels = new CudaKernels(this, driver, devices, registry, timeline,
                new CudaSourceCompiler(nvrtcLibrary, kernelCache));
        this.blas = new CudaBlas(devices, registry, timeline, CudaBlas.systemLibrary());
    }

    /**
     * Opens the first {@code deviceCount} devices of {@code driver}.
     *
     * @param nvrtcLibrary the {@code NvrtcLibrary} option for compiling {@link ModuleImage.CudaSource}, or null
     * @throws IllegalArgumentException when fewer devices exist
     * @throws CudaException            when a context cannot be set up
     */
    public static CudaBackend open(CudaDriver driver, int deviceCount, MemoryModel memoryModel, String nvrtcLibrary) {
        return open(driver, deviceCount, memoryModel, nvrtcLibrary, KernelCache.disabled());
    }

    /** As {@link #open(CudaDriver, int, MemoryModel, String)}, keeping compiled CUDA source in {@code kernelCache}. */
    public static CudaBackend open(CudaDriver driver, int deviceCount, MemoryModel memoryModel, String nvrtcLibrary,
            KernelCache kernelCache) {
        int present = driver.deviceCount();
        if (deviceCount < 1 || deviceCount > present) {
            throw new IllegalArgumentException("cannot open " + deviceCount + " CUDA devices: " + present
                    + " are present");
        }
        CudaBackend b = new CudaBackend(driver, deviceCount, Objects.requireNonNull(memoryModel), nvrtcLibrary,
                Objects.requireNonNull(kernelCache));
        try {
            b.devices.setUp();
            b.streams.prepare(PREPARED_STREAMS, PREPARED_EVENTS);
        } catch (RuntimeException e) {
            // Releasing the primary contexts releases what was prepared in them too.
            b.kernels.close();
            b.devices.release(e);
            throw e;
        }
        return b;
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public int deviceCount() {
        return devices.count();
    }

    /** The devices' own clocks, read through timing events. */
    @Override
    public Clock clock() {
        return Clock.REAL;
    }

    /** PTX (JIT-compiled by the driver), CUBIN, and CUDA source (compiled by NVRTC for each device's architecture). */
    @Override
    public boolean accepts(ModuleImage image) {
        return CudaKernels.accepts(image);
    }

    @Override
    public DeviceProperties deviceProperties(int device) {
        devices.check(device);
        return devices.properties(device);
    }

    @Override
    public DeviceBuffer allocate(int device, long bytes) {
        checkOpen();
        return memory.allocate(device, bytes);
    }

    @Override
    public void free(DeviceBuffer buffer) {
        checkOpen();
        memory.free(buffer);
    }

    /**
     * Under {@link MemoryModel#MANAGED}, migrates a buffer's pages to {@code device} ({@code -1} for the host) in
     * {@code stream}'s order ({@code cuMemPrefetchAsync}); under {@code explicit} there is nothing to migrate.
     */
    @Override
    public void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        checkOpen();
        memory.prefetch(buffer, device, stream);
    }

    @Override
    public boolean managedMemory() {
        return memoryModel == MemoryModel.MANAGED;
    }

    /** {@code cuMemAllocManaged}, zero-filled: one allocation every device and the host address. */
    @Override
    public DeviceBuffer allocateManaged(long bytes) {
        checkOpen();
        return memory.allocateManaged(bytes);
    }

    @Override
    public MemorySegment hostView(DeviceBuffer buffer) {
        checkOpen();
        return memory.hostView(buffer);
    }

    /** {@code CUdeviceptr}s: device memory, which only a CUDA-aware library may be given. */
    @Override
    public DeviceAddressing deviceAddressing() {
        return DeviceAddressing.DEVICE_MEMORY;
    }

    @Override
    public MemorySegment devicePointer(DeviceBuffer buffer) {
        checkOpen();
        return memory.devicePointer(buffer);
    }

    /**
     * Advises managed memory to prefer {@code device} and prefetches the bytes there in stream order
     * ({@code cuMemAdvise}, {@code cuMemPrefetchAsync}); a device's own buffer migrates as the other form says.
     */
    @Override
    public void prefetch(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream,
                         OperationLabel label) {
        checkOpen();
        memory.prefetch(buffer, offset, bytes, device, stream);
    }

    @Override
    public long freeMemory(int device) {
        checkOpen();
        return memory.freeMemory(device);
    }

    /** {@link CudaMemory#replicaMemory}: free memory less a margin under {@code explicit}, unlimited under managed. */
    @Override
    public long replicaMemory(int device) {
        checkOpen();
        return memory.replicaMemory(device);
    }

    /** Pinned, zero-filled host memory; the segment becomes inaccessible when {@link #freeHost} releases it. */
    @Override
    public MemorySegment allocateHost(long bytes) {
        checkOpen();
        return memory.allocateHost(bytes);
    }

    @Override
    public void freeHost(MemorySegment host) {
        checkOpen();
        memory.freeHost(host);
    }

    @Override
    public StreamHandle createStream(int device) {
        checkOpen();
        return streams.createStream(device);
    }

    @Override
    public void destroyStream(StreamHandle stream) {
        checkOpen();
        streams.destroyStream(stream);
    }

    /**
     * {@value #COMPUTATIONS_PER_COMPLETION_EVENT}: each {@code cuEventRecord} and {@code cuEventQuery} is a driver call
     * (together about 3-4 us per launch on the H100 measured), so computations share one.
     */
    @Override
    public int computationsPerCompletionEvent() {
        return COMPUTATIONS_PER_COMPLETION_EVENT;
    }

    @Override
    public EventHandle createEvent(int device) {
        checkOpen();
        return streams.createEvent(device);
    }

    @Override
    public void destroyEvent(EventHandle event) {
        checkOpen();
        streams.destroyEvent(event);
    }

    @Override
    public void recordEvent(EventHandle event, StreamHandle stream) {
        checkOpen();
        streams.recordEvent(event, stream);
    }

    @Override
    public void streamWaitEvent(StreamHandle stream, EventHandle event) {
        checkOpen();
        streams.streamWaitEvent(stream, event);
    }

    @Override
    public boolean queryEvent(EventHandle event) {
        checkOpen();
        return streams.queryEvent(event);
    }

    @Override
    public void synchronizeEvent(EventHandle event) {
        checkOpen();
        streams.synchronizeEvent(event);
    }

    @Override
    public void synchronizeAll() {
        checkOpen();
        streams.synchronizeAll();
    }

    @Override
    public double elapsedMillis(EventHandle start, EventHandle end) {
        checkOpen();
        return streams.elapsedMillis(start, end);
    }

    @Override
    public void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        checkOpen();
        transfers.hostToDevice(src, dst, dstOffset, bytes, stream, label);
    }

    @Override
    public void copyDeviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        checkOpen();
        transfers.deviceToHost(src, srcOffset, dst, bytes, stream, label);
    }

    @Override
    public void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                   OperationLabel label) {
        checkOpen();
        transfers.deviceToDevice(src, dst, bytes, stream, label);
    }

    @Override
    public ModuleHandle loadModule(int device, ModuleImage image) {
        checkOpen();
        return kernels.loadModule(device, image);
    }

    /** Finds {@code name}: a C kernel name, a mangled name, or a name expression the module was compiled with. */
    @Override
    public FunctionHandle function(ModuleHandle module, String name) {
        checkOpen();
        return kernels.function(module, name);
    }

    /** The PTX a module was loaded from, or that NVRTC gave for a GPU newer than it knows; empty for a CUBIN. */
    @Override
    public Optional<String> ptx(ModuleHandle module) {
        checkOpen();
        return kernels.ptx(module);
    }

    @Override
    public void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        checkOpen();
        kernels.writeSymbol(module, symbol, offset, src);
    }

    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] args, StreamHandle stream,
                       OperationLabel label) {
        checkOpen();
        kernels.launch(function, config, args, stream, label);
    }

    /** Runs a BLAS function with cuBLAS ({@link CudaBlas}); other routines are refused. */
    @Override
    public void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        checkOpen();
        blas.launch(routine, arguments, stream, label);
    }

    @Override
    public void recordTimeline(boolean enabled) {
        checkOpen();
        timeline.enable(enabled);
    }

    @Override
    public List<TimedOperation> timeline() {
        checkOpen();
        return timeline.timeline();
    }

    /** Waits for all work, then releases everything the backend still holds and the primary contexts. Idempotent. */
    @Override
    public void close() {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        RuntimeException failure = null;
        // The work first, then the backend is closed and each part released, whatever an earlier step threw.
        for (Runnable step : List.<Runnable>of(this::synchronizeAll, () -> lifecycle = Lifecycle.CLOSED,
                timeline::close, blas::close, streams::close)) {
            try {
                step.run();
            } catch (RuntimeException e) {
                failure = CudaRegistry.add(failure, e);
            }
        }
        failure = registry.releaseAll(driver, failure);
        kernels.close();
        failure = devices.release(failure);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "CUDA backend (" + devices.count() + " devices, MemoryModel=" + memoryModel.optionValue() + ")";
    }

    private void checkOpen() {
        if (lifecycle == Lifecycle.CLOSED) {
            throw new BackendException("the CUDA backend is closed");
        }
    }
}
