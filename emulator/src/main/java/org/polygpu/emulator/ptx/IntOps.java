package org.polygpu.emulator.ptx;

/**
 * Integer arithmetic and logic ({@link Op#INT}) over the lanes of a mask. Registers hold 64-bit values whose bits
 * above the operand width are undefined, so wrap-around operations (add, sub, mul.lo, logic, shl) compute on all 64
 * bits and only width-sensitive ones read their operands through {@link PtxType#extend}.
 */
final class IntOps {
    private static final PtxType[] TYPES = PtxType.values();
    private static final long M32 = 0xFFFF_FFFFL;

    private IntOps() {
    }

    static void execute(long[] r, int[] code, int pc, int mask) {
        int sub = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        int x = code[pc + Op.X];
        switch (sub & 0xFF) {
            case Op.IADD -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] + r[b + l];
                }
            }
            case Op.ISUB -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] - r[b + l];
                }
            }
            case Op.IMUL_LO -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] * r[b + l];
                }
            }
            case Op.IMAD_LO -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] * r[b + l] + r[c + l];
                }
            }
            case Op.IMUL_WIDE -> wide(r, d, a, b, -1, mask, TYPES[x]);
            case Op.IMAD_WIDE -> wide(r, d, a, b, c, mask, TYPES[x]);
            case Op.IAND -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] & r[b + l];
                }
            }
            case Op.IOR -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] | r[b + l];
                }
            }
            case Op.IXOR -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = r[a + l] ^ r[b + l];
                }
            }
            case Op.ISHL -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    long n = r[b + l] & M32;
                    r[d + l] = n >= 64 ? 0 : r[a + l] << n;
                }
            }
            case Op.ISHR -> shr(r, d, a, b, mask, TYPES[x]);
            case Op.IBFI -> {
                int width = (sub & Op.WIDE) != 0 ? 64 : 32;
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = BitOps.bfi(r[a + l], r[b + l], r[c + l] & 0xFF, r[x + l] & 0xFF, width);
                }
            }
            case Op.ILOP3 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    r[d + l] = BitOps.lop3(r[a + l], r[b + l], r[c + l], x);
                }
            }
            default -> BitOps.execute(r, mask, sub, d, a, b, c, TYPES[x]);
        }
    }

    private static void wide(long[] r, int d, int a, int b, int c, int mask, PtxType t) {
        int s = t.extendShift();
        if (t.isSigned()) {
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long p = (r[a + l] << s >> s) * (r[b + l] << s >> s);
                r[d + l] = c < 0 ? p : p + r[c + l];
            }
        } else {
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long p = (r[a + l] << s >>> s) * (r[b + l] << s >>> s);
                r[d + l] = c < 0 ? p : p + r[c + l];
            }
        }
    }

    private static void shr(long[] r, int d, int a, int b, int mask, PtxType t) {
        int s = t.extendShift();
        if (t.isSigned()) {
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                r[d + l] = r[a + l] << s >> s >> Math.min(r[b + l] & M32, 63);
            }
        } else {
            for (int m = mask; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                long n = r[b + l] & M32;
                r[d + l] = n >= 64 ? 0 : r[a + l] << s >>> s >>> n;
            }
        }
    }

    /** The high half of the double-width product of {@code x} and {@code y} read as {@code t}. */
    static long mulHigh(long x, long y, PtxType t) {
        return switch (t) {
            case S64 -> Math.multiplyHigh(x, y);
            case U64, B64 -> Math.unsignedMultiplyHigh(x, y);
            case S32 -> ((long) (int) x * (int) y) >> 32;
            case U32, B32 -> ((x & M32) * (y & M32)) >>> 32;
            default -> (t.extend(x) * t.extend(y)) >> (t.size() * 8);
        };
    }

    static long div(long x, long y, PtxType t) {
        if (t.extend(y) == 0) {
            return -1; // as the hardware: all ones
        }
        return switch (t) {
            case U64, B64 -> Long.divideUnsigned(x, y);
            default -> t.extend(x) / t.extend(y);
        };
    }

    static long rem(long x, long y, PtxType t) {
        if (t.extend(y) == 0) {
            return x;
        }
        return switch (t) {
            case U64, B64 -> Long.remainderUnsigned(x, y);
            default -> t.extend(x) % t.extend(y);
        };
    }

    static long min(long x, long y, PtxType t) {
        if (t == PtxType.U64 || t == PtxType.B64) {
            return Long.compareUnsigned(x, y) <= 0 ? x : y;
        }
        return Math.min(t.extend(x), t.extend(y));
    }

    static long max(long x, long y, PtxType t) {
        if (t == PtxType.U64 || t == PtxType.B64) {
            return Long.compareUnsigned(x, y) >= 0 ? x : y;
        }
        return Math.max(t.extend(x), t.extend(y));
    }
}
