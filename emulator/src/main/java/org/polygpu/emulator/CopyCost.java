package org.polygpu.emulator;

import org.polygpu.emulator.timing.CopySpec;
import org.polygpu.emulator.timing.LinkSpec;

/**
 * What a copy costs besides its link's bandwidth: a fixed latency, and how much slower than the link it moves its
 * bytes. The topology gives each link's bandwidth, which is what copies of pinned host memory and copies within or
 * between devices reach; a copy of pageable host memory (any host memory not from {@code allocateHost}, which is
 * pinned on CUDA) goes as many times slower as the device model's pageable copy of its size takes longer than its
 * pinned one in that direction (bytes beyond the host's cache may go slower still, {@link LinkSpec}). The latency is
 * the model's for the kind of copy, or the builder's when one was set for all copies.
 *
 * @param latencyNanos fixed cost before the copy moves bytes
 * @param slowdown     link service per byte, at least 1
 */
record CopyCost(long latencyNanos, double slowdown) {
    CopyCost {
        if (latencyNanos < 0 || !(slowdown >= 1)) {
            throw new IllegalArgumentException("invalid copy cost: latency " + latencyNanos + " ns, slowdown "
                    + slowdown);
        }
    }

    /** A copy of {@code bytes} between the host and a device ({@code toDevice} or not), of pinned host memory or not. */
    static CopyCost host(CopySpec copies, boolean toDevice, boolean pinned, long bytes, long fixedLatencyNanos) {
        LinkSpec spec = copies.host(toDevice, pinned);
        LinkSpec pinnedSpec = copies.host(toDevice, true);
        double size = Math.max(1, bytes);
        double slowdown = Math.max(1, spec.transferNanos(size) / pinnedSpec.transferNanos(size));
        return new CopyCost(latency(spec, fixedLatencyNanos), slowdown);
    }

    /** A copy within a device or between two. */
    static CopyCost device(CopySpec copies, long fixedLatencyNanos) {
        return new CopyCost(latency(copies.deviceToDevice(), fixedLatencyNanos), 1);
    }

    /** This cost with {@code nanos} more latency: a route between nodes adds the network's. */
    CopyCost plusLatency(long nanos) {
        return nanos == 0 ? this : new CopyCost(latencyNanos + nanos, slowdown);
    }

    private static long latency(LinkSpec spec, long fixedLatencyNanos) {
        return fixedLatencyNanos >= 0 ? fixedLatencyNanos : Math.round(spec.latencyNs());
    }
}
