package org.polygpu.sched;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;

/**
 * One parameter of a kernel signature: a pointer (to elements of {@code type}, or of any type when {@code type} is
 * null) with its access mode, or a scalar of {@code type}.
 */
public record Parameter(String name, boolean pointer, ElementType type, Access access) {
    public Parameter {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a parameter needs a name");
        }
        if (!pointer && type == null) {
            throw new IllegalArgumentException("scalar parameter '" + name + "' needs a type");
        }
        if (access == null) {
            access = pointer ? Access.READ_WRITE : Access.READ;
        }
    }

    public static Parameter pointer(String name, ElementType type, Access access) {
        return new Parameter(name, true, type, access);
    }

    public static Parameter scalar(String name, ElementType type) {
        return new Parameter(name, false, type, Access.READ);
    }

    /** The parameter as a signature spells it, e.g. {@code x: in pointer float}. */
    @Override
    public String toString() {
        if (!pointer) {
            return name + ": " + type.cName();
        }
        String mode = switch (access) {
            case READ -> "in";
            case WRITE -> "out";
            case READ_WRITE -> "inout";
        };
        return name + ": " + mode + " pointer" + (type == null ? "" : " " + type.cName());
    }
}
