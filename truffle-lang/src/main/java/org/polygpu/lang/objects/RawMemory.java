package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuLanguage;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * CUDA's raw memory functions as GrCUDA exposes them ({@code cudaMalloc}, {@code cudaFree}, {@code cudaMemcpy}), over
 * arrays the scheduler tracks: {@code cudaMalloc(n)} is an array of {@code n} unsigned bytes, so its copies and the
 * kernels that use it are ordered and kept coherent like any array's. {@code cudaMemcpy} copies bytes between any two
 * of: device arrays (from the first byte), raw native addresses, Java arrays, segments and buffers, and other
 * languages' buffers.
 */
public final class RawMemory {
    private static final String MEMCPY = "cudaMemcpy";
    private static final int CHUNK_BYTES = 1 << 24;

    private RawMemory() {
    }

    /** {@code cudaMalloc(bytes)}: a zero-filled array of {@code bytes} unsigned bytes. */
    public static Object malloc(PolygpuRuntime runtime, long bytes) {
        if (bytes < 1) {
            throw PolygpuException.wrongType("cudaMalloc", "size", "a size in bytes of at least 1",
                    Long.toString(bytes));
        }
        return ArrayObjects.allocate(runtime, ElementType.UCHAR, new long[] {bytes}, false);
    }

    /** {@code cudaFree(pointer)}: frees memory from {@code cudaMalloc}, or any whole device array. */
    public static void free(PolygpuRuntime runtime, Object pointer) {
        DeviceArray array = ArrayObjects.unwrap(pointer);
        if (array == null) {
            throw PolygpuException.wrongType("cudaFree", "pointer", "memory from cudaMalloc or a device array",
                    GuestValues.describe(pointer));
        }
        ArrayObjects.checkLive(array);
        runtime.free(array);
    }

    /** {@code cudaMemcpy(dst, src, bytes)}: copies the first {@code bytes} bytes of {@code src} to {@code dst}. */
    public static void memcpy(PolygpuRuntime runtime, Object dst, Object src, long bytes) {
        if (bytes < 0) {
            throw PolygpuException.wrongType(MEMCPY, "count", "a number of bytes of at least 0", Long.toString(bytes));
        }
        DeviceArray to = ArrayObjects.unwrap(dst);
        DeviceArray from = ArrayObjects.unwrap(src);
        checkDevice(to, bytes, "dst");
        checkDevice(from, bytes, "src");
        if (to != null && from != null) {
            if (to != from && bytes == to.byteSize() && bytes == from.byteSize()) {
                runtime.copy(from, to);
                return;
            }
            for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                MemorySegment chunk = MemorySegment.ofArray(new byte[(int) Math.min(CHUNK_BYTES, bytes - off)]);
                runtime.copyToHost(from, off, chunk);
                runtime.copyFromHost(to, off, chunk);
            }
        } else if (to != null) {
            MemorySegment host = plain(src, bytes, "src");
            if (host != null) {
                runtime.copyFromHost(to, 0, host);
                return;
            }
            fromBuffer(runtime, to, src, bytes);
        } else if (from != null) {
            MemorySegment host = plain(dst, bytes, "dst");
            if (host != null) {
                checkWritable(host, dst);
                runtime.copyToHost(from, 0, host);
                return;
            }
            toBuffer(runtime, from, dst, bytes);
        } else {
            MemorySegment in = plain(src, bytes, "src");
            MemorySegment out = plain(dst, bytes, "dst");
            if (in == null || out == null) {
                throw PolygpuException.badValue(MEMCPY + ": between two host values, both must be native addresses "
                        + "or Java arrays, segments or buffers");
            }
            checkWritable(out, dst);
            MemorySegment.copy(in, 0, out, 0, bytes);
        }
    }

    private static void checkDevice(DeviceArray array, long bytes, String parameter) {
        if (array == null) {
            return;
        }
        ArrayObjects.checkLive(array);
        if (bytes > array.byteSize()) {
            throw PolygpuException.badValue(MEMCPY + ": cannot copy " + bytes + " bytes with " + parameter + " " + array
                    + " of " + array.byteSize() + " bytes");
        }
    }

    /** The first {@code bytes} bytes of a plain-memory host value (Java memory or a raw address), else null. */
    private static MemorySegment plain(Object value, long bytes, String parameter) {
        MemorySegment s = HostMemory.javaBytes(value);
        if (s == null) {
            s = HostMemory.pointer(value, bytes, MEMCPY);
        }
        if (s != null && s.byteSize() < bytes) {
            throw PolygpuException.badValue(MEMCPY + ": " + parameter + " holds " + s.byteSize() + " bytes, " + bytes
                    + " are needed");
        }
        return s == null ? null : s.asSlice(0, bytes);
    }

    private static void checkWritable(MemorySegment host, Object value) {
        if (host.isReadOnly()) {
            throw PolygpuException.badValue(MEMCPY + ": the destination " + GuestValues.describe(value)
                    + " is read-only");
        }
    }

    private static void fromBuffer(PolygpuRuntime runtime, DeviceArray to, Object src, long bytes) {
        InteropLibrary interop = InteropLibrary.getUncached(src);
        try {
            if (!interop.hasBufferElements(src)) {
                throw PolygpuException.wrongType(MEMCPY, "src", "a device array, a buffer or a pointer",
                        GuestValues.describe(src));
            }
            if (interop.getBufferSize(src) < bytes) {
                throw PolygpuException.badValue(MEMCPY + ": src holds " + interop.getBufferSize(src) + " bytes, "
                        + bytes + " are needed");
            }
            for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, bytes - off)];
                interop.readBuffer(src, off, chunk, 0, chunk.length);
                runtime.copyFromHost(to, off, MemorySegment.ofArray(chunk));
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue(MEMCPY + ": cannot read src: " + e.getMessage());
        }
    }

    private static void toBuffer(PolygpuRuntime runtime, DeviceArray from, Object dst, long bytes) {
        InteropLibrary interop = InteropLibrary.getUncached(dst);
        try {
            if (!interop.hasBufferElements(dst) || !interop.isBufferWritable(dst)) {
                throw PolygpuException.wrongType(MEMCPY, "dst", "a device array, a writable buffer or a pointer",
                        GuestValues.describe(dst));
            }
            if (interop.getBufferSize(dst) < bytes) {
                throw PolygpuException.badValue(MEMCPY + ": dst holds " + interop.getBufferSize(dst) + " bytes, "
                        + bytes + " are needed");
            }
            byte[] chunk = new byte[(int) Math.min(CHUNK_BYTES, bytes)];
            for (long off = 0; off < bytes; off += CHUNK_BYTES) {
                int n = (int) Math.min(CHUNK_BYTES, bytes - off);
                runtime.copyToHost(from, off, MemorySegment.ofArray(chunk).asSlice(0, n));
                BufferWriter.write(PolygpuLanguage.get(null).bufferWriter(dst), dst, chunk, 0, n, off);
            }
        } catch (InteropException e) {
            throw PolygpuException.badValue(MEMCPY + ": cannot write dst: " + e.getMessage());
        }
    }
}
