package org.polygpu.emulator.ptx;

/**
 * The less frequent integer variants of {@link Op#INT}: high and saturating arithmetic, division, min/max, bit
 * counting and fields, byte permutes, funnel shifts, {@code lop3} and carry chains (the per-lane carry flag lives in
 * register {@link Specials#CARRY}).
 */
final class BitOps {
    private static final long M32 = 0xFFFF_FFFFL;
    private static final int CARRY = Specials.CARRY * 32;

    private BitOps() {
    }

    static void execute(long[] r, int mask, int sub, int d, int a, int b, int c, PtxType t) {
        if ((sub & 0xFF) == Op.IPAIRS) {
            pairs(r, mask, sub, d, a, b, c);
            return;
        }
        boolean wide = t.size() == 8;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long x = r[a + l];
            long y = r[b + l];
            long v = switch (sub & 0xFF) {
                case Op.IMUL_HI -> IntOps.mulHigh(x, y, t);
                case Op.IMAD_HI -> IntOps.mulHigh(x, y, t) + r[c + l];
                case Op.IDIV -> IntOps.div(x, y, t);
                case Op.IREM -> IntOps.rem(x, y, t);
                case Op.IMIN -> relu(IntOps.min(x, y, t), sub);
                case Op.IMAX -> relu(IntOps.max(x, y, t), sub);
                case Op.INOT -> ~x;
                case Op.ICNOT -> t.extend(x) == 0 ? 1 : 0;
                case Op.INEG -> -x;
                case Op.IABS -> Math.abs(t.extend(x));
                case Op.IPOPC -> wide ? Long.bitCount(x) : Long.bitCount(t.extend(x));
                case Op.ICLZ -> wide ? Long.numberOfLeadingZeros(x) : Integer.numberOfLeadingZeros((int) x);
                case Op.IBREV -> wide ? Long.reverse(x) : Integer.reverse((int) x);
                case Op.IBFE -> bfe(x, y & 0xFF, r[c + l] & 0xFF, t);
                case Op.IPRMT -> prmt(x, y, r[c + l]);
                case Op.ISHF_L_WRAP -> funnelLeft(x, y, r[c + l] & 31);
                case Op.ISHF_L_CLAMP -> funnelLeft(x, y, Math.min(r[c + l] & M32, 32));
                case Op.ISHF_R_WRAP -> funnelRight(x, y, r[c + l] & 31);
                case Op.ISHF_R_CLAMP -> funnelRight(x, y, Math.min(r[c + l] & M32, 32));
                case Op.IADD_SAT -> saturate(t.extend(x) + t.extend(y));
                case Op.ISUB_SAT -> saturate(t.extend(x) - t.extend(y));
                case Op.IMUL24_LO -> low24(x, t) * low24(y, t);
                case Op.IMAD24_LO -> low24(x, t) * low24(y, t) + r[c + l];
                case Op.IPRED_NOT -> x ^ 1;
                case Op.ISAD -> r[c + l] + Math.abs(t.extend(x) - t.extend(y));
                case Op.IADD_CARRY -> addCarry(r, l, x, y, sub, wide);
                case Op.ISUB_CARRY -> subBorrow(r, l, x, y, sub, wide);
                case Op.IMAD_CARRY -> madCarry(r, l, x, y, r[c + l], sub, wide);
                case Op.IBFIND -> bfind(x, t, (sub & Op.SHIFTAMT) != 0);
                case Op.IFNS -> fns((int) x, (int) y, (int) r[c + l]);
                case Op.IDP4A -> dp4a((int) x, (int) y, (int) r[c + l], sub);
                case Op.IDP2A -> dp2a((int) x, (int) y, (int) r[c + l], sub);
                case Op.IVABSDIFF -> absoluteDifferences((int) x, (int) y, (int) r[c + l], sub);
                default -> throw new IllegalStateException("unknown integer variant " + sub);
            };
            r[d + l] = v;
        }
    }

    /** PTX's bfind: the most significant bit that differs from the sign (0xFFFFFFFF when there is none). */
    private static long bfind(long x, PtxType t, boolean shiftAmount) {
        int width = t.size() * 8;
        long v = t.extend(x);
        if (t.isSigned() && v < 0) {
            v = ~v;
        }
        if (width == 32) {
            v &= M32;
        }
        if (v == 0) {
            return M32;
        }
        int position = 63 - Long.numberOfLeadingZeros(v);
        return shiftAmount ? width - 1 - position : position;
    }

    /** PTX's fns: the position of the |offset|-th set bit of mask from base, upwards or downwards by its sign. */
    private static long fns(int mask, int base, int offset) {
        if (offset == 0) {
            return base >= 0 && base < 32 && (mask >>> base & 1) != 0 ? base : M32;
        }
        int count = Math.abs(offset) - 1;
        int step = offset > 0 ? 1 : -1;
        for (int pos = base; pos >= 0 && pos < 32; pos += step) {
            if ((mask >>> pos & 1) != 0) {
                if (count == 0) {
                    return pos;
                }
                count--;
            }
        }
        return M32;
    }

    private static long dp4a(int a, int b, int c, int sub) {
        int sum = c;
        for (int i = 0; i < 32; i += 8) {
            sum += part(a, i, 8, (sub & Op.SIGNED_A) != 0) * part(b, i, 8, (sub & Op.SIGNED_B) != 0);
        }
        return sum & M32;
    }

    private static long dp2a(int a, int b, int c, int sub) {
        int first = (sub & Op.HIGH) != 0 ? 16 : 0;
        boolean signedB = (sub & Op.SIGNED_B) != 0;
        int sum = c + part(a, 0, 16, (sub & Op.SIGNED_A) != 0) * part(b, first, 8, signedB)
                + part(a, 16, 16, (sub & Op.SIGNED_A) != 0) * part(b, first + 8, 8, signedB);
        return sum & M32;
    }

    /** sm_90's {@code min.relu.s32} and {@code max.relu.s32}: a negative result becomes 0. */
    private static long relu(long v, int sub) {
        return (sub & Op.RELU) != 0 && v < 0 ? 0 : v;
    }

    /** {@code add}, {@code sub}, {@code min} and {@code max} on the two 16-bit halves of each register. */
    private static void pairs(long[] r, int mask, int sub, int d, int a, int b, int op) {
        boolean signed = (sub & Op.SIGNED_A) != 0;
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int x = (int) r[a + l];
            int y = (int) r[b + l];
            int out = 0;
            for (int shift = 0; shift < 32; shift += 16) {
                int p = part(x, shift, 16, signed);
                int q = part(y, shift, 16, signed);
                int v = switch (op) {
                    case Op.IADD -> p + q;
                    case Op.ISUB -> p - q;
                    case Op.IMIN -> Math.min(p, q);
                    default -> Math.max(p, q);
                };
                if ((sub & Op.RELU) != 0 && v < 0) {
                    v = 0;
                }
                out |= (v & 0xFFFF) << shift;
            }
            r[d + l] = out & M32;
        }
    }

    /** PTX's vabsdiff2 and vabsdiff4 with the default mask and selectors. */
    private static long absoluteDifferences(int a, int b, int c, int sub) {
        int bits = (sub & Op.HIGH) != 0 ? 16 : 8;
        int sum = c;
        int merged = 0;
        for (int i = 0; i < 32; i += bits) {
            int diff = Math.abs(part(a, i, bits, (sub & Op.SIGNED_A) != 0)
                    - part(b, i, bits, (sub & Op.SIGNED_B) != 0));
            sum += diff;
            merged |= (diff & ((1 << bits) - 1)) << i;
        }
        return ((sub & Op.ACCUMULATE) != 0 ? sum : merged) & M32;
    }

    /** The {@code bits}-wide field of {@code v} at {@code shift}, sign- or zero-extended. */
    private static int part(int v, int shift, int bits, boolean signed) {
        int left = v << (32 - shift - bits);
        return signed ? left >> (32 - bits) : left >>> (32 - bits);
    }

    private static long bfe(long x, long pos, long len, PtxType t) {
        int width = t.size() * 8;
        if (len == 0) {
            return 0;
        }
        long v = t.size() == 8 ? x : x & M32;
        boolean signed = t.isSigned();
        long sbitIndex = Math.min(pos + len - 1, width - 1);
        long sbit = signed ? (v >>> sbitIndex) & 1 : 0;
        long fieldBits = pos >= width ? 0 : Math.min(len, width - pos);
        long field = fieldBits == 0 ? 0 : (v >>> pos) & mask(fieldBits);
        return sbit != 0 ? field | ~mask(fieldBits) : field;
    }

    static long bfi(long f, long base, long pos, long len, int width) {
        if (len == 0 || pos >= width) {
            return base;
        }
        long n = Math.min(len, width - pos);
        long m = mask(n) << pos;
        return (base & ~m) | ((f << pos) & m);
    }

    private static long mask(long bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    private static long prmt(long x, long y, long selector) {
        long bytes = (x & M32) | (y << 32);
        long out = 0;
        for (int i = 0; i < 4; i++) {
            int sel = (int) (selector >>> (4 * i)) & 0xF;
            long b = (bytes >>> (8 * (sel & 7))) & 0xFF;
            if ((sel & 8) != 0) {
                b = (b & 0x80) != 0 ? 0xFF : 0;
            }
            out |= b << (8 * i);
        }
        return out;
    }

    private static long funnelLeft(long lo, long hi, long n) {
        return (((hi << 32) | (lo & M32)) << n) >>> 32;
    }

    private static long funnelRight(long lo, long hi, long n) {
        return (((hi << 32) | (lo & M32)) >>> n) & M32;
    }

    static long lop3(long a, long b, long c, int lut) {
        long out = 0;
        for (int i = 0; i < 8; i++) {
            if ((lut >> i & 1) != 0) {
                out |= ((i & 4) != 0 ? a : ~a) & ((i & 2) != 0 ? b : ~b) & ((i & 1) != 0 ? c : ~c);
            }
        }
        return out;
    }

    private static long saturate(long v) {
        return Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    private static long low24(long v, PtxType t) {
        return t.isSigned() ? ((int) v << 8) >> 8 : v & 0xFF_FFFF;
    }

    private static long carryIn(long[] r, int lane, int sub) {
        return (sub & Op.CARRY_IN) != 0 ? r[CARRY + lane] & 1 : 0;
    }

    private static long addCarry(long[] r, int lane, long x, long y, int sub, boolean wide) {
        long cin = carryIn(r, lane, sub);
        long sum;
        long carry;
        if (wide) {
            long s1 = x + y;
            sum = s1 + cin;
            carry = (Long.compareUnsigned(s1, x) < 0 || (cin == 1 && sum == 0)) ? 1 : 0;
        } else {
            long full = (x & M32) + (y & M32) + cin;
            sum = full;
            carry = full >>> 32;
        }
        if ((sub & Op.CARRY_OUT) != 0) {
            r[CARRY + lane] = carry;
        }
        return sum;
    }

    private static long subBorrow(long[] r, int lane, long x, long y, int sub, boolean wide) {
        long cin = carryIn(r, lane, sub);
        long diff;
        long borrow;
        if (wide) {
            long d1 = x - y;
            diff = d1 - cin;
            borrow = (Long.compareUnsigned(x, y) < 0 || (cin == 1 && d1 == 0)) ? 1 : 0;
        } else {
            long full = (x & M32) - (y & M32) - cin;
            diff = full;
            borrow = full < 0 ? 1 : 0;
        }
        if ((sub & Op.CARRY_OUT) != 0) {
            r[CARRY + lane] = borrow;
        }
        return diff;
    }

    private static long madCarry(long[] r, int lane, long x, long y, long z, int sub, boolean wide) {
        boolean high = (sub & Op.CARRY_HI) != 0;
        long part = wide ? (high ? Math.unsignedMultiplyHigh(x, y) : x * y)
                : (high ? ((x & M32) * (y & M32)) >>> 32 : ((x & M32) * (y & M32)) & M32);
        return addCarry(r, lane, part, z, sub, wide);
    }
}
