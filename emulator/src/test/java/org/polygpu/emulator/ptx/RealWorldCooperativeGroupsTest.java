package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.backend.Dim3;
import org.polygpu.emulator.ptx.RealWorldCorpus.Compiled;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;

/**
 * cupy's polyphase channelizer ({@code cupyx.signal.channelize_poly}'s 8 × 8 kernel, unmodified): cooperative groups
 * ({@code tiled_partition<8>} of a {@code tiled_partition<32>}, {@code cg::reduce}), {@code thrust::complex} and
 * {@code if constexpr}, compiled for each modeled architecture (the V100's, A100's and H100's, where
 * {@code cg::reduce} may take other paths) and launched as cupy launches it. The reference is the kernel's
 * definition: {@code y[p][c] = Σ_j conj(h[j][c]) conj(x[p - j][C - 1 - c])} over the taps {@code j ≤ p} (for real
 * input, without the conjugates). Inputs are quarter-integers, so every order of summation is exact.
 */
class RealWorldCooperativeGroupsTest {
    static final int CHANNELS = 20;
    static final int TAPS = 6;
    static final int POINTS = 50;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"compute_70", "compute_80", "compute_90"})
    void channelizerFiltersEveryChannelInFloatComplexAndDouble(String arch) {
        Kernel k = RealWorldCorpus.kernel("channelizer");
        Compiled c = k.compile(arch);
        Random random = new Random(31);
        double[] xRe = quarters(random, POINTS * CHANNELS);
        double[] xIm = quarters(random, POINTS * CHANNELS);
        double[] hRe = quarters(random, TAPS * CHANNELS);
        double[] hIm = quarters(random, TAPS * CHANNELS);
        Dim3 grid = new Dim3((CHANNELS + 7) / 8, 16, 1); // cupy: 32 rows of blocks per SM; 16 exercise the stride
        Dim3 block = new Dim3(8, 8, 1);
        try (TestDevice d = new TestDevice()) {
            long y = d.allocate(16L * POINTS * CHANNELS);
            d.launch(c.module(), c.symbol("_cupy_channelizer_8x8<float,thrust::complex<float>>"), grid, block, 0,
                    CHANNELS, TAPS, POINTS, d.floats(floats(xRe)), d.floats(floats(hRe)), y);
            assertArrayEquals(floats(reference(xRe, null, hRe, null)), d.floatsAt(y, 2 * POINTS * CHANNELS),
                    k.origin() + " <float>, " + arch);
            d.launch(c.module(), c.symbol("_cupy_channelizer_8x8<double,thrust::complex<double>>"), grid, block, 0,
                    CHANNELS, TAPS, POINTS, d.doubles(xRe), d.doubles(hRe), y);
            assertArrayEquals(reference(xRe, null, hRe, null), d.doublesAt(y, 2 * POINTS * CHANNELS),
                    k.origin() + " <double>, " + arch);
            d.launch(c.module(), c.symbol("_cupy_channelizer_8x8<thrust::complex<float>,thrust::complex<float>>"),
                    grid, block, 0, CHANNELS, TAPS, POINTS, d.floats(floats(interleave(xRe, xIm))),
                    d.floats(floats(interleave(hRe, hIm))), y);
            assertArrayEquals(floats(reference(xRe, xIm, hRe, hIm)), d.floatsAt(y, 2 * POINTS * CHANNELS),
                    k.origin() + " <complex<float>>, " + arch);
        }
    }

    /** Interleaved (re, im) outputs; {@code xIm} and {@code hIm} are null for real input. */
    static double[] reference(double[] xRe, double[] xIm, double[] hRe, double[] hIm) {
        double[] y = new double[2 * POINTS * CHANNELS];
        for (int p = 0; p < POINTS; p++) {
            for (int ch = 0; ch < CHANNELS; ch++) {
                double re = 0;
                double im = 0;
                for (int j = 0; j < TAPS && j <= p; j++) {
                    int h = j * CHANNELS + ch;
                    int x = (p - j) * CHANNELS + CHANNELS - 1 - ch;
                    // conj(h) conj(x) = (a - bi)(c - di) = (ac - bd) - (ad + bc)i
                    double a = hRe[h];
                    double b = hIm == null ? 0 : hIm[h];
                    double cc = xRe[x];
                    double dd = xIm == null ? 0 : xIm[x];
                    re += a * cc - b * dd;
                    im -= a * dd + b * cc;
                }
                y[2 * (p * CHANNELS + ch)] = re;
                y[2 * (p * CHANNELS + ch) + 1] = im == 0 ? 0 : im; // no negative zero: the kernel sums from +0
            }
        }
        return y;
    }

    static double[] quarters(Random random, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = (random.nextInt(17) - 8) / 4.0;
        }
        return v;
    }

    private static double[] interleave(double[] re, double[] im) {
        double[] v = new double[2 * re.length];
        for (int i = 0; i < re.length; i++) {
            v[2 * i] = re[i];
            v[2 * i + 1] = im[i];
        }
        return v;
    }

    static float[] floats(double[] v) {
        return RealWorldCupyTest.toFloats(v);
    }
}
