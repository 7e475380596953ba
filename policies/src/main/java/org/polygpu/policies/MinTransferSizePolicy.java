package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code min-transfer-size} policy: the candidate already holding the most bytes of the arguments, so the one
 * needing the fewest bytes copied; ties go to the lowest index. A device holding no more than the data threshold
 * counts as holding nothing, and when no candidate is above it the policy rotates round-robin.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class MinTransferSizePolicy extends DataAwarePolicy {
    static final String NAME = "min-transfer-size";

    MinTransferSizePolicy(PolicySettings settings) {
        super(settings);
    }

    @Override
    int choose(SelectionRequest request, LocationSet withData) {
        return locality.mostHeld(withData);
    }

    /** Registers {@link MinTransferSizePolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new MinTransferSizePolicy(settings);
        }
    }
}
