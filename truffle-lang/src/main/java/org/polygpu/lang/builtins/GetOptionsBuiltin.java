package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.OptionsObject;

/** {@code getoptions()}: the context's options by name. */
final class GetOptionsBuiltin implements Builtin {
    private final PolygpuRuntime runtime;

    GetOptionsBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String name() {
        return "getoptions";
    }

    @Override
    public Object call(Object[] arguments) {
        GuestValues.checkArity(name(), arguments, 0, 0);
        return new OptionsObject(runtime.options());
    }
}
