package org.polygpu.sched;

import static org.polygpu.sched.HostRanges.checkHostRange;
import static org.polygpu.sched.HostRanges.checkHostSize;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.backend.Backend;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.dag.Dag;
import org.polygpu.export.Eviction;
import org.polygpu.export.ScheduleLog;
import org.polygpu.sched.spi.DeviceSelectionPolicies;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.topology.BandwidthMatrix;

/**
 * The runtime's entry point: arrays, kernels, launches and host accesses, scheduled over the devices of one
 * backend (the life of a launch in ARCHITECTURE.md).
 *
 * <p>Every call appends a computation to the DAG, gives it a device and stream, makes its arrays coherent there
 * (allocating replicas within each device's memory, evicting least recently used ones that no pending work needs
 * when it is full) and enqueues it; the host continues at once under {@code ExecutionPolicy=async}. Host accesses
 * wait only for the computations their array depends on. Finished work is found by polling events and pruned.
 *
 * <p>Thread-safety: one thread at a time (callers serialise, as the language's context does). The context owns
 * the backend's streams, events and the arrays' replicas; {@link #close()} releases them, not the backend.
 */
public final class ExecutionContext implements AutoCloseable {
    private final Backend backend;
    private final RuntimeConfig config;
    private final int deviceCount;
    private final Schedule schedule;
    private final Dag<Computation> dag;
    private final StreamPool pool;
    private final ReplicaTransfers transfers;
    private final Submissions submissions;
    private final LaunchArguments arguments;
    private final ScheduleRecording recording;
    private final HostAccesses hostSide;
    private final SymbolWrites symbols;
    private final ContextArrays arrays;
    private final LibraryCalls libraries;
    private final UserStreams userStreams;
    private boolean closed;

    private ExecutionContext(Backend backend, RuntimeConfig config, BandwidthMatrix bandwidth, int deviceCount) {
        this.backend = backend;
        this.config = config;
        this.deviceCount = deviceCount;
        this.schedule = new Schedule(backend, config, deviceCount);
        this.dag = schedule.dag();
        this.pool = schedule.pool();
        var settings = new PolicySettings(deviceCount, bandwidth, config.dataThreshold(), backend::hostNanos);
        DeviceBudgets budgets = DeviceBudgets.of(backend, deviceCount);
        StreamAssignment assignment = new StreamAssignment(config.parentStreamPolicy(), schedule.times().observedBy(
                DeviceSelectionPolicies.create(config.deviceSelectionPolicy(), settings), deviceCount), schedule,
                budgets);
        this.recording = new ScheduleRecording(backend, config);
        this.transfers = new ReplicaTransfers(backend, schedule, bandwidth, config.recordTimeline(),
                config.inputPrefetch(), budgets, recording);
        this.arguments = new LaunchArguments(backend.deviceProperties(0));
        this.submissions = new Submissions(backend, config.executionPolicy(), schedule, assignment, transfers,
                recording);
        this.hostSide = new HostAccesses(schedule, transfers, recording);
        this.symbols = new SymbolWrites(backend, pool);
        this.arrays = new ContextArrays(backend, budgets);
        this.libraries = new LibraryCalls(schedule, transfers, recording, c -> submissions.submit(c, null),
                this::checkOpen);
        this.userStreams = new UserStreams(backend, schedule);
        schedule.barrier().revokeDirectAccessWith(arrays::revokeDirectAccess);
    }

    /**
     * A context over {@code backend} using {@code config.numberOfGpus()} devices (all when 0).
     *
     * @param bandwidth the interconnect matrix of the backend's devices, host last; restricted to the devices used
     * @throws IllegalArgumentException for more devices than the backend has, a matrix that does not cover the
     *                                  devices, or an unknown policy
     */
    public static ExecutionContext create(Backend backend, RuntimeConfig config, BandwidthMatrix bandwidth) {
        int available = backend.deviceCount();
        if (config.numberOfGpus() > available) {
            throw new IllegalArgumentException("NumberOfGPUs=" + config.numberOfGpus() + " but the " + backend.name()
                    + " backend has " + available + " device" + (available == 1 ? "" : "s"));
        }
        int used = config.numberOfGpus() == 0 ? available : config.numberOfGpus();
        if (bandwidth.gpuCount() < used) {
            throw new IllegalArgumentException("the bandwidth matrix describes " + bandwidth.gpuCount()
                    + " GPUs but " + used + " are used");
        }
        BandwidthMatrix m = bandwidth.gpuCount() == used ? bandwidth : bandwidth.restrictedTo(used);
        return new ExecutionContext(backend, config, m, used);
    }

    public int deviceCount() {
        return deviceCount;
    }

    public RuntimeConfig config() {
        return config;
    }

    public Backend backend() {
        return backend;
    }

    /** A new array of zeros, no larger than a device's memory; replicas are allocated when first used. */
    public DeviceArray newArray(ElementType type, long... shape) {
        checkOpen();
        return arrays.create(type, shape);
    }

    /**
     * A kernel of {@code image} named {@code name} with the given signature, loaded on every device in use; when a
     * pointer is declared read-only, its PTX is analysed for stores through it ({@link Kernel#readOnlyStores()}).
     *
     * @throws org.polygpu.backend.BackendException when the image cannot be loaded or lacks the function
     */
    public Kernel kernel(String name, ModuleImage image, List<Parameter> parameters) {
        checkOpen();
        Kernel k = new Kernel(name, image, parameters, deviceCount, symbols);
        k.load(backend);
        k.findReadOnlyStores(backend);
        schedule.races().kernelCreated(k);
        return k;
    }

    /**
     * The PTX of {@code kernel}'s module as its backend has it or makes it on request (a CUBIN compiled from source
     * gets its PTX compiled now); empty when there is none, such as for a CUBIN loaded as is.
     */
    public Optional<String> ptx(Kernel kernel) {
        checkOpen();
        return backend.ptx(kernel.module(0));
    }

    /**
     * Launches {@code kernel} with one argument per parameter: a {@link DeviceArray} for each pointer, a number
     * (or a {@code Boolean} for bool) for each scalar. Returns at once under the async policy.
     *
     * @throws IllegalArgumentException naming the parameter when an argument does not match the signature
     */
    public Computation launch(Kernel kernel, LaunchConfig launchConfig, Object... args) {
        return launch(kernel, launchConfig, null, args);
    }

    /**
     * Launches {@code kernel} on {@code stream}, one the program created ({@link #streams()}), or where the scheduler
     * chooses when it is null; either way it waits for the computations its arguments depend on.
     */
    public Computation launch(Kernel kernel, LaunchConfig launchConfig, UserStream stream, Object... args) {
        checkOpen();
        if (stream != null) {
            stream.checkLive();
        }
        Object[] bound = arguments.bind(kernel, launchConfig, args);
        Computation c = new Computation(schedule.nextId(), new KernelLaunch(kernel, launchConfig, bound));
        submissions.submit(c, stream);
        schedule.barrier().launched(c, kernel);
        kernel.countLaunch();
        return c;
    }

    /** Host functions of shared libraries and device library routines (BLAS), called on this context's arrays. */
    public LibraryCalls libraries() {
        return libraries;
    }

    /** Copies all of {@code src} into {@code dst} on a device (both must have the same byte size). */
    public Computation copy(DeviceArray src, DeviceArray dst) {
        checkOpen();
        Computation c = new Computation(schedule.nextId(), new DeviceCopy(src, dst));
        submissions.submit(c, null);
        return c;
    }

    /**
     * Reads one element; waits only for the computations that write {@code array}. Like every host access, first
     * raises a kernel fault not raised yet ({@link FaultBarrier}).
     */
    public Object read(DeviceArray array, long index) {
        array.checkLive();
        array.checkIndex(index);
        checkOpen();
        schedule.barrier().check();
        return hostSide.readElement(array, index);
    }

    /**
     * Writes one element; waits for every computation using {@code array}, then invalidates device copies (all of
     * them when the host holds the array whole, else all but the one that backs the chunks the host does not hold).
     */
    public void write(DeviceArray array, long index, Object value) {
        array.checkLive();
        array.checkIndex(index);
        // Convert first so a value that does not fit leaves everything as it was.
        try {
            Elements.set(MemorySegment.ofArray(new long[1]), array.elementType(), 0, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("element " + index + " of " + array + ": " + e.getMessage(), e);
        }
        checkOpen();
        schedule.barrier().check();
        hostSide.writeElement(array, index, value);
    }

    /** Copies {@code array.byteSize()} bytes of {@code src} over the whole array. */
    public void copyFromHost(DeviceArray array, MemorySegment src) {
        array.checkLive();
        HostAccesses.checkSize(array, src);
        copyFromHost(array, 0, src.asSlice(0, array.byteSize()));
    }

    /** Copies the whole array into {@code dst}. */
    public void copyToHost(DeviceArray array, MemorySegment dst) {
        array.checkLive();
        HostAccesses.checkSize(array, dst);
        copyToHost(array, 0, dst.asSlice(0, array.byteSize()));
    }

    /**
     * Copies {@code dst.byteSize()} bytes of {@code array}, from byte {@code byteOffset} on, into {@code dst}: a part
     * of the array, for buffer reads and partial copies; only the chunks of it the host lacks are copied.
     */
    public void copyToHost(DeviceArray array, long byteOffset, MemorySegment dst) {
        array.checkLive();
        HostAccesses.checkRange(array, byteOffset, dst.byteSize());
        checkOpen();
        schedule.barrier().check();
        hostSide.readRange(array, byteOffset, dst.byteSize());
        MemorySegment.copy(array.hostReplica(), byteOffset, dst, 0, dst.byteSize());
    }

    /**
     * Copies all of {@code src} into {@code array} from byte {@code byteOffset} on; the rest of the array keeps its
     * contents (a partial write brings to the host only the chunks at its ends that it does not cover).
     */
    public void copyFromHost(DeviceArray array, long byteOffset, MemorySegment src) {
        array.checkLive();
        HostAccesses.checkRange(array, byteOffset, src.byteSize());
        checkOpen();
        schedule.barrier().check();
        hostSide.writeRange(array, byteOffset, src);
    }

    /** Frees every replica of {@code array} after the computations using it finished. */
    public void free(DeviceArray array) {
        array.checkLive();
        Computation c = new Computation(schedule.nextId(), new Release(array));
        schedule.append(c);
        schedule.awaitParents(c);
        schedule.retire(c);
        forget(array);
    }

    /**
     * Frees {@code array} at once if no unfinished computation uses it, and says whether it did. For arrays reclaimed
     * because the program dropped them: this never makes the host wait and takes no computation id, so the timeline
     * and the exports do not depend on when the garbage collector found them.
     */
    public boolean freeIfIdle(DeviceArray array) {
        if (array.isFreed()) {
            return true;
        }
        if (closed || dag.hasLiveDependencies(array, Access.WRITE)) {
            return false;
        }
        forget(array);
        return true;
    }

    private void forget(DeviceArray array) {
        arrays.release(array);
        schedule.faults().defined(array);
        dag.forget(array);
    }

    /**
     * Where warnings about the program go (standard error until set): a host read that races with a kernel storing
     * through a pointer its signature declares read-only ({@link HostReadRaces}).
     */
    public void warnTo(java.util.function.Consumer<String> sink) {
        schedule.races().warnTo(java.util.Objects.requireNonNull(sink, "sink"));
    }

    /** The streams and events the program creates, and its current device. */
    public UserStreams streams() {
        return userStreams;
    }

    /** Waits for all scheduled work and retires it; throws the fault of a kernel that no host access reported. */
    public void synchronize() {
        checkOpen();
        backend.synchronizeAll();
        pool.pollAll();
        schedule.barrier().check();
    }

    /** Retires what has finished, without waiting. */
    public void poll() {
        pool.pollAll();
    }

    /** The live DAG (for inspection and tests). */
    public Dag<Computation> dag() {
        return dag;
    }

    /** The schedule log, or null unless {@code RecordDag} is on. */
    public ScheduleLog scheduleLog() {
        return recording.log();
    }

    /** The replicas evicted so far to make room on a device, oldest first (recorded with {@code RecordTimeline}). */
    public List<Eviction> evictions() {
        return recording.evictions();
    }

    /** The backend's timeline (empty unless {@code RecordTimeline} is on). */
    public List<TimedOperation> timeline() {
        return backend.timeline();
    }

    /**
     * Writes the whole schedule as Graphviz DOT: computations clustered by device and stream, edges labelled with
     * the arrays that caused them.
     *
     * @throws IllegalStateException unless the context was created with {@code RecordDag}
     */
    public void exportDag(Path file) {
        recording.exportDag(file);
    }

    /**
     * Writes the timeline as Chrome trace-event JSON (one process per device, one thread per stream), with
     * dependency flows when the DAG was recorded too. Waits for all scheduled work first, but raises no fault: a trace
     * is what shows how a faulting program ran, so it is written first and the fault left to the next synchronising
     * operation or {@link #close()}.
     *
     * @throws IllegalStateException unless the context was created with {@code RecordTimeline}
     */
    public void exportTrace(Path file) {
        recording.checkTimeline();
        checkOpen();
        backend.synchronizeAll();
        pool.pollAll();
        recording.exportTrace(file);
    }

    /** Streams created on {@code device} for computations. */
    public int streamCount(int device) {
        return pool.streamCount(device);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the execution context is closed");
        }
    }

    /** Closes the context and its backend at once, dropping the work not started ({@link Backend#cancel}). */
    public void cancel() {
        if (!closed) {
            closed = true;
            backend.cancel();
        }
    }

    /** Waits for all work, frees every array and destroys streams and events, then throws an unreported fault. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        backend.synchronizeAll();
        pool.pollAll();
        arrays.releaseAll();
        userStreams.close();
        pool.close();
        closed = true;
        schedule.faults().raiseUnreported();
    }
}
