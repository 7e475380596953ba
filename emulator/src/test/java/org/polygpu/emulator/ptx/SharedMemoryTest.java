package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Dim3;

/** Static and dynamic shared memory with CTA barriers. */
class SharedMemoryTest {
    private static final PtxModule SHARED = TestDevice.module("shared.ptx");

    @Test
    void treeReductionWithBarriersSumsEachBlock() {
        int blocks = 6;
        int threads = 256;
        int[] in = new int[blocks * threads];
        int[] expected = new int[blocks];
        for (int i = 0; i < in.length; i++) {
            in[i] = (i * 37) % 101 - 50;
            expected[i / threads] += in[i];
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * blocks);
            KernelCounters c = d.launch(SHARED, "block_sum", blocks, threads, d.ints(in), out);
            assertArrayEquals(expected, d.intsAt(out, blocks));
            // one barrier before the loop and one per halving step (8 steps for 256 threads), per warp
            assertEquals((long) blocks * 8 * (1 + 8), c.barriers());
        }
    }

    @Test
    void dynamicSharedMemoryReversesEachBlock() {
        int blocks = 3;
        int threads = 96;
        float[] in = new float[blocks * threads];
        float[] expected = new float[in.length];
        for (int i = 0; i < in.length; i++) {
            in[i] = i * 1.5f;
        }
        for (int b = 0; b < blocks; b++) {
            for (int t = 0; t < threads; t++) {
                expected[b * threads + t] = in[b * threads + threads - 1 - t];
            }
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * in.length);
            d.launch(SHARED, "reverse_dynamic", Dim3.of(blocks), Dim3.of(threads), 4 * threads, d.floats(in), out);
            assertArrayEquals(expected, d.floatsAt(out, in.length));
        }
    }
}
