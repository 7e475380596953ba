package org.polygpu.emulator.ptx;

/**
 * The decoded instruction set: instruction families ({@code op}) and their variants ({@code sub}), as ints so that
 * the interpreter dispatches with one {@code switch}.
 *
 * <p>An instruction is {@link #WIDTH} ints in {@link KernelProgram#code()}: {@code [op, sub, guard, d, a, b, c, x]}.
 * Register operands are register indices times 32 (the first lane's slot in a warp's register file); immediates and
 * symbol addresses are registers too (filled before the warp runs), so every operand is a register. {@code guard} is
 * {@code -1} or {@code predicateBase << 1 | negated}. The meaning of {@code b}, {@code c} and {@code x} depends on
 * the family, as noted at each constant.
 */
final class Op {
    static final int WIDTH = 8;
    static final int OP = 0;
    static final int SUB = 1;
    static final int GUARD = 2;
    static final int D = 3;
    static final int A = 4;
    static final int B = 5;
    static final int C = 6;
    static final int X = 7;

    // Families.
    /** d = a (all 64 bits). */
    static final int MOV = 0;
    /** Integer arithmetic and logic; sub from the I* constants, x = type ordinal. */
    static final int INT = 1;
    /** Floating-point arithmetic; sub from the F* constants, x = rounding | FTZ | SAT flags. */
    static final int FLOAT = 2;
    /** d = compare(a, b) [boolop c]; sub = cmp table | type << 4 | boolop << 9 | negC << 11; x = second dest or -1. */
    static final int SETP = 3;
    /** d = c ? a : b. */
    static final int SELP = 4;
    /** d = c >= 0 ? a : b; sub = type ordinal of c. */
    static final int SLCT = 5;
    /** d = convert(a); sub = destination type ordinal; x = source ordinal | mode << 8 | FTZ | SAT. */
    static final int CVT = 6;
    /** Load; sub = space; d = register or table index (vectors); b = offset; c = access kind; x = lanes | flags. */
    static final int LD = 7;
    /** Store; operands as {@link #LD}, d the value register or table index. */
    static final int ST = 8;
    /** Atomic; sub = space; d = old value or -1; a = address; b, c = operands; x = table index (op, type, offset). */
    static final int ATOM = 9;
    /** Branch to pc d. */
    static final int BRA = 10;
    /** Call pc d; a = table index of argument copies (src, dst, bytes) and b their count; c, x likewise returns. */
    static final int CALL = 11;
    static final int RET = 12;
    static final int EXIT = 13;
    /** CTA barrier; a = barrier id, b = thread count or -1; sub = a BAR_* reduction with d, c and x as noted there. */
    static final int BAR = 14;
    /** Warp shuffle; sub = mode; d = value, x = predicate destination or -1; a, b, c as in PTX. */
    static final int SHFL = 15;
    /** Warp vote; sub = mode; a = predicate; x = 1 when negated. */
    static final int VOTE = 16;
    /** d = the mask of lanes executing. */
    static final int ACTIVEMASK = 17;
    /** d = a clock value; sub = 32 or 64 bits. */
    static final int CLOCK = 18;
    /** No effect (fences, prefetches, warp syncs). */
    static final int NOP = 19;
    /** d = (a is in state space sub). */
    static final int ISSPACEP = 20;
    /** Packs registers listed at table a (b of them, each c bits wide) into d. */
    static final int PACK = 21;
    /** Unpacks a into the registers listed at table d (b of them, each c bits wide; -1 discards). */
    static final int UNPACK = 22;
    /** Aborts the kernel. */
    static final int TRAP = 23;
    /** Warp match; sub = {@link #MATCH_ALL} or not, | 64 for .b64; d, a = value, x = predicate destination or -1. */
    static final int MATCH = 24;
    /** Warp reduction {@code redux.sync}; sub = one of the REDUX_* operations; d, a = value. */
    static final int REDUX = 25;
    /** A call of a function the emulator provides ({@link DeviceCalls}: vprintf, __assertfail); operands there. */
    static final int DEVICE_CALL = 26;
    /**
     * {@code cp.async} from global to shared memory, done at once (a later wait_group then has nothing to wait for):
     * d = shared address register, a = global address register, c = source size register or -1, x = table index of
     * (shared offset, global offset, copy size, narrow-address flags: 1 shared, 2 global).
     */
    static final int COPY_ASYNC = 27;
    /** An {@code mbarrier} operation ({@link MbarrierOps}); sub = its kind, c = address offset, x = space | flags. */
    static final int MBARRIER = 28;
    /** Half-precision arithmetic and packing ({@link HalfOps}): sub = float variant or PACK, x = its flags. */
    static final int HALF = 29;

    // Integer variants (sub of INT). Variants marked (t) read x as the operand type.
    static final int IADD = 0;
    static final int ISUB = 1;
    static final int IMUL_LO = 2;
    /** (t) high half of the double-width product. */
    static final int IMUL_HI = 3;
    /** (t) double-width product. */
    static final int IMUL_WIDE = 4;
    static final int IMAD_LO = 5;
    static final int IMAD_HI = 6;
    static final int IMAD_WIDE = 7;
    static final int IDIV = 8;
    static final int IREM = 9;
    static final int IMIN = 10;
    static final int IMAX = 11;
    static final int IAND = 12;
    static final int IOR = 13;
    static final int IXOR = 14;
    static final int INOT = 15;
    static final int ICNOT = 16;
    static final int INEG = 17;
    static final int IABS = 18;
    static final int ISHL = 19;
    static final int ISHR = 20;
    static final int IPOPC = 21;
    static final int ICLZ = 22;
    static final int IBREV = 23;
    static final int IBFE = 24;
    /** d = b with len (register x) bits of a inserted at pos (register c); width from {@link #WIDE}. */
    static final int IBFI = 25;
    static final int IPRMT = 26;
    static final int ISHF_L_WRAP = 27;
    static final int ISHF_L_CLAMP = 28;
    static final int ISHF_R_WRAP = 29;
    static final int ISHF_R_CLAMP = 30;
    /** d = lop3(a, b, c) with the 8-bit truth table in x. */
    static final int ILOP3 = 31;
    static final int IADD_SAT = 32;
    static final int ISUB_SAT = 33;
    /** Carry chain: add.cc, addc, addc.cc; sub.cc, subc, subc.cc; mad.lo.cc, madc.lo, ...: flags at CARRY_*. */
    static final int IADD_CARRY = 34;
    static final int ISUB_CARRY = 35;
    static final int IMAD_CARRY = 36;
    static final int IMUL24_LO = 37;
    static final int IMAD24_LO = 38;
    static final int IPRED_NOT = 39;
    static final int ISAD = 40;
    /** (t) bit position of the most significant non-sign bit; {@link #SHIFTAMT} gives the left shift instead. */
    static final int IBFIND = 41;
    /** d = position of the c-th set bit of a counted from bit b (PTX's fns). */
    static final int IFNS = 42;
    /** d = c + dot product of the bytes of a and b; signedness from {@link #SIGNED_A} and {@link #SIGNED_B}. */
    static final int IDP4A = 43;
    /** d = c + dot product of the halves of a and two bytes of b (the upper two with {@link #HIGH}). */
    static final int IDP2A = 44;
    /**
     * SIMD absolute differences of the bytes (or halves, with {@link #HIGH}) of a and b: merged over c, or summed
     * into c with {@link #ACCUMULATE}; signedness from {@link #SIGNED_A} and {@link #SIGNED_B}.
     */
    static final int IVABSDIFF = 45;
    /** Packed 16-bit pairs ({@code .u16x2}, {@code .s16x2}); c = IADD, ISUB, IMIN or IMAX. */
    static final int IPAIRS = 46;
    /** Carry variant flags, in bits 8.. of sub. */
    static final int CARRY_IN = 1 << 8;
    static final int CARRY_OUT = 1 << 9;
    static final int CARRY_HI = 1 << 10;
    /** Bit of sub of {@link #IBFI}: 64-bit operands (x holds the length register instead of the type). */
    static final int WIDE = 1 << 11;
    /** Bit of sub of {@link #IBFIND}: the shift amount that makes the found bit the most significant. */
    static final int SHIFTAMT = 1 << 12;
    /** Bits of sub of {@link #IDP4A} and {@link #IDP2A}: signed operands, and dp2a's upper bytes of b. */
    static final int SIGNED_A = 1 << 12;
    static final int SIGNED_B = 1 << 13;
    static final int HIGH = 1 << 14;
    /** Bit of sub of {@link #IVABSDIFF}: add the element results to c (PTX's {@code .add}). */
    static final int ACCUMULATE = 1 << 15;
    /** Bit of sub of {@link #IPAIRS}, {@link #IMIN} and {@link #IMAX}: negative results become 0 ({@code .relu}). */
    static final int RELU = 1 << 16;

    // Floating-point variants (sub of FLOAT); F64 added to a variant selects double precision.
    static final int FADD = 0;
    static final int FSUB = 1;
    static final int FMUL = 2;
    static final int FDIV = 3;
    static final int FMIN = 4;
    static final int FMAX = 5;
    static final int FFMA = 6;
    static final int FNEG = 7;
    static final int FABS = 8;
    static final int FSQRT = 9;
    static final int FRSQRT = 10;
    static final int FRCP = 11;
    static final int FEX2 = 12;
    static final int FLG2 = 13;
    static final int FSIN = 14;
    static final int FCOS = 15;
    static final int FTANH = 16;
    static final int FCOPYSIGN = 17;
    static final int FTESTP = 18;
    static final int F64 = 32;

    // Rounding modes and flags (x of FLOAT, bits 8.. of x of CVT).
    static final int RN = 0;
    static final int RZ = 1;
    static final int RM = 2;
    static final int RP = 3;
    /** Round to an integral value (cvt's .rni, .rzi, .rmi, .rpi), added to the direction. */
    static final int INTEGRAL = 4;
    /** No rounding modifier given (cvt). */
    static final int NONE = 8;
    static final int FTZ = 1 << 4;
    static final int SAT = 1 << 5;

    // Comparison truth tables (bits: less, equal, greater, unordered).
    static final int CMP_LT = 0b0001;
    static final int CMP_EQ = 0b0010;
    static final int CMP_GT = 0b0100;
    static final int CMP_UNORDERED = 0b1000;
    static final int BOOL_NONE = 0;
    static final int BOOL_AND = 1;
    static final int BOOL_OR = 2;
    static final int BOOL_XOR = 3;

    // State spaces (sub of LD, ST, ATOM, ISSPACEP).
    static final int GLOBAL = 0;
    static final int SHARED = 1;
    static final int LOCAL = 2;
    static final int CONST = 3;
    static final int KERNEL_PARAM = 4;
    static final int GENERIC = 5;

    // Access kinds (c of LD and ST).
    static final int U8 = 0;
    static final int S8 = 1;
    static final int U16 = 2;
    static final int S16 = 3;
    static final int U32 = 4;
    static final int S32 = 5;
    static final int B64 = 6;
    /** Bits 4.. of x of LD/ST/ATOM: the address register is 32 bits wide. */
    static final int ADDRESS32 = 1 << 4;

    // Shuffle and vote modes.
    static final int SHFL_UP = 0;
    static final int SHFL_DOWN = 1;
    static final int SHFL_BFLY = 2;
    static final int SHFL_IDX = 3;
    static final int VOTE_ALL = 0;
    static final int VOTE_ANY = 1;
    static final int VOTE_UNI = 2;
    static final int VOTE_BALLOT = 3;
    /** Sub of {@link #MATCH}: all lanes must agree (else any lanes with the same value). */
    static final int MATCH_ALL = 1;
    /** Sub bit of {@link #MATCH}: 64-bit values. */
    static final int MATCH_B64 = 64;
    static final int REDUX_ADD = 0;
    static final int REDUX_MIN_U = 1;
    static final int REDUX_MIN_S = 2;
    static final int REDUX_MAX_U = 3;
    static final int REDUX_MAX_S = 4;
    static final int REDUX_AND = 5;
    static final int REDUX_OR = 6;
    static final int REDUX_XOR = 7;
    // Barrier reductions (sub of BAR): the result goes to d at release, from predicate c (negated when x is 1).
    static final int BAR_PLAIN = 0;
    static final int BAR_POPC = 1;
    static final int BAR_AND = 2;
    static final int BAR_OR = 3;

    // Atomic operations (first word of an ATOM's table entry).
    static final int ATOM_ADD = 0;
    static final int ATOM_MIN = 1;
    static final int ATOM_MAX = 2;
    static final int ATOM_INC = 3;
    static final int ATOM_DEC = 4;
    static final int ATOM_AND = 5;
    static final int ATOM_OR = 6;
    static final int ATOM_XOR = 7;
    static final int ATOM_EXCH = 8;
    static final int ATOM_CAS = 9;

    private Op() {
    }

    static int accessKind(PtxType t) {
        return switch (t) {
            case U8, B8 -> U8;
            case S8 -> S8;
            case U16, B16, F16, BF16 -> U16;
            case S16 -> S16;
            case S32 -> S32;
            case U32, B32, F32 -> U32;
            default -> B64;
        };
    }

    static int accessBytes(int kind) {
        return kind == B64 ? 8 : 1 << (kind >> 1);
    }

    static String spaceName(int space) {
        return switch (space) {
            case GLOBAL -> "global";
            case SHARED -> "shared";
            case LOCAL -> "local";
            case CONST -> "const";
            case KERNEL_PARAM -> "param";
            default -> "generic";
        };
    }
}
