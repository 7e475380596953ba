package org.polygpu.lang.builtins;

import java.util.List;

import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.parser.HostSignature;
import org.polygpu.lang.parser.HostSignatureParser;
import org.polygpu.lang.parser.SignatureParser;
import org.polygpu.sched.Parameter;

/**
 * The kernel signature of {@code buildkernel} and {@code bindkernel} arguments, in NIDL or legacy form; a NIDL
 * signature starting with {@code cxx} names a C++ kernel, looked up by its mangled name.
 */
final class Signatures {
    private Signatures() {
    }

    /**
     * A kernel's symbol and its parameters as declared.
     *
     * @param name        the symbol to look up: the name or name expression, mangled for a {@code cxx} signature
     * @param displayName the name as declared
     * @param mangled     whether {@code name} was mangled from a {@code cxx} signature
     */
    record Declared(String name, List<Parameter> parameters, String displayName, boolean mangled) {
        Declared(String name, List<Parameter> parameters) {
            this(name, parameters, name, false);
        }
    }

    /** From {@code (code, nidl)} or {@code (code, name, legacyList)}. */
    static Declared declared(String function, Object[] arguments) {
        try {
            if (arguments.length == 2) {
                String nidl = GuestValues.string(arguments[1], function, "signature");
                if (!SignatureParser.isNidl(nidl)) {
                    throw PolygpuException.badValue(function + ": signature \"" + nidl + "\" has no parameter list;"
                            + " use \"name(x: in pointer float, n: sint32)\" or pass the name and \"pointer, sint32\"");
                }
                if (HostSignatureParser.isCxx(nidl)) {
                    HostSignature cxx = HostSignatureParser.nidl(nidl, false);
                    return new Declared(cxx.symbol(), cxx.parameters(), cxx.name(), true);
                }
                SignatureParser.Signature s = SignatureParser.nidl(nidl);
                return new Declared(s.name(), s.parameters());
            }
            String name = GuestValues.string(arguments[1], function, "name").strip();
            String legacy = GuestValues.string(arguments[2], function, "signature");
            return new Declared(name, SignatureParser.legacy(legacy));
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(function + ": " + e.getMessage());
        }
    }
}
