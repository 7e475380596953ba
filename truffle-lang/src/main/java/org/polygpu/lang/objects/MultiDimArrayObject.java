package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives.CompilationFinal;
import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A device array of two or more dimensions ({@code float[4][8]}, {@code DeviceArray("float", 4, 8, "F")}) over one
 * flat runtime array. {@code a[i]} is a {@link MultiDimViewObject} fixing the first index; elements are reached
 * through views down to the last dimension, the only writable one. Row-major (C) order puts {@code a[i][j]} at
 * {@code i * d1 + j}, column-major (F) at {@code i + j * d0}; kernels see that memory. The members are
 * {@link ArrayObject}'s, as for 1-D arrays.
 */
@ExportLibrary(InteropLibrary.class)
public final class MultiDimArrayObject extends ArrayObject {
    @CompilationFinal(dimensions = 1) final long[] shape;
    /** Elements between neighbours along each dimension. */
    @CompilationFinal(dimensions = 1) final long[] strides;
    final boolean columnMajor;

    MultiDimArrayObject(PolygpuRuntime runtime, DeviceArray array, boolean columnMajor) {
        super(runtime, array);
        this.shape = array.shape();
        this.columnMajor = columnMajor;
        this.strides = new long[shape.length];
        long stride = 1;
        for (int k = 0; k < shape.length; k++) {
            int d = columnMajor ? k : shape.length - 1 - k;
            strides[d] = stride;
            stride *= shape[d];
        }
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
        StringBuilder sb = new StringBuilder("MultiDimDeviceArray(").append(array.elementType().cName());
        for (long d : shape) {
            sb.append(", ").append(d);
        }
        return sb.append(columnMajor ? ", 'F'" : ", 'C'").append(array.isFreed() ? ", freed)" : ")").toString();
    }

    @ExportMessage
    long getArraySize() {
        checkLive();
        return shape[0];
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return !array.isFreed() && index >= 0 && index < shape[0];
    }

    @Override
    Object readElement(long index) throws InvalidArrayIndexException {
        checkLive();
        if (index < 0 || index >= shape[0]) {
            throw InvalidArrayIndexException.create(index);
        }
        return new MultiDimViewObject(this, 1, index * strides[0]);
    }

    @ExportMessage
    boolean isArrayElementModifiable(@SuppressWarnings("unused") long index) {
        return false;
    }

    @Override
    @TruffleBoundary
    void writeElement(long index, @SuppressWarnings("unused") Object value) {
        throw PolygpuException.unsupported("cannot assign to [" + index + "] of " + array + ": only the last "
                + "dimension of a multi-dimensional array is writable");
    }
}
