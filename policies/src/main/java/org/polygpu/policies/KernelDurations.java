package org.polygpu.policies;

import java.util.HashMap;

import org.polygpu.sched.spi.SelectionRequest;
import org.polygpu.sched.spi.WorkObserver;

/**
 * What is learned per kernel and launch size ({@link SelectionRequest#workKey()}): its duration, from measured
 * launches, and the fraction of a device it occupies ({@link WorkObserver#enqueued}). The duration is the shortest
 * of the first {@value #FIRST} measurements, then an exponential moving average with weight {@code 1/}{@value #WEIGHT}
 * on the newest, so a kernel whose time drifts (more work per launch as a solver converges) is followed within a few
 * samples.
 *
 * <p>The first estimate is the shortest, not the mean: a first launch often shares its device with others launched
 * beside it (a program issues every partition before any finishes), and a kernel slowed by its neighbours says how
 * busy the device was, which the policy counts apart, more than how long the kernel takes.
 *
 * <p>Timing costs the host one event record per launch, about as much as the launch call, so few launches are
 * timed ({@link #wantsSample}): the first {@value #FIRST} of a key, counted when they are asked for (a program may
 * launch a kernel many times before the first launch finishes), then one in {@value #SAMPLE_EVERY}.
 *
 * <p>Not thread-safe: belongs to one policy.
 */
final class KernelDurations {
    /** Launches of a key timed before the others are sampled. */
    static final int FIRST = 2;
    /** Past the first, one launch in this many is timed. */
    static final int SAMPLE_EVERY = 64;
    /** The moving average's weight on the newest sample, as a divisor. */
    static final int WEIGHT = 8;

    /** What is known of one key. */
    private static final class Entry {
        long estimate;
        int received;
        int timed;
        int sinceTimed;
        double occupancy = 1;
    }

    private final HashMap<Long, Entry> byKey = new HashMap<>();
    /** The key looked up last and its entry: one launch asks about its key several times. */
    private long lastKey = SelectionRequest.UNKNOWN_WORK;
    private Entry lastEntry;

    /** The predicted duration in nanoseconds, or -1 when no launch of {@code workKey} was measured. */
    long predict(long workKey) {
        Entry e = workKey == SelectionRequest.UNKNOWN_WORK ? null : find(workKey);
        return e == null || e.received == 0 ? -1 : e.estimate;
    }

    /** The fraction of a device a launch of {@code workKey} occupies, 1 until a launch of it was enqueued. */
    double occupancy(long workKey) {
        Entry e = find(workKey);
        return e == null ? 1 : e.occupancy;
    }

    /** A launch of {@code workKey} occupying {@code occupancy} of its device was enqueued. */
    void occupies(long workKey, double occupancy) {
        entry(workKey).occupancy = occupancy;
    }

    /** Whether to time the launch of {@code workKey} being enqueued; counts it. */
    boolean wantsSample(long workKey) {
        Entry e = entry(workKey);
        if (e.timed < FIRST) {
            e.timed++;
            return true;
        }
        if (++e.sinceTimed < SAMPLE_EVERY) {
            return false;
        }
        e.sinceTimed = 0;
        e.timed++;
        return true;
    }

    /** Learns one measured duration of {@code workKey}. */
    void learn(long workKey, long durationNanos) {
        if (workKey == SelectionRequest.UNKNOWN_WORK || durationNanos < 0) {
            return;
        }
        Entry e = entry(workKey);
        if (e.received == 0) {
            e.estimate = durationNanos;
        } else if (e.received < FIRST) {
            e.estimate = Math.min(e.estimate, durationNanos);
        } else {
            e.estimate += Math.round((double) (durationNanos - e.estimate) / WEIGHT);
        }
        e.received++;
    }

    private Entry find(long workKey) {
        if (workKey != lastKey || lastEntry == null) {
            Entry e = byKey.get(workKey);
            if (e == null) {
                return null;
            }
            lastKey = workKey;
            lastEntry = e;
        }
        return lastEntry;
    }

    private Entry entry(long workKey) {
        Entry e = find(workKey);
        if (e == null) {
            e = new Entry();
            byKey.put(workKey, e);
            lastKey = workKey;
            lastEntry = e;
        }
        return e;
    }
}
