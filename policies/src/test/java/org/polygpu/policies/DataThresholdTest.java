package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.policies.Fixtures.HOST;
import static org.polygpu.policies.Fixtures.arg;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.polygpu.sched.spi.DeviceSelectionPolicy;
import org.polygpu.sched.spi.SelectionRequest;

/**
 * The exploration threshold shared by the data-aware policies: a device must hold strictly more than 10% of the
 * argument bytes to count as holding data; when none does, the policy rotates round-robin.
 */
class DataThresholdTest {
    private static final int DEVICES = 3;

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (String policy : new String[] {"min-transfer-size", "minmin-transfer-time", "minmax-transfer-time"}) {
            b.add(Arguments.of(policy, "all data on the host only", new Fixtures.Arg[] {
                arg(60, HOST), arg(40, HOST)}, new int[] {0, 1, 2, 0}));
            b.add(Arguments.of(policy, "device 1 holds exactly 10%", new Fixtures.Arg[] {
                arg(10, 1, HOST), arg(90, HOST)}, new int[] {0, 1, 2, 0}));
            b.add(Arguments.of(policy, "devices 0 and 2 hold 10% each", new Fixtures.Arg[] {
                arg(10, 0), arg(10, 2), arg(80, HOST)}, new int[] {0, 1, 2, 0}));
            b.add(Arguments.of(policy, "fresh arrays only", new Fixtures.Arg[] {
                arg(100), arg(50)}, new int[] {0, 1, 2, 0}));
            b.add(Arguments.of(policy, "no arguments", new Fixtures.Arg[0], new int[] {0, 1, 2, 0}));
            b.add(Arguments.of(policy, "device 2 holds 11%", new Fixtures.Arg[] {
                arg(11, 2), arg(89, HOST)}, new int[] {2, 2, 2, 2}));
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void devicesAtOrBelowTheThresholdCountAsHoldingNothing(String policy, String what, Fixtures.Arg[] args,
            int[] expected) {
        SelectionRequest request = Fixtures.request(DEVICES, args);
        assertArrayEquals(expected, Fixtures.sequence(Fixtures.policy(policy, DEVICES), request, DEVICES, 4));
    }

    // Each data-aware policy owns its round-robin fallback: decisions made on data do not move its cursor.
    @ParameterizedTest
    @ValueSource(strings = {"min-transfer-size", "minmin-transfer-time", "minmax-transfer-time"})
    void fallbackRotationIsUnaffectedByDataDrivenChoices(String name) {
        DeviceSelectionPolicy policy = Fixtures.policy(name, DEVICES);
        SelectionRequest onHost = Fixtures.request(DEVICES, arg(100, HOST));
        SelectionRequest onDevice2 = Fixtures.request(DEVICES, arg(100, 2));
        int[] picked = {
            policy.select(onHost, ofBits(-1L)), policy.select(onDevice2, ofBits(-1L)),
            policy.select(onDevice2, ofBits(-1L)), policy.select(onHost, ofBits(-1L)),
            policy.select(onHost, ofBits(-1L)), policy.select(onHost, ofBits(-1L)),
        };
        assertArrayEquals(new int[] {0, 2, 2, 1, 2, 0}, picked);
        // A separate round-robin policy is not disturbed either.
        assertEquals(0, Fixtures.policy("round-robin", DEVICES).select(onHost, ofBits(-1L)));
    }

    // Data on a device that is not a candidate does not count: the candidates fall back to round-robin.
    @ParameterizedTest
    @ValueSource(strings = {"min-transfer-size", "minmin-transfer-time", "minmax-transfer-time"})
    void dataOnlyOnNonCandidatesFallsBackAmongTheCandidates(String name) {
        DeviceSelectionPolicy policy = Fixtures.policy(name, DEVICES);
        SelectionRequest request = Fixtures.request(DEVICES, arg(100, 0));
        assertArrayEquals(new int[] {1, 2, 1}, new int[] {
            policy.select(request, ofBits(0b110)), policy.select(request, ofBits(0b110)),
            policy.select(request, ofBits(0b110))});
    }
}
