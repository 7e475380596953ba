package org.polygpu.emulator;

import java.util.Objects;
import org.polygpu.emulator.timing.DeviceShare;

/**
 * What a kernel asks of its device when it starts: a fixed launch latency, then {@code soloNanos} of execution if it
 * had the device to itself, during which it uses the fraction {@code share} of the device's SMs (a grid too small to
 * fill every SM uses only part of it), and how it runs beside other kernels ({@link DeviceShare}).
 * {@link ComputeModel} shares each device among the kernels that run on it at once.
 *
 * @param latencyNanos launch latency, during which the kernel uses none of the device
 * @param soloNanos    execution time alone on the device, latency excluded
 * @param share        the fraction of the device's SMs the kernel uses, in [0, 1]
 * @param device       what it occupies and how long it takes beside others
 */
record KernelDemand(long latencyNanos, long soloNanos, double share, DeviceShare device) {
    KernelDemand {
        Objects.requireNonNull(device, "device");
        if (latencyNanos < 0 || soloNanos < 0) {
            throw new IllegalArgumentException("negative kernel time: latency " + latencyNanos + " ns, execution "
                    + soloNanos + " ns");
        }
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("a kernel's share of its device must lie in [0, 1], got " + share);
        }
    }

    /** A kernel that does nothing after its launch latency (a launch that failed at its start). */
    static KernelDemand latencyOnly(long latencyNanos) {
        return new KernelDemand(latencyNanos, 0, 0, DeviceShare.NONE);
    }

    /**
     * A kernel timed by a roofline (a Java kernel or library routine): it needs the whole device, so beside others
     * it takes turns with them in proportion to the warps they keep resident.
     */
    static KernelDemand wholeDevice(long latencyNanos, long soloNanos, DeviceModel model) {
        double deviceWarps = (double) model.sm().count() * model.sm().maxThreadsPerSm() / model.sm().warpSize();
        return new KernelDemand(latencyNanos, soloNanos, 1, new DeviceShare() {
            @Override
            public double residentWarps() {
                return deviceWarps;
            }

            @Override
            public long footprint() {
                return 0;
            }

            @Override
            public double nanos(double otherWarps, long otherFootprint) {
                return soloNanos * (1 + otherWarps / deviceWarps);
            }

            @Override
            public double memoryNanos(long otherFootprint) {
                return 0;
            }
        });
    }

    /** This demand with {@code nanos} more latency before the kernel executes (page faults, say). */
    KernelDemand delayedBy(long nanos) {
        return nanos == 0 ? this : new KernelDemand(latencyNanos + nanos, soloNanos, share, device);
    }

    /** The kernel's duration when nothing else runs on its device. */
    long aloneNanos() {
        return latencyNanos + soloNanos;
    }
}
