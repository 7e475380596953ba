package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code round-robin} policy: rotates over devices {@code 0, 1, ..., n-1, 0, ...}. The cursor names the next
 * device in the rotation; when it is not a candidate, the first candidate after it in rotation order is taken and
 * the cursor moves past that one. Also the fallback of the data-aware policies, each owning its own instance.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class RoundRobinPolicy implements DeviceSelectionPolicy {
    static final String NAME = "round-robin";

    private final int deviceCount;
    /** The next device in the rotation, in {@code 0..deviceCount-1}. */
    private int cursor;

    RoundRobinPolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        long atOrAfterCursor = devices & (-1L << cursor);
        int device = Long.numberOfTrailingZeros(atOrAfterCursor != 0 ? atOrAfterCursor : devices);
        cursor = device + 1 == deviceCount ? 0 : device + 1;
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
