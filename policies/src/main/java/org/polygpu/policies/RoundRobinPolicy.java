package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code round-robin} policy: rotates over devices {@code 0, 1, ..., n-1, 0, ...}. A cursor counts the choices
 * modulo the device count; with candidates {@code c_0 < c_1 < ... < c_(k-1)} the choice is {@code c_(cursor mod k)},
 * and the cursor then advances by one whatever was taken. This is GrCUDA's rule: over all devices it is the plain
 * rotation, and over a fixed subset it rotates over that subset. Also the fallback of the data-aware policies, each
 * owning its own instance.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class RoundRobinPolicy implements DeviceSelectionPolicy {
    static final String NAME = "round-robin";

    private final int deviceCount;
    /** The number of choices made so far, modulo {@code deviceCount}. */
    private int cursor;

    RoundRobinPolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        LocationSet devices = Candidates.within(candidates, deviceCount);
        int device = devices.first();
        for (int skip = cursor % devices.size(); skip > 0; skip--) {
            device = devices.next(device + 1);
        }
        cursor = cursor + 1 == deviceCount ? 0 : cursor + 1;
        return device;
    }

    /** Registers {@link RoundRobinPolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new RoundRobinPolicy(settings.deviceCount());
        }
    }
}
