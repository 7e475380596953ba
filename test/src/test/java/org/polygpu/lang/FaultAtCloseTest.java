package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/** A kernel fault that nothing reported before the context closes is raised by the close, as a guest error. */
class FaultAtCloseTest {
    private static final String PEEK = """
            extern "C" __global__ void peek(const float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) { volatile float v = x[i + 1000000]; }
            }""";

    @Test
    void closeRaisesTheUnreportedFaultAsAGuestError() {
        Context context = Polyglot.context();
        Value cu = Polyglot.eval(context, "CU");
        Value peek = cu.invokeMember("buildkernel", PEEK, "peek(x: in pointer float, n: sint32)");
        Value x = cu.invokeMember("DeviceArray", "float", 4);
        peek.execute(1, 4).execute(x, 4);
        PolyglotException e = assertThrows(PolyglotException.class, context::close);
        assertTrue(e.isGuestException(), "a guest error, not an internal one: " + e);
        assertFalse(e.isInternalError());
        assertTrue(e.getMessage().startsWith("memcheck: kernel 'peek' block (0, 0, 0) thread (0, 0, 0)"),
                e.getMessage());
    }
}
