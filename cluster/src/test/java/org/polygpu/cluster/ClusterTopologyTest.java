package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.polygpu.topology.BandwidthMatrix;

class ClusterTopologyTest {
    /** Links within a rank are the rank's; across ranks, the slower of the two devices' host links. */
    @Test
    void ranksKeepTheirLinksAndCrossRankLinksTakeTheSlowerHostLink() {
        BandwidthMatrix rank0 = new BandwidthMatrix(new double[][] {{900, 50, 12}, {50, 900, 11}, {12, 11, 0}});
        BandwidthMatrix rank1 = new BandwidthMatrix(new double[][] {{800, 8}, {9, 0}});
        double[][] m = ClusterTopology.compose(List.of(rank0, rank1)).toArray();
        assertArrayEquals(new double[] {900, 50, 9, 12}, m[0]);
        assertArrayEquals(new double[] {50, 900, 9, 11}, m[1]);
        assertArrayEquals(new double[] {8, 8, 800, 8}, m[2]);
        assertArrayEquals(new double[] {12, 11, 9, 0}, m[3]);
    }
}
