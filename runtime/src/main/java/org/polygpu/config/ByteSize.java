package org.polygpu.config;

import java.util.Locale;

/**
 * Sizes in bytes as options write them: plain bytes ({@code 1048576}) or a whole number with a binary unit
 * ({@code 64KiB}, {@code 64MiB}, {@code 1GiB}, {@code 2TiB}; {@code K}, {@code M}, {@code G}, {@code T} and
 * {@code B} are accepted too, in any case). Stateless.
 */
public final class ByteSize {
    private static final String[][] UNITS = {
        {"tib", "t"}, {"gib", "g"}, {"mib", "m"}, {"kib", "k"}, {"b"},
    };

    private ByteSize() {
    }

    /**
     * The bytes {@code text} names, at least 1 and at most 2^62.
     *
     * @param option the option's name, for the error message
     * @throws IllegalArgumentException naming the option and the forms accepted when {@code text} is not a size
     */
    public static long parse(String option, String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int shift = 0;
        outer:
        for (int u = 0; u < UNITS.length; u++) {
            for (String suffix : UNITS[u]) {
                if (t.endsWith(suffix)) {
                    t = t.substring(0, t.length() - suffix.length()).strip();
                    shift = 10 * (UNITS.length - 1 - u);
                    break outer;
                }
            }
        }
        try {
            long n = Long.parseLong(t);
            if (n >= 1 && n <= (1L << 62 >> shift)) {
                return n << shift;
            }
        } catch (NumberFormatException e) {
            // Reported below with the forms accepted.
        }
        throw new IllegalArgumentException("invalid value '" + text + "' for option " + option + "; expected a "
                + "size of at least 1 byte and at most 2^62 bytes, in bytes (1048576) or with a unit (64KiB, 64MiB, "
                + "1GiB)");
    }

    /** {@code bytes} in the largest binary unit that divides it, e.g. {@code 64MiB}, else in bytes. */
    public static String format(long bytes) {
        String[] names = {"B", "KiB", "MiB", "GiB", "TiB"};
        int unit = 0;
        long n = bytes;
        while (unit < names.length - 1 && n != 0 && n % 1024 == 0) {
            n /= 1024;
            unit++;
        }
        return n + names[unit];
    }
}
