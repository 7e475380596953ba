package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AtomicTimingTest {
    private final AtomicTiming atomics = new AtomicTiming(Specs.ATOMICS);

    @Test
    void atomicsOnOneAddressSerialise() {
        // 10 000 atomics on one address, 2 ns each
        assertEquals(20_000, atomics.nanos(Specs.withAtomics(Specs.profile(1, 1, 0, 0, 0), 10_000, 10_000)));
    }

    @Test
    void spreadAtomicsAreBoundByTheDeviceThroughput() {
        // 10 000 atomics, 10 on the busiest address: 100 per ns
        assertEquals(100, atomics.nanos(Specs.withAtomics(Specs.profile(1, 1, 0, 0, 0), 10_000, 10)));
    }
}
