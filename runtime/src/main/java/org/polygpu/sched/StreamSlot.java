package org.polygpu.sched;

import java.util.ArrayDeque;

import org.polygpu.backend.StreamHandle;

/**
 * A backend stream with the computations enqueued on it that have not been seen to finish, oldest first, and the
 * computation that holds it.
 *
 * <p>The holder is the computation the stream was last handed to: the first one on a free stream, or a child that
 * took its parent's stream. Only the holder can still lend the stream to a child; a computation that handed it on
 * has lent it ({@link #isLentBy}), so the disjoint parent-stream policies give its other children other streams.
 * Keying this to the holder, not to a flag on the stream, keeps it right while later computations reuse the stream.
 */
final class StreamSlot {
    final StreamHandle handle;
    final ArrayDeque<Computation> active = new ArrayDeque<>();
    private final int device;
    private Computation holder;

    StreamSlot(StreamHandle handle) {
        this.handle = handle;
        this.device = handle.device();
    }

    int device() {
        return device;
    }

    boolean isFree() {
        return active.isEmpty();
    }

    /** Hands the stream to {@code c}, which holds it from now on; returns this stream. */
    StreamSlot handTo(Computation c) {
        holder = c;
        return this;
    }

    /** Whether {@code c}, given this stream earlier, lent it on: a later computation (its child) holds it now. */
    boolean isLentBy(Computation c) {
        return holder != c;
    }

    @Override
    public String toString() {
        return "device " + device + " stream " + handle.id();
    }
}
