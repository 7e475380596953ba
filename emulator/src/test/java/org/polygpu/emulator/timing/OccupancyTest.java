package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.emulator.ptx.KernelCounters;

class OccupancyTest {
    @Test
    void aSmallGridUsesOneSmPerBlock() {
        Occupancy o = Occupancy.of(Specs.SM, Specs.profile(10, 1, 0, 0, 0));
        assertEquals(new Occupancy(10, 8, 1, 8), o);
        assertEquals(0.1, o.smShare(Specs.SM));
    }

    @Test
    void threadsLimitResidentBlocksAndTheRestRunInWaves() {
        // 2048 threads per SM hold 8 blocks of 256; 1600 blocks on 100 SMs are 16 per SM: two waves of 64 warps.
        assertEquals(new Occupancy(100, 8, 2, 64), Occupancy.of(Specs.SM, Specs.profile(1600, 1, 0, 0, 0)));
    }

    @Test
    void sharedMemoryLimitsResidentBlocks() {
        // 20 KiB per block: 3 blocks fit in 64 KiB, so 300 blocks on 100 SMs run in one wave of 24 warps.
        KernelProfile p = new KernelProfile(300, 256, 20 << 10, 0, KernelCounters.ZERO);
        assertEquals(new Occupancy(100, 3, 1, 24), Occupancy.of(Specs.SM, p));
        KernelProfile q = new KernelProfile(600, 256, 20 << 10, 0, KernelCounters.ZERO);
        assertEquals(new Occupancy(100, 3, 2, 24), Occupancy.of(Specs.SM, q));
    }
}
