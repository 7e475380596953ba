package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.backend.OperationLabel;

/**
 * The point an event marks in a stream: a zero-duration operation that completes when everything enqueued before it
 * on the stream has. Streams whose head waits for it register here and are woken when it completes.
 */
final class EventRecordOperation extends Operation {
    private List<EmulatedStream> waiters;

    EventRecordOperation(EmulatedStream stream) {
        super(stream, OperationLabel.NONE);
    }

    @Override
    void start(Simulation simulation) {
        simulation.completeAt(this, simulation.now());
    }

    @Override
    void finish() {
        // An event marks a point in time; it has no data effect.
    }

    /** {@code stream}'s head waits for this point; it is woken by {@link #takeWaiters()}. */
    void addWaiter(EmulatedStream stream) {
        if (waiters == null) {
            waiters = new ArrayList<>(2);
        }
        waiters.add(stream);
    }

    /** The streams waiting for this point, in registration order; clears the list. */
    List<EmulatedStream> takeWaiters() {
        List<EmulatedStream> w = waiters == null ? List.of() : waiters;
        waiters = null;
        return w;
    }
}
