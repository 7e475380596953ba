package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * A kernel launch: runs for the duration its {@link KernelExecution} gives when it starts, and lets the execution
 * finish when it completes. Kernels on different streams of one device overlap freely. A fault found when it
 * finishes goes to {@link KernelFaults}, kept with the launch's computation.
 */
final class KernelOperation extends Operation {
    private final KernelExecution execution;
    private final Object[] arguments;
    private final KernelFaults faults;

    /** {@code arguments} are checked and owned by the operation; the buffers among them are retained. */
    KernelOperation(EmulatedStream stream, OperationLabel label, KernelExecution execution, Object[] arguments,
                    KernelFaults faults) {
        super(stream, label);
        this.execution = execution;
        this.faults = faults;
        this.arguments = arguments;
        for (Object a : arguments) {
            if (a instanceof EmulatedBuffer b) {
                b.retain();
            }
        }
    }

    @Override
    void start(Simulation simulation) {
        simulation.completeAt(this, simulation.now() + execution.start());
    }

    @Override
    void finish() {
        try {
            execution.finish();
        } catch (BackendException e) {
            faults.record(label(), e);
        } finally {
            for (Object a : arguments) {
                if (a instanceof EmulatedBuffer b) {
                    b.release();
                }
            }
        }
    }

    @Override
    TimedOperation timed() {
        return new TimedOperation(stream().device(), stream().id(), TimedOperation.Kind.KERNEL, label(), startNanos(),
                endNanos(), 0, stream().device());
    }
}
