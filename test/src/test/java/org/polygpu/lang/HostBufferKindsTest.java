package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copyFrom}/{@code copyTo} with every kind of host buffer, from its own language, both ways, the data checked
 * element by element: Python {@code array.array}, {@code bytes}, {@code bytearray}, {@code memoryview}; JavaScript
 * typed arrays and {@code ArrayBuffer}; Java primitive arrays, {@code MemorySegment} and {@code ByteBuffer}; raw
 * native addresses. Sizes are chosen so that the byte count is not a multiple of 8 (the buffer writer's tail) and,
 * once, larger than one call of the writer.
 */
class HostBufferKindsTest {
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

    private Value python(String code) {
        return context.eval("python", "import polyglot, array\nCU = polyglot.eval(language='polygpu', string='CU')\n"
                + code);
    }

    @Test
    void pythonArrayBytesBytearrayAndMemoryviewCopyBothWays() {
        Value r = python("""
                n = 5
                x = CU.DeviceArray('float', n)
                x.copyFrom(array.array('f', [0.5, 1.5, 2.5, 3.5, 4.5]))
                a = array.array('f', bytes(4 * n)); x.copyTo(a)
                ba = bytearray(4 * n); x.copyTo(ba)
                mv_target = array.array('f', bytes(4 * n)); x.copyTo(memoryview(mv_target))
                y = CU.DeviceArray('float', n)
                y.copyFrom(bytes(array.array('f', [10, 11, 12, 13, 14])))
                from_bytes = list(y)
                y.copyFrom(bytearray(array.array('f', [20, 21, 22, 23, 24]).tobytes()))
                from_bytearray = list(y)
                y.copyFrom(memoryview(array.array('f', [30, 31, 32, 33, 34])))
                from_memoryview = list(y)
                d = CU.DeviceArray('double', 3)
                d.copyFrom(array.array('d', [0.25, -1e300, 7]))
                dout = array.array('d', [0, 0, 0]); d.copyTo(dout)
                i = CU.DeviceArray('int', 3)
                i.copyFrom(array.array('i', [-7, 8, 2**31 - 1]))
                iout = array.array('i', [0, 0, 0]); i.copyTo(iout)
                [list(a), list(array.array('f', bytes(ba))), list(mv_target), from_bytes, from_bytearray,
                 from_memoryview, list(dout), list(iout)]
                """);
        assertEquals("[[0.5, 1.5, 2.5, 3.5, 4.5], [0.5, 1.5, 2.5, 3.5, 4.5], [0.5, 1.5, 2.5, 3.5, 4.5], "
                + "[10.0, 11.0, 12.0, 13.0, 14.0], [20.0, 21.0, 22.0, 23.0, 24.0], [30.0, 31.0, 32.0, 33.0, 34.0], "
                + "[0.25, -1e+300, 7.0], [-7, 8, 2147483647]]", r.toString());
    }

    /** A million floats each way through array.array: several calls of the buffer writer, every element checked. */
    @Test
    void aMillionFloatsRoundTripThroughPythonArrays() {
        Value r = python("""
                n = 1000000
                src = array.array('f', range(n))
                x = CU.DeviceArray('float', n)
                x.copyFrom(src)
                out = array.array('f', bytes(4 * n))
                x.copyTo(out)
                raw = bytearray(4 * n)
                x.copyTo(raw)
                [out == src, bytes(raw) == src.tobytes(), x[n - 1]]
                """);
        assertEquals("[True, True, 999999.0]", r.toString());
    }

    @Test
    void pythonListsConvertElementByElementAndNameTheBadItem() {
        Value r = python("""
                x = CU.DeviceArray('int', 3)
                x.copyFrom([4, 5.0, 6])
                out = [0, 0, 0]
                x.copyTo(out)
                out
                """);
        assertEquals("[4, 5, 6]", r.toString());
        PolyglotException e = assertThrows(PolyglotException.class, () -> python("""
                CU.DeviceArray('float', 3).copyFrom([1.0, 'two', 3.0])
                """));
        assertTrue(e.getMessage().contains("copyFrom: element 1: expected a number for float"), e.getMessage());
    }

    @Test
    void javaScriptTypedArraysAndArrayBuffersCopyBothWays() {
        Value r = context.eval("js", """
                const x = Polyglot.eval('polygpu', 'float[3]');
                x.copyFrom(new Float32Array([1.25, -2.5, 3.75]));
                const f = new Float32Array(3); x.copyTo(f);
                const buffer = new ArrayBuffer(12); x.copyTo(buffer);
                const d = Polyglot.eval('polygpu', 'double[2]');
                d.copyFrom(new Float64Array([0.1, 1e200]));
                const dout = new Float64Array(2); d.copyTo(dout);
                const i = Polyglot.eval('polygpu', 'int[3]');
                i.copyFrom(new Int32Array([-1, 2, 3]).buffer);
                const iout = new Int32Array(3); i.copyTo(iout);
                const b = Polyglot.eval('polygpu', 'char[5]');
                b.copyFrom(new Int8Array([1, -2, 3, -4, 5]));
                const bout = new Int8Array(5); b.copyTo(bout);
                [Array.from(f), Array.from(new Float32Array(buffer)), Array.from(dout), Array.from(iout),
                 Array.from(bout)].map(String).join(' | ');
                """);
        assertEquals("1.25,-2.5,3.75 | 1.25,-2.5,3.75 | 0.1,1e+200 | -1,2,3 | 1,-2,3,-4,5", r.asString());
    }

    @Test
    void javaPrimitiveArraysCopyBothWays() {
        Value f = cu.invokeMember("DeviceArray", "float", 3).invokeMember("copyFrom", new float[] {1.5f, 2, 3});
        float[] fs = new float[3];
        f.invokeMember("copyTo", fs);
        assertArrayEquals(new float[] {1.5f, 2, 3}, fs);
        Value s = cu.invokeMember("DeviceArray", "short", 3).invokeMember("copyFrom", new short[] {-1, 2, 300});
        short[] ss = new short[3];
        s.invokeMember("copyTo", ss);
        assertArrayEquals(new short[] {-1, 2, 300}, ss);
        Value b = cu.invokeMember("DeviceArray", "char", 3).invokeMember("copyFrom", new byte[] {-1, 2, 3});
        byte[] bs = new byte[3];
        b.invokeMember("copyTo", bs);
        assertArrayEquals(new byte[] {-1, 2, 3}, bs);
        Value l = cu.invokeMember("DeviceArray", "long", 2).invokeMember("copyFrom", new long[] {Long.MIN_VALUE, 5});
        long[] ls = new long[2];
        l.invokeMember("copyTo", ls);
        assertArrayEquals(new long[] {Long.MIN_VALUE, 5}, ls);
    }

    @Test
    void javaMemorySegmentsAndByteBuffersCopyBothWays() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(4 * 4);
            for (int k = 0; k < 4; k++) {
                in.setAtIndex(ValueLayout.JAVA_INT, k, 100 + k);
            }
            Value x = cu.invokeMember("DeviceArray", "int", 4).invokeMember("copyFrom", in);
            MemorySegment out = MemorySegment.ofArray(new int[4]);
            x.invokeMember("copyTo", out);
            assertArrayEquals(new int[] {100, 101, 102, 103}, out.toArray(ValueLayout.JAVA_INT));
            ByteBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
            x.invokeMember("copyTo", direct);
            assertEquals(103, direct.getInt(12));
            direct.putInt(0, -5);
            x.invokeMember("copyFrom", direct);
            assertEquals(-5, x.getArrayElement(0).asInt());
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> x.invokeMember("copyTo", direct.asReadOnlyBuffer()));
            assertTrue(e.getMessage().contains("is read-only"), e.getMessage());
        }
    }

    /** GrCUDA's form: {@code copyFrom(pointer, n)} and {@code copyTo(pointer, n)} with an off-heap address. */
    @Test
    void rawAddressesFromJavaCopyBothWays() {
        int n = 1000;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(4L * n);
            for (int k = 0; k < n; k++) {
                memory.setAtIndex(ValueLayout.JAVA_INT, k, k + 1);
            }
            Value x = cu.invokeMember("DeviceArray", "int", n);
            x.invokeMember("copyFrom", memory.address(), n);
            for (int k = 0; k < n; k++) {
                assertEquals(k + 1, x.getArrayElement(k).asInt());
            }
            for (int k = 0; k < n; k++) {
                x.setArrayElement(k, -k);
            }
            x.invokeMember("copyTo", memory.address(), n);
            for (int k = 0; k < n; k++) {
                assertEquals(-k, memory.getAtIndex(ValueLayout.JAVA_INT, k));
            }
        }
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> cu.invokeMember("DeviceArray", "int", 4).invokeMember("copyFrom", 0L, 4));
        assertTrue(e.getMessage().contains("copyFrom: argument 'pointer' must be a native address"), e.getMessage());
    }

    /** A Python array's buffer address ({@code buffer_info()[0]}) as the pointer, as GrCUDA's numpy idiom does. */
    @Test
    void rawAddressesFromPythonArraysCopyBothWays() {
        Value r = python("""
                src = array.array('f', [1, 2, 3, 4])
                x = CU.DeviceArray('float', 4)
                x.copyFrom(src.buffer_info()[0], 4)
                dst = array.array('f', [0, 0, 0, 0])
                x.copyTo(dst.buffer_info()[0], 3)
                [list(x), list(dst)]
                """);
        assertEquals("[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 0.0]]", r.toString());
    }
}
