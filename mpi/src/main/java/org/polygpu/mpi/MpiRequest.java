package org.polygpu.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * A non-blocking send or receive in flight ({@code MPI_Request}), made by {@link Mpi#isend} or {@link Mpi#irecv}.
 * The buffer passed there must stay valid and untouched until the request completes.
 *
 * <p>Lifecycle: ACTIVE → COMPLETE (when {@link #test} or {@link #await} sees it done, or after {@link #cancel});
 * the request's native handle is released at completion. Thread-safe: a request may be tested from several threads
 * (one lock per request, held by each MPI call on it).
 */
public final class MpiRequest {
    private final Mpi mpi;
    private final String operation;
    private final boolean receive;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle;
    /** Where {@code MPI_Test} and {@code MPI_Wait} write, allocated once: requests are tested in polling loops. */
    private final MemorySegment flag;
    private final MemorySegment nativeStatus;
    private MpiStatus status;
    private volatile boolean complete;

    /** @param receive whether the request receives a message (whose length the status then carries) */
    MpiRequest(Mpi mpi, String operation, boolean receive) {
        this.mpi = mpi;
        this.operation = operation;
        this.receive = receive;
        this.handle = arena.allocate(MpiApi.REQUEST_BYTES, 8);
        this.flag = arena.allocate(ValueLayout.JAVA_INT);
        this.nativeStatus = arena.allocate(MpiApi.STATUS_BYTES, 8);
    }

    /** The {@code MPI_Request*} the starting call writes. */
    MemorySegment handle() {
        return handle;
    }

    /** Whether the request has completed (as far as a call to {@link #test} or {@link #await} has seen). */
    public boolean isComplete() {
        return complete;
    }

    /** The status once complete, without waiting: empty while the message is still in flight. */
    public synchronized Optional<MpiStatus> test() {
        if (complete) {
            return Optional.ofNullable(status);
        }
        mpi.check(operation + " (MPI_Test)", mpi.api().test(handle, flag, nativeStatus));
        if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
            return Optional.empty();
        }
        finish();
        return Optional.ofNullable(status);
    }

    /** Blocks until the request completes; returns its status (a send's status carries no length: 0 bytes). */
    public synchronized MpiStatus await() {
        if (!complete) {
            mpi.check(operation + " (MPI_Wait)", mpi.api().await(handle, nativeStatus));
            finish();
        }
        return status;
    }

    /** Cancels the request if it has not completed, and waits for the cancellation (as {@code MPI_Cancel}). */
    public synchronized void cancel() {
        if (complete) {
            return;
        }
        mpi.check(operation + " (MPI_Cancel)", mpi.api().cancel(handle));
        await();
    }

    private void finish() {
        status = mpi.status(nativeStatus, receive);
        complete = true;
        arena.close();
    }

    @Override
    public String toString() {
        return operation + (complete ? " (complete)" : " (in flight)");
    }
}
