package org.polygpu.lang.builtins;

import org.polygpu.lang.PolygpuException;

/**
 * What a guest-callable function declares about itself: the name guest code and error messages know it by, how
 * many arguments it takes, and how it is called and what it does, which the generated reference
 * ({@code docs/reference/}) shows. The caller checks the count with {@link #checkArity} before the function runs, so
 * no function counts its own arguments. Immutable.
 *
 * @param name    the name, as the namespace lists it
 * @param minArgs the fewest arguments
 * @param maxArgs the most arguments, {@link #VARIADIC} for no limit
 * @param usage   the call as users write it, optional arguments in brackets ({@code copyTo(dst[, n])})
 * @param help    what the function does, in full sentences; empty only for a signature that checks arity alone
 */
public record BuiltinSignature(String name, int minArgs, int maxArgs, String usage, String help) {
    /** The {@code maxArgs} of a function that takes any number of arguments from {@code minArgs} on. */
    public static final int VARIADIC = Integer.MAX_VALUE;

    public BuiltinSignature {
        if (name == null || name.isEmpty() || minArgs < 0 || maxArgs < minArgs) {
            throw new IllegalArgumentException("bad signature: " + name + " with " + minArgs + ".." + maxArgs);
        }
        if (usage == null || help == null) {
            throw new IllegalArgumentException("bad signature: " + name + " without usage or help");
        }
    }

    /** A signature that only checks the number of arguments of a member documented elsewhere. */
    public BuiltinSignature(String name, int minArgs, int maxArgs) {
        this(name, minArgs, maxArgs, name, "");
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
