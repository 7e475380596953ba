package org.polygpu.lang.parser;

/**
 * One token of an {@code eval} source or a kernel signature.
 *
 * @param kind   what it is
 * @param text   its characters (a string literal without quotes and with escapes resolved)
 * @param start  index of its first character in the source
 * @param length characters it spans in the source
 */
record Token(Kind kind, String text, int start, int length) {
    enum Kind { IDENTIFIER, INTEGER, FLOAT, STRING, PUNCTUATION, END }

    boolean is(String punctuation) {
        return kind == Kind.PUNCTUATION && text.equals(punctuation);
    }

    boolean isIdentifier(String word) {
        return kind == Kind.IDENTIFIER && text.equals(word);
    }

    /** The token as an error message quotes it. */
    String describe() {
        return switch (kind) {
            case END -> "the end of the input";
            case STRING -> "string \"" + text + "\"";
            default -> "'" + text + "'";
        };
    }
}
