package org.polygpu.emulator.ptx;

import java.util.List;
import org.polygpu.emulator.ptx.ParsedModule.Instruction;

/**
 * The decoder of arithmetic, logic, comparison and conversion instructions into {@link Op#INT}, {@link Op#FLOAT},
 * {@link Op#SETP}, {@link Op#SELP}, {@link Op#SLCT} and {@link Op#CVT}.
 */
final class ArithmeticDecoder {
    private ArithmeticDecoder() {
    }

    /** Decodes {@code m}'s instruction if it is arithmetic; returns false if the opcode is not one of these. */
    static boolean decode(Decoder dc, Modifiers m) {
        switch (m.base()) {
            case "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "abs", "neg" -> numeric(dc, m);
            case "addc", "subc", "madc" -> carry(dc, m);
            case "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi", "prmt",
                 "shf", "lop3", "mul24", "mad24", "sad" -> logic(dc, m);
            case "bfind", "fns", "dp4a", "dp2a" -> bitScan(dc, m);
            case "vabsdiff2", "vabsdiff4" -> video(dc, m);
            case "sqrt", "rsqrt", "rcp", "ex2", "lg2", "sin", "cos", "tanh", "copysign", "testp" -> math(dc, m);
            case "setp" -> CompareDecoder.setp(dc, m);
            case "set" -> CompareDecoder.set(dc, m);
            case "selp", "slct" -> select(dc, m);
            case "cvt" -> ConvertDecoder.cvt(dc, m);
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void numeric(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String base = m.base();
        int rounding = rounding(m);
        boolean ftz = m.take("ftz");
        boolean sat = m.take("sat");
        boolean cc = m.take("cc");
        String half = m.takeAny("lo", "hi", "wide");
        m.ignore("approx", "full");
        String pairs = m.takeAny("u16x2", "s16x2");
        if (pairs != null) {
            pairs(dc, m, pairs.startsWith("s"));
            return;
        }
        String halves = m.takeAny("f16x2", "bf16x2");
        boolean relu = (base.equals("min") || base.equals("max") || base.equals("fma")) && m.take("relu");
        PtxType t = halves != null ? (halves.startsWith("bf") ? PtxType.BF16 : PtxType.F16) : m.type();
        m.done();
        List<Operand> o = in.operands();
        if (t == PtxType.F16 || t == PtxType.BF16) {
            int variant = switch (base) {
                case "add" -> Op.FADD;
                case "sub" -> Op.FSUB;
                case "mul" -> Op.FMUL;
                case "fma" -> Op.FFMA;
                case "min" -> Op.FMIN;
                case "max" -> Op.FMAX;
                case "abs" -> Op.FABS;
                case "neg" -> Op.FNEG;
                default -> throw m.unsupported("type " + t.spelling() + " is not supported for " + base);
            };
            if (rounding != Op.RN) {
                throw m.unsupported("rounding other than .rn for " + t.spelling());
            }
            emitHalf(dc, in, variant, t, halves != null, (relu ? HalfOps.RELU : 0) | (sat ? Op.SAT : 0), o);
            return;
        }
        if (t.isFloat()) {
            if (base.equals("rem") || relu) {
                throw m.unsupported("type " + t.spelling() + " is not supported for " + base);
            }
            int variant = switch (base) {
                case "add" -> Op.FADD;
                case "sub" -> Op.FSUB;
                case "mul" -> Op.FMUL;
                case "mad", "fma" -> Op.FFMA;
                case "div" -> Op.FDIV;
                case "min" -> Op.FMIN;
                case "max" -> Op.FMAX;
                case "abs" -> Op.FABS;
                default -> Op.FNEG;
            };
            emitFloat(dc, in, variant, t, rounding | (ftz ? Op.FTZ : 0) | (sat ? Op.SAT : 0), o);
            return;
        }
        int variant = switch (base) {
            case "add" -> cc ? Op.IADD_CARRY | Op.CARRY_OUT : sat ? Op.IADD_SAT : Op.IADD;
            case "sub" -> cc ? Op.ISUB_CARRY | Op.CARRY_OUT : sat ? Op.ISUB_SAT : Op.ISUB;
            case "mul" -> half == null || half.equals("lo") ? Op.IMUL_LO : half.equals("hi") ? Op.IMUL_HI
                    : Op.IMUL_WIDE;
            case "mad" -> cc ? Op.IMAD_CARRY | Op.CARRY_OUT | ("hi".equals(half) ? Op.CARRY_HI : 0)
                    : half == null || half.equals("lo") ? Op.IMAD_LO : half.equals("hi") ? Op.IMAD_HI : Op.IMAD_WIDE;
            case "div" -> Op.IDIV;
            case "rem" -> Op.IREM;
            case "min" -> Op.IMIN;
            case "max" -> Op.IMAX;
            case "abs" -> Op.IABS;
            default -> Op.INEG;
        };
        if (t == PtxType.PRED || (half != null && !base.equals("mul") && !base.equals("mad"))
                || (relu && t != PtxType.S32)) {
            throw m.unsupported("modifier combination is not supported");
        }
        emitInt(dc, in, variant | (relu ? Op.RELU : 0), t, o);
    }

    /** The packed 16-bit forms of sm_90 ({@code add.u16x2}, {@code min.relu.s16x2}, ...). */
    private static void pairs(Decoder dc, Modifiers m, boolean signed) {
        Instruction in = m.instruction();
        boolean relu = m.take("relu");
        m.done();
        int op = switch (m.base()) {
            case "add" -> Op.IADD;
            case "sub" -> Op.ISUB;
            case "min" -> Op.IMIN;
            case "max" -> Op.IMAX;
            default -> throw m.unsupported("only add, sub, min and max have packed 16-bit forms");
        };
        List<Operand> o = in.operands();
        dc.emit(in, Op.INT, Op.IPAIRS | (signed ? Op.SIGNED_A : 0) | (relu ? Op.RELU : 0),
                dc.destination(in, o.get(0), false), dc.source(in, o.get(1), PtxType.B32),
                dc.source(in, o.get(2), PtxType.B32), op, PtxType.B32.ordinal());
    }

    private static void carry(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        boolean cc = m.take("cc");
        String half = m.takeAny("lo", "hi");
        PtxType t = m.type();
        m.done();
        int base = switch (m.base()) {
            case "addc" -> Op.IADD_CARRY;
            case "subc" -> Op.ISUB_CARRY;
            default -> Op.IMAD_CARRY | ("hi".equals(half) ? Op.CARRY_HI : 0);
        };
        emitInt(dc, in, base | Op.CARRY_IN | (cc ? Op.CARRY_OUT : 0), t, in.operands());
    }

    private static void logic(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        String shfDirection = m.base().equals("shf") ? m.takeAny("l", "r") : null;
        String shfMode = m.base().equals("shf") ? m.takeAny("wrap", "clamp") : null;
        m.take("lo");
        if (m.base().equals("prmt") && m.takeAny("f4e", "b4e", "rc8", "ecl", "ecr", "rc16") != null) {
            throw m.unsupported("only the default prmt mode is supported");
        }
        PtxType t = m.type();
        m.done();
        List<Operand> o = in.operands();
        int variant = switch (m.base()) {
            case "and" -> Op.IAND;
            case "or" -> Op.IOR;
            case "xor" -> Op.IXOR;
            case "not" -> t == PtxType.PRED ? Op.IPRED_NOT : Op.INOT;
            case "cnot" -> Op.ICNOT;
            case "shl" -> Op.ISHL;
            case "shr" -> Op.ISHR;
            case "popc" -> Op.IPOPC;
            case "clz" -> Op.ICLZ;
            case "brev" -> Op.IBREV;
            case "bfe" -> Op.IBFE;
            case "bfi" -> Op.IBFI;
            case "prmt" -> Op.IPRMT;
            case "mul24" -> Op.IMUL24_LO;
            case "mad24" -> Op.IMAD24_LO;
            case "sad" -> Op.ISAD;
            case "lop3" -> Op.ILOP3;
            default -> "l".equals(shfDirection) ? ("clamp".equals(shfMode) ? Op.ISHF_L_CLAMP : Op.ISHF_L_WRAP)
                    : ("clamp".equals(shfMode) ? Op.ISHF_R_CLAMP : Op.ISHF_R_WRAP);
        };
        if (variant == Op.ILOP3) {
            if (o.size() != 5 || !(o.get(4) instanceof Operand.Imm lut)) {
                throw dc.unsupported(in, "lop3 needs an immediate truth table");
            }
            dc.emit(in, Op.INT, variant, dc.destination(in, o.get(0), false), dc.source(in, o.get(1), t),
                    dc.source(in, o.get(2), t), dc.source(in, o.get(3), t), (int) lut.bits() & 0xFF);
            return;
        }
        if (variant == Op.IBFI) { // bfi d, f, b, pos, len: the length register goes in x, the width in sub
            dc.emit(in, Op.INT, variant | (t.size() == 8 ? Op.WIDE : 0), dc.destination(in, o.get(0), false),
                    dc.source(in, o.get(1), t), dc.source(in, o.get(2), t), dc.source(in, o.get(3), PtxType.U32),
                    dc.source(in, o.get(4), PtxType.U32));
            return;
        }
        emitInt(dc, in, variant, t, o);
    }

    /** {@code bfind}, {@code fns} and the integer dot products {@code dp4a} and {@code dp2a}. */
    private static void bitScan(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        boolean shiftAmount = m.take("shiftamt");
        String half = m.base().equals("dp2a") ? m.takeAny("lo", "hi") : null;
        List<PtxType> types = m.types();
        m.done();
        List<Operand> o = in.operands();
        if (types.isEmpty() || types.size() > 2 || o.size() != (m.base().equals("bfind") ? 2 : 4)) {
            throw m.unsupported("unexpected types or operands");
        }
        PtxType t = types.getFirst();
        int variant = switch (m.base()) {
            case "bfind" -> Op.IBFIND | (shiftAmount ? Op.SHIFTAMT : 0);
            case "fns" -> Op.IFNS;
            default -> (m.base().equals("dp4a") ? Op.IDP4A : Op.IDP2A | ("hi".equals(half) ? Op.HIGH : 0))
                    | (t.isSigned() ? Op.SIGNED_A : 0) | (types.getLast().isSigned() ? Op.SIGNED_B : 0);
        };
        if (m.base().startsWith("dp") && (types.size() != 2 || (m.base().equals("dp2a") && half == null))) {
            throw m.unsupported("expected two operand types" + (half == null ? " and .lo or .hi" : ""));
        }
        int d = dc.destination(in, o.get(0), false);
        int a = dc.source(in, o.get(1), t);
        int b = o.size() > 2 ? dc.source(in, o.get(2), m.base().equals("fns") ? PtxType.S32 : types.getLast()) : 0;
        int c = o.size() > 3 ? dc.source(in, o.get(3), PtxType.S32) : 0;
        dc.emit(in, Op.INT, variant, d, a, b, c, t.ordinal());
    }

    /**
     * The SIMD video instructions NVRTC writes for CUDA's {@code __vabsdiff*} and {@code __vsad*}: three types
     * (d, a, b), an optional {@code .add}, and no masks, selectors or saturation.
     */
    private static void video(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        boolean add = m.take("add");
        List<PtxType> types = m.types();
        m.done();
        List<Operand> o = in.operands();
        if (types.size() != 3 || o.size() != 4 || types.stream().anyMatch(t -> t.size() != 4 || t.isFloat())) {
            throw m.unsupported("expected .u32 or .s32 for d, a and b, and four operands");
        }
        int sub = Op.IVABSDIFF | (m.base().endsWith("2") ? Op.HIGH : 0) | (add ? Op.ACCUMULATE : 0)
                | (types.get(1).isSigned() ? Op.SIGNED_A : 0) | (types.get(2).isSigned() ? Op.SIGNED_B : 0);
        dc.emit(in, Op.INT, sub, dc.destination(in, o.get(0), false), dc.source(in, o.get(1), types.get(1)),
                dc.source(in, o.get(2), types.get(2)), dc.source(in, o.get(3), types.get(0)), types.get(0).ordinal());
    }

    private static void math(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        int rounding = rounding(m);
        boolean ftz = m.take("ftz");
        m.ignore("approx", "full");
        String test = m.base().equals("testp")
                ? m.takeAny("finite", "infinite", "number", "notanumber", "normal", "subnormal") : null;
        String halves = m.takeAny("f16x2", "bf16x2");
        PtxType t = halves != null ? (halves.startsWith("bf") ? PtxType.BF16 : PtxType.F16) : m.type();
        m.done();
        boolean half = t == PtxType.F16 || t == PtxType.BF16;
        if (!t.isFloat() || (half && (m.base().equals("copysign") || m.base().equals("testp")))) {
            throw m.unsupported("type " + t.spelling() + " is not supported for " + m.base());
        }
        int variant = switch (m.base()) {
            case "sqrt" -> Op.FSQRT;
            case "rsqrt" -> Op.FRSQRT;
            case "rcp" -> Op.FRCP;
            case "ex2" -> Op.FEX2;
            case "lg2" -> Op.FLG2;
            case "sin" -> Op.FSIN;
            case "cos" -> Op.FCOS;
            case "tanh" -> Op.FTANH;
            case "copysign" -> Op.FCOPYSIGN;
            default -> Op.FTESTP;
        };
        List<Operand> o = in.operands();
        if (half) {
            emitHalf(dc, in, variant, t, halves != null, 0, o);
            return;
        }
        if (variant == Op.FTESTP) {
            int kind = List.of("finite", "infinite", "number", "notanumber", "normal", "subnormal").indexOf(test);
            if (kind < 0) {
                throw m.unsupported("testp needs a test");
            }
            dc.emit(in, Op.FLOAT, variant + (t == PtxType.F64 ? Op.F64 : 0), dc.destination(in, o.get(0), false),
                    dc.source(in, o.get(1), t), 0, kind, 0);
            return;
        }
        emitFloat(dc, in, variant, t, rounding | (ftz ? Op.FTZ : 0), o);
    }

    private static void select(Decoder dc, Modifiers m) {
        Instruction in = m.instruction();
        m.take("ftz");
        List<PtxType> types = m.types();
        m.done();
        List<Operand> o = in.operands();
        if (types.isEmpty() || o.size() != 4) {
            throw m.unsupported("expected a type and four operands");
        }
        PtxType t = types.getFirst();
        if (m.base().equals("selp")) {
            dc.emit(in, Op.SELP, 0, dc.destination(in, o.get(0), false), dc.source(in, o.get(1), t),
                    dc.source(in, o.get(2), t), dc.source(in, o.get(3), PtxType.PRED), 0);
        } else {
            PtxType ct = types.getLast();
            dc.emit(in, Op.SLCT, ct.ordinal(), dc.destination(in, o.get(0), false), dc.source(in, o.get(1), t),
                    dc.source(in, o.get(2), t), dc.source(in, o.get(3), ct), 0);
        }
    }

    private static void emitInt(Decoder dc, Instruction in, int variant, PtxType t, List<Operand> o) {
        int d = dc.destination(in, o.get(0), false);
        int a = dc.source(in, o.get(1), t);
        PtxType second = (variant == Op.ISHL || variant == Op.ISHR || variant == Op.IBFE) ? PtxType.U32 : t;
        int b = o.size() > 2 ? dc.source(in, o.get(2), second) : 0;
        PtxType third = (variant == Op.IBFE || variant == Op.IPRMT) ? PtxType.U32 : t;
        int c = o.size() > 3 ? dc.source(in, o.get(3), third) : 0;
        dc.emit(in, Op.INT, variant, d, a, b, c, t.ordinal());
    }

    private static void emitFloat(Decoder dc, Instruction in, int variant, PtxType t, int flags, List<Operand> o) {
        int d = dc.destination(in, o.get(0), false);
        int a = dc.source(in, o.get(1), t);
        int b = o.size() > 2 ? dc.source(in, o.get(2), t) : 0;
        int c = o.size() > 3 ? dc.source(in, o.get(3), t) : 0;
        dc.emit(in, Op.FLOAT, variant + (t == PtxType.F64 ? Op.F64 : 0), d, a, b, c, flags);
    }

    private static void emitHalf(Decoder dc, Instruction in, int variant, PtxType t, boolean pair, int flags,
            List<Operand> o) {
        PtxType operand = pair ? PtxType.B32 : PtxType.B16;
        int d = dc.destination(in, o.get(0), false);
        int a = dc.source(in, o.get(1), operand);
        int b = o.size() > 2 ? dc.source(in, o.get(2), operand) : 0;
        int c = o.size() > 3 ? dc.source(in, o.get(3), operand) : 0;
        dc.emit(in, Op.HALF, variant, d, a, b, c,
                flags | (t == PtxType.BF16 ? HalfOps.BF16 : 0) | (pair ? HalfOps.PAIR : 0));
    }

    /** Removes a floating-point rounding modifier and returns its mode ({@link Op#RN} when none). */
    static int rounding(Modifiers m) {
        String r = m.takeAny("rn", "rz", "rm", "rp");
        return r == null ? Op.RN : switch (r) {
            case "rz" -> Op.RZ;
            case "rm" -> Op.RM;
            case "rp" -> Op.RP;
            default -> Op.RN;
        };
    }
}
