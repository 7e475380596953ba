package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * What the data-aware policies share (§III-B3): only candidates holding more than the data threshold of the
 * argument bytes are considered, and when none does the policy explores with its own round-robin rotation.
 * Subclasses choose among the candidates that hold enough data.
 *
 * <p>Crowded candidates ({@link SelectionRequest#crowdedDevices}: at least 4 busy streams and more than twice the mean
 * per device) are passed over while another candidate is not crowded, data or not: work queued behind many streams
 * waits longer than the copy of a kernel's arguments takes on the links these policies consider. Without this, work
 * that joins chains on two devices gathers on one of them and never leaves it (see the scheduler's
 * {@code StreamAssignment}).
 *
 * <p>Memory: the candidates the policy rates equally good, those above the data threshold or, when none is, those it
 * explores, are narrowed to the ones where the computation fits without evicting replicas
 * ({@link SelectionRequest#withRoom}), when there are any: a device that holds enough of the data but would have to
 * evict to take the rest loses to one that holds enough and has room; when none with enough data has room, the work
 * still goes where its data is and evicts there, since moving it would copy all of its data instead of evicting
 * what no pending work needs (the DARTS idea of reusing resident data).
 *
 * <p>Not thread-safe: the scheduler calls a policy from one thread at a time.
 */
abstract class DataAwarePolicy implements DeviceSelectionPolicy {
    private final int deviceCount;
    private final RoundRobinPolicy fallback;
    final DataLocality locality;

    DataAwarePolicy(PolicySettings settings) {
        this.deviceCount = settings.deviceCount();
        this.locality = new DataLocality(settings);
        this.fallback = new RoundRobinPolicy(deviceCount);
    }

    @Override
    public final int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        long uncrowded = devices & ~request.crowdedDevices();
        if (uncrowded != 0) {
            devices = uncrowded;
        }
        long withData = locality.devicesWithEnoughData(request, devices);
        return withData == 0 ? fallback.select(request, request.withRoom(devices))
                : choose(request, request.withRoom(withData));
    }

    /** One of {@code withData}, the non-empty mask of candidates above the threshold. */
    abstract int choose(SelectionRequest request, long withData);
}
