package org.polygpu.emulator;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The host's virtual clock and the ways the host spends time: an enqueue call costs the host API time, an event
 * query the poll time, and a blocking call waits for the simulation.
 *
 * <p>Invariant: the host is never behind the simulation ({@code simulation.now() <= nanos()}), so work enqueued now
 * cannot start in the simulated past, and everything the simulation has done up to the host's time is final.
 */
final class HostClock {
    private final Simulation simulation;
    private final long apiNanos;
    private final long pollNanos;
    private long nanos;
    private long nextSequence;

    HostClock(Simulation simulation, long apiNanos, long pollNanos) {
        this.simulation = simulation;
        this.apiNanos = apiNanos;
        this.pollNanos = pollNanos;
    }

    long nanos() {
        return nanos;
    }

    /** Enqueues {@code op} at the current host time, then charges the host API cost. */
    void enqueue(Operation op) {
        simulation.enqueue(op, nextSequence++, nanos);
        nanos += apiNanos;
    }

    /** Charges the host API cost of a call that enqueues nothing. */
    void apiCall() {
        nanos += apiNanos;
    }

    /** Brings the simulation up to the host's time without blocking. */
    void catchUp() {
        simulation.advanceTo(nanos);
    }

    /** Answers {@code complete} once the simulation caught up, charging the poll cost. */
    boolean poll(BooleanSupplier complete) {
        simulation.advanceTo(nanos);
        boolean answer = complete.getAsBoolean();
        nanos += pollNanos;
        return answer;
    }

    /** Blocks the host until {@code done}; the host clock then reads the time the simulation reached. */
    void block(BooleanSupplier done) {
        try {
            simulation.runUntil(done);
        } finally {
            nanos = Math.max(nanos, simulation.now());
        }
    }

    /** Moves the host's clock to {@code time} if it is behind, as if it had waited until then for something else. */
    void advanceTo(long time) {
        nanos = Math.max(nanos, time);
    }

    /** Back-pressure: blocks the host while a stream holds {@code maxPending} incomplete operations. */
    Consumer<EmulatedStream> backPressure(int maxPending) {
        return s -> {
            if (s.pendingCount() >= maxPending) {
                block(() -> s.pendingCount() < maxPending);
            }
        };
    }

    /** Blocks the host until all enqueued work completed. */
    void blockUntilIdle() {
        try {
            simulation.runAll();
        } finally {
            nanos = Math.max(nanos, simulation.now());
        }
    }
}
