package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Conversions with every rounding mode and saturation, integer bit operations, doubles, module variables. */
class NumericTest {
    private static final PtxModule NUMERIC = TestDevice.module("numeric.ptx");
    private static final float[] VALUES = {1.5f, 2.5f, -1.5f, -2.5f, 0.49999997f, 1e10f, -1e10f, Float.NaN, 3.7f,
        -3.7f, 0f, -0f, 1e-40f, 65537.5f, 255.9f, 300.2f, -0.5f, 0.5f, 4.5e9f, 2147483520f, -2147483648f, 1f, 0.999f,
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 7.5f, -7.5f, 1e20f, -1e20f, 123.456f, 32768.9f, -32769.2f};

    @Test
    void floatToIntegerAndBackWithRoundingModesAndSaturation() {
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(48L * 32);
            d.launch(NUMERIC, "conversions", 1, 32, d.floats(VALUES), out);
            int[] o = d.intsAt(out, 12 * 32);
            for (int t = 0; t < 32; t++) {
                float v = VALUES[t];
                int rz = (int) v;
                int[] expected = {(int) Math.rint(v), rz, (int) Math.floor(v), (int) Math.ceil(v),
                    (int) (long) Math.max(0, Math.min(4294967295.0, Float.isNaN(v) ? 0 : Math.rint(v))), rz,
                    Float.floatToRawIntBits(Float.isNaN(v) ? 0f : Math.max(0f, Math.min(1f, v))),
                    Float.floatToRawIntBits((float) (long) v), (short) rz,
                    Float.floatToRawIntBits(towardZero(t * 16777217)), rz & 255, Float.floatToRawIntBits(v * 3.0f)};
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(o, 12 * t, 12 * t + 12), "value " + v);
            }
        }
    }

    /** An int rounded toward zero to a float. */
    private static float towardZero(int x) {
        float f = x;
        if (Math.abs((double) f) > Math.abs((double) x)) {
            f = Math.nextAfter(f, 0.0);
        }
        return f;
    }

    @Test
    void bitCountsFieldsPermutesHighMultipliesDivisions() {
        int[] in = new int[32];
        for (int t = 0; t < 32; t++) {
            in[t] = t * 0x9E3779B9 ^ (t << 3) - 5;
        }
        in[0] = 0;
        in[1] = -1;
        in[2] = Integer.MIN_VALUE;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(40L * 32);
            d.launch(NUMERIC, "bits", 1, 32, d.ints(in), out);
            int[] o = d.intsAt(out, 10 * 32);
            for (int t = 0; t < 32; t++) {
                int v = in[t];
                int perm = (v & 0xFF) | 0x67 << 8 | ((v >>> 8) & 0xFF) << 16 | 0x45 << 24;
                int[] expected = {Integer.bitCount(v), Integer.numberOfLeadingZeros(v), Integer.reverse(v), perm,
                    (v >>> 3) & 0x1F, (int) (((v & 0xFFFF_FFFFL) * 0x9E3779B9L) >>> 32), (int) (((long) v * -7) >> 32),
                    v / 7 + v % 7, Integer.divideUnsigned(v, 13) + Integer.remainderUnsigned(v, 13),
                    Math.min(v, 5) + (Integer.compareUnsigned(v, 9) > 0 ? v : 9) + Math.abs(v)};
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(o, 10 * t, 10 * t + 10), "value " + v);
            }
        }
    }

    @Test
    void doublePrecisionArithmetic() {
        int n = 40;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * 0.37 - 3;
        }
        double a = 1.75;
        try (TestDevice d = new TestDevice()) {
            long y = d.allocate(8L * n);
            d.launch(NUMERIC, "dscale", 2, 32, d.doubles(x), y, a, n);
            double[] out = d.doublesAt(y, n);
            for (int i = 0; i < n; i++) {
                double v = x[i];
                double expected = Math.sqrt(a * v * v + 1.0) / (v + 2.0) + Math.fma(v, a, -1.0);
                assertEquals(expected, out[i], Math.abs(expected) * 1e-15, "x = " + v);
            }
        }
    }

    @Test
    void moduleGlobalAndConstVariablesKeepTheirInitialisers() {
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * 32);
            d.launch(NUMERIC, "module_data", 1, 32, out);
            float[] coef = {0.5f, 1.5f, 2.5f, 3.5f};
            int[] table = {10, 20, 30, 40};
            float[] o = d.floatsAt(out, 32);
            for (int t = 0; t < 32; t++) {
                assertEquals(coef[t % 4] * table[t % 4], o[t], "thread " + t);
            }
        }
    }

    @Test
    void extendShiftAgreesWithExtendForEveryType() {
        long[] raws = {0, 1, -1, 0x7F, 0x80, 0xFF, 0x8000, 0xFFFF, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL,
            0x1234_5678_9ABC_DEF0L, Long.MIN_VALUE, Long.MAX_VALUE};
        for (PtxType t : PtxType.values()) {
            int s = t.extendShift();
            for (long raw : raws) {
                assertEquals(t.extend(raw), t.isSigned() ? raw << s >> s : raw << s >>> s, t + " " + raw);
            }
        }
    }
}
