package org.polygpu.nvrtc;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says which requested kernel names a failed compilation could not find, and which kernels the source declares,
 * so that a misspelled kernel reads "no kernel named X" rather than NVRTC's errors about its internal
 * {@code __nv_name_map}. The declared kernels are found by a pattern over the source (each {@code __global__}
 * function's name), which is good enough for a message and is never used to compile.
 */
final class KernelNames {
    /** NVRTC's pseudo-file for name expressions; an error there means an expression did not resolve. */
    static final String NAME_MAP = "__nv_name_map";

    private static final Pattern LAUNCH_BOUNDS = Pattern.compile("__launch_bounds__\\s*\\([^)]*\\)");
    private static final Pattern GLOBAL = Pattern.compile("__global__[^;{(]*?\\b(\\w+)\\s*\\(");

    private KernelNames() {
    }

    /**
     * The message for a compilation that failed because some of {@code expressions} name nothing in {@code source},
     * or empty when the failure is something else (the log has no error in the name map).
     */
    static String missing(String source, String programName, List<String> expressions, String log) {
        if (!log.contains(NAME_MAP)) {
            return "";
        }
        List<String> missing = new ArrayList<>();
        for (String e : expressions) {
            if (log.contains("Input name expression was: \" " + e + "\"")
                    || log.contains("\"" + e + "\" is undefined")) {
                missing.add(e);
            }
        }
        if (missing.isEmpty()) {
            return "";
        }
        Set<String> declared = declared(source);
        String which = missing.size() == 1 ? "no kernel named '" + missing.getFirst() + "'"
                : "no kernels named " + String.join(", ", missing.stream().map(m -> "'" + m + "'").toList());
        return which + " in " + programName + "; " + (declared.isEmpty() ? "it declares no __global__ function"
                : "the kernels it declares: " + String.join(", ", declared));
    }

    /** The names of the {@code __global__} functions in {@code source}, in order. */
    static Set<String> declared(String source) {
        Matcher m = GLOBAL.matcher(LAUNCH_BOUNDS.matcher(source).replaceAll(" "));
        Set<String> names = new LinkedHashSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
