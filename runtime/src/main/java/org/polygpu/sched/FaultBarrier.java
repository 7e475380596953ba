package org.polygpu.sched;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.backend.Backend;

/**
 * Sticky faults: the check each host operation that waits for the device makes before it runs (element reads and
 * writes, bulk copies, host function calls, stream, event and device synchronisation; close raises what is left).
 * Once a kernel has faulted, the first such operation throws that fault ({@link Faults#raiseUnreported}), whether or
 * not it depends on the faulted kernel, as CUDA's synchronising calls return an earlier asynchronous error; the
 * operation does nothing then, and the next one runs as usual (the context stays usable; only the arrays the kernel
 * could write stay undefined).
 *
 * <p>Which faults are known. A fault is known once its kernel completed: when the backend holds one not taken yet
 * ({@link Backend#hasPendingFaults}), every stream is polled, so the kernel retires and its fault is kept; on the
 * emulator, completion is in virtual time, so the operation that raises it is the same on every run. A kernel whose
 * PTX stores through a pointer its signature declares read-only, on a backend that refuses such stores (the emulator
 * under {@code MemoryModel=explicit}), is known to fault before it runs: the next such operation waits for it, so the
 * program's next host access raises its fault whatever it reads. While such a kernel is unfinished or a fault is
 * unraised, no array is granted direct host access, so element accesses go through this check.
 * Not thread-safe: used by the execution context's thread.
 */
final class FaultBarrier {
    private final Backend backend;
    private final Schedule schedule;
    /** Whether stores through read-only pointers fault rather than land. */
    private final boolean refused;
    /** Launches of kernels that store through a read-only pointer, not waited for yet. */
    private final List<Computation> refusedStores = new ArrayList<>();
    private Runnable revokeDirectAccess = () -> { };

    FaultBarrier(Backend backend, Schedule schedule) {
        this.backend = backend;
        this.schedule = schedule;
        this.refused = backend.checksReadOnlyStores() && !backend.managedMemory();
    }

    /** What ends every array's direct host access (the context's arrays). */
    void revokeDirectAccessWith(Runnable revoke) {
        this.revokeDirectAccess = revoke;
    }

    /** {@code c}, a launch of {@code kernel}, was submitted: kept when its stores through read-only pointers fault. */
    void launched(Computation c, Kernel kernel) {
        if (refused && !kernel.readOnlyStores().isEmpty()) {
            refusedStores.add(c);
            revokeDirectAccess.run();
        }
    }

    /** A fault was kept: element accesses must come through {@link #check} again to raise it. */
    void faultKept() {
        revokeDirectAccess.run();
    }

    /** Whether direct host access must not be granted: a fault is known or expected and not raised yet. */
    boolean holdsDirectAccess() {
        return !refusedStores.isEmpty() || schedule.faults().hasUnreported();
    }

    /**
     * Before a host operation: waits for the launches whose read-only stores fault, retires what completed when the
     * backend holds a fault, then throws the oldest fault not raised yet (the others suppressed in it).
     */
    void check() {
        if (!refusedStores.isEmpty()) {
            List<Computation> launches = List.copyOf(refusedStores);
            refusedStores.clear();
            for (Computation c : launches) {
                if (!c.isFinished()) {
                    schedule.pool().await(c);
                }
            }
        }
        if (backend.hasPendingFaults()) {
            schedule.pool().pollAll();
        }
        schedule.faults().raiseUnreported();
    }
}
