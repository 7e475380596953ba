package org.polygpu.emulator.calibration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.polygpu.calibration.CalibrationSettings;
import org.polygpu.calibration.CalibrationSuite;
import org.polygpu.calibration.Measurement;
import org.polygpu.calibration.Measurements;
import org.polygpu.config.EmulatedExecution;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFit;
import org.polygpu.emulator.DeviceModelFit.KernelObservation;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.emulator.timing.AtomicSpec;
import org.polygpu.emulator.timing.ComputeSpec;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.KernelProfile;
import org.polygpu.emulator.timing.LaunchSpec;
import org.polygpu.emulator.timing.LogLeastSquares;
import org.polygpu.emulator.timing.MemorySpec;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.InterconnectProfiler;

/**
 * The second step of the calibration fit: the kernel parameters of the timing model under which the emulator
 * reproduces the suite's kernel measurements. The suite's kernels run again, with the same launch configurations
 * ({@link CalibrationSettings#of} the measurements), on one emulated device of the measured GPU's identity (sampled execution); each
 * timed launch's {@link KernelProfile} pairs with its measured time, and {@link #PARAMETERS} minimise the sum of
 * squared logs of predicted over measured time ({@link LogLeastSquares}, the prediction being {@link
 * DeviceModelFit#kernelNanos}), starting from the closed-form fit. The issue rate stays the reference's; a class's
 * throughput never exceeds it. A parameter the measurements leave free (no benchmark bound by it) keeps the closed
 * form's value, a class's throughput the issue rate where its chain is bound by issue. Stateless.
 */
final class KernelRefit {
    /** The refitted parameters, in the order of {@link #parameters}. */
    static final List<String> PARAMETERS = List.of("memory.dramGBps", "memory.dramLatencyNs", "memory.l2GBps",
            "memory.l2LatencyNs", "memory.smGBps", "compute.fp32PerClock", "compute.fp64PerClock",
            "compute.integerPerClock", "compute.sfuPerClock", "compute.dependentIssueCycles",
            "atomics.sameAddressNs", "atomics.perNs", "launch.deviceNs");
    /** The index of {@code compute.fp32PerClock}, the first of the four classes' throughputs. */
    private static final int FIRST_CLASS = 5;
    /** Measurements whose time is not one kernel's launch alone: copies, the host's enqueue cost, the streams. */
    private static final Set<String> NOT_ONE_LAUNCH = Set.of("launch-host", "streams", "streams-compute");

    private KernelRefit() {
    }

    /**
     * The profile of the launch each kernel measurement timed (by benchmark and parameter, such as {@code load
     * stride-4}) when the suite runs with {@code settings} on one emulated device of {@code model}.
     */
    static Map<String, KernelProfile> profiles(CalibrationSettings settings, DeviceModel model) {
        CopySpec c = model.copies();
        BandwidthMatrix oneGpu = new BandwidthMatrix(new double[][] {
            {c.deviceToDevice().bandwidthGBps(), c.hostToDevicePinned().bandwidthGBps()},
            {c.deviceToHostPinned().bandwidthGBps(), 0}});
        Map<String, KernelProfile> profiles = new LinkedHashMap<>();
        try (EmulatedBackend b = EmulatedBackend.builder().topology(oneGpu).model(model)
                .execution(EmulatedExecution.SAMPLED).build()) {
            new CalibrationSuite(b, 0, settings).run(InterconnectProfiler.Progress.NONE, x -> {
                if (isOneLaunch(x)) {
                    b.lastProfile().ifPresent(p -> profiles.put(key(x), p));
                }
            });
        }
        return profiles;
    }

    /** The measurements of {@code m} that {@code profiles} has a profile for, paired with it. */
    static List<KernelObservation> observations(Measurements m, Map<String, KernelProfile> profiles) {
        List<KernelObservation> out = new ArrayList<>();
        for (Measurement x : m.rows()) {
            KernelProfile p = isOneLaunch(x) ? profiles.get(key(x)) : null;
            if (p != null) {
                out.add(new KernelObservation(p, x.nanos()));
            }
        }
        return out;
    }

    /** {@code start} with {@link #PARAMETERS} fitted to {@code observations}. */
    static DeviceModel fit(DeviceModel start, List<KernelObservation> observations) {
        if (observations.isEmpty()) {
            throw new IllegalArgumentException("no kernel measurements to refit the model to");
        }
        ToDoubleFunction<double[]> error = p -> Math.pow(rmsLogError(with(start, p), observations), 2);
        double[] initial = parameters(start);
        double[] fitted = LogLeastSquares.minimise(initial, error);
        // A parameter that no measurement binds fits every value beyond some bound equally: it keeps the closed
        // form's (which bounds it), or for a class whose chain the issue rate bounds, the issue rate.
        double issue = start.compute().issuePerClock();
        for (int i = 0; i < fitted.length; i++) {
            fitted = unlessWorse(error, fitted, i, initial[i]);
            if (i >= FIRST_CLASS && i < FIRST_CLASS + 4) {
                fitted = unlessWorse(error, fitted, i, issue);
            }
        }
        return with(start, fitted);
    }

    /** {@code p} with parameter {@code i} set to {@code value} if that leaves {@code error} as it is, else {@code p}. */
    private static double[] unlessWorse(ToDoubleFunction<double[]> error, double[] p, int i, double value) {
        double[] q = p.clone();
        q[i] = value;
        return error.applyAsDouble(q) <= error.applyAsDouble(p) * (1 + 1e-9) + 1e-18 ? q : p;
    }

    /** The root-mean-square of {@code log(predicted / measured)} of {@code model} over {@code observations}. */
    static double rmsLogError(DeviceModel model, List<KernelObservation> observations) {
        double[] measured = observations.stream().mapToDouble(KernelObservation::nanos).toArray();
        double[] predicted = observations.stream()
                .mapToDouble(o -> Math.max(1, DeviceModelFit.kernelNanos(model, o.profile()))).toArray();
        return Math.sqrt(LogLeastSquares.squaredLogErrors(predicted, measured) / measured.length);
    }

    /** {@code model}'s {@link #PARAMETERS}. */
    static double[] parameters(DeviceModel model) {
        MemorySpec m = model.memory();
        ComputeSpec c = model.compute();
        return new double[] {m.dramGBps(), m.dramLatencyNs(), m.l2GBps(), m.l2LatencyNs(), m.smGBps(),
            c.fp32PerClock(), c.fp64PerClock(), c.integerPerClock(), c.sfuPerClock(), c.dependentIssueCycles(),
            model.atomics().sameAddressNs(), model.atomics().perNs(), model.launch().deviceNs()};
    }

    /** {@code model} with the {@link #PARAMETERS} {@code p}, each class's throughput at most its issue rate. */
    static DeviceModel with(DeviceModel model, double[] p) {
        return with(model, p, model.compute().issuePerClock());
    }

    /** {@code model} with the {@link #PARAMETERS} {@code p} and the issue rate {@code issue}, which bounds them. */
    static DeviceModel with(DeviceModel model, double[] p, double issue) {
        MemorySpec m = model.memory();
        return new DeviceModel(model.name(), model.source(), model.origin(), model.computeMajor(),
                model.computeMinor(), model.totalMemory(), model.sm(),
                new MemorySpec(p[0], p[1], m.l2Bytes(), p[2], p[3], p[4], m.sectorBytes(), m.sharedBanks()),
                new ComputeSpec(issue, Math.min(issue, p[5]), Math.min(issue, p[6]), Math.min(issue, p[7]),
                        Math.min(issue, p[8]), p[9]),
                new AtomicSpec(p[10], p[11]), new LaunchSpec(p[12], model.launch().hostNs()), model.copies());
    }

    private static boolean isOneLaunch(Measurement x) {
        return !x.benchmark().startsWith("copy-") && !NOT_ONE_LAUNCH.contains(x.benchmark());
    }

    private static String key(Measurement x) {
        return x.benchmark() + " " + x.parameter();
    }
}
