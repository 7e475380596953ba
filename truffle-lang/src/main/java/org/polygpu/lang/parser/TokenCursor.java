package org.polygpu.lang.parser;

import java.util.List;

/**
 * A position in a list of tokens ending with {@link Token.Kind#END}, with the expectations the signature parsers
 * share: each failed one is a syntax error at the current token, quoting the text through {@link SyntaxErrors}.
 */
final class TokenCursor {
    private final List<Token> tokens;
    private final SyntaxErrors errors;
    private final String end;
    private int pos;

    /** @param end what the text is, in "expected the end of ..." */
    TokenCursor(List<Token> tokens, SyntaxErrors errors, String end) {
        this.tokens = tokens;
        this.errors = errors;
        this.end = end;
    }

    Token peek() {
        return tokens.get(pos);
    }

    /** The token {@code ahead} after the current one, or the end. */
    Token peek(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    /** The token last advanced over. */
    Token previous() {
        return tokens.get(pos - 1);
    }

    /** The index of the current token. */
    int position() {
        return pos;
    }

    Token at(int index) {
        return tokens.get(index);
    }

    /** The current token; moves past it unless it is the end. */
    Token advance() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.END) {
            pos++;
        }
        return t;
    }

    RuntimeException expected(String what) {
        Token t = peek();
        return errors.at(t.start(), Math.max(1, t.length()), "expected " + what + ", found " + t.describe());
    }

    void expect(String punctuation, String what) {
        if (!peek().is(punctuation)) {
            throw expected("'" + punctuation + "' " + what);
        }
        advance();
    }

    void expectEnd() {
        if (peek().kind() != Token.Kind.END) {
            throw expected("the end of the " + end);
        }
    }

    /** An identifier's text, moving past it. */
    String word(String what) {
        if (peek().kind() != Token.Kind.IDENTIFIER) {
            throw expected(what);
        }
        return advance().text();
    }
}
