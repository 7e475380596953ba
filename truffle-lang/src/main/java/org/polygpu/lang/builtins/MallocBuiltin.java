package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.RawMemory;

/**
 * {@code cudaMalloc(size)}: device memory of {@code size} bytes, as an array of unsigned bytes the scheduler tracks
 * (GrCUDA returns an opaque pointer; this one is also a device array: {@code cudaFree}, {@code cudaMemcpy} and kernel
 * parameters declared {@code pointer} or {@code pointer uint8} take it). {@code cudaMallocManaged(size[, flags])} is
 * the same: every array's replicas are managed by the scheduler, which copies them where they are used.
 */
final class MallocBuiltin implements Builtin {
    private final BuiltinSignature signature;
    private final PolygpuRuntime runtime;

    private MallocBuiltin(PolygpuRuntime runtime, BuiltinSignature signature) {
        this.runtime = runtime;
        this.signature = signature;
    }

    /** {@code cudaMalloc(size)}. */
    static MallocBuiltin malloc(PolygpuRuntime runtime) {
        return new MallocBuiltin(runtime, new BuiltinSignature("cudaMalloc", 1, 1,
                "cudaMalloc(size)", "An array of size unsigned bytes that the scheduler tracks; kernels declare it "
                + "pointer uint8, and cudaMemcpy and cudaFree take it."));
    }

    /** {@code cudaMallocManaged(size[, flags])}; the flags ({@code cudaMemAttachGlobal} or {@code Host}) are checked. */
    static MallocBuiltin managed(PolygpuRuntime runtime) {
        return new MallocBuiltin(runtime, new BuiltinSignature("cudaMallocManaged", 1, 2,
                "cudaMallocManaged(size[, flags])", "As cudaMalloc: polygpu places every array itself, whatever "
                + "the memory model."));
    }

    @Override
    public BuiltinSignature signature() {
        return signature;
    }

    @Override
    public Object call(Object[] arguments) {
        if (arguments.length > 1) {
            GuestValues.integer(arguments[1], name(), "flags", 1, 2); // cudaMemAttachGlobal, cudaMemAttachHost
        }
        return RawMemory.malloc(runtime, GuestValues.integer(arguments[0], name(), "size"));
    }
}
