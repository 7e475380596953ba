package org.polygpu.sched;

import org.polygpu.backend.EventHandle;

/**
 * An event the program created ({@code cudaEventCreate}), recorded on and waited from the program's streams.
 * Lifecycle: live from {@link UserStreams#createEvent} until {@link UserStreams#destroy(UserEvent)}. Not
 * thread-safe.
 */
public final class UserEvent {
    final EventHandle handle;
    private final long id;
    private boolean destroyed;

    UserEvent(EventHandle handle, long id) {
        this.handle = handle;
        this.id = id;
    }

    /** The device it belongs to (the current device when it was created). */
    public int device() {
        return handle.device();
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
        return "event " + id + " of device " + device();
    }
}
