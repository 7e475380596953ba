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

/** NVRTC options given to {@code buildkernel} after the signature, as a string or an array of strings. */
class KernelOptionsTest {
    private static final String SCALE = """
            #ifndef FACTOR
            #error FACTOR must be defined
            #endif
            extern "C" __global__ void scale(int *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * FACTOR + OFFSET;
            }
            """;

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

    private int[] run(Value kernel) {
        Value x = cu.invokeMember("DeviceArray", "int", 4);
        for (int i = 0; i < 4; i++) {
            x.setArrayElement(i, i);
        }
        kernel.execute(1, 32).execute(x, 4);
        int[] out = new int[4];
        for (int i = 0; i < 4; i++) {
            out[i] = x.getArrayElement(i).asInt();
        }
        return out;
    }

    @Test
    void definesReachTheSourceAsAStringOrAnArrayAndWithALegacySignature() {
        Value build = cu.getMember("buildkernel");
        assertEquals("[1, 4, 7, 10]", java.util.Arrays.toString(run(build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)", "-DFACTOR=3 -DOFFSET=1  --use_fast_math"))));
        assertEquals("[-5, -3, -1, 1]", java.util.Arrays.toString(run(build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)",
                new String[] {"-DFACTOR=2", "-DOFFSET=-5", "-lineinfo"}))));
        assertEquals("[0, 5, 10, 15]", java.util.Arrays.toString(run(build.execute(SCALE, "scale",
                "pointer, sint32", new String[] {"-D", "FACTOR=5", "-DOFFSET=0", "--std=c++17"}))));
    }

    @Test
    void aBadOptionIsReportedWithNvrtcsLogAndABadOptionsValueNamesTheArgument() {
        Value build = cu.getMember("buildkernel");
        PolyglotException bad = assertThrows(PolyglotException.class, () -> build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)", "-DFACTOR=1 -DOFFSET=0 --no-such-option"));
        assertTrue(bad.getMessage().contains("NVRTC_ERROR_INVALID_OPTION") && bad.getMessage().contains(
                "--no-such-option"), bad.getMessage());
        PolyglotException missing = assertThrows(PolyglotException.class, () -> build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)"));
        assertTrue(missing.getMessage().contains("FACTOR must be defined"), missing.getMessage());
        PolyglotException type = assertThrows(PolyglotException.class, () -> build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)", 42));
        assertTrue(type.getMessage().contains("buildkernel: argument 'options' must be an array of strings or a "
                + "string of NVRTC options"), type.getMessage());
        PolyglotException extra = assertThrows(PolyglotException.class, () -> build.execute(SCALE,
                "scale(x: inout pointer sint32, n: sint32)", "", "more"));
        assertTrue(extra.getMessage().startsWith("buildkernel expects 2 or 3"), extra.getMessage());
    }
}
