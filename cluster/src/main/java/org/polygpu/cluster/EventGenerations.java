package org.polygpu.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;

/**
 * A worker's events by rank 0's key, one local event per record: rank 0 numbers the records of an event
 * (generations 1, 2, ...) and a wait, query or synchronisation names the generation it means, which stays exact when
 * the event is recorded again, on another stream, before an earlier wait has run. Generation 0 (never recorded) is
 * complete. Local events of completed generations are destroyed, oldest first, when a later one is recorded; the
 * latest stays for {@link #elapsedMillis}. Generations may be recorded out of order (their streams' queues run
 * concurrently): a generation counts as recorded only once its own record has run.
 *
 * <p>Thread-safety: safe for the command thread, the stream queues and the service threads together; a wait for a
 * generation not yet recorded blocks until it is.
 */
final class EventGenerations {
    private final Backend local;
    private final RankClock clock;
    /** Guarded by this. */
    private final Map<Long, Slot> slots = new HashMap<>();

    /** One event's live generations; every generation up to {@code complete} has completed and been released. */
    private static final class Slot {
        final int device;
        final TreeMap<Long, EventHandle> live = new TreeMap<>();
        final Map<Long, Integer> pins = new HashMap<>();
        long complete;
        /** When generation {@code complete} completed, on a virtual clock; else {@link RankClock#NONE}. */
        long completeNanos = RankClock.NONE;

        Slot(int device) {
            this.device = device;
        }
    }

    EventGenerations(Backend local) {
        this.local = local;
        this.clock = RankClock.of(local);
    }

    synchronized void create(long key, int device) {
        slots.put(key, new Slot(device));
        notifyAll();
    }

    /** Records generation {@code generation} of the event on {@code stream} (on the stream's queue). */
    void record(long key, long generation, StreamHandle stream) {
        int device;
        synchronized (this) {
            device = slot(key).device;
        }
        EventHandle e = local.createEvent(device);
        local.recordEvent(e, stream);
        synchronized (this) {
            Slot s = slot(key);
            s.live.put(generation, e);
            release(s);
            notifyAll();
        }
    }

    /** Makes later work on {@code stream} wait for the generation, once it has been recorded. */
    synchronized void streamWait(long key, long generation, StreamHandle stream) {
        EventHandle e = awaitRecorded(key, generation);
        if (e != null) {
            local.streamWaitEvent(stream, e);
        }
    }

    /** Whether the generation has been recorded and has completed; never blocks. */
    synchronized boolean query(long key, long generation) {
        Slot s = slot(key);
        if (generation <= s.complete || generation == 0) {
            return true;
        }
        EventHandle e = s.live.get(generation);
        return e != null && local.queryEvent(e);
    }

    /**
     * Blocks until the generation has been recorded and has completed; returns when it completed on a virtual clock,
     * else {@link RankClock#NONE}. For a generation already released that is when the latest released one completed:
     * rank 0 records an event again only once its previous record has completed, so it is never earlier.
     */
    long synchronize(long key, long generation) {
        EventHandle e;
        synchronized (this) {
            e = awaitRecorded(key, generation);
            if (e == null) {
                return generation == 0 ? RankClock.NONE : slot(key).completeNanos;
            }
            slot(key).pins.merge(generation, 1, Integer::sum);
        }
        try {
            return clock.completedAt(e);
        } finally {
            synchronized (this) {
                slot(key).pins.computeIfPresent(generation, (g, n) -> n == 1 ? null : n - 1);
            }
        }
    }

    /** Milliseconds between the latest records of two events. */
    synchronized double elapsedMillis(long start, long end) {
        return local.elapsedMillis(latest(start), latest(end));
    }

    synchronized void destroy(long key) {
        Slot s = slots.remove(key);
        if (s != null) {
            s.live.values().forEach(local::destroyEvent);
        }
    }

    synchronized void clear() {
        slots.values().forEach(s -> s.live.values().forEach(local::destroyEvent));
        slots.clear();
    }

    /**
     * The generation's live event once recorded, or null when it needs no wait (complete or never recorded). A
     * request of another rank may come before rank 0's commands that create and record the event have run here: it
     * waits for them.
     */
    private EventHandle awaitRecorded(long key, long generation) {
        while (true) {
            Slot s = slots.get(key);
            if (s != null && (generation <= s.complete || generation == 0)) {
                return null;
            }
            EventHandle e = s == null ? null : s.live.get(generation);
            if (e != null) {
                return e;
            }
            try {
                wait();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new BackendException("interrupted while waiting for an event to be recorded");
            }
        }
    }

    /** Destroys the oldest generations while they follow the complete ones, have completed and nobody waits. */
    private void release(Slot s) {
        while (s.live.size() > 1) {
            Map.Entry<Long, EventHandle> oldest = s.live.firstEntry();
            if (oldest.getKey() != s.complete + 1 || s.pins.containsKey(oldest.getKey())
                    || !local.queryEvent(oldest.getValue())) {
                return;
            }
            if (clock.isVirtual()) {
                s.completeNanos = clock.completedAt(oldest.getValue()); // complete: no wait
            }
            local.destroyEvent(oldest.getValue());
            s.live.pollFirstEntry();
            s.complete = oldest.getKey();
        }
    }

    private EventHandle latest(long key) {
        Slot s = slot(key);
        if (s.live.isEmpty()) {
            throw new BackendException("event " + key + " has not been recorded: no time to measure");
        }
        return s.live.lastEntry().getValue();
    }

    private Slot slot(long key) {
        Slot s = slots.get(key);
        if (s == null) {
            throw new BackendException("no event with key " + key + " on this rank");
        }
        return s;
    }
}
