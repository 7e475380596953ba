package org.polygpu.emulator.ptx;

import java.util.HashMap;
import java.util.Map;

/**
 * The class of every instruction of a program ({@link InstructionMix}) and which of its global loads expose their
 * latency, found once per program from the decoded code, so that the interpreter only counts executions per pc.
 *
 * <p>Latency exposure follows how the hardware (and the PTX assembler, which hoists independent loads) overlaps
 * loads: within a basic block every global load whose address does not depend on another load of the block is in
 * flight at once, so the block waits for one latency, plus one more for each level of loads whose addresses come
 * from earlier loads (an index read, then the element it points to). A dependency is followed through the
 * registers that instructions of the block write ({@code d}) from registers they read ({@code a}, {@code b},
 * {@code c}). A branch, barrier, call, return or exit, and every branch target, starts a new block.
 */
final class InstructionClasses {
    static final int FP32 = 0;
    static final int FP64 = 1;
    static final int INTEGER = 2;
    static final int SFU = 3;
    static final int GLOBAL_LOAD = 4;
    static final int GLOBAL_STORE = 5;
    static final int SHARED = 6;
    static final int OTHER = 7;
    private static final PtxType[] TYPES = PtxType.values();

    private final int[] classes;
    private final boolean[] exposed;

    InstructionClasses(int[] code) {
        int n = code.length / Op.WIDTH;
        classes = new int[n];
        exposed = new boolean[n];
        for (int pc = 0; pc < n; pc++) {
            classes[pc] = classify(code, pc * Op.WIDTH);
        }
        markExposedLoads(code, n);
    }

    /** The mix of a run that executed instruction {@code pc} {@code executions[pc]} times (warp instructions). */
    InstructionMix mix(long[] executions) {
        long[] c = new long[8];
        long exposedLoads = 0;
        for (int pc = 0; pc < executions.length; pc++) {
            long e = executions[pc];
            if (e != 0) {
                c[classes[pc]] += e;
                if (exposed[pc]) {
                    exposedLoads += e;
                }
            }
        }
        return new InstructionMix(c[FP32], c[FP64], c[INTEGER], c[SFU], c[GLOBAL_LOAD], exposedLoads,
                c[GLOBAL_STORE], c[SHARED], c[OTHER]);
    }

    int classOf(int pc) {
        return classes[pc];
    }

    boolean exposesLatency(int pc) {
        return exposed[pc];
    }

    private static int classify(int[] code, int at) {
        int sub = code[at + Op.SUB];
        return switch (code[at]) {
            case Op.FLOAT -> floating(sub);
            case Op.HALF -> FP32;
            case Op.INT, Op.SELP, Op.SLCT, Op.SHFL, Op.VOTE, Op.MATCH, Op.REDUX, Op.PACK, Op.UNPACK -> INTEGER;
            case Op.SETP -> {
                PtxType t = TYPES[(sub >> 4) & 0x1F];
                yield t == PtxType.F64 ? FP64 : t.isFloat() ? FP32 : INTEGER;
            }
            case Op.CVT -> conversion(TYPES[sub], TYPES[code[at + Op.X] & 0xFF]);
            case Op.LD -> sub == Op.GLOBAL || sub == Op.GENERIC ? GLOBAL_LOAD : sub == Op.SHARED ? SHARED : OTHER;
            case Op.ST -> sub == Op.GLOBAL || sub == Op.GENERIC ? GLOBAL_STORE : sub == Op.SHARED ? SHARED : OTHER;
            case Op.COPY_ASYNC -> GLOBAL_LOAD;
            default -> OTHER;
        };
    }

    private static int floating(int sub) {
        int base = sub & ~Op.F64;
        if ((sub & Op.F64) != 0) {
            return FP64;
        }
        return switch (base) {
            case Op.FDIV, Op.FSQRT, Op.FRSQRT, Op.FRCP, Op.FEX2, Op.FLG2, Op.FSIN, Op.FCOS, Op.FTANH -> SFU;
            default -> FP32;
        };
    }

    private static int conversion(PtxType to, PtxType from) {
        if (to.isFloat() != from.isFloat() || (to.isFloat() && to.size() != from.size())) {
            return SFU;
        }
        return INTEGER;
    }

    private void markExposedLoads(int[] code, int n) {
        boolean[] target = new boolean[n + 1];
        for (int pc = 0; pc < n; pc++) {
            int at = pc * Op.WIDTH;
            if (code[at] == Op.BRA && code[at + Op.D] >= 0 && code[at + Op.D] <= n) {
                target[code[at + Op.D]] = true;
            }
        }
        // Registers (as register base / 32) holding a value that depends on a load of the current block, and the
        // load level it depends on.
        Map<Integer, Integer> level = new HashMap<>();
        int deepest = 0;
        for (int pc = 0; pc < n; pc++) {
            int at = pc * Op.WIDTH;
            int op = code[at];
            if (target[pc]) {
                level.clear();
                deepest = 0;
            }
            if (classes[pc] == GLOBAL_LOAD) {
                int depends = level.getOrDefault(code[at + Op.A], 0);
                int mine = depends + 1;
                if (mine > deepest) {
                    exposed[pc] = true;
                    deepest = mine;
                }
                level.put(code[at + Op.D], mine);
            } else if (writesRegister(op)) {
                int l = Math.max(level.getOrDefault(code[at + Op.A], 0), Math.max(
                        level.getOrDefault(code[at + Op.B], 0), level.getOrDefault(code[at + Op.C], 0)));
                if (l > 0) {
                    level.put(code[at + Op.D], l);
                } else {
                    level.remove(code[at + Op.D]);
                }
            }
            if (endsBlock(op)) {
                level.clear();
                deepest = 0;
            }
        }
    }

    /** Families whose {@code d} is a register written from registers {@code a}, {@code b} and {@code c}. */
    private static boolean writesRegister(int op) {
        return switch (op) {
            case Op.MOV, Op.INT, Op.FLOAT, Op.CVT, Op.SELP, Op.SLCT, Op.HALF -> true;
            default -> false;
        };
    }

    private static boolean endsBlock(int op) {
        return switch (op) {
            case Op.BRA, Op.BAR, Op.CALL, Op.RET, Op.EXIT -> true;
            default -> false;
        };
    }
}
