package org.polygpu.sched;

import java.util.ArrayList;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.Producer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.dag.DagVertex;

/**
 * One unit of scheduled work: a kernel launch, a host element read or write, a bulk copy, or the release of an
 * array, with the arrays it uses and how.
 *
 * <p>Lifecycle: CREATED → SCHEDULED (device, stream and completion event assigned, work enqueued) → FINISHED (its
 * event was seen complete, by polling or by a host wait; its events went back to the pool). Host-side
 * computations have no stream and finish as soon as the host access is done. Not thread-safe.
 */
public final class Computation implements Producer {
    /** What a computation does. */
    public enum Kind { KERNEL, HOST_READ, HOST_WRITE, COPY, FREE }

    /** Device value of computations that run on the host. */
    public static final int HOST = -1;

    private final long id;
    private final Work work;
    private final String name;
    final ArrayAccess[] accesses;
    DagVertex<Computation> vertex;
    StreamSlot slot;
    EventHandle event;
    ArrayList<EventHandle> copyEvents;
    int device = HOST;
    boolean finished;
    boolean streamTakenByChild;

    Computation(long id, Work work) {
        this.id = id;
        this.work = work;
        this.name = work.name();
        this.accesses = work.accesses();
    }

    public long id() {
        return id;
    }

    /** What it does, as named by its work. */
    public Kind kind() {
        return work.kind();
    }

    Work work() {
        return work;
    }

    /** The kernel name, or a short description of a host access or copy. */
    public String name() {
        return name;
    }

    /** The device it runs on, or {@link #HOST}. */
    public int device() {
        return device;
    }

    /** The stream's number on its device, or -1 for host-side work. */
    public int streamId() {
        return slot == null ? -1 : slot.handle.id();
    }

    @Override
    public StreamHandle stream() {
        return slot == null ? null : slot.handle;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Parents it had in the DAG when it was scheduled and that have not finished since. */
    public int vertexParentCount() {
        return vertex == null ? 0 : vertex.parentCount();
    }

    /** The arrays it uses, each once, with their access modes. */
    public ArrayAccess[] accesses() {
        return accesses.clone();
    }

    @Override
    public String toString() {
        return name + "#" + id;
    }
}
