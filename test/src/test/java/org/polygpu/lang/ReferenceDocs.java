package org.polygpu.lang;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.graalvm.options.OptionDescriptor;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.polygpu.blas.BlasFunction;
import org.polygpu.blas.BlasFunctions;
import org.polygpu.config.OptionValue;
import org.polygpu.lang.builtins.BuiltinSignature;
import org.polygpu.lang.objects.BuiltinObject;
import org.polygpu.lang.objects.GuestMembers;
import org.polygpu.lang.objects.NamespaceObject;
import org.polygpu.sched.Parameter;

/**
 * The reference pages of {@code docs/reference/}, written from what the code declares: the options from the
 * language's option descriptors (what {@code bin/polygpu --help} prints), the {@code CU} namespace from its builtins'
 * signatures, the members of arrays, kernels and devices from {@link GuestMembers}. Each page maps to its text;
 * {@link ReferenceDocsTest} compares them with the committed files and rewrites them on request.
 */
final class ReferenceDocs {
    static final String REGENERATE = "scripts/docs-reference.sh";
    private static final String HEADER = "<!-- Generated from the code by " + REGENERATE
            + "; do not edit: change the declarations and run it again. -->\n\n";

    private ReferenceDocs() {
    }

    /** Every page, by file name under {@code docs/reference/}. */
    static Map<String, String> pages(Engine engine, Context context) {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("options.md", options(engine));
        pages.put("cu.md", namespace(context));
        pages.put("objects.md", objects());
        return pages;
    }

    static String options(Engine engine) {
        Set<String> grcuda = new TreeSet<>();
        GrcudaOptions.descriptors().forEach(d -> grcuda.add(d.getName()));
        StringBuilder own = new StringBuilder();
        StringBuilder compat = new StringBuilder();
        for (OptionDescriptor d : engine.getLanguages().get(PolygpuLanguage.ID).getOptions()) {
            Object value = d.getKey().getDefaultValue();
            String syntax = d.getUsageSyntax() != null ? d.getUsageSyntax()
                    : value instanceof Boolean ? "true|false" : "<value>";
            String shown = String.valueOf(value instanceof OptionValue v ? v.optionValue() : value);
            (grcuda.contains(d.getName()) ? compat : own).append(row("`--" + d.getName() + "`",
                    "`" + syntax + "`", shown.isEmpty() ? "" : "`" + shown + "`", d.getHelp()));
        }
        String head = "| option | values | default | what it does |\n|---|---|---|---|\n";
        return HEADER + "# Options\n\n"
                + "Every option is given as `--polygpu.Name=value` to `bin/polygpu` (before the script), or as "
                + "`.option(\"polygpu.Name\", \"value\")` on a Java `Context.Builder`. Each value is checked when the "
                + "context starts, whatever the backend; a bad value stops it with the valid values. "
                + "`bin/polygpu --help` prints the same list.\n\n"
                + "## polygpu's options\n\n" + head + own
                + "\n## GrCUDA's options, accepted for its programs\n\n" + head + compat;
    }

    static String namespace(Context context) {
        context.eval(PolygpuLanguage.ID, "CU"); // opens the language in the context
        context.enter();
        try {
            NamespaceObject root = PolygpuContext.get(null).root();
            StringBuilder page = new StringBuilder(HEADER + "# The `CU` namespace\n\n"
                    + "What `polyglot.eval(language=\"polygpu\", string=\"CU\")` (Python), "
                    + "`Polyglot.eval(\"polygpu\", \"CU\")` (JavaScript) or `context.eval(\"polygpu\", \"CU\")` "
                    + "(Java) returns. Each function below is also a polygpu expression of its own "
                    + "(`polyglot.eval(language=\"polygpu\", string=\"buildkernel\")`); `float[1000]` evaluates to a "
                    + "new array. Arguments in brackets are optional.\n\n");
            page.append("| function | what it does |\n|---|---|\n");
            StringBuilder namespaces = new StringBuilder();
            for (String name : root.memberNames()) {
                Object member = root.lookup(name);
                if (member instanceof BuiltinObject b) {
                    page.append(row(b.signature()));
                } else if (member instanceof NamespaceObject ns && ns != root) {
                    namespaces.append(name.equals("BLAS") ? blas() : unsupported(ns));
                }
            }
            return page.append(namespaces).toString();
        } finally {
            context.leave();
        }
    }

    private static String blas() {
        StringBuilder s = new StringBuilder("\n## `CU.BLAS`\n\n"
                + "cuBLAS's functions as DAG computations (`CU.BLAS.cublasSaxpy(...)`, or the expression "
                + "`BLAS::cublasSaxpy`): on the emulator a Java implementation timed by a roofline model, on CUDA "
                + "cuBLAS itself. Pointers are device arrays; the access modes order them in the DAG like a "
                + "kernel's.\n\n| function | parameters |\n|---|---|\n");
        for (BlasFunction f : BlasFunctions.all()) {
            s.append("| `").append(f.name()).append("` | ").append(f.parameters().stream().map(Parameter::toString)
                    .map(p -> "`" + p + "`").collect(Collectors.joining(", "))).append(" |\n");
        }
        return s.toString();
    }

    private static String unsupported(NamespaceObject ns) {
        StringBuilder s = new StringBuilder("\n## `CU." + ns.qualifiedName() + "`\n\n| function | what it does |\n"
                + "|---|---|\n");
        for (String name : ns.memberNames()) {
            if (ns.lookup(name) instanceof BuiltinObject b) {
                s.append(row(b.signature()));
            }
        }
        return s.toString();
    }

    static String objects() {
        return HEADER + "# Members of arrays, kernels, devices, streams and events\n\n"
                + "## Device arrays\n\n"
                + "`CU.DeviceArray(type, n)` and `float[n]` expressions return an array that Python, JavaScript "
                + "and Java index like their own (`x[i]`, `x[i] = v`, `len(x)`, `x.length`, `getArraySize()`); "
                + "a multi-dimensional array's row `m[i]` is a view. Members of a view: "
                + GuestMembers.arrayViewMembers().stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "))
                + ".\n\n" + table(GuestMembers.arrayMembers())
                + "\n## Kernels\n\n"
                + "`CU.buildkernel` and `CU.bindkernel` return a kernel; `k(grid, block[, sharedMem][, stream])` "
                + "configures a launch (grid and block are numbers or lists of up to 3), and calling that with one "
                + "argument per parameter launches it and returns at once.\n\n"
                + table(GuestMembers.kernelMembers())
                + "\n## Launches\n\nWhat calling a configured kernel returns:\n\n"
                + table(GuestMembers.launchMembers())
                + "\n## Devices\n\n`CU.getdevices()` and `CU.getdevice(k)` return devices:\n\n"
                + table(GuestMembers.deviceMembers())
                + "\n## Streams and events\n\n`CU.cudaStreamCreate()` and `CU.cudaEventCreate()` return handles "
                + "that the stream and event functions take, a stream also as the last item of a launch "
                + "configuration, `k(grid, block[, sharedMem], stream)`:\n\n"
                + table(GuestMembers.handleMembers());
    }

    private static String table(List<BuiltinSignature> members) {
        StringBuilder s = new StringBuilder("| member | what it does |\n|---|---|\n");
        members.forEach(m -> s.append(row(m)));
        return s.toString();
    }

    private static String row(BuiltinSignature s) {
        return row("`" + s.usage() + "`", s.help());
    }

    private static String row(String... cells) {
        return "| " + java.util.Arrays.stream(cells).map(c -> c.replace("|", "\\|"))
                .collect(Collectors.joining(" | ")) + " |\n";
    }
}
