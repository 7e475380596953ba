package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.Dim3;

/**
 * The kernel corpus ({@code org/polygpu/emulator/corpus}) run on the interpreter and compared with the Java references
 * its README gives: bit-exact where NVRTC's contraction into {@code fma.rn} is reproduced with {@link Math#fma}.
 */
class CorpusTest {
    private static PtxModule corpus(String name) {
        return TestDevice.module("/org/polygpu/emulator/corpus/ptx/" + name + ".ptx");
    }

    @Test
    void vectorSquaresAndShuffleReduction() {
        int n = 10_000;
        float[] x = new float[n];
        float[] y = new float[n];
        float expected = 0;
        for (int i = 0; i < n; i++) {
            x[i] = (i % 16) / 4f;
            y[i] = (i % 8) / 4f;
            expected += x[i] * x[i] - y[i] * y[i];
        }
        PtxModule m = corpus("vector_squares");
        try (TestDevice d = new TestDevice()) {
            long x2 = d.allocate(4L * n);
            long y2 = d.allocate(4L * n);
            long z = d.floats(0f);
            d.launch(m, "square", 20, 128, d.floats(x), x2, n);
            d.launch(m, "square", 20, 128, d.floats(y), y2, n);
            d.launch(m, "reduce_diff", 20, 128, x2, y2, z, n);
            assertEquals(expected, d.floatsAt(z, 1)[0]);
        }
    }

    @Test
    void blackScholesBothVariants() {
        int n = 1000;
        Random random = new Random(1);
        float[] spot = new float[n];
        float[] strike = new float[n];
        float[] years = new float[n];
        for (int i = 0; i < n; i++) {
            spot[i] = 10 + 90 * random.nextFloat();
            strike[i] = 10 + 90 * random.nextFloat();
            years[i] = 0.25f + 4.75f * random.nextFloat();
        }
        for (String fixture : new String[] {"black_scholes", "black_scholes_fast"}) {
            try (TestDevice d = new TestDevice()) {
                long call = d.allocate(4L * n);
                long put = d.allocate(4L * n);
                d.launch(corpus(fixture), "black_scholes", 8, 128, d.floats(spot), d.floats(strike), d.floats(years),
                        call, put, n, 0.02f, 0.3f);
                float[] c = d.floatsAt(call, n);
                float[] p = d.floatsAt(put, n);
                for (int i = 0; i < n; i++) {
                    double s = spot[i];
                    double k = strike[i];
                    double t = years[i];
                    double d1 = (Math.log(s / k) + (0.02 + 0.3 * 0.3 / 2) * t) / (0.3 * Math.sqrt(t));
                    double d2 = d1 - 0.3 * Math.sqrt(t);
                    double discount = k * Math.exp(-0.02 * t);
                    double refCall = s * cdf(d1) - discount * cdf(d2);
                    double refPut = discount * cdf(-d2) - s * cdf(-d1);
                    assertEquals(refCall, c[i], 1e-3 * Math.max(1, Math.abs(refCall)), fixture + " call " + i);
                    assertEquals(refPut, p[i], 1e-3 * Math.max(1, Math.abs(refPut)), fixture + " put " + i);
                }
            }
        }
    }

    private static double cdf(double d) {
        double k = 1 / (1 + 0.2316419 * Math.abs(d));
        double tail = 0.3989422804014327 * Math.exp(-0.5 * d * d)
                * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
        return d > 0 ? 1 - tail : tail;
    }

    @Test
    void mlEnsembleScoresSoftmaxAndArgmax() {
        int samples = 200;
        int features = 50;
        int classes = 10;
        Random random = new Random(2);
        int[] counts = new int[samples * features];
        float[] x = new float[samples * features];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = random.nextInt(10);
            x[i] = random.nextFloat() * 4 - 2;
        }
        float[] logProb = new float[classes * features];
        float[] coef = new float[classes * features];
        for (int i = 0; i < logProb.length; i++) {
            logProb[i] = -0.1f - 4.9f * random.nextFloat();
            coef[i] = random.nextFloat() - 0.5f;
        }
        float[] mean = new float[features];
        float[] invStd = new float[features];
        for (int j = 0; j < features; j++) {
            mean[j] = random.nextFloat() - 0.5f;
            invStd[j] = 0.5f + random.nextFloat();
        }
        float[] prior = new float[classes];
        float[] intercept = new float[classes];
        for (int c = 0; c < classes; c++) {
            prior[c] = (float) Math.log(1.0 / classes);
            intercept[c] = random.nextFloat() - 0.5f;
        }
        float[] nb = new float[samples * classes];
        float[] ridge = new float[samples * classes];
        for (int i = 0; i < samples; i++) {
            for (int c = 0; c < classes; c++) {
                float s = prior[c];
                float r = intercept[c];
                for (int j = 0; j < features; j++) {
                    s = Math.fma((float) counts[i * features + j], logProb[c * features + j], s);
                    float z = (x[i * features + j] - mean[j]) * invStd[j];
                    r = Math.fma(z, coef[c * features + j], r);
                }
                nb[i * classes + c] = s;
                ridge[i * classes + c] = r;
            }
        }
        PtxModule m = corpus("ml_ensemble");
        try (TestDevice d = new TestDevice()) {
            long dnb = d.allocate(4L * nb.length);
            long dridge = d.allocate(4L * ridge.length);
            d.launch(m, "nb_scores", 2, 128, d.ints(counts), d.floats(logProb), d.floats(prior), dnb, samples,
                    features, classes);
            d.launch(m, "ridge_scores", 2, 128, d.floats(x), d.floats(mean), d.floats(invStd), d.floats(coef),
                    d.floats(intercept), dridge, samples, features, classes);
            assertArrayEquals(nb, d.floatsAt(dnb, nb.length));
            assertArrayEquals(ridge, d.floatsAt(dridge, ridge.length));
            d.launch(m, "softmax_rows", 2, 128, dnb, samples, classes);
            d.launch(m, "softmax_rows", 2, 128, dridge, samples, classes);
            softmax(nb, samples, classes);
            softmax(ridge, samples, classes);
            float[] gotNb = d.floatsAt(dnb, nb.length);
            float[] gotRidge = d.floatsAt(dridge, ridge.length);
            for (int i = 0; i < nb.length; i++) {
                assertEquals(nb[i], gotNb[i], 1e-6, "nb " + i);
                assertEquals(ridge[i], gotRidge[i], 1e-6, "ridge " + i);
            }
            long labels = d.allocate(4L * samples);
            d.launch(m, "argmax_sum", 2, 128, dnb, dridge, labels, samples, classes);
            int[] got = d.intsAt(labels, samples);
            for (int i = 0; i < samples; i++) {
                int best = 0;
                for (int c = 1; c < classes; c++) {
                    if (gotNb[i * classes + c] + gotRidge[i * classes + c]
                            > gotNb[i * classes + best] + gotRidge[i * classes + best]) {
                        best = c;
                    }
                }
                assertEquals(best, got[i], "sample " + i);
            }
        }
    }

    private static void softmax(float[] s, int rows, int classes) {
        for (int i = 0; i < rows; i++) {
            float max = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < classes; c++) {
                max = Math.max(max, s[i * classes + c]);
            }
            float sum = 0;
            float[] e = new float[classes];
            for (int c = 0; c < classes; c++) {
                e[c] = (float) Math.exp(s[i * classes + c] - max);
                sum += e[c];
            }
            for (int c = 0; c < classes; c++) {
                s[i * classes + c] = e[c] / sum;
            }
        }
    }

    @Test
    void conjugateGradientKernelsSolveALaplacian() {
        int n = 64;
        int[] rowPtr = new int[n + 1];
        int[] cols = new int[3 * n];
        float[] vals = new float[3 * n];
        int nnz = 0;
        for (int r = 0; r < n; r++) {
            rowPtr[r] = nnz;
            for (int c = r - 1; c <= r + 1; c++) {
                if (c >= 0 && c < n) {
                    cols[nnz] = c;
                    vals[nnz++] = c == r ? 2f : -1f;
                }
            }
        }
        rowPtr[n] = nnz;
        float[] b = new float[n];
        java.util.Arrays.fill(b, 1f);
        PtxModule m = corpus("conjugate_gradient");
        try (TestDevice d = new TestDevice()) {
            long rp = d.ints(rowPtr);
            long cl = d.ints(cols);
            long vl = d.floats(vals);
            long x = d.floats(new float[n]);
            long r = d.floats(b);
            long p = d.floats(b);
            long ap = d.allocate(4L * n);
            long dot = d.floats(0f);
            float rr = dot(d, m, r, r, dot, n);
            for (int it = 0; it < 200 && rr > 1e-10f; it++) {
                d.launch(m, "spmv_csr", 1, 64, rp, cl, vl, p, ap, n);
                float alpha = rr / dot(d, m, p, ap, dot, n);
                d.launch(m, "axpy", 1, 64, alpha, p, x, x, n);
                d.launch(m, "axpy", 1, 64, -alpha, ap, r, r, n);
                float next = dot(d, m, r, r, dot, n);
                d.launch(m, "axpy", 1, 64, next / rr, p, r, p, n);
                rr = next;
            }
            // the residual of A x = b, computed on the host
            float[] xs = d.floatsAt(x, n);
            double residual = 0;
            for (int i = 0; i < n; i++) {
                double ax = 2 * xs[i] - (i > 0 ? xs[i - 1] : 0) - (i < n - 1 ? xs[i + 1] : 0);
                residual = Math.max(residual, Math.abs(ax - 1));
            }
            assertEquals(0, residual, 1e-4);
        }
    }

    private static float dot(TestDevice d, PtxModule m, long a, long b, long result, int n) {
        d.segment(result).set(ValueLayout.JAVA_FLOAT, 0, 0f);
        d.launch(m, "dot", 2, 64, a, b, result, n);
        return d.floatsAt(result, 1)[0];
    }

    @Test
    void matrixVectorTiledMatmulAndBlurAreBitExact() {
        Random random = new Random(3);
        int rows = 37;
        int cols = 29;
        float[] a = new float[rows * cols];
        float[] x = new float[cols];
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextFloat() - 0.5f;
        }
        for (int i = 0; i < cols; i++) {
            x[i] = random.nextFloat();
        }
        float[] b = new float[cols * 45];
        for (int i = 0; i < b.length; i++) {
            b[i] = random.nextFloat() - 0.5f;
        }
        try (TestDevice d = new TestDevice()) {
            long y = d.allocate(4L * rows);
            d.launch(corpus("matvec"), "matvec_rows", 1, 64, d.floats(a), d.floats(x), y, rows, cols);
            float[] expected = new float[rows];
            for (int r = 0; r < rows; r++) {
                float s = 0;
                for (int c = 0; c < cols; c++) {
                    s = Math.fma(a[r * cols + c], x[c], s);
                }
                expected[r] = s;
            }
            assertArrayEquals(expected, d.floatsAt(y, rows));
            long c = d.allocate(4L * rows * 45);
            d.launch(corpus("tiled_matmul"), "matmul_tiled", new Dim3(3, 3, 1), new Dim3(16, 16, 1), 2048,
                    d.floats(a), d.floats(b), c, rows, 45, cols);
            float[] product = new float[rows * 45];
            for (int r = 0; r < rows; r++) {
                for (int col = 0; col < 45; col++) {
                    float s = 0;
                    for (int j = 0; j < cols; j++) {
                        s = Math.fma(a[r * cols + j], b[j * 45 + col], s);
                    }
                    product[r * 45 + col] = s;
                }
            }
            assertArrayEquals(product, d.floatsAt(c, product.length));
        }
        int width = 70;
        int height = 45;
        float[] image = new float[width * height];
        for (int i = 0; i < image.length; i++) {
            image[i] = random.nextFloat();
        }
        float[] w = new float[25];
        int[] binomial = {1, 4, 6, 4, 1};
        for (int i = 0; i < 25; i++) {
            w[i] = binomial[i / 5] * binomial[i % 5] / 256f;
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * image.length);
            d.launch(corpus("gaussian_blur"), "gaussian_blur", new Dim3(5, 3, 1), new Dim3(16, 16, 1), 0,
                    d.floats(image), out, width, height, d.floats(w));
            float[] expected = new float[image.length];
            for (int yy = 0; yy < height; yy++) {
                for (int xx = 0; xx < width; xx++) {
                    float s = 0;
                    for (int dy = 0; dy < 5; dy++) {
                        for (int dx = 0; dx < 5; dx++) {
                            int sy = Math.clamp(yy + dy - 2, 0, height - 1);
                            int sx = Math.clamp(xx + dx - 2, 0, width - 1);
                            s = Math.fma(w[dy * 5 + dx], image[sy * width + sx], s);
                        }
                    }
                    expected[yy * width + xx] = s;
                }
            }
            assertArrayEquals(expected, d.floatsAt(out, expected.length));
        }
    }

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
