package org.polygpu.emulator.timing;

/**
 * One kind of copy of a device model: a copy of {@code b} bytes alone takes
 * {@code latencyNs + min(b, beyondBytes) / bandwidthGBps + max(0, b - beyondBytes) / beyondGBps}. The second rate
 * describes pageable host memory staged by the host's processor: a source or destination that fits in the host's
 * last-level cache moves at one rate, the bytes beyond it at the host memory's (a link without it has
 * {@code beyondBytes = Long.MAX_VALUE}).
 *
 * @param bandwidthGBps bytes per nanosecond once the copy runs (up to {@code beyondBytes})
 * @param latencyNs     fixed cost of every copy
 * @param beyondBytes   bytes of a copy that move at {@code bandwidthGBps}; {@link Long#MAX_VALUE} for all
 * @param beyondGBps    bytes per nanosecond of the bytes beyond {@code beyondBytes}
 */
public record LinkSpec(double bandwidthGBps, double latencyNs, long beyondBytes, double beyondGBps) {
    /** {@code beyondBytes} of a link that moves every byte at one rate. */
    public static final long NO_BEYOND = Long.MAX_VALUE;

    public LinkSpec {
        Checks.positive("bandwidthGBps", bandwidthGBps);
        Checks.nonNegative("latencyNs", latencyNs);
        Checks.positive("beyondBytes", beyondBytes);
        Checks.positive("beyondGBps", beyondGBps);
    }

    /** A link that moves every byte at {@code bandwidthGBps}. */
    public LinkSpec(double bandwidthGBps, double latencyNs) {
        this(bandwidthGBps, latencyNs, NO_BEYOND, bandwidthGBps);
    }

    /** Whether bytes beyond {@link #beyondBytes} move at another rate. */
    public boolean hasBeyond() {
        return beyondBytes != NO_BEYOND;
    }

    /** This link with the bytes beyond {@code bytes} moving at {@code gbps}. */
    public LinkSpec withBeyond(long bytes, double gbps) {
        return new LinkSpec(bandwidthGBps, latencyNs, bytes, gbps);
    }

    /** Nanoseconds a copy of {@code bytes} takes alone. */
    public double nanos(double bytes) {
        return latencyNs + transferNanos(bytes);
    }

    /** Nanoseconds a copy of {@code bytes} moves its bytes, latency excluded. */
    public double transferNanos(double bytes) {
        double first = Math.min(bytes, beyondBytes);
        return first / bandwidthGBps + (bytes - first) / beyondGBps;
    }
}
