package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.objects.HandleObject;
import org.polygpu.lang.objects.NullObject;
import org.polygpu.lang.objects.RawMemory;

/**
 * {@code cudaMemcpy(dst, src, count[, kind])}: copies {@code count} bytes; each side is a device array (memory from
 * {@code cudaMalloc} included), a native address or a host array or buffer. The direction follows from the two sides,
 * as CUDA's {@code cudaMemcpyDefault} does; a {@code kind} (a {@code cudaMemcpyKind}, 0 to 4) is checked and
 * otherwise not needed. {@code cudaMemcpyAsync(dst, src, count, kind[, stream])} takes a stream made by
 * {@code cudaStreamCreate} (or none) and copies the same way: the copy waits for the work on its arrays and is done
 * when the call returns, which every later operation on any stream observes, as CUDA's stream order requires.
 */
final class MemcpyBuiltin implements Builtin {
    /** {@code cudaMemcpyDefault}, the largest {@code cudaMemcpyKind}. */
    private static final int MEMCPY_DEFAULT = 4;

    private final PolygpuRuntime runtime;
    private final BuiltinSignature signature;

    private MemcpyBuiltin(PolygpuRuntime runtime, BuiltinSignature signature) {
        this.runtime = runtime;
        this.signature = signature;
    }

    /** {@code cudaMemcpy(dst, src, count[, kind])}. */
    static MemcpyBuiltin memcpy(PolygpuRuntime runtime) {
        return new MemcpyBuiltin(runtime, new BuiltinSignature("cudaMemcpy", 3, 4,
                "cudaMemcpy(dst, src, count[, kind])", "Copies count bytes between device arrays, native "
                + "addresses and host arrays or buffers; the direction follows from the two sides, as with "
                + "cudaMemcpyDefault."));
    }

    /** {@code cudaMemcpyAsync(dst, src, count, kind[, stream])}. */
    static MemcpyBuiltin memcpyAsync(PolygpuRuntime runtime) {
        return new MemcpyBuiltin(runtime, new BuiltinSignature("cudaMemcpyAsync", 4, 5,
                "cudaMemcpyAsync(dst, src, count, kind[, stream])", "As cudaMemcpy; the copy is done when the "
                + "call returns."));
    }

    @Override
    public BuiltinSignature signature() {
        return signature;
    }

    @Override
    public Object call(Object[] arguments) {
        long count = GuestValues.integer(arguments[2], name(), "count");
        if (arguments.length > 3) {
            GuestValues.integer(arguments[3], name(), "kind", 0, MEMCPY_DEFAULT);
        }
        if (arguments.length > 4) {
            HandleObject.stream(arguments[4], name(), "stream");
        }
        RawMemory.memcpy(runtime, arguments[0], arguments[1], count);
        return NullObject.INSTANCE;
    }
}
