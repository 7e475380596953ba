package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.policies.Fixtures.HOST;
import static org.polygpu.policies.Fixtures.arg;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MinTransferSizePolicyTest {
    static Stream<Arguments> tables() {
        return Stream.of(
                Arguments.of("most bytes on device 1", 3, -1L, new Fixtures.Arg[] {
                    arg(100, 0), arg(300, 1), arg(200, 2)}, 1),
                Arguments.of("bytes add up across arguments", 3, -1L, new Fixtures.Arg[] {
                    arg(100, 0, 2), arg(150, 1), arg(100, 2, HOST)}, 2),
                Arguments.of("a tie goes to the lowest index", 4, -1L, new Fixtures.Arg[] {
                    arg(100, 3), arg(100, 1), arg(50, 2)}, 1),
                Arguments.of("host copies do not count", 2, -1L, new Fixtures.Arg[] {
                    arg(500, 0, HOST), arg(600, HOST), arg(100, 1)}, 0),
                Arguments.of("the best non-candidate is skipped", 3, 0b101L, new Fixtures.Arg[] {
                    arg(100, 0), arg(300, 1), arg(200, 2)}, 2),
                Arguments.of("every device holds everything", 4, -1L, new Fixtures.Arg[] {
                    arg(100, 0, 1, 2, 3)}, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void picksTheCandidateHoldingTheMostBytes(String what, int devices, long candidates, Fixtures.Arg[] args,
            int expected) {
        assertEquals(expected, Fixtures.policy("min-transfer-size", devices)
                .select(Fixtures.request(devices, args), ofBits(candidates)));
    }
}
