package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.sched.spi.DeviceSelectionPolicies;

class DeviceSelectionPoliciesTest {
    @Test
    void namesListsTheSevenPoliciesSorted() {
        assertEquals(List.of("earliest-finish-time", "min-transfer-size", "minmax-transfer-time",
                "minmin-transfer-time", "round-robin", "single-gpu", "stream-aware"), DeviceSelectionPolicies.names());
    }

    static Stream<Arguments> registry() {
        return Stream.of(
                Arguments.of("single-gpu", SingleGpuPolicy.class),
                Arguments.of("round-robin", RoundRobinPolicy.class),
                Arguments.of("stream-aware", StreamAwarePolicy.class),
                Arguments.of("min-transfer-size", MinTransferSizePolicy.class),
                Arguments.of("minmin-transfer-time", MinMinTransferTimePolicy.class),
                Arguments.of("minmax-transfer-time", MinMaxTransferTimePolicy.class),
                Arguments.of("earliest-finish-time", EarliestFinishTimePolicy.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("registry")
    void eachNameCreatesItsPolicy(String name, Class<?> type) {
        assertInstanceOf(type, Fixtures.policy(name, 2));
    }

    @Test
    void unknownNameListsTheValidValues() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Fixtures.policy("min-transfer-time", 2));
        assertEquals("unknown DeviceSelectionPolicy 'min-transfer-time'; valid values: earliest-finish-time, "
                + "min-transfer-size, minmax-transfer-time, minmin-transfer-time, round-robin, single-gpu, "
                + "stream-aware", e.getMessage());
    }

    @Test
    void aCandidateMaskWithoutDevicesIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Fixtures.policy("round-robin", 2).select(Fixtures.request(2), ofBits(0b100)));
        assertEquals("candidates {2} name no device in 0..1", e.getMessage());
    }
}
