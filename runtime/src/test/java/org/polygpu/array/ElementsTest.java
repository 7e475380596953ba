package org.polygpu.array;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;

class ElementsTest {
    @Test
    void everyTypeRoundTripsAValue() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64);
            Object[][] cases = {
                {ElementType.BOOL, true}, {ElementType.CHAR, (byte) -5}, {ElementType.UCHAR, (short) 250},
                {ElementType.SHORT, (short) -300}, {ElementType.USHORT, 65000}, {ElementType.INT, -7},
                {ElementType.UINT, 4_000_000_000L}, {ElementType.LONG, -1L << 40}, {ElementType.FLOAT, 1.5f},
                {ElementType.DOUBLE, 2.25},
            };
            for (Object[] c : cases) {
                ElementType t = (ElementType) c[0];
                Elements.set(s, t, 3, c[1]);
                assertEquals(c[1], Elements.get(s, t, 3), t.cName());
            }
        }
    }

    @Test
    void valuesThatDoNotFitAreRejectedWithTheRange() {
        MemorySegment s = MemorySegment.ofArray(new long[2]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Elements.set(s, ElementType.CHAR, 0, 300));
        assertTrue(e.getMessage().contains("does not fit char"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.UINT, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.INT, 0, 1.5));
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.FLOAT, 0, 1e300));
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.BOOL, 0, 1));
        assertEquals(0L, s.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
    }

    /** A BigInteger is range-checked on all its bits: 2^64 + 5 must not be stored as its low 64 bits, 5. */
    @Test
    void integersWiderThan64BitsAreRejectedNotWrapped() {
        MemorySegment s = MemorySegment.ofArray(new long[2]);
        BigInteger wide = BigInteger.TWO.pow(64).add(BigInteger.valueOf(5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Elements.set(s, ElementType.LONG, 0, wide));
        assertEquals("18446744073709551621 does not fit long (-9223372036854775808..9223372036854775807)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Elements.toKernelScalar(BigInteger.TWO.pow(70), ElementType.INT));
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.ULONG, 0, wide));
        assertThrows(IllegalArgumentException.class, () -> Elements.set(s, ElementType.DOUBLE, 0,
                BigInteger.TWO.pow(2000)));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> Elements.set(s, ElementType.ULONG, 0, -1));
        assertEquals("-1 does not fit unsigned long (0..2^64-1)", negative.getMessage());
        assertEquals(0L, s.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        Elements.set(s, ElementType.ULONG, 0, BigInteger.TWO.pow(64).subtract(BigInteger.ONE));
        assertEquals(-1L, s.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        Elements.set(s, ElementType.ULONG, 0, 0x1p63);
        assertEquals(Long.MIN_VALUE, s.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        Elements.set(s, ElementType.LONG, 0, BigInteger.valueOf(-3));
        assertEquals(-3L, s.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void aJsNumberOutOfRangeIsShownAsTheIntegerItIs() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Elements.toKernelScalar(1099511627776.0, ElementType.INT));
        assertTrue(e.getMessage().startsWith("1099511627776 does not fit int"), e.getMessage());
    }

    @Test
    void cNamesResolveAndUnknownOnesListTheValidTypes() {
        assertEquals(ElementType.UINT, ElementType.fromCName("unsigned   int"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ElementType.fromCName("half"));
        assertTrue(e.getMessage().contains("float"), e.getMessage());
    }
}
