package org.polygpu.emulator.ptx;

/**
 * Floating-point arithmetic ({@link Op#FLOAT}). An f32 lives in the low 32 bits of a register as its IEEE bits, an
 * f64 as all 64. Round-to-nearest without {@code .ftz}/{@code .sat} runs in tight loops; other forms go through
 * {@link #f32} and {@link #f64}, which flush subnormals ({@code .ftz}), clamp to [0, 1] ({@code .sat}) and round in
 * the requested direction ({@link Rounding}). {@code approx} functions (ex2, lg2, sin, cos, rsqrt, tanh) are computed
 * in double precision and rounded, well within PTX's stated error bounds.
 */
final class FloatOps {
    private static final double LN2 = 0.6931471805599453;
    private static final double INV_LN2 = 1.4426950408889634;

    private FloatOps() {
    }

    static void execute(long[] r, int[] code, int pc, int mask) {
        int sub = code[pc + Op.SUB];
        int flags = code[pc + Op.X];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        if (flags != 0 || sub >= Op.FTESTP) {
            generic(r, sub, flags, d, a, b, c, mask);
            return;
        }
        switch (sub) {
            case Op.FADD -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = bits(f(r[a + l]) + f(r[b + l]));
                }
            }
            case Op.FSUB -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = bits(f(r[a + l]) - f(r[b + l]));
                }
            }
            case Op.FMUL -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = bits(f(r[a + l]) * f(r[b + l]));
                }
            }
            case Op.FFMA -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = bits(Math.fma(f(r[a + l]), f(r[b + l]), f(r[c + l])));
                }
            }
            case Op.FADD + Op.F64 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = Double.doubleToRawLongBits(g(r[a + l]) + g(r[b + l]));
                }
            }
            case Op.FMUL + Op.F64 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = Double.doubleToRawLongBits(g(r[a + l]) * g(r[b + l]));
                }
            }
            case Op.FFMA + Op.F64 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = Double.doubleToRawLongBits(Math.fma(g(r[a + l]), g(r[b + l]), g(r[c + l])));
                }
            }
            default -> generic(r, sub, flags, d, a, b, c, mask);
        }
    }

    private static void generic(long[] r, int sub, int flags, int d, int a, int b, int c, int mask) {
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long x = r[a + l];
            long y = r[b + l];
            long z = r[c + l];
            if (sub == Op.FTESTP) {
                r[d + l] = testp(f(x), c) ? 1 : 0;
            } else if (sub == Op.FTESTP + Op.F64) {
                r[d + l] = testp(g(x), c) ? 1 : 0;
            } else if (sub >= Op.F64) {
                r[d + l] = Double.doubleToRawLongBits(f64(sub - Op.F64, g(x), g(y), g(z), flags));
            } else {
                r[d + l] = bits(f32(sub, f(x), f(y), f(z), flags));
            }
        }
    }

    static float f32(int variant, float x, float y, float z, int flags) {
        int mode = flags & 3;
        boolean ftz = (flags & Op.FTZ) != 0;
        if (ftz) {
            x = flush(x);
            y = flush(y);
            z = flush(z);
        }
        float v = switch (variant) {
            case Op.FADD -> mode == Op.RN ? x + y : Rounding.add(x, y, mode);
            case Op.FSUB -> mode == Op.RN ? x - y : Rounding.add(x, -y, mode);
            case Op.FMUL -> mode == Op.RN ? x * y : Rounding.mul(x, y, mode);
            case Op.FDIV -> mode == Op.RN ? x / y : Rounding.div(x, y, mode);
            case Op.FFMA -> mode == Op.RN ? Math.fma(x, y, z) : Rounding.fma(x, y, z, mode);
            case Op.FMIN -> Float.isNaN(x) ? y : Float.isNaN(y) ? x : Math.min(x, y);
            case Op.FMAX -> Float.isNaN(x) ? y : Float.isNaN(y) ? x : Math.max(x, y);
            case Op.FNEG -> -x;
            case Op.FABS -> Math.abs(x);
            case Op.FSQRT -> mode == Op.RN ? (float) Math.sqrt(x) : Rounding.sqrt(x, mode);
            case Op.FRSQRT -> (float) (1.0 / Math.sqrt(x));
            case Op.FRCP -> mode == Op.RN ? 1.0f / x : Rounding.div(1.0f, x, mode);
            case Op.FEX2 -> (float) Math.exp(x * LN2);
            case Op.FLG2 -> (float) (Math.log(x) * INV_LN2);
            case Op.FSIN -> (float) Math.sin(x);
            case Op.FCOS -> (float) Math.cos(x);
            case Op.FTANH -> (float) Math.tanh(x);
            case Op.FCOPYSIGN -> Math.copySign(y, x);
            default -> throw new IllegalStateException("unknown float variant " + variant);
        };
        if (ftz) {
            v = flush(v);
        }
        if ((flags & Op.SAT) != 0) {
            v = Float.isNaN(v) ? 0 : Math.max(0f, Math.min(1f, v));
        }
        return v;
    }

    static double f64(int variant, double x, double y, double z, int flags) {
        int mode = flags & 3;
        double v = switch (variant) {
            case Op.FADD -> mode == Op.RN ? x + y : Rounding.add(x, y, mode);
            case Op.FSUB -> mode == Op.RN ? x - y : Rounding.add(x, -y, mode);
            case Op.FMUL -> mode == Op.RN ? x * y : Rounding.mul(x, y, mode);
            case Op.FDIV -> mode == Op.RN ? x / y : Rounding.div(x, y, mode);
            case Op.FFMA -> Rounding.fma(x, y, z, mode);
            case Op.FMIN -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.min(x, y);
            case Op.FMAX -> Double.isNaN(x) ? y : Double.isNaN(y) ? x : Math.max(x, y);
            case Op.FNEG -> -x;
            case Op.FABS -> Math.abs(x);
            case Op.FSQRT -> mode == Op.RN ? Math.sqrt(x) : Rounding.sqrt(x, mode);
            case Op.FRSQRT -> 1.0 / Math.sqrt(x);
            case Op.FRCP -> mode == Op.RN ? 1.0 / x : Rounding.div(1.0, x, mode);
            case Op.FEX2 -> Math.pow(2, x);
            case Op.FLG2 -> Math.log(x) * INV_LN2;
            case Op.FSIN -> Math.sin(x);
            case Op.FCOS -> Math.cos(x);
            case Op.FTANH -> Math.tanh(x);
            case Op.FCOPYSIGN -> Math.copySign(y, x);
            default -> throw new IllegalStateException("unknown float variant " + variant);
        };
        if ((flags & Op.FTZ) != 0 && Math.abs(v) < Double.MIN_NORMAL) {
            v = Math.copySign(0.0, v);
        }
        if ((flags & Op.SAT) != 0) {
            v = Double.isNaN(v) ? 0 : Math.max(0.0, Math.min(1.0, v));
        }
        return v;
    }

    private static boolean testp(double v, int kind) {
        return switch (kind) {
            case 0 -> Double.isFinite(v);
            case 1 -> Double.isInfinite(v);
            case 2 -> !Double.isNaN(v);
            case 3 -> Double.isNaN(v);
            case 4 -> Double.isFinite(v) && Math.abs(v) >= Double.MIN_NORMAL;
            default -> v != 0 && Math.abs(v) < Double.MIN_NORMAL;
        };
    }

    private static boolean testp(float v, int kind) {
        return switch (kind) {
            case 4 -> Float.isFinite(v) && Math.abs(v) >= Float.MIN_NORMAL;
            case 5 -> v != 0 && Math.abs(v) < Float.MIN_NORMAL;
            default -> testp((double) v, kind);
        };
    }

    /** A subnormal flushed to a zero of the same sign. */
    static float flush(float v) {
        return Math.abs(v) < Float.MIN_NORMAL ? Math.copySign(0f, v) : v;
    }

    static float f(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    static double g(long bits) {
        return Double.longBitsToDouble(bits);
    }

    static long bits(float v) {
        return Float.floatToRawIntBits(v);
    }
}
