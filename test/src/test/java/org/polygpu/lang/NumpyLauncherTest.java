package org.polygpu.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * numpy in {@code bin/polygpu}'s Python: {@code test/numpy/roundtrip.py} takes numpy arrays through device arrays
 * and a kernel, run by {@code bin/polygpu} in its own process (numpy's native modules load into one GraalPy context
 * per process). Skipped, saying how to build it, when the GraalPy environment with numpy of
 * {@code scripts/numpy.sh} is not on this machine: that build takes too long for every test run (docs/development.md, numpy).
 */
class NumpyLauncherTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Whether scripts/python-env.sh finds a complete environment, as bin/polygpu decides. */
    private static boolean numpyInstalled() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", "source scripts/lib.sh && source scripts/python-env.sh"
                + " && polygpu_python_env_ready \"$(polygpu_python_env)\"").directory(ROOT.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void numpyArraysRoundTripThroughDeviceArraysAndAKernel() throws Exception {
        assumeTrue(numpyInstalled(), "numpy is not installed for polygpu's GraalPy on this machine; "
                + "scripts/numpy.sh builds it (once per machine, see docs/development.md)");
        Polyglot.assumeNvrtc();
        Path out = Files.createTempFile("polygpu-numpy-out", ".txt");
        Path err = Files.createTempFile("polygpu-numpy-err", ".txt");
        try {
            Process p = new ProcessBuilder(List.of(ROOT.resolve("bin/polygpu").toString(), "--no-jit",
                    "--polygpu.Backend=emulated", "test/numpy/roundtrip.py")).directory(ROOT.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "bin/polygpu test/numpy/roundtrip.py finished");
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), "exit status; stderr:\n" + stderr);
            assertEquals(Files.readString(ROOT.resolve("test/numpy/roundtrip.py.out")),
                    Files.readString(out, StandardCharsets.UTF_8), "output; stderr:\n" + stderr);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
