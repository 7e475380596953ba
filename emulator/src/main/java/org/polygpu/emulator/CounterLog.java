package org.polygpu.emulator;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.polygpu.backend.OperationLabel;
import org.polygpu.emulator.timing.KernelProfile;

/**
 * The profiles (counters and shape) of completed PTX launches: always the last one; per computation id (the
 * launch's {@link OperationLabel#computationId()}) while recording is on, so that long runs keep bounded memory.
 */
final class CounterLog {
    private final Map<Long, KernelProfile> byComputation = new HashMap<>();
    private KernelProfile last;
    private boolean recording;

    void record(boolean enabled) {
        recording = enabled;
    }

    void completed(OperationLabel label, KernelProfile profile) {
        last = profile;
        if (recording && label.computationId() >= 0) {
            byComputation.put(label.computationId(), profile);
        }
    }

    Optional<KernelProfile> last() {
        return Optional.ofNullable(last);
    }

    Optional<KernelProfile> of(long computationId) {
        return Optional.ofNullable(byComputation.get(computationId));
    }
}
