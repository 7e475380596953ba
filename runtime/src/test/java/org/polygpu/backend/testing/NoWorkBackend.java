package org.polygpu.backend.testing;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import org.polygpu.backend.Backend;
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
 * A backend of N devices that does no work: copies and launches return at once and do nothing, device allocations
 * are handles without memory, and modules load from any image. With it a benchmark measures only the scheduler's
 * own cost per launch, and a test checks the scheduler's decisions without a GPU or the emulator.
 *
 * <p>By default every event is complete at once. With an {@code inFlight} window of {@code k > 0}, an event
 * reports complete only once {@code k} more events have been recorded after it (on any stream), or after a
 * synchronize: the backend then looks like GPUs that run {@code k} operations behind the host, so the scheduler
 * keeps live computations, dependencies and busy streams, while still no work is done.
 *
 * <p>Host allocations are real, zero-filled segments of the size asked for, from an automatic arena (reclaimed by
 * the garbage collector once unreachable, so {@link #freeHost} does nothing); keep arrays small. The timeline is
 * always empty. Counts of enqueued operations and created events are kept so a benchmark or test can show that
 * copies and launches happened and events were reused.
 * Thread-safety: one thread at a time, as the {@link Backend} contract says.
 */
public final class NoWorkBackend implements Backend {
    /** Device memory reported per device: 16 GiB, as a V100. */
    private static final long DEVICE_MEMORY = 16L << 30;

    private final int deviceCount;
    private final DeviceProperties properties;
    private final int[] streamsCreated;
    private final long inFlight;
    /** Events recorded so far; an event's record number orders it. */
    private long recorded;
    /** Events recorded up to this number are complete because the host synchronized. */
    private long synchronizedThrough;
    private long launches;
    private long symbolWrites;
    private Object[] lastLaunchArguments = new Object[0];
    private long copies;
    private long deviceToHostBytes;
    private long hostToDeviceBytes;
    private long deviceToDeviceBytes;
    private long hostBytes;
    private long eventsCreated;
    private long prefetches;
    private int computationsPerCompletionEvent = 1;
    private EventHandle lastWaited;
    private long waits;

    /** A backend of {@code deviceCount} identical V100-like devices whose events are complete at once. */
    public NoWorkBackend(int deviceCount) {
        this(deviceCount, 0);
    }

    /**
     * A backend of {@code deviceCount} identical V100-like devices whose events complete once {@code inFlight}
     * later events were recorded.
     */
    public NoWorkBackend(int deviceCount, int inFlight) {
        if (deviceCount < 1) {
            throw new IllegalArgumentException("a backend needs at least one device, got " + deviceCount);
        }
        if (inFlight < 0) {
            throw new IllegalArgumentException("the in-flight window must be at least 0, got " + inFlight);
        }
        this.deviceCount = deviceCount;
        this.inFlight = inFlight;
        this.properties = new DeviceProperties("no-work V100", 7, 0, DEVICE_MEMORY, 80, 1_530_000, 1024, 49_152, 32);
        this.streamsCreated = new int[deviceCount];
    }

    /** A device allocation without memory; handles compare by identity, as real ones do. */
    private static final class Buffer implements DeviceBuffer {
        private final int device;
        private final long bytes;

        Buffer(int device, long bytes) {
            this.device = device;
            this.bytes = bytes;
        }

        @Override
        public int device() {
            return device;
        }

        @Override
        public long bytes() {
            return bytes;
        }
    }

    private record Stream(int device, int id) implements StreamHandle {
    }

    /** An event and when it was last recorded; compared by identity, since several live on one device. */
    private static final class Event implements EventHandle {
        private final int device;
        private long recordNumber;

        Event(int device) {
            this.device = device;
        }

        @Override
        public int device() {
            return device;
        }
    }

    private record Module(int device) implements ModuleHandle {
    }

    private record Function(String name, int device) implements FunctionHandle {
    }

    /** Kernels enqueued so far. */
    public long launchCount() {
        return launches;
    }

    /** Bytes of host memory allocated so far. */
    public long hostBytes() {
        return hostBytes;
    }

    /** Bytes copied from devices to the host so far. */
    public long deviceToHostBytes() {
        return deviceToHostBytes;
    }

    /** Bytes copied from the host to devices so far. */
    public long hostToDeviceBytes() {
        return hostToDeviceBytes;
    }

    /** Bytes copied between or within devices so far. */
    public long deviceToDeviceBytes() {
        return deviceToDeviceBytes;
    }

    /** Copies enqueued so far, in every direction. */
    public long copyCount() {
        return copies;
    }

    /** Prefetches asked for so far. */
    public long prefetchCount() {
        return prefetches;
    }

    /** Events created so far, on every device (a scheduler that reuses its events creates few). */
    public long eventCount() {
        return eventsCreated;
    }

    @Override
    public String name() {
        return "no-work";
    }

    /** No time passes on it: events are complete and elapsed times are zero. */
    @Override
    public Clock clock() {
        return Clock.VIRTUAL;
    }

    /** Any image: nothing is ever compiled or run. */
    @Override
    public boolean accepts(ModuleImage image) {
        return true;
    }

    @Override
    public int deviceCount() {
        return deviceCount;
    }

    @Override
    public DeviceProperties deviceProperties(int device) {
        checkDevice(device);
        return properties;
    }

    @Override
    public DeviceBuffer allocate(int device, long bytes) {
        checkDevice(device);
        return new Buffer(device, bytes);
    }

    @Override
    public void free(DeviceBuffer buffer) {
        // Nothing was allocated.
    }

    /** Nothing to migrate; counted. */
    @Override
    public void prefetch(DeviceBuffer buffer, int device, StreamHandle stream) {
        checkDevice(device);
        prefetches++;
    }

    @Override
    public long freeMemory(int device) {
        checkDevice(device);
        return DEVICE_MEMORY;
    }

    @Override
    public MemorySegment allocateHost(long bytes) {
        hostBytes += bytes;
        return Arena.ofAuto().allocate(bytes);
    }

    @Override
    public void freeHost(MemorySegment host) {
        // The automatic arena is reclaimed by the garbage collector.
    }

    @Override
    public StreamHandle createStream(int device) {
        checkDevice(device);
        return new Stream(device, streamsCreated[device]++);
    }

    @Override
    public void destroyStream(StreamHandle stream) {
        // Streams hold nothing.
    }

    /** Lets {@code n} computations in a row on a stream share one completion event, as the CUDA backend does. */
    public NoWorkBackend sharingCompletionEvents(int n) {
        computationsPerCompletionEvent = n;
        return this;
    }

    @Override
    public int computationsPerCompletionEvent() {
        return computationsPerCompletionEvent;
    }

    /** Events recorded so far. */
    public long recordCount() {
        return recorded;
    }

    /** Stream waits enqueued so far. */
    public long waitCount() {
        return waits;
    }

    /** The event the last stream wait was for; null before any. */
    public EventHandle lastWaited() {
        return lastWaited;
    }

    @Override
    public EventHandle createEvent(int device) {
        checkDevice(device);
        eventsCreated++;
        return new Event(device);
    }

    @Override
    public void destroyEvent(EventHandle event) {
        // Events hold nothing.
    }

    @Override
    public void recordEvent(EventHandle event, StreamHandle stream) {
        ((Event) event).recordNumber = ++recorded;
    }

    @Override
    public void streamWaitEvent(StreamHandle stream, EventHandle event) {
        // Nothing to wait for; counted.
        waits++;
        lastWaited = event;
    }

    @Override
    public boolean queryEvent(EventHandle event) {
        long n = ((Event) event).recordNumber;
        return n <= synchronizedThrough || n + inFlight <= recorded;
    }

    /** Completes the event and, since streams are waited in record order here, every event recorded before it. */
    @Override
    public void synchronizeEvent(EventHandle event) {
        synchronizedThrough = Math.max(synchronizedThrough, ((Event) event).recordNumber);
    }

    @Override
    public void synchronizeAll() {
        synchronizedThrough = recorded;
    }

    @Override
    public double elapsedMillis(EventHandle start, EventHandle end) {
        return 0;
    }

    @Override
    public void copyHostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        copies++;
        hostToDeviceBytes += bytes;
    }

    @Override
    public void copyDeviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes,
                                 StreamHandle stream, OperationLabel label) {
        copies++;
        deviceToHostBytes += bytes;
    }

    @Override
    public void copyDeviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                                   OperationLabel label) {
        copies++;
        deviceToDeviceBytes += bytes;
    }

    @Override
    public ModuleHandle loadModule(int device, ModuleImage image) {
        checkDevice(device);
        return new Module(device);
    }

    @Override
    public FunctionHandle function(ModuleHandle module, String name) {
        return new Function(name, module.device());
    }

    /** Nothing was compiled, so there is no PTX. */
    @Override
    public Optional<String> ptx(ModuleHandle module) {
        return Optional.empty();
    }

    @Override
    public void writeSymbol(ModuleHandle module, String symbol, long offset, MemorySegment src) {
        symbolWrites++;
    }

    /** Calls of {@link #writeSymbol} so far, one per device written. */
    public long symbolWriteCount() {
        return symbolWrites;
    }

    @Override
    public void launch(FunctionHandle function, LaunchConfig config, Object[] arguments, StreamHandle stream,
                       OperationLabel label) {
        launches++;
        // Kept as given, not copied: a copy per launch would count in the launch benchmarks that use this backend.
        lastLaunchArguments = arguments;
    }

    /** The arguments of the last launch, as the scheduler gave them; empty before the first. */
    public Object[] lastLaunchArguments() {
        return lastLaunchArguments.clone();
    }

    @Override
    public void recordTimeline(boolean enabled) {
        // Nothing runs, so there is nothing to record.
    }

    @Override
    public List<TimedOperation> timeline() {
        return List.of();
    }

    @Override
    public void close() {
        // Nothing to release.
    }

    private void checkDevice(int device) {
        if (device < 0 || device >= deviceCount) {
            throw new IllegalArgumentException("device " + device + " is out of range 0.." + (deviceCount - 1));
        }
    }
}
