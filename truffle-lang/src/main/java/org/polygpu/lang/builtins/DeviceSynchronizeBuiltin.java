package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.NullObject;

/** {@code cudaDeviceSynchronize()}: waits for every scheduled computation on every device. */
final class DeviceSynchronizeBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("cudaDeviceSynchronize", 0, 0,
            "cudaDeviceSynchronize()", "Waits for all work on every device.");

    private final PolygpuRuntime runtime;

    DeviceSynchronizeBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        runtime.synchronize();
        return NullObject.INSTANCE;
    }
}
