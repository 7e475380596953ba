package org.polygpu.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.ModuleImage;
import org.polygpu.mpi.MpiRequest;

/**
 * Rank 0's proxy of one worker rank: its devices (global indices {@code first..first+count-1}, properties gathered
 * once when the rank opened), the batch of asynchronous commands not yet sent, the module images it already holds,
 * and, per stream, the receives of data bound for rank 0's host still in flight.
 *
 * <p>Batching: asynchronous commands (stream and event creation, records, waits, launches, copies) are appended to
 * one message, sent when it holds {@link #batchLimit} commands, and whenever a reply is needed from any rank (so
 * that what a reply depends on has been sent). Used by rank 0's scheduler thread only.
 */
final class RemoteRank {
    private final int rank;
    private final int first;
    private final String host;
    private final List<DeviceProperties> properties;
    private final long[] replicaMemory;
    private final double[][] bandwidth;
    private final Transport transport;
    private final int batchLimit;
    private final Map<ModuleImage, Long> images = new HashMap<>();
    private final Map<Long, List<MpiRequest>> landing = new HashMap<>();
    private WireWriter batch;
    private int commands;
    private long batchesSent;
    /** When the batch's first command was appended. */
    private long batchStartNanos;

    RemoteRank(int rank, int first, String host, List<DeviceProperties> properties, long[] replicaMemory,
               double[][] bandwidth, Transport transport, int batchLimit) {
        this.rank = rank;
        this.first = first;
        this.host = host;
        this.properties = List.copyOf(properties);
        this.replicaMemory = replicaMemory.clone();
        this.bandwidth = bandwidth;
        this.transport = transport;
        this.batchLimit = batchLimit;
    }

    int rank() {
        return rank;
    }

    int first() {
        return first;
    }

    int deviceCount() {
        return properties.size();
    }

    String host() {
        return host;
    }

    DeviceProperties properties(int local) {
        return properties.get(local);
    }

    long replicaMemory(int local) {
        return replicaMemory[local];
    }

    /** The rank's own bandwidth matrix, its host last. */
    double[][] bandwidth() {
        return bandwidth;
    }

    /** Appends an asynchronous command. */
    void command(Op op, Consumer<WireWriter> body) {
        if (batch == null) {
            batch = WireWriter.of(Op.BATCH);
            batchStartNanos = System.nanoTime();
        }
        body.accept(batch.putInt(op.ordinal()));
        if (++commands >= batchLimit) {
            flush();
        }
    }

    /** Sends the commands not yet sent, as one message. */
    void flush() {
        if (commands > 0) {
            WireWriter message = batch;
            batch = null;
            commands = 0;
            batchesSent++;
            transport.send(rank, message);
        }
    }

    /** Messages of commands sent so far. */
    long batchesSent() {
        return batchesSent;
    }

    /** The number {@link #batchesSent()} reaches once the command appended next has been sent. */
    long openBatch() {
        return batchesSent + 1;
    }

    /** Sends the batch if its first command has waited for more than {@code nanos}. */
    void flushIfOlderThan(long nanos) {
        if (commands > 0 && System.nanoTime() - batchStartNanos > nanos) {
            flush();
        }
    }

    /** A call in order with the commands: the batch goes first. */
    WireReader call(Op op, Consumer<WireWriter> body) {
        flush();
        return transport.call(rank, op, body);
    }

    /** The key of {@code image} on this rank, and whether the rank still needs its bytes. */
    long imageKey(ModuleImage image, long fresh) {
        return images.computeIfAbsent(image, i -> fresh);
    }

    /** The receives bound for rank 0's host in flight on {@code stream}, completed ones dropped. */
    List<MpiRequest> landing(long stream) {
        List<MpiRequest> list = landing.computeIfAbsent(stream, s -> new ArrayList<>());
        list.removeIf(MpiRequest::isComplete);
        return list;
    }

    /** Every receive still in flight, on any stream. */
    List<MpiRequest> allLanding() {
        List<MpiRequest> all = new ArrayList<>();
        landing.values().forEach(all::addAll);
        return all;
    }

    void forgetStream(long stream) {
        landing.remove(stream);
    }
}
