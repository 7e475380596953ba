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

/** {@code x.offset(k)}: CUDA C's {@code x + k} as a kernel argument, on 4 emulated GPUs. */
class ArrayOffsetTest {
    private static final String MARK = """
            extern "C" __global__ void mark(int *d, int block, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) d[i] = block * 1000 + i;
            }
            """;
    private static final String SIGNATURE = "mark(d: out pointer sint32, block: sint32, n: sint32)";

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

    /** Each launch sees the array from its offset on; the host then reads every launch's writes. */
    @Test
    void launchesThroughOffsetsWriteFromTheOffsetOn() {
        Value mark = cu.getMember("buildkernel").execute(MARK, SIGNATURE);
        Value d = cu.invokeMember("DeviceArray", "int", 1000);
        for (int block = 0; block < 4; block++) {
            mark.execute(1, 256).execute(d.invokeMember("offset", block * 250), block, 250);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(i / 250 * 1000 + i % 250, d.getArrayElement(i).asInt(), "d[" + i + "]");
        }
    }

    @Test
    void pythonPassesAnOffsetAsCudaSamplesPassDDataPlusBlockSize() {
        Value bindings = context.getPolyglotBindings();
        bindings.putMember("mark", cu.getMember("buildkernel").execute(MARK, SIGNATURE));
        Value result = context.eval("python", """
                import polyglot
                CU = polyglot.eval(language="polygpu", string="CU")
                mark = polyglot.import_value("mark")
                blockSize = 128
                d_data = CU.DeviceArray("int", 2 * blockSize)
                mark(1, blockSize)(d_data, 0, blockSize)
                mark(1, blockSize)(d_data.offset(blockSize), 1, blockSize)
                [d_data[i] for i in range(2 * blockSize)]
                """);
        for (int i = 0; i < 256; i++) {
            assertEquals(i / 128 * 1000 + i % 128, result.getArrayElement(i).asInt(), "d_data[" + i + "]");
        }
    }

    @Test
    void anOffsetPastTheEndOrOfTheWrongTypeIsRefused() {
        Value mark = cu.getMember("buildkernel").execute(MARK, SIGNATURE);
        Value d = cu.invokeMember("DeviceArray", "int", 8);
        PolyglotException past = assertThrows(PolyglotException.class, () -> d.invokeMember("offset", 9));
        assertTrue(past.getMessage().contains("offset: argument 'k' must be an offset in 0..8, got 9"),
                past.getMessage());
        assertThrows(PolyglotException.class, () -> d.invokeMember("offset", -1));
        Value floats = cu.invokeMember("DeviceArray", "float", 8);
        PolyglotException type = assertThrows(PolyglotException.class,
                () -> mark.execute(1, 8).execute(floats.invokeMember("offset", 2), 0, 6));
        assertTrue(type.getMessage().contains("expects pointer int, got"), type.getMessage());
        String shown = d.invokeMember("offset", 2).toString();
        assertTrue(shown.matches("offset 2 into array #\\d+ int\\[8]"), shown);
    }

    /** The host's writes reach the offset's launch, whose writes reach a later launch that reads the whole array. */
    @Test
    void writesThroughAnOffsetAreSeenByALaterLaunchOnTheWholeArray() {
        Value mark = cu.getMember("buildkernel").execute(MARK, SIGNATURE);
        Value inc = cu.getMember("buildkernel").execute(Kernels.INC,
                "inc_kernel<int>(out: out pointer sint32, in: in pointer sint32, n: sint32)");
        Value d = cu.invokeMember("DeviceArray", "int", 64);
        Value e = cu.invokeMember("DeviceArray", "int", 64);
        for (int i = 0; i < 64; i++) {
            d.setArrayElement(i, -1);
        }
        mark.execute(1, 32).execute(d.invokeMember("offset", 32), 0, 32);
        inc.execute(1, 64).execute(e, d, 64);
        for (int i = 0; i < 64; i++) {
            assertEquals(i < 32 ? 0 : i - 32 + 1, e.getArrayElement(i).asInt(), "e[" + i + "]");
        }
    }
}
