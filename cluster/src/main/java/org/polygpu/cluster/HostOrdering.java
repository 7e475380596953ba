package org.polygpu.cluster;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import org.polygpu.backend.Backend;
import org.polygpu.backend.BackendException;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;

/**
 * Rank 0's host-side ordering points: per stream of rank 0's own devices, the work that must wait for something no
 * device of rank 0 can wait for (another rank's event, bytes still coming from another rank) and every command
 * enqueued on that stream after it. Such a wait is <em>held</em>: it runs on a thread of this class's pool while the
 * enqueuing call returns at once, and the stream's later commands are handed to the local backend, in order, only once
 * it has ended. A stream holding nothing takes its commands at once, on the calling thread.
 *
 * <p>Events recorded behind a hold are <em>pending</em> until the record reaches the local backend: a query says not
 * complete, a synchronisation waits for the record first, and a wait for such an event on another stream of rank 0
 * is itself held until the record has been made.
 *
 * <p>Faults: a hold that fails (another rank's failure, its silence past {@code ClusterTimeout}) skips the commands
 * behind it and is sticky: every later call of {@link #checkFault()}, and every query or synchronisation of an event
 * pending behind it, throws it as a {@link BackendException}.
 *
 * <p>Thread-safety: called by rank 0's scheduler thread only; the pool's threads call the local backend, which must
 * be safe for several threads ({@link LockedBackend}).
 */
final class HostOrdering implements AutoCloseable {
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final Backend local;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> Thread.ofPlatform().daemon()
            .name("polygpu-mpi-ordering").unstarted(r));
    /** Per stream, when its last held command has reached the local backend. */
    private final Map<StreamHandle, CompletableFuture<Void>> tails = new IdentityHashMap<>();
    /** Per event whose latest record is held, when that record has been made. */
    private final Map<EventHandle, CompletableFuture<Void>> pendingRecords = new IdentityHashMap<>();
    private final AtomicReference<BackendException> fault = new AtomicReference<>();

    HostOrdering(Backend local) {
        this.local = local;
    }

    /** Holds {@code stream} until {@code wait}, run on a thread of the pool, returns; returns at once. */
    void hold(StreamHandle stream, Runnable wait) {
        checkFault();
        chain(stream, DONE, wait);
    }

    /** Enqueues {@code command} (a call of the local backend on {@code stream}) now, or behind what the stream holds. */
    void enqueue(StreamHandle stream, Runnable command) {
        checkFault();
        if (holding(stream)) {
            chain(stream, DONE, command);
        } else {
            command.run();
        }
    }

    /** Records {@code event} on {@code stream} by {@code record}, now or behind what the stream holds. */
    void record(EventHandle event, StreamHandle stream, Runnable record) {
        checkFault();
        if (holding(stream)) {
            pendingRecords.put(event, chain(stream, DONE, record));
        } else {
            pendingRecords.remove(event);
            record.run();
        }
    }

    /** Makes {@code stream} wait for {@code event}'s latest record, holding it while that record is pending. */
    void streamWait(StreamHandle stream, EventHandle event) {
        checkFault();
        CompletableFuture<Void> record = pendingRecords.getOrDefault(event, DONE);
        if (record.isDone() && !holding(stream)) {
            pendingRecords.remove(event);
            rethrow(record);
            local.streamWaitEvent(stream, event);
        } else {
            chain(stream, record, () -> local.streamWaitEvent(stream, event));
        }
    }

    /** Whether {@code event}'s latest record has been made (it then completes as the local backend says). */
    boolean recordMade(EventHandle event) {
        checkFault();
        CompletableFuture<Void> record = pendingRecords.get(event);
        if (record == null) {
            return true;
        }
        if (!record.isDone()) {
            return false;
        }
        pendingRecords.remove(event);
        rethrow(record);
        return true;
    }

    /** Waits until {@code event}'s latest record has been made. */
    void awaitRecord(EventHandle event) {
        CompletableFuture<Void> record = pendingRecords.remove(event);
        if (record != null) {
            rethrow(record);
        }
        checkFault();
    }

    /** Whether any stream still holds commands. */
    boolean holding() {
        tails.values().removeIf(CompletableFuture::isDone);
        return !tails.isEmpty();
    }

    /** Waits until every held command has reached the local backend. */
    void drain() {
        for (CompletableFuture<Void> tail : List.copyOf(tails.values())) {
            rethrow(tail);
        }
        tails.clear();
        pendingRecords.clear();
        checkFault();
    }

    /** Throws the first failure of a hold, if any. */
    void checkFault() {
        BackendException e = fault.get();
        if (e != null) {
            throw e;
        }
    }

    private boolean holding(StreamHandle stream) {
        CompletableFuture<Void> tail = tails.get(stream);
        if (tail == null) {
            return false;
        }
        if (!tail.isDone()) {
            return true;
        }
        tails.remove(stream);
        rethrow(tail);
        return false;
    }

    /** Runs {@code command} on the pool once {@code stream}'s tail and {@code after} are done: the stream's new tail. */
    private CompletableFuture<Void> chain(StreamHandle stream, CompletableFuture<Void> after, Runnable command) {
        CompletableFuture<Void> tail = tails.getOrDefault(stream, DONE);
        CompletableFuture<Void> next = CompletableFuture.allOf(tail, after).thenRunAsync(command, pool);
        next.whenComplete((v, t) -> {
            if (t != null) {
                fault.compareAndSet(null, asBackend(t));
            }
        });
        tails.put(stream, next);
        return next;
    }

    private void rethrow(CompletableFuture<Void> future) {
        try {
            future.join();
        } catch (CompletionException | CancellationException e) {
            BackendException cause = asBackend(e);
            fault.compareAndSet(null, cause);
            throw fault.get();
        }
    }

    private static BackendException asBackend(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof BackendException b ? b : new BackendException("a command held on rank 0's host "
                + "failed: " + cause, cause);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
