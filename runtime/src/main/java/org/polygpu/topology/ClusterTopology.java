package org.polygpu.topology;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cluster for the emulator: {@code nodes} copies of an 8-GPU node preset joined by a {@link NetworkLink}, named
 * {@code <nodes>x<node preset>}, for example {@code 4xh100x8} (32 H100s, 400 Gb/s per GPU) or {@code 2xv100x8}.
 *
 * <p>GPU {@code g} is GPU {@code g % 8} of node {@code g / 8}. Its bandwidth matrix keeps the node preset's links
 * between GPUs of one node and each GPU's host link (the host link of each GPU is its node's); between GPUs of two
 * nodes it has the NIC's rate, so that the policies see a remote device as a device behind a slower link. The
 * emulator also makes transfers between nodes share their NICs and pay the network's latency, which a matrix cannot
 * say ({@link #nic}, {@link #node}).
 *
 * @param nodes      how many nodes, 1 to {@value #MAX_NODES}
 * @param nodePreset the preset of every node: {@code v100x8}, {@code a100x8} or {@code h100x8}
 * @param network    the NIC between nodes
 */
public record ClusterTopology(int nodes, String nodePreset, NetworkLink network) {
    /** The node presets a cluster may be made of. */
    public static final List<String> NODE_PRESETS = List.of("v100x8", "a100x8", "h100x8");
    /** GPUs per node of every node preset. */
    public static final int GPUS_PER_NODE = 8;
    /** Bounds a cluster at 1024 GPUs, the most a bandwidth matrix file may list. */
    public static final int MAX_NODES = 128;
    private static final Pattern NAME = Pattern.compile("(\\d+)x(.*)");

    public ClusterTopology {
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("a cluster has 1.." + MAX_NODES + " nodes, got " + nodes);
        }
        if (!NODE_PRESETS.contains(nodePreset)) {
            throw new IllegalArgumentException("unknown cluster node preset '" + nodePreset + "'; nodes are one of "
                    + String.join(", ", NODE_PRESETS));
        }
        if (network == null) {
            throw new IllegalArgumentException("a cluster needs a network link");
        }
    }

    /** Whether {@code name} is written as a cluster ({@code <digits>x...}), valid or not. */
    public static boolean isClusterName(String name) {
        return NAME.matcher(name).matches();
    }

    /** The cluster {@code name} describes when it is written as one, or empty for any other topology name. */
    public static Optional<ClusterTopology> ofName(String name) {
        return isClusterName(name) ? Optional.of(parse(name)) : Optional.empty();
    }

    /**
     * Reads {@code <nodes>x<node preset>}, with the node preset's NIC ({@link NetworkLink#forNodePreset}).
     *
     * @throws IllegalArgumentException naming the syntax and the valid node presets when {@code name} is not one
     */
    public static ClusterTopology parse(String name) {
        Matcher m = NAME.matcher(name);
        String syntax = "; a cluster topology is <nodes>x<node preset> with 1.." + MAX_NODES + " nodes of "
                + String.join(", ", NODE_PRESETS) + ", for example 4xh100x8";
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid cluster topology '" + name + "'" + syntax);
        }
        int nodes;
        try {
            nodes = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid cluster topology '" + name + "': too many nodes" + syntax, e);
        }
        if (nodes < 1 || nodes > MAX_NODES || !NODE_PRESETS.contains(m.group(2))) {
            throw new IllegalArgumentException("invalid cluster topology '" + name + "'" + syntax);
        }
        return new ClusterTopology(nodes, m.group(2), NetworkLink.forNodePreset(m.group(2)));
    }

    /** The name {@link #parse} reads back. */
    public String name() {
        return nodes + "x" + nodePreset;
    }

    public int gpuCount() {
        return nodes * GPUS_PER_NODE;
    }

    /** The node GPU {@code gpu} belongs to. */
    public int node(int gpu) {
        return gpu / GPUS_PER_NODE;
    }

    /** The NIC, numbered over the whole cluster, through which GPU {@code gpu} reaches other nodes. */
    public int nic(int gpu) {
        return gpu / network.gpusPerNic();
    }

    /** NICs in the whole cluster. */
    public int nicCount() {
        return (gpuCount() + network.gpusPerNic() - 1) / network.gpusPerNic();
    }

    /**
     * The cluster's bandwidth matrix: the node preset's as written, or floored and averaged as the policies read it
     * ({@link BandwidthMatrixLoader}); between nodes the NIC's rate, floored too in the policies' view.
     */
    BandwidthMatrix matrix(boolean floor) {
        BandwidthMatrix node = BandwidthMatrixLoader.preset(nodePreset, floor);
        int gpus = gpuCount();
        double between = floor ? Math.floor(network.gigabytesPerSecond()) : network.gigabytesPerSecond();
        double[][] m = new double[gpus + 1][gpus + 1];
        for (int i = 0; i < gpus; i++) {
            for (int j = 0; j < gpus; j++) {
                m[i][j] = node(i) == node(j) ? node.bandwidth(i % GPUS_PER_NODE, j % GPUS_PER_NODE) : between;
            }
            m[i][gpus] = node.bandwidth(i % GPUS_PER_NODE, node.hostIndex());
            m[gpus][i] = node.bandwidth(node.hostIndex(), i % GPUS_PER_NODE);
        }
        return new BandwidthMatrix(m);
    }

    /** The matrix the emulator's links carry: as written, not floored. */
    public BandwidthMatrix linkMatrix() {
        return matrix(false);
    }

    /** The matrix the policies read: floored and averaged. */
    public BandwidthMatrix policyMatrix() {
        return matrix(true);
    }
}
