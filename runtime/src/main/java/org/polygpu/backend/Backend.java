package org.polygpu.backend;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

/**
 * The device layer under the scheduler, shaped after the CUDA driver API: devices, memory, streams, events,
 * copies, modules, functions and launches. Two implementations exist: CUDA through FFM, and the emulator.
 *
 * <p>Semantics every implementation keeps: work on one stream runs in enqueue order; {@link #streamWaitEvent}
 * makes later work on the stream wait for the work recorded before the event (as {@code cuStreamWaitEvent});
 * copies and launches return at once and complete asynchronously; host memory given to a copy must stay alive and
 * untouched until the copy completes. Handles belong to the backend that made them.
 *
 * <p>Callers tell backends apart by what they offer ({@link #clock()}, {@link #accepts}), never by {@link #name()}.
 *
 * <p>Thread-safety: the scheduler calls a backend from one thread at a time.
 */
public interface Backend extends AutoCloseable {
    /** Which clock a backend's times ({@link #elapsedMillis}, {@link #timeline()}) are read from. */
    enum Clock {
        /** Real devices' clocks: times vary from run to run, and measuring them needs repetitions. */
        REAL,
        /** A simulated clock: the same program gives the same times on every run, exact to the nanosecond. */
        VIRTUAL
    }

    /** What the segments {@link #devicePointer} gives address, for a library that reads device memory itself. */
    enum DeviceAddressing {
        /** The backend gives no device pointers. */
        NONE,
        /** Device memory (a {@code CUdeviceptr}): only a library that reads GPU memory (CUDA-aware MPI) may use it. */
        DEVICE_MEMORY,
        /** Host memory of this process (emulated devices): any library may read and write it. */
        HOST_MEMORY
    }

    /** Short name, such as {@code cuda} or {@code emulated}, for messages; decisions use the capabilities below. */
    String name();

    /** Which clock this backend's times come from. */
    Clock clock();

    /**
     * The host's time now, in nanoseconds from an arbitrary origin, on the clock that kernels and copies run by:
     * virtual on a simulated backend; by default the host's monotonic clock, which a real GPU's work follows as it
     * happens. Device-selection policies read it to predict when queued work ends.
     */
    default long hostNanos() {
        return System.nanoTime();
    }

    /**
     * Whether {@link #loadModule} takes this kind of image (for instance, the emulator interprets PTX and compiles
     * CUDA source but cannot run a CUBIN). Says nothing of whether this particular image compiles or loads.
     */
    boolean accepts(ModuleImage image);

    int deviceCount();

    /** @throws IllegalArgumentException if {@code device} is out of range */
    DeviceProperties deviceProperties(int device);

    /** Allocates device memory, zero-filled. @throws BackendException when the device is out of memory */
    DeviceBuffer allocate(int device, long bytes);

    void free(DeviceBuffer buffer);

    /**
     * Migrates {@code buffer}'s pages to {@code device} ({@code -1} for the host) in {@code stream}'s order, where
     * the backend's memory has pages that migrate (CUDA under {@code MemoryModel=managed}); does nothing otherwise.
     * A hint: data is where the scheduler's copies put it either way.
     */
    void prefetch(DeviceBuffer buffer, int device, StreamHandle stream);

    /**
     * Whether a kernel's stores and atomics through the pointers a launch's {@link ReadOnlyParameters} names are
     * refused (a fault) rather than landing; by default they land, as on a GPU.
     */
    default boolean checksReadOnlyStores() {
        return false;
    }

    /**
     * Whether this backend was opened with {@code MemoryModel=managed}: each array is then one
     * {@link #allocateManaged} allocation that every device and the host address, instead of one replica per location.
     */
    default boolean managedMemory() {
        return false;
    }

    /**
     * Managed memory, zero-filled: one allocation every device's kernels and the host ({@link #hostView}) address,
     * whose pages migrate to where they are used (by {@link #prefetch(DeviceBuffer, long, long, int, StreamHandle,
     * OperationLabel)}, or on a fault when a kernel touches a page that is elsewhere). Its device is
     * {@link DeviceBuffer#MANAGED}; {@link #free} releases it.
     *
     * @throws BackendException unless {@link #managedMemory()}
     */
    default DeviceBuffer allocateManaged(long bytes) {
        throw new BackendException("the " + name() + " backend was not opened with MemoryModel=managed");
    }

    /**
     * The host's view of a managed buffer: the same memory kernels see. The caller migrates the bytes it touches to
     * the host first ({@code prefetch} to device {@code -1}) and waits for that migration.
     *
     * @throws BackendException when {@code buffer} is not managed memory of this backend
     */
    default MemorySegment hostView(DeviceBuffer buffer) {
        throw new BackendException(buffer + " is not managed memory of the " + name() + " backend");
    }

    /**
     * Migrates bytes {@code offset..offset+bytes} of managed {@code buffer} to {@code device} ({@code -1} for the host)
     * in {@code stream}'s order: an operation on the stream, timed like a copy, that moves only the pages not already
     * there. The default migrates the whole buffer as {@link #prefetch(DeviceBuffer, int, StreamHandle)} does.
     */
    default void prefetch(DeviceBuffer buffer, long offset, long bytes, int device, StreamHandle stream,
                          OperationLabel label) {
        prefetch(buffer, device, stream);
    }

    /** Bytes still free on the device. */
    long freeMemory(int device);

    /**
     * The bytes of {@code device}'s memory the scheduler may fill with replicas, asked once when a context opens: the
     * scheduler evicts replicas rather than allocate past it. {@link Long#MAX_VALUE} where device memory
     * oversubscribes by itself (managed memory), so that the scheduler never evicts. The default is the memory free
     * now ({@link Long#MAX_VALUE} under managed memory); a backend whose own allocations (modules, library
     * workspaces) come later keeps a margin for them.
     */
    default long replicaMemory(int device) {
        return managedMemory() ? Long.MAX_VALUE : freeMemory(device);
    }

    /** What {@link #devicePointer} gives: {@link DeviceAddressing#NONE} by default. */
    default DeviceAddressing deviceAddressing() {
        return DeviceAddressing.NONE;
    }

    /**
     * A device buffer's memory as a segment of its size whose address is the buffer's device pointer, for a library
     * that reads and writes device memory itself (a CUDA-aware MPI library sends from it and receives into it). The
     * caller orders its accesses with the buffer's streams itself: the work that writes the bytes has completed before
     * it reads them, and the work that reads them is enqueued only after its writes landed. Whether the host may
     * dereference the segment is {@link #deviceAddressing()}'s to say.
     *
     * @throws BackendException when the backend gives no device pointers, or {@code buffer} is managed memory (whose
     *                          host view is {@link #hostView}) or not one of its live buffers
     */
    default MemorySegment devicePointer(DeviceBuffer buffer) {
        throw new BackendException("the " + name() + " backend gives no device pointers (" + buffer + ")");
    }

    /** Host memory for copies (pinned on CUDA), zero-filled, owned by the caller until {@link #freeHost}. */
    MemorySegment allocateHost(long bytes);

    void freeHost(MemorySegment host);

    StreamHandle createStream(int device);

    void destroyStream(StreamHandle stream);

    /**
     * How many computations in a row on one stream the scheduler may let share one completion event: each recorded
     * or queried event costs the host a driver call on a real GPU, so there the scheduler records an event only when
     * a dependency, a host wait or retirement needs one, and retires the computations before it together. By
     * default 1: every computation's event is recorded after it and polled, which a virtual clock makes free.
     */
    default int computationsPerCompletionEvent() {
        return 1;
    }

    EventHandle createEvent(int device);

    void destroyEvent(EventHandle event);

    /** Marks the point in {@code stream} after all work enqueued so far; re-recording moves the point. */
    void recordEvent(EventHandle event, StreamHandle stream);

    /** Work enqueued on {@code stream} after this call starts only after {@code event}'s point completed. */
    void streamWaitEvent(StreamHandle stream, EventHandle event);

    /** Whether the work before the event's last record has completed; never blocks. */
    boolean queryEvent(EventHandle event);

    /** Blocks the host until the work before the event's last record has completed. */
    void synchronizeEvent(EventHandle event);

    /** Blocks until everything enqueued on every stream of every device has completed. */
    void synchronizeAll();

    /** Milliseconds between two completed events. */
    double elapsedMillis(EventHandle start, EventHandle end);

    /** Copies the first {@code bytes} of {@code src} to the start of {@code dst}. */
    default void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                  OperationLabel label) {
        copyHostToDevice(src, dst, 0, bytes, stream, label);
    }

    /** Copies the first {@code bytes} of {@code src} into {@code dst} from byte {@code dstOffset} on. */
    void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes, StreamHandle stream,
                          OperationLabel label);

    /** Copies the first {@code bytes} of {@code src}. */
    default void copyDeviceToHost(DeviceBuffer src, MemorySegment dst, long bytes, StreamHandle stream,
                                  OperationLabel label) {
        copyDeviceToHost(src, 0, dst, bytes, stream, label);
    }

    /** Copies {@code bytes} of {@code src} from byte {@code srcOffset}: one element of an array, say. */
    void copyDeviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes, StreamHandle stream,
                          OperationLabel label);

    /** A copy within one device or between two (peer); {@code stream} belongs to the destination's device. */
    void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                            OperationLabel label);

    /** Loads a module on one device. @throws BackendException naming what the image lacks */
    ModuleHandle loadModule(int device, ModuleImage image);

    /**
     * Finds a kernel of a loaded module by its name in the module, or by one of the name expressions of the
     * {@link ModuleImage.CudaSource} it was compiled from (such as {@code inc_kernel<int>}).
     *
     * @throws BackendException naming the functions that exist when {@code name} is not one of them
     */
    FunctionHandle function(ModuleHandle module, String name);

    /**
     * The PTX text of a loaded module, on request: the PTX it was loaded from, or what the backend compiled its CUDA
     * source to; empty when the module holds no PTX (a CUBIN, a backend's own form).
     */
    Optional<String> ptx(ModuleHandle module);

    /**
     * Copies all of {@code src} into a {@code __constant__} or {@code __device__} variable of a loaded module, from
     * byte {@code offset} of the variable on, as {@code cudaMemcpyToSymbol}: synchronous, so launches enqueued after
     * it see the new value. The caller first waits for the launches already enqueued that use the module. Names are
     * as in the module: a C++ variable in a namespace goes by its mangled name.
     *
     * @throws BackendException listing the module's variables when it has none called {@code symbol}, or giving the
     *                          variable's size when the bytes do not fit in it from {@code offset}
     */
    void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src);

    /**
     * Enqueues a kernel. {@code arguments} hold a {@link DeviceBuffer} of the launch's device, or a
     * {@link BufferOffset} into one, for each pointer parameter and a boxed {@code Byte}, {@code Short},
     * {@code Integer}, {@code Long}, {@code Float} or {@code Double} for each scalar.
     */
    void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                OperationLabel label);

    /**
     * Enqueues a kernel whose pointer parameters {@code readOnly} names must not be written through: a backend that
     * checks stores raises a kernel fault for a store or atomic through one of them. The default checks nothing.
     */
    default void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                        OperationLabel label, ReadOnlyParameters readOnly) {
        launch(function, config, arguments, stream, label);
    }

    /**
     * Enqueues a call of a device library routine: {@code arguments} hold a {@link DeviceBuffer} of the stream's
     * device for each pointer parameter and a boxed scalar for each other one. The default refuses: a backend offers
     * the libraries it has.
     *
     * @throws BackendException when the backend cannot run {@code routine}
     */
    default void launchLibrary(LibraryRoutine routine, Object[] arguments, StreamHandle stream, OperationLabel label) {
        throw new BackendException("the " + name() + " backend cannot run " + routine.name());
    }

    /**
     * The fault of the kernel launched for computation {@code computationId} (its {@link OperationLabel}), once that
     * kernel completed, handed over once: a backend that keeps a kernel's fault with its computation reports it here
     * instead of from whichever later call finds it. The default keeps none (CUDA's errors are sticky and surface
     * from the next call).
     */
    default Optional<BackendException> takeFault(long computationId) {
        return Optional.empty();
    }

    /**
     * Whether some completed kernel's fault waits for {@link #takeFault}: the runtime then polls its streams to find
     * the kernel and raise the fault at the host's next synchronising operation. Asks nothing of the device.
     */
    default boolean hasPendingFaults() {
        return false;
    }

    /**
     * Starts or stops recording the timeline returned by {@link #timeline()}; off by default so long runs keep
     * bounded memory.
     */
    void recordTimeline(boolean enabled);

    /** Every operation completed while recording was on, in completion order. */
    List<TimedOperation> timeline();

    /**
     * Closes at once, for a program being cancelled: the enqueued work that has not started is dropped (work already
     * running completes) and every resource released; later calls, {@link #close()} included, do nothing or fail as
     * after close. The default closes, waiting for all the work.
     */
    default void cancel() {
        close();
    }

    /** Releases every resource; pending work is waited for first. */
    @Override
    void close();
}
