package org.polygpu.blas;

/** The matrix functions of {@link JavaBlas}: {@code gemv} and {@code gemm}, column-major. Stateless. */
final class JavaBlasMatrices {
    private JavaBlasMatrices() {
    }

    /** Arguments: trans, m, n, alpha, A, lda, x, incx, beta, y, incy. */
    static void gemv(BlasPrecision p, Object[] a) {
        int trans = op(a, 0, "trans");
        int m = JavaBlas.intArg(a, 1, "m");
        int n = JavaBlas.intArg(a, 2, "n");
        Vector alpha = new Vector(a[3], p, "alpha");
        Vector matrix = new Vector(a[4], p, "A");
        int lda = leading(a, 5, "lda", m);
        Vector x = new Vector(a[6], p, "x");
        int incx = JavaBlas.inc(a, 7);
        Vector beta = new Vector(a[8], p, "beta");
        Vector y = new Vector(a[9], p, "y");
        int incy = JavaBlas.inc(a, 10);
        int rows = trans == 0 ? m : n;
        int inner = trans == 0 ? n : m;
        boolean zeroBeta = beta.re(0) == 0 && beta.im(0) == 0;
        for (long i = 0; i < rows; i++) {
            double sr = 0;
            double si = 0;
            for (long l = 0; l < inner; l++) {
                long e = trans == 0 ? i + l * lda : l + i * lda;
                double ar = matrix.re(e);
                double ai = trans == 2 ? -matrix.im(e) : matrix.im(e);
                long xi = Vector.at(l, inner, incx);
                sr += ar * x.re(xi) - ai * x.im(xi);
                si += ar * x.im(xi) + ai * x.re(xi);
            }
            store(y, Vector.at(i, rows, incy), alpha, sr, si, beta, zeroBeta);
        }
    }

    /** Arguments: transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc. */
    static void gemm(BlasPrecision p, Object[] a) {
        int ta = op(a, 0, "transa");
        int tb = op(a, 1, "transb");
        int m = JavaBlas.intArg(a, 2, "m");
        int n = JavaBlas.intArg(a, 3, "n");
        int k = JavaBlas.intArg(a, 4, "k");
        Vector alpha = new Vector(a[5], p, "alpha");
        Vector am = new Vector(a[6], p, "A");
        int lda = leading(a, 7, "lda", ta == 0 ? m : k);
        Vector bm = new Vector(a[8], p, "B");
        int ldb = leading(a, 9, "ldb", tb == 0 ? k : n);
        Vector beta = new Vector(a[10], p, "beta");
        Vector cm = new Vector(a[11], p, "C");
        int ldc = leading(a, 12, "ldc", m);
        boolean zeroBeta = beta.re(0) == 0 && beta.im(0) == 0;
        for (long j = 0; j < n; j++) {
            for (long i = 0; i < m; i++) {
                double sr = 0;
                double si = 0;
                for (long l = 0; l < k; l++) {
                    long ae = ta == 0 ? i + l * lda : l + i * lda;
                    long be = tb == 0 ? l + j * ldb : j + l * ldb;
                    double ar = am.re(ae);
                    double ai = ta == 2 ? -am.im(ae) : am.im(ae);
                    double br = bm.re(be);
                    double bi = tb == 2 ? -bm.im(be) : bm.im(be);
                    sr += ar * br - ai * bi;
                    si += ar * bi + ai * br;
                }
                store(cm, i + j * ldc, alpha, sr, si, beta, zeroBeta);
            }
        }
    }

    /** {@code out[e] = alpha * s + beta * out[e]}, not reading {@code out[e]} when beta is zero. */
    private static void store(Vector out, long e, Vector alpha, double sr, double si, Vector beta, boolean zeroBeta) {
        double re = alpha.re(0) * sr - alpha.im(0) * si;
        double im = alpha.re(0) * si + alpha.im(0) * sr;
        if (!zeroBeta) {
            double or = out.re(e);
            double oi = out.im(e);
            re += beta.re(0) * or - beta.im(0) * oi;
            im += beta.re(0) * oi + beta.im(0) * or;
        }
        out.set(e, re, im);
    }

    private static int op(Object[] a, int i, String name) {
        int v = ((Number) a[i]).intValue();
        if (v < 0 || v > 2) {
            throw new IllegalArgumentException(name + " must be 0 (N), 1 (T) or 2 (C), got " + v);
        }
        return v;
    }

    private static int leading(Object[] a, int i, String name, int rows) {
        int v = ((Number) a[i]).intValue();
        if (v < Math.max(1, rows)) {
            throw new IllegalArgumentException(name + " must be at least max(1, " + rows + "), got " + v);
        }
        return v;
    }
}
