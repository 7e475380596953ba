package org.polygpu.lang.builtins;

import org.polygpu.hostfn.HostFunction;
import org.polygpu.hostfn.NativeLibrary;
import org.polygpu.lang.PolygpuException;
import org.polygpu.lang.PolygpuRuntime;
import org.polygpu.lang.objects.HostFunctionObject;
import org.polygpu.lang.parser.HostSignature;

import com.oracle.truffle.api.TruffleLanguage;

/** Opens shared libraries and binds their functions, for {@code bind} and {@code bindall}. */
final class HostFunctions {
    private HostFunctions() {
    }

    /** The library {@code path} (a file, or a name the system's loader finds). */
    static NativeLibrary open(TruffleLanguage.Env env, String function, String path) {
        try {
            return NativeLibrary.open(ModuleFiles.libraryPath(env, path));
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(function + ": " + e.getMessage());
        }
    }

    /** {@code signature}'s function in {@code library}, as a guest value. */
    static HostFunctionObject bind(PolygpuRuntime runtime, String function, NativeLibrary library,
                                   HostSignature signature) {
        try {
            return new HostFunctionObject(runtime, HostFunction.bind(library, signature.name(), signature.symbol(),
                    signature.parameters(), signature.returnType()));
        } catch (IllegalArgumentException e) {
            throw PolygpuException.badValue(function + ": " + e.getMessage());
        }
    }
}
