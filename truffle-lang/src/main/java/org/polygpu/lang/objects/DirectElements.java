package org.polygpu.lang.objects;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;

/**
 * Element reads and writes straight on a host replica the runtime lets the host touch directly
 * ({@link DeviceArray#directHostRead()}): no lock, no call into the scheduler, nothing the compiler cannot inline.
 * A write takes only the values whose conversion cannot fail or whose check is one comparison (a Java
 * {@code Integer}, {@code Long}, {@code Double} or {@code Boolean} of the right kind); for any other value it
 * reports that it wrote nothing, and the caller takes the scheduler's path, which converts with the full checks and
 * their error messages.
 */
final class DirectElements {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private DirectElements() {
    }

    /** Element {@code index} of {@code host} as the guest sees it (the runtime's boxing, then {@code toGuest}). */
    static Object read(MemorySegment host, ElementType type, long index) {
        long off = index * type.bytes();
        return switch (type) {
            case BOOL -> host.get(ValueLayout.JAVA_BYTE, off) != 0;
            case CHAR -> host.get(ValueLayout.JAVA_BYTE, off);
            case UCHAR -> (short) Byte.toUnsignedInt(host.get(ValueLayout.JAVA_BYTE, off));
            case SHORT -> host.get(SHORT, off);
            case USHORT -> Short.toUnsignedInt(host.get(SHORT, off));
            case INT -> host.get(INT, off);
            case UINT -> Integer.toUnsignedLong(host.get(INT, off));
            case LONG -> host.get(LONG, off);
            case ULONG -> ArrayObjects.toGuest(host.get(LONG, off), ElementType.ULONG);
            case FLOAT -> host.get(FLOAT, off);
            case DOUBLE -> host.get(DOUBLE, off);
        };
    }

    /** Writes {@code value} at {@code index} when it is one of the simple cases; says whether it did. */
    static boolean write(MemorySegment host, ElementType type, long index, Object value) {
        long off = index * type.bytes();
        switch (type) {
            case FLOAT -> {
                if (value instanceof Double d) {
                    float f = (float) d.doubleValue();
                    if (Float.isInfinite(f) && !Double.isInfinite(d)) {
                        return false;
                    }
                    host.set(FLOAT, off, f);
                    return true;
                }
                if (value instanceof Integer i) {
                    host.set(FLOAT, off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    // Through double, as the runtime converts: one rounding to double, then to float.
                    host.set(FLOAT, off, (float) l.doubleValue());
                    return true;
                }
                return false;
            }
            case DOUBLE -> {
                if (value instanceof Double d) {
                    host.set(DOUBLE, off, d);
                    return true;
                }
                if (value instanceof Integer i) {
                    host.set(DOUBLE, off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    host.set(DOUBLE, off, l.doubleValue());
                    return true;
                }
                return false;
            }
            case INT -> {
                if (value instanceof Integer i) {
                    host.set(INT, off, i);
                    return true;
                }
                if (value instanceof Long l && l == l.intValue()) {
                    host.set(INT, off, l.intValue());
                    return true;
                }
                return false;
            }
            case LONG -> {
                if (value instanceof Integer i) {
                    host.set(LONG, off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    host.set(LONG, off, l);
                    return true;
                }
                return false;
            }
            case BOOL -> {
                if (value instanceof Boolean b) {
                    host.set(ValueLayout.JAVA_BYTE, off, (byte) (b ? 1 : 0));
                    return true;
                }
                return false;
            }
            default -> {
                return false;
            }
        }
    }
}
