package org.polygpu.emulator.ptx;

import java.util.Optional;
import org.polygpu.emulator.ptx.Operand.Imm;
import org.polygpu.emulator.ptx.Operand.ImmKind;

/**
 * PTX numeric literals: decimal, hexadecimal ({@code 0x}), octal (a leading {@code 0}), binary ({@code 0b}), with
 * an optional {@code U} suffix; {@code 0f} and {@code 0d} followed by the hex bits of an f32 or f64; and decimal
 * floating-point numbers.
 */
final class Literals {
    private Literals() {
    }

    static Optional<Imm> parse(String text) {
        String t = text.endsWith("U") || text.endsWith("u") ? text.substring(0, text.length() - 1) : text;
        try {
            if ((t.startsWith("0f") || t.startsWith("0F")) && t.length() == 10) {
                return Optional.of(new Imm(Long.parseUnsignedLong(t.substring(2), 16), ImmKind.F32));
            }
            if ((t.startsWith("0d") || t.startsWith("0D")) && t.length() == 18) {
                return Optional.of(new Imm(Long.parseUnsignedLong(t.substring(2), 16), ImmKind.F64));
            }
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Optional.of(new Imm(Long.parseUnsignedLong(t.substring(2), 16), ImmKind.INT));
            }
            if (t.startsWith("0b") || t.startsWith("0B")) {
                return Optional.of(new Imm(Long.parseUnsignedLong(t.substring(2), 2), ImmKind.INT));
            }
            if (t.contains(".") || t.contains("e") || t.contains("E")) {
                return Optional.of(new Imm(Double.doubleToRawLongBits(Double.parseDouble(t)), ImmKind.DECIMAL));
            }
            if (t.length() > 1 && t.startsWith("0")) {
                return Optional.of(new Imm(Long.parseUnsignedLong(t.substring(1), 8), ImmKind.INT));
            }
            return Optional.of(new Imm(Long.parseUnsignedLong(t), ImmKind.INT));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code -imm}: integers negate, floating literals flip their sign bit. */
    static Imm negate(Imm imm) {
        return switch (imm.kind()) {
            case INT -> new Imm(-imm.bits(), ImmKind.INT);
            case F32 -> new Imm(imm.bits() ^ 0x8000_0000L, ImmKind.F32);
            case F64, DECIMAL -> new Imm(imm.bits() ^ Long.MIN_VALUE, imm.kind());
        };
    }

    /** The bits of {@code imm} as a value of {@code type}: literals convert to float types, floats to f32 bits. */
    static long bitsAs(Imm imm, PtxType type) {
        return switch (type) {
            case F32 -> switch (imm.kind()) {
                case INT -> Float.floatToRawIntBits((float) imm.bits()) & 0xFFFF_FFFFL;
                case F32 -> imm.bits();
                case F64, DECIMAL -> Float.floatToRawIntBits((float) Double.longBitsToDouble(imm.bits()))
                        & 0xFFFF_FFFFL;
            };
            case F64 -> switch (imm.kind()) {
                case INT -> Double.doubleToRawLongBits(imm.bits());
                case F32 -> Double.doubleToRawLongBits(Float.intBitsToFloat((int) imm.bits()));
                case F64, DECIMAL -> imm.bits();
            };
            case F16 -> switch (imm.kind()) {
                case INT -> Float.floatToFloat16(imm.bits()) & 0xFFFFL;
                case F32 -> Float.floatToFloat16(Float.intBitsToFloat((int) imm.bits())) & 0xFFFFL;
                case F64, DECIMAL -> Float.floatToFloat16((float) Double.longBitsToDouble(imm.bits())) & 0xFFFFL;
            };
            case PRED -> imm.bits() != 0 ? 1 : 0;
            default -> imm.kind() == ImmKind.DECIMAL ? (long) Double.longBitsToDouble(imm.bits()) : imm.bits();
        };
    }
}
