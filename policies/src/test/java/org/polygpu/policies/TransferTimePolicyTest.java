package org.polygpu.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.polygpu.policies.Fixtures.HOST;
import static org.polygpu.policies.Fixtures.TWO_GPU;
import static org.polygpu.policies.Fixtures.arg;
import static org.polygpu.policies.Fixtures.mask;
import static org.polygpu.sched.spi.LocationSet.ofBits;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.polygpu.sched.spi.LocationSet;

/**
 * The transfer-time policies on the golden 2-GPU matrix {@code {{30,45,10},{45,60,20},{10,20,0}}}: GPU 0 and GPU 1
 * are linked at 45 GB/s, the host reaches GPU 0 at 10 and GPU 1 at 20.
 */
class TransferTimePolicyTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    static Stream<Arguments> links() {
        return Stream.of(
                // Valid on the host and GPU 1, copied to GPU 0: slowest is the host link, fastest the NVLink.
                Arguments.of(new int[] {HOST, 1}, 0, 10.0, 45.0),
                Arguments.of(new int[] {HOST, 1}, 1, INF, INF),
                Arguments.of(new int[] {HOST}, 0, 10.0, 10.0),
                Arguments.of(new int[] {HOST}, 1, 20.0, 20.0),
                Arguments.of(new int[] {0}, 1, 45.0, 45.0),
                Arguments.of(new int[] {HOST, 0}, 1, 20.0, 45.0),
                // A fresh array, valid nowhere, needs no copy.
                Arguments.of(new int[] {}, 0, INF, INF));
    }

    @ParameterizedTest(name = "valid on {0}, to GPU {1}: slowest {2}, fastest {3}")
    @MethodSource("links")
    void linkBandwidthIsTheSlowestOrFastestLinkFromAValidCopy(int[] valid, int device, double slowest,
            double fastest) {
        LocationSet locations = mask(2, valid);
        assertEquals(slowest, DataLocality.linkBandwidth(TWO_GPU, locations, device, true));
        assertEquals(fastest, DataLocality.linkBandwidth(TWO_GPU, locations, device, false));
    }

    @Test
    void transferTimeSumsBytesOverLinkBandwidthAndFreshArraysCostNothing() {
        DataLocality locality = new DataLocality(Fixtures.settings(2));
        var request = Fixtures.request(2, arg(100, HOST, 1), arg(90, 1), arg(1000), arg(7, 0));
        // To GPU 0: 100 / 10 + 90 / 45 (slowest) or 100 / 45 + 90 / 45 (fastest); the fresh array adds nothing.
        assertEquals(12.0, locality.transferTime(request, 0, true), 1e-12);
        assertEquals(190.0 / 45, locality.transferTime(request, 0, false), 1e-12);
        assertEquals(7.0 / 45, locality.transferTime(request, 1, true), 1e-12);
    }

    static Stream<Arguments> choices() {
        return Stream.of(
                // Min-min: GPU 0 costs 100/45, GPU 1 200/45. Min-max: GPU 0 costs 100/10 = 10, GPU 1 200/45.
                Arguments.of("host+GPU1 100 B, GPU0 200 B", new Fixtures.Arg[] {
                    arg(100, HOST, 1), arg(200, 0)}, 0, 1),
                // Min-min: GPU 0 costs 150/45, GPU 1 100/45. Min-max: GPU 0 costs 150/45, GPU 1 100/20 = 5.
                Arguments.of("host+GPU0 100 B, GPU1 150 B", new Fixtures.Arg[] {
                    arg(100, HOST, 0), arg(150, 1)}, 1, 0),
                // Min-min: GPU 0 costs 400/45 = 8.9, GPU 1 300/45. Min-max: GPU 0 costs 400/10 = 40, GPU 1 300/20.
                Arguments.of("two host+GPU copies", new Fixtures.Arg[] {
                    arg(400, HOST, 1), arg(300, HOST, 0)}, 1, 1),
                // Only GPU 0 holds more than 10%: both choose it whatever the links.
                Arguments.of("only GPU 0 above the threshold", new Fixtures.Arg[] {
                    arg(100, 0), arg(900, HOST)}, 0, 0),
                // Equal costs on both GPUs: the tie goes to GPU 0.
                Arguments.of("tie", new Fixtures.Arg[] {arg(100, 0), arg(100, 1)}, 0, 0));
    }

    @ParameterizedTest(name = "{0}: minmin {2}, minmax {3}")
    @MethodSource("choices")
    void minminAndMinmaxChooseTheLeastTransferTime(String what, Fixtures.Arg[] args, int minmin, int minmax) {
        var request = Fixtures.request(2, args);
        assertEquals(minmin, Fixtures.policy("minmin-transfer-time", 2).select(request, ofBits(0b11)));
        assertEquals(minmax, Fixtures.policy("minmax-transfer-time", 2).select(request, ofBits(0b11)));
    }
}
