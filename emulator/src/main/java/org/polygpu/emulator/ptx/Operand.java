package org.polygpu.emulator.ptx;

import java.util.List;

/** An operand of a parsed PTX instruction, before registers and symbols are resolved. */
sealed interface Operand {
    /** A register or special register, e.g. {@code %r1} or {@code %tid.x}, named after scope resolution. */
    record Reg(String name) implements Operand {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A literal: {@code bits} is the integer value, or the raw IEEE bits of a floating literal of {@code kind}. */
    record Imm(long bits, ImmKind kind) implements Operand {
        @Override
        public String toString() {
            return switch (kind) {
                case INT -> Long.toString(bits);
                case F32 -> "0f" + String.format("%08X", bits);
                case F64, DECIMAL -> "0d" + String.format("%016X", bits);
            };
        }
    }

    /** How a literal was written: an integer, {@code 0f} hex (f32 bits), {@code 0d} hex or a decimal float (f64). */
    enum ImmKind { INT, F32, F64, DECIMAL }

    /** A symbol (variable, function, parameter or label) plus a byte offset. */
    record Sym(String name, long offset) implements Operand {
        @Override
        public String toString() {
            return offset == 0 ? name : name + "+" + offset;
        }
    }

    /** An address {@code [base+offset]}; the base is a register, a symbol or an integer literal. */
    record Addr(Operand base, long offset) implements Operand {
        @Override
        public String toString() {
            return "[" + base + (offset == 0 ? "" : "+" + offset) + "]";
        }
    }

    /** A vector {@code {a, b, ...}}. */
    record Vec(List<Operand> elements) implements Operand {
    }

    /** Two destinations {@code a|b}, as in {@code setp} and {@code shfl}. */
    record Pair(Operand first, Operand second) implements Operand {
    }

    /** A negated predicate {@code !%p}. */
    record Not(Operand operand) implements Operand {
    }

    /** The sink {@code _}: a result that is discarded. */
    record Sink() implements Operand {
    }

    /** A parenthesised list, as in the return and argument lists of {@code call}. */
    record Group(List<Operand> elements) implements Operand {
    }
}
