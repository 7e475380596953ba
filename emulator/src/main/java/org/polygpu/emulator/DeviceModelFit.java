package org.polygpu.emulator;

import java.util.List;
import java.util.Objects;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.emulator.timing.LaunchSpec;
import org.polygpu.emulator.timing.LinkSpec;
import org.polygpu.emulator.timing.LogLeastSquares;
import org.polygpu.emulator.timing.MemorySpec;

/**
 * Fits a device model's measurable parameters to measurements of a real GPU, keeping the published ones (SM count,
 * clock, limits, per-class throughputs) as given. Kernels: the parameters {@link #KERNEL_PARAMETERS} minimise the
 * sum of squared logs of predicted over measured time ({@link LogLeastSquares}), each kernel's prediction being the
 * launch cost plus {@link org.polygpu.emulator.timing.KernelTiming}'s time for the kernel's profile (the
 * interpreter's counters of a run on the emulator). Copies: for each kind of copy, the latency and bandwidth of the
 * straight line {@code latency + bytes / bandwidth} closest to the measured times in relative terms (weighted least
 * squares), with a second rate beyond a knee where the largest copies go clearly slower ({@link CopyLineFit}).
 */
public final class DeviceModelFit {
    /** The kernel parameters {@link #kernels} fits, in the order of {@link #kernelParameters}. */
    public static final List<String> KERNEL_PARAMETERS = List.of("memory.dramGBps", "memory.dramLatencyNs",
            "memory.l2GBps", "memory.l2LatencyNs", "memory.smGBps", "compute.dependentIssueCycles",
            "atomics.sameAddressNs", "launch.deviceNs");

    private DeviceModelFit() {
    }

    /**
     * One kernel launch measured on the real GPU.
     *
     * @param profile the launch's profile on the emulator (same kernel, arguments and grid)
     * @param nanos   its measured time per launch, launch cost included (back-to-back launches divided by their
     *                number)
     */
    public record KernelObservation(KernelProfile profile, double nanos) {
        public KernelObservation {
            Objects.requireNonNull(profile, "profile");
            if (!(nanos > 0)) {
                throw new IllegalArgumentException("a measured time must be positive, got " + nanos);
            }
        }
    }

    /** The kinds of copy a model describes. */
    public enum CopyKind {
        HOST_TO_DEVICE_PINNED, HOST_TO_DEVICE_PAGEABLE, DEVICE_TO_HOST_PINNED, DEVICE_TO_HOST_PAGEABLE,
        DEVICE_TO_DEVICE
    }

    /** One copy measured on the real GPU: {@code nanos} for {@code bytes}, latency included. */
    public record CopyObservation(CopyKind kind, long bytes, double nanos) {
        public CopyObservation {
            Objects.requireNonNull(kind, "kind");
            if (bytes < 1 || !(nanos > 0)) {
                throw new IllegalArgumentException("invalid copy observation: " + bytes + " bytes in " + nanos
                        + " ns");
            }
        }
    }

    /** The time {@code model} predicts for a launch of {@code profile}, launch cost included. */
    public static double kernelNanos(DeviceModel model, KernelProfile profile) {
        return model.launch().deviceNs() + model.timing().nanos(profile);
    }

    /**
     * The time per launch {@code model} predicts for back-to-back launches of {@code profile} issued by a host that
     * issues at most one launch per {@code batchFloorNs}: the device's time per launch ({@link #kernelNanos}) or the
     * host's interval, whichever is longer (the device idles between kernels shorter than the host's interval).
     */
    public static double batchNanos(DeviceModel model, KernelProfile profile, double batchFloorNs) {
        return Math.max(batchFloorNs, kernelNanos(model, profile));
    }

    /** {@code model}'s fitted kernel parameters, in the order of {@link #KERNEL_PARAMETERS}. */
    public static double[] kernelParameters(DeviceModel model) {
        MemorySpec m = model.memory();
        return new double[] {m.dramGBps(), m.dramLatencyNs(), m.l2GBps(), m.l2LatencyNs(), m.smGBps(),
            model.compute().dependentIssueCycles(), model.atomics().sameAddressNs(), model.launch().deviceNs()};
    }

    /** {@code model} with the kernel parameters {@code p}, in the order of {@link #KERNEL_PARAMETERS}. */
    public static DeviceModel withKernelParameters(DeviceModel model, double[] p) {
        MemorySpec m = model.memory();
        ComputeSpec c = model.compute();
        return new DeviceModel(model.name(), model.source(), model.origin(), model.computeMajor(),
                model.computeMinor(), model.totalMemory(), model.sm(),
                new MemorySpec(p[0], p[1], m.l2Bytes(), p[2], p[3], p[4], m.sectorBytes(), m.sharedBanks()),
                new ComputeSpec(c.issuePerClock(), c.fp32PerClock(), c.fp64PerClock(), c.integerPerClock(),
                        c.sfuPerClock(), p[5]),
                new AtomicSpec(p[6], model.atomics().perNs()), new LaunchSpec(p[7], model.launch().hostNs()),
                model.copies());
    }

    /**
     * {@code start} with its kernel parameters fitted to {@code observations}.
     *
     * @throws IllegalArgumentException when there is nothing to fit to
     */
    public static DeviceModel kernels(DeviceModel start, List<KernelObservation> observations) {
        return kernels(start, observations, 0);
    }

    /**
     * {@code start} with its kernel parameters fitted to {@code observations} measured in batches of back-to-back
     * launches that the measuring host issued no faster than one per {@code batchFloorNs}: each prediction is
     * {@link #batchNanos}, so a kernel shorter than the host's interval tells the fit only that it is shorter.
     *
     * @throws IllegalArgumentException when there is nothing to fit to, or the floor is negative
     */
    public static DeviceModel kernels(DeviceModel start, List<KernelObservation> observations, double batchFloorNs) {
        if (!(batchFloorNs >= 0)) {
            throw new IllegalArgumentException("the batch floor must be at least 0 ns, got " + batchFloorNs);
        }
        if (observations.isEmpty()) {
            throw new IllegalArgumentException("no kernel measurements to fit the model to");
        }
        double[] measured = observations.stream().mapToDouble(KernelObservation::nanos).toArray();
        double[] fitted = LogLeastSquares.minimise(kernelParameters(start), p -> {
            DeviceModel candidate = withKernelParameters(start, p);
            double[] predicted = observations.stream()
                    .mapToDouble(o -> Math.max(1, batchNanos(candidate, o.profile(), batchFloorNs))).toArray();
            return LogLeastSquares.squaredLogErrors(predicted, measured);
        });
        return withKernelParameters(start, fitted);
    }

    /**
     * {@code start} with the latency and bandwidth of every kind of copy that {@code observations} measure at two
     * sizes or more fitted to them ({@link CopyLineFit}); the other kinds keep theirs.
     */
    public static DeviceModel copies(DeviceModel start, List<CopyObservation> observations) {
        CopySpec c = start.copies();
        LinkSpec[] specs = {c.hostToDevicePinned(), c.hostToDevicePageable(), c.deviceToHostPinned(),
            c.deviceToHostPageable(), c.deviceToDevice()};
        for (CopyKind kind : CopyKind.values()) {
            List<CopyObservation> mine = observations.stream().filter(o -> o.kind() == kind).toList();
            if (mine.stream().mapToLong(CopyObservation::bytes).distinct().count() >= 2) {
                specs[kind.ordinal()] = CopyLineFit.fit(mine.stream().mapToDouble(CopyObservation::bytes).toArray(),
                        mine.stream().mapToDouble(CopyObservation::nanos).toArray());
            }
        }
        return new DeviceModel(start.name(), start.source(), start.origin(), start.computeMajor(),
                start.computeMinor(), start.totalMemory(), start.sm(), start.memory(), start.compute(),
                start.atomics(), start.launch(), new CopySpec(specs[0], specs[1], specs[2], specs[3], specs[4]));
    }
}
