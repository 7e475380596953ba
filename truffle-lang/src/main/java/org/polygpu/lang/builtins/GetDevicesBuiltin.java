package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.DeviceObject;
import org.polygpu.lang.objects.ListObject;

/** {@code getdevices()}: the devices in use, as a list of device objects. */
final class GetDevicesBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("getdevices", 0, 0,
            "getdevices()", "The devices in use, as a list of device objects.");

    private final PolygpuRuntime runtime;

    GetDevicesBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        Object[] devices = new Object[runtime.deviceCount()];
        for (int i = 0; i < devices.length; i++) {
            devices[i] = new DeviceObject(runtime, i);
        }
        return new ListObject(devices);
    }
}
