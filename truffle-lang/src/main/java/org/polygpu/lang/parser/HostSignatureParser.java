package org.polygpu.lang.parser;

import java.util.ArrayList;
import java.util.List;

import org.polygpu.array.Access;
import org.polygpu.array.ElementType;
import org.polygpu.mangling.CxxParameter;
import org.polygpu.mangling.CxxType;
import org.polygpu.sched.Parameter;

/**
 * Parses the signatures of host functions and of {@code cxx} kernels, in GrCUDA's forms.
 *
 * <ul>
 * <li>NIDL: {@code [cxx] ns::name(x: in pointer float, y: out pointer sint32, n: uint64): sint32}. {@code cxx} marks a
 * C++ function, whose symbol is mangled; a pointer without a direction is {@code inout}, {@code in} pointers are
 * {@code const}. The result type is optional ({@code void} when absent); kernels have none.</li>
 * <li>Legacy NFI, with the symbol given apart: {@code (sint32, pointer, const pointer): sint32}, the parentheses and
 * the result optional; parameters are named {@code arg1}, {@code arg2}, ...</li>
 * </ul>
 *
 * Types are NIDL's ({@code bool char sint8 uint8 sint16 uint16 sint32 uint32 sint64 uint64 sll64 ull64 float
 * double}) or C names. Errors are {@link IllegalArgumentException}s quoting the signature.
 */
public final class HostSignatureParser {
    private final SyntaxErrors errors;
    private final TokenCursor in;

    private HostSignatureParser(String what, String text) {
        this.errors = SyntaxErrors.of(what, text);
        this.in = new TokenCursor(Lexer.signatureTokens(text, errors), errors, "signature");
    }

    /** Parses one NIDL signature; {@code function} says whether a result type may follow (not for kernels). */
    public static HostSignature nidl(String text, boolean function) {
        HostSignatureParser p = new HostSignatureParser("NIDL signature", text);
        boolean cxx = p.in.peek().isIdentifier("cxx") && p.in.peek(1).kind() == Token.Kind.IDENTIFIER;
        if (cxx) {
            p.in.advance();
        }
        HostSignature s = p.signature(cxx, function);
        p.in.expectEnd();
        return s;
    }

    /** Whether {@code text} is a {@code cxx} NIDL signature. */
    public static boolean isCxx(String text) {
        return text.strip().matches("(?s)cxx\\s+[A-Za-z_:].*");
    }

    /** Parses a legacy NFI list for the function {@code name}, a C symbol. */
    public static HostSignature legacy(String name, String text) {
        HostSignatureParser p = new HostSignatureParser("signature", text);
        boolean parenthesised = p.in.peek().is("(");
        if (parenthesised) {
            p.in.advance();
        }
        List<Parameter> params = new ArrayList<>();
        Token.Kind end = Token.Kind.END;
        if (!(parenthesised ? p.in.peek().is(")") : p.in.peek().kind() == end)) {
            params.add(p.legacyParameter(1));
            while (p.in.peek().is(",")) {
                p.in.advance();
                params.add(p.legacyParameter(params.size() + 1));
            }
        }
        ElementType result = null;
        if (parenthesised) {
            p.in.expect(")", "to close the parameter list");
            result = p.optionalResult(true);
        }
        p.in.expectEnd();
        return new HostSignature(name, false, params, null, result);
    }

    /**
     * Parses the body of a NIDL file's scope: signatures one after the other, in namespace {@code namespace} (empty
     * for none), C++ ones when {@code cxx}, with results when {@code functions}.
     */
    static List<HostSignature> scope(String body, String namespace, boolean cxx, boolean functions) {
        HostSignatureParser p = new HostSignatureParser("NIDL scope", body);
        List<HostSignature> out = new ArrayList<>();
        while (p.in.peek().kind() != Token.Kind.END) {
            out.add(p.signature(cxx, functions).inNamespace(namespace));
        }
        return out;
    }

    private HostSignature signature(boolean cxx, boolean function) {
        String name = qualifiedName();
        in.expect("(", "after the name " + name);
        List<Parameter> params = new ArrayList<>();
        List<CxxParameter> cxxParams = new ArrayList<>();
        if (!in.peek().is(")")) {
            parameter(params, cxxParams);
            while (in.peek().is(",")) {
                in.advance();
                parameter(params, cxxParams);
            }
        }
        in.expect(")", "to close the parameter list");
        return new HostSignature(name, cxx, params, cxxParams, optionalResult(function));
    }

    private String qualifiedName() {
        StringBuilder name = new StringBuilder();
        if (in.peek().is("::")) {
            in.advance();
        }
        name.append(in.word("a function name"));
        while (in.peek().is("::")) {
            in.advance();
            name.append("::").append(in.word("a name after '::'"));
        }
        return name.toString();
    }

    private void parameter(List<Parameter> params, List<CxxParameter> cxxParams) {
        Token at = in.peek();
        String name = in.word("a parameter name");
        for (Parameter p : params) {
            if (p.name().equals(name)) {
                throw errors.at(at.start(), at.length(), "parameter '" + name + "' is declared twice");
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
            CxxType type = cxxType("the element type of pointer '" + name + "'");
            Access mode = access == null ? Access.READ_WRITE : access;
            params.add(Parameter.pointer(name, elementType(type), mode));
            cxxParams.add(mode == Access.READ ? CxxParameter.pointerToConst(type) : CxxParameter.pointer(type));
        } else {
            CxxType type = cxxType("the type of '" + name + "'");
            params.add(Parameter.scalar(name, elementType(type)));
            cxxParams.add(CxxParameter.value(type));
        }
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
        return Parameter.scalar(name, elementType(cxxType("a parameter type (pointer, const pointer or a scalar)")));
    }

    /** {@code : type} when {@code allowed} and present; null for none or {@code void}. */
    private ElementType optionalResult(boolean allowed) {
        if (!allowed || !in.peek().is(":")) {
            return null;
        }
        in.advance();
        if (in.peek().isIdentifier("void")) {
            in.advance();
            return null;
        }
        return elementType(cxxType("a result type"));
    }

    private CxxType cxxType(String what) {
        Token t = in.peek();
        StringBuilder name = new StringBuilder(in.word(what));
        while (List.of("unsigned", "signed", "long").contains(in.previous().text())
                && in.peek().kind() == Token.Kind.IDENTIFIER
                && List.of("char", "short", "int", "long").contains(in.peek().text())) {
            name.append(' ').append(in.advance().text());
        }
        try {
            return CxxType.named(name.toString());
        } catch (IllegalArgumentException e) {
            throw errors.at(t.start(), t.length(), e.getMessage());
        }
    }

    /** The element type that carries {@code type} (C++'s three chars and two longs share one each). */
    static ElementType elementType(CxxType type) {
        return switch (type) {
            case BOOL -> ElementType.BOOL;
            case CHAR, SIGNED_CHAR -> ElementType.CHAR;
            case UNSIGNED_CHAR -> ElementType.UCHAR;
            case SHORT -> ElementType.SHORT;
            case UNSIGNED_SHORT -> ElementType.USHORT;
            case INT -> ElementType.INT;
            case UNSIGNED_INT -> ElementType.UINT;
            case LONG, LONG_LONG -> ElementType.LONG;
            case UNSIGNED_LONG, UNSIGNED_LONG_LONG -> ElementType.ULONG;
            case FLOAT -> ElementType.FLOAT;
            case DOUBLE -> ElementType.DOUBLE;
        };
    }
}
