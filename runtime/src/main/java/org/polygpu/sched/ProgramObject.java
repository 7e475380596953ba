package org.polygpu.sched;

/**
 * What the program creates and destroys itself, streams and events: its number, its device and whether it was
 * destroyed. Lifecycle: live from its creation by {@link UserStreams} until destroyed there. Not thread-safe.
 */
public abstract sealed class ProgramObject permits UserStream, UserEvent {
    private final String kind;
    private final long id;
    private boolean destroyed;

    ProgramObject(String kind, long id) {
        this.kind = kind;
        this.id = id;
    }

    /** The device it belongs to (the current device when it was created). */
    public abstract int device();

    /** Its number among the streams and events the program created in this context, from 1. */
    public final long id() {
        return id;
    }

    public final boolean isDestroyed() {
        return destroyed;
    }

    final void destroyed() {
        destroyed = true;
    }

    /** @throws IllegalStateException once it was destroyed */
    final void checkLive() {
        if (destroyed) {
            throw new IllegalStateException(this + " was destroyed");
        }
    }

    @Override
    public final String toString() {
        return kind + " " + id + " of device " + device();
    }
}
