package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.DeviceObject;
import org.polygpu.lang.objects.GuestValues;

/** {@code getdevice(k)}: device {@code k} of those in use. */
final class GetDeviceBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("getdevice", 1, 1,
            "getdevice(k)", "Device k, with its id, properties, isCurrent() and setCurrent().");

    private final PolygpuRuntime runtime;

    GetDeviceBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        int id = GuestValues.integer(arguments[0], name(), "device", 0, runtime.deviceCount() - 1);
        return new DeviceObject(runtime, id);
    }
}
