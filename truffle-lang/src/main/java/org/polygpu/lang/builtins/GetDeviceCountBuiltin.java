package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;

/** {@code cudaGetDeviceCount()}: the number of devices in use. */
final class GetDeviceCountBuiltin implements Builtin {
    private final PolygpuRuntime runtime;

    GetDeviceCountBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String name() {
        return "cudaGetDeviceCount";
    }

    @Override
    public Object call(Object[] arguments) {
        GuestValues.checkArity(name(), arguments, 0, 0);
        return runtime.deviceCount();
    }
}
