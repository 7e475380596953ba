package org.polygpu.emulator.ptx;

import java.util.Locale;
import java.util.Optional;

/**
 * A PTX fundamental type: its size in bytes and whether it is a signed, unsigned, untyped-bits, floating-point or
 * predicate type. Registers hold every type in a 64-bit slot; the bits above a narrower type's width are undefined
 * and every instruction reads its operands at its own width.
 */
public enum PtxType {
    S8(1, Kind.SIGNED), S16(2, Kind.SIGNED), S32(4, Kind.SIGNED), S64(8, Kind.SIGNED),
    U8(1, Kind.UNSIGNED), U16(2, Kind.UNSIGNED), U32(4, Kind.UNSIGNED), U64(8, Kind.UNSIGNED),
    B8(1, Kind.BITS), B16(2, Kind.BITS), B32(4, Kind.BITS), B64(8, Kind.BITS), B128(16, Kind.BITS),
    F16(2, Kind.FLOAT), F32(4, Kind.FLOAT), F64(8, Kind.FLOAT),
    PRED(1, Kind.PREDICATE),
    /** bfloat16: the upper half of an IEEE single (sm_80 and later convert to and from it). */
    BF16(2, Kind.FLOAT);

    /** The family of a type. */
    public enum Kind { SIGNED, UNSIGNED, BITS, FLOAT, PREDICATE }

    private final int size;
    private final Kind kind;

    PtxType(int size, Kind kind) {
        this.size = size;
        this.kind = kind;
    }

    /** Size in bytes (1 for predicates). */
    public int size() {
        return size;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isFloat() {
        return kind == Kind.FLOAT;
    }

    public boolean isSigned() {
        return kind == Kind.SIGNED;
    }

    /** Integer or bits type: a value read by zero or sign extension. */
    public boolean isInteger() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED || kind == Kind.BITS;
    }

    /** The PTX spelling, e.g. {@code .u32}. */
    public String spelling() {
        return "." + name().toLowerCase(Locale.ROOT);
    }

    /** The type spelled {@code modifier} (without the dot), if it is one. */
    static Optional<PtxType> of(String modifier) {
        return switch (modifier) {
            case "s8" -> Optional.of(S8);
            case "s16" -> Optional.of(S16);
            case "s32" -> Optional.of(S32);
            case "s64" -> Optional.of(S64);
            case "u8" -> Optional.of(U8);
            case "u16" -> Optional.of(U16);
            case "u32" -> Optional.of(U32);
            case "u64" -> Optional.of(U64);
            case "b8" -> Optional.of(B8);
            case "b16" -> Optional.of(B16);
            case "b32" -> Optional.of(B32);
            case "b64" -> Optional.of(B64);
            case "b128" -> Optional.of(B128);
            case "f16" -> Optional.of(F16);
            case "bf16" -> Optional.of(BF16);
            case "f32" -> Optional.of(F32);
            case "f64" -> Optional.of(F64);
            case "pred" -> Optional.of(PRED);
            default -> Optional.empty();
        };
    }

    /**
     * {@link #extend} as shifts, for loops that hoist the type out: {@code (raw << s) >> s} for signed types and
     * {@code (raw << s) >>> s} for the others, with {@code s} this value.
     */
    int extendShift() {
        return size >= 8 ? 0 : 64 - 8 * size;
    }

    /**
     * {@code raw} read as this integer type, sign- or zero-extended to 64 bits; bits and unsigned types extend with
     * zeros.
     */
    long extend(long raw) {
        return switch (this) {
            case S8 -> (byte) raw;
            case S16 -> (short) raw;
            case S32 -> (int) raw;
            case U8, B8, PRED -> raw & 0xFFL;
            case U16, B16, F16, BF16 -> raw & 0xFFFFL;
            case U32, B32, F32 -> raw & 0xFFFF_FFFFL;
            default -> raw;
        };
    }
}
