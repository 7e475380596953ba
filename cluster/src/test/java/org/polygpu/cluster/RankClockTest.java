package org.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Backend;
import org.polygpu.backend.EventHandle;
import org.polygpu.backend.StreamHandle;
import org.polygpu.emulator.EmulatedBackend;
import org.polygpu.topology.BandwidthMatrix;
import org.polygpu.topology.NetworkLink;

class RankClockTest {
    private static final NetworkLink EDR = NetworkLink.forNodePreset("v100x8");

    @Test
    void aMessageArrivesAfterTheLatencyAndItsBytesAtTheLinksRate() {
        // EDR: 100 Gb/s = 12.5 bytes per ns, 2 000 ns of latency.
        assertEquals(1_000 + 2_000 + 1_000_000, RankClock.arrival(1_000, 12_500_000, EDR));
        assertEquals(2_000, RankClock.arrival(0, 0, EDR));
        assertEquals(2_001, RankClock.arrival(0, 1, EDR)); // rounded up to a whole nanosecond
    }

    @Test
    void aNegativeTimeOrSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RankClock.arrival(-1, 0, EDR));
        assertThrows(IllegalArgumentException.class, () -> RankClock.arrival(0, -1, EDR));
    }

    @Test
    void chunksLeaveWhenReadyAndTheNicIsFreeAndArriveAfterTheLatency() {
        // 12 500 bytes take 1 000 ns on EDR's NIC; the second chunk waits for the NIC, the third for its data.
        assertArrayEquals(new long[] {3_000, 4_000, 8_000},
                RankClock.arrivals(new long[] {0, 500, 5_000}, 37_500, 12_500, EDR));
        // One ready time for all chunks: the last arrives as the whole message would.
        long[] together = RankClock.arrivals(new long[] {0}, 30_000, 12_500, EDR);
        assertArrayEquals(new long[] {3_000, 4_000, 4_400}, together);
        assertEquals(RankClock.arrival(0, 30_000, EDR), together[2]);
        assertThrows(IllegalArgumentException.class, () -> RankClock.arrivals(new long[] {0, 1}, 37_500, 12_500,
                EDR));
    }

    @Test
    void anEmulatedRanksNicIsThatOfTheDgxSystemOfItsDeviceModel() {
        assertEquals(400, RankClock.network("NVIDIA H100 80GB HBM3 (emulated)").gigabitsPerSecond());
        assertEquals(200, RankClock.network("NVIDIA A100-SXM4-40GB (emulated)").gigabitsPerSecond());
        assertEquals(100, RankClock.network("Tesla V100-SXM2-16GB (emulated)").gigabitsPerSecond());
        assertEquals(100, RankClock.network("a model of one's own").gigabitsPerSecond());
    }

    @Test
    void onAnEmulatedRankAMessageHoldsTheStreamUntilItArrived() {
        try (LockedBackend b = new LockedBackend(EmulatedBackend.builder().topology(new BandwidthMatrix(
                new double[][] {{100, 10}, {10, 0}})).hostApiNanos(0).build())) {
            RankClock clock = RankClock.of(b);
            assertTrue(clock.isVirtual());
            StreamHandle s = b.createStream(0);
            assertEquals(0, clock.streamTime(s));
            clock.holdForMessage(s, RankClock.NONE, 1 << 20); // carried no time: holds nothing
            assertEquals(0, clock.streamTime(s));
            clock.holdForMessage(s, 10_000, 12_500);
            assertEquals(10_000 + 2_000 + 1_000, clock.streamTime(s));
            clock.holdForMessage(s, 5_000, 0); // already passed on this stream
            assertEquals(13_000, clock.streamTime(s));
            clock.holdHostForMessage(20_000); // the host goes on once the answer has arrived
            assertEquals(22_000, b.hostNanos());
            clock.holdForData(s, new long[] {30_000}, 25_000); // 2 000 ns on the NIC
            assertEquals(34_000, clock.streamTime(s));
        }
    }

    @Test
    void onARealClockNothingIsCarriedAndNothingHeld() {
        List<String> calls = new CopyOnWriteArrayList<>();
        Backend real = (Backend) Proxy.newProxyInstance(Backend.class.getClassLoader(), new Class<?>[] {Backend.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "clock" -> Backend.Clock.REAL;
                        case "queryEvent" -> true;
                        case "createEvent" -> (EventHandle) () -> 0;
                        default -> null;
                    };
                });
        RankClock clock = RankClock.of(new LockedBackend(real));
        assertFalse(clock.isVirtual());
        StreamHandle s = new StreamHandle() {
            @Override
            public int device() {
                return 0;
            }

            @Override
            public int id() {
                return 0;
            }
        };
        assertEquals(RankClock.NONE, clock.streamTime(s));
        clock.holdForMessage(s, 10_000, 1 << 20);
        assertTrue(calls.stream().noneMatch(c -> c.equals("createEvent") || c.equals("recordEvent")), calls
                .toString()); // neither the time nor the hold enqueued anything
        assertEquals(RankClock.NONE, clock.drain(s)); // still waits on the host: record, then poll
        assertTrue(calls.containsAll(List.of("createEvent", "recordEvent", "queryEvent", "destroyEvent")), calls
                .toString());
    }
}
