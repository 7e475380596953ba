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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CUDA backend's FFM bindings end to end, without a GPU: the fake driver {@code fakecuda.c} (a test resource) is
 * compiled with gcc into {@code libcuda.so.1}, and {@link FakeDriverProbe} runs in a child JVM whose
 * {@code LD_LIBRARY_PATH} makes that library the CUDA driver. The probe prints what detection, the commands, the
 * backend and the scheduler did; these tests assert on it. Skipped only where gcc is missing (CI has it).
 *
 * <p>The child's home directory is a temporary one, and every backend it opens is given a bandwidth matrix, so
 * nothing is measured into or read from the user's {@code ~/.polygpu}.
 */
class FakeDriverTest {
    /** The fake's device memory: 64 MiB each, so that a 128 MiB allocation fails. */
    private static final long MEMORY = 64L << 20;
    private static final Pattern LAUNCHES = Pattern.compile("devices \\[([01](?:, [01])*)], (\\d+)/1000 right");

    @TempDir
    static Path dir;
    private static Probe usable;
    private static Probe initFailure;

    /** What a probe run printed: {@code key: value} lines on stdout, and its stderr. */
    private record Probe(int status, List<String> lines, String err) {
        String value(String key) {
            List<String> v = values(key);
            assertEquals(0, status, this::toString);
            assertTrue(!v.isEmpty(), () -> "no '" + key + "' line in\n" + this);
            return v.get(0);
        }

        List<String> values(String key) {
            return lines.stream().filter(l -> l.startsWith(key + ": ")).map(l -> l.substring(key.length() + 2))
                    .toList();
        }

        @Override
        public String toString() {
            return "status " + status + "\nstdout:\n" + String.join("\n", lines) + "\nstderr:\n" + err;
        }
    }

    @BeforeAll
    static void buildTheFakeDriverAndRunTheProbes() throws Exception {
        Path source = dir.resolve("fakecuda.c");
        try (InputStream in = FakeDriverTest.class.getResourceAsStream("/org/polygpu/fakecuda/fakecuda.c")) {
            Files.copy(in, source);
        }
        Assumptions.assumeTrue(gccPresent(), "gcc is not installed");
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O1", "-o", dir.resolve("libcuda.so.1").toString(),
                source.toString()).redirectErrorStream(true).start();
        String gccOutput = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0, "gcc failed:\n" + gccOutput);
        // The two probes run side by side; each JVM loads the fake anew, so they share nothing.
        Process first = start(Map.of("FAKECUDA_MEMORY", Long.toString(MEMORY), "FAKECUDA_REPORT", "1"), "usable",
                dir.toString());
        Process second = start(Map.of("FAKECUDA_INIT", "220"), "init-failure");
        usable = finish(first, "usable");
        initFailure = finish(second, "init-failure");
    }

    private static boolean gccPresent() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts the probe in a JVM like this one, with the fake as {@code libcuda.so.1} and a temporary home. */
    private static Process start(Map<String, String> fakeSettings, String... args) throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Duser.home=" + home, "-cp",
                System.getProperty("java.class.path"), FakeDriverProbe.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("FAKECUDA_") || k.startsWith("POLYGPU_") || k.startsWith("CUDA_"));
        env.put("LD_LIBRARY_PATH", dir.toString());
        env.put("HOME", home.toString());
        env.putAll(fakeSettings);
        return pb.redirectOutput(dir.resolve(args[0] + ".out").toFile())
                .redirectError(dir.resolve(args[0] + ".err").toFile()).start();
    }

    /** Waits for a probe; one still running after two minutes is killed and reported with status -1. */
    private static Probe finish(Process p, String mode) throws Exception {
        int status = -1;
        if (p.waitFor(120, TimeUnit.SECONDS)) {
            status = p.exitValue();
        } else {
            p.destroyForcibly().waitFor();
        }
        return new Probe(status, Files.readAllLines(dir.resolve(mode + ".out")),
                Files.readString(dir.resolve(mode + ".err")));
    }

    /**
     * Asserts a report of launches under round-robin ({@code devices [0, 1, ...], 1000/1000 right}): {@code count}
     * launches alternating between the two devices, and every element read back right.
     */
    private static void assertAlternatingAndRight(String report, int count) {
        Matcher m = LAUNCHES.matcher(report);
        assertTrue(m.matches(), report);
        List<String> devices = List.of(m.group(1).split(", "));
        assertEquals(count, devices.size(), report);
        for (int i = 1; i < count; i++) {
            assertTrue(!devices.get(i).equals(devices.get(i - 1)), "devices alternate: " + report);
        }
        assertEquals("1000", m.group(2), report);
    }

    @Test
    void detectionFindsTheFakeDevicesAndDriverVersion() {
        assertEquals("USABLE, 2 devices, driver 12.4", usable.value("detection"));
    }

    /** The fake's clock makes each link's measured bandwidth exactly the figure the fake copies at. */
    @Test
    void profileInterconnectMeasuresTheFakeLinks() throws IOException {
        assertEquals("0", usable.value("profile-interconnect status"));
        assertEquals("""
                From,To,Bandwidth
                -1,0,10.00
                0,-1,20.00
                0,0,300.00
                0,1,50.00
                -1,1,10.00
                1,-1,20.00
                1,0,50.00
                1,1,300.00
                """, Files.readString(dir.resolve("bandwidth.csv")));
        assertTrue(Files.notExists(dir.resolve("home/.polygpu")), "nothing was measured into the home directory");
    }

    @Test
    void theBackendOpensBothDevicesWithPeerAccessAndTheMeasuredMatrix() {
        assertEquals("polygpu: using 2 CUDA GPUs (Fake GPU 0, Fake GPU 1; driver 12.4, MemoryModel=explicit); "
                + "bandwidth matrix: " + dir.resolve("bandwidth.csv"), usable.value("notice"));
        assertEquals("[[300.0, 50.0, 15.0], [50.0, 300.0, 15.0], [15.0, 15.0, 0.0]]", usable.value("matrix"));
        assertEquals("NumberOfGPUs=3 but 2 GPUs are present", usable.value("three of two GPUs"));
        assertTrue(usable.err().contains("fakecuda: device 0 enabled peer access to device 1\n")
                && usable.err().contains("fakecuda: device 1 enabled peer access to device 0\n"), usable::toString);
    }

    /** Round-robin alternates the devices, so each launch first copies the array from the other device. */
    @Test
    void kernelsRunOnBothDevicesAndTheResultsReadBackRight() {
        assertAlternatingAndRight(usable.value("add_one"), 10);
        assertEquals("1000/1000 right", usable.value("copy"));
        assertAlternatingAndRight(usable.value("scale"), 2);
        assertEquals("[1.5, -2.0, -3.0, 1.099511627776E12, 0.25, 7.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 96.0]",
                usable.value("record_args"));
        assertTrue(Integer.parseInt(usable.value("peer copies")) >= 9, usable.toString());
    }

    /** Launches on program streams run on the streams' devices, after the array's copy between them. */
    @Test
    void kernelsOnProgramStreamsRunOnTheirDevicesInOrder() {
        assertEquals("devices [1, 0], 1000/1000 right", usable.value("program streams"));
    }

    /** Every launch, copy and peer copy was timed with the fake's events; a launch takes 4 us of its clock. */
    @Test
    void theTimelineRecordsEveryKindOfOperationWithTheFakesClock() {
        String kinds = usable.value("timeline");
        assertTrue(kinds.matches("\\{KERNEL=13, COPY_HOST_TO_DEVICE=\\d+, COPY_DEVICE_TO_HOST=\\d+, "
                + "COPY_DEVICE_TO_DEVICE=\\d+}"), kinds);
        assertEquals("[4000]", usable.value("kernel nanos"));
    }

    @Test
    void driverErrorsCarryTheirCNamesAndTheContextStaysUsable() {
        assertTrue(usable.value("oom").startsWith("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2) (allocating "
                + (128 << 20) + " bytes on device 0 (Fake GPU 0, "), usable.value("oom"));
        assertTrue(usable.value("oom in a launch").startsWith("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2)"),
                usable.value("oom in a launch"));
        assertTrue(usable.value("unknown kernel").startsWith("cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND (500): "
                + "no kernel named 'missing'"), usable.value("unknown kernel"));
        String ptx = usable.value("ptx too new");
        assertTrue(ptx.startsWith("cuModuleLoadDataEx failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222): the PTX "
                + "declares ISA 9.9"), ptx);
        assertTrue(ptx.contains("driver (12.4)") && ptx.endsWith("\\nJIT log:\\nptxas fatal   : Unsupported "
                + ".version 9.9; current version is '8.4'"), ptx);
        assertEquals("cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE (1)", usable.value("block too large"));
        assertAlternatingAndRight(usable.value("after errors"), 10);
    }

    /** The fake fills new device memory with 0xAB; the backend's memset must clear it, and every free return it. */
    @Test
    void freshBuffersAreZeroedAndFreedMemoryComesBack() {
        assertEquals("4096/4096 bytes zero", usable.value("fresh buffer"));
        assertEquals(MEMORY + " " + MEMORY, usable.value("free memory"));
    }

    /**
     * Replicas may fill the free memory less a margin (an eighth of 64 MiB here, less than 256 MiB); managed memory
     * oversubscribes by itself, so replicas have no limit there.
     */
    @Test
    void replicasMayUseTheFreeMemoryLessAMarginAndManagedMemoryIsUnlimited() {
        long budget = MEMORY - MEMORY / 8;
        assertEquals(budget + " " + budget, usable.value("replica memory"));
        assertEquals(Long.toString(Long.MAX_VALUE), usable.value("managed replica memory"));
    }

    /** The fake reports at exit what is still allocated, created, loaded or retained; closing must release all. */
    @Test
    void closingTheBackendsReleasesEverythingTheyCreated() {
        assertEquals(0, usable.status(), usable::toString);
        assertTrue(usable.err().contains("fakecuda at exit: 0 allocations, 0 streams, 0 events, 0 modules, 0 context "
                + "retains\n"), usable::toString);
    }

    @Test
    void managedMemoryRunsTheSameKernels() {
        assertAlternatingAndRight(usable.value("managed"), 10);
    }

    /**
     * Under managed memory the array is one allocation: before each kernel it is advised to prefer the kernel's
     * device and prefetched there on a stream of that device; host copies prefetch it to the host.
     */
    @Test
    void managedMemoryIsAdvisedAndPrefetchedToEachKernelsDeviceOnItsStream() {
        Matcher m = LAUNCHES.matcher(usable.value("managed"));
        assertTrue(m.matches(), usable::toString);
        List<String> devices = List.of(m.group(1).split(", "));
        List<String> toDevices = usable.err().lines()
                .filter(l -> l.startsWith("fakecuda: prefetch") && l.contains(" to device ")).toList();
        List<String> expected = devices.stream().map(d -> "fakecuda: prefetch " + 4 * FakeDriverProbe.N
                + " bytes to device " + d + " on a stream of device " + d).toList();
        assertEquals(expected, toDevices, usable::toString);
        assertEquals(devices.stream().map(d -> "fakecuda: advise 3 for device " + d).toList(), usable.err().lines()
                .filter(l -> l.startsWith("fakecuda: advise")).toList(), usable::toString);
        assertEquals(2, usable.err().lines().filter(l -> l.equals("fakecuda: prefetch " + 4 * FakeDriverProbe.N
                + " bytes to host -1 on a stream of device 0")).count(), "the copy in and the copy out");
    }

    @Test
    void infoPrintsTheFakeDevicesAndTheMatrix() {
        assertEquals("0", usable.value("info status"));
        List<String> out = usable.values("info out");
        assertEquals("backend: cuda", out.get(0));
        assertEquals("devices: 2", out.get(2));
        assertEquals("  GPU 0: Fake GPU 0, compute capability 9.0, 64.0 MiB, 132 SMs", out.get(3));
        assertEquals("  GPU 1: Fake GPU 1, compute capability 9.0, 64.0 MiB, 132 SMs", out.get(4));
        assertEquals("bandwidth matrix: " + dir.resolve("bandwidth.csv"), out.get(5));
        assertEquals("  GPU 0       300.0     50.0     15.0", out.get(7));
        assertTrue(out.contains("  cuda: usable, 2 CUDA devices, driver 12.4"), out.toString());
        assertEquals(List.of(), usable.values("info err"));
    }

    /** Code 220 is absent from {@code CuResult}: its name can only have come from the fake's cuGetErrorName. */
    @Test
    void aFailedStartIsReportedWithTheNameTheDriverGives() {
        String reason = "the CUDA driver cannot start (cuInit: CUDA_ERROR_NVLINK_UNCORRECTABLE (220))";
        assertEquals("INIT_FAILED: " + reason, initFailure.value("detection"));
        assertEquals("Backend=cuda cannot run here: " + reason, initFailure.value("open"));
    }
}
