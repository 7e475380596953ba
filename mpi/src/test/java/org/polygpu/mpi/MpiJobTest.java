package org.polygpu.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Real MPI jobs through the binding: {@code mpirun} starts JVMs that exchange messages over Open MPI. Needs
 * {@code mpirun} on the PATH (scripts/test.sh installs Open MPI when it is missing).
 */
class MpiJobTest {
    @Test
    void threeRanksPassOneMebibyteAroundARingWithProbesAndNonBlockingSends() throws Exception {
        Path mpirun = onPath("mpirun");
        assumeTrue(mpirun != null, "mpirun is not installed");
        List<String> command = new ArrayList<>(List.of(mpirun.toString(), "--oversubscribe", "-np", "3"));
        command.addAll(java(MpiRingCheck.class));
        List<String> lines = run(command);
        assertEquals(List.of(
                "rank 0 of 3: probed 1048576 bytes, received 1048576 bytes of rank 2 with tag 3, 0 wrong, host named true",
                "rank 1 of 3: probed 1048576 bytes, received 1048576 bytes of rank 0 with tag 3, 0 wrong, host named true",
                "rank 2 of 3: probed 1048576 bytes, received 1048576 bytes of rank 1 with tag 3, 0 wrong, host named true"),
                lines.stream().filter(l -> l.startsWith("rank ")).sorted().toList());
    }

    @Test
    void aProcessStartedWithoutMpirunIsAJobOfOneRank() throws Exception {
        assumeTrue(Mpi.unavailableReason().isEmpty(), () -> Mpi.unavailableReason().orElseThrow());
        List<String> lines = run(java(MpiRingCheck.class));
        assertEquals(List.of("rank 0 of 1: probed 1048576 bytes, received 1048576 bytes of rank 0 with tag 3, 0 wrong,"
                + " host named true"), lines.stream().filter(l -> l.startsWith("rank ")).toList());
    }

    /** The command that runs {@code main} in a JVM like this one, on the module's classes and test classes. */
    static List<String> java(Class<?> main) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = location(Mpi.class) + File.pathSeparator + location(main);
        return List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", classPath, main.getName());
    }

    private static String location(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** Runs {@code command} to its end (two minutes at most), returning its output lines; fails on a non-zero exit. */
    static List<String> run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // mpirun refuses to run as root unless told it is meant (containers and CI run as root).
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("the MPI job did not end within two minutes: " + command);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> "the MPI job failed:\n" + output);
        return output.lines().toList();
    }

    static Path onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
