package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.backend.DeviceProperties;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.NullObject;

/**
 * CUDA's device functions as GrCUDA exposes them: {@code cudaSetDevice(k)} makes device k current (streams and events
 * are created there, and the {@code single-gpu} policy places computations there), {@code cudaGetDevice()} returns
 * it, and {@code cudaDeviceReset()} waits for all work and destroys the current device's streams and events (arrays
 * keep their contents, since polygpu owns their replicas). {@code cudaDeviceGetAttribute} answers the attributes
 * polygpu's devices describe; the peer-access and profiler functions check their arguments and, as polygpu manages
 * peer access itself and runs without a profiler, do nothing else.
 */
final class DeviceApiBuiltins {
    private DeviceApiBuiltins() {
    }

    static List<Builtin> create(PolygpuRuntime runtime) {
        return List.of(
                FunctionBuiltin.of("cudaSetDevice", 1, 1,
                        "cudaSetDevice(k)", "Makes device k current: streams and events are created on it, and "
                        + "DeviceSelectionPolicy=single-gpu places computations there.",
                        args -> {
                        int device = GuestValues.integer(args[0], "cudaSetDevice", "device", 0,
                                runtime.deviceCount() - 1);
                        runtime.streams().setCurrentDevice(device);
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaGetDevice", 0, 0,
                        "cudaGetDevice()", "The current device.",
                        args -> runtime.streams().currentDevice()),
                FunctionBuiltin.of("cudaDeviceReset", 0, 0,
                        "cudaDeviceReset()", "Waits for all work and destroys the current device's streams and events; "
                        + "arrays keep their contents.",
                        args -> {
                        runtime.streams().resetCurrentDevice();
                        return NullObject.INSTANCE;
                    }),
                FunctionBuiltin.of("cudaDeviceGetAttribute", 2, 2,
                        "cudaDeviceGetAttribute(attribute, device)",
                        "Attributes 1, 8, 10, 13, 16, 75 and 76 (threads per block, shared memory per "
                        + "block, warp size, clock, SMs, compute capability); others fail naming these.",
                        args -> attribute(runtime, args)),
                // polygpu enables peer access between the devices it uses itself, when it opens them.
                FunctionBuiltin.of("cudaDeviceEnablePeerAccess", 1, 2,
                        "cudaDeviceEnablePeerAccess(peer[, flags])",
                        "Checked, no effect: polygpu enables peer access between the devices it uses itself.",
                        args -> peer(runtime, args, "cudaDeviceEnablePeerAccess")),
                FunctionBuiltin.of("cudaDeviceDisablePeerAccess", 1, 1,
                        "cudaDeviceDisablePeerAccess(peer)", "Checked, no effect: polygpu manages peer access itself.",
                        args -> peer(runtime, args, "cudaDeviceDisablePeerAccess")),
                // Without a profiler attached, CUDA's profiler functions do nothing; none is ever attached here.
                FunctionBuiltin.of("cudaProfilerStart", 0, 0,
                        "cudaProfilerStart()", "No effect, as in CUDA without a profiler attached.",
                        args -> NullObject.INSTANCE),
                FunctionBuiltin.of("cudaProfilerStop", 0, 0,
                        "cudaProfilerStop()", "No effect, as in CUDA without a profiler attached.",
                        args -> NullObject.INSTANCE));
    }

    /** {@code cudaDeviceGetAttribute(attribute, device)}: the attributes polygpu's devices describe. */
    private static Object attribute(PolygpuRuntime runtime, Object[] args) {
        String function = "cudaDeviceGetAttribute";
        int code = GuestValues.integer(args[0], function, "attribute", 0, Integer.MAX_VALUE);
        int device = GuestValues.integer(args[1], function, "device", 0, runtime.deviceCount() - 1);
        DeviceProperties p = runtime.deviceProperties(device);
        return switch (code) {
            case 1 -> p.maxThreadsPerBlock();
            case 8 -> p.maxSharedMemoryPerBlock();
            case 10 -> p.warpSize();
            case 13 -> p.clockKhz();
            case 16 -> p.multiprocessors();
            case 75 -> p.computeMajor();
            case 76 -> p.computeMinor();
            default -> throw PolygpuException.badValue(function + ": attribute " + code + " is not one polygpu "
                    + "describes; it has 1 (cudaDevAttrMaxThreadsPerBlock), 8 (cudaDevAttrMaxSharedMemoryPerBlock), "
                    + "10 (cudaDevAttrWarpSize), 13 (cudaDevAttrClockRate), 16 (cudaDevAttrMultiProcessorCount), "
                    + "75 (cudaDevAttrComputeCapabilityMajor) and 76 (cudaDevAttrComputeCapabilityMinor)");
        };
    }

    /** Checks the peer device (and CUDA's flags, which must be 0); polygpu manages peer access itself. */
    private static Object peer(PolygpuRuntime runtime, Object[] args, String function) {
        GuestValues.integer(args[0], function, "peerDevice", 0, runtime.deviceCount() - 1);
        if (args.length == 2) {
            GuestValues.integer(args[1], function, "flags", 0, 0);
        }
        return NullObject.INSTANCE;
    }
}
