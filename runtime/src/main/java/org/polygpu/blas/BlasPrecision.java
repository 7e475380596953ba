package org.polygpu.blas;

import org.polygpu.array.ElementType;

/**
 * The letter of a BLAS function: single or double precision, real or complex. Complex numbers are stored as two
 * elements of the real type, real part first, so a complex array of {@code n} numbers is an array of {@code 2n}
 * floats or doubles.
 */
public enum BlasPrecision {
    S(ElementType.FLOAT, false),
    D(ElementType.DOUBLE, false),
    C(ElementType.FLOAT, true),
    Z(ElementType.DOUBLE, true);

    private final ElementType realType;
    private final boolean complex;

    BlasPrecision(ElementType realType, boolean complex) {
        this.realType = realType;
        this.complex = complex;
    }

    /** The element type of the arrays: {@code float} for S and C, {@code double} for D and Z. */
    public ElementType realType() {
        return realType;
    }

    public boolean isComplex() {
        return complex;
    }

    /** Bytes of one number (two elements when complex). */
    public int numberBytes() {
        return realType.bytes() * (complex ? 2 : 1);
    }

    /** Elements of the real type per number: 1, or 2 when complex. */
    int width() {
        return complex ? 2 : 1;
    }
}
