package org.polygpu.sched;

import java.util.List;

import org.polygpu.array.ArrayAccess;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.Elements;
import org.polygpu.backend.Backend;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.backend.FunctionHandle;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.OperationLabel;

/**
 * Checks launch arguments against a kernel's signature before anything is scheduled, and enqueues the kernel on
 * its device: the module is loaded there on first use and each array is replaced by its replica on that device.
 */
final class Launches {
    private final Backend backend;
    private final DeviceProperties limits;

    /** Launch limits are checked against device 0; the devices of one backend share a model. */
    Launches(Backend backend) {
        this.backend = backend;
        this.limits = backend.deviceProperties(0);
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
                if (!(arg instanceof DeviceArray a)) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "' must be an array, got " + describe(arg));
                }
                if (a.isFreed()) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "': " + a + " was freed");
                }
                if (p.type() != null && p.type() != a.elementType()) {
                    throw new IllegalArgumentException("argument " + (i + 1) + " of kernel " + kernel.name()
                            + " for parameter '" + p + "' expects pointer " + p.type().cName() + ", got " + a);
                }
                bound[i] = a;
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

    /** The arrays of bound arguments with the access modes of their parameters. */
    ArrayAccess[] accesses(Kernel kernel, Object[] bound) {
        ArrayAccess[] out = new ArrayAccess[kernel.arrayParameterCount()];
        int n = 0;
        List<Parameter> params = kernel.parameters();
        for (int i = 0; i < bound.length; i++) {
            if (bound[i] instanceof DeviceArray a) {
                out[n++] = new ArrayAccess(a, params.get(i).access());
            }
        }
        return out;
    }

    /** Loads the kernel's module on every device, so a bad image or name fails before any launch. */
    void load(Kernel kernel, int deviceCount) {
        for (int d = 0; d < deviceCount; d++) {
            kernel.setFunction(d, backend.function(backend.loadModule(d, kernel.image()), kernel.name()));
        }
    }

    /** Enqueues the kernel of {@code c} on its stream, with arrays replaced by their replicas on its device. */
    void enqueue(Computation c, OperationLabel label) {
        int device = c.device();
        Kernel kernel = c.kernel;
        FunctionHandle f = kernel.function(device);
        Object[] args = c.arguments.clone();
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof DeviceArray a) {
                args[i] = a.deviceReplica(device);
            }
        }
        backend.launch(f, c.config, args, c.slot.handle, label);
    }

    private static String describe(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName() + " " + o;
    }
}
