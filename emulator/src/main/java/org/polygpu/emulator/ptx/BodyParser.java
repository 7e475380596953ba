package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.ParsedModule.Register;
import org.polygpu.emulator.ptx.ParsedModule.Statement;
import org.polygpu.emulator.ptx.ParsedModule.Variable;
import org.polygpu.emulator.ptx.PtxLexer.Kind;
import org.polygpu.emulator.ptx.PtxLexer.Token;

/**
 * The parser of one function body, from after its opening brace to the matching closing one: labels, register and
 * variable declarations (in nested scopes too), guards, and instructions with their operands (registers, literals,
 * symbols with offsets, addresses, vectors, pairs, negations, sinks and call lists).
 */
final class BodyParser {
    private static final Set<String> SPACES = Set.of(".global", ".const", ".shared", ".local", ".param");
    final List<Statement> statements = new ArrayList<>();
    final List<Register> registers = new ArrayList<>();
    final List<Variable> locals = new ArrayList<>();
    private final PtxParser parser;
    private final Scopes scopes;

    BodyParser(PtxParser parser, Scopes scopes) {
        this.parser = parser;
        this.scopes = scopes;
    }

    void parse() {
        scopes.push();
        while (scopes.depth() > 0) {
            Token t = next();
            if (t.kind() == Kind.END) {
                throw error(t, "unterminated function body");
            } else if (t.is("{")) {
                scopes.push();
            } else if (t.is("}")) {
                scopes.pop();
            } else if (t.kind() == Kind.WORD && peek().is(":")) {
                next();
                statements.add(new ParsedModule.Label(t.text(), t.line()));
            } else if (t.is(".reg")) {
                registerDeclaration(next());
            } else if (t.text().startsWith(".reg.")) { // ".reg.b32 f;" as cuda_fp16.hpp's inline assembly writes it
                registerDeclaration(new Token(Kind.WORD, t.text().substring(4), t.line()));
            } else if (SPACES.contains(t.text())) {
                locals.addAll(parser.variableDeclaration(t, false, false, false));
            } else if (t.is(".pragma")) {
                skipTo(";");
            } else if (t.is(".loc") || t.is(".file")) {
                parser.skipLine(t.line());
            } else if (t.is("@")) {
                boolean negated = peek().is("!");
                if (negated) {
                    next();
                }
                Token guard = next();
                instruction(next(), scopes.resolve(guard.text()), negated);
            } else if (t.kind() == Kind.WORD && !t.text().startsWith(".")) {
                instruction(t, null, false);
            } else {
                throw error(t, "unsupported directive or statement " + t);
            }
        }
    }

    private void registerDeclaration(Token typeToken) {
        PtxType type = PtxType.of(typeToken.text().substring(1))
                .orElseThrow(() -> error(typeToken, "unsupported register type " + typeToken));
        do {
            Token name = next();
            if (peek().is("<")) {
                next();
                long n = intLiteral(next());
                expect(">");
                for (int i = 0; i < n; i++) {
                    registers.add(new Register(scopes.declareRegister(name.text() + i), type));
                }
            } else {
                registers.add(new Register(scopes.declareRegister(name.text()), type));
            }
        } while (peek().is(",") && next().is(","));
        expect(";");
    }

    private void instruction(Token opcode, String guard, boolean negated) {
        if (opcode.kind() != Kind.WORD) {
            throw error(opcode, "expected an instruction, found " + opcode);
        }
        List<Operand> operands = new ArrayList<>();
        try {
            while (!peek().is(";")) {
                operands.add(operand());
                if (peek().is(",")) {
                    next();
                } else if (!peek().is(";")) {
                    throw error(peek(), "unexpected " + peek());
                }
            }
        } catch (BackendException e) {
            throw error(opcode, "unsupported instruction '" + opcode.text() + "' (cannot parse its operands: "
                    + e.getMessage().replaceFirst("^PTX line \\d+: ", "").replaceFirst(": [^:]*$", "") + ")");
        }
        next();
        statements.add(new ParsedModule.Instruction(opcode.text(), List.copyOf(operands), guard, negated,
                opcode.line()));
    }

    private Operand operand() {
        Token t = next();
        Operand o;
        if (t.is("!")) {
            return new Operand.Not(operand());
        } else if (t.is("[")) {
            o = address();
        } else if (t.is("{")) {
            o = new Operand.Vec(list("}"));
        } else if (t.is("(")) {
            o = new Operand.Group(list(")"));
        } else if (t.is("-") && peek().kind() == Kind.NUMBER) {
            o = Literals.negate(literal(next()));
        } else if (t.kind() == Kind.NUMBER) {
            o = literal(t);
        } else if (t.is("_")) {
            o = new Operand.Sink();
        } else if (t.kind() == Kind.WORD) {
            String name = scopes.resolve(t.text());
            long offset = offset();
            o = offset == 0 && scopes.isRegister(name, t.text()) ? new Operand.Reg(name)
                    : new Operand.Sym(name, offset);
        } else {
            throw error(t, "unexpected " + t + " in an operand");
        }
        if (peek().is("|")) {
            next();
            return new Operand.Pair(o, operand());
        }
        return o;
    }

    private Operand address() {
        Token base = next();
        Operand b;
        if (base.kind() == Kind.NUMBER) {
            b = literal(base);
        } else {
            String name = scopes.resolve(base.text());
            b = scopes.isRegister(name, base.text()) ? new Operand.Reg(name) : new Operand.Sym(name, 0);
        }
        long offset = offset();
        expect("]");
        return new Operand.Addr(b, offset);
    }

    /** An optional {@code +n}, {@code +-n} or {@code -n}. */
    private long offset() {
        if (!peek().is("+") && !peek().is("-")) {
            return 0;
        }
        boolean negative = next().is("-");
        if (peek().is("-")) {
            next();
            negative = !negative;
        }
        long n = intLiteral(next());
        return negative ? -n : n;
    }

    private List<Operand> list(String close) {
        List<Operand> items = new ArrayList<>();
        while (!peek().is(close)) {
            items.add(operand());
            if (peek().is(",")) {
                next();
            }
        }
        next();
        return List.copyOf(items);
    }

    private Operand.Imm literal(Token t) {
        return Literals.parse(t.text()).orElseThrow(() -> error(t, "bad number " + t));
    }

    private void skipTo(String end) {
        while (!next().is(end)) {
            if (peek().kind() == Kind.END) {
                throw error(peek(), "expected '" + end + "'");
            }
        }
    }

    private Token next() {
        return parser.next();
    }

    private Token peek() {
        return parser.peek();
    }

    private void expect(String text) {
        parser.expect(text);
    }

    private BackendException error(Token at, String message) {
        return parser.error(at, message);
    }

    private long intLiteral(Token t) {
        return parser.intLiteral(t);
    }
}
