package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact counts of known kernels. */
class CountersTest {
    private static final PtxModule VECTOR = TestDevice.module("vector_add.ptx");

    @Test
    void vectorAddCountsEveryInstructionAndSector() {
        try (TestDevice d = new TestDevice()) {
            int n = 100;
            KernelCounters c = d.launch(VECTOR, "vadd", 4, 32, d.floats(new float[n]), d.floats(new float[n]),
                    d.allocate(4L * n), n);
            // 22 instructions per warp. Warps 0-2 run all of them with 32 lanes. In warp 3, the 10 instructions up to
            // the branch run with 32 lanes, the 11 of the body with the 4 lanes i < 100, and ret with all 32 again.
            assertEquals(4 * 22, c.warpInstructions());
            assertEquals(3 * 22 * 32 + 10 * 32 + 11 * 4 + 32, c.threadInstructions());
            assertEquals((3 * 22 * 32 + 10 * 32 + 11 * 4 + 32) / (32.0 * 88), c.simdEfficiency(), 1e-12);
            // each full warp reads 2 and writes 1 x 128 coalesced bytes (4 sectors each); warp 3: 16 bytes each
            assertEquals(3 * 3 * 4 + 3, c.globalSectors());
            assertEquals(List.of(4L, 4L, 0L, 0L, 0L, 0L, 0L), List.of(c.ctas(), c.warps(), c.sharedAccesses(),
                    c.atomics(), c.barriers(), c.sharedWavefronts(), c.hotAtomics()));
            // two loads and a store per warp; the loads are in one block and independent: one latency per warp
            InstructionMix m = c.mix();
            assertEquals(List.of(8L, 4L, 4L, 4L), List.of(m.globalLoads(), m.exposedLoads(), m.globalStores(),
                    m.fp32()));
            assertEquals(88, m.total());
        }
    }

    @Test
    void vectorLoadsCountTheirWholeWidth() {
        try (TestDevice d = new TestDevice()) {
            int n = 64; // float4 elements
            KernelCounters c = d.launch(VECTOR, "vadd4", 2, 32, d.floats(new float[4 * n]),
                    d.floats(new float[4 * n]), d.allocate(16L * n), n);
            assertEquals(2 * 3 * 16, c.globalSectors()); // 512 bytes per warp and array
        }
    }

    @Test
    void countsDoNotDependOnParallelism() {
        int n = 10_000;
        KernelCounters one;
        KernelCounters two;
        try (TestDevice d = new TestDevice(1)) {
            one = d.launch(VECTOR, "square", 13, 96, d.floats(new float[n]), d.allocate(4L * n), n);
        }
        try (TestDevice d = new TestDevice(2)) {
            two = d.launch(VECTOR, "square", 13, 96, d.floats(new float[n]), d.allocate(4L * n), n);
        }
        assertEquals(one, two);
    }
}
