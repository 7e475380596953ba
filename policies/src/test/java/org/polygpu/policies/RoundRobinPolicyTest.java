package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.SelectionRequest;

class RoundRobinPolicyTest {
    private static final long ALL = -1L;

    static Stream<Arguments> rotations() {
        return Stream.of(
                Arguments.of(1, new long[] {ALL, ALL, ALL}, new int[] {0, 0, 0}),
                Arguments.of(2, new long[] {ALL, ALL, ALL, ALL, ALL}, new int[] {0, 1, 0, 1, 0}),
                Arguments.of(3, new long[] {ALL, ALL, ALL, ALL, ALL, ALL, ALL}, new int[] {0, 1, 2, 0, 1, 2, 0}),
                Arguments.of(4, new long[] {ALL, ALL, ALL, ALL, ALL, ALL}, new int[] {0, 1, 2, 3, 0, 1}),
                // Only devices 1 and 3 are ever candidates: they alternate.
                Arguments.of(4, new long[] {0b1010, 0b1010, 0b1010, 0b1010}, new int[] {1, 3, 1, 3}),
                // Over a subset, the cursor (one step per choice) indexes the sorted candidates, as GrCUDA does.
                Arguments.of(4, new long[] {ALL, 0b1100, ALL, ALL, 0b0010, 0b0011, ALL},
                        new int[] {0, 3, 2, 3, 1, 1, 2}),
                Arguments.of(3, new long[] {ALL, ALL, 0b001, ALL}, new int[] {0, 1, 0, 0}),
                // GrCUDA's GrCUDAStreamPolicyMockTest.roundRobinTest, its candidate lists as masks.
                Arguments.of(4, new long[] {ALL, ALL, ALL, ALL, ALL, 0b0001, ALL, 0b1000, ALL, 0b1010, 0b0110, 0b0011},
                        new int[] {0, 1, 2, 3, 0, 0, 2, 3, 0, 3, 1, 1}),
                Arguments.of(3, new long[] {0b100, 0b011, 0b100, 0b100}, new int[] {2, 1, 2, 2}));
    }

    @ParameterizedTest(name = "{0} devices, masks {1}")
    @MethodSource("rotations")
    void rotatesOverTheCandidates(int devices, long[] masks, int[] expected) {
        DeviceSelectionPolicy policy = Fixtures.policy("round-robin", devices);
        SelectionRequest request = Fixtures.request(devices);
        int[] picked = new int[masks.length];
        for (int i = 0; i < masks.length; i++) {
            picked[i] = policy.select(request, ofBits(masks[i]));
        }
        assertArrayEquals(expected, picked);
    }
}
