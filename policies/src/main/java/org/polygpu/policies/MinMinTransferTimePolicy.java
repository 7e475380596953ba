package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code minmin-transfer-time} policy: the candidate minimising the estimated time to bring it every argument,
 * the sum of each argument's size over the bandwidth of the fastest link from one of its valid copies. It is the
 * optimistic variant of {@code minmax-transfer-time}, which the paper found to perform the same. Ties go to the
 * lowest index. A device holding no more than the data threshold of the bytes is not considered, and when no
 * candidate is above it the policy rotates round-robin.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class MinMinTransferTimePolicy extends DataAwarePolicy {
    static final String NAME = "minmin-transfer-time";
    /** Assume the copy comes over the fastest link from a valid location. */
    private static final boolean SLOWEST_LINK = false;

    MinMinTransferTimePolicy(PolicySettings settings) {
        super(settings);
    }

    @Override
    int choose(SelectionRequest request, LocationSet withData) {
        return locality.leastTransferTime(request, withData, SLOWEST_LINK);
    }

    /** Registers {@link MinMinTransferTimePolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new MinMinTransferTimePolicy(settings);
        }
    }
}
