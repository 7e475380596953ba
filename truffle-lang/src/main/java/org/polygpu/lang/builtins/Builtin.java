package org.polygpu.lang.builtins;

/**
 * A function of the root namespace ({@code DeviceArray}, {@code buildkernel}, ...). It converts its arguments,
 * makes one call to the runtime and wraps the result in a guest object; errors are {@code PolygpuException}s.
 */
public interface Builtin {
    /** The name the namespace lists it under. */
    String name();

    /** Runs the function on arguments from any host language. */
    Object call(Object[] arguments);
}
