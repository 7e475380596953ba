package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.lang.PolygpuContext;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * The bulk copies behind {@code copyFrom} and {@code copyTo}, choosing the fastest path the other side offers:
 * another device array (a device-side copy, or through the host for a part); a Java primitive array of the same
 * element width (its memory directly); a host buffer whose elements have the array's width or are bytes, such as a
 * Python {@code memoryview}/{@code array}/{@code bytes} or a JavaScript typed array (bulk buffer messages); else any
 * array-like, element by element with the element type's range checks. Host data is staged in chunks.
 */
final class HostTransfers {
    private static final int CHUNK_BYTES = 1 << 24;

    private HostTransfers() {
    }

    static void copyFrom(PolygpuRuntime runtime, DeviceArray dst, Object src, long count) {
        DeviceArray other = ArrayObjects.unwrap(src);
        if (other != null) {
            betweenDevices(runtime, other, dst, count, "copyFrom");
            return;
        }
        long bytes = count * dst.elementType().bytes();
        Object host = javaArray(src, dst.elementType());
        if (host != null) {
            runtime.copyFromHost(dst, 0, segment(host, count, dst.elementType(), "copyFrom").asSlice(0, bytes));
            return;
        }
        InteropLibrary interop = InteropLibrary.getUncached(src);
        try {
            if (isRawBuffer(interop, src, dst.elementType())) {
                checkSize("copyFrom", interop.getBufferSize(src), bytes, "bytes");
                for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                    byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, bytes - off)];
                    interop.readBuffer(src, off, chunk, 0, chunk.length);
                    runtime.copyFromHost(dst, off, MemorySegment.ofArray(chunk));
                }
            } else if (interop.hasArrayElements(src)) {
                checkSize("copyFrom", interop.getArraySize(src), count, "elements");
                ElementType type = dst.elementType();
                long perChunk = CHUNK_BYTES / type.bytes();
                for (long first = 0; first < count; first += perChunk) {
                    int n = (int) Math.min(perChunk, count - first);
                    MemorySegment chunk = MemorySegment.ofArray(new byte[n * type.bytes()]);
                    for (int i = 0; i < n; i++) {
                        Object v = GuestValues.toHost(interop.readArrayElement(src, first + i));
                        setElement(chunk, type, i, v, first + i);
                    }
                    runtime.copyFromHost(dst, first * type.bytes(), chunk);
                }
            } else {
                throw PolygpuException.wrongType("copyFrom", "source", "a device array, an array or a buffer",
                        GuestValues.describe(src));
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue("copyFrom: cannot read the source: " + e.getMessage());
        }
    }

    static void copyTo(PolygpuRuntime runtime, DeviceArray src, Object dst, long count) {
        DeviceArray other = ArrayObjects.unwrap(dst);
        if (other != null) {
            betweenDevices(runtime, src, other, count, "copyTo");
            return;
        }
        ElementType type = src.elementType();
        long bytes = count * type.bytes();
        Object host = javaArray(dst, type);
        if (host != null) {
            runtime.copyToHost(src, 0, segment(host, count, type, "copyTo").asSlice(0, bytes));
            return;
        }
        InteropLibrary interop = InteropLibrary.getUncached(dst);
        try {
            if (isRawBuffer(interop, dst, type) && interop.isBufferWritable(dst)) {
                checkSize("copyTo", interop.getBufferSize(dst), bytes, "bytes");
                for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                    int n = (int) Math.min(CHUNK_BYTES, bytes - off);
                    MemorySegment chunk = MemorySegment.ofArray(new byte[n]);
                    runtime.copyToHost(src, off, chunk);
                    writeBytes(interop, dst, off, chunk);
                }
            } else if (interop.hasArrayElements(dst)) {
                checkSize("copyTo", interop.getArraySize(dst), count, "elements");
                long perChunk = CHUNK_BYTES / type.bytes();
                for (long first = 0; first < count; first += perChunk) {
                    int n = (int) Math.min(perChunk, count - first);
                    MemorySegment chunk = MemorySegment.ofArray(new byte[n * type.bytes()]);
                    runtime.copyToHost(src, first * type.bytes(), chunk);
                    for (int i = 0; i < n; i++) {
                        interop.writeArrayElement(dst, first + i, ArrayObjects.toGuest(Elements.get(chunk, type, i),
                                type));
                    }
                }
            } else {
                throw PolygpuException.wrongType("copyTo", "destination", "a device array, an array or a buffer",
                        GuestValues.describe(dst));
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue("copyTo: cannot write the destination: " + e.getMessage());
        }
    }

    private static void betweenDevices(PolygpuRuntime runtime, DeviceArray src, DeviceArray dst, long count,
            String member) {
        ArrayObjects.checkLive(src);
        ArrayObjects.checkLive(dst);
        if (src.elementType() != dst.elementType()) {
            throw PolygpuException.badValue(member + ": " + src + " and " + dst + " have different element types");
        }
        long max = Math.min(src.elementCount(), dst.elementCount());
        if (count > max) {
            throw PolygpuException.badValue(member + ": cannot copy " + count + " elements between " + src + " and "
                    + dst);
        }
        if (count == src.elementCount() && count == dst.elementCount()) {
            runtime.copy(src, dst);
            return;
        }
        long bytes = count * src.elementType().bytes();
        for (long off = 0; off < bytes; off += CHUNK_BYTES) {
            MemorySegment chunk = MemorySegment.ofArray(new byte[(int) Math.min(CHUNK_BYTES, bytes - off)]);
            runtime.copyToHost(src, off, chunk);
            runtime.copyFromHost(dst, off, chunk);
        }
    }

    /**
     * Whether the host value's buffer holds the array's raw bytes: it has a buffer, and either no array view, an
     * array view of the same element width, or a byte-per-element view (Python {@code array} and {@code bytes}).
     */
    private static boolean isRawBuffer(InteropLibrary interop, Object value, ElementType type)
            throws InteropException {
        if (!interop.hasBufferElements(value)) {
            return false;
        }
        if (!interop.hasArrayElements(value)) {
            return true;
        }
        long elements = interop.getArraySize(value);
        long bytes = interop.getBufferSize(value);
        return elements * type.bytes() == bytes || elements == bytes;
    }

    private static void writeBytes(InteropLibrary interop, Object dst, long offset, MemorySegment chunk)
            throws InteropException {
        long n = chunk.byteSize();
        long i = 0;
        for (; i + 8 <= n; i += 8) {
            interop.writeBufferLong(dst, ByteOrder.LITTLE_ENDIAN, offset + i,
                    chunk.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i));
        }
        for (; i < n; i++) {
            interop.writeBufferByte(dst, offset + i, chunk.get(ValueLayout.JAVA_BYTE, i));
        }
    }

    private static void setElement(MemorySegment chunk, ElementType type, int index, Object value, long position) {
        try {
            Elements.set(chunk, type, index, value);
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue("copyFrom: element " + position + ": " + e.getMessage());
        }
    }

    private static void checkSize(String member, long available, long needed, String unit) {
        if (available < needed) {
            throw PolygpuException.badValue(member + ": the host side holds " + available + " " + unit + ", "
                    + needed + " are needed");
        }
    }

    /** The Java primitive array behind a host value when its element width matches {@code type}, else null. */
    private static Object javaArray(Object value, ElementType type) {
        TruffleLanguage.Env env = PolygpuContext.get(null).env();
        if (!env.isHostObject(value)) {
            return null;
        }
        Object host = env.asHostObject(value);
        boolean matches = switch (host) {
            case byte[] a -> type.bytes() == 1 && type != ElementType.BOOL;
            case short[] a -> type == ElementType.SHORT || type == ElementType.USHORT;
            case int[] a -> type == ElementType.INT || type == ElementType.UINT;
            case long[] a -> type == ElementType.LONG || type == ElementType.ULONG;
            case float[] a -> type == ElementType.FLOAT;
            case double[] a -> type == ElementType.DOUBLE;
            case null, default -> false;
        };
        return matches ? host : null;
    }

    private static MemorySegment segment(Object host, long count, ElementType type, String member) {
        MemorySegment s = switch (host) {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalStateException("not a primitive array: " + host);
        };
        checkSize(member, s.byteSize() / type.bytes(), count, "elements");
        return s;
    }
}
