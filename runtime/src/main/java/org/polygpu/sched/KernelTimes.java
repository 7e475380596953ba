package org.polygpu.sched;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;

/**
 * Measures kernel launches for a device-selection policy that is a {@link WorkObserver}: a start event recorded
 * just before the kernel (after the copies into its replicas; the last copy's own event when nothing follows it)
 * and its completion event give its duration on the backend's clock, for the launches the observer wants timed.
 * Does nothing, and records no event, when the policy observes nothing.
 *
 * <p>Not thread-safe: used by the execution context's thread.
 */
final class KernelTimes {
    /**
     * What is kept of an observed launch until it finishes: its start event, null when it is not timed, goes back
     * to the pool with the others.
     */
    record Started(EventHandle start, long workKey, long token) {
    }

    private final Backend backend;
    /** The warps that fill a device: its multiprocessors times {@link WorkObserver#WARPS_PER_MULTIPROCESSOR}. */
    private final double fullDeviceWarps;
    private final int warpSize;
    private WorkObserver observer;

    KernelTimes(Backend backend) {
        this.backend = backend;
        DeviceProperties p = backend.deviceProperties(0);
        this.fullDeviceWarps = (double) Math.max(1, p.multiprocessors()) * WorkObserver.WARPS_PER_MULTIPROCESSOR;
        this.warpSize = Math.max(1, p.warpSize());
    }

    /**
     * Makes {@code policy} the observer when it is a {@link WorkObserver} and there is a choice to make (more than
     * one device); returns it.
     */
    DeviceSelectionPolicy observedBy(DeviceSelectionPolicy policy, int deviceCount) {
        observer = deviceCount > 1 && policy instanceof WorkObserver o ? o : null;
        return policy;
    }

    /**
     * The key of a kernel and launch size: the same for two launches of one kernel name with the same grid and
     * block, never {@link SelectionRequest#UNKNOWN_WORK}. Other work gets {@code UNKNOWN_WORK}.
     */
    static long key(Work work) {
        if (!(work instanceof KernelLaunch k)) {
            return SelectionRequest.UNKNOWN_WORK;
        }
        LaunchConfig c = k.config();
        long h = k.kernel().name().hashCode();
        h = h * 0x9E3779B97F4A7C15L + c.grid().count();
        h = h * 0x9E3779B97F4A7C15L + c.block().count();
        h = h * 0x9E3779B97F4A7C15L + c.sharedMemoryBytes();
        return h == SelectionRequest.UNKNOWN_WORK ? 1 : h;
    }

    /** {@link #key} when a policy observes launches, else {@link SelectionRequest#UNKNOWN_WORK} (nothing computed). */
    long workKey(Work work) {
        return observer == null ? SelectionRequest.UNKNOWN_WORK : key(work);
    }

    /** Before {@code c}'s work is enqueued on its stream: records its start event and tells the observer. */
    void starting(Computation c, StreamPool pool) {
        long key = workKey(c.work());
        if (key == SelectionRequest.UNKNOWN_WORK) {
            return;
        }
        long token = observer.enqueued(c.device(), key, occupancy(((KernelLaunch) c.work()).config()));
        EventHandle start = null;
        if (observer.wantsDuration(key)) {
            // The end of its last input copy is its start, when one was the last thing on its stream: one event
            // record less on the host.
            start = c.inputsCopied();
            if (start == null) {
                start = pool.takeEvent(c.device());
                c.addCopyEvent(start);
                backend.recordEvent(start, c.slot().handle);
            }
        }
        c.timed(new Started(start, key, token));
    }

    /** The fraction of a device a launch of {@code config} can use ({@link WorkObserver#enqueued}). */
    double occupancy(LaunchConfig config) {
        long warpsPerBlock = (config.block().count() + warpSize - 1) / warpSize;
        return Math.clamp(config.grid().count() * warpsPerBlock / fullDeviceWarps, Double.MIN_NORMAL, 1.0);
    }

    /** {@code c} was seen complete: reports its duration. Before its events go back to the pool. */
    void completed(Computation c) {
        Started s = c.timing();
        if (s != null) {
            c.timed(null);
            long nanos = s.start() == null ? -1
                    : Math.max(0, Math.round(backend.elapsedMillis(s.start(), c.event()) * 1e6));
            observer.finished(c.device(), s.workKey(), s.token(), nanos);
        }
    }

    /** {@code c} retires without having been seen complete (its enqueueing failed): reports it abandoned. */
    void abandoned(Computation c) {
        Started s = c.timing();
        if (s != null) {
            c.timed(null);
            observer.finished(c.device(), s.workKey(), s.token(), -1);
        }
    }
}
