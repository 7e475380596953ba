package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Device printf formats as C's printf (expected texts from glibc's semantics, as Python's % operator follows). */
class PrintfFormatTest {
    private static final Map<Long, String> STRINGS = Map.of(0x1000L, "ok", 0x2000L, "hello");

    /** Arguments in order; a Double is passed by its bits, as the argument buffer holds a double. */
    private static String format(String format, Object... values) {
        List<Long> words = new ArrayList<>();
        for (Object v : values) {
            words.add(v instanceof Double d ? Double.doubleToRawLongBits(d) : ((Number) v).longValue());
        }
        return PrintfFormat.format(format, new PrintfFormat.Arguments() {
            private int next;

            @Override
            public long next(int bytes) {
                long v = words.get(next++);
                return bytes == 4 ? (int) v : v;
            }

            @Override
            public String string(long address, int limit) {
                String s = STRINGS.get(address);
                return s.substring(0, Math.min(limit, s.length()));
            }
        });
    }

    @Test
    void integersWithFlagsWidthsAndPrecision() {
        assertEquals("42", format("%d", 42));
        assertEquals("   42|42   |-0042", format("%5d|%-5d|%05d", 42, 42, -42));
        assertEquals("+7  7", format("%+d % d", 7, 7));
        assertEquals("005 -3", format("%.3d %i", 5, -3));
        assertEquals("ff FF 0xff 010 10", format("%x %X %#x %#o %o", 255, 255, 255, 8, 8));
        assertEquals("4294967295 ffffffff", format("%u %x", -1, -1));
        assertEquals("-5000000000 1099511627776 18446744073709551615 10000000000",
                format("%ld %lld %llu %lx", -5_000_000_000L, 1L << 40, -1L, 1L << 40));
        assertEquals("-1 255", format("%hhd %hhu", 255, 255));
    }

    @Test
    void floatingPointRoundsTheExactBinaryValueHalfToEven() {
        assertEquals("3.141590", format("%f", 3.14159));
        assertEquals("0.12 0.38", format("%.2f %.2f", 0.125, 0.375));
        assertEquals("  -3.142|3.142   |0003.142", format("%8.3f|%-8.3f|%08.3f", -3.14159, 3.14159, 3.14159));
        assertEquals("1.234568e+04 1.234E-04 0.000000e+00 2e+04", format("%e %.3E %e %.0e", 12345.678, 0.00012345,
                0.0, 15000.0));
        assertEquals("0 2", format("%.0f %.0f", 0.5, 1.5));
        assertEquals("inf -inf nan", format("%f %e %g", Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.NaN));
    }

    @Test
    void generalFormatChoosesFixedOrScientificAndDropsTrailingZeros() {
        assertEquals("0.0001 1.23457e+08 100000 1e-05", format("%g %g %g %g", 0.0001, 123456789.0, 100000.0, 1e-5));
        assertEquals("3.14 1.00000 0", format("%.3g %#g %g", 3.14159, 1.0, 0.0));
        assertEquals("      12.5|", format("%10.4g|", 12.5));
    }

    @Test
    void charactersStringsPointersAndPercent() {
        assertEquals("Ab", format("%c%c", 65, 98));
        assertEquals("ok|   ok|ok   |he", format("%s|%5s|%-5s|%.2s", 0x1000L, 0x1000L, 0x1000L, 0x2000L));
        assertEquals("0x7f0012 (nil) (null)", format("%p %p %s", 0x7f0012L, 0L, 0L));
        assertEquals("100% done", format("%d%% done", 100));
        assertEquals("[   7]", format("[%*d]", 4, 7));
        assertEquals("unknown %y stays", format("unknown %y stays"));
    }
}
