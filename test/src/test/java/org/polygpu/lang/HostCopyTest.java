package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copyFrom}/{@code copyTo}: ordered with pending kernels, and accepting what Python and JavaScript hosts
 * hold (lists, {@code memoryview}, {@code array}, {@code bytearray}, typed arrays).
 */
class HostCopyTest {
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

    /** copyTo waits for the kernel writing the array; copyFrom waits for the kernel still reading it. */
    @Test
    void copiesAreOrderedWithPendingKernels() {
        Polyglot.assumeNvrtc();
        Value scale = cu.getMember("buildkernel").execute(Kernels.SCALE,
                "scale(x: in pointer double, y: out pointer double, a: double, n: sint32)");
        int n = 4096;
        double[] data = new double[n];
        for (int i = 0; i < n; i++) {
            data[i] = i;
        }
        Value x = cu.invokeMember("DeviceArray", "double", n).invokeMember("copyFrom", data);
        Value y = cu.invokeMember("DeviceArray", "double", n);
        Value z = cu.invokeMember("DeviceArray", "double", n);
        scale.execute(16, 256).execute(x, y, 2.0, n);
        x.invokeMember("copyFrom", new double[n]);
        scale.execute(16, 256).execute(y, z, 10.0, n);
        double[] zs = new double[n];
        z.invokeMember("copyTo", zs);
        double[] ys = new double[n];
        y.invokeMember("copyTo", ys);
        double[] xs = new double[n];
        x.invokeMember("copyTo", xs);
        for (int i = 0; i < n; i++) {
            assertEquals(2.0 * i, ys[i], "y[" + i + "] computed from x before it was overwritten");
            assertEquals(20.0 * i, zs[i], "z[" + i + "]");
            assertEquals(0.0, xs[i], "x[" + i + "]");
        }
    }

    @Test
    void pythonHostValuesCopyInAndOut() {
        Value result = context.eval("python", """
                import polyglot, array
                CU = polyglot.eval(language='polygpu', string='CU')
                a = CU.DeviceArray('float', 4)
                a.copyFrom(array.array('f', [1.5, 2.5, 3.5, 4.5]))
                b = CU.DeviceArray('float', 4)
                b.copyFrom(memoryview(array.array('f', [5, 6, 7, 8])))
                c = CU.DeviceArray('int', 3)
                c.copyFrom([7, 8, 9])
                out = array.array('f', [0, 0, 0, 0])
                a.copyTo(out)
                raw = bytearray(16)
                b.copyTo(raw)
                back = array.array('f', bytes(raw))
                lst = [0, 0, 0]
                c.copyTo(lst)
                [list(out), list(back), lst, list(c), [x * 2 for x in a]]
                """);
        assertEquals("[[1.5, 2.5, 3.5, 4.5], [5.0, 6.0, 7.0, 8.0], [7, 8, 9], [7, 8, 9], [3.0, 5.0, 7.0, 9.0]]",
                result.toString());
    }

    @Test
    void javaScriptHostValuesCopyInAndOut() {
        Value result = context.eval("js", """
                const a = Polyglot.eval('polygpu', 'float[4]');
                a.copyFrom(new Float32Array([1.5, 2.5, 3.5, 4.5]));
                const b = Polyglot.eval('polygpu', 'float[3]');
                b.copyFrom(new Float64Array([0.5, 0.25, 0.125]));
                const c = Polyglot.eval('polygpu', 'int[3]');
                c.copyFrom([1, 2, 3]);
                const out = new Float32Array(4);
                a.copyTo(out);
                const plain = [0, 0, 0];
                c.copyTo(plain);
                [Array.from(out), Array.from(b), plain, a.length].map(String).join(' | ');
                """);
        assertEquals("1.5,2.5,3.5,4.5 | 0.5,0.25,0.125 | 1,2,3 | 4", result.asString());
    }

    @Test
    void partialCopiesTouchOnlyTheirElements() {
        Value a = Polyglot.eval(context, "long[6]").invokeMember("copyFrom", new long[] {1, 2, 3, 4, 5, 6});
        Value b = Polyglot.eval(context, "long[6]").invokeMember("copyFrom", new long[] {9, 9, 9, 9, 9, 9});
        b.invokeMember("copyFrom", a, 3);
        long[] out = new long[6];
        b.invokeMember("copyTo", out);
        assertArrayEquals(new long[] {1, 2, 3, 9, 9, 9}, out);
    }

    /**
     * copyTo into a host list shorter than the count appends to it where the list grows (a Java {@code ArrayList},
     * a JavaScript array), as GrCUDA's element-by-element copy does; a fixed-size one still has to be long enough.
     */
    @Test
    void copyToAppendsToGrowableLists() {
        Value m = cu.invokeMember("DeviceArray", "int", 3, 4);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                m.getArrayElement(i).setArrayElement(j, 10 * i + j);
            }
        }
        List<Integer> list = new ArrayList<>(List.of(-1));
        m.invokeMember("copyTo", list, 12);
        assertEquals(List.of(0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23), list);
        Value js = context.eval("js", "(a) => { const out = []; a.copyTo(out, 5); return out.join(','); }");
        assertEquals("0,1,2,3,10", js.execute(m).asString());
        List<Integer> fixed = Arrays.asList(new Integer[5]);
        PolyglotException e = assertThrows(PolyglotException.class, () -> m.invokeMember("copyTo", fixed, 12));
        assertEquals("copyTo: the host side holds 5 elements, 12 are needed", e.getMessage());
    }
}
