package org.polygpu.sched;

import org.polygpu.backend.EventHandle;

/**
 * An event the program created ({@code cudaEventCreate}), recorded on and waited from the program's streams.
 * Lifecycle: live from {@link UserStreams#createEvent} until {@link UserStreams#destroy(UserEvent)}. Not
 * thread-safe.
 */
public final class UserEvent extends ProgramObject {
    final EventHandle handle;

    UserEvent(EventHandle handle, long id) {
        super("event", id);
        this.handle = handle;
    }

    @Override
    public int device() {
        return handle.device();
    }
}
