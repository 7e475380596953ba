package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.policies.Fixtures.HOST;
import static org.polygpu.policies.Fixtures.arg;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.LocationSet;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * Among devices a policy rates equally good, a device where the computation fits without evicting wins; a device
 * holding the data still wins over one with room but no data, and the placement-agnostic policies keep theirs.
 */
class MemoryAwarePlacementTest {
    /** A request on 4 idle GPUs whose devices with room are {@code room} (a bit mask). */
    private static SelectionRequest request(long room, Fixtures.Arg... args) {
        SelectionRequest r = Fixtures.request(4, args);
        return new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(), 0,
                SelectionRequest.UNKNOWN_WORK, 0, ofBits(room));
    }

    @ParameterizedTest(name = "{0}: room {1} -> device {2}")
    @CsvSource({
        // Data on devices 0 and 1 alike: the one with room.
        "minmax-transfer-time, 0b1110, 1",
        "minmin-transfer-time, 0b1110, 1",
        "min-transfer-size,    0b1110, 1",
        // Both with room: the policy's own choice, the lowest index.
        "minmax-transfer-time, 0b1111, 0",
        "min-transfer-size,    0b1111, 0",
        // Neither holder has room: still a holder, where the data is, rather than a device with room and no data.
        "minmax-transfer-time, 0b1100, 0",
        "min-transfer-size,    0b1100, 0",
        // Idle devices are equally good for stream-aware: the first with room.
        "stream-aware,         0b1100, 2",
        "stream-aware,         0b1111, 0",
        // Placement-agnostic policies ignore memory.
        "single-gpu,           0b1110, 0",
        "round-robin,          0b1110, 0",
    })
    void devicesWithRoomWinAmongEquallyGoodOnes(String name, String room, int expected) {
        DeviceSelectionPolicy policy = Fixtures.policy(name, 4);
        long mask = Long.parseLong(room.substring(2), 2);
        assertEquals(expected,
                policy.select(request(mask, arg(1000, 0, 1), arg(1000, 0, 1), arg(10, HOST)), ofBits(0b1111)));
    }

    /** With no data above the threshold anywhere, exploration rotates over the devices with room only. */
    @ParameterizedTest
    @CsvSource({"minmax-transfer-time", "minmin-transfer-time", "min-transfer-size"})
    void explorationSkipsDevicesWithoutRoom(String name) {
        DeviceSelectionPolicy policy = Fixtures.policy(name, 4);
        StringBuilder chosen = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            chosen.append(policy.select(request(0b1010, arg(1000, HOST)), ofBits(0b1111)));
        }
        assertEquals("1313", chosen.toString());
    }

    @Test
    void withRoomKeepsTheCandidatesWithRoomOrAllWhenNoneHas() {
        assertEquals(ofBits(0b0110), request(0b0110, arg(1, 0)).withRoom(ofBits(0b1111)));
        assertEquals(ofBits(0b0100), request(0b0110, arg(1, 0)).withRoom(ofBits(0b1100)));
        assertEquals(ofBits(0b0011), request(0b1100, arg(1, 0)).withRoom(ofBits(0b0011)));
        assertEquals(ofBits(0b1111),
                new SelectionRequest(new long[0], new LocationSet[0], new int[4]).withRoom(ofBits(0b1111)));
    }
}
