package org.polygpu.emulator.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFile;

/**
 * The closed-form step of the fit recovers the parameters that synthetic measurements made by its own equations were
 * made from ({@link KernelRefitTest} checks the refit against the timing model's).
 */
class DeviceModelFitterTest {
    /** The parameters the fit measures, by name. */
    private static final List<Parameter> FITTED = List.of(
            new Parameter("dramGBps", m -> m.memory().dramGBps()),
            new Parameter("smGBps", m -> m.memory().smGBps()),
            new Parameter("l2GBps", m -> m.memory().l2GBps()),
            new Parameter("dramLatencyNs", m -> m.memory().dramLatencyNs()),
            new Parameter("l2LatencyNs", m -> m.memory().l2LatencyNs()),
            new Parameter("fp32PerClock", m -> m.compute().fp32PerClock()),
            new Parameter("fp64PerClock", m -> m.compute().fp64PerClock()),
            new Parameter("integerPerClock", m -> m.compute().integerPerClock()),
            new Parameter("sfuPerClock", m -> m.compute().sfuPerClock()),
            new Parameter("dependentIssueCycles", m -> m.compute().dependentIssueCycles()),
            new Parameter("sameAddressNs", m -> m.atomics().sameAddressNs()),
            new Parameter("perNs", m -> m.atomics().perNs()),
            new Parameter("launch.deviceNs", m -> m.launch().deviceNs()),
            new Parameter("launch.hostNs", m -> m.launch().hostNs()),
            new Parameter("h2d pinned GB/s", m -> m.copies().hostToDevicePinned().bandwidthGBps()),
            new Parameter("h2d pinned latency", m -> m.copies().hostToDevicePinned().latencyNs()),
            new Parameter("h2d pageable GB/s", m -> m.copies().hostToDevicePageable().bandwidthGBps()),
            new Parameter("h2d pageable latency", m -> m.copies().hostToDevicePageable().latencyNs()),
            new Parameter("d2h pinned GB/s", m -> m.copies().deviceToHostPinned().bandwidthGBps()),
            new Parameter("d2h pinned latency", m -> m.copies().deviceToHostPinned().latencyNs()),
            new Parameter("d2h pageable GB/s", m -> m.copies().deviceToHostPageable().bandwidthGBps()),
            new Parameter("d2h pageable latency", m -> m.copies().deviceToHostPageable().latencyNs()),
            new Parameter("d2d GB/s", m -> m.copies().deviceToDevice().bandwidthGBps()),
            new Parameter("d2d latency", m -> m.copies().deviceToDevice().latencyNs()));

    private record Parameter(String name, ToDoubleFunction<DeviceModel> of) {
    }

    private static void assertRecovered(DeviceModel truth, DeviceModel fitted, double tolerance) {
        for (Parameter p : FITTED) {
            double want = p.of().applyAsDouble(truth);
            double got = p.of().applyAsDouble(fitted);
            assertTrue(Math.abs(got - want) <= tolerance * want, p.name() + ": fitted " + got + ", true " + want);
        }
        assertEquals(truth.memory().sectorBytes(), fitted.memory().sectorBytes(), "sectorBytes");
        assertEquals(truth.memory().sharedBanks(), fitted.memory().sharedBanks(), "sharedBanks");
    }

    @Test
    void exactMeasurementsGiveBackEveryMeasuredParameterOfEachPreset() {
        for (String preset : DeviceModel.presetNames()) {
            DeviceModel truth = DeviceModel.preset(preset);
            DeviceModelFitter.Fit fit = DeviceModelFitter.fit(SyntheticMeasurements.of(truth, 0, 1), "calibrated on x",
                    false);
            assertRecovered(truth, fit.model(), 1e-9);
        }
    }

    /** Within 10% with every time off by up to 3%, over twenty draws of the noise. */
    @Test
    void noisyMeasurementsGiveThemBackWithinTenPercent() {
        for (long seed = 1; seed <= 20; seed++) {
            DeviceModelFitter.Fit fit = DeviceModelFitter.fit(SyntheticMeasurements.of(DeviceModel.H100, 0.03, seed),
                    "calibrated on x", false);
            assertRecovered(DeviceModel.H100, fit.model(), 0.10);
        }
    }

    @Test
    void identityAndLimitsAreTheBackendsAndTheRestComesFromTheReferencePresetSaidInTheSource() {
        DeviceModel truth = DeviceModel.A100;
        DeviceModel fitted = DeviceModelFitter.fit(SyntheticMeasurements.of(truth, 0, 1),
                "calibrated on A100, 2026-11-28, polygpu calibrate", false).model();
        assertEquals(truth.properties(), fitted.properties());
        assertEquals(truth.sm(), fitted.sm());
        assertEquals(truth.memory().l2Bytes(), fitted.memory().l2Bytes());
        assertTrue(fitted.source().startsWith("calibrated on A100, 2026-11-28, polygpu calibrate; fitted to the "),
                fitted.source());
        assertTrue(fitted.source().endsWith("from preset a100 (compute capability 8.0)"), fitted.source());
        assertEquals(fitted.withOrigin("x"), DeviceModelFile.parse(DeviceModelFile.toJson(fitted), "t", "x"));
    }

    /** CUDA 12 deprecated the clock attribute; a driver without it reports 0. */
    @Test
    void aClockTheDriverDoesNotReportIsTheReferencesAndTheSourceSaysSo() {
        Measurements all = SyntheticMeasurements.of(DeviceModel.H100, 0, 1);
        DeviceProperties d = all.device();
        Measurements noClock = new Measurements(new DeviceProperties(d.name(), 9, 0,
                d.totalMemory(), d.multiprocessors(), 0, d.maxThreadsPerBlock(), d.maxSharedMemoryPerBlock(),
                d.warpSize()), all.backend(), all.date(), all.rows());
        DeviceModelFitter.Fit fit = DeviceModelFitter.fit(noClock, "x", false);
        assertEquals(DeviceModel.H100.sm().clockMhz(), fit.model().sm().clockMhz());
        assertRecovered(DeviceModel.H100, fit.model(), 1e-9);
        assertTrue(fit.model().source().endsWith("L2 size, clock and issue rate from preset h100 (compute "
                + "capability 9.0)"), fit.model().source());
        assertTrue(fit.summary().getFirst().endsWith("(not reported: the reference's)"), fit.summary().getFirst());
    }

    @Test
    void theSummarySaysWhatWasFittedAndHowStreamsShareTheDevice() {
        List<String> summary = DeviceModelFitter.fit(SyntheticMeasurements.of(DeviceModel.H100, 0, 1), "x", false)
                .summary();
        assertEquals("sectors: a useful byte at stride 1 2 4 8 16 32 costs 1.0 2.0 4.0 8.0 8.0 8.0 x coalesced: "
                + "32-byte sectors", summary.get(2));
        assertEquals("shared memory: stride 1 .. 64 costs 1.0 2.0 4.0 8.0 16.0 32.0 32.0 x stride 1: 32 banks",
                summary.get(3));
        assertTrue(summary.contains("streams (not fitted): 2, 4, 8 streams of a 64-block kernel take 1.0 1.9 3.7 x "
                + "one (memory-bound), 1.0 1.9 3.7 x one (compute-bound)"), summary.toString());
    }

    @Test
    void aMissingMeasurementIsNamed() {
        Measurements all = SyntheticMeasurements.of(DeviceModel.H100, 0, 1);
        Measurements noChase = new Measurements(all.device(), all.backend(), all.date(), all.rows().stream()
                .filter(m -> !m.benchmark().equals("chase-l2")).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceModelFitter.fit(noChase, "x"));
        assertEquals("the measurements need one chase-l2, got 0", e.getMessage());
    }

    @Test
    void aLineThroughCopyTimesGivesLatencyAndBandwidth() {
        LineFit line = LineFit.relative(new double[] {1e5, 1e6, 1e7}, new double[] {12_000, 30_000, 210_000});
        assertEquals(10_000, line.intercept(), 1e-6);
        assertEquals(0.02, line.slope(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> LineFit.relative(new double[] {1}, new double[] {1}));
    }
}
