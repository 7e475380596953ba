package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Hopper's DPX intrinsics ({@code __vimax3_s32}, {@code __viaddmax_s16x2_relu}, ...): NVRTC writes them with sm_90's
 * {@code min/max .relu} and packed 16-bit forms for compute_90 and with plain instructions before, so every
 * architecture must agree, and the 32-bit ones match Java references. Skipped without NVRTC.
 */
class DpxIntrinsicsTest {
    private static final String SOURCE = """
            extern "C" __global__ void dpx(int *out, const int *in) {
                int i = threadIdx.x;
                int a = in[i], b = in[i + 64], c = in[i + 128];
                bool p, q;
                int *o = out + i * 12;
                o[0] = __vimax3_s32(a, b, c);
                o[1] = __vimin3_u32(a, b, c);
                o[2] = __vimax_s32_relu(a, b);
                o[3] = __viaddmax_s32(a, b, c);
                o[4] = __viaddmin_u32(a, b, c);
                o[5] = __vibmax_s32(a, b, &p) + p;
                o[6] = __vimax3_s16x2(a, b, c);
                o[7] = __viaddmax_s16x2_relu(a, b, c);
                o[8] = __vimin3_s32_relu(a, b, c);
                o[9] = __vibmin_u16x2(a, b, &p, &q) + 2 * p + q;
                o[10] = __vimax_s16x2_relu(a, b);
                o[11] = __vimin3_u16x2(a, b, c);
            }
            """;

    private static int[] run(String arch, int[] in) {
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * 12 * 64);
            d.launch(CudaCompiler.compile(SOURCE, arch), "dpx", 1, 64, out, d.ints(in));
            return d.intsAt(out, 12 * 64);
        }
    }

    @Test
    void everyArchitectureAgreesAndTheWordFormsMatchJava() {
        assertTrue(CudaCompiler.ptx(SOURCE, "compute_90").contains("min.s32.relu"), "compute_90 uses .relu");
        Random random = new Random(90);
        int[] in = new int[192];
        for (int i = 0; i < in.length; i++) {
            in[i] = i % 9 == 0 ? Integer.MIN_VALUE : i % 4 == 0 ? random.nextInt(100) - 50 : random.nextInt();
        }
        int[] volta = run("compute_70", in);
        assertArrayEquals(volta, run("compute_80", in), "compute_80 against compute_70");
        assertArrayEquals(volta, run("compute_90", in), "compute_90 against compute_70");
        for (int i = 0; i < 64; i++) {
            int a = in[i];
            int b = in[i + 64];
            int c = in[i + 128];
            int[] expected = {Math.max(a, Math.max(b, c)), minUnsigned(a, minUnsigned(b, c)),
                Math.max(0, Math.max(a, b)), Math.max(a + b, c), minUnsigned(a + b, c),
                Math.max(a, b) + (a >= b ? 1 : 0), Math.max(0, Math.min(a, Math.min(b, c)))};
            int[] got = {volta[i * 12], volta[i * 12 + 1], volta[i * 12 + 2], volta[i * 12 + 3], volta[i * 12 + 4],
                volta[i * 12 + 5], volta[i * 12 + 8]};
            assertArrayEquals(expected, got, "thread " + i);
        }
    }

    private static int minUnsigned(int x, int y) {
        return Integer.compareUnsigned(x, y) <= 0 ? x : y;
    }
}
