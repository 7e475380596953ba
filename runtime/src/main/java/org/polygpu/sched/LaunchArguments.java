package org.polygpu.sched;

import java.util.List;

import org.polygpu.array.ArrayOffset;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.Elements;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.LaunchConfig;

/**
 * The binding of launch arguments to a kernel's signature: checks each argument and the launch configuration
 * before anything is scheduled, and converts scalars to the parameter types. This is the only validation of launch
 * arguments, for every caller (the language only unwraps guest values), so its messages are the ones users see. The launch itself is a
 * {@link KernelLaunch}.
 */
final class LaunchArguments {
    private final DeviceProperties limits;

    /** @param limits the launch limits checked; the devices of one backend share a model, so device 0's serve */
    LaunchArguments(DeviceProperties limits) {
        this.limits = limits;
    }

    /**
     * Returns the arguments with scalars converted to the parameter types.
     *
     * @throws IllegalArgumentException naming the parameter that does not match, or the bad launch configuration
     */
    Object[] bind(Kernel kernel, LaunchConfig config, Object[] args) {
        List<Parameter> params = kernel.parameters();
        if (args.length != params.size()) {
            throw new IllegalArgumentException("kernel " + kernel + " expects " + params.size() + " arguments, got "
                    + args.length);
        }
        checkConfig(kernel, config);
        Object[] bound = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            Parameter p = params.get(i);
            Object arg = args[i];
            if (p.pointer()) {
                DeviceArray a = arg instanceof ArrayOffset o ? o.array() : arg instanceof DeviceArray d ? d : null;
                if (a == null) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "' must be a device array, got " + Elements.describe(arg));
                }
                if (a.isFreed()) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "': " + a + " was freed");
                }
                if (p.type() != null && p.type() != a.elementType()) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "' expects pointer " + p.type().cName() + ", got " + a);
                }
                bound[i] = arg;
            } else {
                try {
                    bound[i] = Elements.toKernelScalar(arg, p.type());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "': " + e.getMessage(), e);
                }
            }
        }
        return bound;
    }

    private void checkConfig(Kernel kernel, LaunchConfig config) {
        DeviceProperties props = limits;
        if (config.block().count() > props.maxThreadsPerBlock()) {
            throw new IllegalArgumentException("kernel " + kernel.name() + ": a block of " + config.block().count()
                    + " threads exceeds the device limit of " + props.maxThreadsPerBlock());
        }
        if (config.sharedMemoryBytes() > props.maxSharedMemoryPerBlock()) {
            throw new IllegalArgumentException("kernel " + kernel.name() + ": " + config.sharedMemoryBytes()
                    + " bytes of dynamic shared memory exceed the device limit of "
                    + props.maxSharedMemoryPerBlock());
        }
    }
}
