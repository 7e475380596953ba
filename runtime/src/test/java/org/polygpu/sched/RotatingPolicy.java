package org.polygpu.sched;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * A device-selection policy for the scheduler's own tests, registered as {@value #NAME}: rotates over the devices
 * like {@code round-robin} (the first candidate at or after a cursor, which then moves past it), so device
 * sequences are easy to predict. The real policies live in the policies module, which runtime's tests cannot see.
 */
final class RotatingPolicy implements DeviceSelectionPolicy {
    static final String NAME = "test-rotating";

    private final int deviceCount;
    private int cursor;

    private RotatingPolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        int atOrAfterCursor = candidates.next(cursor);
        int device = atOrAfterCursor >= 0 ? atOrAfterCursor : candidates.first();
        cursor = device + 1 == deviceCount ? 0 : device + 1;
        return device;
    }

    /** Registers {@link RotatingPolicy} as {@value #NAME} (test {@code META-INF/services}). */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new RotatingPolicy(settings.deviceCount());
        }
    }
}
