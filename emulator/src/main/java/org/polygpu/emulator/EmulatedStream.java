package org.polygpu.emulator;

import java.util.ArrayDeque;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.StreamHandle;

/**
 * A stream of a virtual device: a FIFO of its incomplete operations, of which only the head may run.
 *
 * <p>Lifecycle: live from creation; {@link #destroy()} refuses further work while the operations already enqueued
 * still run to completion, as {@code cuStreamDestroy} does.
 */
final class EmulatedStream implements StreamHandle {
    private final Object owner;
    private final int device;
    private final int id;
    private final ArrayDeque<Operation> pending = new ArrayDeque<>();
    private boolean destroyed;

    EmulatedStream(Object owner, int device, int id) {
        this.owner = owner;
        this.device = device;
        this.id = id;
    }

    @Override
    public int device() {
        return device;
    }

    @Override
    public int id() {
        return id;
    }

    Object owner() {
        return owner;
    }

    /** Incomplete operations on the stream, the running head included. */
    int pendingCount() {
        return pending.size();
    }

    /** The oldest incomplete operation, or {@code null}. */
    Operation head() {
        return pending.peekFirst();
    }

    void add(Operation op) {
        pending.addLast(op);
    }

    void removeHead(Operation op) {
        if (pending.pollFirst() != op) {
            throw new IllegalStateException("operation " + op.sequence() + " completed out of order on " + this);
        }
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
        return "stream " + id + " of device " + device;
    }
}
