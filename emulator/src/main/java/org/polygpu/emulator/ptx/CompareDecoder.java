package org.polygpu.emulator.ptx;

import java.util.List;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;

/** The decoder of comparisons, {@code setp} and {@code set}, into {@link Op#SETP} (and {@link Op#SELP}). */
final class CompareDecoder {
    private CompareDecoder() {
    }

    static void setp(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String cmp = m.takeAny("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
                "gtu", "geu", "num", "nan");
        String bool = m.takeAny("and", "or", "xor");
        boolean ftz = m.take("ftz");
        PtxType t = m.type();
        m.done();
        if (cmp == null) {
            throw m.unsupported("no comparison given");
        }
        int table = table(cmp);
        List<Operand> o = in.operands();
        int p;
        int q = -1;
        if (o.getFirst() instanceof Operand.Pair pair) {
            p = dc.destination(in, pair.first(), true);
            q = dc.destination(in, pair.second(), true);
        } else {
            p = dc.destination(in, o.getFirst(), false);
        }
        int boolOp = bool == null ? Op.BOOL_NONE : bool.equals("and") ? Op.BOOL_AND : bool.equals("or") ? Op.BOOL_OR
                : Op.BOOL_XOR;
        int c = -1;
        boolean negC = false;
        if (boolOp != Op.BOOL_NONE) {
            Operand co = o.get(3);
            if (co instanceof Operand.Not not) {
                negC = true;
                co = not.operand();
            }
            c = dc.source(in, co, PtxType.PRED);
        }
        int sub = table | t.ordinal() << 4 | boolOp << 9 | (negC ? 1 << 11 : 0) | (ftz ? 1 << 12 : 0);
        dc.emit(in, Op.SETP, sub, p, dc.source(in, o.get(1), t), dc.source(in, o.get(2), t), c, q);
    }

    /**
     * {@code set.cmp.dtype.stype d, a, b}: the comparison into d as 0 or 1 ({@link Op#SETP}), then d turned into the
     * destination type's true (all ones, or 1.0 for a float type) or zero ({@link Op#SELP} on d itself).
     */
    static void set(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String cmp = m.takeAny("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu",
                "gtu", "geu", "num", "nan");
        boolean ftz = m.take("ftz");
        List<PtxType> types = m.types();
        m.done();
        if (cmp == null || types.size() != 2) {
            throw m.unsupported("expected a comparison, a destination type and a source type");
        }
        PtxType to = types.get(0);
        PtxType from = types.get(1);
        long truth = switch (to) {
            case F32 -> Float.floatToRawIntBits(1f);
            case F16 -> 0x3C00;
            case BF16 -> 0x3F80;
            case U32, S32, B32 -> 0xFFFF_FFFFL;
            default -> throw m.unsupported("destination type " + to.spelling());
        };
        List<Operand> o = in.operands();
        int d = dc.destination(in, o.getFirst(), false);
        dc.emit(in, Op.SETP, table(cmp) | from.ordinal() << 4 | (ftz ? 1 << 12 : 0), d, dc.source(in, o.get(1), from),
                dc.source(in, o.get(2), from), -1, -1);
        dc.emit(in, Op.SELP, 0, d, dc.constant(truth), dc.constant(0), d, 0);
    }

    private static int table(String cmp) {
        return switch (cmp) {
            case "eq" -> Op.CMP_EQ;
            case "ne" -> Op.CMP_LT | Op.CMP_GT;
            case "lt", "lo" -> Op.CMP_LT;
            case "le", "ls" -> Op.CMP_LT | Op.CMP_EQ;
            case "gt", "hi" -> Op.CMP_GT;
            case "ge", "hs" -> Op.CMP_GT | Op.CMP_EQ;
            case "equ" -> Op.CMP_EQ | Op.CMP_UNORDERED;
            case "neu" -> Op.CMP_LT | Op.CMP_GT | Op.CMP_UNORDERED;
            case "ltu" -> Op.CMP_LT | Op.CMP_UNORDERED;
            case "leu" -> Op.CMP_LT | Op.CMP_EQ | Op.CMP_UNORDERED;
            case "gtu" -> Op.CMP_GT | Op.CMP_UNORDERED;
            case "geu" -> Op.CMP_GT | Op.CMP_EQ | Op.CMP_UNORDERED;
            case "num" -> Op.CMP_LT | Op.CMP_EQ | Op.CMP_GT;
            default -> Op.CMP_UNORDERED;
        };
    }
}
