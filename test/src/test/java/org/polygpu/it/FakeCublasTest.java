package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA backend's cuBLAS bindings end to end without a GPU: the fake driver ({@code fakecuda.c}) and a fake cuBLAS
 * ({@code fakecublas.c}, computing on the fake's device memory, which is host memory) are compiled with gcc, and
 * {@link FakeCublasProbe} runs BLAS functions through the scheduler in a child JVM. Each result must equal the Java
 * BLAS's from the same inputs. Skipped only where gcc is missing.
 */
class FakeCublasTest {
    @TempDir
    static Path dir;
    private static List<String> out;
    private static String err;

    @BeforeAll
    static void buildTheFakesAndRunTheProbe() throws Exception {
        Assumptions.assumeTrue(gcc(List.of("--version")), "gcc is not installed");
        compile("/org/polygpu/fakecuda/fakecuda.c", "libcuda.so.1");
        compile("/org/polygpu/fakecublas/fakecublas.c", "libcublas.so.12");
        Path home = Files.createDirectories(dir.resolve("home"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()),
                "--enable-native-access=ALL-UNNAMED", "-Duser.home=" + home, "-cp",
                System.getProperty("java.class.path"), FakeCublasProbe.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("FAKECUDA_") || k.startsWith("POLYGPU_")
                || k.startsWith("CUDA_"));
        pb.environment().put("LD_LIBRARY_PATH", dir.toString());
        pb.environment().put("POLYGPU_CUBLAS", dir.resolve("libcublas.so.12").toString());
        pb.environment().put("FAKECUBLAS_CALLS", "1");
        pb.environment().put("HOME", home.toString());
        Process p = pb.redirectOutput(dir.resolve("probe.out").toFile())
                .redirectError(dir.resolve("probe.err").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the probe did not finish in two minutes");
        out = Files.readAllLines(dir.resolve("probe.out"));
        err = Files.readString(dir.resolve("probe.err"));
        assertEquals(0, p.exitValue(), () -> "probe failed:\n" + String.join("\n", out) + "\n" + err);
    }

    private static void compile(String resource, String library) throws IOException, InterruptedException {
        Path source = dir.resolve(Path.of(resource).getFileName().toString());
        try (InputStream in = FakeCublasTest.class.getResourceAsStream(resource)) {
            Files.copy(in, source);
        }
        assertTrue(gcc(List.of("-shared", "-fPIC", "-O1", "-o", dir.resolve(library).toString(), source.toString(),
                "-lm")), "gcc failed on " + resource);
    }

    private static boolean gcc(List<String> args) throws InterruptedException {
        List<String> command = new ArrayList<>(List.of("gcc"));
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            boolean ok = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
            if (!ok) {
                System.err.println(log);
            }
            return ok;
        } catch (IOException e) {
            return false;
        }
    }

    private static String value(String key) {
        return out.stream().filter(l -> l.startsWith(key + ": ")).map(l -> l.substring(key.length() + 2)).findFirst()
                .orElseThrow(() -> new AssertionError("no '" + key + "' line in " + out + "\n" + err));
    }

    @Test
    void everyFunctionGivesWhatTheJavaBlasGives() {
        for (String f : List.of("cublasDaxpy", "cublasSaxpy", "cublasDscal", "cublasDdot", "cublasSnrm2",
                "cublasSgemv", "cublasDgemm")) {
            String[] counts = value(f).replace(" equal", "").split("/");
            assertTrue(Integer.parseInt(counts[1]) > 0, f + ": " + value(f));
            assertEquals(counts[1], counts[0], f + ": " + value(f));
        }
    }

    @Test
    void callsAreSpreadOverBothDevicesEachWithItsOwnHandle() {
        assertEquals("[0, 1, 0, 1, 0, 1, 0]", value("devices"), "round-robin over independent calls");
        long handles = err.lines().filter(l -> l.startsWith("fakecublas: handle served")).count();
        assertEquals(2, handles, err);
    }

    @Test
    void aStatusOtherThanSuccessIsAnErrorNamingTheFunction() {
        assertEquals("cublasDaxpy_v2 failed: CUBLAS_STATUS_INVALID_VALUE (7)", value("zero stride"));
    }
}
