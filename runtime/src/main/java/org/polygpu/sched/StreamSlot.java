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
 * A stream the program created ({@link #isProgramStream}) is lent to no child.
 */
final class StreamSlot {
    final StreamHandle handle;
    final ArrayDeque<Computation> active = new ArrayDeque<>();
    /** How many of the last computations in {@link #active} have no recorded completion event of their own. */
    int unrecorded;
    private final int device;
    private final boolean program;
    private Computation holder;

    /** @param program whether the program created it ({@code cudaStreamCreate}) rather than the stream pool */
    StreamSlot(StreamHandle handle, boolean program) {
        this.handle = handle;
        this.device = handle.device();
        this.program = program;
    }

    int device() {
        return device;
    }

    boolean isFree() {
        return active.isEmpty();
    }

    /**
     * Whether the program created it: only computations launched on it explicitly run there, so it is never lent to
     * a child computation as its parent's stream.
     */
    boolean isProgramStream() {
        return program;
    }

    /** Hands the stream to {@code c}, which holds it from now on; returns this stream. */
    StreamSlot handTo(Computation c) {
        holder = c;
        return this;
    }

    /** Whether {@code c}, given this stream earlier, lent it on: a later computation (its child) holds it now. */
    boolean isLentBy(Computation c) {
        return program || holder != c;
    }

    @Override
    public String toString() {
        return "device " + device + " stream " + handle.id();
    }
}
