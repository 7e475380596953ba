package org.polygpu.lang.objects;

import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.InvalidBufferOffsetException;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A one-dimensional device array ({@code float[1000]}, {@code DeviceArray("float", 1000)}): readable and writable
 * elements with type checks, a byte buffer view for bulk access, and the members {@code copyFrom}, {@code copyTo},
 * {@code free} and {@code isMemoryFreed}. Every message makes one runtime call, which waits for the kernels the
 * array depends on. After {@code free()} every access fails, its size included.
 */
@ExportLibrary(InteropLibrary.class)
public final class DeviceArrayObject extends GuestObject {
    final PolygpuRuntime runtime;
    final DeviceArray array;

    DeviceArrayObject(PolygpuRuntime runtime, DeviceArray array) {
        this.runtime = runtime;
        this.array = array;
    }

    @ExportMessage
    boolean hasArrayElements() {
        return true;
    }

    @ExportMessage
    long getArraySize() {
        ArrayObjects.checkLive(array);
        return array.elementCount();
    }

    @ExportMessage(name = "isArrayElementReadable")
    @ExportMessage(name = "isArrayElementModifiable")
    boolean isIndexValid(long index) {
        return !array.isFreed() && index >= 0 && index < array.elementCount();
    }

    @ExportMessage
    boolean isArrayElementInsertable(@SuppressWarnings("unused") long index) {
        return false;
    }

    @ExportMessage
    Object readArrayElement(long index) throws InvalidArrayIndexException {
        checkIndex(index);
        return ArrayObjects.toGuest(runtime.read(array, index), array.elementType());
    }

    @ExportMessage
    void writeArrayElement(long index, Object value) throws InvalidArrayIndexException {
        checkIndex(index);
        runtime.write(array, index, GuestValues.scalar(value, "array element write", "value"));
    }

    private void checkIndex(long index) throws InvalidArrayIndexException {
        ArrayObjects.checkLive(array);
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
        ArrayObjects.checkLive(array);
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

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return ArrayMembers.names();
    }

    @ExportMessage(name = "isMemberReadable")
    @ExportMessage(name = "isMemberInvocable")
    boolean isMember(String member) {
        return ArrayMembers.exists(member);
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        if (!ArrayMembers.exists(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return new BoundMethodObject(this, member);
    }

    @ExportMessage
    Object invokeMember(String member, Object[] arguments) throws UnknownIdentifierException {
        return ArrayMembers.invoke(this, runtime, array, member, arguments);
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "DeviceArray(" + array.elementType().cName() + ", " + array.elementCount()
                + (array.isFreed() ? ", freed)" : ")");
    }
}
