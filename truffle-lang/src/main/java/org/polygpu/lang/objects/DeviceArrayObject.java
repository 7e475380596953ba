package org.polygpu.lang.objects;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.dsl.Cached;
import com.oracle.truffle.api.dsl.Cached.Exclusive;
import com.oracle.truffle.api.dsl.Specialization;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.interop.InvalidBufferOffsetException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import com.oracle.truffle.api.profiles.InlinedBranchProfile;

/**
 * A one-dimensional device array ({@code float[1000]}, {@code DeviceArray("float", 1000)}): readable and writable
 * elements with type checks and a byte buffer view for bulk access; the members are {@link ArrayObject}'s. Every
 * message makes one runtime call, which waits for the kernels the array depends on, except element reads and writes
 * while the runtime lets the host touch its copy directly (see {@link DeviceArray#directHostRead()}). After
 * {@code free()} every access fails, its size included.
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
    ArrayRegion region() {
        return ArrayRegion.whole(array);
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

    /**
     * Element reads: straight from the host replica while the runtime allows direct host reads (no lock, nothing
     * pending that writes the array), else through the runtime, which waits for that work. Specialised on the
     * element type, so the conversion compiles to one load.
     */
    @ExportMessage
    static final class ReadArrayElement {
        @Specialization(guards = "receiver.array.elementType() == type", limit = "1")
        static Object typed(DeviceArrayObject receiver, long index,
                @Cached("receiver.array.elementType()") ElementType type,
                @Bind Node node, @Exclusive @Cached InlinedBranchProfile scheduled) throws InvalidArrayIndexException {
            ByteBuffer host = DirectElements.exact(receiver.array.directHostRead());
            if (host != null && index >= 0 && index < receiver.array.elementCount()) {
                return DirectElements.read(host, type, index);
            }
            scheduled.enter(node);
            return receiver.readScheduled(index);
        }

        @Specialization(replaces = "typed")
        static Object anyType(DeviceArrayObject receiver, long index) throws InvalidArrayIndexException {
            ByteBuffer host = DirectElements.exact(receiver.array.directHostRead());
            if (host != null && index >= 0 && index < receiver.array.elementCount()) {
                return DirectElements.read(host, receiver.array.elementType(), index);
            }
            return receiver.readScheduled(index);
        }
    }

    /**
     * Element writes: straight into the host replica while the runtime allows direct host writes (the host holds
     * the only copy and nothing pending uses the array) and the value converts without a check that can fail, else
     * through the runtime, which waits, converts with its checks and keeps the replicas coherent.
     */
    @ExportMessage
    static final class WriteArrayElement {
        @Specialization(guards = "receiver.array.elementType() == type", limit = "1")
        static void typed(DeviceArrayObject receiver, long index, Object value,
                @Cached("receiver.array.elementType()") ElementType type,
                @Bind Node node, @Exclusive @Cached InlinedBranchProfile scheduled) throws InvalidArrayIndexException {
            ByteBuffer host = DirectElements.exact(receiver.array.directHostWrite());
            if (host != null && index >= 0 && index < receiver.array.elementCount()
                    && DirectElements.write(host, type, index, value)) {
                return;
            }
            scheduled.enter(node);
            receiver.writeScheduled(index, value);
        }

        @Specialization(replaces = "typed")
        static void anyType(DeviceArrayObject receiver, long index, Object value) throws InvalidArrayIndexException {
            ByteBuffer host = DirectElements.exact(receiver.array.directHostWrite());
            if (host != null && index >= 0 && index < receiver.array.elementCount()
                    && DirectElements.write(host, receiver.array.elementType(), index, value)) {
                return;
            }
            receiver.writeScheduled(index, value);
        }
    }

    @Override
    Object readElement(long index) throws InvalidArrayIndexException {
        return readScheduled(index);
    }

    @Override
    void writeElement(long index, Object value) throws InvalidArrayIndexException {
        writeScheduled(index, value);
    }

    @TruffleBoundary
    private Object readScheduled(long index) throws InvalidArrayIndexException {
        checkIndex(index);
        return ArrayObjects.toGuest(runtime.read(array, index), array.elementType());
    }

    @TruffleBoundary
    private void writeScheduled(long index, Object value) throws InvalidArrayIndexException {
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
