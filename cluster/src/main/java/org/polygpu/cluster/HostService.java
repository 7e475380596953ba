package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;

/**
 * Rank 0's side of what workers ask of it: the bytes of host memory a copy to one of their devices reads
 * ({@link Op#PULL_HOST}, registered by the copy and served once), and, through a {@link LocalService}, waits for rank
 * 0's own events and the bytes of its own buffers, which rank 0 exports under keys when a command first names them.
 *
 * <p>Thread-safety: {@link #export}, {@link #recorded} and {@link #offerHost} are called by rank 0's scheduler
 * thread, {@link #made} also by the threads of {@link HostOrdering}, the rest by the receiver thread and the service's
 * pool; the maps of keys and generations are guarded by this.
 */
final class HostService implements AutoCloseable {
    private final Session session;
    private final LocalService local;
    private final ObjectTable exported = new ObjectTable();
    private final Map<Object, Long> keys = new IdentityHashMap<>();
    /** Per event, the records counted, and those the local backend has been told to make (fewer while held). */
    private final Map<EventHandle, Long> generations = new IdentityHashMap<>();
    private final Map<EventHandle, Long> made = new IdentityHashMap<>();
    private final Map<Long, Offered> hostBytes = new ConcurrentHashMap<>();
    private final Backend backend;
    private final RankClock clock;

    /** Host bytes offered to a worker, and rank 0's host time when they were (or {@link RankClock#NONE}). */
    private record Offered(MemorySegment bytes, long readyNanos) {
    }

    HostService(Session session, Backend backend) {
        this.session = session;
        // Rank 0's own events are the scheduler's, recorded again only once complete: the latest record is the one
        // a wait names.
        this.backend = backend;
        this.clock = RankClock.of(backend);
        this.local = new LocalService(session.transport(), backend, exported, (key, generation) -> {
            exported.awaitRecorded(key, generation);
            return clock.completedAt(exported.get(key, EventHandle.class));
        });
        session.transport().handler(this::handle);
    }

    /** The key of one of rank 0's own objects (a buffer or an event), exporting it the first time. */
    synchronized long export(Object object) {
        Long key = keys.get(object);
        if (key == null) {
            key = session.nextKey();
            keys.put(object, key);
            exported.put(key, object);
            if (object instanceof EventHandle e) {
                exported.recorded(key, made.getOrDefault(e, 0L));
            }
        }
        return key;
    }

    /**
     * Counts a record of one of rank 0's events; returns its generation. A wait of another rank for it is answered
     * once {@link #made} says the local backend has been told to record it.
     */
    synchronized long recorded(EventHandle event) {
        return generations.merge(event, 1L, Long::sum);
    }

    /** Says that generation {@code generation} of {@code event} has been recorded on the local backend. */
    synchronized void made(EventHandle event, long generation) {
        made.merge(event, generation, Math::max);
        Long key = keys.get(event);
        if (key != null) {
            exported.recorded(key, generation);
        }
    }

    synchronized long generation(EventHandle event) {
        return generations.getOrDefault(event, 0L);
    }

    /** Forgets an object that is being released. */
    synchronized void forget(Object object) {
        Long key = keys.remove(object);
        if (object instanceof EventHandle e) {
            generations.remove(e);
            made.remove(e);
        }
        if (key != null) {
            exported.remove(key, Object.class);
        }
    }

    /**
     * Registers host bytes a worker will pull once; returns the transfer's key. On a virtual clock the pull's answer
     * says they were ready at rank 0's host time now, when the program enqueued the copy.
     */
    long offerHost(MemorySegment bytes) {
        long key = session.nextKey();
        hostBytes.put(key, new Offered(bytes, clock.isVirtual() ? backend.hostNanos() : RankClock.NONE));
        return key;
    }

    private void handle(int source, Op op, WireReader message) {
        if (local.serve(source, op, message)) {
            return;
        }
        if (op == Op.PULL_HOST) {
            long id = message.getLong();
            long key = message.getLong();
            message.getLong(); // the requester's virtual time: rank 0's host memory is not on a device's clock
            int tag = message.getInt();
            local.execute(source, id, out -> {
                Offered offered = hostBytes.remove(key);
                if (offered == null) {
                    throw new IllegalStateException("no host bytes are offered under key " + key);
                }
                session.transport().sendData(source, tag, offered.bytes(), i -> { });
                RankClock.writeTimes(out, new long[] {offered.readyNanos()});
            });
        }
    }

    /** The staging buffers of rank 0's copies that cross ranks. */
    StagingPool staging() {
        return local.staging();
    }

    /** Releases the service's streams and staging buffers (the backend is closing). */
    void releaseStreams() {
        local.releaseStreams();
    }

    @Override
    public void close() {
        local.close();
        session.transport().handler((source, op, message) -> { }); // late requests of a closed backend
    }
}
