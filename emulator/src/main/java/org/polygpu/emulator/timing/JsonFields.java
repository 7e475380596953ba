package org.polygpu.emulator.timing;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The fields of one JSON object read strictly: each read names the key, a missing key or a value of the wrong kind
 * is an {@link IllegalArgumentException} naming the file and the key's path ({@code memory.dramGBps}), and
 * {@link #done} rejects the keys nobody read, so that a misspelt key is an error rather than a silent default.
 */
public final class JsonFields {
    private final Map<String, Object> fields;
    private final String source;
    private final String path;
    private final Set<String> read = new LinkedHashSet<>();

    private JsonFields(Map<String, Object> fields, String source, String path) {
        this.fields = fields;
        this.source = source;
        this.path = path;
    }

    /**
     * The top-level object of a document.
     *
     * @throws IllegalArgumentException when the value is not an object
     */
    public static JsonFields of(Object document, String source) {
        if (!(document instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(source + ": expected a JSON object at the top level");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) map;
        return new JsonFields(fields, source, "");
    }

    /** Whether this object has {@code key}, which is then a known key here whether or not it is read. */
    public boolean has(String key) {
        read.add(key);
        return fields.containsKey(key);
    }

    /** The nested object at {@code key}. */
    public JsonFields object(String key) {
        Object v = get(key);
        if (!(v instanceof Map<?, ?> map)) {
            throw bad(key, "must be an object", v);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> nested = (Map<String, Object>) map;
        return new JsonFields(nested, source, name(key) + ".");
    }

    /** The non-blank string at {@code key}. */
    public String string(String key) {
        Object v = get(key);
        if (!(v instanceof String s) || s.isBlank()) {
            throw bad(key, "must be a non-empty string", v);
        }
        return s;
    }

    /** The finite number at {@code key}, greater than zero. */
    public double positive(String key) {
        double d = number(key);
        if (!(d > 0)) {
            throw bad(key, "must be greater than zero", d);
        }
        return d;
    }

    /** The finite number at {@code key}, zero or more. */
    public double nonNegative(String key) {
        double d = number(key);
        if (!(d >= 0)) {
            throw bad(key, "must be zero or more", d);
        }
        return d;
    }

    /** The whole number at {@code key}, at least 1 and at most {@link Long#MAX_VALUE}. */
    public long count(String key) {
        double d = positive(key);
        if (d != Math.rint(d) || d >= 0x1p63) {
            throw bad(key, "must be a whole number", d);
        }
        return (long) d;
    }

    /** {@link #count} for a value that must fit an {@code int}. */
    public int intCount(String key) {
        long n = count(key);
        if (n > Integer.MAX_VALUE) {
            throw bad(key, "must be at most " + Integer.MAX_VALUE, n);
        }
        return (int) n;
    }

    /**
     * Checks that every key of this object was read.
     *
     * @throws IllegalArgumentException naming the first unknown key and the known ones
     */
    public void done() {
        for (String key : fields.keySet()) {
            if (!read.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + name(key) + "' (known keys here: "
                        + String.join(", ", read) + ")");
            }
        }
    }

    private double number(String key) {
        Object v = get(key);
        if (!(v instanceof Double d) || d.isInfinite() || d.isNaN()) {
            throw bad(key, "must be a number", v);
        }
        return d;
    }

    private Object get(String key) {
        read.add(key);
        if (!fields.containsKey(key)) {
            throw new IllegalArgumentException(source + ": missing key '" + name(key) + "'");
        }
        return fields.get(key);
    }

    private String name(String key) {
        return path + key;
    }

    private IllegalArgumentException bad(String key, String what, Object value) {
        String shown = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        return new IllegalArgumentException(source + ": '" + name(key) + "' " + what + ", got " + shown);
    }
}
