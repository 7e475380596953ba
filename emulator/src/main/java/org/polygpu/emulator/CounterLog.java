package org.polygpu.emulator;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.polygpu.backend.OperationLabel;
import org.polygpu.emulator.ptx.KernelCounters;

/**
 * The counters of completed PTX launches: always the last one; per computation id (the launch's
 * {@link OperationLabel#computationId()}) while recording is on, so that long runs keep bounded memory.
 */
final class CounterLog {
    private final Map<Long, KernelCounters> byComputation = new HashMap<>();
    private KernelCounters last;
    private boolean recording;

    void record(boolean enabled) {
        recording = enabled;
    }

    void completed(OperationLabel label, KernelCounters counters) {
        last = counters;
        if (recording && label.computationId() >= 0) {
            byComputation.put(label.computationId(), counters);
        }
    }

    Optional<KernelCounters> last() {
        return Optional.ofNullable(last);
    }

    Optional<KernelCounters> of(long computationId) {
        return Optional.ofNullable(byComputation.get(computationId));
    }
}
