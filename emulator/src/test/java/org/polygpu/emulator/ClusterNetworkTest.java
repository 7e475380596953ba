package org.polygpu.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.polygpu.backend.DeviceBuffer;
import org.polygpu.backend.OperationLabel;
import org.polygpu.backend.TimedOperation;
import org.polygpu.config.MemoryModel;
import org.polygpu.topology.BandwidthMatrixLoader;
import org.polygpu.topology.ClusterTopology;

/**
 * Copies between the nodes of an emulated cluster: {@code bytes / NIC rate + network latency}, sharing the sending
 * and the receiving NIC. No host API cost and no copy latency of the device model, so that only the network's shows.
 */
class ClusterNetworkTest {
    private static final long MB = 1_000_000;
    private static final long NETWORK_LATENCY = 2_000;

    private static EmulatedBackend cluster(String name) {
        ClusterTopology c = ClusterTopology.parse(name);
        return EmulatedBackend.builder().topology(c.linkMatrix()).cluster(c).hostApiNanos(0).copyLatencyNanos(0)
                .build();
    }

    /** Each copy from GPU {@code pairs[i][0]} to GPU {@code pairs[i][1]} of {@code bytes[i]}, all at time 0. */
    private static List<TimedOperation> copies(EmulatedBackend b, int[][] pairs, long... bytes) {
        b.recordTimeline(true);
        for (int i = 0; i < pairs.length; i++) {
            b.copyDeviceToDevice(b.allocate(pairs[i][0], bytes[i]), b.allocate(pairs[i][1], bytes[i]), bytes[i],
                    b.createStream(pairs[i][1]), new OperationLabel(-1, "c" + i));
        }
        b.synchronizeAll();
        return b.timeline().stream().sorted(Comparator.comparing(op -> op.label().name())).toList();
    }

    @Test
    void aCopyAcrossNodesTakesBytesOverTheNicPlusTheNetworkLatency() {
        try (EmulatedBackend b = cluster("4xh100x8")) {
            TimedOperation op = copies(b, new int[][] {{0, 8}}, MB).getFirst();
            assertEquals(0, op.startNanos());
            assertEquals(MB / 50 + NETWORK_LATENCY, op.endNanos()); // NDR: 400 Gb/s = 50 GB/s
        }
    }

    @Test
    void aCopyWithinANodeKeepsItsNvswitchLinkAndNoNetworkLatency() {
        try (EmulatedBackend b = cluster("2xh100x8")) {
            double nvswitch = BandwidthMatrixLoader.resolveAsWritten("h100x8").bandwidth(1, 2);
            TimedOperation op = copies(b, new int[][] {{9, 10}}, MB).getFirst();
            assertEquals(VirtualTime.ceilNanos(MB / nvswitch), op.endNanos());
        }
    }

    @Test
    void twoCopiesFromOneGpuToTwoNodesShareItsNic() {
        try (EmulatedBackend b = cluster("4xh100x8")) {
            for (TimedOperation op : copies(b, new int[][] {{0, 8}, {0, 16}}, MB, MB)) {
                assertEquals(2 * MB / 50 + NETWORK_LATENCY, op.endNanos(), op.label().name());
            }
        }
    }

    @Test
    void twoCopiesToOneGpuFromTwoNodesShareItsNic() {
        try (EmulatedBackend b = cluster("4xh100x8")) {
            for (TimedOperation op : copies(b, new int[][] {{8, 0}, {16, 0}}, MB, MB)) {
                assertEquals(2 * MB / 50 + NETWORK_LATENCY, op.endNanos(), op.label().name());
            }
        }
    }

    @Test
    void copiesBetweenDisjointNicsDoNotSlowEachOther() {
        try (EmulatedBackend b = cluster("4xh100x8")) {
            for (TimedOperation op : copies(b, new int[][] {{0, 8}, {1, 16}, {2, 24}}, MB, MB, MB)) {
                assertEquals(MB / 50 + NETWORK_LATENCY, op.endNanos(), op.label().name());
            }
        }
    }

    /** Both at 25 GB/s until the short one is done after 40 us; the long one then has 1 MB left at 50 GB/s. */
    @Test
    void theShortCopyLeavesTheWholeNicToTheLongOne() {
        try (EmulatedBackend b = cluster("4xh100x8")) {
            List<TimedOperation> t = copies(b, new int[][] {{0, 8}, {0, 16}}, MB, 2 * MB);
            assertEquals(NETWORK_LATENCY + 40_000, t.get(0).endNanos());
            assertEquals(NETWORK_LATENCY + 60_000, t.get(1).endNanos());
        }
    }

    /** A copy limited by a busy receiving NIC gets its share there; one of the other copies has the rest of its own. */
    @Test
    void aCopyGoesAtItsBusierNicsShare() {
        // 0->8 and 16->8 share NIC 8 (25 GB/s each); 0->24 shares NIC 0 with 0->8, so also 25 GB/s.
        try (EmulatedBackend b = cluster("4xh100x8")) {
            List<TimedOperation> t = copies(b, new int[][] {{0, 8}, {16, 8}, {0, 24}}, MB, MB, MB);
            for (TimedOperation op : t) {
                assertEquals(NETWORK_LATENCY + 40_000, op.endNanos(), op.label().name());
            }
        }
    }

    @Test
    void twoV100sShareOneEdrNic() {
        // DGX-1V: GPUs 0 and 1 leave through one 100 Gb/s NIC, 12.5 GB/s, 6.25 GB/s each.
        try (EmulatedBackend b = cluster("2xv100x8")) {
            for (TimedOperation op : copies(b, new int[][] {{0, 8}, {1, 12}}, MB, MB)) {
                assertEquals(NETWORK_LATENCY + 160_000, op.endNanos(), op.label().name());
            }
        }
    }

    @Test
    void theDeviceModelsCopyLatencyAddsToTheNetworks() {
        ClusterTopology c = ClusterTopology.parse("2xh100x8");
        try (EmulatedBackend b = EmulatedBackend.builder().topology(c.linkMatrix()).cluster(c).hostApiNanos(0)
                .model(DeviceModel.H100).build()) {
            long deviceLatency = Math.round(DeviceModel.H100.copies().deviceToDevice().latencyNs());
            TimedOperation op = copies(b, new int[][] {{3, 11}}, MB).getFirst();
            assertEquals(MB / 50 + NETWORK_LATENCY + deviceLatency, op.endNanos());
        }
    }

    @Test
    void aClusterMustMatchItsTopology() {
        ClusterTopology c = ClusterTopology.parse("2xh100x8");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmulatedBackend.builder()
                .topology(BandwidthMatrixLoader.resolveAsWritten("h100x8")).cluster(c).build());
        assertTrue(e.getMessage().contains("cluster 2xh100x8 has 16"), e.getMessage());
    }

    /** A managed buffer's pages prefetched to another node: the migration's copy latency, the network's, the NIC. */
    @Test
    void aPrefetchToAnotherNodeMovesItsPagesOverTheNetwork() {
        ClusterTopology c = ClusterTopology.parse("2xh100x8");
        try (EmulatedBackend b = EmulatedBackend.builder().topology(c.linkMatrix()).cluster(c).hostApiNanos(0)
                .copyLatencyNanos(0).memoryModel(MemoryModel.MANAGED).build()) {
            b.recordTimeline(true);
            DeviceBuffer m = b.allocateManaged(1L << 20);
            b.prefetch(m, 0, 1L << 20, 2, b.createStream(2), new OperationLabel(1, "populate on 2"));
            b.synchronizeAll();
            b.prefetch(m, 0, 1L << 20, 10, b.createStream(10), new OperationLabel(2, "to 10"));
            b.synchronizeAll();
            TimedOperation moved = b.timeline().getLast();
            assertEquals(1L << 20, moved.bytes());
            assertEquals(2, moved.source());
            assertEquals(NETWORK_LATENCY + VirtualTime.ceilNanos((1L << 20) / 50.0),
                    moved.endNanos() - moved.startNanos());
        }
    }
}
