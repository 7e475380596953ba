package org.polygpu.emulator.ptx;

import java.io.ByteArrayOutputStream;
import org.polygpu.emulator.ptx.PtxLexer.Kind;
import org.polygpu.emulator.ptx.PtxLexer.Token;

/**
 * The initialiser of a {@code .global} or {@code .const} variable: a value or a (nested) brace list of values,
 * turned into little-endian bytes of the element type. Address initialisers ({@code generic(sym)}) are refused.
 */
final class Initializer {
    private Initializer() {
    }

    static byte[] parse(PtxParser p, PtxType type, int line) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        value(p, type, out);
        return out.toByteArray();
    }

    private static void value(PtxParser p, PtxType type, ByteArrayOutputStream out) {
        Token t = p.next();
        if (t.is("{")) {
            while (!p.peek().is("}")) {
                value(p, type, out);
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
}
