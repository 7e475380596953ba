package org.polygpu.lang.builtins;

import java.util.function.Function;

/**
 * A builtin given by its signature and a function of its arguments, for the small CUDA runtime functions that
 * convert their arguments and make one runtime call. Immutable.
 */
record FunctionBuiltin(BuiltinSignature signature, Function<Object[], Object> body) implements Builtin {
    /** A builtin called {@code name} taking {@code minArgs..maxArgs} arguments, called as {@code usage}. */
    static FunctionBuiltin of(String name, int minArgs, int maxArgs, String usage, String help,
                              Function<Object[], Object> body) {
        return new FunctionBuiltin(new BuiltinSignature(name, minArgs, maxArgs, usage, help), body);
    }

    @Override
    public Object call(Object[] arguments) {
        return body.apply(arguments);
    }
}
