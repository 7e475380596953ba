package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bound host function is a computation of the DAG: it runs after the kernels that write its arrays, on host copies
 * brought up to date from whichever GPU holds them, and kernels after it see what it wrote.
 */
class HostFunctionDagTest {
    private static final String KERNELS = """
            extern "C" __global__ void add(double *x, double a, long n) {
                long i = blockIdx.x * (long) blockDim.x + threadIdx.x;
                if (i < n) x[i] += a;
            }
            extern "C" __global__ void to_int(int *out, const double *in, long n) {
                long i = blockIdx.x * (long) blockDim.x + threadIdx.x;
                if (i < n) out[i] = (int) in[i];
            }
            """;
    private static final int N = 1000;

    @TempDir
    static Path dir;
    static String library;

    @BeforeAll
    static void buildLibrary() throws IOException, InterruptedException {
        library = SharedLibraries.build(dir, "libdag.so", BindTest.SOURCE).toString();
    }

    @Test
    void kernelsAndHostFunctionsAlternateAcrossGpus() {
        Polyglot.assumeNvrtc();
        for (String policy : new String[] {"round-robin", "minmax-transfer-time"}) {
            try (Context context = Polyglot.context(Map.of("DeviceSelectionPolicy", policy))) {
                Value cu = Polyglot.eval(context, "CU");
                Value add = cu.getMember("buildkernel").execute(KERNELS, "add(x: inout pointer double, a: double, "
                        + "n: sint64)");
                Value toInt = cu.getMember("buildkernel").execute(KERNELS, "to_int(out: out pointer sint32, "
                        + "in: in pointer double, n: sint64)");
                Value scale = cu.getMember("bind").execute(library, "scale(x: inout pointer double, n: sint64, "
                        + "a: double)");
                Value inc = cu.getMember("bind").execute(library, "inc_host(b: sint32, t: sint32, "
                        + "out: out pointer float, in: in pointer sint32, n: sint32): sint32");
                Value x = cu.invokeMember("DeviceArray", "double", N);
                Value xi = cu.invokeMember("DeviceArray", "int", N);
                Value f = cu.invokeMember("DeviceArray", "float", N);
                for (int i = 0; i < N; i++) {
                    x.setArrayElement(i, i);
                }
                for (int round = 0; round < 3; round++) {
                    add.execute(8, 128).execute(x, 1.0, N);       // on a GPU
                    scale.execute(x, N, 2.0);                       // on the host, after it
                    add.execute(8, 128).execute(x, -1.0, N);      // on a GPU, after the host
                    toInt.execute(8, 128).execute(xi, x, N);
                    inc.execute(1, 1, f, xi, N);                    // reads the kernel's output on the host
                }
                for (int i = 0; i < N; i++) {
                    double expected = i;
                    for (int round = 0; round < 3; round++) {
                        expected = (expected + 1) * 2 - 1;
                    }
                    assertEquals(expected, x.getArrayElement(i).asDouble(), policy + ": x[" + i + "]");
                    assertEquals((float) expected + 1, f.getArrayElement(i).asFloat(), policy + ": f[" + i + "]");
                }
            }
        }
    }
}
