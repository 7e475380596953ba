package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuException;

/**
 * What a guest-callable function declares about itself: the name guest code and error messages know it by, and
 * how many arguments it takes. The caller checks the count with {@link #checkArity} before the function runs, so
 * no function counts its own arguments. Immutable.
 *
 * @param name    the name, as the namespace lists it
 * @param minArgs the fewest arguments
 * @param maxArgs the most arguments, {@link #VARIADIC} for no limit
 */
public record BuiltinSignature(String name, int minArgs, int maxArgs) {
    /** The {@code maxArgs} of a function that takes any number of arguments from {@code minArgs} on. */
    public static final int VARIADIC = Integer.MAX_VALUE;

    public BuiltinSignature {
        if (name == null || name.isEmpty() || minArgs < 0 || maxArgs < minArgs) {
            throw new IllegalArgumentException("bad signature: " + name + " with " + minArgs + ".." + maxArgs);
        }
    }

    /** @throws PolygpuException naming the function when it did not get {@code minArgs..maxArgs} arguments */
    public void checkArity(Object[] arguments) {
        if (arguments.length < minArgs || arguments.length > maxArgs) {
            throw PolygpuException.arity(name, expected(), arguments.length);
        }
    }

    private String expected() {
        if (minArgs == maxArgs) {
            return Integer.toString(minArgs);
        }
        return maxArgs == VARIADIC ? "at least " + minArgs : minArgs + " to " + maxArgs;
    }
}
