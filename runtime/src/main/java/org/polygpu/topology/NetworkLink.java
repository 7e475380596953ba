package org.polygpu.topology;

/**
 * The network link class of a cluster: the network interface (NIC) through which GPUs of one node reach GPUs of
 * another, as its signalling rate, how many GPUs share one NIC and the latency a transfer between nodes adds.
 * Transfers leaving a NIC share its rate, and so do transfers arriving at one; a NIC is full duplex.
 *
 * <p>The figures of the presets ({@link #forNodePreset}) are the published line rates of the InfiniBand generation
 * each DGX system ships with, one NIC per GPU (DGX A100, DGX H100) or per GPU pair (DGX-1 with V100):
 * <ul>
 *   <li>{@code v100x8}: EDR, 100 Gb/s, four NICs for eight GPUs (DGX-1V);</li>
 *   <li>{@code a100x8}: HDR, 200 Gb/s, one ConnectX-6 per GPU (DGX A100);</li>
 *   <li>{@code h100x8}: NDR, 400 Gb/s, one ConnectX-7 per GPU (DGX H100).</li>
 * </ul>
 * The latency, {@value #DEFAULT_LATENCY_NANOS} ns, is what a message between GPUs of two nodes takes over
 * InfiniBand with GPUDirect RDMA beyond a copy within a node: small-message device-to-device latencies of MPI over
 * EDR to NDR are reported between 1.5 and 3 us (OSU micro-benchmarks); the figure is that range's middle, not a
 * measurement of ours.
 *
 * @param gigabitsPerSecond the NIC's line rate in Gb/s, positive
 * @param gpusPerNic        GPUs of a node that share one NIC, at least 1
 * @param latencyNanos      what a transfer between nodes adds to a copy's latency, non-negative
 * @param name              the InfiniBand generation or another name, quoted in descriptions
 */
public record NetworkLink(double gigabitsPerSecond, int gpusPerNic, long latencyNanos, String name) {
    /** The latency between nodes the presets assume. */
    public static final long DEFAULT_LATENCY_NANOS = 2_000;

    public NetworkLink {
        if (!(gigabitsPerSecond > 0) || Double.isInfinite(gigabitsPerSecond)) {
            throw new IllegalArgumentException("a network link needs a positive, finite rate in Gb/s, got "
                    + gigabitsPerSecond);
        }
        if (gpusPerNic < 1) {
            throw new IllegalArgumentException("a NIC serves at least one GPU, got " + gpusPerNic);
        }
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("a network link's latency must be non-negative, got " + latencyNanos);
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a network link needs a name");
        }
    }

    /**
     * The NIC of the DGX system a node preset describes ({@code v100x8}, {@code a100x8}, {@code h100x8}).
     *
     * @throws IllegalArgumentException naming the presets that have one when {@code nodePreset} is not among them
     */
    public static NetworkLink forNodePreset(String nodePreset) {
        return switch (nodePreset) {
            case "v100x8" -> new NetworkLink(100, 2, DEFAULT_LATENCY_NANOS, "EDR InfiniBand");
            case "a100x8" -> new NetworkLink(200, 1, DEFAULT_LATENCY_NANOS, "HDR InfiniBand");
            case "h100x8" -> new NetworkLink(400, 1, DEFAULT_LATENCY_NANOS, "NDR InfiniBand");
            default -> throw new IllegalArgumentException("no network link is known for node preset '" + nodePreset
                    + "'; cluster nodes are one of " + String.join(", ", ClusterTopology.NODE_PRESETS));
        };
    }

    /** The NIC's rate in GB/s (bytes per nanosecond), the unit of the bandwidth matrix. */
    public double gigabytesPerSecond() {
        return gigabitsPerSecond / 8;
    }

    /** For example {@code NDR InfiniBand, 400 Gb/s per NIC, 1 GPU per NIC, 2000 ns}. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s, %s Gb/s per NIC, %d GPU%s per NIC, %d ns", name,
                gigabitsPerSecond == Math.rint(gigabitsPerSecond) ? Long.toString((long) gigabitsPerSecond)
                        : Double.toString(gigabitsPerSecond), gpusPerNic, gpusPerNic == 1 ? "" : "s", latencyNanos);
    }
}
