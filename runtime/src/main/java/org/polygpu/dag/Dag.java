package org.polygpu.dag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.config.DependencyPolicy;

/**
 * The dependency DAG over live computations (paper §III-A).
 *
 * <p>A new computation depends, for each array it uses, on the live computations that array's history holds:
 * under {@code no-const} the last computation that used it; under {@code with-const} a reader depends on the last
 * writer only, and a writer on the readers since the last write and on that writer. Under {@code with-const}
 * redundant edges are removed (transitive reduction: no edge P→V when P reaches V through another parent).
 * Scalars never take part. The <em>frontier</em> is the set of live computations later ones can still depend on.
 *
 * <p>Finished computations are {@linkplain #retire retired}: their edges go and they create no dependencies, so
 * the live DAG stays as large as the work in flight. Not thread-safe: used by the scheduler's thread.
 */
public final class Dag<C> {
    /** Vertices visited at most when testing whether an edge is redundant; past it, the edge is kept. */
    private static final int REDUCTION_BUDGET = 256;

    private final DependencyPolicy policy;
    private final IdentityHashMap<DeviceArray, ArrayHistory<C>> histories = new IdentityHashMap<>();
    private final LinkedHashSet<DagVertex<C>> live = new LinkedHashSet<>();
    private final ArrayList<DagVertex<C>> candidates = new ArrayList<>();
    private final ArrayList<ArrayList<DeviceArray>> causes = new ArrayList<>();
    private final ArrayList<DagVertex<C>> searchStack = new ArrayList<>();
    private long nextId;

    public Dag(DependencyPolicy policy) {
        this.policy = policy;
    }

    /** Appends a computation using {@code accesses}; returns its vertex with its parent edges. */
    public DagVertex<C> append(C computation, ArrayAccess... accesses) {
        DagVertex<C> v = new DagVertex<>(nextId++, computation, merge(accesses));
        candidates.clear();
        for (int i = 0; i < v.accessCount(); i++) {
            ArrayAccess a = v.access(i);
            ArrayHistory<C> h = histories.computeIfAbsent(a.array(), k -> new ArrayHistory<>());
            if (policy == DependencyPolicy.NO_CONST) {
                addCandidate(h.liveWriter(), a.array());
                h.lastWriter = v;
            } else if (a.access().isReadOnly()) {
                addCandidate(h.liveWriter(), a.array());
                h.addReader(v);
            } else {
                for (DagVertex<C> r : h.readers) {
                    if (!r.finished) {
                        addCandidate(r, a.array());
                    }
                }
                addCandidate(h.liveWriter(), a.array());
                h.readers.clear();
                h.lastWriter = v;
            }
        }
        if (policy == DependencyPolicy.WITH_CONST && candidates.size() > 1) {
            removeRedundantCandidates();
        }
        for (int i = 0; i < candidates.size(); i++) {
            DagVertex<C> p = candidates.get(i);
            DagEdge<C> e = new DagEdge<>(p, v, List.copyOf(causes.get(i)));
            p.children.add(e);
            v.parents.add(e);
        }
        live.add(v);
        return v;
    }

    /**
     * Whether appending an access to {@code array} now would give the new vertex a parent: a live last writer,
     * or, for a write under {@code with-const}, live readers. When it would not, a synchronous host access can skip
     * the DAG: it finishes at once, so no later computation could depend on it.
     */
    public boolean hasLiveDependencies(DeviceArray array, Access access) {
        ArrayHistory<C> h = histories.get(array);
        if (h == null) {
            return false;
        }
        if (h.liveWriter() != null) {
            return true;
        }
        if (policy == DependencyPolicy.WITH_CONST && !access.isReadOnly()) {
            for (DagVertex<C> r : h.readers) {
                if (!r.finished) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The unfinished computations that read {@code array} since its last write, in append order: under
     * {@code with-const} the DAG does not order a later read after them; under {@code no-const} none (every access
     * counts as a write there).
     */
    public List<C> liveReaders(DeviceArray array) {
        ArrayHistory<C> h = histories.get(array);
        if (h == null || policy == DependencyPolicy.NO_CONST) {
            return List.of();
        }
        List<C> out = new ArrayList<>(2);
        for (DagVertex<C> r : h.readers) {
            if (!r.finished) {
                out.add(r.computation());
            }
        }
        return out;
    }

    /** Marks a vertex finished and drops its edges; it creates no dependencies from now on. */
    public void retire(DagVertex<C> v) {
        if (v.finished) {
            return;
        }
        v.finished = true;
        live.remove(v);
        for (int i = 0; i < v.parents.size(); i++) {
            DagEdge<C> e = v.parents.get(i);
            removeIdentical(e.from().children, e);
        }
        for (int i = 0; i < v.children.size(); i++) {
            DagEdge<C> e = v.children.get(i);
            removeIdentical(e.to().parents, e);
        }
        v.parents.clear();
        v.children.clear();
    }

    /** Removes {@code e} itself (edges are records: equal edges may exist, and equals compares array lists). */
    private static <C> void removeIdentical(ArrayList<DagEdge<C>> edges, DagEdge<C> e) {
        for (int i = edges.size() - 1; i >= 0; i--) {
            if (edges.get(i) == e) {
                edges.remove(i);
                return;
            }
        }
    }

    /** Forgets an array's history (after it was freed). */
    public void forget(DeviceArray array) {
        histories.remove(array);
    }

    public int vertexCount() {
        return live.size();
    }

    /** Edges between live vertices. */
    public int edgeCount() {
        int n = 0;
        for (DagVertex<C> v : live) {
            n += v.parents.size();
        }
        return n;
    }

    /** Arrays whose history the DAG keeps. */
    public int trackedArrayCount() {
        return histories.size();
    }

    /** Live vertices later computations can still depend on, in append order. */
    public List<DagVertex<C>> frontier() {
        LinkedHashSet<DagVertex<C>> f = new LinkedHashSet<>();
        for (ArrayHistory<C> h : histories.values()) {
            if (h.liveWriter() != null) {
                f.add(h.lastWriter);
            }
            for (DagVertex<C> r : h.readers) {
                if (!r.finished) {
                    f.add(r);
                }
            }
        }
        ArrayList<DagVertex<C>> sorted = new ArrayList<>(f);
        sorted.sort(Comparator.comparingLong(DagVertex::id));
        return sorted;
    }

    private void addCandidate(DagVertex<C> p, DeviceArray cause) {
        if (p == null) {
            return;
        }
        int i = candidates.indexOf(p);
        if (i < 0) {
            candidates.add(p);
            if (causes.size() < candidates.size()) {
                causes.add(new ArrayList<>(2));
            }
            i = candidates.size() - 1;
            causes.get(i).clear();
        }
        causes.get(i).add(cause);
    }

    /** Drops every candidate that is an ancestor of another candidate. */
    private void removeRedundantCandidates() {
        for (int i = candidates.size() - 1; i >= 0; i--) {
            DagVertex<C> p = candidates.get(i);
            for (int j = 0; j < candidates.size(); j++) {
                if (j != i && reaches(p, candidates.get(j))) {
                    candidates.remove(i);
                    ArrayList<DeviceArray> c = causes.remove(i);
                    causes.add(c);
                    break;
                }
            }
        }
    }

    /** Whether {@code ancestor} reaches {@code v} through live edges; ancestors always have smaller ids. */
    private boolean reaches(DagVertex<C> ancestor, DagVertex<C> v) {
        if (ancestor.id() >= v.id()) {
            return false;
        }
        searchStack.clear();
        searchStack.add(v);
        int visited = 0;
        while (!searchStack.isEmpty() && visited++ < REDUCTION_BUDGET) {
            DagVertex<C> x = searchStack.removeLast();
            for (DagEdge<C> e : x.parents) {
                DagVertex<C> p = e.from();
                if (p == ancestor) {
                    return true;
                }
                if (p.id() > ancestor.id()) {
                    searchStack.add(p);
                }
            }
        }
        return false;
    }

    /** One access per array: an array used twice is read-write unless both uses read. */
    private static ArrayAccess[] merge(ArrayAccess[] accesses) {
        ArrayAccess[] out = new ArrayAccess[accesses.length];
        int n = 0;
        outer:
        for (ArrayAccess a : accesses) {
            for (int i = 0; i < n; i++) {
                if (out[i].array() == a.array()) {
                    Access m = out[i].access().merge(a.access());
                    out[i] = new ArrayAccess(a.array(), m);
                    continue outer;
                }
            }
            out[n++] = a;
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }
}
