package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * A kernel launch: when it starts, its {@link KernelExecution} says what it asks of the device
 * ({@link KernelDemand}); after the launch latency it executes on its device's {@link ComputeModel}, shared with the
 * kernels of the device's other streams, and the execution finishes when it completes. A fault found when it
 * finishes goes to {@link KernelFaults}, kept with the launch's computation. Managed memory the kernel touches away
 * from its device faults first ({@link PageFaults}): a PTX kernel's execution charges the pages it touched, other
 * kernels are charged here for all of each managed argument.
 */
final class KernelOperation extends Operation {
    private final KernelExecution execution;
    private final Object[] arguments;
    private final KernelFaults faults;
    private final PageFaults pageFaults;
    private KernelDemand demand;
    /** The fraction of its work still to do, and its execution time at the current sharing ({@link ComputeModel}). */
    private double remainingWork;
    private double sharedNanos;

    /** {@code arguments} are checked and owned by the operation; the buffers among them are retained. */
    KernelOperation(EmulatedStream stream, OperationLabel label, KernelExecution execution, Object[] arguments,
                    KernelFaults faults, PageFaults pageFaults) {
        super(stream, label);
        this.pageFaults = pageFaults;
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
        demand = execution.start();
        if (!(execution instanceof PtxExecution)) {
            demand = demand.delayedBy(pageFaults.faultWhole(arguments, stream().device()));
        }
        simulation.executeAt(this, simulation.now() + demand.latencyNanos());
    }

    /** What the kernel asks of its device; set when it starts. */
    KernelDemand demand() {
        return demand;
    }

    double remainingWork() {
        return remainingWork;
    }

    void remainingWork(double fraction) {
        remainingWork = fraction;
    }

    double sharedNanos() {
        return sharedNanos;
    }

    void sharedNanos(double nanos) {
        sharedNanos = nanos;
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
        KernelDemand d = demand == null ? KernelDemand.latencyOnly(0) : demand;
        return new TimedOperation(stream().device(), stream().id(), TimedOperation.Kind.KERNEL, label(), startNanos(),
                endNanos(), 0, stream().device(), d.aloneNanos(), (long) Math.floor(d.soloNanos() * d.share()));
    }
}
