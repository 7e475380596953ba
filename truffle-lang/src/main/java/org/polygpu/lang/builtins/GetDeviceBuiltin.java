package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.DeviceObject;
import org.polygpu.lang.objects.GuestValues;

/** {@code getdevice(k)}: device {@code k} of those in use. */
final class GetDeviceBuiltin implements Builtin {
    private final PolygpuRuntime runtime;

    GetDeviceBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String name() {
        return "getdevice";
    }

    @Override
    public Object call(Object[] arguments) {
        GuestValues.checkArity(name(), arguments, 1, 1);
        int id = GuestValues.integer(arguments[0], name(), "device", 0, runtime.deviceCount() - 1);
        return new DeviceObject(runtime, id);
    }
}
