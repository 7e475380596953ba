package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Transcendentals: approx instructions (fast math), NVRTC's precise library code, and Black-Scholes. */
class MathTest {
    private static final float[] X = {0.1f, 0.5f, 1f, 1.5f, 2f, 3.14159f, 10f, 37.5f, 100f, 1234.5f, 0.001f, 7.25f,
        12345.678f, 123456.7f, 1e6f, 3e7f};

    @Test
    void approxInstructionsAreWithinTheirErrorBounds() {
        check("math.ptx", "fast_math", 2e-6, false);
    }

    @Test
    void preciseLibraryFunctionsIncludingLargeArgumentReduction() {
        check("precise_math.ptx", "precise_math", 2e-7, true);
    }

    private static void check(String fixture, String kernel, double relative, boolean pow) {
        int n = X.length;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(32L * n);
            d.launch(TestDevice.module(fixture), kernel, 1, 32, d.floats(X), out, n);
            float[] o = d.floatsAt(out, 8 * n);
            for (int i = 0; i < n; i++) {
                double v = X[i];
                double[] expected = {Math.exp(v), Math.log(v), Math.sin(v), Math.cos(v), 1 / Math.sqrt(v),
                    Math.sqrt(v), 1 / v, pow ? Math.pow(v, 1.5) : Math.pow(2, v) + Math.log(v) / Math.log(2)};
                for (int k = 0; k < 8; k++) {
                    if ((k == 2 || k == 3) && !pow && v > 100) {
                        continue; // sin.approx and cos.approx are only accurate near [-pi, pi]
                    }
                    double e = expected[k];
                    double tolerance = Math.max(Math.abs(e) * relative, (k == 2 || k == 3) ? 1e-6 : 0);
                    if (Double.isInfinite(e) || e > Float.MAX_VALUE) {
                        assertEquals(Float.POSITIVE_INFINITY, o[8 * i + k], "result " + k + " of " + v);
                    } else {
                        assertEquals(e, o[8 * i + k], tolerance, "result " + k + " of " + v);
                    }
                }
            }
        }
    }

    @Test
    void preciseDoubleLibraryFunctions() {
        double[] x = {0.1, 0.5, 1, 2.5, 10, 100, 700, 1e5, 1e9, 3.3e-5};
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(32L * x.length);
            d.launch(TestDevice.module("precise_math.ptx"), "precise_double", 1, 32, d.doubles(x), out, x.length);
            double[] o = d.doublesAt(out, 4 * x.length);
            for (int i = 0; i < x.length; i++) {
                double[] expected = {Math.exp(x[i]), Math.log(x[i]), Math.sin(x[i]), 1 / x[i]};
                for (int k = 0; k < 4; k++) {
                    assertEquals(expected[k], o[4 * i + k], Math.abs(expected[k]) * 1e-15 + 1e-300,
                            "result " + k + " of " + x[i]);
                }
            }
        }
    }

    @Test
    void blackScholesMatchesAJavaReference() {
        int n = 1000;
        float[] s = new float[n];
        for (int i = 0; i < n; i++) {
            s[i] = 60f + i * 0.08f;
        }
        float r = 0.02f;
        float v = 0.3f;
        float t = 1.5f;
        float k = 100f;
        try (TestDevice d = new TestDevice()) {
            long call = d.allocate(4L * n);
            d.launch(TestDevice.module("blackscholes.ptx"), "bs", 4, 128, d.floats(s), call, n, r, v, t, k);
            float[] out = d.floatsAt(call, n);
            for (int i = 0; i < n; i++) {
                double sq = Math.sqrt(t);
                double d1 = (Math.log(s[i] / k) + (r + 0.5 * v * v) * t) / (v * sq);
                double d2 = d1 - v * sq;
                double expected = s[i] * cnd(d1) - k * Math.exp(-r * t) * cnd(d2);
                assertEquals(expected, out[i], 2e-4 * Math.max(1, expected), "s = " + s[i]);
            }
        }
    }

    private static double cnd(double d) {
        double k = 1 / (1 + 0.2316419 * Math.abs(d));
        double c = 0.39894228040143267793994605993438 * Math.exp(-0.5 * d * d)
                * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
        return d > 0 ? 1 - c : c;
    }
}
