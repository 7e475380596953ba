package org.polygpu.emulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Atomics on global and shared memory, 32 and 64 bit, integer and floating point, over CTAs on two threads. */
class AtomicsTest {
    private static final PtxModule ATOMICS = TestDevice.module("atomics.ptx");

    @Test
    void everyGlobalAtomicOperation() {
        int threads = 256;
        try (TestDevice d = new TestDevice()) {
            long i = d.ints(0, 0, 0, 0);
            long u = d.ints(-1, 0, 0, 0, 0, 0);
            long l = d.allocate(32);
            d.segment(l).setAtIndex(ValueLayout.JAVA_LONG, 1, 1000);
            long f = d.floats(0f, 0f);
            long dd = d.doubles(0.0);
            KernelCounters c = d.launch(ATOMICS, "global_atomics", 4, 64, i, u, l, f, dd);
            assertArrayEquals(new int[] {threads, -2 * threads, -(threads - 1), threads - 1}, d.intsAt(i, 4));
            // and clears every bit, or sets every bit, xor toggles each bit 8 times; inc and dec wrap at 9
            assertArrayEquals(new int[] {0, -1, 0, threads % 10, (10 - threads % 10) % 10, 7}, d.intsAt(u, 6));
            // the CAS kernel runs its CTAs in order, so thread 0 wins the compare-and-swap
            assertArrayEquals(new long[] {(long) threads << 33, 5, 255L << 40, 1}, d.longsAt(l, 4));
            assertArrayEquals(new float[] {threads * 0.5f, 3.0f}, d.floatsAt(f, 2));
            assertEquals(threads * 0.25, d.doublesAt(dd, 1)[0]);
            assertEquals(17L * threads, c.atomics());
        }
    }

    @Test
    void compareAndSwapLoopAddsEveryContribution() {
        try (TestDevice d = new TestDevice()) {
            long x = d.floats(0f);
            d.launch(ATOMICS, "cas_add", 8, 64, x, 1.5f);
            assertEquals(8 * 64 * 1.5f, d.floatsAt(x, 1)[0]);
        }
    }

    @Test
    void histogramWithSharedAtomicsIncluding64Bit() {
        int n = 5000;
        byte[] in = new byte[n];
        int[] expected = new int[18];
        long total = 0;
        for (int k = 0; k < n; k++) {
            in[k] = (byte) ((k * 131 + 7) % 251);
            expected[(in[k] & 0xFF) % 16]++;
            total += in[k] & 0xFF;
        }
        expected[16] = (int) total;
        expected[17] = (int) (total >>> 32);
        try (TestDevice d = new TestDevice()) {
            long din = d.allocate(n);
            java.lang.foreign.MemorySegment.copy(in, 0, d.segment(din), ValueLayout.JAVA_BYTE, 0, n);
            long bins = d.allocate(4 * 18);
            d.launch(ATOMICS, "histogram", 5, 128, din, bins, n);
            assertArrayEquals(expected, d.intsAt(bins, 18));
        }
    }
}
