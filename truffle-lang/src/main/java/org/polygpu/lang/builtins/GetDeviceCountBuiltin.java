package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;

/** {@code cudaGetDeviceCount()}: the number of devices in use. */
final class GetDeviceCountBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("cudaGetDeviceCount", 0, 0,
            "cudaGetDeviceCount()", "The number of devices in use (NumberOfGPUs, or all the backend has).");

    private final PolygpuRuntime runtime;

    GetDeviceCountBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        return runtime.deviceCount();
    }
}
