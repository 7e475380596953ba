package org.polygpu.emulator.timing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict reader of JSON text (RFC 8259) into plain Java values: objects become {@link LinkedHashMap}s in document
 * order, arrays {@link List}s, numbers {@link Double}s, strings, booleans and {@code null} themselves. A duplicate
 * key, trailing text or any syntax error is an {@link IllegalArgumentException} naming the source and the offset.
 * Small on purpose: the device-model files are the only JSON the emulator reads.
 */
public final class JsonReader {
    private final String text;
    private final String source;
    private int at;

    private JsonReader(String text, String source) {
        this.text = text;
        this.source = source;
    }

    /**
     * The value {@code text} holds.
     *
     * @param source what the text is, for messages (a file path, say)
     * @throws IllegalArgumentException naming {@code source} and where the text is not JSON
     */
    public static Object parse(String text, String source) {
        JsonReader r = new JsonReader(text, source);
        Object value = r.value();
        r.space();
        if (r.at < text.length()) {
            throw r.error("unexpected text after the JSON value");
        }
        return value;
    }

    private Object value() {
        space();
        if (at >= text.length()) {
            throw error("unexpected end of the text");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek() == '}') {
            at++;
            return map;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("expected a quoted key");
            }
            int keyAt = at;
            String key = string();
            space();
            expect(':');
            Object v = value();
            if (map.containsKey(key)) {
                at = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            map.put(key, v);
            space();
            char c = peek();
            at++;
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                at--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek() == ']') {
            at++;
            return list;
        }
        while (true) {
            list.add(value());
            space();
            char c = peek();
            at++;
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                at--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = at < text.length() ? text.charAt(at++) : 0;
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("incomplete \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw error("bad escape in a string");
            }
        }
    }

    private Double number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String n = text.substring(start, at);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            at = start;
            throw error("expected a value");
        }
        return Double.parseDouble(n);
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("expected a value");
        }
        at += word.length();
        return value;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : 0;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < at && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new IllegalArgumentException(source + ": not valid JSON at line " + line + ", column " + column + ": "
                + what);
    }
}
