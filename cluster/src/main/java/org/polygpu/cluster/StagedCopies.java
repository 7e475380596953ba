package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;
import org.polygpu.mpi.MpiRequest;

/**
 * The receiving side of the staged path of copies between ranks: the bytes land in pinned host memory in the
 * transport's chunks and are copied up to the device on the copy's stream. On a real clock each chunk is copied up as
 * soon as it lands, so that the copies up overlap the messages. On a virtual clock ({@link RankClock}) the request
 * carries the time the stream's work ended, the sender's reply the time each chunk was ready on its rank, and each
 * chunk's copy up waits on the stream until the chunk has crossed the network ({@link RankClock#arrivals}): the copy
 * ends no earlier than {@code ready + latency + bytes / bandwidth}, its stages overlapping chunk by chunk as they do
 * on GPUs.
 */
final class StagedCopies {
    private StagedCopies() {
    }

    /**
     * Receives {@code into}'s bytes from {@code rank}, asked with {@code op} (the request is what {@code request}
     * writes, then the stream's time, then the data's tag), and copies them up to {@code dst} at {@code dstOffset} on
     * {@code stream}; returns once the copies up are enqueued. The reply carries the times the chunks were ready
     * on their rank ({@link RankClock#writeTimes}; {@link RankClock#NONE} from a real clock).
     */
    static void receive(Transport transport, Backend backend, RankClock clock, int rank, Op op,
                        Consumer<WireWriter> request, MemorySegment into, DeviceBuffer dst,
                        long dstOffset, StreamHandle stream, OperationLabel label) {
        long bytes = into.byteSize();
        long asked = clock.streamTime(stream);
        int tag = transport.nextTag();
        List<MpiRequest> chunks = transport.postReceive(rank, tag, into);
        CompletableFuture<WireReader> sent = transport.callAsync(rank, op, w -> {
            request.accept(w);
            w.putLong(asked).putInt(tag);
        });
        IntConsumer copyUp = i -> {
            long at = (long) i * Transport.CHUNK_BYTES;
            long length = Math.min(Transport.CHUNK_BYTES, bytes - at);
            backend.copyHostToDevice(into.asSlice(at, length), dst, dstOffset + at, length, stream, label);
        };
        boolean hold = clock.isVirtual();
        transport.awaitChunks(rank, chunks, hold ? i -> { } : copyUp, "receiving " + bytes + " bytes from rank "
                + rank);
        WireReader reply = transport.await(rank, sent, "pulling bytes from rank " + rank);
        if (hold) {
            long[] ready = RankClock.readTimes(reply);
            long[] arrived = ready.length == 0 || ready[0] == RankClock.NONE ? null
                    : RankClock.arrivals(ready, bytes, Transport.CHUNK_BYTES, clock.network());
            for (int i = 0; i < chunks.size(); i++) {
                if (arrived != null) {
                    clock.holdUntil(stream, arrived[i]);
                }
                copyUp.accept(i);
            }
        }
    }
}
