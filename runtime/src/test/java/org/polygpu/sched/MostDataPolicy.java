package org.polygpu.sched;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * A device-selection policy for the scheduler's own tests, registered as {@value #NAME}: the candidate holding the
 * most argument bytes, ties to the lowest index, as {@code min-transfer-size} does with no data threshold; when no
 * candidate holds any, it rotates like {@code round-robin} (the cursor, one step per choice, indexes the sorted
 * candidates). It lets the scheduler's tests replay GrCUDA's min-transfer-size device sequences without the policies
 * module, which runtime's tests cannot see.
 */
final class MostDataPolicy implements DeviceSelectionPolicy {
    static final String NAME = "test-most-data";

    private final int deviceCount;
    private int cursor;

    private MostDataPolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        int best = -1;
        long bestBytes = 0;
        for (int d = candidates.first(); d >= 0; d = candidates.next(d + 1)) {
            long held = 0;
            for (int i = 0; i < request.argumentBytes().length; i++) {
                if (request.validLocations()[i].contains(d)) {
                    held += request.argumentBytes()[i];
                }
            }
            if (held > bestBytes) {
                best = d;
                bestBytes = held;
            }
        }
        if (best >= 0) {
            return best;
        }
        int device = candidates.first();
        for (int skip = cursor % candidates.size(); skip > 0; skip--) {
            device = candidates.next(device + 1);
        }
        cursor = (cursor + 1) % deviceCount;
        return device;
    }

    /** Registers {@link MostDataPolicy} as {@value #NAME} (test {@code META-INF/services}). */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new MostDataPolicy(settings.deviceCount());
        }
    }
}
