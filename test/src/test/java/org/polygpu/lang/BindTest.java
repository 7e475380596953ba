package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CU.bind}: GrCUDA's bind tests, with host functions that compute on the host (C and C++ linkage, NIDL and
 * legacy signatures), on 4 emulated GPUs.
 */
class BindTest {
    static final String SOURCE = """
            static void inc(float *out, const int *in, int n) { for (int i = 0; i < n; i++) out[i] = in[i] + 1.0f; }
            static void inc_inplace(int *a, int n) { for (int i = 0; i < n; i++) a[i] += 1; }
            extern "C" int inc_host(int blocks, int threads, float *out, const int *in, int n) {
                inc(out, in, n); return blocks + threads;
            }
            extern "C" int inc_inplace_host(int blocks, int threads, int *a, int n) { inc_inplace(a, n); return 0; }
            int cxx_inc_host(int blocks, int threads, float *out, const int *in, int n) {
                inc(out, in, n); return blocks * threads;
            }
            int cxx_inc_inplace_host(int blocks, int threads, int *a, int n) { inc_inplace(a, n); return 0; }
            namespace aa { namespace bb {
                int cxx_inc_host(int *a, int n, int blocks, int threads) { inc_inplace(a, n); return 7; }
            } }
            extern "C" double sum(const double *x, long n) { double s = 0; for (long i = 0; i < n; i++) s += x[i]; return s; }
            extern "C" void scale(double *x, long n, double a) { for (long i = 0; i < n; i++) x[i] *= a; }
            """;
    private static final int N = 100;

    @TempDir
    static Path dir;
    static String library;

    private Context context;
    private Value cu;

    @BeforeAll
    static void buildLibrary() throws IOException, InterruptedException {
        library = SharedLibraries.build(dir, "libinc.so", SOURCE).toString();
    }

    @BeforeEach
    void open() {
        context = Polyglot.context();
        cu = Polyglot.eval(context, "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private Value array(String type, int n) {
        return cu.invokeMember("DeviceArray", type, n);
    }

    private void callWithInAndOutArguments(Object... bindArgs) {
        Value in = array("int", N);
        Value out = array("float", N);
        for (int i = 0; i < N; i++) {
            in.setArrayElement(i, i);
        }
        Value f = cu.getMember("bind").execute(prepend(library, bindArgs));
        f.execute(80, 256, out, in, N);
        for (int i = 0; i < N; i++) {
            assertEquals(i + 1f, out.getArrayElement(i).asFloat(), "out[" + i + "]");
        }
    }

    private void callWithInoutArgument(Object... bindArgs) {
        Value a = array("int", N);
        for (int i = 0; i < N; i++) {
            a.setArrayElement(i, i);
        }
        Value f = cu.getMember("bind").execute(prepend(library, bindArgs));
        f.execute(80, 256, a, N);
        for (int i = 0; i < N; i++) {
            assertEquals(i + 1, a.getArrayElement(i).asInt(), "a[" + i + "]");
        }
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void cFunctionWithLegacySignatureAndInAndOutArguments() {
        callWithInAndOutArguments("inc_host", "(sint32, sint32, pointer, pointer, sint32): sint32");
    }

    @Test
    void cFunctionWithLegacySignatureAndInoutArgument() {
        callWithInoutArgument("inc_inplace_host", "(sint32, sint32, pointer, sint32): sint32");
    }

    @Test
    void cxxFunctionByMangledSymbolWithLegacySignature() {
        callWithInAndOutArguments("_Z12cxx_inc_hostiiPfPKii", "(sint32, sint32, pointer, pointer, sint32): sint32");
        callWithInoutArgument("_Z20cxx_inc_inplace_hostiiPii", "(sint32, sint32, pointer, sint32): sint32");
    }

    @Test
    void cFunctionWithNidlSignature() {
        callWithInAndOutArguments("inc_host(blocks: sint32, threads_per_block: sint32, out_arr: out pointer float, "
                + "in_arr: in pointer sint32, num_elements: sint32): sint32");
        callWithInoutArgument("inc_inplace_host(blocks: sint32, threads_per_block: sint32, "
                + "inout_arr: inout pointer sint32, num_elements: sint32): sint32");
    }

    @Test
    void cxxFunctionWithNidlSignatureIsFoundByItsMangledName() {
        callWithInAndOutArguments("cxx cxx_inc_host(blocks: sint32, threads_per_block: sint32, "
                + "out_arr: out pointer float, in_arr: in pointer sint32, num_elements: sint32): sint32");
        callWithInoutArgument("cxx cxx_inc_inplace_host(blocks: sint32, threads_per_block: sint32, "
                + "inout_arr: inout pointer sint32, num_elements: sint32): sint32");
    }

    @Test
    void resultsAreReturnedAndVoidGivesNothing() {
        Value in = array("int", 4);
        Value out = array("float", 4);
        assertEquals(336, cu.getMember("bind").execute(library, "inc_host(b: sint32, t: sint32, o: out pointer float,"
                + " i: in pointer sint32, n: sint32): sint32").execute(80, 256, out, in, 4).asInt());
        assertEquals(7, cu.getMember("bind").execute(library, "cxx aa::bb::cxx_inc_host(a: inout pointer sint32, "
                + "n: sint32, b: sint32, t: sint32): sint32").execute(in, 4, 1, 1).asInt());
        assertEquals(1, in.getArrayElement(3).asInt());
        Value x = array("double", 3);
        for (int i = 0; i < 3; i++) {
            x.setArrayElement(i, i + 0.5);
        }
        Value scale = cu.getMember("bind").execute(library, "scale(x: inout pointer double, n: sint64, a: double)");
        assertTrue(scale.execute(x, 3, 2.0).isNull());
        assertEquals(9.0, cu.getMember("bind").execute(library, "sum(x: in pointer double, n: sint64): double")
                .execute(x, 3).asDouble());
    }

    /** GrCUDA's bindings tutorial from Python: bind a C++ function in a namespace and call it on a device array. */
    @Test
    void pythonBindsAndCallsAHostFunction() {
        context.getPolyglotBindings().putMember("library", library);
        Value result = context.eval("python", """
                import polyglot
                cu = polyglot.eval(language="polygpu", string="CU")
                cxx_inc_host = cu.bind(polyglot.import_value("library"),
                    "cxx aa::bb::cxx_inc_host(inout_arr: inout pointer sint32, n_elements: sint32, "
                    "n_blocks: sint32, block_size: sint32): sint32")
                a = cu.DeviceArray("int", 100)
                for i in range(100):
                    a[i] = i
                res = cxx_inc_host(a, 100, 32, 256)
                [res] + [a[i] for i in range(100)]
                """);
        assertEquals(7, result.getArrayElement(0).asInt());
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 1, result.getArrayElement(i + 1).asInt());
        }
    }

    @Test
    void badBindingsNameWhatIsWrong() {
        Value bind = cu.getMember("bind");
        PolyglotException missing = assertThrows(PolyglotException.class,
                () -> bind.execute(library, "cxx inc_host(a: sint32): sint32"));
        assertTrue(missing.getMessage().contains("no function '_Z8inc_hosti'"), missing.getMessage());
        PolyglotException noLibrary = assertThrows(PolyglotException.class,
                () -> bind.execute(dir.resolve("nothing.so").toString(), "f(): void"));
        assertTrue(noLibrary.getMessage().contains("cannot load the shared library"), noLibrary.getMessage());
        PolyglotException type = assertThrows(PolyglotException.class,
                () -> bind.execute(library, "sum(x: in pointer int128, n: sint64): double"));
        assertTrue(type.getMessage().contains("unknown type 'int128'"), type.getMessage());
        Value sum = bind.execute(library, "sum(x: in pointer double, n: sint64): double");
        PolyglotException wrong = assertThrows(PolyglotException.class, () -> sum.execute(array("float", 3), 3));
        assertTrue(wrong.getMessage().contains("parameter 'x: in pointer double'"), wrong.getMessage());
    }
}
