package org.polygpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.BackendException;

/** {@code cuLaunchKernel}'s parameter array: one pointer per argument, each to the argument's value. */
class LaunchParameterBufferTest {
    @Test
    void eachPointerLeadsToItsScalarValue() {
        try (LaunchParameterBuffer arguments = new LaunchParameterBuffer()) {
            MemorySegment params = arguments.pack("k", new Object[] {7, 2.5f, 1L << 40, 0.125, (short) -3,
                (byte) 9}, 0, null).reinterpret(6 * ADDRESS.byteSize());
            assertEquals(7, slot(params, 0).get(JAVA_INT, 0));
            assertEquals(2.5f, slot(params, 1).get(JAVA_FLOAT, 0));
            assertEquals(1L << 40, slot(params, 2).get(JAVA_LONG, 0));
            assertEquals(0.125, slot(params, 3).get(JAVA_DOUBLE, 0));
            assertEquals((short) -3, slot(params, 4).get(JAVA_SHORT, 0));
            assertEquals((byte) 9, slot(params, 5).get(JAVA_BYTE, 0));
        }
    }

    @Test
    void theArrayIsReusedAndGrowsForLongSignatures() {
        try (LaunchParameterBuffer arguments = new LaunchParameterBuffer()) {
            MemorySegment first = arguments.pack("k", new Object[] {1}, 0, null);
            assertSame(first, arguments.pack("k", new Object[] {2, 3}, 0, null));
            Object[] many = new Object[40];
            for (int i = 0; i < many.length; i++) {
                many[i] = i;
            }
            MemorySegment params = arguments.pack("k", many, 0, null).reinterpret(40 * ADDRESS.byteSize());
            assertEquals(39, slot(params, 39).get(JAVA_INT, 0));
        }
    }

    @Test
    void aNullArgumentIsNamed() {
        try (LaunchParameterBuffer arguments = new LaunchParameterBuffer()) {
            BackendException e = assertThrows(BackendException.class,
                    () -> arguments.pack("scale", new Object[] {1, null}, 0, null));
            assertEquals("argument 2 of kernel 'scale' is null", e.getMessage());
        }
    }

    private static MemorySegment slot(MemorySegment params, int i) {
        return params.getAtIndex(ADDRESS, i).reinterpret(8);
    }
}
