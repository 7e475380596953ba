package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.graalvm.polyglot.PolyglotException;

/**
 * A seeded generator of fuzz cases and the one property they are checked against: a case gives a value or a guest
 * exception whose message names the problem, never an internal error. The seed is {@code polygpu.fuzz.seed} (a
 * fixed one by default, so the suite is reproducible); a failure names the seed and the case.
 */
final class Fuzz {
    /** A Java identity such as {@code BuiltinObject@2059c3ff}, which no message may show. */
    private static final Pattern IDENTITY = Pattern.compile("[A-Za-z_$][\\w$]*@[0-9a-f]{4,}");

    final long seed = Long.getLong("polygpu.fuzz.seed", 13L);
    final Random random = new Random(seed);
    int values;
    int errors;

    /** Checks that the generator reached both outcomes, so a property is not vacuously true. */
    void assertBothOutcomes(int atLeast) {
        assertTrue(values >= atLeast && errors >= atLeast, "values " + values + ", errors " + errors);
    }

    int below(int n) {
        return random.nextInt(n);
    }

    boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** An integer biased to edges: small, near a type's limits, or beyond 64 bits. */
    Object integer() {
        return switch (below(8)) {
            case 0 -> below(20) - 5;
            case 1 -> pick(List.of(Byte.MAX_VALUE + 1, Short.MAX_VALUE + 1, 0xFFFF_FFFFL + 1, -0x8000_0001L));
            case 2 -> pick(List.of(Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE));
            case 3 -> BigInteger.TWO.pow(63 + below(80)).add(BigInteger.valueOf(below(9) - 4));
            case 4 -> BigInteger.TWO.pow(64 + below(10)).negate();
            case 5 -> 1L << below(63);
            default -> (long) below(1000);
        };
    }

    /** Any Java value a host can pass: numbers of every width, booleans, strings, null, arrays, lists, maps. */
    Object hostValue() {
        return switch (below(14)) {
            case 0, 1, 2 -> integer();
            case 3 -> pick(List.of(0.5, -1.5, 1e300, -0.0, Double.NaN, Double.POSITIVE_INFINITY, 3.0, 1e19, 0x1p63));
            case 4 -> pick(List.of(1.5f, Float.MAX_VALUE, -2f));
            case 5 -> random.nextBoolean();
            case 6 -> pick(List.of("", "x", "1", "float", "3.5", "\u00e9\u0000"));
            case 7 -> null;
            case 8 -> new int[] {below(5)};
            case 9 -> new double[] {1.0, 2.0};
            case 10 -> List.of(below(5), "a");
            case 11 -> Map.of("k", 1);
            case 12 -> new Object();
            default -> pick(List.of((byte) -1, (short) 300, 'c', new java.math.BigDecimal("1.25")));
        };
    }

    /**
     * Runs one case: it may return anything or throw a guest exception with a message that is not blank, shows no
     * Java identity and passes {@code names}; anything else fails the test with the seed and the case. Counts the
     * cases that gave a value in {@link #values} and the others in {@link #errors}.
     */
    void check(String description, Supplier<?> action, Pattern names) {
        try {
            action.get();
            values++;
        } catch (PolyglotException e) {
            String where = "seed " + seed + ", case " + description + ": ";
            assertFalse(e.isInternalError(), () -> where + "an internal error: " + e);
            assertTrue(e.isGuestException(), () -> where + "not a guest exception: " + e);
            errors++;
            String message = e.getMessage();
            assertTrue(message != null && !message.isBlank(), () -> where + "no message");
            assertFalse(IDENTITY.matcher(message).find(), () -> where + "a Java identity in: " + message);
            assertTrue(names.matcher(message).find(), () -> where + "the message does not name the problem: "
                    + message);
            if (e.isSyntaxError()) {
                assertTrue(e.getSourceLocation() != null, () -> where + "a syntax error without a location");
            }
        } catch (RuntimeException | StackOverflowError e) {
            fail("seed " + seed + ", case " + description + ": " + e, e);
        }
    }
}
