package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;

import org.polygpu.array.ElementType;

import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;

/**
 * Host values that describe their memory with numpy's array interface (version 3: an {@code __array_interface__}
 * mapping with {@code data}, {@code typestr}, {@code shape} and {@code strides}), as a numpy {@code ndarray} does:
 * {@code copyFrom} and {@code copyTo} copy their elements as one memory copy, through the address the interface
 * gives.
 *
 * <p>Only memory the device array can take as it is qualifies: elements of the array's own type in little-endian or
 * native order, laid out contiguously in C order. Any other value (another dtype, a strided view, big-endian
 * data) is left to the element-by-element path, which converts each element with the element type's checks. The
 * memory is the value's own and is valid while the guest holds the value, that is for the length of the copy.
 */
final class ArrayInterface {
    private static final String MEMBER = "__array_interface__";

    private ArrayInterface() {
    }

    /**
     * The memory of {@code value}'s elements when it has the array interface for elements of {@code type},
     * contiguous; read-only when the interface says so. Null for any other value.
     */
    static MemorySegment memory(Object value, ElementType type) {
        InteropLibrary interop = InteropLibrary.getUncached(value);
        if (!interop.hasMembers(value) || !interop.isMemberReadable(value, MEMBER)) {
            return null;
        }
        try {
            Object iface = interop.readMember(value, MEMBER);
            InteropLibrary map = InteropLibrary.getUncached(iface);
            if (!map.hasHashEntries(iface) || !type.equals(elementType(string(map, iface, "typestr")))) {
                return null;
            }
            long[] shape = longs(entry(map, iface, "shape"));
            Object[] data = tuple(entry(map, iface, "data"));
            if (shape == null || data == null || data.length != 2 || !contiguous(map, iface, shape, type)) {
                return null;
            }
            long count = 1;
            for (long extent : shape) {
                count = Math.multiplyExact(count, extent);
            }
            long address = address(data[0]);
            if (count == 0 || address == 0) {
                return null;
            }
            MemorySegment memory = MemorySegment.ofAddress(address).reinterpret(count * type.bytes());
            boolean readOnly = InteropLibrary.getUncached(data[1]).isBoolean(data[1])
                    && InteropLibrary.getUncached(data[1]).asBoolean(data[1]);
            return readOnly ? memory.asReadOnly() : memory;
        } catch (InteropException | ArithmeticException e) {
            return null; // not the interface as numpy defines it: the element path decides what the value is
        }
    }

    /**
     * The element type of a type string ({@code "<f4"}: byte order, kind, width), or null for big-endian data and
     * kinds polygpu has no type for.
     */
    static ElementType elementType(String typestr) {
        if (typestr == null || typestr.length() < 3 || typestr.charAt(0) == '>') {
            return null;
        }
        return switch (typestr.substring(1)) {
            case "b1" -> ElementType.BOOL;
            case "i1" -> ElementType.CHAR;
            case "u1" -> ElementType.UCHAR;
            case "i2" -> ElementType.SHORT;
            case "u2" -> ElementType.USHORT;
            case "i4" -> ElementType.INT;
            case "u4" -> ElementType.UINT;
            case "i8" -> ElementType.LONG;
            case "u8" -> ElementType.ULONG;
            case "f4" -> ElementType.FLOAT;
            case "f8" -> ElementType.DOUBLE;
            default -> null;
        };
    }

    /** Strides absent (numpy's mark of C order) or equal to C order's. */
    private static boolean contiguous(InteropLibrary map, Object iface, long[] shape, ElementType type)
            throws InteropException {
        Object stridesValue = entry(map, iface, "strides");
        if (stridesValue == null || InteropLibrary.getUncached(stridesValue).isNull(stridesValue)) {
            return true;
        }
        long[] strides = longs(stridesValue);
        if (strides == null || strides.length != shape.length) {
            return false;
        }
        long expected = type.bytes();
        for (int i = shape.length - 1; i >= 0; i--) {
            if (shape[i] > 1 && strides[i] != expected) {
                return false;
            }
            expected *= shape[i];
        }
        return true;
    }

    /** An integer address, or an interop pointer's (GraalPy's {@code ctypes.addressof} gives one); else 0. */
    private static long address(Object value) throws InteropException {
        InteropLibrary a = InteropLibrary.getUncached(value);
        if (a.isPointer(value)) {
            return a.asPointer(value);
        }
        return a.fitsInLong(value) ? a.asLong(value) : 0;
    }

    /** The interface's entry {@code key}, or null when it has none. */
    private static Object entry(InteropLibrary map, Object iface, String key) throws InteropException {
        return map.isHashEntryReadable(iface, key) ? map.readHashValue(iface, key) : null;
    }

    private static String string(InteropLibrary map, Object iface, String key) throws InteropException {
        Object v = entry(map, iface, key);
        InteropLibrary s = InteropLibrary.getUncached(v);
        return v != null && s.isString(v) ? s.asString(v) : null;
    }

    private static Object[] tuple(Object value) throws InteropException {
        if (value == null) {
            return null;
        }
        InteropLibrary t = InteropLibrary.getUncached(value);
        if (!t.hasArrayElements(value)) {
            return null;
        }
        Object[] items = new Object[(int) Math.min(t.getArraySize(value), 64)];
        for (int i = 0; i < items.length; i++) {
            items[i] = t.readArrayElement(value, i);
        }
        return items;
    }

    private static long[] longs(Object value) throws InteropException {
        Object[] items = tuple(value);
        if (items == null) {
            return null;
        }
        long[] result = new long[items.length];
        for (int i = 0; i < items.length; i++) {
            InteropLibrary n = InteropLibrary.getUncached(items[i]);
            if (!n.fitsInLong(items[i])) {
                return null;
            }
            result[i] = n.asLong(items[i]);
        }
        return result;
    }
}
