package org.polygpu.emulator.timing;

/**
 * One kind of copy of a device model: a copy of {@code b} bytes alone takes {@code latencyNs + b / bandwidthGBps}.
 *
 * @param bandwidthGBps bytes per nanosecond once the copy runs
 * @param latencyNs     fixed cost of every copy
 */
public record LinkSpec(double bandwidthGBps, double latencyNs) {
    public LinkSpec {
        Checks.positive("bandwidthGBps", bandwidthGBps);
        Checks.nonNegative("latencyNs", latencyNs);
    }

    /** Nanoseconds a copy of {@code bytes} takes alone. */
    public double nanos(double bytes) {
        return latencyNs + bytes / bandwidthGBps;
    }
}
