package org.polygpu.emulator.ptx;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.polygpu.emulator.ptx.PtxLexer.Kind;
import org.polygpu.emulator.ptx.PtxLexer.Token;

/**
 * The initialiser of a {@code .global} or {@code .const} variable: a value or a (nested) brace list of values,
 * turned into little-endian bytes of the element type. An element that is the address of a variable ({@code sym},
 * {@code sym+8}, {@code generic(sym)}, {@code generic(sym)+8}) in a 64-bit variable is left zero and becomes a
 * relocation, written by the loader once it has allocated the variables.
 */
final class Initializer {
    /** The initial bytes and the addresses to write into them. */
    record Value(byte[] bytes, List<ModuleVariable.Relocation> relocations) {
    }

    private Initializer() {
    }

    static Value parse(PtxParser p, PtxType type, int line) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<ModuleVariable.Relocation> relocations = new ArrayList<>();
        value(p, type, out, relocations);
        return new Value(out.toByteArray(), relocations);
    }

    private static void value(PtxParser p, PtxType type, ByteArrayOutputStream out,
            List<ModuleVariable.Relocation> relocations) {
        Token t = p.next();
        if (t.is("{")) {
            while (!p.peek().is("}")) {
                value(p, type, out, relocations);
                if (p.peek().is(",")) {
                    p.next();
                }
            }
            p.next();
            return;
        }
        boolean negative = t.is("-");
        if (negative) {
            t = p.next();
        }
        if (t.kind() == Kind.WORD && !negative) {
            address(p, t, type, out, relocations);
            return;
        }
        if (t.kind() != Kind.NUMBER) {
            Token at = t;
            throw p.error(at, "unsupported initialiser " + at + ": only numeric initialisers are supported");
        }
        Token at = t;
        Operand.Imm imm = Literals.parse(t.text()).orElseThrow(() -> p.error(at, "bad number " + at));
        if (negative) {
            imm = Literals.negate(imm);
        }
        long bits = Literals.bitsAs(imm, type);
        for (int i = 0; i < type.size(); i++) {
            out.write((int) (bits >>> (8 * i)));
        }
    }

    private static void address(PtxParser p, Token t, PtxType type, ByteArrayOutputStream out,
            List<ModuleVariable.Relocation> relocations) {
        Token symbol = t;
        boolean generic = t.is("generic") && p.peek().is("(");
        if (generic) {
            p.next();
            symbol = p.next();
        }
        long addend = 0;
        while (p.peek().is("+")) {
            p.next();
            Token n = p.next();
            addend += Literals.parse(n.text()).map(Operand.Imm::bits).orElseThrow(() -> p.error(n, "bad number " + n));
        }
        if (generic) {
            p.expect(")");
            while (p.peek().is("+")) {
                p.next();
                Token n = p.next();
                addend += Literals.parse(n.text()).map(Operand.Imm::bits)
                        .orElseThrow(() -> p.error(n, "bad number " + n));
            }
        }
        if (type.size() != 8 || symbol.kind() != Kind.WORD) {
            throw p.error(t, "unsupported initialiser " + t + ": an address initialiser needs a 64-bit variable");
        }
        relocations.add(new ModuleVariable.Relocation(out.size(), symbol.text(), addend));
        for (int i = 0; i < 8; i++) {
            out.write(0);
        }
    }
}
