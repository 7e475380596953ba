package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Element reads and writes that skip the scheduler while the host copy is valid and nothing pending touches the
 * array: every access still sees what program order says, around kernels still running, and bad values and freed
 * arrays still fail with the scheduler path's messages.
 */
class DirectElementAccessTest {
    private static final int N = 1000;

    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        Polyglot.assumeNvrtc();
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        if (context != null) {
            context.close();
        }
    }

    private Value scale() {
        return cu.getMember("buildkernel").execute(Kernels.SCALE,
                "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)");
    }

    /** Host writes after a launch that reads x wait for it; host reads of y wait for the launch that writes it. */
    @Test
    void writesWaitForPendingReadersAndReadsForPendingWriters() {
        Value scale = scale();
        Value x = cu.invokeMember("DeviceArray", "double", N);
        Value y = cu.invokeMember("DeviceArray", "double", N);
        for (int i = 0; i < N; i++) {
            x.setArrayElement(i, i);
        }
        scale.execute(4, 256).execute(x, y, 2.0, N);
        for (int i = 0; i < N; i++) {
            x.setArrayElement(i, -1.0);
        }
        for (int i = 0; i < N; i++) {
            assertEquals(2.0 * i, y.getArrayElement(i).asDouble(), "y[" + i + "] from x before the host wrote it");
        }
        scale.execute(4, 256).execute(x, y, 3.0, N);
        for (int i = 0; i < N; i++) {
            assertEquals(-3.0, y.getArrayElement(i).asDouble(), "y[" + i + "] from the host's new x");
            assertEquals(-1.0, x.getArrayElement(i).asDouble(), "x[" + i + "]");
        }
    }

    /** After direct writes, a kernel gets the host's data, and reads after it see the kernel's result. */
    @Test
    void kernelsSeeDirectWritesAndDirectReadsSeeKernels() {
        Value square = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square(x: inout pointer float, n: sint32)");
        Value r = context.eval("python", """
                import polyglot
                CU = polyglot.eval(language='polygpu', string='CU')
                def run(square, n):
                    x = CU.DeviceArray('float', n)
                    sums = []
                    for rnd in range(3):
                        for i in range(n):
                            x[i] = i + rnd
                        square(4, 256)(x, n)
                        s = 0.0
                        for i in range(n):
                            s += x[i]
                        sums.append(s)
                    return sums
                run
                """).execute(square, N);
        for (int round = 0; round < 3; round++) {
            double expected = 0;
            for (int i = 0; i < N; i++) {
                expected += (double) (i + round) * (i + round);
            }
            assertEquals(expected, r.getArrayElement(round).asDouble(), "round " + round);
        }
    }

    /** Rows of multi-dimensional arrays take the same direct path, in both orders, around a kernel. */
    @Test
    void rowsOfMultiDimensionalArraysToo() {
        Value square = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square(x: inout pointer float, n: sint32)");
        Value r = context.eval("python", """
                import polyglot
                CU = polyglot.eval(language='polygpu', string='CU')
                def run(square, order):
                    m = CU.DeviceArray('float', 4, 8, order)
                    for rnd in range(2):
                        for i in range(4):
                            for j in range(8):
                                m[i][j] = i * 8 + j + rnd
                        square(1, 32)(m, 32)
                    return [m[i][j] for i in range(4) for j in range(8)]
                run
                """);
        for (String order : new String[] {"C", "F"}) {
            Value values = r.execute(square, order);
            for (int k = 0; k < 32; k++) {
                assertEquals((k + 1.0) * (k + 1.0), values.getArrayElement(k).asDouble(), order + " element " + k);
            }
        }
    }

    /** The same from a JavaScript loop: writes, a kernel on the array, reads. */
    @Test
    void javaScriptLoopsSeeKernels() {
        Value square = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square(x: inout pointer float, n: sint32)");
        Value run = context.eval("js", """
                (function(square, n) {
                    const x = Polyglot.eval('polygpu', 'float[' + n + ']');
                    let s = 0;
                    for (let round = 0; round < 2; round++) {
                        for (let i = 0; i < n; i++) { x[i] = i % 10; }
                        square(4, 256)(x, n);
                        s = 0;
                        for (let i = 0; i < n; i++) { s += x[i]; }
                    }
                    return s;
                })""");
        double expected = 0;
        for (int i = 0; i < N; i++) {
            expected += (i % 10) * (i % 10);
        }
        assertEquals(expected, run.execute(square, N).asDouble());
    }

    @Test
    void badValuesAndFreedArraysFailAsOnTheScheduledPath() {
        Value f = cu.invokeMember("DeviceArray", "float", 4);
        Value i = cu.invokeMember("DeviceArray", "int", 4);
        for (int k = 0; k < 4; k++) {
            f.setArrayElement(k, 1.5);
            i.setArrayElement(k, 7);
        }
        assertGuestError("does not fit float", () -> f.setArrayElement(0, 1e40));
        assertGuestError("expected a number for float", () -> f.setArrayElement(1, "a"));
        assertGuestError("does not fit int", () -> i.setArrayElement(0, 1L << 40));
        assertGuestError("is not an integer", () -> i.setArrayElement(0, 2.5));
        assertEquals(1.5f, f.getArrayElement(0).asFloat(), "a refused value leaves the element as it was");
        assertEquals(7, i.getArrayElement(0).asInt());
        i.setArrayElement(1, 1L << 20);
        assertEquals(1 << 20, i.getArrayElement(1).asInt(), "a long that fits int is written");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> f.getArrayElement(4));
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> f.setArrayElement(-1, 0.0));
        f.invokeMember("free");
        assertGuestError("was freed", () -> f.getArrayElement(0));
        assertGuestError("was freed", () -> f.setArrayElement(0, 1.0));
    }

    private static void assertGuestError(String message, Runnable action) {
        PolyglotException e = assertThrows(PolyglotException.class, action::run);
        assertTrue(e.isGuestException() && e.getMessage().contains(message), e.getMessage());
    }
}
