package org.polygpu.emulator.ptx;

import java.math.BigDecimal;

/**
 * IEEE directed rounding (PTX {@code .rz}, {@code .rm}, {@code .rp}) on top of Java's round-to-nearest: a result is
 * computed as a round-to-nearest value {@code s} plus the sign of the exact error, then moved one ulp when the
 * direction asks for it.
 */
final class Rounding {
    private Rounding() {
    }

    /** The float nearest {@code s + e} in direction {@code mode}, where {@code e} is tiny beside {@code s}. */
    static float toFloat(double s, double e, int mode) {
        float f = (float) s;
        if (mode == Op.RN || Double.isNaN(s)) {
            return f;
        }
        int cmp = s > f ? 1 : s < f ? -1 : (int) Math.signum(e);
        // cmp > 0: the exact value lies above f; cmp < 0: below.
        return switch (mode) {
            case Op.RZ -> f > 0 && cmp < 0 ? Math.nextDown(f) : f < 0 && cmp > 0 ? Math.nextUp(f) : f;
            case Op.RM -> cmp < 0 ? Math.nextDown(f) : f;
            default -> cmp > 0 ? Math.nextUp(f) : f;
        };
    }

    /** The double nearest {@code s + e} in direction {@code mode}, {@code s} being the round-to-nearest result. */
    static double toDouble(double s, double e, int mode) {
        if (mode == Op.RN || e == 0 || Double.isNaN(s) || Double.isNaN(e)) {
            return s;
        }
        return switch (mode) {
            case Op.RZ -> (s > 0 && e < 0) ? Math.nextDown(s) : (s < 0 && e > 0) ? Math.nextUp(s) : s;
            case Op.RM -> e < 0 ? Math.nextDown(s) : s;
            default -> e > 0 ? Math.nextUp(s) : s;
        };
    }

    /** The exact error of {@code s = x + y} (Knuth's TwoSum). */
    static double sumError(double x, double y, double s) {
        double yv = s - x;
        double xv = s - yv;
        return (x - xv) + (y - yv);
    }

    static float add(float x, float y, int mode) {
        double s = (double) x + y;
        return toFloat(s, sumError(x, y, s), mode);
    }

    static float mul(float x, float y, int mode) {
        return toFloat((double) x * y, 0, mode); // exact in double
    }

    static float fma(float x, float y, float z, int mode) {
        double p = (double) x * y; // exact
        double s = p + z;
        return toFloat(s, sumError(p, z, s), mode);
    }

    static float div(float x, float y, int mode) {
        double q = (double) x / y;
        double r = Math.fma(-q, y, x);
        return toFloat(q, Double.isFinite(q) && y != 0 ? r / y : 0, mode);
    }

    static float sqrt(float x, int mode) {
        double q = Math.sqrt(x);
        return toFloat(q, Double.isFinite(q) ? Math.fma(-q, q, x) : 0, mode);
    }

    static double add(double x, double y, int mode) {
        double s = x + y;
        return toDouble(s, Double.isFinite(s) ? sumError(x, y, s) : 0, mode);
    }

    static double mul(double x, double y, int mode) {
        double p = x * y;
        return toDouble(p, Double.isFinite(p) ? Math.fma(x, y, -p) : 0, mode);
    }

    static double div(double x, double y, int mode) {
        double q = x / y;
        return toDouble(q, Double.isFinite(q) && y != 0 ? Math.fma(-q, y, x) / y : 0, mode);
    }

    static double sqrt(double x, int mode) {
        double q = Math.sqrt(x);
        return toDouble(q, Double.isFinite(q) ? Math.fma(-q, q, x) : 0, mode);
    }

    /** Directed fused multiply-add in double, exactly through {@link BigDecimal} (rare in practice). */
    static double fma(double x, double y, double z, int mode) {
        double s = Math.fma(x, y, z);
        if (mode == Op.RN || !Double.isFinite(s) || !Double.isFinite(x) || !Double.isFinite(y)) {
            return s;
        }
        BigDecimal exact = new BigDecimal(x).multiply(new BigDecimal(y)).add(new BigDecimal(z));
        int cmp = exact.compareTo(new BigDecimal(s));
        return toDouble(s, cmp, mode);
    }

    /** {@code v} rounded to a float by {@code mode}, exactly (for 64-bit integers). */
    static float longToFloat(long v, boolean unsigned, int mode) {
        BigDecimal exact = unsigned && v < 0 ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
        float f = exact.floatValue();
        return toFloat(f, exact.compareTo(new BigDecimal(f)), mode);
    }

    /** {@code v} rounded to a double by {@code mode}, exactly. */
    static double longToDouble(long v, boolean unsigned, int mode) {
        BigDecimal exact = unsigned && v < 0 ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
        double d = exact.doubleValue();
        return toDouble(d, exact.compareTo(new BigDecimal(d)), mode);
    }
}
