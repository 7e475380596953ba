package org.polygpu.emulator.ptx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * Loads and stores ({@link Op#LD}, {@link Op#ST}), scalar and vector, in every state space. Every access is bounds
 * checked: a warp's accesses at once when they all fall in one mapping ({@link MemoryContext#range}), else
 * lane by lane by {@link MemoryContext#resolve}, which names the faulting lane. Global traffic is counted in 32-byte
 * sectors: the distinct sectors of each warp access ({@link MemoryContext#newSector}), as the hardware coalesces it.
 */
final class MemoryOps {
    private static final long M32 = 0xFFFF_FFFFL;

    private MemoryOps() {
    }

    static void load(long[] r, int[] code, int[] table, int pc, int mask, MemoryContext ctx) {
        int space = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        long offset = code[pc + Op.B];
        int kind = code[pc + Op.C];
        int x = code[pc + Op.X];
        int lanes = x & 0xF;
        boolean narrow = (x & Op.ADDRESS32) != 0;
        int size = Op.accessBytes(kind);
        int span = size * lanes;
        long previous = -1;
        long base = range(r, a, offset, narrow, span, space, mask, ctx, false);
        if (base != MemoryContext.NO_RANGE) {
            MemorySegment s = ctx.segment;
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
                if (lanes == 1) {
                    r[d + l] = read(s, address - base, kind);
                } else {
                    for (int e = 0; e < lanes; e++) {
                        int reg = table[d + e];
                        if (reg >= 0) {
                            r[reg + l] = read(s, address - base + (long) e * size, kind);
                        }
                    }
                }
                previous = count(ctx, space, s, address, span, previous);
            }
            countShared(ctx, space, mask, r, a, offset, narrow, span, pc);
            return;
        }
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
            long at = ctx.resolve(space, address, span, l, false);
            MemorySegment s = ctx.segment;
            if (lanes == 1) {
                r[d + l] = read(s, at, kind);
            } else {
                for (int e = 0; e < lanes; e++) {
                    int reg = table[d + e];
                    if (reg >= 0) {
                        r[reg + l] = read(s, at + (long) e * size, kind);
                    }
                }
            }
            previous = count(ctx, space, s, address, span, previous);
        }
        countShared(ctx, space, mask, r, a, offset, narrow, span, pc);
    }

    static void store(long[] r, int[] code, int[] table, int pc, int mask, MemoryContext ctx) {
        int space = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        long offset = code[pc + Op.B];
        int kind = code[pc + Op.C];
        int x = code[pc + Op.X];
        int lanes = x & 0xF;
        boolean narrow = (x & Op.ADDRESS32) != 0;
        int size = Op.accessBytes(kind);
        int span = size * lanes;
        long previous = -1;
        long base = range(r, a, offset, narrow, span, space, mask, ctx, true);
        if (base != MemoryContext.NO_RANGE) {
            MemorySegment s = ctx.segment;
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
                if (lanes == 1) {
                    write(s, address - base, kind, r[d + l]);
                } else {
                    for (int e = 0; e < lanes; e++) {
                        write(s, address - base + (long) e * size, kind, r[table[d + e] + l]);
                    }
                }
                previous = count(ctx, space, s, address, span, previous);
            }
            countShared(ctx, space, mask, r, a, offset, narrow, span, pc);
            return;
        }
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
            long at = ctx.resolve(space, address, span, l, true);
            MemorySegment s = ctx.segment;
            if (lanes == 1) {
                write(s, at, kind, r[d + l]);
            } else {
                for (int e = 0; e < lanes; e++) {
                    write(s, at + (long) e * size, kind, r[table[d + e] + l]);
                }
            }
            previous = count(ctx, space, s, address, span, previous);
        }
        countShared(ctx, space, mask, r, a, offset, narrow, span, pc);
    }

    /**
     * The lanes' accesses of {@code size} bytes (a whole vector) checked at once ({@link MemoryContext#range}) when
     * all are aligned to it: the base to subtract from each address, or {@link MemoryContext#NO_RANGE} for the
     * lane-by-lane path.
     */
    private static long range(long[] r, int a, long offset, boolean narrow, int size, int space, int mask,
            MemoryContext ctx, boolean write) {
        if (mask == 0 || space == Op.LOCAL || space == Op.KERNEL_PARAM) {
            return MemoryContext.NO_RANGE;
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        long bits = 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
            lo = Math.min(lo, address);
            hi = Math.max(hi, address);
            bits |= address;
        }
        return (bits & (size - 1)) != 0 ? MemoryContext.NO_RANGE : ctx.range(space, lo, hi, size, write);
    }

    /** {@code cp.async}: copies now; bytes past the source size are zero-filled, as PTX defines. */
    static void copyAsync(long[] r, int[] code, int[] table, int pc, int mask, MemoryContext ctx) {
        int dst = code[pc + Op.D];
        int src = code[pc + Op.A];
        int srcSize = code[pc + Op.C];
        int t = code[pc + Op.X];
        int size = table[t + 2];
        int narrow = table[t + 3];
        long previous = -1;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long from = ((narrow & 2) != 0 ? r[src + l] & M32 : r[src + l]) + table[t + 1];
            long to = ((narrow & 1) != 0 ? r[dst + l] & M32 : r[dst + l]) + table[t];
            int bytes = srcSize < 0 ? size : (int) Math.min(size, r[srcSize + l] & M32);
            long at = ctx.resolve(Op.SHARED, to, size, l, true);
            MemorySegment shared = ctx.segment;
            shared.asSlice(at, size).fill((byte) 0);
            if (bytes == 0) {
                continue;
            }
            int span = Integer.bitCount(bytes) == 1 ? bytes : 1;
            for (int k = 0; k < bytes; k += span) {
                long in = ctx.resolve(Op.GLOBAL, from + k, span, l, false);
                MemorySegment.copy(ctx.segment, in, shared, at + k, span);
            }
            previous = count(ctx, Op.GLOBAL, ctx.segment, from, bytes, previous);
        }
        if (mask != 0) {
            ctx.sharedAccesses++;
            ctx.sharedWavefronts++;
        }
    }

    static long read(MemorySegment s, long at, int kind) {
        return switch (kind) {
            case Op.U8 -> s.get(JAVA_BYTE, at) & 0xFFL;
            case Op.S8 -> s.get(JAVA_BYTE, at);
            case Op.U16 -> s.get(JAVA_SHORT_UNALIGNED, at) & 0xFFFFL;
            case Op.S16 -> s.get(JAVA_SHORT_UNALIGNED, at);
            case Op.U32 -> s.get(JAVA_INT_UNALIGNED, at) & M32;
            case Op.S32 -> s.get(JAVA_INT_UNALIGNED, at);
            default -> s.get(JAVA_LONG_UNALIGNED, at);
        };
    }

    static void write(MemorySegment s, long at, int kind, long v) {
        switch (kind) {
            case Op.U8, Op.S8 -> s.set(JAVA_BYTE, at, (byte) v);
            case Op.U16, Op.S16 -> s.set(JAVA_SHORT_UNALIGNED, at, (short) v);
            case Op.U32, Op.S32 -> s.set(JAVA_INT_UNALIGNED, at, (int) v);
            default -> s.set(JAVA_LONG_UNALIGNED, at, v);
        }
    }

    /**
     * Adds the sectors of one lane's global access that the warp's access has not touched yet
     * ({@link MemoryContext#newSector}); returns the last sector it touched. {@code previous} is {@code -1} for the
     * first lane of an access. A lane in the sector of the lane before it (coalesced accesses) costs two shifts and
     * a comparison; only a change of sector looks further.
     */
    private static long count(MemoryContext ctx, int space, MemorySegment s, long address, int span, long previous) {
        if (space == Op.SHARED || space == Op.LOCAL || space == Op.KERNEL_PARAM || s == ctx.shared
                || s == ctx.local) {
            return previous;
        }
        long first = address >>> 5;
        long last = (address + span - 1) >>> 5;
        if (first == previous && last == first) {
            return last;
        }
        if (previous < 0) {
            ctx.startAccess();
        }
        ctx.countSectors(first, last, previous);
        return last;
    }

    /**
     * Counts a shared-memory access and its wavefronts. The bank-conflict degree of an instruction is found the first
     * time the CTA executes it and reused for its later executions in the CTA (an instruction's access pattern is
     * usually the same every time), which keeps the count deterministic and off the per-lane path.
     */
    private static void countShared(MemoryContext ctx, int space, int mask, long[] r, int a, long offset,
            boolean narrow, int span, int pc) {
        if (mask != 0 && (space == Op.SHARED || (space == Op.GENERIC && ctx.segment == ctx.shared))) {
            ctx.sharedAccesses++;
            int slot = pc / Op.WIDTH;
            int degree = ctx.sharedDegree[slot];
            if (degree == 0) {
                degree = ctx.banks.wavefronts(r, a, offset, narrow, span, mask);
                ctx.sharedDegree[slot] = degree;
            }
            ctx.sharedWavefronts += degree;
        }
    }
}
