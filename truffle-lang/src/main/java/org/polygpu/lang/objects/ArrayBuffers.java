package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InvalidBufferOffsetException;

/**
 * The byte-buffer view of a device array: each access checks the range, then reads or writes those bytes with one
 * runtime call (which waits for pending kernels and keeps the replicas coherent).
 */
final class ArrayBuffers {
    private ArrayBuffers() {
    }

    @TruffleBoundary
    private static MemorySegment get(PolygpuRuntime runtime, DeviceArray array, long offset, int length)
            throws InvalidBufferOffsetException {
        check(array, offset, length);
        MemorySegment bytes = MemorySegment.ofArray(new byte[length]);
        runtime.copyToHost(array, offset, bytes);
        return bytes;
    }

    @TruffleBoundary
    private static void put(PolygpuRuntime runtime, DeviceArray array, long offset, MemorySegment bytes)
            throws InvalidBufferOffsetException {
        check(array, offset, bytes.byteSize());
        runtime.copyFromHost(array, offset, bytes);
    }

    private static void check(DeviceArray array, long offset, long length) throws InvalidBufferOffsetException {
        ArrayObjects.checkLive(array);
        if (offset < 0 || length < 0 || offset > array.byteSize() - length) {
            throw InvalidBufferOffsetException.create(offset, length);
        }
    }

    @TruffleBoundary
    static void read(PolygpuRuntime runtime, DeviceArray array, long offset, byte[] destination, int destinationOffset,
            int length) throws InvalidBufferOffsetException {
        check(array, offset, length);
        runtime.copyToHost(array, offset, MemorySegment.ofArray(destination).asSlice(destinationOffset, length));
    }

    static byte readByte(PolygpuRuntime runtime, DeviceArray array, long offset) throws InvalidBufferOffsetException {
        return get(runtime, array, offset, 1).get(ValueLayout.JAVA_BYTE, 0);
    }

    static void writeByte(PolygpuRuntime runtime, DeviceArray array, long offset, byte value)
            throws InvalidBufferOffsetException {
        MemorySegment s = MemorySegment.ofArray(new byte[1]);
        s.set(ValueLayout.JAVA_BYTE, 0, value);
        put(runtime, array, offset, s);
    }

    static short readShort(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset)
            throws InvalidBufferOffsetException {
        return get(runtime, array, offset, 2).get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order), 0);
    }

    static void writeShort(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset, short value)
            throws InvalidBufferOffsetException {
        MemorySegment s = MemorySegment.ofArray(new byte[2]);
        s.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order), 0, value);
        put(runtime, array, offset, s);
    }

    static int readInt(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset)
            throws InvalidBufferOffsetException {
        return get(runtime, array, offset, 4).get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), 0);
    }

    static void writeInt(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset, int value)
            throws InvalidBufferOffsetException {
        MemorySegment s = MemorySegment.ofArray(new byte[4]);
        s.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), 0, value);
        put(runtime, array, offset, s);
    }

    static long readLong(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset)
            throws InvalidBufferOffsetException {
        return get(runtime, array, offset, 8).get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), 0);
    }

    static void writeLong(PolygpuRuntime runtime, DeviceArray array, ByteOrder order, long offset, long value)
            throws InvalidBufferOffsetException {
        MemorySegment s = MemorySegment.ofArray(new byte[8]);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), 0, value);
        put(runtime, array, offset, s);
    }
}
