package org.polygpu.emulator.ptx;

import java.util.List;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;

/** The decoder of {@code cvt} into {@link Op#CVT}: destination type in sub, source type, rounding and flags in x. */
final class ConvertDecoder {
    /** Flags in x of CVT. */
    static final int CVT_FTZ = 1 << 12;
    static final int CVT_SAT = 1 << 13;

    private ConvertDecoder() {
    }

    static void cvt(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String r = m.takeAny("rni", "rzi", "rmi", "rpi", "rn", "rz", "rm", "rp", "rna");
        boolean ftz = m.take("ftz");
        boolean sat = m.take("sat");
        boolean relu = m.take("relu");
        String halves = m.takeAny("f16x2", "bf16x2");
        if (halves != null) {
            List<PtxType> from = m.types();
            m.done();
            List<Operand> o = in.operands();
            if (!"rn".equals(r) || from.size() != 1 || from.get(0) != PtxType.F32 || o.size() != 3) {
                throw m.unsupported("only cvt.rn." + halves + ".f32 d, a, b is supported");
            }
            dc.emit(in, Op.HALF, HalfOps.PACK, dc.destination(in, o.get(0), false), dc.source(in, o.get(1),
                    PtxType.F32), dc.source(in, o.get(2), PtxType.F32), 0, (halves.startsWith("bf") ? HalfOps.BF16 : 0)
                    | (relu ? HalfOps.RELU : 0));
            return;
        }
        if (relu) {
            throw m.unsupported(".relu outside a packed conversion");
        }
        List<PtxType> types = m.types();
        m.done();
        if (types.size() != 2) {
            throw m.unsupported("expected a destination and a source type");
        }
        PtxType to = types.get(0);
        PtxType from = types.get(1);
        if (to == PtxType.PRED || from == PtxType.PRED || to == PtxType.B128 || from == PtxType.B128) {
            throw m.unsupported("conversion from " + from.spelling() + " to " + to.spelling());
        }
        int mode = r == null ? Op.NONE : switch (r) {
            case "rni" -> Op.INTEGRAL | Op.RN;
            case "rzi" -> Op.INTEGRAL | Op.RZ;
            case "rmi" -> Op.INTEGRAL | Op.RM;
            case "rpi" -> Op.INTEGRAL | Op.RP;
            case "rz" -> Op.RZ;
            case "rm" -> Op.RM;
            case "rp" -> Op.RP;
            case "rna" -> throw m.unsupported("rounding .rna");
            default -> Op.RN;
        };
        if (from.isFloat() && to.isFloat() && (mode & Op.INTEGRAL) != 0 && from != to) {
            throw m.unsupported("integral rounding between different float types");
        }
        List<Operand> o = in.operands();
        int x = from.ordinal() | mode << 8 | (ftz ? CVT_FTZ : 0) | (sat ? CVT_SAT : 0);
        dc.emit(in, Op.CVT, to.ordinal(), dc.destination(in, o.get(0), false), dc.source(in, o.get(1), from), 0, 0,
                x);
    }
}
