package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.NullObject;
import org.polygpu.lang.objects.RawMemory;

/**
 * {@code cudaMemcpy(dst, src, count[, kind])}: copies {@code count} bytes; each side is a device array (memory from
 * {@code cudaMalloc} included), a native address or a host array or buffer. The direction follows from the two sides,
 * as CUDA's {@code cudaMemcpyDefault} does; a {@code kind} (a {@code cudaMemcpyKind}, 0 to 4) is checked and
 * otherwise not needed.
 */
final class MemcpyBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("cudaMemcpy", 3, 4);
    /** {@code cudaMemcpyDefault}, the largest {@code cudaMemcpyKind}. */
    private static final int MEMCPY_DEFAULT = 4;

    private final PolygpuRuntime runtime;

    MemcpyBuiltin(PolygpuRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        long count = GuestValues.integer(arguments[2], name(), "count");
        if (arguments.length > 3) {
            GuestValues.integer(arguments[3], name(), "kind", 0, MEMCPY_DEFAULT);
        }
        RawMemory.memcpy(runtime, arguments[0], arguments[1], count);
        return NullObject.INSTANCE;
    }
}
