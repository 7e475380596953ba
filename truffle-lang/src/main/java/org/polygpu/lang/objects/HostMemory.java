package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuContext;
import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;

/**
 * Host values that are plain memory, as a {@link MemorySegment} a copy reads or writes at once: a Java primitive
 * array whose elements have the array's width, a Java {@link MemorySegment} or {@link ByteBuffer}, and a raw native
 * address (an integer, or a value that is an interop pointer), GrCUDA's {@code copyFrom(pointer, n)}.
 */
final class HostMemory {
    /** The lowest address accepted: the first page is never mapped. */
    private static final long FIRST_ADDRESS = 4096;

    private HostMemory() {
    }

    /**
     * The memory of a Java host value (primitive array of the array's element width, memory segment, byte buffer),
     * else null.
     */
    static MemorySegment javaMemory(Object value, ElementType type) {
        TruffleLanguage.Env env = PolygpuContext.get(null).env();
        if (!env.isHostObject(value)) {
            return null;
        }
        return switch (env.asHostObject(value)) {
            case byte[] a when type.bytes() == 1 && type != ElementType.BOOL -> MemorySegment.ofArray(a);
            case short[] a when type == ElementType.SHORT || type == ElementType.USHORT -> MemorySegment.ofArray(a);
            case int[] a when type == ElementType.INT || type == ElementType.UINT -> MemorySegment.ofArray(a);
            case long[] a when type == ElementType.LONG || type == ElementType.ULONG -> MemorySegment.ofArray(a);
            case float[] a when type == ElementType.FLOAT -> MemorySegment.ofArray(a);
            case double[] a when type == ElementType.DOUBLE -> MemorySegment.ofArray(a);
            case MemorySegment s -> s;
            case ByteBuffer b -> MemorySegment.ofBuffer(b);
            case null, default -> null;
        };
    }

    /** The bytes of a Java host value (any primitive array, memory segment, byte buffer), else null. */
    static MemorySegment javaBytes(Object value) {
        TruffleLanguage.Env env = PolygpuContext.get(null).env();
        if (!env.isHostObject(value)) {
            return null;
        }
        return switch (env.asHostObject(value)) {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case MemorySegment s -> s;
            case ByteBuffer b -> MemorySegment.ofBuffer(b);
            case null, default -> null;
        };
    }

    /**
     * The {@code bytes} bytes at a raw native address: an integer or an interop pointer (not a Java host object),
     * else null. The address must be readable (and, for {@code copyTo}, writable) for that many bytes, as for
     * CUDA's {@code cudaMemcpy}; polygpu cannot check that.
     */
    static MemorySegment pointer(Object value, long bytes, String member) {
        InteropLibrary interop = InteropLibrary.getUncached(value);
        long address;
        try {
            if (interop.isPointer(value)) {
                address = interop.asPointer(value);
            } else if (interop.isNumber(value) && interop.fitsInLong(value)) {
                address = interop.asLong(value);
            } else {
                return null;
            }
        } catch (UnsupportedMessageException e) {
            return null;
        }
        if (address < FIRST_ADDRESS) {
            // Null, negative, or in the page no mapping uses: a count or an index passed by mistake.
            throw PolygpuException.wrongType(member, "pointer", "a native address (or a device array, an array or a "
                    + "buffer)", Long.toString(address));
        }
        return MemorySegment.ofAddress(address).reinterpret(bytes);
    }
}
