package org.polygpu.emulator;

import java.util.function.Consumer;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;

/**
 * The emulated backend's events: recording a point in a stream, making a stream wait for one, polling and blocking
 * on one, and the virtual time between two. A record or a wait is an operation on its stream
 * ({@link EventRecordOperation}, {@link EventWaitOperation}); polling and blocking advance the host's virtual clock.
 *
 * <p>Not thread-safe (the backend's single caller); the backend checks that it is open.
 */
final class EmulatedEvents {
    private final Handles handles;
    private final HostClock host;
    private final Consumer<EmulatedStream> awaitRoom;

    /** @param awaitRoom blocks the host while a stream's queue is full (the backend's back-pressure) */
    EmulatedEvents(Handles handles, HostClock host, Consumer<EmulatedStream> awaitRoom) {
        this.handles = handles;
        this.host = host;
        this.awaitRoom = awaitRoom;
    }

    /** @throws BackendException when the event belongs to another device than the stream */
    void record(EventHandle event, StreamHandle stream) {
        EmulatedEvent e = handles.event(event);
        EmulatedStream s = handles.stream(stream);
        if (e.device() != s.device()) {
            throw new BackendException("cannot record an " + e + " on " + s + ": an event is recorded on its own "
                    + "device's streams");
        }
        awaitRoom.accept(s);
        EventRecordOperation point = new EventRecordOperation(s);
        host.enqueue(point);
        e.record(point);
    }

    void streamWait(StreamHandle stream, EventHandle event) {
        EmulatedStream s = handles.stream(stream);
        EmulatedEvent e = handles.event(event);
        if (e.isComplete()) {
            host.apiCall(); // nothing to wait for: CUDA returns at once, too
            return;
        }
        awaitRoom.accept(s);
        host.enqueue(new EventWaitOperation(s, e.point()));
    }

    /** Holds {@code stream} until virtual time {@code nanos} ({@link ClockHoldOperation}). */
    void holdUntil(StreamHandle stream, long nanos) {
        EmulatedStream s = handles.stream(stream);
        awaitRoom.accept(s);
        host.enqueue(new ClockHoldOperation(s, nanos));
    }

    /** Blocks until {@code event} completed; its virtual completion time, or 0 when it was never recorded. */
    long completedAt(EventHandle event) {
        EmulatedEvent e = handles.event(event);
        host.block(e::isComplete);
        return e.point() == null ? 0 : e.point().endNanos();
    }

    boolean query(EventHandle event) {
        EmulatedEvent e = handles.event(event);
        return host.poll(e::isComplete);
    }

    void synchronize(EventHandle event) {
        EmulatedEvent e = handles.event(event);
        host.block(e::isComplete);
    }

    /** @throws BackendException if either event was never recorded or has not completed */
    double elapsedMillis(EventHandle start, EventHandle end) {
        EmulatedEvent s = handles.event(start);
        EmulatedEvent e = handles.event(end);
        host.catchUp();
        return (completedPoint(e, "end") - completedPoint(s, "start")) / 1e6;
    }

    private static long completedPoint(EmulatedEvent e, String role) {
        if (e.point() == null) {
            throw new BackendException("elapsedMillis: the " + role + " " + e + " was never recorded");
        }
        if (!e.point().isComplete()) {
            throw new BackendException("elapsedMillis: the " + role + " " + e + " has not completed");
        }
        return e.point().endNanos();
    }
}
