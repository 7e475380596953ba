package org.polygpu.lang.builtins;

/**
 * A function of the root namespace ({@code DeviceArray}, {@code buildkernel}, ...). It declares its name, arity, usage
 * and help in a {@link BuiltinSignature} (the help is what the generated reference shows), converts its arguments,
 * makes one call to the runtime and wraps the result in a guest object; errors are {@code PolygpuException}s.
 */
public interface Builtin {
    /** The name and arity; the guest object that calls the builtin checks the arity first. */
    BuiltinSignature signature();

    /** Runs the function on arguments from any host language, as many as the signature allows. */
    Object call(Object[] arguments);

    /** The name the namespace lists it under and errors show. */
    default String name() {
        return signature().name();
    }
}
