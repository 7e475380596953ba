package org.polygpu.emulator.ptx;

/**
 * Conversions ({@link Op#CVT}) between every integer and floating-point type, with PTX's rules: integer narrowing
 * truncates (or clamps with {@code .sat}), float to integer rounds as asked ({@code .rni}, {@code .rzi}, ...) and
 * always saturates (NaN becomes 0), integer and float narrowing round as asked ({@code .rn}, {@code .rz}, ...),
 * {@code .ftz} flushes f32 subnormals and {@code .sat} on a float result clamps to [0, 1].
 */
final class ConvertOps {
    private static final PtxType[] TYPES = PtxType.values();
    private static final double TWO_63 = 0x1p63;
    private static final double TWO_64 = 0x1p64;

    private ConvertOps() {
    }

    static void cvt(long[] r, int[] code, int pc, int mask) {
        PtxType to = TYPES[code[pc + Op.SUB]];
        int x = code[pc + Op.X];
        PtxType from = TYPES[x & 0xFF];
        int mode = (x >> 8) & 0xF;
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        if (from.isInteger() && to.isInteger() && (x & ConvertDecoder.CVT_SAT) == 0) {
            int fs = from.extendShift();
            int ts = to.extendShift();
            boolean fromSigned = from.isSigned();
            boolean toSigned = to.isSigned();
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long v = fromSigned ? r[a + l] << fs >> fs : r[a + l] << fs >>> fs;
                r[d + l] = toSigned ? v << ts >> ts : v << ts >>> ts;
            }
            return;
        }
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            r[d + l] = convert(r[a + l], from, to, mode, x);
        }
    }

    static long convert(long v, PtxType from, PtxType to, int mode, int flags) {
        boolean sat = (flags & ConvertDecoder.CVT_SAT) != 0;
        boolean ftz = (flags & ConvertDecoder.CVT_FTZ) != 0;
        if (from.isInteger()) {
            long value = from.extend(v);
            boolean unsignedWide = from.size() == 8 && !from.isSigned();
            if (to.isInteger()) {
                return sat ? clamp(value, unsignedWide, to) : to.extend(value);
            }
            int direction = mode == Op.NONE ? Op.RN : mode & 3;
            return toFloatBits(fromInteger(value, unsignedWide, to, direction), to, sat, ftz);
        }
        double f = readFloat(v, from, ftz);
        if (to.isInteger()) {
            return toInteger(round(f, mode == Op.NONE ? Op.INTEGRAL | Op.RZ : mode), to);
        }
        double result;
        if ((mode & Op.INTEGRAL) != 0 && mode != Op.NONE) {
            result = round(f, mode);
        } else if (to == PtxType.F32 && from == PtxType.F64) {
            result = Rounding.toFloat(f, 0, mode == Op.NONE ? Op.RN : mode & 3);
        } else {
            result = f;
        }
        return toFloatBits(result, to, sat, ftz);
    }

    private static double readFloat(long v, PtxType from, boolean ftz) {
        return switch (from) {
            case F16 -> Float.float16ToFloat((short) v);
            case BF16 -> Float.intBitsToFloat((int) (v & 0xFFFF) << 16);
            case F32 -> ftz ? FloatOps.flush(FloatOps.f(v)) : FloatOps.f(v);
            default -> Double.longBitsToDouble(v);
        };
    }

    /** An integer value converted to {@code to} (a float type) with rounding {@code direction}. */
    private static double fromInteger(long value, boolean unsignedWide, PtxType to, int direction) {
        boolean exactInDouble = !unsignedWide && Math.abs(value) <= (1L << 53);
        if (to == PtxType.F64) {
            return exactInDouble ? value : Rounding.longToDouble(value, unsignedWide, direction);
        }
        if (exactInDouble) {
            return Rounding.toFloat(value, 0, direction);
        }
        return Rounding.longToFloat(value, unsignedWide, direction);
    }

    private static long toFloatBits(double value, PtxType to, boolean sat, boolean ftz) {
        double v = sat ? (Double.isNaN(value) ? 0 : Math.max(0.0, Math.min(1.0, value))) : value;
        return switch (to) {
            case F16 -> Float.floatToFloat16((float) v) & 0xFFFFL;
            case BF16 -> bfloat16((float) v);
            case F32 -> {
                float f = (float) v;
                yield FloatOps.bits(ftz ? FloatOps.flush(f) : f);
            }
            default -> Double.doubleToRawLongBits(v);
        };
    }

    /** {@code f} rounded to bfloat16, to nearest with ties to even; a NaN stays a (quiet) NaN. */
    static long bfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if (Float.isNaN(f)) {
            return ((bits >>> 16) | 0x40) & 0xFFFFL;
        }
        return ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16) & 0xFFFFL;
    }

    private static double round(double f, int mode) {
        return switch (mode & 3) {
            case Op.RN -> Math.rint(f);
            case Op.RZ -> f < 0 ? Math.ceil(f) : Math.floor(f);
            case Op.RM -> Math.floor(f);
            default -> Math.ceil(f);
        };
    }

    /** An integral double saturated into integer type {@code to}; NaN gives 0. */
    private static long toInteger(double f, PtxType to) {
        if (Double.isNaN(f)) {
            return 0;
        }
        if (to.size() == 8 && !to.isSigned()) {
            if (f <= 0) {
                return 0;
            }
            if (f >= TWO_64) {
                return -1L;
            }
            return f >= TWO_63 ? (long) (f - TWO_63) + Long.MIN_VALUE : (long) f;
        }
        if (to.size() == 8) {
            return (long) f;
        }
        long min = to.isSigned() ? -(1L << (to.size() * 8 - 1)) : 0;
        long max = to.isSigned() ? (1L << (to.size() * 8 - 1)) - 1 : (1L << (to.size() * 8)) - 1;
        return (long) Math.max(min, Math.min(max, f));
    }

    /** {@code value} (unsigned 64-bit when {@code unsignedWide}) clamped into the range of {@code to}. */
    private static long clamp(long value, boolean unsignedWide, PtxType to) {
        int bits = to.size() * 8;
        if (bits == 64) {
            if (to.isSigned()) {
                return unsignedWide && value < 0 ? Long.MAX_VALUE : value;
            }
            return !unsignedWide && value < 0 ? 0 : value;
        }
        long min = to.isSigned() ? -(1L << (bits - 1)) : 0;
        long max = to.isSigned() ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
        if (unsignedWide && value < 0) {
            return max;
        }
        return Math.max(min, Math.min(max, value));
    }
}
