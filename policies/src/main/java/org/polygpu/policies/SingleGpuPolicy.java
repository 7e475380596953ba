package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.Locations;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code single-gpu} policy: always the current device, or the lowest candidate when the current device is
 * not a candidate. Stateless.
 */
public final class SingleGpuPolicy implements DeviceSelectionPolicy {
    static final String NAME = "single-gpu";

    private final int deviceCount;
    private final int currentDevice;

    SingleGpuPolicy(int deviceCount, int currentDevice) {
        this.deviceCount = deviceCount;
        this.currentDevice = currentDevice;
    }

    @Override
    public int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        return Locations.contains(devices, currentDevice) ? currentDevice : Long.numberOfTrailingZeros(devices);
    }

    /** Registers {@link SingleGpuPolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new SingleGpuPolicy(settings.deviceCount(), settings.currentDevice());
        }
    }
}
