package org.polygpu.blas;

import java.util.List;
import java.util.Objects;

import org.polygpu.backend.LibraryRoutine;
import org.polygpu.sched.Parameter;

/**
 * One BLAS function as cuBLAS names it ({@code cublasSaxpy}): its operation, precision and parameters (without the
 * cuBLAS handle, which the backend supplies). Immutable.
 *
 * @param name   the name users call it by, such as {@code cublasCdotc}
 * @param symbol the cuBLAS symbol, such as {@code cublasCdotc_v2}
 */
public record BlasFunction(String name, String symbol, BlasOperation operation, BlasPrecision precision,
                           List<Parameter> parameters) implements LibraryRoutine {
    public BlasFunction {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(symbol, "symbol");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(precision, "precision");
        parameters = List.copyOf(parameters);
    }

    /**
     * Floating-point operations: {@code 2n} for a real vector function of {@code n} numbers ({@code n} for scal),
     * {@code 2mn} for gemv, {@code 2mnk} for gemm; four times as many for complex numbers.
     */
    @Override
    public double flops(Object[] a) {
        double realFlops = switch (operation) {
            case AXPY, DOTU, DOTC, NRM2 -> 2.0 * count(a, 0);
            case SCAL -> count(a, 0);
            case GEMV -> 2.0 * count(a, 1) * count(a, 2);
            case GEMM -> 2.0 * count(a, 2) * count(a, 3) * count(a, 4);
        };
        return precision.isComplex() ? 4 * realFlops : realFlops;
    }

    /** Bytes: every number of the vectors and matrices read once and every output written once. */
    @Override
    public double bytes(Object[] a) {
        double numbers = switch (operation) {
            case AXPY -> 3.0 * count(a, 0);
            case SCAL -> 2.0 * count(a, 0);
            case DOTU, DOTC -> 2.0 * count(a, 0);
            case NRM2 -> count(a, 0);
            case GEMV -> count(a, 1) * count(a, 2) + count(a, 1) + 2.0 * count(a, 2);
            case GEMM -> count(a, 2) * count(a, 4) + count(a, 4) * count(a, 3) + 2.0 * count(a, 2) * count(a, 3);
        };
        return numbers * precision.numberBytes();
    }

    @Override
    public void runInJava(Object[] arguments) {
        JavaBlas.run(this, arguments);
    }

    private static double count(Object[] a, int i) {
        return Math.max(0, ((Number) a[i]).doubleValue());
    }

    @Override
    public String toString() {
        return name;
    }
}
