package org.polygpu.blas;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;
import org.polygpu.sched.Parameter;

/**
 * What a BLAS function computes, with its parameters in cuBLAS's order (without the handle). Pointer parameters are
 * typed by the precision's element type; {@code nrm2}'s result is of the real type.
 */
public enum BlasOperation {
    /** {@code y = alpha x + y}. */
    AXPY,
    /** {@code x = alpha x}. */
    SCAL,
    /** {@code result = x . y} (for complex, unconjugated: {@code dotu}). */
    DOTU,
    /** {@code result = conj(x) . y}. */
    DOTC,
    /** {@code result = ||x||_2}. */
    NRM2,
    /** {@code y = alpha op(A) x + beta y}. */
    GEMV,
    /** {@code C = alpha op(A) op(B) + beta C}. */
    GEMM;

    /** The parameters of this operation in precision {@code p}. */
    List<Parameter> parameters(BlasPrecision p) {
        ElementType t = p.realType();
        List<Parameter> out = new ArrayList<>();
        switch (this) {
            case AXPY -> {
                out.add(Parameter.scalar("n", ElementType.INT));
                out.add(Parameter.pointer("alpha", t, Access.READ));
                vector(out, "x", t, Access.READ);
                vector(out, "y", t, Access.READ_WRITE);
            }
            case SCAL -> {
                out.add(Parameter.scalar("n", ElementType.INT));
                out.add(Parameter.pointer("alpha", t, Access.READ));
                vector(out, "x", t, Access.READ_WRITE);
            }
            case DOTU, DOTC -> {
                out.add(Parameter.scalar("n", ElementType.INT));
                vector(out, "x", t, Access.READ);
                vector(out, "y", t, Access.READ);
                out.add(Parameter.pointer("result", t, Access.WRITE));
            }
            case NRM2 -> {
                out.add(Parameter.scalar("n", ElementType.INT));
                vector(out, "x", t, Access.READ);
                out.add(Parameter.pointer("result", t, Access.WRITE));
            }
            case GEMV -> {
                out.add(Parameter.scalar("trans", ElementType.INT));
                out.add(Parameter.scalar("m", ElementType.INT));
                out.add(Parameter.scalar("n", ElementType.INT));
                out.add(Parameter.pointer("alpha", t, Access.READ));
                matrix(out, "A", t, Access.READ);
                vector(out, "x", t, Access.READ);
                out.add(Parameter.pointer("beta", t, Access.READ));
                vector(out, "y", t, Access.READ_WRITE);
            }
            case GEMM -> {
                out.add(Parameter.scalar("transa", ElementType.INT));
                out.add(Parameter.scalar("transb", ElementType.INT));
                out.add(Parameter.scalar("m", ElementType.INT));
                out.add(Parameter.scalar("n", ElementType.INT));
                out.add(Parameter.scalar("k", ElementType.INT));
                out.add(Parameter.pointer("alpha", t, Access.READ));
                matrix(out, "A", t, Access.READ);
                matrix(out, "B", t, Access.READ);
                out.add(Parameter.pointer("beta", t, Access.READ));
                matrix(out, "C", t, Access.READ_WRITE);
            }
        }
        return out;
    }

    private static void vector(List<Parameter> out, String name, ElementType t, Access access) {
        out.add(Parameter.pointer(name, t, access));
        out.add(Parameter.scalar("inc" + name, ElementType.INT));
    }

    private static void matrix(List<Parameter> out, String name, ElementType t, Access access) {
        out.add(Parameter.pointer(name, t, access));
        out.add(Parameter.scalar("ld" + name.toLowerCase(java.util.Locale.ROOT), ElementType.INT));
    }
}
