package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The {@code mbarrier} objects of sm_80 ({@link Op#MBARRIER}): 8 bytes of shared memory holding the pending
 * arrivals (bits 0-31), the arrivals each phase expects (bits 32-62) and the phase's parity (bit 63). An arrival
 * returns the parity as its state token; the last arrival of a phase flips the parity and starts the next phase; a
 * wait on a token (or a parity) is complete once the parity differs from it. The lanes of a warp arrive in lane
 * order, and a CTA's warps run on one thread, so no update races.
 */
final class MbarrierOps {
    static final int INIT = 0;
    static final int ARRIVE = 1;
    static final int ARRIVE_DROP = 2;
    static final int TEST_WAIT = 3;
    static final int INVALIDATE = 4;
    private static final long M32 = 0xFFFF_FFFFL;
    private static final long COUNT = 0x7FFF_FFFFL;

    private MbarrierOps() {
    }

    /** d = token or predicate (-1: none); a = address register; b = count, token or parity register (-1: none). */
    static void execute(long[] r, int[] code, int pc, int mask, MemoryContext ctx) {
        int kind = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        long offset = code[pc + Op.C];
        int x = code[pc + Op.X];
        int space = x & 0xF;
        boolean narrow = (x & Op.ADDRESS32) != 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
            long at = ctx.resolve(space, address, 8, l, kind != TEST_WAIT);
            MemorySegment s = ctx.segment;
            long word = s.get(JAVA_LONG_UNALIGNED, at);
            long parity = word >>> 63;
            switch (kind) {
                case INIT -> {
                    long count = r[b + l] & COUNT;
                    s.set(JAVA_LONG_UNALIGNED, at, count << 32 | count);
                }
                case ARRIVE, ARRIVE_DROP -> {
                    long n = b >= 0 ? r[b + l] & COUNT : 1;
                    long expected = (word >>> 32 & COUNT) - (kind == ARRIVE_DROP ? n : 0);
                    long pending = (word & M32) - n;
                    if (pending <= 0) {
                        parity ^= 1;
                        pending = expected;
                    }
                    s.set(JAVA_LONG_UNALIGNED, at, parity << 63 | (expected & COUNT) << 32 | (pending & M32));
                    if (d >= 0) {
                        r[d + l] = word >>> 63;
                    }
                }
                case TEST_WAIT -> r[d + l] = parity != (r[b + l] & 1) ? 1 : 0;
                default -> s.set(JAVA_LONG_UNALIGNED, at, 0);
            }
        }
        if (mask != 0 && (space == Op.SHARED || ctx.segment == ctx.shared)) {
            ctx.sharedAccesses++;
        }
    }
}
