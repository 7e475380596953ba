package org.polygpu.emulator.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.polygpu.backend.DeviceProperties;
import org.polygpu.calibration.CalibrationSettings;
import org.polygpu.calibration.Measurements;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFit;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.LaunchSpec;
import org.polygpu.emulator.timing.MemorySpec;
import org.polygpu.emulator.timing.SmSpec;

/**
 * Fits a {@link DeviceModel} to the calibration suite's {@link Measurements} in two steps. First in closed form: the
 * launch costs are the measured ones ({@code launch.deviceNs} per launch of a back-to-back batch, {@code
 * launch.hostNs} per enqueue call), the kernel parameters come from {@link KernelFits}, the copies from {@link
 * CopyFits}. Then the kernel parameters are refitted to the kernel measurements through the timing model itself
 * ({@link KernelRefit}: the suite's kernels profiled on an emulated device of the measured identity), so that the
 * emulator reproduces what was measured; where the kernels cannot be profiled (no NVRTC) the closed form stays and
 * the summary says so. The device's identity and launch
 * limits (name, compute capability, memory, SMs, clock, warp size, threads and shared memory per block) are what
 * the backend reported; what it does not report comes from a {@link ReferenceModel}, and the model's source says so.
 * Stateless.
 */
public final class DeviceModelFitter {
    private DeviceModelFitter() {
    }

    /**
     * The fitted model and what to tell the user about it.
     *
     * @param model   the model
     * @param summary lines describing the fitted parameters and the checks
     */
    public record Fit(DeviceModel model, List<String> summary) {
        public Fit {
            summary = List.copyOf(summary);
        }
    }

    /**
     * Fits a model to {@code m}.
     *
     * @param source the first part of the model's source, such as {@code calibrated on <device>, <date>, polygpu
     *               calibrate}; the fit adds how the figures were obtained
     * @throws IllegalArgumentException naming a measurement that is missing or cannot be fitted
     */
    public static Fit fit(Measurements m, String source) {
        return fit(m, source, true);
    }

    /** Fits a model to {@code m}, refitting the kernel parameters through the timing model if {@code refit}. */
    static Fit fit(Measurements m, String source, boolean refit) {
        DeviceProperties d = m.device();
        ReferenceModel reference = ReferenceModel.of(d);
        LaunchSpec launch = new LaunchSpec(m.get("launch-device", "empty").nanos(), m.get("launch-host", "empty")
                .nanos());
        SmSpec ref = reference.model().sm();
        // CUDA 12 deprecated the clock attribute: a driver that no longer reports it leaves the reference's clock.
        boolean clockReported = d.clockKhz() > 0;
        double clockMhz = clockReported ? d.clockKhz() / 1000.0 : ref.clockMhz();
        KernelFits kernels = new KernelFits(m, launch.deviceNs(), clockMhz);
        SmSpec sm = new SmSpec(d.multiprocessors(), clockMhz, d.warpSize(), d.maxThreadsPerBlock(),
                d.maxSharedMemoryPerBlock(), Math.max(ref.maxThreadsPerSm(), d.maxThreadsPerBlock()),
                ref.maxBlocksPerSm(), ref.registersPerSm(), Math.max(ref.sharedMemoryPerSm(),
                        d.maxSharedMemoryPerBlock()));
        MemorySpec memory = kernels.memory(reference);
        ComputeSpec compute = kernels.compute(reference);
        AtomicSpec atomics = kernels.atomics();
        CopySpec copies = CopyFits.fit(m);
        String provenance = source + "; fitted to the " + m.rows().size() + " measurements of polygpu calibrate on "
                + "the " + m.backend() + " backend (bandwidths and latencies, per-class throughputs, atomics, launch"
                + " and copy costs); identity, " + (clockReported ? "clock " : "") + "and per-block limits as the "
                + "backend reports them; per-SM limits, L2 size" + (clockReported ? "" : ", clock") + " and issue rate "
                + "from " + reference.reason(d);
        DeviceModel closed = new DeviceModel(d.name(), provenance, "calibration", d.computeMajor(),
                d.computeMinor(), d.totalMemory(), sm, memory, compute, atomics, launch, copies);
        if (!refit) {
            return new Fit(closed, summary(closed, kernels, reference, d, clockReported, List.of()));
        }
        DeviceModel model = closed;
        String refitLine;
        try {
            // The refit starts from the closed form with the reference's issue rate, which bounds every class.
            DeviceModel start = KernelRefit.with(closed, KernelRefit.parameters(closed),
                    reference.model().compute().issuePerClock());
            List<DeviceModelFit.KernelObservation> obs = KernelRefit.observations(m,
                    KernelRefit.profiles(CalibrationSettings.of(m), start));
            DeviceModel fitted = KernelRefit.fit(start, obs);
            refitLine = format("kernel parameters refitted through the timing model to %d kernel measurements: "
                    + "rms log error %.3f (closed form %.3f)", obs.size(), KernelRefit.rmsLogError(fitted, obs),
                    KernelRefit.rmsLogError(closed, obs));
            model = new DeviceModel(d.name(), provenance + "; kernel parameters then refitted through the timing "
                    + "model to the kernels' profiles on the emulator", "calibration", d.computeMajor(),
                    d.computeMinor(), d.totalMemory(), sm, fitted.memory(), fitted.compute(), fitted.atomics(),
                    fitted.launch(), copies);
        } catch (RuntimeException e) {
            refitLine = "kernel parameters in closed form only (the kernels could not be profiled on the emulator: "
                    + e.getMessage() + ")";
        }
        return new Fit(model, summary(model, kernels, reference, d, clockReported, List.of(refitLine)));
    }

    private static List<String> summary(DeviceModel model, KernelFits kernels, ReferenceModel reference,
                                        DeviceProperties d, boolean clockReported, List<String> refit) {
        MemorySpec mem = model.memory();
        ComputeSpec c = model.compute();
        CopySpec k = model.copies();
        List<String> lines = new ArrayList<>();
        lines.add(format("device: %s, compute capability %s, %d SMs at %.0f MHz%s", d.name(), d.computeCapability(),
                d.multiprocessors(), model.sm().clockMhz(), clockReported ? "" : " (not reported: the reference's)"));
        lines.add(format("memory: %.0f GB/s device, %.1f GB/s per SM, L2 %.0f GB/s; latency %.0f ns, L2 %.0f ns",
                mem.dramGBps(), mem.smGBps(), mem.l2GBps(), mem.dramLatencyNs(), mem.l2LatencyNs()));
        double[] sectors = kernels.strideCosts("load", KernelFits.LOAD_STRIDES);
        lines.add(format("sectors: a useful byte at stride 1 2 4 8 16 32 costs %s x coalesced: %d-byte sectors%s",
                KernelFits.costs(sectors), mem.sectorBytes(), fromReference(sectors)));
        double[] banks = kernels.strideCosts("shared", KernelFits.SHARED_STRIDES);
        lines.add(format("shared memory: stride 1 .. 64 costs %s x stride 1: %d banks%s", KernelFits.costs(banks),
                mem.sharedBanks(), fromReference(banks)));
        lines.add(format("per SM and cycle: FP32 %.2f, FP64 %.2f, integer %.2f, SFU %.2f warp instructions; "
                + "dependent issue every %.1f cycles", c.fp32PerClock(), c.fp64PerClock(), c.integerPerClock(),
                c.sfuPerClock(), c.dependentIssueCycles()));
        lines.addAll(refit);
        lines.add(format("atomics: %.2f ns per warp request on one address, %.1f per ns on distinct addresses",
                model.atomics().sameAddressNs(), model.atomics().perNs()));
        lines.add(format("launch: %.0f ns on the device, %.0f ns on the host", model.launch().deviceNs(),
                model.launch().hostNs()));
        lines.add("streams (not fitted): 2, 4, 8 streams of a 64-block kernel take " + kernels.streamRatios("streams")
                + " x one (memory-bound), " + kernels.streamRatios("streams-compute") + " x one (compute-bound)");
        lines.add(format("copies (GB/s, latency us): host->device pinned %.1f, %.1f; pageable %.1f, %.1f; "
                + "device->host pinned %.1f, %.1f; pageable %.1f, %.1f; on device %.0f, %.1f",
                k.hostToDevicePinned().bandwidthGBps(), k.hostToDevicePinned().latencyNs() / 1000,
                k.hostToDevicePageable().bandwidthGBps(), k.hostToDevicePageable().latencyNs() / 1000,
                k.deviceToHostPinned().bandwidthGBps(), k.deviceToHostPinned().latencyNs() / 1000,
                k.deviceToHostPageable().bandwidthGBps(), k.deviceToHostPageable().latencyNs() / 1000,
                k.deviceToDevice().bandwidthGBps(), k.deviceToDevice().latencyNs() / 1000));
        lines.add("not measured (from " + reference.reason(d) + "): resident threads, blocks, registers and shared "
                + "memory per SM, L2 size, issue rate" + (clockReported ? "" : ", clock"));
        return lines;
    }

    /** What the summary adds when a stride curve was too flat to fit ({@link KernelFits#plateau}). */
    private static String fromReference(double[] costs) {
        return costs[costs.length - 1] < 1.5 ? " (flat: the reference's)" : "";
    }

    private static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
