package org.polygpu.lang.objects;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.polygpu.array.DeviceArray;
import org.polygpu.array.ElementType;

import com.oracle.truffle.api.CompilerDirectives;

/**
 * Element reads and writes straight on a host replica the runtime lets the host touch directly
 * ({@link DeviceArray#directHostRead()}): no lock, no call into the scheduler, nothing the compiler cannot inline.
 * A write takes only the values whose conversion cannot fail or whose check is one comparison (a Java
 * {@code Integer}, {@code Long}, {@code Double} or {@code Boolean} of the right kind); for any other value it
 * reports that it wrote nothing, and the caller takes the scheduler's path, which converts with the full checks and
 * their error messages.
 */
final class DirectElements {
    /** The class of the runtime's buffers over native memory; known exactly, their accesses inline. */
    private static final Class<? extends ByteBuffer> NATIVE = ByteBuffer.allocateDirect(8)
            .order(ByteOrder.nativeOrder()).getClass();

    private DirectElements() {
    }

    /**
     * {@code buffer} with its exact class known to the compiler when it is a buffer over native memory (as the
     * runtime's always are), else null, and the caller takes the scheduler's path: calls on an abstract
     * {@code ByteBuffer} stay virtual calls in compiled code.
     */
    static ByteBuffer exact(ByteBuffer buffer) {
        return buffer != null && buffer.getClass() == NATIVE ? CompilerDirectives.castExact(buffer, NATIVE) : null;
    }

    /** Element {@code index} of {@code host} as the guest sees it (the runtime's boxing, then {@code toGuest}). */
    static Object read(ByteBuffer host, ElementType type, long index) {
        int off = (int) index * type.bytes();
        return switch (type) {
            case BOOL -> host.get(off) != 0;
            case CHAR -> host.get(off);
            case UCHAR -> (short) Byte.toUnsignedInt(host.get(off));
            case SHORT -> host.getShort(off);
            case USHORT -> Short.toUnsignedInt(host.getShort(off));
            case INT -> host.getInt(off);
            case UINT -> Integer.toUnsignedLong(host.getInt(off));
            case LONG -> host.getLong(off);
            case ULONG -> ArrayObjects.toGuest(host.getLong(off), ElementType.ULONG);
            case FLOAT -> host.getFloat(off);
            case DOUBLE -> host.getDouble(off);
        };
    }

    /** Writes {@code value} at {@code index} when it is one of the simple cases; says whether it did. */
    static boolean write(ByteBuffer host, ElementType type, long index, Object value) {
        int off = (int) index * type.bytes();
        switch (type) {
            case FLOAT -> {
                if (value instanceof Double d) {
                    float f = (float) d.doubleValue();
                    if (Float.isInfinite(f) && !Double.isInfinite(d)) {
                        return false;
                    }
                    host.putFloat(off, f);
                    return true;
                }
                if (value instanceof Integer i) {
                    host.putFloat(off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    // Through double, as the runtime converts: one rounding to double, then to float.
                    host.putFloat(off, (float) l.doubleValue());
                    return true;
                }
                return false;
            }
            case DOUBLE -> {
                if (value instanceof Double d) {
                    host.putDouble(off, d);
                    return true;
                }
                if (value instanceof Integer i) {
                    host.putDouble(off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    host.putDouble(off, l.doubleValue());
                    return true;
                }
                return false;
            }
            case INT -> {
                if (value instanceof Integer i) {
                    host.putInt(off, i);
                    return true;
                }
                if (value instanceof Long l && l == l.intValue()) {
                    host.putInt(off, l.intValue());
                    return true;
                }
                return false;
            }
            case LONG -> {
                if (value instanceof Integer i) {
                    host.putLong(off, i);
                    return true;
                }
                if (value instanceof Long l) {
                    host.putLong(off, l);
                    return true;
                }
                return false;
            }
            case BOOL -> {
                if (value instanceof Boolean b) {
                    host.put(off, (byte) (b ? 1 : 0));
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
