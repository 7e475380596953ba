package org.polygpu.backend;

/**
 * An optional capability of a backend that runs on a virtual clock ({@link Backend.Clock#VIRTUAL}): reading the
 * virtual time at which an event's record completed, and holding a stream, or the host, until a virtual time. A
 * backend offers it by implementing this interface besides {@link Backend}; callers find it with {@code instanceof}.
 * Backends on a real clock do not implement it: they wait in real time, and nothing needs to move their clocks.
 *
 * <p>The cluster backend uses it to make the virtual clocks of emulated ranks respect the messages between them.
 */
public interface VirtualTimeline {
    /**
     * The virtual time, in nanoseconds, at which {@code event}'s latest record completed, after waiting for it as
     * {@link Backend#synchronizeEvent} does; 0 for an event never recorded.
     */
    long completedAt(EventHandle event);

    /**
     * Holds {@code stream}: what is enqueued on it after this call starts no earlier than virtual time {@code nanos}
     * (nor before the work enqueued before it ends). A time already passed holds nothing.
     */
    void holdUntil(StreamHandle stream, long nanos);

    /**
     * Holds the host until virtual time {@code nanos}, as if a blocking call had waited until then: what it enqueues
     * afterwards starts no earlier. A time already passed holds nothing.
     */
    void holdHostUntil(long nanos);
}
