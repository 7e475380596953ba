package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** {@code mbarrier} phases: a wait on an arrival's token completes only once every expected thread has arrived. */
class MbarrierTest {
    @Test
    void everyThreadSeesTheWholeBlockAfterEachPhaseAndTheParityFollowsThePhases() {
        int threads = 96;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(12L * threads);
            d.launch(TestDevice.module("mbarrier.ptx"), "phases", 2, threads, out);
            int[] got = d.intsAt(out, 3 * threads);
            for (int t = 0; t < threads; t++) {
                // three phases, each counting all 96 threads; after three phases the parity-0 phase is complete
                // and the current (parity 1) one is not
                assertArrayEquals(new int[] {3 * threads, 1, 0}, java.util.Arrays.copyOfRange(got, 3 * t, 3 * t + 3),
                        "thread " + t);
            }
        }
    }
}
