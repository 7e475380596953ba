package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.NullObject;
import org.polygpu.lang.objects.RawMemory;

/**
 * {@code cudaFree(pointer)}: frees memory from {@code cudaMalloc} (or a device array) once the work using it finished.
 */
final class FreeBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("cudaFree", 1, 1,
            "cudaFree(p)", "Frees memory from cudaMalloc or cudaMallocManaged (or any array).");

    private final PolygpuRuntime runtime;

    FreeBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        RawMemory.free(runtime, arguments[0]);
        return NullObject.INSTANCE;
    }
}
