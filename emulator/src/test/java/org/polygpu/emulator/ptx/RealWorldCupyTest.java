package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.RealWorldCorpus.Compiled;
import org.polygpu.emulator.ptx.RealWorldCorpus.Kernel;

/**
 * cupy's signal-processing kernels ({@link RealWorldCorpus}: cupy 14.2.0's sources, unmodified, with their cupy
 * headers), compiled for the emulated V100 and launched as cupy's own Python code launches them, against Java
 * references written from the functions' definitions. Skipped without NVRTC or the corpus.
 */
class RealWorldCupyTest {
    private static final String V100 = "compute_70";

    /** {@code cupyx.scipy.signal.max_len_seq}: a Fibonacci shift register, one thread per bit, in one warp. */
    @Test
    void maxLenSeqIsTheMaximumLengthSequenceOfItsTaps() {
        Kernel k = RealWorldCorpus.kernel("max_len_seq");
        Compiled c = k.compile(V100);
        int nbits = 10;
        long[] taps = {7}; // cupy's default taps for 10 bits
        int length = (1 << nbits) - 1;
        byte[] state = new byte[nbits];
        Arrays.fill(state, (byte) 1);
        byte[] expected = new byte[length];
        byte[] s = state.clone();
        for (int i = 0; i < length; i++) {
            expected[i] = s[0];
            byte feedback = s[0];
            for (long t : taps) {
                feedback ^= s[(int) t];
            }
            System.arraycopy(s, 1, s, 0, nbits - 1);
            s[nbits - 1] = feedback;
        }
        try (TestDevice d = new TestDevice()) {
            long st = d.bytes(state);
            long seq = d.allocate(length);
            d.launch(c.module(), c.symbol("max_len_seq"), 1, nbits, (long) length, (long) taps.length, nbits,
                    d.longs(taps), st, seq);
            byte[] got = d.bytesAt(seq, length);
            assertArrayEquals(expected, got, k.origin());
            assertArrayEquals(s, d.bytesAt(st, nbits), k.origin() + ": final state");
            int ones = 0;
            for (byte b : got) {
                ones += b;
            }
            assertEquals(1 << (nbits - 1), ones, "a maximum length sequence has 2^(n-1) ones");
        }
    }

    /**
     * {@code cupyx.scipy.signal.upfirdn}: upsample by {@code up}, filter with {@code h}, downsample by {@code down};
     * the filter is passed as cupy's {@code _pad_h} arranges it (phases transposed and flipped).
     */
    @Test
    void upfirdnMatchesUpsampleFilterDownsampleInFloatAndDouble() {
        Kernel k = RealWorldCorpus.kernel("upfirdn");
        Compiled c = k.compile(V100);
        int up = 3;
        int down = 2;
        Random random = new Random(11);
        double[] x = new double[100];
        double[] h = new double[10];
        for (int i = 0; i < x.length; i++) {
            x[i] = random.nextDouble() * 2 - 1;
        }
        for (int i = 0; i < h.length; i++) {
            h[i] = random.nextDouble();
        }
        int padLength = h.length + Math.floorMod(-h.length, up);
        int perPhase = padLength / up;
        double[] flipped = new double[padLength];
        for (int phase = 0; phase < up; phase++) {
            for (int j = 0; j < perPhase; j++) {
                int tap = (perPhase - 1 - j) * up + phase;
                flipped[phase * perPhase + j] = tap < h.length ? h[tap] : 0;
            }
        }
        int outLength = ((x.length - 1) * up + h.length - 1) / down + 1;
        double[] expected = new double[outLength];
        for (int o = 0; o < outLength; o++) {
            for (int j = 0; j < h.length; j++) {
                int u = o * down - j; // index into the upsampled signal
                if (u >= 0 && u % up == 0 && u / up < x.length) {
                    expected[o] += h[j] * x[u / up];
                }
            }
        }
        int padded = x.length + perPhase - 1;
        int grid = (x.length + 127) / 128;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(8L * outLength);
            d.launch(c.module(), c.symbol("_cupy_upfirdn1D_float64"), grid, 128, d.doubles(x), 1L, d.doubles(flipped),
                    up, down, 0, x.length, perPhase, padded, out, outLength);
            double[] got = d.doublesAt(out, outLength);
            for (int o = 0; o < outLength; o++) {
                assertEquals(expected[o], got[o], 1e-12, k.origin() + " float64, output " + o);
            }
            long outF = d.allocate(4L * outLength);
            d.launch(c.module(), c.symbol("_cupy_upfirdn1D_float32"), grid, 128, d.floats(toFloats(x)), 1L,
                    d.floats(toFloats(flipped)), up, down, 0, x.length, perPhase, padded, outF, outLength);
            float[] gotF = d.floatsAt(outF, outLength);
            for (int o = 0; o < outLength; o++) {
                assertEquals(expected[o], gotF[o], 1e-5, k.origin() + " float32, output " + o);
            }
        }
    }

    /** {@code find_peaks}' first step: every local maximum, plateaus included, with its edges and midpoint. */
    @Test
    void localMaximaFindPeaksAndPlateaus() {
        Kernel k = RealWorldCorpus.kernel("peaks");
        Compiled c = k.compile(V100);
        Random random = new Random(12);
        int n = 1000;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i > 0 && random.nextInt(4) == 0 ? x[i - 1] : random.nextInt(8); // plateaus of equal values
        }
        int samples = n - 2;
        long[] mid = new long[samples];
        long[] left = new long[samples];
        long[] right = new long[samples];
        Arrays.fill(mid, -1);
        Arrays.fill(left, -1);
        Arrays.fill(right, -1);
        for (int i = 1; i < n - 1; i++) {
            if (x[i - 1] < x[i]) {
                int ahead = i + 1;
                while (ahead < n - 1 && x[ahead] == x[i]) {
                    ahead++;
                }
                if (x[ahead] < x[i]) {
                    left[i - 1] = i;
                    right[i - 1] = ahead - 1;
                    mid[i - 1] = (i + ahead - 1) / 2;
                }
            }
        }
        try (TestDevice d = new TestDevice()) {
            long m = d.allocate(8L * samples);
            long l = d.allocate(8L * samples);
            long r = d.allocate(8L * samples);
            d.launch(c.module(), c.symbol("local_maxima_1d<double>"), (samples + 127) / 128, 128, n, d.doubles(x), m,
                    l, r);
            assertArrayEquals(mid, d.longsAt(m, samples), k.origin() + ": midpoints");
            assertArrayEquals(left, d.longsAt(l, samples), k.origin() + ": left edges");
            assertArrayEquals(right, d.longsAt(r, samples), k.origin() + ": right edges");
        }
    }

    /** {@code argrelmax}'s kernel: {@code x[i] > x[i ± o]} for o up to {@code order}, clipped or wrapped. */
    @Test
    void boolRelativeExtremaClipAndWrapAtTheEdges() {
        Kernel k = RealWorldCorpus.kernel("argrelextrema");
        Compiled c = k.compile(V100);
        Random random = new Random(13);
        int n = 3000;
        int order = 3;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = random.nextInt(50);
        }
        try (TestDevice d = new TestDevice()) {
            long in = d.floats(x);
            for (boolean clip : new boolean[] {true, false}) {
                byte[] expected = new byte[n];
                for (int i = 0; i < n; i++) {
                    boolean extremum = true;
                    for (int o = 1; o <= order; o++) {
                        int plus = clip ? Math.min(i + o, n - 1) : (i + o) % n;
                        int minus = clip ? Math.max(i - o, 0) : Math.floorMod(i - o, n);
                        extremum &= x[i] > x[plus] && x[i] > x[minus];
                    }
                    expected[i] = (byte) (extremum ? 1 : 0);
                }
                long results = d.allocate(n);
                // cupy launches 20 blocks of 512 per multiprocessor; 8 blocks exercise the grid-stride loop too
                d.launch(c.module(), c.symbol("boolrelextrema_1D<float>"), 2, 512, n, order, (byte) (clip ? 1 : 0),
                        1, in, results);
                assertArrayEquals(expected, d.bytesAt(results, n), k.origin() + (clip ? " clip" : " wrap"));
            }
        }
    }

    /** {@code cupyx.scipy.signal.lombscargle}'s kernel: the periodogram of unevenly sampled data. */
    @Test
    void lombScargleMatchesADoubleReference() {
        Kernel k = RealWorldCorpus.kernel("lombscargle");
        Compiled c = k.compile(V100);
        Random random = new Random(14);
        int samples = 200;
        int nf = 300;
        double[] t = new double[samples];
        double[] y = new double[samples];
        double[] freqs = new double[nf];
        for (int i = 0; i < samples; i++) {
            t[i] = i * 0.1 + random.nextDouble() * 0.05;
            y[i] = Math.sin(2.1 * t[i]) + 0.3 * random.nextGaussian();
        }
        for (int f = 0; f < nf; f++) {
            freqs[f] = 0.05 + f * 0.02;
        }
        double[] expected = new double[nf];
        for (int f = 0; f < nf; f++) {
            double xc = 0;
            double xs = 0;
            double cc = 0;
            double ss = 0;
            double cs = 0;
            for (int j = 0; j < samples; j++) {
                double sin = Math.sin(freqs[f] * t[j]);
                double cos = Math.cos(freqs[f] * t[j]);
                xc += y[j] * cos;
                xs += y[j] * sin;
                cc += cos * cos;
                ss += sin * sin;
                cs += cos * sin;
            }
            double tau = Math.atan2(2 * cs, cc - ss) / (2 * freqs[f]);
            double ct = Math.cos(freqs[f] * tau);
            double st = Math.sin(freqs[f] * tau);
            double a = ct * xc + st * xs;
            double b = ct * xs - st * xc;
            expected[f] = 0.5 * (a * a / (ct * ct * cc + 2 * ct * st * cs + st * st * ss)
                    + b * b / (ct * ct * ss - 2 * ct * st * cs + st * st * cc));
        }
        try (TestDevice d = new TestDevice()) {
            long pgram = d.allocate(8L * nf);
            d.launch(c.module(), c.symbol("_cupy_lombscargle_float64"), 2, 128, samples, nf, d.doubles(t),
                    d.doubles(y), d.doubles(freqs), pgram, d.doubles(0));
            double[] got = d.doublesAt(pgram, nf);
            long pgramF = d.allocate(4L * nf);
            d.launch(c.module(), c.symbol("_cupy_lombscargle_float32"), 2, 128, samples, nf, d.floats(toFloats(t)),
                    d.floats(toFloats(y)), d.floats(toFloats(freqs)), pgramF, d.floats(0));
            float[] gotF = d.floatsAt(pgramF, nf);
            for (int f = 0; f < nf; f++) {
                assertEquals(expected[f], got[f], 1e-9 * Math.max(1, expected[f]), k.origin() + " float64, " + f);
                assertEquals(expected[f], gotF[f], 2e-2 * Math.max(1, expected[f]), k.origin() + " float32, " + f);
            }
        }
    }

    /** Cell-averaging CFAR ({@code cupyx.signal.ca_cfar}, 1-D): the threshold from the cumulative sum. */
    @Test
    void cellAveragingCfarThresholdsAreTheScaledReferenceCellSums() {
        Kernel k = RealWorldCorpus.kernel("ca_cfar");
        Compiled c = k.compile(V100);
        int n = 500;
        int guard = 2;
        int reference = 5;
        float alpha = 1.5f;
        int cells = 2 * reference;
        Random random = new Random(15);
        float[] a = new float[n];
        float[] cumulative = new float[n];
        for (int i = 0; i < n; i++) {
            a[i] = random.nextInt(10); // integer sums are exact in float
            cumulative[i] = (i > 0 ? cumulative[i - 1] : 0) + a[i];
        }
        float[] expected = new float[n];
        for (int x = guard + reference; x < n - guard - reference; x++) {
            float sum = 0;
            for (int j = x - guard - reference; j <= x + guard + reference; j++) {
                sum += Math.abs(j - x) > guard ? a[j] : 0;
            }
            expected[x] = alpha / cells * sum;
        }
        try (TestDevice d = new TestDevice()) {
            long mask = d.floats(new float[n]);
            int threads = 32;
            int blocks = (n - 2 * reference - 2 * guard + threads - 1) / threads; // as cupy launches it
            d.launch(c.module(), c.symbol("_ca_cfar_1d_kernel"), blocks, threads, d.floats(a), d.floats(cumulative),
                    mask, n, cells, alpha, guard, reference);
            assertArrayEquals(expected, d.floatsAt(mask, n), 1e-5f, k.origin());
        }
    }

    static float[] toFloats(double[] x) {
        float[] f = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            f[i] = (float) x[i];
        }
        return f;
    }
}
