package org.polygpu.emulator.ptx;

import java.util.ArrayList;
import java.util.List;
import org.polygpu.backend.BackendException;

/**
 * The PTX tokenizer: turns text into tokens with their line numbers: words (opcodes, directives, registers, labels and
 * symbols, which may contain dots, {@code $}, {@code %} and {@code ::}), numbers (integer and floating literals, kept
 * as text), strings and single punctuation characters. Comments are dropped.
 */
final class PtxLexer {
    /** What a token is. */
    enum Kind { WORD, NUMBER, STRING, PUNCT, END }

    /** One token; {@code line} counts from 1. */
    record Token(Kind kind, String text, int line) {
        boolean is(String s) {
            return text.equals(s) && kind != Kind.STRING;
        }

        @Override
        public String toString() {
            return kind == Kind.END ? "end of input" : "'" + text + "'";
        }
    }

    private final String text;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;

    private PtxLexer(String text) {
        this.text = text;
    }

    static List<Token> tokenize(String text) {
        PtxLexer lexer = new PtxLexer(text);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        int n = text.length();
        while (pos < n) {
            char c = text.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
            } else if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '/' && pos + 1 < n && text.charAt(pos + 1) == '/') {
                while (pos < n && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && pos + 1 < n && text.charAt(pos + 1) == '*') {
                blockComment();
            } else if (c == '"') {
                string();
            } else if (isWordStart(c)) {
                word();
            } else if (c >= '0' && c <= '9') {
                number();
            } else {
                tokens.add(new Token(Kind.PUNCT, String.valueOf(c), line));
                pos++;
            }
        }
        tokens.add(new Token(Kind.END, "", line));
    }

    private void blockComment() {
        int start = line;
        int end = text.indexOf("*/", pos + 2);
        if (end < 0) {
            throw new BackendException("PTX line " + start + ": unterminated comment");
        }
        for (int i = pos; i < end; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        pos = end + 2;
    }

    private void string() {
        int end = text.indexOf('"', pos + 1);
        if (end < 0) {
            throw new BackendException("PTX line " + line + ": unterminated string");
        }
        tokens.add(new Token(Kind.STRING, text.substring(pos + 1, end), line));
        pos = end + 1;
    }

    private void word() {
        int start = pos;
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (isWordPart(c)) {
                pos++;
            } else if (c == ':' && pos + 1 < text.length() && text.charAt(pos + 1) == ':') {
                pos += 2; // cache-hint modifiers such as .L2::128B
            } else {
                break;
            }
        }
        tokens.add(new Token(Kind.WORD, text.substring(start, pos), line));
    }

    private void number() {
        int start = pos;
        boolean hex = text.startsWith("0x", pos) || text.startsWith("0X", pos) || text.startsWith("0f", pos)
                || text.startsWith("0F", pos) || text.startsWith("0d", pos) || text.startsWith("0D", pos);
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isLetterOrDigit(c) || c == '.') {
                pos++;
            } else if ((c == '+' || c == '-') && !hex && (text.charAt(pos - 1) == 'e' || text.charAt(pos - 1) == 'E')) {
                pos++;
            } else {
                break;
            }
        }
        tokens.add(new Token(Kind.NUMBER, text.substring(start, pos), line));
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '$' || c == '%' || c == '.';
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
    }
}
