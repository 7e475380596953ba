package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.emulator.ptx.ParsedModule.Function;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;
import org.polygpu.emulator.ptx.ParsedModule.Variable;

/**
 * The translation of one parsed instruction into decoded words: data movement and control here, arithmetic in
 * {@link ArithmeticDecoder}, memory in {@link MemoryDecoder}. An opcode or modifier not listed is an error naming the
 * opcode and the PTX line.
 */
final class InstructionDecoder {
    private InstructionDecoder() {
    }

    static void decode(Decoder dc, Instruction in) {
        Modifiers m = new Modifiers(in, dc.lines());
        if (ArithmeticDecoder.decode(dc, m) || MemoryDecoder.decode(dc, m)) {
            return;
        }
        switch (m.base()) {
            case "mov" -> mov(dc, m);
            case "bra" -> {
                m.take("uni");
                m.done();
                if (!(in.operands().getFirst() instanceof Operand.Sym label)) {
                    throw m.unsupported("indirect branch");
                }
                dc.branch(in, label.name());
            }
            case "call" -> call(dc, m);
            case "ret", "exit" -> {
                m.take("uni");
                m.done();
                dc.emit(in, m.base().equals("ret") ? Op.RET : Op.EXIT, 0, 0, 0, 0, 0, 0);
            }
            case "bar", "barrier" -> barrier(dc, m);
            case "membar", "fence", "nanosleep", "prefetch", "prefetchu", "pmevent", "brkpt", "griddepcontrol" -> {
                m.ignore("cta", "gl", "gpu", "sys", "sc", "acq_rel", "u32", "L1", "L2", "global", "local",
                        "launch_dependents", "wait");
                m.done();
                dc.emit(in, Op.NOP, 0, 0, 0, 0, 0, 0);
            }
            case "shfl" -> shfl(dc, m);
            case "vote" -> vote(dc, m);
            case "match" -> match(dc, m);
            case "redux" -> redux(dc, m);
            case "activemask" -> {
                m.type();
                m.done();
                dc.emit(in, Op.ACTIVEMASK, 0, dc.destination(in, in.operands().getFirst(), false), 0, 0, 0, 0);
            }
            case "trap" -> {
                m.done();
                dc.emit(in, Op.TRAP, 0, 0, 0, 0, 0, 0);
            }
            default -> throw m.unsupported("opcode " + m.base() + " is not supported by the emulator");
        }
    }

    private static void mov(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        PtxType t = m.type();
        m.done();
        List<Operand> o = in.operands();
        Operand d = o.get(0);
        Operand a = o.get(1);
        if (d instanceof Operand.Vec v) {
            int bits = t.size() * 8 / v.elements().size();
            int[] regs = new int[v.elements().size()];
            for (int i = 0; i < regs.length; i++) {
                regs[i] = dc.destination(in, v.elements().get(i), true);
            }
            dc.emit(in, Op.UNPACK, 0, dc.table(regs), dc.source(in, a, t), regs.length, bits, 0);
        } else if (a instanceof Operand.Vec v) {
            int bits = t.size() * 8 / v.elements().size();
            PtxType element = bits == 32 ? PtxType.B32 : bits == 16 ? PtxType.B16 : PtxType.B8;
            int[] regs = new int[v.elements().size()];
            for (int i = 0; i < regs.length; i++) {
                regs[i] = dc.source(in, v.elements().get(i), element);
            }
            dc.emit(in, Op.PACK, 0, dc.destination(in, d, false), dc.table(regs), regs.length, bits, 0);
        } else if (a instanceof Operand.Reg r && Specials.isClock(r.name())) {
            dc.emit(in, Op.CLOCK, t.size() * 8, dc.destination(in, d, false), 0, 0, 0, 0);
        } else {
            dc.emit(in, Op.MOV, 0, dc.destination(in, d, false), dc.source(in, a, t), 0, 0, 0);
        }
    }

    private static void call(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("uni");
        m.done();
        List<Operand> returns = List.of();
        List<Operand> arguments = List.of();
        String callee = null;
        for (Operand o : in.operands()) {
            if (o instanceof Operand.Group g && callee == null) {
                returns = g.elements();
            } else if (o instanceof Operand.Sym s && callee == null) {
                callee = s.name();
            } else if (o instanceof Operand.Group g) {
                arguments = g.elements();
            } else {
                throw m.unsupported("indirect calls and prototypes are not supported");
            }
        }
        Function f = dc.function(callee);
        int provided = DeviceCalls.provided(callee);
        if (provided >= 0 && (f == null || f.body().isEmpty())) {
            deviceCall(dc, m, provided, arguments, returns);
            return;
        }
        if (arguments.size() != f.params().size() || returns.size() != f.returns().size()) {
            throw m.unsupported("call of " + callee + " with " + arguments.size() + " arguments and "
                    + returns.size() + " results, but it declares " + f.params().size() + " and "
                    + f.returns().size());
        }
        dc.call(in, callee, copies(dc, m, arguments, f.params(), f.name(), true),
                copies(dc, m, returns, f.returns(), f.name(), false));
    }

    private static void deviceCall(Decoder dc, Modifiers m, int which, List<Operand> arguments,
                                   List<Operand> returns) {
        int expected = DeviceCalls.arguments(which);
        if (arguments.size() != expected || returns.size() > 1) {
            throw m.unsupported("a call of " + DeviceCalls.name(which) + " takes " + expected + " arguments");
        }
        int[] pairs = new int[2 * expected];
        for (int i = 0; i < expected; i++) {
            pairs[2 * i] = paramOffset(dc, m, arguments.get(i));
            pairs[2 * i + 1] = dc.localVariable(dc.currentName(), ((Operand.Sym) arguments.get(i)).name()).size();
        }
        int result = returns.isEmpty() ? -1 : paramOffset(dc, m, returns.getFirst());
        dc.deviceCall(m.instruction(), which, pairs, result);
    }

    private static int paramOffset(Decoder dc, Modifiers m, Operand o) {
        long offset = o instanceof Operand.Sym s ? dc.localOffset(dc.currentName(), s.name()) : -1;
        if (offset < 0) {
            throw m.unsupported("call operand " + o + " is not a .param variable");
        }
        return (int) offset;
    }

    /** (src, dst, bytes) triples between the caller's call-site parameters and the callee's declared ones. */
    private static int[] copies(Decoder dc, Modifiers m, List<Operand> site, List<Variable> declared, String callee,
                                boolean intoCallee) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < site.size(); i++) {
            if (!(site.get(i) instanceof Operand.Sym s)) {
                throw m.unsupported("call operands must be .param variables");
            }
            long mine = dc.localOffset(dc.currentName(), s.name());
            Variable siteVar = dc.localVariable(dc.currentName(), s.name());
            long theirs = dc.localOffset(callee, declared.get(i).name());
            if (mine < 0 || siteVar == null || theirs < 0) {
                throw m.unsupported("call operand " + s.name() + " is not a .param variable");
            }
            out.add((int) (intoCallee ? mine : theirs));
            out.add((int) (intoCallee ? theirs : mine));
            out.add(Math.min(siteVar.size(), declared.get(i).size()));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void match(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("sync");
        String mode = m.takeAny("any", "all");
        PtxType t = m.type();
        m.done();
        if (mode == null || t.size() < 4) {
            throw m.unsupported("expected .any or .all and .b32 or .b64");
        }
        List<Operand> o = in.operands();
        int d;
        int p = -1;
        if (o.get(0) instanceof Operand.Pair pair) {
            d = dc.destination(in, pair.first(), true);
            p = dc.destination(in, pair.second(), true);
        } else {
            d = dc.destination(in, o.get(0), true);
        }
        int sub = (mode.equals("all") ? Op.MATCH_ALL : 0) | (t.size() == 8 ? Op.MATCH_B64 : 0);
        dc.emit(in, Op.MATCH, sub, d, dc.source(in, o.get(1), t), 0, memberMask(dc, in, o, 2), p);
    }

    private static void redux(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("sync");
        String op = m.takeAny("add", "min", "max", "and", "or", "xor");
        PtxType t = m.type();
        m.done();
        if (op == null || t.size() != 4 || t.isFloat()) {
            throw m.unsupported("expected an operation and a 32-bit integer type");
        }
        int sub = switch (op) {
            case "add" -> Op.REDUX_ADD;
            case "min" -> t.isSigned() ? Op.REDUX_MIN_S : Op.REDUX_MIN_U;
            case "max" -> t.isSigned() ? Op.REDUX_MAX_S : Op.REDUX_MAX_U;
            case "and" -> Op.REDUX_AND;
            case "or" -> Op.REDUX_OR;
            default -> Op.REDUX_XOR;
        };
        List<Operand> o = in.operands();
        dc.emit(in, Op.REDUX, sub, dc.destination(in, o.get(0), false), dc.source(in, o.get(1), t), 0,
                memberMask(dc, in, o, 2), 0);
    }

    /** The register of the membermask operand at {@code index}, or -1 when the instruction has none. */
    private static int memberMask(Decoder dc, Instruction in, List<Operand> o, int index) {
        return o.size() > index ? dc.source(in, o.get(index), PtxType.B32) : -1;
    }

    private static void barrier(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        if (m.take("red")) {
            reduction(dc, m);
            return;
        }
        if (m.take("warp")) {
            m.take("sync");
            m.done();
            dc.emit(in, Op.NOP, 0, 0, 0, 0, 0, 0);
            return;
        }
        boolean arrive = m.take("arrive");
        if (!arrive) {
            m.take("sync");
        }
        m.take("aligned");
        m.done();
        List<Operand> o = in.operands();
        if (arrive) {
            dc.emit(in, Op.NOP, 0, 0, 0, 0, 0, 0); // the CTA releases a barrier once no thread can run
            return;
        }
        int id = o.isEmpty() ? dc.constant(0) : dc.source(in, o.get(0), PtxType.U32);
        int count = o.size() > 1 ? dc.source(in, o.get(1), PtxType.U32) : -1;
        dc.emit(in, Op.BAR, 0, 0, id, count, 0, 0);
    }

    /** {@code bar.red.popc.u32 d, id{, count}, {!}p} and the {@code .and}/{@code .or} forms on predicates. */
    private static void reduction(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("sync");
        m.take("aligned");
        String op = m.takeAny("popc", "and", "or");
        m.type();
        m.done();
        List<Operand> o = in.operands();
        if (op == null || o.size() < 3 || o.size() > 4) {
            throw m.unsupported("expected .popc, .and or .or, a destination, a barrier and a predicate");
        }
        Operand predicate = o.getLast();
        boolean negated = predicate instanceof Operand.Not;
        if (predicate instanceof Operand.Not not) {
            predicate = not.operand();
        }
        int sub = switch (op) {
            case "popc" -> Op.BAR_POPC;
            case "and" -> Op.BAR_AND;
            default -> Op.BAR_OR;
        };
        int count = o.size() == 4 ? dc.source(in, o.get(2), PtxType.U32) : -1;
        dc.emit(in, Op.BAR, sub, dc.destination(in, o.get(0), false), dc.source(in, o.get(1), PtxType.U32), count,
                dc.source(in, predicate, PtxType.PRED), negated ? 1 : 0);
    }

    private static void shfl(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("sync");
        String mode = m.takeAny("up", "down", "bfly", "idx");
        PtxType t = m.type();
        m.done();
        if (mode == null || t.size() != 4) {
            throw m.unsupported("expected a mode and .b32");
        }
        List<Operand> o = in.operands();
        int d;
        int p = -1;
        if (o.get(0) instanceof Operand.Pair pair) {
            d = dc.destination(in, pair.first(), true);
            p = dc.destination(in, pair.second(), true);
        } else {
            d = dc.destination(in, o.get(0), true);
        }
        int sub = switch (mode) {
            case "up" -> Op.SHFL_UP;
            case "down" -> Op.SHFL_DOWN;
            case "bfly" -> Op.SHFL_BFLY;
            default -> Op.SHFL_IDX;
        };
        dc.emit(in, Op.SHFL, sub, d, dc.source(in, o.get(1), t), dc.source(in, o.get(2), PtxType.U32),
                dc.source(in, o.get(3), PtxType.U32), p);
    }

    private static void vote(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("sync");
        String mode = m.takeAny("all", "any", "uni", "ballot");
        m.type();
        m.done();
        if (mode == null) {
            throw m.unsupported("no vote mode given");
        }
        List<Operand> o = in.operands();
        Operand a = o.get(1);
        boolean negated = a instanceof Operand.Not;
        if (a instanceof Operand.Not not) {
            a = not.operand();
        }
        int sub = switch (mode) {
            case "all" -> Op.VOTE_ALL;
            case "any" -> Op.VOTE_ANY;
            case "uni" -> Op.VOTE_UNI;
            default -> Op.VOTE_BALLOT;
        };
        dc.emit(in, Op.VOTE, sub, dc.destination(in, o.get(0), false), dc.source(in, a, PtxType.PRED), 0,
                memberMask(dc, in, o, 2), negated ? 1 : 0);
    }
}
