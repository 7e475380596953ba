package org.polygpu.cluster;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.StreamHandle;

/**
 * Serves other ranks' requests about this rank's own devices, each on a thread of its own pool so that the receiver
 * thread never blocks: {@link Op#SYNC_EVENT} (answer once an event's generation has completed) and
 * {@link Op#PULL_BUFFER} (send a buffer's bytes: device to pinned host in chunks on a stream of the service's own,
 * each chunk sent as soon as it is on the host; or from device memory itself on the direct path, {@link DirectCopies}).
 * The requester waited for everything that writes the bytes before it asked, so the service orders the copy after
 * nothing. Thread-safe.
 */
final class LocalService implements AutoCloseable {
    private final Transport transport;
    private final Backend backend;
    private final ObjectTable objects;
    private final Synchronizer events;
    private final StagingPool staging;
    private final RankClock clock;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon()
            .name("polygpu-mpi-service").unstarted(r));
    /** One stream per device for the copies to the host that a pull makes; guarded by this. */
    private final Map<Integer, StreamHandle> streams = new HashMap<>();

    /**
     * Waits until generation {@code generation} of the event with {@code key} has completed; returns the virtual time
     * it completed at, or {@link RankClock#NONE} on a real clock.
     */
    interface Synchronizer {
        long synchronize(long key, long generation);
    }

    /**
     * @param objects the buffers other ranks may pull, by key
     * @param events  how this rank waits for one of its events named by key and generation
     */
    LocalService(Transport transport, Backend backend, ObjectTable objects, Synchronizer events) {
        this.transport = transport;
        this.backend = backend;
        this.objects = objects;
        this.events = events;
        this.staging = new StagingPool(backend);
        this.clock = RankClock.of(backend);
    }

    /** The staging buffers of this rank's copies that cross ranks. */
    StagingPool staging() {
        return staging;
    }

    /** Serves one request the receiver thread took: false when {@code op} is not this service's. */
    boolean serve(int source, Op op, WireReader message) {
        if (op != Op.SYNC_EVENT && op != Op.PULL_BUFFER) {
            return false;
        }
        long id = message.getLong();
        pool.execute(() -> answer(source, id, out -> {
            if (op == Op.SYNC_EVENT) {
                out.putLong(events.synchronize(message.getLong(), message.getLong()));
            } else {
                RankClock.writeTimes(out, pull(source, message.getLong(), message.getLong(), message.getLong(),
                        message.getBoolean(), message.getLong(), message.getInt()));
            }
        }));
        return true;
    }

    /** Runs {@code action} on the pool, answering call {@code id} afterwards with what it wrote, or its failure. */
    void execute(int source, long id, Consumer<WireWriter> action) {
        pool.execute(() -> answer(source, id, action));
    }

    /** Answers call {@code id} with what {@code action} writes, or with its failure and nothing else. */
    private void answer(int source, long id, Consumer<WireWriter> action) {
        WireWriter payload = new WireWriter();
        try {
            action.accept(payload);
        } catch (RuntimeException e) {
            transport.reply(source, id, String.valueOf(e.getMessage()), null);
            return;
        }
        transport.reply(source, id, "", payload);
    }

    /**
     * Sends a buffer's bytes to the rank that asked at virtual time {@code askedNanos} (its stream's time, or
     * {@link RankClock#NONE}): on a virtual clock they leave no earlier than the request arrived. Returns when they
     * were ready ({@link #sendDevice}).
     */
    private long[] pull(int requester, long key, long offset, long bytes, boolean direct, long askedNanos, int tag) {
        DeviceBuffer buffer = objects.get(key, DeviceBuffer.class);
        StreamHandle stream = stream(buffer.device());
        clock.holdForMessage(stream, askedNanos, 0);
        return sendDevice(requester, tag, buffer, offset, bytes, stream, OperationLabel.NONE, direct);
    }

    /**
     * Sends bytes {@code offset..offset+bytes} of {@code buffer} to {@code rank} with {@code tag}, after the work
     * already on {@code stream}: from device memory itself when {@code direct}, else copied to pinned host memory chunk
     * by chunk on {@code stream}, each chunk sent once it is there. Returns the virtual times the bytes were ready to
     * leave: per chunk, when its copy to the host ended; on the direct path, one time for all, when the stream's work
     * ended; on a real clock, {@link RankClock#NONE}.
     */
    long[] sendDevice(int rank, int tag, DeviceBuffer buffer, long offset, long bytes, StreamHandle stream,
                    OperationLabel label, boolean direct) {
        if (direct) {
            return new long[] {DirectCopies.send(transport, backend, clock, rank, tag, buffer, offset, bytes, stream)};
        }
        int device = buffer.device();
        MemorySegment pinned = staging.take(bytes);
        MemorySegment bytesOut = pinned.asSlice(0, bytes);
        int chunks = (int) ((bytes + Transport.CHUNK_BYTES - 1) / Transport.CHUNK_BYTES);
        EventHandle[] copied = new EventHandle[chunks];
        try {
            for (int i = 0; i < chunks; i++) {
                long at = (long) i * Transport.CHUNK_BYTES;
                long length = Math.min(Transport.CHUNK_BYTES, bytes - at);
                backend.copyDeviceToHost(buffer, offset + at, bytesOut.asSlice(at, length), length, stream, label);
                copied[i] = backend.createEvent(device);
                backend.recordEvent(copied[i], stream);
            }
            transport.sendData(rank, tag, bytesOut, i -> backend.synchronizeEvent(copied[i]));
            long[] ready = new long[Math.max(1, chunks)];
            for (int i = 0; i < ready.length; i++) {
                ready[i] = !clock.isVirtual() ? RankClock.NONE : chunks == 0 ? clock.streamTime(stream)
                        : clock.completedAt(copied[i]);
            }
            return ready;
        } finally {
            for (EventHandle e : copied) {
                if (e != null) {
                    backend.destroyEvent(e);
                }
            }
            staging.give(pinned);
        }
    }

    private synchronized StreamHandle stream(int device) {
        return streams.computeIfAbsent(device, backend::createStream);
    }

    /** Destroys the service's streams and frees its staging buffers; the backend stays open. */
    synchronized void releaseStreams() {
        streams.values().forEach(backend::destroyStream);
        streams.clear();
        staging.close();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
