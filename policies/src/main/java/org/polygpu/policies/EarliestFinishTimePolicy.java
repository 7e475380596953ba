package org.polygpu.policies;

import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.DeviceSelectionPolicyProvider;
import org.polygpu.sched.spi.PolicySettings;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;

/**
 * The {@code earliest-finish-time} policy, after StarPU's {@code dmda} and HEFT: the candidate on which the kernel is
 * predicted to finish first. For a device {@code d} the prediction, in nanoseconds, is
 *
 * <pre>  transfer(d) + queued(d) + duration(kernel)</pre>
 *
 * <ul>
 *   <li>{@code transfer(d)}: each argument not valid on {@code d}, its size over the bandwidth of the fastest link
 *       from a valid copy (the one the runtime copies from); bytes over GB/s are nanoseconds.
 *   <li>{@code queued(d)}: the predicted durations of the kernel launches enqueued on {@code d} and not yet seen to
 *       finish, whoever placed them ({@link WorkObserver}); the device is assumed to run them one after another.
 *   <li>{@code duration(kernel)}: learned per kernel and launch size from the measured durations
 *       ({@link KernelDurations}).
 * </ul>
 *
 * Unlike the data-aware policies it considers every candidate, not only those above the data threshold: a busy
 * device holding the data loses to an idle one when the wait is longer than the copy. Ties go to the lowest index.
 * Work the policy cannot predict (a kernel and launch size never measured, a copy or library routine) is placed by
 * {@code minmax-transfer-time}.
 *
 * <p>What it does not model: transfers already queued on the links and the time the source replicas become valid,
 * which the scheduler does not know without a cost per launch; kernels sharing a device through several streams.
 *
 * <p>Not thread-safe: the scheduler calls it from one thread at a time.
 */
public final class EarliestFinishTimePolicy implements DeviceSelectionPolicy, WorkObserver {
    static final String NAME = "earliest-finish-time";
    /** Assume the copy comes over the fastest link from a valid location, as the runtime copies. */
    private static final boolean SLOWEST_LINK = false;

    private final int deviceCount;
    private final DataLocality locality;
    private final MinMaxTransferTimePolicy fallback;
    private final KernelDurations durations = new KernelDurations();
    /** Per device, the predicted nanoseconds of the launches enqueued there and not yet seen to finish. */
    private final long[] queuedNanos;

    EarliestFinishTimePolicy(PolicySettings settings) {
        this.deviceCount = settings.deviceCount();
        this.locality = new DataLocality(settings);
        this.fallback = new MinMaxTransferTimePolicy(settings);
        this.queuedNanos = new long[deviceCount];
    }

    @Override
    public int select(SelectionRequest request, long candidates) {
        long devices = Candidates.within(candidates, deviceCount);
        long duration = durations.predict(request.workKey());
        if (duration < 0) {
            return fallback.select(request, devices);
        }
        int best = -1;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (long m = devices; m != 0; m &= m - 1) {
            int device = Long.numberOfTrailingZeros(m);
            double finish = locality.transferTime(request, device, SLOWEST_LINK) + queuedNanos[device] + duration;
            if (best < 0 || finish < bestFinish) {
                best = device;
                bestFinish = finish;
            }
        }
        return best;
    }

    @Override
    public long enqueued(int device, long workKey) {
        long predicted = Math.max(0, durations.predict(workKey));
        queuedNanos[device] += predicted;
        return predicted;
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
