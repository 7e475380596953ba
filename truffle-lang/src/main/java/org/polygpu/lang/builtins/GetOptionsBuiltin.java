package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.OptionsObject;

/** {@code getoptions()}: the context's options by name, {@code NumberOfGPUs} as the number of GPUs in use. */
final class GetOptionsBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("getoptions", 0, 0,
            "getoptions()", "The context's options: entries (\"polygpu.Name\", value) with values as strings, "
            + "members also by short name.");

    private final PolygpuRuntime runtime;

    GetOptionsBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        return new OptionsObject(runtime.options(), runtime.deviceCount());
    }
}
