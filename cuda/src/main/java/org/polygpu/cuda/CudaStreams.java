package org.polygpu.cuda;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;

/**
 * The CUDA backend's streams and events: non-blocking {@code CUstream}s, numbered per device in creation order,
 * timing {@code CUevent}s, the ordering between them ({@code cuEventRecord}, {@code cuStreamWaitEvent}) and waiting
 * for them. An event is recorded only on a stream of its own device, but any stream may wait for it. Each call makes
 * the context of the stream's or event's device current first. Everything created is in the {@link CudaRegistry}
 * until it is destroyed.
 *
 * <p>First use. When the backend opens, {@link #prepare} creates a few streams and events per device and runs a
 * small copy each way on every stream, so that the driver sets streams and copy paths up then rather than inside
 * a program's first copy or launch; {@link #createStream} and {@link #createEvent} hand these out first, and
 * {@link #close} destroys those never handed out. Not thread-safe (the backend's single caller); the backend checks
 * that it is open.
 */
final class CudaStreams {
    /** Bytes each prepared stream copies each way when the backend opens. */
    private static final long WARM_UP_BYTES = 256;

    private final CudaBackend owner;
    private final CudaDriver driver;
    private final CudaDevices devices;
    private final CudaRegistry registry;
    /** Per device, how many streams were created: the next stream's id. */
    private final int[] created;
    /** Per device, streams and events created when the backend opened and not handed out yet. */
    private final List<ArrayDeque<MemorySegment>> readyStreams = new ArrayList<>();
    private final List<ArrayDeque<MemorySegment>> readyEvents = new ArrayList<>();

    CudaStreams(CudaBackend owner, CudaDriver driver, CudaDevices devices, CudaRegistry registry) {
        this.owner = owner;
        this.driver = driver;
        this.devices = devices;
        this.registry = registry;
        this.created = new int[devices.count()];
        for (int d = 0; d < devices.count(); d++) {
            readyStreams.add(new ArrayDeque<>());
            readyEvents.add(new ArrayDeque<>());
        }
    }

    /**
     * Creates {@code streams} streams and {@code events} events on every device, and on each of those streams and the
     * device's internal one copies {@value #WARM_UP_BYTES} bytes to the device and back through pinned memory, then
     * waits; the temporary buffers are freed.
     */
    void prepare(int streams, int events) {
        for (int d = 0; d < devices.count(); d++) {
            devices.current(d);
            for (int i = 0; i < streams; i++) {
                readyStreams.get(d).add(driver.createStream(CudaDriver.STREAM_NON_BLOCKING));
            }
            for (int i = 0; i < events; i++) {
                readyEvents.get(d).add(driver.createEvent(CudaDriver.EVENT_DEFAULT));
            }
            long device = driver.allocate(WARM_UP_BYTES);
            MemorySegment host = driver.allocateHost(WARM_UP_BYTES);
            try {
                List<MemorySegment> all = new ArrayList<>(readyStreams.get(d));
                all.add(devices.internalStream(d));
                for (MemorySegment stream : all) {
                    driver.copyHostToDeviceAsync(device, host, WARM_UP_BYTES, stream);
                    driver.copyDeviceToHostAsync(host, device, WARM_UP_BYTES, stream);
                }
                driver.synchronizeContext();
            } finally {
                driver.freeHost(host);
                driver.free(device);
            }
        }
    }

    StreamHandle createStream(int device) {
        devices.check(device);
        devices.current(device);
        MemorySegment ready = readyStreams.get(device).poll();
        CudaHandles.Stream s = new CudaHandles.Stream(owner, device, created[device]++,
                ready != null ? ready : driver.createStream(CudaDriver.STREAM_NON_BLOCKING));
        registry.add(s);
        return s;
    }

    void destroyStream(StreamHandle stream) {
        CudaHandles.Stream s = registry.stream(stream);
        devices.current(s.device);
        registry.remove(s);
        driver.destroyStream(s.handle);
    }

    EventHandle createEvent(int device) {
        devices.check(device);
        devices.current(device);
        MemorySegment ready = readyEvents.get(device).poll();
        CudaHandles.Event e = new CudaHandles.Event(owner, device,
                ready != null ? ready : driver.createEvent(CudaDriver.EVENT_DEFAULT));
        registry.add(e);
        return e;
    }

    void destroyEvent(EventHandle event) {
        CudaHandles.Event e = registry.event(event);
        devices.current(e.device);
        registry.remove(e);
        driver.destroyEvent(e.handle);
    }

    void recordEvent(EventHandle event, StreamHandle stream) {
        CudaHandles.Event e = registry.event(event);
        CudaHandles.Stream s = registry.stream(stream);
        if (e.device != s.device) {
            throw new BackendException("cannot record an " + e + " on " + s + ": an event is recorded on its own "
                    + "device's streams");
        }
        devices.current(s.device);
        driver.recordEvent(e.handle, s.handle);
    }

    void streamWaitEvent(StreamHandle stream, EventHandle event) {
        CudaHandles.Stream s = registry.stream(stream);
        CudaHandles.Event e = registry.event(event);
        devices.current(s.device);
        driver.streamWaitEvent(s.handle, e.handle);
    }

    boolean queryEvent(EventHandle event) {
        CudaHandles.Event e = registry.event(event);
        devices.current(e.device);
        return driver.queryEvent(e.handle);
    }

    void synchronizeEvent(EventHandle event) {
        CudaHandles.Event e = registry.event(event);
        devices.current(e.device);
        driver.synchronizeEvent(e.handle);
    }

    /** Waits for all work of every device. */
    void synchronizeAll() {
        for (int d = 0; d < devices.count(); d++) {
            devices.current(d);
            driver.synchronizeContext();
        }
    }

    /** Destroys the prepared streams and events that were never handed out. */
    void close() {
        for (int d = 0; d < devices.count(); d++) {
            if (readyStreams.get(d).isEmpty() && readyEvents.get(d).isEmpty()) {
                continue;
            }
            devices.current(d);
            for (MemorySegment e = readyEvents.get(d).poll(); e != null; e = readyEvents.get(d).poll()) {
                driver.destroyEvent(e);
            }
            for (MemorySegment s = readyStreams.get(d).poll(); s != null; s = readyStreams.get(d).poll()) {
                driver.destroyStream(s);
            }
        }
    }

    /** Milliseconds between two completed events, read in the context of {@code end}'s device. */
    double elapsedMillis(EventHandle start, EventHandle end) {
        CudaHandles.Event s = registry.event(start);
        CudaHandles.Event e = registry.event(end);
        devices.current(e.device);
        return driver.elapsedMillis(s.handle, e.handle);
    }
}
