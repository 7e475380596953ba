package org.polygpu.sched;

import org.polygpu.backend.Backend;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.dag.Dag;
import org.polygpu.dag.DagEdge;
import org.polygpu.dag.DagVertex;

/**
 * The scheduler's shared live state: the DAG of unfinished computations, the stream pool, and the numbering of
 * computations. A computation joins the DAG through {@link #append} and leaves it through {@link #retire}, which
 * the stream pool also calls for the work it finds finished.
 *
 * <p>The execution context creates one and hands it to its parts (host accesses, replica transfers, stream
 * assignment). Not thread-safe: used by the execution context's thread.
 */
final class Schedule {
    private final Dag<Computation> dag;
    private final StreamPool pool;
    private final int deviceCount;
    private final Faults faults;
    private final KernelTimes times;
    private final HostReadRaces races;
    private final FaultBarrier barrier;
    private long nextComputationId;
    private int currentDevice;

    Schedule(Backend backend, RuntimeConfig config, int deviceCount) {
        this.dag = new Dag<>(config.dependencyPolicy());
        this.pool = new StreamPool(backend, deviceCount, config.newStreamPolicy(), this::completed);
        this.deviceCount = deviceCount;
        this.barrier = new FaultBarrier(backend, this);
        this.faults = new Faults(backend, barrier::faultKept);
        this.times = new KernelTimes(backend);
        this.races = new HostReadRaces(backend, this);
    }

    /** Host reads racing with kernels that store through read-only pointers. */
    HostReadRaces races() {
        return races;
    }

    /** The measurement of kernel launches for a device-selection policy that observes them. */
    KernelTimes times() {
        return times;
    }

    Dag<Computation> dag() {
        return dag;
    }

    StreamPool pool() {
        return pool;
    }

    Faults faults() {
        return faults;
    }

    /** The check host operations make for faults not raised yet (sticky faults). */
    FaultBarrier barrier() {
        return barrier;
    }

    /** Devices in use; the host's location index comes after them. */
    int deviceCount() {
        return deviceCount;
    }

    /** The device the program made current ({@code cudaSetDevice}); 0 until it chooses one. */
    int currentDevice() {
        return currentDevice;
    }

    /** @throws IllegalArgumentException unless {@code device} is one of the devices in use */
    void setCurrentDevice(int device) {
        if (device < 0 || device >= deviceCount) {
            throw new IllegalArgumentException("device " + device + " is out of range 0.." + (deviceCount - 1)
                    + " (the devices in use)");
        }
        currentDevice = device;
    }

    /** The next computation's id; ids count every launch, copy, host access and release, from 0. */
    long nextId() {
        return nextComputationId++;
    }

    /** Appends {@code c} to the DAG, with edges from the live computations it depends on. */
    DagVertex<Computation> append(Computation c) {
        DagVertex<Computation> v = dag.append(c, c.accessArray());
        c.appended(v);
        return v;
    }

    /**
     * Finishes {@code c}, returning its events to the pool, prunes it from the DAG and keeps its kernel's fault, if
     * it had one ({@link Faults}); once only.
     */
    void retire(Computation c) {
        times.abandoned(c);
        if (c.finish(pool)) {
            dag.retire(c.vertex());
            faults.retired(c);
        }
    }

    /** {@code c} was seen complete on its stream: its duration is measured, then it retires. */
    private void completed(Computation c) {
        times.completed(c);
        faults.completing(c);
        retire(c);
    }

    /**
     * Blocks the host until the unfinished parents of {@code c} completed, and retires them. Iterates over a copy of
     * the parents, since retiring one drops its edge to {@code c}.
     */
    void awaitParents(Computation c) {
        for (DagEdge<Computation> e : c.vertex().parents()) {
            Computation p = e.from().computation();
            if (!p.isFinished()) {
                pool.await(p);
            }
        }
    }
}
