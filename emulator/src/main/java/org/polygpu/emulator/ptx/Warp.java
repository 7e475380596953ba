package org.polygpu.emulator.ptx;

import java.util.Arrays;

/**
 * The state of one warp of 32 lanes: its register file ({@code regs[register * 32 + lane]}), and where each lane is.
 *
 * <p>Reconvergence is by lowest pc: the lanes at the current pc form the active group; lanes that diverged wait with
 * their own pc in {@link #lanePc}; whenever the group's pc reaches or passes the lowest waiting pc, the group parks
 * and the lowest-pc lanes (now merged with any group at the same pc) run next. Lanes at a barrier are blocked until
 * the CTA releases them; exited lanes never run again. {@link #nextWaitPc} caches the lowest waiting pc so that the
 * common straight-line case costs one comparison per instruction.
 *
 * <p>Owned by one worker thread; reused for every CTA the worker runs.
 */
final class Warp {
    final long[] regs;
    final int[] lanePc = new int[32];
    final int[] depth = new int[32];
    /** Return pcs: {@code returns[lane * maxDepth + level]}. */
    final int[] returns;
    final int maxDepth;
    int index;
    int pc;
    int active;
    int waiting;
    int nextWaitPc = Integer.MAX_VALUE;
    int blocked;
    int exited;
    long issued;
    /** Results of {@link #scan}: the lowest waiting pc, the lanes there, and the lowest pc of the other lanes. */
    private int scanMin;
    private int scanGroup;
    private int scanNext;

    Warp(int registers, int maxDepth) {
        this.regs = new long[registers * 32];
        this.maxDepth = Math.max(1, maxDepth);
        this.returns = new int[32 * this.maxDepth];
    }

    /**
     * Resets the warp for a new CTA: registers from the first {@code length} values of {@code template}; the first
     * {@code lanes} lanes start at pc 0, the rest never run.
     */
    void start(long[] template, int length, int warpIndex, int lanes) {
        System.arraycopy(template, 0, regs, 0, length);
        index = warpIndex;
        pc = 0;
        int mask = lanes >= 32 ? -1 : (1 << lanes) - 1;
        active = mask;
        exited = ~mask;
        waiting = 0;
        blocked = 0;
        nextWaitPc = Integer.MAX_VALUE;
        issued = 0;
        Arrays.fill(depth, 0);
    }

    boolean done() {
        return active == 0 && waiting == 0 && blocked == 0;
    }

    /** The group continues at {@code target}, parking if waiting lanes are at or before it. */
    void moveTo(int target) {
        pc = target;
        if (target >= nextWaitPc) {
            park(target);
        }
    }

    /** Lanes {@code exec} of the active group jump to {@code target}; the others continue after {@code at}. */
    void branch(int at, int exec, int target) {
        if (exec == active) {
            moveTo(target);
        } else if (exec == 0) {
            moveTo(at + 1);
        } else {
            for (int m = active; m != 0; m &= m - 1) {
                int l = Integer.numberOfTrailingZeros(m);
                lanePc[l] = (exec & (1 << l)) != 0 ? target : at + 1;
            }
            waiting |= active;
            active = 0;
            schedule();
        }
    }

    /** Lanes {@code exec} leave for good; the rest of the group continues after {@code at}. */
    void exit(int at, int exec) {
        exited |= exec;
        active &= ~exec;
        if (active != 0) {
            moveTo(at + 1);
        } else {
            schedule();
        }
    }

    /** Lanes {@code exec} wait at a barrier and will resume after {@code at}. */
    void arrive(int at, int exec) {
        for (int m = exec; m != 0; m &= m - 1) {
            lanePc[Integer.numberOfTrailingZeros(m)] = at + 1;
        }
        blocked |= exec;
        active &= ~exec;
        if (active != 0) {
            moveTo(at + 1);
        } else {
            schedule();
        }
    }

    /** The CTA's barrier completed: blocked lanes may run again. */
    void release() {
        waiting |= blocked;
        blocked = 0;
        if (active == 0) {
            schedule();
        } else {
            nextWaitPc = lowestWaitingPc();
        }
    }

    /**
     * The active group reached {@code at}, at or past the lowest waiting pc: lanes waiting at {@code at} join it;
     * if others wait before it, the group waits at {@code at} and the lowest-pc lanes run.
     */
    void park(int at) {
        if (!scan()) {
            pc = at;
            nextWaitPc = Integer.MAX_VALUE;
        } else if (at == scanMin) {
            waiting &= ~scanGroup;
            active |= scanGroup;
            pc = at;
            nextWaitPc = scanNext;
        } else if (at < scanMin) {
            pc = at;
            nextWaitPc = scanMin;
        } else {
            for (int m = active; m != 0; m &= m - 1) {
                lanePc[Integer.numberOfTrailingZeros(m)] = at;
            }
            waiting = (waiting & ~scanGroup) | active;
            active = scanGroup;
            pc = scanMin;
            nextWaitPc = Math.min(scanNext, at);
        }
    }

    /** Makes the lowest-pc waiting lanes the active group; leaves none active if no lane waits. */
    void schedule() {
        if (!scan()) {
            active = 0;
            nextWaitPc = Integer.MAX_VALUE;
            return;
        }
        waiting &= ~scanGroup;
        active = scanGroup;
        pc = scanMin;
        nextWaitPc = scanNext;
    }

    /**
     * One pass over the waiting lanes: sets {@link #scanMin} to their lowest pc, {@link #scanGroup} to the lanes there
     * and {@link #scanNext} to the lowest pc of the others ({@code MAX_VALUE} if none). False if no lane waits.
     */
    private boolean scan() {
        if (waiting == 0) {
            return false;
        }
        int min = Integer.MAX_VALUE;
        int next = Integer.MAX_VALUE;
        int group = 0;
        for (int m = waiting; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            int at = lanePc[l];
            if (at < min) {
                next = min;
                min = at;
                group = 1 << l;
            } else if (at == min) {
                group |= 1 << l;
            } else if (at < next) {
                next = at;
            }
        }
        scanMin = min;
        scanGroup = group;
        scanNext = next;
        return true;
    }

    private int lowestWaitingPc() {
        int min = Integer.MAX_VALUE;
        for (int m = waiting; m != 0; m &= m - 1) {
            min = Math.min(min, lanePc[Integer.numberOfTrailingZeros(m)]);
        }
        return min;
    }
}
