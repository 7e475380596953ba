package org.polygpu.emulator.ptx;

import java.util.Arrays;

/**
 * The bank-conflict degree of a warp's shared-memory access: shared memory has 32 banks of 4-byte words and serves
 * one word per bank per wavefront, so lanes reading different words of one bank take that many wavefronts (lanes
 * reading the same word share it). An access wider than 4 bytes per lane moves 128 bytes per wavefront at most.
 *
 * <p>Consecutive lanes reading consecutive elements (the common case) and all lanes reading one address are
 * recognised first, without per-bank bookkeeping. Otherwise, each lane's word is compared with the last word seen
 * in its bank, which counts distinct words exactly when lanes sharing a word are neighbours in lane order (the
 * usual broadcast patterns) and over-counts otherwise. Owned by one worker.
 */
final class SharedBanks {
    private static final long M32 = 0xFFFF_FFFFL;
    private static final int BANKS = 32;
    private final long[] lastWord = new long[BANKS];
    private final int[] words = new int[BANKS];

    /** Wavefronts of the access of {@code span} bytes per lane at {@code r[a + lane] + offset} by lanes {@code mask}. */
    int wavefronts(long[] r, int a, long offset, boolean narrow, int span, int mask) {
        int first = Integer.numberOfTrailingZeros(mask);
        long base = address(r, a, first, offset, narrow);
        boolean consecutive = true;
        boolean same = true;
        for (int m = mask & (mask - 1); m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long at = address(r, a, l, offset, narrow);
            consecutive &= at == base + (long) (l - first) * span;
            same &= at == base;
        }
        int minimum = Math.max(1, (Integer.bitCount(mask) * span + 127) / 128);
        if (same) {
            return 1;
        }
        if (consecutive) {
            return minimum;
        }
        return Math.max(minimum, conflicts(r, a, offset, narrow, span, mask));
    }

    private int conflicts(long[] r, int a, long offset, boolean narrow, int span, int mask) {
        Arrays.fill(lastWord, -1);
        Arrays.fill(words, 0);
        int degree = 1;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long at = address(r, a, l, offset, narrow);
            for (long w = at >>> 2; w <= (at + span - 1) >>> 2; w++) {
                int bank = (int) (w & (BANKS - 1));
                if (lastWord[bank] != w) {
                    lastWord[bank] = w;
                    degree = Math.max(degree, ++words[bank]);
                }
            }
        }
        return degree;
    }

    private static long address(long[] r, int a, int lane, long offset, boolean narrow) {
        return (narrow ? r[a + lane] & M32 : r[a + lane]) + offset;
    }
}
