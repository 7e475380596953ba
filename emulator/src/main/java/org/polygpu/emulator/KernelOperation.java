package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;

/**
 * A kernel launch: runs for its modelled duration from its start, and runs the Java body over the whole grid when it
 * completes. Kernels on different streams of one device overlap freely.
 */
final class KernelOperation extends Operation {
    private final EmulatedFunction function;
    private final LaunchConfig config;
    private final Object[] arguments;
    private final long durationNanos;

    /** {@code arguments} are checked and owned by the operation; the buffers among them are retained. */
    KernelOperation(EmulatedStream stream, OperationLabel label, EmulatedFunction function, LaunchConfig config,
                    Object[] arguments, long durationNanos) {
        super(stream, label);
        this.function = function;
        this.config = config;
        this.arguments = arguments;
        this.durationNanos = durationNanos;
        for (Object a : arguments) {
            if (a instanceof EmulatedBuffer b) {
                b.retain();
            }
        }
    }

    @Override
    void start(Simulation simulation) {
        simulation.completeAt(this, simulation.now() + durationNanos);
    }

    @Override
    void finish() {
        int device = stream().device();
        try {
            function.body().run(new KernelContext(function.name(), config, device, arguments));
        } catch (IndexOutOfBoundsException e) {
            throw new BackendException("kernel '" + function.name() + "' on device " + device
                    + " accessed memory out of bounds: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new BackendException("kernel '" + function.name() + "' on device " + device + " failed: "
                    + e.getMessage(), e);
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
