package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The {@code stream-aware} policy: the candidate with the fewest busy streams, that is the fewest computations in
 * flight; ties go to a device where the computation fits without evicting replicas
 * ({@link SelectionRequest#hasRoom}), then to the lowest index. Stateless.
 */
public final class StreamAwarePolicy implements DeviceSelectionPolicy {
    static final String NAME = "stream-aware";

    private final int deviceCount;

    StreamAwarePolicy(int deviceCount) {
        this.deviceCount = deviceCount;
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        int[] busy = request.busyStreams();
        int best = -1;
        LocationSet devices = Candidates.within(candidates, deviceCount);
        for (int device = devices.first(); device >= 0; device = devices.next(device + 1)) {
            if (best < 0 || busy[device] < busy[best]
                    || busy[device] == busy[best] && request.hasRoom(device) && !request.hasRoom(best)) {
                best = device;
            }
        }
        return best;
    }

    /** Registers {@link StreamAwarePolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new StreamAwarePolicy(settings.deviceCount());
        }
    }
}
