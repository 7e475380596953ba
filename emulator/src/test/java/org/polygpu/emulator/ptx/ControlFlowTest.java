package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.polygpu.backend.Dim3;

/** Divergence and reconvergence, 3-D indices and special registers, and calls of a non-inlined function. */
class ControlFlowTest {
    private static final PtxModule CONTROL = TestDevice.module("control.ptx");

    @Test
    void divergentBranchesAndLoopsReconvergeBeforeTheBallot() {
        int threads = 64;
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(4L * threads);
            KernelCounters c = d.launch(CONTROL, "diverge", 1, threads, out);
            int[] expected = new int[threads];
            for (int t = 0; t < threads; t++) {
                int v = t % 2 == 0 ? t * 10 + (t % 4 == 0 ? 1 : 0) : -t;
                int s = 0;
                for (int k = 0; k < t % 5; k++) {
                    s += k + v;
                }
                expected[t] = s + 1_000_000; // the ballot saw all 32 lanes: the warp reconverged
            }
            assertArrayEquals(expected, d.intsAt(out, threads));
            assertTrue(c.simdEfficiency() < 0.9, "divergent code idles lanes: " + c.simdEfficiency());
        }
    }

    @Test
    void threeDimensionalGridAndBlockIndicesLaneAndWarpIds() {
        Dim3 grid = new Dim3(2, 3, 2);
        Dim3 block = new Dim3(8, 4, 2);
        int threads = (int) (grid.count() * block.count());
        try (TestDevice d = new TestDevice()) {
            long out = d.allocate(32L * threads);
            d.launch(CONTROL, "indices", grid, block, 0, out);
            int[] o = d.intsAt(out, 8 * threads);
            for (int bz = 0; bz < 2; bz++) {
                for (int by = 0; by < 3; by++) {
                    for (int bx = 0; bx < 2; bx++) {
                        for (int t = 0; t < 64; t++) {
                            int b = bx + 2 * (by + 3 * bz);
                            int g = b * 64 + t;
                            int[] expected = {t % 8, (t / 8) % 4, t / 32, bx, by, bz, t % 32, 2 * 100 + 3 * 10 + 2};
                            int[] actual = java.util.Arrays.copyOfRange(o, 8 * g, 8 * g + 8);
                            assertArrayEquals(expected, actual, "block " + b + " thread " + t);
                        }
                    }
                }
            }
        }
    }

    @Test
    void callOfAFunctionReturnsItsValueAndWritesThroughALocalPointer() {
        int n = 50;
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = 0.5f + i * 0.25f;
        }
        try (TestDevice d = new TestDevice()) {
            long dx = d.floats(x);
            long dy = d.allocate(4L * n);
            long dz = d.allocate(4L * n);
            d.launch(CONTROL, "call_func", 2, 32, dx, dy, dz, n);
            float[] y = d.floatsAt(dy, n);
            float[] z = d.floatsAt(dz, n);
            for (int i = 0; i < n; i++) {
                float r = 1.0f;
                for (int k = 0; k < i % 4; k++) {
                    r = Math.fma(r, x[i], 1.0f);
                }
                assertEquals(r, y[i], "y[" + i + "]");
                assertEquals(r + r, z[i], "z[" + i + "]");
            }
        }
    }
}
