package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.mpi.MpiRequest;

/**
 * {@link ClusterBackend}'s copies that cross ranks. A copy to another rank's device is a command of its stream: when
 * the stream's queue reaches it (after every wait before it), the queue pulls the bytes from where they are (rank 0's
 * host memory, or a device of any rank, staged through pinned host memory in pipelined chunks, or sent from device
 * memory itself where {@link DirectPath} says) and copies them up (or receives them into device memory).
 * A copy from another rank's device to rank 0's host is a command too: rank 0 pre-posts the receives, and the events
 * recorded after it on that stream complete only once the bytes have landed. A copy from another rank's device to one
 * of rank 0's is held on rank 0's stream ({@link HostOrdering}): once the stream's earlier work has been handed over
 * (among it the hold for the writer's event on the source's rank), a thread of the ordering receives the bytes into
 * pinned staging and copies them up on the stream (the staging is released once a later check finds that copy done),
 * or on the direct path straight into device memory once the work already on the stream has completed; the call
 * returns at once.
 *
 * <p>Used by rank 0's scheduler thread, and by the threads of {@link HostOrdering} for the pulls it holds; the
 * staging list is guarded by itself.
 */
final class ClusterCopies {
    /** Staging buffers kept before a check releases those whose copy has completed. */
    private static final int STAGING_CHECK = 16;

    private final Transport transport;
    private final Backend local;
    private final HostService host;
    private final RemoteRank[] ranks;
    private final Runnable flushAll;
    private final DirectPath direct;
    private final HostOrdering ordering;
    private final List<Staging> staging = new ArrayList<>();
    private final RankClock clock;

    /** Pinned host memory that a copy on rank 0 reads until {@code done}. */
    private record Staging(EventHandle done, MemorySegment bytes) {
    }

    ClusterCopies(Transport transport, Backend local, HostService host, RemoteRank[] ranks, Runnable flushAll,
                  DirectPath direct, HostOrdering ordering) {
        this.direct = direct;
        this.ordering = ordering;
        this.transport = transport;
        this.local = local;
        this.host = host;
        this.ranks = ranks;
        this.flushAll = flushAll;
        this.clock = RankClock.of(local);
    }

    void hostToDevice(MemorySegment src, DeviceBuffer dst, long dstOffset, long bytes, StreamHandle stream,
                      OperationLabel label) {
        if (!(dst instanceof Remote.Buffer d)) {
            ordering.enqueue(stream, () -> local.copyHostToDevice(src, dst, dstOffset, bytes, stream, label));
            return;
        }
        Remote.Stream s = streamOf(stream, d.rank());
        long key = host.offerHost(nativeBytes(src, bytes));
        ranks[d.rank()].command(Op.COPY_FROM_HOST, w -> {
            w.putLong(s.key()).putLong(d.key()).putLong(dstOffset).putLong(bytes).putLong(key)
                    .putBoolean(direct.withHost(d.rank()));
            Codec.writeLabel(w, label);
        });
    }

    void deviceToHost(DeviceBuffer src, long srcOffset, MemorySegment dst, long bytes, StreamHandle stream,
                      OperationLabel label) {
        if (!(src instanceof Remote.Buffer b)) {
            ordering.enqueue(stream, () -> local.copyDeviceToHost(src, srcOffset, dst, bytes, stream, label));
            return;
        }
        Remote.Stream s = streamOf(stream, b.rank());
        int tag = transport.nextTag();
        RemoteRank r = ranks[b.rank()];
        r.landing(s.key()).addAll(transport.postReceive(b.rank(), tag, nativeBytes(dst, bytes)));
        r.command(Op.COPY_TO_HOST, w -> {
            w.putLong(s.key()).putLong(b.key()).putLong(srcOffset).putLong(bytes).putInt(tag)
                    .putBoolean(direct.withHost(b.rank()));
            Codec.writeLabel(w, label);
        });
    }

    void deviceToDevice(DeviceBuffer src, DeviceBuffer dst, long bytes, StreamHandle stream, OperationLabel label) {
        int srcRank = src instanceof Remote.Buffer b ? b.rank() : 0;
        int dstRank = dst instanceof Remote.Buffer b ? b.rank() : 0;
        if (srcRank == 0 && dstRank == 0) {
            ordering.enqueue(stream, () -> local.copyDeviceToDevice(src, dst, bytes, stream, label));
        } else if (dstRank == 0) {
            flushAll.run(); // the source rank has seen the commands before the copy
            ordering.hold(stream, () -> pullToLocal((Remote.Buffer) src, dst, bytes, stream, label));
        } else {
            Remote.Stream s = streamOf(stream, dstRank);
            long srcKey = srcRank == 0 ? host.export(src) : ((Remote.Buffer) src).key();
            long dstKey = ((Remote.Buffer) dst).key();
            Op op = srcRank == dstRank ? Op.COPY_LOCAL : Op.COPY_FROM_RANK;
            boolean fromDevice = op == Op.COPY_FROM_RANK && direct.between(srcRank, dstRank);
            ranks[dstRank].command(op, w -> {
                w.putLong(s.key()).putInt(srcRank).putLong(srcKey).putLong(dstKey).putLong(bytes)
                        .putBoolean(fromDevice);
                Codec.writeLabel(w, label);
            });
        }
    }

    private void pullToLocal(Remote.Buffer src, DeviceBuffer dst, long bytes, StreamHandle stream,
                             OperationLabel label) {
        Consumer<WireWriter> request = w -> w.putLong(src.key()).putLong(0).putLong(bytes);
        boolean direct = this.direct.between(src.rank(), 0);
        if (direct) {
            WireReader reply = DirectCopies.receive(transport, local, clock, src.rank(), Op.PULL_BUFFER,
                    request.andThen(w -> w.putBoolean(true)), dst, 0, bytes, stream);
            clock.holdForData(stream, RankClock.readTimes(reply), bytes);
            return;
        }
        MemorySegment pinned = host.staging().take(bytes);
        StagedCopies.receive(transport, local, clock, src.rank(), Op.PULL_BUFFER,
                request.andThen(w -> w.putBoolean(false)), pinned.asSlice(0, bytes), dst, 0, stream, label);
        EventHandle done = local.createEvent(dst.device());
        local.recordEvent(done, stream);
        synchronized (staging) {
            staging.add(new Staging(done, pinned));
        }
        reclaim(false);
    }

    /** Waits until the data bound for rank 0's host before {@code e}'s record has landed. */
    void awaitLanding(RemoteEvent e) {
        for (MpiRequest q : e.landing()) {
            transport.await(e.rank(), () -> q.test().isPresent(), "receiving data from rank " + e.rank());
        }
    }

    /** Waits until every receive from {@code r} has landed. */
    void awaitAll(RemoteRank r) {
        for (MpiRequest q : r.allLanding()) {
            transport.await(r.rank(), () -> q.test().isPresent(), "receiving data from rank " + r.rank());
        }
    }

    /** Releases the staging of completed copies; with {@code all}, waits for every copy and releases all. */
    void reclaim(boolean all) {
        if (all) {
            ordering.drain();
        }
        synchronized (staging) {
            reclaimStaging(all);
        }
    }

    private void reclaimStaging(boolean all) {
        if (!all && staging.size() < STAGING_CHECK) {
            return;
        }
        for (Iterator<Staging> it = staging.iterator(); it.hasNext(); ) {
            Staging s = it.next();
            if (all) {
                local.synchronizeEvent(s.done());
            } else if (!local.queryEvent(s.done())) {
                continue;
            }
            local.destroyEvent(s.done());
            host.staging().give(s.bytes());
            it.remove();
        }
    }

    private static Remote.Stream streamOf(StreamHandle stream, int rank) {
        if (stream instanceof Remote.Stream s && s.rank() == rank) {
            return s;
        }
        throw new IllegalArgumentException("a copy to a device of rank " + rank + " must be enqueued on a stream of "
                + "that device, not on " + stream);
    }

    private static MemorySegment nativeBytes(MemorySegment segment, long bytes) {
        if (!segment.isNative()) {
            throw new BackendException("host memory copied to or from another rank must be native memory (from "
                    + "allocateHost), not a heap segment");
        }
        return segment.asSlice(0, bytes);
    }
}
