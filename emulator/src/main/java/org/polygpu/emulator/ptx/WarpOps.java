package org.polygpu.emulator.ptx;

/**
 * Instructions that work across the lanes of a warp or on whole registers: shuffles, votes, matches, reductions,
 * pack and unpack of vector moves, and writes of one value to every lane. The member mask of {@code .sync} forms is
 * not checked: the lanes executing the instruction take part.
 */
final class WarpOps {
    private WarpOps() {
    }

    /** {@code shfl}: PTX's lane arithmetic with the segment mask and clamp of operand c, and the predicate output. */
    static void shfl(long[] r, int[] code, int pc, int exec, long[] values, long[] predicates) {
        int mode = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int b = code[pc + Op.B];
        int c = code[pc + Op.C];
        int p = code[pc + Op.X];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int bval = (int) r[b + l] & 0x1F;
            int cval = (int) r[c + l];
            int segmask = (cval >> 8) & 0x1F;
            int minLane = l & segmask;
            int maxLane = minLane | (cval & 0x1F & ~segmask);
            int j;
            boolean ok;
            switch (mode) {
                case Op.SHFL_UP -> {
                    j = l - bval;
                    ok = j >= maxLane;
                }
                case Op.SHFL_DOWN -> {
                    j = l + bval;
                    ok = j <= maxLane;
                }
                case Op.SHFL_BFLY -> {
                    j = l ^ bval;
                    ok = j <= maxLane;
                }
                default -> {
                    j = minLane | (bval & ~segmask);
                    ok = j <= maxLane;
                }
            }
            values[l] = r[a + (ok ? j : l)];
            predicates[l] = ok ? 1 : 0;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (d >= 0) {
                r[d + l] = values[l];
            }
            if (p >= 0) {
                r[p + l] = predicates[l];
            }
        }
    }

    static void vote(long[] r, int[] code, int pc, int exec) {
        int mode = code[pc + Op.SUB];
        int a = code[pc + Op.A];
        long negated = code[pc + Op.X];
        int ballot = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (((r[a + l] & 1) ^ negated) != 0) {
                ballot |= 1 << l;
            }
        }
        long result = switch (mode) {
            case Op.VOTE_ALL -> ballot == exec ? 1 : 0;
            case Op.VOTE_ANY -> ballot != 0 ? 1 : 0;
            case Op.VOTE_UNI -> ballot == 0 || ballot == exec ? 1 : 0;
            default -> ballot & 0xFFFF_FFFFL;
        };
        fill(r, code[pc + Op.D], exec, result);
    }

    /**
     * {@code match.any}: each lane gets the mask of executing lanes holding its value; {@code match.all}: each lane
     * gets the executing lanes' mask when all hold the same value, else 0, and the predicate says which.
     */
    static void match(long[] r, int[] code, int pc, int exec) {
        int sub = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        int p = code[pc + Op.X];
        long width = (sub & Op.MATCH_B64) != 0 ? -1L : 0xFFFF_FFFFL;
        boolean all = (sub & Op.MATCH_ALL) != 0;
        int first = Integer.numberOfTrailingZeros(exec);
        boolean same = true;
        for (int m = exec; m != 0; m &= m - 1) {
            same &= ((r[a + Integer.numberOfTrailingZeros(m)] ^ r[a + first]) & width) == 0;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int peers = 0;
            if (all) {
                peers = same ? exec : 0;
            } else {
                for (int n = exec; n != 0; n &= n - 1) {
                    int k = Integer.numberOfTrailingZeros(n);
                    if (((r[a + k] ^ r[a + l]) & width) == 0) {
                        peers |= 1 << k;
                    }
                }
            }
            if (d >= 0) {
                r[d + l] = peers & 0xFFFF_FFFFL;
            }
            if (p >= 0) {
                r[p + l] = same ? 1 : 0;
            }
        }
    }

    /** {@code redux.sync}: the executing lanes' 32-bit values reduced, given to each of them. */
    static void redux(long[] r, int[] code, int pc, int exec) {
        int op = code[pc + Op.SUB];
        int a = code[pc + Op.A];
        int first = Integer.numberOfTrailingZeros(exec);
        int v = exec == 0 ? 0 : (int) r[a + first];
        for (int m = exec & (exec - 1); m != 0; m &= m - 1) {
            int x = (int) r[a + Integer.numberOfTrailingZeros(m)];
            v = switch (op) {
                case Op.REDUX_ADD -> v + x;
                case Op.REDUX_MIN_U -> Integer.compareUnsigned(v, x) <= 0 ? v : x;
                case Op.REDUX_MIN_S -> Math.min(v, x);
                case Op.REDUX_MAX_U -> Integer.compareUnsigned(v, x) >= 0 ? v : x;
                case Op.REDUX_MAX_S -> Math.max(v, x);
                case Op.REDUX_AND -> v & x;
                case Op.REDUX_OR -> v | x;
                default -> v ^ x;
            };
        }
        fill(r, code[pc + Op.D], exec, v & 0xFFFF_FFFFL);
    }

    /** A warp-wide operation over the lanes {@code exec}. */
    @FunctionalInterface
    interface Collective {
        void run(long[] r, int[] code, int pc, int exec);
    }

    /**
     * Runs a {@code .sync} collective ({@code vote}, {@code match}, {@code redux}) once per group of executing lanes
     * naming the same membermask (register c, -1 when the instruction has none), over that mask's executing lanes: a
     * tile of 8 lanes votes among its 8 lanes (cooperative groups' {@code tile.ballot}), not with the whole warp.
     */
    static void perMask(long[] r, int[] code, int pc, int exec, Collective op) {
        int c = code[pc + Op.C];
        if (c < 0) {
            op.run(r, code, pc, exec);
            return;
        }
        int first = Integer.numberOfTrailingZeros(exec);
        if (exec == 0 || ((int) r[c + first] & exec) == exec) { // one group: the common case
            op.run(r, code, pc, exec);
            return;
        }
        for (int remaining = exec; remaining != 0; ) {
            int l = Integer.numberOfTrailingZeros(remaining);
            int group = ((int) r[c + l] & remaining) | (1 << l);
            op.run(r, code, pc, group);
            remaining &= ~group;
        }
    }

    /** Writes {@code value} to register {@code d} of every lane in {@code exec}. */
    static void fill(long[] r, int d, int exec, long value) {
        for (int m = exec; m != 0; m &= m - 1) {
            r[d + Integer.numberOfTrailingZeros(m)] = value;
        }
    }

    static void mov(long[] r, int[] code, int pc, int exec) {
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        if (exec == -1) {
            System.arraycopy(r, a, r, d, 32);
            return;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            r[d + l] = r[a + l];
        }
    }

    /** {@code mov.b64 d, {lo, hi}} and friends: element 0 is the least significant. */
    static void pack(long[] r, int[] code, int[] table, int pc, int exec) {
        int d = code[pc + Op.D];
        int list = code[pc + Op.A];
        int count = code[pc + Op.B];
        int bits = code[pc + Op.C];
        long elementMask = bits == 64 ? -1L : (1L << bits) - 1;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long v = 0;
            for (int e = count - 1; e >= 0; e--) {
                v = (v << bits) | (r[table[list + e] + l] & elementMask);
            }
            r[d + l] = v;
        }
    }

    static void unpack(long[] r, int[] code, int[] table, int pc, int exec) {
        int list = code[pc + Op.D];
        int a = code[pc + Op.A];
        int count = code[pc + Op.B];
        int bits = code[pc + Op.C];
        long elementMask = bits == 64 ? -1L : (1L << bits) - 1;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long v = r[a + l];
            for (int e = 0; e < count; e++) {
                int reg = table[list + e];
                if (reg >= 0) {
                    r[reg + l] = (v >>> (e * bits)) & elementMask;
                }
            }
        }
    }

    /** {@code isspacep}: whether a generic address lies in the given state space's window. */
    static void isspacep(long[] r, int[] code, int pc, int exec) {
        int space = code[pc + Op.SUB];
        int d = code[pc + Op.D];
        int a = code[pc + Op.A];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            long v = r[a + l];
            boolean shared = v >= Specials.SHARED_WINDOW && v < Specials.SHARED_WINDOW + Specials.WINDOW_SIZE;
            boolean local = v >= Specials.LOCAL_WINDOW && v < Specials.LOCAL_WINDOW + Specials.WINDOW_SIZE;
            boolean in = switch (space) {
                case Op.SHARED -> shared;
                case Op.LOCAL -> local;
                case Op.GLOBAL, Op.CONST -> v >= GlobalMemory.FIRST_ADDRESS;
                default -> false;
            };
            r[d + l] = in ? 1 : 0;
        }
    }
}
