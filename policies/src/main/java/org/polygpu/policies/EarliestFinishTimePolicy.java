package org.polygpu.policies;

import java.util.function.LongSupplier;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;
import org.polygpu.topology.BandwidthMatrix;

/**
 * The {@code earliest-finish-time} policy, after StarPU's {@code dmda} and HEFT: the candidate on which the kernel is
 * predicted to finish first. Predictions are times on the backend's clock ({@link PolicySettings#clock()}: the
 * host's virtual time on the emulator), kept per device by {@link DeviceHorizons}. For a device {@code d}:
 *
 * <ul>
 *   <li><b>inputs there</b>: the arguments not valid on {@code d} are copied one after another on the launch's
 *       stream, each from the valid location with the fastest link to {@code d} (as the runtime copies), in bytes
 *       over GB/s, that is nanoseconds. Arguments valid on {@code d}, including those still being copied there, and
 *       pristine ones (never written) cost nothing. A copy from the host starts when the copies queued on
 *       {@code d}'s host link are done. A copy from device {@code s} starts when the replica there is ready: when
 *       {@code s}'s host link is done, since the replica may still be arriving over it, and, when the host holds
 *       no valid copy, when the kernels queued on {@code s} are done, since one of them may produce it.
 *   <li><b>kernel</b>: from then, its learned duration ({@link KernelDurations}: per kernel and launch size, from
 *       measured launches), on a device it shares with the kernels queued there by occupancy
 *       ({@link WorkObserver#enqueued}): a kernel using a fifth of the device runs beside others at full speed,
 *       kernels that fill it queue up.
 * </ul>
 *
 * Every kernel launch, placed by this policy or not (a child on its parent's stream), queues its predicted work on
 * its device; only the copies of the launches it placed queue on the links. A device's predictions are dropped once
 * all its launches are seen to finish, and times before now count as now.
 *
 * <p>Unlike the data-aware policies it considers every candidate, not only those above the data threshold: a busy
 * device holding the data loses to an idle one when its wait is longer than the copy. Ties go to a device where the
 * computation fits without evicting replicas ({@link SelectionRequest#hasRoom}), then round the devices from the one
 * after the last chosen, so that equal devices share the work. Work it cannot predict (a kernel and launch
 * size never measured or measured as taking no time, as on a backend that does no work, a copy or library routine)
 * is placed by {@code minmax-transfer-time}, whose crowded-device rule then keeps the devices in use: with zero
 * durations every device would look free and the data alone would decide.
 *
 * <p>What it does not model: copies between devices sharing a link, copies for launches it did not place, the
 * copies' own latency, and completions the scheduler has not polled yet (they count until predicted over).
 * Measured with {@code scripts/study.sh} on v100x8 at 8 GPUs (benchmarks/README.md, "Placement beyond the paper"):
 * within 1% of {@code minmax-transfer-time}'s makespan on VEC, B&S, ML and MUL, 2% shorter on CG. Ten percent
 * less than min-max on ML and CG there is below what any placement can reach: from the host's issue times (1.5 µs
 * a call on the emulator), the links' bandwidth and the kernels' durations, ML cannot end before 0.917 of
 * min-max's makespan and CG not before 0.902 (the README derives both). What is left on CG is how the runtime
 * copies a chain's inputs (behind the chain's previous kernel on its stream), not where the kernels go; readiness
 * from each input's producer instead of the source device's whole queue was tried and lost to min-max there.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class EarliestFinishTimePolicy implements DeviceSelectionPolicy, WorkObserver {
    static final String NAME = "earliest-finish-time";
    private final int deviceCount;
    private final BandwidthMatrix bandwidth;
    private final MinMaxTransferTimePolicy fallback;
    private final KernelDurations durations = new KernelDurations();
    private final DeviceHorizons horizons;
    private final LongSupplier clock;
    /** Every device and the host. */
    private final LocationSet locations;
    /** Where the search for the earliest finish starts: the device after the last one chosen. */
    private int cursor;
    /** The device chosen by the last {@link #select}, until {@link #enqueued}; -1 when none is pending. */
    private int chosenDevice = -1;
    /** For the chosen device: when the launch's inputs are there, and how long its host link is busy with them. */
    private long chosenArrival;
    private long chosenHostCopies;
    /** Scratch of {@link #arrival}: the host link's share of the last estimate. */
    private long hostCopies;

    EarliestFinishTimePolicy(PolicySettings settings) {
        this.deviceCount = settings.deviceCount();
        this.bandwidth = settings.bandwidth();
        this.fallback = new MinMaxTransferTimePolicy(settings);
        this.horizons = new DeviceHorizons(deviceCount);
        this.clock = settings.clock();
        this.locations = LocationSet.range(0, deviceCount + 1);
    }

    @Override
    public int select(SelectionRequest request, LocationSet candidates) {
        LocationSet devices = Candidates.within(candidates, deviceCount);
        long duration = durations.predict(request.workKey());
        if (duration <= 0) {
            int device = fallback.select(request, devices);
            if (request.workKey() == SelectionRequest.UNKNOWN_WORK) {
                return chosen(request, device, 0, 0);
            }
            long arrival = arrival(request, device, clock.getAsLong());
            return chosen(request, device, arrival, hostCopies);
        }
        long now = clock.getAsLong();
        double occupancy = durations.occupancy(request.workKey());
        // Ties go round the devices from the one after the last chosen, so equal devices share the work.
        int start = devices.next(cursor);
        int best = -1;
        long bestFinish = Long.MAX_VALUE;
        long bestArrival = 0;
        long bestHostCopies = 0;
        int device = start >= 0 ? start : devices.first();
        for (int left = devices.size(); left > 0; left--) {
            long arrival = arrival(request, device, now);
            long finish = horizons.finish(device, arrival, duration, occupancy);
            if (finish < bestFinish
                    || best >= 0 && finish == bestFinish && request.hasRoom(device) && !request.hasRoom(best)) {
                best = device;
                bestFinish = finish;
                bestArrival = arrival;
                bestHostCopies = hostCopies;
            }
            int next = devices.next(device + 1);
            device = next >= 0 ? next : devices.first();
        }
        return chosen(request, best, bestArrival, bestHostCopies);
    }

    /**
     * Remembers what was predicted for {@code device} until the launch is {@link #enqueued} (work that is not a
     * kernel launch is never reported enqueued); returns it.
     */
    private int chosen(SelectionRequest request, int device, long arrival, long hostCopyNanos) {
        cursor = device + 1 == deviceCount ? 0 : device + 1;
        chosenDevice = request.workKey() == SelectionRequest.UNKNOWN_WORK ? -1 : device;
        chosenArrival = arrival;
        chosenHostCopies = hostCopyNanos;
        return device;
    }

    /**
     * When, on the clock, the arguments missing on {@code device} can all be there (see the class comment); sets
     * {@link #hostCopies} to the part of it spent on the device's host link.
     */
    private long arrival(SelectionRequest request, int device, long now) {
        long[] bytes = request.argumentBytes();
        LocationSet[] valid = request.validLocations();
        int host = deviceCount;
        long t = now;
        hostCopies = 0;
        for (int a = 0; a < bytes.length; a++) {
            LocationSet sources = valid[a].intersection(locations);
            if (bytes[a] == 0 || sources.isEmpty() || sources.contains(device) || request.isPristine(a)) {
                continue;
            }
            int from = fastestSource(sources, device);
            long copy = Math.round(bytes[a] / bandwidth.bandwidth(from, device));
            long ready;
            if (from == host) {
                ready = horizons.hostLinkFree(device, now) + hostCopies;
                hostCopies += copy;
            } else {
                ready = sources.contains(host) ? horizons.hostLinkFree(from, now)
                        : Math.max(horizons.hostLinkFree(from, now), horizons.kernelsDone(from, now));
            }
            t = Math.max(t, ready) + copy;
        }
        return t;
    }

    /** Of {@code sources}, the location with the fastest link to {@code device}; ties to the lowest index. */
    private int fastestSource(LocationSet sources, int device) {
        int best = -1;
        double bestBandwidth = -1;
        for (int from = sources.first(); from >= 0; from = sources.next(from + 1)) {
            double b = bandwidth.bandwidth(from, device);
            if (b > bestBandwidth) {
                best = from;
                bestBandwidth = b;
            }
        }
        return best;
    }

    @Override
    public long enqueued(int device, long workKey, double occupancy) {
        durations.occupies(workKey, occupancy);
        long duration = Math.max(0, durations.predict(workKey));
        long now = clock.getAsLong();
        // Placed by another rule (a child on its parent's stream), its copies are unknown.
        boolean chosen = device == chosenDevice;
        horizons.enqueued(device, now, chosen ? chosenArrival : now, duration, occupancy,
                chosen ? chosenHostCopies : 0);
        chosenDevice = -1;
        return duration;
    }

    @Override
    public boolean wantsDuration(long workKey) {
        return durations.wantsSample(workKey);
    }

    @Override
    public void finished(int device, long workKey, long token, long durationNanos) {
        horizons.finished(device, clock.getAsLong());
        durations.learn(workKey, durationNanos);
    }

    /** Registers {@link EarliestFinishTimePolicy} as {@value #NAME}. */
    public static final class Provider implements DeviceSelectionPolicyProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public DeviceSelectionPolicy create(PolicySettings settings) {
            return new EarliestFinishTimePolicy(settings);
        }
    }
}
