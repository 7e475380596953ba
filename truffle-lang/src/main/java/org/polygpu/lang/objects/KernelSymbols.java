package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.builtins.BuiltinSignature;
import org.polygpu.lang.parser.TypeNames;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * A kernel's {@code setSymbol(name, type, values[, offset])}: CUDA's {@code cudaMemcpyToSymbol} for the module's
 * {@code __constant__} and {@code __device__} variables. {@code values} is one number or an array of numbers, each
 * stored as {@code type} (a NIDL or C type name); {@code offset} counts elements of that type from the variable's
 * start. The runtime orders the write after the kernel's pending launches and before its later ones.
 */
final class KernelSymbols {
    static final String MEMBER = "setSymbol";
    static final BuiltinSignature SIGNATURE = new BuiltinSignature(MEMBER, 3, 4,
            "setSymbol(name, type, values[, offset])",
            "CUDA's cudaMemcpyToSymbol for the kernel module's __constant__ and __device__ variables: stores one "
            + "number or an array of numbers as type, offset in elements; waits for the kernel's pending launches, "
            + "writes on every device, and later launches see it. Each kernel has its own module.");

    private KernelSymbols() {
    }

    @TruffleBoundary
    static Object set(KernelObject kernel, Object[] args) {
        SIGNATURE.checkArity(args);
        String symbol = GuestValues.string(args[0], MEMBER, "name");
        ElementType type;
        try {
            type = TypeNames.elementType(GuestValues.string(args[1], MEMBER, "type"));
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(MEMBER + ": " + e.getMessage());
        }
        long offset = args.length == 4 ? GuestValues.integer(args[3], MEMBER, "offset") : 0;
        if (offset < 0) {
            throw PolygpuException.wrongType(MEMBER, "offset", "an element offset of at least 0",
                    Long.toString(offset));
        }
        MemorySegment bytes = bytes(args[2], type);
        kernel.runtime.writeSymbol(kernel.kernel, symbol, offset * type.bytes(), bytes);
        return kernel;
    }

    /** The values as {@code type}'s bytes, in memory aligned for any element type. */
    private static MemorySegment bytes(Object values, ElementType type) {
        InteropLibrary interop = InteropLibrary.getUncached(values);
        try {
            long count = interop.hasArrayElements(values) ? interop.getArraySize(values) : 1;
            long size = count * type.bytes();
            MemorySegment s = MemorySegment.ofArray(new long[(int) ((size + 7) / 8)]).asSlice(0, size);
            for (long i = 0; i < count; i++) {
                Object v = interop.hasArrayElements(values) ? interop.readArrayElement(values, i) : values;
                try {
                    Elements.set(s, type, i, GuestValues.toHost(v));
                } catch (IllegalArgumentException e) {
                    throw PolygpuException.badValue(MEMBER + ": value " + i + ": " + e.getMessage());
                }
            }
            return s;
        } catch (InteropException e) {
            throw PolygpuException.wrongType(MEMBER, "values", "a number or an array of numbers",
                    GuestValues.describe(values));
        }
    }
}
