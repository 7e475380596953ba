package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code CU.bindall} with NIDL files (GrCUDA's bindings tutorial), and {@code cxx} kernel signatures. */
class BindAllTest {
    private static final String KERNELS = """
            namespace aa { namespace bb {
            __global__ void inc_kernel(int *a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) a[i] += 1;
            }
            } }
            extern "C" __global__ void c_inc_kernel(int *a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) a[i] += 10;
            }
            __global__ void scale_kernel(float *out, const float *in, float a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) out[i] = a * in[i];
            }
            """;

    @TempDir
    static Path dir;
    static String library;

    private Context context;
    private Value cu;

    @BeforeAll
    static void buildLibrary() throws IOException, InterruptedException {
        library = SharedLibraries.build(dir, "libincrement.so", BindTest.SOURCE).toString();
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

    private Value counting(int n) {
        Value a = cu.invokeMember("DeviceArray", "int", n);
        for (int i = 0; i < n; i++) {
            a.setArrayElement(i, i);
        }
        return a;
    }

    @Test
    void hostFunctionsOfBothLinkagesAreBoundIntoANamespace() throws IOException {
        Path nidl = Files.writeString(dir.resolve("increment_host.nidl"), """
                // C++ functions in namespace aa::bb
                hostfuncs aa::bb {
                  cxx_inc_host(inout_arr: inout pointer sint32, n_elements: sint32,
                               n_blocks: sint32, block_size: sint32): sint32
                }
                /* functions with C linkage */
                chostfuncs {
                  inc_inplace_host(blocks: sint32, threads: sint32, a: inout pointer sint32, n: sint32): sint32
                  sum(x: in pointer double, n: sint64): double
                }
                """);
        cu.getMember("bindall").execute("increment", library, nidl.toString());
        Value a = counting(100);
        assertEquals(7, cu.getMember("increment").getMember("cxx_inc_host").execute(a, 100, 32, 256).asInt());
        assertEquals(0, Polyglot.eval(context, "increment::inc_inplace_host").execute(32, 256, a, 100).asInt());
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 2, a.getArrayElement(i).asInt());
        }
        assertTrue(cu.getMember("increment").hasMember("sum"));
    }

    @Test
    void kernelsOfAPtxModuleAreBoundFromAScopeWithANamespace() throws IOException {
        Polyglot.assumeNvrtc();
        String text = cu.getMember("buildkernel").execute(KERNELS, "c_inc_kernel(a: inout pointer sint32, n: sint32)")
                .getMember("ptx").asString();
        Path ptx = Files.writeString(dir.resolve("increment.ptx"), text);
        Path nidl = Files.writeString(dir.resolve("increment_kernels.nidl"), """
                kernels aa::bb {
                  inc_kernel(inout_arr: inout pointer sint32, n_elements: sint32)
                }
                ckernels {
                  c_inc_kernel(inout_arr: inout pointer sint32, n_elements: sint32)
                }
                """);
        cu.getMember("bindall").execute("incr", ptx.toString(), nidl.toString());
        Value a = counting(100);
        Value ns = cu.getMember("incr");
        ns.getMember("inc_kernel").execute(4, 32).execute(a, 100);
        ns.getMember("c_inc_kernel").execute(4, 32).execute(a, 100);
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 11, a.getArrayElement(i).asInt());
        }
        Value k = cu.getMember("bindkernel").execute(ptx.toString(),
                "cxx aa::bb::inc_kernel(a: inout pointer sint32, n: sint32)");
        k.execute(4, 32).execute(a, 100);
        assertEquals(1 + 11 + 1, a.getArrayElement(1).asInt());
    }

    @Test
    void buildkernelFindsACxxKernelByItsMangledName() {
        Polyglot.assumeNvrtc();
        Value k = cu.getMember("buildkernel").execute(KERNELS,
                "cxx scale_kernel(out: out pointer float, in: in pointer float, a: float, n: sint32)");
        Value in = cu.invokeMember("DeviceArray", "float", 64);
        Value out = cu.invokeMember("DeviceArray", "float", 64);
        for (int i = 0; i < 64; i++) {
            in.setArrayElement(i, i);
        }
        k.execute(1, 64).execute(out, in, 3f, 64);
        assertEquals(63 * 3f, out.getArrayElement(63).asFloat());
        assertEquals("scale_kernel", k.getMember("name").asString());
        PolyglotException wrong = assertThrows(PolyglotException.class, () -> cu.getMember("buildkernel")
                .execute(KERNELS, "cxx scale_kernel(out: out pointer float, in: inout pointer float, a: float)"));
        assertTrue(wrong.getMessage().contains("_Z12scale_kernelPfS_f"), wrong.getMessage());
    }

    @Test
    void badNidlFilesNameTheirLine() throws IOException {
        Path nidl = Files.writeString(dir.resolve("bad.nidl"), "chostfuncs {\n  sum(x: in pointer double): double\n}\n"
                + "functions {\n}\n");
        PolyglotException e = assertThrows(PolyglotException.class,
                () -> cu.getMember("bindall").execute("bad", library, nidl.toString()));
        assertTrue(e.getMessage().contains("line 4") && e.getMessage().contains("expected a scope"), e.getMessage());
        assertTrue(!cu.hasMember("bad"), "nothing is bound after a failure");
    }
}
