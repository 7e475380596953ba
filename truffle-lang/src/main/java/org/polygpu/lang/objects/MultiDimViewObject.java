package org.polygpu.lang.objects;

import java.nio.ByteBuffer;

import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.InvalidArrayIndexException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A view of a multi-dimensional array with its leading indices fixed ({@code a[i]}, {@code a[i][j]}): along
 * {@code dimension}, starting at element {@code offset} of the flat array. Views of the last dimension read and
 * write elements; the others give views one dimension deeper. A view has only the members that copy its own
 * elements ({@code copyFrom}, {@code copyTo}; see {@link #region()}); the others act on the whole array.
 * Elements of the last dimension are read and written directly on the host copy when the runtime grants it, as for
 * 1-D arrays. Immutable; it reaches the array's current state.
 */
@ExportLibrary(InteropLibrary.class)
public final class MultiDimViewObject extends ArrayObject {
    private final MultiDimArrayObject parent;
    private final int dimension;
    private final long offset;

    MultiDimViewObject(MultiDimArrayObject parent, int dimension, long offset) {
        super(parent.runtime, parent.array);
        this.parent = parent;
        this.dimension = dimension;
        this.offset = offset;
    }

    private boolean isLast() {
        return dimension == parent.shape.length - 1;
    }

    @Override
    boolean isWhole() {
        return false;
    }

    /**
     * A row (a view of the last dimension) is its elements, one apart in row-major order and a column's height apart
     * in column-major order; a view of a row-major array with more dimensions left is one contiguous block; a view of
     * a column-major one is not one region, and has no copies.
     */
    @Override
    ArrayRegion region() {
        if (isLast()) {
            return new ArrayRegion(array, offset, parent.shape[dimension], parent.strides[dimension]);
        }
        if (parent.columnMajor) {
            return null;
        }
        long count = 1;
        for (int d = dimension; d < parent.shape.length; d++) {
            count *= parent.shape[d];
        }
        return new ArrayRegion(array, offset, count, 1);
    }

    @Override
    String describe() {
        return "MultiDimDeviceArrayView(" + array + ", dimension " + dimension + ")";
    }

    @ExportMessage
    long getArraySize() {
        checkLive();
        return parent.shape[dimension];
    }

    @ExportMessage
    boolean isArrayElementReadable(long index) {
        return !array.isFreed() && index >= 0 && index < parent.shape[dimension];
    }

    @ExportMessage
    boolean isArrayElementModifiable(long index) {
        return isLast() && isArrayElementReadable(index);
    }

    @Override
    Object readElement(long index) throws InvalidArrayIndexException {
        long element = element(index);
        if (!isLast()) {
            return new MultiDimViewObject(parent, dimension + 1, element);
        }
        ByteBuffer host = DirectElements.exact(array.directHostRead());
        if (host != null) {
            return DirectElements.read(host, array.elementType(), element);
        }
        return ArrayObjects.toGuest(runtime.read(array, element), array.elementType());
    }

    @Override
    void writeElement(long index, Object value) throws InvalidArrayIndexException {
        long element = element(index);
        if (!isLast()) {
            throw notWritable(index);
        }
        ByteBuffer host = DirectElements.exact(array.directHostWrite());
        if (host != null && DirectElements.write(host, array.elementType(), element, value)) {
            return;
        }
        runtime.write(array, element, GuestValues.toHost(value));
    }

    @TruffleBoundary
    private PolygpuException notWritable(long index) {
        return PolygpuException.unsupported("cannot assign to index " + index + " of dimension " + dimension + " of "
                + array + ": only the last dimension of a multi-dimensional array is writable");
    }

    private long element(long index) throws InvalidArrayIndexException {
        checkLive();
        if (index < 0 || index >= parent.shape[dimension]) {
            throw InvalidArrayIndexException.create(index);
        }
        return offset + index * parent.strides[dimension];
    }
}
