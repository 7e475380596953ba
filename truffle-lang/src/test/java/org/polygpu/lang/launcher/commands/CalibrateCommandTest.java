package org.polygpu.lang.launcher.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.BackendOptions;
import org.polygpu.backend.BackendProvider;
import org.polygpu.backend.Backends;
import org.polygpu.backend.OpenedBackend;
import org.polygpu.calibration.Measurements;
import org.polygpu.nvrtc.NvrtcLibrary;
import org.polygpu.topology.BandwidthMatrixFiles;

/** {@code polygpu calibrate}: without a GPU, on the emulator end to end, and fitting again from its measurements. */
class CalibrateCommandTest {
    @TempDir
    Path dir;

    private record Run(int status, String out, String err) {
    }

    private static Run run(List<String> args, String backend) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = CalibrateCommand.run(args, backend, BackendOptions.defaults().withEmulatedDevices(1), o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static BackendProvider.Availability cuda() {
        return Backends.providers().stream().filter(p -> p.name().equals("cuda")).findFirst().orElseThrow()
                .probe(BackendOptions.defaults());
    }

    @Test
    void withoutAGpuItSaysWhyAndFailsWritingNothing() {
        Assumptions.assumeFalse(cuda().usable(), "this machine has a GPU");
        for (String backend : List.of("cuda", "auto")) {
            Run r = run(List.of("--out", dir.resolve("m.json").toString()), backend);
            assertEquals(1, r.status(), backend);
            assertEquals("polygpu calibrate: no GPU: " + cuda().reason() + "\n", r.err(), backend);
            assertEquals("", r.out());
        }
        assertFalse(Files.exists(dir.resolve("m.json")) || Files.exists(dir.resolve("m.measurements.csv")));
    }

    @Test
    void badArgumentsAreUsageErrors() {
        for (List<String> args : List.of(List.of("--out"), List.of("--fast"), List.of("--fit"))) {
            Run r = run(args, "emulated");
            assertEquals(2, r.status(), args.toString());
            assertTrue(r.err().contains("usage: polygpu [--polygpu.Option=value ...] calibrate"), r.err());
        }
        assertEquals(0, run(List.of("--help"), "cuda").status());
    }

    @Test
    void aMissingMeasurementsFileIsNamed() {
        Path missing = dir.resolve("none.measurements.csv");
        Run r = run(List.of("--fit", missing.toString()), "cuda");
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("polygpu calibrate: cannot read measurements file " + missing), r.err());
    }

    @Test
    void filesGoBesideTheBandwidthMatrixAndTheMeasurementsBesideTheModel() {
        Path matrix = BandwidthMatrixFiles.defaultFile();
        OpenedBackend emulated = Backends.open("emulated", BackendOptions.defaults().withEmulatedDevices(1));
        try {
            assertEquals(matrix.resolveSibling("device-model-emulated.json"), CalibrateCommand.defaultOutput(emulated));
            OpenedBackend measured = new OpenedBackend(emulated.backend(), emulated.bandwidth(), "measured", true,
                    "a backend whose topology is this machine's");
            assertEquals(matrix.resolveSibling("device-model.json"), CalibrateCommand.defaultOutput(measured));
        } finally {
            emulated.backend().close();
        }
        assertEquals(Path.of("r/device-model.measurements.csv"),
                CalibrateCommand.measurementsBeside(Path.of("r/device-model.json")));
        assertEquals(Path.of("r/x.model.measurements.csv"), CalibrateCommand.measurementsBeside(Path.of("r/x.model")));
        assertEquals(Path.of("r/device-model.json"),
                CalibrateCommand.modelBeside(Path.of("r/device-model.measurements.csv")));
    }

    /** The emulated round trip writes a model and its measurements; fitting again from them gives the same model. */
    @Test
    void onTheEmulatorItMeasuresFitsAndFitsAgainFromTheMeasurements() throws Exception {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        Path model = dir.resolve("device-model.json");
        Run r = run(List.of("--out", model.toString()), "emulated");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("Backend=emulated: a round trip on a simulated device"), r.out());
        assertTrue(r.out().contains("device model: " + model.toAbsolutePath()), r.out());
        assertTrue(r.err().contains("] 12/12  done"), r.err());
        Path csv = dir.resolve("device-model.measurements.csv");
        Measurements m = Measurements.read(csv);
        assertEquals("emulated", m.backend());
        String first = Files.readString(model);
        assertTrue(first.contains("\"source\": \"calibrated on " + m.device().name() + ", " + m.date()
                + ", polygpu calibrate; "), first);
        Path again = dir.resolve("again.json");
        Run refit = run(List.of("--fit", csv.toString(), "--out", again.toString()), "cuda");
        assertEquals(0, refit.status(), refit.err());
        assertEquals(first, Files.readString(again));
        assertFalse(refit.out().contains("round trip"), refit.out());
    }
}
