package org.polygpu.bench.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.nvrtc.NvrtcLibrary;

/**
 * The emulator's {@code h100} model against the committed measurements of a real H100 ({@code calibration/h100}):
 * a model-accuracy test (virtual time only, nothing is timed on this machine). Needs NVRTC to compile the study
 * kernels (skips without it).
 */
class H100FidelityTest {
    private static FidelityReport report;

    @BeforeAll
    static void run() {
        Assumptions.assumeTrue(NvrtcLibrary.system(null).find().isPresent(), "NVRTC is not installed");
        Path dir = Path.of("..", "calibration", "h100");
        Assumptions.assumeTrue(Files.isDirectory(dir), "no calibration/h100 next to the benchmarks module");
        report = Fidelity.report(Measurements.read(dir), new EmulatedRuns(DeviceModel.H100));
    }

    @Test
    void kernelsOfAtLeast20MicrosecondsAreWithinTheTargets() {
        List<FidelityReport.Compared> rows = report.longKernels();
        assertEquals(27, rows.size());
        assertTrue(FidelityReport.geometricMean(rows) <= 1.25, report.summary().toString());
        assertTrue(FidelityReport.worst(rows) <= 2, report.summary().toString());
    }

    /**
     * Target 1.5x. The measurement's batches go no faster than its host issued launches (launch.csv's back-to-back
     * empty launches): the emulated time per launch is at least that.
     */
    @Test
    void launchBoundKernelsAreWithin1Point5Times() {
        List<FidelityReport.Compared> rows = report.launchBound();
        assertEquals(39, rows.size());
        assertTrue(FidelityReport.worst(rows) <= 1.5, report.summary().toString());
    }

    @Test
    void concurrentKernelsAreWithin25Percent() {
        assertEquals(12, report.concurrency().size());
        assertTrue(FidelityReport.worstRelative(report.concurrency()) <= 0.25, report.summary().toString());
    }

    /** Target 15% from 64 KiB up, pageable host memory beyond the host's cache included. */
    @Test
    void copiesFrom64KibAreWithin15Percent() {
        List<FidelityReport.Compared> rows = report.copiesFrom64KiB();
        assertEquals(20, rows.size());
        assertTrue(FidelityReport.worstRelative(rows) <= 0.15, report.summary().toString());
    }
}
