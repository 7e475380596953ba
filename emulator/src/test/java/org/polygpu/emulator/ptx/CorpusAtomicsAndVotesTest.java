package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.emulator.ptx.CorpusTest.corpus;

import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The corpus kernels built on atomics and warp votes (histogram, compare-and-swap maximum, ballots), run on the
 * interpreter and compared with Java references, as in {@link CorpusTest}.
 */
class CorpusAtomicsAndVotesTest {
    @Test
    void histogramDoublesBallotsCasMaxTemplatesAndDeviceHelper() {
        Random random = new Random(4);
        try (TestDevice d = new TestDevice()) {
            int n = 100_000;
            byte[] data = new byte[n];
            random.nextBytes(data);
            int[] bins = new int[256];
            for (byte v : data) {
                bins[v & 0xFF]++;
            }
            long dd = d.allocate(n);
            java.lang.foreign.MemorySegment.copy(data, 0, d.segment(dd), ValueLayout.JAVA_BYTE, 0, n);
            long db = d.ints(new int[256]);
            d.launch(corpus("histogram"), "histogram256", 16, 256, dd, n, db);
            assertArrayEquals(bins, d.intsAt(db, 256));

            PtxModule dp = corpus("double_precision");
            double[] x = new double[1000];
            double sum = 0;
            for (int i = 0; i < x.length; i++) {
                x[i] = (i % 41 - 20) / 4.0;
                sum += x[i];
            }
            long y = d.allocate(8L * x.length);
            d.launch(dp, "normal_pdf", 4, 256, d.doubles(x), y, x.length, 0.5, 2.0);
            double[] pdf = d.doublesAt(y, x.length);
            for (int i = 0; i < x.length; i++) {
                double ref = Math.exp(-(x[i] - 0.5) * (x[i] - 0.5) / 4.0) / Math.sqrt(2 * 3.14159265358979323846 * 2);
                assertEquals(ref, pdf[i], ref * 1e-14, "pdf " + x[i]);
            }
            long total = d.doubles(0.0);
            d.launch(dp, "sum_double", 4, 256, d.doubles(x), total, x.length);
            assertEquals(sum, d.doublesAt(total, 1)[0]);

            float[] values = new float[64 * 256];
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < values.length; i++) {
                values[i] = -100 + random.nextInt(1000) / 8f;
                max = Math.max(max, values[i]);
            }
            long result = d.floats(Float.NEGATIVE_INFINITY);
            d.launch(corpus("atomic_cas"), "max_float", 64, 256, d.floats(values), values.length, result);
            assertEquals(max, d.floatsAt(result, 1)[0]);

            PtxModule t = corpus("templated");
            long ints = d.ints(1, 2, 3, Integer.MAX_VALUE);
            d.launch(t, "_Z10inc_kernelIiEvPT_S0_i", 1, 32, ints, 5, 4);
            assertArrayEquals(new int[] {6, 7, 8, Integer.MIN_VALUE + 4}, d.intsAt(ints, 4));
            long doubles = d.doubles(1.5, 2.5);
            d.launch(t, "_Z10inc_kernelIdEvPT_S0_i", 1, 32, doubles, 0.25, 2);
            assertArrayEquals(new double[] {1.75, 2.75}, d.doublesAt(doubles, 2));

            float[] px = {-1f, -0.5f, 0f, 0.3f, 1f};
            float[] c = {1f, 1f, 0.5f, 1f / 6f, 1f / 24f, 1f / 120f, 1f / 720f, 1f / 5040f};
            for (int degree : new int[] {0, 1, 7}) {
                long py = d.allocate(4L * px.length);
                d.launch(corpus("device_helper"), "poly_eval", 1, 32, d.floats(px), py, px.length, degree);
                float[] got = d.floatsAt(py, px.length);
                for (int i = 0; i < px.length; i++) {
                    float r = c[degree];
                    for (int k = degree - 1; k >= 0; k--) {
                        r = Math.fma(r, px[i], c[k]);
                    }
                    assertEquals(r, got[i], "degree " + degree + " x " + px[i]);
                }
            }
        }
    }

    @Test
    void ballotsCountPositiveLanesAndVote() {
        int n = 1000;
        int warps = 32; // 4 blocks of 256
        float[] x = new float[n];
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = i % 3 == 0 ? -1f : i % 3 == 1 ? 0f : 2f;
            v[i] = i < 64 ? 0 : i < 96 ? 1 : i % 5;
        }
        x[5] = -0f;
        PtxModule m = corpus("ballot");
        try (TestDevice d = new TestDevice()) {
            long masks = d.allocate(4L * warps);
            long count = d.ints(0);
            d.launch(m, "count_positive", 4, 256, d.floats(x), n, masks, count);
            int[] expected = new int[warps];
            int total = 0;
            for (int i = 0; i < n; i++) {
                if (x[i] > 0) {
                    expected[i / 32] |= 1 << (i % 32);
                    total++;
                }
            }
            assertArrayEquals(expected, d.intsAt(masks, warps));
            assertEquals(total, d.intsAt(count, 1)[0]);
            long any = d.allocate(4L * warps);
            long all = d.allocate(4L * warps);
            d.launch(m, "warp_vote", 4, 256, d.ints(v), n, any, all);
            int[] anyExpected = new int[warps];
            int[] allExpected = new int[warps];
            for (int w = 0; w < warps; w++) {
                boolean a = false;
                boolean e = true;
                for (int l = 0; l < 32; l++) {
                    int i = 32 * w + l;
                    boolean nonZero = i < n && v[i] != 0;
                    a |= nonZero;
                    e &= nonZero;
                }
                anyExpected[w] = a ? 1 : 0;
                allExpected[w] = e ? 1 : 0;
            }
            assertArrayEquals(anyExpected, d.intsAt(any, warps));
            assertArrayEquals(allExpected, d.intsAt(all, warps));
        }
    }
}
