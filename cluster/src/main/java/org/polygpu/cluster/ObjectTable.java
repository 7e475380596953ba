package org.polygpu.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.polygpu.backend.BackendException;

/**
 * One rank's backend objects (buffers, streams, modules, functions; on rank 0 its own events that other ranks wait
 * for) by the keys rank 0 gave them, and how often each such event has been recorded: the generation a wait names is
 * recorded once the local backend has been told to record it. A worker's events are {@link EventGenerations}. Keys
 * are unique in the job: rank 0 draws them all from one counter.
 *
 * <p>Thread-safety: safe for any number of threads; {@link #awaitRecorded} blocks until another thread calls
 * {@link #recorded}.
 */
final class ObjectTable {
    private final Map<Long, Object> objects = new ConcurrentHashMap<>();
    /** Per event key, the latest generation recorded; guarded by this. */
    private final Map<Long, Long> generations = new HashMap<>();

    void put(long key, Object object) {
        objects.put(key, object);
    }

    /** @throws BackendException when no object of {@code type} has {@code key} */
    <T> T get(long key, Class<T> type) {
        Object o = objects.get(key);
        if (!type.isInstance(o)) {
            throw new BackendException("no " + type.getSimpleName() + " with key " + key + " on this rank ("
                    + (o == null ? "none" : o.getClass().getSimpleName()) + ")");
        }
        return type.cast(o);
    }

    <T> T remove(long key, Class<T> type) {
        T o = get(key, type);
        objects.remove(key);
        synchronized (this) {
            generations.remove(key);
        }
        return o;
    }

    boolean contains(long key) {
        return objects.containsKey(key);
    }

    synchronized void recorded(long eventKey, long generation) {
        generations.merge(eventKey, generation, Math::max);
        notifyAll();
    }

    synchronized long recordedGeneration(long eventKey) {
        return generations.getOrDefault(eventKey, 0L);
    }

    /** Blocks until generation {@code generation} of the event has been recorded. */
    synchronized void awaitRecorded(long eventKey, long generation) {
        while (generations.getOrDefault(eventKey, 0L) < generation) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendException("interrupted while waiting for an event to be recorded");
            }
        }
    }

    void clear() {
        objects.clear();
        synchronized (this) {
            generations.clear();
        }
    }
}
