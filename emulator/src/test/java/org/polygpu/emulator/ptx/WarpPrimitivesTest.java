package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every shuffle mode with sub-warp widths, the votes, and a shuffle reduction with a float atomic. */
class WarpPrimitivesTest {
    private static final PtxModule WARP = TestDevice.module("warp.ptx");

    @ParameterizedTest(name = "delta {0}, width {1}")
    @CsvSource({"1, 32", "3, 8", "5, 16", "16, 32", "0, 4", "9, 8", "31, 32"})
    void shufflesFollowCudaSemantics(int delta, int width) {
        int n = 64;
        int[] in = new int[n];
        for (int i = 0; i < n; i++) {
            in[i] = 1000 + i * 7;
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(16L * n);
            d.launch(WARP, "shuffles", 1, n, d.ints(in), out, delta, width);
            int[] o = d.intsAt(out, 4 * n);
            for (int t = 0; t < n; t++) {
                int warp = t / 32 * 32;
                int l = t % 32;
                int segment = l / width * width;
                int up = l - delta >= segment ? l - delta : l;
                int down = l + delta < segment + width ? l + delta : l;
                int xor = (l ^ delta) < segment + width ? l ^ delta : l;
                int idx = segment + delta % width;
                int[] expected = {in[warp + up], in[warp + down], in[warp + xor], in[warp + idx]};
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(o, 4 * t, 4 * t + 4), "thread " + t);
            }
        }
    }

    @Test
    void votesBallotAnyAllUni() {
        int n = 96;
        int[] in = new int[n];
        for (int t = 0; t < 32; t++) {
            in[t] = t % 3 == 0 ? 1 : 0; // warp 0: mixed
            in[32 + t] = 1; // warp 1: all
            in[64 + t] = 0; // warp 2: none
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(20L * n);
            d.launch(WARP, "votes", 1, n, d.ints(in), out);
            int[] o = d.intsAt(out, 5 * n);
            int mixed = 0;
            for (int t = 0; t < 32; t++) {
                mixed |= in[t] << t;
            }
            int[][] expected = {{mixed, 1, 0, Integer.bitCount(mixed), 0}, {-1, 1, 1, 32, 1}, {0, 0, 0, 0, 1}};
            for (int t = 0; t < n; t++) {
                assertArrayEquals(expected[t / 32], java.util.Arrays.copyOfRange(o, 5 * t, 5 * t + 5),
                        "thread " + t);
            }
        }
    }

    @Test
    void shuffleReductionAndFloatAtomicAddSumAllElements() {
        int n = 32 * 64;
        float[] in = new float[n];
        float sum = 0;
        for (int i = 0; i < n; i++) {
            in[i] = (i % 16) * 0.25f; // sums exactly in any order
            sum += in[i];
        }
        try (TestDevice d = new TestDevice()) {
            long out = d.floats(0f);
            KernelCounters c = d.launch(WARP, "warp_sum", 16, 128, d.floats(in), out);
            assertEquals(sum, d.floatsAt(out, 1)[0]);
            assertEquals(n / 32, c.atomics());
        }
    }
}
