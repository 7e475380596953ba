package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.NullObject;

/** {@code cudaDeviceSynchronize()}: waits for every scheduled computation on every device. */
final class DeviceSynchronizeBuiltin implements Builtin {
    private final PolygpuRuntime runtime;

    DeviceSynchronizeBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String name() {
        return "cudaDeviceSynchronize";
    }

    @Override
    public Object call(Object[] arguments) {
        GuestValues.checkArity(name(), arguments, 0, 0);
        runtime.synchronize();
        return NullObject.INSTANCE;
    }
}
