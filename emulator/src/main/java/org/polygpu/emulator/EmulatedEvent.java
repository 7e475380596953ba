package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;

/**
 * An event of a virtual device: the point (an {@link EventRecordOperation}) of its last record, or none if it was
 * never recorded. An event never recorded counts as complete, and re-recording moves the point while waits already
 * enqueued keep the point they captured, as in CUDA.
 */
final class EmulatedEvent implements EventHandle {
    private final Object owner;
    private final int device;
    private EventRecordOperation point;
    private boolean destroyed;

    EmulatedEvent(Object owner, int device) {
        this.owner = owner;
        this.device = device;
    }

    @Override
    public int device() {
        return device;
    }

    Object owner() {
        return owner;
    }

    /** The point of the last record, or {@code null} if the event was never recorded. */
    EventRecordOperation point() {
        return point;
    }

    void record(EventRecordOperation newPoint) {
        point = newPoint;
    }

    /** Whether the work before the last record completed; {@code true} when never recorded. */
    boolean isComplete() {
        return point == null || point.isComplete();
    }

    void checkLive() {
        if (destroyed) {
            throw new BackendException(this + " was destroyed");
        }
    }

    void destroy() {
        checkLive();
        destroyed = true;
    }

    @Override
    public String toString() {
        return "event of device " + device;
    }
}
