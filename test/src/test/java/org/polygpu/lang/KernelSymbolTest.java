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

/** {@code kernel.setSymbol}: CUDA's {@code cudaMemcpyToSymbol} on 4 emulated GPUs. */
class KernelSymbolTest {
    private static final String AFFINE = """
            __constant__ float coef[2];
            __device__ int bias;
            extern "C" __global__ void affine(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = coef[0] * x[i] + coef[1] + bias;
            }
            """;
    private static final String SIGNATURE = "affine(x: inout pointer float, n: sint32)";

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

    private Value ones(int n) {
        Value x = cu.invokeMember("DeviceArray", "float", n);
        for (int i = 0; i < n; i++) {
            x.setArrayElement(i, 1f);
        }
        return x;
    }

    /** A launch made before a write sees the old values, one made after sees the new, wherever each runs. */
    @Test
    void launchesSeeTheSymbolsAsTheyWereWhenLaunched() {
        Value affine = cu.getMember("buildkernel").execute(AFFINE, SIGNATURE);
        Value[] xs = new Value[4];
        for (int k = 0; k < 4; k++) {
            xs[k] = ones(256);
            affine.invokeMember("setSymbol", "coef", "float", new float[] {k + 2, 0.5f});
            affine.invokeMember("setSymbol", "bias", "sint32", k * 10);
            affine.execute(2, 128).execute(xs[k], 256);
        }
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 256; i += 17) {
                assertEquals(k + 2 + 0.5f + k * 10, xs[k].getArrayElement(i).asFloat(), "launch " + k + ", x[" + i
                        + "]");
            }
        }
    }

    /** The second launch queues behind the first on the same array; the write must still wait for it. */
    @Test
    void aWriteWaitsForALaunchQueuedBehindAnother() {
        Value affine = cu.getMember("buildkernel").execute(AFFINE, SIGNATURE);
        affine.invokeMember("setSymbol", "coef", "float", new float[] {2, 0});
        int n = 1 << 16;
        Value x = ones(n);
        affine.execute(n / 256, 256).execute(x, n);
        affine.execute(n / 256, 256).execute(x, n);
        affine.invokeMember("setSymbol", "coef", "float", new float[] {100, 0});
        assertEquals(4f, x.getArrayElement(n - 1).asFloat(), "both launches saw coef[0] = 2");
        affine.execute(1, 1).execute(x, 1);
        assertEquals(400f, x.getArrayElement(0).asFloat(), "a later launch sees coef[0] = 100");
    }

    @Test
    void anOffsetWritesPartOfAnArraySymbol() {
        Value affine = cu.getMember("buildkernel").execute(AFFINE, SIGNATURE);
        affine.invokeMember("setSymbol", "coef", "float", new float[] {3, 1});
        affine.invokeMember("setSymbol", "coef", "float", 7, 1);
        Value x = ones(8);
        affine.execute(1, 8).execute(x, 8);
        assertEquals(10f, x.getArrayElement(7).asFloat());
    }

    @Test
    void pythonSetsConstantsAsCudaSamplesDoWithCudaMemcpyToSymbol() {
        context.getPolyglotBindings().putMember("affine", cu.getMember("buildkernel").execute(AFFINE, SIGNATURE));
        Value result = context.eval("python", """
                import polyglot
                CU = polyglot.eval(language="polygpu", string="CU")
                affine = polyglot.import_value("affine")
                h_coef = [2.0, 1.0]
                affine.setSymbol("coef", "float", h_coef)
                set_bias = affine.setSymbol
                set_bias("bias", "int", 100)
                d_x = CU.DeviceArray("float", 64)
                for i in range(64):
                    d_x[i] = i
                affine(1, 64)(d_x, 64)
                [d_x[i] for i in range(64)]
                """);
        for (int i = 0; i < 64; i++) {
            assertEquals(2f * i + 101, result.getArrayElement(i).asFloat(), "d_x[" + i + "]");
        }
    }

    @Test
    void unknownSymbolsAndValuesThatDoNotFitAreRefused() {
        Value affine = cu.getMember("buildkernel").execute(AFFINE, SIGNATURE);
        PolyglotException unknown = assertThrows(PolyglotException.class,
                () -> affine.invokeMember("setSymbol", "scale", "float", 1));
        assertTrue(unknown.getMessage().contains("no variable 'scale' in the module")
                && unknown.getMessage().contains("coef") && unknown.getMessage().contains("bias"),
                unknown.getMessage());
        PolyglotException tooMany = assertThrows(PolyglotException.class,
                () -> affine.invokeMember("setSymbol", "coef", "float", new float[] {1, 2, 3}));
        assertTrue(tooMany.getMessage().contains("12 bytes at offset 0 do not fit in variable 'coef' of 8 bytes"),
                tooMany.getMessage());
        PolyglotException pastEnd = assertThrows(PolyglotException.class,
                () -> affine.invokeMember("setSymbol", "coef", "float", 1, 2));
        assertTrue(pastEnd.getMessage().contains("4 bytes at offset 8 do not fit"), pastEnd.getMessage());
        assertTrue(affine.getMemberKeys().contains("setSymbol"));
    }
}
