package org.polygpu.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleHandle;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.backend.TimedOperation;

/**
 * The backend over real GPUs: the CUDA driver API through FFM ({@link CudaDriver}), one retained primary context per
 * device, non-blocking streams, timing events, and peer access enabled between every pair of devices that supports
 * it (copies between the others go through the host, as {@code cuMemcpyPeerAsync} does by itself).
 *
 * <p>Memory. Device buffers are {@code cuMemAlloc} allocations (or managed ones under {@link MemoryModel#MANAGED}),
 * zero-filled on a per-device internal stream before they are handed out. Host memory from {@link #allocateHost} is
 * pinned ({@code cuMemHostAlloc}, portable) so copies are truly asynchronous; its segment is tied to an arena that
 * {@link #freeHost} closes, so a use after free fails in Java instead of corrupting memory.
 *
 * <p>Modules. {@link ModuleImage.Ptx} is JIT-compiled by the driver (a PTX newer than the driver fails with a
 * message saying so), {@link ModuleImage.Cubin} is loaded as is, and {@link ModuleImage.CudaSource} is compiled by
 * NVRTC to a CUBIN for the device's architecture ({@link CudaSourceCompiler}).
 *
 * <p>Thread-safety: one caller at a time, as the SPI says; it may be a different thread each time (contexts are made
 * current on the calling thread before each call). Ownership: every buffer, host allocation, stream, event and
 * module is released by {@link #close()} if the caller did not release it.
 */
public final class CudaBackend implements Backend {
    /** Whether the backend may be used: {@code OPEN} → {@code CLOSED} by {@link #close()}, once. */
    private enum Lifecycle { OPEN, CLOSED }

    private final CudaDriver driver;
    private final MemoryModel memoryModel;
    private final int[] cuDevices;
    private final MemorySegment[] contexts;
    private final MemorySegment[] internalStreams;
    private final DeviceProperties[] properties;
    private final boolean[][] peerAccess;
    private final int[] streamsCreated;
    private final CudaSourceCompiler compiler;
    private final CudaTimeline timeline;
    private final KernelArguments arguments = new KernelArguments();
    private final CudaRegistry registry = new CudaRegistry(this);
    private final CudaTransfers transfers;
    private Lifecycle lifecycle = Lifecycle.OPEN;

    private CudaBackend(CudaDriver driver, int deviceCount, MemoryModel memoryModel, String nvrtcLibrary) {
        this.driver = driver;
        this.memoryModel = memoryModel;
        this.cuDevices = new int[deviceCount];
        this.contexts = new MemorySegment[deviceCount];
        this.internalStreams = new MemorySegment[deviceCount];
        this.properties = new DeviceProperties[deviceCount];
        this.peerAccess = new boolean[deviceCount][deviceCount];
        this.streamsCreated = new int[deviceCount];
        this.compiler = new CudaSourceCompiler(nvrtcLibrary);
        this.timeline = new CudaTimeline(driver, contexts, internalStreams, System.nanoTime());
        this.transfers = new CudaTransfers(this, driver, timeline);
    }

    /**
     * Opens the first {@code deviceCount} devices of {@code driver}.
     *
     * @param nvrtcLibrary the {@code NvrtcLibrary} option for compiling {@link ModuleImage.CudaSource}, or null
     * @throws IllegalArgumentException when fewer devices exist
     * @throws CudaException            when a context cannot be set up
     */
    public static CudaBackend open(CudaDriver driver, int deviceCount, MemoryModel memoryModel, String nvrtcLibrary) {
        int present = driver.deviceCount();
        if (deviceCount < 1 || deviceCount > present) {
            throw new IllegalArgumentException("cannot open " + deviceCount + " CUDA devices: " + present
                    + " are present");
        }
        CudaBackend b = new CudaBackend(driver, deviceCount, Objects.requireNonNull(memoryModel), nvrtcLibrary);
        try {
            b.setUp();
        } catch (RuntimeException e) {
            b.releaseContexts(e);
            throw e;
        }
        return b;
    }

    private void setUp() {
        for (int d = 0; d < cuDevices.length; d++) {
            cuDevices[d] = driver.device(d);
            contexts[d] = driver.retainPrimaryContext(cuDevices[d]);
            driver.setCurrent(contexts[d]);
            internalStreams[d] = driver.createStream(CudaDriver.STREAM_NON_BLOCKING);
            properties[d] = CudaDeviceQuery.properties(driver, cuDevices[d]);
        }
        for (int d = 0; d < cuDevices.length; d++) {
            for (int p = 0; p < cuDevices.length; p++) {
                if (p != d && driver.canAccessPeer(cuDevices[d], cuDevices[p])) {
                    driver.setCurrent(contexts[d]);
                    driver.enablePeerAccess(contexts[p]);
                    peerAccess[d][p] = true;
                }
            }
        }
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public int deviceCount() {
        return contexts.length;
    }

    public MemoryModel memoryModel() {
        return memoryModel;
    }

    /** Whether {@code device} reads and writes {@code peer}'s memory directly (NVLink or PCIe peer-to-peer). */
    public boolean peerAccess(int device, int peer) {
        checkDevice(device);
        checkDevice(peer);
        return peerAccess[device][peer];
    }

    @Override
    public DeviceProperties deviceProperties(int device) {
        checkDevice(device);
        return properties[device];
    }

    @Override
    public DeviceBuffer allocate(int device, long bytes) {
        checkOpen();
        checkDevice(device);
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        current(device);
        long size = Math.max(bytes, 1); // cuMemAlloc refuses 0 bytes
        long pointer;
        try {
            pointer = memoryModel == MemoryModel.MANAGED ? driver.allocateManaged(size) : driver.allocate(size);
        } catch (CudaException e) {
            throw e.withDetail("allocating " + bytes + " bytes on device " + device + " ("
                    + properties[device].name() + ", " + driver.memoryInfo().free() + " bytes free)");
        }
        CudaHandles.Buffer b = new CudaHandles.Buffer(this, device, bytes, pointer);
        registry.add(b);
        try {
            if (memoryModel == MemoryModel.MANAGED) {
                driver.advise(pointer, size, CudaDriver.MemoryAdvice.CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                        cuDevices[device]);
                driver.prefetchAsync(pointer, size, cuDevices[device], internalStreams[device]);
            }
            driver.memsetAsync(pointer, (byte) 0, size, internalStreams[device]);
            driver.synchronizeStream(internalStreams[device]);
        } catch (RuntimeException e) {
            free(b);
            throw e;
        }
        return b;
    }

    @Override
    public void free(DeviceBuffer buffer) {
        checkOpen();
        CudaHandles.Buffer b = registry.buffer(buffer, "free");
        current(b.device);
        registry.remove(b);
        driver.free(b.pointer);
    }

    /**
     * Under {@link MemoryModel#MANAGED}, migrates a buffer's pages to {@code device} ({@code -1} for the host) in
     * {@code stream}'s order; under {@code explicit} there is nothing to migrate.
     */
    public void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        checkOpen();
        CudaHandles.Buffer b = registry.buffer(buffer, "prefetch");
        CudaHandles.Stream s = registry.stream(stream);
        if (memoryModel == MemoryModel.MANAGED) {
            current(s.device);
            driver.prefetchAsync(b.pointer, Math.max(b.bytes, 1), device < 0 ? CudaDriver.DEVICE_CPU
                    : cuDevices[device], s.handle);
        }
    }

    @Override
    public long freeMemory(int device) {
        checkOpen();
        checkDevice(device);
        current(device);
        return driver.memoryInfo().free();
    }

    /** Pinned, zero-filled host memory; the segment becomes inaccessible when {@link #freeHost} releases it. */
    @Override
    public MemorySegment allocateHost(long bytes) {
        checkOpen();
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes of host memory");
        }
        current(0);
        MemorySegment pinned = driver.allocateHost(Math.max(bytes, 1));
        Arena arena = Arena.ofShared();
        MemorySegment host = pinned.reinterpret(bytes, arena, null);
        host.fill((byte) 0);
        registry.addHost(host, arena);
        return host;
    }

    @Override
    public void freeHost(MemorySegment host) {
        checkOpen();
        Arena arena = registry.removeHost(Objects.requireNonNull(host, "host"));
        current(0);
        arena.close();
        driver.freeHost(MemorySegment.ofAddress(host.address()));
    }

    @Override
    public StreamHandle createStream(int device) {
        checkOpen();
        checkDevice(device);
        current(device);
        CudaHandles.Stream s = new CudaHandles.Stream(this, device, streamsCreated[device]++,
                driver.createStream(CudaDriver.STREAM_NON_BLOCKING));
        registry.add(s);
        return s;
    }

    @Override
    public void destroyStream(StreamHandle stream) {
        checkOpen();
        CudaHandles.Stream s = registry.stream(stream);
        current(s.device);
        registry.remove(s);
        driver.destroyStream(s.handle);
    }

    @Override
    public EventHandle createEvent(int device) {
        checkOpen();
        checkDevice(device);
        current(device);
        CudaHandles.Event e = new CudaHandles.Event(this, device, driver.createEvent(CudaDriver.EVENT_DEFAULT));
        registry.add(e);
        return e;
    }

    @Override
    public void destroyEvent(EventHandle event) {
        checkOpen();
        CudaHandles.Event e = registry.event(event);
        current(e.device);
        registry.remove(e);
        driver.destroyEvent(e.handle);
    }

    @Override
    public void recordEvent(EventHandle event, StreamHandle stream) {
        checkOpen();
        CudaHandles.Event e = registry.event(event);
        CudaHandles.Stream s = registry.stream(stream);
        if (e.device != s.device) {
            throw new BackendException("cannot record an " + e + " on " + s + ": an event is recorded on its own "
                    + "device's streams");
        }
        current(s.device);
        driver.recordEvent(e.handle, s.handle);
    }

    @Override
    public void streamWaitEvent(StreamHandle stream, EventHandle event) {
        checkOpen();
        CudaHandles.Stream s = registry.stream(stream);
        CudaHandles.Event e = registry.event(event);
        current(s.device);
        driver.streamWaitEvent(s.handle, e.handle);
    }

    @Override
    public boolean queryEvent(EventHandle event) {
        checkOpen();
        CudaHandles.Event e = registry.event(event);
        current(e.device);
        return driver.queryEvent(e.handle);
    }

    @Override
    public void synchronizeEvent(EventHandle event) {
        checkOpen();
        CudaHandles.Event e = registry.event(event);
        current(e.device);
        driver.synchronizeEvent(e.handle);
    }

    @Override
    public void synchronizeAll() {
        checkOpen();
        for (int d = 0; d < contexts.length; d++) {
            current(d);
            driver.synchronizeContext();
        }
    }

    @Override
    public double elapsedMillis(EventHandle start, EventHandle end) {
        checkOpen();
        CudaHandles.Event s = registry.event(start);
        CudaHandles.Event e = registry.event(end);
        current(e.device);
        return driver.elapsedMillis(s.handle, e.handle);
    }

    @Override
    public void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                 OperationLabel label) {
        checkOpen();
        transfers.hostToDevice(src, registry.buffer(dst, "copy destination"), bytes, registry.stream(stream), label);
    }

    @Override
    public void copyDeviceToHost(DeviceBuffer src, MemorySegment dst, long bytes, StreamHandle stream,
                                 OperationLabel label) {
        checkOpen();
        transfers.deviceToHost(registry.buffer(src, "copy source"), dst, bytes, registry.stream(stream), label);
    }

    @Override
    public void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                   OperationLabel label) {
        checkOpen();
        transfers.deviceToDevice(registry.buffer(src, "copy source"), registry.buffer(dst, "copy destination"), bytes,
                registry.stream(stream), label);
    }

    @Override
    public ModuleHandle loadModule(int device, ModuleImage image) {
        checkOpen();
        checkDevice(device);
        current(device);
        CudaModules m = driver.modules();
        DeviceProperties p = properties[device];
        CudaHandles.Module module = switch (Objects.requireNonNull(image, "image")) {
            case ModuleImage.Ptx ptx -> new CudaHandles.Module(this, device, m.loadPtx(ptx.text()), Map.of());
            case ModuleImage.Cubin c -> new CudaHandles.Module(this, device,
                    m.loadCubin(c.image(), c.architecture()), Map.of());
            case ModuleImage.CudaSource source -> {
                CudaSourceCompiler.Compiled compiled = compiler.compile(source, p.computeMajor(), p.computeMinor());
                MemorySegment handle = compiled.image() instanceof ModuleImage.Cubin c
                        ? m.loadCubin(c.image(), c.architecture())
                        : m.loadPtx(((ModuleImage.Ptx) compiled.image()).text());
                yield new CudaHandles.Module(this, device, handle, compiled.loweredNames());
            }
            default -> throw new BackendException("cannot load " + image.description() + " on the CUDA backend: it "
                    + "loads PTX, CUBIN and CUDA source images");
        };
        registry.add(module);
        return module;
    }

    /** Finds {@code name}: a C kernel name, a mangled name, or a name expression the module was compiled with. */
    @Override
    public FunctionHandle function(ModuleHandle module, String name) {
        checkOpen();
        CudaHandles.Module m = registry.module(module);
        current(m.device);
        String symbol = m.loweredNames.getOrDefault(name, name);
        return new CudaHandles.Function(m, name, driver.modules().function(m.handle, symbol));
    }

    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] args, StreamHandle stream,
                       OperationLabel label) {
        checkOpen();
        if (!(function instanceof CudaHandles.Function f) || f.module.owner != this || f.module.unloaded) {
            throw new BackendException("not a kernel of this CUDA backend: " + function);
        }
        CudaHandles.Stream s = registry.stream(stream);
        if (f.device() != s.device) {
            throw new BackendException(f + " cannot be launched on " + s + ": load its module on that device");
        }
        MemorySegment params = arguments.pack(f.name, args, s.device, registry);
        current(s.device);
        MemorySegment start = timeline.begin(s.device, s.handle);
        driver.modules().launch(f.handle, config.grid().x(), config.grid().y(), config.grid().z(),
                config.block().x(), config.block().y(), config.block().z(), config.sharedMemoryBytes(), s.handle,
                params);
        timeline.end(start, s.device, s.id, s.handle, TimedOperation.Kind.KERNEL, label, 0, s.device);
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
        try {
            synchronizeAll();
        } catch (RuntimeException e) {
            failure = e;
        }
        lifecycle = Lifecycle.CLOSED;
        failure = timelineClose(failure);
        failure = registry.releaseAll(driver, failure);
        failure = releaseContexts(failure);
        if (failure != null) {
            throw failure;
        }
    }

    private RuntimeException releaseContexts(RuntimeException failure) {
        arguments.close();
        for (int d = 0; d < contexts.length; d++) {
            if (contexts[d] == null) {
                continue;
            }
            try {
                if (internalStreams[d] != null) {
                    driver.setCurrent(contexts[d]);
                    driver.destroyStream(internalStreams[d]);
                }
                driver.releasePrimaryContext(cuDevices[d]);
            } catch (RuntimeException e) {
                failure = CudaRegistry.add(failure, e);
            }
        }
        return failure;
    }

    @Override
    public String toString() {
        return "CUDA backend (" + contexts.length + " devices, MemoryModel=" + memoryModel.optionValue() + ")";
    }

    /** Makes {@code device}'s context current on the calling thread. */
    void current(int device) {
        driver.setCurrent(contexts[device]);
    }

    MemorySegment context(int device) {
        return contexts[device];
    }

    private RuntimeException timelineClose(RuntimeException failure) {
        try {
            timeline.close();
        } catch (RuntimeException e) {
            failure = CudaRegistry.add(failure, e);
        }
        return failure;
    }

    private void checkOpen() {
        if (lifecycle == Lifecycle.CLOSED) {
            throw new BackendException("the CUDA backend is closed");
        }
    }

    private void checkDevice(int device) {
        if (device < 0 || device >= contexts.length) {
            throw new IllegalArgumentException("device " + device + " is out of range: valid devices are 0.."
                    + (contexts.length - 1));
        }
    }
}
