package org.polygpu.lang.objects;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;

import com.oracle.truffle.api.CompilerDirectives;

/** Makes array objects and converts their elements between runtime and guest values. */
public final class ArrayObjects {
    private ArrayObjects() {
    }

    /**
     * A new zero-filled array: a {@link DeviceArrayObject} for one dimension, else a {@link MultiDimArrayObject}
     * in row-major (C) or column-major (Fortran) order. The runtime frees it when this object, the only one that
     * stands for the whole array (views hold it), becomes unreachable without {@code free()}.
     */
    public static Object allocate(PolygpuRuntime runtime, ElementType type, long[] dimensions, boolean columnMajor) {
        DeviceArray array = runtime.newArray(type, dimensions);
        ArrayObject object = dimensions.length == 1 ? new DeviceArrayObject(runtime, array)
                : new MultiDimArrayObject(runtime, array, columnMajor);
        runtime.reclaimWhenUnreachable(object, array);
        return object;
    }

    /**
     * The runtime array of a guest value that stands for a whole array (a kernel argument, a copy's other side),
     * else null: a view of part of an array is not one.
     */
    static DeviceArray unwrap(Object value) {
        return value instanceof ArrayObject a && a.isWhole() ? a.array : null;
    }

    /** The region a copy covers when {@code value} is an array object that covers one (an array, a row), else null. */
    static ArrayRegion region(Object value) {
        return value instanceof ArrayObject a ? a.region() : null;
    }

    /** The runtime value of a kernel's pointer argument: a whole array's or an offset's, else null. */
    static Object unwrapPointer(Object value) {
        return value instanceof ArrayOffsetObject o ? o.offset : unwrap(value);
    }

    /**
     * An element read by the runtime as an interop value: unsigned long values past {@code Long.MAX_VALUE} become an
     * exact {@link UnsignedLongObject} (a big integer), the others keep their boxed type.
     */
    static Object toGuest(Object element, ElementType type) {
        if (type == ElementType.ULONG && element instanceof Long l && l < 0) {
            return new UnsignedLongObject(l);
        }
        return element;
    }

    /** @throws PolygpuException when the array was freed */
    static void checkLive(DeviceArray array) {
        if (array.isFreed()) {
            CompilerDirectives.transferToInterpreter();
            throw PolygpuException.freed(array.toString());
        }
    }
}
