package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.LocationSet;
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
 * {@code StreamAssignment}): the scheduler benchmarks' {@code LaunchWorkload} with 32 launches in flight ran 99.97% of
 * its 10^6 launches on one of 8 devices, and with this rule the busiest device runs 1.19 times its fair share
 * (benchmarks/README.md, "Placement beyond the paper"). This is where polygpu parts from GrCUDA on purpose: in
 * GrCUDA's image-pipeline test ({@code min-transfer-size}, 3 GPUs) all eleven kernels stay on device 0, while here
 * device 0 is crowded after seven (4 busy streams, more than twice the mean) and the last four go to device 2, on a
 * fifth stream ({@code GrcudaSchedulerSequencesTest} in the benchmarks module).
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
    public final int select(SelectionRequest request, LocationSet candidates) {
        LocationSet devices = Candidates.within(candidates, deviceCount);
        LocationSet uncrowded = devices.minus(request.crowdedDevices());
        if (!uncrowded.isEmpty()) {
            devices = uncrowded;
        }
        LocationSet withData = locality.devicesWithEnoughData(request, devices);
        return withData.isEmpty() ? fallback.select(request, request.withRoom(devices))
                : choose(request, request.withRoom(withData));
    }

    /** One of {@code withData}, the non-empty set of candidates above the threshold. */
    abstract int choose(SelectionRequest request, LocationSet withData);
}
