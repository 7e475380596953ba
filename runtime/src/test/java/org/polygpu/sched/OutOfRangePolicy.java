package org.polygpu.sched;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.PolicySettings;

/**
 * A faulty device-selection policy for the scheduler's tests, registered as {@value #NAME}: it always answers a
 * device that does not exist, so that a placement failure can be provoked.
 */
final class OutOfRangePolicy {
    static final String NAME = "test-out-of-range";

    private OutOfRangePolicy() {
    }

    /** Registers the policy as {@value #NAME} (test {@code META-INF/services}). */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return (request, candidates) -> settings.deviceCount();
        }
    }
}
