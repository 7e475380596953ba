package org.polygpu.sched;

/**
 * A stream the program created ({@code cudaStreamCreate}): computations launched on it explicitly run there, in
 * order, and still wait for the computations their arguments depend on. The scheduler never puts other work on it.
 * Lifecycle: live from {@link UserStreams#createStream} until {@link UserStreams#destroy(UserStream)}. Not
 * thread-safe.
 */
public final class UserStream {
    final StreamSlot slot;
    private final long id;
    private boolean destroyed;

    UserStream(StreamSlot slot, long id) {
        this.slot = slot;
        this.id = id;
    }

    /** The device it belongs to (the current device when it was created). */
    public int device() {
        return slot.device();
    }

    /** Its number among the streams and events the program created in this context, from 1. */
    public long id() {
        return id;
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    void destroyed() {
        destroyed = true;
    }

    /** @throws IllegalStateException once it was destroyed */
    void checkLive() {
        if (destroyed) {
            throw new IllegalStateException(this + " was destroyed");
        }
    }

    @Override
    public String toString() {
        return "stream " + id + " of device " + device();
    }
}
