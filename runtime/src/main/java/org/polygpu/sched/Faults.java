package org.polygpu.sched;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

import org.polygpu.array.Access;
import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;

/**
 * The faults of finished kernels and the arrays they left undefined. A kernel's fault is taken from the backend when
 * its computation retires and reported once: by the first host access that depends on it (a read of an array the
 * kernel wrote) or, when none does, by the next {@link #raiseUnreported} (synchronisation, close). The arrays the
 * kernel could write are undefined from then on: reading them says so, until the host writes all of an array or a
 * later computation overwrites it whole (an {@code out} parameter, a copy's destination).
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

    private final Backend backend;
    private final Map<DeviceArray, Fault> undefined = new IdentityHashMap<>();
    private final ArrayList<Fault> unreported = new ArrayList<>();

    Faults(Backend backend) {
        this.backend = backend;
    }

    /**
     * After {@code c} retired: arrays it overwrote whole ({@code out} parameters, copy destinations) after a fault
     * are defined again; then its kernel's fault, if it had one, is kept and what it could write marked undefined.
     */
    void retired(Computation c) {
        if (!undefined.isEmpty()) {
            for (ArrayAccess a : c.accessArray()) {
                Fault f = a.access() == Access.WRITE ? undefined.get(a.array()) : null;
                if (f != null && f.kernel.id() < c.id()) {
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
        for (ArrayAccess a : c.accessArray()) {
            if (!a.access().isReadOnly()) {
                undefined.put(a.array(), fault);
            }
        }
    }

    /**
     * Before the host uses {@code array}'s contents (its writers have retired): throws the fault that left it
     * undefined, the first time, and after that an {@link IllegalStateException} saying it is undefined.
     */
    void checkDefined(DeviceArray array) {
        if (undefined.isEmpty()) {
            return;
        }
        Fault f = undefined.get(array);
        if (f == null) {
            return;
        }
        if (!f.reported) {
            f.reported = true;
            unreported.remove(f);
            throw f.error;
        }
        throw new IllegalStateException(array + " is undefined: kernel '" + f.kernel.name() + "' (computation "
                + f.kernel.id() + ") faulted while it could write it; write all of the array to define it again ("
                + f.error.getMessage() + ")");
    }

    /** The host wrote all of {@code array}, or freed it: it is no longer undefined. */
    void defined(DeviceArray array) {
        if (!undefined.isEmpty()) {
            undefined.remove(array);
        }
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
