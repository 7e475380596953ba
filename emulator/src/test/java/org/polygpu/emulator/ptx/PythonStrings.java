package org.polygpu.emulator.ptx;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads CUDA source out of Python files as the Python interpreter would: the triple-quoted string literal assigned to
 * a name, either directly ({@code KERNEL = r"""..."""}) or as the first argument of a call
 * ({@code mod = SourceModule("""...""")}, {@code k = cupy.RawKernel(r'''...''', 'k')}), with Python's escapes decoded
 * unless the literal is raw; and Python's {@code %} formatting with a mapping, for sources written as templates.
 */
final class PythonStrings {
    private PythonStrings() {
    }

    /**
     * The value of the {@code occurrence}-th (from 1) assignment to {@code name} in {@code python}: a triple-quoted
     * literal, or a sum of such literals and names assigned earlier in the file ({@code A = B + r"""..."""}).
     *
     * @throws IllegalArgumentException when there is no such assignment or a literal is not closed
     */
    static String assigned(String python, String name, int occurrence) {
        Pattern start = Pattern.compile("(?m)^[ \\t]*" + Pattern.quote(name)
                + "[ \\t]*=\\s*(?:[\\w.]+\\(\\s*)?(?:code\\s*=\\s*)?");
        Matcher m = start.matcher(python);
        for (int i = 0; i < occurrence; i++) {
            if (!m.find()) {
                throw new IllegalArgumentException("no assignment #" + occurrence + " of a string to '" + name
                        + "' (found " + i + ")");
            }
        }
        StringBuilder value = new StringBuilder();
        Pattern term = Pattern.compile("([rRuU]?)(\"\"\"|''')|(\\w+)");
        Pattern plus = Pattern.compile("[ \\t]*\\+[ \\t]*");
        int at = m.end();
        while (true) {
            Matcher t = term.matcher(python).region(at, python.length());
            if (!t.lookingAt()) {
                throw new IllegalArgumentException("'" + name + "' is not assigned a triple-quoted string or a sum "
                        + "of them and names");
            }
            if (t.group(3) != null) {
                value.append(assigned(python, t.group(3), 1));
                at = t.end();
            } else {
                int end = closing(python, t.end(), t.group(2), name);
                String body = python.substring(t.end(), end);
                value.append(t.group(1).equalsIgnoreCase("r") ? body : unescape(body));
                at = end + 3;
            }
            Matcher p = plus.matcher(python).region(at, python.length());
            if (!p.lookingAt()) {
                return value.toString();
            }
            at = p.end();
        }
    }

    /** Where the literal opened just before {@code begin} with {@code quote} closes. */
    private static int closing(String python, int begin, String quote, String name) {
        for (int i = begin; i < python.length(); i++) {
            if (python.charAt(i) == '\\') {
                i++; // an escaped character never closes the literal, raw or not
            } else if (python.startsWith(quote, i)) {
                return i;
            }
        }
        throw new IllegalArgumentException("a string assigned to '" + name + "' is not closed");
    }

    /** Python's escape sequences in a non-raw literal; an unknown escape stays as written, as in Python. */
    static String unescape(String body) {
        StringBuilder out = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 == body.length()) {
                out.append(c);
                continue;
            }
            char e = body.charAt(++i);
            switch (e) {
                case '\n' -> { } // a line continuation
                case '\\', '\'', '"' -> out.append(e);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case '0' -> out.append('\0');
                case 'a' -> out.append('\u0007');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'v' -> out.append('\u000b');
                default -> out.append('\\').append(e);
            }
        }
        return out.toString();
    }

    /**
     * {@code template % values} in Python with a mapping: {@code %(key)d} and {@code %(key)s} become the key's value,
     * {@code %%} a percent sign.
     *
     * @throws IllegalArgumentException for a key missing from {@code values} or a conversion Python would reject
     *     here
     */
    static String format(String template, Map<String, ?> values) {
        StringBuilder out = new StringBuilder(template.length());
        Matcher m = Pattern.compile("%(?:%|\\((\\w+)\\)([ds])|)").matcher(template);
        int last = 0;
        while (m.find()) {
            out.append(template, last, m.start());
            last = m.end();
            if (m.group().equals("%%")) {
                out.append('%');
            } else if (m.group(1) == null) {
                throw new IllegalArgumentException("a '%' at offset " + m.start() + " is not %(key)d, %(key)s or %%");
            } else if (!values.containsKey(m.group(1))) {
                throw new IllegalArgumentException("no value for %(" + m.group(1) + ")");
            } else {
                out.append(values.get(m.group(1)));
            }
        }
        return out.append(template.substring(last)).toString();
    }
}
