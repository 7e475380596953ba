package org.polygpu.emulator.ptx;

/**
 * Comparisons and selection: {@link Op#SETP} (with the optional boolean combination and second destination),
 * {@link Op#SELP} and {@link Op#SLCT}. A comparison is a truth table over (less, equal, greater, unordered), so every
 * PTX comparison operator is one table lookup after a three-way compare.
 */
final class CompareOps {
    private static final PtxType[] TYPES = PtxType.values();

    private CompareOps() {
    }

    static void setp(long[] r, int[] code, int pc, int mask) {
        int sub = code[pc + Op.SUB];
        int p = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        int q = code[pc + Op.X];
        int table = sub & 0xF;
        PtxType t = TYPES[(sub >> 4) & 0x1F];
        int boolOp = (sub >> 9) & 3;
        long negC = (sub >> 11) & 1;
        boolean ftz = (sub & (1 << 12)) != 0;
        if (boolOp == Op.BOOL_NONE && plain(r, t, table, a, b, p, q, mask, ftz)) {
            return;
        }
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int index = switch (t) {
                case S32 -> Integer.signum(Integer.compare((int) r[a + l], (int) r[b + l])) + 1;
                case U32, B32 -> Integer.signum(Integer.compareUnsigned((int) r[a + l], (int) r[b + l])) + 1;
                case S64 -> Integer.signum(Long.compare(r[a + l], r[b + l])) + 1;
                case U64, B64 -> Integer.signum(Long.compareUnsigned(r[a + l], r[b + l])) + 1;
                case F32 -> floatIndex(r[a + l], r[b + l], ftz);
                case F64 -> doubleIndex(Double.longBitsToDouble(r[a + l]), Double.longBitsToDouble(r[b + l]));
                case F16 -> doubleIndex(Float.float16ToFloat((short) r[a + l]), Float.float16ToFloat((short) r[b + l]));
                case BF16 -> doubleIndex(Float.intBitsToFloat((int) r[a + l] << 16), Float.intBitsToFloat((int) r[b + l]
                        << 16));
                default -> Integer.signum(Long.compare(t.extend(r[a + l]), t.extend(r[b + l]))) + 1;
            };
            long result = (table >> index) & 1;
            long inverse = result ^ 1;
            if (boolOp != Op.BOOL_NONE) {
                long cv = (r[c + l] & 1) ^ negC;
                result = combine(boolOp, result, cv);
                inverse = combine(boolOp, inverse, cv);
            }
            if (p >= 0) {
                r[p + l] = result;
            }
            if (q >= 0) {
                r[q + l] = inverse;
            }
        }
    }

    /**
     * The common comparisons without a boolean combination, with the type dispatch outside the lane loop; false,
     * having done nothing, for the other types.
     */
    private static boolean plain(long[] r, PtxType t, int table, int a, int b, int p, int q, int mask, boolean ftz) {
        switch (t) {
            case S32 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    put(r, p, q, l, table >> Integer.signum(Integer.compare((int) r[a + l], (int) r[b + l])) + 1);
                }
            }
            case U32, B32 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    put(r, p, q, l, table >> Integer.signum(Integer.compareUnsigned((int) r[a + l], (int) r[b + l]))
                            + 1);
                }
            }
            case S64 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    put(r, p, q, l, table >> Integer.signum(Long.compare(r[a + l], r[b + l])) + 1);
                }
            }
            case F32 -> {
                for (int m = mask; m != 0; m &= m - 1) {
                    int l = Integer.numberOfTrailingZeros(m);
                    put(r, p, q, l, table >> floatIndex(r[a + l], r[b + l], ftz));
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Writes bit 0 of {@code bits} to predicate {@code p} and its inverse to {@code q}, each where present. */
    private static void put(long[] r, int p, int q, int l, int bits) {
        long result = bits & 1;
        if (p >= 0) {
            r[p + l] = result;
        }
        if (q >= 0) {
            r[q + l] = result ^ 1;
        }
    }

    private static long combine(int op, long x, long y) {
        return switch (op) {
            case Op.BOOL_AND -> x & y;
            case Op.BOOL_OR -> x | y;
            default -> x ^ y;
        };
    }

    private static int floatIndex(long x, long y, boolean ftz) {
        float fx = FloatOps.f(x);
        float fy = FloatOps.f(y);
        if (ftz) {
            fx = FloatOps.flush(fx);
            fy = FloatOps.flush(fy);
        }
        return doubleIndex(fx, fy);
    }

    /** 0 less, 1 equal, 2 greater, 3 unordered. */
    private static int doubleIndex(double x, double y) {
        return x < y ? 0 : x == y ? 1 : x > y ? 2 : 3;
    }

    static void selp(long[] r, int[] code, int pc, int mask) {
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            r[d + l] = r[c + l] != 0 ? r[a + l] : r[b + l];
        }
    }

    static void slct(long[] r, int[] code, int pc, int mask) {
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        boolean isFloat = code[pc + Op.SUB] == PtxType.F32.ordinal();
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            boolean nonNegative = isFloat ? FloatOps.f(r[c + l]) >= 0 : (int) r[c + l] >= 0;
            r[d + l] = nonNegative ? r[a + l] : r[b + l];
        }
    }
}
