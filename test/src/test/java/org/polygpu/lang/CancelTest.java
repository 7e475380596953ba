package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * {@code Context.close(true)} cancels the kernels that have not started instead of running them, and still releases
 * the backend; {@code close()} runs every launched kernel first.
 */
class CancelTest {
    private static final String SAY = """
            extern "C" __global__ void say(float *x, int n) {
                printf("ran\\n");
                float s = 0.0f;
                for (int i = 0; i < n; i++) s += x[0] * 0.5f + 1.0f;
                x[0] = s;
            }""";
    private static final int LAUNCHES = 40;

    /** The kernels that ran before the context closed, cancelled or not, counted by the lines they printed. */
    private static int kernelsRunBy(boolean cancel) {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Context c = Polyglot.context();
            Value cu = Polyglot.eval(c, "CU");
            Value say = cu.invokeMember("buildkernel", SAY, "say(x: inout pointer float, n: sint32)");
            Value x = cu.invokeMember("DeviceArray", "float", 1);
            for (int i = 0; i < LAUNCHES; i++) {
                say.execute(1, 1).execute(x, 20000);
            }
            c.close(cancel);
        } finally {
            System.setOut(out);
        }
        return (int) printed.toString(StandardCharsets.UTF_8).lines().filter("ran"::equals).count();
    }

    @Test
    void closeRunsEveryLaunchedKernelAndCancellingClosesWithoutRunningThoseNotStarted() {
        Polyglot.assumeNvrtc();
        assertEquals(LAUNCHES, kernelsRunBy(false));
        int cancelled = kernelsRunBy(true);
        assertTrue(cancelled < LAUNCHES / 2, cancelled + " of " + LAUNCHES + " kernels ran after close(true)");
    }
}
