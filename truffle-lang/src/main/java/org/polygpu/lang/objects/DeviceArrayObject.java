package org.polygpu.lang.objects;

import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.InvalidBufferOffsetException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A one-dimensional device array ({@code float[1000]}, {@code DeviceArray("float", 1000)}): readable and writable
 * elements with type checks and a byte buffer view for bulk access; the members are {@link ArrayObject}'s. Every
 * message makes one runtime call, which waits for the kernels the array depends on. After {@code free()} every
 * access fails, its size included.
 */
@ExportLibrary(InteropLibrary.class)
public final class DeviceArrayObject extends ArrayObject {
    DeviceArrayObject(PolygpuRuntime runtime, DeviceArray array) {
        super(runtime, array);
    }

    @Override
    boolean isWhole() {
        return true;
    }

    @Override
    String describe() {
        return "DeviceArray(" + array.elementType().cName() + ", " + array.elementCount()
                + (array.isFreed() ? ", freed)" : ")");
    }

    @ExportMessage
    long getArraySize() {
        checkLive();
        return array.elementCount();
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return !array.isFreed() && index >= 0 && index < array.elementCount();
    }

    @ExportMessage
    boolean isArrayElementModifiable(long index) {
        return isArrayElementReadable(index);
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        checkIndex(index);
        return ArrayObjects.toGuest(runtime.read(array, index), array.elementType());
    }

    @ExportMessage
    void writeArrayElement(long index, Object value) throws InvalidArrayIndexException {
        checkIndex(index);
        runtime.write(array, index, GuestValues.toHost(value));
    }

    private void checkIndex(long index) throws InvalidArrayIndexException {
        checkLive();
        if (index < 0 || index >= array.elementCount()) {
            throw InvalidArrayIndexException.create(index);
        }
    }

    @ExportMessage
    boolean hasBufferElements() {
        return true;
    }

    @ExportMessage
    boolean isBufferWritable() {
        return true;
    }

    @ExportMessage
    long getBufferSize() {
        checkLive();
        return array.byteSize();
    }

    @ExportMessage
    void readBuffer(long byteOffset, byte[] destination, int destinationOffset, int length)
            throws InvalidBufferOffsetException {
        ArrayBuffers.read(runtime, array, byteOffset, destination, destinationOffset, length);
    }

    @ExportMessage
    byte readBufferByte(long byteOffset) throws InvalidBufferOffsetException {
        return ArrayBuffers.readByte(runtime, array, byteOffset);
    }

    @ExportMessage
    void writeBufferByte(long byteOffset, byte value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeByte(runtime, array, byteOffset, value);
    }

    @ExportMessage
    short readBufferShort(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        return ArrayBuffers.readShort(runtime, array, order, byteOffset);
    }

    @ExportMessage
    void writeBufferShort(ByteOrder order, long byteOffset, short value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeShort(runtime, array, order, byteOffset, value);
    }

    @ExportMessage
    int readBufferInt(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        return ArrayBuffers.readInt(runtime, array, order, byteOffset);
    }

    @ExportMessage
    void writeBufferInt(ByteOrder order, long byteOffset, int value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeInt(runtime, array, order, byteOffset, value);
    }

    @ExportMessage
    long readBufferLong(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        return ArrayBuffers.readLong(runtime, array, order, byteOffset);
    }

    @ExportMessage
    void writeBufferLong(ByteOrder order, long byteOffset, long value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeLong(runtime, array, order, byteOffset, value);
    }

    @ExportMessage
    float readBufferFloat(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        return Float.intBitsToFloat(ArrayBuffers.readInt(runtime, array, order, byteOffset));
    }

    @ExportMessage
    void writeBufferFloat(ByteOrder order, long byteOffset, float value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeInt(runtime, array, order, byteOffset, Float.floatToRawIntBits(value));
    }

    @ExportMessage
    double readBufferDouble(ByteOrder order, long byteOffset) throws InvalidBufferOffsetException {
        return Double.longBitsToDouble(ArrayBuffers.readLong(runtime, array, order, byteOffset));
    }

    @ExportMessage
    void writeBufferDouble(ByteOrder order, long byteOffset, double value) throws InvalidBufferOffsetException {
        ArrayBuffers.writeLong(runtime, array, order, byteOffset, Double.doubleToRawLongBits(value));
    }
}
