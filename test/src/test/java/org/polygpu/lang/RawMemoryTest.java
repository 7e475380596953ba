package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code cudaMalloc}, {@code cudaFree} and {@code cudaMemcpy} in GrCUDA's forms, with the bytes checked. */
class RawMemoryTest {
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    /** Host address -> cudaMalloc memory -> device array -> host address, 1000 ints. */
    @Test
    void bytesTravelBetweenAddressesRawMemoryAndArrays() {
        int n = 1000;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(4L * n);
            MemorySegment out = arena.allocate(4L * n);
            for (int k = 0; k < n; k++) {
                in.setAtIndex(ValueLayout.JAVA_INT, k, 3 * k - 7);
            }
            Value memory = Polyglot.eval(context, "cudaMalloc(4000)");
            assertEquals(4000, memory.getArraySize());
            Value memcpy = Polyglot.eval(context, "cudaMemcpy");
            memcpy.execute(memory, in.address(), 4L * n);
            Value x = cu.invokeMember("DeviceArray", "int", n);
            memcpy.execute(x, memory, 4L * n, 3);
            for (int k = 0; k < n; k++) {
                assertEquals(3 * k - 7, x.getArrayElement(k).asInt(), "x[" + k + "]");
            }
            memcpy.execute(out.address(), x, 4L * n, 4);
            for (int k = 0; k < n; k++) {
                assertEquals(3 * k - 7, out.getAtIndex(ValueLayout.JAVA_INT, k), "out[" + k + "]");
            }
            cu.invokeMember("cudaFree", memory);
            PolyglotException e = assertThrows(PolyglotException.class, () -> memory.getArrayElement(0));
            assertTrue(e.getMessage().contains("was freed"), e.getMessage());
        }
    }

    /** Memory from cudaMalloc is a kernel argument for a {@code pointer uint8} parameter. */
    @Test
    void kernelsWriteRawMemory() {
        Polyglot.assumeNvrtc();
        Value fill = cu.getMember("buildkernel").execute("""
                extern "C" __global__ void fill(unsigned char *p, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) p[i] = (unsigned char) (3 * i);
                }
                """, "fill(p: out pointer uint8, n: sint32)");
        Value memory = cu.invokeMember("cudaMalloc", 64);
        fill.execute(1, 64).execute(memory, 64);
        byte[] out = new byte[64];
        cu.invokeMember("cudaMemcpy", out, memory, 64);
        for (int i = 0; i < 64; i++) {
            assertEquals((byte) (3 * i), out[i], "byte " + i);
        }
    }

    @Test
    void pythonBuffersAndPartialCopies() {
        Value r = context.eval("python", """
                import polyglot, array
                CU = polyglot.eval(language='polygpu', string='CU')
                p = CU.cudaMalloc(16)
                CU.cudaMemcpy(p, array.array('f', [1, 2, 3, 4]), 16)
                x = CU.DeviceArray('float', 4)
                CU.cudaMemcpy(x, p, 8)
                out = bytearray(16)
                CU.cudaMemcpy(out, p, 12)
                CU.cudaFree(p)
                [list(x), list(array.array('f', bytes(out)))]
                """);
        assertEquals("[[1.0, 2.0, 0.0, 0.0], [1.0, 2.0, 3.0, 0.0]]", r.toString());
    }

    @Test
    void badArgumentsAreNamed() {
        Value memory = cu.invokeMember("cudaMalloc", 8);
        assertError("cudaMemcpy: cannot copy 16 bytes with dst array", () -> cu.invokeMember("cudaMemcpy", memory,
                new byte[16], 16));
        assertError("cudaMemcpy: argument 'kind' must be an integer in 0..4, got 7",
                () -> cu.invokeMember("cudaMemcpy", memory, new byte[8], 8, 7));
        assertError("cudaMemcpy: src holds 4 bytes, 8 are needed",
                () -> cu.invokeMember("cudaMemcpy", memory, new byte[4], 8));
        assertError("cudaFree: argument 'pointer' must be memory from cudaMalloc or a device array, got 3",
                () -> cu.invokeMember("cudaFree", 3));
        assertError("cudaMalloc: argument 'size' must be a size in bytes of at least 1, got 0",
                () -> cu.invokeMember("cudaMalloc", 0));
    }

    private static void assertError(String message, Runnable action) {
        PolyglotException e = assertThrows(PolyglotException.class, action::run);
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
