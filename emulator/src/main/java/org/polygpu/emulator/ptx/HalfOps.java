package org.polygpu.emulator.ptx;

/**
 * Half-precision arithmetic ({@link Op#HALF}): {@code .f16} and {@code .bf16} in the low 16 bits of a register, and
 * their packed pairs {@code .f16x2} and {@code .bf16x2} in the low 32 (each half computed alone). Each value is
 * widened, the operation is done in double precision ({@code fma} as one product and sum) and the result is
 * rounded to float and then to the format, to nearest with ties to even. Also {@code cvt.rn.f16x2.f32} and {@code cvt.rn.bf16x2.f32}
 * ({@link #PACK}): the first source into the upper half, the second into the lower one.
 *
 * <p>sub = the {@link Op} float variant ({@code FADD}, {@code FFMA}, {@code FEX2}, ...) or {@link #PACK}; x = the
 * {@link #BF16}, {@link #PAIR}, {@link #RELU} and {@link Op#SAT} flags.
 */
final class HalfOps {
    /** x flag: bfloat16 rather than IEEE half. */
    static final int BF16 = 1;
    /** x flag: a packed pair in 32 bits. */
    static final int PAIR = 2;
    /** x flag: a negative result (or NaN) becomes +0 ({@code .relu}). */
    static final int RELU = 4;
    /** sub: two f32 sources converted and packed. */
    static final int PACK = 100;

    private HalfOps() {
    }

    static void execute(long[] r, int[] code, int pc, int mask) {
        int sub = code[pc + Op.SUB];
        int flags = code[pc + Op.X];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        boolean bf = (flags & BF16) != 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (sub == PACK) {
                r[d + l] = round(relu(Float.intBitsToFloat((int) r[a + l]), flags), flags) << 16
                        | round(relu(Float.intBitsToFloat((int) r[b + l]), flags), flags);
            } else if ((flags & PAIR) != 0) {
                long lo = compute(sub, flags, bf, r[a + l], r[b + l], r[c + l]);
                long hi = compute(sub, flags, bf, r[a + l] >>> 16, r[b + l] >>> 16, r[c + l] >>> 16);
                r[d + l] = hi << 16 | lo;
            } else {
                r[d + l] = compute(sub, flags, bf, r[a + l], r[b + l], r[c + l]);
            }
        }
    }

    /** The 16-bit sum of two values of the format, rounded to nearest (the atomic add's operation). */
    static long add(long a, long b, boolean bf) {
        return compute(Op.FADD, bf ? BF16 : 0, bf, a, b, 0);
    }

    private static long compute(int sub, int flags, boolean bf, long a, long b, long c) {
        double x = widen(a, bf);
        double y = widen(b, bf);
        double z = widen(c, bf);
        double v = switch (sub) {
            case Op.FADD -> x + y;
            case Op.FSUB -> x - y;
            case Op.FMUL -> x * y;
            case Op.FFMA -> x * y + z;
            case Op.FMIN -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.min(x, y);
            case Op.FMAX -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.max(x, y);
            case Op.FNEG -> -x;
            case Op.FABS -> Math.abs(x);
            case Op.FSQRT -> Math.sqrt(x);
            case Op.FRSQRT -> 1 / Math.sqrt(x);
            case Op.FRCP -> 1 / x;
            case Op.FEX2 -> Math.pow(2, x);
            case Op.FLG2 -> Math.log(x) / Math.log(2);
            case Op.FSIN -> Math.sin(x);
            case Op.FCOS -> Math.cos(x);
            case Op.FTANH -> Math.tanh(x);
            default -> throw new IllegalStateException("half-precision variant " + sub);
        };
        if ((flags & RELU) != 0 && !(v > 0)) {
            v = 0;
        }
        if ((flags & Op.SAT) != 0) {
            v = Double.isNaN(v) ? 0 : Math.min(1, Math.max(0, v));
        }
        if (sub == Op.FNEG || sub == Op.FABS) { // sign-bit operations, exact for every value, NaN included
            long bits = a & 0xFFFF;
            return sub == Op.FNEG ? bits ^ 0x8000 : bits & 0x7FFF;
        }
        return round((float) v, flags);
    }

    private static float relu(float f, int flags) {
        return (flags & RELU) != 0 && !(f > 0) ? 0 : f;
    }

    private static double widen(long bits, boolean bf) {
        return bf ? Float.intBitsToFloat((int) (bits & 0xFFFF) << 16) : Float.float16ToFloat((short) bits);
    }

    /** {@code f} rounded to the format's 16 bits, to nearest with ties to even. */
    private static long round(float f, int flags) {
        return (flags & BF16) == 0 ? Float.floatToFloat16(f) & 0xFFFFL : ConvertOps.bfloat16(f);
    }
}
