package org.polygpu.backend;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The device layer under the scheduler, shaped after the CUDA driver API: devices, memory, streams, events,
 * copies, modules, functions and launches. Two implementations exist: CUDA through FFM, and the emulator.
 *
 * <p>Semantics every implementation keeps: work on one stream runs in enqueue order; {@link #streamWaitEvent}
 * makes later work on the stream wait for the work recorded before the event (as {@code cuStreamWaitEvent});
 * copies and launches return at once and complete asynchronously; host memory given to a copy must stay alive and
 * untouched until the copy completes. Handles belong to the backend that made them.
 *
 * <p>Thread-safety: the scheduler calls a backend from one thread at a time.
 */
public interface Backend extends AutoCloseable {
    /** Short name, {@code cuda} or {@code emulated}. */
    String name();

    int deviceCount();

    /** @throws IllegalArgumentException if {@code device} is out of range */
    DeviceProperties deviceProperties(int device);

    /** Allocates device memory, zero-filled. @throws BackendException when the device is out of memory */
    DeviceBuffer allocate(int device, long bytes);

    void free(DeviceBuffer buffer);

    /** Bytes still free on the device. */
    long freeMemory(int device);

    /** Host memory for copies (pinned on CUDA), zero-filled, owned by the caller until {@link #freeHost}. */
    MemorySegment allocateHost(long bytes);

    void freeHost(MemorySegment host);

    StreamHandle createStream(int device);

    void destroyStream(StreamHandle stream);

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

    void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long bytes, StreamHandle stream,
                          OperationLabel label);

    void copyDeviceToHost(DeviceBuffer src, MemorySegment dst, long bytes, StreamHandle stream,
                          OperationLabel label);

    /** A copy within one device or between two (peer); {@code stream} belongs to the destination's device. */
    void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                            OperationLabel label);

    /** Loads a module on one device. @throws BackendException naming what the image lacks */
    ModuleHandle loadModule(int device, ModuleImage image);

    /** @throws BackendException naming the functions that exist when {@code name} is not one of them */
    FunctionHandle function(ModuleHandle module, String name);

    /**
     * Enqueues a kernel. {@code arguments} hold a {@link DeviceBuffer} of the launch's device for each pointer
     * parameter and a boxed {@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@code Float} or
     * {@code Double} for each scalar.
     */
    void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                OperationLabel label);

    /**
     * Starts or stops recording the timeline returned by {@link #timeline()}; off by default so long runs keep
     * bounded memory.
     */
    void recordTimeline(boolean enabled);

    /** Every operation completed while recording was on, in completion order. */
    List<TimedOperation> timeline();

    /** Releases every resource; pending work is waited for first. */
    @Override
    void close();
}
