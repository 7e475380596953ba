package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.RealWorldCorpus.Compiled;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;

/**
 * {@code cupyx.scipy.interpolate.PPoly.__call__}'s two kernels, unmodified, launched as cupy's
 * {@code _ppoly_evaluate} launches them: the interval of each point by binary search over the breakpoints, then the
 * local polynomials (or their derivative) there, with extrapolation from the first and last intervals. Skipped
 * without NVRTC or the corpus.
 */
class RealWorldInterpolateTest {
    @Test
    void piecewisePolynomialsAndTheirDerivativesMatchHorner() {
        Kernel interval = RealWorldCorpus.kernel("interval");
        Kernel ppoly = RealWorldCorpus.kernel("ppoly");
        Compiled find = interval.compile("compute_70");
        Compiled eval = ppoly.compile("compute_70");
        Random random = new Random(41);
        int k = 4; // cubics
        int m = 10;
        int n = 2;
        double[] breaks = new double[m + 1];
        for (int i = 1; i <= m; i++) {
            breaks[i] = breaks[i - 1] + 0.5 + random.nextDouble();
        }
        double[] c = new double[k * m * n]; // shape (k, m, n), C order, highest power first
        for (int i = 0; i < c.length; i++) {
            c[i] = random.nextDouble() * 2 - 1;
        }
        int points = 500;
        double[] xp = new double[points];
        for (int i = 0; i < points; i++) {
            xp[i] = -0.5 + random.nextDouble() * (breaks[m] + 1);
        }
        xp[0] = breaks[0];
        xp[1] = breaks[m];
        xp[2] = breaks[3];
        long[] expectedIntervals = new long[points];
        for (int i = 0; i < points; i++) {
            int at = Arrays.binarySearch(breaks, xp[i]);
            int left = at >= 0 ? at : -at - 2; // the interval [breaks[left], breaks[left + 1]) holding xp[i]
            expectedIntervals[i] = Math.clamp(left, 0, m - 1);
        }
        int grid = (points + 127) / 128;
        try (TestDevice d = new TestDevice()) {
            long x = d.doubles(breaks);
            long pts = d.doubles(xp);
            long intervals = d.allocate(8L * points);
            d.launch(find.module(), find.symbol("find_breakpoint_position_1d"), grid, 128, x, pts, intervals,
                    (byte) 1, points, m + 1, d.bytes((byte) 1));
            assertArrayEquals(expectedIntervals, d.longsAt(intervals, points), interval.origin());
            long coef = d.doubles(c);
            long shape = d.longs(k, m, n);
            long strides = d.longs((long) m * n, n, 1);
            for (int dx = 0; dx <= 1; dx++) {
                long out = d.allocate(8L * points * n);
                d.launch(eval.module(), eval.symbol("eval_ppoly<double>"), grid, 128, coef, x, pts, intervals, dx,
                        shape, strides, points, out);
                double[] got = d.doublesAt(out, points * n);
                for (int i = 0; i < points; i++) {
                    int iv = (int) expectedIntervals[i];
                    double s = xp[i] - breaks[iv];
                    for (int j = 0; j < n; j++) {
                        double value = 0;
                        for (int power = k - 1; power >= dx; power--) {
                            double a = c[(k - 1 - power) * m * n + iv * n + j] * (dx == 1 ? power : 1);
                            value = value * s + a;
                        }
                        assertEquals(value, got[i * n + j], 1e-12 * Math.max(1, Math.abs(value)), ppoly.origin()
                                + ", derivative " + dx + ", point " + xp[i] + ", polynomial " + j);
                    }
                }
            }
        }
    }
}
