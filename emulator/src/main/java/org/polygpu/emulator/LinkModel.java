package org.polygpu.emulator;

import java.util.Comparator;
import java.util.PriorityQueue;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.ClusterTopology;

/**
 * The fluid model of the interconnect: one directed link per ordered pair of locations (each device and the host),
 * with the bandwidth of the matrix entry. At every instant the transfers active on a link share its bandwidth
 * equally, each progressing at {@code bandwidth / active}; links are independent of one another.
 *
 * <p>Equal sharing makes every active transfer on a link receive the same service, so a link keeps one cumulative
 * per-transfer service counter and each transfer the counter value at which it is done; transfers finish in order
 * of that target, found with a priority queue. Joining or finishing costs O(log k) for k active transfers.
 *
 * <p>In a cluster ({@link ClusterTopology}) the GPUs of two different nodes are joined instead by a route through
 * the {@link NetworkFabric}, where transfers share the sender's and the receiver's NICs and pay the network's latency.
 *
 * <p>GB/s equals bytes per nanosecond, so bandwidths are used as they are.
 */
final class LinkModel {
    private final Link[][] links;
    private final int host;

    /** The links of {@code matrix}, each pair its own. */
    LinkModel(BandwidthMatrix matrix) {
        this(matrix, null);
    }

    /**
     * The links of {@code matrix}, whose GPUs are the first of {@code clusterOrNull}'s when it is not null: then GPUs
     * of different nodes are joined through one {@link NetworkFabric}.
     */
    LinkModel(BandwidthMatrix matrix, ClusterTopology clusterOrNull) {
        int locations = matrix.gpuCount() + 1;
        this.host = matrix.hostIndex();
        this.links = new Link[locations][locations];
        NetworkFabric fabric = clusterOrNull == null ? null : new NetworkFabric(clusterOrNull);
        for (int from = 0; from < locations; from++) {
            for (int to = 0; to < locations; to++) {
                boolean remote = fabric != null && from != host && to != host
                        && clusterOrNull.node(from) != clusterOrNull.node(to);
                links[from][to] = remote ? fabric.route(from, to) : new PairLink(from, to, matrix.bandwidth(from, to));
            }
        }
    }

    /** The link from {@code source} to {@code destination}, each a device or {@code -1} for the host. */
    Link link(int source, int destination) {
        return links[source < 0 ? host : source][destination < 0 ? host : destination];
    }

    /**
     * Where a transfer moves its bytes; the {@link Simulation} joins transfers to it and finishes them when it says.
     * A link's {@link #version()} changes whenever its predicted next completion does.
     */
    sealed interface Link permits PairLink, NetworkFabric.Route {
        /** The rate of the link when it carries one transfer, GB/s. */
        double bandwidthGbps();

        /** What a copy on this link waits besides its own latency before moving bytes: the network's, or 0. */
        long latencyNanos();

        long version();

        /** {@code transfer} starts moving its bytes at {@code now}; returns the new prediction's version. */
        long join(LinkTransfer transfer, long now);

        /** The transfer predicted to finish first, or {@code null} when idle. */
        LinkTransfer next();

        /** When {@link #next()} finishes if nothing joins before, given the state at {@code now}. */
        long nextCompletion(long now);

        /** Removes the first transfer, done at {@code now}; returns it and bumps the version. */
        LinkTransfer finishNext(long now);
    }

    /** One directed link of a pair of locations and the transfers active on it. */
    static final class PairLink implements Link {
        private static final Comparator<LinkTransfer> BY_TARGET = Comparator
                .comparingDouble((LinkTransfer t) -> t.serviceTarget()).thenComparingLong(LinkTransfer::sequence);

        private final int from;
        private final int to;
        private final double bytesPerNano;
        private final PriorityQueue<LinkTransfer> active = new PriorityQueue<>(BY_TARGET);
        /** Bytes every transfer active since the link was last idle has received; reset when the link idles. */
        private double service;
        private long lastUpdateNanos;
        /** Changes whenever the predicted next completion does, so that stale predictions can be ignored. */
        private long version;

        private PairLink(int from, int to, double bandwidthGbps) {
            this.from = from;
            this.to = to;
            this.bytesPerNano = bandwidthGbps;
        }

        @Override
        public double bandwidthGbps() {
            return bytesPerNano;
        }

        @Override
        public long latencyNanos() {
            return 0;
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public long join(LinkTransfer transfer, long now) {
            advance(now);
            transfer.serviceTarget(service + transfer.serviceBytes());
            active.add(transfer);
            return ++version;
        }

        @Override
        public LinkTransfer next() {
            return active.peek();
        }

        @Override
        public long nextCompletion(long now) {
            LinkTransfer head = active.peek();
            double remaining = Math.max(0, head.serviceTarget() - serviceAt(now));
            return now + VirtualTime.ceilNanos(remaining * active.size() / bytesPerNano);
        }

        @Override
        public LinkTransfer finishNext(long now) {
            advance(now);
            LinkTransfer done = active.poll();
            if (active.isEmpty()) {
                service = 0; // rebase so the counter does not lose precision over a long run
            }
            version++;
            return done;
        }

        private void advance(long now) {
            service = serviceAt(now);
            lastUpdateNanos = now;
        }

        private double serviceAt(long now) {
            if (active.isEmpty()) {
                return service;
            }
            return service + (now - lastUpdateNanos) * bytesPerNano / active.size();
        }

        @Override
        public String toString() {
            return "link from location " + from + " to location " + to + " (" + bytesPerNano + " GB/s)";
        }
    }
}
