package org.polygpu.sched;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.backend.LaunchConfig;
import org.polygpu.backend.ModuleImage;
import org.polygpu.backend.testing.NoWorkBackend;
import org.polygpu.config.RuntimeConfig;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.topology.BandwidthMatrixLoader;

/**
 * Execution contexts on a {@link NoWorkBackend} for the scheduler's tests, in the spirit of GrCUDA's mock execution
 * context: the scheduler takes every decision (DAG, streams, coherence, retirement) and the backend runs nothing.
 * Kernels take float arrays with the given access modes and an {@code int n}.
 */
final class NoWorkContexts {
    /** An in-flight window no test reaches: work finishes only at a synchronize or a host wait. */
    static final int NOTHING_FINISHES = 1 << 20;
    static final int ELEMENTS = 64;
    private static final LaunchConfig LAUNCH = LaunchConfig.of(1, 32);

    private NoWorkContexts() {
    }

    /** The defaults with {@link RotatingPolicy} picking devices. */
    static RuntimeConfig config() {
        return RuntimeConfig.defaults().withDeviceSelectionPolicy(RotatingPolicy.NAME);
    }

    /** A context over all devices of {@code backend}, with the {@code v100x8} matrix restricted to them. */
    static ExecutionContext open(NoWorkBackend backend, RuntimeConfig config) {
        return ExecutionContext.create(backend, config, BandwidthMatrixLoader.preset("v100x8"));
    }

    /** A kernel {@code name(float* p0, ..., int n)} whose pointers have the given access modes. */
    static Kernel kernel(ExecutionContext ctx, String name, Access... pointers) {
        List<Parameter> params = new ArrayList<>();
        for (int i = 0; i < pointers.length; i++) {
            params.add(Parameter.pointer("p" + i, ElementType.FLOAT, pointers[i]));
        }
        params.add(Parameter.scalar("n", ElementType.INT));
        return ctx.kernel(name, new ModuleImage.Ptx("// the no-work backend runs nothing"), params);
    }

    /** Launches {@code kernel} on {@code arrays} and {@code n}. */
    static Computation launch(ExecutionContext ctx, Kernel kernel, DeviceArray... arrays) {
        Object[] args = new Object[arrays.length + 1];
        System.arraycopy(arrays, 0, args, 0, arrays.length);
        args[arrays.length] = ELEMENTS;
        return ctx.launch(kernel, LAUNCH, args);
    }

    static DeviceArray array(ExecutionContext ctx) {
        return ctx.newArray(ElementType.FLOAT, ELEMENTS);
    }

    /** The locations holding a valid copy of {@code array}: device numbers, then {@code host}, space-separated. */
    static String valid(ExecutionContext ctx, DeviceArray array) {
        LocationSet valid = array.coherence().validLocations();
        List<String> where = new ArrayList<>();
        for (int d = 0; d < ctx.deviceCount(); d++) {
            if (valid.contains(d)) {
                where.add(Integer.toString(d));
            }
        }
        if (valid.contains(ctx.deviceCount())) {
            where.add("host");
        }
        return String.join(" ", where);
    }

    /** Device and stream of {@code c}, as {@code "device:stream"}. */
    static String where(Computation c) {
        return c.device() + ":" + c.streamId();
    }
}
