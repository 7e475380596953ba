package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code min-transfer-size} policy: the candidate already holding the most bytes of the arguments, so the one
 * needing the fewest bytes copied; ties go to the lowest index. A device holding no more than the data threshold
 * counts as holding nothing, and when no candidate is above it the policy rotates round-robin.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class MinTransferSizePolicy implements DeviceSelectionPolicy {
    static final String NAME = "min-transfer-size";

    private final int deviceCount;
    private final DataLocality locality;
    private final RoundRobinPolicy fallback;

    MinTransferSizePolicy(PolicySettings settings) {
        this.deviceCount = settings.deviceCount();
        this.locality = new DataLocality(settings);
        this.fallback = new RoundRobinPolicy(deviceCount);
    }

    @Override
    public int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        long withData = locality.devicesWithEnoughData(request, devices);
        return withData == 0 ? fallback.select(request, devices) : locality.mostHeld(withData);
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
