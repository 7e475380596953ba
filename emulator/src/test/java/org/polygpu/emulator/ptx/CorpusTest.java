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
    /** The architecture the corpus is compiled for from source, or null for the PTX fixtures (compute_70). */
    static final ThreadLocal<String> ARCHITECTURE = new ThreadLocal<>();

    static PtxModule corpus(String name) {
        String arch = ARCHITECTURE.get();
        return arch == null ? TestDevice.module("/org/polygpu/emulator/corpus/ptx/" + name + ".ptx")
                : CudaCompiler.corpus(name, arch);
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
}
