package org.polygpu.sched;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.dag.DagEdge;

/**
 * The faults of finished kernels and the arrays they left undefined. A kernel's fault is taken from the backend when
 * its computation retires and reported once: by the next host operation that waits for the device ({@link
 * FaultBarrier}, which calls {@link #raiseUnreported}), unless a host access that depends on it (a read of an array
 * the kernel wrote, or of one computed from such an array) found it first. The arrays the kernel could write are
 * undefined from then on: reading them says so, until the host writes all of an array or a later computation
 * overwrites it whole (an {@code out} parameter, a copy's destination).
 *
 * <p><b>Device work that reads an undefined array.</b> A kernel or device copy is never refused when it is launched
 * because an array it reads is undefined: whether the fault is known at that moment depends on whether the faulted
 * kernel happened to retire before the launch (on a GPU, on real time), so a refusal at launch would come and go from
 * run to run. Instead undefinedness follows the data: a kernel or copy that reads an array that a fault earlier in
 * the program (a computation with a smaller id, so one the DAG ordered it after) left undefined leaves every array it
 * could write undefined too, carrying the original fault, whether it was launched before or after the fault became
 * known. The host learns of it at its first use of such an array, which names the faulted kernel and the computation
 * through which the array was derived. The outcome thus depends on the program alone. For that, a computation's
 * parents are settled before it (their faults taken and applied) when it completes first in polling order, since a
 * computation completes only after its parents did.
 * Not thread-safe: used by the execution context's thread.
 */
final class Faults {
    /** A kernel's fault and whether it reached the host yet. */
    private static final class Fault {
        final Computation kernel;
        final BackendException error;
        boolean reported;

        Fault(Computation kernel, BackendException error) {
            this.kernel = kernel;
            this.error = error;
        }
    }

    /** Why an array is undefined: the fault, and the computation that derived it from {@code source}, if any. */
    private record Mark(Fault fault, Computation via, DeviceArray source) {
        String describe(DeviceArray array) {
            String kernel = "kernel '" + fault.kernel.name() + "' (computation " + fault.kernel.id() + ")";
            if (via == null) {
                return array + " is undefined: " + kernel + " faulted while it could write it";
            }
            String derived = via.kind() == Computation.Kind.COPY ? via.name() : "kernel '" + via.name() + "'";
            return array + " is undefined: " + derived + " (computation " + via.id() + ") computed it from "
                    + source + ", which " + kernel + " left undefined when it faulted";
        }
    }

    private final Backend backend;
    /** Told when a fault is kept, so that the host's next access comes to raise it. */
    private final Runnable kept;
    private final Map<DeviceArray, Mark> undefined = new IdentityHashMap<>();
    private final ArrayList<Fault> unreported = new ArrayList<>();
    /** Computations whose outcome was applied when a child completed before they retired. */
    private final Set<Long> settled = new HashSet<>();

    Faults(Backend backend, Runnable kept) {
        this.backend = backend;
        this.kept = kept;
    }

    /**
     * {@code c} completed and is about to retire: its unfinished parents completed before it, so their outcomes are
     * applied first, in the order the DAG gives, whatever order polling finds them in.
     */
    void completing(Computation c) {
        for (DagEdge<Computation> e : c.vertex().parents()) {
            Computation p = e.from().computation();
            if (!p.isFinished() && !settled.contains(p.id())) {
                completing(p);
                settled.add(p.id());
                apply(p);
            }
        }
    }

    /** After {@code c} retired: applies its outcome, unless that was done when a child completed. */
    void retired(Computation c) {
        if (settled.isEmpty() || !settled.remove(c.id())) {
            apply(c);
        }
    }

    /**
     * Applies what {@code c} did to the arrays' definedness: device work reading an array undefined by an earlier
     * fault makes what it writes undefined; otherwise arrays it overwrote whole after a fault are defined again; then
     * its kernel's fault, if it had one, is kept and what it could write marked undefined.
     */
    private void apply(Computation c) {
        boolean device = c.kind() == Computation.Kind.KERNEL || c.kind() == Computation.Kind.COPY;
        if (!undefined.isEmpty()) {
            Mark poison = null;
            for (ArrayAccess a : c.accessArray()) {
                Mark m = undefined.get(a.array());
                if (device && poison == null && a.access() != Access.WRITE && m != null && m.fault.kernel.id() < c.id()) {
                    poison = new Mark(m.fault, c, a.array());
                }
            }
            for (ArrayAccess a : c.accessArray()) {
                Mark m = undefined.get(a.array());
                if (poison != null && !a.access().isReadOnly()) {
                    if (m == null || a.access() == Access.WRITE) {
                        undefined.put(a.array(), poison);
                    }
                } else if (a.access() == Access.WRITE && m != null && m.fault.kernel.id() < c.id()) {
                    undefined.remove(a.array());
                }
            }
        }
        if (c.kind() != Computation.Kind.KERNEL) {
            return;
        }
        Optional<BackendException> error = backend.takeFault(c.id());
        if (error.isEmpty()) {
            return;
        }
        Fault fault = new Fault(c, error.get());
        unreported.add(fault);
        kept.run();
        for (ArrayAccess a : c.accessArray()) {
            if (!a.access().isReadOnly()) {
                undefined.put(a.array(), new Mark(fault, null, null));
            }
        }
    }

    /**
     * Before the host uses {@code array}'s contents (its writers have retired): throws the fault that left it
     * undefined, the first time, and after that an {@link IllegalStateException} saying it is undefined and why.
     */
    void checkDefined(DeviceArray array) {
        if (undefined.isEmpty()) {
            return;
        }
        Mark m = undefined.get(array);
        if (m == null) {
            return;
        }
        Fault f = m.fault;
        if (!f.reported) {
            f.reported = true;
            unreported.remove(f);
            throw f.error;
        }
        throw new IllegalStateException(m.describe(array) + "; write all of the array to define it again ("
                + f.error.getMessage() + ")");
    }

    /** The host wrote all of {@code array}, or freed it: it is no longer undefined. */
    void defined(DeviceArray array) {
        if (!undefined.isEmpty()) {
            undefined.remove(array);
        }
    }

    /** Whether a kept fault has not reached the host yet. */
    boolean hasUnreported() {
        return !unreported.isEmpty();
    }

    /** Throws the oldest fault not reported yet, with the others suppressed in it; all count as reported then. */
    void raiseUnreported() {
        if (unreported.isEmpty()) {
            return;
        }
        BackendException first = unreported.getFirst().error;
        for (Fault f : unreported) {
            f.reported = true;
            if (f.error != first) {
                first.addSuppressed(f.error);
            }
        }
        unreported.clear();
        throw first;
    }
}
