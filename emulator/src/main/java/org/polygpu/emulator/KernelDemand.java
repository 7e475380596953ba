package org.polygpu.emulator;

/**
 * What a kernel asks of its device when it starts: a fixed launch latency, then {@code soloNanos} of execution if it
 * had the device to itself, during which it can use the fraction {@code share} of the device (its occupancy: a grid
 * too small to fill every SM uses only part of it). {@link ComputeModel} shares each device among the kernels that
 * run on it at once.
 *
 * @param latencyNanos launch latency, during which the kernel uses none of the device
 * @param soloNanos    execution time alone on the device, latency excluded
 * @param share        the fraction of the device the kernel can use, in [0, 1]
 */
record KernelDemand(long latencyNanos, long soloNanos, double share) {
    KernelDemand {
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
        return new KernelDemand(latencyNanos, 0, 0);
    }

    /** This demand with {@code nanos} more latency before the kernel executes (page faults, say). */
    KernelDemand delayedBy(long nanos) {
        return nanos == 0 ? this : new KernelDemand(latencyNanos + nanos, soloNanos, share);
    }

    /** The kernel's duration when nothing else runs on its device. */
    long aloneNanos() {
        return latencyNanos + soloNanos;
    }
}
