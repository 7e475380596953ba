package org.polygpu.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.BackendOptions;
import org.polygpu.cuda.CudaDetection;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFile;
import org.polygpu.lang.ContextOptions;
import org.polygpu.lang.launcher.commands.InfoCommand;
import org.polygpu.lang.launcher.commands.ProfileInterconnectCommand;
import org.polygpu.topology.BandwidthMatrixLoader;

/** {@code polygpu info} and {@code polygpu profile-interconnect} on the emulator, with their output captured. */
class CommandsTest {
    private static final Map<String, String> TWO_EMULATED = Map.of("Backend", "emulated", "EmulatedDevices", "2",
            "EmulatedTopology", "test-2gpu");

    @TempDir
    Path dir;

    /** One command run: its exit code and what it printed. */
    private record Run(int status, String out, String err) {
    }

    private interface Command {
        int run(List<String> args, String backend, BackendOptions options, PrintStream out, PrintStream err);
    }

    private static Run run(Command command, List<String> args, Map<String, String> options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            ContextOptions parsed = ContextOptions.parse(options);
            status = command.run(args, parsed.backend(), parsed.backendOptions(), o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void infoPrintsBackendDevicesMatrixBackendsAndNvrtc() {
        Run r = run(InfoCommand::run, List.of(), TWO_EMULATED);
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("backend: emulated", lines.get(0));
        assertEquals("polygpu: using 2 emulated " + DeviceModel.V100.name() + " on topology test-2gpu; device model: "
                + DeviceModel.V100.describe(), lines.get(1));
        assertEquals("devices: 2", lines.get(2));
        assertEquals("  GPU 0: " + DeviceModel.V100.name() + ", compute capability 7.0, 16.0 GiB, 80 SMs",
                lines.get(3));
        assertTrue(lines.get(4).startsWith("  GPU 1: "), lines.get(4));
        assertEquals("bandwidth matrix: test-2gpu", lines.get(5));
        assertEquals("  GB/s        GPU 0    GPU 1     host", lines.get(6));
        assertEquals("  GPU 0        30.0     45.0     10.0", lines.get(7));
        CudaDetection.Result cuda = CudaDetection.detect();
        assertEquals("backends:", lines.get(10));
        assertEquals("  cuda: " + (cuda.usable() ? "usable, " : "not usable, ") + cuda.reason(), lines.get(11));
        assertEquals("  emulated: usable, the emulator runs everywhere", lines.get(12));
        assertTrue(lines.get(13).startsWith("NVRTC: "), lines.get(13));
        assertEquals("", r.err());
    }

    /** A memory set by EmulatedDeviceMemory is what the devices report, in MiB below 1 GiB. */
    @Test
    void infoShowsTheEmulatedDeviceMemory() {
        Map<String, String> options = new HashMap<>(TWO_EMULATED);
        options.put("EmulatedDeviceMemory", "64MiB");
        Run r = run(InfoCommand::run, List.of(), options);
        List<String> lines = r.out().lines().toList();
        assertEquals("polygpu: using 2 emulated " + DeviceModel.V100.name() + " on topology test-2gpu with 64MiB of "
                + "memory each; device model: " + DeviceModel.V100.describe(), lines.get(1));
        assertEquals("  GPU 0: " + DeviceModel.V100.name() + ", compute capability 7.0, 64.0 MiB, 80 SMs",
                lines.get(3));
    }

    /** A device-model file given as EmulatedDeviceModel is what the devices are, and info names the file. */
    @Test
    void infoShowsADeviceModelFileAndWhereItCameFrom(@TempDir Path dir) {
        Path file = dir.resolve("mine.json");
        DeviceModelFile.write(DeviceModel.H100.withTotalMemory(1L << 30), file);
        Map<String, String> options = new HashMap<>(TWO_EMULATED);
        options.put("EmulatedDeviceModel", file.toString());
        Run r = run(InfoCommand::run, List.of(), options);
        List<String> lines = r.out().lines().toList();
        assertEquals("polygpu: using 2 emulated " + DeviceModel.H100.name() + " on topology test-2gpu; device model: "
                + "file " + file + ", fitted to one NVIDIA H100 80GB HBM3 measured on 2026-11-27 with CUDA 13.0 "
                + "(calibration/h100, by DeviceModelFit)", lines.get(1));
        assertEquals("  GPU 0: " + DeviceModel.H100.name() + ", compute capability 9.0, 1.0 GiB, 132 SMs",
                lines.get(3));
    }

    @Test
    void infoSaysWhyWhenTheBackendCannotRun() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        Run r = run(InfoCommand::run, List.of(), Map.of("Backend", "cuda"));
        assertEquals(1, r.status());
        assertEquals("polygpu info: Backend=cuda cannot run here: " + CudaDetection.detect().reason() + "\n", r.err());
        assertTrue(r.out().contains("  cuda: not usable, " + CudaDetection.detect().reason()), r.out());
    }

    @Test
    void infoWithAutoFallsBackToTheEmulatorWithOneLineSayingWhy() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        Run r = run(InfoCommand::run, List.of(), Map.of());
        assertEquals(0, r.status(), r.err());
        assertEquals("polygpu: cuda: " + CudaDetection.detect().reason() + "; using 4 emulated "
                + DeviceModel.V100.name() + " on topology v100x8 (GPUs 0-3 of its 8); device model: "
                + DeviceModel.V100.describe(), r.out().lines().toList().get(1));
    }

    @Test
    void infoRejectsArgumentsWithUsage() {
        Run r = run(InfoCommand::run, List.of("--verbose"), TWO_EMULATED);
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("polygpu info: unexpected argument '--verbose'\nusage: polygpu"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void profileWritesTheMatrixOfTheEmulatedTopologyWithAProgressBar() {
        Path file = dir.resolve("sub/bw.csv");
        Run r = run(ProfileInterconnectCommand::run, List.of("--out", file.toString(), "--size", "2M",
                "--repeats", "2"), TWO_EMULATED);
        assertEquals(0, r.status(), r.err());
        assertEquals(BandwidthMatrixLoader.preset("test-2gpu"), BandwidthMatrixLoader.load(file));
        assertTrue(r.out().startsWith("wrote " + file.toAbsolutePath() + "\n"), r.out());
        assertTrue(r.out().contains("  GPU 1        45.0     60.0     20.0"), r.out());
        assertTrue(r.err().startsWith("polygpu: using 2 emulated " + DeviceModel.V100.name() + " on topology "
                + "test-2gpu; device model: " + DeviceModel.V100.describe() + "\nprofiling 2 emulated devices with 2097152-byte copies, 2 repetitions\n"), r.err());
        assertTrue(r.err().contains("\r[###############...............] 4/8  GPU 0 on-device"), r.err());
        assertTrue(r.err().endsWith("\r[##############################] 8/8  done" + " ".repeat(11) + "\n"), r.err());
    }

    @Test
    void profileRejectsBadArgumentsWithUsage() {
        for (List<String> args : List.of(List.of("--size", "lots"), List.of("--size", "100"),
                List.of("--repeats", "0"), List.of("--out"), List.of("--fast"))) {
            Run r = run(ProfileInterconnectCommand::run, args, TWO_EMULATED);
            assertEquals(2, r.status(), args.toString());
            assertTrue(r.err().startsWith("polygpu profile-interconnect: "), r.err());
            assertTrue(r.err().contains("usage: polygpu [--polygpu.Option=value ...] profile-interconnect"), r.err());
            assertEquals("", r.out());
        }
    }

    @Test
    void profileOnACudaBackendThatCannotRunFailsSayingWhy() {
        Assumptions.assumeFalse(CudaDetection.detect().usable(), "this machine has a GPU");
        Run r = run(ProfileInterconnectCommand::run, List.of("--out", dir.resolve("x.csv").toString()),
                Map.of("Backend", "cuda"));
        assertEquals(1, r.status());
        assertEquals("polygpu profile-interconnect: Backend=cuda cannot run here: " + CudaDetection.detect().reason()
                + "\n", r.err());
        assertFalse(dir.resolve("x.csv").toFile().exists());
    }

    @Test
    void helpGoesToStdoutAndSucceeds() {
        Run info = run(InfoCommand::run, List.of("--help"), Map.of());
        Run profile = run(ProfileInterconnectCommand::run, List.of("--help"), Map.of());
        assertEquals(0, info.status());
        assertEquals(0, profile.status());
        assertTrue(info.out().startsWith("usage: "), info.out());
        assertTrue(profile.out().contains("--repeats N"), profile.out());
    }
}
