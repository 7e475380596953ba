package org.polygpu.emulator.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.polygpu.backend.ModuleImage;
import org.polygpu.calibration.CalibrationSettings;
import org.polygpu.calibration.CalibrationSuite;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFile;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.timing.LinkSpec;
import org.polygpu.nvrtc.NvrtcLibrary;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.InterconnectProfiler;

/** The suite measured on the emulator, end to end, and the model fitted to what it measured. */
class CalibrationRoundTripTest {
    /** One H100 whose host links run at the model's pinned bandwidths. */
    private static final BandwidthMatrix ONE_GPU = new BandwidthMatrix(new double[][] {{1400, 52}, {53.8, 0}});
    /** Small enough to run in seconds on the interpreter. */
    static final CalibrationSettings SMALL = new CalibrationSettings(64L << 20, 1L << 20, 16L << 20, 128,
            1L << 20, 0, 1, 1, 20);
    /** How close the round trip recovers every refitted parameter, relative. */
    private static final double TOLERANCE = 0.01;
    private static Measurements measured;

    @TempDir
    Path dir;

    private static Measurements measure() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).model(DeviceModel.H100)
                .execution(EmulatedExecution.SAMPLED).build()) {
            return new CalibrationSuite(b, 0, SMALL).run(InterconnectProfiler.Progress.NONE);
        }
    }

    @BeforeAll
    static void measureOnce() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        long start = System.nanoTime();
        measured = measure();
        System.out.printf("calibration suite on the emulator (small settings): %.1f s%n",
                (System.nanoTime() - start) / 1e9);
    }

    @Test
    void everyBenchmarkIsMeasuredOnceAndTheVirtualClockMakesItRepeatable() {
        assertEquals(74, measured.rows().size());
        assertEquals(List.of("stride-1", "stride-2", "stride-4", "stride-8", "stride-16", "stride-32", "scattered"),
                measured.of("load").stream().map(Measurement::parameter).toList());
        assertEquals(5, measured.of("atomic").size());
        assertEquals(List.of(4096.0, 16384.0, 65536.0, 262144.0, 1048576.0),
                measured.of("copy-d2h-pageable").stream().map(Measurement::work).toList());
        assertEquals(measured.rows(), measure().rows());
        assertEquals(measured, Measurements.parse(measured.toCsv(), "csv"));
        assertEquals(SMALL, CalibrationSettings.of(measured));
    }

    /** The emulator's launch costs are what its model says, so the fit gives them back. */
    @Test
    void theFitGivesBackTheModelsLaunchCostsAndAFileThatReadsBack() {
        Path file = dir.resolve("model.json");
        List<String> summary = new EmulatorCalibrationFit().fitAndWrite(measured, "calibrated on test", file);
        DeviceModel back = DeviceModelFile.read(file);
        assertEquals(DeviceModel.H100.properties(), back.properties());
        assertEquals(DeviceModel.H100.launch().hostNs(), back.launch().hostNs(), 1e-9);
        assertEquals(DeviceModel.H100.launch().deviceNs(), back.launch().deviceNs(),
                0.01 * DeviceModel.H100.launch().deviceNs());
        assertTrue(summary.getFirst().startsWith("device: " + DeviceModel.H100.name()), summary.getFirst());
        assertEquals(DeviceModelFitter.fit(measured, "calibrated on test").model().withOrigin(back.origin()), back);
    }

    /**
     * A round trip: the parameters the emulator ran with come back from its measurements within {@link #TOLERANCE}
     * (the closed form alone, printed beside, does not recover them), and the refitted model reproduces them.
     */
    @Test
    void theRefitRecoversThePresetsKernelParameters() {
        double[] preset = KernelRefit.parameters(DeviceModel.H100);
        double[] closed = KernelRefit.parameters(DeviceModelFitter.fit(measured, "test", false).model());
        DeviceModelFitter.Fit fit = DeviceModelFitter.fit(measured, "test");
        double[] refit = KernelRefit.parameters(fit.model());
        System.out.println("| parameter | preset | closed form | refitted |");
        for (int i = 0; i < preset.length; i++) {
            System.out.printf(java.util.Locale.ROOT, "| %s | %.4g | %.4g | %.4g |%n", KernelRefit.PARAMETERS.get(i),
                    preset[i], closed[i], refit[i]);
        }
        for (int i = 0; i < preset.length; i++) {
            assertEquals(preset[i], refit[i], TOLERANCE * preset[i], KernelRefit.PARAMETERS.get(i));
        }
        assertTrue(fit.summary().stream().anyMatch(line -> line.startsWith("kernel parameters refitted through the "
                + "timing model to 40 kernel measurements: rms log error 0.000")), fit.summary().toString());
        assertTrue(fit.model().source().endsWith("; kernel parameters then refitted through the timing model to the "
                + "kernels' profiles on the emulator"), fit.model().source());
    }

    /** Each chain compiles to the instruction class it measures, the chases and the L2 loads bypass L1. */
    @Test
    void theKernelsCompileToTheInstructionsTheyMeasure() {
        try (EmulatedBackend b = EmulatedBackend.builder().topology(ONE_GPU).model(DeviceModel.H100).build()) {
            String ptx = b.ptx(b.loadModule(0, new ModuleImage.CudaSource(CalibrationSuite.kernelSource(),
                    "calibration.cu", List.of(), List.of()))).orElseThrow();
            for (String instruction : List.of("fma.rn.f32", "fma.rn.f64", "mad.lo.s32", "rsqrt.approx",
                    "ld.global.cg", "add.f32", "ld.volatile.shared.f32", "st.volatile.shared.f32")) {
                assertTrue(ptx.contains(instruction), instruction);
            }
            assertTrue(ptx.contains("atom.global.add.f32") || ptx.contains("red.global.add.f32"), "float atomics");
        }
    }

    /** The emulator's copies are linear in their size: the fitted lines go through every copy they were fitted to. */
    @Test
    void theCopyLinesReproduceTheCopiesTheyWereFittedTo() {
        for (String kind : List.of("copy-h2d-pinned", "copy-h2d-pageable", "copy-d2h-pinned", "copy-d2h-pageable",
                "copy-d2d")) {
            LinkSpec line = CopyFits.link(measured, kind);
            for (Measurement m : measured.of(kind)) {
                if (m.work() >= CopyFits.MIN_FIT_BYTES) {
                    assertEquals(m.nanos(), line.nanos(m.work()), 0.01 * m.nanos(), kind + " " + m.parameter());
                }
            }
        }
    }
}
