package org.polygpu.emulator;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;

/**
 * The faults of completed kernels (memcheck, assert, trap, instruction budget), kept by the computation their
 * launch served until the runtime takes them ({@link org.polygpu.backend.Backend#takeFault}). A kernel launched
 * for no computation ({@link OperationLabel#NONE}) has nobody to take its fault, so it is thrown at completion, like
 * an asynchronous CUDA error. Not thread-safe: used by the backend's single caller.
 */
final class KernelFaults {
    private final Map<Long, BackendException> faults = new HashMap<>();

    /** Keeps {@code fault} for {@code label}'s computation, or throws it when the launch served none. */
    void record(OperationLabel label, BackendException fault) {
        if (label.computationId() < 0) {
            throw fault;
        }
        faults.putIfAbsent(label.computationId(), fault);
    }

    /** Whether a fault is kept that nobody took yet. */
    boolean hasAny() {
        return !faults.isEmpty();
    }

    Optional<BackendException> take(long computationId) {
        return faults.isEmpty() ? Optional.empty() : Optional.ofNullable(faults.remove(computationId));
    }
}
