package org.polygpu.mangling;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The symbol name of a C++ function as g++ (and nvcc, for kernels) gives it, by the Itanium C++ ABI: {@code _Z}, the
 * name ({@code N...E} when it is in a namespace), then the parameter types, {@code v} when there are none.
 *
 * <p>Substitutions follow the ABI: every namespace prefix ({@code aa}, then {@code aa::bb}), and every pointer type
 * and const-qualified type the first time it appears, is numbered in order of appearance; a later occurrence of the
 * same type is written {@code S_} for the first, {@code S0_} for the second, then {@code S1_} ... {@code S9_},
 * {@code SA_} ... {@code SZ_}, {@code S10_} (base 36). Fundamental types are never substituted. A pointer to const
 * {@code const int*} adds two entries, {@code Ki} then {@code PKi}.
 *
 * <p>Names in {@code std}, templates and operators are not supported (g++ abbreviates or encodes them
 * differently): they are refused rather than mangled wrongly. Stateless.
 */
public final class ItaniumMangler {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ItaniumMangler() {
    }

    /**
     * The mangled name of {@code qualifiedName} ({@code f} or {@code ns::inner::f}, a leading {@code ::} allowed)
     * taking {@code parameters}.
     *
     * @throws IllegalArgumentException for a name that is not a plain or namespace-qualified identifier, or one in
     *                                  namespace {@code std}
     */
    public static String mangle(String qualifiedName, List<CxxParameter> parameters) {
        List<String> parts = components(qualifiedName);
        List<String> substitutable = new ArrayList<>();
        StringBuilder out = new StringBuilder("_Z");
        if (parts.size() == 1) {
            appendSourceName(out, parts.get(0));
        } else {
            out.append('N');
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                appendSourceName(out, parts.get(i));
                prefix.append("::").append(parts.get(i));
                if (i < parts.size() - 1) {
                    substitutable.add("namespace " + prefix);
                }
            }
            out.append('E');
        }
        if (parameters.isEmpty()) {
            out.append('v');
        }
        for (CxxParameter p : parameters) {
            appendType(out, p, substitutable);
        }
        return out.toString();
    }

    private static List<String> components(String qualifiedName) {
        String name = qualifiedName.strip();
        if (name.startsWith("::")) {
            name = name.substring(2);
        }
        List<String> parts = List.of(name.split("::", -1));
        for (String part : parts) {
            if (!IDENTIFIER.matcher(part.strip()).matches()) {
                throw new IllegalArgumentException("cannot mangle '" + qualifiedName + "': only identifiers, possibly "
                        + "in namespaces (ns::f), are supported");
            }
        }
        if (parts.size() > 1 && parts.get(0).strip().equals("std")) {
            throw new IllegalArgumentException("cannot mangle '" + qualifiedName + "': names in namespace std are "
                    + "not supported");
        }
        return parts.stream().map(String::strip).toList();
    }

    private static void appendSourceName(StringBuilder out, String identifier) {
        out.append(identifier.length()).append(identifier);
    }

    private static void appendType(StringBuilder out, CxxParameter p, List<String> substitutable) {
        String code = String.valueOf(p.type().code());
        switch (p.passing()) {
            case VALUE -> out.append(code);
            case POINTER -> appendSubstitutable(out, "P" + code, "P" + code, substitutable);
            case POINTER_TO_CONST -> {
                String full = "PK" + code;
                int seen = substitutable.indexOf(full);
                if (seen >= 0) {
                    out.append(reference(seen));
                } else {
                    out.append('P');
                    appendSubstitutable(out, "K" + code, "K" + code, substitutable);
                    substitutable.add(full);
                }
            }
        }
    }

    /** Writes {@code mangled}, or a reference to its earlier occurrence, and numbers it on its first. */
    private static void appendSubstitutable(StringBuilder out, String key, String mangled, List<String> substitutable) {
        int seen = substitutable.indexOf(key);
        if (seen >= 0) {
            out.append(reference(seen));
        } else {
            out.append(mangled);
            substitutable.add(key);
        }
    }

    /** {@code S_} for entry 0, then {@code S<n-1 in base 36>_}. */
    static String reference(int index) {
        return index == 0 ? "S_" : "S" + Integer.toString(index - 1, 36).toUpperCase(java.util.Locale.ROOT) + "_";
    }
}
