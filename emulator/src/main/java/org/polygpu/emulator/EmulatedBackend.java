package org.polygpu.emulator;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
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
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.topology.BandwidthMatrix;

/**
 * The emulated backend: N virtual GPUs of one {@link DeviceModel}, connected as a {@link BandwidthMatrix} says, each
 * with its own memory, streams and events, run by a deterministic discrete-event simulation in virtual nanoseconds.
 *
 * <p>Time. The host has a virtual clock ({@link #hostNanos()}) that advances by the host API cost at every enqueue
 * call (copy, launch, record, wait) and by the poll cost at every {@link #queryEvent}; an operation may start no
 * earlier than the host time of its enqueue call. Blocking calls move the host clock to when the awaited work ends.
 * A stream holding {@code maxPendingPerStream} incomplete operations blocks the next enqueue until its head
 * completes, like a full launch queue, which bounds memory over millions of launches.
 *
 * <p>Timing model ({@code docs/emulator-model.md}). A copy takes its latency plus {@code bytes / bandwidth}, the
 * bandwidth from the matrix (slowed for pageable host memory, {@link CopyCost}); copies on one directed link share
 * it ({@link LinkModel}). A Java kernel takes the launch latency plus a roofline of its declared work, a PTX kernel
 * the latency plus {@link DeviceModel#kernelNanos}; kernels at once on a device share it ({@link ComputeModel}).
 *
 * <p>Data. Each device buffer is separate zeroed off-heap memory, so a buffer of another device passed to a kernel
 * is refused and a missing copy leaves stale data. A copy's data effect, and a Java kernel's body over the whole
 * grid, happen when the operation completes in virtual time, completions being processed in (end time, enqueue
 * order): a consumer not made to wait for its producer runs first and reads stale data, as on a real GPU.
 *
 * <p>Managed memory ({@code MemoryModel=managed}). One allocation every device addresses, its pages placed by a
 * {@link PageResidency}: a prefetch is a {@link MigrationOperation} on its stream, timed on the link model for the
 * pages that are elsewhere, and a kernel that touches pages away from its device pays their faults before it
 * executes ({@link PageFaults}). {@link #managedMigrations()} counts both.
 *
 * <p>PTX kernels execute on the SIMT interpreter when they <em>start</em> in virtual time, because their duration
 * depends on what they execute; {@link PtxExecution} says what that means for programs that race.
 *
 * <p>Host observations. A read that no synchronisation orders after a writer (a copy to the host on a stream that
 * does not wait for a kernel, the host's view of managed memory while a kernel writes it) gives the same answer on
 * every run: what the host reads is the memory as the simulation left it after firing, in (time, enqueue sequence)
 * order, the events up to that read's virtual instant (a copy to the host, its completion), so it sees exactly the
 * effects that took effect before, a PTX kernel's at its start, a Java kernel's, library routine's and copy's at
 * their completion; the host's view of managed memory shows the simulation as far as the host's own calls advanced
 * it. Neither depends on the wall clock, threads or the garbage collector. The runtime orders the races it can see
 * (a kernel storing through a read-only pointer) and reports them; this rule decides the others.
 *
 * <p>Effects run inside whichever call advances the simulation. A kernel's fault (exception, memcheck, a store through
 * a read-only parameter, instruction budget) is kept for {@link #takeFault}, or thrown by the call reaching its
 * completion when it served no computation. Counters of PTX launches: {@link #lastProfile()}, {@link #profile}.
 *
 * <p>Structure: {@link EmulatedMemories} holds the memories; this class owns the simulation and the lifecycle, and
 * hands events, copies and kernels to {@link EmulatedEvents}, {@link EmulatedTransfers} and {@link EmulatedKernels}.
 *
 * <p>Thread-safety: none; the scheduler calls a backend from one thread at a time. Ownership: device buffers and
 * {@link #allocateHost} memory are owned by the backend and released by {@link #free}, {@link #freeHost} or
 * {@link #close()}; a backend that becomes unreachable unclosed has them released by a cleaner ({@link NativeRelease}).
 */
public final class EmulatedBackend extends EmulatedMemories implements VirtualTimeline {
    /** Whether the backend may still be used: {@code OPEN} → {@code CLOSED} by {@link #close()}, once. */
    private enum Lifecycle { OPEN, CLOSED }

    private final BandwidthMatrix topology;
    private final DeviceModel model;
    private final DeviceProperties properties;
    private final int[] streamsCreated;
    private final Simulation simulation;
    private final HostClock host;
    private final EmulatedEvents events;
    private final EmulatedTransfers transfers;
    private final EmulatedKernels kernels;
    private final CounterLog counterLog = new CounterLog();
    private final Cleaner.Cleanable release;
    private Lifecycle lifecycle = Lifecycle.OPEN;

    EmulatedBackend(EmulatedBackendBuilder b) {
        super(b.topology().gpuCount(), b.model().totalMemory(), b.memoryModel());
        this.topology = b.topology();
        this.model = b.model();
        this.properties = model.properties();
        this.streamsCreated = new int[memories.length];
        this.simulation = new Simulation(new LinkModel(topology, b.cluster()), ComputeModel.forDevices(topology.gpuCount()),
                b.copyLatencyNanos() >= 0 ? b.copyLatencyNanos()
                        : Math.round(model.copies().hostToDevicePinned().latencyNs()));
        this.host = new HostClock(simulation, b.hostApiNanos(), b.pollNanos());
        Consumer<EmulatedStream> awaitRoom = host.backPressure(b.maxPendingPerStream());
        this.events = new EmulatedEvents(handles, host, awaitRoom);
        this.transfers = new EmulatedTransfers(handles, hostMemory, simulation.links(), host, awaitRoom,
                managedMemory, memories.length, model.copies(), b.copyLatencyNanos());
        PtxKernels interpreter = new PtxKernels(b.parallelism(), model, b.launchLatencyNanos(),
                b.instructionBudget(), b.deviceOutput(), b.sampledBlocks());
        this.kernels = new EmulatedKernels(identity, handles, memories, interpreter, new PtxSourceCompiler(
                b.nvrtcLibrary(), b.kernelCache(), model.ptxArchitecture()), counterLog, host, awaitRoom,
                new PageFaults(simulation.links(), managedMemory, b.pageFaultNanos(), memories.length), faults);
        this.release = NativeRelease.register(this, memories, hostMemory, managedMemory, interpreter);
    }

    /** A builder with the defaults listed on {@link EmulatedBackendBuilder}; a topology is required. */
    public static EmulatedBackendBuilder builder() {
        return new EmulatedBackendBuilder();
    }

    @Override
    public String name() {
        return "emulated";
    }

    /** The simulation's virtual clock. */
    @Override
    public Clock clock() {
        return Clock.VIRTUAL;
    }

    /** PTX, CUDA source (compiled to PTX for {@link DeviceModel#ptxArchitecture()}) and {@link JavaKernelModule}s. */
    @Override
    public boolean accepts(ModuleImage image) {
        return EmulatedKernels.accepts(image);
    }

    /** The bandwidth matrix of the emulated devices (restricted to them) and the host. */
    public BandwidthMatrix topology() {
        return topology;
    }

    public DeviceModel model() {
        return model;
    }

    /** The host's virtual time in nanoseconds, the clock the simulated copies and kernels run by. */
    @Override
    public long hostNanos() {
        return host.nanos();
    }

    /** The virtual time at which the last completed copy or kernel ended, or 0. */
    public long makespanNanos() {
        return simulation.makespan();
    }

    @Override
    public DeviceProperties deviceProperties(int device) {
        checkDevice(device);
        return properties;
    }

    /**
     * A device's own buffer has nothing to migrate (each virtual device's memory is its own, and copies move
     * replicas); managed memory migrates as a whole, as the ranged form does.
     */
    @Override
    public void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        checkOpen();
        EmulatedBuffer b = handles.buffer(buffer, "prefetch");
        handles.stream(stream);
        if (device != -1) {
            checkDevice(device);
        }
        if (b.isManaged()) {
            transfers.migrate(b, 0, b.bytes(), device, stream, new OperationLabel(-1, "prefetch"));
        }
    }

    /** Enqueues a {@link MigrationOperation}, timed on the link model for the pages that are elsewhere. */
    @Override
    public void prefetch(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream,
                         OperationLabel label) {
        checkOpen();
        if (device != -1) {
            checkDevice(device);
        }
        transfers.migrate(buffer, offset, bytes, device, stream, label);
    }

    /** Stores through read-only parameters fault, for PTX and Java kernels alike. */
    @Override
    public boolean checksReadOnlyStores() {
        return true;
    }

    @Override
    public StreamHandle createStream(int device) {
        checkOpen();
        checkDevice(device);
        return new EmulatedStream(identity, device, streamsCreated[device]++);
    }

    @Override
    public void destroyStream(StreamHandle stream) {
        checkOpen();
        handles.stream(stream).destroy();
    }

    @Override
    public EventHandle createEvent(int device) {
        checkOpen();
        checkDevice(device);
        return new EmulatedEvent(identity, device);
    }

    @Override
    public void destroyEvent(EventHandle event) {
        checkOpen();
        handles.event(event).destroy();
    }

    @Override
    public void recordEvent(EventHandle event, StreamHandle stream) {
        checkOpen();
        events.record(event, stream);
    }

    @Override
    public void streamWaitEvent(StreamHandle stream, EventHandle event) {
        checkOpen();
        events.streamWait(stream, event);
    }

    @Override
    public boolean queryEvent(EventHandle event) {
        checkOpen();
        return events.query(event);
    }

    @Override
    public void synchronizeEvent(EventHandle event) {
        checkOpen();
        events.synchronize(event);
    }

    @Override
    public long completedAt(EventHandle event) {
        checkOpen();
        return events.completedAt(event);
    }

    @Override
    public void holdUntil(StreamHandle stream, long nanos) {
        checkOpen();
        events.holdUntil(stream, nanos);
    }

    @Override
    public void holdHostUntil(long nanos) {
        checkOpen();
        host.advanceTo(nanos);
    }

    @Override
    public void synchronizeAll() {
        checkOpen();
        host.blockUntilIdle();
    }

    @Override
    public double elapsedMillis(EventHandle start, EventHandle end) {
        checkOpen();
        return events.elapsedMillis(start, end);
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

    /**
     * Loads a {@link JavaKernelModule}, PTX text, or CUDA source, which NVRTC compiles to PTX for
     * {@link DeviceModel#ptxArchitecture()} (loaded on first use, from the builder's {@code nvrtcLibrary}); PTX is
     * parsed once per distinct text whatever the number of devices, its variables placed on {@code device}; no CUBIN.
     */
    @Override
    public ModuleHandle loadModule(int device, ModuleImage image) {
        checkOpen();
        checkDevice(device);
        return kernels.load(device, image);
    }

    /** Finds {@code name}: a Java kernel's name, a PTX kernel's (mangled) name, or a source's name expression. */
    @Override
    public FunctionHandle function(ModuleHandle module, String name) {
        checkOpen();
        return kernels.function(module, name);
    }

    /** The PTX a module was loaded from or compiled to; empty for Java kernels. */
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
    public void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                       OperationLabel label) {
        launch(function, config, arguments, stream, label, ReadOnlyParameters.NONE);
    }

    /** Enqueues a kernel, its configuration and arguments checked first ({@link EmulatedKernels#launch}). */
    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                       OperationLabel label, ReadOnlyParameters readOnly) {
        checkOpen();
        kernels.launch(function, config, arguments, stream, label, readOnly);
    }

    /** Enqueues a library routine's Java implementation, timed by a roofline of its declared work. */
    @Override
    public void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        checkOpen();
        kernels.launchLibrary(routine, arguments, stream, label);
    }

    /** The profile (shape, footprint, counters) of the PTX launch that completed last in virtual time, if any. */
    public Optional<KernelProfile> lastProfile() {
        return counterLog.last();
    }

    /** The profile of the completed PTX launch labelled {@code computationId}, kept while the timeline is recorded. */
    public Optional<KernelProfile> profile(long computationId) {
        return counterLog.of(computationId);
    }

    @Override
    public void recordTimeline(boolean enabled) {
        simulation.recordTimeline(enabled);
        counterLog.record(enabled);
    }

    @Override
    public List<TimedOperation> timeline() {
        return simulation.timeline();
    }

    @Override
    public void cancel() {
        lifecycle = Lifecycle.CLOSED; // the work not started in virtual time is never simulated
        release.clean();
    }

    /** Waits for all work, then releases every buffer and host allocation; later calls fail. Idempotent. */
    @Override
    public void close() {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        try {
            synchronizeAll();
        } finally {
            lifecycle = Lifecycle.CLOSED;
            release.clean();
        }
    }

    @Override
    public String toString() {
        return "emulated backend (" + deviceCount() + " x " + model.name() + ")";
    }

    @Override
    void checkOpen() {
        if (lifecycle == Lifecycle.CLOSED) {
            throw new BackendException("the emulated backend is closed");
        }
    }
}
