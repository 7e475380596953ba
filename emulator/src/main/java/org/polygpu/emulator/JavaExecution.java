package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;

/** A Java kernel: its declared duration, and its body run over the whole grid when the launch completes. */
record JavaExecution(EmulatedFunction.Java function, LaunchConfig config, int device, Object[] arguments,
                     long durationNanos) implements KernelExecution {
    @Override
    public long start() {
        return durationNanos;
    }

    @Override
    public void finish() {
        try {
            function.body().run(new KernelContext(function.name(), config, device, arguments));
        } catch (IndexOutOfBoundsException e) {
            throw new BackendException("kernel '" + function.name() + "' on device " + device
                    + " accessed memory out of bounds: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new BackendException("kernel '" + function.name() + "' on device " + device + " failed: "
                    + e.getMessage(), e);
        }
    }
}
