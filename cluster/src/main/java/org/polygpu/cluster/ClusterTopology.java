package org.polygpu.cluster;

import java.util.List;

import org.polygpu.topology.BandwidthMatrix;

/**
 * The bandwidth matrix of a whole job from each rank's own matrix, until {@code profile-interconnect} measures the
 * links between ranks: devices of one rank keep their rank's links; a link between devices of two ranks, or between
 * a device and rank 0's host, goes device → host → network → host → device, so it is taken as the slower of the two
 * devices' links to their own hosts (the network is assumed no slower than either). The host is rank 0's.
 */
final class ClusterTopology {
    private ClusterTopology() {
    }

    /** @param ranks each rank's matrix (its host last), rank 0 first */
    static BandwidthMatrix compose(List<BandwidthMatrix> ranks) {
        int total = ranks.stream().mapToInt(BandwidthMatrix::gpuCount).sum();
        int[] rankOf = new int[total];
        int[] localOf = new int[total];
        int d = 0;
        for (int r = 0; r < ranks.size(); r++) {
            for (int i = 0; i < ranks.get(r).gpuCount(); i++, d++) {
                rankOf[d] = r;
                localOf[d] = i;
            }
        }
        double[][] m = new double[total + 1][total + 1];
        for (int i = 0; i < total; i++) {
            BandwidthMatrix ri = ranks.get(rankOf[i]);
            for (int j = 0; j < total; j++) {
                BandwidthMatrix rj = ranks.get(rankOf[j]);
                m[i][j] = rankOf[i] == rankOf[j] ? ri.bandwidth(localOf[i], localOf[j])
                        : Math.min(ri.bandwidth(localOf[i], ri.hostIndex()), rj.bandwidth(rj.hostIndex(), localOf[j]));
            }
            m[i][total] = ri.bandwidth(localOf[i], ri.hostIndex());
            m[total][i] = ri.bandwidth(ri.hostIndex(), localOf[i]);
        }
        return new BandwidthMatrix(m);
    }
}
