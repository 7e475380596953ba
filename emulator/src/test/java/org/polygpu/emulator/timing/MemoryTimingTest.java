package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MemoryTimingTest {
    private final MemoryTiming memory = new MemoryTiming(Specs.MEMORY);

    @Test
    void aFootprintThatFitsL2IsServedAtL2LatencyAndBandwidth() {
        KernelProfile p = Specs.profile(100, 0, 1, 40, 1 << 20);
        assertEquals(100, memory.latencyNs(p.footprintBytes()));
        // 800 warps x 40 sectors x 32 B = 1 MiB, under twice the footprint, at 4000 GB/s
        assertEquals(800 * 40 * 32 / 4000.0, memory.deviceNs(p, p.footprintBytes()), 1e-9);
    }

    @Test
    void aLargerFootprintWaitsForDeviceMemory() {
        KernelProfile p = Specs.profile(100, 0, 1, 40, 1 << 30);
        assertEquals(400, memory.latencyNs(p.footprintBytes()));
        assertEquals(800 * 40 * 32 / 1000.0, memory.deviceNs(p, p.footprintBytes()), 1e-9);
    }

    @Test
    void trafficIsAtMostTwiceTheFootprint() {
        // 1000 accesses to the same 4 KiB: the repeats hit in the SMs' caches
        KernelProfile p = Specs.profile(100, 0, 1, 1000, 4096);
        assertEquals(8192, memory.trafficBytes(p));
    }

    @Test
    void eachSmMovesItsShareOfTheMemorySystem() {
        KernelProfile p = Specs.profile(100, 0, 1, 40, 1 << 20);
        // 8 warps x 40 lines (one sector used in each) x 128 B at 50 GB/s
        assertEquals(8 * 40 * 128 / 50.0, memory.perSmNs(p, 8), 1e-9);
    }
}
