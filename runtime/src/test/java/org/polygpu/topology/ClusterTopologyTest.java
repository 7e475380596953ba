package org.polygpu.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ClusterTopologyTest {
    /** Two V100 nodes: the preset's links within a node, EDR's 12.5 GB/s between nodes, each GPU its node's host link. */
    @Test
    void twoNodeMatrixKeepsTheNodeLinksAndPutsTheNicBetweenNodes() {
        BandwidthMatrix node = BandwidthMatrixLoader.resolveAsWritten("v100x8");
        BandwidthMatrix cluster = BandwidthMatrixLoader.resolveAsWritten("2xv100x8");
        assertEquals(16, cluster.gpuCount());
        for (int i = 0; i < 16; i++) {
            for (int j = 0; j < 16; j++) {
                double expected = i / 8 == j / 8 ? node.bandwidth(i % 8, j % 8) : 12.5;
                assertEquals(expected, cluster.bandwidth(i, j), i + "->" + j);
            }
            assertEquals(node.bandwidth(i % 8, 8), cluster.bandwidth(i, 16), "GPU " + i + " to host");
            assertEquals(node.bandwidth(8, i % 8), cluster.bandwidth(16, i), "host to GPU " + i);
        }
        assertEquals(48.0, Math.floor(cluster.bandwidth(0, 3)), "an NVLink pair of node 0");
        assertEquals(cluster.bandwidth(0, 3), cluster.bandwidth(8, 11), "the same pair on node 1");
    }

    @Test
    void thePoliciesViewIsFlooredAsForAnyPreset() {
        BandwidthMatrix policies = BandwidthMatrixLoader.resolve("2xv100x8");
        BandwidthMatrix node = BandwidthMatrixLoader.resolve("v100x8");
        assertEquals(12.0, policies.bandwidth(0, 8));
        assertEquals(node.bandwidth(2, 5), policies.bandwidth(10, 13));
        assertEquals(node.bandwidth(8, 7), policies.bandwidth(16, 15));
    }

    @Test
    void eachNodePresetHasItsDgxSystemsNic() {
        ClusterTopology h100 = ClusterTopology.parse("4xh100x8");
        assertEquals(32, h100.gpuCount());
        assertEquals(50.0, h100.network().gigabytesPerSecond()); // NDR 400 Gb/s
        assertEquals(50.0, h100.linkMatrix().bandwidth(0, 31));
        assertEquals(32, h100.nicCount());
        ClusterTopology a100 = ClusterTopology.parse("4xa100x8");
        assertEquals(25.0, a100.network().gigabytesPerSecond()); // HDR 200 Gb/s
        ClusterTopology v100 = ClusterTopology.parse("2xv100x8");
        assertEquals(2, v100.network().gpusPerNic()); // DGX-1V: four EDR NICs for eight GPUs
        assertEquals(8, v100.nicCount());
        assertEquals(v100.nic(0), v100.nic(1));
        assertEquals(4, v100.nic(8));
        assertEquals(1, v100.node(15));
        assertEquals(2_000, v100.network().latencyNanos());
        assertEquals("2xv100x8", v100.name());
    }

    @Test
    void onlyDigitsThenXNameACluster() {
        assertTrue(ClusterTopology.isClusterName("8xa100x8"));
        assertFalse(ClusterTopology.isClusterName("v100x8"));
        assertFalse(ClusterTopology.isClusterName("h100x1"));
        assertTrue(ClusterTopology.ofName("v100x8").isEmpty());
        assertEquals(8, ClusterTopology.ofName("8xa100x8").orElseThrow().nodes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0xh100x8", "129xh100x8", "4xh100x1", "4xfoo", "99999999999xv100x8", "4x"})
    void aBadClusterNameIsRefusedWithTheSyntax(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.resolve(name));
        assertTrue(e.getMessage().contains("invalid cluster topology '" + name + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("<nodes>x<node preset>"), e.getMessage());
        assertTrue(e.getMessage().contains("v100x8, a100x8, h100x8"), e.getMessage());
    }

    @Test
    void anUnknownNameListsClustersAmongTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthMatrixLoader.resolve("no-such-topology"));
        assertTrue(e.getMessage().contains("4xh100x8"), e.getMessage());
    }

    @Test
    void aNetworkLinkRefusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new NetworkLink(0, 1, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new NetworkLink(100, 0, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> new NetworkLink(100, 1, -1, "x"));
        assertEquals("NDR InfiniBand, 400 Gb/s per NIC, 1 GPU per NIC, 2000 ns",
                NetworkLink.forNodePreset("h100x8").describe());
        assertThrows(IllegalArgumentException.class, () -> NetworkLink.forNodePreset("h100x1"));
    }
}
