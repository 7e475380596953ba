package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.ElementType;
import org.polygpu.array.Elements;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuLanguage;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * The bulk copies behind {@code copyFrom} and {@code copyTo} between a region of a device array ({@link ArrayRegion}:
 * the whole array, or a row of a multi-dimensional one) and the other side, by the fastest path that side offers:
 * <ol>
 *   <li>another device array or row: a device-side copy when both are whole arrays, else through the host;</li>
 *   <li>plain memory ({@link HostMemory}): a Java primitive array of the element width, a {@code MemorySegment} or
 *       {@code ByteBuffer}, a numpy array of the element type ({@link ArrayInterface}), a raw native address: one
 *       memory copy;</li>
 *   <li>another language's buffer whose elements have the array's width or are bytes (Python {@code array},
 *       {@code bytes}, {@code bytearray}, {@code memoryview}, JavaScript typed arrays and {@code ArrayBuffer}): the
 *       bulk {@code readBuffer} message for {@code copyFrom}, the compiled {@link BufferWriter} for {@code copyTo};</li>
 *   <li>any other array (a Python or JavaScript list): element by element, with the element type's checks.</li>
 * </ol>
 * Host data is staged in chunks of {@link #CHUNK_BYTES}.
 */
final class HostTransfers {
    private static final int CHUNK_BYTES = 1 << 24;

    private HostTransfers() {
    }

    static void copyFrom(PolygpuRuntime runtime, ArrayRegion dst, Object src, long count) {
        ArrayRegion other = ArrayObjects.region(src);
        if (other != null) {
            betweenDevices(runtime, other, dst, count, "copyFrom");
            return;
        }
        ElementType type = dst.type();
        long bytes = count * type.bytes();
        MemorySegment memory = memory(src, type, bytes, "copyFrom");
        if (memory != null) {
            checkSize("copyFrom", memory.byteSize() / type.bytes(), count, "elements");
            dst.write(runtime, 0, memory.asSlice(0, bytes));
            return;
        }
        InteropLibrary interop = InteropLibrary.getUncached(src);
        try {
            if (isRawBuffer(interop, src, type)) {
                checkSize("copyFrom", interop.getBufferSize(src), bytes, "bytes");
                for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                    byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, bytes - off)];
                    interop.readBuffer(src, off, chunk, 0, chunk.length);
                    dst.write(runtime, off / type.bytes(), MemorySegment.ofArray(chunk));
                }
            } else if (interop.hasArrayElements(src)) {
                checkSize("copyFrom", interop.getArraySize(src), count, "elements");
                long perChunk = CHUNK_BYTES / type.bytes();
                for (long first = 0; first < count; first += perChunk) {
                    int n = (int) Math.min(perChunk, count - first);
                    MemorySegment chunk = MemorySegment.ofArray(new byte[n * type.bytes()]);
                    for (int i = 0; i < n; i++) {
                        Object v = GuestValues.toHost(interop.readArrayElement(src, first + i));
                        setElement(chunk, type, i, v, first + i);
                    }
                    dst.write(runtime, first, chunk);
                }
            } else {
                throw PolygpuException.wrongType("copyFrom", "source", "a device array, an array, a buffer or a "
                        + "pointer", GuestValues.describe(src));
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue("copyFrom: cannot read the source: " + e.getMessage());
        }
    }

    static void copyTo(PolygpuRuntime runtime, ArrayRegion src, Object dst, long count) {
        ArrayRegion other = ArrayObjects.region(dst);
        if (other != null) {
            betweenDevices(runtime, src, other, count, "copyTo");
            return;
        }
        ElementType type = src.type();
        long bytes = count * type.bytes();
        MemorySegment memory = memory(dst, type, bytes, "copyTo");
        if (memory != null) {
            checkSize("copyTo", memory.byteSize() / type.bytes(), count, "elements");
            if (memory.isReadOnly()) {
                throw PolygpuException.badValue("copyTo: the destination " + GuestValues.describe(dst)
                        + " is read-only");
            }
            src.read(runtime, 0, memory.asSlice(0, bytes));
            return;
        }
        InteropLibrary interop = InteropLibrary.getUncached(dst);
        try {
            if (isRawBuffer(interop, dst, type) && interop.isBufferWritable(dst)) {
                checkSize("copyTo", interop.getBufferSize(dst), bytes, "bytes");
                byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, bytes)];
                for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                    int n = (int) Math.min(CHUNK_BYTES, bytes - off);
                    src.read(runtime, off / type.bytes(), MemorySegment.ofArray(chunk).asSlice(0, n));
                    BufferWriter.write(PolygpuLanguage.get(null).bufferWriter(dst), dst, chunk, 0, n, off);
                }
            } else if (interop.hasArrayElements(dst)) {
                long size = interop.getArraySize(dst);
                if (size < count && !interop.isArrayElementInsertable(dst, size)) {
                    checkSize("copyTo", size, count, "elements");
                }
                long perChunk = CHUNK_BYTES / type.bytes();
                for (long first = 0; first < count; first += perChunk) {
                    int n = (int) Math.min(perChunk, count - first);
                    MemorySegment chunk = MemorySegment.ofArray(new byte[n * type.bytes()]);
                    src.read(runtime, first, chunk);
                    for (int i = 0; i < n; i++) {
                        Object value = ArrayObjects.toGuest(Elements.get(chunk, type, i), type);
                        try {
                            interop.writeArrayElement(dst, first + i, value);
                        } catch (AbstractTruffleException e) {
                            if (first + i < size) {
                                throw e;
                            }
                            checkSize("copyTo", size, count, "elements");  // a list that said it grows, but did not
                        }
                    }
                }
            } else {
                throw PolygpuException.wrongType("copyTo", "destination", "a device array, an array, a writable "
                        + "buffer or a pointer", GuestValues.describe(dst));
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue("copyTo: cannot write the destination: " + e.getMessage());
        }
    }

    /**
     * Plain memory on the other side: a Java host value's, else a numpy array's ({@link ArrayInterface}), else a raw
     * address's, else null.
     */
    private static MemorySegment memory(Object value, ElementType type, long bytes, String member) {
        MemorySegment s = HostMemory.javaMemory(value, type);
        if (s == null) {
            s = ArrayInterface.memory(value, type);
        }
        return s != null ? s : HostMemory.pointer(value, bytes, member);
    }

    private static void betweenDevices(PolygpuRuntime runtime, ArrayRegion src, ArrayRegion dst, long count,
            String member) {
        ArrayObjects.checkLive(src.array());
        ArrayObjects.checkLive(dst.array());
        if (src.type() != dst.type()) {
            throw PolygpuException.badValue(member + ": " + src + " and " + dst + " have different element types");
        }
        if (count > Math.min(src.count(), dst.count())) {
            throw PolygpuException.badValue(member + ": cannot copy " + count + " elements between " + src + " and "
                    + dst);
        }
        if (src.isWhole() && dst.isWhole() && count == src.count() && count == dst.count()) {
            runtime.copy(src.array(), dst.array());
            return;
        }
        long perChunk = CHUNK_BYTES / src.width();
        for (long first = 0; first < count; first += perChunk) {
            int n = (int) Math.min(perChunk, count - first);
            MemorySegment chunk = MemorySegment.ofArray(new byte[n * src.width()]);
            src.read(runtime, first, chunk);
            dst.write(runtime, first, chunk);
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
}
