package org.polygpu.blas;

/**
 * The Java implementation of the BLAS functions, over device memory, as the reference BLAS defines them: column-major
 * matrices with leading dimensions, vector strides, {@code op} 0 = N, 1 = T, 2 = C (conjugate transpose). When
 * {@code beta} is zero the output is not read, so it may hold anything. Arithmetic is in double precision, rounded
 * to float on store for S and C. Stateless.
 */
final class JavaBlas {
    private JavaBlas() {
    }

    /** @throws IllegalArgumentException for a negative size, a zero stride or a too small leading dimension */
    static void run(BlasFunction f, Object[] a) {
        BlasPrecision p = f.precision();
        switch (f.operation()) {
            case AXPY -> axpy(intArg(a, 0, "n"), new Vector(a[1], p, "alpha"), new Vector(a[2], p, "x"), inc(a, 3),
                    new Vector(a[4], p, "y"), inc(a, 5));
            case SCAL -> scal(intArg(a, 0, "n"), new Vector(a[1], p, "alpha"), new Vector(a[2], p, "x"), inc(a, 3));
            case DOTU, DOTC -> dot(intArg(a, 0, "n"), new Vector(a[1], p, "x"), inc(a, 2), new Vector(a[3], p, "y"),
                    inc(a, 4), new Vector(a[5], p.isComplex() ? realOf(p) : p, "result"),
                    f.operation() == BlasOperation.DOTC, p);
            case NRM2 -> nrm2(intArg(a, 0, "n"), new Vector(a[1], p, "x"), inc(a, 2), new Vector(a[3], realOf(p),
                    "result"));
            case GEMV -> JavaBlasMatrices.gemv(p, a);
            case GEMM -> JavaBlasMatrices.gemm(p, a);
        }
    }

    /** The real precision of the same width ({@code result} of a complex dot product is written as complex). */
    static BlasPrecision realOf(BlasPrecision p) {
        return p.realType().bytes() == 8 ? BlasPrecision.D : BlasPrecision.S;
    }

    static int intArg(Object[] a, int i, String name) {
        int v = ((Number) a[i]).intValue();
        if (v < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + v);
        }
        return v;
    }

    static int inc(Object[] a, int i) {
        int v = ((Number) a[i]).intValue();
        if (v == 0) {
            throw new IllegalArgumentException("a vector stride must not be 0");
        }
        return v;
    }

    private static void axpy(int n, Vector alpha, Vector x, int incx, Vector y, int incy) {
        double ar = alpha.re(0);
        double ai = alpha.im(0);
        for (long i = 0; i < n; i++) {
            long xi = Vector.at(i, n, incx);
            long yi = Vector.at(i, n, incy);
            double xr = x.re(xi);
            double xim = x.im(xi);
            y.set(yi, y.re(yi) + ar * xr - ai * xim, y.im(yi) + ar * xim + ai * xr);
        }
    }

    private static void scal(int n, Vector alpha, Vector x, int incx) {
        double ar = alpha.re(0);
        double ai = alpha.im(0);
        for (long i = 0; i < n; i++) {
            long xi = Vector.at(i, n, incx);
            double xr = x.re(xi);
            double xim = x.im(xi);
            x.set(xi, ar * xr - ai * xim, ar * xim + ai * xr);
        }
    }

    private static void dot(int n, Vector x, int incx, Vector y, int incy, Vector result, boolean conjugate,
                            BlasPrecision p) {
        double re = 0;
        double im = 0;
        for (long i = 0; i < n; i++) {
            long xi = Vector.at(i, n, incx);
            long yi = Vector.at(i, n, incy);
            double xr = x.re(xi);
            double xim = conjugate ? -x.im(xi) : x.im(xi);
            re += xr * y.re(yi) - xim * y.im(yi);
            im += xr * y.im(yi) + xim * y.re(yi);
        }
        result.set(0, re, 0);
        if (p.isComplex()) {
            result.set(1, im, 0);
        }
    }

    private static void nrm2(int n, Vector x, int incx, Vector result) {
        double scale = 0;
        for (long i = 0; i < n; i++) {
            long xi = Vector.at(i, n, incx);
            scale = Math.max(scale, Math.max(Math.abs(x.re(xi)), Math.abs(x.im(xi))));
        }
        double sum = 0;
        for (long i = 0; scale > 0 && i < n; i++) {
            long xi = Vector.at(i, n, incx);
            double r = x.re(xi) / scale;
            double m = x.im(xi) / scale;
            sum += r * r + m * m;
        }
        result.set(0, scale * Math.sqrt(sum), 0);
    }
}
