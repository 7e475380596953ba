package org.polygpu.cluster;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.polygpu.backend.EventHandle;
import org.polygpu.mpi.MpiRequest;

/**
 * Rank 0's handle of an event on another rank, with the generation of its last record (0: never recorded, hence
 * complete) and the receives of data bound for rank 0's host that were in flight on its stream when it was recorded:
 * the event completes for rank 0 once they have landed too. Used by rank 0's scheduler thread only.
 */
final class RemoteEvent implements EventHandle {
    private final int device;
    private final int rank;
    private final long key;
    private long generation;
    private long completed;
    private List<MpiRequest> landing = List.of();
    /** The batch of its rank that carries the last record ({@link RemoteRank#openBatch()}). */
    private long batch;
    /** A query of its rank in flight, and the generation it asks about; null when none. */
    private CompletableFuture<WireReader> query;
    private long queried;
    /** The last generation its rank reported complete (the bytes bound for rank 0 may still be landing). */
    private long remoteDone;

    RemoteEvent(int device, int rank, long key) {
        this.device = device;
        this.rank = rank;
        this.key = key;
    }

    @Override
    public int device() {
        return device;
    }

    int rank() {
        return rank;
    }

    long key() {
        return key;
    }

    long generation() {
        return generation;
    }

    /** A new record after the stream's work so far, including the receives still landing, sent in {@code batch}. */
    long record(List<MpiRequest> inFlight, long batch) {
        landing = List.copyOf(inFlight);
        this.batch = batch;
        return ++generation;
    }

    /** Whether the last record has left rank 0 (else its rank has not even seen it). */
    boolean sent(RemoteRank rank) {
        return rank.batchesSent() >= batch;
    }

    List<MpiRequest> landing() {
        return landing;
    }

    /** The query in flight, or null. */
    CompletableFuture<WireReader> query() {
        return query;
    }

    /** The generation the query in flight asks about. */
    long queried() {
        return queried;
    }

    void query(CompletableFuture<WireReader> inFlight, long generation) {
        query = inFlight;
        queried = generation;
    }

    /** Records that its rank reported {@code generation} complete. */
    void remoteDone(long generation) {
        remoteDone = Math.max(remoteDone, generation);
    }

    /** Whether its rank reported the last record complete. */
    boolean remoteDone() {
        return remoteDone == generation;
    }

    /** Whether the last record is known complete, without asking its rank. */
    boolean knownComplete() {
        return completed == generation;
    }

    void completed() {
        completed = generation;
        landing = List.of();
    }

    @Override
    public String toString() {
        return "event " + key + " of device " + device + " on rank " + rank;
    }
}
