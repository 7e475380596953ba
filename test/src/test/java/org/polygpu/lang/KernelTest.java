package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kernels built with NVRTC from a Java host and run on 4 emulated GPUs (the PTX interpreter). */
class KernelTest {
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

    private Value intArray(int n) {
        return cu.invokeMember("DeviceArray", "int", n);
    }

    @Test
    void templateKernelIncrementsEveryElementAndCountsItsLaunch() {
        Value inc = cu.getMember("buildkernel").execute(Kernels.INC,
                "inc_kernel<int>(out: out pointer sint32, in: in pointer sint32, n: sint32)");
        Value in = intArray(1000);
        Value out = intArray(1000);
        for (int i = 0; i < 1000; i++) {
            in.setArrayElement(i, i);
        }
        assertEquals(0, inc.getMember("launchCount").asLong());
        inc.execute(8, 128).execute(out, in, 1000);
        assertEquals(1, inc.getMember("launchCount").asLong());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i + 1, out.getArrayElement(i).asInt(), "out[" + i + "]");
        }
        assertEquals("inc_kernel<int>", inc.getMember("name").asString());
        assertTrue(inc.getMember("ptx").asString().contains(".entry"), "the PTX of the kernel");
    }

    @Test
    void namespacedTemplateWithSuffixedAndNestedArgumentsIsInstantiatedByItsName() {
        String source = """
                namespace ns {
                template <typename T> struct Box { typedef T type; };
                template <typename T, unsigned int Add, unsigned long Mul>
                __global__ void affine(T *x, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) x[i] = x[i] * (T) Mul + (T) Add;
                }
                }
                """;
        Value affine = cu.getMember("buildkernel").execute(source,
                "ns::affine<ns::Box<int>::type, 1U, 3UL>(x: inout pointer sint32, n: sint32)");
        Value x = intArray(100);
        for (int i = 0; i < 100; i++) {
            x.setArrayElement(i, i);
        }
        affine.execute(4, 32).execute(x, 100);
        for (int i = 0; i < 100; i++) {
            assertEquals(3 * i + 1, x.getArrayElement(i).asInt(), "x[" + i + "]");
        }
        assertEquals("ns::affine<ns::Box<int>::type,1U,3UL>", affine.getMember("name").asString());
    }

    @Test
    void tiledMatrixMultiplyWithDynamicSharedMemory() {
        int n = 128;
        Value matmul = cu.getMember("buildkernel").execute(Kernels.MATMUL,
                "matmul(a: in pointer float, b: in pointer float, c: out pointer float, n: sint32)");
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i * n + j] = (i + j) % 7;
                b[i * n + j] = (i * j) % 5;
            }
        }
        Value da = Polyglot.eval(context, "float[" + n * n + "]").invokeMember("copyFrom", a);
        Value db = Polyglot.eval(context, "float[" + n * n + "]").invokeMember("copyFrom", b);
        Value dc = Polyglot.eval(context, "float[" + n * n + "]");
        matmul.execute(new int[] {4, 4}, new int[] {32, 32}, 8192).execute(da, db, dc, n);
        float[] c = new float[n * n];
        dc.invokeMember("copyTo", c);
        float[] expected = new float[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int k = 0; k < n; k++) {
                    s += a[i * n + k] * b[k * n + j];
                }
                expected[i * n + j] = s;
            }
        }
        assertArrayEquals(expected, c);
    }

    @Test
    void legacySignatureWithConstPointerAndDoubleScalar() {
        Value scale = cu.getMember("buildkernel").execute(Kernels.SCALE, "scale",
                "const pointer, pointer, double, sint32");
        Value x = cu.invokeMember("DeviceArray", "double", 64);
        Value y = cu.invokeMember("DeviceArray", "double", 64);
        for (int i = 0; i < 64; i++) {
            x.setArrayElement(i, i * 0.5);
        }
        scale.execute(1, 64).execute(x, y, 3.0, 64);
        for (int i = 0; i < 64; i++) {
            assertEquals(i * 1.5, y.getArrayElement(i).asDouble(), 0.0);
        }
    }

    /** GrCUDA's NIDL names for {@code long long} and wide characters type pointers and scalars. */
    @Test
    void grcudaLongLongAndCharacterTypeNames() {
        String source = "extern \"C\" __global__ void put(long long *x, unsigned long long v, wchar_t *w, int n) {"
                + " int i = threadIdx.x; if (i < n) { x[i] = (long long) v - i; w[i] = (wchar_t) i; } }";
        Value put = cu.getMember("buildkernel").execute(source,
                "put(x: out pointer sll64, v: ull64, w: out pointer wchar, n: sint32)");
        Value x = cu.invokeMember("DeviceArray", "sll64", 8);
        Value w = cu.invokeMember("DeviceArray", "sint32", 8);
        put.execute(1, 32).execute(x, 100, w, 8);
        for (int i = 0; i < 8; i++) {
            assertEquals(100L - i, x.getArrayElement(i).asLong());
            assertEquals(i, w.getArrayElement(i).asInt());
        }
    }

    @Test
    void bindkernelLoadsPtxFromAFile(@TempDir Path dir) throws Exception {
        Value built = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square(x: inout pointer float, n: sint32)");
        Path ptx = dir.resolve("square.ptx");
        Files.writeString(ptx, built.getMember("ptx").asString());
        Value square = cu.getMember("bindkernel").execute(ptx.toString(), "square(x: inout pointer float, n: sint32)");
        Value x = Polyglot.eval(context, "float[10]").invokeMember("copyFrom", new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9,
            10});
        square.execute(1, 32).execute(x, 10);
        float[] out = new float[10];
        x.invokeMember("copyTo", out);
        assertArrayEquals(new float[] {1, 4, 9, 16, 25, 36, 49, 64, 81, 100}, out);
    }

    @Test
    void unsignedScalarIsRangeCheckedAndTheContextStaysUsable() {
        Value add = cu.getMember("buildkernel").execute(Kernels.ADD_UNSIGNED,
                "add_unsigned(x: inout pointer uint32, k: uint32, n: sint32)");
        Value x = cu.invokeMember("DeviceArray", "unsigned int", 4);
        Value configured = add.execute(1, 4);
        PolyglotException e = assertThrows(PolyglotException.class, () -> configured.execute(x, -1, 4));
        assertTrue(e.getMessage().contains("does not fit unsigned int"), e.getMessage());
        configured.execute(x, 4_000_000_000L, 4);
        assertEquals(4_000_000_000L, x.getArrayElement(3).asLong());
    }

    /** The exported DAG keeps the edge from a kernel into the host read that waited for it. */
    @Test
    void exportedDagHasTheEdgeIntoAHostRead(@TempDir Path dir) throws Exception {
        Path dag = dir.resolve("dag");
        try (Context c = Polyglot.context(java.util.Map.of("ExportDAG", dag.toString()))) {
            Value ns = Polyglot.eval(c, "CU");
            Value square = ns.getMember("buildkernel").execute(Kernels.SQUARE, "square", "pointer, sint32");
            Value x = ns.invokeMember("DeviceArray", "float", 4);
            square.execute(1, 32).execute(x, 4);
            x.getArrayElement(0);
        }
        String dot = Files.readString(dir.resolve("dag.dot"));
        String kernel = dot.lines().filter(l -> l.contains(": square")).findFirst().orElseThrow().trim().split(" ")[0];
        String read = dot.lines().filter(l -> l.contains(": read ")).findFirst().orElseThrow().trim().split(" ")[0];
        assertTrue(dot.contains(kernel + " -> " + read + " "), dot);
    }

    /** NFI's full legacy form, with parentheses and the return type, as GrCUDA's bind signatures have it. */
    @Test
    void legacySignatureWithAReturnTypeBuildsTheKernel() {
        Value square = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square", "(pointer, sint32): void");
        Value x = cu.invokeMember("DeviceArray", "float", 4);
        x.setArrayElement(3, 3.0);
        square.execute(1, 32).execute(x, 4);
        assertEquals(9.0, x.getArrayElement(3).asFloat(), 0.0);
        // GrCUDA's parser accepts a return type other than void; a kernel ignores it.
        Value legacy = cu.getMember("buildkernel").execute(Kernels.SQUARE, "square", "(pointer, sint32): sint32");
        legacy.execute(1, 32).execute(x, 4);
        assertEquals(81.0, x.getArrayElement(3).asFloat(), 0.0);
    }

    @Test
    void wrongArityNamesExpectedAndGotCounts() {
        Value inc = cu.getMember("buildkernel").execute(Kernels.INC,
                "inc_kernel<int>(out: out pointer sint32, in: in pointer sint32, n: sint32)");
        PolyglotException e = assertThrows(PolyglotException.class, () -> inc.execute(1, 32).execute(intArray(4)));
        assertTrue(e.getMessage().contains("expects 3 arguments, got 1"), e.getMessage());
        PolyglotException config = assertThrows(PolyglotException.class, () -> inc.execute(1));
        assertTrue(config.getMessage().contains("expects 2 to 4 arguments, got 1"), config.getMessage());
    }

    @Test
    void floatArrayForSint32PointerNamesBothTypes() {
        Value inc = cu.getMember("buildkernel").execute(Kernels.INC,
                "inc_kernel<int>(out: out pointer sint32, in: in pointer sint32, n: sint32)");
        Value floats = Polyglot.eval(context, "float[4]");
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> inc.execute(1, 4).execute(intArray(4), floats, 4));
        assertTrue(e.getMessage().contains("pointer int") && e.getMessage().contains("float[4]"), e.getMessage());
        assertTrue(e.getMessage().contains("in: in pointer int"), "names the parameter: " + e.getMessage());
        PolyglotException notAnArray = assertThrows(PolyglotException.class,
                () -> inc.execute(1, 4).execute(intArray(4), 7, 4));
        assertTrue(notAnArray.getMessage().contains("argument 2 of kernel inc_kernel<int> for parameter "
                + "'in: in pointer int' must be a device array, got 7"), notAnArray.getMessage());
        PolyglotException list = assertThrows(PolyglotException.class,
                () -> inc.execute(1, 4).execute(intArray(4), Value.asValue(new java.util.ArrayList<>()), 4));
        assertTrue(list.getMessage().contains("for parameter 'in: in pointer int' must be a device array, got "),
                list.getMessage());
    }

    @Test
    void compileErrorCarriesTheNvrtcLog() {
        String broken = "extern \"C\" __global__ void broken(int *x) { x[0] = undefined_name; }";
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> cu.getMember("buildkernel").execute(broken, "broken(x: out pointer sint32)"));
        assertTrue(e.getMessage().contains("NVRTC_ERROR_COMPILATION") && e.getMessage().contains("undefined_name"),
                e.getMessage());
        assertEquals(4, cu.invokeMember("cudaGetDeviceCount").asInt(), "the context is still usable");
    }

    /** Two kernels that only read {@code x} do not depend on each other and overlap on two streams. */
    @Test
    void twoReadOnlyKernelsOnOneArrayRunInParallelOnDifferentStreams(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("trace.json");
        Path dag = dir.resolve("dag");
        try (Context c = Polyglot.context(java.util.Map.of("ExportTrace", trace.toString(), "ExportDAG",
                dag.toString()))) {
            Value ns = Polyglot.eval(c, "CU");
            Value sum = ns.getMember("buildkernel").execute(Kernels.SUM, "sum(x: in pointer float, out: out pointer "
                    + "float, n: sint32)");
            Value x = ns.invokeMember("DeviceArray", "float", 4096);
            x.invokeMember("copyFrom", new float[4096]);
            Value out1 = ns.invokeMember("DeviceArray", "float", 1);
            Value out2 = ns.invokeMember("DeviceArray", "float", 1);
            sum.execute(1, 32).execute(x, out1, 4096);
            sum.execute(1, 32).execute(x, out2, 4096);
            ns.invokeMember("cudaDeviceSynchronize");
        }
        List<TraceEvents.Event> kernels = TraceEvents.read(trace).stream().filter(e -> e.name().equals("sum")).toList();
        assertEquals(2, kernels.size(), "two kernel events: " + kernels);
        TraceEvents.Event a = kernels.get(0);
        TraceEvents.Event b = kernels.get(1);
        assertTrue(a.pid() != b.pid() || a.tid() != b.tid(), "different streams: " + kernels);
        assertTrue(a.start() < b.end() && b.start() < a.end(), "overlapping in time: " + kernels);
        String dot = Files.readString(dir.resolve("dag.dot"));
        List<String> sumNodes = dot.lines().filter(l -> l.contains(": sum")).map(l -> l.trim().split(" ")[0])
                .toList();
        assertEquals(2, sumNodes.size(), dot);
        assertTrue(dot.lines().noneMatch(l -> l.contains(sumNodes.get(0) + " -> " + sumNodes.get(1))),
                "no edge between the two readers:\n" + dot);
    }
}
