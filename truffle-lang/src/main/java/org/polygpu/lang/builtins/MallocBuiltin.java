package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.RawMemory;

/**
 * {@code cudaMalloc(size)}: device memory of {@code size} bytes, as an array of unsigned bytes the scheduler tracks
 * (GrCUDA returns an opaque pointer; this one is also a device array: {@code cudaFree}, {@code cudaMemcpy} and kernel
 * parameters declared {@code pointer} or {@code pointer uint8} take it).
 */
final class MallocBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("cudaMalloc", 1, 1);

    private final PolygpuRuntime runtime;

    MallocBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        return RawMemory.malloc(runtime, GuestValues.integer(arguments[0], name(), "size"));
    }
}
