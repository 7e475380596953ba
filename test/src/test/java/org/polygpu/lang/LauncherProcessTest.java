package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.polygpu.cuda.CudaDetection;

/**
 * {@code bin/polygpu} as a user runs it, one process each: argv and exit codes, guest errors, bad options, help,
 * the subcommands, the JIT, and the examples. Most run with {@code --no-jit}, which starts faster.
 */
class LauncherProcessTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** What a finished process gave. */
    record Result(int status, String out, String err) {
        @Override
        public String toString() {
            return "status " + status + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private static Result polygpu(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("bin/polygpu").toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile("polygpu-out", ".txt");
        Path err = Files.createTempFile("polygpu-err", ".txt");
        try {
            Process p = new ProcessBuilder(command).directory(ROOT.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File(
                            "/dev/null"))).start();
            assertTrue(p.waitFor(240, TimeUnit.SECONDS), "bin/polygpu " + String.join(" ", args) + " finished");
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void pythonScriptGetsItsArgvAndItsExitStatusPassesThrough() throws Exception {
        Result r = polygpu("--no-jit", "test/scripts/argv_exit.py", "one", "--two", "3");
        assertEquals(3, r.status(), r.toString());
        assertEquals("argv: ['one', '--two', '3']\nscript: True\n", r.out());
    }

    @Test
    void javaScriptCodeGetsArgumentsAndQuitStatus() throws Exception {
        Result r = polygpu("--no-jit", "--polygpu.NumberOfGPUs=2", "-e",
                "console.log(arguments.join('+'), Polyglot.eval('polygpu', 'cudaGetDeviceCount()')); quit(5)",
                "a", "b");
        assertEquals(5, r.status(), r.toString());
        assertEquals("a+b 2\n", r.out());
    }

    /** The command line of GrCUDA's benchmark_wrapper.py, with the language id changed: the flags are accepted. */
    @Test
    void grcudaBenchmarkCommandLineStartsPolygpu() throws Exception {
        Result r = polygpu("--vm.XX:MaxHeapSize=2G", "--jvm", "--polyglot", "--experimental-options", "--no-jit",
                "--polygpu.ExecutionPolicy=async", "--polygpu.DependencyPolicy=with-const",
                "--polygpu.RetrieveNewStreamPolicy=always-new", "--polygpu.NumberOfGPUs=2",
                "--polygpu.RetrieveParentStreamPolicy=multigpu-disjoint",
                "--polygpu.DeviceSelectionPolicy=minmax-transfer-time", "--polygpu.MemAdvisePolicy=none",
                "--polygpu.InputPrefetch=false", "--polygpu.BandwidthMatrix=v100x8", "--polygpu.ForceStreamAttach",
                "--polygpu.EnableComputationTimers", "--polygpu.Backend=emulated", "-c", """
                import polyglot, java
                o = polyglot.eval(language="polygpu", string="getoptions()")
                print(o["polygpu.NumberOfGPUs"], o.RetrieveParentStreamPolicy, o.ForceStreamAttach)
                print(java.type("java.lang.Runtime").getRuntime().maxMemory() <= 2 * 2**30)
                """);
        assertEquals(0, r.status(), r.toString());
        assertEquals("2 multigpu-disjoint true\nTrue\n", r.out());
        assertTrue(r.err().contains("polygpu: option polygpu.ForceStreamAttach has no effect"), r.toString());
    }

    @Test
    void uncaughtGuestErrorPrintsMessageAndGuestStack() throws Exception {
        Result r = polygpu("--no-jit", "--polygpu.Backend=emulated", "-c", """
                import polyglot
                def build():
                    return polyglot.eval(language="polygpu", string="float[4][0]")
                build()
                """);
        assertEquals(1, r.status(), r.toString());
        assertTrue(r.err().contains("syntax error at 1:10: an array size must be at least 1, got 0"), r.toString());
        assertTrue(r.err().contains("at <python> build"), r.toString());
        assertFalse(r.err().contains("polygpu: cuda:"), "no backend notice with an explicit Backend: " + r);
    }

    @Test
    void badOptionValueStopsWithTheValidValues() throws Exception {
        Result r = polygpu("--no-jit", "--polygpu.DeviceSelectionPolicy=fastest", "-c", "print(1)");
        assertEquals(2, r.status(), r.toString());
        assertTrue(r.err().contains("valid values: earliest-finish-time, min-transfer-size, minmax-transfer-time"),
                r.toString());
        Result together = polygpu("--no-jit", "--polygpu.Backend=emulated", "--polygpu.EmulatedDevices=9", "-c",
                "print('never')");
        assertEquals(2, together.status(), together.toString());
        assertTrue(together.err().contains("polygpu cannot start") && together.err().contains("1..8"),
                together.toString());
        assertEquals("", together.out());
        Result usage = polygpu("--no-jit", "script.rb");
        assertEquals(2, usage.status(), usage.toString());
        assertTrue(usage.err().contains("scripts end in .py or .js"), usage.toString());
    }

    @Test
    void helpListsTheOptions() throws Exception {
        Result r = polygpu("--help");
        assertEquals(0, r.status(), r.toString());
        assertTrue(r.out().contains("--polygpu.DeviceSelectionPolicy=") && r.out().contains("--polygpu.ExportDAG"),
                r.toString());
        assertTrue(r.out().contains("polygpu [options] calibrate [--out FILE]"), r.toString());
    }

    /** As the GPU pack runs it; on a machine without a GPU it fails saying why. */
    @Test
    void calibrateWithoutAGpuSaysSoAndFails() throws Exception {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        Result r = polygpu("--no-jit", "--polygpu.Backend=cuda", "calibrate", "--out", "target/no-gpu-model.json");
        assertEquals(1, r.status(), r.toString());
        assertEquals("polygpu calibrate: no GPU: " + CudaDetection.detect().reason() + "\n",
                r.err());
        assertFalse(Files.exists(ROOT.resolve("target/no-gpu-model.json")));
    }

    @Test
    void infoSubcommandDescribesTheBackend() throws Exception {
        Result r = polygpu("--polygpu.Backend=emulated", "--polygpu.EmulatedDevices=2", "info");
        assertEquals(0, r.status(), r.toString());
        assertTrue(r.out().contains("emulated") && r.out().contains("GPU 1"), r.toString());
    }

    /** With the JIT (the default) the engine compiles: no interpreter-only warning. */
    @Test
    void jitIsOnByDefault() throws Exception {
        Result r = polygpu("-c", "print(6 * 7)");
        assertEquals(0, r.status(), r.toString());
        assertEquals("42\n", r.out());
        assertFalse(r.err().contains("fallback runtime") || r.err().contains("interpreter"), r.toString());
    }

    @Test
    void examplesRunAndCheckThemselves() throws Exception {
        Polyglot.assumeNvrtc();
        Result py = polygpu("--no-jit", "examples/vector_squares.py", "100000", "4");
        assertEquals(0, py.status(), py.toString());
        assertTrue(py.out().contains("total: 328350000 (expected 328350000) OK"), py.toString());
        assertTrue(py.out().contains("GPUs used: 0, 1, 2, 3"), py.toString());
        Result js = polygpu("--no-jit", "examples/saxpy.js", "5000");
        assertEquals(0, js.status(), js.toString());
        assertTrue(js.out().contains("OK"), js.toString());
        Result java = polygpu("--no-jit", "--java", "examples/java/VectorAdd.java");
        assertEquals(0, java.status(), java.toString());
        assertTrue(java.out().contains("c[999] = 1998") && java.out().contains("OK"), java.toString());
    }
}
