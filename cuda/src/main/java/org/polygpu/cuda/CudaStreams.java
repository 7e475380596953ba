package org.polygpu.cuda;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;

/**
 * The CUDA backend's streams and events: non-blocking {@code CUstream}s, numbered per device in creation order,
 * timing {@code CUevent}s, the ordering between them ({@code cuEventRecord}, {@code cuStreamWaitEvent}) and waiting
 * for them. An event is recorded only on a stream of its own device, but any stream may wait for it. Each call makes
 * the context of the stream's or event's device current first. Everything created is in the {@link CudaRegistry}
 * until it is destroyed. Not thread-safe (the backend's single caller); the backend checks that it is open.
 */
final class CudaStreams {
    private final CudaBackend owner;
    private final CudaDriver driver;
    private final CudaDevices devices;
    private final CudaRegistry registry;
    private final CudaTimeline timeline;
    /** Per device, how many streams were created: the next stream's id. */
    private final int[] created;

    CudaStreams(CudaBackend owner, CudaDriver driver, CudaDevices devices, CudaRegistry registry,
                CudaTimeline timeline) {
        this.owner = owner;
        this.timeline = timeline;
        this.driver = driver;
        this.devices = devices;
        this.registry = registry;
        this.created = new int[devices.count()];
    }

    StreamHandle createStream(int device) {
        devices.check(device);
        devices.current(device);
        CudaHandles.Stream s = new CudaHandles.Stream(owner, device, created[device]++,
                driver.createStream(CudaDriver.STREAM_NON_BLOCKING));
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
        CudaHandles.Event e = new CudaHandles.Event(owner, device, driver.createEvent(CudaDriver.EVENT_DEFAULT));
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
        timeline.moved(s.handle);
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

    /** Milliseconds between two completed events, read in the context of {@code end}'s device. */
    double elapsedMillis(EventHandle start, EventHandle end) {
        CudaHandles.Event s = registry.event(start);
        CudaHandles.Event e = registry.event(end);
        devices.current(e.device);
        return driver.elapsedMillis(s.handle, e.handle);
    }
}
