package org.polygpu.emulator;

import org.polygpu.backend.BackendException;
import org.polygpu.backend.LaunchConfig;

/**
 * A Java kernel: its demand, from its declared cost (it can use the whole device), and its body run over the whole
 * grid when the launch completes.
 */
record JavaExecution(EmulatedFunction.Java function, LaunchConfig config, int device, Object[] arguments,
                     KernelDemand demand) implements KernelExecution {
    @Override
    public KernelDemand start() {
        return demand;
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
