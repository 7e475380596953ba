package org.polygpu.sched;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;

/**
 * A device-selection policy for the scheduler's tests that is also a {@link WorkObserver}, registered as
 * {@value #NAME}: places everything on device 0 and writes down the work keys it is asked about and every launch it
 * is told of (with the launch's occupancy and the request's pristine arguments). The instance the registry created
 * last is {@link #last}, for the test to read.
 */
final class ObservingPolicy implements DeviceSelectionPolicy, WorkObserver {
    static final String NAME = "test-observing";
    /** The policy created last (tests create one context at a time on their thread). */
    static ObservingPolicy last;

    final List<Long> requestedKeys = new ArrayList<>();
    /** {@link SelectionRequest#pristine()} of every request, in order. */
    final List<Long> pristineArguments = new ArrayList<>();
    /** The occupancy of every launch it is told of, in order. */
    final List<Double> occupancies = new ArrayList<>();
    /** {@code "enqueued device key"} and {@code "finished device key token duration"}, in order. */
    final List<String> calls = new ArrayList<>();
    private long tokens;

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        requestedKeys.add(request.workKey());
        pristineArguments.add(request.pristine());
        return candidates.first();
    }

    @Override
    public long enqueued(int device, long workKey, double occupancy) {
        calls.add("enqueued " + device + " " + workKey);
        occupancies.add(occupancy);
        return ++tokens;
    }

    @Override
    public void finished(int device, long workKey, long token, long durationNanos) {
        calls.add("finished " + device + " " + workKey + " " + token + " " + durationNanos);
    }

    /** Registers {@link ObservingPolicy} as {@value #NAME} (test {@code META-INF/services}). */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            last = new ObservingPolicy();
            return last;
        }
    }
}
