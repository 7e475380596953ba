package org.polygpu.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.StreamHandle;
import org.polygpu.mpi.MpiRequest;

/**
 * The direct path of copies between ranks ({@link DirectPath}): MPI sends from and receives into a buffer's device
 * memory ({@link Backend#devicePointer}) in the transport's chunks, with no staging buffer and no copy on a stream.
 * MPI reads and writes device memory outside the streams' order, so each side first waits on the host for the work
 * already enqueued on the copy's stream (the kernel that wrote the bytes, the waits for other streams' events, the
 * readers of the bytes a receive overwrites); work enqueued on the stream after the copy starts only once the bytes
 * have been sent or have landed, as the calls return only then. On virtual clocks ({@link RankClock}) the request
 * carries the time the receiving stream's work ended and the reply the time the sent bytes were ready, which the
 * callers turn into holds of their streams.
 */
final class DirectCopies {
    private DirectCopies() {
    }

    /**
     * Sends bytes {@code offset..offset+bytes} of {@code buffer} to {@code rank} with {@code tag}, after the work on
     * {@code stream}; returns when those bytes were ready on {@code clock} ({@link RankClock#NONE} on a real clock).
     */
    static long send(Transport transport, Backend backend, RankClock clock, int rank, int tag, DeviceBuffer buffer,
                     long offset, long bytes, StreamHandle stream) {
        long ready = clock.drain(stream);
        transport.sendData(rank, tag, backend.devicePointer(buffer).asSlice(offset, bytes), i -> { });
        return ready;
    }

    /**
     * Receives into bytes {@code offset..offset+bytes} of {@code buffer}, after the work on {@code stream}, what
     * {@code rank} sends when asked with {@code op}: the request is what {@code request} writes, then the time the
     * stream's work ended on {@code clock} ({@link RankClock#NONE} on a real clock), then the data's tag. Returns the
     * sender's reply, read past its failure text.
     */
    static WireReader receive(Transport transport, Backend backend, RankClock clock, int rank, Op op,
                              Consumer<WireWriter> request, DeviceBuffer buffer, long offset, long bytes,
                              StreamHandle stream) {
        long ready = clock.drain(stream);
        int tag = transport.nextTag();
        List<MpiRequest> chunks = transport.postReceive(rank, tag, backend.devicePointer(buffer).asSlice(offset,
                bytes));
        CompletableFuture<WireReader> sent = transport.callAsync(rank, op, w -> {
            request.accept(w);
            w.putLong(ready).putInt(tag);
        });
        transport.awaitChunks(rank, chunks, i -> { }, "receiving " + bytes + " bytes from rank " + rank
                + " into device memory");
        return transport.await(rank, sent, "pulling bytes from rank " + rank);
    }
}
