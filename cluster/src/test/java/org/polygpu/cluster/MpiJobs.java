package org.polygpu.cluster;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real {@code mpirun} jobs for the cluster's job tests: a test class's {@code main} on N ranks, with the test's class
 * path. A test that needs {@code mpirun} is skipped where it is missing (scripts/test.sh installs Open MPI).
 */
final class MpiJobs {
    /** What a finished job gave: its exit status and its output (every rank's, both streams). */
    record Job(int status, String output) {
    }

    private MpiJobs() {
    }

    /** {@code main}'s {@code main(args)} on {@code ranks} ranks, with {@code properties} ({@code -Dname=value}). */
    static Job mpirun(int ranks, Class<?> main, List<String> properties, String... args) throws Exception {
        Path mpirun = onPath("mpirun");
        assumeTrue(mpirun != null, "mpirun is not installed");
        List<String> command = new ArrayList<>(List.of(mpirun.toString(), "--oversubscribe", "-np",
                Integer.toString(ranks), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xmx512m"));
        command.addAll(properties);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return run(command, List.of("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"));
    }

    /** Runs {@code command} to its end (three minutes at most), with {@code flags} set to 1 in its environment. */
    static Job run(List<String> command, List<String> flags) throws IOException, InterruptedException {
        Path output = Files.createTempFile("polygpu-job", ".txt");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            // mpirun refuses to run as root unless told it is meant (containers and CI run as root).
            flags.forEach(f -> builder.environment().put(f, "1"));
            Process process = builder.start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("the job did not end within three minutes: " + command + "\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Job(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** The program's path on {@code PATH}, or {@code null}. */
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
