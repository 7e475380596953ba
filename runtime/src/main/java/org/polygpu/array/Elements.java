package org.polygpu.array;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;

/**
 * Reads and writes single elements of a host replica, converting between Java numbers and the element type.
 * Writes are range-checked: a value that does not fit the element type is an error, never a silent truncation.
 */
public final class Elements {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private Elements() {
    }

    /**
     * The element at {@code index}: {@code Boolean} for bool, {@code Byte}/{@code Short}/{@code Integer}/{@code
     * Long} for signed integers, the next wider type for unsigned ones ({@code unsigned long} as a {@code Long}
     * holding the same 64 bits), {@code Float} or {@code Double}.
     */
    public static Object get(MemorySegment s, ElementType type, long index) {
        long off = index * type.bytes();
        return switch (type) {
            case BOOL -> s.get(ValueLayout.JAVA_BYTE, off) != 0;
            case CHAR -> s.get(ValueLayout.JAVA_BYTE, off);
            case UCHAR -> (short) Byte.toUnsignedInt(s.get(ValueLayout.JAVA_BYTE, off));
            case SHORT -> s.get(SHORT, off);
            case USHORT -> Short.toUnsignedInt(s.get(SHORT, off));
            case INT -> s.get(INT, off);
            case UINT -> Integer.toUnsignedLong(s.get(INT, off));
            case LONG, ULONG -> s.get(LONG, off);
            case FLOAT -> s.get(FLOAT, off);
            case DOUBLE -> s.get(DOUBLE, off);
        };
    }

    /**
     * Stores {@code value} (a {@code Number} or, for bool, a {@code Boolean}) at {@code index}.
     *
     * @throws IllegalArgumentException if the value does not fit the element type
     */
    public static void set(MemorySegment s, ElementType type, long index, Object value) {
        long off = index * type.bytes();
        switch (type) {
            case BOOL -> s.set(ValueLayout.JAVA_BYTE, off, (byte) (toBoolean(value) ? 1 : 0));
            case CHAR -> s.set(ValueLayout.JAVA_BYTE, off, (byte) integral(value, type, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case UCHAR -> s.set(ValueLayout.JAVA_BYTE, off, (byte) integral(value, type, 0, 0xFF));
            case SHORT -> s.set(SHORT, off, (short) integral(value, type, Short.MIN_VALUE, Short.MAX_VALUE));
            case USHORT -> s.set(SHORT, off, (short) integral(value, type, 0, 0xFFFF));
            case INT -> s.set(INT, off, (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case UINT -> s.set(INT, off, (int) integral(value, type, 0, 0xFFFF_FFFFL));
            case LONG -> s.set(LONG, off, integral(value, type, Long.MIN_VALUE, Long.MAX_VALUE));
            case ULONG -> s.set(LONG, off, unsignedLong(value));
            case FLOAT -> s.set(FLOAT, off, toFloat(value));
            case DOUBLE -> s.set(DOUBLE, off, toDouble(value));
        }
    }

    /** {@code value} as the boxed Java type that carries {@code type} to a kernel (unsigned kept as bits). */
    public static Object toKernelScalar(Object value, ElementType type) {
        return switch (type) {
            case BOOL -> (byte) (toBoolean(value) ? 1 : 0);
            case CHAR -> (byte) integral(value, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case UCHAR -> (byte) integral(value, type, 0, 0xFF);
            case SHORT -> (short) integral(value, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case USHORT -> (short) integral(value, type, 0, 0xFFFF);
            case INT -> (int) integral(value, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case UINT -> (int) integral(value, type, 0, 0xFFFF_FFFFL);
            case LONG -> integral(value, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case ULONG -> unsignedLong(value);
            case FLOAT -> toFloat(value);
            case DOUBLE -> toDouble(value);
        };
    }

    private static boolean toBoolean(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        throw new IllegalArgumentException("expected a bool, got " + describe(value));
    }

    private static Number toNumber(Object value, ElementType type) {
        if (value instanceof Number n) {
            return n;
        }
        throw new IllegalArgumentException("expected a number for " + type.cName() + ", got " + describe(value));
    }

    private static long integral(Object value, ElementType type, long min, long max) {
        Number n = toNumber(value, type);
        long v;
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException(n + " is not an integer and does not fit " + type.cName());
            }
            if (d < min || d > max) {
                throw outOfRange(n, type, min, max);
            }
            v = (long) d;
        } else if (n instanceof BigInteger b) {
            // longValue() keeps the low 64 bits: a wider integer must fail here rather than wrap.
            if (b.bitLength() > 63) {
                throw outOfRange(n, type, min, max);
            }
            v = b.longValue();
        } else if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            v = n.longValue();
        } else {
            throw new IllegalArgumentException("expected an integer for " + type.cName() + ", got "
                    + n.getClass().getSimpleName() + " " + n);
        }
        if (v < min || v > max) {
            throw outOfRange(n, type, min, max);
        }
        return v;
    }

    private static long unsignedLong(Object value) {
        Number n = toNumber(value, ElementType.ULONG);
        if (n instanceof BigInteger b) {
            if (b.signum() < 0 || b.bitLength() > 64) {
                throw new IllegalArgumentException(b + " does not fit unsigned long (0..2^64-1)");
            }
            return b.longValue();
        }
        if ((n instanceof Double || n instanceof Float) && n.doubleValue() >= 0x1p63 && n.doubleValue() < 0x1p64) {
            return integral(n.doubleValue() - 0x1p63, ElementType.ULONG, 0, Long.MAX_VALUE) + Long.MIN_VALUE;
        }
        boolean tooLarge = (n instanceof Double || n instanceof Float) && n.doubleValue() >= 0x1p64;
        long v = tooLarge ? -1 : integral(n, ElementType.ULONG, Long.MIN_VALUE, Long.MAX_VALUE);
        if (v < 0) {
            throw new IllegalArgumentException(n + " does not fit unsigned long (0..2^64-1)");
        }
        return v;
    }

    private static double toDouble(Object value) {
        Number n = toNumber(value, ElementType.DOUBLE);
        double d = n.doubleValue();
        if (Double.isInfinite(d) && n instanceof BigInteger) {
            throw new IllegalArgumentException(n + " does not fit double");
        }
        return d;
    }

    private static float toFloat(Object value) {
        Number n = toNumber(value, ElementType.FLOAT);
        double d = n.doubleValue();
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new IllegalArgumentException(n + " does not fit float");
        }
        return f;
    }

    private static IllegalArgumentException outOfRange(Number n, ElementType type, long min, long max) {
        return new IllegalArgumentException(plain(n) + " does not fit " + type.cName() + " (" + min + ".." + max
                + ")");
    }

    /** An integral number as written ({@code 1099511627776}, not {@code 1.099511627776E12}, for a JS number). */
    private static String plain(Number n) {
        if ((n instanceof Double || n instanceof Float) && Double.isFinite(n.doubleValue())
                && n.doubleValue() == Math.rint(n.doubleValue())) {
            return new java.math.BigDecimal(n.doubleValue()).toPlainString();
        }
        return n.toString();
    }

    /**
     * A value as error messages show it: strings quoted, numbers and booleans as written, anything else by its
     * {@code toString} (an array names itself; a language passes guest values it could not convert with their own
     * description).
     */
    public static String describe(Object value) {
        if (value instanceof String s) {
            return "string \"" + s + "\"";
        }
        return String.valueOf(value);
    }
}
