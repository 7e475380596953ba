package org.polygpu.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scheduler benchmarks' launch stream with 32 launches in flight keeps every device in use: no device gets more
 * than twice its fair share of the launches (issue: a launch whose parents sat on two devices moved to one of them
 * and nothing moved it back, until one device ran almost every launch). Under the default policy and under
 * {@code earliest-finish-time}, which learns zero durations on this backend and so sees no load but the streams'.
 */
class LaunchWorkloadSpreadTest {
    private static final int LAUNCHES = 200_000;

    @ParameterizedTest
    @ValueSource(strings = {"minmax-transfer-time", "earliest-finish-time"})
    void noDeviceRunsMoreThanTwiceItsFairShare(String policy) {
        long[] perDevice = new long[LaunchWorkload.DEVICES];
        try (LaunchWorkload w = new LaunchWorkload(32, policy)) {
            for (int i = 0; i < LAUNCHES; i++) {
                perDevice[w.launchNext().device()]++;
            }
        }
        long fairShare = LAUNCHES / LaunchWorkload.DEVICES;
        long most = Arrays.stream(perDevice).max().orElseThrow();
        assertTrue(most <= 2 * fairShare, "launches per device " + Arrays.toString(perDevice)
                + ": the busiest exceeds twice the fair share " + fairShare);
    }
}
