package org.polygpu.lang.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits text into {@link Token}s: identifiers, integer and floating-point literals, single- or double-quoted
 * strings, the punctuation {@code [ ] ( ) , : :: + - * / % < >}, with white space and {@code //} and
 * {@code /* *}{@code /} comments skipped. Errors are reported through {@link SyntaxErrors}.
 *
 * <p>Kernel signatures are lexed with C literals: a number may then be hexadecimal ({@code 0x1F}) and carry C's
 * suffixes ({@code 1U}, {@code 2UL}, {@code 1.0f}), as template arguments in a kernel's name do. The token keeps the
 * literal's spelling, since only NVRTC reads it.
 */
final class Lexer {
    private static final String SINGLE = "[](),:+-*/%<>";

    private final String text;
    private final SyntaxErrors errors;
    private final boolean cLiterals;
    private int pos;

    private Lexer(String text, SyntaxErrors errors, boolean cLiterals) {
        this.text = text;
        this.errors = errors;
        this.cLiterals = cLiterals;
    }

    /** Every token of {@code text}, ending with an {@code END} token. */
    static List<Token> tokens(String text, SyntaxErrors errors) {
        return tokens(text, errors, false);
    }

    /** Every token of a kernel signature, whose numbers are C literals, ending with an {@code END} token. */
    static List<Token> signatureTokens(String text, SyntaxErrors errors) {
        return tokens(text, errors, true);
    }

    private static List<Token> tokens(String text, SyntaxErrors errors, boolean cLiterals) {
        Lexer lexer = new Lexer(text, errors, cLiterals);
        List<Token> tokens = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (t.kind() != Token.Kind.END);
        return tokens;
    }

    private Token next() {
        skipSpaceAndComments();
        if (pos >= text.length()) {
            return new Token(Token.Kind.END, "", text.length(), 0);
        }
        int start = pos;
        char c = text.charAt(pos);
        if (Character.isJavaIdentifierStart(c)) {
            while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
                pos++;
            }
            return new Token(Token.Kind.IDENTIFIER, text.substring(start, pos), start, pos - start);
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1))) {
            return number(start);
        }
        if (c == '"' || c == '\'') {
            return string(start, c);
        }
        if (text.startsWith("::", pos)) {
            pos += 2;
            return new Token(Token.Kind.PUNCTUATION, "::", start, 2);
        }
        if (SINGLE.indexOf(c) >= 0) {
            pos++;
            return new Token(Token.Kind.PUNCTUATION, String.valueOf(c), start, 1);
        }
        throw errors.at(start, 1, "unexpected character '" + c + "'");
    }

    private void skipSpaceAndComments() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("//", pos)) {
                while (pos < text.length() && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw errors.at(pos, 2, "comment is not closed with */");
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private Token number(int start) {
        if (cLiterals && (text.startsWith("0x", pos) || text.startsWith("0X", pos))) {
            pos += 2;
            while (pos < text.length() && Character.digit(text.charAt(pos), 16) >= 0) {
                pos++;
            }
            return suffixed(start, false);
        }
        boolean floating = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isDigit(c)) {
                pos++;
            } else if (c == '.' || c == 'e' || c == 'E') {
                floating = true;
                pos++;
                if ((c == 'e' || c == 'E') && pos < text.length() && "+-".indexOf(text.charAt(pos)) >= 0) {
                    pos++;
                }
            } else {
                break;
            }
        }
        return suffixed(start, floating);
    }

    /** Ends a number at {@code pos}, after C's suffixes where they are allowed. */
    private Token suffixed(int start, boolean floating) {
        if (cLiterals) {
            while (pos < text.length() && "uUlLfF".indexOf(text.charAt(pos)) >= 0) {
                floating |= "fF".indexOf(text.charAt(pos)) >= 0;
                pos++;
            }
        }
        if (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
            throw errors.at(start, pos + 1 - start, "malformed number '" + text.substring(start, pos + 1) + "'");
        }
        return new Token(floating ? Token.Kind.FLOAT : Token.Kind.INTEGER, text.substring(start, pos), start,
                pos - start);
    }

    private Token string(int start, char quote) {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (pos < text.length() && text.charAt(pos) != quote) {
            char c = text.charAt(pos++);
            if (c == '\\' && pos < text.length()) {
                char e = text.charAt(pos++);
                sb.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> e;
                });
            } else {
                sb.append(c);
            }
        }
        if (pos >= text.length()) {
            throw errors.at(start, pos - start, "string is not closed with " + quote);
        }
        pos++;
        return new Token(Token.Kind.STRING, sb.toString(), start, pos - start);
    }
}
