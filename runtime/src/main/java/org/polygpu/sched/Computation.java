package org.polygpu.sched;

import java.util.ArrayList;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.Producer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.dag.DagVertex;

/**
 * One unit of scheduled work: a kernel launch, a host element read or write, a bulk copy, or the release of an
 * array ({@link Work}), with the arrays it uses and how, and where it stands in its lifecycle.
 *
 * <p>Each transition method checks the state it starts from and throws {@link IllegalStateException} otherwise.
 * Host-side work has no stream and finishes as soon as the host did it. Not thread-safe: owned by the execution
 * context's thread.
 */
public final class Computation implements Producer {
    /** What a computation does. */
    public enum Kind { KERNEL, HOST_READ, HOST_WRITE, COPY, FREE }

    /** Device value of computations that run on the host. */
    public static final int HOST = -1;

    /** Where a computation stands; see {@link #state}. */
    private enum State { CREATED, IN_DAG, SCHEDULED, FINISHED }

    private final long id;
    private final Work work;
    private final String name;
    private final ArrayAccess[] accesses;

    /*
     * The lifecycle. Possible transitions:
     *
     *   CREATED   -> IN_DAG      appended(vertex): a vertex in the DAG, with edges from its live parents
     *   IN_DAG    -> SCHEDULED   scheduled(slot, event): device, stream and completion event set, after the stream
     *                            waited for its parents; copies into its replicas add events (addCopyEvent), then
     *                            the work is enqueued and the event recorded
     *   IN_DAG    -> FINISHED    finish(pool): host-side work the host has done, or device work abandoned before it
     *                            had a stream or event
     *   SCHEDULED -> FINISHED    finish(pool): its event was seen complete (by polling or a host wait), or its
     *                            enqueueing failed; its events go back to the pool
     *
     * finish is idempotent; the DAG vertex is retired by the caller (Schedule.retire).
     */
    private State state = State.CREATED;
    private DagVertex<Computation> vertex;
    private StreamSlot slot;
    private EventHandle event;
    /** Whether {@link #event} was recorded right after its work (else a later event on its stream covers it). */
    private boolean eventRecorded;
    private ArrayList<EventHandle> copyEvents;
    private EventHandle inputsCopied;
    private KernelTimes.Started timing;

    Computation(long id, Work work) {
        this.id = id;
        this.work = work;
        this.name = work.name();
        this.accesses = work.accesses();
    }

    void appended(DagVertex<Computation> v) {
        expect(State.CREATED, "join the DAG");
        vertex = v;
        state = State.IN_DAG;
    }

    void scheduled(StreamSlot s, EventHandle completion) {
        expect(State.IN_DAG, "be scheduled");
        slot = s;
        event = completion;
        eventRecorded = false;
        state = State.SCHEDULED;
    }

    /**
     * The event of the copy into its replicas enqueued last, when nothing was enqueued on its stream after it: its
     * work starts when that copy ends. Null when it copied nothing or waited for something after its last copy.
     */
    EventHandle inputsCopied() {
        return inputsCopied;
    }

    void inputsCopied(EventHandle lastCopy) {
        inputsCopied = lastCopy;
    }

    /** Adds the event recorded after a copy into one of its replicas; it goes back to the pool with the others. */
    void addCopyEvent(EventHandle copied) {
        expect(State.SCHEDULED, "take a copy event");
        if (copyEvents == null) {
            copyEvents = new ArrayList<>(2);
        }
        copyEvents.add(copied);
    }

    /**
     * Marks it finished and returns its events to {@code pool}; does nothing when it already finished.
     *
     * @return whether it was unfinished until now
     */
    boolean finish(StreamPool pool) {
        if (state == State.FINISHED) {
            return false;
        }
        if (state == State.CREATED) {
            throw new IllegalStateException(this + " cannot finish before it joined the DAG");
        }
        state = State.FINISHED;
        if (event != null) {
            pool.releaseEvent(event);
        }
        if (copyEvents != null) {
            for (int i = 0; i < copyEvents.size(); i++) {
                pool.releaseEvent(copyEvents.get(i));
            }
            copyEvents = null;
        }
        inputsCopied = null;
        return true;
    }

    private void expect(State from, String transition) {
        if (state != from) {
            throw new IllegalStateException(this + " cannot " + transition + " when " + state + ", only when "
                    + from);
        }
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
        return slot == null ? HOST : slot.device();
    }

    /** The stream's number on its device, or -1 for host-side work. */
    public int streamId() {
        return slot == null ? -1 : slot.handle.id();
    }

    @Override
    public StreamHandle stream() {
        return slot == null ? null : slot.handle;
    }

    StreamSlot slot() {
        return slot;
    }

    /**
     * The completion event; null until it is scheduled. It was recorded after its work only when
     * {@link #eventRecorded()}: otherwise {@link StreamPool#completionOf} finds the event that covers it.
     */
    EventHandle event() {
        return event;
    }

    boolean eventRecorded() {
        return eventRecorded;
    }

    /** Its completion event was recorded on its stream after its work (and nothing else) was enqueued. */
    void markEventRecorded() {
        expect(State.SCHEDULED, "record its completion event");
        eventRecorded = true;
    }

    /**
     * Whether {@code later}, enqueued after it on its stream, takes its place for every computation that could still
     * come to depend on it: {@code later} writes every array it used, or reads one that both only read. Then a wait
     * for {@code later} (or anything after it) is never longer than such a dependency needs, so its own completion
     * event need not be recorded.
     */
    boolean supersededBy(Computation later) {
        for (ArrayAccess a : accesses) {
            if (!takesPlace(later, a)) {
                return false;
            }
        }
        return true;
    }

    private static boolean takesPlace(Computation later, ArrayAccess a) {
        for (ArrayAccess b : later.accesses) {
            if (b.array() == a.array() && (!b.access().isReadOnly() || a.access().isReadOnly())) {
                return true;
            }
        }
        return false;
    }

    /** Its start event and what the observer was told when it is a measured kernel launch; else null. */
    KernelTimes.Started timing() {
        return timing;
    }

    void timed(KernelTimes.Started started) {
        timing = started;
    }

    /** Its DAG vertex; null until it is appended. */
    DagVertex<Computation> vertex() {
        return vertex;
    }

    @Override
    public boolean isFinished() {
        return state == State.FINISHED;
    }

    /** Parents it had in the DAG when it was scheduled and that have not finished since. */
    public int vertexParentCount() {
        return vertex == null ? 0 : vertex.parentCount();
    }

    /** The arrays it uses, each once, with their access modes. */
    public ArrayAccess[] accesses() {
        return accesses.clone();
    }

    /** {@link #accesses()} itself, not a copy, for the scheduler's reads; never modified. */
    ArrayAccess[] accessArray() {
        return accesses;
    }

    @Override
    public String toString() {
        return name + "#" + id;
    }
}
