package org.polygpu.emulator.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.calibration.CalibrationSettings;
import org.polygpu.calibration.CalibrationSuite;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFile;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.nvrtc.NvrtcLibrary;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.InterconnectProfiler;

/** The suite measured on the emulator, end to end, and the model fitted to what it measured. */
class CalibrationRoundTripTest {
    /** One H100 whose host links run at the model's pinned bandwidths. */
    private static final BandwidthMatrix ONE_GPU = new BandwidthMatrix(new double[][] {{1400, 52}, {53.8, 0}});
    /** Small enough to run in seconds on the interpreter, large enough to exceed nothing it measures. */
    static final CalibrationSettings SMALL = new CalibrationSettings(4L << 20, 1L << 16, 1L << 20, 128, 1L << 20,
            0, 1, 1, 20);

    @TempDir
    Path dir;

    private static Measurements measure(DeviceModel model) {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).model(model)
                .execution(EmulatedExecution.SAMPLED).build()) {
            return new CalibrationSuite(b, 0, SMALL).run(InterconnectProfiler.Progress.NONE);
        }
    }

    @Test
    void theSuiteRunsOnTheEmulatorAndItsFitIsAValidModelFile() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        long start = System.nanoTime();
        Measurements m = measure(DeviceModel.H100);
        System.out.printf("calibration suite on the emulator: %.1f s, %d measurements%n",
                (System.nanoTime() - start) / 1e9, m.rows().size());
        System.out.print(m.toCsv());
        Path file = dir.resolve("model.json");
        List<String> summary = new EmulatorModelFit().fitAndWrite(m, "calibrated on test", file);
        summary.forEach(System.out::println);
        DeviceModel back = DeviceModelFile.read(file);
        assertEquals(DeviceModel.H100.name(), back.name());
        assertEquals(132, back.sm().count());
    }
}
