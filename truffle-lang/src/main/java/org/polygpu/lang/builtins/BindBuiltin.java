package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.GuestValues;
import org.polygpu.lang.parser.HostSignature;
import org.polygpu.lang.parser.HostSignatureParser;
import org.polygpu.lang.parser.SignatureParser;

import com.oracle.truffle.api.TruffleLanguage;

/**
 * {@code bind(library, "[cxx] name(x: inout pointer sint32, n: sint32): sint32")} or the legacy
 * {@code bind(library, symbol, "(pointer, sint32): sint32")}: a function of a shared library as a callable host
 * function. With {@code cxx} the name is a C++ one ({@code ns::f} allowed) whose symbol is mangled as g++ does;
 * otherwise, and in the legacy form, it is the symbol itself.
 */
final class BindBuiltin implements Builtin {
    private static final BuiltinSignature SIGNATURE = new BuiltinSignature("bind", 2, 3,
            "bind(library, \"[cxx] f(...): ret\") | bind(library, symbol, \"(sig): ret\")", "A host function of a "
            + "shared library as a computation of the DAG: it runs on the host over up-to-date host copies of its "
            + "pointer arguments, after the work they depend on.");

    private final PolygpuRuntime runtime;
    private final TruffleLanguage.Env env;

    BindBuiltin(PolygpuRuntime runtime, TruffleLanguage.Env env) {
        this.runtime = runtime;
        this.env = env;
    }

    @Override
    public BuiltinSignature signature() {
        return SIGNATURE;
    }

    @Override
    public Object call(Object[] arguments) {
        String path = GuestValues.string(arguments[0], name(), "library");
        HostSignature signature;
        try {
            if (arguments.length == 2) {
                String nidl = GuestValues.string(arguments[1], name(), "signature");
                if (!SignatureParser.isNidl(nidl)) {
                    throw PolygpuException.badValue(name() + ": signature \"" + nidl + "\" has no parameter list; use "
                            + "\"name(x: inout pointer float, n: sint32): sint32\" or pass the symbol and "
                            + "\"(pointer, sint32): sint32\"");
                }
                signature = HostSignatureParser.nidl(nidl, true);
            } else {
                String symbol = GuestValues.string(arguments[1], name(), "name").strip();
                signature = HostSignatureParser.legacy(symbol,
                        GuestValues.string(arguments[2], name(), "signature"));
            }
            signature.symbol();
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(name() + ": " + e.getMessage());
        }
        return HostFunctions.bind(runtime, name(), HostFunctions.open(env, name(), path), signature);
    }
}
