package org.polygpu.emulator;

import org.polygpu.backend.OperationLabel;

/**
 * A wait on an event point ({@code cuStreamWaitEvent}): a zero-duration operation that can start only once the
 * point captured when the wait was enqueued has completed, holding back everything after it on its stream.
 */
final class EventWaitOperation extends Operation {
    private final EventRecordOperation point;

    EventWaitOperation(EmulatedStream stream, EventRecordOperation point) {
        super(stream, OperationLabel.NONE);
        this.point = point;
    }

    EventRecordOperation point() {
        return point;
    }

    @Override
    void start(Simulation simulation) {
        simulation.completeAt(this, simulation.now());
    }

    @Override
    void finish() {
        // Ordering only; no data effect.
    }
}
