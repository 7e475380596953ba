package org.polygpu.lang.objects;

import org.polygpu.lang.builtins.Builtin;
import org.polygpu.lang.builtins.BuiltinSignature;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * A builtin function as a guest value: executable, shown as {@code function <name>}. A call with a number of
 * arguments that the builtin's signature does not allow fails here, before the builtin runs. Immutable.
 */
@ExportLibrary(InteropLibrary.class)
public final class BuiltinObject extends GuestObject {
    private final Builtin builtin;

    public BuiltinObject(Builtin builtin) {
        this.builtin = builtin;
    }

    public String name() {
        return builtin.name();
    }

    /** What the builtin declares: name, arity, usage and help. */
    public BuiltinSignature signature() {
        return builtin.signature();
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object execute(Object[] arguments) {
        builtin.signature().checkArity(arguments);
        return builtin.call(arguments);
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(boolean allowSideEffects) {
        return "function " + builtin.name();
    }
}
