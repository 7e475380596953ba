package org.polygpu.sched;

import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.dag.Dag;
import org.polygpu.dag.DagEdge;
import org.polygpu.dag.DagVertex;

/**
 * Host-side accesses to arrays (element reads and writes, bulk copies, frees): the host waits only for the
 * computations the array depends on, the host replica is brought up to date, and the host's coherence transition is
 * applied. Not thread-safe: used by the execution context's thread.
 */
final class HostAccesses {
    private final Backend backend;
    private final Dag<Computation> dag;
    private final StreamPool pool;
    private final ReplicaTransfers transfers;
    private final ScheduleRecording recording;
    private final Consumer<Computation> retire;
    private final int host;
    private final LongSupplier ids;

    HostAccesses(Backend backend, Dag<Computation> dag, StreamPool pool, ReplicaTransfers transfers,
                 ScheduleRecording recording, Consumer<Computation> retire, int host, LongSupplier ids) {
        this.backend = backend;
        this.dag = dag;
        this.pool = pool;
        this.transfers = transfers;
        this.recording = recording;
        this.retire = retire;
        this.host = host;
        this.ids = ids;
    }

    /**
     * A host-side access: waits for the computations it depends on, brings the host replica up to date unless the
     * access overwrites it all, and applies the host's coherence transition. It joins the DAG only when it has
     * live parents or the DAG is recorded: otherwise it finishes at once and no later work could depend on it.
     *
     */
    void access(HostAccess work) {
        long id = ids.getAsLong();
        DeviceArray array = work.array();
        Access access = work.access();
        Computation c = null;
        if (recording.recordsDag() || dag.hasLiveDependencies(array, access)) {
            c = new Computation(id, work);
            c.vertex = dag.append(c, c.accesses);
            waitFor(c.vertex);
        }
        if (access == Access.WRITE) {
            transfers.hostReplica(array);
        } else {
            transfers.fetchToHost(array, id);
        }
        if (access.isReadOnly()) {
            array.coherence().read(host);
        } else {
            array.coherence().write(host);
            array.setReady(host, null, null);
        }
        if (c != null) {
            recording.scheduled(c);
            c.finished = true;
            dag.retire(c.vertex);
        }
    }

    /** Blocks the host until the unfinished parents of {@code v} completed, and retires them. */
    void waitFor(DagVertex<Computation> v) {
        for (DagEdge<Computation> e : v.parents()) {
            Computation p = e.from().computation();
            if (!p.finished) {
                backend.synchronizeEvent(p.event);
                pool.finishedThrough(p.slot, p, retire);
            }
        }
    }
}
