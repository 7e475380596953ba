package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

/**
 * The elements of a device array that one side of a copy covers: {@code count} elements from element {@code first},
 * {@code stride} elements apart. A whole array and a row of a row-major array are contiguous (stride 1), one byte
 * range of the array, copied with one runtime call; a row of a column-major array is strided, and is copied through
 * the span of the array it crosses (read, then gathered or scattered element by element).
 */
record ArrayRegion(DeviceArray array, long first, long count, long stride) {
    static ArrayRegion whole(DeviceArray array) {
        return new ArrayRegion(array, 0, array.elementCount(), 1);
    }

    ElementType type() {
        return array.elementType();
    }

    int width() {
        return array.elementType().bytes();
    }

    boolean isWhole() {
        return first == 0 && count == array.elementCount();
    }

    private boolean isContiguous() {
        return stride == 1 || count <= 1;
    }

    /** Copies elements {@code from .. from + n} of the region into {@code dst} ({@code n} elements' bytes). */
    void read(PolygpuRuntime runtime, long from, MemorySegment dst) {
        long n = dst.byteSize() / width();
        if (n == 0) {
            return;
        }
        if (isContiguous()) {
            runtime.copyToHost(array, (first + from) * width(), dst);
            return;
        }
        MemorySegment span = span(from, n);
        runtime.copyToHost(array, (first + from * stride) * width(), span);
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(span, i * stride * width(), dst, i * width(), width());
        }
    }

    /** Copies {@code src} ({@code n} elements' bytes) over elements {@code from .. from + n} of the region. */
    void write(PolygpuRuntime runtime, long from, MemorySegment src) {
        long n = src.byteSize() / width();
        if (n == 0) {
            return;
        }
        if (isContiguous()) {
            runtime.copyFromHost(array, (first + from) * width(), src);
            return;
        }
        MemorySegment span = span(from, n);
        long offset = (first + from * stride) * width();
        runtime.copyToHost(array, offset, span);
        for (long i = 0; i < n; i++) {
            MemorySegment.copy(src, i * width(), span, i * stride * width(), width());
        }
        runtime.copyFromHost(array, offset, span);
    }

    /** A staging buffer for the part of the array that {@code n} strided elements from {@code from} cross. */
    private MemorySegment span(long from, long n) {
        long bytes = ((n - 1) * stride + 1) * width();
        if (bytes > Integer.MAX_VALUE) {
            throw PolygpuException.badValue("cannot copy " + n + " elements " + stride + " apart in " + array
                    + " at once: the span is " + bytes + " bytes");
        }
        return MemorySegment.ofArray(new byte[(int) bytes]);
    }

    @Override
    public String toString() {
        return isWhole() ? array.toString() : "elements " + first + ".." + (first + (count - 1) * stride) + " (stride "
                + stride + ") of " + array;
    }
}
