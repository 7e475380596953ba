package org.polygpu.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

/** The Java BLAS against values worked out by hand (column-major, strides, complex numbers interleaved). */
class JavaBlasTest {
    private static BlasFunction f(String name) {
        return BlasFunctions.named(name).orElseThrow();
    }

    private static MemorySegment d(double... v) {
        return MemorySegment.ofArray(v);
    }

    private static MemorySegment s(float... v) {
        return MemorySegment.ofArray(v);
    }

    @Test
    void saxpyWithStridesAndANegativeIncrement() {
        float[] y = {10, 20, 30};
        // x is read backwards (incx = -2): x numbers are 5, 3, 1 for i = 0, 1, 2.
        f("cublasSaxpy").runInJava(new Object[] {3, s(2), s(1, 0, 3, 0, 5), -2, s(y), 1});
        assertArrayEquals(new float[] {20, 26, 32}, y);
    }

    @Test
    void complexDotProductsConjugateOnlyForDotc() {
        double[] x = {1, 2, 3, -1};      // 1+2i, 3-i
        double[] y = {2, 1, 0, 4};       // 2+i, 4i
        double[] u = new double[2];
        double[] c = new double[2];
        f("cublasZdotu").runInJava(new Object[] {2, d(x), 1, d(y), 1, d(u)});
        f("cublasZdotc").runInJava(new Object[] {2, d(x), 1, d(y), 1, d(c)});
        // (1+2i)(2+i) + (3-i)(4i) = (0+5i) + (4+12i) = 4+17i
        assertArrayEquals(new double[] {4, 17}, u, 1e-12);
        // (1-2i)(2+i) + (3+i)(4i) = (4-3i) + (-4+12i) = 0+9i
        assertArrayEquals(new double[] {0, 9}, c, 1e-12);
    }

    @Test
    void norms() {
        double[] r = new double[1];
        f("cublasDznrm2").runInJava(new Object[] {2, d(3, 4, 0, 12), 1, d(r)});
        assertEquals(13, r[0], 1e-12);
        float[] sr = new float[1];
        f("cublasSnrm2").runInJava(new Object[] {2, s(3, 9, 4), 2, s(sr)});
        assertEquals(5, sr[0], 1e-6);
    }

    @Test
    void dgemmWithATransposedAndScaledAccumulation() {
        // A is stored 2x2 column-major [[1, 3], [2, 4]] (A(0,1) = 3); op(A) = A^T = [[1, 2], [3, 4]].
        double[] a = {1, 2, 3, 4};
        double[] b = {1, 0, 1, 1};       // [[1, 1], [0, 1]]
        double[] c = {1, 1, 1, 1};
        f("cublasDgemm").runInJava(new Object[] {1, 0, 2, 2, 2, d(2), d(a), 2, d(b), 2, d(1), d(c), 2});
        // A^T B = [[1, 3], [3, 7]]; C = 2 A^T B + C, column-major.
        assertArrayEquals(new double[] {3, 7, 7, 15}, c, 1e-12);
    }

    @Test
    void cgemvConjugateTransposeIgnoresYWhenBetaIsZero() {
        float[] a = {1, 1, 0, 0, 0, 0, 2, 0};   // 2x2 complex: A(0,0) = 1+i, A(1,1) = 2
        float[] x = {1, 0, 0, 1};               // 1, i
        float[] y = {Float.NaN, Float.NaN, Float.NaN, Float.NaN};
        f("cublasCgemv").runInJava(new Object[] {2, 2, 2, s(1, 0), s(a), 2, s(x), 1, s(0, 0), s(y), 1});
        // A^H x = [(1-i) * 1, 2 * i] = [1-i, 2i]
        assertArrayEquals(new float[] {1, -1, 0, 2}, y, 1e-6f);
    }

    @Test
    void badSizesAreRefusedAndOutOfBoundsAccessesThrow() {
        assertThrows(IllegalArgumentException.class,
                () -> f("cublasDscal").runInJava(new Object[] {-1, d(1), d(1), 1}));
        assertThrows(IllegalArgumentException.class,
                () -> f("cublasDscal").runInJava(new Object[] {1, d(1), d(1), 0}));
        assertThrows(IndexOutOfBoundsException.class,
                () -> f("cublasDscal").runInJava(new Object[] {3, d(1), d(1, 2), 1}));
    }

    @Test
    void theRooflineWorkCountsComplexFlopsFourTimes() {
        Object[] args = {0, 0, 10, 20, 30, null, null, 10, null, 30, null, null, 10};
        assertEquals(2.0 * 10 * 20 * 30, f("cublasSgemm").flops(args));
        assertEquals(4 * 2.0 * 10 * 20 * 30, f("cublasZgemm").flops(args));
        assertEquals((10 * 30 + 30 * 20 + 2 * 10 * 20) * 16.0, f("cublasZgemm").bytes(args));
        assertEquals(2 * 6 + 2 * 7, BlasFunctions.all().size(), "6 real and 7 complex functions per precision");
    }
}
