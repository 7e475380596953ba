package org.polygpu.sched;

import java.util.ArrayDeque;

import org.polygpu.backend.StreamHandle;

/** A backend stream with the computations enqueued on it that have not been seen to finish, oldest first. */
final class StreamSlot {
    final StreamHandle handle;
    final ArrayDeque<Computation> active = new ArrayDeque<>();

    StreamSlot(StreamHandle handle) {
        this.handle = handle;
    }

    int device() {
        return handle.device();
    }

    boolean isFree() {
        return active.isEmpty();
    }

    @Override
    public String toString() {
        return "device " + handle.device() + " stream " + handle.id();
    }
}
