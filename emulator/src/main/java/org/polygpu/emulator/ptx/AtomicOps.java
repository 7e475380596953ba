package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Atomic read-modify-write ({@link Op#ATOM}, {@code red} too) on global, shared and generic addresses, 32 and 64
 * bit: add (integer, f32, f64), min, max, inc, dec, and, or, xor, exch and cas. Lanes apply in lane order. Global
 * memory is shared by CTAs running on several threads, so each operation is a real atomic on the segment
 * ({@link VarHandle} access modes; floating-point add, min, max, inc and dec as compare-and-set loops). A CTA's shared
 * memory belongs to the one worker thread running it, so 32-bit shared atomics are a plain read and write, which
 * spares histogram-like kernels a locked instruction per lane.
 *
 * <p>Each CTA counts the global atomics on the address of its first one ({@link MemoryContext#hotAddress}): summed
 * over the CTAs per address, the largest total is how many atomics of the launch serialise on one address.
 */
final class AtomicOps {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final PtxType[] TYPES = PtxType.values();
    private static final long M32 = 0xFFFF_FFFFL;

    private AtomicOps() {
    }

    static void execute(long[] r, int[] code, int[] table, int pc, int mask, MemoryContext ctx) {
        int space = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        int entry = code[pc + Op.X];
        int op = table[entry];
        PtxType t = TYPES[table[entry + 1]];
        long offset = table[entry + 2];
        boolean narrow = (table[entry + 3] & 1) != 0;
        boolean pair = (table[entry + 3] & 2) != 0;
        int size = pair ? 4 : t.size();
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long address = (narrow ? r[a + l] & M32 : r[a + l]) + offset;
            long at = ctx.resolve(space, address, size, l, true);
            MemorySegment s = ctx.segment;
            long w = c >= 0 ? r[c + l] : 0;
            long old = pair || size == 2 ? sixteen(s, at, op, t, pair, r[b + l], w)
                    : size != 4 ? apply64(s, at, op, t, r[b + l], w)
                    : s == ctx.shared ? plain32(s, at, op, t, (int) r[b + l], (int) w)
                    : apply32(s, at, op, t, (int) r[b + l], (int) w);
            if (d >= 0) {
                r[d + l] = old;
            }
            ctx.atomics++;
            if (s != ctx.shared) {
                ctx.globalSectors++;
                ctx.globalLines++;
                if (ctx.hotAddress < 0) {
                    ctx.hotAddress = address;
                }
                if (address == ctx.hotAddress) {
                    ctx.hotCount++;
                }
            } else {
                ctx.sharedAccesses++;
            }
        }
    }

    private static long apply32(MemorySegment s, long at, int op, PtxType t, int v, int w) {
        int old = switch (op) {
            case Op.ATOM_ADD -> t == PtxType.F32 ? floatAdd(s, at, Float.intBitsToFloat(v))
                    : (int) INT.getAndAdd(s, at, v);
            case Op.ATOM_AND -> (int) INT.getAndBitwiseAnd(s, at, v);
            case Op.ATOM_OR -> (int) INT.getAndBitwiseOr(s, at, v);
            case Op.ATOM_XOR -> (int) INT.getAndBitwiseXor(s, at, v);
            case Op.ATOM_EXCH -> (int) INT.getAndSet(s, at, v);
            case Op.ATOM_CAS -> (int) INT.compareAndExchange(s, at, v, w);
            default -> loop32(s, at, op, t.isSigned(), v);
        };
        return t.isSigned() ? old : old & M32;
    }

    /**
     * A half-precision add ({@code .f16}, {@code .bf16}, or a packed pair) or a 16-bit compare-and-swap, as a
     * compare-and-set loop on the aligned 32-bit word that holds it.
     */
    private static long sixteen(MemorySegment s, long at, int op, PtxType t, boolean pair, long v, long w) {
        long word = at & ~3L;
        int shift = pair ? 0 : (int) (at & 2) * 8;
        long mask = pair ? M32 : 0xFFFFL;
        boolean bf = t == PtxType.BF16;
        while (true) {
            int oldWord = (int) INT.getVolatile(s, word);
            long old = (oldWord & M32) >>> shift & mask;
            long next;
            if (op == Op.ATOM_CAS) {
                next = old == (v & mask) ? w & mask : old;
            } else if (pair) {
                next = HalfOps.add(old >>> 16, v >>> 16, bf) << 16 | HalfOps.add(old, v, bf);
            } else {
                next = HalfOps.add(old, v, bf);
            }
            int newWord = (int) ((oldWord & M32 & ~(mask << shift)) | next << shift);
            if (INT.compareAndSet(s, word, oldWord, newWord)) {
                return old;
            }
        }
    }

    /** The operation on memory no other thread can access: read, compute, write. */
    private static long plain32(MemorySegment s, long at, int op, PtxType t, int v, int w) {
        int old = s.get(ValueLayout.JAVA_INT, at);
        int next = switch (op) {
            case Op.ATOM_ADD -> t == PtxType.F32 ? Float.floatToRawIntBits(Float.intBitsToFloat(old)
                    + Float.intBitsToFloat(v)) : old + v;
            case Op.ATOM_AND -> old & v;
            case Op.ATOM_OR -> old | v;
            case Op.ATOM_XOR -> old ^ v;
            case Op.ATOM_EXCH -> v;
            case Op.ATOM_CAS -> old == v ? w : old;
            default -> next32(op, t.isSigned(), old, v);
        };
        s.set(ValueLayout.JAVA_INT, at, next);
        return t.isSigned() ? old : old & M32;
    }

    private static int loop32(MemorySegment s, long at, int op, boolean signed, int v) {
        while (true) {
            int old = (int) INT.getVolatile(s, at);
            if (INT.compareAndSet(s, at, old, next32(op, signed, old, v))) {
                return old;
            }
        }
    }

    /** The new value of min, max, inc or dec. */
    private static int next32(int op, boolean signed, int old, int v) {
        int cmp = signed ? Integer.compare(old, v) : Integer.compareUnsigned(old, v);
        return switch (op) {
            case Op.ATOM_MIN -> cmp <= 0 ? old : v;
            case Op.ATOM_MAX -> cmp >= 0 ? old : v;
            case Op.ATOM_INC -> Integer.compareUnsigned(old, v) >= 0 ? 0 : old + 1;
            default -> old == 0 || Integer.compareUnsigned(old, v) > 0 ? v : old - 1;
        };
    }

    private static int floatAdd(MemorySegment s, long at, float v) {
        while (true) {
            int old = (int) INT.getVolatile(s, at);
            if (INT.compareAndSet(s, at, old, Float.floatToRawIntBits(Float.intBitsToFloat(old) + v))) {
                return old;
            }
        }
    }

    private static long apply64(MemorySegment s, long at, int op, PtxType t, long v, long w) {
        return switch (op) {
            case Op.ATOM_ADD -> t == PtxType.F64 ? doubleAdd(s, at, Double.longBitsToDouble(v))
                    : (long) LONG.getAndAdd(s, at, v);
            case Op.ATOM_AND -> (long) LONG.getAndBitwiseAnd(s, at, v);
            case Op.ATOM_OR -> (long) LONG.getAndBitwiseOr(s, at, v);
            case Op.ATOM_XOR -> (long) LONG.getAndBitwiseXor(s, at, v);
            case Op.ATOM_EXCH -> (long) LONG.getAndSet(s, at, v);
            case Op.ATOM_CAS -> (long) LONG.compareAndExchange(s, at, v, w);
            default -> loop64(s, at, op, t.isSigned(), v);
        };
    }

    private static long loop64(MemorySegment s, long at, int op, boolean signed, long v) {
        while (true) {
            long old = (long) LONG.getVolatile(s, at);
            int cmp = signed ? Long.compare(old, v) : Long.compareUnsigned(old, v);
            long next = switch (op) {
                case Op.ATOM_MIN -> cmp <= 0 ? old : v;
                case Op.ATOM_MAX -> cmp >= 0 ? old : v;
                case Op.ATOM_INC -> Long.compareUnsigned(old, v) >= 0 ? 0 : old + 1;
                default -> old == 0 || Long.compareUnsigned(old, v) > 0 ? v : old - 1;
            };
            if (LONG.compareAndSet(s, at, old, next)) {
                return old;
            }
        }
    }

    private static long doubleAdd(MemorySegment s, long at, double v) {
        while (true) {
            long old = (long) LONG.getVolatile(s, at);
            if (LONG.compareAndSet(s, at, old, Double.doubleToRawLongBits(Double.longBitsToDouble(old) + v))) {
                return old;
            }
        }
    }
}
