package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** {@code unsigned long} elements read back exactly, up to 2^64 - 1, in Java and in Python. */
class UnsignedLongElementsTest {
    private static final BigInteger MAX = BigInteger.TWO.pow(64).subtract(BigInteger.ONE);

    @Test
    void elementsPastLongMaxReadBackAsExactBigIntegers() {
        try (Context c = Polyglot.context()) {
            Value u = Polyglot.eval(c, "unsigned long[3]");
            u.setArrayElement(0, MAX);
            u.setArrayElement(1, BigInteger.TWO.pow(63));
            u.setArrayElement(2, 7L);
            Value max = u.getArrayElement(0);
            assertTrue(max.isNumber() && max.fitsInBigInteger());
            assertEquals(MAX, max.asBigInteger(), "not rounded to 2^64 as a double would be");
            assertFalse(max.fitsInLong() || max.fitsInDouble(), "2^64 - 1 fits neither a long nor a double");
            assertEquals("18446744073709551615", max.toString());
            Value half = u.getArrayElement(1);
            assertEquals(BigInteger.TWO.pow(63), half.asBigInteger());
            assertTrue(half.fitsInDouble(), "2^63 is a double exactly");
            assertEquals(7L, u.getArrayElement(2).asLong());
            u.setArrayElement(2, max);
            assertEquals(MAX, u.getArrayElement(2).asBigInteger(), "written back from what was read");
        }
    }

    @Test
    void pythonReadsTheExactInteger() {
        try (Context c = Polyglot.context()) {
            Value result = c.eval("python", """
                    import polyglot
                    u = polyglot.eval(language="polygpu", string="unsigned long[2]")
                    u[0] = 2**64 - 1
                    u[0] == 2**64 - 1 and int(u[0]) + 1 == 2**64 and list(u) == [2**64 - 1, 0]
                    """);
            assertTrue(result.asBoolean());
        }
    }
}
