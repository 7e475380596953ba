package org.polygpu.lang.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A NIDL file as {@code bindall} reads it: scopes of C++ host functions ({@code hostfuncs [ns] { ... }}), C host
 * functions ({@code chostfuncs { ... }}), C++ kernels ({@code kernels [ns] { ... }}) and C kernels
 * ({@code ckernels { ... }}), each holding signatures; {@code //} and {@code /* *}{@code /} comments are allowed.
 */
public final class NidlFile {
    private static final Pattern SCOPE = Pattern.compile(
            "\\s*(hostfuncs|chostfuncs|kernels|ckernels)\\b\\s*((?:::)?[A-Za-z_]\\w*(?:\\s*::\\s*[A-Za-z_]\\w*)*)?\\s*\\{");

    private NidlFile() {
    }

    /** A declaration of the file: a kernel or a host function. */
    public record Declaration(boolean kernel, HostSignature signature) {
    }

    /**
     * Every declaration of {@code text}, in order.
     *
     * @param file the file's name, for messages
     * @throws IllegalArgumentException naming the file and what is wrong
     */
    public static List<Declaration> parse(String file, String text) {
        String source = withoutComments(text);
        List<Declaration> out = new ArrayList<>();
        int pos = 0;
        while (!source.substring(pos).isBlank()) {
            Matcher m = SCOPE.matcher(source).region(pos, source.length());
            if (!m.lookingAt()) {
                throw new IllegalArgumentException("NIDL file " + file + ", line " + line(source, pos) + ": expected "
                        + "a scope (hostfuncs, chostfuncs, kernels or ckernels, then '{'), found \""
                        + source.substring(pos).strip().lines().findFirst().orElse("") + "\"");
            }
            String kind = m.group(1);
            String namespace = m.group(2) == null ? "" : m.group(2).replaceAll("\\s", "");
            if (!namespace.isEmpty() && kind.startsWith("c")) {
                throw new IllegalArgumentException("NIDL file " + file + ", line " + line(source, pos) + ": " + kind
                        + " declares C functions, which have no namespace");
            }
            int close = source.indexOf('}', m.end());
            if (close < 0) {
                throw new IllegalArgumentException("NIDL file " + file + ", line " + line(source, pos) + ": scope "
                        + kind + " is not closed with '}'");
            }
            boolean kernel = kind.endsWith("kernels");
            try {
                for (HostSignature s : HostSignatureParser.scope(source.substring(m.end(), close), namespace,
                        !kind.startsWith("c"), !kernel)) {
                    out.add(new Declaration(kernel, s));
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("NIDL file " + file + ", scope " + kind + " at line "
                        + line(source, pos) + ": " + e.getMessage(), e);
            }
            pos = close + 1;
        }
        return out;
    }

    /** The text with comments replaced by spaces, so positions and lines stay. */
    private static String withoutComments(String text) {
        StringBuilder s = new StringBuilder(text);
        Matcher m = Pattern.compile("//[^\\n]*|/\\*(?s:.*?)\\*/").matcher(text);
        while (m.find()) {
            for (int i = m.start(); i < m.end(); i++) {
                if (s.charAt(i) != '\n') {
                    s.setCharAt(i, ' ');
                }
            }
        }
        return s.toString();
    }

    private static int line(String text, int pos) {
        int start = pos;
        while (start < text.length() && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        return (int) text.substring(0, Math.min(start, text.length())).chars().filter(c -> c == '\n').count() + 1;
    }
}
