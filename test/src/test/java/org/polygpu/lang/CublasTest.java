package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GrCUDA's cuBLAS tests (axpy, gemv, gemm for S, D, C and Z, under both execution policies, with and without input
 * prefetching) on 4 emulated GPUs, where the BLAS functions run in Java.
 */
class CublasTest {
    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String policy : List.of("sync", "async")) {
            for (boolean prefetch : List.of(true, false)) {
                for (char type : "SDCZ".toCharArray()) {
                    out.add(Arguments.of(policy, prefetch, type));
                }
            }
        }
        return out;
    }

    private static Context context(String policy, boolean prefetch) {
        return Polyglot.context(Map.of("ExecutionPolicy", policy, "InputPrefetch", String.valueOf(prefetch)));
    }

    private static boolean complex(char type) {
        return type == 'C' || type == 'Z';
    }

    private static String cudaType(char type) {
        return type == 'D' || type == 'Z' ? "double" : "float";
    }

    /** A device array holding the scalar {@code value} (a complex one with imaginary part 0). */
    private static Value scalar(Value cu, char type, double value) {
        Value a = cu.invokeMember("DeviceArray", cudaType(type), complex(type) ? 2 : 1);
        a.setArrayElement(0, value);
        if (complex(type)) {
            a.setArrayElement(1, 0);
        }
        return a;
    }

    /** {@code y = -1 x + y} with {@code x = i}, {@code y = 2i}, so {@code y = i}. */
    @ParameterizedTest
    @MethodSource("cases")
    void axpy(String policy, boolean prefetch, char type) {
        try (Context c = context(policy, prefetch)) {
            Value cu = Polyglot.eval(c, "CU");
            int numDim = 1000;
            int numElements = complex(type) ? numDim * 2 : numDim;
            Value alpha = scalar(cu, type, -1);
            Value x = cu.invokeMember("DeviceArray", cudaType(type), numElements);
            Value y = cu.invokeMember("DeviceArray", cudaType(type), numElements);
            for (int i = 0; i < numElements; i++) {
                x.setArrayElement(i, i);
                y.setArrayElement(i, 2 * i);
            }
            Polyglot.eval(c, "BLAS::cublas" + type + "axpy").execute(numDim, alpha, x, 1, y, 1);
            assertVector(numElements, y, i -> i, type);
        }
    }

    /** {@code y = -1 A x + 2 y} with {@code A} the identity and {@code x = y = i}, so {@code y = i}. */
    @ParameterizedTest
    @MethodSource("cases")
    void gemv(String policy, boolean prefetch, char type) {
        try (Context c = context(policy, prefetch)) {
            Value cu = Polyglot.eval(c, "CU");
            int numDim = 10;
            int numElements = complex(type) ? numDim * 2 : numDim;
            Value alpha = scalar(cu, type, -1);
            Value beta = scalar(cu, type, 2);
            Value a = identity(cu, type, numDim, numElements);
            Value x = cu.invokeMember("DeviceArray", cudaType(type), numElements);
            Value y = cu.invokeMember("DeviceArray", cudaType(type), numElements);
            for (int i = 0; i < numElements; i++) {
                x.setArrayElement(i, i);
                y.setArrayElement(i, i);
            }
            Polyglot.eval(c, "BLAS::cublas" + type + "gemv").execute(0, numDim, numDim, alpha, a, numDim, x, 1, beta,
                    y, 1);
            assertVector(numElements, y, i -> i, type);
        }
    }

    /** {@code C = -1 A B + 2 C} with {@code A} the identity and {@code B = C}, so {@code C} is unchanged. */
    @ParameterizedTest
    @MethodSource("cases")
    void gemm(String policy, boolean prefetch, char type) {
        try (Context c = context(policy, prefetch)) {
            Value cu = Polyglot.eval(c, "CU");
            int numDim = 10;
            int numElements = complex(type) ? numDim * 2 : numDim;
            Value alpha = scalar(cu, type, -1);
            Value beta = scalar(cu, type, 2);
            Value a = identity(cu, type, numDim, numElements);
            Value b = cu.invokeMember("DeviceArray", cudaType(type), numElements, numDim, "F");
            Value m = cu.invokeMember("DeviceArray", cudaType(type), numElements, numDim, "F");
            for (int j = 0; j < numDim; j++) {
                for (int i = 0; i < numElements; i++) {
                    b.getArrayElement(i).setArrayElement(j, i + numElements * j);
                    m.getArrayElement(i).setArrayElement(j, i + numElements * j);
                }
            }
            Polyglot.eval(c, "BLAS::cublas" + type + "gemm").execute(0, 0, numDim, numDim, numDim, alpha, a, numDim,
                    b, numDim, beta, m, numDim);
            for (int j = 0; j < numDim; j++) {
                for (int i = 0; i < numElements; i++) {
                    assertEquals(i + numElements * j, m.getArrayElement(i).getArrayElement(j).asDouble(), 1e-5,
                            type + "gemm C[" + i + "][" + j + "]");
                }
            }
        }
    }

    /** scal, dot (dotc for complex) and nrm2 of x = (1, 2, ..., n) (complex: (1 + i), (2 + 2i), ...). */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(chars = {'S', 'D', 'C', 'Z'})
    void scalDotAndNrm2(char type) {
        try (Context c = Polyglot.context()) {
            Value cu = Polyglot.eval(c, "CU");
            int n = 50;
            int w = complex(type) ? 2 : 1;
            Value x = cu.invokeMember("DeviceArray", cudaType(type), n * w);
            for (int i = 0; i < n * w; i++) {
                x.setArrayElement(i, i / w + 1);
            }
            Value result = cu.invokeMember("DeviceArray", cudaType(type), w);
            Value norm = cu.invokeMember("DeviceArray", cudaType(type), 1);
            String dot = complex(type) ? type + "dotc" : type + "dot";
            String nrm2 = switch (type) {
                case 'C' -> "Scnrm2";
                case 'Z' -> "Dznrm2";
                default -> type + "nrm2";
            };
            Polyglot.eval(c, "BLAS::cublas" + type + "scal").execute(n, scalar(cu, type, 2), x, 1);
            Polyglot.eval(c, "BLAS::cublas" + dot).execute(n, x, 1, x, 1, result);
            Polyglot.eval(c, "BLAS::cublas" + nrm2).execute(n, x, 1, norm);
            double squares = 0;
            for (int i = 1; i <= n; i++) {
                squares += w * 4.0 * i * i;
            }
            assertEquals(squares, result.getArrayElement(0).asDouble(), squares * 1e-6, "conj(x) . x");
            if (complex(type)) {
                assertEquals(0, result.getArrayElement(1).asDouble(), 1e-6, "imaginary part");
            }
            assertEquals(Math.sqrt(squares), norm.getArrayElement(0).asDouble(), 1e-3, "||x||");
            assertEquals(2.0 * n, x.getArrayElement(n * w - 1).asDouble());
        }
    }

    /** A Python program calls cuBLAS as with GrCUDA, and a kernel-free chain of BLAS calls sees each result. */
    @org.junit.jupiter.api.Test
    void pythonCallsBlasFunctionsInAChain() {
        try (Context c = Polyglot.context()) {
            Value result = c.eval("python", """
                    import polyglot
                    cu = polyglot.eval(language="polygpu", string="CU")
                    saxpy = polyglot.eval(language="polygpu", string="BLAS::cublasSaxpy")
                    sdot = polyglot.eval(language="polygpu", string="BLAS::cublasSdot")
                    n = 100
                    alpha, x, y, r = cu.DeviceArray("float", 1), cu.DeviceArray("float", n), \\
                        cu.DeviceArray("float", n), cu.DeviceArray("float", 1)
                    alpha[0] = 2.0
                    for i in range(n):
                        x[i] = 1.0
                        y[i] = i
                    saxpy(n, alpha, x, 1, y, 1)   # y = i + 2
                    sdot(n, x, 1, y, 1, r)        # sum(i + 2)
                    r[0]
                    """);
            assertEquals(99 * 100 / 2 + 200, result.asDouble(), 1e-3);
        }
    }

    /** The identity in column-major order; complex numbers take two elements along the first dimension. */
    private static Value identity(Value cu, char type, int numDim, int numElements) {
        Value a = cu.invokeMember("DeviceArray", cudaType(type), numElements, numDim, "F");
        for (int j = 0; j < numDim; j++) {
            for (int i = 0; i < numElements; i++) {
                boolean one = complex(type) ? i == 2 * j : i == j;
                a.getArrayElement(i).setArrayElement(j, one ? 1.0 : 0.0);
            }
        }
        return a;
    }

    static void assertVector(int n, Value array, IntUnaryOperator expected, char type) {
        for (int i = 0; i < n; i++) {
            assertEquals(expected.applyAsInt(i), array.getArrayElement(i).asDouble(), 1e-5, type + " [" + i + "]");
        }
    }
}
