package org.polygpu.lang.objects;

import org.polygpu.lang.PolygpuContext;
import org.polygpu.lang.PolygpuException;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.exception.AbstractTruffleException;
import com.oracle.truffle.api.interop.InteropException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;

/**
 * Converts values coming from any host language into the Java values the runtime takes: strings, integers,
 * numbers and booleans, with errors that name the function, the parameter and what was expected.
 */
public final class GuestValues {
    /** Display strings longer than this are cut in error messages (a list of a million floats is one value). */
    private static final int MAX_DISPLAY = 60;

    private GuestValues() {
    }

    /** A string argument. */
    @TruffleBoundary
    public static String string(Object value, String function, String parameter) {
        if (value instanceof String s) {
            return s;
        }
        InteropLibrary interop = InteropLibrary.getUncached(value);
        try {
            if (interop.isString(value)) {
                return interop.asString(value);
            }
        } catch (UnsupportedMessageException e) {
            // Reported below.
        }
        throw PolygpuException.wrongType(function, parameter, "a string", describe(value));
    }

    /** An integer argument that fits a {@code long}. */
    @TruffleBoundary
    public static long integer(Object value, String function, String parameter) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        InteropLibrary interop = InteropLibrary.getUncached(value);
        try {
            if (interop.fitsInLong(value)) {
                return interop.asLong(value);
            }
            if (interop.fitsInBigInteger(value)) {
                throw PolygpuException.wrongType(function, parameter, "an integer of at most 64 bits",
                        describe(value));
            }
        } catch (UnsupportedMessageException e) {
            // Reported below.
        }
        throw PolygpuException.wrongType(function, parameter, "an integer", describe(value));
    }

    /** An integer argument in {@code [min, max]}. */
    public static int integer(Object value, String function, String parameter, int min, int max) {
        long v = integer(value, function, parameter);
        if (v < min || v > max) {
            throw PolygpuException.wrongType(function, parameter, "an integer in " + min + ".." + max,
                    Long.toString(v));
        }
        return (int) v;
    }

    /**
     * A guest value as a host value for the runtime to check: numbers and booleans as {@link #scalar} gives them,
     * strings as {@code String}, and anything else as an object whose {@code toString} describes it for error
     * messages.
     */
    @TruffleBoundary
    public static Object toHost(Object value) {
        Object v = numberOrBoolean(value);
        if (v != null) {
            return v;
        }
        if (value instanceof String) {
            return value;
        }
        InteropLibrary interop = InteropLibrary.getUncached(value);
        try {
            if (interop.isString(value)) {
                return interop.asString(value);
            }
        } catch (UnsupportedMessageException e) {
            // Described below.
        }
        return new Described(describe(value));
    }

    /** {@code value} as a {@code Boolean}, {@code Long}, {@code BigInteger} or {@code Double}, else null. */
    private static Object numberOrBoolean(Object value) {
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        InteropLibrary interop = InteropLibrary.getUncached(value);
        try {
            if (interop.isBoolean(value)) {
                return interop.asBoolean(value);
            }
            if (interop.fitsInLong(value)) {
                return interop.asLong(value);
            }
            if (interop.fitsInBigInteger(value)) {
                return interop.asBigInteger(value);
            }
            if (interop.fitsInDouble(value)) {
                return interop.asDouble(value);
            }
        } catch (UnsupportedMessageException e) {
            // Not a number after all.
        }
        return numericProtocol(value, interop);
    }

    /**
     * A value that is a number by Python's numeric protocol only, as numpy's scalars ({@code numpy.float32(1.5)},
     * {@code numpy.int64(3)}) are to other languages: its {@code __index__} (an exact integer), else its
     * {@code __float__}; null when it has neither or they fail.
     */
    private static Object numericProtocol(Object value, InteropLibrary interop) {
        if (!interop.hasMembers(value)) {
            return null;
        }
        for (String member : new String[] {"__index__", "__float__"}) {
            if (!interop.isMemberInvocable(value, member)) {
                continue;
            }
            try {
                Object number = interop.invokeMember(value, member);
                InteropLibrary n = InteropLibrary.getUncached(number);
                if (n.fitsInLong(number)) {
                    return n.asLong(number);
                }
                if (n.fitsInBigInteger(number)) {
                    return n.asBigInteger(number);
                }
                if (n.fitsInDouble(number)) {
                    return n.asDouble(number);
                }
            } catch (InteropException | AbstractTruffleException e) {
                // numpy's float scalars have __index__ and raise from it: try __float__.
            }
        }
        return null;
    }

    /** A guest value the runtime cannot use, standing in for it in the runtime's error messages. */
    private record Described(String description) {
        @Override
        public String toString() {
            return description;
        }
    }

    /**
     * A value as an error message shows it: its type as its own language names it (a Python value by its Python
     * type) and its display string, cut to a line. The display string is the one the language shows its users
     * ({@code repr} for Python), which may run guest code: errors are rare and their message is what users read.
     */
    @TruffleBoundary
    public static String describe(Object value) {
        if (value instanceof String s) {
            return "string \"" + s + "\"";
        }
        InteropLibrary interop = InteropLibrary.getUncached(value);
        if (interop.isString(value)) {
            try {
                return "string \"" + interop.asString(value) + "\"";
            } catch (UnsupportedMessageException e) {
                // Described below.
            }
        }
        String text = javaObject(value);
        if (text != null) {
            return text;
        }
        text = displayString(interop, value);
        if (text.length() > MAX_DISPLAY) {
            text = text.substring(0, MAX_DISPLAY - 3) + "...";
        }
        if (interop.hasMetaObject(value)) {
            try {
                Object meta = interop.getMetaObject(value);
                String type = text(InteropLibrary.getUncached(meta).getMetaSimpleName(meta));
                return type.equals(text) ? text : type + " " + text;
            } catch (UnsupportedMessageException e) {
                return text;
            }
        }
        return text;
    }

    /**
     * A Java host object whose display string would be its identity ({@code java.lang.Object@1a2b3c}) by its class
     * and what it is not (what polygpu converts); null for any other value.
     */
    private static String javaObject(Object value) {
        TruffleLanguage.Env env = PolygpuContext.get(null).env();
        if (!env.isHostObject(value)) {
            return null;
        }
        Object host = env.asHostObject(value);
        if (host == null || host.getClass().isArray() || !host.toString().equals(host.getClass().getName() + "@"
                + Integer.toHexString(host.hashCode()))) {
            return null;
        }
        return "a Java object of class " + host.getClass().getName() + ", which is not a number, a string or an array";
    }

    /** The display string its language shows users, or the side-effect-free one when that fails (a bad repr). */
    private static String displayString(InteropLibrary interop, Object value) {
        try {
            return text(interop.toDisplayString(value, true));
        } catch (AbstractTruffleException e) {
            return text(interop.toDisplayString(value, false));
        }
    }

    /** An interop string (a Java or Truffle string, or a foreign one) as a Java string. */
    private static String text(Object string) {
        InteropLibrary interop = InteropLibrary.getUncached(string);
        try {
            return interop.isString(string) ? interop.asString(string) : String.valueOf(string);
        } catch (UnsupportedMessageException e) {
            return String.valueOf(string);
        }
    }
}
