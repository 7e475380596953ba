package org.polygpu.emulator;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.topology.ClusterTopology;

/**
 * The network between the nodes of a cluster: every transfer between GPUs of two nodes leaves through the sender's
 * NIC and arrives through the receiver's ({@link ClusterTopology#nic}), each NIC full duplex at the network link's
 * rate. At every instant a transfer progresses at the smaller of its two NICs' shares: {@code rate / transfers
 * leaving its sending NIC} and {@code rate / transfers arriving at its receiving NIC}. So two transfers from one GPU
 * to two other nodes each get half its NIC, as do two transfers to one GPU from two other nodes, while transfers
 * between disjoint NIC pairs do not slow each other.
 *
 * <p>The whole fabric is one link to the {@link Simulation}: each ordered pair of GPUs on different nodes is a
 * {@link Route} into it, and the fabric predicts its first completion over all its transfers. Each join or
 * completion advances every active transfer and costs O(k) for k active transfers, few in a cluster of 64 GPUs.
 *
 * <p>Not thread-safe: driven by the simulation's single thread.
 */
final class NetworkFabric {
    private final ClusterTopology cluster;
    private final double bytesPerNano;
    private final int[] leaving;
    private final int[] arriving;
    private final List<Flow> active = new ArrayList<>();
    private long lastUpdateNanos;
    private long version;

    NetworkFabric(ClusterTopology cluster) {
        this.cluster = cluster;
        this.bytesPerNano = cluster.network().gigabytesPerSecond();
        this.leaving = new int[cluster.nicCount()];
        this.arriving = new int[cluster.nicCount()];
    }

    /** The route from GPU {@code from} to GPU {@code to}, on different nodes. */
    Route route(int from, int to) {
        if (cluster.node(from) == cluster.node(to)) {
            throw new IllegalArgumentException("GPUs " + from + " and " + to + " are on one node; no network route");
        }
        return new Route(cluster.nic(from), cluster.nic(to), from, to);
    }

    /** A transfer on the fabric: its NICs and the link service it still needs. */
    private static final class Flow {
        final LinkTransfer transfer;
        final int fromNic;
        final int toNic;
        double remaining;

        Flow(LinkTransfer transfer, int fromNic, int toNic) {
            this.transfer = transfer;
            this.fromNic = fromNic;
            this.toNic = toNic;
            this.remaining = transfer.serviceBytes();
        }
    }

    private long join(LinkTransfer transfer, int fromNic, int toNic, long now) {
        advance(now);
        active.add(new Flow(transfer, fromNic, toNic));
        leaving[fromNic]++;
        arriving[toNic]++;
        return ++version;
    }

    private Flow head() {
        Flow first = null;
        double firstTime = Double.POSITIVE_INFINITY;
        for (Flow f : active) {
            double time = Math.max(0, f.remaining) / rate(f);
            if (time < firstTime || time == firstTime && f.transfer.sequence() < first.transfer.sequence()) {
                first = f;
                firstTime = time;
            }
        }
        return first;
    }

    private long nextCompletion(long now) {
        Flow head = head();
        double remaining = Math.max(0, head.remaining - (now - lastUpdateNanos) * rate(head));
        return now + VirtualTime.ceilNanos(remaining / rate(head));
    }

    private LinkTransfer finishNext(long now) {
        advance(now);
        Flow done = head();
        active.remove(done);
        leaving[done.fromNic]--;
        arriving[done.toNic]--;
        version++;
        return done.transfer;
    }

    private void advance(long now) {
        for (Flow f : active) {
            f.remaining -= (now - lastUpdateNanos) * rate(f);
        }
        lastUpdateNanos = now;
    }

    private double rate(Flow f) {
        return bytesPerNano / Math.max(leaving[f.fromNic], arriving[f.toNic]);
    }

    /** The fabric as seen from one ordered pair of GPUs on different nodes. */
    final class Route implements LinkModel.Link {
        private final int fromNic;
        private final int toNic;
        private final int fromGpu;
        private final int toGpu;

        private Route(int fromNic, int toNic, int fromGpu, int toGpu) {
            this.fromNic = fromNic;
            this.toNic = toNic;
            this.fromGpu = fromGpu;
            this.toGpu = toGpu;
        }

        @Override
        public double bandwidthGbps() {
            return bytesPerNano;
        }

        @Override
        public long latencyNanos() {
            return cluster.network().latencyNanos();
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public long join(LinkTransfer transfer, long now) {
            return NetworkFabric.this.join(transfer, fromNic, toNic, now);
        }

        @Override
        public LinkTransfer next() {
            Flow head = head();
            return head == null ? null : head.transfer;
        }

        @Override
        public long nextCompletion(long now) {
            return NetworkFabric.this.nextCompletion(now);
        }

        @Override
        public LinkTransfer finishNext(long now) {
            return NetworkFabric.this.finishNext(now);
        }

        @Override
        public String toString() {
            return "network route from GPU " + fromGpu + " (NIC " + fromNic + ") to GPU " + toGpu + " (NIC " + toNic
                    + "), " + cluster.network().describe();
        }
    }
}
