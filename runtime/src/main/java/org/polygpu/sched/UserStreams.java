package org.polygpu.sched;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;

/**
 * The streams and events the program creates itself, as CUDA's runtime API has them ({@code cudaStreamCreate},
 * {@code cudaEventRecord}, {@code cudaStreamWaitEvent}, ...), on the current device ({@code cudaSetDevice}).
 *
 * <p>A kernel launched on a program stream ({@link ExecutionContext#launch(Kernel, org.polygpu.backend.LaunchConfig,
 * UserStream, Object...)}) joins the DAG like any other: its stream waits for the computations its arguments depend
 * on, its arrays are made coherent on the stream's device, and host accesses wait for it. Events and waits between
 * program streams order work further, as in CUDA. Owns the backend streams and events it created until they are
 * destroyed, the device is reset or the context closes. Not thread-safe: used by the execution context's thread.
 */
public final class UserStreams {
    private final Backend backend;
    private final Schedule schedule;
    private final StreamPool pool;
    private final List<UserStream> streams = new ArrayList<>();
    private final List<UserEvent> events = new ArrayList<>();
    private long created;

    UserStreams(Backend backend, Schedule schedule) {
        this.backend = backend;
        this.schedule = schedule;
        this.pool = schedule.pool();
    }

    /** The device streams and events are created on, and that {@code single-gpu} places computations on. */
    public int currentDevice() {
        return schedule.currentDevice();
    }

    /** @throws IllegalArgumentException unless {@code device} is one of the devices in use */
    public void setCurrentDevice(int device) {
        schedule.setCurrentDevice(device);
    }

    /** A new stream on the current device. */
    public UserStream createStream() {
        StreamSlot slot = new StreamSlot(backend.createStream(currentDevice()), true);
        UserStream s = new UserStream(slot, ++created);
        streams.add(s);
        return s;
    }

    /**
     * Blocks the host until all work enqueued on {@code stream} completed, and retires what finished; then throws the
     * fault of a kernel that no host access reported, as CUDA's synchronizing calls return an earlier asynchronous
     * error.
     */
    public void synchronize(UserStream stream) {
        stream.checkLive();
        EventHandle marker = pool.takeEvent(stream.device());
        try {
            backend.recordEvent(marker, stream.slot.handle);
            backend.synchronizeEvent(marker);
        } finally {
            pool.releaseEvent(marker);
        }
        // Retires the stream's work and what finished elsewhere meanwhile, such as the parents it waited for.
        pool.pollAll();
        schedule.barrier().check();
    }

    /** Waits for the work on {@code stream}, then destroys it; it cannot be used again. */
    public void destroy(UserStream stream) {
        synchronize(stream);
        release(stream);
    }

    private void release(UserStream stream) {
        streams.remove(stream);
        stream.destroyed();
        backend.destroyStream(stream.slot.handle);
    }

    /** A new event on the current device; waiting for it before it is recorded returns at once, as in CUDA. */
    public UserEvent createEvent() {
        UserEvent e = new UserEvent(backend.createEvent(currentDevice()), ++created);
        events.add(e);
        return e;
    }

    /**
     * Records {@code event} on {@code stream}: it completes when the work enqueued on the stream so far did.
     *
     * @throws IllegalArgumentException when they belong to different devices (CUDA records an event only on its own
     *                                  device's streams)
     */
    public void record(UserEvent event, UserStream stream) {
        event.checkLive();
        stream.checkLive();
        if (event.device() != stream.device()) {
            throw new IllegalArgumentException("cannot record " + event + " on " + stream + ": an event is recorded "
                    + "on a stream of its own device");
        }
        backend.recordEvent(event.handle, stream.slot.handle);
    }

    /** Makes the work enqueued on {@code stream} from now on wait for {@code event}'s last record; any device. */
    public void waitFor(UserStream stream, UserEvent event) {
        event.checkLive();
        stream.checkLive();
        backend.streamWaitEvent(stream.slot.handle, event.handle);
    }

    /**
     * Blocks the host until {@code event} completed, and retires what finished; then throws the fault of a kernel
     * that no host access reported, as CUDA's synchronizing calls return an earlier asynchronous error.
     */
    public void synchronize(UserEvent event) {
        event.checkLive();
        backend.synchronizeEvent(event.handle);
        pool.pollAll();
        schedule.barrier().check();
    }

    /** Milliseconds between two completed records. */
    public double elapsedMillis(UserEvent start, UserEvent end) {
        start.checkLive();
        end.checkLive();
        return backend.elapsedMillis(start.handle, end.handle);
    }

    public void destroy(UserEvent event) {
        event.checkLive();
        events.remove(event);
        event.destroyed();
        backend.destroyEvent(event.handle);
    }

    /**
     * {@code cudaDeviceReset}: waits for all work, then destroys the streams and events created on the current device.
     * Arrays keep their contents: their replicas belong to the runtime, which keeps them coherent.
     */
    public void resetCurrentDevice() {
        backend.synchronizeAll();
        pool.pollAll();
        releaseDevice(currentDevice());
        schedule.barrier().check();
    }

    /** Destroys the streams and events of {@code device}; the caller waited for all work first. */
    private void releaseDevice(int device) {
        for (UserStream s : List.copyOf(streams)) {
            if (s.device() == device) {
                release(s);
            }
        }
        for (UserEvent e : List.copyOf(events)) {
            if (e.device() == device) {
                destroy(e);
            }
        }
    }

    /** Destroys every stream and event still live; the caller waited for all work first. */
    void close() {
        for (int d = 0; d < schedule.deviceCount(); d++) {
            releaseDevice(d);
        }
    }
}
