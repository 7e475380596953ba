package org.polygpu.lang.parser;

import java.util.List;

import org.polygpu.array.ElementType;
import org.polygpu.mangling.CxxParameter;
import org.polygpu.mangling.ItaniumMangler;
import org.polygpu.sched.Parameter;

/**
 * A function declared in NIDL for {@code bind}, {@code bindall} or a {@code cxx} kernel signature: its name as
 * written (possibly {@code ns::f}), whether it is a C++ function (its symbol is then mangled), its parameters and its
 * result type.
 *
 * @param cxxParameters the parameters as C++ types, for mangling; null when the signature does not give them (legacy
 *                      lists with untyped pointers)
 * @param returnType    the result type, null for {@code void} or a kernel
 */
public record HostSignature(String name, boolean cxx, List<Parameter> parameters, List<CxxParameter> cxxParameters,
                            ElementType returnType) {
    public HostSignature {
        parameters = List.copyOf(parameters);
        cxxParameters = cxxParameters == null ? null : List.copyOf(cxxParameters);
    }

    /**
     * The symbol to look up: the name for a C function, the mangled name for a C++ one.
     *
     * @throws IllegalArgumentException when a C++ name cannot be mangled (untyped pointers, unsupported names)
     */
    public String symbol() {
        if (!cxx) {
            return name;
        }
        if (cxxParameters == null) {
            throw new IllegalArgumentException("cannot mangle " + name + ": its signature does not give the types of "
                    + "its pointers");
        }
        return ItaniumMangler.mangle(name, cxxParameters);
    }

    /** The name without its namespaces, as {@code bindall} registers it. */
    public String simpleName() {
        int colons = name.lastIndexOf("::");
        return colons < 0 ? name : name.substring(colons + 2);
    }

    /** The same function in namespace {@code namespace} (empty for none). */
    HostSignature inNamespace(String namespace) {
        return namespace.isEmpty() ? this
                : new HostSignature(namespace + "::" + name, cxx, parameters, cxxParameters, returnType);
    }
}
