package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Arrays too large for 64 bits or for the device are refused with a clear error; one element is read alone. */
class ArraySizesTest {
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        assertEquals(4, Polyglot.eval(context, "cudaGetDeviceCount()").asInt(), "the context is still usable");
        context.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"float[4611686018427387904]", "double[2305843009213693952]",
        "char[65536][65536][65536]", "float[1099511627776]", "DeviceArray(\"double\", 2305843009213693952)",
        "DeviceArray(\"int\", 65536, 65536, 4)"})
    void arraysTooLargeAreRefusedWithTheirSize(String code) {
        PolyglotException e = assertThrows(PolyglotException.class, () -> Polyglot.eval(context, code));
        assertFalse(e.isInternalError(), e::toString);
        assertTrue(e.getMessage().contains("is too large: ") && e.getMessage().contains(" bytes, more than"),
                e.getMessage());
    }

    /**
     * Of an array larger than 16 MiB, the element is copied alone from the device that wrote it, from its offset;
     * the kernel writes only the first 65536 elements of 4 Mi.
     */
    @Test
    void oneElementOfALargeArrayWrittenByAKernelIsReadFromTheDevice() {
        Polyglot.assumeNvrtc();
        Value scale = cu.getMember("buildkernel").execute(Kernels.SCALE,
                "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)");
        int size = 1 << 22;
        int n = 1 << 16;
        Value dx = cu.invokeMember("DeviceArray", "double", size);
        Value dy = cu.invokeMember("DeviceArray", "double", size);
        dx.setArrayElement(40_000, 7.0);
        dx.setArrayElement(n - 1, 3.0);
        scale.execute(n / 256, 256).execute(dx, dy, 0.5, n);
        assertEquals(3.5, dy.getArrayElement(40_000).asDouble());
        assertEquals(1.5, dy.getArrayElement(n - 1).asDouble());
        assertEquals(0.0, dy.getArrayElement(size - 1).asDouble());
    }
}
