package org.polygpu.array;

import org.polygpu.backend.StreamHandle;

/** Work that makes a replica's data ready: a kernel that wrote it, or the copy that filled it. */
public interface Producer {
    /** Whether the work is known to have completed (its event was seen complete). */
    boolean isFinished();

    /** The stream the work was enqueued on. */
    StreamHandle stream();
}
