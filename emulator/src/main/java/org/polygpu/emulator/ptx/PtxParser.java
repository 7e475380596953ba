package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.polygpu.backend.BackendException;
import org.polygpu.emulator.ptx.ParsedModule.Function;
import org.polygpu.emulator.ptx.ParsedModule.Space;
import org.polygpu.emulator.ptx.ParsedModule.Variable;
import org.polygpu.emulator.ptx.PtxLexer.Kind;
import org.polygpu.emulator.ptx.PtxLexer.Token;

/**
 * The parser of the PTX that NVRTC emits, into a {@link ParsedModule}: module directives, variables with initialisers,
 * {@code .entry} and {@code .func} definitions and prototypes, and function bodies with nested scopes (names declared
 * in a nested scope are renamed {@code name#n}). Instructions are kept as opcode text and operands; the
 * {@link Decoder} gives them meaning. An unknown directive is an error naming it and its line.
 */
final class PtxParser {
    private static final Set<String> LINKAGE = Set.of(".visible", ".extern", ".weak", ".common");

    private final List<Token> tokens;
    private final List<String> lines;
    private final Map<String, Variable> variables = new LinkedHashMap<>();
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Scopes scopes = new Scopes();
    private String version = "";
    private String target = "";
    private int pos;

    private PtxParser(String text) {
        this.tokens = PtxLexer.tokenize(text);
        this.lines = List.of(text.split("\n", -1));
    }

    /** @throws BackendException naming the line of the first construct it cannot parse */
    static ParsedModule parse(String text) {
        PtxParser p = new PtxParser(text);
        p.module();
        return new ParsedModule(p.version, p.target, p.variables, p.functions, p.lines);
    }

    private void module() {
        while (peek().kind() != Kind.END) {
            Token t = next();
            switch (t.text()) {
                case ".version" -> version = next().text();
                case ".target" -> target = commaList();
                case ".address_size" -> {
                    Token size = next();
                    if (!size.is("64")) {
                        throw error(size, "only .address_size 64 is supported, not " + size.text());
                    }
                }
                case ".file" -> skipLine(t.line());
                case ".section" -> skipSection();
                case ".visible", ".extern", ".weak", ".common" -> moduleDeclaration(t);
                case ".entry", ".func", ".global", ".const", ".shared" -> moduleDeclaration(t);
                default -> throw error(t, "unsupported directive " + t);
            }
        }
    }

    private void moduleDeclaration(Token first) {
        boolean external = false;
        Token t = first;
        while (LINKAGE.contains(t.text())) {
            external |= t.is(".extern");
            t = next();
        }
        switch (t.text()) {
            case ".entry", ".func" -> function(t);
            case ".global", ".const", ".shared" -> {
                for (Variable v : variableDeclaration(t, external, false, true)) {
                    variables.put(v.name(), v);
                }
            }
            default -> throw error(t, "unsupported directive " + t);
        }
    }

    private void function(Token kind) {
        boolean entry = kind.is(".entry");
        scopes.reset();
        List<Variable> returns = new ArrayList<>();
        if (!entry && peek().is("(")) {
            returns = parameterList();
        }
        Token name = next();
        List<Variable> params = peek().is("(") ? parameterList() : new ArrayList<>();
        while (!peek().is("{") && !peek().is(";")) {
            Token d = next(); // performance directives (.maxntid, .reqntid, .noreturn, ...) do not change semantics
            if (d.kind() == Kind.END) {
                throw error(d, "function " + name.text() + " has no body");
            }
        }
        if (next().is(";")) {
            functions.putIfAbsent(name.text(), new Function(name.text(), entry, params, returns, List.of(),
                    List.of(), List.of(), name.line()));
            return;
        }
        for (Variable p : params) {
            scopes.declare(p.name());
        }
        for (Variable r : returns) {
            scopes.declare(r.name());
        }
        BodyParser body = new BodyParser(this, scopes);
        body.parse();
        functions.put(name.text(), new Function(name.text(), entry, params, returns, body.registers, body.locals,
                body.statements, name.line()));
    }

    private List<Variable> parameterList() {
        expect("(");
        List<Variable> list = new ArrayList<>();
        while (!peek().is(")")) {
            Token p = next();
            if (!p.is(".param")) {
                throw error(p, "unsupported parameter declaration " + p + " (expected .param)");
            }
            list.addAll(variableDeclaration(p, false, true, false));
            if (peek().is(",")) {
                next();
            }
        }
        expect(")");
        return list;
    }

    /**
     * The declarators after a state-space word: {@code [.align n] [.ptr ...] [.v2|.v4] .type name[dims] [= init]}.
     * Parameters end at {@code ,} or {@code )}; other declarations consume their {@code ;}.
     */
    List<Variable> variableDeclaration(Token spaceToken, boolean external, boolean parameter,
                                               boolean moduleLevel) {
        Space space = switch (spaceToken.text()) {
            case ".global" -> Space.GLOBAL;
            case ".const" -> Space.CONST;
            case ".shared" -> Space.SHARED;
            case ".local" -> Space.LOCAL;
            default -> Space.PARAM;
        };
        int align = 0;
        int vector = 1;
        PtxType type = null;
        while (type == null) {
            Token m = next();
            switch (m.text()) {
                case ".align" -> align = (int) intLiteral(next());
                case ".ptr", ".global", ".const", ".shared", ".local" -> { } // pointer attributes of a parameter
                case ".v2" -> vector = 2;
                case ".v4" -> vector = 4;
                default -> type = PtxType.of(m.text().startsWith(".") ? m.text().substring(1) : "")
                        .orElseThrow(() -> error(m, "unsupported declaration modifier " + m));
            }
        }
        List<Variable> out = new ArrayList<>();
        while (true) {
            Token name = next();
            if (name.kind() != Kind.WORD) {
                throw error(name, "expected a name in a declaration, found " + name);
            }
            long count = vector;
            boolean unsized = false;
            while (peek().is("[")) {
                next();
                if (peek().is("]")) {
                    unsized = true;
                } else {
                    count *= intLiteral(next());
                }
                expect("]");
            }
            Initializer.Value init = new Initializer.Value(new byte[0], List.of());
            if (peek().is("=")) {
                next();
                init = Initializer.parse(this, type, name.line());
            }
            int size = unsized ? 0 : Math.toIntExact(count * type.size());
            String unique = parameter || moduleLevel ? name.text() : scopes.declare(name.text());
            out.add(new Variable(unique, space, type, size, align == 0 ? type.size() : align, external || unsized,
                    init.bytes(), init.relocations(), name.line()));
            if (parameter || !peek().is(",")) {
                break;
            }
            next();
        }
        if (!parameter) {
            expect(";");
        }
        return out;
    }

    Token next() {
        return tokens.get(pos++);
    }

    Token peek() {
        return tokens.get(pos);
    }

    void expect(String text) {
        Token t = next();
        if (!t.is(text)) {
            throw error(t, "expected '" + text + "' but found " + t);
        }
    }

    BackendException error(Token at, String message) {
        return new BackendException("PTX line " + at.line() + ": " + message + lineText(at.line()));
    }

    private String lineText(int line) {
        return line >= 1 && line <= lines.size() ? ": " + lines.get(line - 1).strip() : "";
    }

    long intLiteral(Token t) {
        if (t.kind() != Kind.NUMBER) {
            throw error(t, "expected an integer, found " + t);
        }
        Operand.Imm imm = Literals.parse(t.text()).orElseThrow(() -> error(t, "bad number " + t));
        if (imm.kind() != Operand.ImmKind.INT) {
            throw error(t, "expected an integer, found " + t);
        }
        return imm.bits();
    }

    private String commaList() {
        StringBuilder sb = new StringBuilder(next().text());
        while (peek().is(",")) {
            next();
            sb.append(',').append(next().text());
        }
        return sb.toString();
    }

    void skipLine(int line) {
        while (peek().kind() != Kind.END && peek().line() == line) {
            next();
        }
    }

    private void skipSection() {
        next(); // the section name
        expect("{");
        int depth = 1;
        while (depth > 0) {
            Token t = next();
            if (t.kind() == Kind.END) {
                throw error(t, "unterminated .section");
            }
            depth += t.is("{") ? 1 : t.is("}") ? -1 : 0;
        }
    }
}
