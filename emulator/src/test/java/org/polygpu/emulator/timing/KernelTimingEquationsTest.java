package org.polygpu.emulator.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class KernelTimingEquationsTest {
    private final KernelTiming timing = new KernelTiming(Specs.SM, Specs.MEMORY, Specs.COMPUTE, Specs.ATOMICS);

    @Test
    void aLatencyBoundGridWaitsForEachExposedLoadThenIssues() {
        // 10 blocks: 8 warps per SM, 10 exposed loads at L2 latency (100 ns) + 100 instructions 4 cycles apart
        KernelProfile p = Specs.profile(10, 90, 10, 10, 1 << 16);
        assertEquals(10 * 100 + 100 * 4, timing.nanos(p), 1e-9);
    }

    @Test
    void aBigGridIsBoundByDeviceMemory() {
        // 100 000 blocks, 1 GiB footprint: 800 000 warps x 50 sectors x 32 B at 1000 GB/s
        KernelProfile p = Specs.profile(100_000, 10, 1, 50, 1L << 30);
        assertEquals(800_000 * 50 * 32.0 / 1000, timing.nanos(p), 1e-6);
    }

    @Test
    void wavesMultiplyTheTimeOfOne() {
        KernelProfile one = Specs.profile(800, 1000, 1, 1, 1 << 16);
        KernelProfile four = Specs.profile(3200, 1000, 1, 1, 1 << 16);
        assertEquals(4 * timing.nanos(one), timing.nanos(four), 1e-6);
    }

    @Test
    void sameAddressAtomicsBoundTheKernel() {
        KernelProfile p = Specs.withAtomics(Specs.profile(10, 10, 0, 0, 0), 1_000_000, 1_000_000);
        assertEquals(2_000_000, timing.nanos(p), 1e-9);
    }

    @Test
    void besideOtherKernelsWarpsAddUpAndFootprintsShareL2() {
        KernelProfile p = Specs.profile(100, 90, 10, 10, 600 << 10);
        DeviceShare share = timing.share(p);
        assertEquals(800, share.residentWarps());
        assertEquals(timing.nanos(p), share.nanos(0, 0), 1e-9);
        // another 600 KiB no longer fits the 1 MiB L2: device-memory latency (400 ns) instead of 100
        assertEquals(10 * 400 + 100 * 4, share.nanos(0, 600 << 10), 1e-9);
        // 7 times as many warps beside it: 64 per SM, each issuing 100 instructions at 4 per cycle
        assertEquals(10 * 100 + 64 * 100 / 4.0, share.nanos(7 * 800, 0), 1e-9);
        // beyond the SMs' 64 warps the kernels take turns
        assertEquals(2 * (10 * 100 + 64 * 100 / 4.0), share.nanos(15 * 800, 0), 1e-9);
    }
}
