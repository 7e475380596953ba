package org.polygpu.emulator.ptx;

import java.lang.foreign.MemorySegment;

/**
 * The instruction loop of a warp: fetches the decoded instruction at the group's pc, computes the lanes it applies to
 * (the active group less those whose guard predicate is false), dispatches on the family with one {@code switch}, and
 * handles control flow through {@link Warp}. Counts warp instructions (in all and per pc) and thread instructions
 * (active lanes, guard regardless, as {@code thread_inst_executed} does) and barriers.
 *
 * <p>Owned by one worker thread; nothing is allocated per instruction.
 */
final class Interpreter {
    /** The warp has no lane left to run: all exited, or the rest wait at a barrier. */
    static final int STOPPED = 0;
    /** The warp used its quantum and can continue. */
    static final int QUANTUM = 1;

    private final int[] code;
    private final int[] table;
    private final MemoryContext memory;
    /** vprintf and __assertfail, with what the current CTA printed. */
    final DeviceCalls calls;
    private final long[] values = new long[32];
    private final long[] predicates = new long[32];
    long warpInstructions;
    long threadInstructions;
    /**
     * Warp instructions issued at each pc, for the instruction mix ({@link InstructionClasses}), as a difference
     * array: a straight run of instructions from pc {@code a} to {@code b - 1} adds 1 at {@code a} and -1 at
     * {@code b}, so that counting costs two increments per control transfer rather than one per instruction
     * ({@link #executions()} sums it up).
     */
    private final long[] runs;
    long barriers;
    /** Threads that reached the pending reducing barrier ({@code bar.red}), and how many with a true predicate. */
    private int reducingArrivals;
    private int reducingTrue;

    Interpreter(KernelProgram program, MemoryContext memory) {
        this.code = program.code();
        this.table = program.table();
        this.memory = memory;
        this.calls = new DeviceCalls(memory);
        this.runs = new long[code.length / Op.WIDTH + 1];
    }

    /** Warp instructions issued at each pc so far. */
    long[] executions() {
        long[] e = new long[runs.length - 1];
        long running = 0;
        for (int pc = 0; pc < e.length; pc++) {
            running += runs[pc];
            e[pc] = running;
        }
        return e;
    }

    /** Instructions {@code from} to {@code to - 1} were issued once more. */
    private void ran(int from, int to) {
        if (to > from) {
            runs[from]++;
            runs[to]--;
        }
    }

    /**
     * Runs {@code w} for at most {@code quantum} warp instructions.
     *
     * @throws MemoryFault with its pc set, when an access is invalid
     */
    int run(Warp w, long quantum) {
        final int[] code = this.code;
        final long[] r = w.regs;
        int pc = w.pc;
        int run = pc;
        int active = w.active;
        long warpCount = 0;
        long threadCount = 0;
        try {
            while (active != 0) {
                if (warpCount >= quantum) {
                    ran(run, pc);
                    w.pc = pc;
                    w.active = active;
                    return QUANTUM;
                }
                final int at = pc * Op.WIDTH;
                int exec = active;
                final int guard = code[at + Op.GUARD];
                if (guard >= 0) {
                    exec = guarded(r, guard, active);
                }
                warpCount++;
                threadCount += Integer.bitCount(active);
                switch (code[at]) {
                    case Op.MOV -> WarpOps.mov(r, code, at, exec);
                    case Op.INT -> IntOps.execute(r, code, at, exec);
                    case Op.FLOAT -> FloatOps.execute(r, code, at, exec);
                    case Op.SETP -> CompareOps.setp(r, code, at, exec);
                    case Op.SELP -> CompareOps.selp(r, code, at, exec);
                    case Op.SLCT -> CompareOps.slct(r, code, at, exec);
                    case Op.CVT -> ConvertOps.cvt(r, code, at, exec);
                    case Op.LD -> MemoryOps.load(r, code, table, at, exec, memory);
                    case Op.ST -> MemoryOps.store(r, code, table, at, exec, memory);
                    case Op.COPY_ASYNC -> MemoryOps.copyAsync(r, code, table, at, exec, memory);
                    case Op.MBARRIER -> MbarrierOps.execute(r, code, at, exec, memory);
                    case Op.HALF -> HalfOps.execute(r, code, at, exec);
                    case Op.ATOM -> AtomicOps.execute(r, code, table, at, exec, memory);
                    case Op.SHFL -> WarpOps.shfl(r, code, at, exec, values, predicates);
                    case Op.VOTE -> WarpOps.perMask(r, code, at, exec, WarpOps::vote);
                    case Op.MATCH -> WarpOps.perMask(r, code, at, exec, WarpOps::match);
                    case Op.REDUX -> WarpOps.perMask(r, code, at, exec, WarpOps::redux);
                    case Op.ACTIVEMASK -> WarpOps.fill(r, code[at + Op.D], exec, active & 0xFFFF_FFFFL);
                    case Op.CLOCK -> WarpOps.fill(r, code[at + Op.D], exec, w.issued + warpCount);
                    case Op.ISSPACEP -> WarpOps.isspacep(r, code, at, exec);
                    case Op.PACK -> WarpOps.pack(r, code, table, at, exec);
                    case Op.UNPACK -> WarpOps.unpack(r, code, table, at, exec);
                    case Op.DEVICE_CALL -> calls.call(code, table, at, exec);
                    case Op.NOP -> { }
                    case Op.TRAP -> {
                        if (exec != 0) {
                            throw new MemoryFault(Integer.numberOfTrailingZeros(exec), "trap instruction executed");
                        }
                    }
                    default -> {
                        ran(run, pc + 1);
                        w.pc = pc;
                        w.active = active;
                        control(w, code[at], at, pc, exec);
                        pc = w.pc;
                        run = pc;
                        active = w.active;
                        continue;
                    }
                }
                pc++;
                if (pc >= w.nextWaitPc) {
                    ran(run, pc);
                    w.active = active;
                    w.park(pc);
                    pc = w.pc;
                    run = pc;
                    active = w.active;
                }
            }
            ran(run, pc);
            w.pc = pc;
            w.active = 0;
            return STOPPED;
        } catch (MemoryFault f) {
            f.pc = pc;
            w.pc = pc;
            w.active = active;
            throw f;
        } finally {
            warpInstructions += warpCount;
            threadInstructions += threadCount;
            w.issued += warpCount;
        }
    }

    private static int guarded(long[] r, int guard, int active) {
        int p = guard >> 1;
        long negated = guard & 1;
        int mask = 0;
        for (int m = active; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (((r[p + l] & 1) ^ negated) != 0) {
                mask |= 1 << l;
            }
        }
        return mask;
    }

    private void control(Warp w, int op, int at, int pc, int exec) {
        switch (op) {
            case Op.BRA -> w.branch(pc, exec, code[at + Op.D]);
            case Op.EXIT -> w.exit(pc, exec);
            case Op.BAR -> {
                barriers++;
                if (code[at + Op.SUB] != Op.BAR_PLAIN) {
                    contribute(w.regs, at, exec);
                }
                w.arrive(pc, exec);
            }
            case Op.CALL -> call(w, at, pc, exec);
            case Op.RET -> ret(w, pc, exec);
            default -> throw new IllegalStateException("unknown opcode " + op + " at pc " + pc);
        }
    }

    private void contribute(long[] r, int at, int exec) {
        int c = code[at + Op.C];
        long negated = code[at + Op.X];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            reducingArrivals++;
            if (((r[c + l] & 1) ^ negated) != 0) {
                reducingTrue++;
            }
        }
    }

    /**
     * The CTA's barrier completes: lanes of {@code w} blocked at a reducing barrier receive its result (threads that
     * exited take no part, as they count as arrived without a predicate).
     */
    void completeBarrier(Warp w) {
        for (int m = w.blocked; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int at = (w.lanePc[l] - 1) * Op.WIDTH;
            int sub = code[at + Op.SUB];
            if (code[at] == Op.BAR && sub != Op.BAR_PLAIN) {
                w.regs[code[at + Op.D] + l] = switch (sub) {
                    case Op.BAR_POPC -> reducingTrue;
                    case Op.BAR_AND -> reducingTrue == reducingArrivals ? 1 : 0;
                    default -> reducingTrue > 0 ? 1 : 0;
                };
            }
        }
    }

    /** Starts counting for the next reducing barrier, once every warp has its result. */
    void resetBarrier() {
        reducingArrivals = 0;
        reducingTrue = 0;
    }

    private void call(Warp w, int at, int pc, int exec) {
        MemorySegment local = memory.local;
        int copies = code[at + Op.A];
        int count = code[at + Op.B];
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (w.depth[l] >= w.maxDepth) {
                throw new MemoryFault(l, "call stack overflow (depth " + w.depth[l] + ")");
            }
            w.returns[l * w.maxDepth + w.depth[l]++] = pc + 1;
            long base = memory.localOf(l);
            for (int k = 0; k < count; k++) {
                int e = copies + 3 * k;
                MemorySegment.copy(local, base + table[e], local, base + table[e + 1], table[e + 2]);
            }
        }
        w.branch(pc, exec, code[at + Op.D]);
    }

    /** Lanes {@code exec} return to their callers (or exit, in the kernel) after copying the return values. */
    private void ret(Warp w, int pc, int exec) {
        MemorySegment local = memory.local;
        int leaving = 0;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            if (w.depth[l] == 0) {
                leaving |= 1 << l;
                continue;
            }
            int back = w.returns[l * w.maxDepth + --w.depth[l]];
            int callAt = (back - 1) * Op.WIDTH;
            int copies = code[callAt + Op.C];
            int count = code[callAt + Op.X];
            long base = memory.localOf(l);
            for (int k = 0; k < count; k++) {
                int e = copies + 3 * k;
                MemorySegment.copy(local, base + table[e], local, base + table[e + 1], table[e + 2]);
            }
            w.lanePc[l] = back;
        }
        w.exited |= leaving;
        int returning = exec & ~leaving;
        int staying = w.active & ~exec;
        for (int m = staying; m != 0; m &= m - 1) {
            w.lanePc[Integer.numberOfTrailingZeros(m)] = pc + 1;
        }
        w.waiting |= returning | staying;
        w.active = 0;
        w.schedule();
    }
}
