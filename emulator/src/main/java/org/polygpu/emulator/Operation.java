package org.polygpu.emulator;

import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * One operation enqueued on an emulated stream: a copy, a kernel, an event record, an event wait or a clock hold.
 *
 * <p>Lifecycle ({@link State}): {@code QUEUED} when enqueued → {@code RUNNING} when the simulation starts it (it is
 * the head of its stream, the previous operation ended, the events it waits for completed and virtual time reached
 * its enqueue time) → {@code COMPLETE} when it ends, which is when its data effect happens.
 *
 * <p>The sequence number orders operations by enqueue call across all streams; completions at the same virtual time
 * are processed in sequence order, which keeps the simulation deterministic.
 */
abstract sealed class Operation
        permits CopyOperation, KernelOperation, MigrationOperation, EventRecordOperation, EventWaitOperation,
        ClockHoldOperation {
    /** Where an operation is in its life; transitions are listed in the class comment. */
    enum State { QUEUED, RUNNING, COMPLETE }

    private final EmulatedStream stream;
    private final OperationLabel label;
    private long sequence = -1;
    private long enqueueNanos;
    private long startNanos;
    private long endNanos;
    private State state = State.QUEUED;

    Operation(EmulatedStream stream, OperationLabel label) {
        this.stream = stream;
        this.label = label;
    }

    /** Called once, when the operation joins its stream. */
    final void enqueued(long sequence, long enqueueNanos) {
        this.sequence = sequence;
        this.enqueueNanos = enqueueNanos;
    }

    final void started(long nanos) {
        state = State.RUNNING;
        startNanos = nanos;
    }

    final void completed(long nanos) {
        state = State.COMPLETE;
        endNanos = nanos;
    }

    final EmulatedStream stream() {
        return stream;
    }

    final OperationLabel label() {
        return label;
    }

    public final long sequence() {
        return sequence;
    }

    final long enqueueNanos() {
        return enqueueNanos;
    }

    final long startNanos() {
        return startNanos;
    }

    final long endNanos() {
        return endNanos;
    }

    final State state() {
        return state;
    }

    final boolean isComplete() {
        return state == State.COMPLETE;
    }

    /** Starts the operation at the simulation's current time by scheduling what ends it. */
    abstract void start(Simulation simulation);

    /** Performs the data effect and releases what the operation held; runs once, at completion. */
    abstract void finish();

    /** The timeline entry of a completed copy or kernel, or {@code null} for event records and waits. */
    TimedOperation timed() {
        return null;
    }
}
