package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.graalvm.polyglot.Context;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.sched.spi.DeviceSelectionPolicies;

/**
 * A Python program whose twelve arrays take three times one device's memory ({@code EmulatedDeviceMemory=128KiB})
 * runs right on 1 and 4 emulated GPUs under every device-selection policy, and its trace shows the evictions; a kernel
 * whose arguments exceed a device fails naming them, and the program goes on.
 */
class EvictionProgramTest {
    /**
     * Every array holds {@code A + B * (j % 7)} at element {@code j}, and every kernel keeps that form, so the
     * program knows each array's coefficients and checks every element of every array at the end.
     */
    static final String PROGRAM = """
            import array, polyglot
            CU = polyglot.eval(language="polygpu", string="CU")
            code = '''
            extern "C" __global__ void inc(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f;
            }
            extern "C" __global__ void axpb(const float *x, float *y, float a, float b, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + b;
            }
            extern "C" __global__ void add(const float *x, const float *y, float *z, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = x[i] + y[i];
            }'''
            inc = CU.buildkernel(code, "inc(x: inout pointer float, n: sint32)")
            axpb = CU.buildkernel(code,
                                  "axpb(x: in pointer float, y: out pointer float, a: float, b: float, n: sint32)")
            add = CU.buildkernel(code,
                                 "add(x: in pointer float, y: in pointer float, z: out pointer float, n: sint32)")
            N, K = 8192, 12
            grid = (N + 255) // 256
            xs = [CU.DeviceArray("float", N) for _ in range(K)]
            coef = [[float(i), 1.0] for i in range(K)]
            def expected(k):
                a, b = coef[k]
                return array.array("f", [a + b * (j % 7) for j in range(N)])
            for k in range(K):
                xs[k].copyFrom(expected(k))
            for r in range(3):
                for k in range(K):
                    inc(grid, 256)(xs[k], N)
                    coef[k][0] += 1
                for k in range(K):
                    y = (k + 5) % K
                    axpb(grid, 256)(xs[k], xs[y], -1.0, float(r), N)
                    coef[y] = [r - coef[k][0], -coef[k][1]]
                    z = (k + 3) % K
                    w = (k + 8) % K
                    add(grid, 256)(xs[k], xs[z], xs[w], N)
                    coef[w] = [coef[k][0] + coef[z][0], coef[k][1] + coef[z][1]]
                    if k % 4 == 0:
                        a, b = coef[w]
                        assert xs[w][12] == a + b * 5, ("element 12 of", w, xs[w][12], a + b * 5)
                xs[r].copyFrom(expected(r))
            for k in range(K):
                got = array.array("f", [0.0] * N)
                xs[k].copyTo(got)
                assert got == expected(k), ("array", k, "differs from", coef[k])
            "checked %d arrays of %d floats" % (K, N)
            """;

    @BeforeAll
    static void needsNvrtc() {
        Polyglot.assumeNvrtc();
    }

    static Stream<Arguments> setups() {
        List<Arguments> setups = new ArrayList<>();
        for (String policy : DeviceSelectionPolicies.names()) {
            setups.add(Arguments.of(1, policy));
            setups.add(Arguments.of(4, policy));
        }
        return setups.stream();
    }

    @ParameterizedTest(name = "{0} GPUs, {1}")
    @MethodSource("setups")
    void everyArrayIsRightAndTheTraceShowsTheEvictions(int gpus, String policy, @TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("trace.json");
        try (Context c = Polyglot.context(Map.of("EmulatedDeviceMemory", "128KiB", "EmulatedDevices",
                Integer.toString(gpus), "DeviceSelectionPolicy", policy, "ExportTrace", trace.toString()))) {
            assertEquals("checked 12 arrays of 8192 floats", c.eval("python", PROGRAM).asString());
        }
        List<String> evictions = evictions(Files.readString(trace));
        assertTrue(evictions.stream().anyMatch(e -> e.endsWith("(written back)")), evictions.toString());
        assertTrue(evictions.stream().anyMatch(e -> e.endsWith("(dropped)")), evictions.toString());
    }

    /** The names of the trace's eviction events. */
    static List<String> evictions(String trace) {
        Matcher m = Pattern.compile("\\{\"name\":\"([^\"]*)\",\"cat\":\"eviction\",\"ph\":\"i\"").matcher(trace);
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void aKernelWhoseArgumentsExceedTheDeviceFailsNamingThemAndTheProgramGoesOn() {
        try (Context c = Polyglot.context(Map.of("EmulatedDeviceMemory", "256KiB", "EmulatedDevices", "2"))) {
            String result = c.eval("python", """
                    import polyglot
                    CU = polyglot.eval(language="polygpu", string="CU")
                    code = '''
                    extern "C" __global__ void add(const float *x, const float *y, float *z, int n) {
                        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = x[i] + y[i];
                    }'''
                    signature = "add(x: in pointer float, y: in pointer float, z: out pointer float, n: sint32)"
                    add = CU.buildkernel(code, signature)
                    n = 25600
                    x, y, z = CU.DeviceArray("float", n), CU.DeviceArray("float", n), CU.DeviceArray("float", n)
                    for i in range(0, n, 1000):
                        x[i] = i
                        y[i] = 2 * i
                    try:
                        add(100, 256)(x, y, z, n)
                        message = "no error"
                    except polyglot.ForeignException as e:
                        message = str(e).splitlines()[0]
                    small = CU.DeviceArray("float", 1000)
                    add(4, 256)(x, y, small, 1000)
                    message + " | " + str(small[999]) + " " + str(x[25000])
                    """).asString();
            assertEquals("kernel 'add' cannot run on device 0: its arrays need 307200 bytes together (array #0 "
                    + "float[25600]: 102400 bytes, array #1 float[25600]: 102400 bytes, array #2 float[25600]: "
                    + "102400 bytes), more than the 262144 bytes of memory the device has for arrays | 0.0 25000.0",
                    result);
        }
    }
}
