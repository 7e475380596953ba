package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.Locations;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;
import org.polygpu.topology.BandwidthMatrix;

/**
 * The {@code earliest-finish-time} policy, after StarPU's {@code dmda} and HEFT: the candidate on which the kernel is
 * predicted to finish first. For a device {@code d} the prediction, in nanoseconds from now, is
 *
 * <pre>  max(queued(d), inputsThere(d)) + duration(kernel)</pre>
 *
 * <ul>
 *   <li>{@code queued(d)}: the predicted durations of the kernel launches enqueued on {@code d} and not yet seen to
 *       finish, whoever placed them ({@link WorkObserver}), plus, for those this policy placed, the copies it
 *       predicted for their inputs; the device and its links are assumed to do them one after another.
 *   <li>{@code inputsThere(d)}: the arguments not valid on {@code d} are copied one after another, each from the
 *       valid location with the fastest link to {@code d} (as the runtime copies), once that copy is ready, in
 *       bytes over GB/s, that is nanoseconds. A replica on device {@code s} is taken to be ready when the work
 *       queued on {@code s} is done, {@code queued(s)}, since it may be what produces it; but when the host's
 *       copy is valid too no unfinished work writes the array (a kernel writing it invalidates the host's copy),
 *       so every copy is ready at once.
 *   <li>{@code duration(kernel)}: learned per kernel and launch size from measured durations
 *       ({@link KernelDurations}).
 * </ul>
 *
 * Unlike the data-aware policies it considers every candidate, not only those above the data threshold: a busy
 * device holding the data loses to an idle one when its queue is longer than the copy. Ties go to a device where the
 * computation fits without evicting replicas ({@link SelectionRequest#hasRoom}), then round the devices from the one
 * after the last chosen.
 * Work it cannot predict (a kernel and launch size never measured, a copy or library routine) is placed by
 * {@code minmax-transfer-time}.
 *
 * <p>What it does not model: copies into a device for launches other policies or rules placed (a child on its
 * parent's stream), kernels sharing a device through several streams, and completions the scheduler has not
 * polled yet (they still count as queued).
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class EarliestFinishTimePolicy implements DeviceSelectionPolicy, WorkObserver {
    static final String NAME = "earliest-finish-time";
    private final int deviceCount;
    private final BandwidthMatrix bandwidth;
    private final MinMaxTransferTimePolicy fallback;
    private final KernelDurations durations = new KernelDurations();
    /** Per device, the predicted nanoseconds of the launches enqueued there and not yet seen to finish. */
    private final long[] queuedNanos;
    /** The device chosen by the last {@link #select} and the copies it predicted there, until {@link #enqueued}. */
    private int chosenDevice = -1;
    /** Where the search for the earliest finish starts: the device after the last one chosen. */
    private int cursor;
    private long chosenCopyNanos;

    EarliestFinishTimePolicy(PolicySettings settings) {
        this.deviceCount = settings.deviceCount();
        this.bandwidth = settings.bandwidth();
        this.fallback = new MinMaxTransferTimePolicy(settings);
        this.queuedNanos = new long[deviceCount];
    }

    @Override
    public int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        long duration = durations.predict(request.workKey());
        if (duration < 0) {
            return chosen(request, fallback.select(request, devices));
        }
        // Ties go round the devices from the one after the last chosen, so equal devices share the work (and the
        // host links that some of them share).
        long fromCursor = devices & (-1L << cursor);
        int best = -1;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (long m = fromCursor, rest = devices & ~fromCursor; m != 0 || rest != 0; m &= m - 1) {
            if (m == 0) {
                m = rest;
                rest = 0;
            }
            int device = Long.numberOfTrailingZeros(m);
            double finish = Math.max(queuedNanos[device], inputsThere(request, device)) + duration;
            if (best < 0 || finish < bestFinish
                    || finish == bestFinish && request.hasRoom(device) && !request.hasRoom(best)) {
                best = device;
                bestFinish = finish;
            }
        }
        return chosen(request, best);
    }

    /**
     * Remembers the copies predicted for {@code device} until the launch is {@link #enqueued} and moves the cursor
     * past it (whether this policy or its fallback chose it); returns it.
     */
    private int chosen(SelectionRequest request, int device) {
        cursor = device + 1 == deviceCount ? 0 : device + 1;
        chosenDevice = device;
        chosenCopyNanos = (long) inputsThere(request, device);
        return device;
    }

    /** When the last argument missing on {@code device} can be there, in nanoseconds from now. */
    private double inputsThere(SelectionRequest request, int device) {
        long[] bytes = request.argumentBytes();
        long[] valid = request.validLocations();
        int host = deviceCount;
        long locations = Locations.host(deviceCount) | Locations.allDevices(deviceCount);
        double t = 0;
        for (int a = 0; a < bytes.length; a++) {
            long sources = valid[a] & locations;
            if (bytes[a] == 0 || sources == 0 || Locations.contains(sources, device)) {
                continue;
            }
            int from = fastestSource(sources, device);
            // A valid host copy means no unfinished work writes the array: every copy of it is ready now.
            double ready = Locations.contains(sources, host) ? 0 : queuedNanos[from];
            t = Math.max(t, ready) + bytes[a] / bandwidth.bandwidth(from, device);
        }
        return t;
    }

    /** Of {@code sources}, the location with the fastest link to {@code device}; ties to the lowest index. */
    private int fastestSource(long sources, int device) {
        int best = -1;
        double bestBandwidth = -1;
        for (long m = sources; m != 0; m &= m - 1) {
            int from = Long.numberOfTrailingZeros(m);
            double b = bandwidth.bandwidth(from, device);
            if (b > bestBandwidth) {
                best = from;
                bestBandwidth = b;
            }
        }
        return best;
    }

    @Override
    public long enqueued(int device, long workKey) {
        long predicted = Math.max(0, durations.predict(workKey));
        if (device == chosenDevice) {
            // The launch just placed: its stream copies its inputs first, which the link does one after another.
            predicted += chosenCopyNanos;
            chosenDevice = -1;
        }
        queuedNanos[device] += predicted;
        return predicted;
    }

    @Override
    public boolean wantsDuration(long workKey) {
        return durations.wantsSample(workKey);
    }

    @Override
    public void finished(int device, long workKey, long token, long durationNanos) {
        queuedNanos[device] -= token;
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
