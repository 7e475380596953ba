package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bin/polygpu --polygpu.Cluster=mpi} under a real {@code mpirun}: 3 ranks of 2 emulated GPUs each, rank 0
 * running a study program, the others serving it. Skipped where {@code mpirun} is missing (scripts/test.sh installs
 * Open MPI). Sizes are small: the five programs take about a minute together.
 */
class ClusterJobTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern DEVICE = Pattern.compile("subgraph cluster_dev(\\d+) \\{");

    /** What a finished job gave: its exit status, its output (every rank's, both streams) and its wall time. */
    record Job(int status, String output, double seconds) {
    }

    /** The study programs, validated on 6 devices over 3 ranks, with kernels on the devices of every rank. */
    @ParameterizedTest
    @CsvSource({"Vec, 30000, vec", "BlackScholes, 30000, bs", "MatrixVector, 600, mul",
            "ConjugateGradient, 300, cg", "MlEnsemble, 3000, ml"})
    void studyProgramRunsValidatedWithKernelsOnEveryRank(String program, int size, String name, @TempDir Path dir)
            throws Exception {
        Path dag = dir.resolve(name);
        Job job = mpirun(3, Map.of(), "--java", "org.polygpu.bench.programs." + program, "--polygpu.Cluster=mpi",
                "--polygpu.EmulatedDevices=2", "--polygpu.ClusterTimeout=60", "--polygpu.ExportDAG=" + dag, "" + size,
                "12");
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains(name + " size=" + size + " partitions=12 gpus=6: "), job.output());
        assertTrue(job.output().lines().anyMatch(l -> l.startsWith(name + " ") && l.endsWith(" OK")), job.output());
        Map<Integer, Integer> kernels = kernelsPerDevice(Files.readString(Path.of(dag + ".dot")));
        for (int rank = 0; rank < 3; rank++) {
            int onRank = kernels.getOrDefault(2 * rank, 0) + kernels.getOrDefault(2 * rank + 1, 0);
            assertTrue(onRank > 0, "no kernel ran on rank " + rank + "'s devices: " + kernels);
        }
    }

    /**
     * With ClusterCudaAware=on, a study program's arrays move between the ranks' emulated devices straight from device
     * memory: every rank refuses to stage a copy through pinned host memory, and the program still validates.
     */
    @Test
    void theDirectPathForcedOnRunsAStudyProgramWithoutStaging(@TempDir Path dir) throws Exception {
        Path dag = dir.resolve("cg");
        Job job = mpirun(3, Map.of("POLYGPU_JAVA_OPTS", "-Dpolygpu.cluster.testRefuseStaging=true"), "--java",
                "org.polygpu.bench.programs.ConjugateGradient", "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2",
                "--polygpu.ClusterTimeout=60", "--polygpu.ClusterCudaAware=on", "--polygpu.ExportDAG=" + dag, "300",
                "12");
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("copies between ranks (ClusterCudaAware=on): rank 0 direct, rank 1 direct, "
                + "rank 2 direct"), job.output());
        assertTrue(job.output().lines().anyMatch(l -> l.startsWith("cg ") && l.endsWith(" OK")), job.output());
        Map<Integer, Integer> kernels = kernelsPerDevice(Files.readString(Path.of(dag + ".dot")));
        assertTrue(kernels.getOrDefault(2, 0) + kernels.getOrDefault(3, 0) > 0, kernels.toString());
        assertTrue(kernels.getOrDefault(4, 0) + kernels.getOrDefault(5, 0) > 0, kernels.toString());
    }

    /** The README's Python example runs unchanged on 2 ranks of 2 GPUs, using the devices of both. */
    @Test
    void theReadmePythonExampleRunsOnTwoRanks() throws Exception {
        Job job = mpirun(2, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2",
                "--polygpu.ClusterTimeout=60", "examples/vector_squares.py", "40000", "4");
        assertEquals(0, job.status(), job.output());
        assertTrue(Pattern.compile("total: (\\d+) \\(expected \\1\\) OK").matcher(job.output()).find(), job.output());
        assertTrue(job.output().contains("GPUs used: 0, 1, 2, 3"), job.output());
    }

    /** The README's ten-line example runs unchanged on 2 ranks of one GPU each and prints the output it shows. */
    @Test
    void theReadmeTenLineExampleRunsOnTwoRanks() throws Exception {
        Matcher block = Pattern.compile("```python\n(.*?)```\n\n```output\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(ROOT.resolve("README.md")));
        assertTrue(block.find(), "README.md has a python block followed by its output");
        Job job = mpirun(2, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=1",
                "--polygpu.ClusterTimeout=60", "-c", block.group(1));
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains(block.group(2)), job.output());
    }

    /**
     * cuBLAS calls placed round-robin over two ranks' emulated devices run on each: every result is right and the
     * exported DAG shows routines on rank 1's device.
     */
    @Test
    void libraryRoutinesRunOnAnotherRanksDevice(@TempDir Path dir) throws Exception {
        Path dag = dir.resolve("blas");
        Job job = mpirun(2, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=1",
                "--polygpu.DeviceSelectionPolicy=round-robin", "--polygpu.ExportDAG=" + dag, "-c", """
                import polyglot
                cu = polyglot.eval(language="polygpu", string="CU")
                saxpy = polyglot.eval(language="polygpu", string="BLAS::cublasSaxpy")
                n = 1000
                for k in range(4):
                    alpha, x, y = cu.DeviceArray("float", 1), cu.DeviceArray("float", n), cu.DeviceArray("float", n)
                    alpha[0] = k + 1.0
                    for i in range(n):
                        x[i] = i
                        y[i] = 1.0
                    saxpy(n, alpha, x, 1, y, 1)
                    print("saxpy", k, sum(y[i] for i in range(n)))
                """);
        assertEquals(0, job.status(), job.output());
        for (int k = 0; k < 4; k++) {
            double expected = (k + 1.0) * 999 * 1000 / 2 + 1000;
            assertTrue(job.output().contains("saxpy " + k + " " + expected + "\n"), job.output());
        }
        Map<Integer, Integer> kernels = kernelsPerDevice(Files.readString(Path.of(dag + ".dot")));
        assertTrue(kernels.getOrDefault(1, 0) > 0, "no routine ran on rank 1's device: " + kernels);
    }

    /** A kernel's fault on another rank's device reaches rank 0's program, naming the device; the job ends. */
    @Test
    void aKernelFaultOnAnotherRankReachesRankZero() throws Exception {
        Job job = mpirun(2, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=1",
                "--polygpu.DeviceSelectionPolicy=round-robin", "-c", """
                import polyglot
                CU = polyglot.eval(language="polygpu", string="CU")
                fine = CU.buildkernel('extern "C" __global__ void fine(float *x) { x[threadIdx.x % 16] = 1; }',
                                      "fine", "pointer")
                oob = CU.buildkernel('extern "C" __global__ void oob(float *x) { x[1 << 20] = 1; }', "oob", "pointer")
                a = CU.DeviceArray("float", 16)
                b = CU.DeviceArray("float", 16)
                fine(1, 32)(a)
                oob(1, 32)(b)
                print(a[0])
                print(b[0])
                """);
        assertNotEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("1.0\n"), job.output());
        assertTrue(job.output().contains("device 1 (rank 1's device 0): memcheck: kernel 'oob'"), job.output());
    }

    /**
     * info under Cluster=mpi lists every rank's host and devices, globally numbered, whether each rank copies from
     * device memory directly, and the job's matrix.
     */
    @Test
    void infoListsEveryRanksDevices() throws Exception {
        Job job = mpirun(3, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2", "info");
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("devices: 6"), job.output());
        assertTrue(Pattern.compile("rank 0 on \\S+ with 2 devices, rank 1 on \\S+ with 2 \\(devices 2\\.\\.3\\), "
                + "rank 2 on \\S+ with 2 \\(devices 4\\.\\.5\\)").matcher(job.output()).find(), job.output());
        assertTrue(Pattern.compile("copies between ranks \\(ClusterCudaAware=auto\\): rank 0 (direct|staged), "
                + "rank 1 (direct|staged), rank 2 (direct|staged); CUDA-aware MPI on ranks: ").matcher(job.output())
                .find(), job.output());
        assertTrue(job.output().contains("  GPU 5: "), job.output());
        assertTrue(job.output().lines().anyMatch(l -> l.startsWith("  GPU 5 ")), job.output());
    }

    /** profile-interconnect under Cluster=mpi times every pair of the job's devices, across ranks too. */
    @Test
    void profileInterconnectWritesTheJobsMatrix(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("cluster.csv");
        Job job = mpirun(2, Map.of(), "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=1", "profile-interconnect",
                "--out", csv.toString(), "--size", "1M", "--repeats", "2");
        assertEquals(0, job.status(), job.output());
        List<String> rows = Files.readAllLines(csv);
        assertEquals("From,To,Bandwidth", rows.get(0));
        for (String pair : List.of("-1,0,", "0,-1,", "-1,1,", "1,-1,", "0,1,", "1,0,", "0,0,", "1,1,")) {
            assertTrue(rows.stream().anyMatch(r -> r.startsWith(pair) && Double.parseDouble(r.substring(pair.length()))
                    > 0), pair + " in " + rows);
        }
    }

    /** A worker that stops answering is reported on rank 0 within ClusterTimeout, and the job ends. */
    @Test
    void aSilentWorkerIsReportedByRankZeroWithinTheTimeout() throws Exception {
        Job job = mpirun(3, Map.of("POLYGPU_JAVA_OPTS", "-Dpolygpu.cluster.testSilentRank=2"), "--java",
                "org.polygpu.bench.programs.Vec", "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2",
                "--polygpu.ClusterTimeout=3", "3000", "6");
        assertNotEquals(0, job.status(), job.output());
        Matcher m = Pattern.compile("rank 2 has not answered for ([0-9.]+) s while").matcher(job.output());
        assertTrue(m.find(), job.output());
        double quiet = Double.parseDouble(m.group(1));
        assertTrue(quiet >= 3 && quiet < 6, "reported after " + quiet + " s of silence");
    }

    /** A worker that dies ends the job with its exit status, rank 0 included: nothing hangs. */
    @Test
    void aWorkerThatExitsEndsTheJob() throws Exception {
        Job job = mpirun(3, Map.of("POLYGPU_JAVA_OPTS", "-Dpolygpu.cluster.testExitRank=1"), "--java",
                "org.polygpu.bench.programs.Vec", "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2",
                "--polygpu.ClusterTimeout=3", "3000", "6");
        assertNotEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("Exit code:    3"), job.output());
    }

    /** Ctrl-C on mpirun while rank 0's program runs ends every rank within seconds. */
    @Test
    void interruptingMpirunEndsEveryRank() throws Exception {
        Path mpirun = onPath("mpirun");
        assumeTrue(mpirun != null, "mpirun is not installed");
        Path output = Files.createTempFile("polygpu-cluster", ".txt");
        try {
            Process job = builder(List.of(mpirun.toString(), "--oversubscribe", "-np", "3",
                    ROOT.resolve("bin/polygpu").toString(), "--no-jit", "--java", "org.polygpu.bench.programs.Vec",
                    "--polygpu.Cluster=mpi", "--polygpu.EmulatedDevices=2", "--polygpu.ClusterTimeout=60", "4000000",
                    "60"), Map.of(), output).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(output).contains("Cluster=mpi: rank 0") && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertTrue(job.isAlive(), Files.readString(output));
            List<ProcessHandle> ranks = job.descendants().toList();
            new ProcessBuilder("kill", "-INT", Long.toString(job.pid())).start().waitFor();
            assertTrue(job.waitFor(30, TimeUnit.SECONDS), "mpirun still runs 30 s after Ctrl-C");
            for (int i = 0; i < 150 && ranks.stream().anyMatch(ProcessHandle::isAlive); i++) {
                Thread.sleep(100);
            }
            assertEquals(List.of(), ranks.stream().filter(ProcessHandle::isAlive).toList(), "ranks alive 15 s after");
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** A bad value of Cluster stops the program before any rank is contacted, naming the valid values. */
    @Test
    void badClusterValueIsRefusedWithTheValidValues() throws Exception {
        Job job = run(List.of(ROOT.resolve("bin/polygpu").toString(), "--no-jit", "--polygpu.Cluster=slurm", "-c",
                "print(1)"), Map.of());
        assertNotEquals(0, job.status(), job.output());
        assertTrue(job.output().contains("invalid value 'slurm' for option Cluster; valid values: none, mpi"),
                job.output());
    }

    /** Kernel nodes (boxes) per device in an exported DAG. */
    static Map<Integer, Integer> kernelsPerDevice(String dot) {
        Map<Integer, Integer> kernels = new TreeMap<>();
        int device = -1;
        for (String line : dot.lines().toList()) {
            Matcher m = DEVICE.matcher(line);
            if (m.find()) {
                device = Integer.parseInt(m.group(1));
            } else if (line.contains("subgraph cluster_host")) {
                device = -1;
            } else if (device >= 0 && line.contains("shape=box")) {
                kernels.merge(device, 1, Integer::sum);
            }
        }
        return kernels;
    }

    private static Job mpirun(int ranks, Map<String, String> environment, String... args) throws Exception {
        Path mpirun = onPath("mpirun");
        assumeTrue(mpirun != null, "mpirun is not installed");
        List<String> command = new ArrayList<>(List.of(mpirun.toString(), "--oversubscribe", "-np", "" + ranks,
                ROOT.resolve("bin/polygpu").toString(), "--no-jit"));
        command.addAll(List.of(args));
        return run(command, environment);
    }

    private static Job run(List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        Path output = Files.createTempFile("polygpu-cluster", ".txt");
        try {
            long start = System.nanoTime();
            Process process = builder(command, environment, output).start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError("the job did not end within three minutes: " + command + "\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Job(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8),
                    (System.nanoTime() - start) / 1e9);
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Runs {@code command} from the repository root with its output (both streams) in {@code output}. */
    private static ProcessBuilder builder(List<String> command, Map<String, String> environment, Path output) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // mpirun refuses to run as root unless told it is meant (containers and CI run as root).
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        builder.environment().put("POLYGPU_CLASSPATH", ROOT.resolve("benchmarks/target/classes").toString());
        builder.environment().putAll(environment);
        return builder;
    }

    private static Path onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
