package org.polygpu.policies;

import java.util.HashMap;

import org.polygpu.sched.spi.SelectionRequest;

/**
 * Durations learned per kernel and launch size ({@link SelectionRequest#workKey()}) from measured launches: the
 * mean of the first {@value #WINDOW} measurements, then an exponential moving average with weight
 * {@code 1/}{@value #WINDOW} on the newest, so a kernel whose time drifts (more work per launch as a solver
 * converges, another kernel sharing its device) is followed within a few launches.
 *
 * <p>Once a key has {@value #WINDOW} measurements only one launch in {@value #SAMPLE_EVERY} is timed
 * ({@link #wantsSample}): timing costs the host an event record per launch.
 *
 * <p>Not thread-safe: belongs to one policy.
 */
final class KernelDurations {
    /** Measurements averaged before the average starts to forget the oldest. */
    static final int WINDOW = 8;
    /** Past the window, one launch in this many is timed. */
    static final int SAMPLE_EVERY = 16;

    /**
     * Per key: the estimate in nanoseconds, the number of measurements capped at {@link #WINDOW}, and the launches
     * not timed since the last one that was.
     */
    private final HashMap<Long, long[]> byKey = new HashMap<>();

    /** The predicted duration in nanoseconds, or -1 when no launch of {@code workKey} was measured. */
    long predict(long workKey) {
        if (workKey == SelectionRequest.UNKNOWN_WORK) {
            return -1;
        }
        long[] e = byKey.get(workKey);
        return e == null ? -1 : e[0];
    }

    /** Whether to time the launch of {@code workKey} being enqueued; counts it. */
    boolean wantsSample(long workKey) {
        long[] e = byKey.get(workKey);
        if (e == null || e[1] < WINDOW) {
            return true;
        }
        if (++e[2] < SAMPLE_EVERY) {
            return false;
        }
        e[2] = 0;
        return true;
    }

    /** Learns one measured duration of {@code workKey}. */
    void learn(long workKey, long durationNanos) {
        if (workKey == SelectionRequest.UNKNOWN_WORK || durationNanos < 0) {
            return;
        }
        long[] e = byKey.computeIfAbsent(workKey, k -> new long[3]);
        e[1] = Math.min(WINDOW, e[1] + 1);
        e[0] += Math.round((double) (durationNanos - e[0]) / e[1]);
    }
}
