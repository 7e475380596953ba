package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.NullObject;

/**
 * CUDA's device functions as GrCUDA exposes them: {@code cudaSetDevice(k)} makes device k current (streams and events
 * are created there, and the {@code single-gpu} policy places computations there), {@code cudaGetDevice()} returns
 * it, and {@code cudaDeviceReset()} waits for all work and destroys the current device's streams and events (arrays
 * keep their contents, since polygpu owns their replicas).
 */
final class DeviceApiBuiltins {
    private DeviceApiBuiltins() {
    }

    static List<Builtin> create(PolygpuRuntime runtime) {
        return List.of(
                FunctionBuiltin.of("cudaSetDevice", 1, 1, args -> {
                    int device = GuestValues.integer(args[0], "cudaSetDevice", "device", 0,
                            runtime.deviceCount() - 1);
                    runtime.streams().setCurrentDevice(device);
                    return NullObject.INSTANCE;
                }),
                FunctionBuiltin.of("cudaGetDevice", 0, 0, args -> runtime.streams().currentDevice()),
                FunctionBuiltin.of("cudaDeviceReset", 0, 0, args -> {
                    runtime.streams().resetCurrentDevice();
                    return NullObject.INSTANCE;
                }));
    }
}
