package org.polygpu.mangling;

import java.util.Objects;

/**
 * A parameter of a C++ function as far as its symbol name depends on it: a fundamental type passed by value, a
 * pointer to it, or a pointer to const (NIDL's {@code in pointer}).
 */
public record CxxParameter(CxxType type, Passing passing) {
    /** How the parameter is passed. */
    public enum Passing {
        /** {@code T}. */
        VALUE,
        /** {@code T*}: NIDL's {@code out pointer}, {@code inout pointer} or plain {@code pointer}. */
        POINTER,
        /** {@code const T*}: NIDL's {@code in pointer}. */
        POINTER_TO_CONST
    }

    public CxxParameter {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(passing, "passing");
    }

    public static CxxParameter value(CxxType type) {
        return new CxxParameter(type, Passing.VALUE);
    }

    public static CxxParameter pointer(CxxType type) {
        return new CxxParameter(type, Passing.POINTER);
    }

    public static CxxParameter pointerToConst(CxxType type) {
        return new CxxParameter(type, Passing.POINTER_TO_CONST);
    }

    /** The parameter in C, such as {@code const int*}. */
    @Override
    public String toString() {
        return switch (passing) {
            case VALUE -> type.cName();
            case POINTER -> type.cName() + "*";
            case POINTER_TO_CONST -> "const " + type.cName() + "*";
        };
    }
}
