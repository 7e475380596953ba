package org.polygpu.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.mpi.MpiRequest;

/**
 * {@link ClusterBackend}'s events: records (each counted, so that a wait names the generation it waits for), waits
 * within a rank and across ranks, queries and synchronisation. A remote stream waiting for another rank's event
 * blocks its queue on that rank until the event's rank reports the generation complete; a stream of rank 0 waiting
 * for another rank's event is held on rank 0's host ({@link HostOrdering}) while the call returns at once. Used by
 * rank 0's scheduler thread only.
 */
final class ClusterEvents {
    /** How long a query lets a batch wait before it sends it: a few launches' worth of host time. */
    static final long STALE_BATCH_NANOS = 200_000;

    private final Backend local;
    private final HostService host;
    private final ClusterCopies copies;
    private final RemoteRank[] ranks;
    private final Runnable flushAll;
    private final ClusterKernels kernels;
    private final Transport transport;
    private final HostOrdering ordering;
    private final RankClock clock;

    ClusterEvents(Transport transport, Backend local, HostService host, ClusterCopies copies, RemoteRank[] ranks,
                  Runnable flushAll, ClusterKernels kernels, HostOrdering ordering) {
        this.transport = transport;
        this.ordering = ordering;
        this.kernels = kernels;
        this.local = local;
        this.host = host;
        this.copies = copies;
        this.ranks = ranks;
        this.flushAll = flushAll;
        this.clock = RankClock.of(local);
    }

    void record(EventHandle event, StreamHandle stream) {
        if (event instanceof RemoteEvent e && stream instanceof Remote.Stream s) {
            long generation = e.record(ranks[s.rank()].landing(s.key()), ranks[s.rank()].openBatch());
            ranks[s.rank()].command(Op.RECORD, w -> w.putLong(e.key()).putLong(s.key()).putLong(generation));
        } else if (!(event instanceof RemoteEvent) && !(stream instanceof Remote.Stream)) {
            long generation = host.recorded(event);
            ordering.record(event, stream, () -> {
                local.recordEvent(event, stream);
                host.made(event, generation);
            });
        } else {
            throw new IllegalArgumentException(event + " cannot be recorded on " + stream + " of another device");
        }
    }

    void streamWait(StreamHandle stream, EventHandle event) {
        if (stream instanceof Remote.Stream s) {
            RemoteRank r = ranks[s.rank()];
            if (event instanceof RemoteEvent e) {
                copies.awaitLanding(e);
                r.command(Op.WAIT, w -> w.putLong(s.key()).putInt(e.rank()).putLong(e.key()).putLong(e.generation()));
                if (e.rank() != s.rank()) {
                    ranks[e.rank()].flush(); // the other rank learns of the record it will be asked about
                }
            } else {
                long key = host.export(event);
                long generation = host.generation(event);
                r.command(Op.WAIT, w -> w.putLong(s.key()).putInt(0).putLong(key).putLong(generation));
            }
        } else if (event instanceof RemoteEvent e) {
            holdFor(stream, e); // rank 0's streams never block on another rank: the host holds the stream instead
        } else {
            ordering.streamWait(stream, event);
        }
    }

    /** Holds a stream of rank 0 until {@code e}'s record has completed on its rank and its bytes for the host landed. */
    private void holdFor(StreamHandle stream, RemoteEvent e) {
        if (e.knownComplete()) {
            return;
        }
        flushAll.run(); // the record, and whatever it waits for on other ranks, reach their ranks first
        long generation = e.generation();
        List<MpiRequest> landing = e.landing();
        ordering.hold(stream, () -> {
            // On a virtual clock the stream goes on no earlier than the answer, sent when the record completed there.
            clock.holdForMessage(stream, transport.call(e.rank(), Op.SYNC_EVENT, w -> w.putLong(e.key())
                    .putLong(generation)).getLong(), 0);
            for (MpiRequest q : landing) {
                transport.await(e.rank(), () -> q.test().isPresent(), "receiving data from rank " + e.rank());
            }
        });
    }

    /**
     * Whether a record has completed, without waiting: a remote event is asked about with a query that is not waited
     * for; a later poll reads its answer (and sends a new query while the record is not complete).
     */
    boolean query(EventHandle event) {
        if (!(event instanceof RemoteEvent e)) {
            return ordering.recordMade(event) && local.queryEvent(event);
        }
        if (e.knownComplete()) {
            return true;
        }
        RemoteRank r = ranks[e.rank()];
        if (!e.sent(r)) {
            // Not complete, as its rank has not seen the record: no call; the batch leaves once it is stale, so that
            // a scheduler polling its streams after every launch does not send each launch alone.
            r.flushIfOlderThan(STALE_BATCH_NANOS);
            return false;
        }
        CompletableFuture<WireReader> inFlight = e.query();
        if (inFlight != null && !inFlight.isDone()) {
            transport.checkAlive(e.rank(), "querying " + e);
            return false;
        }
        if (inFlight != null) {
            e.query(null, 0);
            WireReader reply = transport.await(e.rank(), inFlight, "querying " + e);
            if (reply.getBoolean()) {
                kernels.readReported(reply); // read whatever generation it answered: the rank handed those over
                e.remoteDone(e.queried());
            }
        }
        if (e.remoteDone()) {
            if (e.landing().stream().allMatch(q -> q.test().isPresent())) {
                e.completed();
                return true;
            }
            return false;
        }
        r.flush();
        long generation = e.generation();
        e.query(transport.callAsync(e.rank(), Op.QUERY, w -> w.putLong(e.key()).putLong(generation)), generation);
        return false;
    }

    void synchronize(EventHandle event) {
        if (!(event instanceof RemoteEvent e)) {
            ordering.awaitRecord(event);
            local.synchronizeEvent(event);
            return;
        }
        if (!e.knownComplete()) {
            flushAll.run();
            // On a virtual clock rank 0's host goes on no earlier than the answer, sent when the record completed.
            clock.holdHostForMessage(ranks[e.rank()].call(Op.SYNC_EVENT, w -> w.putLong(e.key())
                    .putLong(e.generation())).getLong());
            CompletableFuture<WireReader> inFlight = e.query();
            if (inFlight != null) {
                // Its answer hands over the faults of the launches before the record: it must be read.
                e.query(null, 0);
                WireReader reply = transport.await(e.rank(), inFlight, "querying " + e);
                if (reply.getBoolean()) {
                    kernels.readReported(reply);
                }
            }
            copies.awaitLanding(e);
            e.completed();
        }
    }

    double elapsedMillis(EventHandle start, EventHandle end) {
        if (start instanceof RemoteEvent s && end instanceof RemoteEvent e && s.rank() == e.rank()) {
            return ranks[s.rank()].call(Op.ELAPSED, w -> w.putLong(s.key()).putLong(e.key())).getDouble();
        }
        if (start instanceof RemoteEvent || end instanceof RemoteEvent) {
            throw new BackendException("the time between " + start + " and " + end + " cannot be measured: "
                    + "events of two ranks share no clock");
        }
        ordering.awaitRecord(start);
        ordering.awaitRecord(end);
        return local.elapsedMillis(start, end);
    }
}
