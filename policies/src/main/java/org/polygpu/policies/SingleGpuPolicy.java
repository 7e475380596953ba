package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code single-gpu} policy: always the current device (the one the program chose with {@code cudaSetDevice},
 * device 0 until then), or the lowest candidate when the current device is not a candidate. Stateless.
 */
public final class SingleGpuPolicy implements DeviceSelectionPolicy {
    static final String NAME = "single-gpu";

    private final int deviceCount;

    SingleGpuPolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        LocationSet devices = Candidates.within(candidates, deviceCount);
        int current = request.currentDevice();
        return devices.contains(current) ? current : devices.first();
    }

    /** Registers {@link SingleGpuPolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new SingleGpuPolicy(settings.deviceCount());
        }
    }
}
