package org.polygpu.blas;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The BLAS functions polygpu offers, under cuBLAS's names: {@code cublas{S,D,C,Z}{axpy,scal,gemv,gemm}},
 * {@code cublasSdot}, {@code cublasDdot}, {@code cublas{C,Z}dot{u,c}}, {@code cublasSnrm2}, {@code cublasDnrm2},
 * {@code cublasScnrm2} and {@code cublasDznrm2}. Immutable.
 */
public final class BlasFunctions {
    private static final List<BlasFunction> ALL = build();
    private static final Map<String, BlasFunction> BY_NAME = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(BlasFunction::name, Function.identity()));

    private BlasFunctions() {
    }

    /** Every function, grouped by precision. */
    public static List<BlasFunction> all() {
        return ALL;
    }

    /** The function called {@code name}, such as {@code cublasSaxpy}. */
    public static Optional<BlasFunction> named(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    private static List<BlasFunction> build() {
        List<BlasFunction> out = new ArrayList<>();
        for (BlasPrecision p : BlasPrecision.values()) {
            String letter = p.name();
            for (BlasOperation op : List.of(BlasOperation.AXPY, BlasOperation.SCAL, BlasOperation.GEMV,
                    BlasOperation.GEMM)) {
                out.add(function(letter + op.name().toLowerCase(Locale.ROOT), op, p));
            }
            if (p.isComplex()) {
                out.add(function(letter + "dotu", BlasOperation.DOTU, p));
                out.add(function(letter + "dotc", BlasOperation.DOTC, p));
                out.add(function((p == BlasPrecision.C ? "Sc" : "Dz") + "nrm2", BlasOperation.NRM2, p));
            } else {
                out.add(function(letter + "dot", BlasOperation.DOTU, p));
                out.add(function(letter + "nrm2", BlasOperation.NRM2, p));
            }
        }
        return List.copyOf(out);
    }

    private static BlasFunction function(String suffix, BlasOperation op, BlasPrecision p) {
        String name = "cublas" + suffix;
        return new BlasFunction(name, name + "_v2", op, p, op.parameters(p));
    }
}
