package org.polygpu.sched;

/**
 * A stream the program created ({@code cudaStreamCreate}): computations launched on it explicitly run there, in
 * order, and still wait for the computations their arguments depend on. The scheduler never puts other work on it.
 * Lifecycle: live from {@link UserStreams#createStream} until {@link UserStreams#destroy(UserStream)}. Not
 * thread-safe.
 */
public final class UserStream extends ProgramObject {
    final StreamSlot slot;

    UserStream(StreamSlot slot, long id) {
        super("stream", id);
        this.slot = slot;
    }

    @Override
    public int device() {
        return slot.device();
    }
}
