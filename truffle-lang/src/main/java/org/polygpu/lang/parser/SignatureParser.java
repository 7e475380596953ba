package org.polygpu.lang.parser;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;
import org.polygpu.sched.Parameter;

/**
 * Parses kernel signatures in both of GrCUDA's forms.
 *
 * <ul>
 * <li>NIDL: {@code name(x: in pointer float, y: out pointer float, z: inout pointer double, n: sint32)}; a pointer
 * without a direction is {@code inout}; the name is the expression NVRTC instantiates: it may be qualified
 * ({@code ns::k}) and carry template arguments, nested ones and C literals included
 * ({@code mergeSortSharedKernel<1U>}, {@code f<A<int>, 2UL>}). The name keeps its tokens, with one space only between
 * two words ({@code f<unsigned int,1.0f>}).</li>
 * <li>Legacy NFI: {@code "pointer, const pointer, sint32"} or {@code "(pointer, const pointer, sint32): void"}
 * (any return type, which a kernel ignores) with the name given apart; {@code const pointer} and
 * {@code pointer const} are read-only, a plain {@code pointer} is read and written; parameters are named
 * {@code arg1}, {@code arg2}, ...</li>
 * </ul>
 *
 * Scalar and element types are NIDL names ({@code sint8} ... {@code uint64}, {@code float}, {@code double},
 * {@code bool}, {@code char}) or C names. Errors are {@link IllegalArgumentException}s quoting the signature.
 */
public final class SignatureParser {
    private final String text;
    private final SyntaxErrors errors;
    private final TokenCursor in;

    private SignatureParser(String what, String text) {
        this.text = text;
        this.errors = SyntaxErrors.of(what, text);
        this.in = new TokenCursor(Lexer.signatureTokens(text, errors), errors, "signature");
    }

    /** A kernel name and its parameters. */
    public record Signature(String name, List<Parameter> parameters) {
        public Signature {
            parameters = List.copyOf(parameters);
        }
    }

    /**
     * Parses a NIDL signature, {@code name(param, ...)}, with an optional return type, which a kernel ignores as
     * GrCUDA's parser does ({@code name(param, ...): sint32}).
     */
    public static Signature nidl(String text) {
        SignatureParser p = new SignatureParser("NIDL signature", text);
        String name = p.kernelName();
        p.in.expect("(", "after the kernel name");
        List<Parameter> params = new ArrayList<>();
        if (!p.in.peek().is(")")) {
            params.add(p.nidlParameter(params));
            while (p.in.peek().is(",")) {
                p.in.advance();
                params.add(p.nidlParameter(params));
            }
        }
        p.in.expect(")", "to close the parameter list");
        p.returnType();
        p.in.expectEnd();
        return new Signature(name, params);
    }

    /** A legacy NFI signature: its parameters and its return type, null for {@code void} or none given. */
    public record LegacySignature(List<Parameter> parameters, ElementType returnType) {
        public LegacySignature {
            parameters = List.copyOf(parameters);
        }
    }

    /**
     * Parses a legacy NFI parameter list, {@code pointer, const pointer, sint32}, also in NFI's full form with
     * parentheses and a return type, {@code (pointer, sint32): void}. A kernel returns nothing: a return type other
     * than {@code void} ({@code (pointer, sint32): sint32}) is accepted and ignored, as GrCUDA's parser does.
     */
    public static List<Parameter> legacy(String text) {
        return new SignatureParser("signature", text).legacySignature().parameters();
    }

    /**
     * Parses a legacy NFI signature of a host function, {@code (sint64, pointer const, pointer): sint32}: the
     * parentheses and the return type may be left out, as for a kernel.
     */
    public static LegacySignature legacyFunction(String text) {
        return new SignatureParser("signature", text).legacySignature();
    }

    private LegacySignature legacySignature() {
        boolean parenthesized = in.peek().is("(");
        if (parenthesized) {
            in.advance();
        }
        List<Parameter> params = new ArrayList<>();
        if (in.peek().kind() != Token.Kind.END && !(parenthesized && in.peek().is(")"))) {
            params.add(legacyParameter(1));
            while (in.peek().is(",")) {
                in.advance();
                params.add(legacyParameter(params.size() + 1));
            }
        }
        ElementType returnType = null;
        if (parenthesized) {
            in.expect(")", "to close the parameter list");
            returnType = returnType();
        }
        in.expectEnd();
        return new LegacySignature(params, returnType);
    }

    /** An optional {@code : type} after a parameter list: null for {@code void} or none. */
    private ElementType returnType() {
        if (!in.peek().is(":")) {
            return null;
        }
        in.advance();
        if (in.peek().isIdentifier("void")) {
            in.advance();
            return null;
        }
        return type("the return type (void or a scalar type)");
    }

    /** Whether {@code text} looks like a NIDL signature (has a parameter list) rather than a bare kernel name. */
    public static boolean isNidl(String text) {
        return text.contains("(");
    }

    /** An identifier, possibly qualified ({@code ns::f}) and with balanced template arguments. */
    private String kernelName() {
        int first = in.position();
        if (in.peek().is("::")) {
            in.advance();
        }
        in.word("a kernel name");
        while (in.peek().is("::")) {
            in.advance();
            in.word("a name after '::'");
        }
        if (in.peek().is("<")) {
            templateArguments(in.peek().start());
        }
        StringBuilder name = new StringBuilder();
        for (int i = first; i < in.position(); i++) {
            if (i > first && isWord(in.at(i - 1)) && isWord(in.at(i))) {
                name.append(' ');
            }
            name.append(in.at(i).text());
        }
        return name.toString();
    }

    /** Skips balanced {@code <...>}; a parenthesis inside (as in {@code (1 > 0)}) hides its angle brackets. */
    private void templateArguments(int start) {
        int angles = 0;
        int parens = 0;
        do {
            Token t = in.advance();
            if (t.kind() == Token.Kind.END) {
                throw errors.at(start, text.length() - start, "template arguments are not closed with '>'");
            }
            parens += t.is("(") ? 1 : t.is(")") ? -1 : 0;
            if (parens == 0) {
                angles += t.is("<") ? 1 : t.is(">") ? -1 : 0;
            }
        } while (angles > 0);
    }

    private static boolean isWord(Token t) {
        return t.kind() == Token.Kind.IDENTIFIER || t.kind() == Token.Kind.INTEGER || t.kind() == Token.Kind.FLOAT;
    }

    private Parameter nidlParameter(List<Parameter> before) {
        String name = in.word("a parameter name");
        for (Parameter p : before) {
            if (p.name().equals(name)) {
                throw errors.at(in.previous().start(), name.length(),
                        "parameter '" + name + "' is declared twice");
            }
        }
        in.expect(":", "after parameter '" + name + "'");
        Access access = switch (in.peek().text()) {
            case "in" -> Access.READ;
            case "out" -> Access.WRITE;
            case "inout" -> Access.READ_WRITE;
            default -> null;
        };
        if (access != null && in.peek().kind() == Token.Kind.IDENTIFIER) {
            in.advance();
            if (!in.peek().isIdentifier("pointer")) {
                throw in.expected("'pointer' after '" + in.previous().text() + "'");
            }
        }
        if (in.peek().isIdentifier("pointer")) {
            in.advance();
            return Parameter.pointer(name, type("the element type of pointer '" + name + "'"),
                    access == null ? Access.READ_WRITE : access);
        }
        return Parameter.scalar(name, type("the type of '" + name + "'"));
    }

    private Parameter legacyParameter(int index) {
        String name = "arg" + index;
        if (in.peek().isIdentifier("const")) {
            in.advance();
            if (!in.peek().isIdentifier("pointer")) {
                throw in.expected("'pointer' after 'const'");
            }
            in.advance();
            return Parameter.pointer(name, null, Access.READ);
        }
        if (in.peek().isIdentifier("pointer")) {
            in.advance();
            if (in.peek().isIdentifier("const")) {
                in.advance();
                return Parameter.pointer(name, null, Access.READ);
            }
            return Parameter.pointer(name, null, Access.READ_WRITE);
        }
        return Parameter.scalar(name, type("a parameter type (pointer, const pointer or a scalar type)"));
    }

    private ElementType type(String what) {
        Token t = in.peek();
        String name = in.word(what);
        if (name.equals("unsigned") && in.peek().kind() == Token.Kind.IDENTIFIER
                && List.of("char", "short", "int", "long").contains(in.peek().text())) {
            name += " " + in.advance().text();
        }
        try {
            return TypeNames.elementType(name);
        } catch (IllegalArgumentException e) {
            throw errors.at(t.start(), t.length(), e.getMessage());
        }
    }
}
