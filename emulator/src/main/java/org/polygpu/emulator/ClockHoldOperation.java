package org.polygpu.emulator;

import org.polygpu.backend.OperationLabel;

/**
 * A hold of a stream until a virtual time ({@link org.polygpu.backend.VirtualTimeline#holdUntil}): a
 * zero-work operation that, once the work before it on its stream has ended, ends at the later of that moment and its
 * time, holding back everything after it on the stream. It stands for something outside the device (a message from
 * another process's device) that the stream must not run ahead of.
 */
final class ClockHoldOperation extends Operation {
    private final long untilNanos;

    ClockHoldOperation(EmulatedStream stream, long untilNanos) {
        super(stream, OperationLabel.NONE);
        this.untilNanos = untilNanos;
    }

    @Override
    void start(Simulation simulation) {
        simulation.completeAt(this, Math.max(simulation.now(), untilNanos));
    }

    @Override
    void finish() {
        // Ordering only; no data effect.
    }
}
