package org.polygpu.bench.fidelity;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.polygpu.emulator.DeviceModel;
import org.polygpu.emulator.DeviceModelFile;
import org.polygpu.emulator.DeviceModelFit;
import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * Fits a device model to a calibration directory and writes it: the kernel rows' profiles come from running them on
 * the emulator ({@link EmulatedRuns}), the fitting is {@link DeviceModelFit}'s.
 *
 * <p>Usage: {@code FitModel MEASUREMENTS_DIR START_MODEL OUT.json}: the start model (a preset or a file) gives the
 * published parameters and the starting point.
 */
public final class FitModel {
    /** Copies shorter than this are the host's and the driver's fixed costs more than the link's; not fitted. */
    static final long MIN_COPY_BYTES = 64 << 10;

    private FitModel() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: FitModel MEASUREMENTS_DIR START_MODEL OUT.json");
            System.exit(2);
        }
        DeviceModel start = DeviceModel.resolve(args[1]);
        DeviceModel fitted = fit(Measurements.read(Path.of(args[0])), start);
        DeviceModelFile.write(fitted, Path.of(args[2]));
        System.out.println("wrote " + args[2]);
        System.out.print(DeviceModelFile.toJson(fitted));
    }

    /** {@code start} fitted to the kernels and copies of {@code m}. */
    public static DeviceModel fit(Measurements m, DeviceModel start) {
        EmulatedRuns runs = new EmulatedRuns(start);
        List<DeviceModelFit.KernelObservation> kernels = new ArrayList<>();
        for (Measurements.KernelRow r : m.kernels()) {
            kernels.add(new DeviceModelFit.KernelObservation(
                    runs.kernel(StudyLaunch.of(r.kernel(), r.size()), r.grid(), r.block()).profile(),
                    r.batchUs() * 1e3));
        }
        List<DeviceModelFit.CopyObservation> copies = new ArrayList<>();
        for (Measurements.CopyRow r : m.copies()) {
            if (r.bytes() >= MIN_COPY_BYTES) {
                copies.add(new DeviceModelFit.CopyObservation(kind(r), r.bytes(), r.medianUs() * 1e3));
            }
        }
        return rounded(DeviceModelFit.copies(DeviceModelFit.kernels(start, kernels, m.batchFloorUs() * 1e3),
                copies));
    }

    /** {@code m} with its fitted figures rounded to 3 significant digits: the measurements hold no more. */
    static DeviceModel rounded(DeviceModel m) {
        double[] p = DeviceModelFit.kernelParameters(m);
        for (int i = 0; i < p.length; i++) {
            p[i] = round(p[i]);
        }
        CopySpec c = m.copies();
        DeviceModel r = DeviceModelFit.withKernelParameters(m, p);
        return new DeviceModel(r.name(), r.source(), r.origin(), r.computeMajor(), r.computeMinor(),
                r.totalMemory(), r.sm(), r.memory(), r.compute(), r.atomics(), r.launch(),
                new CopySpec(round(c.hostToDevicePinned()), round(c.hostToDevicePageable()),
                        round(c.deviceToHostPinned()), round(c.deviceToHostPageable()), round(c.deviceToDevice())));
    }

    private static LinkSpec round(LinkSpec l) {
        LinkSpec r = new LinkSpec(round(l.bandwidthGBps()), round(l.latencyNs()));
        return l.hasBeyond() ? r.withBeyond(l.beyondBytes(), round(l.beyondGBps())) : r;
    }

    static double round(double v) {
        return v == 0 ? 0 : new BigDecimal(v).round(new MathContext(3)).doubleValue();
    }

    private static DeviceModelFit.CopyKind kind(Measurements.CopyRow r) {
        boolean pinned = !r.hostMemory().equals("pageable");
        return switch (r.direction()) {
            case "h2d" -> pinned ? DeviceModelFit.CopyKind.HOST_TO_DEVICE_PINNED
                    : DeviceModelFit.CopyKind.HOST_TO_DEVICE_PAGEABLE;
            case "d2h" -> pinned ? DeviceModelFit.CopyKind.DEVICE_TO_HOST_PINNED
                    : DeviceModelFit.CopyKind.DEVICE_TO_HOST_PAGEABLE;
            case "d2d" -> DeviceModelFit.CopyKind.DEVICE_TO_DEVICE;
            default -> throw new IllegalArgumentException("unknown copy direction '" + r.direction() + "'");
        };
    }
}
