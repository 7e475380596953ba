package org.polygpu.emulator.ptx;

import java.util.List;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;

/**
 * The decoder of memory instructions: {@code ld}, {@code ldu}, {@code st}, {@code atom}, {@code red}, {@code cvta} and
 * {@code isspacep}. Addresses become a register plus an immediate offset; a symbol's address is a register
 * ({@link Decoder#symbol}); kernel parameters are read from the launch's parameter buffer and function parameters
 * live in local memory.
 */
final class MemoryDecoder {
    private static final String[] IGNORED = {"weak", "volatile", "relaxed", "acquire", "release", "acq_rel", "sc",
        "cta", "gpu", "sys", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "noftz"};

    /** A resolved address operand: state space, register, offset and whether the register is 32 bits wide. */
    private record Address(int space, int register, int offset, boolean narrow) {
    }

    private MemoryDecoder() {
    }

    static boolean decode(Decoder dc, Modifiers m) {
        switch (m.base()) {
            case "ld", "ldu" -> access(dc, m, true);
            case "st" -> access(dc, m, false);
            case "atom", "red" -> atomic(dc, m);
            case "cvta" -> cvta(dc, m);
            case "cp" -> copyAsync(dc, m);
            case "mbarrier" -> mbarrier(dc, m);
            case "isspacep" -> {
                int space = space(m);
                m.done();
                List<Operand> o = m.instruction().operands();
                dc.emit(m.instruction(), Op.ISSPACEP, space, dc.destination(m.instruction(), o.get(0), false),
                        dc.source(m.instruction(), o.get(1), PtxType.U64), 0, 0, 0);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void access(Decoder dc, Modifiers m, boolean load) {
        Instruction in = m.instruction();
        int space = space(m);
        m.ignore(IGNORED);
        int lanes = m.take("v2") ? 2 : m.take("v4") ? 4 : 1;
        PtxType t = m.type();
        m.done();
        if (t == PtxType.B128 || t == PtxType.PRED) {
            throw m.unsupported("type " + t.spelling());
        }
        List<Operand> o = in.operands();
        Operand value = load ? o.get(0) : o.get(1);
        Operand where = load ? o.get(1) : o.get(0);
        if (!(where instanceof Operand.Addr addr)) {
            throw m.unsupported("expected an address operand [...]");
        }
        Address a = address(dc, m, addr, space);
        if (a.space() == Op.KERNEL_PARAM && !load) {
            throw m.unsupported("kernel parameters are read-only");
        }
        int d;
        if (lanes == 1) {
            d = load ? dc.destination(in, value, false) : dc.source(in, value, t);
        } else {
            if (!(value instanceof Operand.Vec v) || v.elements().size() != lanes) {
                throw m.unsupported("expected a vector of " + lanes + " registers");
            }
            int[] regs = new int[lanes];
            for (int i = 0; i < lanes; i++) {
                regs[i] = load ? dc.destination(in, v.elements().get(i), true) : dc.source(in, v.elements().get(i), t);
            }
            d = dc.table(regs);
        }
        dc.emit(in, load ? Op.LD : Op.ST, a.space(), d, a.register(), a.offset(), Op.accessKind(t),
                lanes | (a.narrow() ? Op.ADDRESS32 : 0));
    }

    private static void atomic(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        boolean reduction = m.base().equals("red");
        int space = space(m);
        m.ignore(IGNORED);
        String op = m.takeAny("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas");
        m.take("noftz"); // half-precision adds never flush subnormals
        String halves = m.takeAny("f16x2", "bf16x2");
        PtxType t = halves != null ? (halves.startsWith("bf") ? PtxType.BF16 : PtxType.F16) : m.type();
        m.done();
        boolean sixteen = halves != null || t.size() == 2;
        if (sixteen && !("add".equals(op) && t.isFloat()) && !("cas".equals(op) && t == PtxType.B16)) {
            throw m.unsupported("atomic " + op + " on " + (halves != null ? halves : t.spelling()));
        }
        if (op == null || (!sixteen && (t.size() < 4 || t.size() > 8)) || (reduction && op.equals("cas"))) {
            throw m.unsupported(op == null ? "no atomic operation given" : "type " + t.spelling());
        }
        int code = switch (op) {
            case "add" -> Op.ATOM_ADD;
            case "min" -> Op.ATOM_MIN;
            case "max" -> Op.ATOM_MAX;
            case "inc" -> Op.ATOM_INC;
            case "dec" -> Op.ATOM_DEC;
            case "and" -> Op.ATOM_AND;
            case "or" -> Op.ATOM_OR;
            case "xor" -> Op.ATOM_XOR;
            case "exch" -> Op.ATOM_EXCH;
            default -> Op.ATOM_CAS;
        };
        if (t.isFloat() && code != Op.ATOM_ADD && code != Op.ATOM_EXCH) {
            throw m.unsupported("atomic " + op + " on " + t.spelling());
        }
        List<Operand> o = in.operands();
        int first = reduction ? 0 : 1;
        if (!(o.get(first) instanceof Operand.Addr addr)) {
            throw m.unsupported("expected an address operand [...]");
        }
        Address a = address(dc, m, addr, space);
        if (a.space() != Op.GLOBAL && a.space() != Op.SHARED && a.space() != Op.GENERIC) {
            throw m.unsupported("atomics on ." + Op.spaceName(a.space()) + " memory");
        }
        if ((code == Op.ATOM_CAS || code == Op.ATOM_EXCH) && a.space() != Op.SHARED) {
            dc.orderCtas();
        }
        int d = reduction ? -1 : dc.destination(in, o.get(0), true);
        PtxType operand = halves != null ? PtxType.B32 : t;
        int b = dc.source(in, o.get(first + 1), operand);
        int c = code == Op.ATOM_CAS ? dc.source(in, o.get(first + 2), operand) : -1;
        int entry = dc.table(code, t.ordinal(), a.offset(), (a.narrow() ? 1 : 0) | (halves != null ? 2 : 0));
        dc.emit(in, Op.ATOM, a.space(), d, a.register(), b, c, entry);
    }

    private static void cvta(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        boolean to = m.take("to");
        int space = space(m);
        PtxType t = m.type();
        m.done();
        List<Operand> o = in.operands();
        int d = dc.destination(in, o.get(0), false);
        int a = dc.source(in, o.get(1), t);
        long window = switch (space) {
            case Op.SHARED -> Specials.SHARED_WINDOW;
            case Op.LOCAL -> Specials.LOCAL_WINDOW;
            case Op.GLOBAL, Op.CONST -> 0;
            default -> throw m.unsupported("cvta for this state space");
        };
        if (window == 0) {
            dc.emit(in, Op.MOV, 0, d, a, 0, 0, 0);
        } else {
            dc.emit(in, Op.INT, to ? Op.ISUB : Op.IADD, d, a, dc.constant(window), 0, t.ordinal());
        }
    }

    /**
     * {@code cp.async}: the copy ({@code .ca} or {@code .cg}, shared from global, with an optional source size) is
     * done at once, so {@code commit_group}, {@code wait_group} and {@code wait_all} have nothing to do, and an
     * {@code mbarrier.arrive} that counts the copies' completion (the form without {@code .noinc}) changes nothing.
     */
    private static void copyAsync(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        if (!m.take("async")) {
            throw m.unsupported("only cp.async is supported");
        }
        if (m.takeAny("commit_group", "wait_group", "wait_all") != null || (m.take("mbarrier") && m.take("arrive"))) {
            m.ignore("shared", "shared::cta", "b64");
            m.done();
            dc.emit(in, Op.NOP, 0, 0, 0, 0, 0, 0);
            return;
        }
        m.ignore("ca", "cg");
        boolean toShared = m.takeAny("shared", "shared::cta") != null;
        boolean fromGlobal = m.take("global");
        m.done();
        List<Operand> o = in.operands();
        if (!toShared || !fromGlobal || o.size() < 3 || !(o.get(0) instanceof Operand.Addr d)
                || !(o.get(1) instanceof Operand.Addr s) || !(o.get(2) instanceof Operand.Imm size)) {
            throw m.unsupported("expected cp.async.shared.global [dst], [src], size{, src-size}");
        }
        Address dst = address(dc, m, d, Op.SHARED);
        Address src = address(dc, m, s, Op.GLOBAL);
        if (o.size() > 3 && o.get(3) instanceof Operand.Reg r && dc.registerType(in, r.name()) == PtxType.PRED) {
            throw m.unsupported("the ignore-src predicate is not supported");
        }
        int srcSize = o.size() > 3 ? dc.source(in, o.get(3), PtxType.U32) : -1;
        int table = dc.table(dst.offset(), src.offset(), (int) size.bits(), (dst.narrow() ? 1 : 0)
                | (src.narrow() ? 2 : 0));
        dc.emit(in, Op.COPY_ASYNC, 0, dst.register(), src.register(), 0, srcSize, table);
    }

    /** {@code mbarrier}: {@code init}, {@code arrive}, {@code arrive_drop}, {@code test_wait}, {@code try_wait}. */
    private static void mbarrier(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String op = m.takeAny("init", "arrive", "arrive_drop", "test_wait", "try_wait", "inval");
        m.take("parity");
        m.ignore("release", "acquire", "relaxed", "cta", "cluster");
        int space = space(m);
        m.take("b64");
        m.done();
        if (op == null || (space != Op.SHARED && space != Op.GENERIC)) {
            throw m.unsupported("expected init, arrive, arrive_drop, test_wait, try_wait or inval on shared memory");
        }
        int kind = switch (op) {
            case "init" -> MbarrierOps.INIT;
            case "arrive" -> MbarrierOps.ARRIVE;
            case "arrive_drop" -> MbarrierOps.ARRIVE_DROP;
            case "inval" -> MbarrierOps.INVALIDATE;
            default -> MbarrierOps.TEST_WAIT;
        };
        List<Operand> o = in.operands();
        int first = kind == MbarrierOps.INIT || kind == MbarrierOps.INVALIDATE ? 0 : 1;
        if (o.size() <= first || !(o.get(first) instanceof Operand.Addr addr)) {
            throw m.unsupported("expected an address operand [...]");
        }
        Address a = address(dc, m, addr, space);
        int d = first == 0 ? -1 : dc.destination(in, o.get(0), true);
        int b = o.size() > first + 1 ? dc.source(in, o.get(first + 1), kind == MbarrierOps.TEST_WAIT ? PtxType.B64
                : PtxType.U32) : -1;
        boolean needsOperand = kind == MbarrierOps.INIT || kind == MbarrierOps.TEST_WAIT;
        if (needsOperand && b < 0 || kind == MbarrierOps.TEST_WAIT && d < 0) {
            throw m.unsupported("missing operand");
        }
        dc.emit(in, Op.MBARRIER, kind, d, a.register(), b, a.offset(), a.space() | (a.narrow() ? Op.ADDRESS32 : 0));
    }

    /** Removes the state-space modifier; none means generic addressing. */
    private static int space(Modifiers m) {
        String s = m.takeAny("global", "shared", "shared::cta", "local", "const", "param", "param::entry",
                "param::func");
        if (s == null) {
            return m.take("nc") ? Op.GLOBAL : Op.GENERIC;
        }
        return switch (s) {
            case "global" -> Op.GLOBAL;
            case "shared", "shared::cta" -> Op.SHARED;
            case "local" -> Op.LOCAL;
            case "const" -> Op.CONST;
            default -> Op.KERNEL_PARAM;
        };
    }

    private static Address address(Decoder dc, Modifiers m, Operand.Addr addr, int space) {
        Instruction in = m.instruction();
        if (addr.offset() != (int) addr.offset()) {
            throw m.unsupported("address offset out of range");
        }
        int offset = (int) addr.offset();
        switch (addr.base()) {
            case Operand.Reg r -> {
                if (space == Op.KERNEL_PARAM) {
                    throw m.unsupported("parameter access through a register address");
                }
                boolean narrow = dc.registerType(in, r.name()).size() == 4;
                return new Address(space, dc.register(in, r.name()), offset, narrow);
            }
            case Operand.Imm i -> {
                return new Address(space, dc.constant(i.bits()), offset, false);
            }
            case Operand.Sym s -> {
                if (space == Op.KERNEL_PARAM) {
                    PtxParam p = dc.kernelParam(s.name());
                    if (p != null) {
                        return new Address(Op.KERNEL_PARAM, dc.constant(0), p.offset() + offset, false);
                    }
                    return new Address(Op.LOCAL, dc.symbol(in, s.name(), 0, false), offset, false);
                }
                return new Address(space, dc.symbol(in, s.name(), 0, space == Op.GENERIC), offset, false);
            }
            default -> throw m.unsupported("unsupported address " + addr);
        }
    }
}
