package org.polygpu.dag;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.ArrayAccess;

/**
 * A computation in the DAG with its parents and children among the live vertices.
 *
 * <p>Lifecycle: LIVE (appended, possibly still running) → FINISHED (retired by {@link Dag#retire}: its edges are
 * dropped and it no longer creates dependencies). Not thread-safe.
 *
 * @param <C> the scheduler's computation type
 */
public final class DagVertex<C> {
    private final long id;
    private final C computation;
    private final ArrayAccess[] accesses;
    final ArrayList<DagEdge<C>> parents = new ArrayList<>(2);
    final ArrayList<DagEdge<C>> children = new ArrayList<>(2);
    boolean finished;

    DagVertex(long id, C computation, ArrayAccess[] accesses) {
        this.id = id;
        this.computation = computation;
        this.accesses = accesses;
    }

    /** Position in append order, from 0. */
    public long id() {
        return id;
    }

    public C computation() {
        return computation;
    }

    /** The arrays used, each once, with the merged access mode. */
    public ArrayAccess[] accesses() {
        return accesses.clone();
    }

    int accessCount() {
        return accesses.length;
    }

    ArrayAccess access(int i) {
        return accesses[i];
    }

    /** Edges from live parents; empty once the parents finished. */
    public List<DagEdge<C>> parents() {
        return List.copyOf(parents);
    }

    public int parentCount() {
        return parents.size();
    }

    /** The computation of the {@code i}-th live parent. */
    public DagVertex<C> parent(int i) {
        return parents.get(i).from();
    }

    public boolean isFinished() {
        return finished;
    }

    @Override
    public String toString() {
        return "vertex " + id + " (" + computation + ")";
    }
}
