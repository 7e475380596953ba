package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.sched.spi.SelectionRequest;

/** The policies that ignore data: {@code stream-aware} and {@code single-gpu}. */
class LoadPoliciesTest {
    static Stream<Arguments> busyStreams() {
        return Stream.of(
                Arguments.of(new int[] {3, 1, 2}, -1L, 1),
                Arguments.of(new int[] {0, 0, 0}, -1L, 0),
                Arguments.of(new int[] {4, 2, 2, 5}, -1L, 1),
                Arguments.of(new int[] {4, 2, 2, 5}, 0b1101L, 2),
                Arguments.of(new int[] {0, 7, 1, 0}, 0b1110L, 3),
                Arguments.of(new int[] {9, 9}, 0b10L, 1));
    }

    // Stream-aware picks the candidate with the fewest busy streams, ties to the lowest index.
    @ParameterizedTest(name = "busy {0}, candidates {1} -> {2}")
    @MethodSource("busyStreams")
    void streamAwarePicksTheLeastBusyCandidate(int[] busy, long candidates, int expected) {
        int devices = busy.length;
        assertEquals(expected, Fixtures.policy("stream-aware", devices)
                .select(Fixtures.request(devices, busy, Fixtures.arg(100, 0)), ofBits(candidates)));
    }

    /**
     * GrCUDA's {@code GrCUDAStreamPolicyMockTest.testStreamAwareRetrieve}: each chosen device then gets busy streams
     * (1 on device 0, 2 on device 1, 1 on 2 and 3), and the next choice avoids it; over the subsets {2, 3} and {0, 1}
     * the tie and the lesser load win.
     */
    @Test
    void streamAwareFollowsGrcudasRetrieveSequence() {
        var policy = Fixtures.policy("stream-aware", 4);
        int[] busy = new int[4];
        int[] added = {1, 2, 1, 1};
        int[] picked = new int[6];
        for (int i = 0; i < 4; i++) {
            picked[i] = policy.select(Fixtures.request(4, busy.clone()), ofBits(-1L));
            busy[picked[i]] += added[i];
        }
        picked[4] = policy.select(Fixtures.request(4, busy.clone()), ofBits(0b1100L));
        picked[5] = policy.select(Fixtures.request(4, busy.clone()), ofBits(0b0011L));
        assertArrayEquals(new int[] {0, 1, 2, 3, 2, 0}, picked);
    }

    static Stream<Arguments> currentDevice() {
        return Stream.of(
                Arguments.of(1, -1L, 1),
                Arguments.of(1, 0b010L, 1),
                Arguments.of(1, 0b101L, 0),
                Arguments.of(1, 0b100L, 2),
                Arguments.of(2, 0b011L, 0));
    }

    // Single-GPU keeps the current device while it is a candidate, else takes the lowest candidate.
    @ParameterizedTest(name = "current {0}, candidates {1} -> {2}")
    @MethodSource("currentDevice")
    void singleGpuKeepsTheCurrentDevice(int current, long candidates, int expected) {
        var policy = new SingleGpuPolicy.Provider().create(Fixtures.settings(3));
        SelectionRequest r = Fixtures.request(3, Fixtures.arg(8, 1));
        SelectionRequest request = new SelectionRequest(r.argumentBytes(), r.validLocations(), r.busyStreams(),
                current);
        for (int i = 0; i < 3; i++) {
            assertEquals(expected, policy.select(request, ofBits(candidates)));
        }
    }
}
